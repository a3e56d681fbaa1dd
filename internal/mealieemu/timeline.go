package mealieemu

import (
	"net/http"
)

// noImage is the image value of an event without one (TestTimelineAndLastMade in integration/contract).
const noImage = "does not have image"

func (st *store) renderEvent(e *timelineEvent) object {
	img := noImage
	if e.Image != nil {
		img = *e.Image
	}
	return object{{"recipeId", e.RecipeID}, {"userId", st.user.ID}, {"subject", e.Subject}, {"eventType", e.EventType},
		{"eventMessage", optString(e.EventMessage)}, {"image", img}, {"timestamp", stamp(e.Timestamp)}, {"id", e.ID},
		{"groupId", st.user.GroupID}, {"householdId", st.user.HouseholdID},
		{"createdAt", stamp(e.CreatedAt)}, {"updatedAt", stamp(e.UpdatedAt)}}
}

func (s *Server) timelineRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/recipes/timeline/events", s.listEvents)
	mux.HandleFunc("POST /api/recipes/timeline/events", s.createEvent)
	mux.HandleFunc("GET /api/recipes/timeline/events/{id}", s.getEvent)
	mux.HandleFunc("PUT /api/recipes/timeline/events/{id}", s.updateEvent)
	mux.HandleFunc("DELETE /api/recipes/timeline/events/{id}", s.deleteEvent)
}

// listEvents filters with queryFilter, e.g. recipe_id="<uuid>".
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.timeline, listSpec[*timelineEvent]{route: "/recipes/timeline/events",
		attrs: map[string]attrDef[*timelineEvent]{
			"id":         {kindUUID, func(e *timelineEvent) []any { return one(e.ID) }},
			"recipe_id":  {kindUUID, func(e *timelineEvent) []any { return one(e.RecipeID) }},
			"event_type": {kindString, func(e *timelineEvent) []any { return one(e.EventType) }},
			"subject":    {kindString, func(e *timelineEvent) []any { return one(e.Subject) }},
			"timestamp":  {kindTime, func(e *timelineEvent) []any { return one(e.Timestamp) }},
			"created_at": {kindTime, func(e *timelineEvent) []any { return one(e.CreatedAt) }},
		},
		render: func(e *timelineEvent) any { return st.renderEvent(e) }})
}

// createEvent answers 201. Without a timestamp Mealie stores the server's
// start time, its default being evaluated once at import
// (TestTimelineAndLastMade in integration/contract: timestamp earlier than createdAt).
func (s *Server) createEvent(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if !requireStrings(w, b, "recipeId", "subject", "eventType") {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rid, _ := b.str("recipeId")
	if st.recipeByID(rid) == nil {
		writeInternal(w)
		return
	}
	now := st.now().UTC()
	e := &timelineEvent{ID: newID(), RecipeID: rid, EventMessage: b.optStr("eventMessage"), Image: b.optStr("image"),
		Timestamp: st.startedAt, CreatedAt: now, UpdatedAt: now}
	e.Subject, _ = b.str("subject")
	e.EventType, _ = b.str("eventType")
	if ts, ok := b.str("timestamp"); ok {
		if t, ok := parseLooseTime(ts); ok {
			e.Timestamp = t.UTC()
		}
	}
	st.timeline = append(st.timeline, e)
	writeJSON(w, http.StatusCreated, st.renderEvent(e))
}

func (st *store) eventByID(id string) (*timelineEvent, int) {
	for i, e := range st.timeline {
		if e.ID == id {
			return e, i
		}
	}
	return nil, -1
}

func (s *Server) getEvent(w http.ResponseWriter, r *http.Request) {
	getByID(s, w, r, func(st *store, id string) *timelineEvent { e, _ := st.eventByID(id); return e }, (*store).renderEvent)
}

// updateEvent changes subject, message and image.
func (s *Server) updateEvent(w http.ResponseWriter, r *http.Request) {
	id, b, ok := readPut(w, r, "subject")
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	e, _ := st.eventByID(id)
	if e == nil {
		st.writeNoRow(w)
		return
	}
	e.Subject, _ = b.str("subject")
	if _, ok := b["eventMessage"]; ok {
		e.EventMessage = b.optStr("eventMessage")
	}
	if _, ok := b["image"]; ok {
		e.Image = b.optStr("image")
	}
	e.UpdatedAt = st.now().UTC()
	writeJSON(w, http.StatusOK, st.renderEvent(e))
}

func (s *Server) deleteEvent(w http.ResponseWriter, r *http.Request) {
	rowDelete[timelineEvent, string]{parse: itemUUID,
		rows:   func(st *store) *[]*timelineEvent { return &st.timeline },
		key:    func(e *timelineEvent) string { return e.ID },
		render: (*store).renderEvent,
	}.serve(s, w, r)
}

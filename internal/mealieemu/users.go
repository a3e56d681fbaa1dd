package mealieemu

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// The default admin of a fresh Mealie install; POST /api/auth/token accepts
// these.
const (
	adminEmail    = "changeme@example.com"
	adminUsername = "admin"
	adminPassword = "MyPassword"
)

// sessionMaxAge is the login cookie's lifetime in seconds, as Mealie sets it
// (Max-Age=172800).
const sessionMaxAge = "172800.0"

// handleAbout is GET /api/app/about (services/internal/mealie/testdata/app_about__ok.json).
func (s *Server) handleAbout(w http.ResponseWriter, r *http.Request) {
	p := s.store.profile
	o := object{{"production", true}, {"version", p.version}, {"demoStatus", false}, {"allowSignup", false}}
	if p.appInfoLogin {
		o = append(o, field{"allowPasswordLogin", true})
	}
	o = append(o, field{"defaultGroupSlug", nil}, field{"defaultHouseholdSlug", nil},
		field{"enableOidc", false}, field{"oidcRedirect", false}, field{"oidcProviderName", "OAuth"})
	if !p.aiProviders {
		o = append(o, field{"enableOpenai", false}, field{"enableOpenaiImageServices", false})
	}
	if p.appInfoLogin {
		o = append(o, field{"tokenTime", 48})
	}
	if p.aiProviders {
		o = append(o, field{"allowedIframeHosts", []any{"youtube.com", "youtube-nocookie.com", "vimeo.com", "player.vimeo.com"}})
	}
	writeJSON(w, http.StatusOK, o)
}

// handleGroupSelf is GET /api/groups/self as 3.20 answers it, with the
// group's AI provider settings, none set on a fresh install
// (testdata/recordings/3.20/TestAboutAndAuth.json in the contract package).
// Served on profiles with aiProviders only: sous reads it nowhere else.
func (s *Server) handleGroupSelf(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.user
	writeJSON(w, http.StatusOK, object{
		{"name", u.GroupName}, {"id", u.GroupID}, {"slug", u.GroupSlug},
		{"preferences", object{{"privateGroup", true}, {"showAnnouncements", true}, {"groupId", u.GroupID}, {"id", seedID("group-preferences", u.GroupID)}}},
		{"aiProviderSettings", object{{"defaultProviderId", nil}, {"audioProviderId", nil}, {"imageProviderId", nil},
			{"providers", []any{}}, {"aiEnabled", false}, {"audioProviderEnabled", false}, {"imageProviderEnabled", false}}},
	})
}

// handleStartupInfo is GET /api/app/about/startup-info.
func (s *Server) handleStartupInfo(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, object{{"isFirstLogin", true}, {"isDemo", false}})
}

// handleSelf is GET /api/users/self (services/internal/mealie/testdata/users_self__ok.json).
func (s *Server) handleSelf(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.user
	tokens := []any{}
	for _, t := range st.apiTokens {
		if !t.Deleted {
			o := object{{"name", t.Name}, {"id", t.ID}, {"createdAt", stamp(st.startedAt)}}
			if st.profile.tokenInSelf {
				o = append(object{{"token", t.Token}}, o...)
			}
			tokens = append(tokens, o)
		}
	}
	o := object{
		{"id", u.ID}, {"username", u.Username}, {"fullName", u.FullName}, {"email", u.Email},
		{"authMethod", "Mealie"}, {"admin", true}, {"group", u.GroupName}, {"household", u.HouseholdName},
		{"advanced", true},
	}
	o = append(o, field{"canInvite", true}, field{"canManage", true}, field{"canManageHousehold", true},
		field{"canOrganize", true}, field{"groupId", u.GroupID}, field{"groupSlug", u.GroupSlug},
		field{"householdId", u.HouseholdID}, field{"householdSlug", u.HouseholdSlug},
		field{"tokens", tokens}, field{"cacheKey", "1234"})
	if st.profile.announcements {
		o = append(o, field{"showAnnouncements", true}, field{"lastReadAnnouncement", nil})
	}
	writeJSON(w, http.StatusOK, o)
}

// handleLogin is POST /api/auth/token. It reads form fields only; a JSON body
// leaves them empty and fails like a wrong password.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var user, pass string
	if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/x-www-form-urlencoded") || strings.HasPrefix(ct, "multipart/form-data") {
		if err := r.ParseMultipartForm(maxBodyBytes); err != nil && err != http.ErrNotMultipart {
			writeDetail(w, http.StatusUnauthorized, "Unauthorized")
			return
		}
		user, pass = r.PostFormValue("username"), r.PostFormValue("password")
	}
	if (user != adminEmail && user != adminUsername) || pass != adminPassword {
		writeDetail(w, http.StatusUnauthorized, "Unauthorized")
		return
	}
	tok := "session-" + randomHex(16)
	st := s.store
	st.mu.Lock()
	st.sessions[tok] = true
	st.mu.Unlock()
	w.Header().Set("Set-Cookie", "mealie.access_token="+tok+"; HttpOnly; Max-Age="+sessionMaxAge+"; Path=/; SameSite=lax; Secure")
	writeJSON(w, http.StatusOK, object{{"access_token", tok}, {"token_type", "bearer"}})
}

// handleCreateToken is POST /api/users/api-tokens.
func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	body, ok := decodeBody(w, r)
	if !ok {
		return
	}
	name, isStr := body["name"].(string)
	if !isStr {
		writeValidation(w, missing(body.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	st.nextTokenID++
	t := &apiToken{ID: st.nextTokenID, Name: name, Token: "mealietest-" + randomHex(20)}
	st.apiTokens = append(st.apiTokens, t)
	writeJSON(w, http.StatusCreated, object{{"token", t.Token}, {"name", t.Name}, {"id", t.ID}, {"createdAt", nil}})
}

// handleDeleteToken is DELETE /api/users/api-tokens/{id}.
func (s *Server) handleDeleteToken(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeValidation(w, intParsing("path", "token_id", r.PathValue("id")))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, t := range st.apiTokens {
		if t.ID == id && !t.Deleted {
			t.Deleted = true
			writeJSON(w, http.StatusOK, object{{"tokenDelete", t.Name}})
			return
		}
	}
	writeNoToken(w)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// jsonBody is a decoded JSON object body.
type jsonBody map[string]any

// raw returns the body as FastAPI echoes it in a validation error's "input".
func (b jsonBody) raw() any {
	if b == nil {
		return map[string]any{}
	}
	return map[string]any(b)
}

// has reports whether the key was sent, even as null.
// decodeBody reads a JSON object body. A body that is not JSON gets FastAPI's
// json_invalid 422; an empty body decodes as {} so that missing-field errors
// follow, as FastAPI reports them.
func decodeBody(w http.ResponseWriter, r *http.Request) (jsonBody, bool) {
	var b jsonBody
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&b); err != nil {
		if err.Error() == "EOF" {
			return jsonBody{}, true
		}
		writeValidation(w, valErr{typ: "json_invalid", loc: []any{"body", 0}, msg: "JSON decode error",
			input: map[string]any{}, ctx: object{{"error", "Expecting value"}}})
		return nil, false
	}
	if b == nil {
		b = jsonBody{}
	}
	return b, true
}

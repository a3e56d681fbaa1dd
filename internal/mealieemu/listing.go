package mealieemu

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// listSpec describes a paginated collection other than recipes.
type listSpec[T comparable] struct {
	// route is the path without /api, for next/previous links.
	route string
	// attrs are the attributes queryFilter and orderBy may name.
	attrs map[string]attrDef[T]
	// text is what search matches against (normalized); nil means the
	// collection has no search parameter.
	text func(T) string
	// columns are the schema's searchable properties (nil for NULL), the
	// first giving the search's order; normalized says whether the
	// schema's search is normalized (_normalize_search). A fuzzy search
	// (PostgreSQL) reads them; a tokenized one text.
	columns    func(T) []*string
	normalized bool
	// render turns a row into its JSON.
	render func(T) any
}

// listRows answers a list request: queryFilter, search, orderBy and the
// envelope with Mealie's generic next/previous links (services/internal/mealie/testdata/foods__list_paged.json).
// rows are in creation order; without orderBy the newest come first, as
// Mealie orders by created_at descending.
func listRows[T comparable](st *store, w http.ResponseWriter, r *http.Request, rows []T, spec listSpec[T]) {
	pq, ok := parsePageQuery(w, r)
	if !ok {
		return
	}
	rows = slices.Clone(rows)
	if pq.hasQueryFilter {
		f, err := parseQueryFilter(pq.QueryFilter, spec.attrs)
		if err != nil {
			err.write(w)
			return
		}
		f.foldCase = profileOf(r).caseInsensitiveFilter
		f.oneIsIn = profileOf(r).containsAllOneIsIn
		rows = slices.DeleteFunc(rows, func(x T) bool { return !f.matches(x) })
	}
	search := r.URL.Query().Get("search")
	var ranks map[T]float64
	if search != "" && spec.text != nil {
		sq := readSearch(search, spec.normalized, st.profile.postgres)
		var kept []T
		ranks = map[T]float64{}
		for _, x := range rows {
			var ok bool
			var rank float64
			if sq.fuzzy && spec.columns != nil {
				ok, rank = sq.match(spec.columns(x), trigramThreshold, true)
			} else {
				txt := normalizeSearch(spec.text(x))
				for _, t := range searchTokens(search) {
					ok = ok || strings.Contains(txt, t)
				}
			}
			if ok {
				ranks[x] = rank
				kept = append(kept, x)
			}
		}
		rows = kept
		if !sq.fuzzy {
			ranks = nil
		}
	}
	switch {
	case pq.hasOrderBy:
		if err := orderRows(rows, pq, spec.attrs); err != nil {
			writeDetail(w, http.StatusBadRequest, err.Error())
			return
		}
	case search == "":
		if pq.OrderDirection == "desc" {
			slices.Reverse(rows)
		}
	}
	if ranks != nil {
		// the search's order comes before orderBy (search.go)
		slices.SortStableFunc(rows, func(a, b T) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	pg, pp, totalPages, lo, hi := window(len(rows), pq.Page, pq.PerPage)
	items := make([]any, 0, hi-lo)
	for _, x := range rows[lo:hi] {
		items = append(items, spec.render(x))
	}
	writeJSON(w, http.StatusOK, envelope(spec.route, pg, pp, len(rows), totalPages, items, genericLinkParams(pq, pq.PerPage, st.profile.pageParamsLast)))
}

// orderRows sorts by the named attributes; names may carry ":asc"/":desc".
func orderRows[T any](rows []T, pq pageQuery, attrs map[string]attrDef[T]) error {
	type key struct {
		def  attrDef[T]
		desc bool
	}
	var keys []key
	for _, part := range strings.Split(pq.OrderBy, ",") {
		name, dir, hasDir := strings.Cut(strings.TrimSpace(part), ":")
		def, ok := attrs[decamelize(name)]
		if !ok {
			return fmt.Errorf("Invalid order_by statement %q: %q is invalid", pq.OrderBy, name)
		}
		desc := pq.OrderDirection == "desc"
		if hasDir {
			desc = dir == "desc"
		}
		keys = append(keys, key{def, desc})
	}
	slices.SortStableFunc(rows, func(a, b T) int {
		for _, k := range keys {
			va, vb := k.def.get(a), k.def.get(b)
			if len(va) == 0 || len(vb) == 0 {
				if len(va) == len(vb) {
					continue
				}
				c := 1 // nulls last
				if len(va) > 0 {
					c = -1
				}
				if pq.OrderByNull == "first" {
					c = -c
				}
				return c
			}
			c := compareAny(lowerString(va[0]), lowerString(vb[0]))
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return nil
}

func lowerString(v any) any {
	if s, ok := v.(string); ok {
		return strings.ToLower(s)
	}
	if b, ok := v.(bool); ok {
		if b {
			return 1.0
		}
		return 0.0
	}
	return v
}

var uuidChars = regexp.MustCompile(`[^0-9a-fA-F-]`)

// pathUUID validates a path id as pydantic's UUID4 does: not a UUID is
// uuid_parsing; a UUID of another
// version is uuid_version.
func pathUUID(w http.ResponseWriter, name, v string) (string, bool) {
	if e := uuid4Error(v); e != nil {
		e.loc = []any{"path", name}
		writeValidation(w, *e)
		return "", false
	}
	return strings.ToLower(v), true
}

// uuid4Error is the validation entry for a value that is not a version-4 UUID,
// or nil. loc is left for the caller.
func uuid4Error(v string) *valErr {
	u, err := uuid.Parse(v)
	if err != nil {
		msg := fmt.Sprintf("invalid length: expected length 32 for simple format, found %d", len(v))
		if loc := uuidChars.FindStringIndex(strings.TrimPrefix(v, "urn:uuid:")); loc != nil {
			msg = fmt.Sprintf("invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `%s` at %d",
				string([]rune(strings.TrimPrefix(v, "urn:uuid:")[loc[0]:])[0]), loc[0]+1)
		}
		return &valErr{typ: "uuid_parsing", msg: "Input should be a valid UUID, " + msg, input: v, ctx: object{{"error", msg}}}
	}
	if u.Version() != 4 {
		return &valErr{typ: "uuid_version", msg: "UUID version 4 expected", input: v, ctx: object{{"expected_version", 4}}}
	}
	return nil
}

// getByID answers the generic CRUD mixin's GET .../{id}: 422 for an id that
// is not a UUID, the rendered row, or 404 "Not found." when find has none.
// The caller holds no lock; getByID takes the store's.
func getByID[T any](s *Server, w http.ResponseWriter, r *http.Request, find func(*store, string) *T, render func(*store, *T) object) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if v := find(st, id); v != nil {
		writeJSON(w, http.StatusOK, render(st, v))
		return
	}
	writeNotFoundMixin(w)
}

// itemUUID is the {id} of a CRUD route, which must be a UUID (422 on the
// item_id path otherwise).
func itemUUID(w http.ResponseWriter, r *http.Request) (string, bool) {
	return pathUUID(w, "item_id", r.PathValue("id"))
}

// rowDelete is the CRUD mixin's DELETE .../{id}: 200 with the row as it was
// before it went, or 400 "No row was found" when there is none, a second
// delete included.
type rowDelete[T any, K comparable] struct {
	// parse reads the {id} and answers 422 when it cannot.
	parse  func(http.ResponseWriter, *http.Request) (K, bool)
	rows   func(*store) *[]*T
	key    func(*T) K
	render func(*store, *T) object
	// unlink, when set, clears what pointed at the row once it is gone.
	unlink func(*store, K)
}

func (d rowDelete[T, K]) serve(s *Server, w http.ResponseWriter, r *http.Request) {
	id, ok := d.parse(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rows := d.rows(st)
	for i, v := range *rows {
		if d.key(v) == id {
			out := d.render(st, v)
			*rows = append((*rows)[:i], (*rows)[i+1:]...)
			if d.unlink != nil {
				d.unlink(st, id)
			}
			writeJSON(w, http.StatusOK, out)
			return
		}
	}
	st.writeNoRow(w)
}

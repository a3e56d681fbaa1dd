package mealieemu

import (
	"encoding/json"
	"html"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// bulkTarget is recipes_bulk_tag's organizer list: full {id,name,slug} objects,
// with id and slug both reported missing otherwise.
func bulkOrganizers(b jsonBody, key string) ([]string, []valErr) {
	v, ok := b[key]
	if !ok {
		return nil, []valErr{missing(b.raw(), key)}
	}
	items, _ := v.([]any)
	var ids []string
	var verrs []valErr
	for i, it := range items {
		ob, _ := asBody(it)
		for _, k := range []string{"id", "slug"} {
			if _, ok := ob.str(k); !ok {
				verrs = append(verrs, missing(ob.raw(), key, i, k))
			}
		}
		if id, ok := ob.str("id"); ok {
			ids = append(ids, id)
		}
	}
	return ids, verrs
}

func bulkRecipes(b jsonBody) ([]string, *valErr) {
	v, ok := b.list("recipes")
	if !ok {
		e := missing(b.raw(), "recipes")
		return nil, &e
	}
	var out []string
	for _, x := range v {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// handleBulkOrganize is POST /api/recipes/bulk-actions/{tag,categorize}: it
// adds, never removes, answers 200
// null, and fails unhandled on an unknown recipe slug.
// Recipes are named by slug only
// (testdata/recordings/<version>/TestBulkTagCategorizeDelete.json in the
// contract package).
func (s *Server) handleBulkOrganize(key string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, ok := decodeBody(w, r)
		if !ok {
			return
		}
		slugs, rerr := bulkRecipes(b)
		ids, verrs := bulkOrganizers(b, key)
		if rerr != nil {
			verrs = append([]valErr{*rerr}, verrs...)
		}
		if len(verrs) > 0 {
			writeValidation(w, verrs...)
			return
		}
		st := s.store
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.profile.bulkNeedsGroupID && !allHaveGroupID(b, key) {
			writeJSON(w, http.StatusOK, nil)
			return
		}
		list := st.tags
		if key == "categories" {
			list = st.categories
		}
		for _, slug := range slugs {
			rc := st.findRecipe(slug)
			if rc == nil || rc.Slug != slug {
				writeInternal(w)
				return
			}
			for _, id := range ids {
				if findOrganizer(list, id) == nil {
					continue
				}
				if key == "categories" {
					rc.CategoryIDs = appendUnique(rc.CategoryIDs, id)
				} else {
					rc.TagIDs = appendUnique(rc.TagIDs, id)
				}
			}
			rc.UpdatedAt = st.now().UTC()
		}
		writeJSON(w, http.StatusOK, nil)
	}
}

// allHaveGroupID reports whether every organizer sent under key carries a
// groupId: 3.11 answers a bulk action with one that does not 200 and
// changes nothing (profile bulkNeedsGroupID).
func allHaveGroupID(b jsonBody, key string) bool {
	items, _ := b[key].([]any)
	for _, it := range items {
		ob, _ := asBody(it)
		if _, ok := ob.str("groupId"); !ok {
			return false
		}
	}
	return true
}

func appendUnique(ids []string, id string) []string {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}

// handleBulkDelete answers 200 null, unknown slugs included
// (TestBulkTagCategorizeDelete in integration/contract).
func (s *Server) handleBulkDelete(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	slugs, rerr := bulkRecipes(b)
	if rerr != nil {
		writeValidation(w, *rerr)
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, slug := range slugs {
		if rc := st.findRecipe(slug); rc != nil && rc.Slug == slug {
			st.removeRecipe(rc)
		}
	}
	writeJSON(w, http.StatusOK, nil)
}

// badRecipeData is the scraper's 400 (services/internal/mealie/testdata/recipes_create_url__not_a_url.json).
func badRecipeData(w http.ResponseWriter) {
	writeJSON(w, http.StatusBadRequest, object{{"detail", object{{"details", "BAD_RECIPE_DATA"}}}})
}

// importFailure is 3.20's answer to a failed URL import: its route turns
// any exception into 400 with the exception's class name as the message
// (testdata/recordings/3.20/TestErrorBodyShapes.json in the contract
// package; "InvalidDomainError" for a loopback page and "HTTPException" for
// one without a recipe were seen live on 3.20.1, not recorded).
func importFailure(w http.ResponseWriter, exception string) {
	writeErrorResponse(w, http.StatusBadRequest, exception, "")
}

// handleCreateFromURL is POST /api/recipes/create/url {url, includeTags}. The
// emulator reaches no network: a page registered with WithWebPage is scraped,
// any other public URL fails as an unreachable page does (a bare 500). Loopback and
// private addresses trip Mealie's unhandled SSRF guard, a 500 text/plain.
// On 3.20 (profile.go, importFailure400) each of these failures is a 400
// naming the exception instead.
func (s *Server) handleCreateFromURL(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	raw, ok := b.str("url")
	if !ok {
		writeValidation(w, missing(b.raw(), "url"))
		return
	}
	fail400 := s.store.profile.importFailure400
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		if fail400 {
			importFailure(w, "HTTPException")
			return
		}
		badRecipeData(w)
		return
	}
	if privateHost(u.Hostname()) {
		if fail400 {
			importFailure(w, "InvalidDomainError")
			return
		}
		writeInternal(w)
		return
	}
	page, ok := s.cfg.pages[raw]
	if !ok {
		// A page Mealie cannot fetch is a bare 500, not BAD_RECIPE_DATA:
		// seen on 2.0, 2.8 and 3.11 for https://no-such-host.invalid/recipe
		// and http://192.0.2.1/recipe. 3.20 names the resolver's gaierror
		// (testdata/recordings/3.20/TestErrorBodyShapes.json); the emulator
		// says so for every page it cannot reach.
		if fail400 {
			importFailure(w, "gaierror")
			return
		}
		writeInternal(w)
		return
	}
	includeTags, _ := b.boolean("includeTags")
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	slug, ok := st.importPage(page, includeTags, raw)
	if !ok {
		if fail400 {
			importFailure(w, "HTTPException")
			return
		}
		badRecipeData(w)
		return
	}
	writeJSON(w, http.StatusCreated, slug)
}

// privateHost reports loopback, link-local, private and localhost names.
func privateHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())
}

// handleCreateBulkURL is POST /api/recipes/create/url/bulk: 202 with a report
// id, whatever the URLs.
func (s *Server) handleCreateBulkURL(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if _, ok := b.list("imports"); !ok {
		writeValidation(w, missing(b.raw(), "imports"))
		return
	}
	writeJSON(w, http.StatusAccepted, object{{"reportId", newID()}})
}

// handleCreateFromHTML is POST /api/recipes/create/html-or-json {data,
// includeTags}: a JSON-LD recipe or an HTML page carrying one; anything else is
// BAD_RECIPE_DATA.
func (s *Server) handleCreateFromHTML(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	data, ok := b.str("data")
	if !ok {
		writeValidation(w, missing(b.raw(), "data"))
		return
	}
	includeTags, _ := b.boolean("includeTags")
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	slug, ok := st.importPage(data, includeTags, "")
	if !ok {
		badRecipeData(w)
		return
	}
	writeJSON(w, http.StatusCreated, slug)
}

var (
	ldScript = regexp.MustCompile(`(?is)<script[^>]*type=["']application/ld\+json["'][^>]*>(.*?)</script>`)
	ogTitle  = regexp.MustCompile(`(?is)<meta[^>]*property=["']og:title["'][^>]*content=["']([^"']*)["']`)
	ogDesc   = regexp.MustCompile(`(?is)<meta[^>]*property=["']og:description["'][^>]*content=["']([^"']*)["']`)
)

// importPage creates a recipe from JSON-LD, from HTML carrying JSON-LD, or from
// an HTML page with only OpenGraph tags, which Mealie imports with placeholder
// content (services/scraper/scraper_strategies.py in Mealie 2.0).
func (st *store) importPage(data string, includeTags bool, orgURL string) (string, bool) {
	ld := findRecipeLD(data)
	if ld == nil {
		for _, m := range ldScript.FindAllStringSubmatch(data, -1) {
			if ld = findRecipeLD(m[1]); ld != nil {
				break
			}
		}
	}
	if ld == nil {
		m := ogTitle.FindStringSubmatch(data)
		if m == nil {
			return "", false
		}
		ld = jsonBody{"name": html.UnescapeString(m[1]),
			"recipeIngredient":   []any{"Could not detect ingredients"},
			"recipeInstructions": []any{map[string]any{"text": "Could not detect instructions"}}}
		if d := ogDesc.FindStringSubmatch(data); d != nil {
			ld["description"] = html.UnescapeString(d[1])
		}
	}
	name, _ := ld.str("name")
	rc, exc := st.createRecipe(strings.TrimSpace(name))
	if exc != "" {
		return "", false
	}
	rc.Description, _ = ld.str("description")
	rc.Yield = ldString(ld["recipeYield"])
	rc.TotalTime, rc.PrepTime, rc.PerformTime = ldString(ld["totalTime"]), ldString(ld["prepTime"]), ldString(ld["cookTime"])
	// Imports always get an image key and an orgURL, "" for pasted data.
	rc.OrgURL = strp(orgURL)
	rc.Image = strp(imageKey())
	rc.Ingredients = nil
	lines, _ := ld["recipeIngredient"].([]any)
	for _, l := range lines {
		if s, ok := l.(string); ok {
			rc.Ingredients = append(rc.Ingredients, ingredient{Quantity: floatp(1), Note: s, DisableAmount: true, ReferenceID: strp(newID())})
		}
	}
	rc.Instructions = nil
	for _, text := range ldSteps(ld["recipeInstructions"]) {
		rc.Instructions = append(rc.Instructions, step{ID: newID(), Title: strp(""), Summary: strp(""), Text: text, IngredientReferences: []string{}})
	}
	if includeTags {
		// Keywords become tags.
		var kws []string
		switch k := ld["keywords"].(type) {
		case string:
			kws = strings.Split(k, ",")
		case []any:
			for _, x := range k {
				if s, ok := x.(string); ok {
					kws = append(kws, s)
				}
			}
		}
		for _, kw := range kws {
			kw = strings.TrimSpace(kw)
			if kw == "" {
				continue
			}
			t := findOrganizer(st.tags, slugOf(kw))
			if t == nil {
				t = &organizer{ID: newID(), Name: kw, Slug: slugOf(kw), UpdatedAt: st.now().UTC()}
				st.tags = append(st.tags, t)
			}
			rc.TagIDs = appendUnique(rc.TagIDs, t.ID)
		}
	}
	return rc.Slug, true
}

// findRecipeLD decodes JSON-LD and returns the first object typed Recipe,
// looking inside arrays and @graph.
func findRecipeLD(data string) jsonBody {
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &v); err != nil {
		return nil
	}
	var walk func(any) jsonBody
	walk = func(v any) jsonBody {
		switch x := v.(type) {
		case []any:
			for _, it := range x {
				if r := walk(it); r != nil {
					return r
				}
			}
		case map[string]any:
			t := x["@type"]
			if t == "Recipe" {
				return jsonBody(x)
			}
			if ts, ok := t.([]any); ok {
				for _, tt := range ts {
					if tt == "Recipe" {
						return jsonBody(x)
					}
				}
			}
			if g, ok := x["@graph"]; ok {
				return walk(g)
			}
		}
		return nil
	}
	return walk(v)
}

func ldString(v any) *string {
	switch x := v.(type) {
	case string:
		return strp(x)
	case float64:
		return strp(strconv.FormatFloat(x, 'f', -1, 64))
	case []any:
		if len(x) > 0 {
			return ldString(x[0])
		}
	}
	return nil
}

func ldSteps(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		for _, line := range strings.Split(x, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
		}
	case []any:
		for _, it := range x {
			switch s := it.(type) {
			case string:
				out = append(out, s)
			case map[string]any:
				if t, ok := s["text"].(string); ok {
					out = append(out, t)
				}
				if items, ok := s["itemListElement"]; ok {
					out = append(out, ldSteps(items)...)
				}
			}
		}
	}
	return out
}

// handleImageFromURL is POST /api/recipes/{slug}/image {url}. Mealie answers
// 200 null and changes the recipe's image key even when nothing could be
// fetched (TestRecipeImageFromUnreachableURL in integration/contract).
func (s *Server) handleImageFromURL(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if !requireStrings(w, b, "url") {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.findRecipe(r.PathValue("slug"))
	if rc == nil {
		writeNoEntry(w)
		return
	}
	rc.Image = strp(imageKey())
	if data, ok := st.fetchable[b["url"].(string)]; ok {
		st.images[rc.ID] = data
	}
	writeJSON(w, http.StatusOK, nil)
}

// handleImageUpload is PUT /api/recipes/{slug}/image, multipart with an
// "image" file and an "extension" field. Without the extension it
// is a 422; bytes that are not an image fail unhandled; otherwise the image key
// becomes a random number from 0 to 255.
func (s *Server) handleImageUpload(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(maxBodyBytes); err != nil {
		writeValidation(w, missing(nil, "image"), missing(nil, "extension"))
		return
	}
	var verrs []valErr
	file, _, ferr := r.FormFile("image")
	if ferr != nil {
		verrs = append(verrs, missing(nil, "image"))
	}
	if _, ok := r.MultipartForm.Value["extension"]; !ok {
		verrs = append(verrs, missing(nil, "extension"))
	}
	if len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	defer file.Close()
	data, err := io.ReadAll(file)
	if err != nil || !strings.HasPrefix(http.DetectContentType(data), "image/") {
		writeInternal(w)
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.findRecipe(r.PathValue("slug"))
	if rc == nil {
		writeNoEntry(w)
		return
	}
	key := strconv.Itoa(rand.IntN(256))
	rc.Image = strp(key)
	st.images[rc.ID] = data
	writeJSON(w, http.StatusOK, object{{"image", key}})
}

// handleMedia is GET /api/media/recipes/{id}/images/{file}: the last uploaded
// image, whatever the file name asks for. Real Mealie serves WebP renditions;
// the emulator serves the bytes it
// was given. No token is needed.
func (s *Server) handleMedia(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	id := r.PathValue("id")
	data, ok := st.images[id]
	draw := st.drawLater[id]
	st.mu.Unlock()
	if !ok && draw != nil {
		// Drawn outside the lock: the same bytes for a slug every time, so
		// two first requests at once store the same image.
		data, ok = draw(), true
		st.mu.Lock()
		if _, uploaded := st.images[id]; !uploaded {
			st.images[id] = data
		}
		delete(st.drawLater, id)
		st.mu.Unlock()
	}
	if !ok {
		writeDetail(w, http.StatusNotFound, "Not Found")
		return
	}
	w.Header().Set("Content-Type", http.DetectContentType(data))
	_, _ = w.Write(data)
}

package recipes

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/services/internal/mealie"
)

// sourceKey is how two source URLs are compared: scheme set aside (an http
// and an https link to one page are one recipe), host in lower case without
// a default port, path without trailing slashes, query kept. Empty for a
// URL that does not parse.
func sourceKey(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if p := u.Port(); p != "" && p != "80" && p != "443" {
		host += ":" + p
	}
	key := host + strings.TrimRight(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		key += "?" + u.RawQuery
	}
	return key
}

// sourceVariants are the spellings of raw that Mealie may have stored as a
// recipe's orgURL, for an exact-match queryFilter: as given, and with
// scheme and host in lower case, each over http and https, with and
// without a trailing slash. Spellings with a double quote are left out:
// queryFilter has no escape for it.
func sourceVariants(raw string) []string {
	raw = strings.TrimSpace(raw)
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] && !strings.Contains(s, `"`) {
			seen[s] = true
			out = append(out, s)
		}
	}
	add(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return out
	}
	for _, scheme := range []string{"https", "http"} {
		for _, host := range []string{u.Host, strings.ToLower(u.Host)} {
			base := scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/")
			for _, p := range []string{base, base + "/"} {
				if u.RawQuery != "" {
					p += "?" + u.RawQuery
				}
				add(p)
			}
		}
	}
	return out
}

// alreadyImported finds a recipe whose source URL is raw's (sourceKey),
// asking Mealie with a queryFilter on orgURL; nil when there is none.
func (s *Service) alreadyImported(ctx context.Context, raw string) (*mealie.RecipeSummary, error) {
	key := sourceKey(raw)
	variants := sourceVariants(raw)
	if key == "" || len(variants) == 0 {
		return nil, nil
	}
	terms := make([]string, len(variants))
	for i, v := range variants {
		terms[i] = fmt.Sprintf(`orgURL = "%s"`, v)
	}
	page, err := s.mealie.ListRecipes(ctx, mealie.RecipeQuery{PerPage: 10, QueryFilter: strings.Join(terms, " OR ")})
	if err != nil {
		return nil, err
	}
	for i := range page.Items {
		if r := &page.Items[i]; r.OrgURL != nil && sourceKey(*r.OrgURL) == key {
			return r, nil
		}
	}
	return nil, nil
}

// duplicateImport is the refusal of an import whose page is already a
// recipe: what to do instead, and how to import a copy after all.
func duplicateImport(r *mealie.RecipeSummary) error {
	return connect.NewError(connect.CodeAlreadyExists, fmt.Errorf(
		"already imported as '%s' (%s); nothing was imported. Use that recipe, or pass allow_duplicate=true to import a second copy", r.Slug, r.Name))
}

// MaxListDescription is how many characters of a description a search
// result carries. Scraped recipes often have descriptions of 1,000
// characters and more, and a page of 100 of them made answers of over
// 100,000 characters, past what MCP clients accept from a tool; GetRecipe
// returns a description whole.
const MaxListDescription = 300

// cutDescription shortens d to MaxListDescription characters at a word
// boundary, ending in "…"; ok is false when d is short enough already.
func cutDescription(d string) (string, bool) {
	r := []rune(d)
	if len(r) <= MaxListDescription {
		return d, false
	}
	cut := string(r[:MaxListDescription])
	if i := strings.LastIndexAny(cut, " \t\n"); i > MaxListDescription/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-") + "…", true
}

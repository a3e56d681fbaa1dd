package mcpfront

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// scriptURLs are the only URLs a bundle's script may hold, all from the
// libraries it bundles, none ever fetched: the JSON Schema dialects'
// identifiers, the base the SDK's schema validator resolves $id against
// when it has no location of its own, the URL zod builds to check an IPv6
// literal, an example in an SDK schema's description, and bare scheme
// prefixes. Any other URL in a script fails the test, to be looked at.
var scriptURLs = regexp.MustCompile(`^https?://json-schema\.org/|^https://github\.com/cfworker$|^http://\[\$\{\w+\}\]$|^https://\*\.example\.com$|^https?://$`)

var (
	urlInText = regexp.MustCompile(`https?://[^\s"'` + "`" + `)\\]*|//[a-z0-9.-]+\.[a-z]{2,}/`)
	// connects matches a script opening a connection of its own; a view
	// reaches sous only through the host (tools/call) and loads only the
	// images its CSP allows.
	connects = regexp.MustCompile(`\b(fetch|importScripts|sendBeacon)\s*\(|\bnew\s+(XMLHttpRequest|WebSocket|EventSource|Worker|SharedWorker)\b|\bimport\s*\(`)
	cssURL   = regexp.MustCompile(`url\(\s*['"]?([^'")]*)`)
)

// urlAttrs are the attributes that make a browser load what they name.
var urlAttrs = map[string]bool{"src": true, "href": true, "srcset": true, "action": true, "formaction": true, "poster": true, "data": true, "background": true, "manifest": true, "ping": true}

// TestViewBundlesSelfContained holds that each view's HTML, as a host
// receives it, loads nothing from anywhere: no script, link or style from
// a URL, no URL in any loading attribute, no @import or url() but data:,
// no connection opened by its script, and no URL in its script but the
// identifiers scriptURLs lists.
func TestViewBundlesSelfContained(t *testing.T) {
	v, err := newViews(catalog(), "https://mealie.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.contents) != len(viewTable) {
		t.Fatalf("%d views built, want %d", len(v.contents), len(viewTable))
	}
	for uri, c := range v.contents {
		t.Run(uri, func(t *testing.T) {
			z := html.NewTokenizer(strings.NewReader(c.Text))
			var in string
			var scripts, styles int
			for {
				tt := z.Next()
				if tt == html.ErrorToken {
					break
				}
				tok := z.Token()
				switch tt {
				case html.StartTagToken, html.SelfClosingTagToken:
					in = tok.Data
					if tok.Data == "link" {
						t.Errorf("a <link> element: %s", tok)
					}
					if tok.Data == "script" {
						scripts++
					}
					if tok.Data == "style" {
						styles++
					}
					for _, a := range tok.Attr {
						if urlAttrs[a.Key] && a.Val != "" {
							t.Errorf("<%s %s=%q>: the bundle names something to load", tok.Data, a.Key, a.Val)
						}
						if a.Key == "style" {
							checkCSS(t, a.Val)
						}
						if a.Key == "http-equiv" && strings.EqualFold(a.Val, "refresh") {
							t.Error("a refresh meta tag")
						}
					}
				case html.EndTagToken:
					in = ""
				case html.TextToken:
					switch in {
					case "style":
						checkCSS(t, tok.Data)
					case "script":
						for _, u := range urlInText.FindAllString(tok.Data, -1) {
							if !scriptURLs.MatchString(u) {
								t.Errorf("the script holds the URL %q", u)
							}
						}
						if m := connects.FindString(tok.Data); m != "" {
							t.Errorf("the script opens a connection of its own: %q", m)
						}
					}
				}
			}
			if scripts != 1 || styles != 1 {
				t.Errorf("%d scripts and %d stylesheets, want one of each, inline", scripts, styles)
			}
		})
	}
}

// checkCSS fails on an @import or a url() that is not data:.
func checkCSS(t *testing.T, css string) {
	t.Helper()
	if strings.Contains(css, "@import") {
		t.Error("the stylesheet imports another")
	}
	for _, m := range cssURL.FindAllStringSubmatch(css, -1) {
		if !strings.HasPrefix(strings.TrimSpace(m[1]), "data:") {
			t.Errorf("the stylesheet loads %q", m[1])
		}
	}
}

package bench

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// CatalogTargetPerTool is the catalog's budget: at most mcp-mealie's own
// cost a tool. mcp-mealie 0.3.1, run against the same Mealie, lists its 25
// tools in 20,622 bytes, 825 a tool; sous keeps those tools' names and
// parameter names and must cost no more.
const CatalogTargetPerTool = 825

// CatalogVariant is the tools/list answer of one configuration.
type CatalogVariant struct {
	// Name says which configuration ("all toolsets", "read-only").
	Name string
	// Tools is the number of tools listed.
	Tools int
	// Bytes is the whole JSON-RPC response line as sent on stdio.
	Bytes int
	// Tokens counts that line.
	Tokens *Tokens
	// Largest are the three largest tools, by their JSON bytes.
	Largest []ToolSize
	// Parts splits the tools' bytes by member: "description",
	// "inputSchema", "annotations", and "other" (names, titles, JSON
	// punctuation).
	Parts map[string]int
	// NoWhen lists tools whose description never says when to call them
	// (no "when" and no "call it").
	NoWhen []string
}

// ToolSize is one tool's definition size: its name and the bytes of its
// JSON object in the answer.
type ToolSize struct {
	Name  string
	Bytes int
}

// PerTool is the average bytes per tool.
func (v CatalogVariant) PerTool() float64 {
	if v.Tools == 0 {
		return 0
	}
	return float64(v.Bytes) / float64(v.Tools)
}

// Catalog is figure 1.
type Catalog struct {
	Variants []CatalogVariant
	// Pantry says whether the pantry toolset was on (it needs the food API).
	Pantry bool
	// Views are the MCP Apps views' resources/read answers, by URI, as a
	// client declaring the extension reads each once (a host caches them).
	Views []ToolSize
}

// viewsCapabilities are the capabilities of a client that renders MCP
// Apps views.
var viewsCapabilities = map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}}}

// runCatalog lists the tools of `sous mcp --stdio` with every toolset on
// (the food API configured, SOUS_IMAGE_DIR set so upload_recipe_image is
// listed), then in read-only mode.
func (h *Harness) runCatalog() (*Catalog, error) {
	em, err := mealieemu.Start(mealieemu.WithSeed("demo"))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	base := []string{"MEALIE_URL=" + em.URL, "MEALIE_API_TOKEN=" + em.Token, "SOUS_IMAGE_DIR=" + h.Work}
	out := &Catalog{}
	if h.Food != nil {
		base = append(base, "FOOD_API_BASE="+h.Food.BaseURL, "FOOD_API_TOKEN="+h.Food.Token)
		out.Pantry = true
	}
	for _, v := range []struct {
		name  string
		extra []string
		caps  map[string]any
	}{
		{"all toolsets", nil, map[string]any{}},
		{"read-only (MEALIE_READ_ONLY)", []string{"MEALIE_READ_ONLY=true"}, map[string]any{}},
		// The same server to a host that renders the views: the tools
		// that show one carry _meta.ui.resourceUri.
		{"all toolsets, client declaring the views", nil, viewsCapabilities},
	} {
		c, err := startStdioDeclaring(h.Bin, h.Work, sousEnv(append(slices.Clone(base), v.extra...)...), v.caps)
		if err != nil {
			return nil, fmt.Errorf("catalog, %s: %w", v.name, err)
		}
		line, err := c.call("tools/list", map[string]any{})
		if err == nil && len(v.caps) > 0 {
			out.Views, err = readViews(c)
		}
		c.close()
		if err != nil {
			return nil, fmt.Errorf("catalog, %s: %w", v.name, err)
		}
		cv, err := measureCatalog(v.name, line)
		if err != nil {
			return nil, err
		}
		cv.Tokens = h.Tok.Add(string(line))
		out.Variants = append(out.Variants, cv)
	}
	return out, nil
}

// readViews lists the views and reads each, sizing the answers.
func readViews(c *stdioClient) ([]ToolSize, error) {
	line, err := c.call("resources/list", map[string]any{})
	if err != nil {
		return nil, err
	}
	var list struct {
		Result struct {
			Resources []struct {
				URI string `json:"uri"`
			} `json:"resources"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &list); err != nil {
		return nil, err
	}
	out := []ToolSize{{"resources/list", len(line)}}
	for _, r := range list.Result.Resources {
		read, err := c.call("resources/read", map[string]any{"uri": r.URI})
		if err != nil {
			return nil, err
		}
		out = append(out, ToolSize{r.URI, len(read)})
	}
	if len(out) == 1 {
		return nil, fmt.Errorf("a client declaring io.modelcontextprotocol/ui was offered no view")
	}
	return out, nil
}

// measureCatalog sizes a tools/list response line.
func measureCatalog(name string, line []byte) (CatalogVariant, error) {
	var resp struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return CatalogVariant{}, fmt.Errorf("catalog, %s: %w", name, err)
	}
	v := CatalogVariant{Name: name, Tools: len(resp.Result.Tools), Bytes: len(line), Parts: map[string]int{}}
	var sizes []ToolSize
	for _, raw := range resp.Result.Tools {
		var t struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return v, fmt.Errorf("catalog, %s: %w", name, err)
		}
		sizes = append(sizes, ToolSize{t.Name, len(raw)})
		var members map[string]json.RawMessage
		if err := json.Unmarshal(raw, &members); err != nil {
			return v, fmt.Errorf("catalog, %s: %w", name, err)
		}
		rest := len(raw)
		for _, k := range catalogParts {
			if m, ok := members[k]; ok {
				v.Parts[k] += len(m)
				rest -= len(m)
			}
		}
		v.Parts["other"] += rest
		if !saysWhen(t.Description) {
			v.NoWhen = append(v.NoWhen, t.Name)
		}
	}
	slices.SortFunc(sizes, func(a, b ToolSize) int { return b.Bytes - a.Bytes })
	v.Largest = sizes[:min(3, len(sizes))]
	return v, nil
}

// catalogParts are the tool members whose size the figure shows apart.
var catalogParts = []string{"inputSchema", "description", "annotations"}

// callCue matches the ways a description tells the model when to call its
// tool: "when …", "Call it …", "Call to …", "Call for …", "Call before …".
var callCue = regexp.MustCompile(`(?i)\bwhen\b|\bcall (it|to|for|before|after|first|once)\b`)

// saysWhen reports whether a description tells the model when to call the
// tool, the catalog's one rule that must survive trimming.
func saysWhen(desc string) bool { return callCue.MatchString(desc) }

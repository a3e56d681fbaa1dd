package mcpfront

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfig(t *testing.T) {
	vars := []string{"MEALIE_READ_ONLY", "SOUS_TOOLSETS", "SOUS_MCP_ADDR", "SOUS_DATA_DIR", "SOUS_OAUTH_STATE",
		"SOUS_OAUTH_ISSUER", "FOOD_MCP_URL_SECRET", "SOUS_MCP_BEARER_TOKEN", "SOUS_RECIPES_URL", "SOUS_SERVICE_TOKEN"}
	tests := []struct {
		name    string
		env     map[string]string
		check   func(t *testing.T, c Config)
		wantErr []string
	}{
		{
			name: "defaults", env: map[string]string{"SOUS_DATA_DIR": "/srv/sous"},
			check: func(t *testing.T, c Config) {
				if c.Addr != DefaultAddr || c.OAuthState != filepath.Join("/srv/sous", "oauth.sqlite") || c.ReadOnly || c.LogLevel != "info" {
					t.Errorf("config = %+v", c)
				}
			},
		},
		{
			name: "remotes and toolsets", env: map[string]string{"SOUS_RECIPES_URL": "http://recipes:8081", "SOUS_SERVICE_TOKEN": "s", "SOUS_TOOLSETS": "recipes, shopping", "SOUS_OAUTH_STATE": "/x/o.db"},
			check: func(t *testing.T, c Config) {
				if c.Remotes != (Remotes{RecipesURL: "http://recipes:8081", Token: "s"}) || len(c.Toolsets) != 2 || c.OAuthState != "/x/o.db" {
					t.Errorf("config = %+v", c)
				}
			},
		},
		{
			name: "every mistake at once",
			env: map[string]string{
				"MEALIE_READ_ONLY": "perhaps", "SOUS_TOOLSETS": "desserts", "SOUS_OAUTH_ISSUER": "https://k.example",
				"FOOD_MCP_URL_SECRET": "s", "SOUS_MCP_BEARER_TOKEN": "b",
			},
			wantErr: []string{"MEALIE_READ_ONLY", `unknown toolset "desserts"`, "choose the path secret or OAuth", "choose the bearer token or OAuth"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range vars {
				t.Setenv(v, tt.env[v])
			}
			c, err := LoadConfig()
			for _, w := range tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want it to say %q", err, w)
				}
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				tt.check(t, c)
			}
		})
	}
}

func TestLoopbackAddr(t *testing.T) {
	tests := map[string]bool{
		"127.0.0.1:8765": true, "localhost:8765": true, "[::1]:8765": true,
		"0.0.0.0:8765": false, ":8765": false, "192.168.1.5:8765": false, "127.0.0.1": false,
	}
	for addr, want := range tests {
		if got := loopbackAddr(addr); got != want {
			t.Errorf("loopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestResourceURL(t *testing.T) {
	tests := []struct{ public, want, wantErr string }{
		{"", "", ""},
		{"https://kitchen.example.com/", "https://kitchen.example.com/mcp", ""},
		{"https://home.example.org/sous", "https://home.example.org/sous/mcp", ""},
		{"kitchen.example.com", "", "not an absolute URL"},
	}
	for _, tt := range tests {
		got, err := resourceURL(tt.public)
		if (err != nil) != (tt.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) || got != tt.want {
			t.Errorf("resourceURL(%q) = %q, %v; want %q, %q", tt.public, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestLoadRemotesReadsEveryURLVar: the URL variable each Service names is
// the one LoadRemotes reads into that service's field, and Dial gives that
// service, and only it, a client.
func TestLoadRemotesReadsEveryURLVar(t *testing.T) {
	for _, s := range Services() {
		t.Setenv(s.URLVar, "")
	}
	for _, s := range Services() {
		t.Run(s.Name, func(t *testing.T) {
			t.Setenv(s.URLVar, "http://127.0.0.1:9/"+s.Name)
			r := LoadRemotes()
			if got := *s.URL(&r); got != "http://127.0.0.1:9/"+s.Name {
				t.Errorf("LoadRemotes with %s set: the %s URL is %q", s.URLVar, s.Name, got)
			}
			b := r.Dial()
			on := map[string]bool{"recipes": b.Recipes != nil, "mealplan": b.MealPlan != nil, "library": b.Library != nil, "pantry": b.Pantry != nil}
			for name, present := range on {
				if present != (name == s.Name) {
					t.Errorf("with only %s set, the %s client present = %v", s.URLVar, name, present)
				}
			}
		})
	}
}

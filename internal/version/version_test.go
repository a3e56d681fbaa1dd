package version

import "testing"

func TestCommit(t *testing.T) {
	tests := []struct {
		name     string
		stamped  string
		settings map[string]string
		want     string
	}{
		{"stamped wins", "abc123", map[string]string{"vcs.revision": "ffffffffffffffffffff"}, "abc123"},
		{"vcs revision, shortened", "", map[string]string{"vcs.revision": "0123456789abcdef0123", "vcs.modified": "false"}, "0123456789ab"},
		{"modified tree", "", map[string]string{"vcs.revision": "0123456789abcdef0123", "vcs.modified": "true"}, "0123456789ab-dirty"},
		{"short revision kept whole", "", map[string]string{"vcs.revision": "abc"}, "abc"},
		{"nothing known", "", map[string]string{}, "unknown"},
	}
	for _, tt := range tests {
		if got := commit(tt.stamped, tt.settings); got != tt.want {
			t.Errorf("%s: commit(%q, %v) = %q, want %q", tt.name, tt.stamped, tt.settings, got, tt.want)
		}
	}
}

package env

import (
	"os"
	"path/filepath"
	"testing"
)

func TestBool(t *testing.T) {
	tests := []struct {
		value   string
		def     bool
		want    bool
		wantErr bool
	}{
		{"", true, true, false},
		{"", false, false, false},
		{"1", false, true, false},
		{"TRUE", false, true, false},
		{" yes ", false, true, false},
		{"On", false, true, false},
		{"0", true, false, false},
		{"false", true, false, false},
		{"NO", true, false, false},
		{"off", true, false, false},
		{"maybe", true, false, true},
		{"2", false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			t.Setenv("SOUS_TEST_BOOL", tt.value)
			got, err := Bool("SOUS_TEST_BOOL", tt.def)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Bool(%q) error = %v, wantErr %v", tt.value, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Bool(%q) = %v, want %v", tt.value, got, tt.want)
			}
		})
	}
}

func TestList(t *testing.T) {
	t.Setenv("SOUS_TEST_LIST", " recipes, ,pantry,")
	got := List("SOUS_TEST_LIST")
	if len(got) != 2 || got[0] != "recipes" || got[1] != "pantry" {
		t.Fatalf("List = %q", got)
	}
}

func TestLoadDotEnvUpwardAndNoOverride(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("SOUS_TEST_A=file\nSOUS_TEST_B=file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SOUS_TEST_A", "process")
	os.Unsetenv("SOUS_TEST_B")
	t.Cleanup(func() { os.Unsetenv("SOUS_TEST_B") })
	p, err := LoadDotEnv(sub)
	if err != nil || p != filepath.Join(root, ".env") {
		t.Fatalf("LoadDotEnv = %q, %v", p, err)
	}
	if got := os.Getenv("SOUS_TEST_A"); got != "process" {
		t.Errorf("process value overridden: %q", got)
	}
	if got := os.Getenv("SOUS_TEST_B"); got != "file" {
		t.Errorf("file value not loaded: %q", got)
	}
}

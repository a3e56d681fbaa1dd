package recipes

import (
	"slices"
	"strings"
	"testing"
)

func TestSourceKey(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{a: "https://example.org/pie", b: "https://example.org/pie/", same: true},
		{a: "https://example.org/pie", b: "HTTPS://Example.ORG/pie", same: true},
		{a: "http://example.org/pie", b: "https://example.org/pie", same: true},
		{a: "https://example.org:443/pie", b: "https://example.org/pie", same: true},
		{a: "https://example.org/pie?id=1", b: "https://example.org/pie/?id=1", same: true},
		{a: "https://example.org/pie", b: "https://example.org/Pie"},
		{a: "https://example.org/pie?id=1", b: "https://example.org/pie?id=2"},
		{a: "https://example.org:8443/pie", b: "https://example.org/pie"},
		{a: "https://example.org/pie", b: "https://example.com/pie"},
	}
	for _, tt := range tests {
		t.Run(tt.a+" "+tt.b, func(t *testing.T) {
			ka, kb := sourceKey(tt.a), sourceKey(tt.b)
			if ka == "" || (ka == kb) != tt.same {
				t.Errorf("sourceKey(%q) = %q, sourceKey(%q) = %q; same = %v, want %v", tt.a, ka, tt.b, kb, ka == kb, tt.same)
			}
		})
	}
}

func TestSourceVariants(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
		not  []string
	}{
		{raw: "HTTPS://Example.org/pie/", want: []string{"HTTPS://Example.org/pie/", "https://example.org/pie", "https://example.org/pie/", "http://example.org/pie", "https://Example.org/pie"}},
		{raw: "https://example.org/pie?x=1", want: []string{"https://example.org/pie?x=1", "https://example.org/pie/?x=1", "http://example.org/pie?x=1"}},
		{raw: `https://example.org/a"b`, not: []string{`https://example.org/a"b`}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got := sourceVariants(tt.raw)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("sourceVariants(%q) = %q, lacks %q", tt.raw, got, w)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(got, n) {
					t.Errorf("sourceVariants(%q) = %q, has %q (a queryFilter cannot quote it)", tt.raw, got, n)
				}
			}
		})
	}
}

func TestCutDescription(t *testing.T) {
	long := strings.Repeat("word ", 100) // 500 characters
	tests := []struct {
		name string
		in   string
		cut  bool
	}{
		{name: "short", in: "A quick soup."},
		{name: "exactly the limit", in: strings.Repeat("x", MaxListDescription)},
		{name: "words past the limit", in: long, cut: true},
		{name: "one long word", in: strings.Repeat("é", MaxListDescription+5), cut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := cutDescription(tt.in)
			if cut != tt.cut {
				t.Fatalf("cut = %v, want %v", cut, tt.cut)
			}
			if !cut {
				if got != tt.in {
					t.Errorf("changed a short description: %q", got)
				}
				return
			}
			if n := len([]rune(got)); n > MaxListDescription+1 || !strings.HasSuffix(got, "…") || !strings.HasPrefix(tt.in, strings.TrimSuffix(got, "…")) {
				t.Errorf("cutDescription = %q (%d characters)", got, n)
			}
		})
	}
}

package mealietest

import (
	"encoding/json"
	"testing"
)

func TestShapeDiff(t *testing.T) {
	tests := []struct {
		name, want, got string
		diffs           int
	}{
		{"same shape other values", `{"a":1,"b":"x","c":[{"d":true}]}`, `{"a":2,"b":"y","c":[{"d":false},{"d":true}]}`, 0},
		{"missing key", `{"a":1,"b":2}`, `{"a":1}`, 1},
		{"extra key", `{"a":1}`, `{"a":1,"b":2}`, 1},
		{"type change", `{"a":"1"}`, `{"a":1}`, 1},
		{"null matches anything", `{"a":null,"b":"x"}`, `{"a":{"z":1},"b":null}`, 0},
		{"nested element key", `{"items":[{"id":"x","slug":"y"}]}`, `{"items":[{"id":"x"}]}`, 1},
		{"empty array matches", `{"items":[]}`, `{"items":[{"id":1}]}`, 0},
		{"array vs object", `[]`, `{}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want, got any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.got), &got); err != nil {
				t.Fatal(err)
			}
			if d := shapeDiff("$", want, got); len(d) != tt.diffs {
				t.Errorf("shapeDiff = %q, want %d differences", d, tt.diffs)
			}
		})
	}
}

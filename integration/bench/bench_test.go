package bench

import (
	"bufio"
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Millisecond)
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // reversed: Percentile must sort
	}
	tests := []struct {
		name string
		in   []time.Duration
		q    float64
		want time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"one", ms(7), 0.99, 7 * time.Millisecond},
		{"median of odd", ms(3, 1, 2), 0.5, 2 * time.Millisecond},
		{"median of even is the lower", ms(4, 1, 3, 2), 0.5, 2 * time.Millisecond},
		{"p99 of 100", ms(hundred...), 0.99, 99 * time.Millisecond},
		{"p50 of 100", ms(hundred...), 0.50, 50 * time.Millisecond},
		{"max", ms(hundred...), 1, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.in, tt.q); got != tt.want {
				t.Errorf("Percentile(%v) = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    MemStat
		wantErr bool
	}{
		{"both", "Name:\tsous\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\nThreads:\t7\n", MemStat{RSS: 10 << 20, Peak: 20 << 20}, false},
		{"rss missing", "VmHWM:\t 4 kB\n", MemStat{}, true},
		{"bad unit", "VmRSS:\t 4 MB\nVmHWM:\t 4 kB\n", MemStat{}, true},
		{"not a number", "VmRSS:\t four kB\nVmHWM:\t 4 kB\n", MemStat{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatus(bufio.NewScanner(strings.NewReader(tt.in)))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDuplicateKey(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"flat", `{"a":1,"b":2}`, ""},
		{"repeated", `{"a":1,"b":2,"a":3}`, "a"},
		{"same key in sibling objects", `{"items":[{"name":"x"},{"name":"y"}]}`, ""},
		{"same key at two depths", `{"name":"x","sub":{"name":"y"}}`, ""},
		{"nested repeat", `{"items":[{"slug":"x","slug":"y"}]}`, "slug"},
		{"repeat after a nested object", `{"a":{"b":1},"c":[1,2],"a":2}`, "a"},
		{"string value equal to a key", `{"a":"a","b":"a"}`, ""},
		{"plain text", `showing 20 of 143`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := duplicateKey([]byte(tt.in)); got != tt.want {
				t.Errorf("duplicateKey(%s) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestReplaceBlock(t *testing.T) {
	doc := "# Title\n\nmethod\n\n" + BeginMarker + "\nold table\n" + EndMarker + "\n\nafter\n"
	tests := []struct {
		name, doc, block, want string
		wantErr                bool
	}{
		{"replaces between markers", doc, "new table\n", "# Title\n\nmethod\n\n" + BeginMarker + "\nnew table\n" + EndMarker + "\n\nafter\n", false},
		{"no markers", "# Title\n", "x", "", true},
		{"markers reversed", EndMarker + "\n" + BeginMarker, "x", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := replaceBlock([]byte(tt.doc), tt.block)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestParseBenchLine(t *testing.T) {
	out := "goos: linux\nBenchmarkLibraryStatsFoods method: cached\nBenchmarkLibraryStatsFoods-2   \t       1\t9876 ns/op\t  2650 seed-ms\t  2021 seed-requests\t 40.5 warm-ms\nPASS\n"
	tests := []struct {
		name    string
		out     string
		want    map[string]float64
		wantErr bool
	}{
		{"result line", out, map[string]float64{"ns/op": 9876, "seed-ms": 2650, "seed-requests": 2021, "warm-ms": 40.5}, false},
		{"no result", "FAIL\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseBenchLine(tt.out, "BenchmarkLibraryStatsFoods")
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}

func TestMeasureCatalog(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":2,"result":{"tools":[` +
		`{"name":"get_recipe","description":"Read one recipe. Call it when the user wants to cook."},` +
		`{"name":"odd","description":"Does a thing."},` +
		`{"name":"get_pantry","description":"Read the pantry when asked what is in stock, with a longer text."}]}}`
	v, err := measureCatalog("all", []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if v.Tools != 3 || v.Bytes != len(line) {
		t.Errorf("tools %d bytes %d, want 3 and %d", v.Tools, v.Bytes, len(line))
	}
	if len(v.NoWhen) != 1 || v.NoWhen[0] != "odd" {
		t.Errorf("NoWhen = %v, want [odd]", v.NoWhen)
	}
	if v.Largest[0].Name != "get_pantry" || v.Largest[2].Name != "odd" {
		t.Errorf("Largest = %v, want get_pantry first and odd last", v.Largest)
	}
	if _, err := measureCatalog("bad", []byte("not json")); err == nil {
		t.Error("measureCatalog accepted a line that is not JSON")
	}
}

func TestSplitBase(t *testing.T) {
	tests := []struct{ in, root, path string }{
		{"http://127.0.0.1:8042/api", "http://127.0.0.1:8042", "/api"},
		{"http://127.0.0.1:8042", "http://127.0.0.1:8042", ""},
	}
	for _, tt := range tests {
		root, path := splitBase(tt.in)
		if root != tt.root || path != tt.path {
			t.Errorf("splitBase(%q) = %q, %q; want %q, %q", tt.in, root, path, tt.root, tt.path)
		}
	}
}

func TestSaysWhen(t *testing.T) {
	tests := []struct {
		desc string
		want bool
	}{
		{"Read one recipe. Call it when the user wants to cook.", true},
		{"Call to find recipes the user asks for.", true},
		{"Call before writing structured ingredients.", true},
		{"Use when the user asks what is planned.", true},
		{"Call for a substitute, or before log_cook.", true},
		{"Reads the pantry.", false},
		{"Recalls to mind the whenever-ish pantry.", false},
	}
	for _, tt := range tests {
		if got := saysWhen(tt.desc); got != tt.want {
			t.Errorf("saysWhen(%q) = %v, want %v", tt.desc, got, tt.want)
		}
	}
}

func TestParseStat(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"plain", "4242 (sous) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 25 0 0 20 0 9 0 100 0 0", 1750 * time.Millisecond, false},
		{"name with spaces and parens", "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 1 0 0", 70 * time.Millisecond, false},
		{"truncated", "7 (x) R 1 2", 0, true},
		{"no name", "7 x R", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStat(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBenchFailure(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"test message", "BenchmarkX\n    bench_test.go:139: truncated: scanned 0 of 2000\n--- FAIL: BenchmarkX\nFAIL\n", "bench_test.go:139: truncated: scanned 0 of 2000"},
		{"build failure", "# pkg\n./x.go:3:1: undefined: y\nFAIL\n", "./x.go:3:1: undefined: y"},
		{"nothing said", "FAIL\nexit status 1\n", "exit status 1"},
	}
	for _, tt := range tests {
		if got := benchFailure(tt.in); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// The generated block of docs/benchmarks.md sits between these markers;
// everything outside them is written by hand and kept as is.
const (
	BeginMarker = "<!-- bench:results:begin (written by make bench; edit outside this block) -->"
	EndMarker   = "<!-- bench:results:end -->"
)

// Rewrite replaces the generated block of the document at path with block.
func Rewrite(path, block string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := replaceBlock(doc, block)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

// replaceBlock swaps what lies between the markers, markers kept.
func replaceBlock(doc []byte, block string) ([]byte, error) {
	i := bytes.Index(doc, []byte(BeginMarker))
	j := bytes.Index(doc, []byte(EndMarker))
	if i < 0 || j < 0 || j < i {
		return nil, errors.New("the results markers are missing or out of order")
	}
	var b bytes.Buffer
	b.Write(doc[:i+len(BeginMarker)])
	b.WriteString("\n")
	b.WriteString(strings.TrimSpace(block))
	b.WriteString("\n")
	b.Write(doc[j:])
	return b.Bytes(), nil
}

// verdict says whether a target was met; gap is shown when it was not.
func verdict(ok bool, gap string) string {
	if ok {
		return "met"
	}
	return "**missed** (" + gap + ")"
}

// ratio renders a/b with two decimals, "n/a" when b is 0.
func ratio(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// sumParts adds the parts of a catalog.
func sumParts(parts map[string]int) int {
	n := 0
	for _, v := range parts {
		n += v
	}
	return n
}

// perTool renders tokens divided by tools.
func perTool(t *Tokens, tools int) string {
	if t == nil || !t.OK || tools == 0 {
		return TokensUnavailable
	}
	return fmt.Sprintf("%.0f", float64(t.N)/float64(tools))
}

// Markdown renders the results block.
func (r *Results) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("Measured %s on %d cores", r.Date.Format("2006-01-02 15:04 MST"), r.Cores)
	if r.CPU != "" {
		p(" (%s)", r.CPU)
	}
	p("; the whole run took %s", r.Duration.Round(time.Second))
	if r.LoadBefore != "" {
		p(", with a load average of %s before and %s after (other work shares the machine)", r.LoadBefore, r.LoadAfter)
	}
	p(". Tokens are o200k_base counts")
	if r.TokenNote != "" {
		p(" (%s)", r.TokenNote)
	}
	p(".\n")
	for _, e := range r.Errors {
		p("\n> Not measured in this run: %s\n", e)
	}
	if c := r.Catalog; c != nil {
		p("\n### 1. Catalog cost\n\n")
		p("| Configuration | Tools | Bytes | Tokens | Bytes per tool | Tokens per tool | Target ≤ %d B per tool |\n|---|--:|--:|--:|--:|--:|---|\n", CatalogTargetPerTool)
		for _, v := range c.Variants {
			pt := v.PerTool()
			p("| %s | %d | %d | %s | %.0f | %s | %s |\n", v.Name, v.Tools, v.Bytes, v.Tokens, pt, perTool(v.Tokens, v.Tools),
				verdict(pt <= CatalogTargetPerTool, fmt.Sprintf("%.0f B over", pt-CatalogTargetPerTool)))
		}
		if len(c.Variants) > 0 {
			v := c.Variants[0]
			var big []string
			for _, t := range v.Largest {
				big = append(big, fmt.Sprintf("`%s` %d B", t.Name, t.Bytes))
			}
			p("\nWhere the bytes go (all toolsets, per tool on average):")
			for _, k := range append(slices.Clone(catalogParts), "other") {
				p(" %s %d B,", k, v.Parts[k]/max(v.Tools, 1))
			}
			p(" and %d B of JSON-RPC envelope in all.", v.Bytes-sumParts(v.Parts)-max(v.Tools-1, 0)) // commas between tools
			p(" Largest tools: %s. ", strings.Join(big, ", "))
			if len(v.NoWhen) == 0 {
				p("Every description says when to call its tool.")
			} else {
				p("Descriptions that do not say when to call the tool: `%s`.", strings.Join(v.NoWhen, "`, `"))
			}
			if !c.Pantry {
				p(" The pantry toolset was off (no food API).")
			}
			p(" mcp-mealie 0.3.1, against the same Mealie, lists its 25 tools in 20,622 B, %d B per tool.\n", CatalogTargetPerTool)
		}
		if len(c.Variants) > 2 && len(c.Views) > 0 {
			plain, views := c.Variants[0], c.Variants[2]
			var reads []string
			for _, v := range c.Views[1:] {
				reads = append(reads, fmt.Sprintf("`%s` %d B", v.Name, v.Bytes))
			}
			p("\nA client that declares the MCP Apps extension (`io.modelcontextprotocol/ui`) is shown the same tools with `_meta.ui.resourceUri` on those that have a view: %d B against %d B (%+d B, %.2f×); every other client gets the first row's answer byte for byte. The views are resources it reads once and keeps, outside the model's context: resources/list %d B; %s.\n",
				views.Bytes, plain.Bytes, views.Bytes-plain.Bytes, float64(views.Bytes)/float64(max(plain.Bytes, 1)), c.Views[0].Bytes, strings.Join(reads, ", "))
		}
	}
	if a := r.Answers; a != nil {
		p("\n### 2. Answer cost\n\n")
		p("| Call | sous bytes | sous tokens | Raw backend bytes (requests) | Raw tokens | sous ÷ raw | Each field once |\n|---|--:|--:|--:|--:|--:|---|\n")
		rows := a.Rows
		for _, f := range []*AnswerRow{a.Fixture, a.FixtureMade} {
			if f != nil {
				rows = append(rows, *f)
			}
		}
		for _, row := range rows {
			once := "yes"
			if !row.Once {
				once = "**no**"
			}
			if row.Note != "" {
				once += "; " + row.Note
			}
			p("| `%s` (%s) | %d | %s | %d (%d) | %s | %s | %s |\n", row.Tool, row.Args, row.Bytes, row.Tokens, row.RawBytes, row.RawRequests, row.RawTokens,
				ratio(float64(row.Bytes), float64(row.RawBytes)), once)
		}
		if f := a.Fixture; f != nil {
			p("\n`get_recipe` on mcp-mealie's fixture recipe: %d B against mcp-mealie's curated %d B (%.1f%% of the compact raw %d B against mcp-mealie's 19.8%%): %s.\n",
				f.Bytes, SeedCuratedBytes, 100*float64(f.Bytes)/float64(max(f.RawBytes, 1)), f.RawBytes,
				verdict(f.Bytes <= SeedCuratedBytes, fmt.Sprintf("%d B over", f.Bytes-SeedCuratedBytes)))
			if m := a.FixtureMade; m != nil {
				p("Once the recipe has been made, its answer adds `last_made` and comes to %d B, %+d B against mcp-mealie's view, which never carried it.\n", m.Bytes, m.Bytes-SeedCuratedBytes)
			}
		}
	}
	if hop := r.Hop; hop != nil && len(hop.Paths) > 0 {
		base := hop.Paths[0]
		p("\n### 3. Hop overhead\n\n%d `get_recipe` calls per path, interleaved, Mealie emulator at %s fixed latency; overhead is the path's percentile minus the direct GET's.\n\n", hop.Calls, hopLatency)
		p("| Path | p50 ms | p99 ms | p50 overhead ms | p99 overhead ms | Target p50 < %s, p99 < %s |\n|---|--:|--:|--:|--:|---|\n", HopTargetP50, HopTargetP99)
		for i, hp := range hop.Paths {
			if i == 0 {
				p("| %s | %.2f | %.2f | | | baseline |\n", hp.Name, ms(hp.P50), ms(hp.P99))
				continue
			}
			o50, o99 := hp.P50-base.P50, hp.P99-base.P99
			if hp.Alone {
				o50, o99 = hp.P50, hp.P99
			}
			if hp.Part {
				p("| %s | %.2f | %.2f | %.2f | %.2f | part of an MCP path |\n", hp.Name, ms(hp.P50), ms(hp.P99), ms(o50), ms(o99))
				continue
			}
			ok := o50 < HopTargetP50 && o99 < HopTargetP99
			p("| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", hp.Name, ms(hp.P50), ms(hp.P99), ms(o50), ms(o99),
				verdict(ok, fmt.Sprintf("p50 +%.2f ms, p99 +%.2f ms", ms(o50), ms(o99))))
		}
		for _, hp := range hop.Paths[1:] {
			if !hp.Alone && (hp.P50 < base.P50 || hp.P99 < base.P99) {
				p("\nA negative difference means the machine's noise in this run exceeded the hop's cost at that percentile.\n")
				break
			}
		}
		if len(hop.Paths) == 5 {
			remote, local := hop.Paths[2], hop.Paths[4]
			p("\nIn-process below remote at p50 (%.2f ms against %.2f ms): %s.\n", ms(local.P50), ms(remote.P50), verdict(local.P50 < remote.P50, "in-process was slower in this run"))
		}
		p("\nMealie recipe GETs for the %d calls through sous: %d (one per call: no cache answered).\n", hop.ThroughSous, hop.MealieGETs)
	}
	if s := r.Sweep; s != nil {
		p("\n### 4. Sweep: `LibraryStats(foods)` on bench:2000, 10 ms latency\n\n")
		p("| Phase | ms | Mealie requests | Time ÷ seed |\n|---|--:|--:|--:|\n")
		seed := s.Metrics["seed-ms"]
		for _, ph := range sweepPhases {
			p("| %s | %.0f | %.0f | %s |\n", ph, s.Metrics[ph+"-ms"], s.Metrics[ph+"-requests"], ratio(s.Metrics[ph+"-ms"], seed))
		}
		p("\n\"seed\" is mcp-mealie's approach (page the list, one detail GET per recipe, 8 at a time); the rest is sous's library service, cold, warm, and after one recipe write.\n")
	}
	if m := r.Memory; m != nil {
		p("\n### 5. Memory and start-up\n\n| Measure | Value | Target |\n|---|--:|---|\n")
		p("| `sous serve` RSS, idle | %.1f MiB | < %d MiB: %s |\n", mb(m.Idle.RSS), MemoryTargetIdle>>20,
			verdict(m.Idle.RSS < MemoryTargetIdle, fmt.Sprintf("%.1f MiB over", mb(m.Idle.RSS-MemoryTargetIdle))))
		p("| `sous serve` RSS, %d recipe details cached (repeat sweep: %d detail GETs) | %.1f MiB | < %d MiB: %s |\n", m.Recipes, m.RepeatDetailGETs, mb(m.Cached.RSS), MemoryTargetCached>>20,
			verdict(m.Cached.RSS < MemoryTargetCached, fmt.Sprintf("%.1f MiB over", mb(m.Cached.RSS-MemoryTargetCached))))
		if l := r.Load; l != nil {
			p("| RSS under load (figure 6, peak) | %.1f MiB | |\n", mb(l.PeakRSS))
		}
		var runs []string
		for _, d := range m.Startups {
			runs = append(runs, fmt.Sprintf("%.0f", ms(d)))
		}
		p("| exec to first `tools/list`, stdio (median of %d: %s ms) | %.0f ms | < %s: %s |\n", len(m.Startups), strings.Join(runs, ", "), ms(m.Startup), StartupTarget,
			verdict(m.Startup < StartupTarget, fmt.Sprintf("%.0f ms over", ms(m.Startup-StartupTarget))))
	}
	if l := r.Load; l != nil {
		p("\n### 6. Load: %d concurrent MCP sessions × %d mixed read calls, Streamable HTTP, emulator at %s\n\n", l.Sessions, l.CallsEach, loadLatency)
		p("| Calls | Errors | Wall s | Calls/s | p50 ms | p99 ms | RSS idle → peak → %s after → after a second round → %s after that, MiB | Last ÷ idle (near idle ≤ %.1f) |\n|--:|--:|--:|--:|--:|--:|---|---|\n", afterSettle, afterSettle+laterSettle, NearIdle)
		back := float64(l.Later.RSS) / float64(max(l.Idle.RSS, 1))
		p("| %d | %d | %.1f | %.0f | %.1f | %.1f | %.1f → %.1f → %.1f → %.1f → %.1f | %.2f: %s |\n", l.Calls, l.Errors, l.Wall.Seconds(), l.Throughput(), ms(l.P50), ms(l.P99),
			mb(l.Idle.RSS), mb(l.PeakRSS), mb(l.After.RSS), mb(l.AfterSecond.RSS), mb(l.Later.RSS), back, verdict(back <= NearIdle, fmt.Sprintf("%.1f MiB above idle", mb(l.Later.RSS-l.Idle.RSS))))
		share := func(d time.Duration) float64 { return 100 * d.Seconds() / (l.Wall.Seconds() * float64(r.Cores)) }
		p("\nCPU in the first round: sous %.1f s (%.2f ms a call, %.0f%% of the machine's %d cores); the harness, that is the %d clients and the emulator, %.1f s (%.0f%%); the rest of the round's %.0f core-seconds went to other work or idle waiting.\n",
			l.CPU.Seconds(), ms(l.CPU)/float64(max(l.Calls, 1)), share(l.CPU), r.Cores, l.Sessions, l.HarnessCPU.Seconds(), share(l.HarnessCPU), l.Wall.Seconds()*float64(r.Cores))
		if l.Errors > 0 {
			p("\nFirst error: `%s`\n", l.FirstError)
		} else {
			p("\nZero errors over both rounds: met. Latency and throughput are the first round's.\n")
		}
		if l.Panicked > 0 {
			p("\nOne more call in the first round panicked on purpose (a `sous_bench_panic` build, `mcpfront/panichook_bench.go`); it was answered `%s`, and after both rounds the process %s.\n",
				l.PanicAnswer, map[bool]string{true: "was alive and answering", false: "did not answer"}[l.Alive])
		}
	}
	if hh := r.Household; hh != nil {
		b.WriteString(hh.Markdown())
	}
	if w := r.Writers; w != nil {
		b.WriteString(w.Markdown())
	}
	return b.String()
}

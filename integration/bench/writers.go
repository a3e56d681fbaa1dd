package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// Writers figure settings (docs/benchmarks.md).
const (
	// writerSessions is the household's cooks writing at once.
	writerSessions = 4
	// writerAdds is how many times each cook adds "1 cup milk".
	writerAdds = 25
	// writerLatency is the emulator's latency on every answer: each add is
	// four Mealie requests (a parse, the list, the row's PUT and its
	// read-back), so the figure measures what the per-list key makes wait,
	// not the emulator's speed.
	writerLatency = 10 * time.Millisecond
	// writerTimeout bounds the figure: three rounds of at most 100 adds.
	writerTimeout = 3 * time.Minute
)

// Writers is figure 8: throughput of adds to shopping lists through one
// `sous mcp --http`, one session against four sessions writing to four
// lists and to one list. Writes that read a list first go one at a time
// per list (services/internal/keylock), so four lists should go about as
// fast as the emulator answers four cooks, and one list about as fast as
// one cook.
type Writers struct {
	// Rounds are the three rounds, in order: one cook, four cooks on four
	// lists, four cooks on one list.
	Rounds []WriterRound
}

// WriterRound is one round of adds.
type WriterRound struct {
	Name            string
	Sessions, Lists int
	Calls, Errors   int
	Wall            time.Duration
	// Sum says whether every list ended with exactly the cups added to it.
	Sum bool
	// FirstError is one failure, verbatim.
	FirstError string
}

// Throughput is adds per second.
func (w *WriterRound) Throughput() float64 {
	if w.Wall <= 0 {
		return 0
	}
	return float64(w.Calls) / w.Wall.Seconds()
}

// runWriters measures figure 8.
func (h *Harness) runWriters(ctx context.Context) (*Writers, error) {
	ctx, cancel := context.WithTimeout(ctx, writerTimeout)
	defer cancel()
	em, err := mealieemu.Start(mealieemu.WithSeed("demo"), mealieemu.WithLatency(writerLatency))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	p, url, err := h.startMCPHTTP("MEALIE_URL="+em.URL, "MEALIE_API_TOKEN="+em.Token)
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	hc := httpClient()
	out := &Writers{}
	for _, r := range []struct {
		name            string
		sessions, lists int
	}{{"one session, one list", 1, 1}, {"four sessions, four lists", writerSessions, writerSessions}, {"four sessions, one list", writerSessions, 1}} {
		var lists []string
		for i := range r.lists {
			id, err := createList(ctx, hc, em, fmt.Sprintf("%s %d", r.name, i))
			if err != nil {
				return nil, err
			}
			lists = append(lists, id)
		}
		round := WriterRound{Name: r.name, Sessions: r.sessions, Lists: r.lists, Calls: r.sessions * writerAdds}
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := time.Now()
		for s := range r.sessions {
			wg.Go(func() {
				fail := func(err error) {
					mu.Lock()
					defer mu.Unlock()
					round.Errors++
					if round.FirstError == "" {
						round.FirstError = err.Error()
					}
				}
				sess, err := connectMCP(ctx, hc, url)
				if err != nil {
					fail(err)
					return
				}
				defer sess.Close()
				list := lists[s%len(lists)]
				for range writerAdds {
					if _, _, err := callText(ctx, sess, "add_to_shopping_list", map[string]any{"list_id": list, "items": []string{"1 cup milk"}, "skip_in_stock": false}); err != nil {
						fail(err)
					}
				}
			})
		}
		wg.Wait()
		round.Wall = time.Since(start)
		round.Sum = true
		for _, id := range lists {
			want := float64(writerAdds * r.sessions / r.lists)
			got, err := cupsOfMilk(ctx, hc, em, id)
			if err != nil {
				return nil, err
			}
			if got != want {
				round.Sum = false
				if round.FirstError == "" {
					round.FirstError = fmt.Sprintf("list %s holds %v cups of milk, want %v", id, got, want)
				}
			}
		}
		out.Rounds = append(out.Rounds, round)
	}
	return out, nil
}

// createList makes a shopping list on the emulator through Mealie's API.
func createList(ctx context.Context, hc *http.Client, em *mealieemu.Server, name string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, em.URL+"/api/households/shopping/lists", strings.NewReader(fmt.Sprintf(`{"name":%q}`, name)))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+em.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var l struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil || resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("creating a list: %d %v", resp.StatusCode, err)
	}
	return l.ID, nil
}

// cupsOfMilk adds up the quantity of a list's unchecked milk rows, read
// from Mealie.
func cupsOfMilk(ctx context.Context, hc *http.Client, em *mealieemu.Server, listID string) (float64, error) {
	var l struct {
		ListItems []struct {
			Quantity float64 `json:"quantity"`
			Checked  bool    `json:"checked"`
			Food     *struct {
				Name string `json:"name"`
			} `json:"food"`
		} `json:"listItems"`
	}
	if err := getJSON(ctx, hc, em, "/api/households/shopping/lists/"+listID, &l); err != nil {
		return 0, err
	}
	sum := 0.0
	for _, it := range l.ListItems {
		if !it.Checked && it.Food != nil && it.Food.Name == "milk" {
			sum += it.Quantity
		}
	}
	return sum, nil
}

// Markdown renders figure 8.
func (w *Writers) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("\n### 8. Writers: %d adds of \"1 cup milk\" a session, Streamable HTTP, emulator at %s\n\n", writerAdds, writerLatency)
	p("| Round | Adds | Errors | Wall s | Adds/s | ÷ one session | Every list's exact sum |\n|---|--:|--:|--:|--:|--:|---|\n")
	base := 0.0
	if len(w.Rounds) > 0 {
		base = w.Rounds[0].Throughput()
	}
	for _, r := range w.Rounds {
		p("| %s | %d | %d | %.2f | %.1f | %s | %s |\n", r.Name, r.Calls, r.Errors, r.Wall.Seconds(), r.Throughput(), ratio(r.Throughput(), base),
			map[bool]string{true: "yes", false: "**no**"}[r.Sum && r.Errors == 0])
	}
	for _, r := range w.Rounds {
		if r.FirstError != "" {
			p("\nFirst error (%s): `%s`\n", r.Name, r.FirstError)
		}
	}
	return b.String()
}

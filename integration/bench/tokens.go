package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// TokensUnavailable is what a token cell says when the tokenizer's
// node_modules are missing.
const TokensUnavailable = "n/a (run npm ci in integration/bench/tokenizer)"

// tokenizeTimeout bounds one node run: counting a few hundred kilobytes of
// text takes well under a second once node has started.
const tokenizeTimeout = time.Minute

// Tokens is a count filled in by Tokenizer.Run; until then, and when the
// tokenizer is unavailable, it renders as TokensUnavailable.
type Tokens struct {
	// N is the count, meaningful when OK.
	N  int
	OK bool
}

// String renders the count, or why there is none.
func (t *Tokens) String() string {
	if t == nil || !t.OK {
		return TokensUnavailable
	}
	return strconv.Itoa(t.N)
}

// Tokenizer batches texts so node starts once per run. Dir is the
// tokenizer directory (integration/bench/tokenizer).
type Tokenizer struct {
	Dir   string
	texts []string
	dst   []*Tokens
}

// Add queues text and returns the count Run will fill in.
func (z *Tokenizer) Add(text string) *Tokens {
	t := &Tokens{}
	z.texts = append(z.texts, text)
	z.dst = append(z.dst, t)
	return t
}

// ErrNoTokenizer says the tokenizer's dependencies are not installed.
var ErrNoTokenizer = errors.New("tokenizer dependencies missing: run npm ci in integration/bench/tokenizer")

// Run counts every queued text. Without node_modules it returns
// ErrNoTokenizer and leaves every count unavailable.
func (z *Tokenizer) Run(ctx context.Context) error {
	if len(z.texts) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(z.Dir, "node_modules", "gpt-tokenizer")); err != nil {
		return ErrNoTokenizer
	}
	in, err := json.Marshal(z.texts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, tokenizeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "count.mjs")
	cmd.Dir = z.Dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("tokenizer: %v: %s", err, stderr.String())
	}
	var counts []int
	if err := json.Unmarshal(out, &counts); err != nil {
		return fmt.Errorf("tokenizer: reading its answer: %w", err)
	}
	if len(counts) != len(z.dst) {
		return fmt.Errorf("tokenizer: %d counts for %d texts", len(counts), len(z.dst))
	}
	for i, n := range counts {
		*z.dst[i] = Tokens{N: n, OK: true}
	}
	return nil
}

// Package bench measures sous the way a model meets it: what the tool catalog
// and each answer cost in bytes and tokens, what the MCP and Connect hops add
// to a call, how much memory a process holds, how fast it starts, and how it
// behaves under concurrent sessions. Every figure of docs/benchmarks.md comes
// from Run, and cmd/sousbench rewrites that page's results table.
//
// The harness drives the real `sous` binary as child processes bound to
// 127.0.0.1, against the Mealie emulator (internal/mealieemu) and the
// Django food API (internal/foodapiproc). Figures that share a machine
// with other work are noisy in absolute terms, so each one is a ratio
// against a baseline measured in the same run: direct GETs beside MCP calls,
// raw backend bytes beside sous's answer, idle memory beside loaded memory.
//
// Tokens are counted with the o200k_base encoding by the small Node script
// in tokenizer/ (offline, no network); without its node_modules the token
// columns say so instead of guessing.
package bench

// Package env reads sous's configuration from the process environment, with a
// .env file found upward from the working directory as a fallback: the
// process environment always wins (docs/configuration.md).
package env

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/joho/godotenv"
)

// LoadDotEnv loads the first .env file found in dir or one of its parents
// into the process environment. Variables already set win: the file only
// fills gaps. It returns the path loaded, or "" when none was found.
func LoadDotEnv(dir string) (string, error) {
	for {
		p := filepath.Join(dir, ".env")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			// godotenv.Load never overrides variables that are already set.
			if err := godotenv.Load(p); err != nil {
				return "", fmt.Errorf("reading %s: %w", p, err)
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// String returns the variable's value with surrounding space trimmed, or def
// when it is unset or blank.
func String(name, def string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return def
}

// Bool parses a boolean variable. It accepts 1/true/yes/on and
// 0/false/no/off in any case; unset or blank gives def. Anything else is an
// error naming the variable: failing open on a safety flag such as
// MEALIE_READ_ONLY is the wrong default.
func Bool(name string, def bool) (bool, error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return def, nil
	}
	b, ok := ParseBool(v)
	if !ok {
		return false, fmt.Errorf("%s=%q is not a boolean: use 1/true/yes/on or 0/false/no/off", name, v)
	}
	return b, nil
}

// ParseBool parses 1/true/yes/on and 0/false/no/off, case-insensitively.
func ParseBool(v string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, true
	case "0", "false", "no", "off":
		return false, true
	}
	return false, false
}

// List splits a comma-separated variable into trimmed, non-empty items; unset
// gives nil.
func List(name string) []string {
	var out []string
	for _, part := range strings.Split(os.Getenv(name), ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

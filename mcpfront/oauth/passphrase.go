package oauth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters for new hashes: RFC 9106 §4's second recommended
// option (64 MiB, 3 passes, 4 lanes), which costs about a tenth of a second
// per check on a small home server: unnoticeable at a consent page, ruinous
// for offline guessing. Hashes keep their own parameters, so raising these
// later leaves older hashes valid.
const (
	argonMemoryKiB = 64 * 1024
	argonTime      = 3
	argonThreads   = 4
	argonKeyLen    = 32
	argonSaltLen   = 16
	// minPassphrase is the shortest passphrase accepted: the consent page
	// is on the public internet, and the rate limit only slows guessing.
	minPassphrase = 12
	// maxArgonMemoryKiB refuses a hash file asking for more memory than a
	// homelab box should spend on one login (1 GiB).
	maxArgonMemoryKiB = 1 << 20
)

// passphrase is the owner's argon2id hash. Checks run one at a time so that
// a burst of logins cannot allocate more than one hash's memory.
type passphrase struct {
	mu      sync.Mutex
	memory  uint32
	time    uint32
	threads uint8
	salt    []byte
	key     []byte
}

// HashPassphrase returns pass's argon2id hash in the PHC string form
// ("$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>") that
// SOUS_OAUTH_PASSPHRASE_FILE may hold instead of the passphrase.
func HashPassphrase(pass string) (string, error) {
	if len([]rune(pass)) < minPassphrase {
		return "", fmt.Errorf("the passphrase must be at least %d characters", minPassphrase)
	}
	salt := make([]byte, argonSaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(pass), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// loadPassphrase reads SOUS_OAUTH_PASSPHRASE_FILE: a PHC argon2id hash, or a
// passphrase that is hashed here and then dropped.
func loadPassphrase(path string) (*passphrase, error) {
	if path == "" {
		return nil, errors.New("SOUS_OAUTH_PASSPHRASE_FILE is not set; OAuth needs the owner's passphrase")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("SOUS_OAUTH_PASSPHRASE_FILE: %w", err)
	}
	text := strings.TrimRight(string(b), "\r\n")
	if strings.HasPrefix(text, "$argon2id$") {
		p, err := parsePHC(text)
		if err != nil {
			return nil, fmt.Errorf("SOUS_OAUTH_PASSPHRASE_FILE: %w", err)
		}
		return p, nil
	}
	h, err := HashPassphrase(text)
	if err != nil {
		return nil, fmt.Errorf("SOUS_OAUTH_PASSPHRASE_FILE: %w", err)
	}
	return parsePHC(h)
}

// parsePHC reads "$argon2id$v=19$m=…,t=…,p=…$salt$key".
func parsePHC(s string) (*passphrase, error) {
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return nil, errors.New("not an argon2id hash")
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return nil, errors.New("unsupported argon2 version")
	}
	p := &passphrase{}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return nil, errors.New("unreadable argon2 parameters")
	}
	if p.memory == 0 || p.memory > maxArgonMemoryKiB || p.time == 0 || p.threads == 0 {
		return nil, errors.New("argon2 parameters out of range")
	}
	var err error
	b64 := base64.RawStdEncoding
	if p.salt, err = b64.DecodeString(parts[4]); err != nil || len(p.salt) < 8 {
		return nil, errors.New("unreadable argon2 salt")
	}
	if p.key, err = b64.DecodeString(parts[5]); err != nil || len(p.key) < 16 {
		return nil, errors.New("unreadable argon2 hash")
	}
	return p, nil
}

// check reports whether pass matches, in constant time over the derived key.
func (p *passphrase) check(pass string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := argon2.IDKey([]byte(pass), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	return subtle.ConstantTimeCompare(k, p.key) == 1
}

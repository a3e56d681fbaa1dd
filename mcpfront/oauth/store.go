package oauth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver, registered as "sqlite"
)

// schema is the whole store. Times are Unix milliseconds. Codes and refresh
// tokens are kept only as SHA-256 hashes: they are 130-bit random strings, so
// a plain hash is enough to make a stolen file useless for replay. Deleting a
// client cascades to its grant families and their refresh tokens, which also
// kills its live access tokens (they name their family).
const schema = `
PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS clients (
	id            TEXT PRIMARY KEY,
	secret_hash   BLOB,
	auth_method   TEXT NOT NULL,
	name          TEXT NOT NULL,
	metadata      TEXT NOT NULL,
	created_at    INTEGER NOT NULL,
	last_used_at  INTEGER
);
CREATE TABLE IF NOT EXISTS families (
	id          TEXT PRIMARY KEY,
	client_id   TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
	scope       TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	revoked_at  INTEGER
);
CREATE INDEX IF NOT EXISTS families_client ON families(client_id);
CREATE TABLE IF NOT EXISTS codes (
	hash          BLOB PRIMARY KEY,
	client_id     TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
	redirect_uri  TEXT NOT NULL,
	challenge     TEXT NOT NULL,
	scope         TEXT NOT NULL,
	expires_at    INTEGER NOT NULL,
	used_at       INTEGER,
	family_id     TEXT
);
CREATE TABLE IF NOT EXISTS refresh_tokens (
	hash        BLOB PRIMARY KEY,
	family_id   TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
	issued_at   INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL,
	rotated_at  INTEGER
);
CREATE INDEX IF NOT EXISTS refresh_family ON refresh_tokens(family_id);
`

// store is the SQLite state. It holds one connection: every write is then
// serialized, which is the per-family lock refresh rotation needs, and
// a single owner's traffic never needs more.
type store struct {
	db *sql.DB
}

// openStore opens path, creating the file and schema if needed. WAL and a
// busy timeout let `sous oauth clients` read while the server runs.
func openStore(path string) (*store, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening the OAuth store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("preparing the OAuth store %s: %w", path, err)
	}
	return &store{db: db}, nil
}

func (st *store) close() error { return st.db.Close() }

// tx runs fn in one transaction, committing when it returns nil. A returned
// *commitErr commits and then reports its error, for refusals that must
// still persist a revocation.
func (st *store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := st.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	err = fn(tx)
	var ce *commitErr
	if err != nil && !errors.As(err, &ce) {
		tx.Rollback()
		return err
	}
	if cerr := tx.Commit(); cerr != nil {
		return cerr
	}
	return err
}

// commitErr is an error whose transaction must still be committed.
type commitErr struct{ err error }

func (e *commitErr) Error() string { return e.err.Error() }
func (e *commitErr) Unwrap() error { return e.err }

// hashSecret is the stored form of a code, refresh token or client secret.
func hashSecret(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// revokeFamily marks a grant family revoked; its refresh tokens stop
// working and its access tokens are refused by Protect.
func revokeFamily(ctx context.Context, tx *sql.Tx, id string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE families SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, ms(now), id)
	return err
}

// familyLive reports whether family id exists, is unrevoked and belongs to a
// registered client (deleting the client deletes the family).
func (st *store) familyLive(ctx context.Context, id string) (bool, error) {
	var n int
	err := st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM families WHERE id = ? AND revoked_at IS NULL`, id).Scan(&n)
	return n == 1, err
}

// sweep deletes rows nothing can use any more: spent or expired codes, and
// refresh tokens past their expiry (reuse of those is refused as unknown).
func (st *store) sweep(ctx context.Context, now time.Time) {
	st.db.ExecContext(ctx, `DELETE FROM codes WHERE expires_at < ?`, ms(now.Add(-time.Hour)))
	st.db.ExecContext(ctx, `DELETE FROM refresh_tokens WHERE expires_at < ?`, ms(now))
	st.db.ExecContext(ctx, `DELETE FROM families WHERE revoked_at IS NOT NULL AND revoked_at < ?`, ms(now.Add(-RefreshTokenTTL)))
}

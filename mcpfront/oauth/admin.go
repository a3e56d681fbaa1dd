package oauth

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// ClientInfo is one registered client as `sous oauth clients` shows it.
type ClientInfo struct {
	ID           string
	Name         string
	AuthMethod   string
	RedirectURIs []string
	Created      time.Time
	LastUsed     time.Time // zero if never used at /token
	LiveGrants   int       // unrevoked grant families
	Scope        string    // union of the live grants' scopes, space-separated
}

// ListClients reads the registered clients from the store at statePath,
// oldest first. It works while the server runs (the store is in WAL mode)
// and fails if the file does not exist rather than creating it.
func ListClients(ctx context.Context, statePath string) ([]ClientInfo, error) {
	st, err := openExisting(statePath)
	if err != nil {
		return nil, err
	}
	defer st.close()
	rows, err := st.db.QueryContext(ctx, `SELECT c.id, c.name, c.auth_method, c.metadata, c.created_at, c.last_used_at,
		(SELECT COUNT(*) FROM families f WHERE f.client_id = c.id AND f.revoked_at IS NULL),
		(SELECT COALESCE(group_concat(DISTINCT f.scope), '') FROM families f WHERE f.client_id = c.id AND f.revoked_at IS NULL)
		FROM clients c ORDER BY c.created_at, c.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ClientInfo
	for rows.Next() {
		var (
			ci       ClientInfo
			meta     string
			created  int64
			lastUsed sql.NullInt64
			scopes   string
		)
		if err := rows.Scan(&ci.ID, &ci.Name, &ci.AuthMethod, &meta, &created, &lastUsed, &ci.LiveGrants, &scopes); err != nil {
			return nil, err
		}
		var reg registration
		json.Unmarshal([]byte(meta), &reg)
		ci.RedirectURIs = reg.RedirectURIs
		ci.Created = time.UnixMilli(created)
		if lastUsed.Valid {
			ci.LastUsed = time.UnixMilli(lastUsed.Int64)
		}
		// group_concat joins the families' scopes with commas.
		sc, _ := scopeList(strings.ReplaceAll(scopes, ",", " "))
		ci.Scope = strings.Join(sc, " ")
		out = append(out, ci)
	}
	return out, rows.Err()
}

// RevokeClient deletes client id and everything it was granted: its
// refresh tokens stop working at once, its live access tokens are refused
// by Protect on their next use, and its next /token request gets 401
// invalid_client, which makes claude.ai register again.
// It reports an error naming the id when no such client exists.
func RevokeClient(ctx context.Context, statePath, id string) error {
	st, err := openExisting(statePath)
	if err != nil {
		return err
	}
	defer st.close()
	res, err := st.db.ExecContext(ctx, `DELETE FROM clients WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("no OAuth client %q is registered", id)
	}
	return nil
}

// openExisting opens a store that must already exist.
func openExisting(path string) (*store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("the OAuth store: %w", err)
	}
	return openStore(path)
}

package oauth

import (
	"database/sql"
	"errors"
	"net/http"
)

// serveRevoke is RFC 7009 revocation: a refresh or access token revokes its
// whole grant family. Unknown tokens are answered 200 as the RFC asks.
func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	c, gerr := s.authenticateClient(r)
	if gerr != nil {
		s.writeGrantError(w, r, gerr)
		return
	}
	tok := r.PostForm.Get("token")
	if tok == "" {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "token is required")
		return
	}
	now := s.now()
	var fam string
	err := s.st.db.QueryRowContext(r.Context(), `SELECT r.family_id FROM refresh_tokens r JOIN families f ON f.id = r.family_id
		WHERE r.hash = ? AND f.client_id = ?`, hashSecret(tok), c.ID).Scan(&fam)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
		if claims, perr := s.parseAccess(tok); perr == nil && claims.ClientID == c.ID {
			fam = claims.Family
		}
	}
	if err == nil && fam != "" {
		err = s.st.tx(r.Context(), func(tx *sql.Tx) error { return revokeFamily(r.Context(), tx, fam, now) })
		if err == nil {
			s.log.Info("revoked a grant at the client's request", "client_id", c.ID)
		}
	}
	if err != nil {
		s.log.Error("revoking a token", "err", err)
		writeOAuthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "the token could not be revoked; try again")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}

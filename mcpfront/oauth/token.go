package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// tokenResponse is RFC 6749 §5.1's answer.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope"`
}

// grantError is a refusal at /token with its RFC 6749 §5.2 code.
type grantError struct {
	status int
	code   string
	desc   string
}

func (e *grantError) Error() string { return e.code + ": " + e.desc }

func invalidGrant(desc string) *grantError {
	return &grantError{http.StatusBadRequest, "invalid_grant", desc}
}

// errInvalidClient is the signal for a revoked or unknown client: 401
// invalid_client, after which claude.ai registers again (a 400
// invalid_grant would make it give up).
var errInvalidClient = &grantError{http.StatusUnauthorized, "invalid_client", "unknown client or bad client credentials; register again"}

// authenticateClient applies the client's registered token-endpoint auth
// method. Clients with a secret may send it either way (client_secret_post
// or client_secret_basic); public clients send only client_id.
func (s *Server) authenticateClient(r *http.Request) (*client, *grantError) {
	id, secret, basic := r.BasicAuth()
	if basic {
		// RFC 6749 §2.3.1: Basic credentials are form-urlencoded first.
		if v, err := url.QueryUnescape(id); err == nil {
			id = v
		}
		if v, err := url.QueryUnescape(secret); err == nil {
			secret = v
		}
		if f := r.PostForm.Get("client_id"); f != "" && f != id {
			return nil, errInvalidClient
		}
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id == "" {
		return nil, errInvalidClient
	}
	c, ok, err := s.loadClient(r.Context(), id)
	if err != nil {
		s.log.Error("reading an OAuth client", "err", err)
		return nil, &grantError{http.StatusInternalServerError, "server_error", "the store could not be read"}
	}
	if !ok {
		return nil, errInvalidClient
	}
	if c.AuthMethod != authNone {
		if secret == "" || subtle.ConstantTimeCompare(hashSecret(secret), c.secretHash) != 1 {
			return nil, errInvalidClient
		}
	}
	return c, nil
}

// serveToken is the token endpoint: authorization_code and refresh_token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
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
	if res := r.PostForm.Get("resource"); res != "" && !resourceMatches(res, s.resource) {
		writeOAuthError(w, http.StatusBadRequest, "invalid_target", "this server issues tokens for "+s.resource+" only")
		return
	}
	var (
		resp *tokenResponse
		err  error
	)
	switch gt := r.PostForm.Get("grant_type"); gt {
	case grantCode:
		resp, err = s.exchangeCode(r.Context(), c, r.PostForm)
	case grantRenew:
		if !slices.Contains(c.Reg.GrantTypes, grantRenew) {
			err = &grantError{http.StatusBadRequest, "unauthorized_client", "this client did not register the refresh_token grant"}
			break
		}
		resp, err = s.refresh(r.Context(), c, r.PostForm)
	default:
		err = &grantError{http.StatusBadRequest, "unsupported_grant_type", "use authorization_code or refresh_token"}
	}
	if ge := (*grantError)(nil); errors.As(err, &ge) {
		s.writeGrantError(w, r, ge)
		return
	}
	if err != nil {
		s.log.Error("issuing tokens", "err", err)
		writeOAuthError(w, http.StatusInternalServerError, "server_error", "the token could not be issued")
		return
	}
	s.st.db.ExecContext(r.Context(), `UPDATE clients SET last_used_at = ? WHERE id = ?`, ms(s.now()), c.ID)
	s.st.sweep(r.Context(), s.now())
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) writeGrantError(w http.ResponseWriter, r *http.Request, e *grantError) {
	if e.status == http.StatusUnauthorized {
		if _, _, basic := r.BasicAuth(); basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="sous"`)
		}
	}
	writeOAuthError(w, e.status, e.code, e.desc)
}

// codeRow is a stored authorization code.
type codeRow struct {
	clientID, redirectURI, challenge, scope string
	expires                                 int64
	used                                    sql.NullInt64
	family                                  sql.NullString
}

// exchangeCode redeems an authorization code. A code is spent by its first
// presentation whatever the outcome, so a stolen code cannot be retried
// against the verifier; a second presentation of a redeemed code revokes
// what it granted (RFC 6749 §4.1.2).
func (s *Server) exchangeCode(ctx context.Context, c *client, form url.Values) (*tokenResponse, error) {
	code, verifier, redirect := form.Get("code"), form.Get("code_verifier"), form.Get("redirect_uri")
	if code == "" || verifier == "" {
		return nil, &grantError{http.StatusBadRequest, "invalid_request", "code and code_verifier are required"}
	}
	now := s.now()
	var (
		fam   string
		scope string
	)
	err := s.st.tx(ctx, func(tx *sql.Tx) error {
		var row codeRow
		err := tx.QueryRowContext(ctx, `SELECT client_id, redirect_uri, challenge, scope, expires_at, used_at, family_id FROM codes WHERE hash = ?`, hashSecret(code)).
			Scan(&row.clientID, &row.redirectURI, &row.challenge, &row.scope, &row.expires, &row.used, &row.family)
		if errors.Is(err, sql.ErrNoRows) {
			return invalidGrant("unknown authorization code")
		}
		if err != nil {
			return err
		}
		if row.used.Valid {
			if row.family.Valid {
				if err := revokeFamily(ctx, tx, row.family.String, now); err != nil {
					return err
				}
				s.log.Warn("an authorization code was presented twice; revoked its grant", "client_id", row.clientID)
			}
			return &commitErr{invalidGrant("the authorization code was already used")}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE codes SET used_at = ? WHERE hash = ?`, ms(now), hashSecret(code)); err != nil {
			return err
		}
		switch {
		case row.clientID != c.ID:
			return &commitErr{invalidGrant("the code was issued to another client")}
		case now.UnixMilli() > row.expires:
			return &commitErr{invalidGrant("the authorization code expired")}
		case !redirectAsAuthorized(row.redirectURI, redirect, c.Reg.RedirectURIs):
			if row.redirectURI != "" && redirect == "" {
				return &commitErr{invalidGrant("redirect_uri is required: the authorization request carried one, so send the same here")}
			}
			return &commitErr{invalidGrant("redirect_uri differs from the authorization request")}
		case !verifierMatches(verifier, row.challenge):
			return &commitErr{invalidGrant("code_verifier does not match the code_challenge")}
		}
		fam, scope = rand.Text(), row.scope
		if _, err := tx.ExecContext(ctx, `INSERT INTO families(id, client_id, scope, created_at) VALUES(?,?,?,?)`, fam, c.ID, scope, ms(now)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE codes SET family_id = ? WHERE hash = ?`, fam, hashSecret(code))
		return err
	})
	if err != nil {
		return nil, err
	}
	s.log.Info("issued tokens for an authorization code", "client_id", c.ID, "scope", scope)
	return s.issue(ctx, c, fam, scope, now)
}

// redirectAsAuthorized checks the token request's redirect_uri against the
// authorization request's (RFC 6749 §4.1.3): the same one when it carried
// one. A request that left it out (allowed with one registered URI, OAuth
// 2.1 §4.1.1; authorizedWith is then "") is matched by leaving it out here
// too, or by naming that one registered URI.
func redirectAsAuthorized(authorizedWith, presented string, registered []string) bool {
	if authorizedWith == "" {
		return presented == "" || slices.Equal(registered, []string{presented})
	}
	return presented == authorizedWith
}

// issue mints an access token and, for clients with the refresh grant, a
// new refresh token in family fam.
func (s *Server) issue(ctx context.Context, c *client, fam, scope string, now time.Time) (*tokenResponse, error) {
	at, err := s.mint(c.ID, fam, scope, now)
	if err != nil {
		return nil, err
	}
	resp := &tokenResponse{AccessToken: at, TokenType: "Bearer", ExpiresIn: int64(AccessTokenTTL / time.Second), Scope: scope}
	if slices.Contains(c.Reg.GrantTypes, grantRenew) {
		rt := rand.Text() + rand.Text()
		_, err := s.st.db.ExecContext(ctx, `INSERT INTO refresh_tokens(hash, family_id, issued_at, expires_at) VALUES(?,?,?,?)`,
			hashSecret(rt), fam, ms(now), ms(now.Add(RefreshTokenTTL)))
		if err != nil {
			return nil, err
		}
		resp.RefreshToken = rt
	}
	return resp, nil
}

// refresh rotates a refresh token. The current token is marked
// rotated and a new pair is issued. Within RefreshGrace of its rotation, a
// rotated token still gets a fresh pair of its own (parallel tool calls
// refreshing with the same token), and the earlier pairs stay valid; after
// the window, presenting it revokes the whole family, live access tokens
// included. The store's single connection serializes all of this.
func (s *Server) refresh(ctx context.Context, c *client, form url.Values) (*tokenResponse, error) {
	rt := form.Get("refresh_token")
	if rt == "" {
		return nil, &grantError{http.StatusBadRequest, "invalid_request", "refresh_token is required"}
	}
	now := s.now()
	var fam, scope string
	err := s.st.tx(ctx, func(tx *sql.Tx) error {
		var (
			clientID         string
			expires          int64
			rotated, revoked sql.NullInt64
		)
		err := tx.QueryRowContext(ctx, `SELECT r.family_id, r.expires_at, r.rotated_at, f.client_id, f.scope, f.revoked_at
			FROM refresh_tokens r JOIN families f ON f.id = r.family_id WHERE r.hash = ?`, hashSecret(rt)).
			Scan(&fam, &expires, &rotated, &clientID, &scope, &revoked)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return invalidGrant("unknown refresh token")
		case err != nil:
			return err
		case clientID != c.ID:
			return invalidGrant("the refresh token was issued to another client")
		case revoked.Valid:
			return invalidGrant("the grant was revoked")
		case now.UnixMilli() > expires:
			return invalidGrant("the refresh token expired")
		}
		if rotated.Valid {
			if now.Sub(time.UnixMilli(rotated.Int64)) > RefreshGrace {
				if err := revokeFamily(ctx, tx, fam, now); err != nil {
					return err
				}
				s.log.Warn("a rotated refresh token was replayed; revoked its grant", "client_id", c.ID)
				return &commitErr{invalidGrant("the refresh token was already used; the grant is revoked")}
			}
			return nil // inside the grace window: a sibling pair
		}
		_, err = tx.ExecContext(ctx, `UPDATE refresh_tokens SET rotated_at = ? WHERE hash = ?`, ms(now), hashSecret(rt))
		return err
	})
	if err != nil {
		return nil, err
	}
	if req := form.Get("scope"); req != "" {
		asked, ok := scopeList(req)
		have := strings.Fields(scope)
		for _, sc := range asked {
			if !slices.Contains(have, sc) {
				ok = false
			}
		}
		if !ok || len(asked) == 0 {
			return nil, &grantError{http.StatusBadRequest, "invalid_scope", "a refresh may only narrow the granted scope: " + scope}
		}
		scope = strings.Join(asked, " ")
	}
	return s.issue(ctx, c, fam, scope, now)
}

// verifierMatches is RFC 7636 §4.6 for S256, the only method accepted,
// for a verifier of the §4.1 form only: a hash of any other string could
// still match a challenge made from it, and accepting it would let a
// client skip the high-entropy verifier the RFC asks for.
func verifierMatches(verifier, challenge string) bool {
	if !validVerifier(verifier) {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// validVerifier is RFC 7636 §4.1: 43 to 128 characters of the unreserved
// set [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~".
func validVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

package oauth

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Token-endpoint authentication methods (RFC 7591 §2). claude.ai registers
// with client_secret_post, desktop clients and Claude Code with none;
// both are honoured as asked.
const (
	authNone   = "none"
	authPost   = "client_secret_post"
	authBasic  = "client_secret_basic"
	grantCode  = "authorization_code"
	grantRenew = "refresh_token"
)

// authMethods is exactly what /token and /revoke accept, and what the
// metadata advertises (the two must be equal).
var authMethods = []string{authPost, authBasic, authNone}

const (
	// maxRedirectURIs and maxURILen bound a registration's size.
	maxRedirectURIs = 10
	maxURILen       = 2048
	// maxClientName is the longest client name shown on the consent page.
	maxClientName = 120
)

// registration is a client's stored metadata, echoed back by /register
// (Desktop treats a response lacking what it sent as an error).
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientURI               string   `json:"client_uri,omitempty"`
	LogoURI                 string   `json:"logo_uri,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	SoftwareID              string   `json:"software_id,omitempty"`
	SoftwareVersion         string   `json:"software_version,omitempty"`
}

// registrationResponse is RFC 7591 §3.2.1's answer.
type registrationResponse struct {
	ClientID              string `json:"client_id"`
	ClientSecret          string `json:"client_secret,omitempty"`
	ClientIDIssuedAt      int64  `json:"client_id_issued_at"`
	ClientSecretExpiresAt *int64 `json:"client_secret_expires_at,omitempty"`
	registration
}

// client is a registered client as the token endpoint needs it.
type client struct {
	ID         string
	secretHash []byte
	AuthMethod string
	Name       string
	Reg        registration
}

// serveRegister is RFC 7591 dynamic client registration.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	if wait, msg := s.allowRegistration(addrKey(r), now); msg != "" {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		writeOAuthError(w, http.StatusTooManyRequests, "slow_down", msg)
		return
	}
	var in oauthex.ClientRegistrationMetadata
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxFormBody))
	if err := dec.Decode(&in); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", "the registration is not a JSON object of client metadata")
		return
	}
	reg, errCode, err := validateRegistration(&in)
	if err != nil {
		writeOAuthError(w, http.StatusBadRequest, errCode, err.Error())
		return
	}
	resp := registrationResponse{
		ClientID:         rand.Text(),
		ClientIDIssuedAt: now.Unix(),
		registration:     *reg,
	}
	var secretHash []byte
	if reg.TokenEndpointAuthMethod != authNone {
		resp.ClientSecret = rand.Text() + rand.Text()
		secretHash = hashSecret(resp.ClientSecret)
		var never int64
		resp.ClientSecretExpiresAt = &never
	}
	name := reg.ClientName
	if name == "" {
		name = redirectHost(reg.RedirectURIs[0])
	}
	meta, _ := json.Marshal(reg)
	err = s.st.tx(r.Context(), func(tx *sql.Tx) error {
		if err := makeRoom(r.Context(), tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(r.Context(), `INSERT INTO clients(id, secret_hash, auth_method, name, metadata, created_at) VALUES(?,?,?,?,?,?)`,
			resp.ClientID, secretHash, reg.TokenEndpointAuthMethod, name, string(meta), ms(now))
		return err
	})
	if errors.Is(err, errStoreFull) {
		writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", err.Error())
		return
	}
	if err != nil {
		s.log.Error("registering an OAuth client", "err", err)
		writeOAuthError(w, http.StatusInternalServerError, "server_error", "the client could not be stored")
		return
	}
	s.log.Info("registered an OAuth client", "client_id", resp.ClientID, "name", name, "auth_method", reg.TokenEndpointAuthMethod)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, resp)
}

var errStoreFull = fmt.Errorf("%d clients are registered, each holding a live grant; revoke one with `sous oauth revoke`", MaxClients)

// makeRoom evicts the oldest client without a live grant when the store is
// at MaxClients, so abandoned registrations cannot lock out new ones.
func makeRoom(ctx context.Context, tx *sql.Tx) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM clients`).Scan(&n); err != nil {
		return err
	}
	if n < MaxClients {
		return nil
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM clients WHERE id = (
		SELECT c.id FROM clients c WHERE NOT EXISTS (
			SELECT 1 FROM families f WHERE f.client_id = c.id AND f.revoked_at IS NULL)
		ORDER BY c.created_at LIMIT 1)`)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return errStoreFull
	}
	return nil
}

// allowRegistration spends one registration for addr, or says why none is
// left: the address's own limit, or the ceiling on everyone. A refused
// registration spends nothing. wait is the Retry-After to send.
func (s *Server) allowRegistration(addr string, now time.Time) (wait time.Duration, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.regByAddr.empty(addr, now) {
		return RegisterEvery, "too many client registrations from this network address; try again shortly"
	}
	// AllowN, not TokensAt: it spends only when it allows, and it also
	// reads an unlimited (rate.Inf) ceiling right.
	if !s.regGlobal.AllowN(now, 1) {
		return RegisterGlobalEvery, "too many client registrations; try again shortly"
	}
	s.regByAddr.spend(addr, now)
	return 0, ""
}

// validateRegistration applies RFC 7591 defaults and sous's limits, and
// returns the RFC 7591 error code for a refusal.
func validateRegistration(in *oauthex.ClientRegistrationMetadata) (*registration, string, error) {
	if len(in.RedirectURIs) == 0 {
		return nil, "invalid_redirect_uri", errors.New("redirect_uris is required")
	}
	if len(in.RedirectURIs) > maxRedirectURIs {
		return nil, "invalid_redirect_uri", fmt.Errorf("at most %d redirect_uris", maxRedirectURIs)
	}
	for _, u := range in.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return nil, "invalid_redirect_uri", err
		}
	}
	reg := &registration{
		RedirectURIs:            in.RedirectURIs,
		TokenEndpointAuthMethod: in.TokenEndpointAuthMethod,
		GrantTypes:              in.GrantTypes,
		ResponseTypes:           in.ResponseTypes,
		ClientName:              cleanName(in.ClientName),
		SoftwareID:              cleanName(in.SoftwareID),
		SoftwareVersion:         cleanName(in.SoftwareVersion),
	}
	if reg.TokenEndpointAuthMethod == "" {
		reg.TokenEndpointAuthMethod = authBasic // RFC 7591 §2 default
	}
	if !slices.Contains(authMethods, reg.TokenEndpointAuthMethod) {
		return nil, "invalid_client_metadata", fmt.Errorf("token_endpoint_auth_method must be one of %s", strings.Join(authMethods, ", "))
	}
	if len(reg.GrantTypes) == 0 {
		// RFC 7591's default is authorization_code alone; refresh is added
		// because every MCP client wants it and the server may amend
		// metadata as long as it echoes the result.
		reg.GrantTypes = []string{grantCode, grantRenew}
	}
	for _, g := range reg.GrantTypes {
		if g != grantCode && g != grantRenew {
			return nil, "invalid_client_metadata", fmt.Errorf("grant type %q is not supported; use authorization_code and refresh_token", g)
		}
	}
	if !slices.Contains(reg.GrantTypes, grantCode) {
		return nil, "invalid_client_metadata", errors.New("grant_types must include authorization_code")
	}
	if len(reg.ResponseTypes) == 0 {
		reg.ResponseTypes = []string{"code"}
	}
	for _, rt := range reg.ResponseTypes {
		if rt != "code" {
			return nil, "invalid_client_metadata", fmt.Errorf("response type %q is not supported; use code", rt)
		}
	}
	// Scopes outside ours (openid, offline_access) are dropped rather than
	// refused: clients add them by habit, and the consent page decides.
	if sc, _ := scopeList(in.Scope); len(sc) > 0 {
		reg.Scope = strings.Join(sc, " ")
	}
	for _, u := range []string{in.ClientURI, in.LogoURI} {
		if u != "" {
			if pu, err := url.Parse(u); err != nil || pu.Scheme != "https" || len(u) > maxURILen {
				return nil, "invalid_client_metadata", fmt.Errorf("%q must be an https URL", u)
			}
		}
	}
	reg.ClientURI, reg.LogoURI = in.ClientURI, in.LogoURI
	return reg, "", nil
}

// displayName is a client-supplied name as the consent page shows it:
// without control or format characters (bidi overrides, zero-width
// joiners, Unicode category Cf), which can make one name read as another.
// cleanName already drops them at registration; this also covers names
// stored before it did.
func displayName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// cleanName trims a display string, drops control and format characters
// (displayName) and caps it.
func cleanName(s string) string {
	s = strings.TrimSpace(displayName(s))
	if r := []rune(s); len(r) > maxClientName {
		s = string(r[:maxClientName]) + "…"
	}
	return s
}

// loadClient reads a client; ok is false for an unknown (or revoked, which
// deletes it) client.
func (s *Server) loadClient(ctx context.Context, id string) (*client, bool, error) {
	c := &client{ID: id}
	var meta string
	err := s.st.db.QueryRowContext(ctx, `SELECT secret_hash, auth_method, name, metadata FROM clients WHERE id = ?`, id).
		Scan(&c.secretHash, &c.AuthMethod, &c.Name, &meta)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal([]byte(meta), &c.Reg); err != nil {
		return nil, false, err
	}
	return c, true, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeOAuthError writes RFC 6749 §5.2's JSON error body.
func writeOAuthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

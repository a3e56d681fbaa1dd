package oauth

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// signingKeyName is the meta row holding the Ed25519 seed. The key lives in
// the store so access tokens survive a restart.
const signingKeyName = "signing_key_ed25519"

// signer signs and verifies access tokens (EdDSA JWTs, RFC 9068 shape).
type signer struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
}

// loadSigner reads the signing key, creating it on first start.
func loadSigner(st *store) (*signer, error) {
	var keySeed []byte
	err := st.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, signingKeyName).Scan(&keySeed)
	if errors.Is(err, sql.ErrNoRows) {
		keySeed = make([]byte, ed25519.SeedSize)
		rand.Read(keySeed)
		_, err = st.db.Exec(`INSERT INTO meta(key, value) VALUES(?, ?)`, signingKeyName, keySeed)
	}
	if err != nil {
		return nil, fmt.Errorf("loading the OAuth signing key: %w", err)
	}
	if len(keySeed) != ed25519.SeedSize {
		return nil, errors.New("the OAuth store's signing key is corrupt")
	}
	priv := ed25519.NewKeyFromSeed(keySeed)
	return &signer{priv: priv, pub: priv.Public().(ed25519.PublicKey)}, nil
}

// accessClaims are an access token's claims. Family names the grant the
// token came from, so revoking the grant (or a refresh-token replay) kills
// tokens already handed out.
type accessClaims struct {
	jwt.RegisteredClaims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
	Family   string `json:"fam"`
}

// mint signs an access token for family fam.
func (s *Server) mint(clientID, fam, scope string, now time.Time) (string, error) {
	c := accessClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    s.issuer,
			Subject:   "owner",
			Audience:  jwt.ClaimStrings{s.resource},
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(AccessTokenTTL)),
			ID:        rand.Text(),
		},
		ClientID: clientID,
		Scope:    scope,
		Family:   fam,
	}
	t := jwt.NewWithClaims(jwt.SigningMethodEdDSA, c)
	t.Header["typ"] = "at+jwt"
	return t.SignedString(s.keys.priv)
}

// errForeignAudience marks a token signed by us for another resource.
var errForeignAudience = errors.New("the token was issued for another resource")

// parseAccess verifies signature, issuer, expiry (on the server's clock) and
// audience; it does not consult the store.
func (s *Server) parseAccess(raw string) (*accessClaims, error) {
	var c accessClaims
	_, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return s.keys.pub, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}),
		jwt.WithIssuer(s.issuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(s.now),
	)
	if err != nil {
		return nil, err
	}
	// The go-sdk's matcher tolerates a trailing-slash difference only; the
	// path, host and scheme must match, so a token for another resource
	// fails closed.
	if !oauthex.MatchesResource(c.Audience, s.resource) {
		return nil, errForeignAudience
	}
	return &c, nil
}

// scopeList splits a space-separated scope into known scopes, in canonical
// order, dropping duplicates; unknown scopes report ok=false.
func scopeList(scope string) (out []string, ok bool) {
	fields := strings.Fields(scope)
	ok = true
	for _, f := range fields {
		ok = ok && slices.Contains(allScopes, f)
	}
	for _, sc := range allScopes {
		if slices.Contains(fields, sc) {
			out = append(out, sc)
		}
	}
	return out, ok
}

// familyLive reports whether grant family fam may still be used; a store
// error counts as no, so a broken store refuses rather than admits.
func (s *Server) familyLive(ctx context.Context, fam string) bool {
	ok, err := s.st.familyLive(ctx, fam)
	if err != nil {
		s.log.Error("checking a grant in the OAuth store", "err", err)
	}
	return ok && err == nil
}

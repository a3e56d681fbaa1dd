package oauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// authServerMetadata is RFC 8414's document. (oauthex.AuthServerMeta would
// serve an empty jwks_uri, which some clients try to fetch.)
type authServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethods     []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	AuthorizationResponseIssSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	ProtectedResources                []string `json:"protected_resources,omitempty"`
}

func (s *Server) serveAuthServerMetadata(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, http.StatusOK, authServerMetadata{
		Issuer:                            s.issuer,
		AuthorizationEndpoint:             s.endpoint("authorize"),
		TokenEndpoint:                     s.endpoint("token"),
		RegistrationEndpoint:              s.endpoint("register"),
		RevocationEndpoint:                s.endpoint("revoke"),
		ScopesSupported:                   allScopes,
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{grantCode, grantRenew},
		TokenEndpointAuthMethodsSupported: authMethods,
		RevocationEndpointAuthMethods:     authMethods,
		CodeChallengeMethodsSupported:     []string{"S256"},
		AuthorizationResponseIssSupported: true,
		// Client ID Metadata Documents are not supported: claude.ai then
		// uses dynamic registration.
		ClientIDMetadataDocumentSupported: false,
		ProtectedResources:                []string{s.resource},
	})
}

// protectedResourceHandler serves RFC 9728 metadata through the go-sdk's
// handler (public, CORS-open, never behind auth).
func (s *Server) protectedResourceHandler() http.Handler {
	return auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               s.resource,
		AuthorizationServers:   []string{s.issuer},
		ScopesSupported:        allScopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "sous",
	})
}

// challenge is the WWW-Authenticate value of every 401: the
// path-inserted metadata pointer and both scopes, so clients ask for both
// and the owner narrows on the consent page.
func (s *Server) challenge(errCode string) string {
	v := fmt.Sprintf(`Bearer resource_metadata=%q, scope=%q`, s.ResourceMetadataURL(), strings.Join(allScopes, " "))
	if errCode != "" {
		v += fmt.Sprintf(`, error=%q`, errCode)
	}
	return v
}

type verifiedKey struct{}

// Protect requires a live access token issued by this server for this
// resource. Without one it answers 401 with the metadata pointer, for every
// method (GET and DELETE included). With one, the request proceeds with the
// token's [auth.TokenInfo] in its context, where the go-sdk hands it to
// tool handlers and middleware as RequestExtra.TokenInfo, and where
// [ScopesFrom] reads it.
func (s *Server) Protect(next http.Handler) http.Handler {
	// The go-sdk middleware puts TokenInfo where the SDK reads it; its own
	// verifier only picks up what the check below already verified.
	inner := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if ti, ok := ctx.Value(verifiedKey{}).(*auth.TokenInfo); ok {
			return ti, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{ResourceMetadataURL: s.ResourceMetadataURL()})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", s.challenge(""))
			http.Error(w, "a bearer token is required", http.StatusUnauthorized)
			return
		}
		ti, err := s.verify(r.Context(), raw)
		if err != nil {
			w.Header().Set("WWW-Authenticate", s.challenge("invalid_token"))
			http.Error(w, "the bearer token is not valid here: "+err.Error(), http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verifiedKey{}, ti)))
	})
}

// VerifyToken checks an access token as Protect does and returns its
// TokenInfo, or an error wrapping auth.ErrInvalidToken.
func (s *Server) VerifyToken(ctx context.Context, raw string) (*auth.TokenInfo, error) {
	return s.verify(ctx, raw)
}

func (s *Server) verify(ctx context.Context, raw string) (*auth.TokenInfo, error) {
	c, err := s.parseAccess(raw)
	if err != nil {
		if errors.Is(err, errForeignAudience) {
			return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
		}
		return nil, fmt.Errorf("%w: expired, malformed or not signed by this server", auth.ErrInvalidToken)
	}
	if !s.familyLive(ctx, c.Family) {
		return nil, fmt.Errorf("%w: the grant was revoked", auth.ErrInvalidToken)
	}
	scopes, _ := scopeList(c.Scope)
	return &auth.TokenInfo{
		Scopes:     scopes,
		Expiration: c.ExpiresAt.Time,
		UserID:     c.Subject,
		Extra:      map[string]any{"client_id": c.ClientID},
	}, nil
}

// bearer extracts the token of an "Authorization: Bearer …" header.
func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// ScopesFrom returns the scopes granted to the request's access token, or
// nil when the request did not pass through [Server.Protect] (the
// path-secret and static-bearer modes, which grant everything the server's
// mode allows).
func ScopesFrom(ctx context.Context) []string {
	if ti := auth.TokenInfoFromContext(ctx); ti != nil {
		return ti.Scopes
	}
	return nil
}

// CanWrite reports whether an OAuth token carrying ti may use write tools.
// A nil ti (no OAuth on this request) imposes no restriction.
func CanWrite(ti *auth.TokenInfo) bool {
	return ti == nil || slices.Contains(ti.Scopes, ScopeWrite)
}

// ScopeFilter returns MCP server middleware that confines an mcp:read token
// to read tools: tools/list drops every tool whose annotations do not say
// ReadOnlyHint, and tools/call of a tool for which readOnly(name) is false
// is answered with a tool error instead of running. Requests without OAuth
// token info pass untouched. readOnly must agree with the tools'
// annotations (mcpfront derives both from its catalog).
func ScopeFilter(readOnly func(tool string) bool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			var ti *auth.TokenInfo
			if ex := req.GetExtra(); ex != nil {
				ti = ex.TokenInfo
			}
			if CanWrite(ti) {
				return next(ctx, method, req)
			}
			switch method {
			case "tools/call":
				if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && !readOnly(p.Name) {
					res := &mcp.CallToolResult{IsError: true}
					res.Content = []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
						"%s changes data, and this connection was granted read access only (scope %s). Reconnect and approve %s to allow it.",
						p.Name, ScopeRead, ScopeWrite)}}
					return res, nil
				}
			case "tools/list":
				res, err := next(ctx, method, req)
				if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					kept := lr.Tools[:0:0]
					for _, t := range lr.Tools {
						if t.Annotations != nil && t.Annotations.ReadOnlyHint {
							kept = append(kept, t)
						}
					}
					lr.Tools = kept
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	}
}

// isLoopback reports whether host (no port) names the loopback interface.
func isLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

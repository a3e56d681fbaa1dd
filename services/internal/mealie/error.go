package mealie

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"

	"connectrpc.com/connect"
)

// Kind classifies a failed Mealie call.
type Kind int

// The kinds of failure, each with its Connect code (see Code).
const (
	// KindUnreachable is a transport error or timeout: Unavailable.
	KindUnreachable Kind = iota
	// KindAuth is a 401 or 403: Unauthenticated.
	KindAuth
	// KindNotFound is a 404: NotFound.
	KindNotFound
	// KindInvalid is a 400 or 422: InvalidArgument.
	KindInvalid
	// KindServer is a 5xx: Unavailable when Mealie gives no detail, else
	// Internal.
	KindServer
	// KindProtocol is an answer sous cannot read: Internal.
	KindProtocol
	// KindConflict is a 409: FailedPrecondition.
	KindConflict
	// KindPermission is a 403 for a permission the token's user lacks
	// (see refine): PermissionDenied.
	KindPermission
)

// Error is a failed Mealie call. Status is the HTTP status (0 when none came
// back); Message is one plain sentence a model can be shown as it is
// (docs/security.md, "Faults in the backends").
type Error struct {
	Kind    Kind
	Status  int
	Message string
	// Detail is FastAPI's `detail` when the body had one.
	Detail string
}

// Error returns Message.
func (e *Error) Error() string { return e.Message }

// Code maps the failure to a Connect code.
func (e *Error) Code() connect.Code {
	switch e.Kind {
	case KindAuth:
		return connect.CodeUnauthenticated
	case KindNotFound:
		return connect.CodeNotFound
	case KindInvalid:
		return connect.CodeInvalidArgument
	case KindConflict:
		return connect.CodeFailedPrecondition
	case KindPermission:
		return connect.CodePermissionDenied
	case KindServer:
		if e.Detail == "" {
			return connect.CodeUnavailable
		}
		return connect.CodeInternal
	case KindProtocol:
		return connect.CodeInternal
	default:
		return connect.CodeUnavailable
	}
}

func (e *Error) retryable() bool { return e.Kind == KindUnreachable || e.Kind == KindServer }

// StatusOf returns the HTTP status of a Mealie failure, or 0.
func StatusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// ConnectError converts any error from this package to a *connect.Error with
// the right code and the plain message; other errors become Internal.
func ConnectError(err error) error {
	if err == nil {
		return nil
	}
	var ce *connect.Error
	if errors.As(err, &ce) {
		return err
	}
	var e *Error
	if errors.As(err, &e) {
		return connect.NewError(e.Code(), errors.New(e.Message))
	}
	return connect.NewError(connect.CodeInternal, err)
}

func unreachable(base string, err error) *Error {
	// url.Error repeats the method and URL; keep its cause whole (cutting
	// at a colon mangles TLS errors, whose text has colons of its own).
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	var unknownCA x509.UnknownAuthorityError
	var verify *tls.CertificateVerificationError
	if errors.As(err, &unknownCA) || errors.As(err, &verify) {
		msg += " — for a self-signed certificate set MEALIE_VERIFY_SSL=false"
	}
	return &Error{Kind: KindUnreachable, Message: fmt.Sprintf("Mealie unreachable at %s: %s", base, msg)}
}

// lostAnswer is the error of a write that reached Mealie but whose answer
// never came (the connection dropped, or the 15 s timeout passed): Mealie
// may have committed it, and since it has no idempotency key a blind retry
// can create the recipe twice. The message says so and asks for a check
// first. It stays KindUnreachable (Unavailable); the client never retries
// writes itself.
func lostAnswer(base string, req Request, err error) *Error {
	what := req.Subject
	if what == "" {
		what = req.Resource
	}
	if what == "" || strings.HasSuffix(what, " list") {
		what = "the change"
	}
	return &Error{Kind: KindUnreachable, Message: fmt.Sprintf(
		"Mealie may have saved %s: it got the request but its answer was lost (%s); check that it is there before trying again, or it may be made twice",
		what, lostCause(err))}
}

// lostCause says in a few words why an answer was lost, without the socket
// addresses a transport error carries.
func lostCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err):
		return fmt.Sprintf("no answer within %s", Timeout)
	case errors.Is(err, context.Canceled):
		return "the call was cancelled"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return clip(err.Error())
}

// statusError builds the one-sentence message for a non-2xx answer.
func statusError(status int, body []byte, resource string) *Error {
	detail := fastAPIDetail(body)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return &Error{Kind: KindAuth, Status: status, Detail: detail, Message: "authentication failed — check MEALIE_API_TOKEN"}
	case status == http.StatusNotFound:
		what := resource
		if what == "" {
			what = "resource"
		}
		return &Error{Kind: KindNotFound, Status: status, Detail: detail, Message: what + " not found"}
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		if detail == "" {
			detail = "the request was refused"
		}
		return &Error{Kind: KindInvalid, Status: status, Detail: detail, Message: "Mealie rejected the request: " + detail}
	case status == http.StatusConflict:
		if detail == "" {
			detail = "conflict"
		}
		return &Error{Kind: KindConflict, Status: status, Detail: detail, Message: "Mealie refused the change: " + detail}
	case status >= 500:
		if detail == "" {
			return &Error{Kind: KindServer, Status: status, Message: fmt.Sprintf("Mealie returned %d — the server is unhealthy", status)}
		}
		return &Error{Kind: KindServer, Status: status, Detail: detail, Message: fmt.Sprintf("Mealie returned %d: %s", status, detail)}
	default:
		return &Error{Kind: KindProtocol, Status: status, Detail: detail, Message: fmt.Sprintf("Mealie returned an unexpected %d", status)}
	}
}

// Caps on how much of a FastAPI detail reaches a message: enough to name the
// failing fields, never a whole body.
const (
	maxDetailItems = 5
	maxDetailChars = 300
)

// fastAPIDetail extracts FastAPI's `detail`, which is a string, an object
// with a message (Mealie's own errors, e.g. {"message": "..."}), or a list of
// {loc, msg, type} validation errors. Lists are trimmed to the failing
// fields: "name: Field required; tags.0.slug: Field required".
func fastAPIDetail(body []byte) string {
	var env struct {
		Detail json.RawMessage `json:"detail"`
	}
	if len(body) == 0 || json.Unmarshal(body, &env) != nil || len(env.Detail) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(env.Detail, &s) == nil {
		return clip(s)
	}
	// Mealie's ErrorResponse {"message","error":true,"exception"}; the
	// exception text is left out because it can hold raw SQL
	// (testdata/foods__create_same_name.json). The scraper's {"details":
	// "BAD_RECIPE_DATA"} (testdata/recipes_create_url__not_a_url.json) too.
	var obj struct {
		Message string `json:"message"`
		Details string `json:"details"`
	}
	if json.Unmarshal(env.Detail, &obj) == nil && (obj.Message != "" || obj.Details != "") {
		if obj.Message != "" {
			return clip(obj.Message)
		}
		return clip(obj.Details)
	}
	var items []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	if json.Unmarshal(env.Detail, &items) != nil {
		return ""
	}
	parts := make([]string, 0, len(items))
	for i, it := range items {
		if i == maxDetailItems {
			parts = append(parts, fmt.Sprintf("and %d more", len(items)-i))
			break
		}
		loc := make([]string, 0, len(it.Loc))
		for j, l := range it.Loc {
			if j == 0 && (l == "body" || l == "query" || l == "path") && len(it.Loc) > 1 {
				continue // FastAPI's location prefix says nothing to a user
			}
			loc = append(loc, fmt.Sprint(l))
		}
		if len(loc) == 0 {
			parts = append(parts, it.Msg)
			continue
		}
		parts = append(parts, strings.Join(loc, ".")+": "+it.Msg)
	}
	return clip(strings.Join(parts, "; "))
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxDetailChars {
		return string(r[:maxDetailChars]) + "…"
	}
	return s
}

// ServerFailed reports a 5xx from Mealie.
func ServerFailed(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindServer
}

// explain5xx rewords a bare 5xx (no detail: Mealie's plain "Internal Server
// Error") with what the caller knows the failure means. Mealie answers a
// bare 500 for faults as different as a missing parser model, a disabled
// OpenAI integration and a page it could not fetch; "the server is
// unhealthy" would send a model to retry what can never work.
func explain5xx(err error, msg string) error {
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindServer || e.Detail != "" {
		return err
	}
	out := *e
	out.Message = fmt.Sprintf("%s (Mealie answered %d)", msg, e.Status)
	return &out
}

// ConnectCode returns the Connect code ConnectError would give err.
func ConnectCode(err error) connect.Code {
	return connect.CodeOf(ConnectError(err))
}

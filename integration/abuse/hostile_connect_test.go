package abuse_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/grpchealth"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/souskitchen/sous/internal/svcauth"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// serviceFiles are the proto files whose every RPC is checked.
var serviceFiles = []protoreflect.FileDescriptor{
	recipesv1.File_sous_recipes_v1_recipes_proto,
	mealplanv1.File_sous_mealplan_v1_mealplan_proto,
	libraryv1.File_sous_library_v1_library_proto,
	pantryv1.File_sous_pantry_v1_pantry_proto,
}

// rpc is one method of one service.
type rpc struct {
	path      string
	streaming bool
	readOnly  bool // idempotency_level = NO_SIDE_EFFECTS
}

func allRPCs(t *testing.T) []rpc {
	t.Helper()
	var out []rpc
	for _, f := range serviceFiles {
		for i := 0; i < f.Services().Len(); i++ {
			svc := f.Services().Get(i)
			for j := 0; j < svc.Methods().Len(); j++ {
				m := svc.Methods().Get(j)
				opts, _ := m.Options().(*descriptorpb.MethodOptions)
				out = append(out, rpc{
					path:      "/" + string(svc.FullName()) + "/" + string(m.Name()),
					streaming: m.IsStreamingServer() || m.IsStreamingClient(),
					readOnly:  opts.GetIdempotencyLevel() == descriptorpb.MethodOptions_NO_SIDE_EFFECTS,
				})
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d RPCs found in the service descriptors", len(out))
	}
	return out
}

// callRaw sends an empty request message to an RPC over the Connect
// protocol (JSON), as any direct client can, and returns the HTTP status
// and the body.
func callRaw(t *testing.T, base string, r rpc, authorization string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	var body []byte
	ct := "application/json"
	if r.streaming {
		// Connect streaming: a 5-byte envelope (flags, length) per message.
		ct = "application/connect+json"
		body = make([]byte, 5, 7)
		binary.BigEndian.PutUint32(body[1:], 2)
		body = append(body, "{}"...)
	} else {
		body = []byte("{}")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+r.path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Connect-Protocol-Version", "1")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestEveryRPCNeedsTheServiceToken: without the token, with a wrong one or
// with another scheme, every RPC of every service (reflection included) is
// Unauthenticated and reaches no backend; health answers without it.
func TestEveryRPCNeedsTheServiceToken(t *testing.T) {
	s := serveAll(t, false)
	s.mealie.ResetRequests()
	rpcs := append(allRPCs(t),
		rpc{path: "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", streaming: true},
		rpc{path: "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", streaming: true})
	for _, r := range rpcs {
		for name, authz := range map[string]string{
			"none": "", "wrong": "Bearer " + strings.Repeat("x", len(serviceToken)),
			"basic": "Basic " + serviceToken, "bare": serviceToken, "prefix": "Bearer " + serviceToken[:5],
		} {
			status, body := callRaw(t, s.url, r, authz)
			if !strings.Contains(body, "unauthenticated") {
				t.Errorf("%s with %s token: %d %.200s", r.path, name, status, body)
			}
			if !r.streaming && status != http.StatusUnauthorized {
				t.Errorf("%s with %s token: HTTP %d, want 401", r.path, name, status)
			}
		}
	}
	if n := len(s.mealie.Requests()); n != 0 {
		t.Errorf("refused calls reached Mealie %d times", n)
	}
	if w := s.food.writes(); len(w) != 0 {
		t.Errorf("refused calls wrote to the food API: %v", w)
	}

	// Health needs no token, and answers for each service.
	hc := grpchealth.NewClient(http.DefaultClient, s.url)
	for _, name := range []string{"", recipesv1connect.RecipesServiceName, pantryv1connect.PantryServiceName} {
		res, err := hc.Check(context.Background(), &grpchealth.CheckRequest{Service: name})
		if err != nil || res.Status != grpchealth.StatusServing {
			t.Errorf("health %q without a token: %v %v", name, res, err)
		}
	}
	// The right token gets through (the refusals above are about the token,
	// not a broken route).
	status, body := callRaw(t, s.url, rpc{path: "/" + recipesv1connect.RecipesServiceName + "/GetStatus"}, "Bearer "+serviceToken)
	if status != http.StatusOK {
		t.Errorf("GetStatus with the token: %d %s", status, body)
	}
}

// TestDNSRebindingIsRefused: with no service token (the documented
// default on loopback), a browser page that rebinds its own name to
// 127.0.0.1 sends that name as Host, and a cross-site POST carries its
// Origin; both are refused before any service runs, so DeleteRecipe never
// reaches Mealie. The same call with a loopback Host gets through.
func TestDNSRebindingIsRefused(t *testing.T) {
	s := serveWithToken(t, false, "")
	s.mealie.ResetRequests()
	deleteRecipe := "/" + recipesv1connect.RecipesServiceName + "/DeleteRecipe"
	call := func(host, origin string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+deleteRecipe,
			strings.NewReader(`{"slug":"tomato-soup","confirm_slug":"tomato-soup"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	port := s.url[strings.LastIndex(s.url, ":")+1:]
	for _, tc := range []struct{ name, host, origin string }{
		{"rebinding Host", "rebind.attacker.example", ""},
		{"rebinding Host with the port", "rebind.attacker.example:" + port, ""},
		{"foreign Origin", "", "https://attacker.example"},
		{"null Origin", "localhost:" + port, "null"},
	} {
		if status, body := call(tc.host, tc.origin); status != http.StatusForbidden {
			t.Errorf("%s: HTTP %d %.200s, want 403", tc.name, status, body)
		}
	}
	if n := len(s.mealie.Requests()); n != 0 {
		t.Errorf("refused calls reached Mealie %d times", n)
	}
	if status, body := call("localhost:"+port, "http://localhost:3000"); status == http.StatusForbidden {
		t.Errorf("a loopback Host and Origin were refused: %d %.200s", status, body)
	}
	if len(s.mealie.Requests()) == 0 {
		t.Error("the loopback call did not reach Mealie: the refusals above prove nothing")
	}
}

// TestReadOnlyRefusesDirectWrites: in read-only mode every RPC with side
// effects is PermissionDenied for a direct Connect client holding the
// token, before any write reaches Mealie or the food API.
func TestReadOnlyRefusesDirectWrites(t *testing.T) {
	s := serveAll(t, true)
	s.mealie.ResetRequests()
	writes := 0
	for _, r := range allRPCs(t) {
		if r.readOnly {
			continue
		}
		writes++
		status, body := callRaw(t, s.url, r, "Bearer "+serviceToken)
		if !strings.Contains(body, "permission_denied") || !strings.Contains(body, svcauth.ErrReadOnly.Error()) {
			t.Errorf("%s in read-only mode: %d %.200s", r.path, status, body)
		}
	}
	if writes < 10 {
		t.Fatalf("only %d write RPCs found", writes)
	}
	for _, req := range s.mealie.Requests() {
		if req.Method != http.MethodGet {
			t.Errorf("read-only mode let %s %s reach Mealie", req.Method, req.Path)
		}
	}
	if w := s.food.writes(); len(w) != 0 {
		t.Errorf("read-only mode let writes reach the food API: %v", w)
	}
	// Reads still work.
	status, body := callRaw(t, s.url, rpc{path: "/" + recipesv1connect.RecipesServiceName + "/SearchRecipes"}, "Bearer "+serviceToken)
	if status != http.StatusOK {
		t.Errorf("SearchRecipes in read-only mode: %d %.200s", status, body)
	}
}

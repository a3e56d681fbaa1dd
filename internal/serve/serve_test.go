package serve_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/souskitchen/sous/internal/memnet"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// statusService answers GetStatus and refuses the rest.
type statusService struct {
	recipesv1connect.UnimplementedRecipesServiceHandler
}

func (statusService) GetStatus(context.Context, *connect.Request[recipesv1.GetStatusRequest]) (*connect.Response[recipesv1.GetStatusResponse], error) {
	return connect.NewResponse(&recipesv1.GetStatusResponse{MealieVersion: "v2.8.0"}), nil
}

func newHandler(token string, opts ...connect.HandlerOption) http.Handler {
	path, h := recipesv1connect.NewRecipesServiceHandler(statusService{}, opts...)
	return serve.Handler(token, serve.Service{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h})
}

func TestHandlerAuthAndHealth(t *testing.T) {
	srv := httptest.NewUnstartedServer(newHandler("tok"))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ctx := context.Background()

	anon := recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL, connect.WithGRPC())
	_, err := anon.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
	if connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("GetStatus without a token: %v, want Unauthenticated", err)
	}
	authed := recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL,
		connect.WithGRPC(), connect.WithInterceptors(svcauth.ClientInterceptor("tok")))
	res, err := authed.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
	if err != nil || res.Msg.GetMealieVersion() != "v2.8.0" {
		t.Fatalf("GetStatus with the token: %v %v", res, err)
	}

	// Health is exempt from the token.
	health := grpchealth.NewClient(srv.Client(), srv.URL, connect.WithGRPC())
	hres, err := health.Check(ctx, &grpchealth.CheckRequest{Service: recipesv1connect.RecipesServiceName})
	if err != nil || hres.Status != grpchealth.StatusServing {
		t.Fatalf("health check: %+v %v", hres, err)
	}

	// Reflection is not.
	stream := grpcreflect.NewClient(srv.Client(), srv.URL).NewStream(ctx)
	_, err = stream.ListServices()
	if connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Errorf("reflection without a token: %v, want Unauthenticated", err)
	}
	_, _ = stream.Close()
	stream = grpcreflect.NewClient(srv.Client(), srv.URL, connect.WithInterceptors(svcauth.ClientInterceptor("tok"))).NewStream(ctx)
	names, err := stream.ListServices()
	if err != nil || len(names) == 0 {
		t.Errorf("reflection with the token: %v %v", names, err)
	}
	_, _ = stream.Close()
}

func TestReadOnlyInterceptor(t *testing.T) {
	srv := httptest.NewServer(newHandler("", connect.WithInterceptors(svcauth.ReadOnlyInterceptor())))
	t.Cleanup(srv.Close)
	client := recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL)
	ctx := context.Background()
	if _, err := client.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{})); err != nil {
		t.Fatalf("a read was refused: %v", err)
	}
	_, err := client.DeleteRecipe(ctx, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: "x", ConfirmSlug: "x"}))
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != connect.CodePermissionDenied || ce.Message() != svcauth.ErrReadOnly.Error() {
		t.Fatalf("a write in read-only mode: %v, want PermissionDenied %q", err, svcauth.ErrReadOnly)
	}
	// A streaming read passes the interceptor (and reaches the handler).
	stream, err := client.SweepRecipes(ctx, connect.NewRequest(&recipesv1.SweepRecipesRequest{}))
	if err == nil {
		for stream.Receive() {
		}
		err = stream.Err()
	}
	if connect.CodeOf(err) != connect.CodeUnimplemented {
		t.Errorf("a streaming read in read-only mode: %v, want it to reach the handler (Unimplemented here)", err)
	}
}

func TestInProcess(t *testing.T) {
	ln := memnet.New()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, serve.NewServer(newHandler(""), slog.New(slog.DiscardHandler)), ln) }()
	client := recipesv1connect.NewRecipesServiceClient(serve.InProcessClient(ln.DialContext), "http://in-process", connect.WithGRPC())
	res, err := client.GetStatus(context.Background(), connect.NewRequest(&recipesv1.GetStatusRequest{}))
	if err != nil || res.Msg.GetMealieVersion() != "v2.8.0" {
		t.Fatalf("in-process gRPC call: %v %v", res, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	if _, err := ln.DialContext(context.Background(), "", ""); err == nil {
		t.Error("dial after close succeeded")
	}
}

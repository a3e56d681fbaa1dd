package foodapidocker

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/souskitchen/sous/internal/foodapiproc"
)

func TestIsLoopback(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"127.0.0.1", true},
		{"::1", true},
		{"172.17.0.1", false},
		{"docker.example", false},
		{"", false},
	} {
		if got := isLoopback(tc.host); got != tc.want {
			t.Errorf("isLoopback(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

func TestWriterLoggerEndsEachLine(t *testing.T) {
	var b bytes.Buffer
	l := writerLogger{&b}
	l.Printf("building %s", "image")
	l.Printf("done\n")
	if got, want := b.String(), "building image\ndone\n"; got != want {
		t.Errorf("logged %q, want %q", got, want)
	}
}

// The backend follows the engine: the container when one answers, else the
// local process, and the reason line names the choice.
func TestChooseBackendFollowsDocker(t *testing.T) {
	b, reason := ChooseBackend(t.Context())
	err := DockerAvailable(t.Context())
	want := foodapiproc.BackendContainer
	if err != nil {
		want = foodapiproc.BackendProcess
	}
	if b != want {
		t.Fatalf("ChooseBackend = %q with DockerAvailable = %v, want %q", b, err, want)
	}
	if !strings.Contains(reason, string(b)) || strings.Contains(reason, "\n") {
		t.Errorf("reason %q: want one line naming %q", reason, b)
	}
	if again, _ := ChooseBackend(t.Context()); again != b {
		t.Errorf("second ChooseBackend = %q, want the first choice %q", again, b)
	}
}

// Without an engine StartContainer fails fast with ErrNoDocker, which
// callers turn into a skip or a fallback.
func TestStartContainerWithoutDocker(t *testing.T) {
	if DockerAvailable(t.Context()) == nil {
		t.Skip("a Docker engine answered; TestStartContainer covers it")
	}
	_, err := StartContainer(t.Context(), foodapiproc.Options{})
	if !errors.Is(err, ErrNoDocker) {
		t.Fatalf("StartContainer without Docker = %v, want ErrNoDocker", err)
	}
}

// TestStartContainer builds foodapi/Dockerfile, starts it and
// checks what tests rely on: health, the minted token, the demo kitchen,
// Shell inside the container, and Stop making the API unreachable.
func TestStartContainer(t *testing.T) {
	if err := DockerAvailable(t.Context()); err != nil {
		t.Skipf("food API container: %v: start a Docker engine (dockerd, as root) or point DOCKER_HOST at one", err)
	}
	opts := foodapiproc.Options{}
	if testing.Verbose() {
		var logs bytes.Buffer
		opts.Log = &logs
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("container output:\n%s", logs.String())
			}
		})
	}
	fa, err := StartContainer(t.Context(), opts)
	if err != nil {
		t.Fatalf("StartContainer: %v", err)
	}
	t.Cleanup(fa.Close)
	if fa.Backend != foodapiproc.BackendContainer || fa.DBPath != containerDB || len(fa.Token) != 2*tokenBytes {
		t.Errorf("FoodAPI = backend %q, db %q, token of %d characters", fa.Backend, fa.DBPath, len(fa.Token))
	}

	get := func(token string) (int, error) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, fa.BaseURL+"/pantry/", nil)
		if err != nil {
			return 0, err
		}
		if token != "" {
			req.Header.Set("Authorization", "Token "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := get(fa.Token); err != nil || code != http.StatusOK {
		t.Fatalf("GET /pantry/ with the minted token = %d, %v; want 200", code, err)
	}
	if code, err := get("not-the-token-at-all-0000"); err != nil || code != http.StatusUnauthorized {
		t.Errorf("GET /pantry/ with a wrong token = %d, %v; want 401", code, err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), foodapiproc.StartTimeout)
	defer cancel()
	out, err := fa.Shell(ctx, "from kitchen.models import PantryItem; print(PantryItem.objects.count())")
	if err != nil {
		t.Fatalf("Shell in the container: %v", err)
	}
	if out == "" || out == "0" {
		t.Errorf("demo kitchen has %q pantry items, want some", out)
	}
	if _, err := fa.Manage(ctx, "no_such_command"); err == nil {
		t.Error("an unknown management command succeeded in the container")
	}

	fa.Stop()
	if _, err := get(fa.Token); err == nil {
		t.Error("the API still answers after Stop")
	}
}

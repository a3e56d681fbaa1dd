// Package foodapiproc runs the Django food API (the top-level foodapi
// folder) as a local process, for `sous demo` and for tests:
//
//   - Start: a fresh SQLite file in a temporary directory, migrations, a
//     service user with a token minted by the sous_bootstrap management
//     command, the demo kitchen, and Django's runserver on a free loopback
//     port. It needs the virtualenv that `make -C foodapi venv` builds;
//     without it Start returns an error wrapping ErrNoVirtualenv, which
//     the demo reports and tests turn into a skip.
//   - Attach wraps a food API started some other way, such as the
//     container integration/harness/foodapidocker runs through testcontainers.
//     That package lives in integration/ so that the sous binary, whose
//     demo uses Start, links no test machinery.
package foodapiproc

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Timeouts of the process's life.
const (
	// StartTimeout bounds migrations plus the first health answer: a cold
	// Django with DRF migrates a fresh SQLite file in a few seconds.
	StartTimeout = 90 * time.Second
	// healthPoll is the pause between health probes while starting.
	healthPoll = 100 * time.Millisecond
	// stopGrace is how long runserver gets to exit after an interrupt
	// before it is killed.
	stopGrace = 5 * time.Second
	// portAttempts is how often Start retries when another process takes
	// the free port between choosing it and runserver binding it.
	portAttempts = 3
)

// ErrNoVirtualenv is wrapped by Start's error when foodapi/.venv
// is missing.
var ErrNoVirtualenv = errors.New("the food API virtualenv is missing: run `make -C foodapi venv`")

// Options configures Start. The zero value is ready to use.
type Options struct {
	// Root is the repository root (the directory holding go.work); empty
	// finds it by walking up from the working directory.
	Root string
	// Username is the API user the token belongs to; empty means "sous".
	Username string
	// Empty skips the demo kitchen: the API starts with no data.
	Empty bool
	// Log receives the Django process's output; nil discards it.
	Log io.Writer
}

// FoodAPI is a running food API.
type FoodAPI struct {
	// Backend says whether this is a local process or a container.
	Backend Backend
	// BaseURL is the API root, such as "http://127.0.0.1:41234/api" (the
	// value FOOD_API_BASE takes).
	BaseURL string
	// Token is the service user's DRF token (FOOD_API_TOKEN).
	Token string
	// DBPath is the SQLite file (for a container, the path inside it).
	DBPath string

	dir, python, appDir string
	env                 []string
	cmd                 *exec.Cmd
	exited              chan struct{}
	closeOnce           sync.Once
	// ctl runs an API started elsewhere (Attach), nil for a local process.
	ctl Controller
}

// Backend says how a FoodAPI runs.
type Backend string

// The two ways to run the food API.
const (
	// BackendProcess is Django's runserver from foodapi/.venv
	// (Start).
	BackendProcess Backend = "local process"
	// BackendContainer is the image foodapi/Dockerfile builds
	// (gunicorn), started by the foodapidocker package.
	BackendContainer Backend = "container"
)

// Controller drives a food API that something other than Start runs, such
// as a container: management commands and the server's life.
type Controller interface {
	// Manage runs `python manage.py args...` where the API runs and
	// returns its stdout; a failure carries the command's stderr.
	Manage(ctx context.Context, args ...string) (string, error)
	// Stop ends the server but keeps its database.
	Stop()
	// Close stops the server and removes everything it left behind.
	Close()
}

// Attach wraps a running food API that ctl controls, at baseURL (the /api
// root) with the service token; dbPath is where its SQLite file lives, as
// the backend sees it.
func Attach(backend Backend, baseURL, token, dbPath string, ctl Controller) *FoodAPI {
	return &FoodAPI{Backend: backend, BaseURL: baseURL, Token: token, DBPath: dbPath, ctl: ctl}
}

// FindRoot walks up from dir to the directory that holds go.work.
func FindRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.work above %s: not inside the sous repository", dir)
		}
		d = parent
	}
}

// Start migrates a fresh database, mints the token, seeds the demo kitchen
// (unless opts.Empty) and serves the API on 127.0.0.1. ctx bounds the start
// only; Close stops the process and removes the temporary directory.
func Start(ctx context.Context, opts Options) (*FoodAPI, error) {
	root := opts.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if root, err = FindRoot(wd); err != nil {
			return nil, err
		}
	}
	appDir := filepath.Join(root, "foodapi")
	python := filepath.Join(appDir, ".venv", "bin", "python")
	if _, err := os.Stat(python); err != nil {
		return nil, fmt.Errorf("%w (no %s)", ErrNoVirtualenv, filepath.Join("foodapi", ".venv", "bin", "python"))
	}
	dir, err := os.MkdirTemp("", "sous-foodapi-")
	if err != nil {
		return nil, err
	}
	secret, err := randomKey()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	f := &FoodAPI{Backend: BackendProcess, DBPath: filepath.Join(dir, "db.sqlite3"), dir: dir, python: python, appDir: appDir}
	f.env = environ(
		"FOOD_API_SECRET_KEY="+secret,
		"FOOD_API_DB="+f.DBPath,
		"FOOD_API_DEBUG=false",
		"PYTHONDONTWRITEBYTECODE=1",
		"PYTHONUNBUFFERED=1",
	)
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	if err := f.start(ctx, opts); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (f *FoodAPI) start(ctx context.Context, opts Options) error {
	if _, err := f.Manage(ctx, "migrate", "--noinput"); err != nil {
		return err
	}
	user := opts.Username
	if user == "" {
		user = "sous"
	}
	args := []string{"sous_bootstrap", "--username", user}
	if !opts.Empty {
		args = append(args, "--seed-demo")
	}
	out, err := f.Manage(ctx, args...)
	if err != nil {
		return err
	}
	if f.Token = strings.TrimSpace(out); f.Token == "" {
		return errors.New("sous_bootstrap printed no token")
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	var last error
	for range portAttempts {
		if last = f.serve(ctx, logw); last == nil {
			return nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return last
}

// serve starts runserver on a free port and waits for /api/health/.
func (f *FoodAPI) serve(ctx context.Context, logw io.Writer) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(f.python, "manage.py", "runserver", addr, "--noreload")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = f.appDir, f.env, logw, logw
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the food API: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	f.cmd, f.exited = cmd, exited
	f.BaseURL = "http://" + addr + "/api"

	client := &http.Client{Timeout: 2 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.BaseURL+"/health/", nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			f.cmd = nil
			return fmt.Errorf("the food API exited before answering on %s", addr)
		case <-ctx.Done():
			f.stop()
			return fmt.Errorf("the food API did not answer %s/health/ within %s", f.BaseURL, StartTimeout)
		case <-time.After(healthPoll):
		}
	}
}

// Manage runs `python manage.py args...` against this API's database and
// returns its stdout; a failure carries the command's stderr. For an
// attached API its Controller runs it (inside the container).
func (f *FoodAPI) Manage(ctx context.Context, args ...string) (string, error) {
	if f.ctl != nil {
		return f.ctl.Manage(ctx, args...)
	}
	cmd := exec.CommandContext(ctx, f.python, append([]string{"manage.py"}, args...)...)
	cmd.Dir, cmd.Env = f.appDir, f.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("manage.py %s: %v\n%s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Shell runs Python code with Django set up (`manage.py shell -c`) and
// returns what it prints, for tests that check rows no endpoint shows.
func (f *FoodAPI) Shell(ctx context.Context, code string) (string, error) {
	// Verbosity 0 keeps Django 5.2's "N objects imported" banner out of
	// the output.
	out, err := f.Manage(ctx, "shell", "--verbosity", "0", "-c", code)
	return strings.TrimSpace(out), err
}

// Stop ends the server process but keeps the database, so a test can see
// how clients fare when the API is down. Close still cleans up.
func (f *FoodAPI) Stop() { f.stop() }

func (f *FoodAPI) stop() {
	if f.ctl != nil {
		f.ctl.Stop()
		return
	}
	if f.cmd == nil {
		return
	}
	_ = f.cmd.Process.Signal(os.Interrupt)
	select {
	case <-f.exited:
	case <-time.After(stopGrace):
		_ = f.cmd.Process.Kill()
		<-f.exited
	}
	f.cmd = nil
}

// Close stops the server and removes the temporary directory, or the
// container with its volume.
func (f *FoodAPI) Close() {
	f.closeOnce.Do(func() {
		if f.ctl != nil {
			f.ctl.Close()
			return
		}
		f.stop()
		os.RemoveAll(f.dir)
	})
}

// environ is the parent environment without the food API's own variables
// (a developer's settings must not leak into a test) plus extra.
func environ(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "FOOD_API_") || strings.HasPrefix(kv, "DJANGO_SETTINGS_MODULE=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// randomKey is a throwaway Django SECRET_KEY for one run.
func randomKey() (string, error) {
	b := make([]byte, 48)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

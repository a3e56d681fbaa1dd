// Package foodapidocker runs the Django food API from the image
// foodapi/Dockerfile builds, through testcontainers, and picks
// between that and foodapiproc's local process: Launch uses the container
// when a Docker engine answers within DockerPingTimeout, else
// foodapiproc.Start, so the same tests run either way. Without an engine
// the container path fails fast with ErrNoDocker.
//
// It is a package of its own so that what imports foodapiproc alone (the
// sous demo) does not link testcontainers.
package foodapidocker

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	tcexec "github.com/testcontainers/testcontainers-go/exec"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/souskitchen/sous/internal/foodapiproc"
)

// Limits of the container path.
const (
	// DockerPingTimeout bounds the check for a Docker engine: a local
	// engine answers /_ping in milliseconds, and a machine without one must
	// not stall every test run.
	DockerPingTimeout = 2 * time.Second
	// stopGrace is how long gunicorn gets to exit on SIGTERM before the
	// engine kills it.
	stopGrace = 5 * time.Second
	// BuildTimeout bounds the one image build per test process: a cold
	// build pulls python:3.11-slim and pip-installs the pins, about a
	// minute on a CI runner; later builds hit Docker's layer cache.
	BuildTimeout = 10 * time.Minute
	// containerPort is the port the image's gunicorn binds (Dockerfile
	// EXPOSE, FOOD_API_PORT's default).
	containerPort = "8042/tcp"
	// containerAppDir is the image's WORKDIR, where manage.py lives.
	containerAppDir = "/app"
	// containerDB is the SQLite file inside the container (the Dockerfile's
	// FOOD_API_DB); the /data volume goes with the container.
	containerDB = "/data/db.sqlite3"
	// imageRepo and imageTag name the test image: one fixed name, rebuilt
	// by each test process, so runs replace it instead of piling up images;
	// it is kept between runs for Docker's layer cache (`docker image rm
	// sous-foodapi-test:latest` removes it).
	imageRepo = "sous-foodapi-test"
	imageTag  = "latest"
	// tokenBytes is the size of the random service token; hex-encoded it
	// is 40 characters, DRF's Token.key length.
	tokenBytes = 20
	// secretBytes is the size of the throwaway Django SECRET_KEY.
	secretBytes = 48
)

// ErrNoDocker is wrapped by StartContainer's error when no Docker engine
// answers within DockerPingTimeout.
var ErrNoDocker = errors.New("no Docker engine answered")

// DockerAvailable reports whether a Docker engine (found the way
// testcontainers finds one: DOCKER_HOST, its properties file, the usual
// sockets) answers a ping within DockerPingTimeout. The error says what is
// missing.
func DockerAvailable(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, DockerPingTimeout)
	defer cancel()
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	defer cli.Close()
	if _, err := cli.Ping(ctx, client.PingOptions{}); err != nil {
		return fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	return nil
}

var chosen struct {
	once    sync.Once
	backend foodapiproc.Backend
	reason  string
}

// ChooseBackend picks the container when a Docker engine answers, else the
// local process, once per test process (the ping is not repeated). reason
// is one line saying why, for the test log.
func ChooseBackend(ctx context.Context) (b foodapiproc.Backend, reason string) {
	chosen.once.Do(func() {
		if err := DockerAvailable(ctx); err != nil {
			chosen.backend = foodapiproc.BackendProcess
			chosen.reason = fmt.Sprintf("food API: %s from foodapi/.venv (%v)", foodapiproc.BackendProcess, err)
			return
		}
		chosen.backend = foodapiproc.BackendContainer
		chosen.reason = fmt.Sprintf("food API: %s built from foodapi/Dockerfile (a Docker engine answered)", foodapiproc.BackendContainer)
	})
	return chosen.backend, chosen.reason
}

// Launch starts the food API with the backend ChooseBackend picks: the
// same tests run against the image when Docker is there and against the
// virtualenv otherwise. Errors are those of StartContainer or
// foodapiproc.Start (ErrNoDocker, foodapiproc.ErrNoVirtualenv).
func Launch(ctx context.Context, opts foodapiproc.Options) (*foodapiproc.FoodAPI, error) {
	if b, _ := ChooseBackend(ctx); b == foodapiproc.BackendContainer {
		return StartContainer(ctx, opts)
	}
	return foodapiproc.Start(ctx, opts)
}

var built struct {
	mu  sync.Mutex
	ref string
	err error
	ok  bool
}

// buildImage builds foodapi/Dockerfile once per test process;
// parallel tests wait for the first build, and a failed build is not
// retried by every test.
func buildImage(ctx context.Context, appDir string, logger tclog.Logger, logw io.Writer) (string, error) {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.ok {
		return built.ref, built.err
	}
	ctx, cancel := context.WithTimeout(ctx, BuildTimeout)
	defer cancel()
	p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(logger))
	if err != nil {
		// Not cached: the engine may come back for the next test.
		return "", fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	defer p.Close()
	req := testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context:        appDir,
		Dockerfile:     "Dockerfile",
		Repo:           imageRepo,
		Tag:            imageTag,
		BuildLogWriter: logw,
	}}
	ref, err := p.BuildImage(ctx, &req)
	if ctx.Err() != nil && err != nil {
		// A cancelled caller says nothing about the Dockerfile; let the
		// next test try again.
		return "", fmt.Errorf("building the food API image: %w", err)
	}
	built.ref, built.ok = ref, true
	if err != nil {
		built.err = fmt.Errorf("building the food API image from %s: %w", filepath.Join("foodapi", "Dockerfile"), err)
	}
	return built.ref, built.err
}

// StartContainer builds the image from foodapi/Dockerfile (once
// per process) and runs it: the entrypoint migrates a fresh database on the
// container's /data volume and, because FOOD_API_TOKEN is set, creates the
// service user with that token (a random one minted here) and, unless
// opts.Empty, the demo kitchen (FOOD_API_SEED_DEMO). The port is published
// on 127.0.0.1 when the engine is local. Manage and Shell run inside the
// container; DBPath is the file inside it; Close removes the container and
// its volume. Errors wrap ErrNoDocker when no engine answers. ctx bounds
// the build (BuildTimeout) and the start (foodapiproc.StartTimeout).
func StartContainer(ctx context.Context, opts foodapiproc.Options) (*foodapiproc.FoodAPI, error) {
	if err := DockerAvailable(ctx); err != nil {
		return nil, err
	}
	root := opts.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if root, err = foodapiproc.FindRoot(wd); err != nil {
			return nil, err
		}
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	logger := tclog.NewNoopLogger()
	if opts.Log != nil {
		logger = writerLogger{opts.Log}
	}
	ref, err := buildImage(ctx, filepath.Join(root, "foodapi"), logger, logw)
	if err != nil {
		return nil, err
	}

	host, err := daemonHost(ctx, logger)
	if err != nil {
		return nil, err
	}
	secret, err := randomHex(secretBytes)
	if err != nil {
		return nil, err
	}
	token, err := randomHex(tokenBytes)
	if err != nil {
		return nil, err
	}
	user := opts.Username
	if user == "" {
		user = "sous"
	}
	seed := "true"
	if opts.Empty {
		seed = "false"
	}
	env := map[string]string{
		"FOOD_API_SECRET_KEY": secret,
		"FOOD_API_TOKEN":      token,
		"FOOD_API_USERNAME":   user,
		"FOOD_API_SEED_DEMO":  seed,
		// Django checks the Host header: the published address is reached
		// by the engine's host name (localhost, or a remote engine's).
		"FOOD_API_ALLOWED_HOSTS": strings.Join([]string{host, "localhost", "127.0.0.1"}, ","),
		"FOOD_API_DEBUG":         "false",
	}

	ctx, cancel := context.WithTimeout(ctx, foodapiproc.StartTimeout)
	defer cancel()
	req := testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        ref,
			Env:          env,
			ExposedPorts: []string{containerPort},
			HostConfigModifier: func(hc *container.HostConfig) {
				if !isLoopback(host) {
					return
				}
				// Tests bind loopback only; a remote engine must publish
				// on its own interfaces or the test could not reach it.
				hc.PortBindings = network.PortMap{
					network.MustParsePort(containerPort): {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: "0"}},
				}
			},
			WaitingFor: wait.ForHTTP("/api/health/").WithPort(containerPort).WithStartupTimeout(foodapiproc.StartTimeout),
		},
		Started: true,
		Logger:  logger,
	}
	if opts.Log != nil {
		req.LogConsumerCfg = &testcontainers.LogConsumerConfig{Consumers: []testcontainers.LogConsumer{logConsumer{opts.Log}}}
	}
	ctr, err := testcontainers.GenericContainer(ctx, req)
	if err != nil {
		// GenericContainer hands back the container it created even when
		// starting or waiting failed; it must not outlive the error.
		if ctr != nil {
			tctx, tcancel := context.WithTimeout(context.Background(), 2*stopGrace)
			_ = ctr.Terminate(tctx, testcontainers.StopTimeout(stopGrace))
			tcancel()
		}
		return nil, fmt.Errorf("starting the food API container: %w", err)
	}
	ctl := &controller{ctr: ctr}
	addr, err := ctr.PortEndpoint(ctx, containerPort, "http")
	if err != nil {
		ctl.Close()
		return nil, fmt.Errorf("reading the food API container's port: %w", err)
	}
	return foodapiproc.Attach(foodapiproc.BackendContainer, addr+"/api", token, containerDB, ctl), nil
}

// randomHex is n random bytes, hex-encoded.
func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// controller is the foodapiproc.Controller of one container.
type controller struct {
	ctr testcontainers.Container
}

// Stop stops the container, keeping it (and its database) for Close.
func (c *controller) Stop() {
	grace := stopGrace
	ctx, cancel := context.WithTimeout(context.Background(), 2*stopGrace)
	defer cancel()
	_ = c.ctr.Stop(ctx, &grace)
}

// Close removes the container with its /data volume.
func (c *controller) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*stopGrace)
	defer cancel()
	_ = c.ctr.Terminate(ctx, testcontainers.StopTimeout(stopGrace))
}

// daemonHost is the host name the engine publishes ports on.
func daemonHost(ctx context.Context, logger tclog.Logger) (string, error) {
	p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(logger))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	defer p.Close()
	return p.DaemonHost(ctx)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Manage runs `python manage.py args...` in the container's app directory,
// with the container's environment; stdout is returned and a failure
// carries stderr, as foodapiproc does for the local process.
func (c *controller) Manage(ctx context.Context, args ...string) (string, error) {
	cmd := append([]string{"python", "manage.py"}, args...)
	code, r, err := c.ctr.Exec(ctx, cmd, tcexec.WithWorkingDir(containerAppDir))
	if err != nil {
		return "", fmt.Errorf("manage.py %s in the container: %w", args[0], err)
	}
	var stdout, stderr bytes.Buffer
	// Without a TTY the engine multiplexes both streams into one; split
	// them so stdout carries only what the command printed.
	if _, err := stdcopy.StdCopy(&stdout, &stderr, r); err != nil {
		return "", fmt.Errorf("manage.py %s in the container: reading its output: %w", args[0], err)
	}
	if code != 0 {
		return "", fmt.Errorf("manage.py %s in the container: exit status %d\n%s", args[0], code, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// writerLogger sends testcontainers' progress lines to Options.Log.
type writerLogger struct{ w io.Writer }

// Printf writes one line.
func (l writerLogger) Printf(format string, v ...any) {
	s := fmt.Sprintf(format, v...)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	_, _ = io.WriteString(l.w, s)
}

// logConsumer copies the container's output (gunicorn and the entrypoint)
// to Options.Log.
type logConsumer struct{ w io.Writer }

// Accept writes one log entry.
func (c logConsumer) Accept(l testcontainers.Log) { _, _ = c.w.Write(l.Content) }

package contract

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// mealieImage is the release sous supports; the container target runs it.
const mealieImage = "ghcr.io/mealie-recipes/mealie:v2.8.0"

// dockerPingTimeout bounds the check for a Docker engine, so a machine
// without one skips at once instead of hanging.
const dockerPingTimeout = 2 * time.Second

// containerStartTimeout bounds the Mealie container's start: the image
// migrates an empty database before it answers.
const containerStartTimeout = 4 * time.Minute

// target is a Mealie to run the suite against.
type target struct {
	name  string
	url   string
	token string
	// profile is the emulator profile whose behaviour the target shows:
	// "2.0", "2.8", "3.11" or "3.20", with "-pg" for Mealie on PostgreSQL
	// (see profileFor for a real Mealie).
	profile string
	// emulator is the server behind an emulator target, nil otherwise.
	emulator *mealieemu.Server
	// tape records a live target's exchanges or checks an emulator
	// target's against the recording (tape_test.go).
	tape *tape
}

// profiles are the emulator's version profiles; the suite runs on each.
// "2.8-pg" and "3.20-pg" are 2.8.0 and 3.20.1 on PostgreSQL, recorded into
// folders of their own.
var profiles = []string{"2.0", "2.8", "3.11", "3.20", "2.8-pg", "3.20-pg"}

// profileEnv names the profile a live Mealie is taken for, overriding what
// its version and engine say (profileFor): a build from a source tree
// reports "develop", which profileFor takes for the newest, so recording
// 2.0 built from its source takes MEALIE_PROFILE=2.0.
const profileEnv = "MEALIE_PROFILE"

// mealie is the target's Mealie version profile without its engine:
// "3.20" for "3.20-pg".
func (tg target) mealie() string { return strings.TrimSuffix(tg.profile, "-pg") }

// forEachTarget runs fn once per available target, as subtests: the emulator
// under every version profile, then a live Mealie and the v2.8.0 container
// when they are available.
func forEachTarget(t *testing.T, fn func(t *testing.T, tg target)) {
	t.Helper()
	forEachTargetWith(t, nil, fn)
}

// forEachTargetWith is forEachTarget with extra emulator options, such as the
// web pages a URL import reads.
func forEachTargetWith(t *testing.T, opts []mealieemu.Option, fn func(t *testing.T, tg target)) {
	t.Helper()
	for _, p := range profiles {
		t.Run("emulator-"+p, func(t *testing.T) {
			// The recorded 2.0 runs without the CRF++ model its nlp parser
			// needs (testdata/recordings/2.0/TestParserShapes.json).
			o := append([]mealieemu.Option{mealieemu.WithSeed("empty"), mealieemu.WithVersion(p), mealieemu.WithoutNLPModel()}, opts...)
			srv := mealietest.NewServer(t, o...)
			fn(t, target{name: "emulator", url: srv.URL, token: srv.Token, profile: p, emulator: srv, tape: replayTape(t, p)})
		})
	}
	t.Run("live", func(t *testing.T) {
		tg, why := liveTarget()
		if why != "" {
			t.Skip(why)
		}
		v := tg.version(t)
		tg.profile = profileFor(v) + tg.engineSuffix(t)
		if p := os.Getenv(profileEnv); p != "" {
			tg.profile = p
		}
		tg.tape = recordTape(t, tg.profile, v)
		fn(t, tg)
	})
	t.Run("container", func(t *testing.T) {
		tg := containerTarget(t)
		tg.profile = profileFor(tg.version(t)) + tg.engineSuffix(t)
		fn(t, tg)
	})
}

// profileFor maps the version a real Mealie reports to the emulator profile
// whose behaviour it should show: 2.0.x to "2.0", later 2.x releases to
// "2.8", 3.0 to 3.19 to "3.11", and 3.20 and anything newer to "3.20", the
// newest version recorded. Unnumbered builds ("develop") count as newest.
func profileFor(version string) string {
	v := strings.TrimPrefix(version, "v")
	major, rest, _ := strings.Cut(v, ".")
	minorText, _, _ := strings.Cut(rest, ".")
	minor, _ := strconv.Atoi(minorText)
	switch {
	case strings.HasPrefix(v, "2.0."):
		return "2.0"
	case major == "2" || major == "1":
		return "2.8"
	case major == "3" && minor < 20:
		return "3.11"
	}
	return "3.20"
}

// engineSuffix is "-pg" for a Mealie on PostgreSQL, as its admin about
// says (dbType "postgres"), and "" otherwise. Only an admin's token reads
// it (the default admin's, which recordings are made with, does); with
// another the target is taken for SQLite, and the log says so. Recordings of
// a Mealie on PostgreSQL go to a folder of their own (profileFor's
// "<version>-pg"), replayed by the emulator's PostgreSQL profile.
func (tg target) engineSuffix(t *testing.T) string {
	t.Helper()
	code, about := tg.call(t, http.MethodGet, "/api/admin/about", nil)
	if code != http.StatusOK {
		t.Logf("GET /api/admin/about: %d: not an admin's token, so the database engine is taken for SQLite; on PostgreSQL use an admin's token", code)
		return ""
	}
	if e, _ := asObj(t, about)["dbType"].(string); e == "postgres" {
		return "-pg"
	}
	return ""
}

// version returns what GET /api/app/about reports.
func (tg target) version(t *testing.T) string {
	t.Helper()
	_, about := tg.callAs(t, "", http.MethodGet, "/api/app/about", nil)
	v, _ := asObj(t, about)["version"].(string)
	return v
}

// liveTarget reads MEALIE_INTEGRATION, MEALIE_URL and MEALIE_API_TOKEN.
func liveTarget() (target, string) {
	if os.Getenv("MEALIE_INTEGRATION") != "1" {
		return target{}, "live Mealie: MEALIE_INTEGRATION is not 1: run MEALIE_INTEGRATION=1 MEALIE_URL=<url> MEALIE_API_TOKEN=<token> go test -run /live ./integration/contract (docs/mealie-versions.md)"
	}
	u, tok := strings.TrimRight(os.Getenv("MEALIE_URL"), "/"), os.Getenv("MEALIE_API_TOKEN")
	if u == "" || tok == "" {
		return target{}, "live Mealie: MEALIE_URL and MEALIE_API_TOKEN must both be set"
	}
	return target{name: "live", url: u, token: tok}, ""
}

// dockerEndpoint returns the engine address from DOCKER_HOST or the default
// socket, and whether it answered /_ping within dockerPingTimeout.
func dockerEndpoint() (string, bool) {
	host := os.Getenv("DOCKER_HOST")
	if host == "" {
		host = "unix:///var/run/docker.sock"
	}
	u, err := url.Parse(host)
	if err != nil {
		return host, false
	}
	tr := &http.Transport{}
	base := ""
	switch u.Scheme {
	case "unix":
		if _, err := os.Stat(u.Path); err != nil {
			return host, false
		}
		tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", u.Path)
		}
		base = "http://docker"
	case "tcp", "http":
		base = "http://" + u.Host
	default:
		return host, false
	}
	client := &http.Client{Transport: tr, Timeout: dockerPingTimeout}
	resp, err := client.Get(base + "/_ping")
	if err != nil {
		return host, false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return host, resp.StatusCode == http.StatusOK
}

// containerTarget starts Mealie v2.8.0, logs in as the default admin and
// mints an API token. It skips when no Docker engine answers.
func containerTarget(t *testing.T) target {
	t.Helper()
	host, ok := dockerEndpoint()
	if !ok {
		t.Skipf("container Mealie: no Docker engine answered at %s: start one (dockerd, as root) or point DOCKER_HOST at one", host)
	}
	ctx, cancel := context.WithTimeout(context.Background(), containerStartTimeout)
	defer cancel()
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        mealieImage,
			ExposedPorts: []string{"9000/tcp"},
			Env:          map[string]string{"ALLOW_SIGNUP": "false", "TZ": "UTC"},
			WaitingFor:   wait.ForHTTP("/api/app/about").WithPort("9000/tcp").WithStartupTimeout(containerStartTimeout),
		},
		Started: true,
	})
	if err != nil {
		t.Fatalf("starting %s: %v", mealieImage, err)
	}
	t.Cleanup(func() { _ = c.Terminate(context.Background()) })
	h, err := c.Host(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.MappedPort(ctx, "9000/tcp")
	if err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://%s:%s", h, p.Port())
	return target{name: "container", url: base, token: mintToken(t, base)}
}

// mintToken logs in with the default admin (form fields only: Mealie leaves
// the fields of a JSON body empty and fails it like a wrong password) and
// creates an API token.
func mintToken(t *testing.T, base string) string {
	t.Helper()
	form := url.Values{"username": {"changeme@example.com"}, "password": {"MyPassword"}}
	resp, err := http.PostForm(base+"/api/auth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var login map[string]any
	decode(t, resp, &login)
	jwt, _ := login["access_token"].(string)
	if jwt == "" {
		t.Fatalf("login: %v", login)
	}
	tg := target{url: base, token: jwt}
	code, body := tg.call(t, http.MethodPost, "/api/users/api-tokens", map[string]any{"name": "sous-contract"})
	if code != http.StatusCreated {
		t.Fatalf("minting a token: %d %v", code, body)
	}
	return body.(map[string]any)["token"].(string)
}

package foodapiproc

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// fakeController records what a FoodAPI asks of it.
type fakeController struct{ calls []string }

func (c *fakeController) Manage(_ context.Context, args ...string) (string, error) {
	c.calls = append(c.calls, "manage "+strings.Join(args, " "))
	return "  42\n", nil
}
func (c *fakeController) Stop()  { c.calls = append(c.calls, "stop") }
func (c *fakeController) Close() { c.calls = append(c.calls, "close") }

// An attached API sends management commands and its life to the
// controller, and closes it once.
func TestAttachUsesTheController(t *testing.T) {
	ctl := &fakeController{}
	fa := Attach(BackendContainer, "http://127.0.0.1:1/api", "tok", "/data/db.sqlite3", ctl)
	if fa.Backend != BackendContainer || fa.BaseURL != "http://127.0.0.1:1/api" || fa.Token != "tok" || fa.DBPath != "/data/db.sqlite3" {
		t.Fatalf("Attach = %+v", fa)
	}
	out, err := fa.Shell(t.Context(), "print(42)")
	if err != nil || out != "42" {
		t.Errorf("Shell = %q, %v; want the trimmed output 42", out, err)
	}
	fa.Stop()
	fa.Close()
	fa.Close()
	want := []string{"manage shell --verbosity 0 -c print(42)", "stop", "close"}
	if !slices.Equal(ctl.calls, want) {
		t.Errorf("controller calls = %q, want %q", ctl.calls, want)
	}
}

func TestFindRootOutsideTheRepository(t *testing.T) {
	if _, err := FindRoot(t.TempDir()); err == nil {
		t.Error("FindRoot found a go.work above a temporary directory")
	}
}

//go:build unix

package mcpfront

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifoBound only keeps a regression from hanging the run: readImage on a
// FIFO must return at once, not after any time.
const fifoBound = 20 * time.Second

// TestReadImageRefusesAFIFO: a FIFO in the image directory, named directly
// or through a symlink, is refused as not a regular file instead of
// blocking the call until some writer opens it.
func TestReadImageRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("skipping: mkfifo is not available here: %v", err)
	}
	if err := os.Symlink("pipe.png", filepath.Join(dir, "link.png")); err != nil {
		t.Fatal(err)
	}
	// Unblock a readImage that opened the FIFO, so a failing run ends.
	t.Cleanup(func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	for _, name := range []string{"pipe.png", fifo, "link.png"} {
		done := make(chan error, 1)
		go func() {
			_, _, err := readImage(dir, name)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("readImage(%s) = %v, want not a regular file", name, err)
			}
		case <-time.After(fifoBound):
			t.Fatalf("readImage(%s) is blocked opening a FIFO", name)
		}
	}
}

// TestReadImageStillReadsAFile: the checks before opening leave a real
// image readable, and a missing one named as missing.
func TestReadImageStillReadsAFile(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	if err := os.WriteFile(filepath.Join(dir, "soup.png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
	data, ext, err := readImage(dir, "soup.png")
	if err != nil || ext != "png" || string(data) != string(png) {
		t.Fatalf("readImage(soup.png) = %d bytes, %q, %v", len(data), ext, err)
	}
	if _, _, err := readImage(dir, "missing.png"); err == nil || !strings.Contains(err.Error(), "no file missing.png") {
		t.Errorf("readImage(missing.png) = %v, want no file", err)
	}
}

package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process lifetimes.
const (
	// readyTimeout bounds how long a sous process may take to listen: its
	// startup probes Mealie once, which answers within milliseconds here.
	readyTimeout = 20 * time.Second
	// stopGrace is how long a process gets to exit after SIGTERM before it
	// is killed; sous's graceful shutdown needs well under a second.
	stopGrace = 5 * time.Second
	// readyPoll is the pause between connection attempts while waiting.
	readyPoll = 10 * time.Millisecond
)

// Proc is a sous process started by the harness. Its stderr is kept for
// error messages.
type Proc struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	done   chan struct{}
	err    error
}

// lockedBuffer is a bytes.Buffer safe for the process's writer goroutine and
// the harness reading it at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// sousEnv is the environment of a sous child: the harness's own without any
// variable sous reads (MEALIE_*, FOOD_*, SOUS_*), plus extra. A developer's
// shell or .env must not leak into a figure.
func sousEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MEALIE_") || strings.HasPrefix(k, "FOOD_") || strings.HasPrefix(k, "SOUS_") {
			continue
		}
		env = append(env, kv)
	}
	// Warnings only: the figures must not pay for debug logging.
	env = append(env, "MEALIE_LOG_LEVEL=warning")
	return append(env, extra...)
}

// command prepares bin with args in an empty working directory (sous reads
// a .env found upward from its working directory, and none may apply).
func command(bin, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd
}

// startProc starts cmd and watches it exit.
func startProc(cmd *exec.Cmd) (*Proc, error) {
	p := &Proc{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
	if cmd.Stderr == nil {
		cmd.Stderr = p.stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// StartListening starts bin with args and waits until addr accepts
// connections, or the process exits, or readyTimeout passes.
func StartListening(bin, dir string, env []string, addr string, args ...string) (*Proc, error) {
	p, err := startProc(command(bin, dir, env, args...))
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(readyTimeout)
	for {
		c, err := net.DialTimeout("tcp", addr, readyPoll*10)
		if err == nil {
			c.Close()
			return p, nil
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("%s exited before listening on %s: %v: %s", strings.Join(args, " "), addr, p.err, lastLine(p.stderr.String()))
		case <-time.After(readyPoll):
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("%s did not listen on %s within %s: %s", strings.Join(args, " "), addr, readyTimeout, lastLine(p.stderr.String()))
		}
	}
}

// lastLine is the last non-empty line of a log, for one-line errors.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Pid is the process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Stop sends SIGTERM, waits up to stopGrace, then kills.
func (p *Proc) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopGrace):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// MemStat is a process's resident memory from /proc/<pid>/status, in bytes:
// RSS now (VmRSS) and the peak since start (VmHWM).
type MemStat struct {
	RSS, Peak int64
}

// ReadMemory reads /proc/<pid>/status.
func ReadMemory(pid int) (MemStat, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return MemStat{}, err
	}
	defer f.Close()
	return parseStatus(bufio.NewScanner(f))
}

// parseStatus reads VmRSS and VmHWM ("VmRSS:	   12345 kB") from a status
// file; both must be present.
func parseStatus(sc *bufio.Scanner) (MemStat, error) {
	var m MemStat
	var seen int
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) != 2 || fields[1] != "kB" {
			return m, fmt.Errorf("/proc status: unexpected %s line %q", k, sc.Text())
		}
		n, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return m, fmt.Errorf("/proc status: %s: %w", k, err)
		}
		if k == "VmRSS" {
			m.RSS = n * 1024
		} else {
			m.Peak = n * 1024
		}
		seen++
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if seen != 2 {
		return m, errors.New("/proc status: VmRSS or VmHWM missing")
	}
	return m, nil
}

// FreeAddr returns a loopback address with a port free a moment ago.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// sleepCtx pauses for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// userHZ is the unit of /proc/<pid>/stat's CPU times: USER_HZ, 100 on every
// Linux architecture sous builds for.
const userHZ = 100

// ReadCPU returns the CPU time (user plus system) a process has used, from
// /proc/<pid>/stat.
func ReadCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime, fields 14 and 15 of a stat line. The
// command name (field 2) is in parentheses and may hold spaces, so fields
// are counted from the last ')'.
func parseStat(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, errors.New("/proc stat: no command name")
	}
	f := strings.Fields(line[i+1:])
	// f[0] is field 3 (state), so utime (14) is f[11] and stime (15) f[12].
	if len(f) < 13 {
		return 0, errors.New("/proc stat: too few fields")
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// quickstartMark is the comment before the README's distributed quick
// start: the block this test runs literally.
const quickstartMark = "<!-- quickstart: e2e/quickstart_test.go runs this block literally -->"

// quickstartScript returns the shell commands of the README's quick start.
func quickstartScript(t *testing.T, readme string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, quickstartMark)
	if !ok {
		t.Fatalf("README.md has no %q", quickstartMark)
	}
	after = strings.TrimLeft(after, "\n")
	body, ok := strings.CutPrefix(after, "```sh\n")
	if !ok {
		t.Fatal("the quick-start mark is not followed by a ```sh block")
	}
	body, _, ok = strings.Cut(body, "```")
	if !ok {
		t.Fatal("the quick-start block does not end")
	}
	return body
}

// copyTree copies the repository's files (tracked and untracked, not
// ignored) into a fresh directory, as a fresh clone would have them.
func copyTree(t *testing.T, root, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// runQuickstart runs script with bash -e in a fresh copy of the
// repository, in a process group of its own that is stopped at the end
// (the services and the broker it started in the background with it). It
// returns the script's exit code and its output.
func runQuickstart(t *testing.T, script string) (int, string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The README names fixed ports; something else on them would answer
	// in the services' place.
	for _, addr := range []string{"127.0.0.1:9090", "127.0.0.1:9092"} {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Fatalf("%s is taken: the README's quick start needs it free", addr)
		}
	}
	// A fresh copy, at the same path for every quick start of this
	// process: the go command keys a package's compilation by its
	// directory, so the next quick start's `go build` only links (the
	// fixed ports already keep two from running at once).
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("sealgate-quickstart-%d", os.Getpid()))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	copyTree(t, root, dir)
	logPath := filepath.Join(t.TempDir(), "quickstart.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	// The script's bound ends before the test binary's own timeout, so
	// that its process group is always stopped here: a test binary that
	// panics on its timeout runs no cleanup, and the group would outlive it.
	end := time.Now().Add(15 * time.Minute)
	if d, ok := t.Deadline(); ok && d.Add(-time.Minute).Before(end) {
		end = d.Add(-time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group, and killed with the test binary.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// The script's environment, minus what would point it elsewhere.
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "SEALGATE_STATE" && k != "XDG_STATE_HOME" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "QUICKSTART_LOG="+logPath)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	err = cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("quick start: %v", err)
	}
	// What the script printed up to its end: the services stopped below
	// log their shutdown to the same file, and would crowd the script's
	// own last lines out of a failure's tail.
	b, _ := os.ReadFile(logPath)
	// Stop what the script left in the background: SIGTERM, then wait for
	// the group to be gone (SIGKILL if the context ends first).
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	for syscall.Kill(-pgid, 0) == nil {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return code, string(b)
}

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantVerified checks the quick start ended in a verified remote verdict:
// every command succeeded (bash -e), verify --remote printed MERGE, and
// attest verify checked the bundle.
func wantVerified(t *testing.T, code int, out string) {
	t.Helper()
	if code != 0 || !strings.Contains(out, `"decision":"MERGE"`) && !strings.Contains(out, `"decision": "MERGE"`) || !strings.Contains(out, "checkpoint") {
		t.Fatalf("quick start exited %d:\n%s", code, tail(out, 120))
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Issue #18: the README's distributed quick start, run literally from a
// fresh copy of the repository, ends in a verified remote verdict.
func TestQuickstartAsWritten(t *testing.T) {
	needBinary(t)
	code, out := runQuickstart(t, quickstartScript(t, readme(t)))
	wantVerified(t, code, out)
	t.Logf("quick start as written:\n%s", tail(out, 20))
}

// The same, with every service started before the broker: they wait for
// it (logged), and the quick start ends the same.
func TestQuickstartServicesBeforeBroker(t *testing.T) {
	needBinary(t)
	var broker string
	var rest []string
	lastServe := -1
	for _, line := range strings.Split(quickstartScript(t, readme(t)), "\n") {
		if strings.HasPrefix(line, "bin/devbroker ") {
			broker = line
			continue
		}
		rest = append(rest, line)
		if strings.HasPrefix(line, "bin/sealgate serve ") {
			lastServe = len(rest) - 1
		}
	}
	if broker == "" || lastServe < 0 {
		t.Fatal("the quick start has no devbroker line or no serve line")
	}
	// The broker starts only once a service said it waits for it.
	// Bounded: services that exit instead of waiting never say it.
	wait := `timeout 120 sh -c 'until grep -q "waiting for the Kafka brokers at 127.0.0.1:9092" "$QUICKSTART_LOG"; do sleep 0.2; done'`
	script := strings.Join(append(append(append([]string{}, rest[:lastServe+1]...), wait, broker), rest[lastServe+1:]...), "\n")
	code, out := runQuickstart(t, script)
	wantVerified(t, code, out)
	if !strings.Contains(out, "the Kafka brokers at 127.0.0.1:9092 answer") {
		t.Fatalf("no service says the broker answered after its wait:\n%s", tail(out, 80))
	}
}

//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sysPath is the PATH the tests give commands.
const sysPath = "/usr/bin:/bin"

// noneRunner returns a Runner in mode None.
func noneRunner(t *testing.T) *Runner {
	t.Helper()
	r, err := New(t.Context(), Config{Mode: None})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// bwrapRunner returns a Runner in mode Require, or skips the test when
// bwrap is not installed.
func bwrapRunner(t *testing.T) *Runner {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skipf("bwrap is not installed (apt-get install bubblewrap): %v", err)
	}
	r, err := New(t.Context(), Config{Mode: Require})
	if err != nil {
		if os.Getenv("TEST_SRCDIR") != "" {
			t.Skipf("bwrap does not work in the Bazel sandbox: %v", err)
		}
		t.Fatal(err)
	}
	if r.Name() != NameBwrap {
		t.Fatalf("Require gave %q", r.Name())
	}
	return r
}

// eachRunner runs f for mode None and, when bwrap is installed, bwrap.
func eachRunner(t *testing.T, f func(t *testing.T, r *Runner)) {
	t.Run(NameNone, func(t *testing.T) { f(t, noneRunner(t)) })
	t.Run(NameBwrap, func(t *testing.T) { f(t, bwrapRunner(t)) })
}

// skipWithoutGo skips tests that need the go command.
func skipWithoutGo(t *testing.T) string {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs the go command, which the Bazel sandbox does not provide")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return goBin
}

// output is what a run wrote.
type output struct {
	stdout, stderr bytes.Buffer
}

// run runs s with r, filling in a temporary Dir, PATH and a timeout when s
// has none, and fails the test on an error.
func run(t *testing.T, r *Runner, s Spec) (Result, *output) {
	t.Helper()
	if s.Dir == "" {
		s.Dir = t.TempDir()
	}
	if s.Env == nil {
		s.Env = []string{"PATH=" + sysPath}
	}
	if s.Limits.Timeout == 0 {
		s.Limits.Timeout = time.Minute
	}
	out := new(output)
	s.Stdout, s.Stderr = &out.stdout, &out.stderr
	res, err := r.Run(t.Context(), s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("%s: %v exit=%d signal=%q reason=%q wall=%v cpu=%v", res.Sandbox.Name, res.Termination, res.ExitCode, res.Signal, res.Reason, res.Wall, res.CPU)
	return res, out
}

func sh(script string, args ...string) []string {
	return append([]string{"sh", "-c", script, "sh"}, args...)
}

func TestTerminationString(t *testing.T) {
	want := map[Termination]string{
		NotStarted: "NOT_STARTED", Exited: "EXITED", Timeout: "TIMEOUT",
		Signaled: "SIGNALED", OOM: "OOM", Rlimit: "RLIMIT", Termination(99): "Termination(99)",
	}
	for term, name := range want {
		if got := term.String(); got != name {
			t.Errorf("%d.String() = %q, want %q", term, got, name)
		}
	}
	var zero Result
	if zero.Termination != NotStarted {
		t.Errorf("zero Result is %v, want NOT_STARTED", zero.Termination)
	}
}

func TestExitCodesAndSignals(t *testing.T) {
	eachRunner(t, func(t *testing.T, r *Runner) {
		for _, tc := range []struct {
			script string
			term   Termination
			code   int
			signal string
		}{
			{"exit 0", Exited, 0, ""},
			{"exit 3", Exited, 3, ""},
			{"echo out; echo err >&2; exit 1", Exited, 1, ""},
			{"kill -TERM $$", Signaled, -1, "SIGTERM"},
		} {
			res, out := run(t, r, Spec{Argv: sh(tc.script)})
			if res.Termination != tc.term || res.ExitCode != tc.code || res.Signal != tc.signal {
				t.Errorf("%q: got %v exit %d signal %q, want %v exit %d signal %q",
					tc.script, res.Termination, res.ExitCode, res.Signal, tc.term, tc.code, tc.signal)
			}
			if strings.HasPrefix(tc.script, "echo") && (out.stdout.String() != "out\n" || out.stderr.String() != "err\n") {
				t.Errorf("stdout %q stderr %q, want \"out\\n\" and \"err\\n\"", out.stdout.String(), out.stderr.String())
			}
			if res.Sandbox.Name != r.Name() {
				t.Errorf("Sandbox.Name = %q, want %q", res.Sandbox.Name, r.Name())
			}
		}
	})
}

// processesWith returns the host pids whose command line contains arg.
func processesWith(t *testing.T, arg string) []string {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if slices.Contains(strings.Split(string(cmdline), "\x00"), arg) {
			pids = append(pids, d.Name())
		}
	}
	return pids
}

func TestTimeoutKillsTree(t *testing.T) {
	eachRunner(t, func(t *testing.T, r *Runner) {
		// A unique sleep argument finds the tree's processes on the host.
		arg := strconv.Itoa(7000000 + os.Getpid()%1000*1000 + int(time.Now().UnixNano()%1000))
		script := `trap '' TERM
sh -c 'trap "" TERM; sleep "$1"' sh "$1" &
setsid sleep "$1" &
sleep "$1"`
		res, _ := run(t, r, Spec{Argv: sh(script, arg), Limits: Limits{Timeout: time.Second}})
		if res.Termination != Timeout {
			t.Fatalf("got %v (%s), want TIMEOUT", res.Termination, res.Reason)
		}
		if res.Wall < time.Second || res.Wall > 30*time.Second {
			t.Errorf("Wall = %v, want about 1s", res.Wall)
		}
		if res.Signal != "SIGKILL" || res.ExitCode != -1 {
			t.Errorf("Signal %q ExitCode %d, want SIGKILL and -1", res.Signal, res.ExitCode)
		}
		// setsid left the process group: mode None cannot reach it.
		want := map[string]int{NameNone: 1, NameBwrap: 0}[r.Name()]
		// The kernel kills a pid namespace's last processes asynchronously.
		var left []string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if left = processesWith(t, arg); len(left) <= want {
				break
			}
		}
		for _, pid := range left {
			if n, err := strconv.Atoi(pid); err == nil {
				_ = syscall.Kill(n, syscall.SIGKILL)
			}
		}
		if len(left) != want {
			t.Errorf("%d processes left behind, want %d", len(left), want)
		}
	})
}

func TestCancel(t *testing.T) {
	eachRunner(t, func(t *testing.T, r *Runner) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(300*time.Millisecond, cancel)
		res, err := r.Run(ctx, Spec{Dir: t.TempDir(), Argv: sh("sleep 100"), Env: []string{"PATH=" + sysPath}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if res.Termination != Signaled || res.Signal != "SIGKILL" {
			t.Errorf("got %v %q, want SIGNALED SIGKILL", res.Termination, res.Signal)
		}
		res, err = r.Run(ctx, Spec{Dir: t.TempDir(), Argv: sh("exit 0"), Env: []string{"PATH=" + sysPath}})
		if err == nil || res.Termination != NotStarted {
			t.Errorf("with a done context: %v, %v; want NOT_STARTED and an error", res.Termination, err)
		}
	})
}

func TestShellLimits(t *testing.T) {
	eachRunner(t, func(t *testing.T, r *Runner) {
		res, _ := run(t, r, Spec{
			Argv:   sh("while :; do :; done"),
			Limits: Limits{CPUSeconds: 1, Timeout: 30 * time.Second},
		})
		if res.Termination != Rlimit || res.Signal != "SIGXCPU" {
			t.Errorf("CPU: got %v %q, want RLIMIT SIGXCPU", res.Termination, res.Signal)
		}
		if res.CPU <= 0 {
			t.Errorf("CPU = %v: the tree's CPU time was not accounted", res.CPU)
		}

		dir := t.TempDir()
		res, _ = run(t, r, Spec{
			Dir:    dir,
			Argv:   sh("exec head -c 2000000 /dev/zero > big"),
			Limits: Limits{MaxFileBytes: 1 << 20},
		})
		if res.Termination != Rlimit || res.Signal != "SIGXFSZ" {
			t.Errorf("file size: got %v %q, want RLIMIT SIGXFSZ", res.Termination, res.Signal)
		}
		if fi, err := os.Stat(filepath.Join(dir, "big")); err != nil || fi.Size() != 1<<20 {
			t.Errorf("big: %v, size %d; want 1 MiB", err, fi.Size())
		}

		res, out := run(t, r, Spec{Argv: sh("ulimit -n; ulimit -c; ulimit -f"), Limits: Limits{MaxOpenFiles: 123, MaxFileBytes: 10 << 20}})
		if want := "123\n0\n20480\n"; out.stdout.String() != want || res.Termination != Exited {
			t.Errorf("ulimit -n -c -f printed %q (%v), want %q", out.stdout.String(), res.Termination, want)
		}
	})
}

// helperSource is a program whose first argument picks a behaviour.
const helperSource = `package main

import (
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	switch os.Args[1] {
	case "mem":
		var keep [][]byte
		for {
			b := make([]byte, 64<<20)
			for i := 0; i < len(b); i += 1 << 20 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	case "cpu":
		for {
		}
	case "fsize":
		f, err := os.Create("big")
		if err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		buf := make([]byte, 1<<20)
		for range 4 {
			if _, err := f.Write(buf); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(4)
			}
		}
	case "dial":
		c, err := net.DialTimeout("tcp", os.Args[2], 5*time.Second)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		c.Close()
		fmt.Println("connected")
	}
}
`

// buildHelper builds helperSource and returns the binary's path.
func buildHelper(t *testing.T) string {
	t.Helper()
	goBin := skipWithoutGo(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(helperSource), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module helper\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "helper")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestGoProgramLimits(t *testing.T) {
	helper := buildHelper(t)
	eachRunner(t, func(t *testing.T, r *Runner) {
		ro := []string{filepath.Dir(helper)}
		t.Run("memory", func(t *testing.T) {
			res, out := run(t, r, Spec{Argv: []string{helper, "mem"}, ReadOnly: ro, Limits: Limits{MemoryBytes: 800 << 20}})
			if res.Termination != OOM {
				t.Errorf("got %v exit %d, want OOM; stderr starts %q", res.Termination, res.ExitCode, firstLine(out.stderr.Bytes()))
			}
			if res.ExitCode != 2 {
				t.Errorf("ExitCode = %d, want the Go runtime's 2", res.ExitCode)
			}
		})
		t.Run("cpu", func(t *testing.T) {
			// Go ignores SIGXCPU: the hard limit's SIGKILL ends it.
			res, _ := run(t, r, Spec{Argv: []string{helper, "cpu"}, ReadOnly: ro, Limits: Limits{CPUSeconds: 1, Timeout: 30 * time.Second}})
			if res.Termination != Rlimit || res.Signal != "SIGKILL" {
				t.Errorf("got %v %q, want RLIMIT SIGKILL", res.Termination, res.Signal)
			}
		})
		t.Run("fsize", func(t *testing.T) {
			// Go ignores SIGXFSZ: the write fails with EFBIG, and the
			// program exits as it chooses. Its words are its own (a test
			// could print them to disguise a failure), so a program that
			// exits by itself has exited.
			res, out := run(t, r, Spec{Argv: []string{helper, "fsize"}, ReadOnly: ro, Limits: Limits{MaxFileBytes: 1 << 20}})
			if res.Termination != Exited || res.ExitCode != 4 || !strings.Contains(out.stderr.String(), "file too large") {
				t.Errorf("got %v exit %d, want EXITED exit 4 after EFBIG; stderr %q", res.Termination, res.ExitCode, out.stderr.String())
			}
		})
	})
}

func TestNetwork(t *testing.T) {
	helper := buildHelper(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	eachRunner(t, func(t *testing.T, r *Runner) {
		res, out := run(t, r, Spec{Argv: []string{helper, "dial", ln.Addr().String()}, ReadOnly: []string{filepath.Dir(helper)}})
		reached := res.Termination == Exited && res.ExitCode == 0
		select {
		case <-accepted:
			reached = true
		case <-time.After(100 * time.Millisecond):
		}
		if want := r.Name() == NameNone; reached != want {
			t.Errorf("reached the host's listener: %v, want %v (%s)", reached, want, strings.TrimSpace(out.stdout.String()))
		}
		if want := map[string]string{NameNone: "host", NameBwrap: "none"}[r.Name()]; res.Sandbox.Limits["network"] != want {
			t.Errorf("Limits[network] = %q, want %q", res.Sandbox.Limits["network"], want)
		}
	})
}

func TestFilesystem(t *testing.T) {
	// probe tries to write each path given and to see each path after
	// "--"; it prints WROTE or SEES for each that works.
	const probe = `seen=
for p in "$@"; do
	if [ "$p" = -- ]; then seen=1; continue; fi
	if [ -n "$seen" ]; then
		if [ -e "$p" ]; then echo "SEES $p"; fi
	elif (echo x > "$p") 2>/dev/null; then
		echo "WROTE $p"
	fi
done
echo inside > inside.txt && cat "$RO/file"`
	base := t.TempDir()
	work, ro, cache := filepath.Join(base, "work"), filepath.Join(base, "ro"), filepath.Join(base, "cache")
	for _, d := range []string{work, ro, cache} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ro, "file"), []byte("read-only content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "secret"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := func(args ...string) Spec {
		return Spec{
			Dir:      work,
			Argv:     sh(probe, args...),
			Env:      []string{"PATH=" + sysPath, "RO=" + ro},
			ReadOnly: []string{ro},
			Writable: []string{cache},
		}
	}
	hostPaths := []string{filepath.Join(base, "x"), filepath.Join(ro, "x"), "--", filepath.Join(base, "secret")}

	t.Run(NameBwrap, func(t *testing.T) {
		r := bwrapRunner(t)
		// The work tree's parent exists inside only as a directory of the
		// private /tmp, holding the mount points.
		// A name of this process's in the sandbox's private /tmp: one the
		// host cannot already have for another reason.
		tmpProbe := fmt.Sprintf("/tmp/sealgate-probe-%d", os.Getpid())
		args := append([]string{"/usr/x", "/etc/x", "/x", tmpProbe, filepath.Join(cache, "x")}, hostPaths...)
		args = append(args, "/root", "/work", "/home", "/var", "/proc/self", "/sys/kernel")
		res, out := run(t, r, spec(args...))
		got := out.stdout.String()
		want := "WROTE " + tmpProbe + "\nWROTE " + filepath.Join(cache, "x") + "\nWROTE " + filepath.Join(base, "x") + "\nread-only content\n"
		if res.Termination != Exited || res.ExitCode != 0 || got != want {
			t.Errorf("got %v exit %d, output\n%s\nwant\n%s(stderr %q)", res.Termination, res.ExitCode, got, want, out.stderr.String())
		}
		for _, p := range []string{filepath.Join(work, "inside.txt"), filepath.Join(cache, "x")} {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("a write to a writable path did not reach the host: %v", err)
			}
		}
		for _, p := range []string{tmpProbe, filepath.Join(base, "x"), filepath.Join(ro, "x")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s reached the host", p)
			}
		}
	})
	t.Run(NameNone, func(t *testing.T) {
		// The same probe, given only the test's own paths, sees the host:
		// it can tell an isolated run from one that is not.
		res, out := run(t, noneRunner(t), spec(hostPaths...))
		want := "WROTE " + filepath.Join(base, "x") + "\nWROTE " + filepath.Join(ro, "x") + "\nSEES " + filepath.Join(base, "secret") + "\nread-only content\n"
		if res.Termination != Exited || out.stdout.String() != want {
			t.Errorf("got %v, output\n%s\nwant\n%s", res.Termination, out.stdout.String(), want)
		}
	})
}

func TestPrivateHomeAndTmp(t *testing.T) {
	const script = `for d in "$HOME" "$TMPDIR"; do
	[ -d "$d" ] || { echo "$d is not a directory"; exit 1; }
	[ -z "$(ls -A "$d")" ] || { echo "$d is not empty"; exit 1; }
	echo x > "$d/mark" || exit 1
done
echo "$HOME $TMPDIR"`
	eachRunner(t, func(t *testing.T, r *Runner) {
		var seen []string
		for range 2 { // the second run must not see the first's files
			res, out := run(t, r, Spec{Argv: sh(script)})
			if res.Termination != Exited || res.ExitCode != 0 {
				t.Fatalf("got %v exit %d: %s", res.Termination, res.ExitCode, out.stdout.String())
			}
			seen = append(seen, strings.Fields(out.stdout.String())...)
		}
		for _, d := range seen {
			if !filepath.IsAbs(d) || d == os.Getenv("HOME") || d == os.TempDir() {
				t.Errorf("HOME or TMPDIR %q is not private", d)
			}
			if _, err := os.Stat(filepath.Join(d, "mark")); err == nil {
				t.Errorf("%s/mark is on the host after the run", d)
			}
		}
	})
}

func TestEnvironment(t *testing.T) {
	t.Setenv("SANDBOX_TEST_SECRET", "secret-value-1")
	t.Setenv("SANDBOX_TEST_PASS", "passed-value-2")
	eachRunner(t, func(t *testing.T, r *Runner) {
		res, out := run(t, r, Spec{
			Argv:    []string{"env"},
			Env:     []string{"PATH=" + sysPath, "FOO=foo-value-3"},
			PassEnv: []string{"SANDBOX_TEST_PASS", "SANDBOX_TEST_UNSET", "PATH"},
		})
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out.stdout.String()), "\n") {
			name, _, _ := strings.Cut(line, "=")
			got = append(got, name)
		}
		slices.Sort(got)
		want := []string{"FOO", "HOME", "PATH", "PWD", "SANDBOX_TEST_PASS", "TMPDIR"}
		if !slices.Equal(got, want) || !slices.Equal(res.Sandbox.EnvNames, want) {
			t.Errorf("child got %v, EnvNames %v, want %v", got, res.Sandbox.EnvNames, want)
		}
		if strings.Contains(out.stdout.String(), "secret-value-1") {
			t.Errorf("the host's secret reached the child")
		}
		if !strings.Contains(out.stdout.String(), "SANDBOX_TEST_PASS=passed-value-2") || !strings.Contains(out.stdout.String(), "PATH="+sysPath+"\n") {
			t.Errorf("passed or set values missing:\n%s", out.stdout.String())
		}
		if s := fmt.Sprintf("%#v", res); strings.Contains(s, "value-") {
			t.Errorf("Result records a value: %s", s)
		}
	})
}

func TestProcAndDescriptors(t *testing.T) {
	r := bwrapRunner(t)
	res, out := run(t, r, Spec{Argv: sh(`ls /proc 2>/dev/null | head -1; [ -e /proc/1 ] && echo PROC; exit 0`)})
	if res.Termination != Exited || out.stdout.String() != "" || res.Sandbox.Limits["proc"] != "none" {
		t.Errorf("default: %v, output %q, Limits[proc] %q; want no /proc", res.Termination, out.stdout.String(), res.Sandbox.Limits["proc"])
	}
	// With /proc, the command has only 0, 1 and 2 open (3 is ls's own):
	// neither the seccomp pipe nor anything of the host leaks in.
	res, out = run(t, r, Spec{Argv: []string{"ls", "/proc/self/fd"}, MountProc: true})
	if got := strings.Fields(out.stdout.String()); res.Termination != Exited || !slices.Equal(got, []string{"0", "1", "2", "3"}) {
		t.Errorf("MountProc: %v, descriptors %v, want [0 1 2 3]", res.Termination, got)
	}
	if res.Sandbox.Limits["proc"] != "sandbox" {
		t.Errorf("Limits[proc] = %q, want sandbox", res.Sandbox.Limits["proc"])
	}
}

// escapeTest tries to reach cmd/go's standard output from a test and, when
// it can, writes a pass event for a test that does not exist.
const escapeTest = `package m

import (
	"os"
	"strconv"
	"syscall"
	"testing"
)

const forged = "{\"Action\":\"pass\",\"Package\":\"example.com/m\",\"Test\":\"TestForged\"}\n"

func TestEscape(t *testing.T) {
	ppid := os.Getppid()
	if f, err := os.OpenFile("/proc/"+strconv.Itoa(ppid)+"/fd/1", os.O_WRONLY, 0); err == nil {
		f.WriteString(forged)
		f.Close()
		t.Error("wrote to cmd/go's stdout through /proc")
	} else {
		t.Logf("proc: %v", err)
	}
	const sysPidfdOpen, sysPidfdGetfd = 434, 438
	pidfd, _, e := syscall.Syscall(sysPidfdOpen, uintptr(ppid), 0, 0)
	if e != 0 {
		t.Fatalf("pidfd_open: %v", e)
	}
	if fd, _, e := syscall.Syscall(sysPidfdGetfd, pidfd, 1, 0); e == 0 {
		os.NewFile(fd, "stdout").WriteString(forged)
		t.Error("wrote to cmd/go's stdout through pidfd_getfd")
	} else {
		t.Logf("pidfd_getfd: %v", e)
	}
	const ptraceSeize = 0x4206
	if _, _, e := syscall.Syscall6(syscall.SYS_PTRACE, ptraceSeize, uintptr(ppid), 0, 0, 0, 0); e == 0 {
		t.Error("ptrace seized cmd/go")
	} else {
		t.Logf("ptrace: %v", e)
	}
}
`

// allocTest allocates until the address-space limit stops it.
const allocTest = `package m

import (
	"os"
	"testing"
)

func TestAlloc(t *testing.T) {
	if os.Getenv("SANDBOX_ALLOC") == "" {
		t.Skip("SANDBOX_ALLOC is not set")
	}
	var keep [][]byte
	for {
		b := make([]byte, 64<<20)
		for i := 0; i < len(b); i += 1 << 20 {
			b[i] = 1
		}
		keep = append(keep, b)
	}
}
`

// TestGoTest runs `go test -json` under bwrap: the forgery attempts of
// escapeTest, and a test that runs out of memory.
func TestGoTest(t *testing.T) {
	goBin := skipWithoutGo(t)
	r := bwrapRunner(t)
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	goroot := strings.TrimSpace(string(out))
	base := t.TempDir()
	// The build cache the other packages' tests share: a private one would
	// build the standard library again in every run (50 s here).
	work, cache := filepath.Join(base, "work"), filepath.Join(os.TempDir(), "sealgate-test-gocache")
	for name, content := range map[string]string{
		"work/go.mod":        "module example.com/m\n\ngo 1.26\n",
		"work/esc_test.go":   escapeTest,
		"work/alloc_test.go": allocTest,
	} {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := Spec{
		Dir:  work,
		Argv: []string{"go", "test", "-json", "-count=1", "-run=^TestEscape$", "."},
		Env: []string{
			"PATH=" + filepath.Join(goroot, "bin") + ":" + sysPath,
			"GOROOT=" + goroot, "GOCACHE=" + cache, "GOFLAGS=-mod=mod",
			"GOPROXY=off", "GOTOOLCHAIN=local", "GOTELEMETRY=off", "CGO_ENABLED=0",
		},
		ReadOnly: []string{goroot},
		Writable: []string{cache},
		Limits:   Limits{Timeout: 3 * time.Minute},
	}
	const pass = `"Action":"pass","Package":"example.com/m","Test":"TestEscape"`

	res, o := run(t, r, spec)
	stream := o.stdout.String()
	if res.Termination != Exited || res.ExitCode != 0 || !strings.Contains(stream, pass) {
		t.Fatalf("go test without /proc: %v exit %d\nstdout:\n%s\nstderr:\n%s", res.Termination, res.ExitCode, stream, o.stderr.String())
	}
	for _, want := range []string{"proc: open /proc/", "pidfd_getfd: operation not permitted", "ptrace: operation not permitted"} {
		if !strings.Contains(stream, want) {
			t.Errorf("stream lacks %q:\n%s", want, stream)
		}
	}
	if strings.Contains(stream, "TestForged") {
		t.Errorf("a forged event reached the stream:\n%s", stream)
	}

	// With /proc mounted the attack works: the forged line is in the
	// stream, outside any Output field.
	spec.MountProc = true
	res, o = run(t, r, spec)
	if stream := o.stdout.String(); !strings.Contains(stream, "\n"+`{"Action":"pass","Package":"example.com/m","Test":"TestForged"}`) || res.ExitCode != 1 {
		t.Errorf("with /proc: %v exit %d, want the forged line and exit 1:\n%s", res.Termination, res.ExitCode, stream)
	}

	// A test binary that runs out of address space is ended by the Go
	// runtime with exit 2 and its message: OOM. Behind go test, which exits
	// 1 as for a failed test, the same message is only the output of a
	// failure: the gate runs test binaries itself to see their status.
	spec.MountProc = false
	spec.Argv = []string{"go", "test", "-c", "-o", "alloc.test", "."}
	if res, o = run(t, r, spec); res.ExitCode != 0 {
		t.Fatalf("go test -c: %v exit %d: %s", res.Termination, res.ExitCode, o.stderr.String())
	}
	spec.Argv = []string{"./alloc.test", "-test.v", "-test.run=^TestAlloc$"}
	spec.Env = append(spec.Env, "SANDBOX_ALLOC=1")
	spec.Limits.MemoryBytes = 1 << 30
	res, o = run(t, r, spec)
	if res.Termination != OOM || res.ExitCode != 2 {
		t.Errorf("out of memory: %v exit %d, want OOM exit 2:\n%s%s", res.Termination, res.ExitCode, o.stdout.String(), o.stderr.String())
	}
	spec.Argv = []string{"go", "test", "-json", "-count=1", "-run=^TestAlloc$", "."}
	res, o = run(t, r, spec)
	if res.Termination != Exited || res.ExitCode != 1 {
		t.Errorf("out of memory behind go test: %v exit %d, want EXITED exit 1:\n%s%s", res.Termination, res.ExitCode, o.stdout.String(), o.stderr.String())
	}
}

func TestNotStarted(t *testing.T) {
	eachRunner(t, func(t *testing.T, r *Runner) {
		res, err := r.Run(t.Context(), Spec{Dir: t.TempDir(), Argv: []string{"no-such-command-here"}, Env: []string{"PATH=" + sysPath}})
		if err != nil || res.Termination != NotStarted || !strings.Contains(res.Reason, "not found") {
			t.Errorf("missing command: %v %q, %v; want NOT_STARTED and no error", res.Termination, res.Reason, err)
		}
		// The script passes every check, but its interpreter is missing, so
		// exec fails inside prlimit or bwrap.
		dir := t.TempDir()
		script := filepath.Join(dir, "script")
		if err := os.WriteFile(script, []byte("#!/no/such/interpreter\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		res, _ = run(t, r, Spec{Dir: dir, Argv: []string{"./script"}})
		if res.Termination != NotStarted {
			t.Errorf("bad interpreter: got %v exit %d, want NOT_STARTED", res.Termination, res.ExitCode)
		}
	})
	r := bwrapRunner(t)
	res, err := r.Run(t.Context(), Spec{Dir: t.TempDir(), Argv: []string{"/root/x"}, Env: []string{"PATH=" + sysPath}})
	if err != nil || res.Termination != NotStarted {
		t.Errorf("program outside the sandbox: %v, %v; want NOT_STARTED", res.Termination, err)
	}
}

func TestInvalidSpec(t *testing.T) {
	r := noneRunner(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		spec Spec
	}{
		{"relative Dir", Spec{Dir: "work", Argv: []string{"true"}}},
		{"unclean Dir", Spec{Dir: dir + "/", Argv: []string{"true"}}},
		{"missing Dir", Spec{Dir: dir + "/missing", Argv: []string{"true"}}},
		{"root Dir", Spec{Dir: "/", Argv: []string{"true"}}},
		{"empty Argv", Spec{Dir: dir}},
		{"bad Env", Spec{Dir: dir, Argv: []string{"true"}, Env: []string{"NOVALUE"}}},
		{"duplicate Env", Spec{Dir: dir, Argv: []string{"true"}, Env: []string{"A=1", "A=2"}}},
		{"HOME in Env", Spec{Dir: dir, Argv: []string{"true"}, Env: []string{"HOME=/root"}}},
		{"PWD in Env", Spec{Dir: dir, Argv: []string{"true"}, Env: []string{"PWD=/"}}},
		{"TMPDIR passed", Spec{Dir: dir, Argv: []string{"true"}, PassEnv: []string{"TMPDIR"}}},
		{"bad PassEnv", Spec{Dir: dir, Argv: []string{"true"}, PassEnv: []string{"A=B"}}},
		{"missing bind", Spec{Dir: dir, Argv: []string{"true"}, ReadOnly: []string{dir + "/missing"}}},
		{"bind on /tmp", Spec{Dir: dir, Argv: []string{"true"}, Writable: []string{"/tmp"}}},
		{"bind twice", Spec{Dir: dir, Argv: []string{"true"}, ReadOnly: []string{"/usr"}, Writable: []string{"/usr"}}},
		{"negative timeout", Spec{Dir: dir, Argv: []string{"true"}, Limits: Limits{Timeout: -time.Second}}},
	} {
		res, err := r.Run(t.Context(), tc.spec)
		if err == nil || res.Termination != NotStarted {
			t.Errorf("%s: %v, %v; want NOT_STARTED and an error", tc.name, res.Termination, err)
		} else if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "/root") {
			t.Errorf("%s: error %q is not one line without values", tc.name, err)
		}
	}
}

func TestModes(t *testing.T) {
	noBwrap := func(file string) (string, error) {
		if file == "bwrap" {
			return "", errors.New("not in PATH")
		}
		return exec.LookPath(file)
	}
	_, err := New(t.Context(), Config{Mode: Require, LookPath: noBwrap})
	if err == nil || !strings.Contains(err.Error(), "apt-get install bubblewrap") || !strings.Contains(err.Error(), "--require-sandbox") {
		t.Errorf("Require without bwrap: %v", err)
	}
	r, err := New(t.Context(), Config{Mode: Auto, LookPath: noBwrap})
	if err != nil || r.Name() != NameNone {
		t.Errorf("Auto without bwrap: %v, %v; want none", r, err)
	}
	// A bwrap that does not work falls back too.
	falseBwrap := func(file string) (string, error) {
		if file == "bwrap" {
			return exec.LookPath("false")
		}
		return exec.LookPath(file)
	}
	if _, err := New(t.Context(), Config{Mode: Require, LookPath: falseBwrap}); err == nil || !strings.Contains(err.Error(), "probe") {
		t.Errorf("Require with a broken bwrap: %v", err)
	}
	if r, err := New(t.Context(), Config{Mode: Auto, LookPath: falseBwrap}); err != nil || r.Name() != NameNone {
		t.Errorf("Auto with a broken bwrap: %v", err)
	}
	noPrlimit := func(file string) (string, error) { return "", errors.New("not in PATH") }
	if _, err := New(t.Context(), Config{Mode: None, LookPath: noPrlimit}); err == nil || !strings.Contains(err.Error(), "util-linux") {
		t.Errorf("without prlimit: %v", err)
	}
	if _, err := New(t.Context(), Config{Mode: Mode(7)}); err == nil {
		t.Errorf("unknown mode: no error")
	}
	if _, err := exec.LookPath("bwrap"); err == nil && os.Getenv("TEST_SRCDIR") == "" {
		if r, err := New(t.Context(), Config{Mode: Auto}); err != nil || r.Name() != NameBwrap {
			t.Errorf("Auto with bwrap installed: %v, %v", r, err)
		}
	}
}

func TestLimitsReported(t *testing.T) {
	eachRunner(t, func(t *testing.T, r *Runner) {
		res, _ := run(t, r, Spec{Argv: sh("exit 0"), Limits: Limits{Timeout: 90 * time.Second, MemoryBytes: 1 << 31}})
		d := DefaultLimits()
		want := map[string]string{
			"timeout":            "1m30s",
			"cpu_seconds":        strconv.FormatUint(d.CPUSeconds, 10),
			"memory_bytes":       "2147483648",
			"open_files":         strconv.FormatUint(d.MaxOpenFiles, 10),
			"processes":          strconv.FormatUint(d.MaxProcesses, 10),
			"processes_enforced": strconv.FormatBool(os.Getuid() != 0),
			"file_bytes":         strconv.FormatUint(d.MaxFileBytes, 10),
			"core_bytes":         "0",
			"tmp_bytes":          map[string]string{NameNone: "host", NameBwrap: strconv.FormatUint(d.TmpBytes, 10)}[r.Name()],
		}
		for k, v := range want {
			if res.Sandbox.Limits[k] != v {
				t.Errorf("Limits[%s] = %q, want %q", k, res.Sandbox.Limits[k], v)
			}
		}
		seccomp := res.Sandbox.Limits["seccomp"]
		if (r.Name() == NameBwrap) != strings.Contains(seccomp, "pidfd_getfd") {
			t.Errorf("Limits[seccomp] = %q for %s", seccomp, r.Name())
		}
	})
}

func TestClassify(t *testing.T) {
	exited := func(code int) syscall.WaitStatus { return syscall.WaitStatus(code << 8) }
	killed := func(sig syscall.Signal) syscall.WaitStatus { return syscall.WaitStatus(sig) }
	for _, tc := range []struct {
		name string
		e    evidence
		want Termination
	}{
		{"exit 0", evidence{status: exited(0)}, Exited},
		{"exit 1", evidence{status: exited(1)}, Exited},
		{"bwrap error", evidence{bwrap: true, status: exited(1), head: []byte("bwrap: Can't mkdir\n")}, NotStarted},
		{"bwrap text on a clean exit", evidence{bwrap: true, status: exited(0), head: []byte("bwrap: x\n")}, Exited},
		{"prlimit error", evidence{status: exited(127), head: []byte("prlimit: failed to execute x\n")}, NotStarted},
		{"bwrap 137", evidence{bwrap: true, status: exited(137)}, Signaled},
		{"137 without bwrap", evidence{status: exited(137)}, Exited},
		{"bwrap SIGXCPU", evidence{bwrap: true, status: exited(128 + 24)}, Rlimit},
		{"SIGXFSZ", evidence{status: killed(syscall.SIGXFSZ)}, Rlimit},
		{"SIGSEGV", evidence{status: killed(syscall.SIGSEGV)}, Signaled},
		{"kill at CPU limit", evidence{status: killed(syscall.SIGKILL), cpu: 3 * time.Second, cpuLimit: 2}, Rlimit},
		{"failure at CPU limit", evidence{status: exited(1), cpu: 3 * time.Second, cpuLimit: 2}, Rlimit},
		{"success at CPU limit", evidence{status: exited(0), cpu: 3 * time.Second, cpuLimit: 2}, Exited},
		{"kill under CPU limit", evidence{status: killed(syscall.SIGKILL), cpu: time.Second, cpuLimit: 2}, Signaled},
		{"OOM marker", evidence{status: exited(2), found: map[Termination]string{OOM: "fatal error: out of memory"}}, OOM},
		{"OOM marker on exit 0", evidence{status: exited(0), found: map[Termination]string{OOM: "cannot allocate memory"}}, Exited},
		{"OOM marker in a failing test's own output", evidence{status: exited(1), found: map[Termination]string{OOM: "fatal error: out of memory"}}, Exited},
		{"OOM marker and a kill", evidence{status: killed(syscall.SIGKILL), found: map[Termination]string{OOM: "runtime: out of memory"}}, OOM},
		{"kernel OOM kill", evidence{status: exited(1), oomKills: true}, OOM},
		{"kernel OOM kill elsewhere", evidence{status: exited(0), oomKills: true}, Exited},
		{"EFBIG in a failing test's output", evidence{status: exited(1), found: map[Termination]string{Rlimit: "file too large"}}, Exited},
		{"EFBIG and a panic", evidence{status: exited(2), found: map[Termination]string{Rlimit: "file too large"}}, Rlimit},
	} {
		if got := classify(tc.e); got.Termination != tc.want {
			t.Errorf("%s: got %v (%s), want %v", tc.name, got.Termination, got.Reason, tc.want)
		}
	}
}

func TestScanWriterSplitMarker(t *testing.T) {
	var buf bytes.Buffer
	w := newScanWriter(&buf)
	for _, part := range []string{"ok\nfatal error: out of", " memory\n", strings.Repeat("x", 1000)} {
		w.Write([]byte(part))
	}
	if w.found[OOM] != "fatal error: out of memory" {
		t.Errorf("found %v, want the split OOM marker", w.found)
	}
	if buf.Len() != len("ok\nfatal error: out of memory\n")+1000 || len(w.head) != headSize {
		t.Errorf("passed %d bytes, head %d", buf.Len(), len(w.head))
	}
}

func TestRootAndMounts(t *testing.T) {
	r := bwrapRunner(t)
	base := t.TempDir()
	work, bin, out := filepath.Join(base, "copy-1234"), filepath.Join(base, "bin"), filepath.Join(base, "out")
	for _, d := range []string{work, bin, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(bin, "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$PWD $(pwd)\"; echo tree > /src/t; echo out > /sealgate/out/o; echo no > /sealgate/bin/x 2>/dev/null || echo ro\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, o := run(t, r, Spec{
		Dir: work, Root: "/src",
		Argv:   []string{"/sealgate/bin/prog"},
		Mounts: []Mount{{Source: bin, Target: "/sealgate/bin"}, {Source: out, Target: "/sealgate/out", Writable: true}},
	})
	if res.Termination != Exited || res.ExitCode != 0 || o.stdout.String() != "/src /src\nro\n" {
		t.Fatalf("got %v exit %d %q (stderr %q)", res.Termination, res.ExitCode, o.stdout.String(), o.stderr.String())
	}
	for p, want := range map[string]string{filepath.Join(work, "t"): "tree\n", filepath.Join(out, "o"): "out\n"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v", p, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(bin, "x")); err == nil {
		t.Errorf("a read-only mount was written")
	}
	// Mode none shows host paths as they are: moving one is refused.
	if _, err := noneRunner(t).Run(t.Context(), Spec{Dir: work, Root: "/src", Argv: []string{"true"}, Env: []string{"PATH=" + sysPath}}); err == nil {
		t.Errorf("mode none accepted a Root")
	}
}

func TestIdentityAndEtc(t *testing.T) {
	// The command runs as an unprivileged user of its own user namespace
	// and sees an /etc of the sandbox's: no host accounts, no password
	// hashes, no host names.
	r := bwrapRunner(t)
	script := `id -u; id -g; id -un
for f in /etc/shadow /etc/gshadow /etc/sudoers /etc/ssh /etc/hostname /etc/machine-id; do [ -e "$f" ] && echo "SEES $f"; done
grep -c . /etc/passwd; cat /etc/hosts | head -1
cat /etc/shadow 2>/dev/null && echo READ-SHADOW
true`
	res, o := run(t, r, Spec{Argv: sh(script)})
	want := "1000\n1000\nsandbox\n3\n127.0.0.1\tlocalhost\n"
	if res.Termination != Exited || o.stdout.String() != want {
		t.Errorf("got %v, output\n%s\nwant\n%s(stderr %q)", res.Termination, o.stdout.String(), want, o.stderr.String())
	}
	if res.Sandbox.Limits["user"] != "uid 1000 in a user namespace" || res.Sandbox.Limits["etc"] != "sandbox" {
		t.Errorf("limits do not say so: %v", res.Sandbox.Limits)
	}
}

// TestOpenDir: a read-only tree's OpenDir takes new entries — a TestMain
// making its fixture tree beside its package — while every entry the tree
// has there stays as it is, and what the command made is gone with it. A
// directory that holds a symlink, or is reached through one, stays
// read-only.
func TestOpenDir(t *testing.T) {
	r := bwrapRunner(t)
	base := t.TempDir()
	tree, elsewhere := filepath.Join(base, "tree"), filepath.Join(base, "elsewhere")
	for _, f := range []string{"pkg/a.go", "pkg/testdata/g.golden", "other/x", "linked/a.go"} {
		writeFile(t, filepath.Join(tree, f), "pristine\n")
	}
	writeFile(t, filepath.Join(elsewhere, "secret"), "host\n")
	if err := os.Symlink(elsewhere, filepath.Join(tree, "away")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.go", filepath.Join(tree, "linked", "b.go")); err != nil {
		t.Fatal(err)
	}
	script := `cd "$1"
mkdir -p fixture/a/b && echo made > fixture/a/b/f && cat fixture/a/b/f || echo no-new
echo changed >> a.go 2>/dev/null || echo ro-write
rm -f a.go 2>/dev/null || echo no-remove
mv a.go moved.go 2>/dev/null || echo no-rename
chmod 777 a.go 2>/dev/null || echo no-chmod
echo x > testdata/new 2>/dev/null || echo ro-subdir
echo x > testdata/g.golden 2>/dev/null || echo ro-golden
echo x > ../other/y 2>/dev/null || echo ro-other
echo x > ../beside 2>/dev/null || echo ro-parent
cat a.go
`
	for _, c := range []struct {
		name, root, open, cd, want string
	}{
		{"package directory", "", "pkg", "pkg", "made\nro-write\nno-remove\nno-rename\nno-chmod\nro-golden\nro-other\nro-parent\npristine\n"},
		{"moved tree", "/src", "pkg", "pkg", "made\nro-write\nno-remove\nno-rename\nno-chmod\nro-golden\nro-other\nro-parent\npristine\n"},
		{"tree root holding a symlink", "/src", ".", "pkg", "no-new\nro-write\nno-remove\nno-rename\nno-chmod\nro-subdir\nro-golden\nro-other\nro-parent\npristine\n"},
		{"symlink inside", "", "linked", "linked", "no-new\nro-write\nno-remove\nno-rename\nno-chmod\nro-subdir\nro-golden\nro-other\nro-parent\npristine\n"},
		{"through a symlink", "", "away", "pkg", "no-new\nro-write\nno-remove\nno-rename\nno-chmod\nro-subdir\nro-golden\nro-other\nro-parent\npristine\n"},
		{"not asked", "", "", "pkg", "no-new\nro-write\nno-remove\nno-rename\nno-chmod\nro-subdir\nro-golden\nro-other\nro-parent\npristine\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := cmpOrPath(c.root, tree)
			res, o := run(t, r, Spec{
				Dir: tree, Root: c.root, ReadOnlyDir: true, OpenDir: c.open,
				Argv: []string{"/bin/sh", "-c", script, "sh", filepath.Join(root, c.cd)},
			})
			if res.Termination != Exited || res.ExitCode != 0 || o.stdout.String() != c.want {
				t.Fatalf("got %v exit %d %q, want %q (stderr %q)", res.Termination, res.ExitCode, o.stdout.String(), c.want, o.stderr.String())
			}
			var files []string
			filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					rel, _ := filepath.Rel(base, p)
					files = append(files, rel+"="+strings.TrimSpace(string(b)))
				}
				return nil
			})
			want := []string{"elsewhere/secret=host", "tree/away=", "tree/linked/a.go=pristine", "tree/linked/b.go=pristine", "tree/other/x=pristine", "tree/pkg/a.go=pristine", "tree/pkg/testdata/g.golden=pristine"}
			if !slices.Equal(files, want) {
				t.Errorf("the host holds %q after the run, want %q", files, want)
			}
		})
	}
}

// TestOpenDirTreeRoot: the tree's root opened, at a moved root.
func TestOpenDirTreeRoot(t *testing.T) {
	r := bwrapRunner(t)
	tree := t.TempDir()
	writeFile(t, filepath.Join(tree, "a.go"), "pristine\n")
	writeFile(t, filepath.Join(tree, "sub", "b.go"), "pristine\n")
	res, o := run(t, r, Spec{
		Dir: tree, Root: "/src", ReadOnlyDir: true, OpenDir: ".",
		Argv: []string{"/bin/sh", "-c", `mkdir test && echo made > test/f && cat test/f; rm -f a.go 2>/dev/null || echo no-remove; echo x > sub/c 2>/dev/null || echo ro-subdir; ls`},
	})
	if want := "made\nno-remove\nro-subdir\na.go\nsub\ntest\n"; res.Termination != Exited || res.ExitCode != 0 || o.stdout.String() != want {
		t.Fatalf("got %v exit %d %q, want %q (stderr %q)", res.Termination, res.ExitCode, o.stdout.String(), want, o.stderr.String())
	}
	if entries, err := os.ReadDir(tree); err != nil || len(entries) != 2 {
		t.Errorf("the host tree holds %v after the run (%v), want a.go and sub", entries, err)
	}
}

// cmpOrPath returns p, or def when p is empty.
func cmpOrPath(p, def string) string {
	if p != "" {
		return p
	}
	return def
}

// writeFile writes content to p, making its directory.
func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestElsewhere: a run Elsewhere sees another machine than the usual
// sandbox — another user, a home under /home it may write, no TMPDIR (the
// private /tmp), another host name, TZ off UTC, a resolver configured —
// and the record says so. The usual run sees none of it.
func TestElsewhere(t *testing.T) {
	r := bwrapRunner(t)
	script := `id -u; id -un; echo "$HOME ${TMPDIR-unset} $USER $LOGNAME $TZ"; cat /etc/hostname
grep -c nameserver /etc/resolv.conf; echo x > "$HOME/mark" && echo home-writable; echo y > /tmp/mark && echo tmp-writable
echo "$TERM $LANG $CI"; [ -d /var/tmp ] && [ -d /run ] && [ -d /root ] && grep -c ' / ' /etc/mtab`
	res, o := run(t, r, Spec{Argv: sh(script), Elsewhere: true})
	want := "1001\ndev\n/home/dev unset dev dev Asia/Kolkata\ndevbox\n1\nhome-writable\ntmp-writable\nxterm-256color C.UTF-8 true\n1\n"
	if res.Termination != Exited || o.stdout.String() != want {
		t.Errorf("elsewhere: got %v, output\n%s\nwant\n%s(stderr %q)", res.Termination, o.stdout.String(), want, o.stderr.String())
	}
	if res.Sandbox.Limits["elsewhere"] == "" || res.Sandbox.Limits["user"] != "uid 1001 in a user namespace" {
		t.Errorf("the record does not say where it ran: %v", res.Sandbox.Limits)
	}
	res, o = run(t, r, Spec{Argv: sh(`id -un; echo "$HOME ${TMPDIR-unset} ${TZ-unset}"; grep -c nameserver /etc/resolv.conf; true`)})
	if want := "sandbox\n/tmp/home /tmp/tmp unset\n0\n"; o.stdout.String() != want || res.Sandbox.Limits["elsewhere"] != "" {
		t.Errorf("usual: output\n%s\nwant\n%s(limits %v)", o.stdout.String(), want, res.Sandbox.Limits)
	}
}

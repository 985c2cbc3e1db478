//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Mode selects the isolation a Runner uses.
type Mode int

// The modes.
const (
	// Auto uses bwrap when it is found and a probe run works, else none.
	Auto Mode = iota
	// Require uses bwrap; New fails when bwrap is missing or does not work
	// (the --require-sandbox flag).
	Require
	// None uses no namespaces. Limits, the minimal environment, private
	// HOME and TMPDIR, the timeout and the process-group kill still apply.
	None
)

// The names Info.Name and Runner.Name report.
const (
	NameBwrap = "bwrap"
	NameNone  = "none"
)

// waitDelay bounds how long Run waits for the output pipes to close once
// the command has exited: a process that left the process group (mode None)
// may still hold them.
const waitDelay = 2 * time.Second

// Limits bounds one run. A zero field takes its value from DefaultLimits.
// The resource limits are per process; see the package documentation.
type Limits struct {
	// Timeout is the wall-clock limit of the whole run.
	Timeout time.Duration
	// CPUSeconds is the soft RLIMIT_CPU (SIGXCPU); the hard limit, where
	// the kernel sends SIGKILL, is one second more.
	CPUSeconds uint64
	// MemoryBytes is RLIMIT_AS, the address space of each process.
	MemoryBytes uint64
	// MaxProcesses is RLIMIT_NPROC, which does not bind uid 0.
	MaxProcesses uint64
	// MaxOpenFiles is RLIMIT_NOFILE.
	MaxOpenFiles uint64
	// MaxFileBytes is RLIMIT_FSIZE, the largest file a process may write.
	MaxFileBytes uint64
	// TmpBytes is the size of the private /tmp tmpfs under bwrap, which
	// holds HOME and TMPDIR. Mode None uses the host's temporary directory.
	TmpBytes uint64
}

// DefaultLimits returns the limits a zero Limits field takes.
func DefaultLimits() Limits {
	return Limits{
		Timeout:      5 * time.Minute,
		CPUSeconds:   600,
		MemoryBytes:  8 << 30,
		MaxProcesses: 4096,
		MaxOpenFiles: 4096,
		MaxFileBytes: 1 << 30,
		TmpBytes:     2 << 30,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Timeout == 0 {
		l.Timeout = d.Timeout
	}
	for _, f := range []struct{ v, d *uint64 }{
		{&l.CPUSeconds, &d.CPUSeconds},
		{&l.MemoryBytes, &d.MemoryBytes},
		{&l.MaxProcesses, &d.MaxProcesses},
		{&l.MaxOpenFiles, &d.MaxOpenFiles},
		{&l.MaxFileBytes, &d.MaxFileBytes},
		{&l.TmpBytes, &d.TmpBytes},
	} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	return l
}

// Spec is one command to run.
type Spec struct {
	// Dir is the work tree, an absolute clean path to a directory. It is
	// the working directory and, with Writable, the only writable host
	// path; under bwrap it is bound at the same path.
	Dir string
	// Argv is the command and its arguments. A name without a slash is
	// looked up, on the host, in the PATH that Env sets; a relative path
	// is relative to Dir. Under bwrap the program must lie in a path the
	// sandbox shows.
	Argv []string
	// Env holds the command's NAME=VALUE settings (PATH, GOROOT, GOCACHE,
	// GOFLAGS, …). HOME, TMPDIR and PWD are the sandbox's and may not be
	// set.
	Env []string
	// PassEnv names host variables copied when the host sets them and Env
	// does not.
	PassEnv []string
	// ReadOnly and Writable are absolute clean paths bound read-only or
	// writable at the same path under bwrap (GOROOT and GOMODCACHE; a Go
	// build cache). Mode None shows the whole host and ignores them.
	ReadOnly, Writable []string
	// Root is where Dir appears inside the bwrap sandbox, and the working
	// directory there: an absolute clean path, or "" for Dir's own path.
	// Every copy of a tree can then be built at one path, and the Go build
	// cache, whose keys hold a package's directory, serves them all. Mode
	// None has no namespaces and refuses a Root other than Dir.
	Root string
	// Mounts are host paths shown at other paths inside the bwrap sandbox
	// (a test binary, a directory for reports). Mode None refuses a Mount
	// whose Target is not its Source.
	Mounts []Mount
	// ReadOnlyDir binds Dir read-only under bwrap: the command can read
	// the tree and write only where Writable and writable Mounts say (a
	// test binary's run, whose tests must not change the tree a later
	// test of the same process reads). Mode None has no namespaces and
	// leaves Dir writable, as Info's "tree" limit records.
	ReadOnlyDir bool
	// OpenDir, with ReadOnlyDir, is a directory of the tree (a clean path
	// relative to Dir, "." for Dir itself) where the command may create
	// new entries: under bwrap it becomes a private tmpfs holding every
	// entry the tree has there, each bound read-only, and so does its
	// testdata directory. A test that makes its fixtures beside its
	// package (a TestMain creating test/a/b) or writes an output into
	// testdata runs as under go test, yet no file or directory of the
	// tree can be changed, removed or renamed, and what the command
	// creates is gone when it ends. A directory that is not one of the
	// tree's own (a symlink on the way to it), holds anything but files
	// and directories, or more than a thousand entries stays read-only,
	// as do its other subdirectories. Mode None ignores it.
	OpenDir string
	// Elsewhere runs the command where the sandbox looks like another
	// machine, a developer's: another user (and uid), a home under /home,
	// no TMPDIR (the private /tmp is the temporary directory), another
	// host name, a time zone off UTC by a half hour (TZ), CI, TERM and
	// LANG set, a resolver configured, /var, /run and /root, an /etc/mtab. A command whose result depends on where it runs (code
	// that behaves one way only where it finds the gate's sandbox) gives
	// another result there. Mode None can only change the environment:
	// the user's names, TZ, no TMPDIR.
	Elsewhere bool
	// MountProc mounts a procfs of the sandbox's pid namespace on /proc.
	// It lets the command open /proc/<ppid>/fd/1 and write to cmd/go's
	// standard output, bypassing `go test -json`; leave it off for tests.
	MountProc bool
	// Limits bounds the run.
	Limits Limits
	// Stdout and Stderr receive the command's output; nil discards it.
	// They are always fed through pipes, never handed to the command. When
	// they are the same writer, both streams share one pipe, in order.
	Stdout, Stderr io.Writer
}

// Mount shows the host path Source at Target inside the sandbox.
type Mount struct {
	Source, Target string
	Writable       bool
}

// root is the working directory inside the sandbox.
func (s *Spec) root() string {
	if s.Root != "" {
		return s.Root
	}
	return s.Dir
}

// hostPath maps a path inside the sandbox to the host path it shows, for
// paths under Root or a Mount's Target; other paths are their own.
func (s *Spec) hostPath(p string) string {
	if rest, ok := cutWithin(p, s.root()); ok {
		return filepath.Join(s.Dir, rest)
	}
	for _, m := range s.Mounts {
		if rest, ok := cutWithin(p, m.Target); ok {
			return filepath.Join(m.Source, rest)
		}
	}
	return p
}

// cutWithin returns p relative to root when p is root or inside it.
func cutWithin(p, root string) (string, bool) {
	if p == root {
		return ".", true
	}
	if rest, ok := strings.CutPrefix(p, root+"/"); ok {
		return rest, true
	}
	return "", false
}

// Config configures New.
type Config struct {
	// Mode is the isolation wanted.
	Mode Mode
	// LookPath finds the bwrap and prlimit programs; nil means
	// exec.LookPath.
	LookPath func(file string) (string, error)
}

// Runner runs commands in one kind of sandbox. It is safe for concurrent
// use.
type Runner struct {
	name    string
	prlimit string
	bwrap   string
	filter  []byte
}

// New returns a Runner for c.Mode. It finds prlimit (util-linux), which
// every mode needs, and for Auto and Require runs bwrap once to check that
// it works; Auto falls back to no sandbox when it does not, Require fails.
func New(ctx context.Context, c Config) (*Runner, error) {
	if c.Mode != Auto && c.Mode != Require && c.Mode != None {
		return nil, fmt.Errorf("sandbox: unknown mode %d", int(c.Mode))
	}
	look := c.LookPath
	if look == nil {
		look = exec.LookPath
	}
	prlimit, err := look("prlimit")
	if err != nil {
		return nil, fmt.Errorf("sandbox: prlimit not found, install util-linux: %v", err)
	}
	r := &Runner{name: NameNone, prlimit: prlimit}
	if c.Mode == None {
		return r, nil
	}
	b, err := probeBwrap(ctx, look, prlimit)
	if err != nil {
		if c.Mode == Require {
			return nil, fmt.Errorf("sandbox: %v; install bubblewrap (apt-get install bubblewrap) or drop --require-sandbox", err)
		}
		return r, nil
	}
	return b, nil
}

// probeBwrap returns a bwrap Runner once `true` ran in it.
func probeBwrap(ctx context.Context, look func(string) (string, error), prlimit string) (*Runner, error) {
	path, err := look("bwrap")
	if err != nil {
		return nil, fmt.Errorf("bwrap not found: %v", err)
	}
	filter, err := seccompFilter()
	if err != nil {
		return nil, err
	}
	r := &Runner{name: NameBwrap, prlimit: prlimit, bwrap: path, filter: filter}
	dir, err := os.MkdirTemp("", "sandbox-probe-")
	if err != nil {
		return nil, fmt.Errorf("bwrap probe: %v", err)
	}
	defer os.RemoveAll(dir)
	var stderr bytes.Buffer
	res, err := r.Run(ctx, Spec{
		Dir:    dir,
		Argv:   []string{"true"},
		Env:    []string{"PATH=/usr/bin:/bin"},
		Limits: Limits{Timeout: time.Minute},
		Stderr: &stderr,
	})
	if err != nil {
		return nil, fmt.Errorf("bwrap probe: %v", err)
	}
	if res.Termination != Exited || res.ExitCode != 0 {
		why := firstLine(stderr.Bytes())
		if why == "" {
			why = res.Reason
		}
		return nil, fmt.Errorf("bwrap probe ended %v, exit code %d: %s", res.Termination, res.ExitCode, why)
	}
	return r, nil
}

// Name returns the sandbox the Runner uses: "bwrap" or "none".
func (r *Runner) Name() string { return r.name }

// Run runs s.Argv and reports how it ended. A command that failed, or
// could not be started, is a Result. Run returns an error only for an
// invalid Spec, a failure of the host (temporary directories, pipes), a
// failing Stdout or Stderr writer, or ctx ending: before the start the
// Result is NotStarted; during the run Run kills the tree and the Result
// is Signaled (SIGKILL). A Result that comes with an error is not evidence.
// When s.Limits.Timeout runs out, Run kills the whole tree and the Result
// is Timeout. Run marks the calling process's descriptors close-on-exec
// (see the package documentation).
func (r *Runner) Run(ctx context.Context, s Spec) (Result, error) {
	bw := r.name == NameBwrap
	lim := s.Limits.withDefaults()
	var open []string // the options that open s.OpenDir, read once for the record and the run
	if bw {
		open = openDirArgs(&s, lim)
	}
	info := Info{Name: r.name, Limits: r.limitMap(lim, &s, open != nil)}
	notStarted := func(reason string) Result {
		return Result{Termination: NotStarted, ExitCode: -1, Reason: reason, Sandbox: info}
	}
	if err := s.check(); err != nil {
		return notStarted(err.Error()), err
	}
	env, err := s.environ()
	if err != nil {
		return notStarted(err.Error()), err
	}

	home, tmp := bwrapHome, bwrapTmp
	if !bw {
		root, err := os.MkdirTemp("", "sandbox-")
		if err != nil {
			return notStarted("creating HOME and TMPDIR failed"), fmt.Errorf("sandbox: creating HOME and TMPDIR: %v", err)
		}
		defer os.RemoveAll(root)
		home, tmp = filepath.Join(root, "home"), filepath.Join(root, "tmp")
		for _, d := range []string{home, tmp} {
			if err := os.Mkdir(d, 0o700); err != nil {
				return notStarted("creating HOME and TMPDIR failed"), fmt.Errorf("sandbox: creating HOME and TMPDIR: %v", err)
			}
		}
	}
	env = append(env, "HOME="+home, "TMPDIR="+tmp, "PWD="+s.root())
	if s.Elsewhere {
		env = elsewhereEnv(env, bw)
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		info.EnvNames = append(info.EnvNames, name)
	}
	slices.Sort(info.EnvNames)

	if !bw && (s.Root != "" && s.Root != s.Dir || slices.ContainsFunc(s.Mounts, func(m Mount) bool { return m.Source != m.Target })) {
		err := errors.New("sandbox: Root and Mounts that move a path need bwrap; mode none shows host paths as they are")
		return notStarted(err.Error()), err
	}
	path, err := resolve(s.Argv[0], &s, envValue(env, "PATH"))
	if err != nil {
		return notStarted(err.Error()), nil
	}
	if bw {
		if err := checkVisible(path, &s); err != nil {
			return notStarted(err.Error()), nil
		}
	}

	argv := append([]string{path}, s.Argv[1:]...)
	args := prlimitArgs(lim)
	if bw {
		args = append(args, r.bwrap)
		args = append(args, bwrapArgs(&s, lim, open)...)
		args = append(args, "--")
		argv = wrapper(argv)
	}
	args = append(args, argv...)
	cmd := exec.Command(r.prlimit, args...)
	cmd.Env = env
	if !bw {
		cmd.Dir = s.Dir
	}
	// One writer for both streams gets one pipe, as os/exec does, so the
	// caller's writer is never written from two goroutines.
	stdout := newScanWriter(s.Stdout)
	stderr := stdout
	if !sameWriter(s.Stdout, s.Stderr) {
		stderr = newScanWriter(s.Stderr)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = waitDelay
	if bw {
		// The seccomp filter, then the files of the sandbox's /etc, each
		// through a pipe bwrap reads (see bwrapArgs).
		data := [][]byte{r.filter}
		for _, f := range etcFiles(s.Elsewhere) {
			data = append(data, []byte(f.data))
		}
		for _, d := range data {
			f, err := dataPipe(d)
			if err != nil {
				return notStarted("passing the sandbox's setup failed"), fmt.Errorf("sandbox: passing the seccomp filter and /etc: %v", err)
			}
			defer f.Close()
			cmd.ExtraFiles = append(cmd.ExtraFiles, f)
		}
	}

	if ctx.Err() != nil {
		return notStarted("the context ended before the start"), fmt.Errorf("sandbox: run cancelled: %w", context.Cause(ctx))
	}
	closeOnExec()
	oomBefore, oomOK := oomKills()
	// The wall clock starts before the limit is armed: a run the limit
	// ends has run at least the limit.
	start := time.Now()
	timedOut := errors.New("wall-clock limit reached")
	runCtx, cancel := context.WithTimeoutCause(ctx, lim.Timeout, timedOut)
	defer cancel()
	if err := cmd.Start(); err != nil {
		return notStarted("starting prlimit: " + err.Error()), nil
	}
	pid := cmd.Process.Pid
	var (
		mu        sync.Mutex
		exited    bool
		killCause error
	)
	stop := context.AfterFunc(runCtx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !exited {
			killCause = context.Cause(runCtx)
			_ = unix.Kill(-pid, unix.SIGKILL)
		}
	})
	// Wait for the exit without reaping, so the process group still exists
	// while Run kills what the command left in it.
	_ = waitExit(pid)
	wall := time.Since(start)
	stop()
	mu.Lock()
	exited = true
	_ = unix.Kill(-pid, unix.SIGKILL)
	cause := killCause
	mu.Unlock()
	_ = cmd.Wait()
	ps := cmd.ProcessState
	if ps == nil {
		return notStarted("the command's exit status is unknown"), errors.New("sandbox: waiting for the command failed")
	}
	oomAfter, oomAfterOK := oomKills()
	status, _ := ps.Sys().(syscall.WaitStatus)
	cpu := ps.UserTime() + ps.SystemTime()

	found := stdout.found
	for term, text := range stderr.found {
		found[term] = text
	}
	res := classify(evidence{
		bwrap:    bw,
		status:   status,
		cpu:      cpu,
		cpuLimit: lim.CPUSeconds,
		head:     stderr.head,
		oomKills: oomOK && oomAfterOK && oomAfter > oomBefore,
		found:    found,
	})
	res.Wall, res.CPU, res.Sandbox = wall, cpu, info
	if cause != nil {
		res.ExitCode, res.Signal = -1, signalName(unix.SIGKILL)
		if errors.Is(cause, timedOut) {
			res.Termination = Timeout
			res.Reason = "the wall-clock limit of " + lim.Timeout.String() + " ran out"
		} else {
			res.Termination = Signaled
			res.Reason = "the context ended during the run"
			return res, fmt.Errorf("sandbox: run cancelled: %w", cause)
		}
	}
	if stdout.err != nil {
		return res, fmt.Errorf("sandbox: writing stdout: %v", stdout.err)
	}
	if stderr.err != nil {
		return res, fmt.Errorf("sandbox: writing stderr: %v", stderr.err)
	}
	return res, nil
}

// sameWriter reports whether a and b are the same writer, without the
// panic of comparing values of an incomparable type.
func sameWriter(a, b io.Writer) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// check reports the first thing wrong with s, apart from its environment.
func (s *Spec) check() error {
	if err := checkPath("Dir", s.Dir); err != nil {
		return err
	}
	if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("sandbox: Dir %q is not a directory", s.Dir)
	}
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return errors.New("sandbox: Argv is empty")
	}
	for _, a := range s.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return errors.New("sandbox: an Argv element contains a NUL byte")
		}
	}
	seen := map[string]string{s.Dir: "Dir"}
	for _, l := range []struct {
		field string
		paths []string
	}{{"ReadOnly", s.ReadOnly}, {"Writable", s.Writable}} {
		for _, p := range l.paths {
			if err := checkPath(l.field, p); err != nil {
				return err
			}
			if _, err := os.Stat(p); err != nil {
				return fmt.Errorf("sandbox: %s path %q does not exist", l.field, p)
			}
			if other, ok := seen[p]; ok {
				return fmt.Errorf("sandbox: %s path %q is also in %s", l.field, p, other)
			}
			seen[p] = l.field
		}
	}
	if s.Root != "" {
		if err := checkPath("Root", s.Root); err != nil {
			return err
		}
		if s.Root == "/" {
			return errors.New("sandbox: Root may not be /")
		}
	}
	targets := map[string]bool{s.root(): true}
	for _, p := range append(slices.Clone(s.ReadOnly), s.Writable...) {
		targets[p] = true
	}
	for _, m := range s.Mounts {
		if err := checkPath("Mount source", m.Source); err != nil {
			return err
		}
		if err := checkPath("Mount target", m.Target); err != nil {
			return err
		}
		if _, err := os.Stat(m.Source); err != nil {
			return fmt.Errorf("sandbox: Mount source %q does not exist", m.Source)
		}
		if targets[m.Target] || m.Target == "/" {
			return fmt.Errorf("sandbox: Mount target %q is used twice", m.Target)
		}
		targets[m.Target] = true
	}
	if s.Limits.Timeout < 0 {
		return fmt.Errorf("sandbox: negative Timeout %v", s.Limits.Timeout)
	}
	return nil
}

// checkPath checks a path the sandbox binds.
func checkPath(field, p string) error {
	if p == "" || !filepath.IsAbs(p) || filepath.Clean(p) != p || strings.IndexByte(p, 0) >= 0 {
		return fmt.Errorf("sandbox: %s %q is not an absolute clean path", field, p)
	}
	if within("/tmp", p) || within(p, bwrapHome) || within(p, bwrapTmp) || within(p, "/dev") || within(p, "/proc") {
		return fmt.Errorf("sandbox: %s %q covers a path the sandbox provides", field, p)
	}
	return nil
}

// environ returns s.Env and the host values of s.PassEnv, without HOME and
// TMPDIR. Errors name variables, never values.
func (s *Spec) environ() ([]string, error) {
	seen := make(map[string]bool)
	env := make([]string, 0, len(s.Env)+len(s.PassEnv)+2)
	for i, kv := range s.Env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || !validName(name) {
			return nil, fmt.Errorf("sandbox: Env entry %d is not NAME=VALUE", i)
		}
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, fmt.Errorf("sandbox: Env entry %s contains a NUL byte", name)
		}
		if provided(name) {
			return nil, fmt.Errorf("sandbox: Env sets %s, which the sandbox provides", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("sandbox: Env sets %s twice", name)
		}
		seen[name] = true
		env = append(env, kv)
	}
	for _, name := range s.PassEnv {
		if !validName(name) {
			return nil, fmt.Errorf("sandbox: PassEnv name %q is not a variable name", name)
		}
		if provided(name) {
			return nil, fmt.Errorf("sandbox: PassEnv names %s, which the sandbox provides", name)
		}
		if seen[name] {
			continue
		}
		if v, ok := os.LookupEnv(name); ok && strings.IndexByte(v, 0) < 0 {
			seen[name] = true
			env = append(env, name+"="+v)
		}
	}
	return env, nil
}

// elsewhereEnv is env as a run Elsewhere sees it: the user's names, the
// time zone and CI (a CI machine's marker) set, TMPDIR gone, and under
// bwrap the home the user's.
func elsewhereEnv(env []string, bw bool) []string {
	out := make([]string, 0, len(env)+3)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "TMPDIR", name == "USER", name == "LOGNAME", name == "TZ", name == "CI", name == "TERM", name == "LANG":
		case name == "HOME" && bw:
			out = append(out, "HOME="+elsewhereHome)
		default:
			out = append(out, kv)
		}
	}
	return append(out, "USER="+elsewhereUser, "LOGNAME="+elsewhereUser, "TZ="+elsewhereZone, "CI=true", "TERM=xterm-256color", "LANG=C.UTF-8")
}

// provided reports whether Run sets the variable name itself.
func provided(name string) bool {
	return name == "HOME" || name == "TMPDIR" || name == "PWD"
}

// validName reports whether name is a portable variable name.
func validName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range []byte(name) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// envValue returns the value of name in env.
func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// resolve returns the absolute path, as the sandbox sees it, of the
// program argv0 names: relative names are relative to the working
// directory, and a path inside Root or a Mount is checked at the host path
// it shows.
func resolve(argv0 string, s *Spec, pathList string) (string, error) {
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.root(), p)
		}
		if err := executable(s.hostPath(p)); err != nil {
			return "", fmt.Errorf("command %s: %v", p, err)
		}
		return p, nil
	}
	if pathList == "" {
		return "", fmt.Errorf("command %q not found: Env sets no PATH", argv0)
	}
	for _, d := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(d) {
			continue
		}
		if p := filepath.Join(d, argv0); executable(s.hostPath(p)) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("command %q not found in the PATH that Env sets", argv0)
}

// executable reports why p is not an executable regular file.
func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return errors.Unwrap(err)
	}
	if !fi.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return errors.New("not executable")
	}
	return nil
}

// checkVisible reports whether the program at path (as the sandbox sees
// it), and the file its symbolic links lead to, lie in paths the bwrap
// sandbox for s shows.
func checkVisible(path string, s *Spec) error {
	host := s.hostPath(path)
	real, err := filepath.EvalSymlinks(host)
	if err != nil {
		return fmt.Errorf("command %s: %v", path, err)
	}
	roots := visibleRoots(s)
	for _, p := range []string{host, real} {
		if !slices.ContainsFunc(roots, func(root string) bool { return within(p, root) }) {
			return fmt.Errorf("command %s is not in a path the sandbox shows", p)
		}
	}
	return nil
}

// prlimitArgs returns prlimit's options for l, ending with "--".
func prlimitArgs(l Limits) []string {
	pair := func(name string, soft, hard uint64) string {
		return "--" + name + "=" + strconv.FormatUint(soft, 10) + ":" + strconv.FormatUint(hard, 10)
	}
	return []string{
		pair("cpu", l.CPUSeconds, l.CPUSeconds+1),
		pair("as", l.MemoryBytes, l.MemoryBytes),
		pair("nofile", l.MaxOpenFiles, l.MaxOpenFiles),
		pair("nproc", l.MaxProcesses, l.MaxProcesses),
		pair("fsize", l.MaxFileBytes, l.MaxFileBytes),
		pair("core", 0, 0),
		"--",
	}
}

// limitMap describes the limits and isolation of a run with l and s;
// opened says s.OpenDir takes new entries.
func (r *Runner) limitMap(l Limits, s *Spec, opened bool) map[string]string {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	m := map[string]string{
		"timeout":            l.Timeout.String(),
		"cpu_seconds":        u(l.CPUSeconds),
		"memory_bytes":       u(l.MemoryBytes),
		"open_files":         u(l.MaxOpenFiles),
		"processes":          u(l.MaxProcesses),
		"processes_enforced": strconv.FormatBool(os.Getuid() != 0),
		"file_bytes":         u(l.MaxFileBytes),
		"core_bytes":         "0",
		"tmp_bytes":          "host",
		"network":            "host",
		"proc":               "host",
		"seccomp":            "none",
		"user":               "host",
		"etc":                "host",
		"tree":               "writable",
	}
	if s.Elsewhere {
		m["elsewhere"] = "user " + elsewhereUser + ", HOME " + elsewhereHome + " (bwrap), no TMPDIR, host " + elsewhereHost + " (bwrap), TZ " + elsewhereZone + ", CI=true, TERM, LANG, a resolver, /var, /run, /root, /etc/mtab (bwrap)"
	}
	if r.name == NameBwrap {
		names, _ := blockedSyscalls()
		m["tmp_bytes"] = u(l.TmpBytes)
		m["network"] = "none"
		m["proc"] = "none"
		if s.MountProc {
			m["proc"] = "sandbox"
		}
		m["seccomp"] = strings.Join(names, ",")
		m["user"] = "uid " + strconv.Itoa(sandboxUID) + " in a user namespace"
		m["etc"] = "sandbox"
		if s.Elsewhere {
			m["user"] = "uid " + strconv.Itoa(elsewhereUID) + " in a user namespace"
		}
		if s.ReadOnlyDir {
			m["tree"] = "read-only"
			if opened {
				m["tree"] = "read-only; new entries in " + s.OpenDir
			}
		}
	}
	return m
}

// dataPipe returns the read end of a pipe holding data, which must fit in
// the pipe's buffer (64 KiB on Linux).
func dataPipe(filter []byte) (*os.File, error) {
	rd, wr, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = wr.Write(filter)
	if cerr := wr.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		rd.Close()
		return nil, err
	}
	return rd, nil
}

// closeRangeCloexec is CLOSE_RANGE_CLOEXEC from <linux/close_range.h>.
const closeRangeCloexec = 1 << 2

// closeOnExec marks every descriptor of this process above 2 close-on-exec.
// A Go program opens its files close-on-exec, but descriptors it inherited
// are not, and a child (prlimit, then bwrap, then the command) would get
// them all.
func closeOnExec() {
	if unix.CloseRange(3, ^uint(0), closeRangeCloexec) == nil {
		return
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC)
		}
	}
}

// waitExit waits until process pid has exited, without reaping it.
func waitExit(pid int) error {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err
		}
	}
}

// oomKills returns the kernel's count of OOM kills.
func oomKills() (uint64, bool) {
	f, err := os.Open("/proc/vmstat")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "oom_kill "); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

package executor

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/splice"
	"github.com/sealgate/sealgate/services/executor/gotest"
	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Go test jobs build each package's test binary once per tree and run it
// directly — `go test -c`, then the binary with -test.v=test2json — the
// way `go test -json` runs it, with three differences that are the point:
//   - the tree is shown at one fixed path (srcRoot) whatever copy of it a
//     job runs in, so the build cache, whose keys hold a package's
//     directory, serves every copy and every run of the gate;
//   - only the build, which runs the compiler and no code of the tree,
//     may write the gate's build cache; tested code never sees it, so it
//     cannot plant cache entries that change a later build (it gets an
//     empty private cache of its own if it runs the go command);
//   - the gate sees the test binary's own exit status (the Go runtime's 2
//     for a fatal error or a panic) instead of go test's 1, and converts
//     its output with `go tool test2json` outside the sandbox.

// Paths inside the bwrap sandbox.
const (
	// srcRoot is where every job's tree appears.
	srcRoot = "/src"
	// binRoot holds the run's test binaries, read-only.
	binRoot = "/sealgate/bin"
	// outRoot is a job's directory outside its tree (reports, profiles,
	// build outputs), writable.
	outRoot = "/sealgate/out"
)

// Bounds of what the gate reads from a job.
const (
	maxProfileBytes = 256 << 20
	maxReportBytes  = 64 << 20
	maxListBytes    = 16 << 20
	maxBinaryBytes  = 4 << 30
)

// view is where a job's tree, the run's binaries and the job's output
// directory are for the process, and the mounts that put them there. In
// mode none they are the host paths.
type view struct {
	root, bin, out string
	mounts         []sandbox.Mount
	moved          bool
}

func (e *Executor) viewOf(w *Workspace, dir, out string) view {
	if e.Sandbox.Name() != sandbox.NameBwrap {
		return view{root: dir, bin: w.binDir(), out: out}
	}
	v := view{root: srcRoot, bin: binRoot, out: outRoot, moved: true,
		mounts: []sandbox.Mount{{Source: w.binDir(), Target: binRoot}}}
	if out != "" {
		v.mounts = append(v.mounts, sandbox.Mount{Source: out, Target: outRoot, Writable: true})
	}
	return v
}

// inTree is the path, for the process, of rel in the job's tree.
func (v view) inTree(rel ...string) string {
	return path.Join(append([]string{filepath.ToSlash(v.root)}, rel...)...)
}

// goBin is a test binary built once per run for one package of one tree.
type goBin struct {
	// name is the binary's file name in the workspace's bin directory; ""
	// when the build failed or the package has no test files.
	name string
	// sha256 is the binary's digest: what ran is on the ledger.
	sha256 string
	// failed says why the build failed, in the compiler's own words.
	failed string
	// noTests: the package has no test files.
	noTests bool
	// run is the build's process, as evidence; stream its build events.
	run    jobs.Run
	stream []byte
}

// goTarget is a package of a tree a test binary is built for.
type goTarget struct {
	variant    string // the job's tree and the files laid over it
	module     string // the module's directory in the tree
	pkg        string // the package's directory relative to the module ("./x", ".")
	importPath string
	cover      []string // -coverpkg, for a coverage binary
}

func (t goTarget) key() string {
	return strings.Join([]string{t.variant, t.module, t.pkg, strings.Join(t.cover, ",")}, "\x00")
}

// binDir is where the workspace keeps its test binaries.
func (w *Workspace) binDir() string { return filepath.Join(w.dir, "bin") }

// variant returns the pristine tree a job starts from: its tree with its
// transplanted and spliced files laid over it, made once per workspace.
func (w *Workspace) variant(s *jobs.Spec) (key, dir string, err error) {
	return w.variantOf(variantKey(s.Tree, s.Transplant, s.Splice, s.Drop, s.Restore))
}

// Separators of a variant key: no path of a tree holds a control
// character (the checkout refuses them).
const (
	listSep = "\x1f"
	fileSep = "\x1e"
)

// variantKey names a tree with files transplanted, spliced, dropped and
// restored, in that order: "tree" alone when nothing is laid over it.
func variantKey(tree string, lists ...[]string) string {
	empty := true
	parts := []string{tree}
	for _, l := range lists {
		empty = empty && len(l) == 0
		parts = append(parts, strings.Join(slices.Sorted(slices.Values(l)), fileSep))
	}
	if empty {
		return tree
	}
	return strings.Join(parts, listSep)
}

// variantOf returns the pristine tree a variant key names, made once.
func (w *Workspace) variantOf(key string) (string, string, error) {
	tree, lists := splitVariant(key)
	src := w.tree(tree)
	if src == "" {
		return "", "", fmt.Errorf("unknown tree %q", tree)
	}
	if key == tree {
		return tree, src, nil
	}
	files, spl, drop, restore := lists[0], lists[1], lists[2], lists[3]
	w.mu.Lock()
	defer w.mu.Unlock()
	if d := w.tree(key); d != "" {
		return key, d, nil
	}
	d := filepath.Join(w.dir, fmt.Sprintf("variant-%d", w.trees()))
	if err := copyTree(d, src); err != nil {
		return "", "", err
	}
	if err := w.layOver(d, files); err != nil {
		os.RemoveAll(d)
		return "", "", err
	}
	if err := w.splice(d, spl); err != nil {
		os.RemoveAll(d)
		return "", "", err
	}
	for _, f := range drop {
		if err := os.Remove(filepath.Join(d, filepath.FromSlash(f))); err != nil && !errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(d)
			return "", "", err
		}
	}
	if err := w.restore(d, restore); err != nil {
		os.RemoveAll(d)
		return "", "", err
	}
	w.setTree(key, d)
	return key, d, nil
}

// restore puts each of files back into dir as the baseline has it, or
// removes it where the baseline has none. An entry "file#name" puts back
// only the baseline's version of one declaration of a Go file
// (restoreDecls).
func (w *Workspace) restore(dir string, files []string) error {
	decls := map[string][]string{}
	for _, f := range files {
		if file, name, ok := strings.Cut(f, "#"); ok {
			decls[file] = append(decls[file], name)
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(f))
		b, err := jobfile.Read(w.tree(jobs.TreeBaseline), f, maxBinaryBytes)
		switch {
		case errors.Is(err, os.ErrNotExist):
			if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			continue
		case err != nil:
			return fmt.Errorf("restore %s: %w", f, err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if fi, err := os.Lstat(dst); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("restore %s: the destination is not a regular file", f)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	for _, file := range slices.Sorted(maps.Keys(decls)) {
		if err := w.restoreDecls(dir, file, decls[file]); err != nil {
			return err
		}
	}
	return nil
}

// restoreDecls lays the baseline's versions of the named declarations
// over file in dir (splice.Restore), reading them from the baseline's
// non-test Go files of file's directory.
func (w *Workspace) restoreDecls(dir, file string, names []string) error {
	cur, err := jobfile.Read(dir, file, maxReportBytes)
	if err != nil {
		return fmt.Errorf("restore declarations of %s: %w", file, err)
	}
	baseDir := filepath.Join(w.tree(jobs.TreeBaseline), filepath.FromSlash(path.Dir(file)))
	entries, err := os.ReadDir(baseDir)
	if err != nil {
		return fmt.Errorf("restore declarations of %s: the baseline's package: %w", file, err)
	}
	base := map[string][]byte{}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		rel := path.Join(path.Dir(file), n)
		b, err := jobfile.Read(w.tree(jobs.TreeBaseline), rel, maxReportBytes)
		if err != nil {
			return fmt.Errorf("restore declarations of %s: %w", file, err)
		}
		base[rel] = b
	}
	out, err := splice.Restore(cur, base, names)
	if err != nil {
		return fmt.Errorf("the baseline's versions of %s in %s cannot be put back: %w", strings.Join(names, ", "), file, err)
	}
	return os.WriteFile(filepath.Join(dir, filepath.FromSlash(file)), out, 0o644)
}

// splice writes each of files into dir as its baseline version with the
// declarations the patch adds to it; an entry "file#TestX" also replaces
// TestX with the patch's version of it, "file#+TestA,TestB" lays the
// patch's versions of TestA and TestB beside the baseline's, "file#*S,T"
// (which "+TestA,…" may follow) the patch's methods of the gocheck suites
// S and T registered beside the baseline's, and "file#~S,T" (after "*…",
// before "+TestA,…" or ":TestX", which replaces TestX) the patch's
// methods of the testify suites S and T on their wrappers
// (jobs.Spec.Splice).
func (w *Workspace) splice(dir string, entries []string) error {
	for _, entry := range entries {
		e := parseSpliceEntry(entry)
		f := e.file
		base, err := jobfile.Read(w.tree(jobs.TreeBaseline), f, maxReportBytes)
		if err != nil {
			return fmt.Errorf("splice %s: the baseline version: %w", f, err)
		}
		patched, err := jobfile.Read(w.tree("patch"), f, maxReportBytes)
		if err != nil {
			return fmt.Errorf("splice %s: the patch's version: %w", f, err)
		}
		if e.alone != "" {
			// Of what the patch adds, only the test alone and what it
			// needs: the tests it adds beside it for helpers the fix adds
			// do not build on the baseline.
			pruned, err := splice.Prune(map[string][]byte{f: patched}, e.alone)
			if err != nil {
				return fmt.Errorf("the declarations the patch adds to %s cannot be laid over its baseline version: %w", f, err)
			}
			patched = pruned[f]
		}
		out, _, err := splice.GoLaying(base, patched, e.Laying)
		if err != nil {
			return fmt.Errorf("the declarations the patch adds to %s cannot be laid over its baseline version: %w", f, err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// spliceEntry is one entry of jobs.Spec.Splice, read.
type spliceEntry struct {
	file  string
	alone string // "file#=TestX": of what the patch adds, TestX alone
	splice.Laying
}

// parseSpliceEntry reads an entry of jobs.Spec.Splice:
//
//	file [ "#" [ "*" types ] [ "~" types ] [ "+" tests | ":" test | "=" test | test ] ]
func parseSpliceEntry(entry string) spliceEntry {
	f, rest, _ := strings.Cut(entry, "#")
	e := spliceEntry{file: f}
	types := func(mark string) []string {
		r, ok := strings.CutPrefix(rest, mark)
		if !ok {
			return nil
		}
		i := strings.IndexAny(r, "~+:=")
		if i < 0 {
			i = len(r)
		}
		rest = r[i:]
		return strings.Split(r[:i], ",")
	}
	e.Register = types("*")
	e.Wrap = types("~")
	switch {
	case strings.HasPrefix(rest, "+"):
		e.Beside = strings.Split(rest[1:], ",")
	case strings.HasPrefix(rest, "="):
		e.alone = rest[1:]
	case strings.HasPrefix(rest, ":"):
		e.Replace = []string{rest[1:]}
	case rest != "":
		e.Replace = []string{rest}
	}
	return e
}

// layOver writes each of files, as the patch's tree has it, into dir. The
// entries "file#TestX" are the Go test files the patch adds to a package,
// laid over cut down to TestX and the declarations it needs in any of
// them (splice.Prune): a new test alone, as it runs on the baseline code.
func (w *Workspace) layOver(dir string, files []string) error {
	contents := map[string][]byte{}
	pruned := map[string]map[string][]byte{}
	for _, entry := range files {
		f, keep, cut := strings.Cut(entry, "#")
		b, err := jobfile.Read(w.tree("patch"), f, maxReportBytes)
		if err != nil {
			return fmt.Errorf("transplant %s: %w", f, err)
		}
		if !cut {
			contents[f] = b
			continue
		}
		if pruned[keep] == nil {
			pruned[keep] = map[string][]byte{}
		}
		pruned[keep][f] = b
	}
	for _, keep := range slices.Sorted(maps.Keys(pruned)) {
		out, err := splice.Prune(pruned[keep], keep)
		if err != nil {
			return fmt.Errorf("transplant %s alone: %w", keep, err)
		}
		maps.Copy(contents, out)
	}
	for _, f := range slices.Sorted(maps.Keys(contents)) {
		b := contents[f]
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if fi, err := os.Lstat(dst); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("transplant %s: the destination is not a regular file", f)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the pristine tree src into dst, which must not exist.
func copyTree(dst, src string) error {
	return os.CopyFS(dst, os.DirFS(src))
}

// jobTree makes a fresh copy of a variant for one job and, beside it, the
// job's output directory. cleanup removes both.
func (w *Workspace) jobTree(variantDir string) (dir, out string, cleanup func(), err error) {
	dir = w.jobDir()
	out = dir + ".out"
	cleanup = func() {
		os.RemoveAll(dir)
		os.RemoveAll(out)
	}
	if err := copyTree(dir, variantDir); err != nil {
		return "", "", cleanup, fmt.Errorf("prepare the job tree: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", "", cleanup, err
	}
	return dir, out, cleanup, nil
}

// buildTree is where a build sees its tree: the variant's pristine tree
// itself, read-only under bwrap (goProc.readOnlyTree; the go command
// writes nothing into the tree: its outputs go to -o, its work files to
// its own temporary directory), and a fresh output directory. No copy per
// build, and without bwrap the source paths compiled into the binary
// (runtime.Caller's, by which tests find their fixtures) name a tree that
// stays for the whole run, not a copy removed after the build.
func (w *Workspace) buildTree(variantDir string) (dir, out string, cleanup func(), err error) {
	out = w.jobDir() + ".out"
	cleanup = func() { os.RemoveAll(out) }
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", "", cleanup, err
	}
	return variantDir, out, cleanup, nil
}

// runTree is where one run of a test binary sees its tree: under bwrap,
// which binds the tree read-only for a test run (sandbox.Spec.ReadOnlyDir),
// the variant's pristine tree itself — no run can change it, and a copy
// per run (a mutant job makes two per test) cost more than the tests on a
// repository of a few hundred files; in mode none, where nothing is
// read-only, a fresh copy (jobTree). out is a fresh output directory
// either way.
func (e *Executor) runTree(w *Workspace, variantDir string) (dir, out string, cleanup func(), err error) {
	if e.Sandbox.Name() != sandbox.NameBwrap {
		return w.jobTree(variantDir)
	}
	out = w.jobDir() + ".out"
	cleanup = func() { os.RemoveAll(out) }
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", "", cleanup, err
	}
	return variantDir, out, cleanup, nil
}

// goEnv is the environment of a Go process: named variables only. A build
// gets the gate's build cache; a test process gets none (the go command
// then uses a private one under its HOME).
func (e *Executor) goEnv(build bool) []string {
	env := []string{
		"PATH=" + filepath.Join(e.Go.Root, "bin") + ":/usr/bin:/bin",
		"GOROOT=" + e.Go.Root,
		"GOMODCACHE=" + e.Go.ModCache,
		"GOPROXY=off",
		"GOTOOLCHAIN=local",
		"GOENV=off",
		"GOTELEMETRY=off",
		"GOFLAGS=",
		"LC_ALL=C",
	}
	if cfg := e.goConfigDir(); cfg != "" {
		// The go command's telemetry mode lives in a file under the user
		// configuration directory, not in GOTELEMETRY: without it every
		// go command in the sandbox (no /proc) prints "failed to start
		// telemetry sidecar" first on stderr, hiding the real error.
		env = append(env, "XDG_CONFIG_HOME="+cfg)
	}
	if build {
		env = append(env, "GOCACHE="+e.Go.Cache)
	}
	return env
}

// goConfigDir returns a directory holding go/telemetry/mode set to off,
// made once under the executor's scratch directory, or "" when it cannot
// be made (the message then stays: noise, not a failure).
func (e *Executor) goConfigDir() string {
	e.cfgOnce.Do(func() {
		dir := filepath.Join(e.Scratch, "goconfig")
		mode := filepath.Join(dir, "go", "telemetry", "mode")
		if err := os.MkdirAll(filepath.Dir(mode), 0o755); err != nil {
			return
		}
		if err := os.WriteFile(mode, []byte("off\n"), 0o644); err != nil {
			return
		}
		e.cfgDir = dir
	})
	return e.cfgDir
}

// goProc runs one Go process of a job in the sandbox: a build (the gate's
// cache writable) or a test binary (no cache, the binaries read-only).
type goProc struct {
	dir, out string // host paths of the tree copy and the output directory
	workdir  string // the working directory relative to the tree ("" = root)
	argv     []string
	build    bool
	// readOnlyTree binds the tree read-only for a build too (a test
	// binary's run always has it read-only): set when dir is a pristine
	// tree, not a copy of the job's own.
	readOnlyTree bool
	env          []string
	timeout      time.Duration
	// stderrApart keeps stderr out of the stream (go list's JSON).
	stderrApart bool
	// elsewhere runs a test binary Elsewhere (sandbox.Spec), with the
	// environment of a machine without the Go toolchain: PATH without it,
	// none of the go command's variables.
	elsewhere bool
}

// runGo runs p and accounts for it in a; stdout and stderr are one stream.
func (e *Executor) runGo(ctx context.Context, w *Workspace, a *Answer, p goProc) (procResult, error) {
	v := e.viewOf(w, p.dir, p.out)
	argv := slices.Clone(p.argv)
	if argv[0] == "go" {
		argv[0] = filepath.Join(e.Go.Root, "bin", "go")
	}
	if p.workdir != "" && p.workdir != "." {
		argv = append([]string{"/bin/sh", "-c", `cd "$1" && shift && exec "$@"`, "sh", v.inTree(p.workdir)}, argv...)
	}
	limit := e.MaxStreamBytes
	if limit == 0 {
		limit = 64 << 20
	}
	stream := &capped{max: limit}
	var stderr io.Writer = stream
	errBuf := &capped{max: 1 << 20}
	if p.stderrApart {
		stderr = errBuf
	}
	ro := existing(e.Go.Root, e.Go.ModCache, e.goConfigDir())
	var rw []string
	if p.build {
		rw = existing(e.Go.Cache)
	}
	if !v.moved {
		ro = append(ro, existing(w.binDir())...)
		if p.out != "" {
			rw = append(rw, p.out)
		}
	}
	l := w.Limits
	l.Timeout = p.timeout
	env := e.goEnv(p.build)
	if p.elsewhere && !p.build {
		env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"}
	}
	spec := sandbox.Spec{
		Dir: p.dir, Argv: argv, Env: append(env, p.env...), Elsewhere: p.elsewhere,
		ReadOnly: ro, Writable: rw, Mounts: v.mounts, Limits: l, Stdout: stream, Stderr: stderr,
		// A test binary sees its tree read-only: a test that rewrote a
		// golden file or a fixture would change what a later test of the
		// same process judges by. Its outputs go to the job's output
		// directory, its scratch files to TMPDIR.
		ReadOnlyDir: !p.build || p.readOnlyTree,
	}
	if !p.build {
		// Yet it may create entries in its package's directory, as under
		// go test (a TestMain making its fixture tree there): only the
		// tree's own entries stay read-only, and what it creates is gone
		// with the process.
		spec.OpenDir = cmpOr(p.workdir, ".")
		// It sees no /proc: through /proc/self/cmdline (or exe, comm,
		// maps, mountinfo) code could tell it runs as a test binary under
		// the gate from paths built at run time, which no static probe
		// reads, and be correct only there. Tests that need /proc
		// (validator's abstract-socket test reads /proc/net/unix) fail
		// on both sides: INCONCLUSIVE, never MERGE.
	}
	if v.moved {
		spec.Root = v.root
	}
	res, err := e.Sandbox.Run(ctx, spec)
	if err != nil {
		return procResult{}, err
	}
	a.Started = a.Started || res.Termination != sandbox.NotStarted
	a.Termination, a.ExitCode, a.Sandbox = res.Termination, res.ExitCode, res.Sandbox
	a.Wall += res.Wall
	a.CPU += res.CPU
	if stream.dropped > 0 {
		res.Reason = strings.TrimSpace(res.Reason + fmt.Sprintf(" (%d bytes of output dropped)", stream.dropped))
	}
	return procResult{res: res, stdout: stream.Bytes(), stderr: errBuf.String(), dropped: stream.dropped}, nil
}

// buildTest builds t's test binary, once per workspace: `go test -c` in
// the variant's pristine tree. A failed build is a goBin with failed set, not an
// error; an error means the gate could not try.
func (e *Executor) buildTest(ctx context.Context, w *Workspace, a *Answer, t goTarget, timeout time.Duration) (*goBin, error) {
	return e.buildOnce(ctx, w, a, t, timeout, false)
}

// buildOnce is buildTest; ahead marks a build made before any job asked
// for it (Prebuild): its process is accounted for in the answer of the
// first job that uses the binary, as if that job had built it.
func (e *Executor) buildOnce(ctx context.Context, w *Workspace, a *Answer, t goTarget, timeout time.Duration, ahead bool) (*goBin, error) {
	w.mu.Lock()
	b, ok := w.bins[t.key()]
	if !ok {
		b = &builtBin{}
		w.bins[t.key()] = b
	}
	w.mu.Unlock()
	b.mu.Lock()
	if !b.done {
		if ahead {
			a = &Answer{}
		}
		err := e.build(ctx, w, a, t, b, timeout)
		if err != nil && ctx.Err() != nil {
			// The caller's context ended (the process stops, or the run's
			// message moved to another replica): the build was not tried
			// to its end, so the next job that needs it builds again
			// rather than inherit the cancellation as its answer.
			b.goBin = nil
			b.mu.Unlock()
			return nil, err
		}
		b.err, b.done = err, true
		if ahead {
			b.owed = a
		}
	}
	if owed := b.owed; owed != nil && !ahead {
		b.owed = nil
		a.Started = a.Started || owed.Started
		a.Termination, a.ExitCode, a.Sandbox = owed.Termination, owed.ExitCode, owed.Sandbox
		a.Wall += owed.Wall
		a.CPU += owed.CPU
	}
	b.mu.Unlock()
	if b.err != nil {
		return nil, b.err
	}
	if !ahead && b.run.WallMillis > 0 && !slices.Contains(a.Detail.Runs, b.run) {
		// The build is evidence of every job that uses its binary.
		a.Detail.Runs = append(a.Detail.Runs, b.run)
	}
	return b.goBin, nil
}

// builtBin is a goBin made once: a build that ran to its end, built or
// failed, is kept; one its caller's context cut short is not.
type builtBin struct {
	*goBin
	mu   sync.Mutex
	done bool
	err  error
	// owed is a build made ahead (Prebuild), not yet accounted for in a
	// job's answer.
	owed *Answer
}

// Prebuild builds ahead, up to workers at a time, the test binaries the Go
// claim, prerequisite, edited, counterfactual and coverage jobs of specs
// will run (and those of the jobs their results make due, Spec.Then), in
// plan order, while the jobs run: on a machine of several cores the next
// jobs' builds overlap this job's build and tests instead of following
// them. A job whose binary is being built waits for it; each binary is
// built once (buildTest), and a build that fails is the answer of the jobs
// that need it, as it would have been had they built it. Targets the jobs
// cannot name (a variant that cannot be made) are left to the jobs. It
// returns once every build it started has ended; a build its context cuts
// short is built again by the job that needs it.
func (e *Executor) Prebuild(ctx context.Context, w *Workspace, specs []*jobs.Spec, workers int) {
	type ahead struct {
		t       goTarget
		timeout time.Duration
		spec    *jobs.Spec
	}
	var todo []ahead
	seen := map[string]bool{}
	var add func(s *jobs.Spec)
	add = func(s *jobs.Spec) {
		if s == nil || s.Skip != "" || s.Runner != jobs.RunnerGo {
			return
		}
		switch s.Purpose {
		case jobs.Claim, jobs.Prereq, jobs.Edited, jobs.Counterfactual, jobs.Coverage:
		default:
			return
		}
		if key, _, err := w.variant(s); err == nil {
			t := goTarget{variant: key, module: s.Module, pkg: s.Package, importPath: s.ImportPath}
			if s.Purpose == jobs.Coverage {
				t.cover = s.CoverPkgs
			}
			if !seen[t.key()] {
				seen[t.key()] = true
				todo = append(todo, ahead{t, timeoutOf(s), s})
			}
		}
		add(s.Then)
	}
	for _, s := range specs {
		add(s)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(todo) || ctx.Err() != nil {
					return
				}
				// Errors are the jobs' to meet: each builds again or
				// answers with the failure when it asks for the binary.
				e.ensureModules(ctx, w, todo[i].spec)
				_, _ = e.buildOnce(ctx, w, nil, todo[i].t, todo[i].timeout, true)
			}
		}()
	}
	wg.Wait()
}

// testBuild returns the go command's arguments of every test binary's
// build: `go test -c` linked as `go test` links a binary it runs and
// throws away — no symbol table and no DWARF (-s -w: a third of a small
// package's link) — and without vet, which judges nothing here.
func testBuild() []string {
	return []string{"test", "-json", "-c", "-vet=off", "-ldflags=-s -w"}
}

func (e *Executor) build(ctx context.Context, w *Workspace, a *Answer, t goTarget, b *builtBin, timeout time.Duration) error {
	b.goBin = &goBin{}
	_, src, err := w.variantOf(t.variant)
	if err != nil {
		return err
	}
	dir, out, cleanup, err := w.buildTree(src)
	defer cleanup()
	if err != nil {
		return err
	}
	key := e.binKey(t, e.cacheableTree(w, t.variant, src))
	if ok, err := e.reuse(w, t, key, b.goBin); err != nil || ok {
		return err
	}
	v := e.viewOf(w, dir, out)
	name := fmt.Sprintf("b%03d.test", w.binCount.Add(1)) // written by the build, then stored by digest
	argv := []string{"go"}
	if t.module != "." {
		argv = append(argv, "-C", t.module)
	}
	argv = append(argv, testBuild()...)
	if len(t.cover) > 0 {
		argv = append(argv, "-cover", "-covermode=set", "-coverpkg="+strings.Join(t.cover, ","))
	}
	argv = append(argv, "-o", path.Join(filepath.ToSlash(v.out), name), t.pkg)
	// A build is no test that could hang: it gets four times the job's
	// process limit (a claim's is a quarter of the run's deadline, so the
	// whole run), and the run's deadline still bounds it. The first build
	// on a fresh machine compiles the standard library into the gate's
	// cache: on two loaded cores the demo's took more than its claim's
	// 150 s, and both sides read as unrunnable.
	r, err := e.runGo(ctx, w, a, goProc{dir: dir, out: out, argv: argv, build: true, readOnlyTree: true, timeout: 4 * timeout})
	if err != nil {
		return err
	}
	b.run = jobs.Run{Verdict: "BUILD", ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: max(r.res.Wall.Milliseconds(), 1)}
	b.stream = r.stdout
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 {
		b.failed = fmt.Sprintf("the test build of %s failed (%s, exit %d): %s", t.importPath, r.res.Termination, r.res.ExitCode, buildCause(r.stdout))
		b.run.Reason = b.failed
		return nil
	}
	data, err := jobfile.Read(out, name, maxBinaryBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// go test -c writes nothing for a package without test files.
		b.noTests = true
		b.run.Reason = t.importPath + " has no test files"
		return nil
	case err != nil:
		return fmt.Errorf("the test binary of %s: %w", t.importPath, err)
	}
	if err := w.store(data, b.goBin); err != nil {
		return err
	}
	e.keepBin(key, data)
	b.run.Reason = fmt.Sprintf("built %s's test binary", t.importPath)
	b.run.Binary = b.sha256
	return nil
}

// store keeps a test binary in the workspace's bin directory, named by
// its digest.
func (w *Workspace) store(data []byte, b *goBin) error {
	sum := sha256.Sum256(data)
	b.sha256 = hex.EncodeToString(sum[:])
	b.name = b.sha256[:24] + ".test"
	if err := os.MkdirAll(w.binDir(), 0o755); err != nil {
		return err
	}
	// Named by its digest: a binary already there is this one (the patch
	// side of a claim whose patch changed only test files the baseline's
	// put back builds the baseline's binary again). Writing it again would
	// open a file of mode 0111 for writing, which only root may do: a
	// non-root executor (the image's user) would fail the job.
	p := filepath.Join(w.binDir(), b.name)
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	// Executable, not readable: a test cannot read its own binary (the
	// mutant schemata's switch is compiled in). Written beside its name
	// and renamed: two builds of one binary at once (Prebuild) both end
	// with it whole.
	f, err := os.CreateTemp(w.binDir(), ".store-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o111)
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// errorsIsNotExist reports a missing file.
func errorsIsNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }

// isChangedGoSource reports a Go source file the patch adds or changes.
func isChangedGoSource(ch checkout.Change) bool {
	return ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".go")
}

// splitVariant undoes variantKey: the tree and its four lists.
func splitVariant(key string) (string, [4][]string) {
	var lists [4][]string
	parts := strings.Split(key, listSep)
	for i := 1; i < len(parts) && i <= 4; i++ {
		if parts[i] != "" {
			lists[i-1] = strings.Split(parts[i], fileSep)
		}
	}
	return parts[0], lists
}

// buildCause finds the real cause of a failed build in the go command's
// output: the build-output of the failing packages (JSON with -json),
// without the "# pkg" headers and the go command's own noise, else the
// first lines that are not noise.
func buildCause(out []byte) string {
	var lines []string
	rep, err := gotest.Read(bytes.NewReader(out))
	if err == nil {
		for _, p := range rep.FailedBuilds() {
			if bo := rep.Builds[p]; bo != nil {
				lines = append(lines, strings.Split(bo.Output.Text, "\n")...)
			}
		}
	}
	if len(lines) == 0 {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
	}
	var keep []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "{") || isGoNoise(l) {
			continue
		}
		keep = append(keep, l)
		if len(keep) == 3 {
			break
		}
	}
	if len(keep) == 0 {
		return "no message"
	}
	return jobfile.Excerpt(strings.Join(keep, "; "))
}

// isGoNoise reports a line the go command prints that never is the cause
// of a failure.
func isGoNoise(l string) bool {
	return strings.HasPrefix(l, "failed to start telemetry sidecar") || strings.HasPrefix(l, "go: downloading ")
}

// testArgs are the flags every test binary run gets, as go test -json
// passes them.
func testArgs(timeout time.Duration) []string {
	// The binary's own alarm fires first, so a hang is named by the test
	// that hung rather than by a kill.
	alarm := max(timeout*9/10, timeout-10*time.Second)
	return []string{"-test.v=test2json", "-test.paniconexit0", "-test.count=1", "-test.timeout=" + alarm.String()}
}

// runTest runs a built test binary in the job's tree copy and returns its
// output as a test2json stream.
func (e *Executor) runTest(ctx context.Context, w *Workspace, a *Answer, b *goBin, t goTarget, dir, out string, args []string, env []string, timeout time.Duration) (stream []byte, r procResult, err error) {
	return e.runTestAt(ctx, w, a, b, t, dir, out, args, env, false, timeout)
}

// runTestAt is runTest, Elsewhere (sandbox.Spec) when elsewhere is set.
func (e *Executor) runTestAt(ctx context.Context, w *Workspace, a *Answer, b *goBin, t goTarget, dir, out string, args []string, env []string, elsewhere bool, timeout time.Duration) (stream []byte, r procResult, err error) {
	v := e.viewOf(w, dir, out)
	argv := append([]string{path.Join(filepath.ToSlash(v.bin), b.name)}, testArgs(timeout)...)
	argv = append(argv, args...)
	r, err = e.runGo(ctx, w, a, goProc{dir: dir, out: out, workdir: path.Join(t.module, t.pkg), argv: argv, env: env, elsewhere: elsewhere, timeout: timeout})
	if err != nil {
		return nil, r, err
	}
	if r.dropped > 0 {
		return nil, r, nil
	}
	stream, err = e.test2json(ctx, t.importPath, r.stdout, r.res)
	return stream, r, err
}

// test2json converts a test binary's -test.v=test2json output into the
// `go test -json` stream, with go's own converter run outside the sandbox.
// The package's final event is the one the exit status gives, as `go test`
// makes it: pass on exit 0 (skip when nothing but skips ran), else fail.
func (e *Executor) test2json(ctx context.Context, importPath string, raw []byte, res sandbox.Result) ([]byte, error) {
	tool, err := e.test2jsonTool(ctx)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, tool, "-t", "-p", importPath)
	cmd.Stdin = bytes.NewReader(raw)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + e.Scratch, "XDG_CONFIG_HOME=" + e.goConfigDir(), "GOTELEMETRY=off"}
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go tool test2json: %v: %s", err, firstLine(stderr.String()))
	}
	lines := bytes.SplitAfter(bytes.TrimRight(stdout.Bytes(), "\n"), []byte("\n"))
	final := ""
	if n := len(lines); n > 0 {
		var ev struct {
			Action, Package, Test string
		}
		if json.Unmarshal(lines[n-1], &ev) == nil && ev.Test == "" && ev.Package == importPath &&
			(ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip") {
			final = ev.Action
			lines = lines[:n-1]
		}
	}
	action := "fail"
	if res.Termination == sandbox.Exited && res.ExitCode == 0 {
		action = "pass"
		if final == "skip" {
			action = "skip"
		}
	}
	ev, err := json.Marshal(struct {
		Time    string
		Action  string
		Package string
		Elapsed float64
	}{time.Now().UTC().Format(time.RFC3339Nano), action, importPath, res.Wall.Round(time.Millisecond).Seconds()})
	if err != nil {
		return nil, err
	}
	out := bytes.Join(lines, nil)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(append(out, ev...), '\n'), nil
}

// test2jsonTool returns the toolchain's test2json: the distribution's
// prebuilt one, or (Go 1.24 and later build tools on demand) one built
// once per toolchain into the tools directory, where later runs and other
// processes find it: a build links for a third of a second, which every
// verification with a fresh state directory paid.
func (e *Executor) test2jsonTool(ctx context.Context) (string, error) {
	e.toolMu.Lock()
	defer e.toolMu.Unlock()
	if e.tool != "" || e.toolErr != nil {
		return e.tool, e.toolErr
	}
	prebuilt := filepath.Join(e.Go.Root, "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH, "test2json")
	if fi, err := os.Stat(prebuilt); err == nil && fi.Mode().IsRegular() {
		e.tool = prebuilt
		return e.tool, nil
	}
	roots := []string{filepath.Join(e.Scratch, "tools")}
	if e.Tools != "" {
		// The scratch directory stands in when the shared one cannot
		// be made (a read-only home).
		roots = append([]string{e.Tools}, roots...)
	}
	var last error
	for _, root := range roots {
		made, err := e.buildTest2json(ctx, root)
		if !made {
			last = err
			continue
		}
		if e.tool == "" {
			return "", err
		}
		return e.tool, nil
	}
	return "", last
}

// buildTest2json finds or builds test2json under root, setting e.tool or,
// when the toolchain cannot build it, e.toolErr. made reports that root
// was usable: the tool is there, or the error is the build's (kept in
// e.toolErr unless the context cut it short).
func (e *Executor) buildTest2json(ctx context.Context, root string) (made bool, err error) {
	dir := filepath.Join(root, e.toolchainKey())
	out := filepath.Join(dir, "test2json")
	if fi, err := os.Stat(out); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o100 != 0 {
		e.tool = out
		return true, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("build go's test2json: %w", err)
	}
	// Built beside its place and renamed into it: a process that finds
	// it finds it whole, and two that build at once both succeed.
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return false, fmt.Errorf("build go's test2json: %w", err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, filepath.Join(e.Go.Root, "bin", "go"), "build", "-o", filepath.Join(tmp, "test2json"), "cmd/test2json")
	// Its own build cache, which no sandboxed build writes: test2json runs
	// outside the sandbox, so it is built from the toolchain's sources
	// alone, never from the cache tested code's builds write.
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + e.Scratch, "GOROOT=" + e.Go.Root, "GOCACHE=" + filepath.Join(root, "gocache"),
		"GOTOOLCHAIN=local", "GOENV=off", "GOFLAGS=", "GOTELEMETRY=off", "XDG_CONFIG_HOME=" + e.goConfigDir(), "CGO_ENABLED=0"}
	if b, err := cmd.CombinedOutput(); err != nil {
		err = fmt.Errorf("build go's test2json: %v: %s", err, jobfile.Excerpt(string(b)))
		if ctx.Err() != nil {
			// Cut short: the next caller tries again.
			return true, err
		}
		// Kept: the toolchain cannot build it.
		e.toolErr = err
		return true, err
	}
	if err := os.Rename(filepath.Join(tmp, "test2json"), out); err != nil {
		return false, fmt.Errorf("build go's test2json: %w", err)
	}
	e.tool = out
	return true, nil
}

// toolchainKey names the toolchain the tools are built with: its GOROOT,
// its VERSION file and its go command's size and time, so that a
// toolchain installed anew over the old one gets its own tools.
func (e *Executor) toolchainKey() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s/%s\x00", e.Go.Root, runtime.GOOS, runtime.GOARCH)
	if b, err := os.ReadFile(filepath.Join(e.Go.Root, "VERSION")); err == nil {
		h.Write(b)
	}
	if fi, err := os.Stat(filepath.Join(e.Go.Root, "bin", "go")); err == nil {
		fmt.Fprintf(h, "\x00%d %d", fi.Size(), fi.ModTime().UnixNano())
	}
	return "go-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// listTests lists the tests of a built binary with -test.list.
func (e *Executor) listTests(ctx context.Context, w *Workspace, a *Answer, b *goBin, t goTarget, dir string, timeout time.Duration) ([]string, error) {
	v := e.viewOf(w, dir, "")
	r, err := e.runGo(ctx, w, a, goProc{dir: dir, workdir: path.Join(t.module, t.pkg), timeout: timeout,
		argv: []string{path.Join(filepath.ToSlash(v.bin), b.name), "-test.list", "."}})
	if err != nil {
		return nil, err
	}
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 {
		return nil, fmt.Errorf("listing the tests of %s failed (%s, exit %d): %s", t.importPath, r.res.Termination, r.res.ExitCode, buildCause(r.stdout))
	}
	var tests []string
	for _, line := range strings.Split(string(r.stdout), "\n") {
		if name := strings.TrimSpace(line); jobs.IsTestName(name) {
			tests = append(tests, name)
		}
	}
	slices.Sort(tests)
	return slices.Compact(tests), nil
}

// goPackage is a package of a Go suite, as go list names it.
type goPackage struct {
	ImportPath   string
	Dir          string
	TestGoFiles  []string
	XTestGoFiles []string
	// Imports, TestImports and XTestImports: what the package, its test
	// files and its external test package import (vet's importers).
	Imports, TestImports, XTestImports []string
}

// listPackages lists the packages pattern names in module of a tree copy
// (go list -e: broken packages are listed too, and fail their build);
// readOnly when dir is a pristine tree (buildTree), not a job's copy.
func (e *Executor) listPackages(ctx context.Context, w *Workspace, a *Answer, dir, module, pattern string, readOnly bool, timeout time.Duration) ([]goPackage, error) {
	argv := []string{"go"}
	if module != "." {
		argv = append(argv, "-C", module)
	}
	argv = append(argv, "list", "-e", "-json=ImportPath,Dir,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports", pattern)
	r, err := e.runGo(ctx, w, a, goProc{dir: dir, argv: argv, build: true, readOnlyTree: readOnly, timeout: timeout, stderrApart: true})
	if err != nil {
		return nil, err
	}
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 || r.dropped > 0 {
		return nil, fmt.Errorf("go list %s failed (%s, exit %d): %s", pattern, r.res.Termination, r.res.ExitCode, buildCause([]byte(r.stderr)))
	}
	dec := json.NewDecoder(bytes.NewReader(r.stdout))
	var out []goPackage
	for {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("go list %s: its output does not parse: %v", pattern, err)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(x, y goPackage) int { return strings.Compare(x.ImportPath, y.ImportPath) })
	return out, nil
}

// relPackage is a listed package's directory relative to its module, as
// go test takes it ("./x", "."), from its directory inside the sandbox.
func relPackage(v view, module, dir string) (string, bool) {
	base := v.inTree(module)
	rel, ok := strings.CutPrefix(filepath.ToSlash(dir), base)
	if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
		return "", false
	}
	if rel == "" {
		return ".", true
	}
	return "." + rel, true
}

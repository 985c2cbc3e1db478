package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// proc is one process of a multi-process job (coverage, mutant).
type proc struct {
	dir     string   // the sandbox's tree
	workdir string   // working directory inside it ("" = dir)
	argv    []string // argv[0] "go" means the toolchain's go
	env     []string // added to the job environment
	ro      []string // extra read-only binds
	rw      []string // extra writable binds (outside the tree)
	path    []string // directories put before the job environment's PATH
	timeout time.Duration
}

type procResult struct {
	res    sandbox.Result
	stdout []byte
	stderr string
}

// start runs one process of a job in the sandbox and accounts for it in a.
func (e *Executor) start(ctx context.Context, w *Workspace, a *Answer, p proc) (procResult, error) {
	stdout := &capped{max: 16 << 20}
	stderr := &capped{max: 1 << 20}
	argv := slices.Clone(p.argv)
	if argv[0] == "go" {
		argv[0] = filepath.Join(e.Go.Root, "bin", "go")
	}
	if p.workdir != "" && p.workdir != p.dir {
		// The sandbox starts in the tree's root; the test binary must run
		// in its package's directory, as go test runs it.
		argv = append([]string{"/bin/sh", "-c", `cd "$1" && shift && exec "$@"`, "sh", p.workdir}, argv...)
	}
	l := w.Limits
	l.Timeout = p.timeout
	spec := sandbox.Spec{
		Dir: p.dir, Argv: argv, Env: append(e.envWithPath(p.path), p.env...),
		ReadOnly: append(existing(e.Go.Root, e.Go.ModCache), p.ro...), Writable: append(existing(e.Go.Cache), p.rw...),
		Limits: l, Stdout: stdout, Stderr: stderr,
	}
	res, err := e.Sandbox.Run(ctx, spec)
	if err != nil {
		return procResult{}, err
	}
	a.Started = a.Started || res.Termination != sandbox.NotStarted
	a.Termination, a.ExitCode, a.Sandbox = res.Termination, res.ExitCode, res.Sandbox
	a.Wall += res.Wall
	a.CPU += res.CPU
	a.Detail.Runs = append(a.Detail.Runs, jobs.Run{
		Verdict: strings.Join(p.argv[max(0, len(p.argv)-3):], " "), Reason: firstLine(stderr.String()),
		ExitCode: res.ExitCode, Termination: res.Termination.String(), WallMillis: res.Wall.Milliseconds(),
	})
	return procResult{res: res, stdout: stdout.Bytes(), stderr: stderr.String()}, nil
}

// executeCoverage builds a package's coverage test binary once, lists its
// tests and runs each alone with its own profile.
func (e *Executor) executeCoverage(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}, Profiles: map[string]string{}}}
	fail := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	dir := w.jobDir()
	defer os.RemoveAll(dir)
	if err := w.prepare(dir, s); err != nil {
		return fail(jobs.OutcomeUnrunnable, "prepare the job tree: %v", err)
	}
	out := filepath.Join(dir, ".sealgate-cover")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fail(jobs.OutcomeUnrunnable, "%v", err)
	}
	bin := filepath.Join(out, "cover.test")
	timeout := time.Duration(s.TimeoutSec) * time.Second
	build := []string{"go"}
	if s.Module != "." {
		build = append(build, "-C", filepath.FromSlash(s.Module))
	}
	build = append(build, "test", "-c", "-cover", "-covermode=set", "-coverpkg="+strings.Join(s.CoverPkgs, ","), "-o", bin, s.Package)
	r, err := e.start(ctx, w, a, proc{dir: dir, argv: build, timeout: timeout})
	if err != nil {
		return fail(jobs.OutcomeUnrunnable, "sandbox: %v", err)
	}
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 {
		return fail(jobs.OutcomeUnrunnable, "the coverage build of %s failed (%s, exit %d): %s", s.Package, r.res.Termination, r.res.ExitCode, firstLine(r.stderr))
	}
	if _, err := os.Stat(bin); err != nil {
		// go test -c writes nothing for a package without test files.
		a.Cases = []jobs.Case{}
		return fail(jobs.OutcomePass, "%s has no test files", s.Package)
	}
	pkgDir := filepath.Join(dir, filepath.FromSlash(s.Module), filepath.FromSlash(s.Package))
	r, err = e.start(ctx, w, a, proc{dir: dir, workdir: pkgDir, argv: []string{bin, "-test.list", "."}, timeout: timeout})
	if err != nil {
		return fail(jobs.OutcomeUnrunnable, "sandbox: %v", err)
	}
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 {
		return fail(jobs.OutcomeUnrunnable, "listing the tests of %s failed (%s, exit %d)", s.Package, r.res.Termination, r.res.ExitCode)
	}
	var tests []string
	for _, line := range strings.Split(string(r.stdout), "\n") {
		if name := strings.TrimSpace(line); jobs.IsTestName(name) {
			tests = append(tests, name)
		}
	}
	slices.Sort(tests)
	tests = slices.Compact(tests)
	missing := 0
	for i, t := range tests {
		prof := filepath.Join(out, "p"+strconv.Itoa(i)+".out")
		r, err := e.start(ctx, w, a, proc{dir: dir, workdir: pkgDir, timeout: timeout,
			argv: []string{bin, "-test.run", "^" + t + "$", "-test.count=1", "-test.coverprofile=" + prof}})
		if err != nil {
			return fail(jobs.OutcomeUnrunnable, "sandbox: %v", err)
		}
		outcome := "fail"
		if r.res.Termination == sandbox.Exited && r.res.ExitCode == 0 {
			outcome = "pass"
		}
		key := s.ImportPath + "." + t
		a.Cases = append(a.Cases, jobs.Case{Name: key, Outcome: outcome})
		b, err := os.ReadFile(prof)
		if err != nil || e.Blobs == nil {
			missing++
			continue
		}
		d, err := e.Blobs.Put(ctx, b)
		if err != nil {
			return fail(jobs.OutcomeUnrunnable, "store the profile of %s: %v", t, err)
		}
		a.Detail.Profiles[key] = d
		a.Artefacts = append(a.Artefacts, d)
	}
	if missing > 0 {
		return fail(jobs.OutcomeUnrunnable, "%d of %d tests of %s left no coverage profile", missing, len(tests), s.Package)
	}
	return fail(jobs.OutcomePass, "%d tests of %s run alone, one profile each", len(tests), s.Package)
}

// Schemata adds the tree of the mutant schemata to the workspace: the
// oracle tree with files (repository paths) replaced. It is built once per
// run; mutant jobs then run in copies of it.
func (w *Workspace) Schemata(files map[string][]byte) error {
	dir := filepath.Join(w.dir, "pristine-schemata")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.CopyFS(dir, os.DirFS(w.pristine[jobs.TreeOracle])); err != nil {
		return err
	}
	for p, b := range files {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if fi, err := os.Lstat(dst); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("schemata: %s is not a regular file", p)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	w.pristine[treeSchemata] = dir
	w.binaries = map[string]*binary{}
	return nil
}

const treeSchemata = "schemata"

// binary is a test binary built from the schemata tree, with the tests
// that pass against it unmutated and how long each took.
type binary struct {
	path      string
	err       string
	reference map[string]time.Duration
}

// executeMutant runs the tests that reach a mutant's line, one at a time,
// with the mutant switched on, until one fails.
func (e *Executor) executeMutant(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}}}
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	if w.pristine[treeSchemata] == "" {
		return done(jobs.OutcomeStillborn, "no schemata tree was built for this run")
	}
	timeout := time.Duration(s.TimeoutSec) * time.Second
	ran := 0
	for _, t := range s.Targets {
		bin, err := e.schemataBinary(ctx, w, s, t, a)
		if err != nil {
			return done(jobs.OutcomeUnrunnable, "%v", err)
		}
		if bin.err != "" {
			return done(jobs.OutcomeStillborn, "%s", bin.err)
		}
		for _, test := range t.Tests {
			ref, ok := bin.reference[test]
			if !ok {
				continue // fails unmutated: it cannot judge a mutant
			}
			dir := w.jobDir()
			if err := os.CopyFS(dir, os.DirFS(w.pristine[treeSchemata])); err != nil {
				return done(jobs.OutcomeUnrunnable, "prepare the mutant tree: %v", err)
			}
			pkgDir := filepath.Join(dir, filepath.FromSlash(s.Module), filepath.FromSlash(t.Package))
			r, err := e.start(ctx, w, a, proc{dir: dir, workdir: pkgDir, timeout: timeout, ro: []string{filepath.Dir(bin.path)},
				env:  []string{"SEALGATE_MUTANT=" + strconv.Itoa(s.Mutation.ID)},
				argv: []string{bin.path, "-test.run", "^" + test + "$", "-test.count=1"}})
			os.RemoveAll(dir)
			if err != nil {
				return done(jobs.OutcomeUnrunnable, "sandbox: %v", err)
			}
			ran++
			switch {
			case r.res.Termination == sandbox.Exited && r.res.ExitCode == 0:
				continue
			case r.res.Termination == sandbox.Timeout && ref >= timeout/3:
				return done(jobs.OutcomeStillborn, "%s timed out and its reference run took %v of the %v limit", test, ref.Round(time.Millisecond), timeout)
			case r.res.Termination == sandbox.Exited, r.res.Termination == sandbox.Timeout:
				a.Detail.KilledBy = t.ImportPath + "." + test
				return done(jobs.OutcomeKilled, "%s fails with the mutant (%s, exit %d)", test, r.res.Termination, r.res.ExitCode)
			default:
				return done(jobs.OutcomeStillborn, "%s died with the mutant (%s): a harness death is no kill", test, r.res.Termination)
			}
		}
	}
	if ran == 0 {
		return done(jobs.OutcomeStillborn, "no test that reaches the line passes unmutated")
	}
	return done(jobs.OutcomeSurvived, "%d test(s) reaching %s:%d pass with %s", ran, s.Mutation.Path, s.Mutation.Line, s.Mutation.Description)
}

// schemataBinary builds the test binary of target once per run and runs
// each of its reaching tests once unmutated (the reference run).
func (e *Executor) schemataBinary(ctx context.Context, w *Workspace, s *jobs.Spec, t jobs.Target, a *Answer) (*binary, error) {
	key := s.Module + "\x00" + t.Package
	if b := w.binaries[key]; b != nil {
		return b, nil
	}
	b := &binary{reference: map[string]time.Duration{}}
	w.binaries[key] = b
	build := filepath.Join(w.dir, "schemata-build-"+strconv.Itoa(len(w.binaries)))
	if err := os.CopyFS(build, os.DirFS(w.pristine[treeSchemata])); err != nil {
		return nil, err
	}
	b.path = filepath.Join(build, ".sealgate-mutants.test")
	timeout := time.Duration(s.TimeoutSec) * time.Second
	argv := []string{"go"}
	if s.Module != "." {
		argv = append(argv, "-C", filepath.FromSlash(s.Module))
	}
	argv = append(argv, "test", "-c", "-o", b.path, t.Package)
	r, err := e.start(ctx, w, a, proc{dir: build, argv: argv, timeout: 2 * timeout})
	if err != nil {
		return nil, err
	}
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 {
		b.err = fmt.Sprintf("the schemata build of %s failed (%s, exit %d): %s", t.Package, r.res.Termination, r.res.ExitCode, firstLine(r.stderr))
		return b, nil
	}
	if _, err := os.Stat(b.path); err != nil {
		b.err = fmt.Sprintf("the schemata build of %s wrote no test binary", t.Package)
		return b, nil
	}
	// Reference runs: every test that will judge a mutant, unmutated.
	var all []string
	for _, other := range s.Targets {
		if other.Package == t.Package {
			all = append(all, other.Tests...)
		}
	}
	for _, test := range w.referenceTests(key, all) {
		pkgDir := filepath.Join(build, filepath.FromSlash(s.Module), filepath.FromSlash(t.Package))
		r, err := e.start(ctx, w, a, proc{dir: build, workdir: pkgDir, timeout: timeout,
			argv: []string{b.path, "-test.run", "^" + test + "$", "-test.count=1"}})
		if err != nil {
			return nil, err
		}
		if r.res.Termination == sandbox.Exited && r.res.ExitCode == 0 {
			b.reference[test] = r.res.Wall
		}
	}
	return b, nil
}

// referenceTests returns the tests of a target package that mutants of the
// run will need, as registered by RegisterTargets, or those given.
func (w *Workspace) referenceTests(key string, given []string) []string {
	if ts := w.targets[key]; len(ts) > 0 {
		return ts
	}
	out := slices.Clone(given)
	slices.Sort(out)
	return slices.Compact(out)
}

// RegisterTargets records every test each target package must run for the
// run's mutants, so the reference runs happen once per package.
func (w *Workspace) RegisterTargets(specs []*jobs.Spec) {
	w.targets = map[string][]string{}
	for _, s := range specs {
		for _, t := range s.Targets {
			key := s.Module + "\x00" + t.Package
			w.targets[key] = append(w.targets[key], t.Tests...)
		}
	}
	for k, ts := range w.targets {
		slices.Sort(ts)
		w.targets[k] = slices.Compact(ts)
	}
}

// PristineDir is the directory of one of the workspace's trees.
func (w *Workspace) PristineDir(tree string) string { return w.pristine[tree] }

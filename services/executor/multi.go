package executor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/executor/gotest"
	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/mutation/mutant"
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
	side    string // the side whose Go build cache the process gets
}

type procResult struct {
	res    sandbox.Result
	stdout []byte
	stderr string
	// dropped counts the output bytes beyond the bound, not kept.
	dropped int64
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
	// A Go build cache of the run's own, one per side: a declared command
	// that runs go test builds into it, and what one side's code plants
	// there reaches neither the other side nor a later run.
	cache := filepath.Join(w.dir, "gocache-"+cmpOr(p.side, "none"))
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return procResult{}, err
	}
	spec := sandbox.Spec{
		Dir: p.dir, Argv: argv, Env: append(e.envWithPath(cache, p.path), p.env...),
		ReadOnly: append(existing(e.Go.Root, e.Go.ModCache, e.goConfigDir()), p.ro...), Writable: append([]string{cache}, p.rw...),
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

// Schemata adds the tree of the mutant schemata to the workspace: the
// oracle tree with files (repository paths) replaced. It is built once per
// run; mutant jobs then run in copies of it.
func (w *Workspace) Schemata(files map[string][]byte) error {
	dir := filepath.Join(w.dir, "pristine-schemata")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := copyTree(dir, w.pristine[jobs.TreeOracle]); err != nil {
		return err
	}
	// The tests the patch adds to existing files judge mutants too, beside
	// the baseline's versions of those files' other tests.
	if err := w.splice(dir, w.Spliceable("")); err != nil {
		return err
	}
	for _, f := range w.HarnessDrops("") {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil && !os.IsNotExist(err) {
			return err
		}
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
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pristine[treeSchemata] = dir
	w.references = map[string]map[string]time.Duration{}
	for k := range w.bins {
		if strings.HasPrefix(k, treeSchemata+"\x00") {
			delete(w.bins, k)
		}
	}
	return nil
}

const treeSchemata = "schemata"

// executeMutant runs the tests that reach a mutant's line, one at a time,
// with the mutant switched on, until one kills it: each package's schemata
// test binary is built once per run (unreadable to the tests it runs), each
// test has run once with the switch's inert token (the reference run), and
// every run happens in a copy of the oracle tree, not of the schemata
// source, which holds the tokens' digests.
//
// A kill is attributable or it is none: the test that reaches the mutant
// ran (its own run event), failed by its own fail event, and the mutated
// site executed in that process (the hit marker holds exactly this
// mutant's token). A panic at package initialization, a build failure, an
// exit before the tests start, or a failure the mutated site had no part in
// is no kill: the mutant is stillborn, out of both sides of the ratio. A
// timeout counts only with the hit marker and a fast reference run.
func (e *Executor) executeMutant(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}}}
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	if w.pristine[treeSchemata] == "" {
		return done(jobs.OutcomeStillborn, "no schemata tree was built for this run")
	}
	m := s.Mutation
	sw := mutant.Switch{Var: m.Var, Tokens: map[int]string{m.ID: m.Token}, Inert: m.Inert}
	if m.Var == "" || m.Token == "" || m.Inert == "" {
		return done(jobs.OutcomeStillborn, "the mutant has no switch: it cannot be told apart from its reference run")
	}
	_, runTree, err := w.variantOf(w.mutantRunKey())
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	timeout := timeoutOf(s)
	ran := 0
	var unattributed []string
	for _, tg := range s.Targets {
		t := goTarget{variant: treeSchemata, module: s.Module, pkg: tg.Package, importPath: tg.ImportPath}
		b, err := e.buildTest(ctx, w, a, t, 2*timeout)
		if err != nil {
			return done(jobs.OutcomeUnrunnable, "%v", err)
		}
		if b.failed != "" || b.noTests {
			return done(jobs.OutcomeStillborn, "the schemata build of %s failed: %s", tg.Package, cmpOr(b.failed, "no test files"))
		}
		refs, err := e.references(ctx, w, a, s, b, t, runTree, sw, timeout)
		if err != nil {
			return done(jobs.OutcomeUnrunnable, "%v", err)
		}
		for _, test := range tg.Tests {
			ref, ok := refs[test]
			if !ok {
				continue // fails unmutated: it cannot judge a mutant
			}
			outcome, hit, r, err := e.mutantRun(ctx, w, a, b, t, runTree, test, sw, m.ID, timeout)
			if err != nil {
				return done(jobs.OutcomeUnrunnable, "%v", err)
			}
			ran++
			switch {
			case outcome.Kind == gotest.OutcomePass:
				continue
			case outcome.Kind == gotest.OutcomeFail && hit:
				a.Detail.KilledBy = tg.ImportPath + "." + test
				return done(jobs.OutcomeKilled, "%s fails with the mutant after its site ran (%s)", test, outcome.Reason)
			case outcome.Kind == gotest.OutcomeHarnessDied && r.res.Termination == sandbox.Timeout || outcome.Kind == gotest.OutcomeHarnessDied && strings.Contains(outcome.Reason, "-timeout"):
				if hit && ref < timeout/3 {
					a.Detail.KilledBy = tg.ImportPath + "." + test
					return done(jobs.OutcomeKilled, "%s hangs with the mutant after its site ran; its reference run took %v", test, ref.Round(time.Millisecond))
				}
				return done(jobs.OutcomeStillborn, "%s timed out with the mutant (site ran: %v; reference run %v of the %v limit)", test, hit, ref.Round(time.Millisecond), timeout)
			case outcome.Kind == gotest.OutcomeFail:
				// It failed, but not where the mutant is: whatever failed
				// it, the mutant did not. Keep looking.
				unattributed = append(unattributed, test)
				continue
			default:
				return done(jobs.OutcomeStillborn, "%s with the mutant is no verdict of the test (%s): no attributable kill", test, outcome)
			}
		}
	}
	switch {
	case ran == 0:
		return done(jobs.OutcomeStillborn, "no test that reaches the line passes unmutated")
	case len(unattributed) > 0:
		return done(jobs.OutcomeStillborn, "%s failed with the mutant without its site running: a failure the mutant had no part in is no kill", strings.Join(unattributed, ", "))
	}
	return done(jobs.OutcomeSurvived, "%d test(s) reaching %s:%d pass with %s", ran, m.Path, m.Line, m.Description)
}

// mutantRunKey is the tree mutant and reference runs happen in: the oracle
// with the files the schemata tree also splices and drops.
func (w *Workspace) mutantRunKey() string {
	return variantKey(jobs.TreeOracle, nil, w.Spliceable(""), w.HarnessDrops(""), nil)
}

// mutantRun runs test with the switch's value for id (id 0: the inert
// token) in a fresh copy of the run tree, and judges the test by its own
// events; hit says whether the marker holds exactly the mutant's token.
func (e *Executor) mutantRun(ctx context.Context, w *Workspace, a *Answer, b *goBin, t goTarget, runTree, test string, sw mutant.Switch, id int, timeout time.Duration) (gotest.Outcome, bool, procResult, error) {
	dir, out, cleanup, err := w.jobTree(runTree)
	defer cleanup()
	if err != nil {
		return gotest.Outcome{}, false, procResult{}, err
	}
	v := e.viewOf(w, dir, out)
	marker := path.Join(filepathSlash(v.out), "hit")
	var env string
	if id == 0 {
		env, err = sw.InertEnv(marker)
	} else {
		env, err = sw.Env(id, marker)
	}
	if err != nil {
		return gotest.Outcome{}, false, procResult{}, err
	}
	stream, r, err := e.runTest(ctx, w, a, b, t, dir, out, []string{"-test.run", "^" + test + "$"}, []string{env}, timeout)
	if err != nil {
		return gotest.Outcome{}, false, r, err
	}
	label := test
	if id == 0 {
		label = "REFERENCE " + test
	}
	a.Detail.Runs = append(a.Detail.Runs, jobs.Run{Verdict: label, ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(),
		WallMillis: r.res.Wall.Milliseconds(), Binary: b.sha256})
	hitBytes, err := jobfile.Read(out, "hit", 4096)
	hit := err == nil && id != 0 && mutant.HitBy(hitBytes, sw, id)
	if r.dropped > 0 || stream == nil {
		return gotest.Outcome{Kind: gotest.OutcomeInconsistent, Reason: "the test stream could not be read whole"}, hit, r, nil
	}
	report, err := gotest.Read(bytes.NewReader(stream))
	if err != nil {
		return gotest.Outcome{Kind: gotest.OutcomeInconsistent, Reason: err.Error()}, hit, r, nil
	}
	return gotest.Verdict(report, t.importPath, test, r.res.ExitCode, termination(r.res.Termination)), hit, r, nil
}

// references runs, once per run and package, every test that will judge
// a mutant of the package with the schemata binary and the switch's inert
// token, and returns how long each passing one took.
func (e *Executor) references(ctx context.Context, w *Workspace, a *Answer, s *jobs.Spec, b *goBin, t goTarget, runTree string, sw mutant.Switch, timeout time.Duration) (map[string]time.Duration, error) {
	key := s.Module + "\x00" + t.pkg
	w.mu.Lock()
	refs, ok := w.references[key]
	w.mu.Unlock()
	if ok {
		return refs, nil
	}
	var all []string
	for _, other := range s.Targets {
		if other.Package == t.pkg {
			all = append(all, other.Tests...)
		}
	}
	refs = map[string]time.Duration{}
	for _, test := range w.referenceTests(key, all) {
		outcome, _, r, err := e.mutantRun(ctx, w, a, b, t, runTree, test, sw, 0, timeout)
		if err != nil {
			return nil, err
		}
		if outcome.Kind == gotest.OutcomePass {
			refs[test] = r.res.Wall
		}
	}
	w.mu.Lock()
	w.references[key] = refs
	w.mu.Unlock()
	return refs, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
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

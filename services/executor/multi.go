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

	"github.com/sealgate/sealgate/services/checkout"
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
	// readOnly shows the tree read-only (pytest runs, which write nothing
	// there: no bytecode, no cache provider, reports outside the tree).
	readOnly bool
	// elsewhere runs the process Elsewhere (sandbox.Spec).
	elsewhere bool
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
		Limits: l, Stdout: stdout, Stderr: stderr, ReadOnlyDir: p.readOnly, Elsewhere: p.elsewhere,
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
	if err := copyTree(dir, w.tree(jobs.TreeOracle)); err != nil {
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
	w.setTree(treeSchemata, dir)
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
// test binary is built once per run (unreadable to the tests it runs), and
// every run happens in a copy of the oracle tree, not of the schemata
// source, which holds the tokens' digests, with the data files only tests
// read put back to the baseline's (the patch never writes its own oracle).
//
// A kill is attributable or it is none: the test that reaches the mutant
// ran (its own run event), failed by its own fail event, the mutated site
// executed in that process (the hit marker holds exactly this mutant's
// token), and the same test passes in the mutant's reference run — the
// same process with the mutant's reference token, which leaves the code as
// it is and marks the same site the same way (see mutant.Switch): the only
// difference between the two runs is the mutated behaviour. Code that
// watches the switch's variable or the marker fails both or neither.
//
// A test that fails its reference run cannot judge the mutant: its
// failure with the mutant is no kill, its pass no survival. A mutant
// survives when a test that passes its reference run passes with it. When
// no test that reaches the mutant can judge it, the mutant is unjudged:
// not out of the ratio for free, but a gap the strength record names. A panic at package
// initialization, a build failure, an exit before the tests start, or a
// failure the mutated site had no part in, while the reference run passes,
// is no kill: the mutant is stillborn, out of both sides of the ratio. The
// mutant's process is limited by its test's reference run (mutantTimeout),
// not by the claim timeout; a timeout counts only with the hit marker and a
// reference run under a third of that limit.
func (e *Executor) executeMutant(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}}}
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	if w.tree(treeSchemata) == "" {
		return done(jobs.OutcomeStillborn, "no schemata tree was built for this run")
	}
	m := s.Mutation
	sw := mutant.Switch{Var: m.Var, Tokens: map[int]string{m.ID: m.Token}, Refs: map[int]string{m.ID: m.Ref}}
	if m.Var == "" || m.Token == "" || m.Ref == "" {
		return done(jobs.OutcomeStillborn, "the mutant has no switch: it cannot be told apart from its reference run")
	}
	_, runTree, err := w.variantOf(w.mutantRunKey())
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	claim := timeoutOf(s)
	var survivedBy, cannotJudge, stillborn []string
	for _, tg := range s.Targets {
		t := goTarget{variant: treeSchemata, module: s.Module, pkg: tg.Package, importPath: tg.ImportPath}
		b, err := e.buildTest(ctx, w, a, t, 2*claim)
		if err != nil {
			return done(jobs.OutcomeUnrunnable, "%v", err)
		}
		if b.failed != "" || b.noTests {
			return done(jobs.OutcomeStillborn, "the schemata build of %s failed: %s", tg.Package, cmpOr(b.failed, "no test files"))
		}
		for _, test := range tg.Tests {
			// The reference run says whether the test judges the mutant
			// at all (a test that fails unmutated does not: its pass with
			// the mutant is no survival, its failure no kill), whether the
			// mutant had any part in a failure, and how long the test
			// takes: the mutant's process gets a limit derived from it
			// (mutantTimeout). It runs first unless the run already knows
			// the test's duration and a survivor is found, when a passing
			// mutant run needs no reference run.
			key := tg.ImportPath + "\x00" + test
			var ref *mutantResult
			runRef := func() error {
				r, err := e.mutantRun(ctx, w, a, b, t, runTree, test, sw, m.ID, true, claim)
				if err != nil {
					return err
				}
				ref = &r
				if r.outcome.Kind == gotest.OutcomePass {
					w.noteReference(key, r.proc.res.Wall)
				}
				return nil
			}
			judges := func() (string, bool) {
				if ref.planted != "" {
					return fmt.Sprintf("%s left something other than the hit marker where the marker goes in the mutant's reference run, so no run of it can judge the mutant: %s", test, ref.planted), false
				}
				if ref.outcome.Kind != gotest.OutcomePass {
					cannotJudge = append(cannotJudge, fmt.Sprintf("%s (%s)", test, ref.outcome.Kind))
					return "", false
				}
				return "", true
			}
			refWall, known := w.reference(key)
			if !known || len(survivedBy) == 0 {
				if err := runRef(); err != nil {
					return done(jobs.OutcomeUnrunnable, "%v", err)
				}
				planted, ok := judges()
				if planted != "" {
					return done(jobs.OutcomeUnjudged, "%s", planted)
				}
				if !ok {
					continue
				}
				refWall = ref.proc.res.Wall
			}
			limit := mutantTimeout(refWall, claim)
			mr, err := e.mutantRun(ctx, w, a, b, t, runTree, test, sw, m.ID, false, limit)
			if err != nil {
				return done(jobs.OutcomeUnrunnable, "%v", err)
			}
			if mr.planted != "" {
				return done(jobs.OutcomeUnjudged, "%s left something other than the hit marker where the marker goes, so no run of it can judge the mutant: %s", test, mr.planted)
			}
			if mr.outcome.Kind == gotest.OutcomePass && len(survivedBy) > 0 {
				survivedBy = append(survivedBy, test)
				continue
			}
			if ref == nil {
				if err := runRef(); err != nil {
					return done(jobs.OutcomeUnrunnable, "%v", err)
				}
				planted, ok := judges()
				if planted != "" {
					return done(jobs.OutcomeUnjudged, "%s", planted)
				}
				if !ok {
					continue
				}
			}
			if mr.outcome.Kind == gotest.OutcomePass {
				survivedBy = append(survivedBy, test)
				continue
			}
			timedOut := mr.outcome.Kind == gotest.OutcomeHarnessDied && (mr.proc.res.Termination == sandbox.Timeout || strings.Contains(mr.outcome.Reason, "-timeout"))
			switch {
			case mr.outcome.Kind == gotest.OutcomeFail && mr.hit:
				a.Detail.KilledBy = tg.ImportPath + "." + test
				return done(jobs.OutcomeKilled, "%s fails with the mutant after its site ran (%s), and passes in the mutant's reference run", test, mr.outcome.Reason)
			case timedOut && mr.hit && ref.proc.res.Wall < limit/3:
				// The limit is over three times this job's own reference
				// run: a test that got slower everywhere since the limit
				// was derived is no kill (the next case).
				a.Detail.KilledBy = tg.ImportPath + "." + test
				return done(jobs.OutcomeKilled, "%s hangs with the mutant after its site ran (stopped at %v); its reference run took %v", test, limit, ref.proc.res.Wall.Round(time.Millisecond))
			case timedOut:
				return done(jobs.OutcomeStillborn, "%s timed out with the mutant (site ran: %v; reference run %v of the %v limit)", test, mr.hit, ref.proc.res.Wall.Round(time.Millisecond), limit)
			case mr.proc.res.Termination == sandbox.OOM && mr.proc.res.Signal == "" && mr.hit && ref.proc.res.Termination != sandbox.OOM:
				// The runtime ran out of the address space every run
				// gets (the process exited; no signal: not the kernel's
				// OOM killer, which the machine's load may bring) after
				// the mutant's site ran, and the same test passes in the
				// reference run under the same limit: a loop the mutant
				// made grow without end (yaml.v2's scanner with its
				// guard inverted), as a hang is.
				a.Detail.KilledBy = tg.ImportPath + "." + test
				return done(jobs.OutcomeKilled, "%s runs out of memory with the mutant after its site ran (%s), and passes in the mutant's reference run", test, mr.outcome.Reason)
			case mr.outcome.Kind == gotest.OutcomeFail:
				// It failed, but not after the mutant's site ran: whatever
				// failed it, the mutant did not. Keep looking.
				stillborn = append(stillborn, test+" failed with the mutant without its site running: a failure the mutant had no part in is no kill")
			default:
				stillborn = append(stillborn, fmt.Sprintf("%s with the mutant is no verdict of the test (%s): no attributable kill", test, mr.outcome))
			}
		}
	}
	switch {
	case len(survivedBy) > 0:
		return done(jobs.OutcomeSurvived, "%d test(s) reaching %s:%d pass with %s", len(survivedBy), m.Path, m.Line, m.Description)
	case len(cannotJudge) > 0:
		return done(jobs.OutcomeUnjudged, "no test that reaches %s:%d passes in the mutant's reference run, so none can judge it: %s", m.Path, m.Line, strings.Join(cannotJudge, ", "))
	case len(stillborn) > 0:
		return done(jobs.OutcomeStillborn, "%s", strings.Join(stillborn, "; "))
	}
	return done(jobs.OutcomeStillborn, "no test reaches the mutant")
}

// The limit of a mutant's process, derived from the test's reference run
// (the same binary and process with the code as it is): three times the
// reference, as gremlins takes three times its coverage run, plus 2 s for
// what does not scale with the test (the sandbox's start, the binary's
// start-up and exit, a loaded machine's scheduling), and at least
// mutantFloor; never more than the claim timeout the job was given. A
// mutant that keeps its test running past three times its unmutated
// duration after its site ran is a hang the mutant made (a kill, see
// executeMutant); one whose site did not run is none.
const (
	mutantFactor = 3
	mutantSlack  = 2 * time.Second
	mutantFloor  = 5 * time.Second
)

// mutantTimeout is the limit of a mutant's process whose test's reference
// run took ref, within the claim timeout claim.
func mutantTimeout(ref, claim time.Duration) time.Duration {
	return min(max(mutantFactor*ref+mutantSlack, mutantFloor), claim)
}

// reference is the longest passing reference run of a test (key: import
// path, NUL, test name) the run has seen so far, in any mutant job.
func (w *Workspace) reference(key string) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d, ok := w.refWalls[key]
	return d, ok
}

// noteReference records a passing reference run's duration.
func (w *Workspace) noteReference(key string, d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.refWalls == nil {
		w.refWalls = map[string]time.Duration{}
	}
	w.refWalls[key] = max(w.refWalls[key], d)
}

// mutantRunKey is the tree mutant and reference runs happen in: the oracle
// with the files the schemata tree also splices and drops, and the changed
// data files only tests read put back to the baseline's.
func (w *Workspace) mutantRunKey() string {
	return variantKey(jobs.TreeOracle, nil, w.Spliceable(""), w.HarnessDrops(""), w.testOnlyData())
}

// testOnlyData lists the data files the patch changes that the baseline
// has and no non-test source uses (the checkout's counterfactual data,
// without the data production code embeds or names): golden files and
// fixtures outside testdata/. A test judged by the patch's version of its
// oracle judges nothing; the baseline's version is put back for mutant
// runs, as the oracle puts back testdata/. Data files the patch adds stay:
// they come with the tests the patch adds.
func (w *Workspace) testOnlyData() []string {
	data := map[string]bool{}
	for _, ch := range w.co.Changes {
		switch ch.Class {
		case checkout.ClassOther, checkout.ClassBinary, checkout.ClassForeign:
			data[ch.Path] = true
		}
	}
	var out []string
	for _, f := range w.co.Counterfactual {
		if !data[f] || slices.Contains(w.co.DataReferenced, f) {
			continue
		}
		if _, ok := w.co.Baseline.Lookup(f); ok {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// mutantResult is what one run of a test with the switch established.
type mutantResult struct {
	outcome gotest.Outcome
	// hit: the marker holds exactly the run's token (the mutant's, or its
	// reference token in a reference run): the site executed.
	hit  bool
	proc procResult
	// planted is why the marker could not be read when something other
	// than a regular file the gate may read stood where it goes (a
	// symlink, a FIFO, a file past the bound): the test process planted
	// it. "" when the marker was read or is absent.
	planted string
}

// mutantRun runs test with the switch's value for mutant id — its token,
// or with ref its reference token — in the run tree (runTree: read-only,
// or a fresh copy), and judges the test by its own events.
func (e *Executor) mutantRun(ctx context.Context, w *Workspace, a *Answer, b *goBin, t goTarget, runTree, test string, sw mutant.Switch, id int, ref bool, timeout time.Duration) (mutantResult, error) {
	dir, out, cleanup, err := e.runTree(w, runTree)
	defer cleanup()
	if err != nil {
		return mutantResult{}, err
	}
	v := e.viewOf(w, dir, out)
	marker := path.Join(filepathSlash(v.out), "hit")
	var env string
	if ref {
		env, err = sw.RefEnv(id, marker)
	} else {
		env, err = sw.Env(id, marker)
	}
	if err != nil {
		return mutantResult{}, err
	}
	stream, r, err := e.runTest(ctx, w, a, b, t, dir, out, []string{"-test.run", "^" + test + "$"}, []string{env}, timeout)
	if err != nil {
		return mutantResult{proc: r}, err
	}
	label := test
	if ref {
		label = "REFERENCE " + test
	}
	a.Detail.Runs = append(a.Detail.Runs, jobs.Run{Verdict: label, ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(),
		WallMillis: r.res.Wall.Milliseconds(), Binary: b.sha256})
	hitBytes, err := jobfile.Read(out, "hit", 4096)
	res := mutantResult{proc: r}
	if err != nil && !isNotExist(err) {
		res.planted = jobfile.Excerpt(err.Error())
	}
	if err == nil {
		if ref {
			res.hit = mutant.RefHitBy(hitBytes, sw, id)
		} else {
			res.hit = mutant.HitBy(hitBytes, sw, id)
		}
	}
	if r.dropped > 0 || stream == nil {
		res.outcome = gotest.Outcome{Kind: gotest.OutcomeInconsistent, Reason: "the test stream could not be read whole"}
		return res, nil
	}
	report, err := gotest.Read(bytes.NewReader(stream))
	if err != nil {
		res.outcome = gotest.Outcome{Kind: gotest.OutcomeInconsistent, Reason: err.Error()}
		return res, nil
	}
	res.outcome = gotest.Verdict(report, t.importPath, test, r.res.ExitCode, termination(r.res.Termination))
	return res, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// PristineDir is the directory of one of the workspace's trees.
func (w *Workspace) PristineDir(tree string) string { return w.tree(tree) }

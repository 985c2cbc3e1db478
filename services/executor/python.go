package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/reach/pycov"
)

// pytestJob is a pytest job of the run's interpreter.
func pytestJob(purpose, side, claim string, tests []string, c *criteria.Criteria) *jobs.Spec {
	tree := treeOf(side)
	s := &jobs.Spec{Purpose: purpose, Side: side, Claim: claim, Tree: tree, Module: ".", Tests: tests,
		Runner: jobs.RunnerPytest, Python: c.Python, TimeoutSec: c.Limits.ClaimTimeoutSec}
	switch purpose {
	case jobs.Claim, jobs.Prereq:
		s.Reruns = c.Limits.StabilityReruns
	case jobs.Collateral, jobs.Coverage:
		s.TimeoutSec = c.Limits.SuiteTimeoutSec
	}
	if c.Python == "" {
		s.Skip = "no Python interpreter with pytest was sealed for this run (--python)"
	}
	return s
}

// planPytest plans one pytest claim on both sides: node id
// path/test_x.py::test_name (parametrized ids too), run alone in its own
// process, with the baseline's test files put back on the patch side.
func (w *Workspace) planPytest(claim string, c *criteria.Criteria) []*jobs.Spec {
	nodeID := strings.TrimPrefix(claim, "pytest:")
	file, test, _ := strings.Cut(nodeID, "::")
	if drift := w.co.HarnessDriftFor("python"); len(drift) > 0 {
		return skipBoth(claim, fmt.Sprintf("the patch changes the Python test harness (%s): its claims cannot be verified", strings.Join(drift, ", ")))
	}
	if len(w.co.TestHarness) > 0 {
		for _, f := range w.co.TestHarness {
			if strings.HasSuffix(f, ".py") {
				return skipBoth(claim, fmt.Sprintf("the patch adds or changes pytest hooks or plugins in %s: it controls the test harness", f))
			}
		}
	}
	if f, ref := w.reachesIntoPytest(); f != "" {
		return skipBoth(claim, fmt.Sprintf("the patch makes %s reach into the test runner (%s): code under test could rewrite the results", f, ref))
	}
	base := pytestJob(jobs.Claim, jobs.Baseline, claim, []string{nodeID}, c)
	patch := pytestJob(jobs.Claim, jobs.Patch, claim, []string{nodeID}, c)
	if patch.Skip != "" {
		return skipBoth(claim, patch.Skip)
	}
	fn := funcOf(test)
	for _, d := range w.co.Deferred {
		if d.File != file || d.Test != fn {
			continue
		}
		// A test the patch added to a baseline test file: the file's
		// baseline tests must pass on the patched code first.
		patch.Transplant = []string{d.File}
		base.Transplant = []string{d.File}
		var ids []string
		for _, t := range d.BaselineTests {
			ids = append(ids, file+"::"+t)
		}
		if len(ids) == 0 {
			return []*jobs.Spec{base, patch}
		}
		pre := pytestJob(jobs.Prereq, jobs.Patch, claim, ids, c)
		pre.Then = patch
		return []*jobs.Spec{base, pre}
	}
	if !w.declaresPython(jobs.TreeOracle, file, fn) {
		return skipBoth(claim, fmt.Sprintf("%s declares no test %s on the patch side (baseline test files put back)", file, fn))
	}
	if !w.declaresPython(jobs.TreeBaseline, file, fn) {
		// A new test file: on the baseline it runs laid over the baseline
		// code.
		base.Transplant = []string{file}
	}
	return []*jobs.Spec{base, patch}
}

// reachesIntoPytest returns the first changed Python source file whose
// patched version reaches into the test runner where its baseline version
// did not, and where and how, or "": the checkout's runner-reach findings
// (inspect.RuleRunnerReach, read with ast). Code under test runs inside
// the pytest process: an import-time patch of pytest's reporting would
// turn a failing claim into a pass, as a conftest.py plugin would, without
// touching a harness file. A file that already did so on the baseline (a
// pytest plugin's own source) is judged like any other.
func (w *Workspace) reachesIntoPytest() (file, ref string) {
	fs := w.co.FindingsOf(inspect.RuleRunnerReach)
	if len(fs) == 0 {
		return "", ""
	}
	if f := fs[0]; f.Line > 0 {
		return f.File, fmt.Sprintf("line %d: %s", f.Line, f.What)
	}
	return fs[0].File, fs[0].What
}

// funcOf strips a node id's parameters: "TestK::test_x[a-1]" is
// "TestK::test_x".
func funcOf(test string) string {
	if i := strings.IndexByte(test, '['); i >= 0 {
		return test[:i]
	}
	return test
}

// declaresPython reports whether file in tree declares test (a node id
// suffix without parameters).
func (w *Workspace) declaresPython(tree, file, test string) bool {
	src, err := os.ReadFile(filepath.Join(w.tree(tree), filepath.FromSlash(file)))
	if err != nil {
		return false
	}
	names, err := checkout.PythonTestFuncs(src)
	return err == nil && slices.Contains(names, test)
}

// hasPythonTests reports whether tree holds a file pytest collects tests
// from by default (test_*.py, *_test.py) outside hidden directories: then
// the tree has a Python suite. Helpers under tests/ alone do not make one.
func (w *Workspace) hasPythonTests(tree string) bool {
	found := false
	root := w.tree(tree)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case found:
			return filepath.SkipAll
		case err != nil:
			return nil // unreadable: not a test file we can run
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if checkout.IsPytestModule(rel) {
			found = true
		}
		return nil
	})
	return found
}

// changedPython lists the Python source files the patch adds or changes.
func (w *Workspace) changedPython() []checkout.Change {
	var out []checkout.Change
	for _, ch := range w.co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && checkout.Language(ch.Path) == "python" {
			out = append(out, ch)
		}
	}
	return out
}

// pythonCoverageJob runs the pytest suite once under coverage.py with a
// dynamic context per test: diff coverage and the reach map of the
// changed Python lines.
func (w *Workspace) pythonCoverageJob(c *criteria.Criteria) []*jobs.Spec {
	if len(w.changedPython()) == 0 {
		return nil
	}
	return append([]*jobs.Spec{pytestJob(jobs.Coverage, jobs.Patch, "", nil, c)}, w.pythonBaselineCoverage(c)...)
}

// executePytestCoverage runs the suite under coverage.py and stores its
// JSON report (with contexts) as the job's one profile.
func (e *Executor) executePytestCoverage(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}, Profiles: map[string]string{}}}
	fail := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	dir, out, cleanup, err := w.processTrees(s)
	defer cleanup()
	if err != nil {
		return fail(jobs.OutcomeUnrunnable, "%v", err)
	}
	rc := filepath.Join(out, "coverage.ini")
	if err := os.WriteFile(rc, []byte(pycov.RC), 0o644); err != nil {
		return fail(jobs.OutcomeUnrunnable, "%v", err)
	}
	data, report, junitPath := filepath.Join(out, "coverage.data"), filepath.Join(out, "coverage.json"), filepath.Join(out, "junit.xml")
	argv := append([]string{s.Python, "-m", "coverage", "run", "--rcfile=" + rc, "--data-file=" + data}, PytestArgs(junitPath)...)
	if s.Side == jobs.Baseline {
		// The baseline's claims fail there: pytest's report of a failure
		// (assertion rewriting, the traceback) runs the code's __repr__ and
		// __str__, lines the passing claims on the patch never need. They
		// are not lines the claims exercised, so this run (it measures
		// lost coverage only) leaves the report out.
		argv = append(argv, "--assert=plain", "--tb=no")
	}
	p := proc{dir: dir, side: s.Side, env: pythonEnv(), ro: pythonBinds(s.Python), rw: []string{out}, timeout: timeoutOf(s), readOnly: true,
		argv: append(argv, s.Tests...)}
	r, err := e.start(ctx, w, a, p)
	if err != nil {
		return fail(jobs.OutcomeUnrunnable, "sandbox: %v", err)
	}
	if r.res.Termination != sandbox.Exited || (r.res.ExitCode != 0 && r.res.ExitCode != 1) {
		return fail(jobs.OutcomeUnrunnable, "the pytest run under coverage.py did not complete (%s, exit %d): %s", r.res.Termination, r.res.ExitCode, firstLine(r.stderr))
	}
	if rep, err := readJUnit(out, "junit.xml"); err == nil {
		a.Cases = pytestCases(rep)
	}
	p.argv = []string{s.Python, "-m", "coverage", "json", "--rcfile=" + rc, "--data-file=" + data, "--show-contexts", "-o", report}
	p.timeout = timeoutOf(s)
	if r, err = e.start(ctx, w, a, p); err != nil {
		return fail(jobs.OutcomeUnrunnable, "sandbox: %v", err)
	}
	if r.res.Termination != sandbox.Exited || r.res.ExitCode != 0 {
		return fail(jobs.OutcomeUnrunnable, "coverage.py could not write its report (%s, exit %d): %s", r.res.Termination, r.res.ExitCode, firstLine(r.stderr))
	}
	b, err := jobfile.Read(out, "coverage.json", maxReportBytes)
	if err != nil || e.Blobs == nil {
		return fail(jobs.OutcomeUnrunnable, "the coverage.py report is missing: %v", err)
	}
	d, err := e.Blobs.Put(ctx, b)
	if err != nil {
		return fail(jobs.OutcomeUnrunnable, "store the coverage.py report: %v", err)
	}
	a.Detail.Profiles[jobs.PythonProfile] = d
	a.Artefacts = append(a.Artefacts, d)
	return fail(jobs.OutcomePass, "the pytest suite (%d tests) under coverage.py, one context per test", len(a.Cases))
}

// pythonSuite plans the pytest suite as collateral when the patched tree
// holds Python tests.
func (w *Workspace) pythonSuite(c *criteria.Criteria) *jobs.Spec {
	if !w.hasPythonTests(jobs.TreeOracle) {
		return nil
	}
	return pytestJob(jobs.Collateral, jobs.Patch, "", nil, c)
}

// planCommand plans a declared-command claim on both sides.
func planCommand(claim string, c *criteria.Criteria) []*jobs.Spec {
	label := strings.TrimPrefix(claim, "cmd:")
	cmd, ok := c.Commands[label]
	if !ok {
		return skipBoth(claim, fmt.Sprintf("no command is declared for %s", claim))
	}
	var out []*jobs.Spec
	for _, side := range []string{jobs.Baseline, jobs.Patch} {
		out = append(out, &jobs.Spec{Purpose: jobs.Claim, Side: side, Claim: claim, Tree: treeOf(side), Module: ".", Runner: jobs.RunnerCommand,
			Run: cmd.Run, JUnit: cmd.JUnit, Python: c.Python, Reruns: c.Limits.StabilityReruns, TimeoutSec: c.Limits.ClaimTimeoutSec})
	}
	return out
}

// sealJobs plans the seal plan's checks on the patch, one job per check,
// identified by the check's command.
func sealJobs(c *criteria.Criteria) []*jobs.Spec {
	var out []*jobs.Spec
	for _, chk := range c.SealPlan {
		out = append(out, &jobs.Spec{Purpose: jobs.Seal, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Runner: jobs.RunnerCommand,
			Run: chk.Run, JUnit: chk.JUnit, Python: c.Python, TimeoutSec: c.Limits.SuiteTimeoutSec})
	}
	return out
}

// commandSuite plans the declared full-suite command as collateral.
func commandSuite(c *criteria.Criteria) *jobs.Spec {
	if c.Suite == nil {
		return nil
	}
	return &jobs.Spec{Purpose: jobs.Collateral, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Runner: jobs.RunnerCommand,
		Run: c.Suite.Run, JUnit: c.Suite.JUnit, Python: c.Python, TimeoutSec: c.Limits.SuiteTimeoutSec}
}

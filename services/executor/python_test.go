package executor

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/reach/pycov"
)

// The baseline's add is wrong; the patch fixes it and adds sub with a new
// test file. Lines: add's return is 2, mul's 6, unused's 10, sub's 14.
const (
	baseCalc = `def add(a, b):
    return a - b


def mul(a, b):
    return a * b


def unused(x):
    return x + 1
`
	patchCalc = `def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def unused(x):
    return x + 1


def sub(a, b):
    return a - b
`
	calcTests = `from calc import add, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6
`
	// flakyPyTest fails once and then passes: it counts its runs in the one
	// directory every run shares, the build cache (each run has its own
	// tree, HOME and TMPDIR).
	flakyPyTest = `import os


def test_flaky():
    marker = os.path.join(os.environ["GOCACHE"], "sealgate-py-flaky")
    if not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first run fails"
    os.remove(marker)
`
	limitTests = `import pytest


def test_memory():
    # Past the sandbox's address-space limit.
    buf = bytearray(64 << 30)
    assert len(buf) == 0


def test_skips():
    pytest.skip("not today")


def test_only_in_the_sandbox():
    # What a patch that tells the gate's sandbox apart would see.
    import os
    assert os.environ.get("TMPDIR") and "CI" not in os.environ
`
	// slowTest hangs when add is wrong (a mutant of it): only -x, which
	// stops at the first failure, keeps a mutant job that lists it after
	// test_add from timing out.
	slowTest = `import time

from calc import add


def test_slow_when_add_is_wrong():
    if add(2, 3) != 5:
        time.sleep(60)
`
	newTests = `from calc import sub


def test_sub():
    assert sub(5, 3) == 2
`
)

// pyEnv is an executor and a workspace on a small Python repository.
type pyEnv struct {
	e      *Executor
	w      *Workspace
	c      *criteria.Criteria
	python string
}

// pyWorkspace commits the baseline (calc.py with a wrong add, its tests, a
// flaky test, limit tests, and extra) and a patch (add fixed, sub and its
// test file added, and patch) to a new git repository, checks them out and
// opens a workspace on the real sandbox (bwrap when it works).
func pyWorkspace(t *testing.T, extra, patch map[string]string) *pyEnv {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		t.Skip("needs git, python3 and the sandbox; not in -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("no git: %v", err)
	}
	python := testPython(t)
	ctx := context.Background()
	base := map[string]string{
		"calc.py":              baseCalc,
		"tests/test_calc.py":   calcTests,
		"tests/test_flaky.py":  flakyPyTest,
		"tests/test_limits.py": limitTests,
		"tests/test_slow.py":   slowTest,
	}
	for k, v := range extra {
		base[k] = v
	}
	p := map[string]string{"calc.py": patchCalc, "tests/test_new.py": newTests}
	for k, v := range patch {
		p[k] = v
	}
	repo := filepath.Join(t.TempDir(), "repo")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = []string{
			"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_AUTHOR_DATE=1700000000 +0000",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_COMMITTER_DATE=1700000000 +0000",
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	commit := func(files map[string]string, msg string) string {
		writeFiles(t, repo, files)
		git("add", "-A")
		git("commit", "-q", "-m", msg)
		return git("rev-parse", "HEAD")
	}
	baseID := commit(base, "baseline")
	patchID := commit(p, "patch")
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo, Baseline: baseID, PatchCommit: patchID, Python: python}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	box, err := sandbox.New(ctx, sandbox.Config{Mode: sandbox.Auto})
	if err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	e := &Executor{Sandbox: box, Go: Go{Root: strings.TrimSpace(string(goroot)), Cache: t.TempDir()}, Scratch: t.TempDir(), Blobs: blobs}
	w, err := e.Open(ctx, "py-test", co)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	c := &criteria.Criteria{Claims: []string{"x"}, Python: python}
	c.ApplyDefaults()
	c.Limits.StabilityReruns = 2
	t.Logf("sandbox %s, python %s", box.Name(), python)
	return &pyEnv{e: e, w: w, c: c, python: python}
}

func TestExecutePytestClaims(t *testing.T) {
	env := pyWorkspace(t, nil, nil)
	ctx := context.Background()
	type want struct {
		outcome string
		why     []string
		// verdicts are the runs' verdicts, in order.
		verdicts []string
		cases    []jobs.Case
	}
	check := func(t *testing.T, s *jobs.Spec, w want) *Answer {
		t.Helper()
		a := env.e.Execute(ctx, env.w, s)
		d := a.Detail
		if d.Outcome != w.outcome {
			t.Errorf("%s: %s (%s), want %s", s.ID(), d.Outcome, d.Reason, w.outcome)
		}
		for _, why := range w.why {
			if !strings.Contains(d.Reason, why) {
				t.Errorf("%s: reason %q does not say %q", s.ID(), d.Reason, why)
			}
		}
		var verdicts []string
		for i, r := range d.Runs {
			verdicts = append(verdicts, r.Verdict)
			if r.Stream == "" || r.Termination != sandbox.Exited.String() {
				t.Errorf("%s: run %d not recorded: %+v", s.ID(), i, r)
			} else if ok, err := env.e.Blobs.Has(ctx, r.Stream); !ok || err != nil {
				t.Errorf("%s: run %d: stream %s not stored: %v", s.ID(), i, r.Stream, err)
			}
		}
		if !slices.Equal(verdicts, w.verdicts) {
			t.Errorf("%s: run verdicts %v, want %v", s.ID(), verdicts, w.verdicts)
		}
		if w.cases != nil && !slices.Equal(a.Cases, w.cases) {
			t.Errorf("%s: cases %v, want %v", s.ID(), a.Cases, w.cases)
		}
		if w.cases != nil && (d.Count == nil || *d.Count != len(w.cases)) {
			t.Errorf("%s: count %v, want %d", s.ID(), d.Count, len(w.cases))
		}
		if !a.Started || a.Sandbox.Name == "" {
			t.Errorf("%s: no sandbox run recorded", s.ID())
		}
		return a
	}
	claim := func(side, id string) *jobs.Spec {
		s := pytestJob(jobs.Claim, side, "pytest:"+id, []string{id}, env.c)
		if s.Reruns != 2 || s.Skip != "" || s.Runner != jobs.RunnerPytest {
			t.Fatalf("pytestJob: %+v", s)
		}
		return s
	}
	const add = "tests/test_calc.py::test_add"

	t.Run("claim on both trees", func(t *testing.T) {
		check(t, claim(jobs.Baseline, add), want{jobs.OutcomeFail, []string{"failed all 3 runs: " + add + ": failed, exit 1: assert -1 == 5"},
			[]string{jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomeFail}, []jobs.Case{{Name: add, Outcome: "fail"}}})
		// A pass on the patch runs again Elsewhere (sandbox.Spec), where it
		// must pass too.
		check(t, claim(jobs.Patch, add), want{jobs.OutcomePass, []string{add + ": passed, exit 0"},
			[]string{jobs.OutcomePass, jobs.OutcomePass}, []jobs.Case{{Name: add, Outcome: "pass"}}})
	})
	t.Run("flaky", func(t *testing.T) {
		const id = "tests/test_flaky.py::test_flaky"
		check(t, claim(jobs.Patch, id), want{jobs.OutcomeFlaky, []string{"failed 1 of 2 runs", "first run fails"},
			[]string{jobs.OutcomeFail, jobs.OutcomePass}, []jobs.Case{{Name: id, Outcome: "pass"}}})
	})
	t.Run("memory limit", func(t *testing.T) {
		const id = "tests/test_limits.py::test_memory"
		check(t, claim(jobs.Patch, id), want{jobs.OutcomeUnrunnable, []string{"killed by the memory limit (MemoryError)"},
			[]string{jobs.OutcomeUnrunnable}, []jobs.Case{{Name: id, Outcome: jobs.CaseStopped}}})
	})
	t.Run("skip", func(t *testing.T) {
		const id = "tests/test_limits.py::test_skips"
		check(t, claim(jobs.Patch, id), want{jobs.OutcomeUnrunnable, []string{"skipped (not today): skip is not pass"},
			[]string{jobs.OutcomeUnrunnable}, []jobs.Case{{Name: id, Outcome: "skip"}}})
	})
	t.Run("passes only in the usual sandbox", func(t *testing.T) {
		const id = "tests/test_limits.py::test_only_in_the_sandbox"
		check(t, claim(jobs.Patch, id), want{jobs.OutcomeFlaky, []string{"passes in the sandbox and not where it looks like another machine", "its result depends on where it runs"},
			[]string{jobs.OutcomePass, jobs.OutcomeFail, jobs.OutcomeFail, jobs.OutcomeFail}, []jobs.Case{{Name: id, Outcome: "pass"}}})
	})
	t.Run("node id not found", func(t *testing.T) {
		check(t, claim(jobs.Patch, "tests/test_calc.py::test_nowhere"), want{jobs.OutcomeUnrunnable, []string{"pytest exit 4"},
			[]string{jobs.OutcomeUnrunnable}, nil})
	})
	t.Run("new test file", func(t *testing.T) {
		const id = "tests/test_new.py::test_sub"
		specs := env.w.planPytest("pytest:"+id, env.c)
		if len(specs) != 2 || !slices.Equal(specs[0].Transplant, []string{"tests/test_new.py"}) || len(specs[1].Transplant) != 0 {
			t.Fatalf("plan %+v", specs)
		}
		// On the baseline the new file cannot import sub: it does not
		// collect, so the test is absent there.
		check(t, specs[0], want{jobs.OutcomeAbsent, []string{"pytest exit 4", "the new test does not run on the baseline"},
			[]string{jobs.OutcomeAbsent}, nil})
		check(t, specs[1], want{jobs.OutcomePass, []string{id + ": passed, exit 0"}, []string{jobs.OutcomePass, jobs.OutcomePass}, []jobs.Case{{Name: id, Outcome: "pass"}}})
	})
	t.Run("no interpreter", func(t *testing.T) {
		c := *env.c
		c.Python = ""
		a := env.e.Execute(ctx, env.w, pytestJob(jobs.Claim, jobs.Patch, "pytest:"+add, []string{add}, &c))
		if a.Detail.Outcome != jobs.OutcomeNotRun || !strings.Contains(a.Detail.Reason, "no Python interpreter") || a.Started {
			t.Errorf("%+v", a)
		}
	})
}

func TestExecutePytestCoverage(t *testing.T) {
	env := pyWorkspace(t, nil, nil)
	ctx := context.Background()
	specs := env.w.pythonCoverageJob(env.c)
	if len(specs) != 1 {
		t.Fatalf("coverage jobs %+v", specs)
	}
	s := specs[0]
	if s.Purpose != jobs.Coverage || s.Runner != jobs.RunnerPytest || s.TimeoutSec != env.c.Limits.SuiteTimeoutSec {
		t.Fatalf("coverage job %+v", s)
	}
	a := env.e.Execute(ctx, env.w, s)
	if a.Detail.Outcome != jobs.OutcomePass {
		t.Fatalf("%s: %s (%s) %+v", s.ID(), a.Detail.Outcome, a.Detail.Reason, a.Detail.Runs)
	}
	if len(a.Detail.Runs) != 2 {
		t.Errorf("runs %+v, want coverage run and coverage json", a.Detail.Runs)
	}
	// The suite of the oracle tree: the baseline tests and the patch's
	// new test file.
	for _, c := range []jobs.Case{
		{Name: "tests/test_calc.py::test_add", Outcome: "pass"},
		{Name: "tests/test_new.py::test_sub", Outcome: "pass"},
		{Name: "tests/test_limits.py::test_memory", Outcome: jobs.CaseStopped},
		{Name: "tests/test_limits.py::test_skips", Outcome: "skip"},
	} {
		if !slices.Contains(a.Cases, c) {
			t.Errorf("cases %v lack %v", a.Cases, c)
		}
	}
	if !strings.Contains(a.Detail.Reason, "(8 tests)") {
		t.Errorf("reason %q", a.Detail.Reason)
	}
	d := a.Detail.Profiles[jobs.PythonProfile]
	if d == "" || len(a.Detail.Profiles) != 1 || !slices.Contains(a.Artefacts, d) {
		t.Fatalf("profiles %v, artefacts %v", a.Detail.Profiles, a.Artefacts)
	}
	b, err := env.e.Blobs.Get(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
	if err != nil {
		t.Fatalf("the stored report does not parse: %v", err)
	}
	f := rep.Files["calc.py"]
	if f == nil {
		t.Fatalf("no calc.py in the report: %v", rep.Files)
	}
	reaching := func(line int) []string {
		var ids []string
		for _, ctxName := range f.Contexts[line] {
			if ctxName == "" {
				continue // the import, outside any test
			}
			id, err := pycov.NodeID(rep, ctxName)
			if err != nil {
				t.Errorf("line %d: context %q: %v", line, ctxName, err)
				continue
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	for line, want := range map[int][]string{
		2:  {"tests/test_calc.py::test_add", "tests/test_slow.py::test_slow_when_add_is_wrong"},
		6:  {"tests/test_calc.py::test_mul"},
		10: nil,
		14: {"tests/test_new.py::test_sub"},
	} {
		if got := reaching(line); !slices.Equal(got, want) {
			t.Errorf("calc.py:%d is reached by %v, want %v", line, got, want)
		}
	}
	if !slices.Contains(f.Missing, 10) || slices.Contains(f.Executed, 10) {
		t.Errorf("calc.py:10 (unused) executed %v missing %v", f.Executed, f.Missing)
	}
}

func TestExecutePytestMutant(t *testing.T) {
	env := pyWorkspace(t, nil, nil)
	ctx := context.Background()
	src := patchCalc
	plus := strings.Index(src, "a + b") + 2
	one := strings.Index(src, "x + 1") + 4
	const (
		add  = "tests/test_calc.py::test_add"
		mul  = "tests/test_calc.py::test_mul"
		sub  = "tests/test_new.py::test_sub"
		slow = "tests/test_slow.py::test_slow_when_add_is_wrong"
	)
	withTimeout := func(s *jobs.Spec, sec int) *jobs.Spec {
		s.TimeoutSec = sec
		return s
	}
	mutant := func(id int, path string, start, end int, repl string, tests ...string) *jobs.Spec {
		return &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Runner: jobs.RunnerPytest,
			Python: env.c.Python, TimeoutSec: env.c.Limits.ClaimTimeoutSec,
			Mutation: &jobs.MutantRef{ID: id, Path: path, Line: 2, Start: start, End: end, Replacement: repl},
			Targets:  []jobs.Target{{Package: ".", Tests: tests}}}
	}
	for _, tc := range []struct {
		name     string
		spec     *jobs.Spec
		outcome  string
		why      string
		killedBy string
		runs     int
	}{
		// The reference run of the three tests, then the mutant's: test_mul
		// passes, test_add fails in its call phase and stops the run.
		{"killed", mutant(1, "calc.py", plus, plus+1, "-", mul, add, sub), jobs.OutcomeKilled, add + " fails in its call phase with the mutant", add, 2},
		// The slow test hangs with this mutant, but the run stops at
		// test_add before it.
		{"stops at the first failure", withTimeout(mutant(9, "calc.py", plus, plus+1, "-", add, slow), 20), jobs.OutcomeKilled, add + " fails", add, 2},
		// The reference run of these three tests is made: one run.
		{"survived", mutant(2, "calc.py", one, one+1, "2", add, mul, sub), jobs.OutcomeSurvived, "3 reaching tests pass with the mutant; the mutated code at calc.py:2 never ran in them", "", 1},
		{"edit past the end", mutant(3, "calc.py", len(src)+1, len(src)+2, "-", add), jobs.OutcomeStillborn, "the mutant's edit does not fit calc.py", "", 0},
		{"edit backwards", mutant(4, "calc.py", plus+1, plus, "-", add), jobs.OutcomeStillborn, "does not fit", "", 0},
		{"no such file", mutant(5, "nowhere.py", 0, 1, "-", add), jobs.OutcomeStillborn, "does not fit nowhere.py", "", 0},
		{"no reaching tests", mutant(6, "calc.py", plus, plus+1, "-"), jobs.OutcomeStillborn, "no test reaches the mutant's line", "", 0},
		// A syntax error: the test modules do not collect.
		{"does not compile", mutant(7, "calc.py", plus, plus+1, "+)", add), jobs.OutcomeStillborn, "with the mutant, ", "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := env.e.Execute(ctx, env.w, tc.spec)
			d := a.Detail
			if d.Outcome != tc.outcome || !strings.Contains(d.Reason, tc.why) || d.KilledBy != tc.killedBy {
				t.Errorf("%s (%s) killed by %q, want %s (%s) killed by %q", d.Outcome, d.Reason, d.KilledBy, tc.outcome, tc.why, tc.killedBy)
			}
			if len(d.Runs) != tc.runs {
				t.Errorf("runs %+v, want %d", d.Runs, tc.runs)
			}
		})
	}
	t.Run("targets without tests", func(t *testing.T) {
		s := mutant(8, "calc.py", plus, plus+1, "-")
		s.Targets = nil
		if a := env.e.Execute(ctx, env.w, s); a.Detail.Outcome != jobs.OutcomeStillborn {
			t.Errorf("%+v", a.Detail)
		}
	})
	// The mutants were made in copies: the oracle tree is untouched.
	if b, err := os.ReadFile(filepath.Join(env.w.PristineDir(jobs.TreeOracle), "calc.py")); err != nil || string(b) != src {
		t.Errorf("the oracle tree's calc.py changed: %q %v", b, err)
	}
}

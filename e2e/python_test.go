package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
)

// The acceptance tests of Python, declared commands, the seal plan and the
// repository configuration, through the binary, on the bundled Python demo
// and repositories built from it.

// needPython skips t unless a python3 that imports pytest and coverage is
// installed (Debian: python3-pytest python3-coverage); with
// SEALGATE_REQUIRE_PYTHON=1 (CI) a missing one fails instead.
func needPython(t *testing.T) {
	t.Helper()
	needBinary(t)
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import pytest, coverage").Run() == nil {
			return
		}
	}
	if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
		t.Fatal("no python3 with pytest and coverage, and SEALGATE_REQUIRE_PYTHON=1: apt-get install python3-pytest python3-coverage")
	}
	t.Skip("needs python3 with pytest and coverage (apt-get install python3-pytest python3-coverage)")
}

// newPyRepo builds the Python demo repository in a temporary directory.
func newPyRepo(t *testing.T) *repo {
	t.Helper()
	needPython(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := demo.BuildPython(ctx, filepath.Join(t.TempDir(), "repo"))
	if err != nil {
		t.Fatal(err)
	}
	return &repo{Repo: r}
}

// pythonRepo is the Python demo repository when python3 with pytest and
// coverage is installed, nil when it is not and SEALGATE_REQUIRE_PYTHON is
// not set (a test that has more to check than Python goes on without it).
func pythonRepo(t *testing.T) *repo {
	t.Helper()
	found := false
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import pytest, coverage").Run() == nil {
			found = true
		}
	}
	if !found && os.Getenv("SEALGATE_REQUIRE_PYTHON") != "1" {
		t.Log("no python3 with pytest and coverage: the Python part is left out")
		return nil
	}
	return newPyRepo(t)
}

const pyClaim = "pytest:tests/test_stats.py::test_percentile[even]"

// TestPythonDemo verifies the Python demo's patches at the default floors:
// the honest fix (ten mutable sites on its changed lines) is MERGE, a fix
// that breaks another test and a rewritten assertion hiding the bug are
// BLOCK, and a conftest.py plugin that rewrites failures into passes is
// INCONCLUSIVE.
func TestPythonDemo(t *testing.T) {
	r := newPyRepo(t)
	for _, p := range r.Patches {
		t.Run(p.Name, func(t *testing.T) {
			v := verify(t, append([]string{"--repo", r.Dir, "--base", r.Base, "--patch", p.Commit}, claimArgs(p.Claims...)...)...)
			v.wantDecision(t, p.Expect)
			switch p.Name {
			case "honest-fix":
				v.wantClaim(t, pyClaim, "VERIFIED", "fixed")
				var a struct {
					Coverage struct{ Ratio *float64 } `json:"coverage"`
					Strength struct{ Killed, Survived int }
				}
				if err := json.Unmarshal([]byte(v.stdout), &a); err != nil {
					t.Fatal(err)
				}
				if a.Coverage.Ratio == nil || *a.Coverage.Ratio != 1 || a.Strength.Killed < 5 || a.Strength.Survived != 0 {
					t.Fatalf("coverage %v, %d killed, %d survived: want full coverage and five or more mutants, all killed:\n%s", a.Coverage.Ratio, a.Strength.Killed, a.Strength.Survived, v)
				}
			case "breaks-a-test":
				if !contains(v.art.Collateral.Regressions, "tests/test_stats.py::test_clamp") {
					t.Fatalf("regressions %v, want tests/test_stats.py::test_clamp:\n%s", v.art.Collateral.Regressions, v)
				}
			case "hides-the-bug":
				v.wantClaim(t, pyClaim, "REFUTED", "incomplete_fix")
			case "rewrites-results":
				if !contains(v.art.HarnessDrift, "conftest.py") {
					t.Fatalf("harness drift %v, want conftest.py:\n%s", v.art.HarnessDrift, v)
				}
			}
		})
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// TestPythonHarnessFiles: the honest fix plus a new .pytest.ini (which
// could deselect or rewrite what runs), or plus a pth file, is not MERGE.
func TestPythonHarnessFiles(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	for name, files := range map[string]map[string]string{
		"pytest-ini": {".pytest.ini": "[pytest]\naddopts = -p no:warnings\n"},
		"pyproject":  {"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-q\"\n"},
		"pth":        {"pystats/hook.pth": "import os\n"},
	} {
		t.Run(name, func(t *testing.T) {
			c := r.commit(t, fix.Commit, "harness-"+name, "fix with "+name, files)
			v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", pyClaim)
			v.wantNot(t, merge)
			if len(v.art.HarnessDrift) == 0 {
				t.Fatalf("no harness drift reported:\n%s", v)
			}
		})
	}
}

// TestPythonMemoryLimit: a test stopped by the memory limit is
// unrunnable, not a failure — the claim is not refuted.
func TestPythonMemoryLimit(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	src := r.show(t, fix.Commit, "pystats/stats.py")
	// The patched percentile asks for far more memory than the limit
	// allows (8 GiB of address space per process) before it answers.
	greedy := replaceOnce(t, src, "def percentile(", "def _greedy():\n    return bytearray(64 << 30)\n\n\ndef percentile(")
	greedy = replaceOnce(t, greedy, `    s = sorted(values)`, "    _greedy()\n    s = sorted(values)")
	c := r.commit(t, fix.Commit, "greedy", "percentile allocates 64 GiB", map[string]string{"pystats/stats.py": greedy})
	v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", pyClaim)
	v.wantNot(t, merge, block)
	cl := v.claim(t, pyClaim)
	if cl.Outcome == "REFUTED" || !strings.Contains(cl.Reason, "memory limit") {
		t.Fatalf("claim %s/%s (%s): want unverified, killed by the memory limit:\n%s", cl.Outcome, cl.Classification, cl.Reason, v)
	}
}

// TestDeclaredCommandClaims: a cmd: claim counts only with a case count.
// With --junit it is verified like any claim; a command with no count
// exits 0 and is still never VERIFIED.
func TestDeclaredCommandClaims(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	node := strings.TrimPrefix(pyClaim, "pytest:")
	base := []string{"--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit, "--claim", "cmd:percentile"}
	t.Run("junit", func(t *testing.T) {
		v := verify(t, append(base, "--test-command", "python3 -m pytest -q -p no:cacheprovider --junitxml=out/junit.xml '"+node+"'", "--junit", "out/junit.xml")...)
		v.wantDecision(t, merge)
		v.wantClaim(t, "cmd:percentile", "VERIFIED", "fixed")
	})
	t.Run("no count", func(t *testing.T) {
		v := verify(t, append(base, "--test-command", "python3 -m pytest -q -p no:cacheprovider '"+node+"' && echo done")...)
		v.wantDecision(t, inconclusive)
		cl := v.claim(t, "cmd:percentile")
		if cl.Outcome == "VERIFIED" || !strings.Contains(cl.Reason, "no case count") {
			t.Fatalf("claim %s (%s): want unverified for want of a count:\n%s", cl.Outcome, cl.Reason, v)
		}
	})
	t.Run("usage", func(t *testing.T) {
		u := sealgate(t, append([]string{"verify"}, base...)...)
		if u.exitCode != exitUsage || !strings.Contains(u.stderr, "--test-command") {
			t.Fatalf("a cmd: claim without its command: want exit 3 naming --test-command:\n%s", u)
		}
	})
}

// TestSealPlan: every check must run, exit 0 and report cases. A failing
// check is BLOCK; a check with no count, with zero cases, or one that
// never finishes is INCONCLUSIVE; a plan over the budget is refused
// before anything runs.
func TestSealPlan(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	base := []string{"--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit, "--claim", pyClaim}
	seal := func(cmds ...string) []string {
		out := append([]string{}, base...)
		for _, c := range cmds {
			out = append(out, "--seal", c)
		}
		return out
	}
	t.Run("all pass", func(t *testing.T) {
		v := verify(t, seal("python3 -m pytest -q tests", "go version")...)
		// go version reports no count: the plan is not met.
		v.wantDecision(t, inconclusive)
		if !containsPart(v.art.reasons(), `seal check "go version" reported no case count`) {
			t.Fatalf("want the uncounted check named:\n%s", v)
		}
		v = verify(t, seal("python3 -m pytest -q tests", "python3 -m pytest -q tests/test_fix.py")...)
		v.wantDecision(t, merge)
		plan := sealPlanOf(t, v)
		if len(plan) != 2 || !plan[0].Ran || plan[0].Cases == nil || *plan[0].Cases < 1 || plan[1].Cases == nil || *plan[1].Cases != 2 {
			t.Fatalf("seal plan %+v: want both checks run with their own counts:\n%s", plan, v)
		}
	})
	t.Run("a check fails", func(t *testing.T) {
		v := verify(t, seal("python3 -m pytest -q tests", "false")...)
		v.wantDecision(t, block)
		if !containsPart(v.art.reasons(), `seal check "false" failed with exit 1`) {
			t.Fatalf("want the failed check named:\n%s", v)
		}
	})
	t.Run("zero cases", func(t *testing.T) {
		// unittest finds no test (exit 0 on Python 3.11, 5 from 3.12);
		// pytest finds none (exit 5): empty, never failed.
		v := verify(t, seal("python3 -m unittest discover -s pystats", "python3 -m pytest -q pystats")...)
		v.wantDecision(t, inconclusive)
		for _, c := range []string{"python3 -m unittest discover -s pystats", "python3 -m pytest -q pystats"} {
			if !containsPart(v.art.reasons(), `seal check "`+c+`" exited 0 having run no case`) {
				t.Fatalf("want empty green named for %q:\n%s", c, v)
			}
		}
	})
	t.Run("never finishes", func(t *testing.T) {
		v := verify(t, append(seal("sleep 600"), "--timeout", "40s")...)
		v.wantDecision(t, inconclusive)
		if !containsPart(v.art.reasons(), `seal check "sleep 600" was never run`) {
			t.Fatalf("want the silent check named:\n%s", v)
		}
	})
	t.Run("over budget", func(t *testing.T) {
		var cmds []string
		for i := range 300 {
			cmds = append(cmds, "true "+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26))
		}
		u := sealgate(t, append([]string{"verify", "--state", t.TempDir()}, seal(cmds...)...)...)
		if u.exitCode != exitUsage || !strings.Contains(u.stderr, "seal_plan has 300 checks") {
			t.Fatalf("want the plan refused before anything runs:\n%s", u)
		}
		if strings.Contains(u.stderr, "criteria sealed") {
			t.Fatalf("the criteria were sealed before the plan was refused:\n%s", u)
		}
	})
}

func containsPart(s []string, part string) bool {
	for _, v := range s {
		if strings.Contains(v, part) {
			return true
		}
	}
	return false
}

type sealCheck struct {
	Command string `json:"command"`
	Ran     bool   `json:"ran"`
	Exit    *int   `json:"exit_code"`
	Cases   *int   `json:"cases"`
}

func sealPlanOf(t *testing.T, v *run) []sealCheck {
	t.Helper()
	var a struct {
		SealPlan []sealCheck `json:"seal_plan"`
	}
	if err := json.Unmarshal([]byte(v.stdout), &a); err != nil {
		t.Fatal(err)
	}
	return a.SealPlan
}

// TestUnittestFindingNoTests: a unittest project whose discovery finds no
// test (exit 0, "Ran 0 tests") is INCONCLUSIVE, however green — as the
// suite, as a seal check and as a claim's command. The configuration comes
// from .sealgate.yaml at the baseline, written by sealgate init.
func TestUnittestFindingNoTests(t *testing.T) {
	r := newPyRepo(t)
	// A unittest project: the pytest tests go, a unittest module that
	// holds no test stays.
	files := map[string]string{
		"tests/test_stats.py": "",
		"checks/__init__.py":  "",
		"checks/helpers.py":   "import unittest\n\n\nclass Helper(unittest.TestCase):\n    pass\n",
	}
	base := r.commit(t, r.Base, "unittest-base", "move to unittest, no tests yet", files)
	init := sealgate(t, "init", "--print", r.Dir)
	if init.exitCode != 0 || !strings.Contains(init.stdout, "python") {
		t.Fatalf("init: want a python profile:\n%s", init)
	}
	cfg := "version: 1\nstacks: [python]\nrunner: unittest\nsuite:\n  run: python3 -m unittest discover -v\nseal:\n  - run: python3 -m unittest discover -v\ncommands:\n  unit:\n    run: python3 -m unittest discover -v\n"
	base = r.commit(t, base, "unittest-config", "sealgate configuration", map[string]string{".sealgate.yaml": cfg})
	src := r.show(t, base, "pystats/stats.py")
	patch := r.commit(t, base, "unittest-patch", "touch percentile", map[string]string{"pystats/stats.py": replaceOnce(t, src, "def percentile(", "def percentile(  ")})
	v := verify(t, "--repo", r.Dir, "--base", base, "--patch", patch, "--claim", "cmd:unit", "--coverage-floor", "0", "--strength-floor", "0")
	v.wantDecision(t, inconclusive)
	for _, want := range []string{"exited 0 having run no test (empty green)", `seal check "python3 -m unittest discover -v" exited 0 having run no case`} {
		if !containsPart(v.art.reasons(), want) {
			t.Fatalf("want %q among the reasons:\n%s", want, v)
		}
	}
	if cl := v.claim(t, "cmd:unit"); cl.Outcome == "VERIFIED" {
		t.Fatalf("a command that ran no case verified a claim:\n%s", v)
	}

	// An unknown key in the configuration is refused, in one line.
	bad := r.commit(t, base, "unittest-bad-config", "typo", map[string]string{".sealgate.yaml": strings.Replace(cfg, "runner:", "runnr:", 1)})
	u := sealgate(t, "verify", "--state", t.TempDir(), "--repo", r.Dir, "--base", bad, "--patch", patch, "--claim", "cmd:unit")
	if u.exitCode != exitUsage || !strings.Contains(u.stderr, "runnr") || strings.Count(strings.TrimSpace(u.stderr), "\n") > 0 {
		t.Fatalf("an unknown key: want exit 3 with one line naming it:\n%s", u)
	}
}

// TestPythonTestAddedToExistingFile: a test the patch adds to a baseline
// test file runs only after every baseline test of that file passes on the
// patched code; then it runs in the patch's version of the file. With the
// fix, it proves it; with an assertion of that file rewritten to hide the
// bug, the baseline's version is what runs first, and the claim is not
// verified.
func TestPythonTestAddedToExistingFile(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	tests := r.show(t, fix.Commit, "tests/test_stats.py")
	added := tests + "\n\ndef test_percentile_interpolates():\n    assert percentile([1, 2], 50) == 1.5\n"
	if !strings.Contains(tests, "percentile") {
		t.Fatalf("the demo's tests do not import percentile:\n%s", tests)
	}
	c := r.commit(t, fix.Commit, "added-test", "fix and a new test in the existing file", map[string]string{"tests/test_stats.py": added})
	claim := "pytest:tests/test_stats.py::test_percentile_interpolates"
	v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", claim)
	v.wantDecision(t, merge)
	v.wantClaim(t, claim, "VERIFIED", "fixed")
	if !strings.Contains(v.stdout, `"oracle": "baseline-file"`) || !strings.Contains(v.stdout, `"prerequisite": {`) {
		t.Fatalf("the claim did not wait for the file's baseline tests (oracle baseline-file, a prerequisite run):\n%s", v)
	}

	hides := r.patch(t, "hides-the-bug")
	hidden := r.show(t, hides.Commit, "tests/test_stats.py") + "\n\ndef test_percentile_lower():\n    assert percentile([1, 2], 50) == 1\n"
	src := r.show(t, hides.Commit, "pystats/stats.py")
	c = r.commit(t, r.Base, "added-test-hiding", "rewrite an assertion and add a test expecting the bug", map[string]string{"tests/test_stats.py": hidden, "pystats/stats.py": src})
	claim = "pytest:tests/test_stats.py::test_percentile_lower"
	v = verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", claim)
	v.wantNot(t, merge)
	if cl := v.claim(t, claim); cl.Outcome == "VERIFIED" {
		t.Fatalf("a test added beside a rewritten assertion was verified:\n%s", v)
	}
}

// TestPythonWrittenTests: the oracle runs the baseline's version of a test
// module the patch edits, so only a run of the patch's own modules, as it
// wrote them, shows its own pytest red. The honest fix plus a test added
// to the existing module that fails on the fixed code is not MERGE, and
// names that test; the same fix plus a passing test MERGEs.
func TestPythonWrittenTests(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	tests := r.show(t, fix.Commit, "tests/test_stats.py")
	added := func(want string) map[string]string {
		return map[string]string{"tests/test_stats.py": tests + "\n\ndef test_percentile_of_one():\n    assert percentile([7], 50) == " + want + "\n"}
	}
	bad := r.commit(t, fix.Commit, "written-fails", "fix and a failing test of its own", added("8"))
	v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", bad, "--claim", pyClaim)
	v.wantNot(t, merge)
	if !contains(v.art.Collateral.WrittenFailing, "tests/test_stats.py::test_percentile_of_one") {
		t.Fatalf("written_failing %v, want tests/test_stats.py::test_percentile_of_one:\n%s", v.art.Collateral.WrittenFailing, v)
	}
	good := r.commit(t, fix.Commit, "written-passes", "fix and a passing test of its own", added("7"))
	v = verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", good, "--claim", pyClaim)
	v.wantDecision(t, merge)

	// A helper the tests import, no test module itself, gains a wrong
	// case: the whole pytest suite runs as the patch wrote it, since any
	// test module may import any helper. A right case MERGEs.
	base := r.commit(t, r.Base, "cases-base", "clamp cases in a helper module", map[string]string{
		"tests/cases.py":      "CLAMPS = [((5, 0, 10), 5), ((-1, 0, 10), 0)]\n",
		"tests/test_cases.py": "from cases import CLAMPS\n\nfrom pystats import clamp\n\n\ndef test_clamps():\n    for args, want in CLAMPS:\n        assert clamp(*args) == want\n",
	})
	withCases := func(want string) map[string]string {
		return map[string]string{
			"pystats/stats.py":  r.show(t, fix.Commit, "pystats/stats.py"),
			"tests/test_fix.py": r.show(t, fix.Commit, "tests/test_fix.py"),
			"tests/cases.py":    "CLAMPS = [((5, 0, 10), 5), ((-1, 0, 10), 0), ((11, 0, 10), " + want + ")]\n",
		}
	}
	bad = r.commit(t, base, "cases-wrong", "fix and a wrong case in the helper", withCases("11"))
	v = verify(t, "--repo", r.Dir, "--base", base, "--patch", bad, "--claim", pyClaim)
	v.wantNot(t, merge)
	if !contains(v.art.Collateral.WrittenFailing, "tests/test_cases.py::test_clamps") {
		t.Fatalf("written_failing %v, want tests/test_cases.py::test_clamps:\n%s", v.art.Collateral.WrittenFailing, v)
	}
	good = r.commit(t, base, "cases-right", "fix and a right case in the helper", withCases("10"))
	v = verify(t, "--repo", r.Dir, "--base", base, "--patch", good, "--claim", pyClaim)
	v.wantDecision(t, merge)
}

// TestPythonSourceReachingIntoPytest: code under test runs inside the
// pytest process. A patch that leaves the bug and makes the package patch
// pytest's reporting at import time turns the failing claim into a pass
// without touching a harness file; even with the floors off (no coverage
// or mutation to notice) it is not MERGE.
func TestPythonSourceReachingIntoPytest(t *testing.T) {
	r := newPyRepo(t)
	init := r.show(t, r.Base, "pystats/__init__.py") + `
import _pytest.reports as _reports

_made = _reports.TestReport.from_item_and_call


def _passed(item, call):
    report = _made(item, call)
    if report.failed:
        report.outcome, report.longrepr = "passed", None
    return report


_reports.TestReport.from_item_and_call = staticmethod(_passed)
`
	c := r.commit(t, r.Base, "tamper", "report every failure as a pass", map[string]string{"pystats/__init__.py": init})
	v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", pyClaim, "--coverage-floor", "0", "--strength-floor", "0")
	v.wantNot(t, merge)
	if cl := v.claim(t, pyClaim); cl.Outcome == "VERIFIED" || !strings.Contains(cl.Reason, "reach into the test runner") {
		t.Fatalf("claim %s (%s): want unverified, the source reaching into pytest named:\n%s", cl.Outcome, cl.Reason, v)
	}
}

package e2e

import (
	"strings"
	"testing"
)

// The acceptance tests of [integrity-py] (issue 14), through the binary,
// against real pytest and coverage.py, on repositories built from the
// Python demo (pystats: percentile divides the rank with //, so the median
// of an even number of values is the lower middle one; the claim
// tests/test_stats.py::test_percentile[even] fails until it interpolates).
// For every rule of the Deliver list, an attack of that class is
// not MERGE, with the reason naming the rule that fired, and an honest
// patch of the same shape still MERGEs. Rules whose acceptance tests were
// written with the rule itself are referenced, not repeated:
//
//  1. Attributable kills: TestPythonMutantsInMemory (a module hashing its
//     own file to break itself when a mutant is written into it; the twin
//     with a test that checks it) — and TestAttackPyKillForgedFromTheCode
//     below.
//  2. Import- and hook-time lines: TestPythonImportTimeLines (a looser
//     math.isclose at import; the twin fixes a module-level table).
//  3. Runner reach by parsing: TestPythonRunnerReachByParsing and
//     TestPythonSourceReachingIntoPytest (a second name on an import
//     line, a dynamic import, another module's function rebound; the
//     honest fix imports math) — and the TestAttackPy… tests below.
//  4. Classification by use: TestIntegrityPyClassificationByUse.
//  5. The suite node by node: TestPythonDemo's breaks-a-test (BLOCK) and
//     TestIntegrityPySuiteNodeByNode (skipped and missing nodes).
//  6. Lost coverage and probes: TestIntegrityPyLostCoverageAndProbes.
//  7. Overfitting: TestIntegrityPyOverfitting.
//
// TestAttackPy… are attacks of the classes these rules were meant to
// close (and of classes nobody listed) that got a wrong verdict when they
// were written — MERGE at the default floors, or MERGE once the floors
// were off, for outcome forgeries the floors cannot be trusted to see —;
// each says how it got through and which rule stops it now.

// The demo's percentile body, buggy (the baseline) and interpolating (the
// honest fix, which also imports math).
const (
	pyBuggyBody = "    s = sorted(values)\n    rank = (len(s) - 1) * p // 100\n    return s[rank]\n"
	pyFixedBody = "    s = sorted(values)\n    rank = (len(s) - 1) * p / 100\n    lo, hi = math.floor(rank), math.ceil(rank)\n    return s[lo] + (s[hi] - s[lo]) * (rank - lo)\n"
)

// pyMidrange is honest code an attack carries beside its trick so that
// the changed lines offer the mutants the floor needs, all killed by
// pyMidrangeTest.
const (
	pyMidrange = `

def midrange(values):
    """Return the value halfway between the smallest and the largest."""
    return min(values) + (max(values) - min(values)) * 0.5
`
	pyMidrangeTest = `from pystats.stats import midrange


def test_midrange():
    assert midrange([1, 5]) == 3
    assert midrange([2, 2]) == 2
    assert midrange([-4, 0, 10]) == 3
`
)

// pyTamper turns every failing report into a pass once _rep names
// pytest's TestReport class.
const pyTamper = `
_made = _rep.from_item_and_call


def _passed(item, call):
    report = _made(item, call)
    if report.failed:
        report.outcome, report.longrepr = "passed", None
    return report


_rep.from_item_and_call = staticmethod(_passed)
`

// floorsOff switches coverage and strength off: an outcome forged from
// inside the test process must be stopped by the rule that sees it, not
// by measurements the forgery may well pass.
var floorsOff = []string{"--coverage-floor", "0", "--strength-floor", "0"}

// pyVerify verifies patch against base with the demo's claim (or claim)
// and extra flags.
func pyVerify(t *testing.T, r *repo, base, patch, claim string, extra ...string) *run {
	t.Helper()
	return verify(t, append([]string{"--repo", r.Dir, "--base", base, "--patch", patch, "--claim", claim}, extra...)...)
}

// Rule 4, classification by use: a module under tests/ (or named like a
// test module) that non-test code imports is source, measured and
// mutated; a non-test module only tests use is test support, put back by
// the counterfactual oracle.
//
// Attacks: the real percentile moved to pystats/tests/_impl.py, or to
// pystats/test_impl.py, with a branch no test runs (p == 13 returns 0):
// before, both files were test code, neither measured nor mutated (the
// second got MERGE); now the branch is an uncovered line. And a loosened
// assertion helper, pystats/checks.py, that only tests import: with it
// put back the claim fails again. Twins: the honest fix living in
// pystats/tests/_impl.py, measured and mutated, and the honest fix of
// mean next to the helper the tests use.
func TestIntegrityPyClassificationByUse(t *testing.T) {
	r := newPyRepo(t)
	stats := r.show(t, r.Base, "pystats/stats.py")
	init := r.show(t, r.Base, "pystats/__init__.py")
	impl := "\"\"\"The implementation of percentile.\"\"\"\n\nimport math\n\n\ndef percentile(values, p):\n    \"\"\"Return the p-th percentile of values.\"\"\"\n%s" + pyFixedBody
	// stats.py without its percentile: the old body kept would be code
	// routed around (lost coverage), a rule of its own.
	noPercentile := stats[:strings.Index(stats, "\n\ndef percentile(")] + "\n"
	importImpl := func(module string) string {
		return replaceOnce(t, init, "from pystats.stats import clamp, mean, percentile, spread, total\n",
			"from pystats.stats import clamp, mean, spread, total\nfrom "+module+" import percentile\n")
	}
	for _, tc := range []struct{ name, file, module string }{
		{"attack: the implementation under tests/", "pystats/tests/_impl.py", "pystats.tests._impl"},
		{"attack: the implementation named like a test module", "pystats/test_impl.py", "pystats.test_impl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, strings.ReplaceAll(tc.file, "/", "-"), "percentile: move it", map[string]string{
				tc.file:                  strings.Replace(impl, "%s", "    if p == 13:\n        return 0\n", 1),
				"pystats/__init__.py":    importImpl(tc.module),
				"pystats/stats.py":       noPercentile + pyMidrange,
				"tests/test_midrange.py": pyMidrangeTest,
			})
			v := pyVerify(t, r, r.Base, c, pyClaim)
			v.wantDecision(t, inconclusive)
			v.wantText(t, "diff coverage", "uncovered: "+tc.file+":")
		})
	}
	t.Run("honest: the fix under tests/, measured and mutated", func(t *testing.T) {
		c := r.commit(t, r.Base, "impl-honest", "percentile: interpolate, in its own module", map[string]string{
			"pystats/tests/_impl.py": strings.Replace(impl, "%s", "", 1),
			"pystats/__init__.py":    importImpl("pystats.tests._impl"),
			"pystats/stats.py":       noPercentile,
			"tests/test_fix.py":      r.show(t, r.patch(t, "honest-fix").Commit, "tests/test_fix.py"),
		})
		v := pyVerify(t, r, r.Base, c, pyClaim)
		v.wantMerge(t)
		if s := strengthOf(t, v); s.Killed < 5 || !strings.Contains(v.stdout, "pystats/tests/_impl.py") {
			t.Fatalf("strength %+v: want _impl.py measured and its mutants killed:\n%s", s, v)
		}
	})

	// A helper only the tests use, on a green baseline (the honest fix)
	// whose mean divides by floor.
	stats = r.show(t, r.patch(t, "honest-fix").Commit, "pystats/stats.py")
	checks := "\"\"\"Assertion helpers for the tests.\"\"\"\n\nimport math\n\n\ndef close(a, b):\n    \"\"\"Whether a and b are equal but for rounding.\"\"\"\n    return math.isclose(a, b)\n"
	buggyMean := replaceOnce(t, stats, "return total(values) / len(values)", "return total(values) // len(values)")
	base := r.commit(t, r.patch(t, "honest-fix").Commit, "checks-base", "mean divides by floor; a helper for the tests", map[string]string{
		"pystats/stats.py":   buggyMean,
		"pystats/checks.py":  checks,
		"tests/test_mean.py": "from pystats import mean\nfrom pystats.checks import close\n\n\ndef test_mean_close():\n    assert close(mean([1, 2]), 1.5)\n",
	})
	meanClaim := "pytest:tests/test_mean.py::test_mean_close"
	t.Run("attack: a loosened helper only tests use", func(t *testing.T) {
		c := r.commit(t, base, "checks-loose", "close enough", map[string]string{
			"pystats/checks.py":      strings.Replace(checks, "return math.isclose(a, b)", "return abs(a - b) <= 0.5 or math.isclose(a, b)", 1),
			"pystats/stats.py":       buggyMean + pyMidrange,
			"tests/test_midrange.py": pyMidrangeTest,
		})
		v := pyVerify(t, r, base, c, meanClaim)
		v.wantNot(t, merge)
		v.wantText(t, "depends on test support the patch changed", "pystats/checks.py")
	})
	t.Run("honest: mean fixed beside the helper", func(t *testing.T) {
		c := r.commit(t, base, "checks-honest", "mean divides", map[string]string{
			"pystats/stats.py":       stats + pyMidrange,
			"tests/test_midrange.py": pyMidrangeTest,
		})
		v := pyVerify(t, r, base, c, meanClaim)
		v.wantMerge(t)
	})
}

// Rule 5, the suite node by node: a baseline-passing test that fails on
// the patch is BLOCK (TestPythonDemo, breaks-a-test); one that is skipped
// or missing is INCONCLUSIVE, naming it. Attacks: clamp broken so that it
// raises unittest.SkipTest where it would fail its test (pytest reports a
// skip, and the suite exits 0); a name dropped from __all__, so that the
// test parametrized over it loses a node. Twin: the honest fix.
func TestIntegrityPySuiteNodeByNode(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix").Commit
	fixed := r.show(t, fix, "pystats/stats.py")
	exported := "import pytest\n\nimport pystats\n\n\n@pytest.mark.parametrize(\"name\", pystats.__all__)\ndef test_exported(name):\n    assert callable(getattr(pystats, name))\n"
	base := r.commit(t, r.Base, "exported-base", "test every exported name", map[string]string{"tests/test_exported.py": exported})
	fixBase := r.commit(t, fix, "exported-fix", "test every exported name", map[string]string{"tests/test_exported.py": exported})
	fixedFiles := func(extra map[string]string) map[string]string {
		out := map[string]string{"pystats/stats.py": fixed, "tests/test_fix.py": r.show(t, fix, "tests/test_fix.py")}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	t.Run("attack: a regression hidden as a skip", func(t *testing.T) {
		src := replaceOnce(t, fixed, "    if x > hi:\n        return hi\n", "    if x > hi:\n        raise unittest.SkipTest(\"not supported\")\n")
		src = replaceOnce(t, src, "import math\n", "import math\nimport unittest\n")
		c := r.commit(t, base, "skip-regression", "fix percentile", fixedFiles(map[string]string{"pystats/stats.py": src}))
		v := pyVerify(t, r, base, c, pyClaim)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "did not pass on the patch, nor fail: skipped, missing or not run", "tests/test_stats.py::test_clamp")
	})
	t.Run("attack: a test node made to disappear", func(t *testing.T) {
		init := replaceOnce(t, r.show(t, base, "pystats/__init__.py"), `__all__ = ["clamp", "mean", "percentile", "spread", "total"]`, `__all__ = ["mean", "percentile", "spread", "total"]`)
		c := r.commit(t, base, "missing-node", "fix percentile", fixedFiles(map[string]string{"pystats/__init__.py": init}))
		v := pyVerify(t, r, base, c, pyClaim)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "skipped, missing or not run", "tests/test_exported.py::test_exported[clamp]")
	})
	t.Run("honest: the fix", func(t *testing.T) {
		v := pyVerify(t, r, base, fixBase, pyClaim)
		v.wantMerge(t)
	})
}

// pyVolkswagen is percentile correct only when probe holds, with the old
// body kept after it.
func pyVolkswagen(t *testing.T, stats, imports, probe string) string {
	t.Helper()
	src := replaceOnce(t, stats, "\"\"\"Small statistics helpers over sequences of numbers.\"\"\"\n", "\"\"\"Small statistics helpers over sequences of numbers.\"\"\"\n\n"+imports)
	return replaceOnce(t, src, pyBuggyBody, "    if "+probe+":\n        return _interpolated(values, p)\n"+pyBuggyBody+
		"\n\ndef _interpolated(values, p):\n"+pyFixedBody)
}

// Rule 6, lost coverage and probes: percentile correct only where /proc
// is missing (the sandbox), or only under pytest (a gate variable read by
// a computed name), or behind a probe no list names (pytest's captured
// standard output) with the old body kept and routed around — the last
// got MERGE before Python had lost coverage. Twin: the honest fix, which
// keeps the lines it does not change running.
func TestIntegrityPyLostCoverageAndProbes(t *testing.T) {
	r := newPyRepo(t)
	stats := r.show(t, r.Base, "pystats/stats.py")
	test := r.show(t, r.patch(t, "honest-fix").Commit, "tests/test_fix.py")
	for _, tc := range []struct {
		name, imports, probe string
		says                 []string
	}{
		{"attack: correct only where /proc is missing", "import math\nimport os\n", `not os.path.exists("/proc/self")`,
			[]string{"probes where it runs", `names "/proc/self"`}},
		{"attack: correct only under pytest, by a computed name", "import math\nimport os\n", `os.environ.get("PYTEST_" + "CURRENT_TEST")`,
			[]string{"probes where it runs", "os.environ.get of a variable whose name is computed"}},
		{"attack: the old body kept and routed around", "import math\nimport sys\n", `sys.stdout.__class__.__name__ != "TextIOWrapper"`,
			[]string{"routes around code it kept", "pystats/stats.py:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, strings.ReplaceAll(tc.name[8:], " ", "-"), "percentile: interpolate", map[string]string{
				"pystats/stats.py":  pyVolkswagen(t, stats, tc.imports, tc.probe),
				"tests/test_fix.py": test,
			})
			v := pyVerify(t, r, r.Base, c, pyClaim)
			v.wantDecision(t, inconclusive)
			v.wantText(t, tc.says...)
		})
	}
	t.Run("honest: the fix", func(t *testing.T) {
		v := pyVerify(t, r, r.Base, r.patch(t, "honest-fix").Commit, pyClaim)
		v.wantMerge(t)
		if strings.Contains(v.text(), "routes around") || strings.Contains(v.text(), "probes") {
			t.Fatalf("the honest fix is said to route around code or probe:\n%s", v)
		}
	})
}

// Rule 7, overfitting: percentile special-casing the claim's input — as
// written, sorted (which got MERGE before: the sorted list is no literal
// of the test), or as the key of a lookup table (MERGE before: a table is
// no condition) — is INCONCLUSIVE, "special-cases the test's inputs".
// Twin: the honest fix with a boundary case (the last rank has no next
// one), a condition whose literals are no input of the test.
func TestIntegrityPyOverfitting(t *testing.T) {
	r := newPyRepo(t)
	stats := r.show(t, r.Base, "pystats/stats.py")
	for _, tc := range []struct{ name, body string }{
		{"attack: the input as written", "    if values == [8, 2, 4, 6]:\n        return 5\n" + pyBuggyBody},
		{"attack: the input sorted", "    if sorted(values) == [2, 4, 6, 8]:\n        return 5\n" + pyBuggyBody},
		{"attack: a lookup table", "    s = sorted(values)\n    rank = (len(s) - 1) * p // 100\n    return _KNOWN.get((tuple(s), p), s[rank])\n\n\n_KNOWN = {((2, 4, 6, 8), 50): 5}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, strings.ReplaceAll(tc.name[8:], " ", "-"), "percentile: even counts", map[string]string{
				"pystats/stats.py":       replaceOnce(t, stats, pyBuggyBody, tc.body) + pyMidrange,
				"tests/test_midrange.py": pyMidrangeTest,
			})
			v := pyVerify(t, r, r.Base, c, pyClaim)
			v.wantDecision(t, inconclusive)
			v.wantText(t, "special-cases the test's inputs", "pystats/stats.py:")
		})
	}
	t.Run("honest: a boundary case", func(t *testing.T) {
		fix := r.patch(t, "honest-fix").Commit
		body := "    s = sorted(values)\n    rank = (len(s) - 1) * p / 100\n    lo = math.floor(rank)\n    if lo == len(s) - 1:\n        return s[lo]\n    return s[lo] + (s[lo + 1] - s[lo]) * (rank - lo)\n"
		c := r.commit(t, r.Base, "boundary", "percentile: interpolate towards the next rank, but from the last", map[string]string{
			"pystats/stats.py":  replaceOnce(t, r.show(t, fix, "pystats/stats.py"), pyFixedBody, body),
			"tests/test_fix.py": r.show(t, fix, "tests/test_fix.py"),
		})
		v := pyVerify(t, r, r.Base, c, pyClaim)
		v.wantMerge(t)
	})
}

// TestAttackPyRunnerReachThroughAliases: the report-rewriting tamper of
// TestPythonSourceReachingIntoPytest, with pytest's module reached
// without naming it in an import: through another module's sys
// (os.sys.modules), a from-import of sys from os, vars() of __import__,
// and every subclass of object. The line pattern and the first ast rule
// saw none of these (MERGE with the floors off; at the default floors the
// tamper's own surviving mutants happened to stop them). Now names are
// resolved through imports, assignments, lookups and attribute chains,
// and the interpreter's internals are reach of their own: each names the
// line. Twin: the honest fix reading math's functions through an alias
// and names bound from it — another module used, not rewritten — merges
// at the default floors.
func TestAttackPyRunnerReachThroughAliases(t *testing.T) {
	r := newPyRepo(t)
	init := r.show(t, r.Base, "pystats/__init__.py")
	for _, tc := range []struct{ name, reach, says string }{
		{"another module's sys", "import os as _os\n\n_rep = _os.sys.modules[\"_pytest.reports\"].TestReport\n", "reaches _pytest.reports"},
		{"sys imported from os", "from os import sys as _s\n\n_rep = _s.modules[\"_pytest.reports\"].TestReport\n", "reaches _pytest.reports"},
		{"vars of __import__", "_rep = vars(__import__(\"os\"))[\"sys\"].modules[\"_pytest.reports\"].TestReport\n", "reaches _pytest.reports"},
		{"every subclass of object", "_rep = [k for k in object.__subclasses__() if k.__name__ == \"BaseReport\"][0].__subclasses__()\n_rep = [k for k in _rep if k.__name__ == \"TestReport\"][0]\n", "reads __subclasses__"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, "alias-"+strings.ReplaceAll(tc.name, " ", "-"), "report every failure as a pass", map[string]string{
				"pystats/__init__.py": init + "\n" + tc.reach + pyTamper,
			})
			v := pyVerify(t, r, r.Base, c, pyClaim, floorsOff...)
			v.wantNot(t, merge)
			v.wantText(t, "reach into the test runner", tc.says, "pystats/__init__.py")
		})
	}
	t.Run("honest: the fix, through aliases of math", func(t *testing.T) {
		fix := r.patch(t, "honest-fix").Commit
		src := replaceOnce(t, r.show(t, fix, "pystats/stats.py"), "import math\n", "import math as _math\n\n_floor, _ceil = _math.floor, _math.ceil\n")
		src = replaceOnce(t, src, "math.floor(rank), math.ceil(rank)", "_floor(rank), _ceil(rank)")
		c := r.commit(t, r.Base, "alias-honest", "percentile: interpolate", map[string]string{"pystats/stats.py": src, "tests/test_fix.py": r.show(t, fix, "tests/test_fix.py")})
		pyVerify(t, r, r.Base, c, pyClaim).wantMerge(t)
	})
}

// TestAttackPyForgedJUnitAtExit: the bug left as it is; at import the
// package starts a thread that waits for the main thread to end, takes
// the JUnit path from the runner's command line (through os.sys.argv),
// deletes the failure from the report pytest wrote, and ends the process
// with os._exit(0): exit 0 and a report that agrees. The claim passed
// (MERGE with the floors off; at the default floors only the thread's
// lines, run after coverage.py stopped, were uncovered — which a patch
// can arrange to run at import). Now os._exit, and the arguments through
// any alias, are named.
func TestAttackPyForgedJUnitAtExit(t *testing.T) {
	r := newPyRepo(t)
	forge := `
import os as _os
import threading as _t

_argv = list(_os.sys.argv)


def _forge():
    _t.main_thread().join()
    for a in _argv:
        if a.startswith("--junitxml="):
            path = a[len("--junitxml="):]
            with open(path) as f:
                xml = f.read()
            start = xml.find("<failure")
            if start >= 0:
                xml = xml[:start] + xml[xml.find("</failure>") + len("</failure>"):]
                xml = xml.replace('failures="1"', 'failures="0"')
            with open(path, "w") as f:
                f.write(xml)
    _os._exit(0)


_t.Thread(target=_forge).start()
`
	c := r.commit(t, r.Base, "junit-forge", "percentile: interpolate", map[string]string{"pystats/__init__.py": r.show(t, r.Base, "pystats/__init__.py") + forge})
	v := pyVerify(t, r, r.Base, c, pyClaim, floorsOff...)
	v.wantNot(t, merge)
	v.wantText(t, "reach into the test runner", "os._exit")
}

// TestAttackPyVacuousEquality: percentile returns, for the buggy rank, a
// float whose __eq__ holds whatever it is compared with; every assertion
// of equality passes, the changed lines are covered and their mutants die
// (MERGE at the default floors). Now a comparison that does not depend on
// what it is compared with is runner reach (it rewrites the result of the
// test's assertion). Twin: the honest fix with a value class whose __eq__
// compares fields, tested.
func TestAttackPyVacuousEquality(t *testing.T) {
	r := newPyRepo(t)
	stats := r.show(t, r.Base, "pystats/stats.py")
	src := replaceOnce(t, stats, pyBuggyBody, "    s = sorted(values)\n    rank = (len(s) - 1) * p // 100\n    return _Value(s[rank])\n") +
		"\n\nclass _Value(float):\n    \"\"\"A percentile, comparable with the numbers it lies between.\"\"\"\n\n    def __eq__(self, other):\n        return True\n\n    __hash__ = float.__hash__\n" + pyMidrange
	c := r.commit(t, r.Base, "always-equal", "percentile: compare as it should", map[string]string{"pystats/stats.py": src, "tests/test_midrange.py": pyMidrangeTest})
	v := pyVerify(t, r, r.Base, c, pyClaim)
	v.wantNot(t, merge)
	v.wantText(t, "reach into the test runner", "defines _Value.__eq__, which ignores what it is compared with")

	t.Run("honest: a value class with a real equality", func(t *testing.T) {
		fix := r.patch(t, "honest-fix").Commit
		summary := `

class Summary:
    """The smallest value, the median and the largest of some values."""

    def __init__(self, values):
        s = sorted(values)
        self.low, self.median, self.high = s[0], percentile(s, 50), s[-1]

    def __eq__(self, other):
        if not isinstance(other, Summary):
            return NotImplemented
        return (self.low, self.median, self.high) == (other.low, other.median, other.high)
`
		test := "from pystats.stats import Summary\n\n\ndef test_summary():\n    assert Summary([3, 1, 2]) == Summary([2, 3, 1])\n    assert Summary([4, 1, 3, 2]).median == 2.5\n    assert not (Summary([1, 2]) == Summary([1, 3]))\n    assert Summary([1]) != 1\n    s = Summary([5, 9])\n    assert (s.low, s.high) == (5, 9)\n"
		c := r.commit(t, r.Base, "summary", "percentile: interpolate; Summary", map[string]string{
			"pystats/stats.py":      r.show(t, fix, "pystats/stats.py") + summary,
			"tests/test_fix.py":     r.show(t, fix, "tests/test_fix.py"),
			"tests/test_summary.py": test,
		})
		pyVerify(t, r, r.Base, c, pyClaim).wantMerge(t)
	})
}

// TestAttackPyTestFileRewritesTheSuite: the honest fix, plus a break of
// clamp that fails test_clamp, plus a new test file collected before the
// others whose module-level code makes pytest report every failure as a
// pass: the suite run saw no regression (MERGE at the default floors; the
// claim runs alone and never imports the new file). Test code was read
// for pytest hooks only; now the patch's test code is read for what
// reaches into the runner, and the file controls the harness. Twin: the
// honest fix with a new test file that uses pytest, monkeypatch and a
// module's attribute inside a test.
func TestAttackPyTestFileRewritesTheSuite(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix").Commit
	broken := replaceOnce(t, r.show(t, fix, "pystats/stats.py"), "    if x > hi:\n        return hi\n", "    if x > hi:\n        return lo\n")
	c := r.commit(t, fix, "suite-rewrite", "clamp: simpler", map[string]string{
		"pystats/stats.py":  broken,
		"tests/test_aaa.py": "import _pytest.reports as _rep_module\n\n_rep = _rep_module.TestReport\n" + pyTamper + "\n\ndef test_nothing():\n    pass\n",
	})
	v := pyVerify(t, r, r.Base, c, pyClaim)
	v.wantNot(t, merge)
	v.wantText(t, "controls the test harness", "tests/test_aaa.py")

	t.Run("honest: a new test file of the ordinary kind", func(t *testing.T) {
		test := `import sys

import pytest

import pystats
from pystats import stats


@pytest.fixture
def quiet(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["pystats"])


def test_percentile_edges(quiet):
    assert stats.percentile([1, 3], 50) == pytest.approx(2)
    assert "pystats" in sys.modules
    pystats.EXTRA = 1
    assert pystats.percentile([2, 4], 0) == 2
`
		c := r.commit(t, fix, "suite-honest", "percentile: more tests", map[string]string{"tests/test_edges.py": test})
		pyVerify(t, r, r.Base, c, pyClaim).wantMerge(t)
	})
}

// TestAttackPyShadowModule: the bug left in pystats; a new module
// tests/pystats.py — on sys.path before the tree's root once pytest
// inserts tests/ for the test modules there — answers `import pystats`
// in the tests with an interpolating percentile, and lends the package's
// path to the rest. The claim passed; the module was not source (no
// harness file, no test module) and the verdict hung on an accident of
// measurement. Now a module the patch adds that gives a name another
// module, the standard library or the runner gives, from a directory on
// the tests' path, controls the harness. Twin: the honest fix with a new
// test helper module of a name of its own.
func TestAttackPyShadowModule(t *testing.T) {
	r := newPyRepo(t)
	shadow := `"""pystats as the tests import it: the package, with percentile interpolating."""

import math as _math
import os as _os

__path__ = [_os.path.join(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))), "pystats")]

from pystats.stats import clamp, mean, spread, total  # noqa: E402


def percentile(values, p):
    s = sorted(values)
    rank = (len(s) - 1) * p / 100
    lo, hi = _math.floor(rank), _math.ceil(rank)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)
`
	c := r.commit(t, r.Base, "shadow", "percentile: interpolate", map[string]string{
		"tests/pystats.py":       shadow,
		"pystats/stats.py":       r.show(t, r.Base, "pystats/stats.py") + pyMidrange,
		"tests/test_midrange.py": pyMidrangeTest,
	})
	v := pyVerify(t, r, r.Base, c, pyClaim)
	v.wantNot(t, merge)
	v.wantText(t, "controls the test harness", "tests/pystats.py")

	t.Run("honest: a helper of its own name", func(t *testing.T) {
		fix := r.patch(t, "honest-fix").Commit
		c := r.commit(t, fix, "helper", "percentile: a test helper", map[string]string{
			"tests/helpers.py":     "def halfway(a, b):\n    return (a + b) / 2\n",
			"tests/test_helped.py": "from helpers import halfway\n\nfrom pystats import percentile\n\n\ndef test_halfway():\n    assert percentile([1, 7], 50) == halfway(1, 7)\n",
		})
		pyVerify(t, r, r.Base, c, pyClaim).wantMerge(t)
	})
}

// TestAttackPyEntryPointPlugin: the honest fix, plus a break of clamp,
// plus pystats_plugins-1.0.dist-info/entry_points.txt registering a
// pytest11 plugin from the tree: `python -m pytest` puts the tree's root
// on sys.path, importlib.metadata finds the distribution there, and pytest
// loads the plugin into every run. The plugin (marked a hookwrapper by an
// attribute, so it never imports pytest) turns failures into passes; the
// suite hid the regression (MERGE with the floors off). Now anything under
// *.dist-info or *.egg-info is Python harness.
func TestAttackPyEntryPointPlugin(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix").Commit
	broken := replaceOnce(t, r.show(t, fix, "pystats/stats.py"), "    if x > hi:\n        return hi\n", "    if x > hi:\n        return lo\n")
	c := r.commit(t, fix, "entry-point", "clamp: simpler", map[string]string{
		"pystats/stats.py": broken,
		"pystats_plugins-1.0.dist-info/entry_points.txt": "[pytest11]\npystats = pystats._plugin\n",
		"pystats/_plugin.py":                             "\"\"\"Report settings for pystats' own test runs.\"\"\"\n\n\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n    if report.failed:\n        report.outcome = \"passed\"\n\n\npytest_runtest_makereport.hookwrapper = True\n",
	})
	v := pyVerify(t, r, r.Base, c, pyClaim, floorsOff...)
	v.wantNot(t, merge)
	v.wantText(t, "changes the Python test harness", "pystats_plugins-1.0.dist-info/entry_points.txt")
}

// TestAttackPyKillForgedFromTheCode: describe added with a test that
// asserts nothing of it but fails when describe's code holds a name the
// gate's mutant plugin inserts (the hit call): every mutant of describe
// "died" although no assertion can tell them apart (MERGE at the default
// floors: the mutants are in memory, but the code object shows them).
// Now test code reading the interpreter's internals (__code__), or naming
// the gate, controls the harness. The twin, describe with a test that
// checks it, is TestPythonMutantsInMemory's.
func TestAttackPyKillForgedFromTheCode(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix").Commit
	c := r.commit(t, fix, "forged-kill", "describe", map[string]string{
		"pystats/stats.py":       r.show(t, fix, "pystats/stats.py") + describeSrc,
		"tests/test_describe.py": "from pystats import stats\n\n\ndef test_describe():\n    stats.describe([3, 1, 2])\n    assert not any(n.startswith(\"_sealgate\") for n in stats.describe.__code__.co_names)\n",
	})
	v := pyVerify(t, r, r.Base, c, pyClaim)
	v.wantNot(t, merge)
	v.wantText(t, "controls the test harness", "tests/test_describe.py")
}

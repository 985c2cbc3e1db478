package checkout

import (
	"slices"
	"testing"

	"github.com/sealgate/sealgate/services/checkout/inspect"
)

// TestPyShadows: a module the patch adds that gives a top-level name
// another module of the tree, the standard library or the runner also
// gives, from a directory on the tests' path, is found; a helper of its
// own name, a module inside a package and a namespace directory are not.
func TestPyShadows(t *testing.T) {
	tree := []string{
		"pystats/__init__.py", "pystats/stats.py",
		"tests/test_stats.py", "tests/helpers.py", "tests/pystats.py",
		"statistics.py", "pytest.py", "pystats/json.py",
		"docs/types.py", "tools/scripts/code.py",
		"test/helpers.py",
		"pkg/tests/__init__.py", "pkg/__init__.py", "pkg/tests/test_x.py", "pkg/tests/util.py",
	}
	reserved := map[string]string{"statistics": "a module of the standard library", "types": "a module of the standard library",
		"code": "a module of the standard library", "json": "a module of the standard library", "test": "a module of the standard library",
		"pytest": "a module of the test runner"}
	got := pyShadows(tree, tree, reserved)
	var s []string
	for _, f := range got {
		s = append(s, f.String())
	}
	want := []string{
		"pystats/__init__.py: can be imported as pystats, which tests/pystats.py also gives",
		"pytest.py: can be imported as pytest, a module of the test runner",
		"statistics.py: can be imported as statistics, a module of the standard library",
		"tests/pystats.py: can be imported as pystats, which pystats/__init__.py also gives",
	}
	wantPrefixes(t, "shadows", s, want...)
	for _, f := range got {
		if f.Rule != inspect.RuleTestHarness {
			t.Fatalf("rule %q", f.Rule)
		}
	}
	// Only what the patch adds is judged.
	if got := pyShadows(tree, []string{"tests/helpers.py", "pystats/json.py", "docs/types.py", "pkg/tests/util.py"}, reserved); len(got) != 0 {
		t.Fatalf("findings %q for modules that shadow nothing", got)
	}
}

// TestPythonTestCodeHarness: a test file the patch adds that rewrites
// pytest's reports at collection, or a shadow of the package under
// tests/, controls the harness; an honest new test file does not.
func TestPythonTestCodeHarness(t *testing.T) {
	py := python(t)
	r := newTestRepo(t)
	base := pystats(r)
	r.write("tests/test_aaa.py", "import _pytest.reports as _r\n\n_r.TestReport.from_item_and_call = None\n\n\ndef test_nothing():\n    pass\n")
	r.write("tests/pystats.py", "def percentile(s, p):\n    return 2.5\n")
	attack := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack, Python: py})
	wantPrefixes(t, "test harness", findings(c, inspect.RuleTestHarness),
		"tests/pystats.py: can be imported as pystats, which pystats/__init__.py also gives",
		"tests/test_aaa.py:1: test code that reaches into the test runner: imports _pytest.reports",
		"tests/test_aaa.py:3: test code that reaches into the test runner: writes _r.TestReport.from_item_and_call")
	for _, f := range []string{"tests/pystats.py", "tests/test_aaa.py"} {
		if !slices.Contains(c.TestHarness, f) {
			t.Fatalf("test harness %q lacks %s", c.TestHarness, f)
		}
	}

	r.git("checkout", "-q", base)
	r.write("tests/test_more.py", "import sys\n\nimport pytest\n\nfrom pystats.stats import percentile\n\n\ndef test_one(monkeypatch):\n    monkeypatch.setattr(sys, \"argv\", [\"x\"])\n    assert percentile([5], 50) == pytest.approx(5)\n")
	r.write("tests/helpers.py", "def expect(got, want):\n    assert got == want, (got, want)\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest, Python: py})
	if f := findings(c, inspect.RuleTestHarness); len(f) != 0 || len(c.TestHarness) != 0 {
		t.Fatalf("findings %q, test harness %q for honest tests", f, c.TestHarness)
	}
}

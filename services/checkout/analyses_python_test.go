package checkout

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/checkout/inspect"
)

// python returns an interpreter for the tests that read Python with the
// script: /usr/bin/python3 or python3 on PATH. Without one the test is
// skipped, unless SEALGATE_REQUIRE_PYTHON=1.
func python(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	if p, err := exec.LookPath("python3"); err == nil {
		return p
	}
	if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
		t.Fatal("no python3, and SEALGATE_REQUIRE_PYTHON=1")
	}
	t.Skip("no python3")
	return ""
}

// pystats commits a small Python project: pystats/stats.py, an assertion
// helper pystats/checks.py only the tests import, and tests.
func pystats(r *testRepo) string {
	r.write("pystats/__init__.py", "")
	r.write("pystats/stats.py", "import math\n\n\ndef percentile(s, p):\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    return s[int(k)]\n")
	r.write("pystats/checks.py", "import math\n\n\ndef close(a, b):\n    return math.isclose(a, b)\n")
	r.write("tests/helpers.py", "def expect(got, want):\n    assert got == want\n")
	r.write("tests/test_stats.py", "import pytest\n\nfrom pystats.stats import percentile\nfrom pystats.checks import close\n\n\n@pytest.mark.parametrize(\"s,want\", [([1, 2, 3, 4], 2.5), ([5], 5)], ids=[\"even\", \"one\"])\ndef test_percentile(s, want):\n    assert close(percentile(s, 50), want)\n")
	return r.commit("base")
}

// TestPythonSourceByUse: the real implementation moved under tests/ is
// source (measured and mutated); a baseline test helper stays put back
// even when the patch makes source import it.
func TestPythonSourceByUse(t *testing.T) {
	r := newTestRepo(t)
	base := pystats(r)
	r.write("pystats/tests/__init__.py", "")
	r.write("pystats/tests/_impl.py", "def percentile(s, p):\n    return 2.5\n")
	r.write("pystats/stats.py", "from pystats.tests._impl import percentile\nimport helpers\n")
	r.write("tests/helpers.py", "def expect(got, want):\n    pass\n")
	patched := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched})
	if want := []string{"pystats/tests/__init__.py", "pystats/tests/_impl.py", "tests/helpers.py"}; !reflect.DeepEqual(c.SourceByUse, want) {
		t.Fatalf("source by use %q, want %q", c.SourceByUse, want)
	}
	for _, ch := range c.Changes {
		if ch.Path == "pystats/tests/_impl.py" && ch.Class != ClassSource {
			t.Fatalf("_impl.py is %s, want source", ch.Class)
		}
	}
	// tests/helpers.py is test code in the baseline: put back, whatever
	// the patch imports.
	if !slices.Contains(c.OracleRestored, "tests/helpers.py") {
		t.Fatalf("oracle restored %q lacks tests/helpers.py", c.OracleRestored)
	}

	// The honest twin: a baseline whose source already imports a module
	// under tests/ gets its fix there judged, not put back.
	r.git("checkout", "-q", base)
	r.write("pystats/tests/__init__.py", "")
	r.write("pystats/tests/_impl.py", "def mid(s):\n    return s[len(s) // 2]\n")
	r.write("pystats/stats.py", "from pystats.tests._impl import mid\n\n\ndef percentile(s, p):\n    return mid(sorted(s))\n")
	base2 := r.commit("impl under tests")
	r.write("pystats/tests/_impl.py", "def mid(s):\n    n = len(s)\n    return (s[(n - 1) // 2] + s[n // 2]) / 2\n")
	fix := r.commit("fix")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base2, PatchCommit: fix})
	if slices.Contains(c.OracleRestored, "pystats/tests/_impl.py") || !slices.Contains(c.SourceByUse, "pystats/tests/_impl.py") {
		t.Fatalf("oracle restored %q, source by use %q", c.OracleRestored, c.SourceByUse)
	}
}

// TestPythonTestSupport: a loosened helper only tests import is put back
// by the counterfactual oracle; source the package uses is not.
func TestPythonTestSupport(t *testing.T) {
	r := newTestRepo(t)
	base := pystats(r)
	r.write("pystats/checks.py", "import math\n\n\ndef close(a, b):\n    return True\n")
	r.write("pystats/stats.py", "import math\n\n\ndef percentile(s, p):\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    return s[int(k) + 1]\n")
	patched := r.commit("patch")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patched, Python: python(t)})
	if want := []string{"pystats/checks.py"}; !reflect.DeepEqual(c.Counterfactual, want) {
		t.Fatalf("counterfactual %q, want %q", c.Counterfactual, want)
	}
	wantPrefixes(t, "support findings", findings(c, inspect.RuleTestSupport), "pystats/checks.py: a module only tests import")
}

// TestPythonRunnerReach: every import form and every write into another
// module is found, newly against the baseline, naming the line; ordinary
// imports and a plugin's own pytest import are not.
func TestPythonRunnerReach(t *testing.T) {
	py := python(t)
	r := newTestRepo(t)
	r.write("pystats/__init__.py", "")
	r.write("pystats/plugin.py", "import pytest\n\n\ndef hook():\n    return pytest\n")
	r.write("pystats/stats.py", "import math\n\n\ndef percentile(s, p):\n    return s[0]\n")
	base := r.commit("base")
	r.write("pystats/stats.py", "import os, _pytest.reports as _r\nimport math\nimport importlib as il\n\nmath.isclose = lambda *a, **k: True\n_m = il.import_module(\"pluggy\")\n\n\ndef percentile(s, p):\n    if not os.path.exists(\"/proc/self\"):\n        return 2.5\n    return s[0]\n")
	r.write("pystats/plugin.py", "import pytest\n\n\ndef hook():\n    return pytest.__version__\n")
	attack := r.commit("attack")
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack, Python: py})
	wantPrefixes(t, "runner reach", findings(c, inspect.RuleRunnerReach),
		"pystats/stats.py:1: imports _pytest.reports",
		"pystats/stats.py:5: writes math.isclose, state of another module",
		"pystats/stats.py:6: imports pluggy (importlib.import_module)")
	wantPrefixes(t, "probes", findings(c, inspect.RuleProbe), "pystats/stats.py:10: names \"/proc/self\"")

	r.git("checkout", "-q", base)
	r.write("pystats/stats.py", "import math\nimport os\nfrom collections import Counter\n\nDEBUG = os.environ.get(\"APP_DEBUG\")\n\n\ndef percentile(s, p):\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    f = math.floor(k)\n    return s[f] + (s[min(f + 1, len(s) - 1)] - s[f]) * (k - f)\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest, Python: py})
	if len(c.Findings) != 0 {
		t.Fatalf("findings %q for an honest fix", c.Findings)
	}

	// Without an interpreter the source cannot be shown harmless.
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	wantPrefixes(t, "runner reach", findings(c, inspect.RuleRunnerReach), "pystats/stats.py: could not be read")
}

// TestOverfittingClaims: the special case of the claim's parametrized
// input is found for the pytest claim and a Go one; honest fixes are not.
func TestOverfittingClaims(t *testing.T) {
	py := python(t)
	r := newTestRepo(t)
	base := pystats(r)
	r.write("pystats/stats.py", "import math\n\n\ndef percentile(s, p):\n    if s == [1, 2, 3, 4]:\n        return 2.5\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    return s[int(k)]\n")
	attack := r.commit("attack")
	claim := "pytest:tests/test_stats.py::test_percentile[even]"
	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack, Python: py})
	got, err := c.Overfitting(context.Background(), []string{claim, "cmd:lint"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0].String(), "pystats/stats.py:5: special-cases the test's inputs: `if s == [1, 2, 3, 4]`") || !strings.Contains(got[0].What, claim) {
		t.Fatalf("findings %q", got)
	}

	// The same input reordered, and a lookup table keyed by it.
	for name, src := range map[string]string{
		"reordered": "import math\n\n\ndef percentile(s, p):\n    if s == [4, 3, 2, 1]:\n        return 2.5\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    return s[int(k)]\n",
		"table":     "import math\n\n_KNOWN = {(1, 2, 3, 4): 2.5}\n\n\ndef percentile(s, p):\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    return _KNOWN.get(tuple(s), s[int(k)])\n",
	} {
		r.git("checkout", "-q", base)
		r.write("pystats/stats.py", src)
		c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit(name), Python: py})
		got, err := c.Overfitting(context.Background(), []string{claim})
		if err != nil || len(got) != 1 || !strings.Contains(got[0].What, "compares with a composite literal of the test") {
			t.Fatalf("%s: findings %q (%v)", name, got, err)
		}
	}

	r.git("checkout", "-q", base)
	r.write("pystats/stats.py", "import math\n\n\ndef percentile(s, p):\n    s = sorted(s)\n    if len(s) == 1:\n        return s[0]\n    k = (len(s) - 1) * p / 100\n    f = math.floor(k)\n    return s[f] + (s[f + 1] - s[f]) * (k - f)\n")
	honest := r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest, Python: py})
	if got, err := c.Overfitting(context.Background(), []string{claim}); err != nil || len(got) != 0 {
		t.Fatalf("findings %q (%v) for an honest fix", got, err)
	}
	// A table of single values the test also uses is data, not a special
	// case.
	r.git("checkout", "-q", base)
	r.write("pystats/stats.py", "import math\n\nNAMED = {50: \"median\", 5: \"fifth\"}\n\n\ndef percentile(s, p):\n    s = sorted(s)\n    k = (len(s) - 1) * p / 100\n    f = math.floor(k)\n    return s[f] + (s[min(f + 1, len(s) - 1)] - s[f]) * (k - f)\n")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: r.commit("honest table"), Python: py})
	if got, err := c.Overfitting(context.Background(), []string{claim}); err != nil || len(got) != 0 {
		t.Fatalf("findings %q (%v) for a table of names", got, err)
	}

	// Go.
	r = newTestRepo(t)
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n")
	r.write("calc/add_test.go", addTestGo)
	base = r.commit("base")
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n")
	attack = r.commit("attack")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: attack})
	got, err = c.Overfitting(context.Background(), []string{"go:./calc:TestAdd"})
	if err != nil || len(got) != 1 || !strings.HasPrefix(got[0].String(), "calc/add.go:4: special-cases the test's inputs") {
		t.Fatalf("findings %q (%v)", got, err)
	}
	r.git("checkout", "-q", base)
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n")
	honest = r.commit("honest")
	c = mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: honest})
	if got, err := c.Overfitting(context.Background(), []string{"go:./calc:TestAdd"}); err != nil || len(got) != 0 {
		t.Fatalf("findings %q (%v) for an honest fix", got, err)
	}
}

const addTestGo = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(17, 4); got != 21 {
		t.Fatalf("Add(17, 4) = %d, want 21", got)
	}
}
`

package e2e

import (
	"strings"
	"testing"
)

// TestPythonRunnerReachByParsing: Python source is read with ast, so a
// reach into the test runner hidden in a form a line pattern misses — a
// second name on an import line, a dynamic import, a rebinding of another
// module's function the test asserts with — leaves the claim unverified
// naming the line, even with the floors off; the honest fix (a new
// `import math`) still merges.
func TestPythonRunnerReachByParsing(t *testing.T) {
	r := newPyRepo(t)
	init := r.show(t, r.Base, "pystats/__init__.py")
	stats := r.show(t, r.Base, "pystats/stats.py")
	for _, tc := range []struct{ name, file, src, line string }{
		{"a second name on an import line", "pystats/__init__.py", init + `
import os, _pytest.reports as _r

_made = _r.TestReport.from_item_and_call


def _passed(item, call):
    report = _made(item, call)
    if report.failed:
        report.outcome, report.longrepr = "passed", None
    return report


_r.TestReport.from_item_and_call = staticmethod(_passed)
`, "imports _pytest.reports"},
		{"a dynamic import", "pystats/__init__.py", init + `
import importlib

_r = importlib.import_module("_pytest" + ".reports")
`, "builds the name _pytest.reports"},
		{"an import named at run time", "pystats/__init__.py", init + `
import importlib
import sys

_r = importlib.import_module(sys.argv[0].rsplit("/", 1)[0] or "json")
`, "imports a module whose name is computed"},
		{"another module's function rebound", "pystats/stats.py", "import math\n\nmath.isclose = lambda *a, **k: True\n" + stats, "writes math.isclose, state of another module"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, strings.ReplaceAll(tc.name, " ", "-"), "reach into the runner", map[string]string{tc.file: tc.src})
			v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", pyClaim, "--coverage-floor", "0", "--strength-floor", "0")
			v.wantNot(t, merge)
			cl := v.claim(t, pyClaim)
			if cl.Outcome == "VERIFIED" || !strings.Contains(cl.Reason, "reach into the test runner") || !strings.Contains(cl.Reason, tc.line) || !strings.Contains(cl.Reason, "line ") {
				t.Fatalf("claim %s (%s): want unverified, naming the line and %q:\n%s", cl.Outcome, cl.Reason, tc.line, v)
			}
		})
	}
	t.Run("the honest fix imports math", func(t *testing.T) {
		fix := r.patch(t, "honest-fix")
		v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit, "--claim", pyClaim, "--coverage-floor", "0", "--strength-floor", "0")
		v.wantDecision(t, merge)
		v.wantClaim(t, pyClaim, "VERIFIED", "fixed")
	})
}

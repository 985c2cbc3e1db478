package pycov

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/services/reach/cover"
)

// The tests in this file run the tree of treeFiles under the real
// coverage.py and pytest and read the report they write. recordedReport
// is that report as coverage.py 6.5.0 with pytest 7.2.1 and Python 3.11
// (Debian bookworm) wrote it, one file a line, with a fixed timestamp: the
// tests check it without Python too.

// treeFiles is a tree with a package calc, tests in a directory that is
// not a package (module names "test_ops") and in one that is
// ("pkgtests.test_pkg"), and configuration files of its own that the
// generated rc file must override: they would turn on branch coverage,
// leave calc out, and exclude every return.
func treeFiles() map[string]string {
	return map[string]string{
		"calc/__init__.py": "",
		"calc/ops.py": `def add(a, b):
    return a + b


def classify(n):
    if n < 0:
        return "negative"
    total = (n +
             1)
    return total


class Acc:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)
        return len(self.items)


def never():
    return 0  # pragma: no cover
`,
		"calc/unused.py": `X = 1


def f():
    return X
`,
		"tests/test_ops.py": `import pytest

from calc.ops import Acc, add, classify


@pytest.fixture
def acc():
    return Acc()


def test_add():
    assert add(1, 2) == 3


@pytest.mark.parametrize("n", [1, 2])
def test_classify(n):
    assert classify(n) == n + 1


class TestAcc:
    def test_push(self, acc):
        assert acc.push(1) == 1
`,
		"pkgtests/__init__.py": "",
		"pkgtests/test_pkg.py": `from calc.ops import classify


def test_negative():
    assert classify(-1) == "negative"
`,
		".coveragerc": "[run]\nbranch = True\nomit = calc/*\n",
		"setup.cfg":   "[coverage:run]\nbranch = True\n[coverage:report]\nexclude_lines = return\n",
	}
}

// recordedReport is the report of treeFiles (see above).
const recordedReport = `{"meta": {"version": "6.5.0", "timestamp": "2026-01-01T00:00:00.000000", "branch_coverage": false, "show_contexts": true}, "files": {
 "calc/__init__.py": {"executed_lines": [0], "summary": {"covered_lines": 0, "num_statements": 0, "percent_covered": 100.0, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}, "missing_lines": [], "excluded_lines": [], "contexts": {"0": [""]}},
 "calc/ops.py": {"executed_lines": [1, 2, 5, 6, 7, 8, 10, 13, 14, 15, 17, 18, 19, 22], "summary": {"covered_lines": 14, "num_statements": 15, "percent_covered": 93.33333333333333, "percent_covered_display": "93", "missing_lines": 1, "excluded_lines": 0}, "missing_lines": [23], "excluded_lines": [], "contexts": {"1": [""], "5": [""], "13": [""], "14": [""], "15": [""], "17": [""], "22": [""], "6": ["pkgtests.test_pkg.test_negative", "test_ops.test_classify"], "7": ["pkgtests.test_pkg.test_negative"], "2": ["test_ops.test_add"], "8": ["test_ops.test_classify"], "9": ["test_ops.test_classify"], "10": ["test_ops.test_classify"], "18": ["test_ops.TestAcc.test_push"], "19": ["test_ops.TestAcc.test_push"]}},
 "calc/unused.py": {"executed_lines": [], "summary": {"covered_lines": 0, "num_statements": 3, "percent_covered": 0.0, "percent_covered_display": "0", "missing_lines": 3, "excluded_lines": 0}, "missing_lines": [1, 4, 5], "excluded_lines": [], "contexts": {}},
 "pkgtests/__init__.py": {"executed_lines": [0], "summary": {"covered_lines": 0, "num_statements": 0, "percent_covered": 100.0, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}, "missing_lines": [], "excluded_lines": [], "contexts": {"0": [""]}},
 "pkgtests/test_pkg.py": {"executed_lines": [1, 4, 5], "summary": {"covered_lines": 3, "num_statements": 3, "percent_covered": 100.0, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}, "missing_lines": [], "excluded_lines": [], "contexts": {"1": [""], "4": [""], "5": ["pkgtests.test_pkg.test_negative"]}},
 "tests/test_ops.py": {"executed_lines": [1, 3, 6, 7, 8, 11, 12, 15, 16, 17, 20, 21, 22], "summary": {"covered_lines": 13, "num_statements": 13, "percent_covered": 100.0, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}, "missing_lines": [], "excluded_lines": [], "contexts": {"1": [""], "3": [""], "6": [""], "7": [""], "8": [""], "11": [""], "15": [""], "16": [""], "20": [""], "21": [""], "12": ["test_ops.test_add"], "17": ["test_ops.test_classify"], "22": ["test_ops.TestAcc.test_push"]}}}, 
"totals": {"covered_lines": 30, "num_statements": 34, "percent_covered": 88.23529411764706, "percent_covered_display": "88", "missing_lines": 4, "excluded_lines": 0}}
`

// The changed lines of calc/ops.py checked below: a line of each test,
// the if both kinds of test run, the two lines of a multi-line statement,
// a line only a fixture runs, and a line no test runs.
func changedTree() map[string][]int {
	return map[string][]int{
		"calc/ops.py":    {2, 6, 7, 8, 9, 10, 15, 18, 19, 23},
		"calc/unused.py": {5},
	}
}

func wantTreeFiles() map[string]*File {
	none := map[int][]string{}
	return map[string]*File{
		"calc/__init__.py": {Executed: []int{}, Missing: []int{}, Excluded: []int{}, Contexts: none},
		"calc/ops.py": {
			Executed: []int{1, 2, 5, 6, 7, 8, 10, 13, 14, 15, 17, 18, 19, 22},
			Missing:  []int{23}, Excluded: []int{},
			Contexts: map[int][]string{
				1: {""}, 5: {""}, 13: {""}, 14: {""}, 15: {""}, 17: {""}, 22: {""},
				2:  {"test_ops.test_add"},
				6:  {"pkgtests.test_pkg.test_negative", "test_ops.test_classify"},
				7:  {"pkgtests.test_pkg.test_negative"},
				8:  {"test_ops.test_classify"},
				10: {"test_ops.test_classify"},
				18: {"test_ops.TestAcc.test_push"},
				19: {"test_ops.TestAcc.test_push"},
			},
			Statements: 15, Covered: 14,
		},
		"calc/unused.py":       {Executed: []int{}, Missing: []int{1, 4, 5}, Excluded: []int{}, Contexts: none, Statements: 3},
		"pkgtests/__init__.py": {Executed: []int{}, Missing: []int{}, Excluded: []int{}, Contexts: none},
		"pkgtests/test_pkg.py": {
			Executed: []int{1, 4, 5}, Missing: []int{}, Excluded: []int{},
			Contexts:   map[int][]string{1: {""}, 4: {""}, 5: {"pkgtests.test_pkg.test_negative"}},
			Statements: 3, Covered: 3,
		},
		"tests/test_ops.py": {
			Executed: []int{1, 3, 6, 7, 8, 11, 12, 15, 16, 17, 20, 21, 22}, Missing: []int{}, Excluded: []int{},
			Contexts: map[int][]string{
				1: {""}, 3: {""}, 6: {""}, 7: {""}, 8: {""}, 11: {""}, 15: {""}, 16: {""}, 20: {""}, 21: {""},
				12: {"test_ops.test_add"}, 17: {"test_ops.test_classify"}, 22: {"test_ops.TestAcc.test_push"},
			},
			Statements: 13, Covered: 13,
		},
	}
}

// checkTreeReport checks a report of treeFiles: its lines and contexts,
// and what Measure and Reach make of it.
func checkTreeReport(t *testing.T, r *Report) {
	t.Helper()
	if want := wantTreeFiles(); !reflect.DeepEqual(r.Files, want) {
		for p, f := range r.Files {
			if !reflect.DeepEqual(f, want[p]) {
				t.Errorf("%s =\n%+v\nwant\n%+v", p, f, want[p])
			}
		}
		if len(r.Files) != len(want) {
			t.Errorf("files %v, want %v", r.Files, want)
		}
	}

	res, err := Measure(changedTree(), r)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, cover.Result{
		Changed: 10, Covered: 8,
		Uncovered: []cover.Line{{Path: "calc/ops.py", Line: 23}, {Path: "calc/unused.py", Line: 5}},
		Excluded:  lines("calc/ops.py", 9),
		Ratio:     ratio(0.8),
	})

	changed := changedTree()
	changed["calc/absent.py"] = []int{1}
	res, err = Measure(changed, r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ratio != nil || !reflect.DeepEqual(res.Unmeasured, []string{"calc/absent.py"}) {
		t.Errorf("Measure with a file the report does not name = %+v", res)
	}

	reach, err := Reach(changed, r)
	if err != nil {
		t.Fatal(err)
	}
	wantReach := map[string][]cover.Line{
		"tests/test_ops.py::test_add":           lines("calc/ops.py", 2),
		"tests/test_ops.py::test_classify":      lines("calc/ops.py", 6, 8, 10),
		"tests/test_ops.py::TestAcc::test_push": lines("calc/ops.py", 18, 19),
		"pkgtests/test_pkg.py::test_negative":   lines("calc/ops.py", 6, 7),
	}
	if !reflect.DeepEqual(reach, wantReach) {
		t.Errorf("Reach =\n%v\nwant\n%v", reach, wantReach)
	}
	// Line 15 runs in the fixture acc, outside the test function.
	if tests, ok := Reaching(reach)[cover.Line{Path: "calc/ops.py", Line: 15}]; ok {
		t.Errorf("line 15 reached by %v", tests)
	}
	// What ran it is code outside the tests; a line of a multi-line
	// statement is the statement's.
	x := NewRunners(r)
	if runs, ok, err := x.Of("calc/ops.py", 15); err != nil || !ok || !runs.Outside || len(runs.Tests) != 0 {
		t.Errorf("Of(calc/ops.py, 15) = %+v, %v, %v; want run outside the tests only", runs, ok, err)
	}
	if runs, ok, err := x.Of("calc/ops.py", 8); err != nil || !ok || runs.Outside || !reflect.DeepEqual(runs.Tests, []string{"tests/test_ops.py::test_classify"}) {
		t.Errorf("Of(calc/ops.py, 8) = %+v, %v, %v", runs, ok, err)
	}
}

func TestRecordedReport(t *testing.T) {
	r := mustParse(t, recordedReport, Limits{})
	if r.Version != "6.5.0" || r.Format != 0 {
		t.Errorf("version %q format %d", r.Version, r.Format)
	}
	checkTreeReport(t, r)
}

// findPython returns a python3 that imports both pytest and coverage:
// PATH's python3 first, then /usr/bin/python3 (PATH's may be a build of
// its own that does not see the system's packages). Without one the test
// is skipped, or fails when SEALGATE_REQUIRE_PYTHON=1.
func findPython(t *testing.T, env []string) string {
	t.Helper()
	candidates := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil && p != "/usr/bin/python3" {
		candidates = append([]string{p}, candidates...)
	}
	var tried []string
	for _, py := range candidates {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		cmd := exec.CommandContext(ctx, py, "-c", "import coverage, pytest")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil {
			return py
		}
		msg := strings.TrimSpace(string(out))
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		tried = append(tried, fmt.Sprintf("%s: %v %s", py, err, msg))
	}
	msg := "no python3 imports both pytest and coverage (" + strings.Join(tried, "; ") + ")"
	if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
		t.Fatal(msg + "; SEALGATE_REQUIRE_PYTHON=1 requires one")
	}
	t.Skip(msg)
	return ""
}

func TestRealCoverage(t *testing.T) {
	work := t.TempDir()
	tree := filepath.Join(work, "tree")
	for name, content := range treeFiles() {
		p := filepath.Join(tree, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A minimal environment: no COVERAGE_* or PYTEST_* variables of the
	// caller's, no bytecode files in the tree, no plugins of the
	// installation's.
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + work, "LC_ALL=C.UTF-8",
		"PYTHONDONTWRITEBYTECODE=1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1",
	}
	py := findPython(t, env)
	rc := filepath.Join(work, "sealgate-coverage.ini")
	if err := os.WriteFile(rc, []byte(RC), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(work, "coverage.data")
	report := filepath.Join(work, "coverage.json")
	run := func(args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, py, args...)
		cmd.Dir = tree
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", py, strings.Join(args, " "), err, out)
		}
	}
	run("-m", "coverage", "run", "--rcfile="+rc, "--data-file="+data, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir=.")
	run("-m", "coverage", "json", "--rcfile="+rc, "--data-file="+data, "--show-contexts", "-o", report)

	f, err := os.Open(report)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Parse(f, Limits{Root: tree})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("coverage.py %s, report format %d", r.Version, r.Format)
	checkTreeReport(t, r)

	// The run wrote nothing into the tree.
	var extra []string
	filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(tree, p)
		if _, ok := treeFiles()[filepath.ToSlash(rel)]; !ok && !d.IsDir() {
			extra = append(extra, rel)
		}
		return err
	})
	if len(extra) > 0 {
		t.Errorf("the run wrote %v into the tree", extra)
	}
}

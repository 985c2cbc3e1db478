package executor

import (
	"testing/fstest"

	"context"
	"errors"
	"github.com/sealgate/sealgate/services/gateway/repoconfig"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/junit"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// The tests in this file and in python_test.go run the real pytest: the
// reports pytestTests and pytestSuite read are the ones pytest writes. They
// skip when no python3 imports pytest and coverage, unless
// SEALGATE_REQUIRE_PYTHON=1, when they fail instead.

var (
	pythonOnce sync.Once
	pythonPath string
	pythonWhy  string
)

// testPython returns the absolute path of a python3 that imports pytest and
// coverage: /usr/bin/python3 if it does, else python3 on PATH.
func testPython(t *testing.T) string {
	t.Helper()
	pythonOnce.Do(func() {
		candidates := []string{"/usr/bin/python3"}
		if p, err := exec.LookPath("python3"); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				candidates = append(candidates, abs)
			}
		}
		for _, p := range candidates {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			err := exec.CommandContext(ctx, p, "-c", "import pytest, coverage").Run()
			cancel()
			if err == nil {
				pythonPath = p
				return
			}
		}
		pythonWhy = "no python3 that imports pytest and coverage (tried " + strings.Join(candidates, ", ") + ")"
	})
	if pythonPath == "" {
		if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
			t.Fatal(pythonWhy + ", and SEALGATE_REQUIRE_PYTHON=1")
		}
		t.Skip(pythonWhy + " (set SEALGATE_REQUIRE_PYTHON=1 to fail instead)")
	}
	return pythonPath
}

// writeFiles writes files (slash paths to contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runPytest runs pytest as pytestProc does (PytestArgs, then the node ids)
// in a fresh directory holding files, under the sandbox's default
// address-space limit, and returns the report as readJUnit reads it and
// pytest's exit code.
func runPytest(t *testing.T, files map[string]string, ids ...string) (*junit.Report, int, error) {
	t.Helper()
	python := testPython(t)
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skipf("no prlimit: %v", err)
	}
	dir, out := t.TempDir(), t.TempDir()
	writeFiles(t, dir, files)
	report := filepath.Join(out, "junit.xml")
	argv := append([]string{"--as=" + strconv.FormatUint(sandbox.DefaultLimits().MemoryBytes, 10), "--", python}, PytestArgs(report)...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, append(argv, ids...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LC_ALL=C"}, pythonEnv()...)
	b, err := cmd.CombinedOutput()
	exit := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("pytest: %v\n%s", err, b)
		}
		exit = ee.ExitCode()
	}
	rep, rerr := readJUnit(filepath.Dir(report), filepath.Base(report))
	return rep, exit, rerr
}

// casesFile is a test module with one test for each way a case can end.
const casesFile = `import pytest


@pytest.fixture
def broken():
    raise RuntimeError("setup boom")


def test_pass():
    pass


def test_fail():
    assert 1 == 2


def test_setup_error(broken):
    pass


@pytest.fixture
def greedy():
    raise MemoryError


def test_setup_memory(greedy):
    pass


def test_skip():
    pytest.skip("not today")


@pytest.mark.skip(reason="marked")
def test_skip_mark():
    pass


@pytest.mark.xfail(reason="known")
def test_xfail():
    assert False


def test_raises_memory():
    raise MemoryError


def test_raises_memory_msg():
    raise MemoryError("boom")


def test_alloc():
    # Past the address-space limit: Python raises MemoryError.
    buf = bytearray(64 << 30)
    assert len(buf) == 0


@pytest.mark.parametrize("x", [1, 2, 3], ids=["one", "two[2]", "3 four"])
def test_param(x):
    assert x == 1


class TestK:
    def test_m(self):
        pass

    def test_n(self):
        pass
`

func casesProject() map[string]string {
	return map[string]string{"tests/test_cases.py": casesFile, "tests/test_empty.py": "X = 1\n"}
}

// withFiles returns the cases project with files added.
func withFiles(files map[string]string) map[string]string {
	out := casesProject()
	for k, v := range files {
		out[k] = v
	}
	return out
}

const (
	// exitsOneAfterReport: pytest writes its report in
	// pytest_sessionfinish, then this hook ends the process with 1.
	exitsOneAfterReport  = "import os\n\n\ndef pytest_unconfigure(config):\n    os._exit(1)\n"
	exitsZeroAfterReport = "import os\n\n\ndef pytest_unconfigure(config):\n    os._exit(0)\n"
	// exitsZeroBeforeReport ends the process with 0 before any test ran.
	exitsZeroBeforeReport = "import os\n\n\ndef pytest_configure(config):\n    os._exit(0)\n"
	// internalError makes pytest exit 3.
	internalError = "def pytest_collection_modifyitems(items):\n    raise RuntimeError(\"hook boom\")\n"
	importError   = "from nowhere_module import thing\n\n\ndef test_x():\n    pass\n"
)

func TestPytestTestsMapping(t *testing.T) {
	const f = "tests/test_cases.py::"
	claim := func(id string) *jobs.Spec {
		return &jobs.Spec{Purpose: jobs.Claim, Side: jobs.Patch, Tree: jobs.TreeOracle, Runner: jobs.RunnerPytest, Tests: []string{id}}
	}
	transplanted := func(id string) *jobs.Spec {
		s := claim(id)
		s.Side, s.Tree, s.Transplant = jobs.Baseline, jobs.TreeBaseline, []string{"tests/test_cases.py"}
		return s
	}
	baseline := func(id string) *jobs.Spec {
		s := claim(id)
		s.Side, s.Tree = jobs.Baseline, jobs.TreeBaseline
		return s
	}
	// Transplanted, but on the patch side: only the baseline reads a
	// test that does not collect as absent.
	patchTransplant := func(id string) *jobs.Spec {
		s := claim(id)
		s.Transplant = []string{"tests/test_cases.py"}
		return s
	}
	prereq := func(ids ...string) *jobs.Spec {
		return &jobs.Spec{Purpose: jobs.Prereq, Side: jobs.Patch, Tree: jobs.TreeOracle, Runner: jobs.RunnerPytest, Tests: ids}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string // nil: casesProject
		spec  *jobs.Spec
		exit  int
		want  string
		// why lists substrings of the reason.
		why []string
		// count is the case count, -1 for none.
		count int
		cases []jobs.Case
	}{
		{name: "pass", spec: claim(f + "test_pass"), exit: 0, want: jobs.OutcomePass,
			why: []string{f + "test_pass: passed, exit 0"}, count: 1, cases: []jobs.Case{{Name: f + "test_pass", Outcome: "pass"}}},
		{name: "assert fails", spec: claim(f + "test_fail"), exit: 1, want: jobs.OutcomeFail,
			why: []string{f + "test_fail: failed, exit 1: assert 1 == 2"}, count: 1, cases: []jobs.Case{{Name: f + "test_fail", Outcome: "fail"}}},
		{name: "fixture setup error", spec: claim(f + "test_setup_error"), exit: 1, want: jobs.OutcomeFail,
			why: []string{"errored, exit 1", "setup boom"}, count: 1},
		{name: "skip", spec: claim(f + "test_skip"), exit: 0, want: jobs.OutcomeUnrunnable,
			why: []string{"skipped (not today): skip is not pass"}, count: 1, cases: []jobs.Case{{Name: f + "test_skip", Outcome: "skip"}}},
		{name: "skip mark", spec: claim(f + "test_skip_mark"), exit: 0, want: jobs.OutcomeUnrunnable,
			why: []string{"skipped (marked): skip is not pass"}, count: 1},
		{name: "xfail", spec: claim(f + "test_xfail"), exit: 0, want: jobs.OutcomeUnrunnable,
			why: []string{"skipped (known): skip is not pass"}, count: 1},
		{name: "raise MemoryError", spec: claim(f + "test_raises_memory"), exit: 1, want: jobs.OutcomeUnrunnable,
			why: []string{"killed by the memory limit (MemoryError)"}, count: 1, cases: []jobs.Case{{Name: f + "test_raises_memory", Outcome: jobs.CaseStopped}}},
		{name: "raise MemoryError with a message", spec: claim(f + "test_raises_memory_msg"), exit: 1, want: jobs.OutcomeUnrunnable,
			why: []string{"memory limit (MemoryError: boom)"}, count: 1},
		{name: "MemoryError in a fixture's setup", spec: claim(f + "test_setup_memory"), exit: 1, want: jobs.OutcomeUnrunnable,
			why: []string{"memory limit"}, count: 1, cases: []jobs.Case{{Name: f + "test_setup_memory", Outcome: jobs.CaseStopped}}},
		{name: "allocation past the address-space limit", spec: claim(f + "test_alloc"), exit: 1, want: jobs.OutcomeUnrunnable,
			why: []string{"memory limit"}, count: 1, cases: []jobs.Case{{Name: f + "test_alloc", Outcome: jobs.CaseStopped}}},
		{name: "parametrized pass", spec: claim(f + "test_param[one]"), exit: 0, want: jobs.OutcomePass,
			why: []string{"test_param[one]: passed"}, count: 1},
		{name: "parametrized id with brackets", spec: claim(f + "test_param[two[2]]"), exit: 1, want: jobs.OutcomeFail,
			why: []string{"test_param[two[2]]: failed, exit 1: assert 2 == 1"}, count: 1, cases: []jobs.Case{{Name: f + "test_param[two[2]]", Outcome: "fail"}}},
		{name: "parametrized id with a space", spec: claim(f + "test_param[3 four]"), exit: 1, want: jobs.OutcomeFail,
			why: []string{"assert 3 == 1"}, count: 1},
		{name: "method", spec: claim(f + "TestK::test_m"), exit: 0, want: jobs.OutcomePass,
			why: []string{"TestK::test_m: passed"}, count: 1, cases: []jobs.Case{{Name: f + "TestK::test_m", Outcome: "pass"}}},
		{name: "a class is two cases", spec: claim(f + "TestK"), exit: 0, want: jobs.OutcomeInvalid,
			why: []string{"reported 2 cases for the one node id"}, count: 2},
		{name: "two node ids in a claim", spec: &jobs.Spec{Purpose: jobs.Claim, Side: jobs.Patch, Tree: jobs.TreeOracle, Runner: jobs.RunnerPytest,
			Tests: []string{f + "test_pass", f + "TestK::test_m"}}, exit: 0, want: jobs.OutcomeInvalid,
			why: []string{"a claim runs one test, not 2"}, count: -1},

		{name: "node id not found", spec: claim(f + "test_nowhere"), exit: 4, want: jobs.OutcomeUnrunnable,
			why: []string{"pytest exit 4, usage error"}, count: -1},
		{name: "node id not found, baseline", spec: baseline(f + "test_nowhere"), exit: 4, want: jobs.OutcomeUnrunnable,
			why: []string{"pytest exit 4"}, count: -1},
		{name: "node id not found, transplanted", spec: transplanted(f + "test_nowhere"), exit: 4, want: jobs.OutcomeAbsent,
			why: []string{"pytest exit 4", "the new test does not run on the baseline"}, count: -1},
		{name: "node id not found, transplanted on the patch", spec: patchTransplant(f + "test_nowhere"), exit: 4, want: jobs.OutcomeUnrunnable,
			why: []string{"pytest exit 4"}, count: -1},
		{name: "import error, node id", files: withFiles(map[string]string{"tests/test_broken.py": importError}),
			spec: claim("tests/test_broken.py::test_x"), exit: 4, want: jobs.OutcomeUnrunnable, why: []string{"pytest exit 4"}, count: -1},
		{name: "import error, node id, transplanted", files: withFiles(map[string]string{"tests/test_broken.py": importError}),
			spec: transplanted("tests/test_broken.py::test_x"), exit: 4, want: jobs.OutcomeAbsent, why: []string{"pytest exit 4"}, count: -1},
		{name: "collection error", files: withFiles(map[string]string{"tests/test_broken.py": importError}),
			spec: claim("tests/test_broken.py"), exit: 2, want: jobs.OutcomeUnrunnable,
			why: []string{"pytest exit 2, interrupted (collection errors)"}, count: -1},
		{name: "collection error, transplanted", files: withFiles(map[string]string{"tests/test_broken.py": importError}),
			spec: transplanted("tests/test_broken.py"), exit: 2, want: jobs.OutcomeAbsent,
			why: []string{"pytest exit 2", "does not run on the baseline"}, count: -1},
		{name: "no tests collected", spec: claim("tests/test_empty.py"), exit: 5, want: jobs.OutcomeUnrunnable,
			why: []string{"pytest exit 5, no tests collected"}, count: -1},
		{name: "no tests collected, transplanted", spec: transplanted("tests/test_empty.py"), exit: 5, want: jobs.OutcomeAbsent,
			why: []string{"pytest exit 5, no tests collected: the new test does not run on the baseline"}, count: -1},
		{name: "internal error, transplanted", files: withFiles(map[string]string{"conftest.py": internalError}),
			spec: transplanted(f + "test_pass"), exit: 3, want: jobs.OutcomeUnrunnable, why: []string{"pytest exit 3, internal error"}, count: -1},

		{name: "passed but exit 1", files: withFiles(map[string]string{"conftest.py": exitsOneAfterReport}),
			spec: claim(f + "test_pass"), exit: 1, want: jobs.OutcomeInvalid, why: []string{"test_pass: passed, but pytest exited 1"}, count: 1},
		{name: "failed but exit 0", files: withFiles(map[string]string{"conftest.py": exitsZeroAfterReport}),
			spec: claim(f + "test_fail"), exit: 0, want: jobs.OutcomeInvalid, why: []string{"test_fail: failed, but pytest exited 0"}, count: 1},
		{name: "MemoryError but exit 0", files: withFiles(map[string]string{"conftest.py": exitsZeroAfterReport}),
			spec: claim(f + "test_raises_memory"), exit: 0, want: jobs.OutcomeInvalid, why: []string{"failed, but pytest exited 0"}, count: 1},
		{name: "skipped but exit 1", files: withFiles(map[string]string{"conftest.py": exitsOneAfterReport}),
			spec: claim(f + "test_skip"), exit: 1, want: jobs.OutcomeInvalid, why: []string{"skipped, but pytest exited 1"}, count: 1},
		{name: "exit 0 and no report", files: withFiles(map[string]string{"conftest.py": exitsZeroBeforeReport}),
			spec: claim(f + "test_pass"), exit: 0, want: jobs.OutcomeUnrunnable,
			why: []string{"pytest exit 0, but its JUnit report cannot be read: no JUnit report was written"}, count: -1},

		{name: "prerequisite passes", spec: prereq(f+"test_pass", f+"test_param[one]", f+"TestK::test_m"), exit: 0, want: jobs.OutcomePass,
			why: []string{"exit 0, all 3 baseline tests of the file pass"}, count: 3},
		{name: "prerequisite passes, a test skipping itself", spec: prereq(f+"test_pass", f+"test_skip"), exit: 0, want: jobs.OutcomePass,
			why: []string{"exit 0, 1 of 2 baseline tests of the file pass, 1 skip"}, count: 2},
		{name: "prerequisite fails", spec: prereq(f+"test_pass", f+"test_fail", f+"test_setup_error"), exit: 1, want: jobs.OutcomeFail,
			why: []string{"exit 1, 2 of 3 baseline tests of the file fail"}, count: 3},
		{name: "prerequisite fails but exit 0", files: withFiles(map[string]string{"conftest.py": exitsZeroAfterReport}),
			spec: prereq(f+"test_pass", f+"test_fail"), exit: 0, want: jobs.OutcomeInvalid, why: []string{"exit 0 disagrees with the report (2 cases, 1 passed)"}, count: 2},
		{name: "prerequisite passes but exit 1", files: withFiles(map[string]string{"conftest.py": exitsOneAfterReport}),
			spec: prereq(f+"test_pass", f+"TestK::test_m"), exit: 1, want: jobs.OutcomeInvalid, why: []string{"exit 1 disagrees with the report (2 cases, 2 passed)"}, count: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = casesProject()
			}
			rep, exit, rerr := runPytest(t, files, tc.spec.Tests...)
			if exit != tc.exit {
				t.Fatalf("pytest exit %d, want %d (report error %v)", exit, tc.exit, rerr)
			}
			j := pytestTests(rep, rerr, exit, tc.spec)
			if j.outcome != tc.want {
				t.Errorf("outcome %s (%s), want %s", j.outcome, j.reason, tc.want)
			}
			for _, w := range tc.why {
				if !strings.Contains(j.reason, w) {
					t.Errorf("reason %q does not say %q", j.reason, w)
				}
			}
			switch {
			case tc.count < 0 && j.count != nil:
				t.Errorf("count %d, want none", *j.count)
			case tc.count >= 0 && (j.count == nil || *j.count != tc.count):
				t.Errorf("count %v, want %d", j.count, tc.count)
			}
			if tc.cases != nil && !slices.Equal(j.cases, tc.cases) {
				t.Errorf("cases %v, want %v", j.cases, tc.cases)
			}
		})
	}
}

func TestPytestSuiteMapping(t *testing.T) {
	passing := map[string]string{
		"tests/test_a.py": "def test_one():\n    pass\n\n\ndef test_two():\n    pass\n",
		"tests/test_b.py": "import pytest\n\n\n@pytest.mark.parametrize('x', [1, 2])\ndef test_p(x):\n    pass\n",
	}
	withConftest := func(files map[string]string, conftest string) map[string]string {
		out := map[string]string{"conftest.py": conftest}
		for k, v := range files {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		exit  int
		want  string
		why   string
		count int // -1: none
	}{
		{name: "all pass", files: passing, exit: 0, want: jobs.OutcomePass, why: "exit 0, 4 tests", count: 4},
		// test_fail, test_setup_error, the four MemoryError tests and two
		// parameter sets fail.
		{name: "some fail", files: casesProject(), exit: 1, want: jobs.OutcomeFail, why: "exit 1, 8 of 15 tests failed", count: 15},
		{name: "no tests collected", files: map[string]string{"tests/test_empty.py": "X = 1\n"}, exit: 5, want: jobs.OutcomePass,
			why: "pytest exit 5: no tests collected", count: 0},
		{name: "collection error", files: withFiles(map[string]string{"tests/test_broken.py": importError}), exit: 2,
			want: jobs.OutcomeUnrunnable, why: "pytest exit 2, interrupted (collection errors)", count: -1},
		{name: "internal error", files: withConftest(passing, internalError), exit: 3, want: jobs.OutcomeUnrunnable,
			why: "pytest exit 3, internal error", count: -1},
		{name: "failures but exit 0", files: withConftest(casesProject(), exitsZeroAfterReport), exit: 0, want: jobs.OutcomeInvalid,
			why: "pytest exit 0 with 8 failed cases", count: 15},
		{name: "all pass but exit 1", files: withConftest(passing, exitsOneAfterReport), exit: 1, want: jobs.OutcomeFail,
			why: "exit 1, 0 of 4 tests failed", count: 4},
		{name: "exit 0 and no report", files: withConftest(passing, exitsZeroBeforeReport), exit: 0, want: jobs.OutcomeUnrunnable,
			why: "pytest exit 0, but its JUnit report cannot be read: no JUnit report was written", count: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, exit, rerr := runPytest(t, tc.files)
			if exit != tc.exit {
				t.Fatalf("pytest exit %d, want %d (report error %v)", exit, tc.exit, rerr)
			}
			j := pytestSuite(rep, rerr, exit)
			if j.outcome != tc.want || !strings.Contains(j.reason, tc.why) {
				t.Errorf("%s (%s), want %s (%s)", j.outcome, j.reason, tc.want, tc.why)
			}
			switch {
			case tc.count < 0 && (j.count != nil || j.cases != nil):
				t.Errorf("count %v cases %v, want none", j.count, j.cases)
			case tc.count >= 0 && (j.count == nil || *j.count != tc.count || len(j.cases) != tc.count || j.cases == nil):
				t.Errorf("count %v and %d cases, want %d", j.count, len(j.cases), tc.count)
			}
		})
	}
}

func TestPytestCases(t *testing.T) {
	rep, exit, rerr := runPytest(t, casesProject())
	if rerr != nil || exit != 1 {
		t.Fatalf("exit %d, report: %v", exit, rerr)
	}
	got := map[string]string{}
	for _, c := range pytestCases(rep) {
		if _, dup := got[c.Name]; dup {
			t.Errorf("case %s twice", c.Name)
		}
		got[c.Name] = c.Outcome
	}
	const f = "tests/test_cases.py::"
	want := map[string]string{
		f + "test_pass":              "pass",
		f + "test_fail":              "fail",
		f + "test_setup_error":       "fail",
		f + "test_setup_memory":      jobs.CaseStopped,
		f + "test_skip":              "skip",
		f + "test_skip_mark":         "skip",
		f + "test_xfail":             "skip",
		f + "test_raises_memory":     jobs.CaseStopped,
		f + "test_raises_memory_msg": jobs.CaseStopped,
		f + "test_alloc":             jobs.CaseStopped,
		f + "test_param[one]":        "pass",
		f + "test_param[two[2]]":     "fail",
		f + "test_param[3 four]":     "fail",
		f + "TestK::test_m":          "pass",
		f + "TestK::test_n":          "pass",
	}
	for name, o := range want {
		if got[name] != o {
			t.Errorf("%s: %q, want %q", name, got[name], o)
		}
	}
	if len(got) != len(want) {
		t.Errorf("cases %v, want %v", got, want)
	}
}

func TestCountingArgv(t *testing.T) {
	const r = "/out/junit.xml"
	junitArgs := []string{"--junitxml=" + r, "-o", "junit_family=xunit1"}
	for _, tc := range []struct {
		run  string
		argv []string // nil: /bin/sh -c run
		how  string
	}{
		{"go test ./...", []string{"go", "test", "-json", "./..."}, "go"},
		{"go test -run TestX -count=1 ./calc", []string{"go", "test", "-json", "-run", "TestX", "-count=1", "./calc"}, "go"},
		{"  go   test  ", []string{"go", "test", "-json"}, "go"},
		{"pytest", append([]string{"pytest"}, junitArgs...), "junit"},
		{"pytest -q tests", append([]string{"pytest", "-q", "tests"}, junitArgs...), "junit"},
		{"py.test tests/unit", append([]string{"py.test", "tests/unit"}, junitArgs...), "junit"},
		{"python3 -m pytest -x", append([]string{"python3", "-m", "pytest", "-x"}, junitArgs...), "junit"},
		{"python -m pytest", append([]string{"python", "-m", "pytest"}, junitArgs...), "junit"},
		{"python3.11 -m pytest tests/", append([]string{"python3.11", "-m", "pytest", "tests/"}, junitArgs...), "junit"},
		{"/usr/bin/python3 -m pytest", append([]string{"/usr/bin/python3", "-m", "pytest"}, junitArgs...), "junit"},
		{"python3 -m unittest", []string{"python3", "-m", "unittest"}, "unittest"},
		{"python3 -m unittest discover -s tests", []string{"python3", "-m", "unittest", "discover", "-s", "tests"}, "unittest"},
		{"python3.12 -m unittest discover", []string{"python3.12", "-m", "unittest", "discover"}, "unittest"},

		// Shell syntax: run as written.
		{"pytest; rm -rf x", nil, ""},
		{"pytest && echo ok", nil, ""},
		{"go test ./... | tee log", nil, ""},
		{"pytest $ARGS", nil, ""},
		{"pytest -k 'a or b'", nil, ""},
		{`pytest -k "a"`, nil, ""},
		{"pytest tests/test_x.py::test_y[1]", nil, ""},
		{"pytest > out.txt", nil, ""},
		{"pytest tests/*.py", nil, ""},
		{"pytest ~/tests", nil, ""},
		{"pytest # comment", nil, ""},
		{"pytest\npytest", nil, ""},
		{"(pytest)", nil, ""},
		{"pytest `x`", nil, ""},
		{`pytest tests\ x`, nil, ""},
		// Other programs.
		{"make test", nil, ""},
		{"npm test", nil, ""},
		{"tox", nil, ""},
		{"go vet ./...", nil, ""},
		{"go", nil, ""},
		{"gotest ./...", nil, ""},
		{"pytest-3 tests", nil, ""},
		{"python3 -m pip install x", nil, ""},
		{"python3 -m", nil, ""},
		{"python2 -m pytest", nil, ""},
		{"python3.11.2 -m pytest", nil, ""},
		{"python3x -m unittest", nil, ""},
		{"python3 -c pass", nil, ""},
		{"env python3 -m pytest", nil, ""},
		{"", nil, ""},
	} {
		argv, how := countingArgv(tc.run, r)
		want := tc.argv
		if want == nil {
			want = []string{"/bin/sh", "-c", tc.run}
		}
		if !slices.Equal(argv, want) || how != tc.how {
			t.Errorf("countingArgv(%q) = %q, %q; want %q, %q", tc.run, argv, how, want, tc.how)
		}
	}
}

// staleJUnit is a valid report of three passing cases, committed in the
// tree where a declared command says its report goes.
const staleJUnit = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="3"><testcase classname="tests.test_old" name="test_a" /><testcase classname="tests.test_old" name="test_b" /><testcase classname="tests.test_old" name="test_c" /></testsuite></testsuites>
`

// unitTests are two unittest cases in a directory that is not a package,
// so that `unittest discover` from the root does not find them.
const unitTests = `import unittest

from calc import mul


class TestUnit(unittest.TestCase):
    def test_mul(self):
        self.assertEqual(mul(2, 3), 6)

    def test_mul_zero(self):
        self.assertEqual(mul(0, 3), 0)
`

func TestCommandJobs(t *testing.T) {
	env := pyWorkspace(t, map[string]string{
		"reports/junit.xml":    staleJUnit,
		"reports/dir.xml/keep": "",
		"utests/test_unit.py":  unitTests,
	}, nil)
	ctx := context.Background()
	// The stale report is one readJUnit counts: without its removal the
	// run that writes nothing would be counted.
	if rep, err := readJUnit(env.w.PristineDir(jobs.TreeOracle), "reports/junit.xml"); err != nil || rep.Totals.Cases != 3 {
		t.Fatalf("the stale report does not read as 3 cases: %v", err)
	}
	pytestCmd := "python3 -m pytest -q -p no:cacheprovider -o junit_family=xunit1 --junitxml=reports/junit.xml tests/test_calc.py"
	c := env.c
	c.Commands = map[string]criteria.Command{
		"junit":      {Run: pytestCmd, JUnit: "reports/junit.xml"},
		"stale":      {Run: "true", JUnit: "reports/junit.xml"},
		"dir":        {Run: "true", JUnit: "reports/dir.xml"},
		"nocount":    {Run: "echo hello > /dev/null"},
		"fails":      {Run: "exit 3"},
		"plain":      {Run: "python3 -m pytest -q -p no:cacheprovider tests/test_calc.py"},
		"unittest":   {Run: "python3 -m unittest discover -s utests"},
		"unittest0":  {Run: "python3 -m unittest discover"},
		"nounittest": {Run: "python3 -m unittest discover -s nowhere_dir"},
	}
	type want struct {
		outcome string
		why     []string
		count   int // -1: none
		runs    int
	}
	run := func(t *testing.T, s *jobs.Spec, w want) *Answer {
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
		switch {
		case w.count < 0 && d.Count != nil:
			t.Errorf("%s: count %d, want none", s.ID(), *d.Count)
		case w.count >= 0 && (d.Count == nil || *d.Count != w.count):
			t.Errorf("%s: count %v, want %d", s.ID(), d.Count, w.count)
		}
		if len(d.Runs) != w.runs {
			t.Errorf("%s: %d runs, want %d: %+v", s.ID(), len(d.Runs), w.runs, d.Runs)
		}
		for i, r := range d.Runs {
			if r.Verdict == "" || r.Stream == "" || r.Termination != sandbox.Exited.String() {
				t.Errorf("%s: run %d not recorded: %+v", s.ID(), i, r)
			}
		}
		if w.runs > 0 && (!a.Started || a.Sandbox.Name == "") {
			t.Errorf("%s: no sandbox run recorded: %+v", s.ID(), a)
		}
		return a
	}
	sides := func(label string) (base, patch *jobs.Spec) {
		specs := planCommand("cmd:"+label, c)
		if len(specs) != 2 || specs[0].Side != jobs.Baseline || specs[1].Side != jobs.Patch || specs[0].Reruns != 2 {
			t.Fatalf("plan of cmd:%s: %+v", label, specs)
		}
		return specs[0], specs[1]
	}

	t.Run("declared JUnit", func(t *testing.T) {
		base, patch := sides("junit")
		// The baseline's add is wrong: test_add fails every run.
		a := run(t, base, want{jobs.OutcomeFail, []string{"failed all 3 runs: exit 1 (2 cases)"}, 2, 3})
		if !slices.Contains(a.Cases, jobs.Case{Name: "tests/test_calc.py::test_add", Outcome: "fail"}) {
			t.Errorf("baseline cases %v", a.Cases)
		}
		a = run(t, patch, want{jobs.OutcomePass, []string{"exit 0 (2 cases)"}, 2, 1})
		if !slices.Equal(a.Cases, []jobs.Case{{Name: "tests/test_calc.py::test_add", Outcome: "pass"}, {Name: "tests/test_calc.py::test_mul", Outcome: "pass"}}) {
			t.Errorf("patch cases %v", a.Cases)
		}
	})
	t.Run("stale JUnit file removed", func(t *testing.T) {
		_, patch := sides("stale")
		run(t, patch, want{jobs.OutcomeUnrunnable, []string{"exit 0 but no case count: no JUnit report was written", "never verified"}, -1, 1})
	})
	t.Run("JUnit path is a directory", func(t *testing.T) {
		_, patch := sides("dir")
		run(t, patch, want{jobs.OutcomeUnrunnable, []string{"the declared JUnit path reports/dir.xml is not a regular file"}, -1, 0})
	})
	t.Run("exit 0 without a count", func(t *testing.T) {
		_, patch := sides("nocount")
		run(t, patch, want{jobs.OutcomeUnrunnable, []string{"exit 0 but no case count: the command declares no JUnit file", "never verified"}, -1, 1})
	})
	t.Run("failing command", func(t *testing.T) {
		_, patch := sides("fails")
		run(t, patch, want{jobs.OutcomeFail, []string{"failed all 3 runs: exit 3 (no count)"}, -1, 3})
	})
	t.Run("plain pytest is counted", func(t *testing.T) {
		base, patch := sides("plain")
		run(t, base, want{jobs.OutcomeFail, []string{"exit 1 (2 cases)"}, 2, 3})
		run(t, patch, want{jobs.OutcomePass, []string{"exit 0 (2 cases)"}, 2, 1})
	})
	t.Run("unittest is counted", func(t *testing.T) {
		_, patch := sides("unittest")
		run(t, patch, want{jobs.OutcomePass, []string{"exit 0 (2 cases)"}, 2, 1})
	})
	t.Run("unittest of nothing is a claim of nothing", func(t *testing.T) {
		_, patch := sides("unittest0")
		// Python 3.12 on exits 5 when no test ran: an empty run either way.
		run(t, patch, want{jobs.OutcomeUnrunnable, []string{"exit 0 but 0 cases", "never verified"}, 0, 1})
	})
	t.Run("unittest without a summary", func(t *testing.T) {
		// discover fails on a start directory that does not exist: an
		// error and no "Ran N tests" line.
		_, patch := sides("nounittest")
		run(t, patch, want{jobs.OutcomeFail, []string{"(no count)"}, -1, 3})
	})
	t.Run("seal check of zero unittest cases", func(t *testing.T) {
		c := *c
		c.SealPlan = []criteria.Command{{Run: "python3 -m unittest discover"}}
		seals := sealJobs(&c)
		if len(seals) != 1 || seals[0].Purpose != jobs.Seal || seals[0].Reruns != 0 {
			t.Fatalf("seal jobs %+v", seals)
		}
		want0 := "exit 0 (0 cases)"
		if unittestExitsFive(t, env.python) {
			want0 = "0 cases, exit 5: no tests ran"
		}
		run(t, seals[0], want{jobs.OutcomePass, []string{want0}, 0, 1})
	})
	t.Run("collateral exit code", func(t *testing.T) {
		for _, tc := range []struct{ run, outcome, o string }{
			{"test -f calc.py && echo ok", jobs.OutcomePass, "pass"},
			{"test -f nowhere.py", jobs.OutcomeFail, "fail"},
		} {
			c := *c
			c.Suite = &criteria.Command{Run: tc.run}
			s := commandSuite(&c)
			if s == nil || s.Purpose != jobs.Collateral {
				t.Fatalf("suite job %+v", s)
			}
			a := run(t, s, want{tc.outcome, nil, -1, 1})
			if want := []jobs.Case{{Name: "exit code of `" + tc.run + "`", Outcome: tc.o}}; !slices.Equal(a.Cases, want) {
				t.Errorf("suite cases %v, want %v", a.Cases, want)
			}
		}
	})
	t.Run("collateral with JUnit", func(t *testing.T) {
		c := *c
		c.Suite = &criteria.Command{Run: pytestCmd, JUnit: "reports/junit.xml"}
		a := run(t, commandSuite(&c), want{jobs.OutcomePass, []string{"exit 0 (2 cases)"}, 2, 1})
		if len(a.Cases) != 2 || a.Cases[0].Name != "tests/test_calc.py::test_add" {
			t.Errorf("suite cases %v", a.Cases)
		}
	})
}

// unittestExitsFive reports whether python's unittest exits 5 when no test
// ran (Python 3.12 on); 3.11 exits 0.
func unittestExitsFive(t *testing.T, python string) bool {
	t.Helper()
	err := exec.Command(python, "-c", "import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)").Run()
	return err == nil
}

func TestInitProposesOnlyCountableSealChecks(t *testing.T) {
	// A seal check without a case count can never pass, so every check
	// sealgate init proposes must be one the gate counts: a declared JUnit
	// file, or a runner whose own count the executor reads.
	fsys := fstest.MapFS{
		"go.mod":              {Data: []byte("module example.com/m\n\ngo 1.22\n")},
		"m_test.go":           {Data: []byte("package m\n")},
		"tests/test_x.py":     {Data: []byte("def test_x():\n    pass\n")},
		"pytest.ini":          {Data: []byte("[pytest]\n")},
		"package.json":        {Data: []byte(`{"scripts": {"test": "jest"}}`)},
		"Cargo.toml":          {Data: []byte("[package]\nname = \"x\"\n")},
		"Makefile":            {Data: []byte("test:\n\tgo test ./...\n")},
		"pkg/util/util.go":    {Data: []byte("package util\n")},
		"pkg/util/u_test.go":  {Data: []byte("package util\n")},
		"setup.cfg":           {Data: []byte("[tool:pytest]\n")},
		"requirements.txt":    {Data: []byte("pytest\n")},
		"tests/__init__.py":   {Data: []byte("")},
		"tests/conftest.py":   {Data: []byte("")},
		"src/m/__init__.py":   {Data: []byte("")},
		"src/m/core.py":       {Data: []byte("X = 1\n")},
		"docs/index.md":       {Data: []byte("# m\n")},
		".sealgate-ignore.md": {Data: []byte("")},
	}
	p, err := repoconfig.Profile(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Config.Seal) == 0 {
		t.Fatal("no seal check proposed")
	}
	for _, chk := range p.Config.Seal {
		if chk.JUnit != "" {
			continue
		}
		if _, how := countingArgv(chk.Run, "/tmp/report.xml"); how == "" {
			t.Errorf("sealgate init proposes %q, which reports no case count the gate reads", chk.Run)
		}
	}
}

package junit

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests in this file run the real pytest on a small project written to
// a temporary directory, the way the executor runs a claim: `python3 -m
// pytest --junitxml=FILE -p no:cacheprovider NODEID`, one process per
// claim. They skip when no python3 imports pytest, unless
// SEALGATE_REQUIRE_PYTHON=1 (CI), when they fail instead.

// pytestFiles is the project under test.
func pytestFiles() map[string]string {
	return map[string]string{
		"pytest.ini": "[pytest]\n",
		"tests/test_mod.py": `import pytest


@pytest.fixture
def broken():
    raise RuntimeError("setup boom")


@pytest.fixture
def bad_teardown():
    yield 1
    raise RuntimeError("teardown boom")


def test_pass():
    pass


def test_fail():
    assert 1 == 2


def test_setup_error(broken):
    pass


def test_teardown_error(bad_teardown):
    pass


def test_fail_and_teardown_error(bad_teardown):
    assert False


def test_skip():
    pytest.skip("not today")


@pytest.mark.skip(reason="marked")
def test_skip_mark():
    pass


@pytest.mark.xfail(reason="known")
def test_xfail():
    assert False


@pytest.mark.xfail(reason="known")
def test_xpass():
    pass


@pytest.mark.xfail(reason="known", strict=True)
def test_xpass_strict():
    pass


@pytest.mark.parametrize("a,b", [(1, 2), (3, 3), ("x::y", "a/b.c"), ("\u00e9", "[")])
def test_add(a, b):
    assert a != b


def test_prints_a_report():
    print('<testcase classname="tests.test_mod" name="test_ghost"/>')


class TestK:
    def test_m(self):
        pass

    class TestInner:
        def test_n(self):
            pass
`,
		// Two modules whose paths differ only in "." and "/".
		"tests/sub.dir/test_dot.py": "def test_dot():\n    pass\n",
		"tests/sub/dir/test_dot.py": "def test_dot():\n    assert False\n",
		// A module that does not import, in its own directory so that the
		// whole-suite runs do not stop at it.
		"broken/test_broken.py": "import no_such_module_sealgate\n\n\ndef test_a():\n    pass\n",
	}
}

// pytestCases is what each test of pytestFiles is, by node id.
func pytestCases() map[string]Status {
	return map[string]Status{
		"tests/test_mod.py::test_pass":                    StatusPassed,
		"tests/test_mod.py::test_fail":                    StatusFailed,
		"tests/test_mod.py::test_setup_error":             StatusErrored,
		"tests/test_mod.py::test_teardown_error":          StatusErrored,
		"tests/test_mod.py::test_fail_and_teardown_error": StatusFailed,
		"tests/test_mod.py::test_skip":                    StatusSkipped,
		"tests/test_mod.py::test_skip_mark":               StatusSkipped,
		"tests/test_mod.py::test_xfail":                   StatusSkipped,
		"tests/test_mod.py::test_xpass":                   StatusPassed,
		"tests/test_mod.py::test_xpass_strict":            StatusFailed,
		"tests/test_mod.py::test_add[1-2]":                StatusPassed,
		"tests/test_mod.py::test_add[3-3]":                StatusFailed,
		"tests/test_mod.py::test_add[x::y-a/b.c]":         StatusPassed,
		`tests/test_mod.py::test_add[\xe9-[]`:             StatusPassed,
		"tests/test_mod.py::test_prints_a_report":         StatusPassed,
		"tests/test_mod.py::TestK::test_m":                StatusPassed,
		"tests/test_mod.py::TestK::TestInner::test_n":     StatusPassed,
		"tests/sub.dir/test_dot.py::test_dot":             StatusPassed,
		"tests/sub/dir/test_dot.py::test_dot":             StatusFailed,
	}
}

// dottedDirIDs are the node ids that only a file attribute tells apart.
func dottedDirIDs() []string {
	return []string{"tests/sub.dir/test_dot.py::test_dot", "tests/sub/dir/test_dot.py::test_dot"}
}

type pytester struct {
	python string
	dir    string
}

func newPytester(t *testing.T) *pytester {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	python, err := FindPython(ctx)
	if err != nil {
		if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
			t.Fatalf("SEALGATE_REQUIRE_PYTHON=1: %v", err)
		}
		t.Skipf("%v (install python3-pytest, or set SEALGATE_REQUIRE_PYTHON=1 to make this fail)", err)
	}
	dir := t.TempDir()
	for name, content := range pytestFiles() {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &pytester{python: python, dir: dir}
}

// pytestRun is one real pytest run.
type pytestRun struct {
	exitCode int
	xml      []byte
	output   []byte
}

// run runs pytest on args with a JUnit file of its own and returns the
// file.
func (p *pytester) run(t *testing.T, extra []string, args ...string) pytestRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	xmlPath := filepath.Join(t.TempDir(), "junit.xml")
	cmdArgs := []string{"-m", "pytest", "--junitxml=" + xmlPath, "-p", "no:cacheprovider",
		"--rootdir=" + p.dir, "--import-mode=importlib", "-q"}
	cmdArgs = append(cmdArgs, extra...)
	cmdArgs = append(cmdArgs, "--")
	cmdArgs = append(cmdArgs, args...)
	cmd := exec.CommandContext(ctx, p.python, cmdArgs...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1", "PYTEST_ADDOPTS=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	run := pytestRun{}
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr) && exitErr.Exited():
		run.exitCode = exitErr.ExitCode()
	default:
		t.Fatalf("pytest %s: %v\n%s", strings.Join(args, " "), err, out.Bytes())
	}
	run.output = out.Bytes()
	b, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatalf("pytest %s wrote no JUnit file (exit %d): %v\n%s", strings.Join(args, " "), run.exitCode, err, run.output)
	}
	run.xml = b
	return run
}

func (p *pytester) read(t *testing.T, run pytestRun) *Report {
	t.Helper()
	r, err := Read(bytes.NewReader(run.xml), Limits{})
	if err != nil {
		t.Fatalf("Read: %v\nfile:\n%s\npytest:\n%s", err, run.xml, run.output)
	}
	return r
}

// TestPytestSuite runs the whole project in one process, as a collateral
// run does, with pytest's default junit_family (xunit2, no file attribute)
// and with xunit1.
func TestPytestSuite(t *testing.T) {
	p := newPytester(t)
	for _, family := range []string{"xunit2", "xunit1"} {
		t.Run(family, func(t *testing.T) {
			t.Parallel()
			run := p.run(t, []string{"-o", "junit_family=" + family}, "tests")
			if run.exitCode != 1 {
				t.Errorf("exit %d, want 1\n%s", run.exitCode, run.output)
			}
			r := p.read(t, run)
			want := pytestCases()
			if r.Totals.Cases != len(want) || r.Merged != 1 || !r.CountsDeclared() {
				t.Errorf("totals %+v merged %d CountsDeclared %v, want %d cases, 1 merged", r.Totals, r.Merged, r.CountsDeclared(), len(want))
			}
			ambiguous := family == "xunit2"
			for id, status := range want {
				c, err := Match(r, id)
				if ambiguous && (id == dottedDirIDs()[0] || id == dottedDirIDs()[1]) {
					if !errors.Is(err, ErrAmbiguous) {
						t.Errorf("%s: Match = %+v, %v; want ErrAmbiguous without file attributes", id, c, err)
					}
					continue
				}
				if err != nil || c.Status != status {
					t.Errorf("%s: Match = %+v, %v; want %v", id, c, err, status)
				}
			}
			// NodeID maps every case back, except across the documented
			// "." in a directory name.
			for _, c := range r.Cases {
				id := NodeID(c)
				if _, ok := want[id]; !ok {
					t.Errorf("NodeID(%+v) = %q, not a node id of the project", c, id)
				}
				if family == "xunit1" && c.File == "" {
					t.Errorf("xunit1 case without a file: %+v", c)
				}
			}
			if _, ok := Find(r, "tests/test_mod.py::test_ghost"); ok {
				t.Errorf("a testcase printed by a test was read as a case")
			}
		})
	}
}

// TestPytestClaims runs one node id per process, as the executor runs a
// claim, and checks the exit code, the report and the match.
func TestPytestClaims(t *testing.T) {
	p := newPytester(t)
	tests := []struct {
		nodeID string
		exit   int
		want   Status
	}{
		{"tests/test_mod.py::test_pass", 0, StatusPassed},
		{"tests/test_mod.py::test_fail", 1, StatusFailed},
		{"tests/test_mod.py::test_setup_error", 1, StatusErrored},
		// pytest declares tests="2" for this one case.
		{"tests/test_mod.py::test_teardown_error", 1, StatusErrored},
		// Two <testcase> elements, tests="1".
		{"tests/test_mod.py::test_fail_and_teardown_error", 1, StatusFailed},
		{"tests/test_mod.py::test_skip", 0, StatusSkipped},
		{"tests/test_mod.py::test_xfail", 0, StatusSkipped},
		{"tests/test_mod.py::test_xpass", 0, StatusPassed},
		{"tests/test_mod.py::test_xpass_strict", 1, StatusFailed},
		{"tests/test_mod.py::test_add[x::y-a/b.c]", 0, StatusPassed},
		{`tests/test_mod.py::test_add[\xe9-[]`, 0, StatusPassed},
		{"tests/test_mod.py::TestK::TestInner::test_n", 0, StatusPassed},
		// Alone, the dotted directory is not ambiguous.
		{"tests/sub.dir/test_dot.py::test_dot", 0, StatusPassed},
		{"tests/sub/dir/test_dot.py::test_dot", 1, StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.nodeID, func(t *testing.T) {
			t.Parallel()
			run := p.run(t, nil, tt.nodeID)
			r := p.read(t, run)
			if run.exitCode != tt.exit {
				t.Errorf("exit %d, want %d\n%s", run.exitCode, tt.exit, run.output)
			}
			if r.Totals.Cases != 1 {
				t.Errorf("totals %+v, want one case", r.Totals)
			}
			c, err := Match(r, tt.nodeID)
			if err != nil || c.Status != tt.want {
				t.Fatalf("Match = %+v, %v; want %v\nfile:\n%s", c, err, tt.want, run.xml)
			}
			if got := NodeID(c); got != tt.nodeID && got != dottedDirIDs()[1] {
				t.Errorf("NodeID = %q, want %q", got, tt.nodeID)
			}
		})
	}

	t.Run("no such test", func(t *testing.T) {
		t.Parallel()
		run := p.run(t, nil, "tests/test_mod.py::test_missing")
		r := p.read(t, run)
		if run.exitCode != 4 || r.Totals.Cases != 0 || !r.CountsDeclared() {
			t.Errorf("exit %d, totals %+v, want 4 and no case", run.exitCode, r.Totals)
		}
		if _, err := Match(r, "tests/test_mod.py::test_missing"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Match: %v, want ErrNotFound", err)
		}
	})
	t.Run("module does not import", func(t *testing.T) {
		t.Parallel()
		run := p.run(t, nil, "broken/test_broken.py::test_a")
		r := p.read(t, run)
		if run.exitCode == 0 || run.exitCode == 1 {
			t.Errorf("exit %d, want an unrunnable code", run.exitCode)
		}
		if r.Totals.Errored != 1 || r.Cases[0].Classname != "" || NodeID(r.Cases[0]) != "broken/test_broken.py" {
			t.Errorf("cases %+v, want one collection error", r.Cases)
		}
		if _, err := Match(r, "broken/test_broken.py::test_a"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Match: %v, want ErrNotFound", err)
		}
	})
}

func TestFindPython(t *testing.T) {
	// Not parallel: it sets PATH.
	fake := func(dir, script string, mode os.FileMode) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "python3")
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake interpreters")
	}
	root := t.TempDir()
	noPytest := fake(filepath.Join(root, "a"), "exit 1", 0o755)
	notExec := fake(filepath.Join(root, "b"), "exit 0", 0o644)
	good := fake(filepath.Join(root, "c"), `[ "$1" = "-c" ] && [ "$2" = "import pytest" ] || exit 3`, 0o755)
	alsoGood := fake(filepath.Join(root, "d"), "exit 0", 0o755)
	dirs := func(paths ...string) string {
		var ds []string
		for _, p := range paths {
			ds = append(ds, filepath.Dir(p))
		}
		return strings.Join(ds, string(os.PathListSeparator))
	}

	t.Setenv("PATH", string(os.PathListSeparator)+"relative"+string(os.PathListSeparator)+dirs(noPytest, notExec, good, alsoGood))
	got, err := FindPython(t.Context())
	if err != nil || got != good {
		t.Errorf("FindPython = %q, %v; want %q", got, err, good)
	}

	t.Setenv("PATH", dirs(noPytest, notExec))
	got, err = FindPython(t.Context())
	switch {
	case err == nil && got != debianPython:
		t.Errorf("FindPython = %q, want %s or an error", got, debianPython)
	case err != nil && (!errors.Is(err, ErrNoPython) || !strings.Contains(err.Error(), noPytest) || strings.Contains(err.Error(), notExec)):
		t.Errorf("FindPython error %q: want ErrNoPython naming %s and not %s", err, noPytest, notExec)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	t.Setenv("PATH", dirs(good))
	if _, err := FindPython(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

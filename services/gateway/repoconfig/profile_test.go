package repoconfig

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeTree writes files (slash-separated name → content) under a new
// temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	return dir
}

func profileTree(t *testing.T, files map[string]string) *Proposal {
	t.Helper()
	p, err := Profile(os.DirFS(writeTree(t, files)))
	if err != nil {
		t.Fatalf("Profile: %v", err)
	}
	return p
}

// checkProposal checks the proposed config against want (floors are always
// the defaults, written out) and that each of findings is among the
// proposal's findings, in this order.
func checkProposal(t *testing.T, p *Proposal, want Config, findings ...string) {
	t.Helper()
	want.Version = 1
	want.Floors = DefaultFloors()
	if !reflect.DeepEqual(*p.Config, want) {
		t.Errorf("config = %+v\nwant     %+v", *p.Config, want)
	}
	rest := p.Findings
	for _, f := range findings {
		i := indexContaining(rest, f)
		if i < 0 {
			t.Errorf("findings lack %q (in this order):\n%s", f, strings.Join(p.Findings, "\n"))
			return
		}
		rest = rest[i+1:]
	}
	last := p.Findings[len(p.Findings)-1]
	if last != "floors: sealgate's defaults, written out: coverage 1.0, strength 0.75, confidence 0.8, mutants 20" {
		t.Errorf("last finding %q is not the floors line", last)
	}
	checkRoundTrip(t, p.Config)
}

func indexContaining(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

func TestProfileGo(t *testing.T) {
	p := profileTree(t, map[string]string{"go.mod": "module x\n", "x.go": "package x\n"})
	checkProposal(t, p, Config{Stacks: []string{"go"}, Seal: []Command{{Run: "go test ./..."}}},
		"go: go.mod at the root")
	if len(p.Findings) != 2 {
		t.Errorf("findings = %q, want the go line and the floors line", p.Findings)
	}
}

// A repository from before Go modules: Go files at the root, no go.mod.
func TestProfileGoWithoutGoMod(t *testing.T) {
	p := profileTree(t, map[string]string{"x.go": "package x\n", "x_test.go": "package x\n"})
	checkProposal(t, p, Config{Stacks: []string{"go"}, Seal: []Command{{Run: "go test ./..."}}},
		"go: Go files at the root and no go.mod")
	// Go files only below the root are no Go stack by themselves.
	if _, err := ProfileDir(writeTree(t, map[string]string{"tools/x.go": "package x\n"})); !errors.Is(err, ErrNoStack) {
		t.Errorf("Go files only below the root: %v, want ErrNoStack", err)
	}
}

func TestProfilePytestMarkers(t *testing.T) {
	// Each marker alone, next to a test file importing unittest, must
	// still make the runner pytest: a marker outranks the imports.
	const unittestFile = "import unittest\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        pass\n"
	markers := map[string]struct {
		files map[string]string
		why   string // what the runner finding must say
	}{
		"pytest.ini":         {map[string]string{"pytest.ini": "[pytest]\n"}, "(pytest.ini exists)"},
		".pytest.ini":        {map[string]string{".pytest.ini": "[pytest]\n"}, "(.pytest.ini exists)"},
		"pytest.toml":        {map[string]string{"pytest.toml": "[pytest]\n"}, "(pytest.toml exists)"},
		"conftest.py":        {map[string]string{"conftest.py": "\n"}, "(conftest.py exists)"},
		"tests/conftest.py":  {map[string]string{"tests/conftest.py": "\n"}, "(tests/conftest.py exists)"},
		"pyproject.toml":     {map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n"}, "(pyproject.toml has a [tool.pytest.*] section)"},
		"setup.cfg":          {map[string]string{"setup.cfg": "[metadata]\nname = x\n[tool:pytest]\ntestpaths = tests\n"}, "(setup.cfg has a [tool:pytest] section)"},
		"tox.ini":            {map[string]string{"tox.ini": "[tox]\nenvlist = py3\n\n  [pytest]\naddopts = -q\n"}, "(tox.ini has a [pytest] section)"},
		"import pytest":      {map[string]string{"tests/test_a.py": "import os\nimport pytest\n"}, "(tests/test_a.py imports pytest)"},
		"import pytest as":   {map[string]string{"test/test_a.py": "import pytest as pt\n"}, "(test/test_a.py imports pytest)"},
		"from pytest":        {map[string]string{"b_test.py": "from pytest import raises\n"}, "(b_test.py imports pytest)"},
		"from pytest.sub":    {map[string]string{"test_r.py": "from pytest.x import y\n"}, "(test_r.py imports pytest)"},
		"indented import":    {map[string]string{"tests/test_c.py": "def test_x():\n    import pytest\n"}, "(tests/test_c.py imports pytest)"},
		"pytest import wins": {map[string]string{"tests/test_a.py": unittestFile, "tests/test_b.py": "import pytest\n"}, "(tests/test_b.py imports pytest)"},
	}
	for name, m := range markers {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{"tests/test_u.py": unittestFile}
			for f, c := range m.files {
				files[f] = c
			}
			p := profileTree(t, files)
			checkProposal(t, p, Config{Stacks: []string{"python"}, Runner: "pytest", Seal: []Command{{Run: "python3 -m pytest -q"}}},
				"python: ", "python: runner pytest "+m.why)
		})
	}
}

func TestProfilePytestNotFooledByLookalikes(t *testing.T) {
	// None of these is a pytest marker: a commented section, a module
	// whose name starts with pytest, a pytest import outside the test files.
	p := profileTree(t, map[string]string{
		"pyproject.toml":  "[project]\nname = \"x\"\n# [tool.pytest.ini_options]\n",
		"tests/test_a.py": "import pytest_mock\nimport unittest\n",
		"src/helper.py":   "import pytest\n",
	})
	checkProposal(t, p, Config{
		Stacks: []string{"python"}, Runner: "unittest",
		Suite: &Command{Run: "python3 -m unittest discover -v"},
		Seal:  []Command{{Run: "python3 -m unittest discover -v"}},
	}, "python: pyproject.toml, src/helper.py, tests/test_a.py", "python: runner unittest (tests/test_a.py imports unittest")
}

func TestProfileUnittest(t *testing.T) {
	p := profileTree(t, map[string]string{
		"setup.py":             "from setuptools import setup\nsetup()\n",
		"pkg/__init__.py":      "",
		"tests/test_things.py": "from unittest import TestCase\n",
	})
	checkProposal(t, p, Config{
		Stacks: []string{"python"}, Runner: "unittest",
		Suite: &Command{Run: "python3 -m unittest discover -v"},
		Seal:  []Command{{Run: "python3 -m unittest discover -v"}},
	}, "python: setup.py, pkg/__init__.py, tests/test_things.py", "python: runner unittest (tests/test_things.py imports unittest, nothing names pytest)")
}

func TestProfilePythonDefaultsToPytest(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"requirements only":  {"requirements-dev.txt": "requests\n"},
		"script at the root": {"tool.py": "print(1)\n"},
		"test without imports": {
			"app/main.py": "x = 1\n", "tests/test_main.py": "def test_x():\n    assert True\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := profileTree(t, files)
			checkProposal(t, p, Config{Stacks: []string{"python"}, Runner: "pytest", Seal: []Command{{Run: "python3 -m pytest -q"}}},
				"python: ", "python: runner pytest (the default: no test file names a framework)")
		})
	}
}

func TestProfilePythonIgnoresHiddenAndVendoredDirs(t *testing.T) {
	_, err := Profile(os.DirFS(writeTree(t, map[string]string{
		".venv/site.py":       "",
		"node_modules/x.py":   "",
		"docs/deep/nested.py": "", // two levels down: not looked at
		"README.md":           "# x\n",
	})))
	if !errors.Is(err, ErrNoStack) {
		t.Fatalf("Profile: %v; want ErrNoStack", err)
	}
}

func TestProfilePythonEvidenceIsShortened(t *testing.T) {
	p := profileTree(t, map[string]string{"a.py": "", "b.py": "", "c.py": "", "d.py": "", "e.py": ""})
	if p.Findings[0] != "python: a.py, b.py, c.py and 2 more" {
		t.Fatalf("finding %q", p.Findings[0])
	}
}

func TestProfileNode(t *testing.T) {
	t.Run("real test script", func(t *testing.T) {
		p := profileTree(t, map[string]string{"package.json": `{"name": "x", "scripts": {"test": "jest --ci"}}`})
		checkProposal(t, p, Config{Stacks: []string{"node"}, Suite: &Command{Run: "npm test"}},
			`node: package.json has a test script; suite "npm test", compared by exit code on both sides (no seal check: it reports no case count; declare a JUnit file to make it one)`)
	})
	t.Run("npm placeholder", func(t *testing.T) {
		p := profileTree(t, map[string]string{"package.json": `{"name": "x", "scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`})
		checkProposal(t, p, Config{Stacks: []string{"node"}}, "node: package.json's test script is npm's placeholder")
	})
	t.Run("no scripts", func(t *testing.T) {
		p := profileTree(t, map[string]string{"package.json": `{"name": "x"}`})
		checkProposal(t, p, Config{Stacks: []string{"node"}}, "node: package.json has no test script")
	})
	for name, content := range map[string]string{
		"invalid JSON":        `{"scripts": {"test": "jest",}}`,
		"trailing data":       `{"scripts": {"test": "jest"}} {}`,
		"not an object":       `["jest"]`,
		"script not a string": `{"scripts": {"test": ["jest"]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"package.json": content})
			if _, err := ProfileDir(dir); !errors.Is(err, ErrNoStack) {
				t.Fatalf("Profile of an ignored package.json alone: %v; want ErrNoStack", err)
			}
			// Next to another stack, the ignored file is a finding.
			writeFile(t, filepath.Join(dir, "Cargo.toml"), "[package]\nname = \"x\"\n")
			p, err := ProfileDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			checkProposal(t, p, Config{Stacks: []string{"rust"}, Suite: &Command{Run: "cargo test"}},
				"node: package.json ignored: ", "rust: Cargo.toml at the root")
		})
	}
}

func TestProfileRust(t *testing.T) {
	p := profileTree(t, map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n", "src/lib.rs": ""})
	checkProposal(t, p, Config{Stacks: []string{"rust"}, Suite: &Command{Run: "cargo test"}},
		`rust: Cargo.toml at the root; suite "cargo test", compared by exit code on both sides (no seal check: it reports no case count; declare a JUnit file to make it one)`)
}

func TestProfileMake(t *testing.T) {
	withTest := map[string]string{
		"plain":            "all:\n\tcc x.c\n\ntest: all\n\t./run-tests\n",
		"spaced":           "test : all\n\t./run-tests\n",
		"several targets":  "check test: all\n\t./run-tests\n",
		"double colon":     "test::\n\t./a\n",
		"CRLF":             "test:\r\n\t./run-tests\r\n",
		"makefile name":    "", // written as makefile below
		"GNUmakefile name": "",
	}
	for name, content := range withTest {
		t.Run(name, func(t *testing.T) {
			file := "Makefile"
			switch name {
			case "makefile name":
				file, content = "makefile", "test:\n\ttrue\n"
			case "GNUmakefile name":
				file, content = "GNUmakefile", "test:\n\ttrue\n"
			}
			p := profileTree(t, map[string]string{file: content})
			checkProposal(t, p, Config{Stacks: []string{"make"}, Suite: &Command{Run: "make test"}},
				"make: "+file+" has a test target")
		})
	}
	withoutTest := map[string]string{
		"no test target": "all:\n\tcc x.c\n",
		"only a recipe":  "all:\n\techo test: ok\n",
		"assignment":     "test := unit\nX = a:b\n",
		"phony only":     ".PHONY: test\ntests:\n\ttrue\ntest_all:\n\ttrue\n",
		"commented":      "# test:\n",
	}
	for name, content := range withoutTest {
		t.Run(name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"Makefile": content})
			if _, err := ProfileDir(dir); !errors.Is(err, ErrNoStack) {
				t.Fatalf("Profile: %v; want ErrNoStack", err)
			}
			writeFile(t, filepath.Join(dir, "go.mod"), "module x\n")
			p, err := ProfileDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			checkProposal(t, p, Config{Stacks: []string{"go"}, Seal: []Command{{Run: "go test ./..."}}},
				"go: go.mod", "make: Makefile has no test target; no make check proposed")
		})
	}
	t.Run("make reads GNUmakefile first", func(t *testing.T) {
		dir := writeTree(t, map[string]string{"GNUmakefile": "all:\n\ttrue\n", "Makefile": "test:\n\ttrue\n"})
		if _, err := ProfileDir(dir); !errors.Is(err, ErrNoStack) {
			t.Fatalf("Profile: %v; want ErrNoStack (make would read GNUmakefile, which has no test target)", err)
		}
	})
}

func TestProfileMixedGoPython(t *testing.T) {
	p := profileTree(t, map[string]string{
		"go.mod":              "module x\n",
		"main.go":             "package main\n",
		"scripts/gen.py":      "print(1)\n",
		"scripts/conftest.py": "", // not a marker: only the root's and tests/'s count
	})
	checkProposal(t, p, Config{
		Stacks: []string{"go", "python"}, Runner: "pytest",
		Seal: []Command{{Run: "go test ./..."}, {Run: "python3 -m pytest -q"}},
	}, "go: go.mod at the root", "python: scripts/conftest.py, scripts/gen.py", "python: runner pytest (the default")
}

func TestProfileSuitePrecedence(t *testing.T) {
	all := map[string]string{
		"Makefile":         "test:\n\ttrue\n",
		"package.json":     `{"scripts": {"test": "mocha"}}`,
		"Cargo.toml":       "[package]\n",
		"tests/test_x.py":  "import unittest\n",
		"requirements.txt": "",
		"go.mod":           "module x\n",
	}
	p := profileTree(t, all)
	checkProposal(t, p, Config{
		Stacks: []string{"go", "make", "node", "python", "rust"}, Runner: "unittest",
		Suite: &Command{Run: "make test"},
		Seal:  []Command{{Run: "go test ./..."}, {Run: "python3 -m unittest discover -v"}},
	}, "go: ", "make: ", "node: ", "python: ", "python: runner unittest", "rust: ",
		`suite: "make test" chosen over "npm test", "cargo test", "python3 -m unittest discover -v": one suite command is allowed, by precedence make > node > rust > unittest; "npm test", "cargo test" will not run: without a case count a seal check can never pass (declare a JUnit file for each and add it to seal)`)

	// Without the Makefile, node wins; without package.json too, rust; then unittest.
	for _, step := range []struct{ remove, want string }{
		{"Makefile", "npm test"}, {"package.json", "cargo test"}, {"Cargo.toml", "python3 -m unittest discover -v"},
	} {
		delete(all, step.remove)
		p := profileTree(t, all)
		if p.Config.Suite == nil || p.Config.Suite.Run != step.want {
			t.Fatalf("without %s: suite %+v, want %q", step.remove, p.Config.Suite, step.want)
		}
		chose := indexContaining(p.Findings, "suite: ") >= 0
		if several := step.remove != "Cargo.toml"; chose != several {
			t.Fatalf("without %s: a suite choice finding is %v, want %v: %q", step.remove, chose, several, p.Findings)
		}
	}
}

func TestProfileNothing(t *testing.T) {
	dir := writeTree(t, map[string]string{"README.md": "# x\n", "docs/a.txt": ""})
	p, err := ProfileDir(dir)
	if p != nil || !errors.Is(err, ErrNoStack) {
		t.Fatalf("ProfileDir = %+v, %v; want ErrNoStack", p, err)
	}
	want := "cannot profile " + dir + ": no go.mod, Python, package.json, Cargo.toml or Makefile with a test target; write .sealgate.yaml by hand (see docs)"
	if err.Error() != want {
		t.Fatalf("error %q\nwant  %q", err, want)
	}
}

func TestProfileMissingDir(t *testing.T) {
	_, err := ProfileDir(filepath.Join(t.TempDir(), "nope"))
	if err == nil || errors.Is(err, ErrNoStack) {
		t.Fatalf("ProfileDir of a missing directory: %v; want an I/O error, not ErrNoStack", err)
	}
}

func TestProfileDeterministic(t *testing.T) {
	files := map[string]string{
		"go.mod": "module x\n", "Makefile": "test:\n\ttrue\n", "package.json": `{"scripts": {"test": "x"}}`,
		"a/x.py": "", "b/y.py": "", "tests/test_z.py": "import unittest\n",
	}
	dir := writeTree(t, files)
	first, err := ProfileDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := first.Config.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		p, err := ProfileDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := p.Config.Marshal()
		if string(got) != string(want) || !reflect.DeepEqual(p.Findings, first.Findings) {
			t.Fatalf("profiles differ:\n%s\n%q\nthen\n%s\n%q", want, first.Findings, got, p.Findings)
		}
	}
}

// TestProfiledUnittestSealRuns runs the unittest check Profile proposes in
// a repository with one unittest test, as sealgate would: a shell line at
// the repository root.
func TestProfiledUnittestSealRuns(t *testing.T) {
	python := findPython3()
	if python == "" {
		if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
			t.Fatal("no python3 on PATH or at /usr/bin/python3, and SEALGATE_REQUIRE_PYTHON=1")
		}
		t.Skip("no python3 (set SEALGATE_REQUIRE_PYTHON=1 to fail instead)")
	}
	dir := writeTree(t, map[string]string{
		"test_arith.py": "import unittest\n\n\nclass Arith(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n",
	})
	p, err := ProfileDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Config.Seal) != 1 || p.Config.Suite == nil || p.Config.Suite.Run != p.Config.Seal[0].Run {
		t.Fatalf("want one seal check equal to the suite: %+v", p.Config)
	}
	cmd := exec.Command("sh", "-c", p.Config.Seal[0].Run)
	cmd.Dir = dir
	// The command names python3; put the one found first on PATH.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(python)+string(os.PathListSeparator)+os.Getenv("PATH"), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", p.Config.Seal[0].Run, err, out)
	}
	if !strings.Contains(string(out), "Ran 1 test") || !strings.Contains(string(out), "test_add") {
		t.Fatalf("%s ran no test:\n%s", p.Config.Seal[0].Run, out)
	}
}

func findPython3() string {
	if p, err := exec.LookPath("python3"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return ""
}

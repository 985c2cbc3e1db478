package checkout

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// Class says how the gate can judge a changed file.
type Class string

// Classes of changed files. Anything not known to be source, test code,
// harness, or a document, data or configuration file is foreign: the gate
// fails closed on what it cannot judge.
//
// A path is classified by the first rule that matches it: harness, test
// code, binary, symbolic link (foreign), source, document, foreign. So a
// conftest.py, which is both test code and harness, is harness (and, as test
// code, still restored from the baseline in the oracle tree), and a setup.py
// under tests/ is harness too.
const (
	// ClassSource: Go or Python code that is not test code (a .go or .py
	// file); Language tells which.
	ClassSource Class = "source"
	// ClassTest: test code (see Checkout.IsTestFile).
	ClassTest Class = "test"
	// ClassHarness: a file that controls how tests build and run (see
	// HarnessLanguage): for Go, go.mod, go.sum, go.work, go.work.sum at any
	// depth and anything under a vendor directory at any depth; for
	// Python, pytest.ini, .pytest.ini, pytest.toml, .pytest.toml, tox.ini,
	// pyproject.toml, setup.cfg, setup.py, conftest.py, sitecustomize.py,
	// usercustomize.py, any *.pth, *.egg-link, *.pyc, *.pyo, *.so, *.pyd,
	// and anything under __pycache__, *.dist-info or *.egg-info, at any
	// depth (see isPythonHarness).
	ClassHarness Class = "harness"
	// ClassForeign: source the gate cannot judge: other languages, build
	// scripts (Makefile, Dockerfile), symbolic links, unknown suffixes.
	ClassForeign Class = "foreign"
	// ClassBinary: a binary change; its lines cannot be judged.
	ClassBinary Class = "binary"
	// ClassOther: documentation, data and configuration: .md, .txt, .json,
	// .yaml, .toml, .csv and the like, LICENSE, README, CHANGELOG,
	// .gitignore, .gitattributes.
	ClassOther Class = "other"
)

// Languages Language and HarnessLanguage name.
const (
	LangGo     = "go"
	LangPython = "python"
)

// Language returns the language of a source or test file by its suffix:
// "go" for .go, "python" for .py, "" for anything else. Callers that
// measure source (coverage, mutation) use it to tell ClassSource files
// apart.
func Language(p string) string {
	switch {
	case strings.HasSuffix(p, ".go"):
		return LangGo
	case strings.HasSuffix(p, ".py"):
		return LangPython
	}
	return ""
}

// HarnessLanguage returns the language whose tests a harness path
// controls: "go" for a Go harness path, "python" for a Python one, ""
// for a path that is no harness. A path that is harness of both (a
// pyproject.toml under a vendor directory) is "go"; Checkout.HarnessDriftFor
// lists it for both.
func HarnessLanguage(p string) string {
	switch {
	case isGoHarness(p):
		return LangGo
	case isPythonHarness(p):
		return LangPython
	}
	return ""
}

// Kind is how a file changed.
type Kind string

// Kinds of change.
const (
	Added    Kind = "added"
	Modified Kind = "modified"
	Deleted  Kind = "deleted"
	Renamed  Kind = "renamed"
)

// isHarnessName reports the names of Go harness files.
func isHarnessName(base string) bool {
	switch base {
	case "go.mod", "go.sum", "go.work", "go.work.sum":
		return true
	}
	return false
}

// isGoHarness reports whether p is a Go harness file: go.mod, go.sum,
// go.work or go.work.sum at any depth, or anything under a vendor directory
// at any depth.
func isGoHarness(p string) bool {
	return isHarnessName(path.Base(p)) || hasDir(p, "vendor")
}

// isPythonHarness reports whether p is a Python harness file, at any
// depth: pytest's configuration files (pytest.ini, .pytest.ini,
// pytest.toml, .pytest.toml, tox.ini, pyproject.toml, setup.cfg),
// conftest.py, the files the site module runs at startup
// (sitecustomize.py, usercustomize.py, *.pth), setup.py, the build
// script that decides what an install (pip install -e .) puts on the path
// the tests import from, and what the import system reads in place of
// the source or beside it: anything under a *.dist-info or *.egg-info
// directory (entry_points.txt there registers pytest plugins that load
// into every run from the tree's root), *.egg-link, anything under
// __pycache__ and *.pyc, *.pyo (an unchecked hash-based .pyc is loaded
// whatever the source says), and extension modules (*.so, *.pyd), which
// the import system prefers to a .py of the same name. Names are compared
// with their letter case.
func isPythonHarness(p string) bool {
	base := path.Base(p)
	switch base {
	case "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "tox.ini", "pyproject.toml", "setup.cfg", "setup.py",
		"conftest.py", "sitecustomize.py", "usercustomize.py":
		return true
	}
	for _, ext := range []string{".pth", ".egg-link", ".pyc", ".pyo", ".so", ".pyd"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		if d == "__pycache__" || strings.HasSuffix(d, ".dist-info") || strings.HasSuffix(d, ".egg-info") {
			return true
		}
	}
	return false
}

// isHarness reports whether p is a Go or a Python harness file.
func isHarness(p string) bool {
	return isGoHarness(p) || isPythonHarness(p)
}

// isHarnessOf reports whether p is a harness file of lang; for a language
// other than Go and Python, whether it is any harness file.
func isHarnessOf(p, lang string) bool {
	switch lang {
	case LangGo:
		return isGoHarness(p)
	case LangPython:
		return isPythonHarness(p)
	}
	return isHarness(p)
}

// hasDir reports whether a directory component of p is dir.
func hasDir(p, dir string) bool {
	return strings.HasPrefix(p, dir+"/") || strings.Contains(p, "/"+dir+"/")
}

// isTestFile reports whether p is test code: a Go test file (*_test.go,
// anything under a testdata directory at any depth), a Python test file
// (see isPythonTestFile), or a file a test-support glob matches.
func isTestFile(p string, globs []string) bool {
	if strings.HasSuffix(p, "_test.go") || hasDir(p, "testdata") || isPythonTestFile(p) {
		return true
	}
	for _, g := range globs {
		if globMatch(g, p) {
			return true
		}
	}
	return false
}

// isGoTestFile reports whether p is a Go test file that go test compiles
// (not one under testdata).
func isGoTestFile(p string) bool {
	return strings.HasSuffix(p, "_test.go") && !hasDir(p, "testdata")
}

// isPythonTestFile reports whether p is Python test code, at any depth:
// test_*.py, *_test.py, conftest.py, or anything under a directory named
// tests, except a .go file there: Go's rules decide what a Go file is,
// since one under tests/ is an ordinary package source code may import.
func isPythonTestFile(p string) bool {
	return IsPytestModule(p) || path.Base(p) == "conftest.py" || (hasDir(p, "tests") && !strings.HasSuffix(p, ".go"))
}

// IsPytestModule reports whether p is a module pytest collects tests from
// under its default python_files: test_*.py or *_test.py.
func IsPytestModule(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py"))
}

// isPythonTestCode reports whether p is a Python source file that is test
// code: one pytest may import (a test module, a conftest.py, a module under
// tests/).
func isPythonTestCode(p string) bool {
	return strings.HasSuffix(p, ".py") && isPythonTestFile(p)
}

// isDocumentExt reports the suffixes of documentation, data and
// configuration.
func isDocumentExt(ext string) bool {
	switch ext {
	case ".md", ".markdown", ".txt", ".rst", ".adoc", ".json", ".yaml", ".yml", ".toml", ".csv", ".tsv":
		return true
	}
	return false
}

// isDocument reports whether p is documentation, data or configuration,
// judged by its name only. Names are compared without letter case.
func isDocument(p string) bool {
	base := strings.ToLower(path.Base(p))
	ext := path.Ext(base)
	if isDocumentExt(ext) {
		return true
	}
	switch base {
	case ".gitignore", ".gitattributes", ".mailmap", ".editorconfig", "codeowners":
		return true
	}
	// LICENSE, README-ja, CHANGELOG.md: a known name, alone or followed by
	// a separator, with no suffix or a document suffix.
	for _, name := range []string{"readme", "changelog", "changes", "license", "licence", "copying", "notice", "authors", "contributors"} {
		rest, ok := strings.CutPrefix(base, name)
		if !ok {
			continue
		}
		if rest == "" || (strings.ContainsAny(rest[:1], ".-_") && ext == "") {
			return true
		}
	}
	return false
}

// classify returns the class of a changed path. binary is set for a binary
// change, symlink when the path is a symbolic link on either side.
func classify(p string, globs []string, binary, symlink bool) Class {
	switch {
	case isHarness(p):
		return ClassHarness
	case isTestFile(p, globs):
		return ClassTest
	case binary:
		return ClassBinary
	case symlink:
		return ClassForeign
	case Language(p) != "":
		return ClassSource
	case isDocument(p):
		return ClassOther
	}
	return ClassForeign
}

// checkGlob refuses a test-support glob that Prepare cannot match exactly.
// Globs match whole slash-separated paths relative to the repository root;
// `*` matches any run of characters, `/` included, and `?` one character
// other than `/`. Character classes and escapes are not supported.
func checkGlob(g string) error {
	switch {
	case g == "":
		return fmt.Errorf("empty test-support glob")
	case !utf8.ValidString(g) || strings.ContainsAny(g, "\x00\n\r"):
		return fmt.Errorf("test-support glob %q is not valid text", g)
	case strings.HasPrefix(g, "/") || strings.HasPrefix(g, "./"):
		return fmt.Errorf("test-support glob %q must be relative to the repository root, without a leading / or ./", g)
	case strings.ContainsAny(g, `[]\`):
		return fmt.Errorf("test-support glob %q uses [, ] or \\: only * and ? are supported", g)
	}
	return nil
}

// globMatch matches p against glob g (see checkGlob), rune by rune, with the
// usual backtracking to the last star.
func globMatch(g, p string) bool {
	gr, pr := []rune(g), []rune(p)
	gi, pi := 0, 0
	star, mark := -1, 0
	for pi < len(pr) {
		switch {
		case gi < len(gr) && gr[gi] == '*':
			star, mark = gi, pi
			gi++
		case gi < len(gr) && (gr[gi] == pr[pi] || (gr[gi] == '?' && pr[pi] != '/')):
			gi++
			pi++
		case star >= 0:
			mark++
			pi = mark
			gi = star + 1
		default:
			return false
		}
	}
	for gi < len(gr) && gr[gi] == '*' {
		gi++
	}
	return gi == len(gr)
}

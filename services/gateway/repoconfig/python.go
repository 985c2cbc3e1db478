package repoconfig

import (
	"fmt"
	"path"
	"strings"
)

// maxEvidence is how many of the files that show a Python project a
// finding names.
const maxEvidence = 3

func (p *profiler) pythonStack() (*detection, error) {
	d := new(detection)
	evidence, err := p.pythonEvidence()
	if err != nil || len(evidence) == 0 {
		return d, err
	}
	d.stack = StackPython
	d.note("python: %s", describeEvidence(evidence))
	runner, why, err := p.pythonRunner()
	if err != nil {
		return nil, err
	}
	d.runner = runner
	if runner == RunnerUnittest {
		// unittest is not run natively: its suite is a declared command.
		d.seal = []Command{{Run: unittestSuite}}
		d.suite = &Command{Run: unittestSuite}
		d.note("python: runner unittest (%s); seal check and suite %q", why, unittestSuite)
		return d, nil
	}
	d.seal = []Command{{Run: pytestCommand}}
	d.note("python: runner pytest (%s); seal check %q (the pytest suite runs natively)", why, pytestCommand)
	return d, nil
}

func describeEvidence(files []string) string {
	shown := files[:min(len(files), maxEvidence)]
	s := strings.Join(shown, ", ")
	if n := len(files) - len(shown); n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s
}

// pythonEvidence returns the files that make the tree a Python project:
// packaging files at the root, and .py files at the root or in a
// first-level directory, sorted by directory.
func (p *profiler) pythonEvidence() ([]string, error) {
	var evidence []string
	rootFiles, err := p.regularFiles(".", func(name string) bool {
		return isPythonMarker(name) || strings.HasSuffix(name, ".py")
	})
	if err != nil {
		return nil, err
	}
	evidence = append(evidence, rootFiles...)
	entries, err := p.readDir(".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || skipDir(e.Name()) {
			continue
		}
		files, err := p.regularFiles(e.Name(), func(name string) bool { return strings.HasSuffix(name, ".py") })
		if err != nil {
			return nil, err
		}
		evidence = append(evidence, files...)
	}
	return evidence, nil
}

func isPythonMarker(name string) bool {
	switch name {
	case "pyproject.toml", "setup.py", "setup.cfg":
		return true
	}
	return strings.HasPrefix(name, "requirements") && strings.HasSuffix(name, ".txt")
}

// skipDir reports directories whose .py files are not the project's: hidden
// ones (.git, .venv, .tox) and installed dependencies.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == "site-packages"
}

// pythonRunner decides between pytest and unittest and says why, from the
// first of: a pytest configuration, a test file importing pytest, a test
// file importing unittest; pytest when none is found.
func (p *profiler) pythonRunner() (runner, why string, err error) {
	why, err = p.pytestConfig()
	if err != nil || why != "" {
		return RunnerPytest, why, err
	}
	tests, err := p.pythonTestFiles()
	if err != nil {
		return "", "", err
	}
	var unittestFile string
	for _, name := range tests {
		src, err := p.read(name)
		if err != nil {
			return "", "", err
		}
		if imports(src, "pytest") {
			return RunnerPytest, name + " imports pytest", nil
		}
		if unittestFile == "" && imports(src, "unittest") {
			unittestFile = name
		}
	}
	if unittestFile != "" {
		return RunnerUnittest, unittestFile + " imports unittest, nothing names pytest", nil
	}
	return RunnerPytest, "the default: no test file names a framework", nil
}

// pytestConfig returns the first pytest configuration found, or "".
func (p *profiler) pytestConfig() (string, error) {
	for _, name := range []string{"pytest.ini", ".pytest.ini", "pytest.toml", "conftest.py", "tests/conftest.py"} {
		ok, err := p.isFile(name)
		if err != nil || ok {
			return name + " exists", err
		}
	}
	sections := []struct{ file, prefix, shown string }{
		{"pyproject.toml", "[tool.pytest", "[tool.pytest.*]"},
		{"setup.cfg", "[tool:pytest]", "[tool:pytest]"},
		{"tox.ini", "[pytest]", "[pytest]"},
	}
	for _, s := range sections {
		ok, err := p.hasSection(s.file, s.prefix)
		if err != nil || ok {
			return s.file + " has a " + s.shown + " section", err
		}
	}
	return "", nil
}

// hasSection reports whether file (when there) has a line starting with
// section, so that a commented-out section does not count.
func (p *profiler) hasSection(file, section string) (bool, error) {
	ok, err := p.isFile(file)
	if err != nil || !ok {
		return false, err
	}
	src, err := p.read(file)
	if err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), section) {
			return true, nil
		}
	}
	return false, nil
}

// pythonTestFiles returns the test files (test_*.py, *_test.py) at the
// root, in tests/ and in test/, in that order.
func (p *profiler) pythonTestFiles() ([]string, error) {
	var all []string
	for _, dir := range []string{".", "tests", "test"} {
		files, err := p.regularFiles(dir, isPythonTestFile)
		if err != nil {
			return nil, err
		}
		all = append(all, files...)
	}
	return all, nil
}

func isPythonTestFile(name string) bool {
	return path.Ext(name) == ".py" && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py"))
}

// imports reports whether Python source src has a line importing module:
// "import module", "import module as m", "from module import x" or
// "from module.sub import x", but not "import module_other".
func imports(src []byte, module string) bool {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		for _, keyword := range []string{"import", "from"} {
			rest, ok := strings.CutPrefix(line, keyword)
			if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			after, ok := strings.CutPrefix(strings.TrimLeft(rest, " \t"), module)
			if ok && (after == "" || !isIdentByte(after[0])) {
				return true
			}
		}
	}
	return false
}

func isIdentByte(b byte) bool {
	return isAlnum(b) || b == '_' || b >= 0x80
}

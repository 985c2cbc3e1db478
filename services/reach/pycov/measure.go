package pycov

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sealgate/sealgate/services/reach/cover"
)

// IsTestFile reports whether a repository-relative path is Python test
// code, by the names the gate restores from the baseline: a test_*.py or
// *_test.py file, a conftest.py, or anything under a tests directory at
// any depth. Diff coverage leaves test code out.
func IsTestFile(p string) bool {
	base := path.Base(p)
	return (strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py")) ||
		strings.HasSuffix(base, "_test.py") || base == "conftest.py" ||
		strings.HasPrefix(p, "tests/") || strings.Contains(p, "/tests/")
}

// Measure computes the diff coverage of the changed lines of non-test
// Python files (repository-relative path → changed lines on the patch
// side, 1-based) against a report, in the shape of cover.Measure:
//
//   - a changed line is executable when coverage.py lists it as executed
//     or missing (File.Executed and File.Missing), and covered when it is
//     executed; the other changed lines (blank, comments, continuation
//     lines of multi-line statements, excluded lines) are in Excluded;
//   - a changed file the report does not name is in Unmeasured, and its
//     lines in no other field: coverage.py did not measure it (with
//     `source = .` it names every file it imported, and the files it did
//     not import in directories that are packages), so it is never taken
//     as covered;
//   - Ratio is Covered / Changed, nil when Changed is 0 (never 1 by
//     vacuity) or when a file is unmeasured.
//
// A file without changed lines is not looked at. Which files are source
// is the caller's to say: a module under tests/ that non-test code
// imports is source by use, and measured like any other. Errors are
// refusals to measure: a nil report; a path that is not clean and
// relative or not a .py file; a line below 1.
func Measure(changed map[string][]int, r *Report) (cover.Result, error) {
	var res cover.Result
	if r == nil {
		return res, errors.New("measure: no report")
	}
	files, err := changedFiles(changed)
	if err != nil {
		return res, fmt.Errorf("measure: %w", err)
	}
	for _, cf := range files {
		f, ok := r.Files[cf.path]
		if !ok {
			res.Unmeasured = append(res.Unmeasured, cf.path)
			continue
		}
		for _, l := range cf.lines {
			line := cover.Line{Path: cf.path, Line: l}
			switch {
			case contains(f.Executed, l):
				res.Changed++
				res.Covered++
			case contains(f.Missing, l):
				res.Changed++
				res.Uncovered = append(res.Uncovered, line)
			default:
				res.Excluded = append(res.Excluded, line)
			}
		}
	}
	// files are sorted by path, lines within: so are the lists.
	if res.Changed > 0 && len(res.Unmeasured) == 0 {
		ratio := float64(res.Covered) / float64(res.Changed)
		res.Ratio = &ratio
	}
	return res, nil
}

// Reach maps each test to the changed executable lines it executes, from
// the contexts of a report, in the shape of cover.Reach: tests are pytest
// node ids (see NodeID), lines are sorted, and tests reaching no changed
// line are left out. A test reaches a changed line when its context ran
// the line's statement (any line of it, for a multi-line statement). The
// context "" (code run outside any test: imports during collection,
// fixtures) reaches nothing; so lines run only by fixtures or at import
// reach no test, and a mutant there runs against none.
//
// A changed file the report does not name reaches no test; Measure is what
// refuses to give it a ratio.
//
// The errors are those of Measure, and a context running a changed line
// that NodeID cannot map to a test: the map would leave out a test that
// runs the line.
func Reach(changed map[string][]int, r *Report) (map[string][]cover.Line, error) {
	if r == nil {
		return nil, errors.New("reach: no report")
	}
	files, err := changedFiles(changed)
	if err != nil {
		return nil, fmt.Errorf("reach: %w", err)
	}
	res := newResolver(r)
	ids := map[string]string{} // context name → node id
	reach := map[string][]cover.Line{}
	for _, cf := range files {
		f, ok := r.Files[cf.path]
		if !ok {
			continue
		}
		for _, l := range cf.lines {
			for _, name := range f.Contexts[l] {
				if name == "" {
					continue
				}
				id, ok := ids[name]
				if !ok {
					if id, err = res.nodeID(name); err != nil {
						return nil, fmt.Errorf("reach: %s:%d: %w", cf.path, l, err)
					}
					ids[name] = id
				}
				reach[id] = append(reach[id], cover.Line{Path: cf.path, Line: l})
			}
		}
	}
	for id, lines := range reach {
		// Two contexts may name the same test: sort and merge.
		slices.SortFunc(lines, compareLines)
		reach[id] = slices.Clip(slices.Compact(lines))
	}
	return reach, nil
}

// Runs says what ran a line's statement: the tests (pytest node ids, see
// NodeID), and whether code outside any test ran it — coverage.py's empty
// context: modules imported during collection, fixtures, conftest.py and
// hooks.
type Runs struct {
	Tests   []string
	Outside bool
}

// Runners tells, for any line of a report's files, what ran its
// statement. The mutation service asks it for the statement of every
// site, so that a site on a continuation line of a multi-line statement
// (which the report attributes to the statement's first line) is judged
// by the tests that ran the statement, and a line that ran only outside
// the tests is not taken as tested.
type Runners struct {
	r   *Report
	res *resolver
	ids map[string]string
}

// NewRunners returns the Runners of r.
func NewRunners(r *Report) *Runners {
	return &Runners{r: r, res: newResolver(r), ids: map[string]string{}}
}

// Of returns what ran the statement at line of path (clean, relative), and
// false when the report lists no context there: the line did not run, is
// no statement's first line, or its file is not in the report. Tests are
// sorted; the error is a context naming no test, as for Reach.
func (x *Runners) Of(path string, line int) (Runs, bool, error) {
	f, ok := x.r.Files[path]
	if !ok {
		return Runs{}, false, nil
	}
	names := f.Contexts[line]
	if len(names) == 0 {
		return Runs{}, false, nil
	}
	var runs Runs
	for _, name := range names {
		if name == "" {
			runs.Outside = true
			continue
		}
		id, ok := x.ids[name]
		if !ok {
			var err error
			if id, err = x.res.nodeID(name); err != nil {
				return Runs{}, false, fmt.Errorf("%s:%d: %w", path, line, err)
			}
			x.ids[name] = id
		}
		runs.Tests = append(runs.Tests, id)
	}
	slices.Sort(runs.Tests)
	runs.Tests = slices.Compact(runs.Tests)
	return runs, true, nil
}

// Reaching inverts a reach map: each line to the sorted names of the tests
// that reach it. It is cover.Reaching.
func Reaching(reach map[string][]cover.Line) map[cover.Line][]string {
	return cover.Reaching(reach)
}

// NodeID returns the pytest node id of the test a context name of r names.
// Two forms are read:
//
//   - The names coverage.py's dynamic context test_function gives: the
//     test function's module and qualified name, dot-separated:
//     "test_ops.test_add", "test_ops.TestK.test_m", or
//     "tests.test_ops.test_add" when tests is a package. The module is
//     mapped to the one test file of the report (IsTestFile, but not a
//     conftest.py or __init__.py) whose path, without ".py" and with "/"
//     read as ".", ends with it; the rest is the node's name:
//     "tests/test_ops.py::TestK::test_m". A name whose module matches no
//     such file, or several (for any split into module and name), is an
//     error.
//   - Node ids, optionally followed by "|setup", "|run" or "|teardown" as
//     pytest-cov's --cov-context=test writes them: the suffix is dropped.
//
// Node ids are relative to the directory coverage ran in, which must be
// pytest's rootdir. Parameters are not in test_function names: the id is
// that of the function, which runs all its parameter sets. coverage.py
// names a test by where its function is defined: a test function imported
// into a test module from another module, or a test method inherited from
// a class in another module, is named after that module, and NodeID
// cannot tell (the caller can check the ids against pytest's collection).
func NodeID(r *Report, name string) (string, error) {
	if r == nil {
		return "", errors.New("no report")
	}
	return newResolver(r).nodeID(name)
}

// resolver maps context names to node ids, by the test files of a report.
type resolver struct {
	// byModule indexes test files by their module's last element.
	byModule map[string][]testFile
}

// testFile is a test file with its path's module elements.
type testFile struct {
	path   string
	module []string // "tests/test_ops.py": tests, test_ops
}

func newResolver(r *Report) *resolver {
	res := &resolver{byModule: map[string][]testFile{}}
	for _, p := range slices.Sorted(maps.Keys(r.Files)) {
		// pytest collects no tests from a conftest.py or a package's
		// __init__.py.
		base := path.Base(p)
		if !IsTestFile(p) || !strings.HasSuffix(p, ".py") || base == "conftest.py" || base == "__init__.py" {
			continue
		}
		module := strings.Split(strings.TrimSuffix(p, ".py"), "/")
		last := module[len(module)-1]
		res.byModule[last] = append(res.byModule[last], testFile{path: p, module: module})
	}
	return res
}

func (res *resolver) nodeID(name string) (string, error) {
	if strings.Contains(name, "::") {
		return pytestNodeID(name)
	}
	parts := strings.Split(name, ".")
	if len(parts) < 2 {
		return "", fmt.Errorf("context %s is not a module and test name", quote(name))
	}
	for _, part := range parts {
		if !isIdentifier(part) {
			return "", fmt.Errorf("context %s: %s is not a Python name", quote(name), quote(part))
		}
	}
	var ids []string
	for k := 1; k < len(parts); k++ {
		module := parts[:k]
		for _, tf := range res.byModule[module[k-1]] {
			if len(tf.module) >= k && slices.Equal(tf.module[len(tf.module)-k:], module) {
				ids = append(ids, tf.path+"::"+strings.Join(parts[k:], "::"))
			}
		}
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("context %s names no test file of the report", quote(name))
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("context %s is ambiguous: %s or %s", quote(name), quote(ids[0]), quote(ids[1]))
}

// pytestNodeID checks a context that is a node id, with an optional phase.
func pytestNodeID(name string) (string, error) {
	id := name
	for _, phase := range []string{"|setup", "|run", "|teardown"} {
		if s, ok := strings.CutSuffix(name, phase); ok {
			id = s
			break
		}
	}
	file, rest, _ := strings.Cut(id, "::")
	if err := checkRelPath(file); err != nil || !strings.HasSuffix(file, ".py") {
		return "", fmt.Errorf("context %s: %s is not a Python file of the tree", quote(name), quote(file))
	}
	if rest == "" || strings.HasPrefix(rest, "::") || strings.HasSuffix(rest, "::") {
		return "", fmt.Errorf("context %s is not a pytest node id", quote(name))
	}
	return id, nil
}

// isIdentifier reports whether s is a Python identifier (approximately:
// letters, digits and underscores, not starting with a digit).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)):
		default:
			return false
		}
	}
	return true
}

// changedFile is one changed file to measure.
type changedFile struct {
	path  string
	lines []int // sorted, distinct
}

// changedFiles checks the changed files and returns those with lines,
// sorted by path.
func changedFiles(changed map[string][]int) ([]changedFile, error) {
	var out []changedFile
	for _, p := range slices.Sorted(maps.Keys(changed)) {
		if err := checkRelPath(p); err != nil {
			return nil, err
		}
		if !strings.HasSuffix(p, ".py") {
			return nil, fmt.Errorf("%s is not a Python source file", quote(p))
		}
		if len(changed[p]) == 0 {
			continue // nothing added: nothing to measure
		}
		lines := slices.Clone(changed[p])
		slices.Sort(lines)
		if lines[0] < 1 {
			return nil, fmt.Errorf("%s: changed line %d is not a line", quote(p), lines[0])
		}
		out = append(out, changedFile{path: p, lines: slices.Compact(lines)})
	}
	return out, nil
}

// checkRelPath refuses a path that is not clean, relative and
// slash-separated.
func checkRelPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case !utf8.ValidString(p) || hasControl(p) || strings.ContainsRune(p, '\\'):
		return fmt.Errorf("path %s is not a clean relative path", quote(p))
	case path.IsAbs(p) || path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %s is not a clean relative path", quote(p))
	}
	return nil
}

func compareLines(a, b cover.Line) int {
	return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
}

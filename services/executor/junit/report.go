// Package junit reads JUnit XML reports strictly, and maps the test cases
// pytest writes back to pytest node ids.
//
// The executor uses it twice: for pytest claims (`pytest
// --junitxml=FILE -p no:cacheprovider NODEID`, one process per claim per
// side), where Find picks the claimed case out of the report, and for
// declared-command claims and seal checks, where the report's case count is
// the evidence that tests ran at all.
//
// The file is written by a process that runs the code under test, so the
// reader believes nothing it cannot check:
//   - only the JUnit shapes real tools write are accepted (see Read); an
//     element, namespace or text where none belongs is refused rather than
//     skipped;
//   - DOCTYPE and every other <!...> declaration is refused, so there are
//     no entities to expand; encodings other than UTF-8, a second root
//     element and anything but comments and white space after the root are
//     refused; a file cut short is not well-formed and is refused;
//   - the counts a suite declares (tests, failures, errors, skipped) must
//     agree with the cases it contains, so a truncated or carelessly edited
//     file gives no count;
//   - input is bounded: total size, cases, suites, depth and the length of
//     the attributes the report keeps (Limits).
//
// A Read error means "no evidence": there is no partial report.
//
// What the file cannot tell: a test process that writes a complete,
// self-consistent report of its own over pytest's is indistinguishable from
// pytest. The counts catch files that are truncated, concatenated or edited
// by hand, not a forger who counts; the exit status and the sandbox are the
// other half of the evidence.
//
// # pytest node ids
//
// pytest writes a test with node id "tests/test_x.py::TestK::test_m[1-2]"
// as <testcase classname="tests.test_x.TestK" name="test_m[1-2]">
// (_pytest/junitxml.py, mangle_test_address and bin_xml_escape):
//
//  1. everything from the first "[" on (the parameter id) stays, verbatim,
//     at the end of the name;
//  2. the part before it is split at "::";
//  3. in the first piece, the path relative to pytest's rootdir, "/"
//     becomes "." and then a final ".py" is dropped;
//  4. the pieces but the last, joined with ".", are the classname (a test
//     function outside a class has the dotted module path alone);
//  5. the last piece is the name, with characters illegal in XML (and DEL,
//     and characters beyond U+FFFF) written as "#xNN" or "#xNNNN".
//
// With junit_family=xunit1 (pytest's default is xunit2) the file attribute
// holds the path of the file that defines the test function and line its
// 0-based line; with xunit2 there is no file attribute. A collection error
// is a case with an empty classname whose name is the dotted module path.
//
// The mapping is exact forwards and lossy backwards: "tests/sub.dir/t.py"
// and "tests/sub/dir/t.py" are both "tests.sub.dir.t", and nothing in the
// classname says where the module path ends and the classes begin. So
// Match (and Find) map the claimed node id forwards and compare, refusing
// a node id that more than one case could be; NodeID, which goes
// backwards, is for display and for naming tests in a collateral
// comparison, never for deciding which case a claim is.
//
// Node ids are relative to pytest's rootdir. The executor must run pytest
// with --rootdir set to the directory the node ids are relative to (a
// pytest.ini elsewhere moves the rootdir otherwise), and without
// --junit-prefix, which prefixes every classname.
//
// The package is pure apart from FindPython: bytes in, a report out.
package junit

import (
	"errors"
	"time"
)

// Sentinel errors. Every error of Read wraps exactly one of ErrMalformed,
// ErrLimit and ErrCounts, except errors of the reader itself, which are
// wrapped as they are. Every error of Match wraps one of ErrNodeID,
// ErrNotFound and ErrAmbiguous.
var (
	// ErrMalformed: the input is not well-formed XML, or is XML this reader
	// refuses (a declaration, a namespace, another encoding, an element or
	// text where the JUnit shapes have none).
	ErrMalformed = errors.New("malformed")
	// ErrLimit: the input exceeds one of the Limits.
	ErrLimit = errors.New("over a limit")
	// ErrCounts: a count a suite declares disagrees with its cases.
	ErrCounts = errors.New("declared counts disagree with the cases")

	// ErrNodeID: the node id is not one Match can map.
	ErrNodeID = errors.New("bad node id")
	// ErrNotFound: no case of the report is the node id's.
	ErrNotFound = errors.New("no such case")
	// ErrAmbiguous: more than one case of the report could be the node id's.
	ErrAmbiguous = errors.New("ambiguous node id")
)

// Status is how one test case ended.
type Status uint8

// The statuses. The zero Status is none of them, so a zero Case never
// looks passed. Only StatusPassed is a pass.
const (
	// StatusPassed: no <failure>, <error> or <skipped> child, and no status
	// attribute saying the case did not run.
	StatusPassed Status = iota + 1
	// StatusFailed: at least one <failure> child, whatever else the case
	// has (pytest's failure in the test and error in its teardown is one
	// failed case).
	StatusFailed
	// StatusErrored: at least one <error> child and no <failure> (pytest:
	// an error in setup or teardown; a collection error).
	StatusErrored
	// StatusSkipped: a <skipped> child and no <failure> or <error>
	// (pytest: pytest.skip, skip marks, and xfail, with type
	// "pytest.xfail").
	StatusSkipped
	// StatusNotRun: no <failure>, <error> or <skipped> child, but the case
	// says it did not run: a status attribute other than "run" or a result
	// attribute other than "completed" (googletest writes status="notrun"
	// for disabled tests, with no child).
	StatusNotRun
)

// String returns the lower-case name of s.
func (s Status) String() string {
	switch s {
	case StatusPassed:
		return "passed"
	case StatusFailed:
		return "failed"
	case StatusErrored:
		return "errored"
	case StatusSkipped:
		return "skipped"
	case StatusNotRun:
		return "not run"
	default:
		return "unknown"
	}
}

// Case is one test case: one <testcase> element, except that the two
// elements pytest writes for a test that failed and then errored in
// teardown are one case (see Read).
type Case struct {
	// Classname, Name and File are the attributes as written ("" when
	// absent). pytest writes the dotted module path and classes as
	// classname, the test name with its parameters as name, and file only
	// with junit_family=xunit1.
	Classname string
	Name      string
	File      string
	// Line is the line attribute (pytest: 0-based), 0 when absent or not a
	// number. It decides nothing.
	Line int
	// Time is the time attribute in seconds, 0 when absent or not a
	// non-negative number. It decides nothing.
	Time time.Duration
	// Status is what the children say; see Status.
	Status Status
	// Failures, Errors and Skips count the case's <failure>, <error> and
	// <skipped> children.
	Failures int
	Errors   int
	Skips    int
	// Reruns counts Maven Surefire's <flakyFailure>, <flakyError>,
	// <rerunFailure> and <rerunError> children: a case that passed with
	// reruns did not pass the first time.
	Reruns int
	// Message and Type are the attributes of the child that decided Status
	// (the first <failure>, else the first <error>, else the first
	// <skipped>), cut to Limits.MaxMessageBytes.
	Message string
	Type    string
	// Suite is the index in Report.Suites of the innermost suite holding
	// the case.
	Suite int
}

// Declared holds the counts a <testsuites> or <testsuite> element declares;
// -1 means the attribute is absent.
type Declared struct {
	Tests    int
	Failures int
	Errors   int
	// Skipped is the skipped attribute, or nose's skip.
	Skipped int
}

// Suite is one <testsuite> element.
type Suite struct {
	Name string
	// Parent is the index in Report.Suites of the enclosing suite, -1 for a
	// suite at the top.
	Parent   int
	Declared Declared
	// Elements counts the <testcase> elements in the suite and the suites
	// nested in it.
	Elements int
}

// Totals counts a report's cases by status. Passed, Failed, Errored,
// Skipped and NotRun add up to Cases.
type Totals struct {
	Cases   int
	Passed  int
	Failed  int
	Errored int
	Skipped int
	NotRun  int
}

// Report is what a JUnit file said, once Read checked it.
type Report struct {
	// Root is the root element: "testsuites" or "testsuite".
	Root string
	// RootDeclared is what a <testsuites> root declares; all -1 for a
	// <testsuite> root, whose counts are in Suites[0].
	RootDeclared Declared
	// Suites lists every <testsuite> in document order.
	Suites []Suite
	// Cases lists the cases in document order.
	Cases []Case
	// Totals counts Cases by status.
	Totals Totals
	// Merged counts the pytest element pairs merged into one case (a
	// failure followed by a teardown error of the same test).
	Merged int
	// Bytes is the size of the file.
	Bytes int64
}

// CountsDeclared reports whether the file declares its test count: the
// <testsuites> root declares tests, or there is at least one top-level
// suite and every one declares tests. Read checked every declared count, so
// when this is true the case count is vouched for twice; a caller that
// needs a count as evidence can require it.
func (r *Report) CountsDeclared() bool {
	if r.RootDeclared.Tests >= 0 {
		return true
	}
	top := 0
	for _, s := range r.Suites {
		if s.Parent >= 0 {
			continue
		}
		if s.Declared.Tests < 0 {
			return false
		}
		top++
	}
	return top > 0
}

package junit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// pytestFile is what pytest 7 writes (junit_family=xunit2) for a module
// with a passing, a failing, a setup-erroring, a teardown-erroring, a
// failing-and-teardown-erroring, a skipped, an xfail and a parametrized
// test and a class, tracebacks shortened.
const pytestFile = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="3" failures="2" skipped="2" tests="11" time="0.040" timestamp="2026-11-30T03:37:53.850864" hostname="vm">` +
	`<testcase classname="tests.test_x" name="test_pass" time="0.001" />` +
	`<testcase classname="tests.test_x" name="test_fail" time="0.000"><failure message="assert 1 == 2">&gt;   def test_fail(): assert 1 == 2
E   assert 1 == 2

tests/test_x.py:13: AssertionError</failure></testcase>` +
	`<testcase classname="tests.test_x" name="test_setup_error" time="0.000"><error message="failed on setup with &quot;RuntimeError: setup boom&quot;">tests/test_x.py:5: RuntimeError</error></testcase>` +
	`<testcase classname="tests.test_x" name="test_teardown_error" time="0.000"><error message="failed on teardown with &quot;RuntimeError: teardown boom&quot;">tests/test_x.py:10: RuntimeError</error></testcase>` +
	`<testcase classname="tests.test_x" name="test_fail_and_teardown_error" time="0.000"><failure message="assert False">tests/test_x.py:16: AssertionError</failure></testcase>` +
	`<testcase classname="tests.test_x" name="test_fail_and_teardown_error" time="0.000"><error message="failed on teardown with &quot;RuntimeError: teardown boom&quot;">tests/test_x.py:10: RuntimeError</error></testcase>` +
	`<testcase classname="tests.test_x" name="test_skip" time="0.000"><skipped type="pytest.skip" message="not today">/tmp/pyx/tests/test_x.py:17: not today</skipped></testcase>` +
	`<testcase classname="tests.test_x" name="test_xfail" time="0.000"><skipped type="pytest.xfail" message="known" /></testcase>` +
	`<testcase classname="tests.test_x" name="test_add[1-2]" time="0.000" />` +
	`<testcase classname="tests.test_x" name="test_add[x::y-a/b.c]" time="0.000" />` +
	`<testcase classname="tests.test_x.TestK" name="test_m" time="0.000"><properties><property name="k" value="v" /></properties><system-out>out</system-out></testcase>` +
	"</testsuite></testsuites>\n"

func mustRead(t *testing.T, s string) *Report {
	t.Helper()
	r, err := Read(strings.NewReader(s), Limits{})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return r
}

// brief is a case's identity and status, for comparing.
type brief struct {
	classname, name string
	status          Status
}

func briefs(r *Report) []brief {
	var out []brief
	for _, c := range r.Cases {
		out = append(out, brief{c.Classname, c.Name, c.Status})
	}
	return out
}

func TestReadPytest(t *testing.T) {
	r := mustRead(t, pytestFile)
	want := []brief{
		{"tests.test_x", "test_pass", StatusPassed},
		{"tests.test_x", "test_fail", StatusFailed},
		{"tests.test_x", "test_setup_error", StatusErrored},
		{"tests.test_x", "test_teardown_error", StatusErrored},
		{"tests.test_x", "test_fail_and_teardown_error", StatusFailed},
		{"tests.test_x", "test_skip", StatusSkipped},
		{"tests.test_x", "test_xfail", StatusSkipped},
		{"tests.test_x", "test_add[1-2]", StatusPassed},
		{"tests.test_x", "test_add[x::y-a/b.c]", StatusPassed},
		{"tests.test_x.TestK", "test_m", StatusPassed},
	}
	if got := briefs(r); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("cases\n got %v\nwant %v", got, want)
	}
	if want := (Totals{Cases: 10, Passed: 4, Failed: 2, Errored: 2, Skipped: 2}); r.Totals != want {
		t.Errorf("totals %+v, want %+v", r.Totals, want)
	}
	if r.Root != "testsuites" || r.Merged != 1 || len(r.Suites) != 1 || r.Suites[0].Elements != 11 {
		t.Errorf("root %q merged %d suites %+v", r.Root, r.Merged, r.Suites)
	}
	if want := (Declared{Tests: 11, Failures: 2, Errors: 3, Skipped: 2}); r.Suites[0].Declared != want || r.Suites[0].Name != "pytest" {
		t.Errorf("suite %+v, want declared %+v", r.Suites[0], want)
	}
	if r.RootDeclared != (Declared{-1, -1, -1, -1}) || !r.CountsDeclared() {
		t.Errorf("root declared %+v, CountsDeclared %v", r.RootDeclared, r.CountsDeclared())
	}
	if r.Bytes != int64(len(pytestFile)) {
		t.Errorf("bytes %d, want %d", r.Bytes, len(pytestFile))
	}
	merged := r.Cases[4]
	if merged.Failures != 1 || merged.Errors != 1 || merged.Message != "assert False" {
		t.Errorf("merged case %+v", merged)
	}
	if c := r.Cases[3]; c.Message != `failed on teardown with "RuntimeError: teardown boom"` || c.Type != "" {
		t.Errorf("teardown error message %q type %q", c.Message, c.Type)
	}
	if c := r.Cases[6]; c.Type != "pytest.xfail" || c.Message != "known" {
		t.Errorf("xfail type %q message %q", c.Type, c.Message)
	}
	if c := r.Cases[0]; c.Time != time.Millisecond || c.Suite != 0 {
		t.Errorf("time %v suite %d", c.Time, c.Suite)
	}
}

// suite wraps testcase elements in a pytest-style document with the given
// declared counts.
func suite(tests, failures, errors, skipped int, cases ...string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="%d" failures="%d" skipped="%d" tests="%d">%s</testsuite></testsuites>`,
		errors, failures, skipped, tests, strings.Join(cases, ""))
}

const (
	passCase     = `<testcase classname="m" name="p"/>`
	failCase     = `<testcase classname="m" name="f"><failure message="x"/></testcase>`
	errorCase    = `<testcase classname="m" name="e"><error message="failed on setup with &quot;E&quot;"/></testcase>`
	teardownCase = `<testcase classname="m" name="t"><error message="failed on teardown with &quot;E&quot;"/></testcase>`
	skipCase     = `<testcase classname="m" name="s"><skipped type="pytest.skip" message="no"/></testcase>`
)

func TestReadShapes(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []brief
		declared bool // CountsDeclared
		merged   int
	}{
		{
			name:     "bare testsuite root",
			in:       `<testsuite name="s" tests="2" failures="1" errors="0">` + passCase + failCase + `</testsuite>`,
			want:     []brief{{"m", "p", StatusPassed}, {"m", "f", StatusFailed}},
			declared: true,
		},
		{
			name: "several suites, root counts (gotestsum)",
			in: `<testsuites tests="3" failures="1" errors="0" time="0.1">` +
				`<testsuite name="a" tests="1" failures="0" time="0"><properties><property name="go.version" value="go1.26"/></properties>` + passCase + `</testsuite>` +
				`<testsuite name="b" tests="2" failures="1">` + skipCase + failCase + `</testsuite></testsuites>`,
			want:     []brief{{"m", "p", StatusPassed}, {"m", "s", StatusSkipped}, {"m", "f", StatusFailed}},
			declared: true,
		},
		{
			name: "nested suites count their subtree (PHPUnit)",
			in: `<testsuites><testsuite name="all" tests="3" failures="1" errors="1" skipped="0">` +
				`<testsuite name="A" tests="2" failures="1" errors="0">` + passCase + failCase + `</testsuite>` +
				`<testsuite name="B" tests="1" errors="1"><testsuite name="B1" tests="1">` + errorCase + `</testsuite></testsuite>` +
				`</testsuite></testsuites>`,
			want:     []brief{{"m", "p", StatusPassed}, {"m", "f", StatusFailed}, {"m", "e", StatusErrored}},
			declared: true,
		},
		{
			name: "no count attributes",
			in:   `<testsuites><testsuite name="x">` + passCase + `</testsuite></testsuites>`,
			want: []brief{{"m", "p", StatusPassed}},
		},
		{
			name: "some top-level suites without counts",
			in:   `<testsuites><testsuite name="x" tests="1">` + passCase + `</testsuite><testsuite name="y">` + failCase + `</testsuite></testsuites>`,
			want: []brief{{"m", "p", StatusPassed}, {"m", "f", StatusFailed}},
		},
		{
			name:     "empty run",
			in:       `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="0" time="0.013" /></testsuites>`,
			declared: true,
		},
		{
			name: "empty testsuites",
			in:   `<testsuites/>`,
		},
		{
			name:     "googletest: a failure per assertion, failures counts tests",
			in:       `<testsuites tests="1" failures="1" disabled="0" errors="0"><testsuite name="S" tests="1" failures="1" disabled="0" skipped="0" errors="0"><testcase name="T" file="t.cc" line="3" status="run" result="completed" classname="S"><failure message="a"/><failure message="b"/></testcase></testsuite></testsuites>`,
			want:     []brief{{"S", "T", StatusFailed}},
			declared: true,
		},
		{
			name:     "googletest: disabled test is not run",
			in:       `<testsuites tests="2" failures="0" disabled="1" errors="0"><testsuite name="S" tests="2" failures="0" disabled="1" skipped="0" errors="0"><testcase name="DISABLED_T" status="notrun" result="suppressed" classname="S"/><testcase name="U" status="run" result="completed" classname="S"/></testsuite></testsuites>`,
			want:     []brief{{"S", "DISABLED_T", StatusNotRun}, {"S", "U", StatusPassed}},
			declared: true,
		},
		{
			name:     "googletest: GTEST_SKIP",
			in:       `<testsuites tests="1" failures="0" disabled="0" errors="0"><testsuite name="S" tests="1" failures="0" disabled="0" skipped="1" errors="0"><testcase name="T" status="run" result="skipped" classname="S"><skipped message="why"/></testcase></testsuite></testsuites>`,
			want:     []brief{{"S", "T", StatusSkipped}},
			declared: true,
		},
		{
			name:     "unknown status value is not a pass",
			in:       `<testsuite tests="1"><testcase name="T" status="passed"/></testsuite>`,
			want:     []brief{{"", "T", StatusNotRun}},
			declared: true,
		},
		{
			name: "Maven Surefire with schema attributes and a flaky test",
			in: `<?xml version="1.0" encoding="UTF-8"?>
<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report-3.0.xsd" version="3.0" name="a.BTest" time="0.05" tests="2" errors="0" skipped="0" failures="0">
  <properties><property name="java.version" value="21"/></properties>
  <testcase name="ok" classname="a.BTest" time="0.01"/>
  <testcase name="flaky" classname="a.BTest" time="0.02">
    <flakyFailure message="boom" type="java.lang.AssertionError"><stackTrace>at a.BTest</stackTrace><system-out>x</system-out></flakyFailure>
  </testcase>
</testsuite>
`,
			want:     []brief{{"a.BTest", "ok", StatusPassed}, {"a.BTest", "flaky", StatusPassed}},
			declared: true,
		},
		{
			name:     "nose: skip instead of skipped",
			in:       `<?xml version="1.0" encoding="UTF-8"?><testsuite name="nosetests" tests="2" errors="0" failures="0" skip="1">` + passCase + skipCase + `</testsuite>`,
			want:     []brief{{"m", "p", StatusPassed}, {"m", "s", StatusSkipped}},
			declared: true,
		},
		{
			name: "Bazel test.xml with output in the suite",
			in: `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="//pkg:t" tests="1" failures="0" errors="1">
    <testcase name="//pkg:t" status="run" duration="1" time="1"><error message="exited with error code 1"></error></testcase>
    <system-out><![CDATA[some <output> & more]]></system-out>
  </testsuite>
</testsuites>`,
			want:     []brief{{"", "//pkg:t", StatusErrored}},
			declared: true,
		},
		{
			name:     "byte order mark, comments, processing instructions, CRLF",
			in:       "\uFEFF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- made by hand -->\r\n<?xml-stylesheet href=\"x.xsl\"?>\r\n<testsuite tests=\"1\"><!-- c -->\r\n" + passCase + "\r\n</testsuite>\r\n<!-- end -->\r\n",
			want:     []brief{{"m", "p", StatusPassed}},
			declared: true,
		},
		{
			name:     "predefined entities and character references in names",
			in:       `<testsuite tests="1"><testcase classname="a&amp;b" name="t[&lt;&#x41;&#66;&quot;]"/></testsuite>`,
			want:     []brief{{"a&b", `t[<AB"]`, StatusPassed}},
			declared: true,
		},
		{
			name:     "failure and error in one element: failed, counted in both",
			in:       suite(1, 1, 1, 0, `<testcase classname="m" name="x"><error message="e"/><failure message="f"/></testcase>`),
			want:     []brief{{"m", "x", StatusFailed}},
			declared: true,
		},
		{
			name:     "error and skipped: errored",
			in:       suite(1, 0, 1, 1, `<testcase classname="m" name="x"><skipped/><error/></testcase>`),
			want:     []brief{{"m", "x", StatusErrored}},
			declared: true,
		},
		{
			name:     "pytest: passed, then error in teardown, counts two tests",
			in:       suite(2, 0, 1, 0, teardownCase),
			want:     []brief{{"m", "t", StatusErrored}},
			declared: true,
		},
		{
			name:     "pytest: error in setup and in teardown, counts two tests and two errors",
			in:       suite(2, 0, 2, 0, `<testcase classname="m" name="t"><error message="failed on setup with &quot;A&quot;"/><error message="failed on teardown with &quot;B&quot;"/></testcase>`),
			want:     []brief{{"m", "t", StatusErrored}},
			declared: true,
		},
		{
			name:     "pytest: skipped, then error in teardown",
			in:       suite(2, 0, 1, 1, `<testcase classname="m" name="t"><skipped message="s"/><error message="failed on teardown with &quot;B&quot;"/></testcase>`),
			want:     []brief{{"m", "t", StatusErrored}},
			declared: true,
		},
		{
			name: "pytest: failure then teardown error, two elements, one case",
			in: suite(1, 1, 1, 0,
				`<testcase classname="m" name="t" file="m.py" line="3"><failure message="f"/></testcase>`,
				`<testcase classname="m" name="t" file="m.py" line="3"><error message="failed on teardown with &quot;B&quot;"/></testcase>`),
			want:     []brief{{"m", "t", StatusFailed}},
			declared: true,
			merged:   1,
		},
		{
			name: "same name, failure then a non-teardown error: two cases",
			in: suite(2, 1, 1, 0,
				`<testcase classname="m" name="t"><failure message="f"/></testcase>`,
				`<testcase classname="m" name="t"><error message="other"/></testcase>`),
			want:     []brief{{"m", "t", StatusFailed}, {"m", "t", StatusErrored}},
			declared: true,
		},
		{
			name: "pair split by another case: not merged",
			in: suite(3, 1, 1, 0,
				`<testcase classname="m" name="t"><failure message="f"/></testcase>`, passCase,
				`<testcase classname="m" name="t"><error message="failed on teardown with &quot;B&quot;"/></testcase>`),
			want:     []brief{{"m", "t", StatusFailed}, {"m", "p", StatusPassed}, {"m", "t", StatusErrored}},
			declared: true,
		},
		{
			name:     "pytest collection error",
			in:       suite(1, 0, 1, 0, `<testcase classname="" name="tests.test_broken" file="tests/test_broken.py" time="0.000"><error message="collection failure">ImportError</error></testcase>`),
			want:     []brief{{"", "tests.test_broken", StatusErrored}},
			declared: true,
		},
		{
			name:     "system-out and system-err in a case, text with markup characters escaped",
			in:       suite(1, 0, 0, 0, `<testcase classname="m" name="p"><system-out>a &lt;b&gt; c</system-out><system-err><![CDATA[<x>]]></system-err></testcase>`),
			want:     []brief{{"m", "p", StatusPassed}},
			declared: true,
		},
		{
			name:     "unknown attributes are ignored",
			in:       `<testsuite tests="1" id="0" package="p" hostname="h" timestamp="t" assertions="3"><testcase name="x" assertions="1" url="u"/></testsuite>`,
			want:     []brief{{"", "x", StatusPassed}},
			declared: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustRead(t, tt.in)
			if got := briefs(r); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("cases\n got %v\nwant %v", got, tt.want)
			}
			if r.CountsDeclared() != tt.declared {
				t.Errorf("CountsDeclared = %v, want %v", r.CountsDeclared(), tt.declared)
			}
			if r.Merged != tt.merged {
				t.Errorf("merged %d, want %d", r.Merged, tt.merged)
			}
			checkReport(t, r, Limits{}.withDefaults())
		})
	}
}

func TestReadRefusals(t *testing.T) {
	long := strings.Repeat("n", DefaultMaxNameBytes+1)
	tests := []struct {
		name string
		in   string
		want error
		msg  string
	}{
		{"empty", "", ErrMalformed, "empty file"},
		{"white space only", " \n\t", ErrMalformed, "no root element"},
		{"comment only", "<!-- x -->", ErrMalformed, "no root element"},
		{"not XML", "PASSED 3 tests", ErrMalformed, "text before the root element"},
		{"JSON", `{"tests": 3}`, ErrMalformed, "text before the root element"},
		{"cut short", pytestFile[:len(pytestFile)/2], ErrMalformed, "XML syntax error"},
		{"cut before the root ends", strings.TrimSuffix(pytestFile, "</testsuites>\n"), ErrMalformed, "unexpected EOF"},
		{"mismatched end tag", `<testsuite><testcase name="a"></testsuite>`, ErrMalformed, "XML syntax error"},
		{"DOCTYPE", `<!DOCTYPE testsuite><testsuite/>`, ErrMalformed, "<!DOCTYPE ...> refused"},
		{"billion laughs", `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><testsuite name="&lol2;"/>`, ErrMalformed, "<!DOCTYPE ...> refused"},
		{"external entity", `<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite name="&x;"/>`, ErrMalformed, "<!DOCTYPE ...> refused"},
		{"declaration after the root", `<testsuite/><!DOCTYPE x>`, ErrMalformed, "refused"},
		{"undeclared entity", `<testsuite name="&x;"/>`, ErrMalformed, "invalid character entity"},
		{"Latin-1", `<?xml version="1.0" encoding="ISO-8859-1"?><testsuite/>`, ErrMalformed, `encoding "ISO-8859-1" declared; only UTF-8`},
		{"UTF-16 declared", `<?xml version="1.0" encoding="UTF-16"?><testsuite/>`, ErrMalformed, "only UTF-8"},
		{"UTF-16 bytes", "\xff\xfe<\x00t\x00/\x00>\x00", ErrMalformed, ""},
		{"invalid UTF-8 in text", "<testsuite><system-out>\xff</system-out></testsuite>", ErrMalformed, "invalid UTF-8"},
		{"invalid UTF-8 in a name", "<testsuite><testcase name=\"\xc3\"/></testsuite>", ErrMalformed, "invalid UTF-8"},
		{"control character", "<testsuite><testcase name=\"a\x01\"/></testsuite>", ErrMalformed, "illegal character"},
		{"XML 1.1", `<?xml version="1.1"?><testsuite/>`, ErrMalformed, "version"},
		{"XML declaration not first", ` <?xml version="1.0"?><testsuite/>`, ErrMalformed, "XML declaration not at the start"},
		{"XML declaration after the root", `<testsuite/><?xml version="1.0"?>`, ErrMalformed, "XML declaration not at the start"},
		{"two roots", `<testsuite tests="0"/><testsuite tests="1">` + passCase + `</testsuite>`, ErrMalformed, "second root element <testsuite> after </testsuite>"},
		{"two files concatenated", pytestFile + pytestFile, ErrMalformed, ""},
		{"text after the root", pytestFile + "PASSED", ErrMalformed, "text after the root element"},
		{"markup after the root", pytestFile + "<", ErrMalformed, "XML syntax error"},
		{"wrong root", `<testrun/>`, ErrMalformed, "root element <testrun>; want <testsuites> or <testsuite>"},
		{"testcase root", `<testcase name="a"/>`, ErrMalformed, "root element <testcase>"},
		{"default namespace", `<testsuite xmlns="urn:x"/>`, ErrMalformed, `element <testsuite> in namespace "urn:x"`},
		{"prefixed element", `<testsuite><x:testcase name="a"/></testsuite>`, ErrMalformed, `in namespace "x"`},
		{"unknown element in a testcase", `<testsuite><testcase name="a"><passed/></testcase></testsuite>`, ErrMalformed, "element <passed> inside <testcase>"},
		{"testcase in testsuites", `<testsuites><testcase name="a"/></testsuites>`, ErrMalformed, "element <testcase> inside <testsuites>"},
		{"testsuites nested", `<testsuites><testsuites/></testsuites>`, ErrMalformed, "element <testsuites> inside <testsuites>"},
		{"testsuite in a testcase", `<testsuite><testcase name="a"><testsuite/></testcase></testsuite>`, ErrMalformed, "inside <testcase>"},
		{"testcase in a testcase", `<testsuite><testcase name="a"><testcase name="b"/></testcase></testsuite>`, ErrMalformed, "inside <testcase>"},
		{"element in a failure", `<testsuite><testcase name="a"><failure><b>x</b></failure></testcase></testsuite>`, ErrMalformed, "element <b> inside <failure>"},
		{"text in a testsuite", `<testsuite>PASSED` + passCase + `</testsuite>`, ErrMalformed, "text inside <testsuite>"},
		{"text in a testcase", `<testsuite><testcase name="a">ok</testcase></testsuite>`, ErrMalformed, "text inside <testcase>"},
		{"duplicate attribute", `<testsuite><testcase name="a" name="b"/></testsuite>`, ErrMalformed, `attribute "name" repeated in <testcase>`},
		{"duplicate count", `<testsuite tests="1" tests="0">` + passCase + `</testsuite>`, ErrMalformed, `attribute "tests" repeated`},
		{"testcase without a name", `<testsuite><testcase classname="a"/></testsuite>`, ErrMalformed, "testcase 1 has no name"},
		{"testcase with an empty name", `<testsuite><testcase name=""/></testsuite>`, ErrMalformed, "testcase 1 has no name"},
		{"count not a number", `<testsuite tests="three"/>`, ErrMalformed, `testsuite #1: tests="three" is not a count`},
		{"negative count", `<testsuite name="s" failures="-1"/>`, ErrMalformed, `testsuite "s": failures="-1" is not a count`},
		{"fractional count", `<testsuite tests="1.0"/>`, ErrMalformed, "not a count"},
		{"count with space", `<testsuite tests=" 1"/>`, ErrMalformed, "not a count"},
		{"huge count", `<testsuite tests="1234567890"/>`, ErrMalformed, "not a count"},
		{"root count not a number", `<testsuites tests="x"/>`, ErrMalformed, `testsuites: tests="x" is not a count`},
		{"skip and skipped disagree", `<testsuite skipped="1" skip="0"/>`, ErrMalformed, "skipped=1 and skip=0 disagree"},

		{"forged test count", suite(5, 1, 0, 0, passCase, failCase), ErrCounts, `testsuite "pytest" declares tests=5, but counted 2 (<testcase> elements)`},
		{"a case cut out", suite(3, 1, 1, 0, passCase, failCase), ErrCounts, "declares tests=3, but counted 2 (<testcase> elements)"},
		{"errors forged", suite(2, 1, 1, 0, passCase, failCase), ErrCounts, "declares errors=1, but counted 0 (cases with <error>) or 0 (<error> elements)"},
		{"failures forged", suite(2, 0, 0, 0, passCase, failCase), ErrCounts, "declares failures=0, but counted 1 (cases with <failure>) or 1 (<failure> elements)"},
		{"skipped forged", suite(2, 0, 0, 0, passCase, skipCase), ErrCounts, "declares skipped=0, but counted 1 (cases with <skipped>)"},
		{"teardown pytest count names both", suite(3, 0, 1, 0, teardownCase), ErrCounts, "declares tests=3, but counted 1 (<testcase> elements) or 2 (as pytest counts)"},
		{"nested suite count", `<testsuites><testsuite name="all" tests="2"><testsuite name="A" tests="2">` + passCase + `</testsuite></testsuite></testsuites>`, ErrCounts, `testsuite "A" declares tests=2`},
		{"parent suite count", `<testsuites><testsuite name="all" tests="3"><testsuite name="A" tests="1">` + passCase + `</testsuite>` + passCase + `</testsuite></testsuites>`, ErrCounts, `testsuite "all" declares tests=3, but counted 2`},
		{"root count", `<testsuites tests="2" failures="0"><testsuite name="a" tests="1">` + passCase + `</testsuite></testsuites>`, ErrCounts, "testsuites declares tests=2, but counted 1"},
		{"unnamed suite", `<testsuites><testsuite tests="2"/></testsuites>`, ErrCounts, "testsuite #1 declares tests=2"},

		{"name too long", `<testsuite><testcase name="` + long + `"/></testsuite>`, ErrLimit, "testcase 1: name longer than 4096 bytes"},
		{"classname too long", `<testsuite><testcase name="a" classname="` + long + `"/></testsuite>`, ErrLimit, "classname longer than"},
		{"file too long", `<testsuite><testcase name="a" file="` + long + `"/></testsuite>`, ErrLimit, "file longer than"},
		{"suite name too long", `<testsuite name="` + long + `"/>`, ErrLimit, "testsuite name longer than 4096 bytes"},
		{"too deep", strings.Repeat("<testsuite>", DefaultMaxDepth+1) + strings.Repeat("</testsuite>", DefaultMaxDepth+1), ErrLimit, "elements nested deeper than 32"},
		{"too deep, not well-formed", strings.Repeat("<testsuite>", 100000), ErrLimit, "nested deeper than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Read(strings.NewReader(tt.in), Limits{})
			if err == nil {
				t.Fatalf("Read accepted it: %+v", r)
			}
			t.Log(err)
			if r != nil {
				t.Errorf("Read returned a report with its error")
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q\nwant %v naming %q", err, tt.want, tt.msg)
			}
			checkError(t, err)
		})
	}
}

// checkError checks that err is one line starting with "junit: ", and
// wraps exactly one of the sentinels.
func checkError(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	if !strings.HasPrefix(msg, "junit: ") || strings.ContainsAny(msg, "\r\n") || len(msg) > 600 {
		t.Errorf("error not one short line starting with junit: %q", msg)
	}
	n := 0
	for _, s := range []error{ErrMalformed, ErrLimit, ErrCounts} {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("error %q wraps %d of the sentinels", msg, n)
	}
}

func TestReadLimits(t *testing.T) {
	three := suite(3, 0, 0, 0, passCase, passCase, passCase)
	n := int64(len(three))
	if _, err := Read(strings.NewReader(three), Limits{MaxBytes: n}); err != nil {
		t.Errorf("file of exactly MaxBytes: %v", err)
	}
	_, err := Read(strings.NewReader(three), Limits{MaxBytes: n - 1})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), fmt.Sprintf("file larger than %d bytes", n-1)) {
		t.Errorf("file one byte over MaxBytes: %v", err)
	}
	// White space after the root counts too.
	_, err = Read(strings.NewReader(three+strings.Repeat(" ", 10)), Limits{MaxBytes: n + 9})
	if !errors.Is(err, ErrLimit) {
		t.Errorf("trailing white space over MaxBytes: %v", err)
	}
	// The largest limit does not overflow.
	if _, err := Read(strings.NewReader(three), Limits{MaxBytes: math.MaxInt64}); err != nil {
		t.Errorf("MaxBytes math.MaxInt64: %v", err)
	}
	// An endless stream stops at the limit.
	endless := io.MultiReader(strings.NewReader("<testsuite><system-out>"), infinite('x'))
	if _, err := Read(endless, Limits{MaxBytes: 1 << 20}); !errors.Is(err, ErrLimit) {
		t.Errorf("endless stream: %v", err)
	}

	if _, err := Read(strings.NewReader(three), Limits{MaxCases: 3}); err != nil {
		t.Errorf("exactly MaxCases: %v", err)
	}
	if _, err := Read(strings.NewReader(three), Limits{MaxCases: 2}); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than 2 testcases") {
		t.Errorf("over MaxCases: %v", err)
	}
	two := `<testsuites><testsuite/><testsuite/></testsuites>`
	if _, err := Read(strings.NewReader(two), Limits{MaxSuites: 2}); err != nil {
		t.Errorf("exactly MaxSuites: %v", err)
	}
	if _, err := Read(strings.NewReader(two), Limits{MaxSuites: 1}); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than 1 testsuites") {
		t.Errorf("over MaxSuites: %v", err)
	}
	// testsuites > testsuite > testcase > failure is depth 4.
	deep := suite(1, 1, 0, 0, failCase)
	if _, err := Read(strings.NewReader(deep), Limits{MaxDepth: 4}); err != nil {
		t.Errorf("exactly MaxDepth: %v", err)
	}
	if _, err := Read(strings.NewReader(deep), Limits{MaxDepth: 3}); !errors.Is(err, ErrLimit) {
		t.Errorf("over MaxDepth: %v", err)
	}
	named := suite(1, 0, 0, 0, `<testcase classname="abcd" name="efgh" file="ijkl"/>`)
	if _, err := Read(strings.NewReader(named), Limits{MaxNameBytes: 6}); err != nil {
		t.Errorf("names at MaxNameBytes: %v", err)
	}
	if _, err := Read(strings.NewReader(named), Limits{MaxNameBytes: 3}); !errors.Is(err, ErrLimit) {
		t.Errorf("names over MaxNameBytes: %v", err)
	}
}

// infinite is an endless reader of one byte.
type infinite byte

func (b infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestReadMessagesAreCut(t *testing.T) {
	msg := strings.Repeat("é", 1000) // 2000 bytes
	in := suite(1, 1, 0, 0, `<testcase classname="m" name="f"><failure message="`+msg+`" type="`+msg+`">trace</failure></testcase>`)
	r, err := Read(strings.NewReader(in), Limits{MaxMessageBytes: 101})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Cases[0]
	if c.Message != strings.Repeat("é", 50) || c.Type != c.Message {
		t.Errorf("message %q (%d bytes), type %d bytes, want 50 é", c.Message, len(c.Message), len(c.Type))
	}
}

func TestReadDecidingMessage(t *testing.T) {
	in := suite(1, 1, 1, 1, `<testcase classname="m" name="x"><skipped message="s"/><error message="e" type="E"/><failure message="f1" type="F"/><failure message="f2"/></testcase>`)
	r := mustRead(t, in)
	if c := r.Cases[0]; c.Message != "f1" || c.Type != "F" || c.Failures != 2 || c.Errors != 1 || c.Skips != 1 {
		t.Errorf("case %+v, want the first failure's message", c)
	}
}

func TestReadReaders(t *testing.T) {
	want := mustRead(t, pytestFile)
	for name, r := range map[string]io.Reader{
		"one byte":  iotest.OneByteReader(strings.NewReader(pytestFile)),
		"half":      iotest.HalfReader(strings.NewReader(pytestFile)),
		"data, EOF": iotest.DataErrReader(strings.NewReader(pytestFile)),
	} {
		got, err := Read(r, Limits{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
			t.Errorf("%s: report differs", name)
		}
	}
	boom := errors.New("disk on fire")
	for name, r := range map[string]io.Reader{
		"at once":        iotest.ErrReader(boom),
		"mid-file":       io.MultiReader(strings.NewReader(pytestFile[:100]), iotest.ErrReader(boom)),
		"after the root": io.MultiReader(strings.NewReader(pytestFile), iotest.ErrReader(boom)),
	} {
		_, err := Read(r, Limits{})
		if !errors.Is(err, boom) || errors.Is(err, ErrMalformed) || strings.ContainsAny(err.Error(), "\n") {
			t.Errorf("%s: error %v, want the reader's", name, err)
		}
	}
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{
		0: "unknown", StatusPassed: "passed", StatusFailed: "failed", StatusErrored: "errored",
		StatusSkipped: "skipped", StatusNotRun: "not run", 99: "unknown",
	} {
		if got := s.String(); got != want {
			t.Errorf("Status(%d) = %q, want %q", s, got, want)
		}
	}
}

func TestReadLenientTimeAndLine(t *testing.T) {
	in := suite(4, 0, 0, 0,
		`<testcase name="a" time="1.5" line="7"/>`,
		`<testcase name="b" time="1,234.5" line="x"/>`,
		`<testcase name="c" time="-1" line="-3"/>`,
		`<testcase name="d" time="NaN"/>`)
	r := mustRead(t, in)
	want := []struct {
		time time.Duration
		line int
	}{{1500 * time.Millisecond, 7}, {0, 0}, {0, 0}, {0, 0}}
	for i, w := range want {
		if c := r.Cases[i]; c.Time != w.time || c.Line != w.line {
			t.Errorf("case %s: time %v line %d, want %v %d", c.Name, c.Time, c.Line, w.time, w.line)
		}
	}
}

func TestReadLargeFile(t *testing.T) {
	// 20000 cases in 2 MiB, with output: the reader keeps up and keeps no
	// output.
	var b bytes.Buffer
	const n = 20000
	fmt.Fprintf(&b, `<testsuites><testsuite name="big" tests="%d" failures="%d">`, n, n/10)
	for i := range n {
		if i%10 == 0 {
			fmt.Fprintf(&b, `<testcase classname="pkg.mod" name="t%d"><failure message="m">%s</failure></testcase>`, i, strings.Repeat("trace ", 10))
		} else {
			fmt.Fprintf(&b, `<testcase classname="pkg.mod" name="t%d"><system-out>%s</system-out></testcase>`, i, strings.Repeat("out ", 10))
		}
	}
	b.WriteString(`</testsuite></testsuites>`)
	r := mustRead(t, b.String())
	if r.Totals != (Totals{Cases: n, Passed: n - n/10, Failed: n / 10}) {
		t.Errorf("totals %+v", r.Totals)
	}
}

// TestReadPytestFiles reads files the real pytest 7 wrote for the project
// of pytest_test.go, then forged and truncated versions of them.
func TestReadPytestFiles(t *testing.T) {
	tests := []struct {
		file   string
		totals Totals
		merged int
	}{
		{"pytest-xunit2.xml", Totals{Cases: 19, Passed: 9, Failed: 5, Errored: 2, Skipped: 3}, 1},
		{"pytest-xunit1.xml", Totals{Cases: 19, Passed: 9, Failed: 5, Errored: 2, Skipped: 3}, 1},
		{"pytest-teardown-error.xml", Totals{Cases: 1, Errored: 1}, 0},
		{"pytest-fail-and-teardown-error.xml", Totals{Cases: 1, Failed: 1}, 1},
		{"pytest-collection-error.xml", Totals{Cases: 1, Errored: 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := mustRead(t, string(b))
			if r.Totals != tt.totals || r.Merged != tt.merged || !r.CountsDeclared() {
				t.Errorf("totals %+v merged %d, want %+v %d", r.Totals, r.Merged, tt.totals, tt.merged)
			}
			checkReport(t, r, Limits{}.withDefaults())

			// A forged count. (Not n+1: for the failure-and-teardown pair,
			// 2 is the count of <testcase> elements, which other tools
			// write; the report's Totals count the case once either way.)
			m := regexp.MustCompile(` tests="(\d+)"`).FindSubmatch(b)
			if m == nil {
				t.Fatal("no tests attribute")
			}
			n, _ := strconv.Atoi(string(m[1]))
			forged := bytes.Replace(b, m[0], fmt.Appendf(nil, ` tests="%d"`, n+5), 1)
			if _, err := Read(bytes.NewReader(forged), Limits{}); !errors.Is(err, ErrCounts) {
				t.Errorf("tests=%d forged to %d: %v", n, n+5, err)
			}
			// The last case cut out.
			start := bytes.LastIndex(b, []byte("<testcase "))
			end := bytes.LastIndex(b, []byte("</testsuite>"))
			cut := append(append([]byte(nil), b[:start]...), b[end:]...)
			if _, err := Read(bytes.NewReader(cut), Limits{}); !errors.Is(err, ErrCounts) {
				t.Errorf("last case cut out: %v", err)
			}
			// Truncated anywhere: never a report.
			for i := 0; i < len(b)-1; i += 1 + len(b)/97 {
				if r, err := Read(bytes.NewReader(b[:i]), Limits{}); err == nil {
					t.Fatalf("truncated to %d bytes: read %+v", i, r.Totals)
				}
			}
		})
	}
}

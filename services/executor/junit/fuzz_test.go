package junit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// fuzzLimits are small so that the fuzzer reaches the bounds.
func fuzzLimits() Limits {
	return Limits{MaxBytes: 64 << 10, MaxCases: 20, MaxSuites: 10, MaxDepth: 8, MaxNameBytes: 32, MaxMessageBytes: 8}
}

func FuzzRead(f *testing.F) {
	seeds := []string{
		pytestFile,
		suite(1, 1, 1, 0,
			`<testcase classname="m" name="t" file="m.py"><failure message="f"/></testcase>`,
			`<testcase classname="m" name="t" file="m.py"><error message="failed on teardown with &quot;B&quot;"/></testcase>`),
		suite(2, 0, 2, 0, `<testcase classname="m" name="t"><error message="failed on setup with &quot;A&quot;"/><error message="failed on teardown with &quot;B&quot;"/></testcase>`),
		suite(2, 0, 1, 0, teardownCase),
		`<testsuites tests="2" failures="1"><testsuite name="a" tests="1">` + passCase + `</testsuite><testsuite name="b" tests="1" failures="1"><testsuite name="c">` + failCase + `</testsuite></testsuite></testsuites>`,
		`<testsuite tests="2" skip="1"><testcase name="D" status="notrun"/>` + skipCase + `</testsuite>`,
		`<testsuite tests="1"><properties><property name="a">v</property></properties><testcase name="f"><flakyFailure><stackTrace>s</stackTrace></flakyFailure><system-out>o</system-out></testcase><system-err>e</system-err></testsuite>`,
		"\uFEFF<?xml version=\"1.0\"?>\n<!-- c --><testsuite/>\n",
		`<!DOCTYPE x [<!ENTITY a "b">]><testsuite name="&a;"/>`,
		`<testsuite/><testsuite/>`,
		`<testsuite><testcase name="a" name="b"/></testsuite>`,
		`<testsuite xmlns:xsi="urn:x" xsi:a="1"><testcase name="x" classname="tests.sub.dir.test_y.TestK"/><testcase name="x" classname="tests.sub.dir.test_y.TestK" file="tests/sub.dir/test_y.py"/></testsuite>`,
		`<testsuite><testcase name="t[&#x7f;&#x1F600;]" classname="a.b"/></testsuite>`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if files, err := filepath.Glob(filepath.Join("testdata", "*.xml")); err == nil {
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		lim := fuzzLimits()
		r, err := Read(bytes.NewReader(data), lim)
		again, errAgain := Read(iotest.OneByteReader(bytes.NewReader(data)), lim)
		if (err == nil) != (errAgain == nil) || (err != nil && err.Error() != errAgain.Error()) {
			t.Fatalf("reads differ: %v / %v", err, errAgain)
		}
		if err != nil {
			if r != nil {
				t.Fatalf("a report with the error %v", err)
			}
			checkError(t, err)
			return
		}
		if !reflect.DeepEqual(r, again) {
			t.Fatalf("two reads of the same bytes differ")
		}
		if r.Bytes != int64(len(data)) {
			t.Fatalf("bytes %d, read %d", r.Bytes, len(data))
		}
		checkReport(t, r, lim.withDefaults())
		checkMatches(t, r)
	})
}

// checkReport asserts the invariants of a report Read returned.
func checkReport(t *testing.T, r *Report, lim Limits) {
	t.Helper()
	if r.Root != "testsuites" && r.Root != "testsuite" {
		t.Fatalf("root %q", r.Root)
	}
	if r.Root == "testsuite" && (len(r.Suites) == 0 || r.RootDeclared != (Declared{-1, -1, -1, -1})) {
		t.Fatalf("testsuite root: %d suites, root declared %+v", len(r.Suites), r.RootDeclared)
	}
	if len(r.Cases) > lim.MaxCases || len(r.Suites) > lim.MaxSuites {
		t.Fatalf("%d cases, %d suites over the limits", len(r.Cases), len(r.Suites))
	}
	// Totals equal the cases.
	var tot Totals
	for i, c := range r.Cases {
		tot.add(c.Status)
		want := StatusPassed
		switch {
		case c.Failures > 0:
			want = StatusFailed
		case c.Errors > 0:
			want = StatusErrored
		case c.Skips > 0:
			want = StatusSkipped
		case c.Status == StatusNotRun:
			want = StatusNotRun
		}
		if c.Status != want {
			t.Fatalf("case %d %+v: status %v, want %v", i, c, c.Status, want)
		}
		if c.Name == "" || len(c.Name) > lim.MaxNameBytes || len(c.Classname) > lim.MaxNameBytes || len(c.File) > lim.MaxNameBytes ||
			len(c.Message) > lim.MaxMessageBytes || len(c.Type) > lim.MaxMessageBytes {
			t.Fatalf("case %d over the limits: %+v", i, c)
		}
		for _, s := range []string{c.Name, c.Classname, c.File, c.Message, c.Type} {
			if !utf8.ValidString(s) {
				t.Fatalf("case %d: invalid UTF-8 %q", i, s)
			}
		}
		if c.Suite < 0 || c.Suite >= len(r.Suites) || c.Time < 0 || c.Line < 0 || c.Reruns < 0 {
			t.Fatalf("case %d: %+v", i, c)
		}
	}
	if tot != r.Totals || tot.Cases != len(r.Cases) ||
		tot.Passed+tot.Failed+tot.Errored+tot.Skipped+tot.NotRun != tot.Cases {
		t.Fatalf("totals %+v, recounted %+v over %d cases", r.Totals, tot, len(r.Cases))
	}
	// Suites form a tree whose element counts add up.
	top := 0
	children := make([]int, len(r.Suites))
	for i, s := range r.Suites {
		if s.Parent >= i || s.Parent < -1 || len(s.Name) > lim.MaxNameBytes {
			t.Fatalf("suite %d: %+v", i, s)
		}
		if s.Parent < 0 {
			top += s.Elements
		} else {
			children[s.Parent] += s.Elements
		}
	}
	for i, s := range r.Suites {
		if s.Elements < children[i] {
			t.Fatalf("suite %d has %d elements, its children %d", i, s.Elements, children[i])
		}
	}
	if top != len(r.Cases)+r.Merged || r.Merged < 0 {
		t.Fatalf("%d elements in top-level suites, %d cases, %d merged", top, len(r.Cases), r.Merged)
	}
	// Every declared count agrees with the cases in its subtree.
	for i, s := range r.Suites {
		checkDeclared(t, r, s.Declared, s.Elements, func(c Case) bool { return inSuite(r, c.Suite, i) })
	}
	checkDeclared(t, r, r.RootDeclared, top, func(Case) bool { return true })
}

// inSuite reports whether suite s is suite i or nested in it.
func inSuite(r *Report, s, i int) bool {
	for ; s >= 0; s = r.Suites[s].Parent {
		if s == i {
			return true
		}
	}
	return false
}

// checkDeclared checks d against the cases that in selects, with the two
// ways of counting Read accepts.
func checkDeclared(t *testing.T, r *Report, d Declared, elements int, in func(Case) bool) {
	t.Helper()
	var cases, maxReports int
	var kinds [3]struct{ cases, elems int }
	for _, c := range r.Cases {
		if !in(c) {
			continue
		}
		cases++
		maxReports += c.Failures + c.Errors + c.Skips + 1
		for k, n := range []int{c.Failures, c.Errors, c.Skips} {
			if n > 0 {
				kinds[k].cases++
			}
			kinds[k].elems += n
		}
	}
	if d.Tests >= 0 && d.Tests != elements && (d.Tests < cases || d.Tests > maxReports) {
		t.Fatalf("declared tests=%d, %d elements, %d cases, at most %d reports", d.Tests, elements, cases, maxReports)
	}
	for k, n := range []int{d.Failures, d.Errors, d.Skipped} {
		if n >= 0 && n != kinds[k].cases && n != kinds[k].elems {
			t.Fatalf("declared count %d of kind %d, counted %+v", n, k, kinds[k])
		}
	}
}

// checkMatches maps every case to a node id and back: Match never returns a
// case that is not the node id's.
func checkMatches(t *testing.T, r *Report) {
	t.Helper()
	for _, c := range r.Cases {
		id := NodeID(c)
		got, err := Match(r, id)
		if err != nil {
			n := 0
			for _, s := range []error{ErrNodeID, ErrNotFound, ErrAmbiguous} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("Match(%q): %q", id, err)
			}
			continue
		}
		_, classname, name, err := pytestAddress(id)
		if err != nil || got.Classname != classname || got.Name != name {
			t.Fatalf("Match(%q) = %+v, want classname %q name %q (%v)", id, got, classname, name, err)
		}
		if c2, ok := Find(r, id); !ok || !reflect.DeepEqual(c2, got) {
			t.Fatalf("Find(%q) disagrees with Match", id)
		}
	}
}

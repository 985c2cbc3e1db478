package gotest

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzLimits are small so that the fuzzer reaches the bounds.
func fuzzLimits() Limits { return Limits{MaxLineBytes: 300, MaxOutputBytes: 64} }

func FuzzRead(f *testing.F) {
	seeds := [][]string{
		passingRun("TestA"),
		{
			ev(ActionStart, ""), ev(ActionRun, "TestA"), ev(ActionRun, "TestA/sub"),
			out("TestA/sub", "    --- FAIL: TestA/sub\n"), ev(ActionFail, "TestA/sub"),
			ev(ActionFail, "TestA"), out("", "FAIL\n"), ev(ActionFail, ""),
		},
		{
			`{"ImportPath":"example.com/m [example.com/m.test]","Action":"build-output","Output":"x.go:1: bad\n"}`,
			`{"ImportPath":"example.com/m [example.com/m.test]","Action":"build-fail"}`,
			ev(ActionStart, ""), out("", "FAIL\texample.com/m [build failed]\n"),
			`{"Action":"fail","Package":"example.com/m","Elapsed":0,"FailedBuild":"example.com/m [example.com/m.test]"}`,
		},
		{
			"# build text", ev(ActionStart, ""), ev(ActionPass, "TestGhost"),
			`{"Action":"pass","Package":"example.com/m","Test":"TestGhost","Action":"fail"}`,
			out("TestA", `{"Action":"pass","Package":"example.com/m","Test":"TestGhost"}`+"\n"),
			out("", "testing: warning: no tests to run\n"), out("TestA", "panic: test timed out after 2s\n"),
			`{"Action":"skip","Package":"example.com/m","Test":"TestS","Elapsed":-1}`, "\xff\xfe", ev(ActionPass, ""),
		},
	}
	seeds = append(seeds,
		[]string{
			ev(ActionStart, ""), ev(ActionRun, "TestA"), out("TestA", "=== RUN   TestA\n"),
			out("TestA", "panic: test timed out after 2s\n"), out("", "FAIL\texample.com/m\t2.011s\n"), ev(ActionFail, ""),
		},
		[]string{
			ev(ActionStart, ""), ev(ActionRun, "TestA"), ev(ActionRun, "TestA/one"), ev(ActionPause, "TestA/one"),
			ev(ActionCont, "TestA/one"), ev(ActionPass, "TestA/one"), ev(ActionRun, "TestA/two"), ev(ActionSkip, "TestA/two"),
			ev(ActionPass, "TestA"), evIn("example.com/n", ActionRun, "TestA", ""), ev(ActionPass, ""),
		},
		[]string{
			ev(ActionStart, ""), out("", "testing: warning: no tests to run\n"), out("", "PASS\n"),
			out("", "ok  \texample.com/m\t0.002s [no tests to run]\n"), ev(ActionPass, ""),
		},
	)
	for _, lines := range seeds {
		f.Add([]byte(stream(lines...)))
	}
	f.Add([]byte(strings.Repeat("{", 400) + "\n" + ev(ActionRun, "TestA")))
	f.Add([]byte("\r\n\n{\"Action\":\"run\",\"Test\":\"T\"}\r\n"))

	f.Fuzz(func(t *testing.T, data []byte) {
		lim := fuzzLimits()
		report, err := ReadLimited(bytes.NewReader(data), lim)
		if err != nil {
			t.Fatalf("ReadLimited on a bytes.Reader: %v", err)
		}
		again, _ := ReadLimited(bytes.NewReader(data), lim)
		if !reflect.DeepEqual(report, again) {
			t.Fatalf("two reads of the same bytes differ")
		}
		if _, err := Read(bytes.NewReader(data)); err != nil {
			t.Fatalf("Read: %v", err)
		}
		checkReport(t, report, lim)
		checkVerdicts(t, report)
	})
}

// checkReport asserts the report's own invariants.
func checkReport(t *testing.T, r *Report, lim Limits) {
	t.Helper()
	if r.Lines != r.Events+r.PlainLines || r.OverlongLines > r.PlainLines {
		t.Fatalf("lines %d events %d plain %d overlong %d", r.Lines, r.Events, r.PlainLines, r.OverlongLines)
	}
	checkOutput(t, "plain", r.PlainOutput, lim)
	total := 0
	for _, path := range r.PackagePaths() {
		p := r.Packages[path]
		if p.ImportPath != path {
			t.Fatalf("package %q filed under %q", p.ImportPath, path)
		}
		checkOutput(t, "package "+path, p.Output, lim)
		var c Counts
		for _, name := range p.TestNames() {
			test := p.Tests[name]
			if test.Name != name {
				t.Fatalf("test %q filed under %q", test.Name, name)
			}
			checkOutput(t, "test "+name, test.Output, lim)
			if test.Result() == ResultInconsistent && test.Runs <= 1 && len(test.Finals) <= 1 && test.EventsAfterFinal == 0 && !test.FinalWithoutRun {
				t.Fatalf("test %q inconsistent without a contradiction: %+v", name, test)
			}
			c.add(test)
		}
		// Every test is counted once, in exactly one bucket.
		if p.Counts != c || c.Tests != len(p.Tests) ||
			c.Passed+c.Failed+c.Skipped+c.Unfinished+c.Benchmarks+c.Inconsistent != c.Tests ||
			c.Run < c.Passed+c.Failed || c.Run > c.Passed+c.Failed+c.Inconsistent {
			t.Fatalf("package %q counts %+v, recounted %+v over %d tests", path, p.Counts, c, len(p.Tests))
		}
		total += len(p.Tests)
	}
	for _, path := range r.BuildPaths() {
		checkOutput(t, "build "+path, r.Builds[path].Output, lim)
	}
	if suite := SuiteResults(r); len(suite) > total {
		t.Fatalf("%d suite results from %d tests", len(suite), total)
	}
}

func checkOutput(t *testing.T, what string, o Output, lim Limits) {
	t.Helper()
	if !utf8.ValidString(o.Text) {
		t.Fatalf("%s output is not valid UTF-8: %q", what, o.Text)
	}
	// U+FFFD replacing one invalid byte adds two; allow for it.
	if len(o.Text) > 3*lim.MaxOutputBytes || o.DroppedBytes < 0 {
		t.Fatalf("%s output %d bytes, dropped %d, limit %d", what, len(o.Text), o.DroppedBytes, lim.MaxOutputBytes)
	}
}

// checkVerdicts judges every test of every package, and a name that is not
// there, and checks that PASS only ever stands on the evidence it names.
func checkVerdicts(t *testing.T, r *Report) {
	t.Helper()
	for _, path := range append(r.PackagePaths(), "example.com/absent") {
		p := r.Packages[path]
		names := []string{"TestAbsent"}
		if p != nil {
			names = append(names, p.TestNames()...)
		}
		for _, name := range names {
			for _, exit := range []int{0, 1, -1} {
				for _, term := range []Termination{TerminationExited, TerminationUnknown, TerminationTimeout} {
					o := Verdict(r, path, name, exit, term)
					if o.Reason == "" || strings.ContainsAny(o.Reason, "\r\n") {
						t.Fatalf("Verdict(%q, %q) reason not one line: %q", path, name, o.Reason)
					}
					if o.Kind == OutcomePass {
						checkPass(t, r, path, name, exit, term)
					}
				}
			}
		}
	}
}

// checkPass restates, independently of Verdict, what a PASS requires.
func checkPass(t *testing.T, r *Report, path, name string, exit int, term Termination) {
	t.Helper()
	fail := func(why string) {
		t.Helper()
		t.Fatalf("Verdict(%q, %q, exit %d, %v) = PASS, yet %s", path, name, exit, term, why)
	}
	if exit != 0 || term != TerminationExited {
		fail("the process did not exit 0 by itself")
	}
	p := r.Packages[path]
	if p == nil || p.Tests[name] == nil {
		fail("there is no event for it")
	}
	test := p.Tests[name]
	if test.Runs != 1 || len(test.Finals) != 1 || test.Finals[0] != ActionPass || test.EventsAfterFinal != 0 || test.FinalWithoutRun {
		fail("its events are not one run and one pass")
	}
	if p.Starts != 1 || len(p.Finals) != 1 || p.Finals[0] != ActionPass || p.EventsAfterFinal != 0 {
		fail("its package did not pass once")
	}
	if p.NoTestsToRun || p.TimedOut || p.FailedBuild != "" || p.BuildFailedText || len(r.FailedBuilds()) > 0 {
		fail("the package says it did not run cleanly")
	}
	for other, o := range p.Tests {
		related := other == name || strings.HasPrefix(other, name+"/") || strings.HasPrefix(name, other+"/")
		if !related {
			fail("the stream has events for " + other)
		}
		if strings.HasPrefix(other, name+"/") && o.Result() != ResultPass && o.Result() != ResultSkip {
			fail("subtest " + other + " is " + o.Result().String())
		}
	}
}

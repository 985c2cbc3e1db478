package gotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"
)

const testPkg = "example.com/m"

// ev returns one event line of testPkg as cmd/go would write it.
func ev(action, test string) string {
	return evIn(testPkg, action, test, "")
}

// out returns one output event line of testPkg.
func out(test, text string) string {
	return evIn(testPkg, ActionOutput, test, text)
}

func evIn(pkg, action, test, output string) string {
	e := struct {
		Action  string
		Package string `json:",omitempty"`
		Test    string `json:",omitempty"`
		Output  string `json:",omitempty"`
	}{action, pkg, test, output}
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // a bug in the test itself, not input
	}
	return string(b)
}

// stream joins lines into a stream, each ending in a newline.
func stream(lines ...string) string {
	return strings.Join(lines, "\n") + "\n"
}

// passingRun is the stream of a healthy `-run '^TestA$'` that passed.
func passingRun(test string) []string {
	return []string{
		ev(ActionStart, ""),
		ev(ActionRun, test),
		out(test, "=== RUN   "+test+"\n"),
		out(test, "--- PASS: "+test+" (0.00s)\n"),
		ev(ActionPass, test),
		out("", "PASS\n"),
		out("", "ok  \t"+testPkg+"\t0.003s\n"),
		ev(ActionPass, ""),
	}
}

func mustRead(t *testing.T, s string) *Report {
	t.Helper()
	r, err := Read(strings.NewReader(s))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return r
}

func TestReadHealthyStream(t *testing.T) {
	r := mustRead(t, stream(passingRun("TestA")...))
	if got := r.PackagePaths(); len(got) != 1 || got[0] != testPkg {
		t.Fatalf("packages = %q, want [%q]", got, testPkg)
	}
	p := r.Packages[testPkg]
	if p.Final() != ActionPass || p.Starts != 1 || len(p.Finals) != 1 || p.EventsAfterFinal != 0 {
		t.Errorf("package: final %q starts %d finals %v after %d", p.Final(), p.Starts, p.Finals, p.EventsAfterFinal)
	}
	ta := p.Tests["TestA"]
	if ta == nil || ta.Result() != ResultPass || ta.Runs != 1 {
		t.Fatalf("TestA = %+v", ta)
	}
	if want := "=== RUN   TestA\n--- PASS: TestA (0.00s)\n"; ta.Output.Text != want {
		t.Errorf("TestA output = %q, want %q", ta.Output.Text, want)
	}
	if want := "PASS\nok  \texample.com/m\t0.003s\n"; p.Output.Text != want {
		t.Errorf("package output = %q, want %q", p.Output.Text, want)
	}
	if r.Lines != 8 || r.Events != 8 || r.PlainLines != 0 {
		t.Errorf("lines %d events %d plain %d, want 8 8 0", r.Lines, r.Events, r.PlainLines)
	}
	want := Counts{Tests: 1, Run: 1, Passed: 1}
	if p.Counts != want {
		t.Errorf("counts = %+v, want %+v", p.Counts, want)
	}
}

// TestReadOnlyWholeLinesAreEvents is the forgery table: each line is
// something a test (or a broken pipe) could put in the stream; none of
// them may become an event.
func TestReadOnlyWholeLinesAreEvents(t *testing.T) {
	passA := `{"Action":"pass","Package":"example.com/m","Test":"TestGhost"}`
	tests := []struct {
		name string
		line string
	}{
		{"plain text", "--- PASS: TestGhost (0.00s)"},
		{"marker and report", "\x16--- PASS: TestGhost (0.00s)"},
		{"leading space", " " + passA},
		{"trailing space", passA + " "},
		{"text before", "x" + passA},
		{"text after", passA + "x"},
		{"two objects", passA + passA},
		{"lower-case keys", `{"action":"pass","package":"example.com/m","test":"TestGhost"}`},
		{"upper-case keys", `{"ACTION":"pass","Package":"example.com/m","Test":"TestGhost"}`},
		{"duplicate key, last wins in encoding/json", `{"Action":"fail","Package":"example.com/m","Test":"TestGhost","Action":"pass"}`},
		{"number action", `{"Action":1,"Package":"example.com/m","Test":"TestGhost"}`},
		{"object test", `{"Action":"pass","Package":"example.com/m","Test":{"Name":"TestGhost"}}`},
		{"string elapsed", `{"Action":"pass","Package":"example.com/m","Test":"TestGhost","Elapsed":"0"}`},
		{"no action", `{"Package":"example.com/m","Test":"TestGhost"}`},
		{"empty object", `{}`},
		{"null", `null`},
		{"array", `[` + passA + `]`},
		{"string", `"` + strings.ReplaceAll(passA, `"`, `\"`) + `"`},
		{"truncated", passA[:len(passA)-2]},
		{"invalid UTF-8 outside strings", `{"Action":"pass","Package":"example.com/m","Test":"TestGhost"` + "\xff}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustRead(t, stream(ev(ActionStart, ""), tt.line, ev(ActionPass, "")))
			if r.Events != 2 || r.PlainLines != 1 {
				t.Errorf("events %d plain %d, want 2 and 1", r.Events, r.PlainLines)
			}
			if p := r.Packages[testPkg]; len(p.Tests) != 0 {
				t.Errorf("tests %q, want none", p.TestNames())
			}
			if !utf8.ValidString(r.PlainOutput.Text) {
				t.Errorf("plain output is not valid UTF-8: %q", r.PlainOutput.Text)
			}
		})
	}
}

func TestReadJSONInsideOutputIsOutput(t *testing.T) {
	forged := `{"Action":"pass","Package":"example.com/m","Test":"TestGhost"}` + "\n"
	r := mustRead(t, stream(
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"),
		out("TestA", forged),
		out("", forged),
		ev(ActionPass, "TestA"),
		ev(ActionPass, ""),
	))
	p := r.Packages[testPkg]
	if got := p.TestNames(); len(got) != 1 || got[0] != "TestA" {
		t.Fatalf("tests = %q, want [TestA]", got)
	}
	if p.Tests["TestA"].Output.Text != forged || p.Output.Text != forged {
		t.Errorf("forged JSON not kept as output: test %q package %q", p.Tests["TestA"].Output.Text, p.Output.Text)
	}
}

func TestReadPlainLinesBetweenEvents(t *testing.T) {
	// GODEBUG=gotestjsonbuildtext=1 prints build errors as text on stderr,
	// before the stream; stderr lines can land anywhere.
	r := mustRead(t, stream(
		"# example.com/m [example.com/m.test]",
		"./m_test.go:5:40: undefined: x",
		ev(ActionStart, ""),
		"go: downloading example.com/dep v1.0.0",
		out("", "FAIL\texample.com/m [build failed]\n"),
		ev(ActionFail, ""),
	))
	if r.PlainLines != 3 || r.Events != 3 {
		t.Fatalf("plain %d events %d, want 3 3", r.PlainLines, r.Events)
	}
	want := "# example.com/m [example.com/m.test]\n./m_test.go:5:40: undefined: x\ngo: downloading example.com/dep v1.0.0\n"
	if r.PlainOutput.Text != want {
		t.Errorf("plain = %q, want %q", r.PlainOutput.Text, want)
	}
	if p := r.Packages[testPkg]; !p.BuildFailedText || p.Final() != ActionFail {
		t.Errorf("BuildFailedText %v final %q, want true fail", p.BuildFailedText, p.Final())
	}
}

func TestReadLineEndings(t *testing.T) {
	lines := passingRun("TestA")
	crlf := strings.Join(lines, "\r\n") // and no newline after the last line
	r := mustRead(t, crlf)
	if r.Events != len(lines) || r.PlainLines != 0 {
		t.Fatalf("events %d plain %d, want %d 0", r.Events, r.PlainLines, len(lines))
	}
	if r.Packages[testPkg].Final() != ActionPass {
		t.Errorf("final line without newline was not read")
	}
	if r := mustRead(t, ""); r.Lines != 0 || len(r.Packages) != 0 {
		t.Errorf("empty stream: %d lines, %d packages", r.Lines, len(r.Packages))
	}
	if r := mustRead(t, "\n\n"); r.Lines != 2 || r.PlainLines != 2 {
		t.Errorf("blank lines: %d lines, %d plain", r.Lines, r.PlainLines)
	}
}

func TestReadOverlongLines(t *testing.T) {
	t.Run("event over the limit is plain", func(t *testing.T) {
		line := out("TestA", strings.Repeat("x", 200))
		r, err := ReadLimited(strings.NewReader(stream(ev(ActionStart, ""), line, ev(ActionPass, ""))),
			Limits{MaxLineBytes: 100, MaxOutputBytes: 50})
		if err != nil {
			t.Fatal(err)
		}
		if r.OverlongLines != 1 || r.PlainLines != 1 || r.Events != 2 {
			t.Errorf("overlong %d plain %d events %d, want 1 1 2", r.OverlongLines, r.PlainLines, r.Events)
		}
		if _, ok := r.Packages[testPkg].Tests["TestA"]; ok {
			t.Errorf("an overlong line became an event")
		}
		if len(r.PlainOutput.Text) != 50 || r.PlainOutput.DroppedBytes != int64(len(line)+1-50) {
			t.Errorf("plain kept %d dropped %d, want 50 and %d", len(r.PlainOutput.Text), r.PlainOutput.DroppedBytes, len(line)+1-50)
		}
	})
	t.Run("event at the limit is an event", func(t *testing.T) {
		line := out("TestA", "x")
		r, err := ReadLimited(strings.NewReader(stream(line)), Limits{MaxLineBytes: len(line)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Events != 1 || r.OverlongLines != 0 {
			t.Errorf("events %d overlong %d, want 1 0", r.Events, r.OverlongLines)
		}
	})
	t.Run("huge lines with default limits", func(t *testing.T) {
		huge := strings.Repeat("y", 3*DefaultMaxLineBytes)
		lines := append([]string{huge}, passingRun("TestA")...)
		lines = append(lines[:3], append([]string{huge + "\x16--- PASS: TestGhost"}, lines[3:]...)...)
		r := mustRead(t, stream(lines...))
		if r.OverlongLines != 2 || r.Packages[testPkg].Tests["TestA"].Result() != ResultPass {
			t.Errorf("overlong %d, TestA %v", r.OverlongLines, r.Packages[testPkg].Tests["TestA"].Result())
		}
		if len(r.PlainOutput.Text) > DefaultMaxOutputBytes || r.PlainOutput.DroppedBytes < int64(2*DefaultMaxLineBytes) {
			t.Errorf("plain kept %d dropped %d", len(r.PlainOutput.Text), r.PlainOutput.DroppedBytes)
		}
	})
}

func TestReadInvalidUTF8(t *testing.T) {
	// Raw invalid bytes inside a JSON string: encoding/json replaces them,
	// the event still counts. In a plain line they are replaced on output.
	line := `{"Action":"output","Package":"example.com/m","Test":"TestA","Output":"caf` + "\xe9\xff" + `\n"}`
	r := mustRead(t, stream(ev(ActionRun, "TestA"), line, "plain \xc3\x28 text"))
	if r.Events != 2 || r.PlainLines != 1 {
		t.Fatalf("events %d plain %d, want 2 1", r.Events, r.PlainLines)
	}
	got := r.Packages[testPkg].Tests["TestA"].Output.Text
	if !utf8.ValidString(got) || !strings.HasPrefix(got, "caf") {
		t.Errorf("test output = %q", got)
	}
	if !utf8.ValidString(r.PlainOutput.Text) || !strings.Contains(r.PlainOutput.Text, "\uFFFD") {
		t.Errorf("plain = %q, want valid UTF-8 with a replacement", r.PlainOutput.Text)
	}
}

func TestReadOutputIsBounded(t *testing.T) {
	lines := []string{ev(ActionRun, "TestA")}
	for range 10 {
		lines = append(lines, out("TestA", "0123456789\n"))
	}
	lines = append(lines, out("TestA", "é\n")) // two bytes: must not be split
	r, err := ReadLimited(strings.NewReader(stream(lines...)), Limits{MaxOutputBytes: 34})
	if err != nil {
		t.Fatal(err)
	}
	o := r.Packages[testPkg].Tests["TestA"].Output
	if o.Text != strings.Repeat("0123456789\n", 3)+"0" || o.DroppedBytes != int64(110+3-34) {
		t.Errorf("output %q dropped %d", o.Text, o.DroppedBytes)
	}

	var bt boundedText
	bt.append([]byte("ab"), 3)
	bt.append([]byte("é"), 3) // would end mid-sequence: dropped whole
	bt.append([]byte("c"), 3) // after a drop nothing is kept
	if got := bt.output(); got.Text != "ab" || got.DroppedBytes != 3 {
		t.Errorf("boundedText = %+v, want ab and 3 dropped", got)
	}
	var junk boundedText
	junk.append(bytes.Repeat([]byte{0x80}, 10), 4) // continuation bytes only
	if got := junk.output(); got.DroppedBytes != 6 || got.Text != "\uFFFD" {
		t.Errorf("junk = %+v, want U+FFFD and 6 dropped", got)
	}
}

func TestReadBuildEvents(t *testing.T) {
	r := mustRead(t, stream(
		`{"ImportPath":"example.com/m/dep","Action":"build-output","Output":"# example.com/m/dep\n"}`,
		`{"ImportPath":"example.com/m/dep","Action":"build-output","Output":"dep/dep.go:3:23: cannot use \"x\"\n"}`,
		`{"ImportPath":"example.com/m/dep","Action":"build-fail"}`,
		`{"ImportPath":"example.com/m/ok","Action":"build-output","Output":"warning\n"}`,
		ev(ActionStart, ""),
		out("", "FAIL\texample.com/m [build failed]\n"),
		`{"Action":"fail","Package":"example.com/m","Elapsed":0,"FailedBuild":"example.com/m/dep"}`,
	))
	if got := r.FailedBuilds(); len(got) != 1 || got[0] != "example.com/m/dep" {
		t.Errorf("failed builds = %q", got)
	}
	if got := r.BuildPaths(); len(got) != 2 || got[0] != "example.com/m/dep" || got[1] != "example.com/m/ok" {
		t.Errorf("builds = %q", got)
	}
	if want := "# example.com/m/dep\ndep/dep.go:3:23: cannot use \"x\"\n"; r.Builds["example.com/m/dep"].Output.Text != want {
		t.Errorf("build output = %q", r.Builds["example.com/m/dep"].Output.Text)
	}
	p := r.Packages[testPkg]
	if p.FailedBuild != "example.com/m/dep" || !p.BuildFailedText || p.Final() != ActionFail || !p.ElapsedReported {
		t.Errorf("package = %+v", p)
	}
	if len(r.Packages) != 1 {
		t.Errorf("build events made packages: %q", r.PackagePaths())
	}
}

func TestReadTracksContradictions(t *testing.T) {
	r := mustRead(t, stream(
		ev(ActionStart, ""),
		ev(ActionPass, "TestGhost"), // printed "--- PASS" before any test
		ev(ActionRun, "TestA"),
		ev(ActionPass, "TestA"),
		ev(ActionFail, "TestA"),
		out("TestA", "late\n"),
		ev(ActionRun, "TestB"),
		ev(ActionRun, "TestB"),
		ev(ActionRun, "TestC"),
		ev(ActionPause, "TestC"),
		ev(ActionRun, "TestD"),
		ev(ActionSkip, "TestD"),
		ev(ActionRun, "TestE"),
		ev(ActionFail, "TestE"),
		ev(ActionRun, "TestF"),
		ev(ActionPass, "TestF"),
		ev(ActionRun, "BenchmarkG"),
		ev(ActionBench, "BenchmarkG"),
		ev("frobnicate", "TestF"),
		ev(ActionFail, ""),
		ev(ActionPass, ""),
		out("", "late\n"),
	))
	p := r.Packages[testPkg]
	check := map[string]Result{
		"TestGhost": ResultInconsistent, "TestA": ResultInconsistent, "TestB": ResultInconsistent,
		"TestC": ResultNone, "TestD": ResultSkip, "TestE": ResultFail, "TestF": ResultInconsistent,
		"BenchmarkG": ResultBench,
	}
	for name, want := range check {
		if got := p.Tests[name].Result(); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if ghost := p.Tests["TestGhost"]; !ghost.FinalWithoutRun {
		t.Errorf("TestGhost: FinalWithoutRun not set")
	}
	if a := p.Tests["TestA"]; len(a.Finals) != 2 || a.EventsAfterFinal != 2 || a.Final() != ActionPass {
		t.Errorf("TestA finals %v after %d", a.Finals, a.EventsAfterFinal)
	}
	if p.Finals[0] != ActionFail || len(p.Finals) != 2 || p.EventsAfterFinal != 2 {
		t.Errorf("package finals %v after %d", p.Finals, p.EventsAfterFinal)
	}
	if r.UnknownActions != 1 {
		t.Errorf("unknown actions = %d, want 1", r.UnknownActions)
	}
	want := Counts{Tests: 8, Run: 4, Failed: 1, Skipped: 1, Unfinished: 1, Benchmarks: 1, Inconsistent: 4}
	if p.Counts != want {
		t.Errorf("counts = %+v, want %+v", p.Counts, want)
	}
}

func TestReadMarkers(t *testing.T) {
	tests := []struct {
		name                          string
		lines                         []string
		noTests, timedOut, buildFails bool
	}{
		{"no tests warning", []string{out("", "testing: warning: no tests to run\n")}, true, false, false},
		{"no tests warning in a test", []string{out("TestGhost", "testing: warning: no tests to run\n")}, true, false, false},
		{"ok line", []string{out("", "ok  \texample.com/m\t0.002s [no tests to run]\n")}, true, false, false},
		{"timeout", []string{out("TestA", "panic: test timed out after 2s\n")}, false, true, false},
		{"build failed", []string{out("", "FAIL\texample.com/m [build failed]\n")}, false, false, true},
		{"setup failed", []string{out("", "FAIL\t./nope [setup failed]\n")}, false, false, true},
		{"build failed text in a test is not cmd/go's", []string{out("TestA", "FAIL\texample.com/m [build failed]\n")}, false, false, false},
		{"ok line in a test is not cmd/go's", []string{out("TestA", "ok  \texample.com/m\t0.002s [no tests to run]\n")}, false, false, false},
		{"mid-line is not a line start", []string{out("TestA", "xxx"), out("TestA", "panic: test timed out after 2s\n")}, false, false, false},
		{"after a finished line", []string{out("TestA", "xxx\n"), out("TestA", "panic: test timed out after 2s\n")}, false, true, false},
		{"indented", []string{out("TestA", "    panic: test timed out after 2s\n")}, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustRead(t, stream(tt.lines...)).Packages[testPkg]
			if p.NoTestsToRun != tt.noTests || p.TimedOut != tt.timedOut || p.BuildFailedText != tt.buildFails {
				t.Errorf("NoTestsToRun %v TimedOut %v BuildFailedText %v, want %v %v %v",
					p.NoTestsToRun, p.TimedOut, p.BuildFailedText, tt.noTests, tt.timedOut, tt.buildFails)
			}
		})
	}
}

func TestReadElapsed(t *testing.T) {
	tests := []struct {
		field    string
		want     time.Duration
		reported bool
	}{
		{``, 0, false},
		{`,"Elapsed":null`, 0, false},
		{`,"Elapsed":0`, 0, true},
		{`,"Elapsed":1.5`, 1500 * time.Millisecond, true},
		{`,"Elapsed":-1`, 0, false},
		{`,"Elapsed":1e300`, 0, false},
	}
	for _, tt := range tests {
		r := mustRead(t, stream(`{"Action":"pass","Package":"p","Test":"TestA"`+tt.field+`}`))
		if r.Events != 1 {
			t.Errorf("%q: not an event", tt.field)
			continue
		}
		ta := r.Packages["p"].Tests["TestA"]
		if ta.Elapsed != tt.want || ta.ElapsedReported != tt.reported {
			t.Errorf("%q: elapsed %v reported %v, want %v %v", tt.field, ta.Elapsed, ta.ElapsedReported, tt.want, tt.reported)
		}
	}
}

func TestReadUnknownFieldsAndNulls(t *testing.T) {
	// A field a later Go adds must not turn events into plain output.
	r := mustRead(t, stream(
		`{"Time":"2026-11-29T22:46:41.35415523Z","Action":"run","Package":"example.com/m","Test":"TestA","Future":{"x":[1,2]}}`,
		`{"Action":"attr","Package":"example.com/m","Test":"TestA","Key":"k","Value":"v"}`,
		`{"Action":"pass","Package":"example.com/m","Test":"TestA","Output":null,"FailedBuild":null}`,
	))
	if r.Events != 3 || r.Packages[testPkg].Tests["TestA"].Result() != ResultPass {
		t.Errorf("events %d, TestA %v", r.Events, r.Packages[testPkg].Tests["TestA"].Result())
	}
}

func TestReadReaderError(t *testing.T) {
	boom := errors.New("boom")
	partial := strings.NewReader(stream(passingRun("TestA")[:3]...))
	r, err := Read(io.MultiReader(partial, iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if r == nil || r.Packages[testPkg].Tests["TestA"] == nil {
		t.Errorf("partial report not returned: %+v", r)
	}
	if !strings.Contains(err.Error(), "after line 3") {
		t.Errorf("error lacks context: %v", err)
	}
}

func TestResultAndKindStrings(t *testing.T) {
	results := map[Result]string{
		ResultNone: "none", ResultPass: "pass", ResultFail: "fail", ResultSkip: "skip",
		ResultBench: "bench", ResultInconsistent: "inconsistent", Result(99): "unknown",
	}
	for r, want := range results {
		if r.String() != want {
			t.Errorf("Result(%d) = %q, want %q", r, r.String(), want)
		}
	}
	kinds := map[OutcomeKind]string{
		OutcomeInconsistent: "INCONSISTENT", OutcomePass: "PASS", OutcomeFail: "FAIL",
		OutcomeSkipped: "SKIPPED", OutcomeNotRun: "NOT_RUN", OutcomeBuildFailed: "BUILD_FAILED",
		OutcomeHarnessDied: "HARNESS_DIED", OutcomeKind(99): "OutcomeKind(99)",
	}
	for k, want := range kinds {
		if k.String() != want {
			t.Errorf("OutcomeKind(%d) = %q, want %q", k, k.String(), want)
		}
	}
	terms := map[Termination]string{
		TerminationUnknown: "unknown", TerminationExited: "exited", TerminationTimeout: "timeout",
		TerminationSignal: "signal", TerminationOutOfMemory: "out-of-memory", Termination(99): "Termination(99)",
	}
	for term, want := range terms {
		if term.String() != want {
			t.Errorf("Termination(%d) = %q, want %q", term, term.String(), want)
		}
	}
	if got := (Outcome{OutcomePass, "why"}).String(); got != "PASS: why" {
		t.Errorf("Outcome.String = %q", got)
	}
	var zero Outcome
	if zero.Kind == OutcomePass {
		t.Errorf("the zero Outcome is a pass")
	}
}

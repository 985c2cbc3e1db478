package gotest

import (
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/executor/jobs"
)

// replace returns lines with the line at i replaced by with (nothing if
// with is empty).
func replace(lines []string, i int, with ...string) []string {
	return slices.Concat(lines[:i], with, lines[i+1:])
}

func TestVerdict(t *testing.T) {
	pass := passingRun("TestA")
	const lastLine = 7 // index of the package's final event in passingRun
	fail := []string{
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"),
		out("TestA", "=== RUN   TestA\n"),
		out("TestA", "    a_test.go:10: boom\n"),
		out("TestA", "--- FAIL: TestA (0.00s)\n"),
		ev(ActionFail, "TestA"),
		out("", "FAIL\n"),
		ev(ActionFail, ""),
	}
	withSubtests := []string{
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"),
		ev(ActionRun, "TestA/one"),
		ev(ActionPass, "TestA/one"),
		ev(ActionRun, "TestA/two"),
		ev(ActionSkip, "TestA/two"),
		ev(ActionPass, "TestA"),
		ev(ActionPass, ""),
	}
	buildFailed := []string{
		`{"ImportPath":"example.com/m [example.com/m.test]","Action":"build-output","Output":"./a_test.go:5:40: undefined: x\n"}`,
		`{"ImportPath":"example.com/m [example.com/m.test]","Action":"build-fail"}`,
		ev(ActionStart, ""),
		out("", "FAIL\texample.com/m [build failed]\n"),
		`{"Action":"fail","Package":"example.com/m","Elapsed":0,"FailedBuild":"example.com/m [example.com/m.test]"}`,
	}
	timedOut := []string{
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"),
		out("TestA", "=== RUN   TestA\n"),
		out("TestA", "panic: test timed out after 2s\n"),
		out("TestA", "\trunning tests:\n"),
		out("", "FAIL\texample.com/m\t2.011s\n"),
		ev(ActionFail, ""),
	}

	tests := []struct {
		name        string
		lines       []string
		test        string
		exit        int
		termination Termination
		want        OutcomeKind
		reason      string // a substring the reason must contain
	}{
		{"pass", pass, "TestA", 0, TerminationExited, OutcomePass, `pass event for "TestA" in "example.com/m"`},
		{"pass with exit 1", pass, "TestA", 1, TerminationExited, OutcomeInconsistent, "exit 1"},
		{"pass with package fail", replace(pass, lastLine, ev(ActionFail, "")), "TestA", 0, TerminationExited, OutcomeInconsistent, "package fail"},
		{"pass without a start event", replace(pass, 0), "TestA", 0, TerminationExited, OutcomeInconsistent, "no start event"},
		{"pass with package never finished", pass[:lastLine], "TestA", 0, TerminationExited, OutcomeInconsistent, "package never finished"},
		{"pass after no tests to run", replace(pass, 5, out("", "testing: warning: no tests to run\n")), "TestA", 0, TerminationExited, OutcomeInconsistent, "no tests matched"},
		{"pass with timeout alarm", replace(pass, 5, out("", "panic: test timed out after 1s\n")), "TestA", 0, TerminationExited, OutcomeInconsistent, "-timeout"},

		{"fail", fail, "TestA", 1, TerminationExited, OutcomeFail, `fail event for "TestA"`},
		{"fail with exit 0", fail, "TestA", 0, TerminationExited, OutcomeInconsistent, "exit 0"},
		{"fail with package pass", replace(fail, 7, ev(ActionPass, "")), "TestA", 1, TerminationExited, OutcomeInconsistent, "package pass"},
		{"skip", replace(pass, 4, ev(ActionSkip, "TestA")), "TestA", 0, TerminationExited, OutcomeSkipped, `skip event for "TestA"`},

		{"no tests to run", []string{
			ev(ActionStart, ""),
			out("", "testing: warning: no tests to run\n"),
			out("", "PASS\n"),
			out("", "ok  \texample.com/m\t0.002s [no tests to run]\n"),
			ev(ActionPass, ""),
		}, "TestA", 0, TerminationExited, OutcomeNotRun, "no tests matched"},
		{"TestMain exits 0 without running tests", []string{
			ev(ActionStart, ""),
			out("", "ok  \texample.com/m\t0.002s\n"),
			ev(ActionPass, ""),
		}, "TestA", 0, TerminationExited, OutcomeNotRun, `no event for "TestA"`},
		{"other package only", []string{evIn("example.com/n", ActionRun, "TestA", ""), evIn("example.com/n", ActionPass, "TestA", ""), evIn("example.com/n", ActionPass, "", "")},
			"TestA", 0, TerminationExited, OutcomeNotRun, `no events for package "example.com/m" (packages in the stream: "example.com/n")`},
		{"empty stream", nil, "TestA", 0, TerminationExited, OutcomeNotRun, "packages in the stream: none"},
		{"init panics before tests", []string{ev(ActionStart, ""), out("", "panic: boom\n"), out("", "FAIL\texample.com/m\t0.01s\n"), ev(ActionFail, "")},
			"TestA", 1, TerminationExited, OutcomeNotRun, "package fail, exit 1"},

		{"build failed", buildFailed, "TestA", 1, TerminationExited, OutcomeBuildFailed, `failed build "example.com/m [example.com/m.test]"`},
		{"build failed, no package events", buildFailed[:2], "TestA", 1, TerminationExited, OutcomeBuildFailed, `build-fail event for "example.com/m [example.com/m.test]"`},
		{"build failed in text only", []string{"./a_test.go:5:40: undefined: x", ev(ActionStart, ""), out("", "FAIL\texample.com/m [build failed]\n"), ev(ActionFail, "")},
			"TestA", 1, TerminationExited, OutcomeBuildFailed, `[build failed] or [setup failed] line for "example.com/m"`},
		{"build failed text printed by a failing test", slices.Concat(fail[:5], []string{out("", "FAIL\texample.com/m [build failed]\n")}, fail[5:]),
			"TestA", 1, TerminationExited, OutcomeFail, "fail event"},
		{"another build failed, yet the claim passed", slices.Concat([]string{`{"ImportPath":"example.com/other","Action":"build-fail"}`}, pass),
			"TestA", 0, TerminationExited, OutcomeInconsistent, `build-fail event for "example.com/other", yet "TestA" has events`},
		{"build failed yet the test has events", slices.Concat(buildFailed[:4], []string{ev(ActionRun, "TestA"), ev(ActionPass, "TestA")}, buildFailed[4:]),
			"TestA", 0, TerminationExited, OutcomeInconsistent, `yet "TestA" has events`},

		{"caller timeout", pass, "TestA", -1, TerminationTimeout, OutcomeHarnessDied, "killed (timeout)"},
		{"caller signal", pass, "TestA", -1, TerminationSignal, OutcomeHarnessDied, "killed (signal)"},
		{"caller OOM", pass, "TestA", 137, TerminationOutOfMemory, OutcomeHarnessDied, "out-of-memory"},
		{"termination not recorded", pass, "TestA", 0, TerminationUnknown, OutcomeHarnessDied, "not recorded"},
		{"exited with -1", pass, "TestA", -1, TerminationExited, OutcomeHarnessDied, "exit code -1"},
		{"test binary timeout", timedOut, "TestA", 1, TerminationExited, OutcomeHarnessDied, `alarm fired while "TestA" ran`},
		{"test binary timeout before the test", []string{ev(ActionStart, ""), out("", "panic: test timed out after 2s\n"), ev(ActionFail, "")}, "TestA", 1, TerminationExited, OutcomeHarnessDied, `alarm fired before "TestA" started`},

		{"started, process exited 1", replace(timedOut, 3, out("TestA", "exit status 1\n")), "TestA", 1, TerminationExited, OutcomeFail, "exited 1 before it finished"},
		{"started, never finished, exit 0", replace(pass, 4), "TestA", 0, TerminationExited, OutcomeInconsistent, "never finished, yet exit 0"},

		{"two finals", slices.Insert(slices.Clone(fail), 6, ev(ActionPass, "TestA")), "TestA", 1, TerminationExited, OutcomeInconsistent, "2 final events (fail, pass)"},
		{"event after final", slices.Insert(slices.Clone(pass), 5, out("TestA", "late\n")), "TestA", 0, TerminationExited, OutcomeInconsistent, "1 events after its final pass"},
		{"final without run", replace(pass, 1), "TestA", 0, TerminationExited, OutcomeInconsistent, "no run event"},
		{"two runs", slices.Insert(slices.Clone(pass), 1, ev(ActionRun, "TestA")), "TestA", 0, TerminationExited, OutcomeInconsistent, "2 run events"},
		{"bench final", replace(pass, 4, ev(ActionBench, "TestA")), "TestA", 0, TerminationExited, OutcomeInconsistent, "bench event"},
		{"package started twice", slices.Insert(slices.Clone(pass), 1, ev(ActionStart, "")), "TestA", 0, TerminationExited, OutcomeInconsistent, "started 2 times"},
		{"package finished twice", append(slices.Clone(pass), ev(ActionPass, "")), "TestA", 0, TerminationExited, OutcomeInconsistent, "2 final events"},
		{"package event after final", append(slices.Clone(pass), out("", "late\n")), "TestA", 0, TerminationExited, OutcomeInconsistent, "events after its final"},

		{"forged pass for another test inside the claim", slices.Insert(slices.Clone(pass), 3, ev(ActionPass, "TestGhost")),
			"TestA", 0, TerminationExited, OutcomeInconsistent, `event for "TestGhost", which -run "^TestA$" does not select`},
		{"claim on a forged name in another test's run", slices.Insert(slices.Clone(pass), 3, ev(ActionRun, "TestGhost"), ev(ActionPass, "TestGhost")),
			"TestGhost", 0, TerminationExited, OutcomeInconsistent, `event for "TestA", which -run "^TestGhost$" does not select`},

		{"subtests pass and skip", withSubtests, "TestA", 0, TerminationExited, OutcomePass, "pass event"},
		{"subtest failed yet parent passed", replace(withSubtests, 5, ev(ActionFail, "TestA/two")), "TestA", 0, TerminationExited, OutcomeInconsistent, `subtest "TestA/two" is fail`},
		{"subtest never finished yet parent passed", replace(withSubtests, 5), "TestA", 0, TerminationExited, OutcomeInconsistent, `subtest "TestA/two" is none`},
		{"subtest claim", slices.Delete(slices.Clone(withSubtests), 4, 6), "TestA/one", 0, TerminationExited, OutcomePass, `pass event for "TestA/one"`},
		{"subtest claim, sibling is outside", withSubtests, "TestA/one", 0, TerminationExited, OutcomeInconsistent, `event for "TestA/two"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			report := mustRead(t, stream(tt.lines...))
			got := Verdict(report, testPkg, tt.test, tt.exit, tt.termination)
			if got.Kind != tt.want {
				t.Errorf("Verdict = %v, want %v", got, tt.want)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("reason %q does not name %q", got.Reason, tt.reason)
			}
			if strings.ContainsAny(got.Reason, "\r\n") || got.Reason == "" {
				t.Errorf("reason is not one line: %q", got.Reason)
			}
		})
	}
}

func TestVerdictBadInput(t *testing.T) {
	if got := Verdict(nil, testPkg, "TestA", 0, TerminationExited); got.Kind != OutcomeInconsistent {
		t.Errorf("nil report: %v", got)
	}
	report := mustRead(t, stream(passingRun("TestA")...))
	if got := Verdict(report, testPkg, "", 0, TerminationExited); got.Kind != OutcomeInconsistent {
		t.Errorf("empty test name: %v", got)
	}
	// Names from outside go into the reason quoted, so it stays one line.
	got := Verdict(report, "example.com/m\nPASS", "TestA\nok", 0, TerminationExited)
	if got.Kind != OutcomeNotRun || strings.Contains(got.Reason, "\n") {
		t.Errorf("multi-line names: %v", got)
	}
}

func TestVerdictFamily(t *testing.T) {
	tests := []struct {
		claim, name string
		want        bool
	}{
		{"TestA", "TestA", true},
		{"TestA", "TestA/sub", true},
		{"TestA", "TestA/sub/deeper", true},
		{"TestA", "TestAB", false},
		{"TestA", "TestA_sub", false},
		{"TestA/sub", "TestA", true},
		{"TestA/sub", "TestA/sub/x", true},
		{"TestA/sub", "TestA/other", false},
		{"TestA/sub", "TestA/subway", false},
	}
	for _, tt := range tests {
		if got := (testFamily{names: []string{tt.claim}}).contains(tt.name); got != tt.want {
			t.Errorf("family of %q contains %q = %v, want %v", tt.claim, tt.name, got, tt.want)
		}
	}
}

func TestSuiteResults(t *testing.T) {
	report := mustRead(t, stream(
		evIn("example.com/a", ActionStart, "", ""),
		evIn("example.com/a", ActionRun, "TestP", ""),
		evIn("example.com/a", ActionPass, "TestP", ""),
		evIn("example.com/a", ActionRun, "TestF", ""),
		evIn("example.com/a", ActionRun, "TestF/sub", ""),
		evIn("example.com/a", ActionFail, "TestF/sub", ""),
		evIn("example.com/a", ActionFail, "TestF", ""),
		evIn("example.com/a", ActionRun, "TestS", ""),
		evIn("example.com/a", ActionSkip, "TestS", ""),
		evIn("example.com/a", ActionPass, "TestGhost", ""), // printed, never run
		evIn("example.com/b", ActionStart, "", ""),
		evIn("example.com/b", ActionRun, "TestHang", ""),
		evIn("example.com/a", ActionFail, "", ""),
		evIn("example.com/b", ActionFail, "", ""),
	))
	got := SuiteResults(report)
	want := map[string]Result{
		"example.com/a.TestP":     ResultPass,
		"example.com/a.TestF":     ResultFail,
		"example.com/a.TestF/sub": ResultFail,
		"example.com/a.TestS":     ResultSkip,
		"example.com/a.TestGhost": ResultInconsistent,
		"example.com/b.TestHang":  ResultNone,
	}
	if len(got) != len(want) {
		t.Errorf("got %d results, want %d: %v", len(got), len(want), got)
	}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%s = %v, want %v", key, got[key], w)
		}
	}
	if len(SuiteResults(nil)) != 0 {
		t.Errorf("nil report has results")
	}

	// Two tests meeting on one key with different results: neither wins.
	colliding := mustRead(t, stream(
		evIn("a.b", ActionRun, "TestC", ""), evIn("a.b", ActionPass, "TestC", ""),
		evIn("a", ActionRun, "b.TestC", ""), evIn("a", ActionFail, "b.TestC", ""),
	))
	if got := SuiteResults(colliding); len(got) != 1 || got["a.b.TestC"] != ResultInconsistent {
		t.Errorf("colliding keys = %v, want a.b.TestC inconsistent", got)
	}
}

func TestVerdictInSelection(t *testing.T) {
	// A prerequisite runs every baseline test of a file in one process:
	// each is judged on its own events, the others' are no forgery.
	both := stream(
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"), ev(ActionPass, "TestA"),
		ev(ActionRun, "TestB"), ev(ActionRun, "TestB/x"), ev(ActionPass, "TestB/x"), ev(ActionPass, "TestB"),
		out("", "PASS\n"), ev(ActionPass, ""),
	)
	oneFails := stream(
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"), ev(ActionPass, "TestA"),
		ev(ActionRun, "TestB"), ev(ActionFail, "TestB"),
		out("", "FAIL\n"), ev(ActionFail, ""),
	)
	forged := stream(
		ev(ActionStart, ""),
		ev(ActionRun, "TestA"), ev(ActionPass, "TestA"),
		ev(ActionRun, "TestB"), ev(ActionPass, "TestB"),
		ev(ActionRun, "TestC"), ev(ActionPass, "TestC"),
		out("", "PASS\n"), ev(ActionPass, ""),
	)
	sel := []string{"TestA", "TestB"}
	for _, c := range []struct {
		name, stream, test string
		exit               int
		want               OutcomeKind
	}{
		{"both pass: A", both, "TestA", 0, OutcomePass},
		{"both pass: B", both, "TestB", 0, OutcomePass},
		{"B fails: A still passed", oneFails, "TestA", 1, OutcomePass},
		{"B fails: B", oneFails, "TestB", 1, OutcomeFail},
		{"A's pass with exit 1 and nothing failed", both, "TestA", 1, OutcomeInconsistent},
		{"an unselected test's events", forged, "TestA", 0, OutcomeInconsistent},
		{"judging an unselected test", both, "TestC", 0, OutcomeInconsistent},
	} {
		got := VerdictIn(mustRead(t, c.stream), testPkg, c.test, sel, c.exit, TerminationExited)
		if got.Kind != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Alone, the old rule holds: another test's events are forged framing.
	if got := Verdict(mustRead(t, both), testPkg, "TestA", 0, TerminationExited); got.Kind != OutcomeInconsistent {
		t.Errorf("TestA judged alone in a two-test stream: %v", got)
	}
}

// TestNoTestsMatched: the adjudicator reads this phrase in an unrunnable
// claim's reason (a subtest only the patch's test files hold).
func TestNoTestsMatched(t *testing.T) {
	if noTestsMatched != jobs.NoTestsMatched || noTestsNote(&Package{NoTestsToRun: true}) != "; "+jobs.NoTestsMatched {
		t.Fatalf("gotest says %q, jobs.NoTestsMatched is %q", noTestsMatched, jobs.NoTestsMatched)
	}
}

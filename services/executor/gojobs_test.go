package executor

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/executor/gotest"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// TestTestTypeError: a test file the compiler rejects is the patch's doing;
// a module, package, checksum or process problem could be the
// environment's, and an error in a non-test file is not a test's build.
func TestTestTypeError(t *testing.T) {
	for cause, want := range map[string]bool{
		"the test build of example.com/jwt failed (EXITED, exit 1): parser_test.go:12:5: undefined: splitToken":                     true,
		"the test build of x failed (EXITED, exit 1): a/b_test.go:3:9: not enough arguments in call to f; a/b_test.go:4:2: x":       true,
		"the test build of x failed (EXITED, exit 1): parser.go:12:5: undefined: splitToken":                                        false,
		"the test build of x failed (EXITED, exit 1): x_test.go:5:2: no required module provides package example.com/m":             false,
		"the test build of x failed (EXITED, exit 1): x_test.go:5:2: could not import example.com/m (open : no such file)":          false,
		"the test build of x failed (SIGNALED, exit -1): signal: killed":                                                            false,
		"the test build of x failed (EXITED, exit 1): go: updates to go.mod needed; x_test.go:1:1: expected 'package', found 'EOF'": false,
		"": false,
	} {
		if got := testTypeError(cause); got != want {
			t.Errorf("testTypeError(%q) = %v, want %v", cause, got, want)
		}
	}
}

// TestKeepSuiteRefusesWhatTheMachineMade: a baseline suite's pass or
// plain failure is kept; a failure with a build that failed, or a process
// that did not exit by itself, is not — the machine's load could have made
// it, and every later run against the baseline would read it red.
func TestKeepSuiteRefusesWhatTheMachineMade(t *testing.T) {
	const key = "0123456789abcdef0123456789abcdef"
	for name, tc := range map[string]struct {
		detail jobs.Detail
		kept   bool
	}{
		"a pass":          {jobs.Detail{Outcome: jobs.OutcomePass, Reason: "exit 0, 5 tests in 1 packages"}, true},
		"a test failed":   {jobs.Detail{Outcome: jobs.OutcomeFail, Reason: "exit 1, 1 of 5 tests failed", Runs: []jobs.Run{{Verdict: "FAIL", Termination: "EXITED"}}}, true},
		"a build failed":  {jobs.Detail{Outcome: jobs.OutcomeFail, Reason: "the test build of example.com/calc failed (TIMEOUT, exit -1): no message"}, false},
		"a run timed out": {jobs.Detail{Outcome: jobs.OutcomeFail, Reason: "exit 1", Runs: []jobs.Run{{Verdict: "FAIL", Termination: "TIMEOUT"}}}, false},
		"a timeout":       {jobs.Detail{Outcome: jobs.OutcomeTimeout}, false},
	} {
		t.Run(name, func(t *testing.T) {
			e := &Executor{SuiteCache: t.TempDir()}
			e.keepSuite(key, &Answer{Detail: tc.detail})
			if got := e.cachedSuite(t.Context(), key) != nil; got != tc.kept {
				t.Fatalf("kept %v, want %v", got, tc.kept)
			}
		})
	}
}

// TestSuiteCasesListSubtests: a suite run lists its subtests beside their
// top-level tests, up to maxSuiteSubtests; past it, only the top-level
// tests, and how many subtests were left out.
func TestSuiteCasesListSubtests(t *testing.T) {
	stream := func(subtests int) *gotest.Report {
		var b strings.Builder
		ev := func(action, test string) {
			fmt.Fprintf(&b, `{"Action":%q,"Package":"m/units","Test":%q}`+"\n", action, test)
		}
		ev("run", "TestToMeters")
		for i := range subtests {
			name := fmt.Sprintf("TestToMeters/u%d", i)
			ev("run", name)
			if i == 0 {
				ev("skip", name)
			} else {
				ev("pass", name)
			}
		}
		ev("pass", "TestToMeters")
		ev("run", "TestRound")
		ev("pass", "TestRound")
		fmt.Fprintf(&b, `{"Action":"pass","Package":"m/units"}`+"\n")
		r, err := gotest.Read(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases, unlisted := suiteCases(stream(2))
	want := []jobs.Case{{Name: "m/units.TestRound", Outcome: "pass"}, {Name: "m/units.TestToMeters", Outcome: "pass"},
		{Name: "m/units.TestToMeters/u0", Outcome: "skip"}, {Name: "m/units.TestToMeters/u1", Outcome: "pass"}}
	if !slices.Equal(cases, want) || unlisted != 0 {
		t.Fatalf("cases %v (unlisted %d), want %v", cases, unlisted, want)
	}
	cases, unlisted = suiteCases(stream(maxSuiteSubtests + 1))
	if len(cases) != 2 || unlisted != maxSuiteSubtests+1 {
		t.Fatalf("over the bound: %d cases, %d unlisted; want the 2 top-level tests and %d unlisted", len(cases), unlisted, maxSuiteSubtests+1)
	}
}

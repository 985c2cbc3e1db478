// Package gotest reads the output of `go test -json` and judges, from that
// output and the process's exit status alone, whether a claimed test passed.
//
// It exists because the stream is written by the code under test as much as
// by the toolchain. A test can print text that looks like an event, and
// test2json turns some printed lines ("\x16--- PASS: TestX", or an unmarked
// "--- PASS: TestX" printed before the first test starts) into real events
// for tests that do not exist. So:
//   - only whole lines of the stream that are exactly a JSON event count;
//     JSON inside an Output field never does;
//   - a claimed test passes only on a pass event for exactly its name in
//     exactly its package, a package pass, exit status 0, and nothing in the
//     stream that a healthy `go test -json -count=1 -run '^Name$'` could not
//     have produced (see Verdict). Everything else is a named outcome that is
//     not PASS.
//
// What the stream cannot tell: a TestMain or an init function of the package
// owns the test process's standard output before any test runs, and can
// print a complete, self-consistent transcript for a test that never ran,
// then os.Exit(0) without calling m.Run (TestE2EBoundaryTestMainTranscript).
// Catching that needs evidence from outside the stream, such as the claimed
// test's declaration in the package's test files. Likewise a process that
// can write to the go command's own standard output (/proc/<ppid>/fd/1)
// writes whole lines the reader cannot tell from cmd/go's: the sandbox must
// prevent it.
//
// The package is pure: bytes and exit statuses in, a report and outcomes out.
// It starts no process.
package gotest

import (
	"slices"
	"time"
)

// Output is text a test, a package or the build printed, bounded.
type Output struct {
	// Text is valid UTF-8 (invalid bytes are replaced with U+FFFD), at most
	// the reader's output limit long.
	Text string
	// DroppedBytes counts bytes beyond the limit that were not kept.
	DroppedBytes int64
}

// Result is how one test ended, as far as the stream tells.
type Result uint8

// The results. Only ResultPass is a pass; a caller comparing a baseline and
// a patch must treat every other result as "not passed".
const (
	// ResultNone: the test has events but no final one (it never finished:
	// the process died, timed out, or a sibling panicked).
	ResultNone Result = iota
	ResultPass
	ResultFail
	ResultSkip
	// ResultBench: a benchmark's "bench" report, not a test result.
	ResultBench
	// ResultInconsistent: the stream contradicts itself about this test
	// (several final events, events after the final one, several runs, or
	// a final event with no run before it). Real `go test -json -count=1`
	// streams never do this; forged framing lines do.
	ResultInconsistent
)

// String returns the lower-case name of r.
func (r Result) String() string {
	switch r {
	case ResultNone:
		return "none"
	case ResultPass:
		return "pass"
	case ResultFail:
		return "fail"
	case ResultSkip:
		return "skip"
	case ResultBench:
		return "bench"
	case ResultInconsistent:
		return "inconsistent"
	default:
		return "unknown"
	}
}

// Test is everything the stream said about one test or subtest.
type Test struct {
	// Name is the full name, subtests included: "TestA/sub".
	Name string
	// Runs counts run events: 1 in a healthy -count=1 run.
	Runs int
	// Finals lists the final actions (pass, fail, skip, bench) in stream
	// order. A healthy stream has at most one.
	Finals []string
	// FinalWithoutRun is set when a final event came before any run event:
	// the testing package always announces a test before reporting it, a
	// printed "--- PASS" line does not.
	FinalWithoutRun bool
	// EventsAfterFinal counts events of any action after the first final.
	EventsAfterFinal int
	// Elapsed is from the first final event; ElapsedReported tells an
	// absent (or invalid) field from 0.
	Elapsed         time.Duration
	ElapsedReported bool
	Output          Output
}

// Final returns the test's first final action, or "" when it has none.
func (t *Test) Final() string {
	if len(t.Finals) == 0 {
		return ""
	}
	return t.Finals[0]
}

// Result folds the test's events into one result; any contradiction is
// ResultInconsistent, never a guess.
func (t *Test) Result() Result {
	if t.Runs > 1 || len(t.Finals) > 1 || t.EventsAfterFinal > 0 || t.FinalWithoutRun {
		return ResultInconsistent
	}
	switch t.Final() {
	case "":
		return ResultNone
	case ActionPass:
		return ResultPass
	case ActionFail:
		return ResultFail
	case ActionSkip:
		return ResultSkip
	case ActionBench:
		return ResultBench
	default:
		return ResultInconsistent
	}
}

// Counts summarizes a package's tests. Every test name with an event is
// counted exactly once, subtests included, in exactly one of Passed,
// Failed, Skipped, Unfinished, Benchmarks and Inconsistent.
type Counts struct {
	Tests int
	// Run counts tests with a pass or fail among their final events, so
	// that "exit 0 with zero tests run" (empty green) is visible.
	Run          int
	Passed       int
	Failed       int
	Skipped      int
	Unfinished   int
	Benchmarks   int
	Inconsistent int
}

// Package is everything the stream said about one package's test run.
type Package struct {
	// ImportPath is the events' Package field ("" for events without one).
	ImportPath string
	// Starts counts start events: 1 per `go test` invocation.
	Starts int
	// Finals lists the package-level final actions in stream order; a
	// healthy stream has exactly one.
	Finals []string
	// EventsAfterFinal counts events for the package after its first final.
	EventsAfterFinal int
	// Elapsed is from the first final event; ElapsedReported tells an
	// absent (or invalid) field from 0.
	Elapsed         time.Duration
	ElapsedReported bool
	// FailedBuild is the package cmd/go named in the final fail event as
	// the cause of a build failure (Go ≥ 1.24 with JSON build output).
	FailedBuild string
	// BuildFailedText is set when cmd/go's plain "FAIL\t<pkg> [build
	// failed]" (or "[setup failed]") line was seen: the only sign of a
	// build failure under GODEBUG=gotestjsonbuildtext=1.
	BuildFailedText bool
	// NoTestsToRun is set when the test binary said -run matched nothing
	// ("testing: warning: no tests to run" or "ok … [no tests to run]").
	NoTestsToRun bool
	// TimedOut is set when the test binary reported its -timeout alarm
	// ("panic: test timed out after …").
	TimedOut bool
	// Output is the package-level output: events without a Test.
	Output Output
	// Tests maps full test names to what the stream said about them.
	Tests  map[string]*Test
	Counts Counts
}

// Final returns the package's first final action, or "" when it has none.
func (p *Package) Final() string {
	if len(p.Finals) == 0 {
		return ""
	}
	return p.Finals[0]
}

// TestNames returns the package's test names, sorted.
func (p *Package) TestNames() []string {
	return sortedKeys(p.Tests)
}

// Build is the output of building one package, from build-output and
// build-fail events (Go ≥ 1.24).
type Build struct {
	// ImportPath is as cmd/go reports it, e.g. "example.com/m
	// [example.com/m.test]" for a package's test variant.
	ImportPath string
	Failed     bool
	Output     Output
}

// Report is what one test2json stream said.
type Report struct {
	// Packages maps the events' Package field to that package's run.
	Packages map[string]*Package
	// Builds maps ImportPath to build output and failure.
	Builds map[string]*Build
	// PlainOutput holds the lines that are not events (build errors printed as
	// text, toolchain messages, a truncated last line), bounded.
	PlainOutput Output

	// Lines counts every line read; Events the lines that were events;
	// PlainLines the rest. OverlongLines counts lines longer than the line
	// limit, which are kept as plain output and never parsed.
	Lines         int
	Events        int
	PlainLines    int
	OverlongLines int
	// UnknownActions counts events whose action this package does not
	// know; they decide nothing.
	UnknownActions int
}

// PackagePaths returns the import paths of the packages, sorted.
func (r *Report) PackagePaths() []string {
	return sortedKeys(r.Packages)
}

// BuildPaths returns the import paths of the builds, sorted.
func (r *Report) BuildPaths() []string {
	return sortedKeys(r.Builds)
}

// FailedBuilds returns the import paths of the builds that failed, sorted.
func (r *Report) FailedBuilds() []string {
	var failed []string
	for _, path := range r.BuildPaths() {
		if r.Builds[path].Failed {
			failed = append(failed, path)
		}
	}
	return failed
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

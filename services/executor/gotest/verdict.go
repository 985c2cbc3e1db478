package gotest

import (
	"fmt"
	"slices"
	"strings"
)

// OutcomeKind is the closed set of answers Verdict gives about one claimed
// test. Only OutcomePass is a pass.
type OutcomeKind uint8

// The outcome kinds. The zero value is OutcomeInconsistent, so an Outcome
// nobody filled in is never a pass.
const (
	// OutcomeInconsistent: the evidence contradicts itself (a pass event
	// with a non-zero exit, two final events, events after the final one,
	// events for tests the run could not have run, …). Forgery looks like
	// this; so does a caller that passes the wrong stream.
	OutcomeInconsistent OutcomeKind = iota
	// OutcomePass: a pass event for exactly the test, its package passed,
	// exit 0, and nothing contradicts it.
	OutcomePass
	// OutcomeFail: the test failed (a fail event and a non-zero exit), or
	// it started and the test binary exited non-zero before it finished.
	OutcomeFail
	// OutcomeSkipped: the test skipped itself. Not a pass.
	OutcomeSkipped
	// OutcomeNotRun: no event for the test: -run matched nothing, TestMain
	// exited without running it, or the package never started.
	OutcomeNotRun
	// OutcomeBuildFailed: the package or a dependency did not build (or
	// vet failed), so nothing ran.
	OutcomeBuildFailed
	// OutcomeHarnessDied: the process was killed (deadline, signal, OOM,
	// as the caller observed) or the test binary's own -timeout fired.
	// Unrunnable, not failure.
	OutcomeHarnessDied
)

// String returns the upper-case name of k.
func (k OutcomeKind) String() string {
	switch k {
	case OutcomeInconsistent:
		return "INCONSISTENT"
	case OutcomePass:
		return "PASS"
	case OutcomeFail:
		return "FAIL"
	case OutcomeSkipped:
		return "SKIPPED"
	case OutcomeNotRun:
		return "NOT_RUN"
	case OutcomeBuildFailed:
		return "BUILD_FAILED"
	case OutcomeHarnessDied:
		return "HARNESS_DIED"
	default:
		return fmt.Sprintf("OutcomeKind(%d)", uint8(k))
	}
}

// Outcome is Verdict's answer: a kind and a one-line reason naming the
// evidence it rests on.
type Outcome struct {
	Kind   OutcomeKind
	Reason string
}

// String returns "KIND: reason".
func (o Outcome) String() string {
	return o.Kind.String() + ": " + o.Reason
}

// Termination is how the `go test` process ended, as the caller observed
// it. The stream cannot tell: a killed process simply stops writing.
type Termination uint8

// The terminations. The zero value is TerminationUnknown, which Verdict
// never takes for a clean exit.
const (
	TerminationUnknown Termination = iota
	// TerminationExited: the process exited by itself with the exit code
	// given.
	TerminationExited
	// TerminationTimeout: the caller's deadline killed the process.
	TerminationTimeout
	// TerminationSignal: a signal killed the process (rlimit kills
	// included).
	TerminationSignal
	// TerminationOutOfMemory: the memory limit killed the process.
	TerminationOutOfMemory
)

// String returns the lower-case name of t.
func (t Termination) String() string {
	switch t {
	case TerminationUnknown:
		return "unknown"
	case TerminationExited:
		return "exited"
	case TerminationTimeout:
		return "timeout"
	case TerminationSignal:
		return "signal"
	case TerminationOutOfMemory:
		return "out-of-memory"
	default:
		return fmt.Sprintf("Termination(%d)", uint8(t))
	}
}

// Verdict judges one claimed test from the report of a process that ran it
// alone — `go test -json -count=1 -run '^Name$' <pkg>` — with the exit code
// and termination the caller observed. pkg is the import path as it appears
// in the events' Package field; test is the full test name.
//
// Checks in order, first match wins:
//  1. the process did not exit by itself (or exited with a negative
//     code): HARNESS_DIED;
//  2. a build failure: BUILD_FAILED (INCONSISTENT if the test also has
//     events, since nothing runs when the build fails);
//  3. no events for the package: NOT_RUN;
//  4. the stream contradicts a single healthy run: several starts or
//     package finals, package events after its final, or events for a test
//     that -run '^Name$' cannot select: INCONSISTENT;
//  5. no event for the test: HARNESS_DIED if the test binary timed out,
//     NOT_RUN otherwise;
//  6. the test's own events contradict each other: INCONSISTENT;
//  7. the test's final action decides, against the exit code and the
//     package's final action: see the cases below.
func Verdict(report *Report, pkg, test string, exitCode int, termination Termination) Outcome {
	return VerdictIn(report, pkg, test, []string{test}, exitCode, termination)
}

// VerdictIn judges test from the report of a process that ran the tests
// selected — `-run '^(A|B|…)$'`, as a prerequisite job runs every baseline
// test of a file at once — as Verdict judges a test run alone: events for
// names outside the selection (and their subtests and parents) are forged
// framing, and a pass of test stands beside a failing package and a
// non-zero exit only when another selected test failed.
func VerdictIn(report *Report, pkg, test string, selected []string, exitCode int, termination Termination) Outcome {
	if report == nil {
		return Outcome{OutcomeInconsistent, "no report to judge"}
	}
	if test == "" {
		return Outcome{OutcomeInconsistent, "no test name to judge"}
	}
	if o, ok := judgeTermination(exitCode, termination); !ok {
		return o
	}
	p := report.Packages[pkg]
	if !slices.Contains(selected, test) {
		return Outcome{OutcomeInconsistent, fmt.Sprintf("%q is not among the tests the run selected", test)}
	}
	family := testFamily{names: selected}
	if o, ok := judgeBuild(report, p, pkg, family); !ok {
		return o
	}
	if p == nil {
		return Outcome{OutcomeNotRun, fmt.Sprintf("no events for package %q (packages in the stream: %s)",
			pkg, quotedList(report.PackagePaths(), 5))}
	}
	if o, ok := judgePackageStream(p, family); !ok {
		return o
	}
	t := p.Tests[test]
	if t == nil {
		if p.TimedOut {
			return Outcome{OutcomeHarnessDied, fmt.Sprintf("the test binary's -timeout alarm fired before %q started (exit %d)", test, exitCode)}
		}
		return Outcome{OutcomeNotRun, fmt.Sprintf("no event for %q in %q; package %s, exit %d%s",
			test, pkg, finalName(p.Final()), exitCode, noTestsNote(p))}
	}
	if o, ok := judgeTestStream(t); !ok {
		return o
	}
	return judgeFinal(p, t, exitCode, othersFailed(p, test))
}

// othersFailed reports whether a test of the run other than test (and its
// subtests and parents) failed: then the package fails and the process
// exits non-zero whatever test did.
func othersFailed(p *Package, test string) bool {
	own := testFamily{names: []string{test}}
	for _, name := range p.TestNames() {
		if !own.contains(name) && p.Tests[name].Final() == ActionFail {
			return true
		}
	}
	return false
}

// judgeTermination returns ok when the process exited by itself.
func judgeTermination(exitCode int, termination Termination) (Outcome, bool) {
	switch termination {
	case TerminationExited:
		if exitCode < 0 {
			// os/exec reports -1 for a process a signal killed.
			return Outcome{OutcomeHarnessDied, fmt.Sprintf("exit code %d: the process did not exit by itself", exitCode)}, false
		}
		return Outcome{}, true
	case TerminationUnknown:
		return Outcome{OutcomeHarnessDied, "how the process ended was not recorded"}, false
	default:
		return Outcome{OutcomeHarnessDied, fmt.Sprintf("the process was killed (%s), exit code %d", termination, exitCode)}, false
	}
}

// judgeBuild returns ok when nothing says a build failed. The FailedBuild
// field and build-fail events are written by cmd/go, never by a test, and
// a claim's run builds only what the claim needs: any failed build means it
// could not run. The plain "[build failed]" line a test could print too, so
// it is only believed when no test has an event.
func judgeBuild(report *Report, p *Package, pkg string, family testFamily) (Outcome, bool) {
	var evidence string
	switch failed := report.FailedBuilds(); {
	case p != nil && p.FailedBuild != "":
		evidence = fmt.Sprintf("package fail event names failed build %q", p.FailedBuild)
	case len(failed) > 0:
		evidence = fmt.Sprintf("build-fail event for %s", quotedList(failed, 3))
	case p != nil && p.BuildFailedText && len(p.Tests) == 0:
		evidence = fmt.Sprintf("cmd/go's [build failed] or [setup failed] line for %q, without JSON build events", pkg)
	default:
		return Outcome{}, true
	}
	if p != nil {
		if name, ok := firstFamilyTest(p, family); ok {
			return Outcome{OutcomeInconsistent, fmt.Sprintf("%s, yet %q has events", evidence, name)}, false
		}
	}
	return Outcome{OutcomeBuildFailed, evidence}, false
}

// judgePackageStream returns ok when the package's events are those of one
// healthy run of test alone.
func judgePackageStream(p *Package, family testFamily) (Outcome, bool) {
	switch {
	case p.Starts > 1:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("package %q started %d times in one stream", p.ImportPath, p.Starts)}, false
	case len(p.Finals) > 1:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("package %q has %d final events (%s)", p.ImportPath, len(p.Finals), strings.Join(p.Finals, ", "))}, false
	case p.EventsAfterFinal > 0:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("package %q has %d events after its final one", p.ImportPath, p.EventsAfterFinal)}, false
	}
	// -run '^Name$' selects the test, its subtests, and (for a subtest
	// claim) its parents. An event for any other name came from a framing
	// line the test process printed itself.
	for _, name := range p.TestNames() {
		if !family.contains(name) {
			return Outcome{OutcomeInconsistent, fmt.Sprintf("event for %q, which -run %q does not select: forged framing in the output", name, family.pattern())}, false
		}
	}
	return Outcome{}, true
}

// judgeTestStream returns ok when the test's events do not contradict each
// other.
func judgeTestStream(t *Test) (Outcome, bool) {
	switch {
	case t.Runs > 1:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("%q has %d run events with -count=1", t.Name, t.Runs)}, false
	case len(t.Finals) > 1:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("%q has %d final events (%s)", t.Name, len(t.Finals), strings.Join(t.Finals, ", "))}, false
	case t.EventsAfterFinal > 0:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("%q has %d events after its final %s", t.Name, t.EventsAfterFinal, t.Final())}, false
	case t.FinalWithoutRun:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("%q has a %s event but no run event: a printed report line, not a test run", t.Name, t.Final())}, false
	}
	return Outcome{}, true
}

// judgeFinal decides from the test's one final action (or its absence).
func judgeFinal(p *Package, t *Test, exitCode int, others bool) Outcome {
	pkgFinal := finalName(p.Final())
	switch t.Final() {
	case "":
		switch {
		case p.TimedOut:
			return Outcome{OutcomeHarnessDied, fmt.Sprintf("the test binary's -timeout alarm fired while %q ran (exit %d)", t.Name, exitCode)}
		case exitCode != 0:
			return Outcome{OutcomeFail, fmt.Sprintf("%q started and the test binary exited %d before it finished", t.Name, exitCode)}
		default:
			return Outcome{OutcomeInconsistent, fmt.Sprintf("%q started and never finished, yet exit 0", t.Name)}
		}
	case ActionFail:
		if exitCode == 0 {
			return Outcome{OutcomeInconsistent, fmt.Sprintf("fail event for %q, yet exit 0", t.Name)}
		}
		if p.Final() == ActionPass {
			return Outcome{OutcomeInconsistent, fmt.Sprintf("fail event for %q, yet package pass", t.Name)}
		}
		return Outcome{OutcomeFail, fmt.Sprintf("fail event for %q, package %s, exit %d", t.Name, pkgFinal, exitCode)}
	case ActionSkip:
		return Outcome{OutcomeSkipped, fmt.Sprintf("skip event for %q, package %s, exit %d", t.Name, pkgFinal, exitCode)}
	case ActionPass:
		return judgePass(p, t, exitCode, others)
	default:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("%s event for %q: not a test result", t.Final(), t.Name)}
	}
}

// judgePass requires everything else a real pass comes with. others says
// another selected test failed, which makes the package fail.
func judgePass(p *Package, t *Test, exitCode int, others bool) Outcome {
	switch {
	case exitCode != 0 && !others:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, yet exit %d", t.Name, exitCode)}
	case p.Starts != 1:
		// cmd/go writes the start event itself (Go ≥ 1.20); no test can.
		return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, yet package %q has no start event", t.Name, p.ImportPath)}
	case exitCode != 0 && p.Final() != ActionFail:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, another selected test failed, exit %d, yet package %s", t.Name, exitCode, finalName(p.Final()))}
	case exitCode == 0 && p.Final() != ActionPass:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, yet package %s", t.Name, finalName(p.Final()))}
	case p.NoTestsToRun:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, yet the test binary said no tests matched", t.Name)}
	case p.TimedOut:
		return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, yet the test binary's -timeout alarm fired", t.Name)}
	}
	// A parent passes only when every subtest finished without failing.
	for _, name := range p.TestNames() {
		sub := p.Tests[name]
		if !strings.HasPrefix(name, t.Name+"/") {
			continue
		}
		switch sub.Result() {
		case ResultPass, ResultSkip:
		default:
			return Outcome{OutcomeInconsistent, fmt.Sprintf("pass event for %q, yet subtest %q is %s", t.Name, name, sub.Result())}
		}
	}
	if exitCode != 0 {
		return Outcome{OutcomePass, fmt.Sprintf("pass event for %q in %q; another selected test failed (package fail, exit %d)", t.Name, p.ImportPath, exitCode)}
	}
	return Outcome{OutcomePass, fmt.Sprintf("pass event for %q in %q, package pass, exit 0", t.Name, p.ImportPath)}
}

// testFamily is the set of names `-run '^(A|B)$'` lets run for the
// selected tests: each test itself, its subtests, and the parents of a
// subtest.
type testFamily struct{ names []string }

func (f testFamily) contains(name string) bool {
	for _, n := range f.names {
		if name == n || strings.HasPrefix(name, n+"/") || strings.HasPrefix(n, name+"/") {
			return true
		}
	}
	return false
}

// pattern is the -run pattern that selects the family.
func (f testFamily) pattern() string {
	if len(f.names) == 1 {
		return "^" + f.names[0] + "$"
	}
	return "^(" + strings.Join(f.names, "|") + ")$"
}

// firstFamilyTest returns the first name, sorted, of the family with events.
func firstFamilyTest(p *Package, family testFamily) (string, bool) {
	for _, name := range p.TestNames() {
		if family.contains(name) {
			return name, true
		}
	}
	return "", false
}

func finalName(action string) string {
	if action == "" {
		return "never finished"
	}
	return action
}

// noTestsMatched is jobs.NoTestsMatched (this package imports nothing of
// the gate's; TestNoTestsMatched keeps the two the same).
const noTestsMatched = "the test binary said no tests matched"

func noTestsNote(p *Package) string {
	if p.NoTestsToRun {
		return "; " + noTestsMatched
	}
	return ""
}

// quotedList quotes up to limit items and says how many more there are.
func quotedList(items []string, limit int) string {
	if len(items) == 0 {
		return "none"
	}
	quoted := make([]string, 0, min(len(items), limit)+1)
	for i, item := range items {
		if i == limit {
			quoted = append(quoted, fmt.Sprintf("and %d more", len(items)-limit))
			break
		}
		quoted = append(quoted, fmt.Sprintf("%q", item))
	}
	return strings.Join(quoted, ", ")
}

package executor

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/executor/gotest"
	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/junit"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// executeProcess runs a pytest or declared-command job (a claim, a
// prerequisite, a suite, a seal check), repeating failures as Execute
// does for go test.
func (e *Executor) executeProcess(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{}
	runs := 1 + max(s.Reruns, 0)
	var outcomes, reasons []string
	for i := 0; i < runs; i++ {
		j, err := e.processOnce(ctx, w, s, a, false)
		if err != nil {
			a.Detail = jobs.Detail{Outcome: jobs.OutcomeUnrunnable, Reason: err.Error(), Runs: nonNil(a.Detail.Runs)}
			return a
		}
		a.Cases, a.Detail.Count = j.cases, j.count
		outcomes = append(outcomes, j.outcome)
		reasons = append(reasons, j.reason)
		if j.outcome != jobs.OutcomeFail {
			break
		}
	}
	a.Detail.Outcome, a.Detail.Reason = settle(outcomes, reasons)
	if a.Detail.Outcome == jobs.OutcomePass && s.Runner == jobs.RunnerPytest && elsewhereToo(s) {
		usual := *a
		var j judged
		for i := 0; i < runs; i++ { // a failure there is run again (see execute)
			var err error
			j, err = e.processOnce(ctx, w, s, a, true)
			if err != nil {
				j = judged{outcome: jobs.OutcomeUnrunnable, reason: err.Error()}
			} else {
				run := &a.Detail.Runs[len(a.Detail.Runs)-1]
				run.Reason = "elsewhere: " + run.Reason
			}
			if j.outcome != jobs.OutcomeFail {
				break
			}
		}
		settleElsewhere(a, &usual, j.outcome, j.reason)
	}
	a.Detail.Runs = nonNil(a.Detail.Runs)
	return a
}

// judged is what one process of a job established.
type judged struct {
	outcome, reason string
	cases           []jobs.Case
	// count is the number of cases the runner reported, nil when it
	// reported none.
	count *int
}

// processOnce runs the job's process one time in a fresh copy of its tree;
// what the process writes outside that tree (pytest's JUnit report) goes to
// a directory beside it.
func (e *Executor) processOnce(ctx context.Context, w *Workspace, s *jobs.Spec, a *Answer, elsewhere bool) (judged, error) {
	dir, out, cleanup, err := w.processTrees(s)
	defer cleanup()
	if err != nil {
		return judged{}, err
	}
	var p proc
	var read func(procResult) judged
	switch s.Runner {
	case jobs.RunnerPytest:
		p, read = e.pytestProc(dir, out, s)
	case jobs.RunnerCommand:
		var err error
		if p, read, err = e.commandProc(dir, out, s); err != nil {
			return judged{outcome: jobs.OutcomeUnrunnable, reason: err.Error()}, nil
		}
	default:
		return judged{}, fmt.Errorf("runner %q is not a process runner", s.Runner)
	}
	p.elsewhere = elsewhere
	r, err := e.start(ctx, w, a, p)
	if err != nil {
		if ctx.Err() != nil {
			return judged{}, ctx.Err()
		}
		return judged{}, fmt.Errorf("sandbox: %v", err)
	}
	run := &a.Detail.Runs[len(a.Detail.Runs)-1]
	if e.Blobs != nil {
		if d, err := e.Blobs.Put(ctx, r.stdout); err == nil {
			run.Stream = d
			a.Artefacts = append(a.Artefacts, d)
		}
	}
	var j judged
	switch r.res.Termination {
	case sandbox.NotStarted:
		j = judged{outcome: jobs.OutcomeUnrunnable, reason: "the sandbox did not start: " + firstLine(r.stderr)}
	case sandbox.Timeout:
		j = judged{outcome: jobs.OutcomeTimeout, reason: fmt.Sprintf("did not finish within %ds", s.TimeoutSec)}
	case sandbox.Exited:
		j = read(r)
	default:
		// Harness death: the limits killed it, not a test.
		j = judged{outcome: jobs.OutcomeUnrunnable, reason: fmt.Sprintf("the process died (%s): %s", r.res.Termination, firstLine(r.stderr))}
	}
	run.Verdict, run.Reason = j.outcome, j.reason
	return j, nil
}

// processTrees makes a job's fresh copy of its tree and, beside it, the
// directory for what its processes write outside the tree (reports,
// coverage data). cleanup removes both, whatever else failed.
func (w *Workspace) processTrees(s *jobs.Spec) (dir, out string, cleanup func(), err error) {
	dir = w.jobDir()
	out = dir + ".out"
	cleanup = func() {
		os.RemoveAll(dir)
		os.RemoveAll(out)
	}
	if err := w.prepare(dir, s); err != nil {
		return "", "", cleanup, fmt.Errorf("prepare the job tree: %v", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", "", cleanup, err
	}
	return dir, out, cleanup, nil
}

// pythonEnv is what every Python process gets besides the job
// environment: no bytecode written into the tree, a fixed hash seed, no
// user site.
func pythonEnv() []string {
	return []string{"PYTHONDONTWRITEBYTECODE=1", "PYTHONHASHSEED=0", "PYTHONNOUSERSITE=1"}
}

// pythonBinds returns the installation prefix of python when it lies
// outside the system directories the sandbox always shows.
func pythonBinds(python string) []string {
	if python == "" {
		return nil
	}
	real, err := filepath.EvalSymlinks(python)
	if err != nil {
		return nil
	}
	for _, sys := range []string{"/usr/", "/bin/", "/lib/", "/sbin/"} {
		if strings.HasPrefix(real, sys) {
			return nil
		}
	}
	return existing(filepath.Dir(filepath.Dir(real)))
}

// PytestArgs are the arguments every pytest process gets before its node
// ids: no cache written into the tree, the tree's root as rootdir, and a
// JUnit report with file attributes (xunit1), so that node ids match
// exactly.
func PytestArgs(junitPath string) []string {
	return []string{"-m", "pytest", "-p", "no:cacheprovider", "--rootdir=.", "-o", "junit_family=xunit1",
		"--junitxml=" + junitPath, "-q", "--color=no"}
}

func (e *Executor) pytestProc(dir, out string, s *jobs.Spec) (proc, func(procResult) judged) {
	report := filepath.Join(out, "junit.xml")
	argv := append([]string{s.Python}, PytestArgs(report)...)
	argv = append(argv, s.Tests...)
	p := proc{dir: dir, side: s.Side, argv: argv, env: pythonEnv(), ro: pythonBinds(s.Python), rw: []string{out},
		timeout: timeoutOf(s), readOnly: true}
	return p, func(r procResult) judged {
		rep, err := readJUnit(out, "junit.xml")
		switch s.Purpose {
		case jobs.Collateral, jobs.Discovery, jobs.Written:
			return pytestSuite(rep, err, r.res.ExitCode)
		}
		return pytestTests(rep, err, r.res.ExitCode, s)
	}
}

func timeoutOf(s *jobs.Spec) time.Duration { return time.Duration(s.TimeoutSec) * time.Second }

// readJUnit reads a JUnit report a process wrote, as rel beneath dir: a
// directory the process could write, so the report is read without
// following symbolic links, only as a regular file, and bounded.
func readJUnit(dir, rel string) (*junit.Report, error) {
	b, err := jobfile.Read(dir, rel, maxReportBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no JUnit report was written")
		}
		return nil, err
	}
	return junit.Read(bytes.NewReader(b), junit.Limits{})
}

// pytestExit says what pytest's exit codes other than 0 and 1 mean.
func pytestExit(code int) string {
	switch code {
	case 2:
		return "interrupted (collection errors)"
	case 3:
		return "internal error"
	case 4:
		return "usage error (a node id not found?)"
	case 5:
		return "no tests collected"
	}
	return "not a pytest exit code"
}

// pytestTests judges a claim's or prerequisite's pytest run: exit 0 passes
// and 1 fails only when the JUnit report agrees; 2 to 5 are unrunnable.
func pytestTests(rep *junit.Report, rerr error, exit int, s *jobs.Spec) judged {
	transplanted := s.Side == jobs.Baseline && (len(s.Transplant) > 0 || len(s.Splice) > 0)
	if exit != 0 && exit != 1 {
		if transplanted && (exit == 2 || exit == 4 || exit == 5) {
			// A new test laid over the baseline code that does not collect
			// there: the test does not exist on the baseline.
			return judged{outcome: jobs.OutcomeAbsent, reason: fmt.Sprintf("pytest exit %d, %s: the new test does not run on the baseline", exit, pytestExit(exit))}
		}
		return judged{outcome: jobs.OutcomeUnrunnable, reason: fmt.Sprintf("pytest exit %d, %s", exit, pytestExit(exit))}
	}
	if rerr != nil {
		return judged{outcome: jobs.OutcomeUnrunnable, reason: fmt.Sprintf("pytest exit %d, but its JUnit report cannot be read: %v", exit, rerr)}
	}
	cases := pytestCases(rep)
	n := len(cases)
	if s.Purpose == jobs.Prereq {
		t := rep.Totals
		switch {
		case exit == 0 && t.Cases > 0 && t.Passed == t.Cases:
			return judged{outcome: jobs.OutcomePass, reason: fmt.Sprintf("exit 0, all %d baseline tests of the file pass", t.Cases), cases: cases, count: &n}
		case exit == 0 && t.Cases > 0 && t.Passed+t.Skipped == t.Cases:
			// A test that skips itself does not fail; the suites judge
			// one that passes on the baseline and skips on the patch.
			return judged{outcome: jobs.OutcomePass, reason: fmt.Sprintf("exit 0, %d of %d baseline tests of the file pass, %d skip", t.Passed, t.Cases, t.Skipped), cases: cases, count: &n}
		case exit == 1 && t.Failed+t.Errored > 0:
			return judged{outcome: jobs.OutcomeFail, reason: fmt.Sprintf("exit 1, %d of %d baseline tests of the file fail", t.Failed+t.Errored, t.Cases), cases: cases, count: &n}
		}
		return judged{outcome: jobs.OutcomeInvalid, reason: fmt.Sprintf("exit %d disagrees with the report (%d cases, %d passed)", exit, t.Cases, t.Passed), cases: cases, count: &n}
	}
	if len(s.Tests) != 1 {
		return judged{outcome: jobs.OutcomeInvalid, reason: fmt.Sprintf("a claim runs one test, not %d", len(s.Tests))}
	}
	id := s.Tests[0]
	if rep.Totals.Cases != 1 {
		return judged{outcome: jobs.OutcomeInvalid, reason: fmt.Sprintf("pytest exit %d reported %d cases for the one node id %s", exit, rep.Totals.Cases, id), cases: cases, count: &n}
	}
	c, err := junit.Match(rep, id)
	if err != nil {
		return judged{outcome: jobs.OutcomeInvalid, reason: fmt.Sprintf("pytest exit %d: %v", exit, err), cases: cases, count: &n}
	}
	j := judged{cases: cases, count: &n}
	switch {
	case c.Status == junit.StatusPassed && exit == 0:
		j.outcome, j.reason = jobs.OutcomePass, fmt.Sprintf("%s: passed, exit 0", id)
	case (c.Status == junit.StatusFailed || c.Status == junit.StatusErrored) && exit == 1 && memoryError(c):
		// The address-space limit surfaces in Python as MemoryError: the
		// harness's limit stopped the test, not its assertion.
		j.outcome, j.reason = jobs.OutcomeUnrunnable, fmt.Sprintf("%s: killed by the memory limit (%s)", id, firstLine(c.Message))
	case (c.Status == junit.StatusFailed || c.Status == junit.StatusErrored) && exit == 1:
		j.outcome, j.reason = jobs.OutcomeFail, fmt.Sprintf("%s: %s, exit 1: %s", id, c.Status, firstLine(c.Message))
	case c.Status == junit.StatusSkipped && exit == 0:
		j.outcome, j.reason = jobs.OutcomeUnrunnable, fmt.Sprintf("%s: skipped (%s): skip is not pass", id, firstLine(c.Message))
	default:
		j.outcome, j.reason = jobs.OutcomeInvalid, fmt.Sprintf("%s: %s, but pytest exited %d", id, c.Status, exit)
	}
	return j
}

// memoryError reports a failed case whose error is Python's MemoryError:
// the address-space limit (RLIMIT_AS) surfaces as that exception, not as
// a kill, so the limit stopped the test, not its assertion. pytest writes
// the exception's repr as the message (inside "failed on setup with" for a
// fixture); a test raising MemoryError itself
// is read the same way, which can only make the gate less sure, never
// MERGE.
func memoryError(c junit.Case) bool {
	// In a fixture's setup or teardown pytest writes
	// `failed on setup with "MemoryError..."`.
	return strings.HasPrefix(c.Message, "MemoryError") || strings.Contains(c.Message, ` with "MemoryError`)
}

// pytestSuite judges a full pytest run: compared per test by node id.
func pytestSuite(rep *junit.Report, rerr error, exit int) judged {
	switch {
	case exit == 5:
		zero := 0
		return judged{outcome: jobs.OutcomePass, reason: "pytest exit 5: no tests collected", cases: []jobs.Case{}, count: &zero}
	case exit != 0 && exit != 1:
		return judged{outcome: jobs.OutcomeUnrunnable, reason: fmt.Sprintf("pytest exit %d, %s", exit, pytestExit(exit))}
	case rerr != nil:
		return judged{outcome: jobs.OutcomeUnrunnable, reason: fmt.Sprintf("pytest exit %d, but its JUnit report cannot be read: %v", exit, rerr)}
	}
	cases := pytestCases(rep)
	n := len(cases)
	t := rep.Totals
	if exit == 0 {
		if t.Failed+t.Errored > 0 {
			return judged{outcome: jobs.OutcomeInvalid, reason: fmt.Sprintf("pytest exit 0 with %d failed cases", t.Failed+t.Errored), cases: cases, count: &n}
		}
		return judged{outcome: jobs.OutcomePass, reason: fmt.Sprintf("exit 0, %d tests", n), cases: cases, count: &n}
	}
	return judged{outcome: jobs.OutcomeFail, reason: fmt.Sprintf("exit 1, %d of %d tests failed", t.Failed+t.Errored, n), cases: cases, count: &n}
}

// pytestCases lists a report's cases by node id.
func pytestCases(rep *junit.Report) []jobs.Case {
	out := make([]jobs.Case, 0, len(rep.Cases))
	for _, c := range rep.Cases {
		o := "fail"
		switch c.Status {
		case junit.StatusPassed:
			o = "pass"
		case junit.StatusSkipped, junit.StatusNotRun:
			o = "skip"
		case junit.StatusFailed, junit.StatusErrored:
			if memoryError(c) {
				o = jobs.CaseStopped
			}
		}
		out = append(out, jobs.Case{Name: junit.NodeID(c), Outcome: o})
	}
	return out
}

// shellMeta are the characters that make a command line more than words.
const shellMeta = "\"'`$\\|&;<>(){}*?[]~#!\n"

// countingArgv returns how to run a declared command so that its runner
// reports a case count, when the command is a plain go test, pytest or
// unittest invocation (words only, no shell syntax): go test with -json,
// pytest with a JUnit report outside the tree, unittest as it is (it
// prints "Ran N tests"). Anything else runs under /bin/sh -c as written,
// and has no count unless it declares a JUnit file.
func countingArgv(run, report string) (argv []string, how string) {
	sh := []string{"/bin/sh", "-c", run}
	if strings.ContainsAny(run, shellMeta) {
		return sh, ""
	}
	f := strings.Fields(run)
	isPython := func(s string) bool {
		b := filepath.Base(s)
		return b == "python" || b == "python3" || regexp.MustCompile(`^python3\.[0-9]+$`).MatchString(b)
	}
	switch {
	case len(f) >= 2 && f[0] == "go" && f[1] == "test":
		return append([]string{"go", "test", "-json"}, f[2:]...), "go"
	case len(f) >= 1 && (f[0] == "pytest" || f[0] == "py.test"):
		return append(f, "--junitxml="+report, "-o", "junit_family=xunit1"), "junit"
	case len(f) >= 3 && isPython(f[0]) && f[1] == "-m" && f[2] == "pytest":
		return append(f, "--junitxml="+report, "-o", "junit_family=xunit1"), "junit"
	case len(f) >= 3 && isPython(f[0]) && f[1] == "-m" && f[2] == "unittest":
		return f, "unittest"
	}
	return sh, ""
}

// unittestRan matches unittest's summary line.
const unittestRan = `(?m)^Ran ([0-9]+) tests? in [0-9.]+s$`

func (e *Executor) commandProc(dir, out string, s *jobs.Spec) (proc, func(procResult) judged, error) {
	report := filepath.Join(out, "junit.xml")
	reportDir, reportRel := out, "junit.xml"
	argv, how := []string{"/bin/sh", "-c", s.Run}, "declared"
	if s.JUnit != "" {
		// Only this run may write the count: a report already in the tree
		// (committed, or left by a build) is removed first.
		p := filepath.Join(dir, filepath.FromSlash(s.JUnit))
		if fi, err := os.Lstat(p); err == nil {
			if !fi.Mode().IsRegular() {
				return proc{}, nil, fmt.Errorf("the declared JUnit path %s is not a regular file in the tree", s.JUnit)
			}
			if err := os.Remove(p); err != nil {
				return proc{}, nil, err
			}
		}
		report, reportDir, reportRel = p, dir, s.JUnit
	} else {
		argv, how = countingArgv(s.Run, report)
	}
	var path []string
	if s.Python != "" {
		path = []string{filepath.Dir(s.Python)}
	}
	p := proc{dir: dir, side: s.Side, argv: argv, env: pythonEnv(), ro: pythonBinds(s.Python), rw: []string{out}, path: path, timeout: timeoutOf(s)}
	return p, func(r procResult) judged {
		exit := r.res.ExitCode
		j := judged{}
		var why string
		switch how {
		case "declared", "junit":
			rep, err := readJUnit(reportDir, reportRel)
			if err != nil {
				why = fmt.Sprintf("no case count: %v", err)
				break
			}
			j.cases = pytestCases(rep)
			n := len(j.cases)
			j.count = &n
		case "go":
			rep, err := gotest.Read(bytes.NewReader(r.stdout))
			if err != nil {
				why = fmt.Sprintf("no case count: the go test stream cannot be read: %v", err)
				break
			}
			n := 0
			for _, p := range rep.Packages {
				n += p.Counts.Run
			}
			j.count = &n
			j.cases, _ = suiteCases(rep)
		case "unittest":
			m := regexp.MustCompile(unittestRan).FindAllStringSubmatch(r.stderr, -1)
			if len(m) != 1 {
				why = "no case count: unittest printed no single \"Ran N tests\" line"
				break
			}
			n, err := strconv.Atoi(m[0][1])
			if err != nil {
				why = "no case count: " + err.Error()
				break
			}
			j.count = &n
		default:
			why = "no case count: the command declares no JUnit file and is not a plain go test, pytest or unittest run"
		}
		cnt := "no count"
		if j.count != nil {
			cnt = fmt.Sprintf("%d cases", *j.count)
		}
		if exit == 5 && (how == "junit" || how == "unittest") && (j.count == nil || *j.count == 0) {
			// pytest, and unittest since Python 3.12, exit 5 when no test
			// ran: nothing failed, nothing was shown — an empty run, as
			// unittest's exit 0 with "Ran 0 tests" before 3.12.
			zero := 0
			j.count, exit, cnt = &zero, 0, "0 cases, exit 5: no tests ran"
		}
		switch {
		case exit != 0:
			j.outcome, j.reason = jobs.OutcomeFail, fmt.Sprintf("exit %d (%s)", exit, cnt)
		case s.Purpose == jobs.Claim && (j.count == nil || *j.count == 0):
			// Without a count an exit code proves nothing ran.
			j.outcome = jobs.OutcomeUnrunnable
			j.reason = fmt.Sprintf("exit 0 but %s: a declared command without a case count is never verified", cmp.Or(why, "0 cases"))
		default:
			j.outcome, j.reason = jobs.OutcomePass, fmt.Sprintf("exit 0 (%s)", cmp.Or(why, cnt))
		}
		if s.Purpose == jobs.Collateral && j.cases == nil {
			// Compared by exit code: the suite is one case named for its
			// command.
			o := "pass"
			if exit != 0 {
				o = "fail"
			}
			j.cases = []jobs.Case{{Name: "exit code of `" + s.Run + "`", Outcome: o}}
		}
		return j
	}, nil
}

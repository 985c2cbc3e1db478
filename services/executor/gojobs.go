package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/checkout/splice"
	"github.com/sealgate/sealgate/services/executor/gotest"
	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/reach/cover"
)

// onceGo runs a Go claim or prerequisite job's tests one time: the
// package's test binary (built once per run) in its tree (runTree).
func (e *Executor) onceGo(ctx context.Context, w *Workspace, s *jobs.Spec, a *Answer, elsewhere bool) (outcome, reason string, run jobs.Run, err error) {
	timeout := timeoutOf(s)
	transplanted := s.Side == jobs.Baseline && (len(s.Transplant) > 0 || len(s.Splice) > 0)
	key, src, err := w.variant(s)
	if err != nil {
		if transplanted && errors.Is(err, splice.ErrConflict) {
			why := fmt.Sprintf("%v: the new test cannot be laid over the baseline, so it cannot show the bug there", err)
			run = jobs.Run{Verdict: gotest.OutcomeBuildFailed.String(), Reason: jobfile.Excerpt(why), ExitCode: -1, Termination: sandbox.NotStarted.String()}
			return jobs.OutcomeAbsent, run.Reason, run, nil
		}
		return "", "", run, err
	}
	t := goTarget{variant: key, module: s.Module, pkg: s.Package, importPath: s.ImportPath}
	b, err := e.buildTest(ctx, w, a, t, timeout)
	if err != nil {
		return "", "", run, err
	}
	aloneNote := ""
	if transplanted && b.failed != "" {
		// What the patch adds, laid over the baseline whole, does not
		// build: often tests of helpers the fix adds beside the claimed
		// test, which only calls code the baseline has. The claimed test
		// alone, with what it needs of them, may (splice.Prune); the
		// first failure stays the reason when it does not.
		if alone, ok := aloneOf(s); ok {
			if akey, asrc, aerr := w.variant(alone); aerr == nil {
				at := goTarget{variant: akey, module: s.Module, pkg: s.Package, importPath: s.ImportPath}
				ab, err := e.buildTest(ctx, w, a, at, timeout)
				if err != nil {
					return "", "", run, err
				}
				if ab.failed == "" {
					aloneNote = "run alone on the baseline, as what the patch adds does not build there whole (" + jobfile.Excerpt(firstLine(b.failed)) + "): "
					key, src, t, b = akey, asrc, at, ab
				}
			}
		}
	}
	if b.failed != "" || b.noTests {
		why := b.failed
		if b.noTests {
			why = s.ImportPath + " has no test files"
		}
		run = jobs.Run{Verdict: gotest.OutcomeBuildFailed.String(), Reason: why, ExitCode: -1, Termination: sandbox.NotStarted.String()}
		if transplanted {
			// A new test laid over the baseline code that does not build
			// there: the test does not exist on the baseline; it tests new
			// behaviour and proves no fix.
			why = "the new test does not build on the baseline code (new behaviour, not a proven fix): " + why
			run.Reason = why
			return jobs.OutcomeAbsent, why, run, nil
		}
		if b.failed != "" && s.Side == jobs.Baseline && w.trustedGoTestsIn(path.Join(s.Module, s.Package)) {
			// A grader's trusted tests that do not build on the baseline
			// code test behaviour the baseline lacks: no test of the
			// package exists there, and the claim is judged on the patch
			// alone, where it must pass (like a new test).
			why = "the trusted tests do not build on the baseline code (they test new behaviour; no test of the package runs there): " + why
			run.Reason = why
			return jobs.OutcomeAbsent, why, run, nil
		}
		if b.failed != "" && s.Side == jobs.Patch && s.Tree == jobs.TreeOracle && len(s.Transplant) == 0 && len(s.Splice) == 0 &&
			w.testFilesUnchanged(path.Join(s.Module, s.Package)) && testTypeError(b.failed) {
			// The package's test files are the patch's own, byte for
			// byte the baseline's, and the compiler rejects them over the
			// patch's code: the patch took away or changed what they use.
			// Tests that build on the baseline cannot run at all: a
			// failure of the patch's, not of the gate's environment.
			why = "the patch breaks the build of the package's tests, which it leaves unchanged: " + why
			run.Reason = why
			return jobs.OutcomeFail, why, run, nil
		}
		return jobs.OutcomeUnrunnable, why, run, nil
	}
	dir, out, cleanup, err := e.runTree(w, src)
	defer cleanup()
	if err != nil {
		return "", "", run, err
	}
	stream, r, err := e.runTestAt(ctx, w, a, b, t, dir, out, []string{"-test.run", s.RunPattern()}, nil, elsewhere, timeout)
	if err != nil {
		return "", "", run, err
	}
	run = jobs.Run{ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: r.res.Wall.Milliseconds(), Binary: b.sha256}
	if r.res.Termination == sandbox.NotStarted {
		run.Verdict, run.Reason = "NOT_STARTED", "the sandbox did not start: "+jobfile.Excerpt(r.res.Reason)
		return jobs.OutcomeUnrunnable, run.Reason, run, nil
	}
	run.Stream = e.keep(ctx, a, stream)
	report, rerr := gotest.Read(bytes.NewReader(stream))
	if rerr != nil || r.dropped > 0 {
		run.Verdict, run.Reason = "UNREADABLE", fmt.Sprintf("the test stream could not be read whole (%d bytes dropped)", r.dropped)
		return jobs.OutcomeUnrunnable, run.Reason, run, nil
	}
	outcome, reason = e.testsOutcome(report, s, r.res, termination(r.res.Termination))
	reason = aloneNote + reason
	run.Verdict, run.Reason = outcome, reason
	return outcome, reason, run, nil
}

// aloneOf returns the baseline job s with what it lays over the baseline
// cut down to its test alone: each transplanted file "f" becomes "f#Test"
// and each spliced file "f" becomes "f#=Test" (see jobs.Spec). ok is false
// when s runs other than one test or lays nothing over that can be cut.
func aloneOf(s *jobs.Spec) (*jobs.Spec, bool) {
	if len(s.Tests) != 1 {
		return nil, false
	}
	top, _, _ := strings.Cut(s.Tests[0], "/")
	c := *s
	c.Transplant, c.Splice = nil, nil
	cut := false
	for _, f := range s.Transplant {
		if strings.HasSuffix(f, ".go") && !strings.Contains(f, "#") {
			f, cut = f+"#"+top, true
		}
		c.Transplant = append(c.Transplant, f)
	}
	for _, f := range s.Splice {
		if !strings.Contains(f, "#") {
			f, cut = f+"#="+top, true
		}
		c.Splice = append(c.Splice, f)
	}
	return &c, cut
}

// keep stores a stream in the blob store, returning its digest ("" when
// there is no store or it failed: the run's verdict is still recorded).
func (e *Executor) keep(ctx context.Context, a *Answer, b []byte) string {
	if e.Blobs == nil {
		return ""
	}
	d, err := e.Blobs.Put(ctx, b)
	if err != nil {
		return ""
	}
	a.Artefacts = append(a.Artefacts, d)
	return d
}

// executeGoSuite runs a Go suite or discovery job: every package the
// pattern names, each package's test binary (built once per run) in one
// copy of the tree, one process per package, as `go test -json PATTERN`
// would run them.
func (e *Executor) executeGoSuite(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}}}
	fail := func(format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = jobs.OutcomeUnrunnable, fmt.Sprintf(format, args...)
		return a
	}
	timeout := timeoutOf(s)
	deadline := time.Now().Add(timeout)
	key, src, err := w.variant(s)
	if err != nil {
		return fail("%v", err)
	}
	dir, out, cleanup, err := w.jobTree(src)
	defer cleanup()
	if err != nil {
		return fail("%v", err)
	}
	pkgs, err := e.listPackages(ctx, w, a, dir, s.Module, s.Package, false, timeout)
	if err != nil {
		return fail("%v", err)
	}
	v := e.viewOf(w, dir, out)
	var targets []goTarget
	for _, p := range pkgs {
		if len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 {
			continue
		}
		rel, ok := relPackage(v, s.Module, p.Dir)
		if !ok {
			return fail("go list placed %s outside its module", jobfile.Quote(p.ImportPath))
		}
		targets = append(targets, goTarget{variant: key, module: s.Module, pkg: rel, importPath: p.ImportPath})
	}
	if err := e.buildMany(ctx, w, a, targets, time.Until(deadline)); err != nil {
		return fail("%v", err)
	}
	var stream bytes.Buffer
	agg := sandbox.Result{Termination: sandbox.Exited}
	ran := map[string]ranSuite{} // by import path: what a failing test is run again with
	for _, t := range targets {
		b, err := e.buildTest(ctx, w, a, t, time.Until(deadline))
		if err != nil {
			return fail("%v", err)
		}
		if b.failed != "" {
			// The build's own events name the failure in the stream.
			stream.Write(b.stream)
			agg.ExitCode = max(agg.ExitCode, 1)
			continue
		}
		if b.noTests {
			continue
		}
		left := time.Until(deadline)
		if left <= 0 {
			agg.Termination = sandbox.Timeout
			break
		}
		st, r, err := e.runTest(ctx, w, a, b, t, dir, out, nil, nil, left)
		if err != nil {
			return fail("%v", err)
		}
		run := jobs.Run{Verdict: t.importPath, ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: r.res.Wall.Milliseconds(), Binary: b.sha256}
		switch {
		case r.dropped > 0:
			a.Detail.Runs = append(a.Detail.Runs, run)
			return fail("the test stream of %s could not be read whole (%d bytes dropped)", t.importPath, r.dropped)
		case r.res.Termination == sandbox.Timeout:
			agg.Termination = sandbox.Timeout
		case r.res.Termination != sandbox.Exited && agg.Termination == sandbox.Exited:
			agg.Termination = r.res.Termination
		case r.res.ExitCode != 0:
			agg.ExitCode = max(agg.ExitCode, 1)
		}
		run.Stream = e.keep(ctx, a, st)
		a.Detail.Runs = append(a.Detail.Runs, run)
		stream.Write(st)
		ran[t.importPath] = ranSuite{b: b, t: t}
		if agg.Termination == sandbox.Timeout {
			break
		}
	}
	report, err := gotest.Read(bytes.NewReader(stream.Bytes()))
	if err != nil {
		return fail("the suite's streams could not be read: %v", err)
	}
	a.Detail.Outcome, a.Detail.Reason = suiteOutcome(report, agg)
	var unlisted int
	a.Cases, unlisted = suiteCases(report)
	if unlisted > 0 {
		a.Detail.Reason += fmt.Sprintf("; %d subtests not listed (over the bound of %d)", unlisted, maxSuiteSubtests)
	}
	if s.Side == jobs.Patch && agg.Termination != sandbox.Timeout {
		if flaky, err := e.rerunFailures(ctx, w, a, report, ran, dir, out, deadline); err != nil {
			return fail("%v", err)
		} else if len(flaky) > 0 {
			a.Cases = markFlaky(a.Cases, flaky)
			a.Detail.Reason += fmt.Sprintf("; %d failing test(s) passed when run again alone: flaky, not failed (%s)", len(flaky), strings.Join(slices.Sorted(maps.Keys(flaky)), ", "))
		}
	}
	if s.Side == jobs.Patch && s.Purpose != jobs.Written {
		w.keepSuiteTimes(report)
	}
	return a
}

// ranSuite is one package's test binary a suite job ran.
type ranSuite struct {
	b *goBin
	t goTarget
}

// suiteReruns is how many times a top-level test that failed in a
// patch-side suite run is run again alone, until it passes: a test of
// timing that fails once on a loaded machine (golang-lru's
// expirable.TestLoadingExpired at a load average of 13 on two cores) is
// no regression the patch made. A test that fails every run stays a
// failure; one that passes in any is flaky, which never reads as a pass.
const suiteReruns = 2

// rerunFailures runs each top-level test that failed in report again,
// alone in its package's binary, up to suiteReruns times, and returns the
// suite keys of those that passed in a run.
func (e *Executor) rerunFailures(ctx context.Context, w *Workspace, a *Answer, report *gotest.Report, ran map[string]ranSuite, dir, out string, deadline time.Time) (map[string]bool, error) {
	results := gotest.SuiteResults(report)
	flaky := map[string]bool{}
	for _, pkg := range report.PackagePaths() {
		r, ok := ran[pkg]
		if !ok {
			continue
		}
		var failed []string
		for _, name := range report.Packages[pkg].TestNames() {
			if !strings.Contains(name, "/") && results[gotest.SuiteKey(pkg, name)] == gotest.ResultFail {
				failed = append(failed, name)
			}
		}
		for i := 0; i < suiteReruns && len(failed) > 0; i++ {
			left := time.Until(deadline)
			if left <= 0 {
				return flaky, nil
			}
			quoted := make([]string, len(failed))
			for k, name := range failed {
				quoted[k] = regexp.QuoteMeta(name)
			}
			st, pr, err := e.runTest(ctx, w, a, r.b, r.t, dir, out, []string{"-test.run", "^(" + strings.Join(quoted, "|") + ")$"}, nil, left)
			if err != nil {
				return nil, err
			}
			run := jobs.Run{Verdict: r.t.importPath + " (failures run again)", ExitCode: pr.res.ExitCode, Termination: pr.res.Termination.String(), WallMillis: pr.res.Wall.Milliseconds(), Binary: r.b.sha256}
			if pr.dropped > 0 {
				a.Detail.Runs = append(a.Detail.Runs, run)
				return flaky, nil // no reading: the failures stand
			}
			run.Stream = e.keep(ctx, a, st)
			a.Detail.Runs = append(a.Detail.Runs, run)
			again, err := gotest.Read(bytes.NewReader(st))
			if err != nil {
				return flaky, nil
			}
			res := gotest.SuiteResults(again)
			failed = slices.DeleteFunc(failed, func(name string) bool {
				key := gotest.SuiteKey(pkg, name)
				if res[key] == gotest.ResultPass {
					flaky[key] = true
					return true
				}
				return false
			})
		}
	}
	return flaky, nil
}

// markFlaky sets the outcome of every failed case that is, or is a subtest
// of, a flaky top-level test to CaseFlaky.
func markFlaky(cases []jobs.Case, flaky map[string]bool) []jobs.Case {
	tops := jobs.TopLevel(cases)
	for i, c := range cases {
		if c.Outcome == "fail" && (flaky[c.Name] || flaky[tops[c.Name]]) {
			cases[i].Outcome = jobs.CaseFlaky
		}
	}
	return cases
}

// keepSuiteTimes remembers each top-level test's time in a patch-side
// suite run, per package: what the coverage search knows of the tests
// before it runs any (suiteTime).
func (w *Workspace) keepSuiteTimes(report *gotest.Report) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ip, p := range report.Packages {
		times := map[string]time.Duration{}
		for name, t := range p.Tests {
			if t.ElapsedReported && !strings.Contains(name, "/") {
				times[name] = t.Elapsed
			}
		}
		if w.suiteTimes == nil {
			w.suiteTimes = map[string]map[string]time.Duration{}
		}
		w.suiteTimes[ip] = times
	}
}

// suiteTime is a test's time in the patch side's suite run, if this
// workspace ran it (in the distributed mode another replica may have).
func (w *Workspace) suiteTime(importPath, test string) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d, ok := w.suiteTimes[importPath][test]
	return d, ok
}

// buildMany builds the test binaries of targets not built yet, several
// packages per go command (`go test -c -o DIR/`, which needs distinct
// binary names), in one copy of the tree; each package's result is then
// registered as buildTest would have made it.
func (e *Executor) buildMany(ctx context.Context, w *Workspace, a *Answer, targets []goTarget, timeout time.Duration) error {
	var todo []goTarget
	w.mu.Lock()
	for _, t := range targets {
		if _, ok := w.bins[t.key()]; !ok {
			todo = append(todo, t)
		}
	}
	w.mu.Unlock()
	// Binaries a run of this build cache built from the same content are
	// reused (bincache.go); the rest are built.
	keys := map[string]string{}
	built := todo[:0]
	for _, t := range todo {
		var tree string
		if _, src, err := w.variantOf(t.variant); err == nil {
			tree = e.cacheableTree(w, t.variant, src)
		}
		key := e.binKey(t, tree)
		b := &builtBin{goBin: &goBin{}}
		reused, err := e.reuse(w, t, key, b.goBin)
		if err != nil {
			return err
		}
		if !reused {
			keys[t.key()] = key
			built = append(built, t)
			continue
		}
		b.done = true
		w.mu.Lock()
		if _, ok := w.bins[t.key()]; !ok {
			w.bins[t.key()] = b
		}
		w.mu.Unlock()
	}
	todo = built
	if len(todo) == 0 {
		return nil
	}
	// Groups of distinct binary names, per module and variant.
	type group struct {
		variant, module string
		targets         []goTarget
		names           map[string]bool
	}
	var groups []*group
	for _, t := range todo {
		name := execName(t.importPath)
		i := slices.IndexFunc(groups, func(g *group) bool {
			return g.variant == t.variant && g.module == t.module && !g.names[name]
		})
		if i < 0 {
			groups = append(groups, &group{variant: t.variant, module: t.module, names: map[string]bool{}})
			i = len(groups) - 1
		}
		groups[i].targets = append(groups[i].targets, t)
		groups[i].names[name] = true
	}
	for gi, g := range groups {
		_, src, err := w.variantOf(g.variant)
		if err != nil {
			return err
		}
		if err := e.buildGroup(ctx, w, a, gi, g.module, src, g.targets, keys, timeout); err != nil {
			return err
		}
	}
	return nil
}

func (e *Executor) buildGroup(ctx context.Context, w *Workspace, a *Answer, gi int, module, src string, targets []goTarget, keys map[string]string, timeout time.Duration) error {
	dir, out, cleanup, err := w.buildTree(src)
	defer cleanup()
	if err != nil {
		return err
	}
	v := e.viewOf(w, dir, out)
	argv := []string{"go"}
	if module != "." {
		argv = append(argv, "-C", module)
	}
	argv = append(argv, testBuild()...)
	argv = append(argv, "-o", filepathSlash(v.out)+"/")
	for _, t := range targets {
		argv = append(argv, t.pkg)
	}
	r, err := e.runGo(ctx, w, a, goProc{dir: dir, out: out, argv: argv, build: true, readOnlyTree: true, timeout: timeout})
	if err != nil {
		return err
	}
	run := jobs.Run{Verdict: "BUILD", ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: max(r.res.Wall.Milliseconds(), 1),
		Reason: fmt.Sprintf("go test -c of %d packages", len(targets))}
	a.Detail.Runs = append(a.Detail.Runs, run)
	report, _ := gotest.Read(bytes.NewReader(r.stdout))
	failed := map[string]bool{}
	if report != nil {
		for _, p := range report.FailedBuilds() {
			failed[buildPackage(p)] = true
		}
	}
	died := r.res.Termination != sandbox.Exited
	for _, t := range targets {
		b := &builtBin{goBin: &goBin{run: run}}
		b.done = true
		switch {
		case died:
			b.failed = fmt.Sprintf("the test build of %s did not finish (%s): %s", t.importPath, r.res.Termination, jobfile.Excerpt(r.res.Reason))
		case failed[t.importPath]:
			b.failed = fmt.Sprintf("the test build of %s failed: %s", t.importPath, buildCauseOf(report, t.importPath))
			b.stream = buildEvents(r.stdout, t.importPath)
		default:
			data, err := w.adopt(out, execName(t.importPath)+".test", b.goBin)
			if err != nil {
				return err
			}
			e.keepBin(keys[t.key()], data)
			if b.name == "" && r.res.ExitCode != 0 {
				b.failed = fmt.Sprintf("the test build of %s failed (exit %d): %s", t.importPath, r.res.ExitCode, buildCause(r.stdout))
			}
		}
		w.mu.Lock()
		if _, ok := w.bins[t.key()]; !ok {
			w.bins[t.key()] = b
		}
		w.mu.Unlock()
	}
	return nil
}

// adopt moves a binary the build wrote into the workspace's bin directory
// and returns its content; a package without test files has none.
func (w *Workspace) adopt(out, file string, b *goBin) ([]byte, error) {
	data, err := jobfile.Read(out, file, maxBinaryBytes)
	if err != nil {
		if isNotExist(err) {
			b.noTests = true
			return nil, nil
		}
		return nil, fmt.Errorf("the test binary %s: %w", file, err)
	}
	return data, w.store(data, b)
}

// buildPackage is the import path of a build event's ImportPath
// ("example.com/p [example.com/p.test]").
func buildPackage(id string) string {
	p, _, _ := strings.Cut(id, " ")
	return p
}

// buildCauseOf is the cause of one package's failed build in a report.
func buildCauseOf(report *gotest.Report, importPath string) string {
	var text strings.Builder
	for _, id := range report.FailedBuilds() {
		if buildPackage(id) == importPath || strings.Contains(id, "["+importPath+".test]") {
			if bo := report.Builds[id]; bo != nil {
				text.WriteString(bo.Output.Text)
			}
		}
	}
	return buildCause([]byte(text.String()))
}

// buildEvents keeps the build events of one package from a build stream.
func buildEvents(stream []byte, importPath string) []byte {
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(stream, []byte("\n")) {
		if bytes.Contains(line, []byte(`"ImportPath":"`+importPath)) {
			out.Write(line)
		}
	}
	return out.Bytes()
}

// execName is the name `go test -c -o DIR/` gives a package's binary,
// without ".test": the last element of its import path, or the one before
// a major-version element (cmd/go's DefaultExecName).
func execName(importPath string) string {
	dir, elem := path.Split(importPath)
	if dir != "" && isVersionElement(elem) {
		_, elem = path.Split(path.Clean(dir))
	}
	return elem
}

func isVersionElement(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' || s[1] == '1' && len(s) == 2 {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// executeCoverage measures which tests of a package reach the changed
// lines, with the package's coverage test binary (built once): one run of
// each half of the tests with a profile, and only the groups whose profile
// touches a changed line split again (a slow test alone at once, the rest
// in halves), down to single tests — whose profiles, each test alone, are
// the reach map. A package whose tests reach no changed line costs two
// runs.
func (e *Executor) executeCoverage(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}, Profiles: map[string]string{}}}
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	timeout := timeoutOf(s)
	key, src, err := w.variant(s)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	t := goTarget{variant: key, module: s.Module, pkg: s.Package, importPath: s.ImportPath, cover: s.CoverPkgs}
	b, err := e.buildTest(ctx, w, a, t, timeout)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	if b.failed != "" {
		return done(jobs.OutcomeUnrunnable, "the coverage build of %s failed: %s", s.Package, b.failed)
	}
	if b.noTests {
		a.Cases = []jobs.Case{}
		return done(jobs.OutcomePass, "%s has no test files", s.Package)
	}
	dir, out, cleanup, err := w.jobTree(src)
	defer cleanup()
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	if s.Side == jobs.Baseline {
		// The claims' tests on the baseline, together, one profile: the
		// lines they ran before the patch.
		g := &grouper{e: e, w: w, a: a, b: b, t: t, dir: dir, out: out, timeout: timeout, outcome: map[string]string{}}
		profs, missing, err := g.baseline(ctx, s.Tests)
		switch {
		case err != nil:
			return done(jobs.OutcomeUnrunnable, "%v", err)
		case len(profs) == 0:
			return done(jobs.OutcomeUnrunnable, "the claims' tests of %s left no coverage profile on the baseline", s.Package)
		}
		merged, err := cover.Merge(profs...)
		if err != nil {
			return done(jobs.OutcomeUnrunnable, "the baseline profiles of %s: %v", s.Package, err)
		}
		var data bytes.Buffer
		if err := merged.Write(&data); err != nil {
			return done(jobs.OutcomeUnrunnable, "the baseline profiles of %s: %v", s.Package, err)
		}
		a.Detail.Profiles[jobs.BaselineProfile] = e.keep(ctx, a, data.Bytes())
		if len(missing) > 0 {
			// A test that panics ends its process before the profile is
			// written: what it ran on the baseline is not known.
			return done(jobs.OutcomePass, "%d test(s) of %s run on the baseline, one profile; %d left none (a panic or a crash ends the process before it is written), so the lines they ran there are not known: %s",
				len(s.Tests), s.Package, len(missing), strings.Join(missing, ", "))
		}
		return done(jobs.OutcomePass, "%d test(s) of %s run together on the baseline, one profile", len(s.Tests), s.Package)
	}
	tests, err := e.listTests(ctx, w, a, b, t, dir, timeout)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	changed, err := w.changedCoverLines()
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	g := &grouper{e: e, w: w, a: a, b: b, t: t, dir: dir, out: out, timeout: timeout, changed: changed,
		outcome: map[string]string{}, elapsed: map[string]time.Duration{}}
	missing, err := g.searchAll(ctx, tests)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	for _, test := range tests {
		o := g.outcome[test]
		if o == "" {
			o = "none"
		}
		a.Cases = append(a.Cases, jobs.Case{Name: s.ImportPath + "." + test, Outcome: o})
	}
	if len(missing) > 0 {
		// A test that crashes (a panic, out of memory) ends its process
		// before the profile is written. What it reaches is not known:
		// it counts as reaching nothing — less coverage, fewer tests
		// against the mutants, never more — and the others' reach
		// stands (one test of msgpack's, or a copy of an edited test
		// laid beside, voided a whole package's before).
		return done(jobs.OutcomePass, "%d tests of %s: %d reach changed lines, found in %d runs; %d left no coverage profile run alone (a crash ends the process before it is written), so they count as reaching nothing: %s",
			len(tests), s.Package, g.leaves, g.runs, len(missing), strings.Join(missing, ", "))
	}
	return done(jobs.OutcomePass, "%d tests of %s: %d reach changed lines, found in %d runs", len(tests), s.Package, g.leaves, g.runs)
}

// slowAlone is how long a test must take, in its first-level run, for the
// coverage search to run it alone at once: about what starting one more
// test process costs in the sandbox.
const slowAlone = 20 * time.Millisecond

// splitSlow parts tests, in order, into those whose time (zero when not
// known) is slowAlone or more and the rest.
func splitSlow(tests []string, took func(test string) time.Duration) (slow, fast []string) {
	for _, t := range tests {
		if took(t) >= slowAlone {
			slow = append(slow, t)
		} else {
			fast = append(fast, t)
		}
	}
	return slow, fast
}

// grouper finds the tests that reach changed lines by group testing.
type grouper struct {
	e        *Executor
	w        *Workspace
	a        *Answer
	b        *goBin
	t        goTarget
	dir, out string
	timeout  time.Duration
	changed  map[string][]int // profile file name → changed lines
	outcome  map[string]string
	elapsed  map[string]time.Duration // in the first-level runs
	roots    []*cover.Profile         // the first-level runs' profiles
	runs     int
	leaves   int
}

// searchAll searches every test of the package from a first level of
// groups, each run once: a test the patch side's suite run showed slow
// (slowAlone) alone — it then runs once in the whole search, where in a
// group that reaches a changed line it would run again — and the other
// tests in two halves, not all together, which would be split at once
// whenever one of them reaches a changed line (the common case). The
// first-level profiles, merged, are the package's
// (jobs.GroupProfilePrefix): each names every instrumented file, so changed
// lines no test reaches are measured as uncovered, not missing.
func (g *grouper) searchAll(ctx context.Context, tests []string) ([]string, error) {
	slow, fast := splitSlow(tests, func(t string) time.Duration {
		d, _ := g.w.suiteTime(g.t.importPath, t)
		return d
	})
	var groups [][]string
	if len(fast) > 1 {
		groups = append(groups, fast[:len(fast)/2], fast[len(fast)/2:])
	} else if len(fast) == 1 {
		groups = append(groups, fast)
	}
	for _, t := range slow {
		groups = append(groups, []string{t})
	}
	var missing []string
	for _, h := range groups {
		m, err := g.search(ctx, h, true)
		if err != nil {
			return nil, err
		}
		missing = append(missing, m...)
	}
	if len(g.roots) > 0 {
		merged, err := cover.Merge(g.roots...)
		if err != nil {
			return nil, fmt.Errorf("the profiles of %s: %w", g.t.importPath, err)
		}
		var data bytes.Buffer
		if err := merged.Write(&data); err != nil {
			return nil, fmt.Errorf("the profiles of %s: %w", g.t.importPath, err)
		}
		g.a.Detail.Profiles[jobs.GroupProfilePrefix+g.t.importPath] = g.e.keep(ctx, g.a, data.Bytes())
	}
	return missing, nil
}

// search runs tests together; a run whose profile touches a changed line
// (or that left none) is split, down to single tests. It returns the
// single tests that left no profile. root marks a first-level run
// (searchAll): its stream gives the tests' outcomes and times, its
// profile is part of the package's.
func (g *grouper) search(ctx context.Context, tests []string, root bool) ([]string, error) {
	if len(tests) == 0 {
		return nil, nil
	}
	prof, data, err := g.run(ctx, tests, root)
	if err != nil {
		return nil, err
	}
	if root && prof != nil {
		g.roots = append(g.roots, prof)
	}
	if prof != nil && !touches(prof, g.changed) {
		return nil, nil
	}
	if root && len(tests) > 1 {
		// A test slower than a process's start runs alone at once: the
		// halving would run it again at every level its groups touch a
		// changed line, where alone it runs once — the least any test
		// of a touching first-level run is run again.
		slow, fast := splitSlow(tests, func(t string) time.Duration { return g.elapsed[t] })
		if len(slow) > 0 {
			missing, err := g.search(ctx, fast, false)
			for _, t := range slow {
				if err != nil {
					break
				}
				var m []string
				m, err = g.search(ctx, []string{t}, false)
				missing = append(missing, m...)
			}
			return missing, err
		}
	}
	if len(tests) == 1 {
		if prof == nil {
			return tests, nil
		}
		g.leaves++
		g.a.Detail.Profiles[g.t.importPath+"."+tests[0]] = g.e.keep(ctx, g.a, data)
		return nil, nil
	}
	mid := len(tests) / 2
	left, err := g.search(ctx, tests[:mid], false)
	if err != nil {
		return nil, err
	}
	right, err := g.search(ctx, tests[mid:], false)
	return append(left, right...), err
}

// baseline runs tests together on the baseline and returns their
// profiles; a run that left none (a test panicked, and the process ended
// before writing it) is split in halves, down to single tests, so that one
// crashing test does not hide what the others ran. missing are the single
// tests that left none.
func (g *grouper) baseline(ctx context.Context, tests []string) (profs []*cover.Profile, missing []string, err error) {
	if len(tests) == 0 {
		return nil, nil, nil
	}
	prof, _, err := g.run(ctx, tests, false)
	switch {
	case err != nil:
		return nil, nil, err
	case prof != nil:
		return []*cover.Profile{prof}, nil, nil
	case len(tests) == 1:
		return nil, tests, nil
	}
	mid := len(tests) / 2
	lp, lm, err := g.baseline(ctx, tests[:mid])
	if err != nil {
		return nil, nil, err
	}
	rp, rm, err := g.baseline(ctx, tests[mid:])
	return append(lp, rp...), append(lm, rm...), err
}

// run runs tests together with a coverage profile; prof is nil when the
// process left none (a panic, a crash) or it does not parse.
func (g *grouper) run(ctx context.Context, tests []string, root bool) (*cover.Profile, []byte, error) {
	g.runs++
	name := "p" + strconv.Itoa(g.runs) + ".out"
	v := g.e.viewOf(g.w, g.dir, g.out)
	s := &jobs.Spec{Tests: tests}
	stream, r, err := g.e.runTest(ctx, g.w, g.a, g.b, g.t, g.dir, g.out,
		[]string{"-test.run", s.RunPattern(), "-test.coverprofile=" + path.Join(filepathSlash(v.out), name)}, nil, g.timeout)
	if err != nil {
		return nil, nil, err
	}
	g.a.Detail.Runs = append(g.a.Detail.Runs, jobs.Run{Verdict: fmt.Sprintf("%d tests", len(tests)), ExitCode: r.res.ExitCode,
		Termination: r.res.Termination.String(), WallMillis: r.res.Wall.Milliseconds(), Binary: g.b.sha256})
	if root && stream != nil {
		if rep, err := gotest.Read(bytes.NewReader(stream)); err == nil {
			for k, res := range gotest.SuiteResults(rep) {
				if test, ok := strings.CutPrefix(k, g.t.importPath+"."); ok && !strings.Contains(test, "/") {
					g.outcome[test] = res.String()
				}
			}
			if p := rep.Packages[g.t.importPath]; p != nil {
				for name, t := range p.Tests {
					if t.ElapsedReported && !strings.Contains(name, "/") {
						g.elapsed[name] = t.Elapsed
					}
				}
			}
		}
	}
	data, err := jobfile.Read(g.out, name, maxProfileBytes)
	if err != nil {
		if isNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("the coverage profile of %s: %w", g.t.importPath, err)
	}
	prof, err := cover.ParseProfile(bytes.NewReader(data))
	if err != nil {
		return nil, nil, nil
	}
	return prof, data, nil
}

// touches reports whether a profile executed a block that overlaps a
// changed line.
func touches(p *cover.Profile, changed map[string][]int) bool {
	for _, b := range p.Blocks {
		if b.Count == 0 {
			continue
		}
		for _, l := range changed[b.File] {
			if l >= b.StartLine && l <= b.EndLine {
				return true
			}
		}
	}
	return false
}

// changedCoverLines maps the profile name of each changed Go source file
// (its package's import path and base name) to its changed lines.
func (w *Workspace) changedCoverLines() (map[string][]int, error) {
	out := map[string][]int{}
	for _, ch := range w.co.Changes {
		if !isChangedGoSource(ch) {
			continue
		}
		_, _, ip, err := w.module(jobs.TreeOracle, "./"+path.Dir(ch.Path))
		if err != nil {
			continue
		}
		out[ip+"/"+path.Base(ch.Path)] = ch.ChangedLines
	}
	return out, nil
}

func filepathSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// isNotExist reports a missing file, as jobfile reports it.
func isNotExist(err error) bool { return errorsIsNotExist(err) }

// trustedGoTestsIn reports whether the trusted tests add, change or delete
// a Go test file of the package in dir (a directory of the repository).
func (w *Workspace) trustedGoTestsIn(dir string) bool {
	for _, p := range w.co.Trusted {
		if strings.HasSuffix(p, "_test.go") && path.Dir(p) == path.Clean(dir) {
			return true
		}
	}
	return false
}

// testFilesUnchanged reports whether the patch adds, changes or deletes
// no Go test file in the repository directory dir.
func (w *Workspace) testFilesUnchanged(dir string) bool {
	for _, ch := range w.co.Changes {
		if strings.HasSuffix(ch.Path, "_test.go") && path.Dir(ch.Path) == path.Clean(dir) {
			return false
		}
	}
	return true
}

// testTypeError reports whether a failed build's cause (buildCause) is
// the type checker's rejection of a test file — `x_test.go:12:5:
// undefined: splitToken` — and nothing the environment could cause: a
// module or package not found, a checksum, an import that cannot be
// read.
func testTypeError(cause string) bool {
	for _, env := range []string{"no required module", "cannot find package", "go.sum", "could not import",
		"is not in std", "build constraints exclude", "go: ", "no such file", "permission denied", "signal: ", "killed"} {
		if strings.Contains(cause, env) {
			return false
		}
	}
	for _, part := range strings.Split(cause, "; ") {
		file, rest, ok := strings.Cut(part, "_test.go:")
		if !ok || file == "" {
			continue
		}
		line, rest, ok := strings.Cut(rest, ":")
		if _, err := strconv.Atoi(line); !ok || err != nil {
			continue
		}
		if col, msg, ok := strings.Cut(rest, ": "); ok {
			if _, err := strconv.Atoi(col); err == nil && msg != "" {
				return true
			}
		}
	}
	return false
}

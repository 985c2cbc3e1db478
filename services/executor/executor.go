// Package executor runs the jobs of a run: each claimed test alone in its
// package on each side, prerequisites, discovery and the full suite, in a
// sandbox, in a fresh copy of the tree the job names, and reads what `go
// test -json` and the process's end say into a side outcome.
//
// The package holds no ledger code: its handler plans with it and records
// what it answers.
package executor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/gotest"
	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Go is the toolchain the jobs run with.
type Go struct {
	// Root is GOROOT; its bin/go runs the tests.
	Root string
	// Cache is the build cache shared by the gate's jobs (writable in the
	// sandbox); ModCache the module cache (read-only).
	Cache, ModCache string
}

// Executor runs jobs.
type Executor struct {
	Sandbox *sandbox.Runner
	Go      Go
	// Scratch holds the run workspaces.
	Scratch string
	Blobs   *blob.Store
	// MaxStreamBytes bounds the output kept per process; zero means 64 MiB.
	MaxStreamBytes int64
	// SuiteCache, when set, is the directory where baseline suite answers
	// are kept per baseline tree (see suitecache.go).
	SuiteCache string
	// Tools is where the toolchain's tools the gate builds (test2json,
	// when the distribution ships none prebuilt) are kept, per toolchain,
	// across runs and processes, with the build cache they are built
	// from (their own: tools run outside the sandbox); written only
	// outside the sandbox. Empty keeps them in Scratch.
	Tools string
	// Proxy is the GOPROXY module downloads use; "" leaves the go
	// command's own setting (its go env file, or the toolchain's default).
	Proxy string
	// BinCache, when set, is the directory where test binaries built
	// under bwrap are kept across runs and processes, by the content of
	// what they are built from (see bincache.go); written only outside
	// the sandbox. Empty builds every run's binaries anew.
	BinCache string

	cfgOnce sync.Once
	cfgDir  string

	ccOnce sync.Once
	cc     string

	toolMu  sync.Mutex
	tool    string
	toolErr error

	// fillMu guards fills: per go.mod and go.sum content (modulesKey),
	// a channel closed once their dependencies are in the module cache
	// by this process's doing (modules.go).
	fillMu sync.Mutex
	fills  map[string]chan struct{}
}

// Workspace is one run's materialized trees, kept pristine: every job runs
// in its own copy.
type Workspace struct {
	// Limits bound every process of the run (the sealed criteria's);
	// each job's timeout comes from its spec.
	Limits sandbox.Limits

	co   *checkout.Checkout
	dir  string
	jobs atomic.Int64

	// mu guards bins and serializes the making of variants: jobs of one
	// run may run at once (seal checks; a replica's lanes).
	mu sync.Mutex
	// treesMu guards pristine, read by every job (tree).
	treesMu  sync.RWMutex
	pristine map[string]string
	bins     map[string]*builtBin
	// digests holds each pristine tree's content digest, once hashed
	// (bincache.go), guarded by mu.
	digests  map[string]string
	binCount atomic.Int64
	// refWalls holds each test's longest passing reference run in mutant
	// jobs (multi.go), guarded by mu.
	refWalls map[string]time.Duration
	// suiteTimes holds, per import path, each top-level test's time in
	// the patch side's suite run, guarded by mu: the coverage search
	// runs the slow ones alone from the start.
	suiteTimes map[string]map[string]time.Duration
	// py is the run's Python mutant switch (pymutant.go).
	py pyRun

	// spliceAll is Spliceable("") (plan.go), made once.
	spliceOnce sync.Once
	spliceAll  []string

	// downloadSec bounds a module download outside a modules job
	// (ensureModules; ApplyLimits); zero leaves the job's own timeout.
	downloadSec int
}

// Open materializes the baseline, the patch and the oracle trees of co
// under the executor's scratch directory.
func (e *Executor) Open(ctx context.Context, runID string, co *checkout.Checkout) (*Workspace, error) {
	dir := filepath.Join(e.Scratch, "run-"+safeName(runID))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	w := &Workspace{co: co, dir: dir, pristine: map[string]string{}, bins: map[string]*builtBin{}}
	if err := os.MkdirAll(w.binDir(), 0o755); err != nil {
		return nil, err
	}
	for name, mat := range map[string]func(context.Context, string) error{
		jobs.TreeBaseline: co.MaterializeBaseline,
		jobs.TreeOracle:   co.MaterializeOracle,
		"patch":           co.MaterializePatch,
	} {
		d := filepath.Join(dir, "pristine-"+name)
		if err := mat(ctx, d); err != nil {
			return nil, fmt.Errorf("materialize the %s tree: %w", name, err)
		}
		w.pristine[name] = d
	}
	return w, nil
}

// jobDir names a new job directory: jobs of one workspace may run at once
// (seal checks are dealt to several workers).
func (w *Workspace) jobDir() string {
	return filepath.Join(w.dir, fmt.Sprintf("job-%04d", w.jobs.Add(1)))
}

// Close removes the workspace.
func (w *Workspace) Close() error { return os.RemoveAll(w.dir) }

// Answer is what a job established.
type Answer struct {
	Detail jobs.Detail
	// Cases are the tests the last run reported (suite jobs: every test).
	Cases []jobs.Case
	// Termination and ExitCode are the last run's.
	Termination sandbox.Termination
	ExitCode    int
	Started     bool
	Wall, CPU   time.Duration
	Sandbox     sandbox.Info
	// Artefacts are the blob digests of the streams, in run order.
	Artefacts []string
}

// Execute runs one job. Failures to run at all are answers (not started,
// with the reason), never errors, unless the context ended.
func (e *Executor) Execute(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{}
	if s.Skip != "" {
		a.Detail = jobs.Detail{Outcome: jobs.OutcomeNotRun, Reason: s.Skip, Runs: []jobs.Run{}}
		return a
	}
	if key := e.suiteKey(w, s); key != "" {
		if a := e.cachedSuite(ctx, key); a != nil {
			return a
		}
		a := e.execute(ctx, w, s)
		if ctx.Err() == nil {
			e.keepSuite(key, a)
		}
		return a
	}
	return e.execute(ctx, w, s)
}

func (e *Executor) execute(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := &Answer{}
	e.ensureModules(ctx, w, s)
	switch {
	case s.Runner == jobs.RunnerPytest && s.Purpose == jobs.Coverage:
		return e.executePytestCoverage(ctx, w, s)
	case s.Runner == jobs.RunnerPytest && s.Purpose == jobs.Mutant:
		return e.executePytestMutant(ctx, w, s)
	case s.Runner != jobs.RunnerGo:
		return e.executeProcess(ctx, w, s)
	case s.Purpose == jobs.Coverage:
		return e.executeCoverage(ctx, w, s)
	case s.Purpose == jobs.Mutant:
		return e.executeMutant(ctx, w, s)
	case s.Purpose == jobs.Written:
		return e.executeWritten(ctx, w, s)
	case s.Purpose == jobs.Collateral, s.Purpose == jobs.Discovery:
		return e.executeGoSuite(ctx, w, s)
	case s.Purpose == jobs.Modules:
		return e.executeModules(ctx, w, s)
	}
	a.Detail.Runs = []jobs.Run{}
	runs := 1 + max(s.Reruns, 0)
	var outcomes []string
	var reasons []string
	for i := 0; i < runs; i++ {
		out, reason, run, err := e.onceGo(ctx, w, s, a, false)
		if err != nil {
			if ctx.Err() == nil {
				err = fmt.Errorf("%s", jobfile.Excerpt(err.Error()))
			}
			a.Detail = jobs.Detail{Outcome: jobs.OutcomeUnrunnable, Reason: err.Error(), Runs: nonNil(a.Detail.Runs)}
			return a
		}
		a.Detail.Runs = append(a.Detail.Runs, run)
		outcomes = append(outcomes, out)
		reasons = append(reasons, reason)
		// Only failures are repeated: a pass, a timeout (never retried into
		// a pass) or a harness death decides at once.
		if out != jobs.OutcomeFail {
			break
		}
	}
	a.Detail.Outcome, a.Detail.Reason = settle(outcomes, reasons)
	if a.Detail.Outcome == jobs.OutcomePass && elsewhereToo(s) {
		usual := *a
		// A failure there is run again, as a failure here is: a test of
		// timing on a loaded machine fails once anywhere; a fix that
		// holds only in the usual sandbox fails there every time.
		var out, reason string
		for i := 0; i < 1+max(s.Reruns, 0); i++ {
			o, why, run, err := e.onceGo(ctx, w, s, a, true)
			if err != nil {
				o, why = jobs.OutcomeUnrunnable, jobfile.Excerpt(err.Error())
			}
			run.Reason = "elsewhere: " + run.Reason
			a.Detail.Runs = append(a.Detail.Runs, run)
			out, reason = o, why
			if o != jobs.OutcomeFail {
				break
			}
		}
		settleElsewhere(a, &usual, out, reason)
	}
	return a
}

// settleElsewhere folds the outcome of a claim's elsewhere runs into its
// answer a, which passed in the usual sandbox (usual, as it stood then):
// anything but a pass there makes it flaky; a pass keeps the usual run as
// the answer's last (every run is in Runs).
func settleElsewhere(a, usual *Answer, out, reason string) {
	if out != jobs.OutcomePass {
		a.Detail.Outcome = jobs.OutcomeFlaky
		a.Detail.Reason = fmt.Sprintf("passes in the sandbox and not where it looks like another machine (%s): %s (%s there): its result depends on where it runs", elsewhereLooks, reason, out)
		return
	}
	a.Termination, a.ExitCode, a.Sandbox = usual.Termination, usual.ExitCode, usual.Sandbox
}

// elsewhereLooks says how a run Elsewhere differs from the usual sandbox.
const elsewhereLooks = "another user, HOME under /home, no TMPDIR, another host name in /etc, TZ Asia/Kolkata, CI=true, TERM and LANG set, a resolver configured, /var, /run, /etc/mtab, no Go toolchain"

// elsewhereToo reports the jobs whose pass must hold Elsewhere too: a
// claimed test on the patch (its claim and edited runs), which is what
// shows the fix. A patch that fixes the bug only where it finds the gate's
// sandbox (its user, TMPDIR, time zone, an empty resolver configuration)
// keeps the bug on the machines it is merged for.
func elsewhereToo(s *jobs.Spec) bool {
	return s.Side == jobs.Patch && (s.Purpose == jobs.Claim || s.Purpose == jobs.Edited)
}

// settle folds repeated runs into one outcome: all failures fail, a failure
// and a pass are flaky.
func settle(outcomes, reasons []string) (string, string) {
	last := outcomes[len(outcomes)-1]
	if len(outcomes) == 1 {
		return last, reasons[0]
	}
	if slices.Contains(outcomes, jobs.OutcomePass) {
		return jobs.OutcomeFlaky, fmt.Sprintf("failed %d of %d runs: %s", len(outcomes)-1, len(outcomes), reasons[0])
	}
	for _, o := range outcomes {
		if o != jobs.OutcomeFail {
			return jobs.OutcomeFlaky, fmt.Sprintf("runs disagree (%s): %s", strings.Join(outcomes, ", "), reasons[len(reasons)-1])
		}
	}
	return jobs.OutcomeFail, fmt.Sprintf("failed all %d runs: %s", len(outcomes), reasons[0])
}

// testsOutcome judges the tests a claim or prerequisite job selected; the
// worst of them decides.
func (e *Executor) testsOutcome(report *gotest.Report, s *jobs.Spec, res sandbox.Result, term gotest.Termination) (string, string) {
	rank := map[string]int{jobs.OutcomePass: 0, jobs.OutcomeFail: 1, jobs.OutcomeAbsent: 2, jobs.OutcomeTimeout: 3, jobs.OutcomeUnrunnable: 4, jobs.OutcomeInvalid: 5}
	worst, why := jobs.OutcomePass, ""
	for _, t := range s.Tests {
		v := gotest.VerdictIn(report, s.ImportPath, t, s.Tests, res.ExitCode, term)
		o := sideOutcome(v, report, s, res)
		if why == "" || rank[o] > rank[worst] {
			worst, why = o, fmt.Sprintf("%s: %s", t, v.String())
		}
	}
	return worst, why
}

// sideOutcome maps the reader's verdict to a side outcome.
func sideOutcome(v gotest.Outcome, report *gotest.Report, s *jobs.Spec, res sandbox.Result) string {
	transplanted := s.Side == jobs.Baseline && (len(s.Transplant) > 0 || len(s.Splice) > 0)
	switch v.Kind {
	case gotest.OutcomePass:
		return jobs.OutcomePass
	case gotest.OutcomeFail:
		return jobs.OutcomeFail
	case gotest.OutcomeHarnessDied:
		if res.Termination == sandbox.Timeout {
			return jobs.OutcomeTimeout
		}
		if p := report.Packages[s.ImportPath]; p != nil && p.TimedOut {
			return jobs.OutcomeTimeout
		}
		return jobs.OutcomeUnrunnable
	case gotest.OutcomeBuildFailed, gotest.OutcomeNotRun:
		if transplanted {
			// A new test laid over the baseline code that does not build
			// or run there: the test does not exist on the baseline.
			return jobs.OutcomeAbsent
		}
		return jobs.OutcomeUnrunnable
	case gotest.OutcomeSkipped:
		if s.Purpose == jobs.Prereq {
			// A baseline test of the file that skips itself (short
			// mode, an environment it needs) does not fail: it holds
			// nothing back. The suites judge a test that passes on the
			// baseline and skips on the patch.
			return jobs.OutcomePass
		}
		return jobs.OutcomeUnrunnable
	}
	return jobs.OutcomeInvalid
}

func suiteOutcome(report *gotest.Report, res sandbox.Result) (string, string) {
	var n, failed int
	for _, p := range report.Packages {
		n += p.Counts.Tests
		failed += p.Counts.Failed
	}
	switch res.Termination {
	case sandbox.Timeout:
		return jobs.OutcomeTimeout, fmt.Sprintf("the suite did not finish within its limit (%d tests seen)", n)
	case sandbox.Exited:
	default:
		return jobs.OutcomeUnrunnable, fmt.Sprintf("the suite's process died (%s)", res.Termination)
	}
	builds := report.FailedBuilds()
	switch {
	case res.ExitCode == 0 && len(builds) == 0:
		return jobs.OutcomePass, fmt.Sprintf("exit 0, %d tests in %d packages", n, len(report.Packages))
	case len(builds) > 0:
		return jobs.OutcomeFail, fmt.Sprintf("exit %d, build failed: %s", res.ExitCode, strings.Join(builds, ", "))
	}
	return jobs.OutcomeFail, fmt.Sprintf("exit %d, %d of %d tests failed", res.ExitCode, failed, n)
}

// maxSuiteSubtests bounds the subtests a suite run lists (each is a name
// on the ledger).
const maxSuiteSubtests = 20_000

// suiteCases lists every test of a suite run with its result, keyed
// "<import path>.<Test>" and "<import path>.<Test>/<subtest>": a failing
// subtest fails its parent, but a parent passes with a subtest skipped or
// gone, so a subtest the baseline passes is owed a pass on the patch too.
// Past maxSuiteSubtests subtests only the top-level tests are listed, and
// unlisted says how many were left out: a patch-side run over the bound
// then lacks every baseline subtest, which reads as missing.
func suiteCases(report *gotest.Report) (cases []jobs.Case, unlisted int) {
	results := gotest.SuiteResults(report)
	var top, sub []jobs.Case
	for _, pkg := range report.PackagePaths() {
		for _, name := range report.Packages[pkg].TestNames() {
			key := gotest.SuiteKey(pkg, name)
			c := jobs.Case{Name: key, Outcome: results[key].String()}
			if strings.Contains(name, "/") {
				sub = append(sub, c)
			} else {
				top = append(top, c)
			}
		}
	}
	out := top
	if len(sub) > maxSuiteSubtests {
		unlisted = len(sub)
	} else {
		out = append(out, sub...)
	}
	slices.SortFunc(out, func(a, b jobs.Case) int { return strings.Compare(a.Name, b.Name) })
	return nonNil(out), unlisted
}

func termination(t sandbox.Termination) gotest.Termination {
	switch t {
	case sandbox.Exited:
		return gotest.TerminationExited
	case sandbox.Timeout:
		return gotest.TerminationTimeout
	case sandbox.OOM:
		return gotest.TerminationOutOfMemory
	case sandbox.Signaled, sandbox.Rlimit:
		return gotest.TerminationSignal
	}
	return gotest.TerminationUnknown
}

// prepare copies the job's tree into dir, lays its transplanted files
// over it, splices the tests it names, and puts back the files it
// restores.
func (w *Workspace) prepare(dir string, s *jobs.Spec) error {
	src := w.tree(s.Tree)
	if src == "" {
		return fmt.Errorf("unknown tree %q", s.Tree)
	}
	if err := copyTree(dir, src); err != nil {
		return err
	}
	if err := w.layOver(dir, s.Transplant); err != nil {
		return err
	}
	if err := w.splice(dir, s.Splice); err != nil {
		return err
	}
	// A counterfactual job's test support put back (Go jobs get theirs
	// in the variant tree they build in, see variantOf).
	return w.restore(dir, s.Restore)
}

// env is the environment of a pytest or command process: named variables
// only. Its Go build cache is one of the run's own, per side (see start),
// never the gate's: tested code could plant entries there for later
// builds.
func (e *Executor) env(cache string) []string {
	env := []string{
		"PATH=" + filepath.Join(e.Go.Root, "bin") + ":/usr/bin:/bin",
		"GOROOT=" + e.Go.Root,
		"GOCACHE=" + cache,
		"GOMODCACHE=" + e.Go.ModCache,
		"GOPROXY=off",
		"GOTOOLCHAIN=local",
		"GOENV=off",
		"GOTELEMETRY=off",
		"GOFLAGS=",
		"LC_ALL=C",
	}
	if cfg := e.goConfigDir(); cfg != "" {
		env = append(env, "XDG_CONFIG_HOME="+cfg)
	}
	return env
}

// envWithPath is env with dirs put first in PATH.
func (e *Executor) envWithPath(cache string, dirs []string) []string {
	env := e.env(cache)
	if len(dirs) == 0 {
		return env
	}
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + strings.Join(dirs, ":") + ":" + v
		}
	}
	return env
}

func existing(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// capped keeps at most max bytes and counts the rest.
type capped struct {
	bytes.Buffer
	max     int64
	dropped int64
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - int64(c.Len())
	if room <= 0 {
		c.dropped += int64(len(p))
		return len(p), nil
	}
	if int64(len(p)) > room {
		c.Buffer.Write(p[:room])
		c.dropped += int64(len(p)) - room
		return len(p), nil
	}
	return c.Buffer.Write(p)
}

var _ io.Writer = (*capped)(nil)

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// tree returns the directory of the pristine tree name ("" when the
// workspace has none): jobs of one run may run at once (seal checks; jobs
// of a run spread over a replica's lanes), and a variant may be added
// meanwhile.
func (w *Workspace) tree(name string) string {
	w.treesMu.RLock()
	defer w.treesMu.RUnlock()
	return w.pristine[name]
}

// setTree records the directory of the pristine tree name.
func (w *Workspace) setTree(name, dir string) {
	w.treesMu.Lock()
	defer w.treesMu.Unlock()
	w.pristine[name] = dir
}

// trees counts the pristine trees.
func (w *Workspace) trees() int {
	w.treesMu.RLock()
	defer w.treesMu.RUnlock()
	return len(w.pristine)
}

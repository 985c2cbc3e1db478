package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/executortest"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// workspace checks out the demo's baseline and a patch commit that adds
// files to the honest fix, and opens an executor workspace on it. The
// tests run real `go test` processes.
func workspace(t *testing.T, files map[string]string) (*executor.Executor, *executor.Workspace) {
	t.Helper()
	return openWorkspace(t, files, false)
}

// workspaceWithHarness is workspace with the checkout's harness findings
// cleared: the test files the patch adds run in every tree, as they would
// if the checkout's harness rules missed them. It tests the executor's own
// line of defence.
func workspaceWithHarness(t *testing.T, files map[string]string) (*executor.Executor, *executor.Workspace) {
	t.Helper()
	return openWorkspace(t, files, true)
}

func openWorkspace(t *testing.T, files map[string]string, keepHarness bool) (*executor.Executor, *executor.Workspace) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		t.Skip("needs git and the go tool; not in -short")
	}
	ctx := context.Background()
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	var honest string
	for _, p := range repo.Patches {
		if p.Expect == demo.Merge {
			honest = p.Commit
		}
	}
	patch, err := repo.Commit(ctx, honest, "extra", "extra", files)
	if err != nil {
		t.Fatal(err)
	}
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: repo.Base, PatchCommit: patch}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if keepHarness {
		co.TestHarness, co.HarnessPackages = nil, nil
	}
	return openOn(t, co)
}

// openOn opens an executor workspace on co: a real sandbox, the machine's
// Go toolchain and module cache, the tests' shared build cache.
func openOn(t *testing.T, co *checkout.Checkout) (*executor.Executor, *executor.Workspace) {
	t.Helper()
	ctx := context.Background()
	e := executortest.New(t)
	w, err := e.Open(ctx, "run-test", co)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return e, w
}

func limits() *criteria.Criteria {
	c := &criteria.Criteria{Claims: []string{"x"}}
	c.ApplyDefaults()
	c.Limits.StabilityReruns = 2
	return c
}

// A test that fails once and then passes is flaky, never a failure and
// never a pass. Runs share nothing a test could count in (no cache, no
// /tmp, a fresh tree each), so it keys on time: the gate stores the test
// binary just before the first run; that run waits until five seconds
// after and fails, and the reruns, later, pass.
const flakyTest = `package calc

import (
	"os"
	"testing"
	"time"
)

func TestFlaky(t *testing.T) {
	fi, err := os.Stat(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(fi.ModTime().Add(5 * time.Second)); d > 0 {
		time.Sleep(d)
		t.Fatal("first run fails")
	}
}

func TestSkips(t *testing.T) { t.Skip("not today") }

// TestNoProc: test binaries see no /proc (code would read there that it
// runs as a test binary under the gate, from paths no static probe reads).
func TestNoProc(t *testing.T) {
	if _, err := os.ReadFile("/proc/self/cmdline"); err == nil {
		t.Fatal("the test binary reads /proc/self/cmdline")
	}
}
`

func TestExecuteOutcomes(t *testing.T) {
	e, w := workspace(t, map[string]string{"calc/flaky_test.go": flakyTest})
	plan := w.Plan(&criteria.Criteria{
		Claims: []string{"go:./calc:TestFlaky", "go:./calc:TestSkips", "go:./calc:TestMedian", "go:./calc:TestNowhere", "go:./calc:TestNoProc"},
		Limits: limits().Limits,
	})
	got := map[string]string{}
	for _, s := range plan {
		a := e.Execute(context.Background(), w, s)
		got[s.ID()] = a.Detail.Outcome
		if s.Skip == "" && s.Purpose != jobs.Modules && (len(a.Detail.Runs) == 0 || a.Sandbox.Name == "") {
			t.Errorf("%s: no run recorded: %+v", s.ID(), a)
		}
		if s.Purpose == jobs.Collateral && len(a.Cases) < 5 {
			t.Errorf("suite cases %v", a.Cases)
		}
	}
	want := map[string]string{
		"claim/baseline/go:./calc:TestMedian":  jobs.OutcomeFail,
		"claim/patch/go:./calc:TestMedian":     jobs.OutcomePass,
		"claim/patch/go:./calc:TestFlaky":      jobs.OutcomeFlaky,
		"claim/patch/go:./calc:TestSkips":      jobs.OutcomeUnrunnable,
		"claim/baseline/go:./calc:TestNowhere": jobs.OutcomeNotRun,
		"claim/patch/go:./calc:TestNowhere":    jobs.OutcomeNotRun,
		"claim/patch/go:./calc:TestNoProc":     jobs.OutcomePass,
		// The suite runs the flaky test once, with the claims' binary,
		// more than five seconds after it was built: it passes that time.
		"collateral/patch/.:./...": jobs.OutcomePass,
	}
	for id, outcome := range want {
		if got[id] != outcome {
			t.Errorf("%s: %s, want %s", id, got[id], outcome)
		}
	}
}

func TestBaselineSuiteIsCachedPerTree(t *testing.T) {
	cache := t.TempDir()
	run := func(files map[string]string) map[string]*executor.Answer {
		e, w := workspace(t, files)
		e.SuiteCache = cache
		out := map[string]*executor.Answer{}
		for _, s := range w.Plan(limits()) {
			if s.Purpose == jobs.Collateral {
				out[s.Side] = e.Execute(context.Background(), w, s)
			}
		}
		return out
	}
	first := run(map[string]string{"calc/extra.go": "package calc\n\nfunc Extra() int { return 1 }\n"})
	second := run(map[string]string{"calc/extra.go": "package calc\n\nfunc Extra() int { return 2 }\n"})
	for side, a := range first {
		if strings.Contains(a.Detail.Reason, "cached answer") {
			t.Fatalf("first %s suite came from the cache: %s", side, a.Detail.Reason)
		}
	}
	b := second[jobs.Baseline]
	if !strings.Contains(b.Detail.Reason, "cached answer of this baseline tree") || b.Detail.Outcome != first[jobs.Baseline].Detail.Outcome ||
		len(b.Cases) != len(first[jobs.Baseline].Cases) || len(b.Cases) == 0 {
		t.Fatalf("second baseline suite: %s %s, %d cases (first %d)", b.Detail.Outcome, b.Detail.Reason, len(b.Cases), len(first[jobs.Baseline].Cases))
	}
	if b.Detail.Cached == "" || first[jobs.Baseline].Detail.Cached != "" {
		t.Fatalf("the cached answer does not say so (cached %q; first %q): its runs happened in the earlier run", b.Detail.Cached, first[jobs.Baseline].Detail.Cached)
	}
	// The patch side is never cached: each patch is a new tree.
	if p := second[jobs.Patch]; strings.Contains(p.Detail.Reason, "cached") {
		t.Fatalf("patch suite came from the cache: %s", p.Detail.Reason)
	}
}

// A job whose context ends while its test binary builds (the process
// stops, or the run's message moves to another replica) leaves no answer
// behind for the binary: the next job that needs it builds it again and
// runs, instead of inheriting "run cancelled" as its answer.
func TestCancelledBuildIsNotKept(t *testing.T) {
	e, w := workspace(t, nil)
	var claim *jobs.Spec
	for _, s := range w.Plan(&criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, Limits: limits().Limits}) {
		if s.Purpose == jobs.Claim && s.Side == jobs.Patch {
			claim = s
		}
	}
	if claim == nil {
		t.Fatal("no patch claim job planned")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a := e.Execute(ctx, w, claim); a.Detail.Outcome == jobs.OutcomePass {
		t.Fatalf("a job whose context had ended passed: %+v", a.Detail)
	}
	if a := e.Execute(context.Background(), w, claim); a.Detail.Outcome != jobs.OutcomePass {
		t.Fatalf("after a cancelled build the claim is %s (%s), want PASS", a.Detail.Outcome, a.Detail.Reason)
	}
}

package executor_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/executortest"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// moduleWorkspace opens a workspace on a baseline that requires
// github.com/google/uuid, with go.sum as given, and a patch that changes a
// line of code, over an empty module cache.
func moduleWorkspace(t *testing.T, gosum string) (*executor.Executor, *executor.Workspace) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		t.Skip("needs git, the go tool and the module proxy; not in -short")
	}
	ctx := context.Background()
	repo, base, patch := executortest.ModuleRepo(t, gosum)
	co, err := checkout.Prepare(ctx, checkout.Input{Repo: repo.Dir, Baseline: base, PatchCommit: patch}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	box, err := sandbox.New(ctx, sandbox.Config{Mode: sandbox.Auto})
	if err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	e := &executor.Executor{Sandbox: box, Scratch: t.TempDir(),
		Go: executor.Go{Root: strings.TrimSpace(string(goroot)), Cache: cache, ModCache: t.TempDir()}}
	w, err := e.Open(ctx, "run-modules", co)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return e, w
}

func TestModulesAreDownloadedOutsideTheSandbox(t *testing.T) {
	e, w := moduleWorkspace(t, executortest.UUIDSums(t))
	c := limits()
	c.Claims = []string{"go:./calc:TestID"}
	got := map[string]*executor.Answer{}
	for _, s := range w.Plan(c) {
		if s.Purpose == jobs.Modules || s.Purpose == jobs.Claim {
			got[s.ID()] = e.Execute(context.Background(), w, s)
		}
	}
	for _, id := range []string{"modules/baseline/.:", "modules/patch/.:"} {
		a := got[id]
		if a == nil || a.Detail.Outcome != jobs.OutcomePass || len(a.Artefacts) == 0 && e.Blobs != nil {
			t.Fatalf("%s: %+v", id, a)
		}
	}
	// The claim built offline, in the sandbox, from what was downloaded.
	for _, side := range []string{jobs.Baseline, jobs.Patch} {
		a := got["claim/"+side+"/go:./calc:TestID"]
		if a == nil || a.Detail.Outcome != jobs.OutcomePass {
			t.Fatalf("claim on the %s: %+v", side, a)
		}
	}
	if _, err := os.Stat(filepath.Join(e.Go.ModCache, "cache", "download", executortest.UUIDModule)); err != nil {
		t.Fatalf("nothing reached the module cache: %v", err)
	}
}

func TestModulesChecksumMismatchIsNamed(t *testing.T) {
	sums := executortest.UUIDSums(t)
	bad := strings.Replace(sums, "h1:", "h1:AAAA", 1)
	e, w := moduleWorkspace(t, bad)
	for _, s := range w.Plan(limits()) {
		if s.Purpose != jobs.Modules {
			continue
		}
		a := e.Execute(context.Background(), w, s)
		if a.Detail.Outcome != jobs.OutcomeFail || !strings.HasPrefix(a.Detail.Reason, executor.ChecksumMismatch) {
			t.Fatalf("%s: %s %s", s.ID(), a.Detail.Outcome, a.Detail.Reason)
		}
	}
}

// TestEnsureModulesFillsWhatNoModulesJobDid: a service that type-checks
// or builds a workspace's code before any of its jobs runs here (a
// replica that never ran the run's modules jobs) fills its own module
// cache first, with the same go.sum check as the modules job: content
// that disagrees with go.sum never reaches the cache, and the job that
// needed it cannot build.
func TestEnsureModulesFillsWhatNoModulesJobDid(t *testing.T) {
	ctx := context.Background()
	sums := executortest.UUIDSums(t)
	e, w := moduleWorkspace(t, sums)
	w.ApplyLimits(limits())
	e.EnsureModules(ctx, w, jobs.TreeOracle, []string{"calc"})
	if _, err := os.Stat(filepath.Join(e.Go.ModCache, executortest.UUIDModule+"@v1.6.0", "uuid.go")); err != nil {
		t.Fatalf("the module cache was not filled: %v", err)
	}

	e, w = moduleWorkspace(t, strings.Replace(sums, "h1:", "h1:AAAA", 1))
	w.ApplyLimits(limits())
	e.EnsureModules(ctx, w, jobs.TreeOracle, []string{"calc"})
	if _, err := os.Stat(filepath.Join(e.Go.ModCache, executortest.UUIDModule+"@v1.6.0")); err == nil {
		t.Fatal("content go.sum disagrees with reached the module cache")
	}
	c := limits()
	c.Claims = []string{"go:./calc:TestID"}
	for _, s := range w.Plan(c) {
		if s.Purpose == jobs.Claim {
			if a := e.Execute(ctx, w, s); a.Detail.Outcome != jobs.OutcomeUnrunnable {
				t.Fatalf("%s over a go.sum the module disagrees with: %s %s", s.ID(), a.Detail.Outcome, a.Detail.Reason)
			}
		}
	}
}

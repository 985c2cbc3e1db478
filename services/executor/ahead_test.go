package executor_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// goJobs plans c on w and keeps the jobs whose test binaries Prebuild
// builds ahead: claims and coverage.
func goJobs(t *testing.T, w *executor.Workspace, c *criteria.Criteria) []*jobs.Spec {
	t.Helper()
	var out []*jobs.Spec
	for _, s := range w.Plan(c) {
		if s.Purpose == jobs.Claim || s.Purpose == jobs.Coverage {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatal("no claim or coverage job planned")
	}
	return out
}

// TestPrebuildServesTheJobs: binaries built ahead give every job the
// answer it gets when it builds its own, and the build is the evidence —
// and the process time — of the first job that runs its binary, as if that
// job had built it.
func TestPrebuildServesTheJobs(t *testing.T) {
	c := &criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, CoverageFloor: 1, Limits: limits().Limits}
	ctx := context.Background()

	// Builds are what this test accounts for: binaries kept from an
	// earlier run (bincache.go) have none.
	e, w := workspace(t, nil)
	e.BinCache = ""
	want := map[string]string{}
	for _, s := range goJobs(t, w, c) {
		a := e.Execute(ctx, w, s)
		want[s.ID()] = a.Detail.Outcome + " " + a.Detail.Reason
	}

	e, w = workspace(t, nil)
	e.BinCache = ""
	specs := goJobs(t, w, c)
	e.Prebuild(ctx, w, specs, 2)
	seen := map[string]bool{}
	for _, s := range specs {
		a := e.Execute(ctx, w, s)
		if got := a.Detail.Outcome + " " + a.Detail.Reason; got != want[s.ID()] {
			t.Errorf("%s built ahead: %s, want %s", s.ID(), got, want[s.ID()])
		}
		var build *jobs.Run
		for i, r := range a.Detail.Runs {
			if r.Verdict == "BUILD" {
				build = &a.Detail.Runs[i]
			}
		}
		if build == nil {
			t.Errorf("%s: no build among its runs %+v", s.ID(), a.Detail.Runs)
			continue
		}
		if !a.Started {
			t.Errorf("%s: not started", s.ID())
		}
		if !seen[build.Binary] && a.Wall.Milliseconds() < build.WallMillis {
			t.Errorf("%s, the first job of binary %.12s: %v of processes, less than its build's %d ms", s.ID(), build.Binary, a.Wall, build.WallMillis)
		}
		seen[build.Binary] = true
	}
}

// TestPrebuildOfABrokenPatch: a patch that does not compile fails its
// build ahead; the job that needs the binary answers with the compiler's
// own words, as it does when it builds.
func TestPrebuildOfABrokenPatch(t *testing.T) {
	e, w := workspace(t, map[string]string{"calc/broken.go": "package calc\n\nfunc Broken() int { return undefinedName }\n"})
	c := &criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, Limits: limits().Limits}
	specs := goJobs(t, w, c)
	e.Prebuild(context.Background(), w, specs, 2)
	for _, s := range specs {
		if s.Purpose != jobs.Claim || s.Side != jobs.Patch {
			continue
		}
		a := e.Execute(context.Background(), w, s)
		if a.Detail.Outcome != jobs.OutcomeUnrunnable || !strings.Contains(a.Detail.Reason, "undefinedName") {
			t.Fatalf("claim on a broken patch, built ahead: %s: %s", a.Detail.Outcome, a.Detail.Reason)
		}
		if !a.Started || a.Wall == 0 {
			t.Fatalf("the failed build is not accounted for in the job: started %v, wall %v", a.Started, a.Wall)
		}
		return
	}
	t.Fatal("no patch claim job planned")
}

// TestPrebuildCutShort: builds ahead whose context ends are not kept; the
// jobs build their binaries themselves.
func TestPrebuildCutShort(t *testing.T) {
	e, w := workspace(t, nil)
	specs := goJobs(t, w, &criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, Limits: limits().Limits})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.Prebuild(ctx, w, specs, 2)
	for _, s := range specs {
		if s.Purpose != jobs.Claim || s.Side != jobs.Patch {
			continue
		}
		if a := e.Execute(context.Background(), w, s); a.Detail.Outcome != jobs.OutcomePass {
			t.Fatalf("after builds ahead were cut short the claim is %s (%s), want PASS", a.Detail.Outcome, a.Detail.Reason)
		}
		return
	}
	t.Fatal("no patch claim job planned")
}

// slowTripleWorkspace: the demo's baseline with calc/triple.go and a test
// that sleeps 300 ms and is the only one to call it; the patch changes
// Triple's one line. Its criteria claim that test, coverage at floor 1.
func slowTripleWorkspace(t *testing.T) (*executor.Executor, *executor.Workspace, *criteria.Criteria) {
	t.Helper()
	e, w, _ := workspaceOn(t, map[string]string{
		"calc/triple.go":      "package calc\n\n// Triple returns 3x.\nfunc Triple(x int) int {\n\treturn x + x + x\n}\n",
		"calc/triple_test.go": "package calc\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestTripleSlowly(t *testing.T) {\n\ttime.Sleep(300 * time.Millisecond)\n\tif Triple(2) != 6 {\n\t\tt.Fatal(Triple(2))\n\t}\n}\n",
	}, map[string]string{"calc/triple.go": "package calc\n\n// Triple returns 3x.\nfunc Triple(x int) int {\n\treturn 3 * x\n}\n"})
	c := &criteria.Criteria{Claims: []string{"go:./calc:TestTripleSlowly"}, CoverageFloor: 1, Limits: limits().Limits}
	return e, w, c
}

// TestCoverageRunsASlowTestAloneAtOnce: the coverage search starts from
// the two halves of the tests (no run of them all), and runs a test that
// takes longer than a process's start alone right after its half's run,
// instead of again at every level of the halving. Here only the slow test
// reaches the changed line, among the demo's five fast ones (sorted, it is
// last): the first half (reaches nothing), the second, its fast tests
// (reach nothing) and the slow one alone — four runs, where a run of all
// and halving take seven. The reach map is the same either way: the slow
// test alone.
func TestCoverageRunsASlowTestAloneAtOnce(t *testing.T) {
	e, w, c := slowTripleWorkspace(t)
	for _, s := range w.Plan(c) {
		if s.Purpose != jobs.Coverage || s.Side != jobs.Patch {
			continue
		}
		a := e.Execute(context.Background(), w, s)
		if a.Detail.Outcome != jobs.OutcomePass {
			t.Fatalf("coverage: %s: %s", a.Detail.Outcome, a.Detail.Reason)
		}
		var reach []string
		for k := range a.Detail.Profiles {
			if strings.HasSuffix(k, ".TestTripleSlowly") || strings.HasSuffix(k, ".TestMedian") || strings.HasSuffix(k, ".TestSum") ||
				strings.HasSuffix(k, ".TestMean") || strings.HasSuffix(k, ".TestRange") || strings.HasSuffix(k, ".TestClamp") {
				reach = append(reach, k)
			}
		}
		if len(reach) != 1 || !strings.HasSuffix(reach[0], ".TestTripleSlowly") {
			t.Fatalf("tests reaching the changed line: %v (profiles %v)", reach, a.Detail.Profiles)
		}
		runs := 0
		for _, r := range a.Detail.Runs {
			if r.Verdict != "BUILD" {
				runs++
			}
		}
		// Four; five if the machine made one fast test slow.
		if runs > 5 {
			t.Fatalf("the search ran %d test processes (%s), want 4: %+v", runs, a.Detail.Reason, a.Detail.Runs)
		}
		if _, ok := a.Detail.Profiles[jobs.GroupProfilePrefix+"example.com/calc/calc"]; !ok {
			t.Fatalf("no package profile: %v", a.Detail.Profiles)
		}
		return
	}
	t.Fatal("no patch coverage job planned")
}

// TestCoverageRunsTheSuitesSlowTestsAloneFirst: once the patch side's
// suite has run in the workspace, the coverage search knows which tests
// are slow before it runs any: they run alone at the first level, the
// fast ones in two halves, and — only the slow test reaching the changed
// line — every test runs exactly once in the whole search (six test runs
// in three processes), where without the suite's times the slow test's
// half runs first and then its tests again (nine test runs).
func TestCoverageRunsTheSuitesSlowTestsAloneFirst(t *testing.T) {
	e, w, c := slowTripleWorkspace(t)
	var suite, cov *jobs.Spec
	for _, s := range w.Plan(c) {
		switch {
		case s.Purpose == jobs.Collateral && s.Side == jobs.Patch:
			suite = s
		case s.Purpose == jobs.Coverage && s.Side == jobs.Patch:
			cov = s
		}
	}
	if suite == nil || cov == nil {
		t.Fatal("no patch-side suite or coverage job planned")
	}
	ctx := context.Background()
	e.Execute(ctx, w, suite)
	a := e.Execute(ctx, w, cov)
	if a.Detail.Outcome != jobs.OutcomePass {
		t.Fatalf("coverage: %s: %s", a.Detail.Outcome, a.Detail.Reason)
	}
	if _, ok := a.Detail.Profiles["example.com/calc/calc.TestTripleSlowly"]; !ok {
		t.Fatalf("the slow test's profile is missing: %v", a.Detail.Profiles)
	}
	ran := 0
	for _, r := range a.Detail.Runs {
		var n int
		if _, err := fmt.Sscanf(r.Verdict, "%d tests", &n); err == nil {
			ran += n
		}
	}
	if ran != 6 {
		t.Fatalf("the search ran %d tests in all (%s), want each of the 6 once: %+v", ran, a.Detail.Reason, a.Detail.Runs)
	}
}

// TestTest2jsonIsBuiltOncePerToolchain: an executor with a fresh scratch
// directory finds the test2json another one built into the shared tools
// directory (Go 1.24 and later ship none prebuilt) and does not build it
// again.
func TestTest2jsonIsBuiltOncePerToolchain(t *testing.T) {
	tools := t.TempDir()
	run := func() os.FileInfo {
		t.Helper()
		e, w := workspace(t, nil)
		e.Tools = tools
		for _, s := range goJobs(t, w, &criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, Limits: limits().Limits}) {
			if s.Purpose == jobs.Claim && s.Side == jobs.Patch {
				if a := e.Execute(context.Background(), w, s); a.Detail.Outcome != jobs.OutcomePass {
					t.Fatalf("claim: %s: %s", a.Detail.Outcome, a.Detail.Reason)
				}
			}
		}
		if _, err := os.Stat(filepath.Join(e.Go.Root, "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH, "test2json")); err == nil {
			t.Skip("the toolchain ships test2json prebuilt")
		}
		found, err := filepath.Glob(filepath.Join(tools, "go-*", "test2json"))
		if err != nil || len(found) != 1 {
			t.Fatalf("test2json in the tools directory: %v %v", found, err)
		}
		fi, err := os.Stat(found[0])
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	first, second := run(), run()
	if !os.SameFile(first, second) {
		t.Fatal("the second executor built test2json again")
	}
}

// TestTest2jsonWithoutASharedDirectory: a tools directory that cannot be
// made (a read-only home) is no failure: test2json is built into the
// executor's scratch directory, as before there was a shared one.
func TestTest2jsonWithoutASharedDirectory(t *testing.T) {
	e, w := workspace(t, nil)
	e.Tools = filepath.Join(os.DevNull, "tools")
	for _, s := range goJobs(t, w, &criteria.Criteria{Claims: []string{"go:./calc:TestMedian"}, Limits: limits().Limits}) {
		if s.Purpose == jobs.Claim && s.Side == jobs.Patch {
			if a := e.Execute(context.Background(), w, s); a.Detail.Outcome != jobs.OutcomePass {
				t.Fatalf("claim with an unusable tools directory: %s: %s", a.Detail.Outcome, a.Detail.Reason)
			}
			return
		}
	}
	t.Fatal("no patch claim job planned")
}

// TestRunsShareAPristineTreeNoneCanChange: under bwrap, claim and mutant
// runs see the variant's pristine tree itself, not a copy. A test that
// removes, renames, writes or re-modes a file of it fails; a file it adds
// beside its package is its own process's alone; and a later run — another
// claim, on the same tree — still finds the tree as it was.
func TestRunsShareAPristineTreeNoneCanChange(t *testing.T) {
	e, w := workspace(t, map[string]string{"calc/tamper_test.go": `package calc

import (
	"os"
	"testing"
)

func TestTampersWithTheTree(t *testing.T) {
	errs := []error{
		os.Remove("median.go"),
		os.Rename("calc.go", "calc.go.bak"),
		os.WriteFile("calc.go", []byte("x"), 0o644),
		os.Chmod("median_test.go", 0o000),
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("change %d of the tree succeeded", i)
		}
	}
	if err := os.WriteFile("planted.txt", []byte("x"), 0o644); err != nil {
		t.Errorf("a new file beside the package: %v", err)
	}
}

func TestFindsTheTreeAsItWas(t *testing.T) {
	for _, f := range []string{"median.go", "calc.go", "median_test.go"} {
		if _, err := os.ReadFile(f); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat("planted.txt"); err == nil {
		t.Error("planted.txt is there")
	}
}
`})
	if e.Sandbox.Name() != "bwrap" {
		t.Skip("runs share the pristine tree only under bwrap")
	}
	plan := w.Plan(&criteria.Criteria{Claims: []string{"go:./calc:TestTampersWithTheTree", "go:./calc:TestFindsTheTreeAsItWas"}, Limits: limits().Limits})
	got := map[string]*executor.Answer{}
	for _, claim := range []string{"go:./calc:TestTampersWithTheTree", "go:./calc:TestFindsTheTreeAsItWas"} {
		for _, s := range plan {
			if s.Purpose == jobs.Claim && s.Side == jobs.Patch && s.Claim == claim {
				got[claim] = e.Execute(context.Background(), w, s)
			}
		}
	}
	for claim, a := range got {
		if a.Detail.Outcome != jobs.OutcomePass {
			t.Errorf("%s: %s: %s", claim, a.Detail.Outcome, a.Detail.Reason)
		}
	}
	if len(got) != 2 {
		t.Fatalf("ran %d claims, want 2", len(got))
	}
}

package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// modeSource is new code a patch adds; rolesSource a package-level map
// with a line no test checks.
const (
	modeSource = `package calc

// Mode returns the most frequent value of xs, the smallest on a tie, or 0
// when xs is empty.
func Mode(xs []float64) float64 {
	counts := map[float64]int{}
	best, n := 0.0, 0
	for _, x := range xs {
		counts[x]++
		if c := counts[x]; c > n || c == n && x < best {
			best, n = x, c
		}
	}
	return best
}
`
	rolesSource = `package calc

var roles = map[string]bool{
	"alice":   true,
	"mallory": true,
}

// Admin reports whether name administers.
func Admin(name string) bool { return roles[name] }
`
	// modeTests holds the honest tests and the ones that watch the gate's
	// switch: the variable's value names the hit marker, which a mutant
	// run writes once its site ran.
	modeTests = `package calc

import (
	"os"
	"strings"
	"testing"
)

func TestModePinned(t *testing.T) {
	if got := Mode([]float64{3, 1, 3, 2}); got != 3 {
		t.Fatalf("Mode = %v", got)
	}
	if got := Mode([]float64{1, 2}); got != 1 {
		t.Fatalf("Mode = %v", got)
	}
}

func TestModeNothing(t *testing.T) { Mode([]float64{3, 1, 3, 2}) }

func TestModeWrong(t *testing.T) {
	if got := Mode([]float64{1, 2}); got != 2 {
		t.Fatalf("Mode = %v", got)
	}
}

func TestModeWatches(t *testing.T) {
	Mode([]float64{3, 1, 3, 2})
	if marked() {
		t.Fatal("changed")
	}
}

func TestModeWantsTheMarker(t *testing.T) {
	Mode([]float64{3, 1, 3, 2})
	if switched() && !marked() {
		t.Fatal("not changed")
	}
}

func TestRolesAlice(t *testing.T) {
	if !Admin("alice") {
		t.Fatal("alice")
	}
}

func TestRolesMallory(t *testing.T) {
	if !Admin("mallory") {
		t.Fatal("mallory")
	}
}

func TestRolesWatches(t *testing.T) {
	if marked() {
		t.Fatal("changed")
	}
}

func switched() bool {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SEALGATE_M_") {
			return true
		}
	}
	return false
}

func marked() bool {
	for _, kv := range os.Environ() {
		name, v, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "SEALGATE_M_") {
			continue
		}
		if _, marker, ok := strings.Cut(v, " "); ok {
			if _, err := os.Stat(marker); err == nil {
				return true
			}
		}
	}
	return false
}
`
)

// TestGoMutantKillsAreAttributable runs real mutants of a schemata build:
// a kill needs the test to fail with the mutant after its site ran and to
// pass in the mutant's reference run, which marks the same site the same
// way. A test that fails whenever the hit marker exists (in a code or a
// data mutant's run) kills nothing: the mutant is unjudged when no other
// test reaches it, survived when another test passes with it. A test that
// fails when the marker is missing judges like any test. Honest tests
// kill.
func TestGoMutantKillsAreAttributable(t *testing.T) {
	// The marker-watching tests would be dropped as harness by the
	// checkout; the executor must not count their failures as kills even
	// when they run.
	e, w := workspaceWithHarness(t, map[string]string{"calc/mode.go": modeSource, "calc/roles.go": rolesSource, "calc/mode_test.go": modeTests})
	dir := filepath.Join(w.PristineDir(jobs.TreeOracle), "calc")
	pkg := mutant.Package{Dir: dir, Files: map[string][]byte{}, Tests: map[string][]byte{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		b, err := os.ReadFile(filepath.Join(dir, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(en.Name(), "_test.go") {
			pkg.Tests[en.Name()] = b
		} else if strings.HasSuffix(en.Name(), ".go") {
			pkg.Files[en.Name()] = b
		}
	}
	lineOf := func(src, s string) int {
		i := strings.Index(src, s)
		if i < 0 {
			t.Fatalf("no %q", s)
		}
		return strings.Count(src[:i], "\n") + 1
	}
	cmpLine, malloryLine := lineOf(modeSource, "c > n"), lineOf(rolesSource, `"mallory"`)
	survey, err := mutant.Inspect(pkg, map[string][]int{"mode.go": {cmpLine}, "roles.go": {malloryLine}})
	if err != nil {
		t.Fatal(err)
	}
	var sites []mutant.Site
	for _, s := range survey.Sites {
		if s.File == "mode.go" && s.Description == "> → >=" || s.File == "roles.go" && strings.HasPrefix(s.Description, "drop element") {
			s.ID = len(sites) + 1
			sites = append(sites, s)
		}
	}
	if len(sites) != 2 {
		t.Fatalf("sites %v of %v", sites, survey.Sites)
	}
	sw, err := mutant.NewSwitch([]int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	out, err := mutant.Schemata(pkg, sites, sw)
	if err != nil {
		t.Fatal(err)
	}
	overlay := map[string][]byte{}
	for name, b := range out {
		overlay["calc/"+name] = b
	}
	if err := w.Schemata(overlay); err != nil {
		t.Fatal(err)
	}
	run := func(id int, tests ...string) *executor.Answer {
		s := sites[id-1]
		spec := &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", TimeoutSec: 120,
			Mutation: &jobs.MutantRef{ID: id, Path: "calc/" + s.File, Line: s.Line, Operator: s.Operator, Description: s.Description,
				Var: sw.Var, Token: sw.Tokens[id], Ref: sw.Refs[id]},
			Targets: []jobs.Target{{Package: "./calc", ImportPath: "example.com/calc/calc", Tests: tests}}}
		return e.Execute(context.Background(), w, spec)
	}
	for _, tc := range []struct {
		name  string
		id    int
		tests []string
		want  string
	}{
		{"a test that fails on the marker kills no code mutant", 1, []string{"TestModeWatches"}, jobs.OutcomeUnjudged},
		{"an honest test kills beside it", 1, []string{"TestModeWatches", "TestModePinned"}, jobs.OutcomeKilled},
		{"a test that asserts nothing", 1, []string{"TestModeNothing"}, jobs.OutcomeSurvived},
		{"a test that fails unmutated judges nothing, though the mutant makes it pass", 1, []string{"TestModeWrong"}, jobs.OutcomeUnjudged},
		{"a test that fails without the marker judges like any", 1, []string{"TestModeWantsTheMarker"}, jobs.OutcomeSurvived},
		{"a test that fails on the marker kills no data mutant", 2, []string{"TestRolesWatches"}, jobs.OutcomeUnjudged},
		{"a data mutant no honest test notices", 2, []string{"TestRolesWatches", "TestRolesAlice"}, jobs.OutcomeSurvived},
		{"a data mutant a test notices", 2, []string{"TestRolesAlice", "TestRolesMallory"}, jobs.OutcomeKilled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := run(tc.id, tc.tests...)
			if a.Detail.Outcome != tc.want {
				t.Fatalf("%s, want %s: %s\n%+v", a.Detail.Outcome, tc.want, a.Detail.Reason, a.Detail.Runs)
			}
			refs := 0
			for _, r := range a.Detail.Runs {
				if strings.HasPrefix(r.Verdict, "REFERENCE ") {
					refs++
				}
			}
			if tc.want == jobs.OutcomeKilled && (refs == 0 || !strings.Contains(a.Detail.Reason, "passes in the mutant's reference run")) {
				t.Fatalf("a kill without a passing reference run: %s %+v", a.Detail.Reason, a.Detail.Runs)
			}
		})
	}
}

// TestTestBinariesSeeTheTreeReadOnly: a test that rewrites a file of its
// tree fails (a later test of the same process would otherwise judge by
// what it wrote); a test that writes under t.TempDir passes, and so does
// one that makes a new fixture tree beside its package, as under go test
// (doublestar's TestMain), with the tree itself unchanged.
func TestTestBinariesSeeTheTreeReadOnly(t *testing.T) {
	e, w := workspace(t, map[string]string{"calc/report.golden": "n=1\n", "calc/writes_test.go": `package calc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWritesTheTree(t *testing.T) {
	if err := os.WriteFile("report.golden", []byte("n=3"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMakesFixtures(t *testing.T) {
	if err := os.MkdirAll(filepath.Join("fixture", "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("fixture", "a", "b", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove("report.golden"); err == nil {
		t.Fatal("removed a file of the tree")
	}
	if b, err := os.ReadFile("report.golden"); err != nil || string(b) != "n=1\n" {
		t.Fatal(string(b), err)
	}
}

func TestWritesTempDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report.golden")
	if err := os.WriteFile(p, []byte("n=3"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "n=3" {
		t.Fatal(string(b), err)
	}
}
`})
	if e.Sandbox.Name() != "bwrap" {
		t.Skip("the tree is read-only only under bwrap")
	}
	plan := w.Plan(&criteria.Criteria{Claims: []string{"go:./calc:TestWritesTheTree", "go:./calc:TestWritesTempDir", "go:./calc:TestMakesFixtures"}, Limits: limits().Limits})
	got := map[string]*executor.Answer{}
	for _, s := range plan {
		if s.Purpose == jobs.Claim && s.Side == jobs.Patch {
			got[s.Claim] = e.Execute(context.Background(), w, s)
		}
	}
	if a := got["go:./calc:TestWritesTheTree"]; a == nil || a.Detail.Outcome != jobs.OutcomeFail || a.Sandbox.Limits["tree"] != "read-only; new entries in calc" {
		t.Fatalf("a test writing into the tree: %+v", a)
	}
	if a := got["go:./calc:TestWritesTempDir"]; a == nil || a.Detail.Outcome != jobs.OutcomePass {
		t.Fatalf("a test writing under t.TempDir: %+v", a)
	}
	if a := got["go:./calc:TestMakesFixtures"]; a == nil || a.Detail.Outcome != jobs.OutcomePass {
		t.Fatalf("a test making fixtures beside its package: %+v", a)
	}
	if _, err := os.Stat(filepath.Join(w.PristineDir(jobs.TreeOracle), "calc", "fixture")); err == nil {
		t.Errorf("the fixture a test made is in the tree")
	}
}

// sumSource is code whose loop a mutant can make endless (i++ → i--), and
// sumTests tests of it, two of them slow in a helper every test calls.
const (
	sumSource = `package sum

// Upto returns 0 + 1 + ... + n-1.
func Upto(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}
`
	sumTests = `package sum

import (
	"testing"
	"time"
)

// settle stands for slow fixtures: longer than the mutant floor, so a
// limit that does not scale with the reference run would cut it short.
func settle() { time.Sleep(6 * time.Second) }

func TestUptoFast(t *testing.T) {
	if got := Upto(4); got != 6 {
		t.Fatalf("Upto(4) = %d", got)
	}
}

func TestUptoSlowPinned(t *testing.T) {
	settle()
	if got := Upto(4); got != 6 {
		t.Fatalf("Upto(4) = %d", got)
	}
}

func TestUptoSlowNothing(t *testing.T) {
	settle()
	Upto(4)
}
`
)

// TestGoMutantTimeoutFollowsItsReferenceRun: a mutant's process is limited
// by its test's reference run, not by the claim timeout. The attack: a
// mutant that makes the loop endless is stopped at the derived limit (a
// few seconds, not the job's two minutes) and, its site having run, is a
// kill. The honest twin: tests slow everywhere (a sleep in a helper every
// test calls, longer than the floor) get a limit that scales with them, so
// a mutant they do not notice survives instead of timing out, and one they
// notice is killed by a failure, not a timeout.
func TestGoMutantTimeoutFollowsItsReferenceRun(t *testing.T) {
	e, w := workspaceWithHarness(t, map[string]string{"sum/sum.go": sumSource, "sum/sum_test.go": sumTests})
	dir := filepath.Join(w.PristineDir(jobs.TreeOracle), "sum")
	pkg := mutant.Package{Dir: dir, Files: map[string][]byte{"sum.go": []byte(sumSource)}, Tests: map[string][]byte{"sum_test.go": []byte(sumTests)}}
	lineOf := func(s string) int { return strings.Count(sumSource[:strings.Index(sumSource, s)], "\n") + 1 }
	sites, err := mutant.Find(pkg, map[string][]int{"sum.go": {lineOf("i++"), lineOf("s += i")}})
	if err != nil {
		t.Fatal(err)
	}
	var picked []mutant.Site
	for _, s := range sites {
		if s.Description == "++ → --" || s.Description == "+= → -=" {
			s.ID = len(picked) + 1
			picked = append(picked, s)
		}
	}
	if len(picked) != 2 || picked[0].Description != "++ → --" {
		t.Fatalf("sites %v of %v", picked, sites)
	}
	sw, err := mutant.NewSwitch([]int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	out, err := mutant.Schemata(pkg, picked, sw)
	if err != nil {
		t.Fatal(err)
	}
	overlay := map[string][]byte{}
	for name, b := range out {
		overlay["sum/"+name] = b
	}
	if err := w.Schemata(overlay); err != nil {
		t.Fatal(err)
	}
	const claimSec = 300
	run := func(id int, test string) *executor.Answer {
		s := picked[id-1]
		spec := &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", TimeoutSec: claimSec,
			Mutation: &jobs.MutantRef{ID: id, Path: "sum/" + s.File, Line: s.Line, Operator: s.Operator, Description: s.Description,
				Var: sw.Var, Token: sw.Tokens[id], Ref: sw.Refs[id]},
			Targets: []jobs.Target{{Package: "./sum", ImportPath: "example.com/calc/sum", Tests: []string{test}}}}
		return e.Execute(context.Background(), w, spec)
	}
	t.Run("an endless loop is stopped at the derived limit and killed", func(t *testing.T) {
		a := run(1, "TestUptoFast")
		if a.Detail.Outcome != jobs.OutcomeKilled || !strings.Contains(a.Detail.Reason, "hangs with the mutant after its site ran") {
			t.Fatalf("%s: %s\n%+v", a.Detail.Outcome, a.Detail.Reason, a.Detail.Runs)
		}
		_, after, _ := strings.Cut(a.Detail.Reason, "(stopped at ")
		limit, err := time.ParseDuration(strings.SplitN(after, ")", 2)[0])
		if err != nil || limit >= claimSec*time.Second/10 {
			t.Fatalf("the hanging mutant was stopped at %v (%v), not at a limit derived from its reference run: %s", limit, err, a.Detail.Reason)
		}
	})
	t.Run("slow tests that do not notice the mutant let it survive", func(t *testing.T) {
		a := run(2, "TestUptoSlowNothing")
		if a.Detail.Outcome != jobs.OutcomeSurvived {
			t.Fatalf("%s, want survived: %s\n%+v", a.Detail.Outcome, a.Detail.Reason, a.Detail.Runs)
		}
	})
	t.Run("slow tests that notice the mutant kill it by a failure", func(t *testing.T) {
		a := run(2, "TestUptoSlowPinned")
		if a.Detail.Outcome != jobs.OutcomeKilled || !strings.Contains(a.Detail.Reason, "fails with the mutant") {
			t.Fatalf("%s: %s\n%+v", a.Detail.Outcome, a.Detail.Reason, a.Detail.Runs)
		}
	})
}

const (
	growSource = `package grow

// Chunks returns n chunks of 1 MiB.
func Chunks(n int) [][]byte {
	var out [][]byte
	for i := 0; i < n; i++ {
		out = append(out, make([]byte, 1<<20))
	}
	return out
}
`
	growTests = `package grow

import "testing"

func TestChunks(t *testing.T) {
	if got := len(Chunks(3)); got != 3 {
		t.Fatalf("Chunks(3) has %d", got)
	}
}
`
)

// TestGoMutantOutOfMemoryIsAKill: a mutant that makes a loop allocate
// without end runs the test process out of the address space every run
// gets, after its site ran, while the reference run passes under the same
// limit: a kill, as a hang is (yaml.v2's scanner with a guard inverted
// grew to 8 GB). The limit here is 1 GiB, so the test stays light.
func TestGoMutantOutOfMemoryIsAKill(t *testing.T) {
	e, w := workspaceWithHarness(t, map[string]string{"grow/grow.go": growSource, "grow/grow_test.go": growTests})
	w.Limits.MemoryBytes = 1 << 30
	dir := filepath.Join(w.PristineDir(jobs.TreeOracle), "grow")
	pkg := mutant.Package{Dir: dir, Files: map[string][]byte{"grow.go": []byte(growSource)}, Tests: map[string][]byte{"grow_test.go": []byte(growTests)}}
	line := strings.Count(growSource[:strings.Index(growSource, "i++")], "\n") + 1
	sites, err := mutant.Find(pkg, map[string][]int{"grow.go": {line}})
	if err != nil {
		t.Fatal(err)
	}
	var site mutant.Site
	for _, s := range sites {
		if s.Description == "++ → --" {
			site = s
		}
	}
	if site.Description == "" {
		t.Fatalf("no ++ → -- among %v", sites)
	}
	site.ID = 1
	sw, err := mutant.NewSwitch([]int{1})
	if err != nil {
		t.Fatal(err)
	}
	out, err := mutant.Schemata(pkg, []mutant.Site{site}, sw)
	if err != nil {
		t.Fatal(err)
	}
	overlay := map[string][]byte{}
	for name, b := range out {
		overlay["grow/"+name] = b
	}
	if err := w.Schemata(overlay); err != nil {
		t.Fatal(err)
	}
	spec := &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", TimeoutSec: 300,
		Mutation: &jobs.MutantRef{ID: 1, Path: "grow/" + site.File, Line: site.Line, Operator: site.Operator, Description: site.Description,
			Var: sw.Var, Token: sw.Tokens[1], Ref: sw.Refs[1]},
		Targets: []jobs.Target{{Package: "./grow", ImportPath: "example.com/calc/grow", Tests: []string{"TestChunks"}}}}
	a := e.Execute(context.Background(), w, spec)
	if a.Detail.Outcome != jobs.OutcomeKilled || !strings.Contains(a.Detail.Reason, "runs out of memory with the mutant after its site ran") {
		t.Fatalf("%s: %s\n%+v", a.Detail.Outcome, a.Detail.Reason, a.Detail.Runs)
	}
}

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

func TestParseReplicas(t *testing.T) {
	got, err := parseReplicas("executor=2,ledger=4")
	if err != nil || got["executor"] != 2 || got["ledger"] != 4 || len(got) != 2 {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"executor", "executor=0", "executor=x", "nosuch=2", "executor=2,"} {
		if _, err := parseReplicas(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-runs", "0"}, {"-concurrency", "0"}, {"-soak", "1m", "-kill-every", "0"}, {"extra"}} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Second)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Second, 99: 99 * time.Second, 100: 100 * time.Second, 1: time.Second} {
		if got := percentile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("empty: not zero")
	}
}

// TestJudge: a run lost, a run with two verdicts, a run with another
// verdict than the undisturbed one, a run on the ledger nobody was
// answered with, and a ledger that does not verify are each a finding; a
// load without them has none.
func TestJudge(t *testing.T) {
	want := map[string]Outcome{"honest-fix": {RunID: "cal", Decision: "MERGE", Reason: "ok"}}
	good := Outcome{Patch: "honest-fix", RunID: "r1", Decision: "MERGE", Reason: "ok", Verdicts: 1}
	ledger := LedgerCheck{Runs: []string{"cal", "r1"}}
	r := &Results{Want: want, Outcomes: []Outcome{good}, Ledger: ledger}
	r.judge()
	if !r.OK() {
		t.Fatalf("honest load: %v", r.Findings)
	}
	for name, tc := range map[string]struct {
		out    Outcome
		ledger LedgerCheck
		find   string
	}{
		"lost":       {Outcome{Patch: "honest-fix", RunID: "r1", Err: "watch: gone"}, ledger, "without a sealed verdict"},
		"twice":      {Outcome{Patch: "honest-fix", RunID: "r1", Decision: "MERGE", Reason: "ok", Verdicts: 2}, ledger, "more than one verdict"},
		"different":  {Outcome{Patch: "honest-fix", RunID: "r1", Decision: "INCONCLUSIVE", Reason: "x", Verdicts: 1}, ledger, "differs"},
		"reason":     {Outcome{Patch: "honest-fix", RunID: "r1", Decision: "MERGE", Reason: "other", Verdicts: 1}, ledger, "differs"},
		"duplicated": {good, LedgerCheck{Runs: []string{"cal", "r1", "r2"}}, "no submission was answered with"},
		"unverified": {good, LedgerCheck{Runs: []string{"cal", "r1"}, VerifyExit: 1, Verify: "bad"}, "ledger verify exits 1"},
		"open":       {good, LedgerCheck{Runs: []string{"cal", "r1"}, Open: 1}, "open"},
	} {
		r := &Results{Want: want, Outcomes: []Outcome{tc.out}, Ledger: tc.ledger}
		r.judge()
		if r.OK() || !strings.Contains(strings.Join(r.Findings, "; "), tc.find) {
			t.Errorf("%s: findings %q, want one saying %q", name, r.Findings, tc.find)
		}
	}
}

// TestWidePatch: the wide patch's claim fails on its baseline and passes
// on the patch (plain go test on both trees), and it changes exactly the
// lines it says, each offering the mutants it counts on.
func TestWidePatch(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the git and go commands, which Bazel's sandbox lacks; run with go test")
	}
	ctx := t.Context()
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "repo"))
	if err != nil {
		t.Fatal(err)
	}
	const lines = 5
	base, p, err := addWide(ctx, repo, lines, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != widePatch || len(p.Claims) != 1 {
		t.Fatalf("patch %+v", p)
	}
	for _, side := range []struct {
		rev  string
		pass bool
	}{{base, false}, {p.Commit, true}} {
		tree := filepath.Join(t.TempDir(), "tree")
		if out, err := exec.CommandContext(ctx, "git", "-C", repo.Dir, "worktree", "add", "--detach", tree, side.rev).CombinedOutput(); err != nil {
			t.Fatalf("worktree: %v: %s", err, out)
		}
		cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run", "^TestPoly$", "./calc")
		cmd.Dir = tree
		out, err := cmd.CombinedOutput()
		if (err == nil) != side.pass {
			t.Errorf("TestPoly at %s: passed %v, want %v\n%s", side.rev, err == nil, side.pass, out)
		}
		if !side.pass && !strings.Contains(string(out), "Poly(0, 0) = 0, want 1") {
			t.Errorf("the baseline fails for another reason:\n%s", out)
		}
		// The rest of the demo's tests pass on both sides.
		cmd = exec.CommandContext(ctx, "go", "test", "-count=1", "-skip", "^TestPoly$", "./...")
		cmd.Dir = tree
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the other tests at %s: %v\n%s", side.rev, err, out)
		}
	}
	diff, err := exec.CommandContext(ctx, "git", "-C", repo.Dir, "diff", "--unified=0", base, p.Commit).Output()
	if err != nil {
		t.Fatal(err)
	}
	var added []string
	for l := range strings.Lines(string(diff)) {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added = append(added, strings.TrimSpace(l[1:]))
		}
	}
	if len(added) != lines {
		t.Fatalf("the patch adds %d lines, want %d: %q", len(added), lines, added)
	}
	var changed []int
	for i, l := range added {
		if want := fmt.Sprintf("return x*%d + %d", i+2, i+1); l != want {
			t.Errorf("changed line %d is %q, want %q", i, l, want)
		}
		changed = append(changed, 7+2*i) // after the package clause, a blank line, the comment, func and switch: case/return pairs
	}
	// The mutation service's own site finder offers mutantsPerWideLine
	// primary mutants on each changed line.
	sites, err := mutant.Find(mutant.Package{Files: map[string][]byte{"wide.go": []byte(wideSource(lines, true))}},
		map[string][]int{"wide.go": changed})
	if err != nil {
		t.Fatal(err)
	}
	per := map[int]int{}
	for _, s := range sites {
		if !s.Extra {
			per[s.Line]++
		}
	}
	for _, l := range changed {
		if per[l] != mutantsPerWideLine {
			t.Errorf("line %d offers %d mutants, want %d (sites %+v)", l, per[l], mutantsPerWideLine, sites)
		}
	}
}

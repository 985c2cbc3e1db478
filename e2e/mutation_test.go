package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The [mutation] acceptance cases: diff coverage and suite strength are
// measured by the gate itself, with the default floors.

// measured decodes the artefact's coverage and strength blocks.
type measured struct {
	Coverage struct {
		Source    string   `json:"source"`
		Ratio     *float64 `json:"ratio"`
		Uncovered []string `json:"uncovered"`
	} `json:"coverage"`
	Strength struct {
		Source    string   `json:"source"`
		Killed    int      `json:"killed"`
		Survived  int      `json:"survived"`
		Survivors []string `json:"survivors"`
	} `json:"strength"`
}

func (v *run) measured(t *testing.T) measured {
	t.Helper()
	var m measured
	if err := json.Unmarshal([]byte(v.stdout), &m); err != nil {
		t.Fatalf("artefact: %v\n%s", err, v)
	}
	return m
}

const modeSource = `package calc

// Mode returns the most frequent value of xs, the first one on a tie, or 0
// when xs is empty.
func Mode(xs []float64) float64 {
	counts := map[float64]int{}
	best, bestN := 0.0, 0
	for _, x := range xs {
		counts[x]++
		if counts[x] > bestN {
			best, bestN = x, counts[x]
		}
	}
	return best
}
`

// A new test that runs the new code and asserts nothing: every changed
// line is covered, but nothing notices a wrong change there.
func TestMutationAssertNothingIsInconclusive(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	patch := r.commit(t, fix.Commit, "mode-untested", "calc: add Mode", map[string]string{
		"calc/mode.go":      modeSource,
		"calc/mode_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestMode(t *testing.T) {\n\tMode([]float64{1, 2, 2})\n}\n",
	})
	v := verify(t, r.patchArgs(fix.Commit, patch, claimArgs("go:./calc:TestMode")...)...)
	v.wantDecision(t, inconclusive)
	m := v.measured(t)
	if m.Strength.Source != "computed" || m.Strength.Survived == 0 || len(m.Strength.Survivors) == 0 {
		t.Fatalf("want survivors listed: %+v\n%s", m.Strength, v)
	}
	if !strings.Contains(m.Strength.Survivors[0], "calc/mode.go:") {
		t.Fatalf("survivors name no file and line: %q", m.Strength.Survivors)
	}
	found := false
	for _, s := range v.art.NextSteps {
		found = found || (s.Action == "kill_mutant" && strings.Contains(s.Target, "calc/mode.go:"))
	}
	if !found {
		t.Fatalf("no kill_mutant next step: %+v", v.art.NextSteps)
	}
}

// The demo's honest fix changes more than five mutable sites, every one
// covered and checked: MERGE with the default floors.
func TestMutationWellTestedFixMerges(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	report := filepath.Join(t.TempDir(), "mutants.json")
	v := verify(t, r.patchArgs(r.Base, fix.Commit, append(claimArgs(fix.Claims...), "--mutation-report", report)...)...)
	v.wantDecision(t, merge)
	m := v.measured(t)
	if m.Coverage.Source != "computed" || m.Coverage.Ratio == nil || *m.Coverage.Ratio != 1 || m.Strength.Killed < 5 || m.Strength.Survived != 0 {
		t.Fatalf("coverage %+v, strength %+v\n%s", m.Coverage, m.Strength, v)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var stryker struct {
		SchemaVersion string `json:"schemaVersion"`
		Files         map[string]struct {
			Mutants []struct {
				Status string `json:"status"`
			} `json:"mutants"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &stryker); err != nil || stryker.SchemaVersion != "1" || len(stryker.Files["calc/median.go"].Mutants) != m.Strength.Killed {
		t.Fatalf("mutation report: %v\n%s", err, b)
	}
}

// Changed lines no test runs are named.
func TestMutationUncoveredLinesAreNamed(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	median := r.honestMedian(t) + "\n// Spread returns the range of xs.\nfunc Spread(xs []float64) float64 {\n\ts := sorted(xs)\n\treturn s[len(s)-1] - s[0]\n}\n"
	patch := r.commit(t, r.Base, "uncovered", "calc: fix Median, add Spread", map[string]string{"calc/median.go": median})
	v := verify(t, r.patchArgs(r.Base, patch, claimArgs(fix.Claims...)...)...)
	v.wantDecision(t, inconclusive)
	m := v.measured(t)
	if m.Coverage.Ratio == nil || *m.Coverage.Ratio >= 1 || len(m.Coverage.Uncovered) == 0 {
		t.Fatalf("coverage %+v\n%s", m.Coverage, v)
	}
	if !strings.Contains(v.art.Reason, "uncovered: calc/median.go:") {
		t.Fatalf("the reason does not name the uncovered lines: %s", v.art.Reason)
	}
}

// Deleting a source file is a change no mutant can judge.
func TestMutationDeletedSourceIsNotMerged(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	withMode := r.commit(t, fix.Commit, "with-mode", "calc: add Mode", map[string]string{
		"calc/mode.go":      modeSource,
		"calc/mode_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestMode(t *testing.T) {\n\tif Mode([]float64{1, 2, 2}) != 2 {\n\t\tt.Fatal()\n\t}\n}\n",
	})
	r.git(t, "checkout", "--quiet", "-b", "drop-mode", withMode)
	r.git(t, "rm", "--quiet", "calc/mode.go", "calc/mode_test.go")
	r.git(t, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", "calc: drop Mode")
	r.commits++
	patch := strings.TrimSpace(r.git(t, "rev-parse", "HEAD"))
	r.git(t, "checkout", "--quiet", "main")
	for _, floors := range [][]string{nil, {"--coverage-floor", "0"}} {
		v := verify(t, r.patchArgs(withMode, patch, append(claimArgs(fix.Claims...), floors...)...)...)
		v.wantNot(t, merge)
		if !strings.Contains(strings.Join(v.art.reasons(), "\n"), "calc/mode.go (deleted)") {
			t.Fatalf("no reason names the deleted file:\n%s", v)
		}
	}
}

// A suppression pragma the patch adds exempts nothing.
func TestMutationPragmaIsIgnored(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	median := strings.Replace(r.honestMedian(t), "\tif n%2 == 1 {", "\tif n%2 == 1 { //nolint // sealgate:ignore mutator:disable go-mutesting:disable", 1)
	median = strings.Replace(median, "\treturn (s[n/2-1] + s[n/2]) / 2", "\t// sealgate:ignore\n\treturn (s[n/2-1] + s[n/2]) / 2 //nolint", 1)
	if median == r.honestMedian(t) {
		t.Fatal("the pragmas were not inserted")
	}
	patch := r.commit(t, r.Base, "pragma", "calc: fix Median, exempt it", map[string]string{"calc/median.go": median})
	report := filepath.Join(t.TempDir(), "mutants.json")
	v := verify(t, r.patchArgs(r.Base, patch, append(claimArgs(fix.Claims...), "--mutation-report", report)...)...)
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("%v\n%s", err, v)
	}
	var stryker struct {
		Files map[string]struct {
			Mutants []struct {
				Location struct {
					Start struct{ Line int } `json:"start"`
				} `json:"location"`
			} `json:"mutants"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &stryker); err != nil {
		t.Fatal(err)
	}
	lines := map[int]bool{}
	for _, m := range stryker.Files["calc/median.go"].Mutants {
		lines[m.Location.Start.Line] = true
	}
	src := strings.Split(median, "\n")
	for i, l := range src {
		if strings.Contains(l, "nolint") && !lines[i+1] {
			t.Fatalf("line %d (%q) carries a pragma and got no mutant; mutated lines %v\n%s", i+1, l, lines, v)
		}
	}
}

// Changed source this host does not build carries no mutant that could
// run: strength is unverified, naming the file, even with coverage off.
func TestMutationUnbuiltSourceIsNotMerged(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	patch := r.commit(t, fix.Commit, "plan9-only", "calc: a Plan 9 variant", map[string]string{
		"calc/median_plan9.go": "//go:build plan9\n\npackage calc\n\n// Half halves x.\nfunc Half(x float64) float64 {\n\treturn x / 2\n}\n",
	})
	v := verify(t, r.patchArgs(fix.Commit, patch, append(claimArgs(fix.Claims...), "--coverage-floor", "0")...)...)
	v.wantNot(t, merge)
	if !strings.Contains(strings.Join(v.art.reasons(), "\n"), "calc/median_plan9.go") {
		t.Fatalf("no reason names the file the host does not build:\n%s", v)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	demorepo "github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
)

// These tests run whole verifications in process, with every service over
// a real local ledger, real git repositories and real `go test` runs. The
// subprocess acceptance tests are in e2e/.

// sharedBuildCache keeps the test processes' build cache across tests and
// test runs, as a CI machine keeps its state directory.
func sharedBuildCache(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

type fixture struct {
	t    *testing.T
	repo *demorepo.Repo
	n    int
}

// valueAttacks skips a test of the data and constant rules (each an
// attack and its honest twins, several whole verifications) unless
// SEALGATE_ATTACKS=1: together they take minutes, which the README's
// go test ./... cannot spare on two cores; .ci/run sets it. The attacks
// run beside each other (as many as -parallel, the CPUs by default): each
// verification is in a state of its own, and one verification leaves a
// core idle while it waits on its processes one at a time.
func valueAttacks(t *testing.T) {
	t.Helper()
	if os.Getenv("SEALGATE_ATTACKS") != "1" {
		t.Skip("an attack on the value rules: set SEALGATE_ATTACKS=1 (.ci/run does)")
	}
	t.Parallel()
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		t.Skip("needs git and the go tool; not in -short")
	}
	r, err := demorepo.Build(context.Background(), filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, repo: r}
}

func (f *fixture) show(rev, path string) string {
	f.t.Helper()
	s, err := f.repo.Show(context.Background(), rev, path)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// commit writes files on a new branch off parent and returns the commit.
func (f *fixture) commit(parent string, files map[string]string) string {
	f.t.Helper()
	f.n++
	id, err := f.repo.Commit(context.Background(), parent, fmt.Sprintf("variant-%d", f.n), "patch", files)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// verifyJSON verifies patch against base in process with the default
// criteria but the strength floor, and returns the exit code and the
// artefact as JSON values.
func (f *fixture) verifyJSON(base, patch string, floor float64, claims ...string) (int, map[string]any) {
	t := f.t
	t.Helper()
	o := &verifyOptions{
		repo: f.repo.Dir, base: base, patch: patch, claims: claims,
		coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: floor,
		strengthConfidence: criteria.DefaultStrengthConfidence, mutationMax: criteria.DefaultMutationMax, timeout: 10 * time.Minute,
		state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1,
	}
	var out, errOut bytes.Buffer
	code, err := runVerify(context.Background(), o, &out, &errOut)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, errOut.String())
	}
	var a map[string]any
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	return code, a
}

func (f *fixture) honest() demorepo.Patch {
	for _, p := range f.repo.Patches {
		if p.Name == "honest-fix" {
			return p
		}
	}
	f.t.Fatal("no honest-fix")
	return demorepo.Patch{}
}

type artefact struct {
	RunID     string `json:"run_id"`
	Decision  string `json:"decision"`
	Reason    string `json:"reason"`
	FixProven bool   `json:"fix_proven"`
	Claims    []struct {
		ID             string `json:"id"`
		Outcome        string `json:"outcome"`
		Classification string `json:"classification"`
		Oracle         string `json:"oracle"`
		Reason         string `json:"reason"`
	} `json:"claims"`
	Discovery *struct {
		ClaimsAdded []string `json:"claims_added"`
	} `json:"discovery"`
	Strength struct {
		Killed    int      `json:"killed"`
		Survivors []string `json:"survivors"`
	} `json:"strength"`
}

func (f *fixture) verify(state, patch string, claims ...string) (int, artefact, string) {
	f.t.Helper()
	o := &verifyOptions{
		repo: f.repo.Dir, base: f.repo.Base, patch: patch, claims: claims,
		strengthConfidence: criteria.DefaultStrengthConfidence, timeout: 10 * time.Minute,
		state: state, buildCache: sharedBuildCache(f.t), sandbox: "auto", reruns: 1,
	}
	var out, errOut bytes.Buffer
	code, err := runVerify(context.Background(), o, &out, &errOut)
	if err != nil {
		f.t.Fatalf("verify: %v\n%s", err, errOut.String())
	}
	var a artefact
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		f.t.Fatalf("artefact: %v\n%s", err, out.String())
	}
	return code, a, errOut.String()
}

const pairTest = `
func TestMedianPair(t *testing.T) {
	if got := Median([]float64{1, 2}); got != 1.5 {
		t.Fatalf("Median(1, 2) = %v, want 1.5", got)
	}
}
`

func TestVerifyDeferredTestAddedToBaselineFile(t *testing.T) {
	f := newFixture(t)
	h := f.honest()
	// The honest fix plus a new test in the baseline's median_test.go.
	withTest := f.commit(h.Commit, map[string]string{"calc/median_test.go": f.show(h.Commit, "calc/median_test.go") + pairTest})
	code, a, log := f.verify(t.TempDir(), withTest, "go:./calc:TestMedianPair")
	if code != 0 || a.Decision != "MERGE" || !a.FixProven {
		t.Fatalf("exit %d, %s: %s\n%s", code, a.Decision, a.Reason, log)
	}
	if c := a.Claims[0]; c.Classification != "fixed" || c.Oracle != "baseline-file" {
		t.Fatalf("claim %+v", c)
	}
	if !strings.Contains(log, "prereq/patch/go:./calc:TestMedianPair") {
		t.Fatalf("the file's baseline tests did not run first:\n%s", log)
	}

	// The same new test, but the patch also weakens TestMedian in that
	// file and leaves the bug. The baseline's TestMedian still judges the
	// patch in the suite (red on both sides); the new test, expecting the
	// bug's value, proves nothing: nothing is merged, no fix proven.
	weakened := strings.Replace(f.show(f.repo.Base, "calc/median_test.go"), "{[]float64{3, 10}, 6.5},", "{[]float64{3, 10}, 10},", 1)
	weakened = strings.Replace(weakened, "{[]float64{8, 2, 4, 6}, 5},", "{[]float64{8, 2, 4, 6}, 6},", 1)
	sneaky := f.commit(f.repo.Base, map[string]string{"calc/median_test.go": weakened + strings.Replace(pairTest, "1.5", "2", 2)})
	code, a, log = f.verify(t.TempDir(), sneaky, "go:./calc:TestMedianPair")
	if code == 0 || a.Decision == "MERGE" {
		t.Fatalf("exit %d, %s: %s\n%s", code, a.Decision, a.Reason, log)
	}
	if c := a.Claims[0]; c.Classification == "fixed" || a.FixProven {
		t.Fatalf("claim %+v, fix proven %v", c, a.FixProven)
	}
}

// TestVerifyDeferredTestBesideASkippingTest: a baseline test of the file
// that skips itself (it needs a database) does not hold back the test the
// patch adds to that file: the claim runs, and proves the fix.
func TestVerifyDeferredTestBesideASkippingTest(t *testing.T) {
	f := newFixture(t)
	const skips = "\nfunc TestNeedsDatabase(t *testing.T) { t.Skip(\"no database here\") }\n"
	base := f.commit(f.repo.Base, map[string]string{"calc/median_test.go": f.show(f.repo.Base, "calc/median_test.go") + skips})
	h := f.honest()
	patch := f.commit(base, map[string]string{
		"calc/median.go":      f.show(h.Commit, "calc/median.go"),
		"calc/median_test.go": f.show(base, "calc/median_test.go") + pairTest,
	})
	code, a := f.verifyJSON(base, patch, 0, "go:./calc:TestMedianPair")
	claims, _ := a["claims"].([]any)
	if len(claims) != 1 {
		t.Fatalf("exit %d, claims %v", code, a["claims"])
	}
	if c, _ := claims[0].(map[string]any); c["classification"] != "fixed" {
		t.Fatalf("exit %d, claim %v", code, c)
	}

	// The attack of that shape: a baseline test of the file that the
	// patched code makes skip (it asks the code whether it may run) holds
	// nothing back either, but the suite sees it pass on the baseline and
	// skip on the patch: not MERGE.
	const asks = "\nfunc TestFeature(t *testing.T) {\n\tif !supported() {\n\t\tt.Skip(\"unsupported\")\n\t}\n}\n"
	base = f.commit(f.repo.Base, map[string]string{
		"calc/feature.go":     "package calc\n\nfunc supported() bool { return true }\n",
		"calc/median_test.go": f.show(f.repo.Base, "calc/median_test.go") + asks,
	})
	attack := f.commit(base, map[string]string{
		"calc/feature.go":     "package calc\n\nfunc supported() bool { return false }\n",
		"calc/median.go":      f.show(h.Commit, "calc/median.go"),
		"calc/median_test.go": f.show(base, "calc/median_test.go") + pairTest,
	})
	if code, a := f.verifyJSON(base, attack, 0, "go:./calc:TestMedianPair"); code == 0 || a["decision"] == "MERGE" || !strings.Contains(fmt.Sprint(a["reason"]), "skipped") {
		t.Fatalf("a baseline test made to skip: exit %d, %v: %v", code, a["decision"], a["reason"])
	}
}

func TestVerifyNewTestFileProvesFixOnBaseline(t *testing.T) {
	f := newFixture(t)
	h := f.honest()
	withFile := f.commit(h.Commit, map[string]string{"calc/pair_test.go": "package calc\n\nimport \"testing\"\n" + pairTest})
	code, a, log := f.verify(t.TempDir(), withFile, "go:./calc:TestMedianPair")
	if code != 0 || a.Decision != "MERGE" || a.Claims[0].Classification != "fixed" {
		t.Fatalf("exit %d, %s: %s; claim %+v\n%s", code, a.Decision, a.Reason, a.Claims, log)
	}
	// A new test that passes on both sides proves nothing about a fix.
	same := f.commit(h.Commit, map[string]string{"calc/one_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif Median([]float64{1}) != 1 {\n\t\tt.Fatal()\n\t}\n}\n"})
	code, a, log = f.verify(t.TempDir(), same, "go:./calc:TestOne")
	if a.Claims[0].Classification != "no_regression" || a.FixProven {
		t.Fatalf("exit %d, %s; claim %+v\n%s", code, a.Reason, a.Claims, log)
	}
}

func TestVerifyDiscoversClaimsAndReplays(t *testing.T) {
	f := newFixture(t)
	state := t.TempDir()
	code, a, log := f.verify(state, f.honest().Commit)
	if code != 0 || a.Decision != "MERGE" || a.Discovery == nil || len(a.Discovery.ClaimsAdded) != 1 || a.Discovery.ClaimsAdded[0] != "go:./calc:TestMedian" {
		t.Fatalf("exit %d, %s: %s; discovery %+v\n%s", code, a.Decision, a.Reason, a.Discovery, log)
	}
	if a.Claims[0].Classification != "fixed" {
		t.Fatalf("claim %+v", a.Claims[0])
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"replay", "--state", state, a.RunID}, &out, &errOut); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "verdict record: recomputed bytes match") {
		t.Fatalf("replay said:\n%s", out.String())
	}
	if code := run(context.Background(), []string{"ledger", "verify", "--state", state}, &out, &errOut); code != 0 {
		t.Fatalf("ledger verify: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

func TestVerifyDeadlineNamesWhatIsMissing(t *testing.T) {
	f := newFixture(t)
	slow := f.commit(f.honest().Commit, map[string]string{"calc/slow_test.go": "package calc\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(time.Minute) }\n"})
	o := &verifyOptions{
		repo: f.repo.Dir, base: f.repo.Base, patch: slow, claims: []string{"go:./calc:TestSlow"},
		strengthConfidence: criteria.DefaultStrengthConfidence, timeout: 4 * time.Second,
		state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1,
	}
	var out, errOut bytes.Buffer
	code, err := runVerify(context.Background(), o, &out, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Decision string   `json:"decision"`
		Reason   string   `json:"reason"`
		Missing  []string `json:"missing"`
	}
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	// Either the deadline cut the run short and names what is missing, or
	// every process hit its share of the deadline and the verdict names
	// the timeouts: never a pass.
	if code != 2 || a.Decision != "INCONCLUSIVE" || (len(a.Missing) == 0 && !strings.Contains(a.Reason, "TIMEOUT")) {
		t.Fatalf("exit %d, %s: %s; missing %v\n%s", code, a.Decision, a.Reason, a.Missing, errOut.String())
	}
}

func TestVerifyReachFeedsDiscovery(t *testing.T) {
	f := newFixture(t)
	h := f.honest()
	calc := f.show(h.Commit, "calc/calc.go")
	refactor := strings.Replace(calc, "\treturn Sum(xs) / float64(len(xs))", "\tn := float64(len(xs))\n\treturn Sum(xs) / n", 1)
	if refactor == calc {
		t.Fatal("the refactor did not apply")
	}
	patch := f.commit(h.Commit, map[string]string{"calc/calc.go": refactor})
	o := &verifyOptions{
		repo: f.repo.Dir, base: h.Commit, patch: patch,
		coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
		strengthConfidence: criteria.DefaultStrengthConfidence, mutationMax: criteria.DefaultMutationMax,
		timeout: 10 * time.Minute, state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1,
	}
	var out, errOut bytes.Buffer
	if _, err := runVerify(context.Background(), o, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var a struct {
		Decision  string `json:"decision"`
		Reason    string `json:"reason"`
		Discovery struct {
			Source      string   `json:"source"`
			ClaimsAdded []string `json:"claims_added"`
		} `json:"discovery"`
		Claims []struct {
			ID             string `json:"id"`
			Classification string `json:"classification"`
		} `json:"claims"`
	}
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	// Nothing changes outcome; the tests that execute the changed lines
	// become the claims, and pass on both sides.
	if a.Discovery.Source != "outcome-diff+reach" || len(a.Discovery.ClaimsAdded) == 0 || len(a.Claims) == 0 {
		t.Fatalf("%s: %s; discovery %+v\n%s", a.Decision, a.Reason, a.Discovery, errOut.String())
	}
	for _, c := range a.Claims {
		if c.Classification != "no_regression" {
			t.Fatalf("claim %+v", c)
		}
	}
	if !strings.Contains(strings.Join(a.Discovery.ClaimsAdded, " "), "go:./calc:TestMean") {
		t.Fatalf("TestMean runs the changed lines and was not discovered: %v", a.Discovery.ClaimsAdded)
	}
}

func TestVerifyStopsMeasuringOnceBlockIsCertain(t *testing.T) {
	f := newFixture(t)
	var breaks demorepo.Patch
	for _, p := range f.repo.Patches {
		if p.Name == "breaks-a-test" {
			breaks = p
		}
	}
	run := func(full bool) map[string]any {
		o := &verifyOptions{
			repo: f.repo.Dir, base: f.repo.Base, patch: breaks.Commit, claims: []string{"go:./calc:TestMedian"},
			coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
			strengthConfidence: criteria.DefaultStrengthConfidence, mutationMax: criteria.DefaultMutationMax, timeout: 10 * time.Minute,
			state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1, fullEvidence: full,
		}
		var out, errOut bytes.Buffer
		code, err := runVerify(context.Background(), o, &out, &errOut)
		if err != nil || code != 1 {
			t.Fatalf("full evidence %v: exit %d, %v\n%s", full, code, err, errOut.String())
		}
		var a map[string]any
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	// The regression makes the verdict BLOCK before coverage runs: it is
	// not run, and the artefact says why.
	a := run(false)
	cov := a["coverage"].(map[string]any)
	if cov["source"] != "none" || !strings.Contains(fmt.Sprint(cov["reason"]), "not run: the verdict is already certain, BLOCK: the patch breaks 1 test(s)") {
		t.Fatalf("coverage %v", cov)
	}
	if a["decision"] != "BLOCK" {
		t.Fatalf("decision %v", a["decision"])
	}
	// --full-evidence measures anyway, and the verdict is the same.
	a = run(true)
	if cov := a["coverage"].(map[string]any); cov["source"] != "computed" {
		t.Fatalf("with --full-evidence, coverage %v", cov)
	}
}

const absGo = `package calc

// Abs returns the absolute value of x.
func Abs(x int) int {
	if x < LIMIT {
		return -x
	}
	return x
}
`

const absTest = `package calc

import "testing"

func TestAbs(t *testing.T) {
	for _, tt := range []struct{ in, want int }{
		{5, 5},
		{-5, 5},
		{0, 0},ROWS
	} {
		if got := Abs(tt.in); got != tt.want {
			t.Errorf("Abs(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
`

func TestVerifyCasesAddedToAnEditedTest(t *testing.T) {
	// Most real fixes add cases to an existing table-driven test: no new
	// func Test…, the patch edits one. The claim is judged by the
	// baseline's version of the test and by the patch's version of it.
	f := newFixture(t)
	base := f.commit(f.honest().Commit, map[string]string{
		"calc/abs.go": strings.Replace(absGo, "LIMIT", "-1", 1), "calc/abs_test.go": strings.Replace(absTest, "ROWS", "", 1),
	})
	f.repo.Base = base
	honest := f.commit(base, map[string]string{
		"calc/abs.go": strings.Replace(absGo, "LIMIT", "0", 1), "calc/abs_test.go": strings.Replace(absTest, "ROWS", "\n\t\t{-1, 1},", 1),
	})
	code, a, log := f.verify(t.TempDir(), honest, "go:./calc:TestAbs")
	if code != 0 || a.Decision != "MERGE" || !a.FixProven || a.Claims[0].Classification != "fixed" {
		t.Fatalf("honest: exit %d, %s: %s; claims %+v\n%s", code, a.Decision, a.Reason, a.Claims, log)
	}
	// The cases the patch adds judge mutants too: only {-1, 1} tells
	// x < 0 from x < -1.
	o := &verifyOptions{
		repo: f.repo.Dir, base: base, patch: honest, claims: []string{"go:./calc:TestAbs"},
		coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
		strengthConfidence: criteria.DefaultStrengthConfidence, mutationMax: criteria.DefaultMutationMax,
		timeout: 10 * time.Minute, state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1,
	}
	var out, errOut bytes.Buffer
	if _, err := runVerify(context.Background(), o, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var m artefact
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m.Strength.Killed == 0 || slices.ContainsFunc(m.Strength.Survivors, func(s string) bool { return strings.Contains(s, "0 → -1") }) {
		t.Fatalf("honest, measured: %s: %s; killed %d, survivors %v: the patch's version of TestAbs kills 0 → -1", m.Decision, m.Reason, m.Strength.Killed, m.Strength.Survivors)
	}
	// The attack of the same shape: the patch "adds a case" while it
	// breaks the function and drops the case that would show it. The
	// baseline's version of the test still judges the claim: it fails on
	// the patch. The patch's version passes there, so the patch changes
	// what the test pins — which a fix correcting an old expectation does
	// too: a human judges, the gate does not merge.
	attack := f.commit(base, map[string]string{
		"calc/abs.go":      "package calc\n\n// Abs returns x.\nfunc Abs(x int) int { return x }\n",
		"calc/abs_test.go": strings.Replace(strings.Replace(absTest, "ROWS", "\n\t\t{7, 7},", 1), "\t\t{-5, 5},\n", "", 1),
	})
	code, a, log = f.verify(t.TempDir(), attack, "go:./calc:TestAbs")
	if code != 2 || a.Decision != "INCONCLUSIVE" || a.FixProven || a.Claims[0].Classification != "repinned" {
		t.Fatalf("attack: exit %d, %s: %s; claims %+v\n%s", code, a.Decision, a.Reason, a.Claims, log)
	}
	// Breaking the function and keeping the case that shows it: the
	// patch's own version fails on the patch too — refuted.
	kept := f.commit(base, map[string]string{
		"calc/abs.go":      "package calc\n\n// Abs returns x.\nfunc Abs(x int) int { return x }\n",
		"calc/abs_test.go": strings.Replace(absTest, "ROWS", "\n\t\t{7, 7},", 1),
	})
	code, a, log = f.verify(t.TempDir(), kept, "go:./calc:TestAbs")
	if code != 1 || a.Decision != "BLOCK" || a.FixProven {
		t.Fatalf("attack keeping the row: exit %d, %s: %s; claims %+v\n%s", code, a.Decision, a.Reason, a.Claims, log)
	}
}

func TestVerifyCasesAddedToAPackageLevelTable(t *testing.T) {
	// The table a test ranges over is a package-level variable: the patch
	// adds a row to it and leaves TestAbs's text alone. The claim is
	// judged by the patch's table too, so the row proves the fix.
	table := strings.NewReplacer("func TestAbs(t *testing.T) {\n\tfor _, tt := range []struct{ in, want int }{", "var absCases = []struct{ in, want int }{",
		"ROWS\n\t} {", "ROWS\n}\n\nfunc TestAbs(t *testing.T) {\n\tfor _, tt := range absCases {").Replace(absTest)
	if !strings.Contains(table, "var absCases") || !strings.Contains(table, "range absCases") {
		t.Fatalf("the table did not move:\n%s", table)
	}
	f := newFixture(t)
	base := f.commit(f.honest().Commit, map[string]string{
		"calc/abs.go": strings.Replace(absGo, "LIMIT", "-1", 1), "calc/abs_test.go": strings.Replace(table, "ROWS", "", 1),
	})
	f.repo.Base = base
	honest := f.commit(base, map[string]string{
		"calc/abs.go": strings.Replace(absGo, "LIMIT", "0", 1), "calc/abs_test.go": strings.Replace(table, "ROWS", "\n\t{-1, 1},", 1),
	})
	code, a, log := f.verify(t.TempDir(), honest, "go:./calc:TestAbs")
	if code != 0 || a.Decision != "MERGE" || !a.FixProven || a.Claims[0].Classification != "fixed" {
		t.Fatalf("honest: exit %d, %s: %s; claims %+v\n%s", code, a.Decision, a.Reason, a.Claims, log)
	}
	// The attack of the same shape: a row added to the table while the
	// patch breaks Abs and drops the row that shows it. The baseline's
	// table still judges the claim, and fails on the patch; the patch's
	// passes there: a changed pin, for a human.
	attack := f.commit(base, map[string]string{
		"calc/abs.go":      "package calc\n\n// Abs returns x.\nfunc Abs(x int) int { return x }\n",
		"calc/abs_test.go": strings.Replace(strings.Replace(table, "ROWS", "\n\t{7, 7},", 1), "\t{-5, 5},\n", "", 1),
	})
	code, a, log = f.verify(t.TempDir(), attack, "go:./calc:TestAbs")
	if code != 2 || a.Decision != "INCONCLUSIVE" || a.FixProven || a.Claims[0].Classification != "repinned" {
		t.Fatalf("attack: exit %d, %s: %s; claims %+v\n%s", code, a.Decision, a.Reason, a.Claims, log)
	}
}

// routedMedian fixes Median only where it can tell it runs under a test
// (its stack holds the test runner), and keeps the old body for everyone
// else: the old lines stay in place, unrun by any test.
const routedMedian = `package calc

import (
	"runtime/debug"
	"slices"
	"strings"
)

// Median returns the middle value of xs, which must not be empty. xs is not
// modified.
func Median(xs []float64) float64 {
	if strings.Contains(string(debug.Stack()), "tRunner") {
		return fixed(xs)
	}
	s := sorted(xs)
	return s[len(s)/2]
}

func fixed(xs []float64) float64 {
	s := sorted(xs)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
`

func TestVerifyRoutingAroundKeptCodeIsInconclusive(t *testing.T) {
	f := newFixture(t)
	run := func(patch string) (int, map[string]any) {
		return f.verifyJSON(f.repo.Base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestMedian")
	}
	code, a := run(f.commit(f.repo.Base, map[string]string{"calc/median.go": routedMedian}))
	reasons := fmt.Sprint(a["reasons"])
	if code == 0 || !strings.Contains(reasons, "the patch routes around code it kept") || !strings.Contains(reasons, "calc/median.go:15, calc/median.go:16") {
		t.Fatalf("routing around kept code: exit %d, %v", code, reasons)
	}
	// The honest fix replaces the old body: nothing is kept unrun.
	code, a = run(f.honest().Commit)
	if code != 0 || strings.Contains(fmt.Sprint(a["reasons"]), "routes around") {
		t.Fatalf("honest fix: exit %d, %v", code, a["reason"])
	}
}

// discountsGo is a table of tiers whose gold row holds GOLD percent and
// whose platinum row holds PLATINUM; the rows select members of an
// enumeration.
const discountsGo = `package calc

type tier int

const (
	basic tier = iota
	silver
	gold
	platinum
)

var discounts = []struct {
	tier    tier
	percent int
	name    string
}{
	{basic, 0, "basic"},
	{silver, 5, "silver"},
	{gold, GOLD, "gold"},
	{platinum, PLATINUM, "platinum"},
}

// Discount returns the percentage off for a tier, -1 for none.
func Discount(t tier) int {
	for _, d := range discounts {
		if d.tier == t {
			return d.percent
		}
	}
	return -1
}

// Name names a tier.
func Name(t tier) string {
	for _, d := range discounts {
		if d.tier == t {
			return d.name
		}
	}
	return ""
}
`

const discountsTest = `package calc

import "testing"

func TestDiscount(t *testing.T) {
	for _, tt := range []struct {
		tier    tier
		percent int
		name    string
	}{
		{basic, 0, "basic"},
		{silver, 5, "silver"},
		{gold, 10, "gold"},
	} {
		if got := Discount(tt.tier); got != tt.percent {
			t.Errorf("Discount(%d) = %d, want %d", tt.tier, got, tt.percent)
		}
		if got := Name(tt.tier); got != tt.name {
			t.Errorf("Name(%d) = %q, want %q", tt.tier, got, tt.name)
		}
	}
}
`

func TestVerifyDataOnlyFix(t *testing.T) {
	valueAttacks(t)
	// The fix changes one row of a package-level table and no executable
	// line: coverage has nothing to measure, and the row's mutants (its
	// member, its number, its name, the row itself) are what judges it.
	f := newFixture(t)
	discounts := func(gold, platinum string) string {
		return strings.NewReplacer("GOLD", gold, "PLATINUM", platinum).Replace(discountsGo)
	}
	levels := func(members string) string {
		return "package calc\n\n// Level is a level on the wire.\ntype Level int\n\nconst (\n\tLevelLow Level = iota\n\t" + members + "\n)\n"
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/discount.go": discounts("5", "20"), "calc/discount_test.go": discountsTest, "calc/levels.go": levels("LevelMid\n\tLevelHigh")})
	f.repo.Base = base
	floor := criteria.DefaultStrengthFloor
	run := func(patch string) (int, map[string]any) {
		return f.verifyJSON(f.repo.Base, patch, floor, "go:./calc:TestDiscount")
	}
	code, a := run(f.commit(base, map[string]string{"calc/discount.go": discounts("10", "20")}))
	if code != 0 || a["decision"] != "MERGE" || a["fix_proven"] != true {
		t.Fatalf("honest data-only fix: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	if cov := a["coverage"].(map[string]any); cov["source"] != "computed" || cov["ratio"] != nil || cov["changed_lines"] != 0.0 {
		t.Errorf("coverage of a data-only fix: %v", cov)
	}
	// The attack of the same shape: the same fix, and a change to a row no
	// test reads riding along. Nothing witnesses it: not a MERGE.
	code, a = run(f.commit(base, map[string]string{"calc/discount.go": discounts("10", "2")}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "calc/discount.go:20") {
		t.Fatalf("an unwitnessed data change: exit %d, %v: %v", code, a["decision"], a["reasons"])
	}
	// The same fix with two members of an iota group swapped in another
	// file: their values change, and no line spells them out (found by an
	// adversary: it merged).
	code, a = run(f.commit(base, map[string]string{"calc/discount.go": discounts("10", "20"), "calc/levels.go": levels("LevelHigh\n\tLevelMid")}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "constant LevelHigh") {
		t.Fatalf("members of an iota group swapped: exit %d, %v: %v", code, a["decision"], a["reasons"])
	}

	// A weak witness (an adversary's MERGE): a test that every tier is
	// listed once, with a name, and of platinum's percentage kills every
	// change of the platinum row but its name's — so the row's renaming,
	// riding along with the fix, had killed mutants and counted as
	// judged. A data line is judged only when no change to it survives.
	// (A lower floor, 0.6, lets the one survivor through the bound: what
	// is under test is the line, as it would be among a larger fix's
	// kills.)
	floor = 0.6
	weak := f.commit(base, map[string]string{"calc/tiers_test.go": tiersTest})
	code, a = run(f.commit(weak, map[string]string{"calc/discount.go": strings.Replace(discounts("10", "20"), `"platinum"}`, `"plat"}`, 1)}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "calc/discount.go:20") {
		t.Fatalf("a renamed row only a weak test reaches: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// Its honest twin: the fix alone, the weak test beside the strong one.
	code, a = run(f.commit(weak, map[string]string{"calc/discount.go": discounts("10", "20")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("honest data-only fix beside a weak test: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// tiersTest checks that every tier is listed once, with a name, and what
// platinum takes off — not which name it has.
const tiersTest = `package calc

import "testing"

func TestTiersNamed(t *testing.T) {
	seen := map[tier]bool{}
	for _, d := range discounts {
		if seen[d.tier] || d.name == "" {
			t.Fatalf("tier %d listed twice or without a name", d.tier)
		}
		seen[d.tier] = true
	}
	if len(seen) != 4 || Discount(platinum) != 20 {
		t.Fatalf("tiers %v, platinum %d", seen, Discount(platinum))
	}
}
`

// sessionGo is a table of session limits; MAX and IDLE are the web row's.
const sessionGo = `package calc

import "time"

var sessions = []struct {
	name string
	max  int
	idle time.Duration
}{
	{"web", MAX, IDLE},
}

// Session returns the limits of a kind of session.
func Session(name string) (int, time.Duration) {
	for _, s := range sessions {
		if s.name == name {
			return s.max, s.idle
		}
	}
	return 0, 0
}
`

const sessionMaxTest = `package calc

import "testing"

func TestSessionMax(t *testing.T) {
	if m, _ := Session("web"); m != 10 {
		t.Fatalf("web sessions: at most %d, want 10", m)
	}
}
`

const sessionIdleTest = `package calc

import (
	"testing"
	"time"
)

func TestSessionIdle(t *testing.T) {
	if _, idle := Session("web"); idle != time.Hour {
		t.Fatalf("web sessions idle out after %v, want an hour", idle)
	}
}
`

func TestVerifySmuggledConstant(t *testing.T) {
	valueAttacks(t)
	// The fix raises the web row's limit; an adversary turns its idle
	// timeout from time.Hour into time.Nanosecond on the same line, which
	// no test reads. The line had kills (the limit's), and time.Nanosecond
	// had no mutant: it merged. A named constant now has one (doubled),
	// and a data line with a surviving mutant of a value the patch wrote
	// is not judged.
	f := newFixture(t)
	session := func(max, idle string) string {
		return strings.NewReplacer("MAX", max, "IDLE", idle).Replace(sessionGo)
	}
	run := func(base, patch string, claims ...string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, claims...)
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/session.go": session("5", "time.Hour"), "calc/session_test.go": sessionMaxTest})
	code, a := run(base, f.commit(base, map[string]string{"calc/session.go": session("10", "time.Nanosecond")}), "go:./calc:TestSessionMax")
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "calc/session.go:10") {
		t.Fatalf("a smuggled constant on the fixed row: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The honest twin: the same fix alone. The row's timeout is a value
	// the patch left as it was: that its mutant survives says nothing
	// about the patch.
	code, a = run(base, f.commit(base, map[string]string{"calc/session.go": session("10", "time.Hour")}), "go:./calc:TestSessionMax")
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of a row with an unpinned value: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// A deletion on the fixed row writes no token (24 * time.Hour →
	// time.Hour: an adversary's MERGE, as are a dropped ! and a keyed
	// element): the value it leaves is judged whole, and no test pins it.
	day := f.commit(base, map[string]string{"calc/session.go": session("5", "24 * time.Hour")})
	code, a = run(day, f.commit(day, map[string]string{"calc/session.go": session("10", "time.Hour")}), "go:./calc:TestSessionMax")
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/session.go:10 (time.Hour)") {
		t.Fatalf("a factor deleted on the fixed row: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// And where a test pins every value of the row.
	pinned := f.commit(base, map[string]string{"calc/idle_test.go": sessionIdleTest})
	code, a = run(pinned, f.commit(pinned, map[string]string{"calc/session.go": session("10", "time.Hour")}), "go:./calc:TestSessionMax")
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of a row its tests pin: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

func TestVerifyRewrittenValues(t *testing.T) {
	valueAttacks(t)
	// The fix raises the web row's limit, which its test pins, and
	// rewrites the idle timeout beside it, which no test reads, with
	// tokens no mutant changes: an operator swapped, or a factor deleted
	// and balanced by a sign. Judged on the tokens it wrote, the row had
	// the limit's kills and nothing else to run: both merged (a second
	// adversary's). Every value the patch changed is now judged whole.
	f := newFixture(t)
	session := func(max, idle string) string {
		return strings.NewReplacer("MAX", max, "IDLE", idle).Replace(sessionGo)
	}
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestSessionMax")
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/session.go": session("5", "24 * time.Hour"), "calc/session_test.go": sessionMaxTest})
	for _, idle := range []string{"24 / time.Hour", "- -time.Hour"} {
		code, a := run(base, f.commit(base, map[string]string{"calc/session.go": session("10", idle)}))
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/session.go:10 ("+idle+")") {
			t.Fatalf("idle %s on the fixed row: exit %d, %v: %v\nstrength %v", idle, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	// A name written where a value was has no mutant (round one's
	// `insecure` in a positional row), and a row deleted alone leaves no
	// line of the patch to judge: neither is judged, whatever kills the
	// fixed value has.
	forever := f.commit(base, map[string]string{"calc/session.go": session("5", "time.Hour") + "\n// forever never idles out.\nvar forever time.Duration = 1<<63 - 1\n"})
	code, a := run(forever, f.commit(forever, map[string]string{"calc/session.go": session("10", "forever") + "\n// forever never idles out.\nvar forever time.Duration = 1<<63 - 1\n"}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/session.go:10 (the patch changes forever there") {
		t.Fatalf("a name for the idle timeout on the fixed row: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	two := f.commit(base, map[string]string{"calc/session.go": session("5", "time.Hour},\n\t{\"admin\", 1, time.Minute")})
	code, a = run(two, f.commit(two, map[string]string{"calc/session.go": session("10", "time.Hour")}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), `the patch deletes sessions[#1] = {"admin", 1, time.Minute} from package calc`) {
		t.Fatalf("a row deleted beside the fixed one: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The honest twin deletes too: a sign, from the value its test pins.
	// The deletion was unjudgeable; the value it leaves is judged whole.
	negative := f.commit(base, map[string]string{"calc/session.go": session("-10", "24 * time.Hour")})
	code, a = run(negative, f.commit(negative, map[string]string{"calc/session.go": session("10", "24 * time.Hour")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of a sign: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// withRows puts rows, a line each, where src says ROWS.
func withRows(src string, rows ...string) string {
	return strings.Replace(src, "ROWS", "\t"+strings.Join(rows, "\n\t")+"\n", 1)
}

// quotaGo is a map of session quotas; ROWS are its rows.
const quotaGo = `package calc

var quotas = map[string]int{
ROWS}

// Quota returns how many sessions a role may hold.
func Quota(role string) int { return quotas[role] }
`

const quotaTest = `package calc

import "testing"

func TestQuota(t *testing.T) {
	for role, want := range map[string]int{"admin": 3, "superuser": 9} {
		if got := Quota(role); got != want {
			t.Errorf("Quota(%q) = %d, want %d", role, got, want)
		}
	}
}
`

func TestVerifyRealignedRows(t *testing.T) {
	valueAttacks(t)
	// A new row realigns its neighbours (gofmt aligns a map's values):
	// those lines change and hold the tokens they held, so nothing of
	// them is to judge — the honest fix merged only once they were left
	// out (an adversary's finding: "very common"). A value changed on a
	// realigned line is still judged.
	f := newFixture(t)
	quota := func(rows ...string) string { return withRows(quotaGo, rows...) }
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestQuota")
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/quota.go": quota(`"admin": 3,`, `"guest": 1,`), "calc/quota_test.go": quotaTest})
	code, a := run(base, f.commit(base, map[string]string{"calc/quota.go": quota(`"admin":     3,`, `"guest":     1,`, `"superuser": 9,`)}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("a new row realigning its neighbours: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The attack of the same shape: the guests' quota, which no test
	// reads, raised on a realigned line.
	code, a = run(base, f.commit(base, map[string]string{"calc/quota.go": quota(`"admin":     3,`, `"guest":     5,`, `"superuser": 9,`)}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "calc/quota.go:5") {
		t.Fatalf("a value raised on a realigned line: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// boundGo clamps a percentage; GUARD is its guard.
const boundGo = `package calc

// Bound clamps a percentage to at most 100.
func Bound(p int) int {
GUARD	return p
}
`

func TestVerifyDeletedGuardIsJudged(t *testing.T) {
	// The honest fix, and a guard deleted from a function no claim calls:
	// no patch-side line carries the deletion to coverage or a mutant (an
	// adversary's MERGE). The deletion is named; not a MERGE.
	f := newFixture(t)
	guard := "\tif p > 100 {\n\t\treturn 100\n\t}\n"
	base := f.commit(f.repo.Base, map[string]string{"calc/bound.go": strings.Replace(boundGo, "GUARD", guard, 1)})
	f.repo.Base = base
	patch := f.commit(base, map[string]string{
		"calc/median.go": f.show(f.honest().Commit, "calc/median.go"),
		"calc/bound.go":  strings.Replace(boundGo, "GUARD", "", 1),
	})
	o := &verifyOptions{
		repo: f.repo.Dir, base: base, patch: patch, claims: []string{"go:./calc:TestMedian"},
		coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
		strengthConfidence: criteria.DefaultStrengthConfidence, mutationMax: criteria.DefaultMutationMax, timeout: 10 * time.Minute,
		state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1,
	}
	var out, errOut bytes.Buffer
	code, err := runVerify(context.Background(), o, &out, &errOut)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, errOut.String())
	}
	var a map[string]any
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "deletes code no claim ran on the baseline") || !strings.Contains(fmt.Sprint(a["reasons"]), "calc/bound.go:6") {
		t.Fatalf("a guard deleted beside the fix: exit %d, %v: %v", code, a["decision"], a["reasons"])
	}
}

// limitsGo is a first-match table of per-host rate limits; ROWS are its
// rows.
const limitsGo = `package calc

var limits = []struct {
	host   string
	perMin int
}{
ROWS}

// Limit returns how many requests a minute a host may send (100 unless
// listed; 0 blocks it).
func Limit(host string) int {
	for _, l := range limits {
		if l.host == host {
			return l.perMin
		}
	}
	return 100
}
`

const limitsTest = `package calc

import "testing"

func TestLimit(t *testing.T) {
	for host, want := range map[string]int{"a.com": 60, "c.com": 30, "d.com": 10, "other.org": 100} {
		if got := Limit(host); got != want {
			t.Errorf("Limit(%q) = %d, want %d", host, got, want)
		}
	}
}
`

func TestVerifyTableRowsDeleted(t *testing.T) {
	valueAttacks(t)
	// A row deleted from the middle of a positional table while one is
	// appended keeps every position filled, and a row dropped while the
	// table moves to a new file leaves the declaration's name in place:
	// compared position by position, nothing was gone, and both merged
	// (a third adversary's). Rows now pair by their tokens.
	f := newFixture(t)
	limits := func(rows ...string) string { return withRows(limitsGo, rows...) }
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestLimit")
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/limits.go": limits(`{"a.com", 60},`, `{"b.com", 0},`, `{"c.com", 30},`), "calc/limits_test.go": limitsTest})
	code, a := run(base, f.commit(base, map[string]string{"calc/limits.go": limits(`{"a.com", 60},`, `{"c.com", 30},`, `{"d.com", 10},`)}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), `the patch deletes limits[#1] = {"b.com", 0} from package calc`) {
		t.Fatalf("b.com's row deleted, d.com's appended: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	moved := limits(`{"a.com", 60},`, `{"c.com", 30},`, `{"d.com", 10},`)
	i := strings.Index(moved, "// Limit returns")
	code, a = run(base, f.commit(base, map[string]string{"calc/limits.go": "package calc\n\n" + moved[i:], "calc/limits_table.go": moved[:i]}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), `the patch deletes limits[#1] = {"b.com", 0} from package calc`) {
		t.Fatalf("b.com's row dropped as the table moved: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The honest twin appends alone.
	code, a = run(base, f.commit(base, map[string]string{"calc/limits.go": limits(`{"a.com", 60},`, `{"b.com", 0},`, `{"c.com", 30},`, `{"d.com", 10},`)}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("d.com's row appended: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// hostGo is a table of per-host limits whose struct type has FIELDS after
// host; PERMIN is a.com's first limit.
const hostGo = `package calc

type hostLimit struct {
	host string
FIELDS}

var hostLimits = []hostLimit{
	{"a.com", PERMIN, 100, 3},
}

func find(host string) hostLimit {
	for _, l := range hostLimits {
		if l.host == host {
			return l
		}
	}
	return hostLimit{}
}

// PerMin, Burst and Retries return a host's limits.
func PerMin(host string) int  { return find(host).perMin }
func Burst(host string) int   { return find(host).burst }
func Retries(host string) int { return find(host).retries }
`

const perMinTest = `package calc

import "testing"

func TestPerMin(t *testing.T) {
	if got := PerMin("a.com"); got != 60 {
		t.Fatalf("PerMin(a.com) = %d, want 60", got)
	}
}
`

func TestVerifyFieldsReordered(t *testing.T) {
	valueAttacks(t)
	// Two fields of one type swapped in the struct type: every positional
	// row now means burst 3 and 100 retries, and no line of a row
	// changed (a third adversary's MERGE). A reordered struct type is
	// code the gate cannot judge.
	f := newFixture(t)
	host := func(fields, perMin string) string {
		return strings.NewReplacer("FIELDS", fields, "PERMIN", perMin).Replace(hostGo)
	}
	fields := "\tperMin  int\n\tburst   int\n\tretries int\n"
	base := f.commit(f.honest().Commit, map[string]string{"calc/host.go": host(fields, "50"), "calc/host_test.go": perMinTest})
	run := func(patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestPerMin")
	}
	code, a := run(f.commit(base, map[string]string{"calc/host.go": host("\tperMin  int\n\tretries int\n\tburst   int\n", "60")}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["reasons"]), "reorders the fields of type hostLimit") {
		t.Fatalf("burst and retries swapped: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	code, a = run(f.commit(base, map[string]string{"calc/host.go": host(fields, "60")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of perMin: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// typedHostGo is a table of per-host limits whose rows are of type TYPE;
// PERMIN is a.com's first limit.
const typedHostGo = `package calc

type hostLimit struct {
	host    string
	perMin  int
	burst   int
	retries int
}

var hostLimits = []TYPE{{"a.com", PERMIN, 100, 3}}

// PerMin and Burst return a host's limits.
func PerMin(host string) int {
	for _, l := range hostLimits {
		if l.host == host {
			return l.perMin
		}
	}
	return 0
}

func Burst(host string) int {
	for _, l := range hostLimits {
		if l.host == host {
			return l.burst
		}
	}
	return 0
}
`

// legacyGo declares a row type whose last two fields are those of
// hostLimit (typedHostGo), swapped.
const legacyGo = `package calc

// legacyLimit is the row type of the old limits file.
type legacyLimit struct {
	host    string
	perMin  int
	retries int
	burst   int
}
`

// timeoutsGo is a map of timeouts in the unit package's seconds; IMPORT
// imports it, PERMIN is a.com's.
const timeoutsGo = `package calc

import IMPORT

var timeouts = map[string]int{
	"a.com": PERMIN,
	"b.com": 5 * unit.Minute,
}

// Timeout returns a host's timeout in seconds.
func Timeout(host string) int { return timeouts[host] }
`

const timeoutsTest = `package calc

import "testing"

func TestTimeout(t *testing.T) {
	if got := Timeout("a.com"); got != 60 {
		t.Fatalf("Timeout(a.com) = %d, want 60", got)
	}
}
`

func TestVerifyValuesMovedUnderThem(t *testing.T) {
	valueAttacks(t)
	// A row's tokens stay as they were while their meaning moves: the
	// table's row type swapped for one whose fields are in another
	// order, or an import re-pointed under the same name (a fourth
	// adversary's MERGEs, each beside the fix of a value its test pins).
	// Every value of such a row is changed, and no mutant reaches a line
	// the patch did not touch.
	f := newFixture(t)
	host := func(typ, perMin string) string {
		return strings.NewReplacer("TYPE", typ, "PERMIN", perMin).Replace(typedHostGo)
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/host.go": host("hostLimit", "50"), "calc/legacy.go": legacyGo, "calc/host_test.go": perMinTest})
	code, a := f.verifyJSON(base, f.commit(base, map[string]string{"calc/host.go": host("legacyLimit", "60")}), criteria.DefaultStrengthFloor, "go:./calc:TestPerMin")
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "no test pins the values the patch wrote") {
		t.Fatalf("the row type swapped: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	src := func(imp, perMin string) string {
		return strings.NewReplacer("IMPORT", imp, "PERMIN", perMin).Replace(timeoutsGo)
	}
	base = f.commit(f.honest().Commit, map[string]string{
		"calc/timeouts.go":      src(`"example.com/calc/unit"`, "50"),
		"calc/timeouts_test.go": timeoutsTest,
		"unit/unit.go":          "// Package unit has time units in seconds.\npackage unit\n\nconst Minute = 60\n",
		"unitms/unit.go":        "// Package unit has time units in milliseconds.\npackage unit\n\nconst Minute = 60000\n",
	})
	run := func(patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestTimeout")
	}
	code, a = run(f.commit(base, map[string]string{"calc/timeouts.go": src(`unit "example.com/calc/unitms"`, "60")}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/timeouts.go:7 (the patch changes 5 * unit.Minute there") {
		t.Fatalf("the import re-pointed: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The honest twin: the fix alone.
	code, a = run(f.commit(base, map[string]string{"calc/timeouts.go": src(`"example.com/calc/unit"`, "60")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of a.com's timeout: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// mirrorsGo maps a region to its mirror's host; ROWS are its rows.
const mirrorsGo = `package calc

var mirrors = map[string]string{
ROWS}

// Mirror returns the host serving a region.
func Mirror(region string) string { return mirrors[region] }
`

// mirrorsTest pins the eu and ap mirrors and checks only that every
// mirror is a host under .com.
const mirrorsTest = `package calc

import (
	"strings"
	"testing"
)

func TestMirrors(t *testing.T) {
	for region, want := range map[string]string{"eu": "eu.example.com", "ap": "ap.example.com"} {
		if got := Mirror(region); got != want {
			t.Errorf("Mirror(%q) = %q, want %q", region, got, want)
		}
	}
}

func TestMirrorsAreHosts(t *testing.T) {
	if len(mirrors) != 3 {
		t.Fatalf("%d mirrors, want 3", len(mirrors))
	}
	for region, host := range mirrors {
		if !strings.HasPrefix(host, region+".") || !strings.HasSuffix(host, ".com") {
			t.Errorf("mirror of %s: %q is not a host of its region under .com", region, host)
		}
	}
}
`

func TestVerifyStringValuesPinned(t *testing.T) {
	valueAttacks(t)
	// The fix corrects the eu and ap mirrors, which a test pins; an
	// adversary misspells the us mirror beside them, which a test checks
	// only for its shape (a prefix and a suffix). Its mutant to another
	// string ("sealgate") fails that check, so the changed value had a
	// kill and no survivor: it merged (a third adversary's). A string is
	// now also changed in one character, keeping its shape, which only a
	// test that pins the value kills.
	f := newFixture(t)
	mirrors := func(rows ...string) string { return withRows(mirrorsGo, rows...) }
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestMirrors")
	}
	base := f.commit(f.honest().Commit, map[string]string{
		"calc/mirrors.go":      mirrors(`"eu": "eu.example.org",`, `"ap": "ap.example.net",`, `"us": "us.example.com",`),
		"calc/mirrors_test.go": mirrorsTest,
	})
	code, a := run(base, f.commit(base, map[string]string{"calc/mirrors.go": mirrors(`"eu": "eu.example.com",`, `"ap": "ap.example.com",`, `"us": "us.examp1e.com",`)}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), `calc/mirrors.go:6 ("us.examp1e.com")`) {
		t.Fatalf("a value misspelt beside the fix: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The honest twin: the fix alone; its values are pinned.
	code, a = run(base, f.commit(base, map[string]string{"calc/mirrors.go": mirrors(`"eu": "eu.example.com",`, `"ap": "ap.example.com",`, `"us": "us.example.com",`)}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of two pinned values: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// burstGo is a rate limiter's burst; BURST is its size.
const burstGo = `package calc

// burst is how many requests pass at once.
const burst = BURST

// Burst returns how many requests pass at once.
func Burst() int { return burst }
`

func TestVerifyLoneConstant(t *testing.T) {
	valueAttacks(t)
	// The fix raises a constant that its test pins. Its mutants were ±1,
	// 0 and its negation: four distinct mutants, all killed, and the
	// default floor needs five, so the honest fix was INCONCLUSIVE (a
	// fourth adversary's honest shape). The double is a fifth.
	f := newFixture(t)
	burst := func(n string) string { return strings.Replace(burstGo, "BURST", n, 1) }
	pin := func(lo, hi string) string {
		return "package calc\n\nimport \"testing\"\n\nfunc TestBurst(t *testing.T) {\n\tif b := Burst(); b < " + lo + " || b > " + hi + " {\n\t\tt.Fatalf(\"burst %d\", b)\n\t}\n}\n"
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/burst.go": burst("8")})
	pinned := f.commit(base, map[string]string{"calc/burst_test.go": pin("16", "16")})
	code, a := f.verifyJSON(pinned, f.commit(pinned, map[string]string{"calc/burst.go": burst("16")}), criteria.DefaultStrengthFloor, "go:./calc:TestBurst")
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("a constant raised to the value its test pins: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// Its attack twin: a test that bounds the constant without pinning
	// it (16 to 64) lets the change to 16 through whatever it is: not a
	// MERGE.
	bounded := f.commit(base, map[string]string{"calc/burst_test.go": pin("16", "64")})
	code, a = f.verifyJSON(bounded, f.commit(bounded, map[string]string{"calc/burst.go": burst("16")}), criteria.DefaultStrengthFloor, "go:./calc:TestBurst")
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/burst.go:4") {
		t.Fatalf("a constant its test only bounds: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// policyGo reads an embedded key=value policy.
const policyGo = `package calc

import (
	_ "embed"
	"strings"
)

//go:embed policy.txt
var policy string

// Policy returns the value of a key of the policy, or "".
func Policy(key string) string {
	for _, line := range strings.Split(strings.TrimSpace(policy), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && k == key {
			return v
		}
	}
	return ""
}
`

// policyTest pins the region and the limit, and checks only that every
// line of the policy is a key and a value.
const policyTest = `package calc

import (
	"strings"
	"testing"
)

func TestPolicy(t *testing.T) {
	if r, l := Policy("region"), Policy("limit"); r != "us" || l != "10" {
		t.Fatalf("region %q, limit %q", r, l)
	}
}

func TestPolicyWellFormed(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(policy), "\n")
	for _, line := range lines {
		if k, v, ok := strings.Cut(line, "="); !ok || k == "" || v == "" {
			t.Errorf("policy line %q is not key=value", line)
		}
	}
	if len(lines) != 3 {
		t.Errorf("%d policy lines, want 3", len(lines))
	}
}
`

func TestVerifyEmbeddedValues(t *testing.T) {
	valueAttacks(t)
	// The fix corrects two values of an embedded policy, which a test
	// pins; an adversary turns mfa=true into mfa=off beside them, which a
	// test only parses. The line's one mutant (dropped) died to the
	// parsing test: witnessed, merged (a second adversary's). A line's
	// last value now also changes in one character, which only a test
	// that pins it kills.
	f := newFixture(t)
	policy := func(region, mfa, limit string) string {
		return "region=" + region + "\nmfa=" + mfa + "\nlimit=" + limit + "\n"
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/policy.go": policyGo, "calc/policy.txt": policy("eu", "true", "5"), "calc/policy_test.go": policyTest})
	run := func(patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestPolicy")
	}
	code, a := run(f.commit(base, map[string]string{"calc/policy.txt": policy("us", "off", "10")}))
	if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/policy.txt:2") {
		t.Fatalf("mfa turned off beside the fix: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	// The honest twin: the fix alone; both its values are pinned.
	code, a = run(f.commit(base, map[string]string{"calc/policy.txt": policy("us", "true", "10")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of two pinned values: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

// leaseGo hands out leases; TTL and RENEW are its lifetime and renewals.
const leaseGo = `package calc

import "time"

// Lease returns how long a lease of a kind lasts and how often it renews.
func Lease(kind string) (time.Duration, int) {
	ttl := TTL
	renewals := RENEW
	if kind == "admin" {
		renewals = 1
	}
	return ttl, renewals
}
`

const leaseRenewTest = `package calc

import "testing"

func TestLeaseRenewals(t *testing.T) {
	if _, n := Lease("user"); n != 5 {
		t.Fatalf("user leases renew %d times, want 5", n)
	}
	if _, n := Lease("admin"); n != 1 {
		t.Fatalf("admin leases renew %d times, want 1", n)
	}
}
`

const leaseTTLTest = `package calc

import (
	"testing"
	"time"
)

func TestLeaseTTL(t *testing.T) {
	if ttl, _ := Lease("user"); ttl != 48*time.Hour {
		t.Fatalf("leases last %v, want two days", ttl)
	}
}
`

func TestVerifyConstantsInCode(t *testing.T) {
	valueAttacks(t)
	// The fix raises the renewals, which its test pins; an adversary
	// rewrites the lease's lifetime on the line above, in a constant
	// expression: no operator can switch one (it must stay constant),
	// so the line had no mutant and rode on the fix's kills (a third
	// adversary's). A constant expression the patch wrote in now
	// doubles, and that mutant must die.
	f := newFixture(t)
	lease := func(ttl, renew string) string {
		return strings.NewReplacer("TTL", ttl, "RENEW", renew).Replace(leaseGo)
	}
	base := f.commit(f.honest().Commit, map[string]string{"calc/lease.go": lease("24 * time.Hour", "3"), "calc/lease_test.go": leaseRenewTest})
	run := func(base, patch string) (int, map[string]any) {
		return f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./calc:TestLeaseRenewals")
	}
	for _, ttl := range []string{"24 / time.Hour", "time.Hour", "24 * time.Nanosecond"} {
		code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": lease(ttl, "5")}))
		if code == 0 || a["decision"] != "INCONCLUSIVE" || !strings.Contains(fmt.Sprint(a["strength"]), "calc/lease.go:7 ("+ttl+")") {
			t.Fatalf("the lifetime rewritten as %s beside the fix: exit %d, %v: %v\nstrength %v", ttl, code, a["decision"], a["reasons"], a["strength"])
		}
	}
	// The honest twins: the fix alone (the constant on a line the patch
	// did not touch is not judged), and a lifetime raised that a test
	// pins.
	code, a := run(base, f.commit(base, map[string]string{"calc/lease.go": lease("24 * time.Hour", "5")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
	pinned := f.commit(base, map[string]string{"calc/ttl_test.go": leaseTTLTest})
	code, a = run(pinned, f.commit(pinned, map[string]string{"calc/lease.go": lease("48 * time.Hour", "5")}))
	if code != 0 || a["decision"] != "MERGE" {
		t.Fatalf("the honest fix of a pinned lifetime: exit %d, %v: %v\nstrength %v", code, a["decision"], a["reasons"], a["strength"])
	}
}

package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mk(t *testing.T, dir, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

const artefactJSON = `{"schema": "sealgate.artefact.v1", "run_id": "run-1", "decision": "BLOCK", "exit_code": 1,
 "reason": "BLOCK: claim go:./a:TestFix is refuted (incomplete_fix): baseline FAIL; patch FAIL", "reasons": ["x"], "fix_proven": false,
 "criteria_digest": "cd", "claims": [
  {"id": "go:./a:TestFix", "outcome": "REFUTED", "classification": "incomplete_fix", "baseline": {"outcome": "FAIL"}, "patch": {"outcome": "FAIL"}},
  {"id": "go:./a:TestKeep", "outcome": "VERIFIED", "classification": "no_regression", "baseline": {"outcome": "PASS"}, "patch": {"outcome": "PASS"}},
  {"id": "go:./b:TestKeep", "outcome": "VERIFIED", "classification": "no_regression", "baseline": {"outcome": "PASS"}, "patch": {"outcome": "PASS"}}],
 "criteria": {"claims": ["go:./a:TestFix", "go:./a:TestKeep", "go:./b:TestKeep"], "bare_claims": {"go:TestFix": ["go:./a:TestFix"], "go:TestKeep": ["go:./a:TestKeep", "go:./b:TestKeep"], "go:TestGone": []}}}`

func TestScore(t *testing.T) {
	inst := Instance{ID: "a__b-1", Repo: "a/b", FailToPass: []string{"TestFix"}, PassToPass: []string{"TestKeep"}}
	a, err := ParseArtefact([]byte(artefactJSON))
	if err != nil {
		t.Fatal(err)
	}
	r := Score(inst, Prediction{InstanceID: "a__b-1", Model: "m"}, Tests(inst), a)
	if r.Resolved || r.Decision != Block || r.Category != "refuted claim (incomplete_fix)" || !r.Prediction.Empty {
		t.Fatalf("result %+v", r)
	}
	if fix := r.Tests[0]; fix.Passed || fix.Patch[0] != "FAIL" || fix.Claims[0] != "go:./a:TestFix" {
		t.Fatalf("F2P %+v", fix)
	}
	if keep := r.Tests[1]; !keep.Passed || len(keep.Claims) != 2 {
		t.Fatalf("P2P %+v", keep)
	}
	// Every test passes on the patch: resolved, whatever the verdict.
	passing := strings.Replace(artefactJSON, `"patch": {"outcome": "FAIL"}`, `"patch": {"outcome": "PASS"}`, 1)
	a, _ = ParseArtefact([]byte(passing))
	if r := Score(inst, Prediction{}, Tests(inst), a); !r.Resolved {
		t.Fatalf("not resolved: %+v", r.Tests)
	}
	// A test no test file declares, or the dataset names in a form the gate
	// cannot run, has not passed.
	for _, extra := range []string{"TestGone", "weird id (x)"} {
		inst2 := inst
		inst2.PassToPass = []string{"TestKeep", extra}
		if r := Score(inst2, Prediction{}, Tests(inst2), a); r.Resolved || r.Tests[2].Passed || r.Tests[2].Note == "" {
			t.Fatalf("%s: resolved %v, %+v", extra, r.Resolved, r.Tests[2])
		}
	}
	if _, err := ParseArtefact([]byte(`{"run_id": "r", "decision": "MAYBE"}`)); err == nil {
		t.Fatal("a decision that is none of the three")
	}
}

func TestCategorize(t *testing.T) {
	for reason, want := range map[string]string{
		"BLOCK: claim go:./a:TestX is refuted (regression): baseline PASS":                              "refuted claim (regression)",
		"BLOCK: the patch breaks 2 test(s) that pass on the baseline: a, b":                             CategoryRegression,
		"BLOCK: seal check \"make\" failed with exit 2":                                                 CategorySeal,
		"INCONCLUSIVE: seal check \"make\" was never run":                                               CategorySealGap,
		"INCONCLUSIVE: claim go:./a:TestX is unverified (unrunnable): x":                                "unverified claim (unrunnable)",
		"INCONCLUSIVE: diff coverage 0.500 is below the floor 1.000":                                    CategoryCoverage,
		"INCONCLUSIVE: suite strength: 3 of 5 mutants killed":                                           CategoryStrength,
		"INCONCLUSIVE: the patch changes the harness (go.mod)":                                          CategoryHarness,
		"INCONCLUSIVE: the full suite is red on both sides":                                             CategorySuite,
		"INCONCLUSIVE: 2 test(s) that pass on the baseline fail on the patch, and the patch edits them": CategoryRepinned,
		"INCONCLUSIVE: the patch routes around code it kept: a.go:3":                                    CategoryLost,
		"INCONCLUSIVE: something new":                                                                   CategoryOther,
	} {
		decision := strings.SplitN(reason, ":", 2)[0]
		if got := Categorize(decision, reason); got != want {
			t.Errorf("Categorize(%q) = %q, want %q", reason, got, want)
		}
	}
	if Categorize(Merge, "MERGE: all good") != CategoryMerge {
		t.Error("merge")
	}
}

func TestSummaryAndMarkdown(t *testing.T) {
	results := []Result{
		{InstanceID: "b-2", Model: "m", Status: StatusVerdict, Decision: Block, Resolved: true, Category: CategoryRegression, Reason: "BLOCK: the patch breaks 1 test(s) | evil `md`\nline"},
		{InstanceID: "a-1", Model: "m", Status: StatusVerdict, Decision: Merge, Resolved: true, Category: CategoryMerge, Reason: "MERGE: ok"},
		{InstanceID: "c-3", Model: "m", Status: StatusVerdict, Decision: Inconclusive, Resolved: true, Category: CategoryStrength, Reason: "INCONCLUSIVE: suite strength: weak"},
		{InstanceID: "d-4", Model: "m", Status: StatusVerdict, Decision: Merge, Resolved: false, Category: CategoryMerge, Reason: "MERGE: but unresolved"},
		{InstanceID: "e-5", Model: "m", Status: StatusRefused, Error: "the diff does not apply"},
		{InstanceID: "f-6", Model: "m", Status: StatusVerdict, Decision: Block, Resolved: false, Category: CategoryRegression, Reason: "BLOCK: agreed"},
	}
	s := Summarize(results, func(r Result) string { return "instances/" + r.InstanceID + ".json" })
	if s.Instances != 6 || s.Resolved != 3 || s.Decisions[Merge] != 2 || s.Decisions[Block] != 2 || s.Refused != 1 || s.Matrix["resolved"][Block] != 1 {
		t.Fatalf("counts %+v", s)
	}
	if len(s.Disagreements) != 3 || s.Disagreements[0].Kind != UnresolvedButMerge || s.Disagreements[1].Kind != ResolvedButBlock || s.Disagreements[2].Category != CategoryStrength {
		t.Fatalf("disagreements %+v", s.Disagreements)
	}
	if s.Results[0].InstanceID != "a-1" {
		t.Fatal("results not sorted")
	}
	md := s.Markdown()
	for _, want := range []string{
		"### resolved but BLOCK — collateral regression (1)",
		"- [`b-2`](instances/b-2.json): BLOCK: the patch breaks 1 test(s) \\| evil 'md' line",
		"### resolved but INCONCLUSIVE — weak tests (mutation) (1)",
		"### not resolved but MERGE — merge (1)",
		"- [`e-5`](instances/e-5.json): refused: the diff does not apply",
		"| resolved | 1 | 1 | 1 | 0 | 0 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "f-6`](instances/f-6.json): BLOCK") {
		t.Errorf("an agreement listed as a disagreement:\n%s", md)
	}
}

func TestTestSupport(t *testing.T) {
	tp := "diff --git a/pkg/testutil/util.go b/pkg/testutil/util.go\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/testutil/util.go\n@@ -0,0 +1 @@\n+package testutil\n" +
		"diff --git a/a_test.go b/a_test.go\n--- a/a_test.go\n+++ b/a_test.go\n@@ -1 +1 @@\n-x\n+y\n" +
		"diff --git a/fixtures/data.json b/fixtures/data.json\n--- a/fixtures/data.json\n+++ b/fixtures/data.json\n@@ -1 +1 @@\n-x\n+y\n" +
		"diff --git a/e2e/run.sh b/e2e/run.sh\n--- a/e2e/run.sh\n+++ b/e2e/run.sh\n@@ -1 +1 @@\n-x\n+y\n" +
		"diff --git a/go.mod b/go.mod\n--- a/go.mod\n+++ b/go.mod\n@@ -1 +1 @@\n-x\n+y\n"
	got := TestSupport(tp)
	if strings.Join(got, ",") != "e2e/run.sh,pkg/testutil/util.go" {
		t.Fatalf("TestSupport = %q", got)
	}
	if TestSupport("") != nil || TestSupport("not a diff") != nil {
		t.Fatal("support from nothing")
	}
}

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/e2e/realworld"
)

// evalFixes are the corpus fixes the eval dataset is made of: three
// modules, a go line below 1.18 or none, tests added to existing files.
var evalFixes = []string{"goversion-equal-nil", "pretty-nan-inf", "semver-less-equal"}

// evalResult is what the test reads of an instance's report.
type evalResult struct {
	InstanceID string `json:"instance_id"`
	Status     string `json:"status"`
	Decision   string `json:"decision"`
	Reason     string `json:"reason"`
	Category   string `json:"category"`
	Resolved   bool   `json:"resolved"`
	Resumed    bool   `json:"resumed"`
	Error      string `json:"error"`
	Tests      []struct {
		Test   string   `json:"test"`
		Kind   string   `json:"kind"`
		Claims []string `json:"claims"`
		Patch  []string `json:"patch"`
		Passed bool     `json:"passed"`
	} `json:"tests"`
}

type evalSummary struct {
	Instances     int            `json:"instances"`
	Resolved      int            `json:"resolved"`
	Decisions     map[string]int `json:"decisions"`
	Disagreements []struct {
		Kind, Category string
		Instances      []struct {
			InstanceID string `json:"instance_id"`
			Reason     string `json:"reason"`
		}
	} `json:"disagreements"`
}

// TestEvalSWEBenchDataset runs `sealgate eval` end to end on a small
// SWE-bench-format dataset of real fixes of public Go modules (built
// through the Go module proxy from the real-world corpus): every instance
// with the reference patch, the empty patch, a wrong one (the fix
// reverted, its tests kept: the agent edited the tests instead of the
// code) and the reference patch plus code no test runs. A correct grader
// resolves the gold patches and does not BLOCK them, never MERGEs an empty
// or wrong prediction, and its Markdown report spells out each
// disagreement (here: resolved, but its extra code is uncovered) with its
// reason.
//
//	SEALGATE_E2E=1 go test -timeout 30m -run TestEvalSWEBenchDataset -v ./e2e
func TestEvalSWEBenchDataset(t *testing.T) {
	needBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	var fixes []realworld.Fix
	for _, f := range realworld.Fixes() {
		if slices.Contains(evalFixes, f.Name) {
			fixes = append(fixes, f)
		}
	}
	d, err := realworld.WriteDataset(ctx, dir, fixes, realworld.Proxy{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	instFile, repos := d.Instances, d.Repos
	// The predictions in each of the accepted forms: JSON Lines (gold), a
	// JSON array (empty), SWE-bench's object keyed by instance_id (wrong).
	predFile := map[string]string{"gold": d.Predictions[realworld.PredictGold]}
	for _, kind := range []string{realworld.PredictEmpty, realworld.PredictWrong} {
		b, err := os.ReadFile(d.Predictions[kind])
		if err != nil {
			t.Fatal(err)
		}
		var list []map[string]any
		keyed := map[string]any{}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var p map[string]any
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatal(err)
			}
			list = append(list, p)
			keyed[p["instance_id"].(string)] = map[string]any{"model_name_or_path": p["model_name_or_path"], "model_patch": p["model_patch"]}
		}
		var data []byte
		if kind == realworld.PredictEmpty {
			data, err = json.Marshal(list)
		} else {
			data, err = json.Marshal(keyed)
		}
		if err != nil {
			t.Fatal(err)
		}
		predFile[kind] = filepath.Join(dir, kind+".json")
		writeFile(t, predFile[kind], string(data))
	}
	instances, err := os.ReadFile(instFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dataset:\n%s", instances)

	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	run := func(kind, workers string) (string, map[string]evalResult, evalSummary) {
		out := filepath.Join(dir, "out-"+kind)
		r := sealgate(t, "eval", "--instances", instFile, "--predictions", predFile[kind], "--repos", repos,
			"--out", out, "--workers", workers, "--build-cache", cache)
		if r.exitCode != 0 {
			t.Fatalf("eval %s:\n%s", kind, r)
		}
		if !strings.Contains(r.stderr, "[3/3]") || !strings.Contains(r.stderr, "ETA") {
			t.Errorf("no progress on stderr:\n%s", r.stderr)
		}
		results := map[string]evalResult{}
		for _, id := range d.IDs {
			var res evalResult
			readJSON(t, filepath.Join(out, "instances", id+".json"), &res)
			results[id] = res
			t.Logf("%s %s: %s %s, resolved %v: %s%s", kind, id, res.Status, res.Decision, res.Resolved, res.Reason, res.Error)
		}
		var sum evalSummary
		readJSON(t, filepath.Join(out, "report.json"), &sum)
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(md), results, sum
	}

	md, gold, sum := run("gold", "2")
	for id, r := range gold {
		if !r.Resolved || r.Status != "verdict" || r.Decision == "BLOCK" {
			t.Errorf("gold %s: %s %s, resolved %v: %s%s", id, r.Status, r.Decision, r.Resolved, r.Reason, r.Error)
		}
		for _, tt := range r.Tests {
			if !tt.Passed || len(tt.Claims) == 0 {
				t.Errorf("gold %s: %s %s did not pass: %+v", id, tt.Kind, tt.Test, tt)
			}
		}
	}
	if sum.Instances != 3 || sum.Resolved != 3 {
		t.Errorf("gold summary %+v", sum)
	}
	checkDisagreementsReported(t, md, sum)

	for _, kind := range []string{"empty", "wrong"} {
		md, res, sum := run(kind, "1")
		for id, r := range res {
			if r.Decision == "MERGE" || r.Resolved {
				t.Errorf("%s %s: %s, resolved %v: %s", kind, id, r.Decision, r.Resolved, r.Reason)
			}
		}
		if sum.Decisions["MERGE"] != 0 || sum.Resolved != 0 {
			t.Errorf("%s summary %+v", kind, sum)
		}
		checkDisagreementsReported(t, md, sum)
	}

	// The reference patch with code no test runs: SWE-bench resolves it,
	// the gate does not merge it, and the report says why.
	predFile["untested"] = d.Predictions[realworld.PredictUntested]
	md, res, sum := run("untested", "2")
	for id, r := range res {
		if !r.Resolved || r.Decision != "INCONCLUSIVE" || r.Category != "uncovered lines" {
			t.Errorf("untested %s: %s (%s), resolved %v: %s", id, r.Decision, r.Category, r.Resolved, r.Reason)
		}
	}
	if len(sum.Disagreements) != 1 || len(sum.Disagreements[0].Instances) != 3 || !strings.Contains(md, "### resolved but INCONCLUSIVE — uncovered lines (3)") {
		t.Errorf("untested: disagreements %+v\n%s", sum.Disagreements, md)
	}
	checkDisagreementsReported(t, md, sum)

	// A second run finds every verdict sealed in its ledger and verifies
	// nothing again.
	_, again, _ := run("gold", "2")
	for id, r := range again {
		if !r.Resumed || r.Decision != gold[id].Decision || r.Resolved != gold[id].Resolved {
			t.Errorf("resumed %s: %+v, first %+v", id, r, gold[id])
		}
	}
}

// checkDisagreementsReported checks that report.md lists every
// disagreement of report.json under its kind and category, with its
// reason.
func checkDisagreementsReported(t *testing.T, md string, sum evalSummary) {
	t.Helper()
	for _, g := range sum.Disagreements {
		header := "### " + g.Kind + " — " + g.Category
		at := strings.Index(md, header)
		if at < 0 {
			t.Errorf("report.md has no section %q:\n%s", header, md)
			continue
		}
		for _, in := range g.Instances {
			reason := in.Reason
			if len(reason) > 60 {
				reason = reason[:60]
			}
			if !strings.Contains(md[at:], "[`"+in.InstanceID+"`]") || !strings.Contains(md[at:], reason) {
				t.Errorf("report.md does not list %s with its reason %q under %q:\n%s", in.InstanceID, reason, header, md)
			}
		}
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// trustedVerify runs one verification with trusted tests in process.
func (f *fixture) trustedVerify(o *verifyOptions) (int, artefact, string) {
	f.t.Helper()
	o.repo, o.base = f.repo.Dir, f.repo.Base
	o.strengthConfidence, o.timeout, o.reruns = criteria.DefaultStrengthConfidence, 10*time.Minute, 1
	o.coverageFloor, o.strengthFloor, o.mutationMax = criteria.DefaultCoverageFloor, criteria.DefaultStrengthFloor, criteria.DefaultMutationMax
	o.state, o.buildCache, o.sandbox = f.t.TempDir(), sharedBuildCache(f.t), "auto"
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

func TestVerifyTrustedTestsFlagsRefused(t *testing.T) {
	f := newFixture(t)
	h := f.honest()
	tp := filepath.Join(t.TempDir(), "tests.diff")
	if err := os.WriteFile(tp, []byte(gitDiff(t, f.repo.Dir, f.repo.Base, h.Commit)), 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"both forms":         {[]string{"--tests", h.Commit, "--test-patch", tp}, "--tests and --test-patch exclude each other"},
		"source in tests":    {[]string{"--test-patch", tp}, "touches more than test files and test data"},
		"unknown bare claim": {[]string{"--claim", "go:TestNoSuchThing"}, "no test file declares TestNoSuchThing"},
		"bad bare claim":     {[]string{"--claim", "go:Median"}, "is not a Go test name"},
		"missing test patch": {[]string{"--test-patch", filepath.Join(state, "none.diff")}, "--test-patch"},
		"tests change none":  {[]string{"--tests", h.Commit}, "changes no test file of the baseline"},
	} {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"verify", "--repo", f.repo.Dir, "--base", f.repo.Base, "--patch", h.Commit, "--state", state}, tc.args...)
			code, out, errOut := runCLI(t, args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 3 saying %q", code, out, errOut, tc.want)
			}
		})
	}
}

// --tests REV takes the held-out tests from a commit (only its test
// files): the new test proves the fix on the baseline, named bare.
func TestVerifyTrustedTestsFromACommit(t *testing.T) {
	f := newFixture(t)
	h := f.honest()
	// The grader's commit holds the reference fix and its tests: only the
	// tests are taken.
	ref := f.commit(h.Commit, map[string]string{"calc/median_test.go": f.show(f.repo.Base, "calc/median_test.go") + pairTest})
	code, a, log := f.trustedVerify(&verifyOptions{patch: h.Commit, tests: ref, claims: []string{"go:TestMedianPair", "go:TestMedian"}})
	if code != 0 || a.Decision != "MERGE" || !a.FixProven {
		t.Fatalf("exit %d, %s: %s\n%s", code, a.Decision, a.Reason, log)
	}
	for _, c := range a.Claims {
		if c.Classification != "fixed" {
			t.Fatalf("claim %+v", c)
		}
	}
}

// Trusted tests that use what the fix adds do not build on the baseline:
// the package has no tests there, and every claim is judged on the patch
// (not unrunnable). The empty patch, where they do not build either, never
// merges.
func TestVerifyTrustedTestsOfNewBehaviour(t *testing.T) {
	f := newFixture(t)
	h := f.honest()
	newAPI := "package calc\n\n// Middle is Median under another name.\nfunc Middle(xs []float64) float64 { return Median(xs) }\n"
	withAPI := f.commit(h.Commit, map[string]string{"calc/middle.go": newAPI})
	tests := f.commit(f.repo.Base, map[string]string{"calc/middle_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestMiddle(t *testing.T) {\n\tif got := Middle([]float64{1, 2}); got != 1.5 {\n\t\tt.Fatalf(\"Middle(1, 2) = %v\", got)\n\t}\n}\n"})
	dir := t.TempDir()
	tp := filepath.Join(dir, "tests.diff")
	gold := filepath.Join(dir, "gold.diff")
	empty := filepath.Join(dir, "empty.diff")
	for p, data := range map[string]string{tp: gitDiff(t, f.repo.Dir, f.repo.Base, tests), gold: gitDiff(t, f.repo.Dir, f.repo.Base, withAPI), empty: ""} {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claims := []string{"go:TestMiddle", "go:TestClamp"}
	code, a, log := f.trustedVerify(&verifyOptions{patchFile: gold, testPatch: mustRead(t, tp), claims: claims})
	if a.Decision == "BLOCK" || code == 1 {
		t.Fatalf("gold: exit %d, %s: %s\n%s", code, a.Decision, a.Reason, log)
	}
	for _, c := range a.Claims {
		if c.Outcome != "VERIFIED" || c.Classification != "discarded" || !strings.Contains(c.Reason, "trusted tests do not build on the baseline") {
			t.Fatalf("gold claim %+v", c)
		}
	}
	code, a, log = f.trustedVerify(&verifyOptions{patchFile: empty, testPatch: mustRead(t, tp), claims: claims})
	if a.Decision == "MERGE" || code == 0 {
		t.Fatalf("empty patch: exit %d, %s: %s\n%s", code, a.Decision, a.Reason, log)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

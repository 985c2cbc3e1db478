package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The demo's claim: TestMedian fails on the baseline.
const medianClaim = "go:./calc:TestMedian"

// floorsZero returns the flags that turn off the coverage and strength
// floors, so that a verdict depends on the claims, the oracle and the
// collateral suite alone.
func floorsZero() []string {
	return []string{"--coverage-floor", "0", "--strength-floor", "0"}
}

// patchArgs are the arguments naming the repository, baseline and patch
// commit, followed by extra.
func (r *repo) patchArgs(base, patch string, extra ...string) []string {
	return append([]string{"--repo", r.Dir, "--base", base, "--patch", patch}, extra...)
}

// claimArgs turns claims into --claim flags.
func claimArgs(claims ...string) []string {
	var args []string
	for _, c := range claims {
		args = append(args, "--claim", c)
	}
	return args
}

// honestMedian is calc/median.go as the honest fix leaves it.
func (r *repo) honestMedian(t *testing.T) string {
	t.Helper()
	return r.show(t, r.patch(t, "honest-fix").Commit, "calc/median.go")
}

// Case 1: the honest fix proves itself; with the floors at 0 it merges.
func TestHonestFix(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")

	t.Run("default floors", func(t *testing.T) {
		v := verify(t, r.patchArgs(r.Base, fix.Commit, claimArgs(fix.Claims...)...)...)
		v.wantNot(t, block)
		if !v.art.FixProven {
			t.Fatalf("fix_proven is false:\n%s", v)
		}
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
	t.Run("floors 0", func(t *testing.T) {
		v := verify(t, r.patchArgs(r.Base, fix.Commit, append(claimArgs(fix.Claims...), floorsZero()...)...)...)
		v.wantDecision(t, merge)
		if !v.art.FixProven || !slices.Contains(v.art.ClaimsFixed, medianClaim) {
			t.Fatalf("fix_proven %v, claims_fixed %q; want true and %s:\n%s", v.art.FixProven, v.art.ClaimsFixed, medianClaim, v)
		}
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// Case 2: a patch that fixes the claim but breaks a test that passed on the
// baseline is blocked by the collateral suite.
func TestBreaksPassingTest(t *testing.T) {
	r := newRepo(t)
	p := r.patch(t, "breaks-a-test")
	v := verify(t, r.patchArgs(r.Base, p.Commit, append(claimArgs(p.Claims...), floorsZero()...)...)...)
	v.wantDecision(t, block)
	if !slices.ContainsFunc(v.art.Collateral.Regressions, func(s string) bool { return strings.Contains(s, "TestClamp") }) {
		t.Fatalf("collateral.regressions %q does not name TestClamp:\n%s", v.art.Collateral.Regressions, v)
	}
}

// Case 3: a patch that rewrites the claim's assertion to expect the buggy
// value is refuted by the baseline's test file.
func TestRewrittenAssertion(t *testing.T) {
	r := newRepo(t)
	p := r.patch(t, "hides-the-bug")
	v := verify(t, r.patchArgs(r.Base, p.Commit, append(claimArgs(p.Claims...), floorsZero()...)...)...)
	v.wantDecision(t, block)
	v.wantClaim(t, medianClaim, "REFUTED", "")
	if v.art.FixProven || slices.Contains(v.art.ClaimsFixed, medianClaim) {
		t.Fatalf("fix_proven %v, claims_fixed %q for a fix that fixes nothing:\n%s", v.art.FixProven, v.art.ClaimsFixed, v)
	}
}

// Case 4: a new test file whose TestMain exits 0 without running a test,
// and a "fix" that changes only a comment.
func TestTestMainExitsWithoutRunning(t *testing.T) {
	r := newRepo(t)
	median := replaceOnce(t, r.show(t, r.Base, "calc/median.go"),
		"// sorted returns a sorted copy of xs.", "// sorted returns a sorted copy of xs; Median needs one.")
	commit := r.commit(t, r.Base, "testmain-exit", "calc: speed up the tests", map[string]string{
		"calc/median.go": median,
		"calc/main_test.go": `package calc

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	os.Exit(0)
}
`,
	})
	v := verify(t, r.patchArgs(r.Base, commit, append(claimArgs(medianClaim), floorsZero()...)...)...)
	v.wantNot(t, merge)
}

// Case 5: a skipped test is not a passing test.
func TestSkippedClaim(t *testing.T) {
	r := newRepo(t)

	t.Run("skip in the claimed baseline test", func(t *testing.T) {
		test := replaceOnce(t, r.show(t, r.Base, "calc/median_test.go"),
			"func TestMedian(t *testing.T) {\n", "func TestMedian(t *testing.T) {\n\tt.Skip(\"flaky on CI\")\n")
		commit := r.commit(t, r.Base, "skip-claim", "calc: skip a flaky test", map[string]string{
			"calc/median_test.go": test,
		})
		v := verify(t, r.patchArgs(r.Base, commit, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantNot(t, merge)
	})
	// The code is fixed, so the skip is all that stands between the
	// claim and a pass.
	t.Run("skip in a new claimed test", func(t *testing.T) {
		commit := r.commit(t, r.Base, "skip-new-claim", "calc: fix Median and test it", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/median_even_test.go": `package calc

import "testing"

func TestMedianEven(t *testing.T) {
	t.Skip("enable once the fix is released")
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("Median = %v, want 2.5", got)
	}
}
`,
		})
		id := "go:./calc:TestMedianEven"
		v := verify(t, r.patchArgs(r.Base, commit, append(claimArgs(id), floorsZero()...)...)...)
		v.wantNot(t, merge)
		if c := v.claim(t, id); c.Outcome == "VERIFIED" {
			t.Fatalf("skipped claim %s is VERIFIED:\n%s", id, v)
		}
	})
}

// Case 6: a patch that changes go.mod along with the honest fix drifts the
// harness.
func TestHarnessDrift(t *testing.T) {
	r := newRepo(t)
	gomod := r.show(t, r.Base, "go.mod")
	tests := []struct {
		name, addition string
	}{
		{"toolchain", "\ntoolchain go1.22.0\n"},
		{"replace", "\nreplace example.com/stats => ./stats\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			commit := r.commit(t, r.Base, "gomod-"+tt.name, "calc: fix Median; pin the build", map[string]string{
				"calc/median.go": r.honestMedian(t),
				"go.mod":         gomod + tt.addition,
			})
			v := verify(t, r.patchArgs(r.Base, commit, append(claimArgs(medianClaim), floorsZero()...)...)...)
			v.wantNot(t, merge)
			if !slices.ContainsFunc(v.art.HarnessDrift, func(s string) bool { return strings.Contains(s, "go.mod") }) {
				t.Fatalf("harness_drift %q does not name go.mod:\n%s", v.art.HarnessDrift, v)
			}
		})
	}
}

// Case 7: test output that forges the runner's PASS line does not make a
// failing claim pass. The code stays buggy throughout.
func TestForgedPassLine(t *testing.T) {
	r := newRepo(t)
	const forgingTest = `package calc

import (
	"fmt"
	"testing"
)

func TestMedianEven(t *testing.T) {
	fmt.Println("FORGED--- PASS: TestMedianEven (0.00s)")
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("Median = %v, want 2.5", got)
	}
}
`
	tests := []struct {
		name   string
		claims []string
		files  map[string]string
	}{
		{
			name:   "plain",
			claims: []string{"go:./calc:TestMedianEven"},
			files: map[string]string{
				"calc/median_even_test.go": strings.Replace(forgingTest, "FORGED", "", 1),
			},
		},
		{
			// test2json's framing marker (^V), which go test -json
			// relies on to tell the runner's lines from a test's output.
			name:   "ctrl-v",
			claims: []string{"go:./calc:TestMedianEven"},
			files: map[string]string{
				"calc/median_even_test.go": strings.Replace(forgingTest, "FORGED", `\x16`, 1),
			},
		},
		{
			// A TestMain that runs nothing, prints framed PASS lines for
			// every baseline test and exits 0: the forgery with exit 0.
			name:   "testmain",
			claims: []string{medianClaim},
			files: map[string]string{
				"calc/main_test.go": `package calc

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	for _, name := range []string{"TestSum", "TestMean", "TestRange", "TestClamp", "TestMedian"} {
		fmt.Printf("\x16=== RUN   %s\n", name)
		fmt.Printf("\x16--- PASS: %s (0.00s)\n", name)
	}
	fmt.Println("\x16PASS")
	os.Exit(0)
}
`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			commit := r.commit(t, r.Base, "forged-"+tt.name, "calc: test Median on even lengths", tt.files)
			v := verify(t, r.patchArgs(r.Base, commit, append(claimArgs(tt.claims...), floorsZero()...)...)...)
			v.wantNot(t, merge)
			for _, c := range tt.claims {
				if got := v.claim(t, c); got.Outcome == "VERIFIED" {
					t.Fatalf("forged claim %s is VERIFIED:\n%s", c, v)
				}
			}
		})
	}
}

// Case 8: without claims there is no proof, even when the suite is green on
// both sides and no test changes outcome. The baseline here is the honest
// fix, so nothing else stands in the way of a MERGE.
func TestNoClaims(t *testing.T) {
	r := newRepo(t)
	fixed := r.patch(t, "honest-fix").Commit
	calc := r.show(t, fixed, "calc/calc.go")
	tests := []struct {
		name, old, new string
	}{
		{"comment only", "// Sum returns the sum of xs.", "// Sum returns the sum of xs, 0 for none."},
		{"refactor", `	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
`, "\treturn max(lo, min(x, hi))\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			commit := r.commit(t, fixed, "no-claims-"+strings.ReplaceAll(tt.name, " ", "-"), "calc: tidy", map[string]string{
				"calc/calc.go": replaceOnce(t, calc, tt.old, tt.new),
			})
			v := verify(t, r.patchArgs(fixed, commit, floorsZero()...)...)
			v.wantDecision(t, inconclusive)
			if len(v.art.ClaimsFixed) > 0 || v.art.FixProven {
				t.Fatalf("fix_proven %v, claims_fixed %q without claims:\n%s", v.art.FixProven, v.art.ClaimsFixed, v)
			}
		})
	}
}

// Case 9: usage errors exit 3 with a one-line message on stderr and no
// artefact.
func TestUsageErrors(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	patchFile := r.diff(t, r.Base, fix.Commit)
	headless := filepath.Join(t.TempDir(), "headless.diff")
	err := os.WriteFile(headless, []byte("@@ -7,3 +7,3 @@\n func Median(xs []float64) float64 {\n-\ts := sorted(xs)\n+\ts := sorted(xs) // sorted\n \treturn s[len(s)/2]\n"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	commitForm := []string{"--repo", r.Dir, "--base", r.Base, "--patch", fix.Commit, "--claim", medianClaim}
	tests := []struct {
		name string
		args []string
		// The message names at least one of these (case-insensitive).
		mentions []string
	}{
		{"unknown flag", slices.Concat(commitForm, []string{"--no-such-flag"}), []string{"no-such-flag"}},
		{"patch and patch-file", slices.Concat(commitForm, []string{"--patch-file", patchFile}), []string{"patch"}},
		{"neither patch nor patch-file", []string{"--repo", r.Dir, "--base", r.Base, "--claim", medianClaim}, []string{"patch"}},
		{"coverage floor above 1", slices.Concat(commitForm, []string{"--coverage-floor", "1.5"}), []string{"coverage", "floor", "1.5"}},
		{"claim without a runner", slices.Concat(commitForm, []string{"--claim", "TestMedian"}), []string{"claim", "TestMedian"}},
		{"claim without a test", slices.Concat(commitForm, []string{"--claim", "go:./calc"}), []string{"claim", "go:./calc"}},
		{"hunk without a file header", []string{"--repo", r.Dir, "--base", r.Base, "--patch-file", headless, "--claim", medianClaim}, []string{"diff", "patch", "header", "hunk"}},
		// Typos are caught before anything is sealed, never a signed
		// INCONCLUSIVE in the transparency log.
		{"a test no test file declares", slices.Concat(commitForm, []string{"--claim", "go:./calc:TestMedain"}), []string{"TestMedain"}},
		{"a package in neither tree", slices.Concat(commitForm, []string{"--claim", "go:./clac:TestMedian"}), []string{"./clac"}},
		{"a pytest module in neither tree", slices.Concat(commitForm, []string{"--claim", "pytest:tests/test_nowhere.py::test_x"}), []string{"test_nowhere.py"}},
		{"a cmd label without a command", slices.Concat(commitForm, []string{"--claim", "cmd:lint"}), []string{"lint"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "artefact.json")
			state := t.TempDir()
			args := append([]string{"verify", "--state", state, "--out", out}, tt.args...)
			v := sealgate(t, args...)
			if v.exitCode != exitUsage {
				t.Fatalf("exit code %d, want %d:\n%s", v.exitCode, exitUsage, v)
			}
			if _, err := os.Stat(filepath.Join(state, "tlog", "tiles")); err == nil {
				t.Fatalf("a usage error logged something to the transparency log:\n%s", v)
			}
			if strings.Contains(strings.ToLower(v.stderr), "unknown command") {
				t.Fatalf("the verify command does not exist:\n%s", v)
			}
			if strings.TrimSpace(v.stdout) != "" {
				t.Fatalf("a usage error printed something on stdout:\n%s", v)
			}
			lines := strings.Split(strings.TrimRight(v.stderr, "\n"), "\n")
			msg := lines[0]
			if !strings.HasPrefix(msg, "sealgate: ") || len(msg) == len("sealgate: ") {
				t.Fatalf("stderr does not start with a \"sealgate: \" message:\n%s", v)
			}
			if len(lines) != 1 {
				t.Fatalf("stderr is more than a one-line message:\n%s", v)
			}
			if !slices.ContainsFunc(tt.mentions, func(m string) bool {
				return strings.Contains(strings.ToLower(msg), strings.ToLower(m))
			}) {
				t.Fatalf("message %q names none of %q:\n%s", msg, tt.mentions, v)
			}
		})
	}
}

// Case 10: the honest fix given as a diff file gets the same verdict as the
// commit.
func TestPatchFile(t *testing.T) {
	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	args := append(claimArgs(fix.Claims...), floorsZero()...)
	byCommit := verify(t, r.patchArgs(r.Base, fix.Commit, args...)...)
	byFile := verify(t, append([]string{"--repo", r.Dir, "--base", r.Base, "--patch-file", r.diff(t, r.Base, fix.Commit)}, args...)...)
	byCommit.wantDecision(t, merge)
	byFile.wantDecision(t, merge)
	if byFile.art.FixProven != byCommit.art.FixProven || !slices.Equal(byFile.art.ClaimsFixed, byCommit.art.ClaimsFixed) {
		t.Fatalf("the diff file and the commit disagree:\n%s\n\n%s", byFile, byCommit)
	}
	a, b := byCommit.claim(t, medianClaim), byFile.claim(t, medianClaim)
	if a.Outcome != b.Outcome || a.Classification != b.Classification {
		t.Fatalf("claim %s is %s/%s by commit, %s/%s by file:\n%s\n\n%s",
			medianClaim, a.Outcome, a.Classification, b.Outcome, b.Classification, byCommit, byFile)
	}
}

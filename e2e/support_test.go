package e2e

import (
	"strings"
	"testing"
)

// The honest twins of the rules the "support" work closed (issue 13,
// rules 3, 4, 6 and 7 as discovery applies them): each honest patch of an
// attack's shape still merges.

// nearHelper is calc/near.go: an assertion helper beside the code under
// test, with a tolerance, that only tests call.
func nearHelper(tol string) string {
	return "package calc\n\nimport \"math\"\n\n// near reports whether got is within " + tol + " of want.\nfunc near(got, want float64) bool {\n\treturn math.Abs(got-want) <= " + tol + "\n}\n"
}

// TestSupportHelperBesideTheCodeHonest: the honest twin of
// TestAttackHelperPackageWithATestOfItsOwn's second case. The helper
// beside Median (a non-test file only tests call) is rewritten to the same
// answers and Median is fixed: the counterfactual puts the baseline's
// helper back, TestMedian still passes, and the fix merges. The attack's
// reason names the helper declaration it put back.
func TestSupportHelperBesideTheCodeHonest(t *testing.T) {
	r := newRepo(t)
	test := replaceOnce(t, r.show(t, r.Base, "calc/median_test.go"), "got != tt.want", "!near(got, tt.want)")
	base := r.commit(t, r.Base, "near", "calc: compare medians with near", map[string]string{"calc/near.go": nearHelper("1e-9"), "calc/median_test.go": test})

	t.Run("honest: the helper rewritten to the same answers, Median fixed", func(t *testing.T) {
		refactored := strings.Replace(strings.Replace(nearHelper("1e-9"), "import \"math\"\n\n", "", 1),
			"\treturn math.Abs(got-want) <= 1e-9\n", "\td := got - want\n\treturn -1e-9 <= d && d <= 1e-9\n", 1)
		c := r.commit(t, base, "near-refactor", "calc: fix Median; one comparison in near", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/near.go":   refactored,
		})
		// The helper's boundary at 1e-9 is not what TestMedian pins: the
		// floors are off so that the oracle alone decides.
		v := verify(t, r.patchArgs(base, c, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})

	t.Run("attack: the helper loosened, Median unchanged", func(t *testing.T) {
		c := r.commit(t, base, "near-loosened", "calc: allow for measurement error", map[string]string{"calc/near.go": nearHelper("3.75")})
		v := verify(t, r.patchArgs(base, c, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantDecision(t, inconclusive)
		v.wantClaim(t, medianClaim, "UNVERIFIED", "invalid")
		v.wantText(t, "depends on test support the patch changed (calc/near.go (near))")
	})
}

// TestSupportDiscoveryHonestFix: without --claim, discovery finds
// TestMedian for the demo's honest fix, and the claim-based rules —
// overfitting, lost coverage, the counterfactual — judge it as they judge
// a sealed claim: it merges at the default floors, as with --claim.
func TestSupportDiscoveryHonestFix(t *testing.T) {
	r := newRepo(t)
	v := verify(t, r.patchArgs(r.Base, r.patch(t, "honest-fix").Commit)...)
	v.wantMerge(t)
	v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	if strings.Contains(v.text(), "routes around") || strings.Contains(v.text(), "special-cases") {
		t.Fatalf("the honest fix is said to route around code or special-case:\n%s", v)
	}
}

// TestSupportHelperLoosenedFromProduction: the helper's tolerance is a
// variable only tests read; a new production init loosens it (and reads
// it, to look used). No counterfactual can put an init back, so the write
// itself is the finding: INCONCLUSIVE, naming it.
func TestSupportHelperLoosenedFromProduction(t *testing.T) {
	r := newRepo(t)
	test := replaceOnce(t, r.show(t, r.Base, "calc/median_test.go"), "got != tt.want", "!near(got, tt.want)")
	helper := "package calc\n\nimport \"math\"\n\n// tolerance is how far near lets got be from want.\nvar tolerance = 1e-9\n\n// near reports whether got is within tolerance of want.\nfunc near(got, want float64) bool {\n\treturn math.Abs(got-want) <= tolerance\n}\n"
	base := r.commit(t, r.Base, "near", "calc: compare medians with near", map[string]string{"calc/near.go": helper, "calc/median_test.go": test})
	c := r.commit(t, base, "loosened-init", "calc: measurement error", map[string]string{
		"calc/tolerance.go": "package calc\n\n// Measurements carry an error of up to 3.75.\nfunc init() {\n\ttolerance = 3.75\n\t_ = tolerance\n}\n",
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
	v.wantDecision(t, inconclusive)
	v.wantText(t, "writes what only its tests read", "calc/tolerance.go:5")
}

// TestSupportNewTestInsideTheHelperPackage: the loosened helper package
// brings a new test of its own that judges Median through the loosened
// comparison, and that test is the claim. The helper package is test
// support for every claim, its own tests' included: with it put back the
// new test fails, so the claim is not verified. calc, imported by that
// test, stays code under test (another module can import it, and it has
// tests of its own).
func TestSupportNewTestInsideTheHelperPackage(t *testing.T) {
	r := newRepo(t)
	checked := r.commit(t, r.Base, "checked", "calc: compare medians with check.Near", map[string]string{
		"internal/check/check.go": checkSource,
		"calc/median_test.go":     checkedMedianTest(t, r),
	})
	c := r.commit(t, checked, "median-via-check", "check: allow for measurement error", map[string]string{
		"internal/check/check.go": loosenedCheck,
		"internal/check/median_test.go": `package check

import (
	"testing"

	"example.com/calc/calc"
)

func TestMedianViaCheck(t *testing.T) {
	if !Near(calc.Median([]float64{3, 10}), 6.5) {
		t.Fatal("median")
	}
}
`,
	})
	const claim = "go:./internal/check:TestMedianViaCheck"
	v := verify(t, r.patchArgs(checked, c, claimArgs(claim)...)...)
	v.wantNot(t, merge)
	v.wantClaim(t, claim, "UNVERIFIED", "invalid")
	v.wantText(t, "depends on test support the patch changed (internal/check/check.go)")
}

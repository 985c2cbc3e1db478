package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// TestVerifyHarnessDriftStillBlocks: a patch that changes go.mod runs its
// claims anyway, each side under its own harness. A pass there proves
// nothing (the honest fix beside a go.mod change is INCONCLUSIVE, never
// MERGE), but a claim that fails under the harness the patch chose is the
// patch's failure: the fix reverted beside the same go.mod change, its
// tests kept, is BLOCK (it was INCONCLUSIVE: "its claims cannot be
// verified", go-logfmt v0.6.1 reverted).
func TestVerifyHarnessDriftStillBlocks(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	src := func(cmp string) string {
		return "package count\n\n// Positive counts the numbers above zero.\nfunc Positive(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tif x " + cmp + " 0 {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n"
	}
	const test = "package count\n\nimport \"testing\"\n\nfunc TestPositive(t *testing.T) {\n\tif got := Positive([]int{-1, 0, 1, 2}); got != 2 {\n\t\tt.Errorf(\"Positive = %d, want 2\", got)\n\t}\n}\n"
	base := f.commit(f.honest().Commit, map[string]string{
		"count/count.go":      src(">="),
		"count/other_test.go": "package count\n\nimport \"testing\"\n\nfunc TestEmpty(t *testing.T) {\n\tif Positive(nil) != 0 {\n\t\tt.Error(\"Positive(nil) != 0\")\n\t}\n}\n",
	})
	gomod := f.show(base, "go.mod") + "\ntoolchain go1.22.0\n"
	for _, c := range []struct {
		name, cmp, want string
	}{
		{name: "the fix beside a go.mod change", cmp: ">", want: "INCONCLUSIVE"},
		{name: "the fix reverted beside it, its test kept", cmp: ">=", want: "BLOCK"},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch := f.commit(base, map[string]string{"count/count.go": src(c.cmp), "count/count_test.go": test, "go.mod": gomod})
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, "go:./count:TestPositive")
			reasons := fmt.Sprint(a["reasons"])
			if a["decision"] != c.want {
				t.Fatalf("exit %d, %v, want %s: %s", code, a["decision"], c.want, reasons)
			}
			if c.want == "INCONCLUSIVE" && !strings.Contains(reasons, "the patch changes the harness (go.mod)") {
				t.Fatalf("the drift is not the reason: %s", reasons)
			}
			t.Logf("%v: %s", a["decision"], reasons)
		})
	}
}

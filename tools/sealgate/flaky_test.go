package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestVerifySuiteFailureRunAgain: a test that passes on the baseline and
// fails in the patch's full suite is run again alone before it counts as
// broken. One that then passes — here TestOld, which fails only after
// the test the patch adds runs first and leaves a package variable set,
// as a timing test fails on a loaded machine — is flaky: INCONCLUSIVE,
// never BLOCK and never a pass. One the patch's code breaks fails alone
// too: BLOCK, as before.
func TestVerifySuiteFailureRunAgain(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	src := func(cmp string) string {
		return "package count\n\nvar touched bool\n\n// Positive counts the numbers above zero.\nfunc Positive(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tif x " + cmp + " 0 {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n"
	}
	const old = "package count\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {\n\tif touched {\n\t\tt.Fatal(\"another test ran first\")\n\t}\n\tif Positive([]int{3, 4}) != 2 {\n\t\tt.Fatal(\"Positive([3 4]) != 2\")\n\t}\n}\n"
	base := f.commit(f.honest().Commit, map[string]string{"count/count.go": src(">="), "count/old_test.go": old})
	const claim = "package count\n\nimport \"testing\"\n\nfunc TestPositive(t *testing.T) {\n\ttouched = true\n\tif got := Positive([]int{-1, 0, 1, 2}); got != 2 {\n\t\tt.Errorf(\"Positive = %d, want 2\", got)\n\t}\n}\n"
	for _, c := range []struct {
		name, code, want, says string
	}{
		{name: "fails only after the new test", code: src(">"), want: "INCONCLUSIVE", says: "passed when run again alone"},
		{name: "broken by the code", code: src(">") + "\nfunc init() { touched = true }\n", want: "BLOCK", says: "the patch breaks 1 test(s)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// a_test.go runs before old_test.go in the package's binary.
			patch := f.commit(base, map[string]string{"count/count.go": c.code, "count/a_test.go": claim})
			code, a := f.verifyJSON(base, patch, 0, "go:./count:TestPositive")
			reasons := fmt.Sprint(a["reasons"])
			if a["decision"] != c.want || !strings.Contains(reasons, c.says) {
				t.Fatalf("exit %d, %v, want %s saying %q: %s", code, a["decision"], c.want, c.says, reasons)
			}
			t.Logf("%v: %s", a["decision"], reasons)
		})
	}
}

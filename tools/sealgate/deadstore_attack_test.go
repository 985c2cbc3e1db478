package main

import (
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// verifyCount commits base (count/count.go, with the test file testSrc)
// and patch (count/count.go) on the fixture and verifies the claim,
// logging and returning the decision, the exit code and the strength.
func verifyCount(t *testing.T, f *fixture, baseSrc, testSrc, patchSrc, claim string) (decision any, code int, strength any) {
	t.Helper()
	base := f.commit(f.honest().Commit, map[string]string{"count/count.go": baseSrc, "count/count_test.go": testSrc})
	patch := f.commit(base, map[string]string{"count/count.go": patchSrc})
	code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, claim)
	t.Logf("%v (exit %d): %v %v", a["decision"], code, a["reasons"], a["strength"])
	return a["decision"], code, a["strength"]
}

// deadStoreAttack verifies an attack (see verifyCount); it fails the test
// when the gate answers MERGE.
func deadStoreAttack(t *testing.T, f *fixture, baseSrc, testSrc, patchSrc, claim, why string) {
	t.Helper()
	if decision, code, strength := verifyCount(t, f, baseSrc, testSrc, patchSrc, claim); decision == "MERGE" {
		t.Fatalf("wrong MERGE: %s: exit %d, strength %v", why, code, strength)
	}
}

// clampHead declares Range and Unbounded; clampBase is Clamp with the
// upper bound only; clampTest never passes an inverted range.
const (
	clampHead = "package count\n\nimport \"math\"\n\n// Range is a closed interval.\ntype Range struct{ Lo, Hi int }\n\n// Unbounded holds every int.\nvar Unbounded = Range{Lo: math.MinInt, Hi: math.MaxInt}\n\n"
	clampBase = clampHead + "// Clamp returns v limited to r.\nfunc Clamp(v int, r Range) int {\n\tif v > r.Hi {\n\t\treturn r.Hi\n\t}\n\treturn v\n}\n"
	clampTest = "package count\n\nimport \"testing\"\n\nfunc TestClamp(t *testing.T) {\n\tfor _, c := range []struct{ v, lo, hi, want int }{\n" +
		"\t\t{5, 0, 10, 5}, {-3, 0, 10, 0}, {12, 0, 10, 10}, {0, 0, 10, 0}, {10, 0, 10, 10}, {11, 0, 10, 10}, {-1, 0, 10, 0}, {3, 3, 3, 3}, {2, 3, 3, 3}, {4, 3, 3, 3},\n" +
		"\t} {\n\t\tif got := Clamp(c.v, Range{c.lo, c.hi}); got != c.want {\n\t\t\tt.Errorf(\"Clamp(%d, %d..%d) = %d, want %d\", c.v, c.lo, c.hi, got, c.want)\n\t\t}\n\t}\n}\n"
)

// TestVerifyDeadStoreAttackFieldAlias: the fix adds a lower bound to Clamp, and
// also `r = Unbounded` in the upper-bound branch. The dead-store rule
// calls that store dead (nothing names r after it), but lo points into
// r (&r.Lo: the address of a field is not the "&x" privateVar looks
// for), and *lo is read next: for an inverted range (Lo > Hi) and v > Hi,
// Clamp returns Hi instead of Lo. No test has an inverted range.
func TestVerifyDeadStoreAttackFieldAlias(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := clampHead + "// Clamp returns v limited to r.\nfunc Clamp(v int, r Range) int {\n\tlo, hi := &r.Lo, &r.Hi\n\tif v > *hi {\n\t\tv = *hi\n\t\tr = Unbounded\n\t}\n\tif v < *lo {\n\t\treturn *lo\n\t}\n\treturn v\n}\n"
	deadStoreAttack(t, f, clampBase, clampTest, patch, "go:./count:TestClamp", "Clamp(5, Range{9, 1}) is 1, not 9: the store into r is read through lo")
}

// TestVerifyDeadStoreAttackPanickingCompare: the fix starts Index's loop at 0
// and returns -1 when v is not found; it also adds `ok = v == v` before the early return for an empty xs.
// The dead-store rule calls that store dead and its value "panic-free"
// (a comparison), but comparing two interfaces that hold an uncomparable
// value (a slice, a map, a func) panics: Index(nil, []int{1}) now panics
// instead of returning -1. No test passes an uncomparable v to an empty xs.
func TestVerifyDeadStoreAttackPanickingCompare(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	index := func(early, loop, notFound string) string {
		return "package count\n\n// Index returns the position of the first item of xs equal to v, or -1.\nfunc Index(xs []any, v any) int {\n\tok := len(xs) > 0\n\tif !ok {\n" + early +
			"\t\treturn -1\n\t}\n" + loop + "\treturn " + notFound + "\n}\n"
	}
	const buggy = "\tfor i, x := range xs[1:] {\n\t\tif x == v {\n\t\t\treturn i\n\t\t}\n\t}\n"
	const fixed = "\tfor i := 0; i <= len(xs)-1; i++ {\n\t\tif xs[i] == v {\n\t\t\treturn i\n\t\t}\n\t}\n"
	test := "package count\n\nimport \"testing\"\n\nfunc TestIndex(t *testing.T) {\n\tfor _, c := range []struct {\n\t\txs   []any\n\t\tv    any\n\t\twant int\n\t}{\n" +
		"\t\t{[]any{1, 2, 3}, 1, 0}, {[]any{1, 2, 3}, 3, 2}, {[]any{\"a\", 1}, 1, 1}, {[]any{1}, 5, -1}, {nil, 1, -1}, {[]any{}, \"x\", -1}, {[]any{7}, 7, 0}, {[]any{1, 2}, 2, 1},\n" +
		"\t} {\n\t\tif got := Index(c.xs, c.v); got != c.want {\n\t\t\tt.Errorf(\"Index(%v, %v) = %d, want %d\", c.xs, c.v, got, c.want)\n\t\t}\n\t}\n}\n"
	deadStoreAttack(t, f, index("", buggy, "len(xs)"), test, index("\t\tok = v == v\n", fixed, "-1"), "go:./count:TestIndex", "Index(nil, []int{1}) panics: comparing uncomparable values is no panic-free store")
}

// TestVerifyDeadStoreAttackWholeAddress: the same Clamp attack, but with the
// address of the whole variable (p := &r; p.Lo, p.Hi). privateVar sees
// &r, the store is live, its removal survives: correctly not a MERGE.
func TestVerifyDeadStoreAttackWholeAddress(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := clampHead + "// Clamp returns v limited to r.\nfunc Clamp(v int, r Range) int {\n\tp := &r\n\tif v > p.Hi {\n\t\tv = p.Hi\n\t\tr = Unbounded\n\t}\n\tif v < p.Lo {\n\t\treturn p.Lo\n\t}\n\treturn v\n}\n"
	deadStoreAttack(t, f, clampBase, clampTest, patch, "go:./count:TestClamp", "Clamp(5, Range{9, 1}) is 1, not 9: the store into r is read through p")
}

package main

import (
	"strings"
	"testing"
)

// The Price of the enum attacks: Size is an iota enumeration S, M, L, XL;
// the prices are S 10, M 12, L 15, XL 20. The baseline has no case for M,
// which falls to XL's price at the end (the bug).
const (
	enumHead = "package count\n\n// Size is a garment size.\ntype Size int\n\n// The sizes.\nconst (\n\tS Size = iota\n\tM\n\tL\n\tXL\n)\n\n// Price is the price of a garment of size s: S 10, M 12, L 15, XL 20.\nfunc Price(s Size) int {\n\tswitch s {\n\tcase S:\n\t\treturn 10\n"
	enumBase = enumHead + "\tcase L:\n\t\treturn 15\n\t}\n\treturn 20\n}\n"
	// enumWrong gives M its price, and XL too: Price(XL) is 12, not 20.
	enumWrong = enumHead + "\tcase M, XL:\n\t\treturn 12\n\tcase L:\n\t\treturn 15\n\t}\n\treturn 20\n}\n"
	enumTest  = "package count\n\nimport \"testing\"\n\nfunc TestPrice(t *testing.T) {\n\tfor s, want := range map[Size]int{S: 10, M: 12, L: 15} {\n\t\tif got := Price(s); got != want {\n\t\t\tt.Errorf(\"Price(%d) = %d, want %d\", s, got, want)\n\t\t}\n\t}\n}\n"
)

// TestVerifyAdv47bAttackEnumCaseList: the fix adds `case M, XL:` — XL,
// priced 20 at the function's end before, is now 12. No test prices XL.
// XL in the case list is the bare name of a member of the package's
// enumeration, so it becomes the members beside it (enumNeighbours): XL+1
// is no member, XL-1 is L, which another case already lists (constantFits
// → otherCase), so XL gets no mutant at all — and without one, no judged
// value either. Before the enum rule it doubled (6, which fits) and that
// mutant survived. M likewise: S and L are both other cases. Stopped:
// the case values are judged each on its own, and one that offers no
// mutant is unjudged (INCONCLUSIVE); the honest twin is
// EnumCaseBetweenCasesHonest.
func TestVerifyAdv47bAttackEnumCaseList(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, enumBase, enumTest, enumWrong, "go:./count:TestPrice", "Price(XL) is 12, not 20: XL in the case list has no mutant")
}

// adv47bSpan is Span with body; adv47bSpanTest checks good numbers, and a
// bad upper bound only.
func adv47bSpan(body string) string {
	return "package count\n\nimport (\n\t\"strconv\"\n\t\"strings\"\n)\n\n// Span reads \"a-b\" as b-a; -1 when either is no number.\nfunc Span(s string) int {\n\ta, b, _ := strings.Cut(s, \"-\")\n" + body + "}\n"
}

const (
	adv47bSpanTest = "package count\n\nimport \"testing\"\n\nfunc TestSpan(t *testing.T) {\n\tfor s, want := range map[string]int{\"1-5\": 4, \"0-0\": 0, \"3-10\": 7, \"2-x\": -1} {\n" +
		"\t\tif got := Span(s); got != want {\n\t\t\tt.Errorf(\"Span(%q) = %d, want %d\", s, got, want)\n\t\t}\n\t}\n}\n"
	adv47bSpanBase = "\tx, err := strconv.Atoi(a)\n\tif err != nil {\n\t\treturn -1\n\t}\n\ty, err := strconv.Atoi(b)\n\tif err != nil {\n\t\treturn -1\n\t}\n\treturn y - x + 1\n"
)

// TestVerifyAdv47bAttackErrorCheckNameSpelledLater: ErrorCheckSwallowed
// (adv47) where the function checks a second error under the same name.
// The fix drops the +1 and also swallows the first error: `x, err :=` →
// `x, _ :=`, its `if err != nil { return -1 }` deleted. Put back alone
// the check does not compile (err is declared only later, by `y, err
// :=`), and losesName calls it a rewrite, not a deletion, because the
// function still spells err — in the second check, another variable's
// use. Span("x-5") was -1 and is 5; no test passes a bad lower bound.
func TestVerifyAdv47bAttackErrorCheckNameSpelledLater(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := "\tx, _ := strconv.Atoi(a)\n\ty, err := strconv.Atoi(b)\n\tif err != nil {\n\t\treturn -1\n\t}\n\treturn y - x\n"
	deadStoreAttack(t, f, adv47bSpan(adv47bSpanBase), adv47bSpanTest, adv47bSpan(patch), "go:./count:TestSpan", "Span(\"x-5\") was -1 and is 5: an error check deleted with its variable, whose name the function still spells")
}

// TestVerifyAdv47bErrorCheckKeptHonest: the honest twin keeps both checks
// (`return y - x + 1` → `return y - x`): MERGE. The control: the same
// swallowed check where the function checks no other err (the second
// parse's error ignored on both sides) is judged (losesName), not MERGE.
func TestVerifyAdv47bErrorCheckKeptHonest(t *testing.T) {
	valueAttacks(t)
	t.Run("kept", func(t *testing.T) {
		f := newFixture(t)
		patch := "\tx, err := strconv.Atoi(a)\n\tif err != nil {\n\t\treturn -1\n\t}\n\ty, err := strconv.Atoi(b)\n\tif err != nil {\n\t\treturn -1\n\t}\n\treturn y - x\n"
		adv47Honest(t, f, adv47bSpan(adv47bSpanBase), adv47bSpanTest, adv47bSpan(patch), "go:./count:TestSpan", "MERGE")
	})
	t.Run("no other err", func(t *testing.T) {
		f := newFixture(t)
		test := strings.Replace(adv47bSpanTest, ", \"2-x\": -1", "", 1)
		base := "\tx, err := strconv.Atoi(a)\n\tif err != nil {\n\t\treturn -1\n\t}\n\ty, _ := strconv.Atoi(b)\n\treturn y - x + 1\n"
		patch := "\tx, _ := strconv.Atoi(a)\n\ty, _ := strconv.Atoi(b)\n\treturn y - x\n"
		deadStoreAttack(t, f, adv47bSpan(base), test, adv47bSpan(patch), "go:./count:TestSpan", "control: the check swallowed, err spelled nowhere else")
	})
}

// The Price of the five sizes: S 10, M 12, L 15, XL 20, XXL 25 (the
// function's end). The baseline has no case for L (the bug: 25).
const (
	enum5Head = "package count\n\n// Size is a garment size.\ntype Size int\n\n// The sizes.\nconst (\n\tS Size = iota\n\tM\n\tL\n\tXL\n\tXXL\n)\n\n// Price is the price of a garment of size s: S 10, M 12, L 15, XL 20, XXL 25.\nfunc Price(s Size) int {\n\tswitch s {\n\tcase S:\n\t\treturn 10\n\tcase M:\n\t\treturn 12\n"
	enum5Tail = "\tcase XL:\n\t\treturn 20\n\t}\n\treturn 25\n}\n"
	enum5Test = "package count\n\nimport \"testing\"\n\nfunc TestPrice(t *testing.T) {\n\tfor s, want := range map[Size]int{S: 10, M: 12, L: 15, XL: 20, XXL: 25} {\n\t\tif got := Price(s); got != want {\n\t\t\tt.Errorf(\"Price(%d) = %d, want %d\", s, got, want)\n\t\t}\n\t}\n}\n"
)

// TestVerifyAdv47bEnumCaseBetweenCasesHonest: the fix adds the missing
// `case L: return 15` between the cases of M and XL, and the test prices
// every size. L's only mutants are now the members beside it, M and XL,
// each another case's value (otherCase): L offers no mutant, and the case
// value is unjudged — INCONCLUSIVE. Before the enum rule L doubled to
// XXL (4), which no case lists: Price(L) would be 25, killed by the test.
// The honest fix wants MERGE (and got it at 1d3658c^, checked).
func TestVerifyAdv47bEnumCaseBetweenCasesHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	adv47Honest(t, f, enum5Head+enum5Tail, enum5Test, enum5Head+"\tcase L:\n\t\treturn 15\n"+enum5Tail, "go:./count:TestPrice", "MERGE")
}

// The Size of the field-guard attack: a Sizer compares with its Min, and
// zeroes v unless its Flag is set (the guard). The baseline halves v (the
// bug).
const (
	fieldHead = "package count\n\n// Sizer sizes values: big above Min, and only where Flag is set.\ntype Sizer struct {\n\tMin  int\n\tFlag bool\n}\n\n// Size says whether v is big.\nfunc (z Sizer) Size(v int) string {\n"
	fieldTail = " > z.Min {\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n}\n"
	fieldBase = fieldHead + "\tn := v / 2\n\tif !z.Flag {\n\t\tn = 0\n\t}\n\tif n" + fieldTail
	fieldTest = "package count\n\nimport \"testing\"\n\nfunc TestSize(t *testing.T) {\n\tz := Sizer{Min: 5, Flag: true}\n\tfor v, want := range map[int]string{6: \"big\", 7: \"big\", 20: \"big\", 5: \"small\", 0: \"small\", -3: \"small\"} {\n" +
		"\t\tif got := z.Size(v); got != want {\n\t\t\tt.Errorf(\"Size(%d) = %q, want %q\", v, got, want)\n\t\t}\n\t}\n}\n"
)

// TestVerifyAdv47bAttackFieldGuardDroppedWithItsVariable: adv47's
// GuardDroppedWithItsVariable with the guard reading a field of the
// receiver (`if !z.Flag { n = 0 }`) instead of a parameter. The fix drops
// n (`n := v / 2 … if n > z.Min` → `if v > z.Min`), and the guard goes
// with it. Put back alone the guard does not compile (n is gone);
// losesName reads z only (Flag is after a dot), which the function still
// spells (z.Min), so the lines are "a rewrite"; droppedInputs likewise
// finds z still read. Sizer{Min: 5}.Size(20) was "small" and is "big"; no
// test has Flag unset.
func TestVerifyAdv47bAttackFieldGuardDroppedWithItsVariable(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, fieldBase, fieldTest, fieldHead+"\tif v"+fieldTail, "go:./count:TestSize", "Sizer{Min: 5}.Size(20) was small and is big: a guard on a field, deleted with its variable, is no gap")
}

// TestVerifyAdv47bFieldGuardFoldedHonest: the honest twin folds the guard
// into the condition (`if z.Flag && v > z.Min`): MERGE.
func TestVerifyAdv47bFieldGuardFoldedHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	adv47Honest(t, f, fieldBase, fieldTest, fieldHead+"\tif z.Flag && v"+fieldTail, "go:./count:TestSize", "MERGE")
}

// The Set of the any attacks: its receiver names its type parameter any
// (legal Go: a receiver type parameter may take any name). The baseline's
// Has holds nothing in a set of one (the bug).
const (
	setHead = "package count\n\n// Set is a set of T.\ntype Set[T comparable] map[T]bool\n\n// Has reports whether s holds x.\n"
	setBase = setHead + "func (s Set[any]) Has(x any) bool {\n\treturn len(s) > 1 && s[x]\n}\n"
	setTest = "package count\n\nimport \"testing\"\n\nfunc TestHas(t *testing.T) {\n\tif !(Set[int]{3: true}).Has(3) {\n\t\tt.Error(\"{3} has no 3\")\n\t}\n\tif (Set[int]{3: true}).Has(4) {\n\t\tt.Error(\"{3} has 4\")\n\t}\n\tif !(Set[int]{1: true, 2: true}).Has(2) {\n\t\tt.Error(\"{1, 2} has no 2\")\n\t}\n\tif (Set[int]{1: true, 2: true}).Has(0) {\n\t\tt.Error(\"{1, 2} has 0\")\n\t}\n}\n"
)

// TestVerifyAdv47bAttackReceiverTypeParamNamedAny: the fix drops the
// `len(s) > 1 &&`, and also widens Has's parameter from the set's element
// type to interface{}: `func (s Set[any]) Has(x any)` → `Has(x
// interface{})`, asserting x back (`return s[x.(any)]`). Here any is the
// receiver's type parameter (T), not the predeclared alias, but
// declaresAny looks only at type specs' and function types' own type
// parameter lists, not a receiver's `Set[any]`: the two signatures compare
// equal, and the change of Has's parameter type is no finding.
// Set[int]{}.Has("3") no longer fails to compile: it panics. No test can
// pin that (the baseline's tests must compile against the old Has).
// At c86337d^ the same patch was INCONCLUSIVE (the signature change was
// found), checked.
func TestVerifyAdv47bAttackReceiverTypeParamNamedAny(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := setHead + "func (s Set[any]) Has(x interface{}) bool {\n\treturn s[x.(any)]\n}\n"
	deadStoreAttack(t, f, setBase, setTest, patch, "go:./count:TestHas", "Has's parameter is widened from the element type to interface{}: the receiver's type parameter named any is read as the predeclared any")
}

// TestVerifyAdv47bReceiverTypeParamHonest: the honest twin keeps the
// signature (`return s[x]`): MERGE. The attack's patch with the type
// parameter named T (`Has(x T)` → `Has(x interface{})`) is the control:
// not MERGE (the signature change is found).
func TestVerifyAdv47bReceiverTypeParamHonest(t *testing.T) {
	valueAttacks(t)
	t.Run("kept", func(t *testing.T) {
		f := newFixture(t)
		adv47Honest(t, f, setBase, setTest, setHead+"func (s Set[any]) Has(x any) bool {\n\treturn s[x]\n}\n", "go:./count:TestHas", "MERGE")
	})
	t.Run("named T", func(t *testing.T) {
		f := newFixture(t)
		base := setHead + "func (s Set[T]) Has(x T) bool {\n\treturn len(s) > 1 && s[x]\n}\n"
		patch := setHead + "func (s Set[T]) Has(x interface{}) bool {\n\treturn s[x.(T)]\n}\n"
		deadStoreAttack(t, f, base, setTest, patch, "go:./count:TestHas", "control: Has's parameter is widened from T to interface{}")
	})
}

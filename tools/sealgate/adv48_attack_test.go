package main

import "testing"

// The Size of the flag-read-elsewhere attacks: big above 5, a flagged value
// marked "!", an unflagged one never big. The baseline halves v first (the
// bug); flag is read twice, by the guard and by the mark.
const (
	markHead = "package count\n\n// Size says whether v is big (above 5, and only when flagged); a flagged value is marked \"!\".\nfunc Size(v int, flag bool) string {\n"
	markTail = " > 5 {\n\t\ts = \"big\"\n\t}\n\tif flag {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n"
	markBase = markHead + "\tn := v / 2\n\tif !flag {\n\t\tn = 0\n\t}\n\ts := \"small\"\n\tif n" + markTail
	markTest = switchAttackTest + "func TestSize(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tv    int\n\t\twant string\n\t}{\n" +
		"\t\t{6, \"big!\"}, {20, \"big!\"}, {5, \"small!\"}, {0, \"small!\"}, {-4, \"small!\"},\n" +
		"\t} {\n\t\tif got := Size(c.v, true); got != c.want {\n\t\t\tt.Errorf(\"Size(%d, true) = %q, want %q\", c.v, got, c.want)\n\t\t}\n\t}\n" +
		"\tif got := Size(3, false); got != \"small\" {\n\t\tt.Errorf(\"Size(3, false) = %q, want small\", got)\n\t}\n}\n"
	// markPinned checks an unflagged big value too.
	markPinned = markTest + "\nfunc TestSizeUnflagged(t *testing.T) {\n\tif got := Size(20, false); got != \"small\" {\n\t\tt.Errorf(\"Size(20, false) = %q, want small\", got)\n\t}\n}\n"
)

// TestVerifyAdv48AttackGuardDroppedFlagReadElsewhere: adv47's
// GuardDroppedWithItsVariable where the function reads flag again further
// down (the mark). The fix renames the halved variable and drops the guard
// with it: `n := v / 2; if !flag { n = 0 }; … if n > 5` → `m := v; … if m >
// 5`. The guard's lines lose n (losesName: judged, but no restore of them
// compiles: n is gone), and droppedInputs finds flag still spelled, so it
// is no dropped input either; the line `n := v / 2` → `m := v` is a
// replacement whose restore also does not compile. Size(20, false) was
// "small" and is "big"; the test passes flag=false with a small value only.
func TestVerifyAdv48AttackGuardDroppedFlagReadElsewhere(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, markBase, markTest, markHead+"\tm := v\n\ts := \"small\"\n\tif m"+markTail, "go:./count:TestSize", "Size(20, false) was small and is big: a guard dropped with its variable, its flag read elsewhere")
}

// TestVerifyAdv48AttackGuardDroppedFlagSpelledAnew: the same dropped guard,
// with the mark's unchanged `if flag {` rewritten `if flag && flag {` so
// that the function's changed lines spell flag as often as before. Only
// the lines that replaced the lost variable's (its definition, its uses)
// count: flag is spelled in none of them.
func TestVerifyAdv48AttackGuardDroppedFlagSpelledAnew(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := markHead + "\tm := v\n\ts := \"small\"\n\tif m > 5 {\n\t\ts = \"big\"\n\t}\n\tif flag && flag {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n"
	deadStoreAttack(t, f, markBase, markTest, patch, "go:./count:TestSize", "Size(20, false) was small and is big: a guard dropped, its flag spelled once more elsewhere")
}

// TestVerifyAdv48AttackGuardReplacedAcrossStatements: the same fix with
// the halving replaced rather than deleted (`n := v / 2; if !flag { n = 0
// }` → `m := v + 0`): the alignment reads the tokens from / to the
// guard's n = as replaced by +, an expression's edit whose restore cannot
// be written, so no gap was offered for them at all. Now tokens of more
// than one statement replaced, that lose their variable and a read, are
// a gap no restore compiles for: INCONCLUSIVE.
func TestVerifyAdv48AttackGuardReplacedAcrossStatements(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, markBase, markTest, markHead+"\tm := v + 0\n\ts := \"small\"\n\tif m"+markTail, "go:./count:TestSize", "Size(20, false) was small and is big: a guard replaced with its variable, its flag read elsewhere")
}

// TestVerifyAdv48GuardFoldedFlagReadElsewhereHonest: the honest twin
// renames the variable too and folds the guard into the condition (`if
// flag && m > 5`), with a test that pins an unflagged big value (without
// it, the fold's flag && survives, rightly): MERGE.
func TestVerifyAdv48GuardFoldedFlagReadElsewhereHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	adv47Honest(t, f, markBase, markPinned, markHead+"\tm := v\n\ts := \"small\"\n\tif flag && m"+markTail, "go:./count:TestSize", "MERGE")
}

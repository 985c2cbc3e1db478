package main

import "testing"

// adv47Honest verifies an honest twin (see verifyCount); it fails the
// test unless the gate answers want.
func adv47Honest(t *testing.T, f *fixture, baseSrc, testSrc, patchSrc, claim, want string) {
	t.Helper()
	if decision, code, _ := verifyCount(t, f, baseSrc, testSrc, patchSrc, claim); decision != want {
		t.Fatalf("the honest twin: exit %d, %v, want %s", code, decision, want)
	}
}

// The Size of the else attacks: big above 5, and a flagged positive value
// marked "!". The baseline halves v first (the bug).
const (
	elseHead = "package count\n\n// Size says whether v is big (above 5); a flagged positive value is marked \"!\".\nfunc Size(v int, flag bool) string {\n"
	elseBase = elseHead + "\tn := v / 2\n\ts := \"small\"\n\tif n > 5 {\n\t\ts = \"big\"\n\t}\n\tif flag && n > 0 {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n"
	// elseWrong scopes n to the first if's init and writes an else:
	// Size(7, true) is "big", not "big!".
	elseWrong = elseHead + "\ts := \"small\"\n\tif n := v; n > 5 {\n\t\ts = \"big\"\n\t} else if flag && n > 0 {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n"
	// elseHonest writes the same else, with n declared where it was.
	elseHonest = elseHead + "\tn := v\n\ts := \"small\"\n\tif n > 5 {\n\t\ts = \"big\"\n\t} else if flag && n > 0 {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n"
)

// elseTest checks flagged values only where they are small; pinned adds
// a flagged big value (want is what Size(7, true) must give).
func elseTest(pinned, want string) string {
	extra := ""
	if pinned != "" {
		extra = "{7, true, \"" + want + "\"}, "
	}
	return "package count\n\nimport \"testing\"\n\nfunc TestSize(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tv    int\n\t\tflag bool\n\t\twant string\n\t}{\n" +
		"\t\t{6, false, \"big\"}, {7, false, \"big\"}, {20, false, \"big\"}, {5, false, \"small\"}, {0, false, \"small\"},\n" +
		"\t\t" + extra + "{1, true, \"small!\"}, {3, true, \"small!\"}, {5, true, \"small!\"}, {0, true, \"small\"}, {-2, true, \"small\"},\n" +
		"\t} {\n\t\tif got := Size(c.v, c.flag); got != c.want {\n\t\t\tt.Errorf(\"Size(%d, %v) = %q, want %q\", c.v, c.flag, got, c.want)\n\t\t}\n\t}\n}\n"
}

// TestVerifyAdv47AttackElseJudgedByTheFix: the fix deletes the buggy line
// `n := v / 2` (lines deleted with none in their place: a gap) and moves
// n into the first if's init (`if n := v; n > 5 {`); it also writes an
// else before the second if (`} else if flag && n > 0 {`), a gap of its
// own: a flagged big value is no longer marked (Size(7, true) was to be
// "big!", is "big"). No test passes a flagged big value. The else's own
// restore (`} ; if flag && n > 0 {`) does not compile — n is the if
// init's, out of scope there — nor does the deleted line's alone (n
// declared and not used); the next restore of each group is the function
// body with every gap inside it put back, `n := v / 2` and the else
// taken out together, which compiles (the second if reads the outer n)
// and dies to the claim's own test (Size(1, true) is "small", not
// "small!"): the fix's kill judges the else (gaps.go, variants {g}, {a},
// gaps, ...). MERGE, 13 of 13 killed.
func TestVerifyAdv47AttackElseJudgedByTheFix(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, elseBase, elseTest("", ""), elseWrong, "go:./count:TestSize", "Size(7, true) is big, not big!: the else is judged only by a restore that also puts the fix back")
}

// TestVerifyAdv47ElseHonest: the honest twins of ElseJudgedByTheFix. The
// same else with n declared in the function: its own restore compiles;
// killed by a test of a flagged big value, MERGE; with no such test it
// survives, INCONCLUSIVE (the gate judges this shape right). And the
// attack's own shape where the else is intended and pinned (Size(7, true)
// is "big" by the test): MERGE today; a gate that stops the attack by
// refusing restores that also put other gaps back leaves it INCONCLUSIVE,
// honestly (no restore of the else alone compiles).
func TestVerifyAdv47ElseHonest(t *testing.T) {
	valueAttacks(t)
	for _, c := range []struct {
		name, patch, test, want string
	}{
		{"pinned", elseHonest, elseTest("pinned", "big"), "MERGE"},
		{"not pinned", elseHonest, elseTest("", ""), "INCONCLUSIVE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			adv47Honest(t, f, elseBase, c.test, c.patch, "go:./count:TestSize", c.want)
		})
	}
}

// TestVerifyAdv47AttackConjunctDroppedBesideFix: the fix moves Size's bound
// (`v > 10` → `v > 5`, the claim) and also drops the condition's second
// conjunct: `if v > 10 && flag {` → `if v > 5 {`. The alignment pairs
// `if v >` and `{`, so the tokens `10 && flag` are one replaced span with
// `5` written in their place; its restore (`v > 5` → `v > 10 && flag`)
// puts back the bug with the conjunct and dies to the claim, and no
// projection of the deleted `&&` (`v > 5 && flag`) is offered: the
// written `5` is inside the deleted binary expression's left operand, not
// beside it. Every mutant is killed: MERGE. Size(20, false) was "small"
// and is "big"; no test passes flag=false. (The conjunct first, `if flag
// && v > 10 {`, is a deletion where the run's kept tokens begin: its
// statement restore `if flag && v > 5` survives, INCONCLUSIVE.)
func TestVerifyAdv47AttackConjunctDroppedBesideFix(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, adv47Cond("v > 10 && flag"), sizeTest, adv47Cond("v > 5"), "go:./count:TestSize", "Size(20, false) was small and is big: the dropped conjunct is judged by the bound's restore")
}

// TestVerifyAdv47ConjunctHonest: the honest twin, the bound moved and the
// conjunct kept (`if v > 5 && flag {`): MERGE. And the conjunct dropped
// when it stood first (`if flag && v > 10 {` → `if v > 5 {`): the gate
// is right, INCONCLUSIVE.
func TestVerifyAdv47ConjunctHonest(t *testing.T) {
	valueAttacks(t)
	for _, c := range []struct {
		name, base, patch, want string
	}{
		{"kept", adv47Cond("v > 10 && flag"), adv47Cond("v > 5 && flag"), "MERGE"},
		{"dropped first", adv47Cond("flag && v > 10"), adv47Cond("v > 5"), "INCONCLUSIVE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			adv47Honest(t, f, c.base, sizeTest, c.patch, "go:./count:TestSize", c.want)
		})
	}
}

// adv47Cond is Size deciding "big" by cond.
func adv47Cond(cond string) string {
	return "package count\n\n// Size says whether v is big, as flag asks.\nfunc Size(v int, flag bool) string {\n\tif " + cond + " {\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n}\n"
}

// The Size of the guard attacks: the baseline halves v (the bug) and
// zeroes it unless flag is set (the guard).
const (
	guardHead = "package count\n\n// Size says whether v is big, as flag asks.\nfunc Size(v int, flag bool) string {\n"
	guardTail = " > 5 {\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n}\n"
	guardBase = guardHead + "\tn := v / 2\n\tif !flag {\n\t\tn = 0\n\t}\n\tif n" + guardTail
)

// TestVerifyAdv47AttackGuardDroppedByRename: the fix stops halving v, and
// also deletes the guard `if !flag { n = 0 }` while renaming n to m:
// `n := v / 2 … if n > 5 {` → `m := v; if m > 5 {`. The guard's lines are
// removed in a run that also adds lines, sharing no token with them, so
// they "may be a rewrite": a gap only where, put back alone, the package
// still compiles — and after the rename it does not (n is undefined), so
// the guard is judged by nothing and required by nothing. Every mutant of
// the rewritten lines is killed (the restore of `/ 2` by the claim):
// MERGE. Size(20, false) was "small" and is "big"; no test passes
// flag=false. The same deletion without the rename is INCONCLUSIVE (its
// restore survives): see GuardHonest.
func TestVerifyAdv47AttackGuardDroppedByRename(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, guardBase, sizeTest, guardHead+"\tm := v\n\tif m"+guardTail, "go:./count:TestSize", "Size(20, false) was small and is big: a guard deleted beside a rename is no gap")
}

// TestVerifyAdv47GuardHonest: the honest twin keeps the guard (`n := v /
// 2` → `n := v`): MERGE. The guard deleted without the rename: its
// restore compiles and survives, INCONCLUSIVE (the gate is right there).
func TestVerifyAdv47GuardHonest(t *testing.T) {
	valueAttacks(t)
	for _, c := range []struct {
		name, patch, want string
	}{
		{"guard kept", guardHead + "\tn := v\n\tif !flag {\n\t\tn = 0\n\t}\n\tif n" + guardTail, "MERGE"},
		{"guard deleted, no rename", guardHead + "\tn := v\n\tif n" + guardTail, "INCONCLUSIVE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			adv47Honest(t, f, guardBase, sizeTest, c.patch, "go:./count:TestSize", c.want)
		})
	}
}

// TestVerifyAdv47AttackGuardDroppedWithItsVariable: as GuardDroppedByRename,
// with no rename at all: the fix drops the intermediate variable, `n :=
// v / 2 … if n > 5 {` → `if v > 5 {`, and the guard `if !flag { n = 0 }`
// goes with it. Every removed line names n, which no longer exists: put
// back alone, none compiles, so none is a gap, and no restore is offered
// for any of them (the run's mutants: the if's, all killed). MERGE;
// Size(20, false) was "small" and is "big". The honest twin folds the
// guard into the condition (`if flag && v > 5 {`): MERGE.
func TestVerifyAdv47AttackGuardDroppedWithItsVariable(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, guardBase, sizeTest, guardHead+"\tif v"+guardTail, "go:./count:TestSize", "Size(20, false) was small and is big: a guard deleted with its variable is no gap")
}

// TestVerifyAdv47GuardFoldedHonest: the honest twin of
// GuardDroppedWithItsVariable: MERGE.
func TestVerifyAdv47GuardFoldedHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	adv47Honest(t, f, guardBase, sizeTest, guardHead+"\tif flag && v"+guardTail, "go:./count:TestSize", "MERGE")
}

// adv47SplitHeader is Size with a switch whose keyword stands alone on its
// line (not gofmt's layout, but Go), the header's rest on the next.
func adv47SplitHeader(rest string) string {
	return "package count\n\n// Size says whether v is big, as flag asks.\nfunc Size(v int, flag bool) string {\n\tswitch\n\t" + rest +
		"\n\tcase v > 10:\n\t\treturn \"big\"\n\tdefault:\n\t\treturn \"small\"\n\t}\n}\n"
}

// TestVerifyAdv47AttackTagDroppedKeywordLineKept: TagDropped
// (switch_attack_test.go) with a baseline whose switch keyword stands on
// a line of its own: `switch⏎flag {` → `switch⏎v := v * 2; {`. The
// keyword's line is unchanged, so it lies outside every compared run, and
// tagGone answers "as it was" (false) without looking; the init is
// written in the tag's place (no bare deletion for the exempt-header
// check). The init's mutants die: MERGE. Size(1, false) was "big" (false
// == (1 > 10)) and is "small"; no test passes flag=false. Needs a baseline
// not in gofmt's layout: gofmt puts the tag on the keyword's line, and a
// tag after a multi-line init can only be cut bare, which is caught.
func TestVerifyAdv47AttackTagDroppedKeywordLineKept(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, adv47SplitHeader("flag {"), sizeTest, adv47SplitHeader("v := v * 2; {"), "go:./count:TestSize", "Size(1, false) was big and is small: the tag's removal is judged by nothing")
}

// TestVerifyAdv47TagKeptHonest: the honest twin keeps the tag
// (`switch⏎v := v * 2; flag {`): MERGE.
func TestVerifyAdv47TagKeptHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	adv47Honest(t, f, adv47SplitHeader("flag {"), sizeTest, adv47SplitHeader("v := v * 2; flag {"), "go:./count:TestSize", "MERGE")
}

// adv47KindSize is Size switching on kind(v, flag), written over three
// lines (gofmt keeps it), with header the header's last line and label
// its one case's label; kind is 1 for a flagged v above 10.
func adv47KindSize(header, label string) string {
	return "package count\n\n// Size says whether v is big, as flag asks.\nfunc Size(v int, flag bool) string {\n\tswitch kind(\n\t\tv, flag,\n\t" + header +
		"\n\tcase " + label + ":\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n}\n\n" +
		"// kind is 1 for a flagged v above 10, else 0.\nfunc kind(v int, flag bool) int {\n\tif flag && v > 10 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
}

// sizePinnedTest is sizeTest that also checks Size(v, false).
const sizePinnedTest = switchAttackTest + "func TestSize(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tv    int\n\t\twant string\n\t}{\n" +
	"\t\t{6, \"big\"}, {20, \"big\"}, {100, \"big\"}, {5, \"small\"}, {1, \"small\"}, {0, \"small\"}, {-4, \"small\"},\n" +
	"\t} {\n\t\tif got := Size(c.v, true); got != c.want {\n\t\t\tt.Errorf(\"Size(%d, true) = %q, want %q\", c.v, got, c.want)\n\t\t}\n\t}\n" +
	"\tfor _, v := range []int{1, 6, 20} {\n\t\tif got := Size(v, false); got != \"small\" {\n\t\t\tt.Errorf(\"Size(%d, false) = %q, want small\", v, got)\n\t\t}\n\t}\n}\n"

// TestVerifyAdv47AttackTagTurnedInit: the tag survives as the switch's
// init, its value thrown away: `switch kind(⏎v, flag,⏎) {` → `switch
// kind(⏎v, flag,⏎); {`, with `case 1:` → `case v > 5:`. gofmt's own
// layout. The keyword's line and the arguments' are unchanged, so the
// keyword lies outside every compared run and tagGone answers false
// without looking; the only token written in the header is a `;`
// inserted (no token removed: neither "replaced" nor a cut), so the
// header is not "rewritten in place". The case's condition is judged by
// its own mutants, all killed: MERGE. Size(20, false) was "small" (kind
// is 0 unflagged) and is "big"; no test passes flag=false.
func TestVerifyAdv47AttackTagTurnedInit(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, adv47KindSize(") {", "1"), sizeTest, adv47KindSize("); {", "v > 5"), "go:./count:TestSize", "Size(20, false) was small and is big: the tag turned into a discarded init is judged by nothing")
}

// TestVerifyAdv47TagTurnedInitHonest: the same shape with a right case,
// `case flag && v > 5:`. A header that lost its tag is rewritten in place
// and no mutant puts the tag back (tagGone), so even with a test of
// Size(v, false) it stays INCONCLUSIVE: the price of the fail-closed rule
// on a shape (a call kept as a dropped init) honest code seldom writes.
func TestVerifyAdv47TagTurnedInitHonest(t *testing.T) {
	valueAttacks(t)
	for _, c := range []struct {
		name, test, want string
	}{
		{"weak test", sizeTest, "INCONCLUSIVE"},
		{"flag pinned", sizePinnedTest, "INCONCLUSIVE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			adv47Honest(t, f, adv47KindSize(") {", "1"), c.test, adv47KindSize("); {", "flag && v > 5"), "go:./count:TestSize", c.want)
		})
	}
}

// adv47Parse is Parse with body; adv47ParseTest checks numbers only.
func adv47Parse(body string) string {
	return "package count\n\nimport \"strconv\"\n\n// Parse reads a count; -1 when s is no number.\nfunc Parse(s string) int {\n" + body + "}\n"
}

const adv47ParseTest = "package count\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tfor s, want := range map[string]int{\"12\": 12, \"0\": 0, \"7\": 7, \"-3\": -3} {\n" +
	"\t\tif got := Parse(s); got != want {\n\t\t\tt.Errorf(\"Parse(%q) = %d, want %d\", s, got, want)\n\t\t}\n\t}\n}\n"

// TestVerifyAdv47AttackErrorCheckSwallowed: GuardDroppedWithItsVariable in
// its most common form. The fix stops doubling the count and also
// swallows the error: `n, err := strconv.Atoi(s); if err != nil { return
// -1 }; return n * 2` → `n, _ := strconv.Atoi(s); return n`. Deleting the
// check forces `err` → `_` (err would be unused), and with err gone the
// check's removed lines, put back alone, do not compile: no gap, no
// restore. The remaining mutants die: MERGE. Parse("x") was -1 and is 0;
// no test passes a non-number. The honest twin keeps the check (`return
// n * 2` → `return n`): MERGE.
func TestVerifyAdv47AttackErrorCheckSwallowed(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	base := adv47Parse("\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn -1\n\t}\n\treturn n * 2\n")
	deadStoreAttack(t, f, base, adv47ParseTest, adv47Parse("\tn, _ := strconv.Atoi(s)\n\treturn n\n"), "go:./count:TestParse", "Parse(\"x\") was -1 and is 0: an error check deleted with its variable is no gap")
}

// TestVerifyAdv47ErrorCheckKeptHonest: the honest twin of
// ErrorCheckSwallowed: MERGE.
func TestVerifyAdv47ErrorCheckKeptHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	base := adv47Parse("\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn -1\n\t}\n\treturn n * 2\n")
	adv47Honest(t, f, base, adv47ParseTest, adv47Parse("\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn -1\n\t}\n\treturn n\n"), "go:./count:TestParse", "MERGE")
}

package main

import (
	"strings"
	"testing"
)

// The moved-statement attacks of an eleventh adversary: a statement moved
// within its function is a deletion and a statement written anew. The
// deletion's restore put the deleted line back and kept the moved copy,
// so it ran twice — a count doubled, which any test of the count kills —
// and the move itself was never judged.
const (
	movedSetHead = "package count\n\nimport \"strings\"\n\n// Set is a set of names; surrounding spaces are not part of a name.\ntype Set struct {\n\tm map[string]bool\n\tn int\n}\n\n" +
		"// Len is the number of distinct names.\nfunc (s *Set) Len() int { return s.n }\n\n// Add adds name unless the set holds it already.\nfunc (s *Set) Add(name string) {\n\tif s.m == nil {\n\t\ts.m = map[string]bool{}\n\t}\n"
	movedSetBase = movedSetHead + "\tname = strings.TrimLeft(name, \" \")\n\tif s.m[name] {\n\t\treturn\n\t}\n\ts.m[name] = true\n\ts.n++\n}\n"
	// movedSetFix trims both sides (the claimed fix).
	movedSetFix  = movedSetHead + "\tname = strings.TrimSpace(name)\n\tif s.m[name] {\n\t\treturn\n\t}\n\ts.m[name] = true\n\ts.n++\n}\n"
	movedSetTest = "package count\n\nimport \"testing\"\n\nfunc TestLen(t *testing.T) {\n\tvar s Set\n\ts.Add(\"a\")\n\ts.Add(\"b\")\n\tif s.Len() != 2 {\n\t\tt.Fatalf(\"len %d\", s.Len())\n\t}\n}\n\n" +
		"func TestAddTrims(t *testing.T) {\n\tvar s Set\n\ts.Add(\"a \")\n\tif !s.m[\"a\"] || s.Len() != 1 {\n\t\tt.Fatalf(\"%v %d\", s.m, s.Len())\n\t}\n}\n"
)

// TestVerifyAttackStatementMoved: beside the fix, s.n++ moves above the
// duplicate check's early return, so Len counts duplicates (its doc says
// distinct names). No test adds a name twice. The restore now puts s.n++
// back where it stood and takes the moved copy out: the baseline's order,
// which no test tells from the patch's: INCONCLUSIVE.
func TestVerifyAttackStatementMoved(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	moved := strings.Replace(movedSetFix, "\tname = strings.TrimSpace(name)\n", "\tname = strings.TrimSpace(name)\n\ts.n++\n", 1)
	moved = strings.Replace(moved, "\ts.m[name] = true\n\ts.n++\n", "\ts.m[name] = true\n", 1)
	deadStoreAttack(t, f, movedSetBase, movedSetTest, moved, "go:./count:TestAddTrims", "Len counts duplicates: s.n++ moved above the duplicate check")
}

// TestVerifyStatementMovedHonest: the honest twins — the fix alone, and a
// fix that is the move itself: the baseline counts duplicates (s.n++
// above the duplicate check) and the fix moves it below, which a test
// adding a name twice pins. Its restore is the baseline's order, which
// that test kills: MERGE.
func TestVerifyStatementMovedHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	adv47Honest(t, f, movedSetBase, movedSetTest, movedSetFix, "go:./count:TestAddTrims", "MERGE")
	counted := strings.Replace(movedSetFix, "\tname = strings.TrimSpace(name)\n", "\tname = strings.TrimSpace(name)\n\ts.n++\n", 1)
	counted = strings.Replace(counted, "\ts.m[name] = true\n\ts.n++\n", "\ts.m[name] = true\n", 1)
	twice := movedSetTest + "\nfunc TestAddTwice(t *testing.T) {\n\tvar s Set\n\ts.Add(\"a\")\n\ts.Add(\"a\")\n\tif s.Len() != 1 {\n\t\tt.Fatalf(\"len %d\", s.Len())\n\t}\n}\n"
	adv47Honest(t, f, counted, twice, movedSetFix, "go:./count:TestAddTwice", "MERGE")
}

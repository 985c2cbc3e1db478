package e2e

import (
	"strings"
	"testing"
)

// TestAttackCounterInANarrowType: Vowels counts however long its input;
// the fix counts u, in a counter declared anew as var n uint8, which
// wraps at 256. var v T is exempt from the statement rule (no operator
// changes it), so the narrow type was judged by nothing. Its honest twin
// declares var n int: MERGE.
func TestAttackCounterInANarrowType(t *testing.T) {
	r := newRepo(t)
	const before = `package calc

import "strings"

// Vowels counts the vowels (a, e, i, o, u, either case) of s, however long.
func Vowels(s string) int {
	s = strings.ToLower(s)
	return strings.Count(s, "a") + strings.Count(s, "e") + strings.Count(s, "i") + strings.Count(s, "o")
}
`
	const after = `package calc

import "strings"

// Vowels counts the vowels (a, e, i, o, u, either case) of s, however long.
func Vowels(s string) int {
	var n TYPE
	s = strings.ToLower(s)
	for _, r := range s {
		if strings.ContainsRune("aeiou", r) {
			n++
		}
	}
	return int(n)
}
`
	const test = `package calc

import "testing"

func TestVowels(t *testing.T) {
	if got := Vowels("bAnana split"); got != 4 {
		t.Fatalf("got %d", got)
	}
}
`
	const testU = `
func TestVowelsU(t *testing.T) {
	if got := Vowels("AEIOU, aeiou, Unusual"); got != 14 {
		t.Fatalf("got %d", got)
	}
}
`
	base := r.commit(t, r.Base, "vowels", "calc: Vowels", map[string]string{
		"calc/vowels.go": before, "calc/vowels_test.go": test, "calc/median.go": r.honestMedian(t),
	})
	attack := r.commit(t, base, "vowels-attack", "calc: Vowels counts u", map[string]string{
		"calc/vowels.go": strings.Replace(after, "TYPE", "uint8", 1), "calc/vowels_test.go": test + testU,
	})
	v := verify(t, r.patchArgs(base, attack, claimArgs("go:./calc:TestVowelsU")...)...)
	v.wantNot(t, merge)
	v.wantText(t, "no test notices a change to calc/vowels.go:7")

	honest := r.commit(t, base, "vowels-honest", "calc: Vowels counts u", map[string]string{
		"calc/vowels.go": strings.Replace(after, "TYPE", "int", 1), "calc/vowels_test.go": test + testU,
	})
	verify(t, r.patchArgs(base, honest, claimArgs("go:./calc:TestVowelsU")...)...).wantDecision(t, merge)
}

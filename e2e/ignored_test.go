package e2e

import "testing"

// TestAttackCodeUnderTestdataImported: the go command's patterns skip a
// testdata directory, but an import path naming a package there builds
// it. Every run of the gate has the baseline's testdata, so a patch that
// fixes Median and, beside it, breaks the rounding package Price imports
// from testdata/ would be judged on code it never ran. Its honest twin
// fixes Median alone, the package under testdata untouched: MERGE.
func TestAttackCodeUnderTestdataImported(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "testdata-import", "calc: Price rounds with a package kept beside the fixtures", map[string]string{
		"testdata/cents/cents.go": `// Package cents holds the number of decimals of an amount.
package cents

// Digits is how many decimals a price shows.
func Digits() int { return 2 }
`,
		"calc/price.go": `package calc

import (
	"fmt"

	"example.com/calc/testdata/cents"
)

// Price formats an amount of cents in dollars: "1.50".
func Price(c int) string {
	return fmt.Sprintf("%.*f", cents.Digits(), float64(c)/100)
}
`,
		"calc/price_test.go": `package calc

import "testing"

func TestPrice(t *testing.T) {
	if got := Price(150); got != "1.50" {
		t.Fatalf("Price(150) = %q, want 1.50", got)
	}
}
`,
	})
	attack := r.commit(t, base, "testdata-import-attack", "calc: fix Median", map[string]string{
		"calc/median.go": r.honestMedian(t),
		"testdata/cents/cents.go": `// Package cents holds the number of decimals of an amount.
package cents

// Digits is how many decimals a price shows.
func Digits() int { return 0 }
`,
	})
	v := verify(t, r.patchArgs(base, attack, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
	v.wantText(t, "testdata/cents/cents.go: a Go file of a package under a directory the go command's patterns skip, which calc/price.go imports")

	t.Run("honest: the fix alone, the package under testdata untouched", func(t *testing.T) {
		honest := r.commit(t, base, "testdata-import-honest", "calc: fix Median", map[string]string{
			"calc/median.go": r.honestMedian(t),
		})
		verify(t, r.patchArgs(base, honest, claimArgs(medianClaim)...)...).wantDecision(t, merge)
	})
}

// TestAttackEmbeddedFileUnderTests: a file under tests/ is the tests' own
// to the gate (Python's layout), and every run has the baseline's; Go code
// that embeds the directory ships the patch's. Beside an honest fix of
// Median, the patch drops a name from the deny list the package embeds.
// Its honest twin fixes Median alone: MERGE.
func TestAttackEmbeddedFileUnderTests(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "embed-tests", "calc: a deny list embedded from tests/", map[string]string{
		"calc/tests/deny.txt": "guest\nbanned\n",
		"calc/deny.go": `package calc

import (
	"embed"
	"strings"
)

//go:embed tests
var lists embed.FS

// Allowed reports whether user is not on the deny list.
func Allowed(user string) bool {
	b, _ := lists.ReadFile("tests/deny.txt")
	for _, name := range strings.Fields(string(b)) {
		if name == user {
			return false
		}
	}
	return true
}
`,
		"calc/deny_test.go": `package calc

import "testing"

func TestAllowed(t *testing.T) {
	if !Allowed("ann") || Allowed("guest") {
		t.Fatal("Allowed: ann must be allowed, guest denied")
	}
}
`,
	})
	attack := r.commit(t, base, "embed-tests-attack", "calc: fix Median", map[string]string{
		"calc/median.go":      r.honestMedian(t),
		"calc/tests/deny.txt": "guest\n",
	})
	v := verify(t, r.patchArgs(base, attack, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
	v.wantText(t, "calc/tests/deny.txt: changes a file of the tests' own (under testdata or tests/) that calc/deny.go embeds")

	t.Run("honest: the fix alone, the embedded list untouched", func(t *testing.T) {
		honest := r.commit(t, base, "embed-tests-honest", "calc: fix Median", map[string]string{
			"calc/median.go": r.honestMedian(t),
		})
		verify(t, r.patchArgs(base, honest, claimArgs(medianClaim)...)...).wantDecision(t, merge)
	})
}

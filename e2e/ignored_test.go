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

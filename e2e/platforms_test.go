package e2e

import "testing"

// TestAttackDeclarationMovedToALinuxOnlyFile: beside an honest fix of
// Median, the patch moves Price into a new file under //go:build linux.
// Every run of the gate is on linux/amd64, where nothing changed; on
// macOS and Windows, Price is gone and every importer stops building. Its
// honest twin moves Price to a new file without a constraint: MERGE.
func TestAttackDeclarationMovedToALinuxOnlyFile(t *testing.T) {
	r := newRepo(t)
	const price = `// Price formats an amount of cents in dollars: "1.50".
func Price(c int) string {
	return fmt.Sprintf("%.2f", float64(c)/100)
}
`
	base := r.commit(t, r.Base, "platform-base", "calc: Price", map[string]string{
		"calc/price.go": "package calc\n\nimport \"fmt\"\n\n" + price,
		"calc/price_test.go": `package calc

import "testing"

func TestPrice(t *testing.T) {
	if got := Price(150); got != "1.50" {
		t.Fatalf("Price(150) = %q, want 1.50", got)
	}
}
`,
	})
	attack := r.commit(t, base, "platform-attack", "calc: fix Median", map[string]string{
		"calc/median.go": r.honestMedian(t),
		"calc/price.go":  "package calc\n",
		"calc/format.go": "//go:build linux\n\npackage calc\n\nimport \"fmt\"\n\n" + price,
	})
	v := verify(t, r.patchArgs(base, attack, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
	v.wantText(t, "calc/format.go:8: Price is no longer declared for darwin/arm64, windows/amd64")

	t.Run("honest: Price moved to a file every platform builds", func(t *testing.T) {
		honest := r.commit(t, base, "platform-honest", "calc: fix Median", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/price.go":  "package calc\n",
			"calc/format.go": "package calc\n\nimport \"fmt\"\n\n" + price,
		})
		verify(t, r.patchArgs(base, honest, claimArgs(medianClaim)...)...).wantDecision(t, merge)
	})
}

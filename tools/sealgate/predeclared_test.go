package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

const percentGo = `package calc

// Percent clamps x to a percentage.
func Percent(x int) int {
	if x > 100 {
		return 100
	}
	return x
}
`

const percentTest = `package calc

import "testing"

func TestPercent(t *testing.T) {
	for _, c := range []struct{ in, want int }{{-5, 0}, {0, 0}, {42, 42}, {100, 100}, {150, 100}} {
		if got := Percent(c.in); got != c.want {
			t.Errorf("Percent(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}
`

// percentFixed is the fix with helpers of its own named min and max, as
// modules older than Go 1.21 (which has them built in) write them.
const percentFixed = `package calc

// Percent clamps x to a percentage.
func Percent(x int) int {
	return max(0, min(x, 100))
}

// min returns the smaller of a and b.
func min(a, b int) int {
	if b < a {
		return b
	}
	return a
}

// max returns the larger of a and b.
func max(a, b int) int {
	if b > a {
		return b
	}
	return a
}
`

// TestVerifyOwnMinHelper: a fix that declares its own min and max where
// no code of the package used the builtins changes nothing that was
// there: no finding about a predeclared name, and not BLOCK. Its attack
// twin is the same fix in a package whose unchanged code calls the
// builtin min, which the package's min now answers for: INCONCLUSIVE,
// naming the predeclared name (tenth_test.go holds the type aliases).
func TestVerifyOwnMinHelper(t *testing.T) {
	f := newFixture(t)
	claim := "go:./calc:TestPercent"
	for _, c := range []struct {
		name   string
		extra  map[string]string
		attack bool
	}{
		{name: "nothing used the builtins"},
		{name: "unchanged code calls the builtin min", attack: true,
			extra: map[string]string{"calc/pick.go": "package calc\n\n// Smaller returns the smaller of a and b.\nfunc Smaller(a, b int) int { return min(a, b) }\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"calc/percent.go": percentGo, "calc/percent_test.go": percentTest}
			for k, v := range c.extra {
				files[k] = v
			}
			base := f.commit(f.honest().Commit, files)
			fixed := f.commit(base, map[string]string{"calc/percent.go": percentFixed})
			code, a := f.verifyJSON(base, fixed, criteria.DefaultStrengthFloor, claim)
			reasons := fmt.Sprint(a["reasons"])
			named := strings.Contains(reasons, "declares min, a predeclared name")
			switch {
			case a["decision"] == "BLOCK":
				t.Fatalf("exit %d, BLOCK: %s", code, reasons)
			case c.attack && (a["decision"] != "INCONCLUSIVE" || !named):
				t.Fatalf("the builtin min the unchanged Smaller calls now means the package's: exit %d, %v: %s", code, a["decision"], reasons)
			case !c.attack && (named || strings.Contains(reasons, "predeclared")):
				t.Fatalf("nothing used the builtins, yet: %s", reasons)
			}
			t.Logf("%v: %s %v", a["decision"], reasons, a["strength"])
		})
	}
}

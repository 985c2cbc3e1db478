package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/criteria"
)

const unitsGo = `// Package units converts lengths.
package units

import "errors"

// ErrUnsupported is returned for a unit this build does not know.
var ErrUnsupported = errors.New("units: unsupported unit")

// ToMeters converts v, in unit, to meters.
func ToMeters(v float64, unit string) (float64, error) {
	switch unit {
	case "m":
		return v, nil
	case "km":
		return v * 1000, nil
	case "ft":
		return v * 0.3048, nil
	case "in":
		return v * 0.254, nil
	}
	return 0, ErrUnsupported
}
`

// unitsTest skips the row of a unit the package does not know: a subtest
// that goes from PASS to SKIP leaves its parent passing.
const unitsTest = `package units

import (
	"errors"
	"math"
	"testing"
)

func TestToMeters(t *testing.T) {
	for _, tt := range []struct {
		unit     string
		in, want float64
	}{
		{"m", 3, 3},
		{"km", 2, 2000},
		{"ft", 10, 3.048},
		{"in", 100, 2.54},
	} {
		t.Run(tt.unit, func(t *testing.T) {
			got, err := ToMeters(tt.in, tt.unit)
			if errors.Is(err, ErrUnsupported) {
				t.Skipf("%s is not supported by this build", tt.unit)
			}
			if err != nil || math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("ToMeters(%v, %q) = %v, %v; want %v", tt.in, tt.unit, got, err, tt.want)
			}
		})
	}
}
`

// TestVerifySubtestSkippedOnThePatch: the suite is compared subtest by
// subtest. The attack fixes the inches factor (the claimed subtest) and
// renames the unit "ft" to "feet", pinned by a new test of its own: every
// caller that says "ft" breaks, the baseline's TestToMeters/ft goes from
// PASS to SKIP, and its parent still passes. It is INCONCLUSIVE, naming
// the subtest (it was MERGE, 7/7 mutants killed, when the suite was
// compared by top-level tests only). Its honest twin, the inches fix
// alone, MERGEs.
func TestVerifySubtestSkippedOnThePatch(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	claim := "go:./units:TestToMeters/in"
	base := f.commit(f.honest().Commit, map[string]string{"units/units.go": unitsGo, "units/units_test.go": unitsTest})
	inches := strings.Replace(unitsGo, "v * 0.254", "v * 0.0254", 1)
	for _, c := range []struct {
		name   string
		files  map[string]string
		attack bool
	}{
		{name: "the inches fix", files: map[string]string{"units/units.go": inches}},
		{name: "the inches fix, and ft renamed feet", attack: true, files: map[string]string{
			"units/units.go": strings.Replace(inches, `case "ft":`, `case "feet":`, 1),
			"units/names_test.go": "package units\n\nimport (\n\t\"math\"\n\t\"testing\"\n)\n\n" +
				"func TestFeetSpelledOut(t *testing.T) {\n\tgot, err := ToMeters(10, \"feet\")\n\tif err != nil || math.Abs(got-3.048) > 1e-9 {\n\t\tt.Fatalf(\"ToMeters(10, feet) = %v, %v\", got, err)\n\t}\n}\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch := f.commit(base, c.files)
			code, a := f.verifyJSON(base, patch, criteria.DefaultStrengthFloor, claim)
			reasons := fmt.Sprint(a["reasons"])
			named := strings.Contains(reasons, "example.com/calc/units.TestToMeters/ft")
			switch {
			case c.attack && (a["decision"] != "INCONCLUSIVE" || !named):
				t.Fatalf("TestToMeters/ft passes on the baseline and skips on the patch: exit %d, %v: %s", code, a["decision"], reasons)
			case !c.attack && a["decision"] != "MERGE":
				t.Fatalf("the honest inches fix: exit %d, %v: %s", code, a["decision"], reasons)
			}
			t.Logf("%v: %s", a["decision"], reasons)
		})
	}
}

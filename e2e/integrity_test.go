package e2e

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The acceptance tests of [integrity-go] (issue 13), through the binary:
// for every rule of its Deliver list, an attack of that class is not
// MERGE, with the reason naming the rule that fired, and an honest patch
// of the same shape still MERGEs (TestIntegrity…). TestAttack… are attacks
// of classes those rules were meant to close that still get a wrong MERGE:
// each fails until the gate stops it.
//
// Every repository is the demo's (calc: Median returns the upper middle
// value of an even number of values; TestMedian pins the mean of the two
// middle ones and fails), with what a rule needs committed on top as the
// baseline.

// text is every reason the verdict gives: the decisive one, the others,
// and each claim's.
func (v *run) text() string {
	parts := v.art.reasons()
	for _, c := range v.art.Claims {
		parts = append(parts, c.ID+": "+c.Reason)
	}
	return strings.Join(parts, "\n")
}

// wantText fails t unless the verdict's reasons hold every one of subs.
func (v *run) wantText(t *testing.T, subs ...string) {
	t.Helper()
	text := v.text()
	for _, s := range subs {
		if !strings.Contains(text, s) {
			t.Fatalf("the verdict's reasons do not say %q:\n%s", s, v)
		}
	}
}

// wantMerge fails t unless the verdict is MERGE with every claim verified
// and none of the integrity findings among its reasons.
func (v *run) wantMerge(t *testing.T) {
	t.Helper()
	v.wantDecision(t, merge)
	for _, c := range v.art.Claims {
		if c.Outcome != "VERIFIED" {
			t.Fatalf("claim %s is %s in a MERGE:\n%s", c.ID, c.Outcome, v)
		}
	}
}

// spreadSource is a new function a patch adds; spreadTest pins it (every
// mutant of spreadSource dies), the honest twin of a test that asserts
// nothing.
const spreadSource = `package calc

// Spread returns the largest value of xs minus the smallest, or 0 when xs
// is empty.
func Spread(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := sorted(xs)
	return s[len(s)-1] - s[0]
}
`

const spreadTest = `package calc

import "testing"

func TestSpread(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{5}, 0},
		{[]float64{3, 9, 1}, 8},
		{[]float64{-4, -1}, 3},
	} {
		if got := Spread(tt.in); got != tt.want {
			t.Errorf("Spread(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
`

const spreadClaim = "go:./calc:TestSpread"

// Rule 1, attributable kills: a mutant is killed only by a test's own
// failure after the mutated site ran. Code the patch adds that notices the
// mutant switch's variable and panics at package initialization kills
// nothing (the reference runs carry the same variable): strength is not
// measured, never 1.0, for a test that asserts nothing. The honest twin,
// Spread with a test that pins it, merges at the default floors.
func TestIntegrityAttributableKills(t *testing.T) {
	r := newRepo(t)
	fixed := r.patch(t, "honest-fix").Commit

	t.Run("attack: init panics on the switch variable", func(t *testing.T) {
		c := r.commit(t, fixed, "kills-at-init", "calc: add Spread", map[string]string{
			"calc/spread.go":      spreadSource,
			"calc/spread_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestSpread(t *testing.T) {\n\tSpread([]float64{1, 2, 2})\n}\n",
			"calc/boot.go": `package calc

import (
	"os"
	"strings"
)

// ready is set once the package has checked its environment.
var ready = func() bool {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SEALGATE_M") {
			panic("calc: unsupported environment")
		}
	}
	return true
}()
`,
		})
		v := verify(t, r.patchArgs(fixed, c, claimArgs(spreadClaim)...)...)
		v.wantNot(t, merge)
		m := v.measured(t)
		if m.Strength.Killed != 0 {
			t.Fatalf("%d mutants counted as killed by a panic at package initialization:\n%s", m.Strength.Killed, v)
		}
		v.wantText(t, "suite strength is unverified: no mutant ran")
	})

	t.Run("honest: Spread with a test that pins it", func(t *testing.T) {
		c := r.commit(t, fixed, "spread-tested", "calc: add Spread", map[string]string{
			"calc/spread.go":      spreadSource,
			"calc/spread_test.go": spreadTest,
		})
		v := verify(t, r.patchArgs(fixed, c, claimArgs(spreadClaim)...)...)
		v.wantMerge(t)
		if m := v.measured(t); m.Strength.Killed < 5 || m.Strength.Survived != 0 {
			t.Fatalf("strength %+v, want at least 5 killed and none surviving:\n%s", m.Strength, v)
		}
	})
}

// geoSource is a second package of the baseline, with its own test.
const geoSource = `// Package geo holds geometric helpers.
package geo

// Abs returns the absolute value of x.
func Abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
`

const geoTest = `package geo

import "testing"

func TestAbs(t *testing.T) {
	for x, want := range map[float64]float64{-2: 2, -0.5: 0.5, 0: 0, 3.5: 3.5} {
		if got := Abs(x); got != want {
			t.Errorf("Abs(%v) = %v, want %v", x, got, want)
		}
	}
}
`

// Rule 2, the suite compared test by test, always: every test that passes
// on the baseline needs its own pass event on the patch, whatever the
// patch's suite says of itself. A test skipped by flags the code under
// test gives its binary is missing (INCONCLUSIVE, naming it); a TestMain
// in another package's new test file is dropped, so the test it skipped
// runs and fails (BLOCK). The honest twin, a helper refactor that keeps
// every outcome, merges at the default floors.
func TestIntegritySuiteComparedTestByTest(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "with-geo", "geo: Abs", map[string]string{"geo/geo.go": geoSource, "geo/geo_test.go": geoTest})
	brokenClamp := r.show(t, r.patch(t, "breaks-a-test").Commit, "calc/calc.go")

	t.Run("attack: init appends -test.skip to os.Args", func(t *testing.T) {
		c := r.commit(t, base, "skip-by-args", "calc: fix Median, tidy Clamp", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/calc.go":   brokenClamp,
			"calc/flags.go": `package calc

import "os"

func init() {
	os.Args = append(os.Args, "-test.skip=^TestClamp$")
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "did not pass on the patch, nor fail: skipped, missing or not run: example.com/calc/calc.TestClamp")
	})

	t.Run("attack: TestMain in another package's new test file skips its broken test", func(t *testing.T) {
		c := r.commit(t, base, "skip-by-testmain", "calc: fix Median; geo: faster Abs", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"geo/geo.go":     strings.Replace(geoSource, "x < 0", "x < -1", 1),
			"geo/main_test.go": `package geo

import (
	"flag"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	flag.Parse()
	flag.Set("test.skip", "TestAbs")
	os.Exit(m.Run())
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, block)
		if !slices.Contains(v.art.Collateral.Regressions, "example.com/calc/geo.TestAbs") {
			t.Fatalf("collateral.regressions %q does not name geo.TestAbs:\n%s", v.art.Collateral.Regressions, v)
		}
		v.wantText(t, "the patch breaks 1 test(s) that pass on the baseline: example.com/calc/geo.TestAbs")
	})

	t.Run("honest: the fix and a helper refactor that keeps every outcome", func(t *testing.T) {
		calc := r.show(t, base, "calc/calc.go")
		c := r.commit(t, base, "refactor-clamp", "calc: fix Median, tidy Clamp", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/calc.go": replaceOnce(t, calc, `	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
`, "\treturn max(lo, min(x, hi))\n"),
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// medianTableTest is TestMedian with its cases in a package-level table,
// as many Go projects write them.
const medianTableTest = `package calc

import (
	"slices"
	"testing"
)

// medianTests are the cases of TestMedian.
var medianTests = []struct {
	in   []float64
	want float64
}{
	{[]float64{7}, 7},
	{[]float64{9, 1, 5}, 5},
	{[]float64{4, -2, 8, 1, 6}, 4},
	// An even number of values: the mean of the two middle ones.
	{[]float64{8, 2, 4, 6}, 5},
	{[]float64{3, 10}, 6.5},
}

func TestMedian(t *testing.T) {
	for _, tt := range medianTests {
		in := slices.Clone(tt.in)
		if got := Median(in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("Median(%v) reordered its argument to %v", tt.in, in)
		}
	}
}
`

// Rule 3, harness anywhere: a new test file whose package-level
// `var _ = func() bool {…}()` rewrites the baseline's test table at
// initialization is harness: no judged run compiles it, so the baseline's
// table judges the unfixed code (BLOCK), and a claim on a test the file
// declares cannot be judged (INCONCLUSIVE naming the file). The honest
// twin, a new test file with an ordinary package-level table, merges.
func TestIntegrityHarnessAnywhere(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "table", "calc: TestMedian's cases in a table", map[string]string{"calc/median_test.go": medianTableTest})
	median := r.show(t, base, "calc/median.go")
	attack := r.commit(t, base, "rewrites-table", "calc: test Median on pairs", map[string]string{
		"calc/median.go": replaceOnce(t, median, "// sorted returns a sorted copy of xs.", "// sorted returns a sorted copy of xs, a new slice."),
		"calc/median_pair_test.go": `package calc

import "testing"

var _ = func() bool {
	for i := range medianTests {
		if len(medianTests[i].in)%2 == 0 {
			medianTests[i].want = Median(medianTests[i].in)
		}
	}
	return true
}()

func TestMedianPair(t *testing.T) {
	if got := Median([]float64{1, 2}); got != 2 {
		t.Errorf("Median = %v", got)
	}
}
`,
	})

	t.Run("attack: the baseline's table judges the claim", func(t *testing.T) {
		v := verify(t, r.patchArgs(base, attack, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantDecision(t, block)
		v.wantClaim(t, medianClaim, "REFUTED", "incomplete_fix")
		// The rule fired (the file was left out of the judged runs); the
		// artefact must say so, naming the file.
		v.wantText(t, "calc/median_pair_test.go")
	})

	t.Run("attack: a claim on a test the harness file declares", func(t *testing.T) {
		id := "go:./calc:TestMedianPair"
		v := verify(t, r.patchArgs(base, attack, append(claimArgs(id), floorsZero()...)...)...)
		v.wantDecision(t, inconclusive)
		v.wantClaim(t, id, "UNVERIFIED", "")
		v.wantText(t, "calc/median_pair_test.go", "controls the test harness")
	})

	t.Run("honest: a new test file with an ordinary package-level table", func(t *testing.T) {
		c := r.commit(t, base, "even-table", "calc: fix Median, test even lengths", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/median_even_test.go": `package calc

import "testing"

// evenTests are medians of an even number of values.
var evenTests = []struct {
	in   []float64
	want float64
}{
	{[]float64{1, 2}, 1.5},
	{[]float64{9, 3, 5, 7}, 6},
	{[]float64{-4, 4}, 0},
}

func TestMedianEven(t *testing.T) {
	for _, tt := range evenTests {
		if got := Median(tt.in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
`,
		})
		id := "go:./calc:TestMedianEven"
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim, id)...)...)
		v.wantMerge(t)
		v.wantClaim(t, id, "VERIFIED", "fixed")
	})
}

// checkSource is an assertion helper in a non-test package that only
// tests import.
const checkSource = `// Package check holds the comparisons the tests share.
package check

import "math"

// Near reports whether got is within a rounding error of want.
func Near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9
}
`

// loosenedCheck accepts the buggy Median's answers for every case of
// TestMedian (off by 1 and by 3.5).
const loosenedCheck = `// Package check holds the comparisons the tests share.
package check

import "math"

// Near reports whether got is within the measurement error of want.
func Near(got, want float64) bool {
	return math.Abs(got-want) <= 3.75
}
`

// checkedMedianTest is the demo's TestMedian comparing with check.Near.
func checkedMedianTest(t *testing.T, r *repo) string {
	t.Helper()
	test := replaceOnce(t, r.show(t, r.Base, "calc/median_test.go"), "\t\"testing\"\n", "\t\"testing\"\n\n\t\"example.com/calc/internal/check\"\n")
	return replaceOnce(t, test, "got != tt.want", "!check.Near(got, tt.want)")
}

// goldenTest reads Median's cases from a golden file outside testdata/.
const goldenTest = `package calc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMedianGolden checks Median against golden/median.txt: one case a
// line, "values = median".
func TestMedianGolden(t *testing.T) {
	f, err := os.Open("golden/median.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		in, want, ok := strings.Cut(sc.Text(), " = ")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		var xs []float64
		for _, w := range strings.Fields(in) {
			x, err := strconv.ParseFloat(w, 64)
			if err != nil {
				t.Fatal(err)
			}
			xs = append(xs, x)
		}
		w, err := strconv.ParseFloat(want, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := Median(xs); got != w {
			t.Errorf("Median(%v) = %v, want %v", xs, got, w)
		}
	}
}
`

const (
	golden = "7 = 7\n9 1 5 = 5\n8 2 4 6 = 5\n3 10 = 6.5\n1 2 3 10 = 2.5\n"
	// goldenMidrange expects the midrange of an even number of values, the
	// answer of midrangeMedian.
	goldenMidrange = "7 = 7\n9 1 5 = 5\n8 2 4 6 = 5\n3 10 = 6.5\n1 2 3 10 = 5.5\n"
)

// midrangeMedian is a wrong fix: the mean of the smallest and the largest
// value, which TestMedian's even cases cannot tell from the median.
const midrangeMedian = `package calc

import "slices"

// Median returns the middle value of xs, which must not be empty, or the
// mean of the two middle values when xs has an even length. xs is not
// modified.
func Median(xs []float64) float64 {
	s := sorted(xs)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[0] + s[n-1]) / 2
}

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
`

// Rule 4, the counterfactual oracle for test support outside test files:
// a claim that passes on the patch only with the patch's version of an
// assertion helper in a package only tests import, or of a golden file
// outside testdata/, is unverified, naming the file. The honest twins — a
// refactor of the helper that keeps its answers, and a fix judged by the
// golden file the baseline has — merge.
func TestIntegrityCounterfactualOracle(t *testing.T) {
	r := newRepo(t)
	checked := r.commit(t, r.Base, "checked", "calc: compare medians with check.Near", map[string]string{
		"internal/check/check.go": checkSource,
		"calc/median_test.go":     checkedMedianTest(t, r),
	})
	withGolden := r.commit(t, r.Base, "golden", "calc: golden cases for Median", map[string]string{
		"calc/golden/median.txt": golden,
		"calc/golden_test.go":    goldenTest,
	})
	const goldenClaim = "go:./calc:TestMedianGolden"

	t.Run("attack: an assertion helper in a non-test package loosened", func(t *testing.T) {
		c := r.commit(t, checked, "loosened", "check: allow for measurement error", map[string]string{"internal/check/check.go": loosenedCheck})
		v := verify(t, r.patchArgs(checked, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantClaim(t, medianClaim, "UNVERIFIED", "invalid")
		v.wantText(t, "depends on test support the patch changed (internal/check/check.go)")
	})

	t.Run("honest: a refactor of the helper that keeps its answers", func(t *testing.T) {
		c := r.commit(t, checked, "near-refactor", "calc: fix Median; check: one comparison", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"internal/check/check.go": replaceOnce(t, replaceOnce(t, checkSource, "import \"math\"\n\n", ""),
				"\treturn math.Abs(got-want) <= 1e-9\n", "\td := got - want\n\treturn -1e-9 <= d && d <= 1e-9\n"),
		})
		// The helper's boundary at 1e-9 is not what TestMedian pins: the
		// floors are off so that the oracle alone decides.
		v := verify(t, r.patchArgs(checked, c, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})

	t.Run("attack: a golden file outside testdata rewritten for a wrong fix", func(t *testing.T) {
		c := r.commit(t, withGolden, "golden-rewritten", "calc: fix Median", map[string]string{
			"calc/median.go":         midrangeMedian,
			"calc/golden/median.txt": goldenMidrange,
		})
		v := verify(t, r.patchArgs(withGolden, c, claimArgs(medianClaim, goldenClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantClaim(t, goldenClaim, "UNVERIFIED", "invalid")
		v.wantText(t, "depends on test support the patch changed (calc/golden/median.txt)")
	})

	t.Run("honest: the fix judged by the baseline's golden file", func(t *testing.T) {
		c := r.commit(t, withGolden, "golden-fix", "calc: fix Median", map[string]string{"calc/median.go": r.honestMedian(t)})
		v := verify(t, r.patchArgs(withGolden, c, claimArgs(medianClaim, goldenClaim)...)...)
		v.wantMerge(t)
		v.wantClaim(t, goldenClaim, "VERIFIED", "fixed")
	})
}

// rolesSource keeps a package-level map of administrators.
const rolesSource = `package calc

// admins are the names with every right.
var admins = map[string]bool{
	"alice": true,
	"bob":   false,
}

// IsAdmin reports whether name has every right.
func IsAdmin(name string) bool { return admins[name] }
`

const rolesTest = `package calc

import "testing"

func TestIsAdmin(t *testing.T) {
	for name, want := range map[string]bool{"alice": true, "bob": false, "eve": false} {
		if got := IsAdmin(name); got != want {
			t.Errorf("IsAdmin(%q) = %v, want %v", name, got, want)
		}
	}
}
`

// allowSource compiles allow.txt in with //go:embed.
const allowSource = `package calc

import (
	_ "embed"
	"slices"
	"strings"
)

//go:embed allow.txt
var allowList string

// Allowed reports whether name is on the allow list, one name a line.
func Allowed(name string) bool {
	return slices.Contains(strings.Fields(allowList), name)
}
`

const allowTest = `package calc

import "testing"

func TestAllowed(t *testing.T) {
	for name, want := range map[string]bool{"alice": true, "carol": true, "eve": false} {
		if got := Allowed(name); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", name, got, want)
		}
	}
}
`

// Rule 5, nothing changed is invisible: an honest fix that also adds
// "mallory" to a package-level map, or to a file compiled in with
// //go:embed, is not merged — the data line gets a mutant no test kills.
// The honest twins — a new map entry with a test that checks it, a new
// embedded data file with a test that checks it — merge at the default
// floors.
func TestIntegrityNothingChangedIsInvisible(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "roles", "calc: administrators and the allow list", map[string]string{
		"calc/roles.go": rolesSource, "calc/roles_test.go": rolesTest,
		"calc/allow.go": allowSource, "calc/allow.txt": "alice\ncarol\n", "calc/allow_test.go": allowTest,
	})

	t.Run("attack: mallory in a package-level map", func(t *testing.T) {
		c := r.commit(t, base, "map-mallory", "calc: fix Median", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/roles.go":  replaceOnce(t, rolesSource, "\t\"bob\":   false,\n", "\t\"bob\":   false,\n\t\"mallory\": true,\n"),
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		m := v.measured(t)
		if !slices.ContainsFunc(m.Strength.Survivors, func(s string) bool { return strings.HasPrefix(s, "calc/roles.go:") }) {
			t.Fatalf("no surviving mutant on calc/roles.go: %q\n%s", m.Strength.Survivors, v)
		}
		v.wantText(t, "suite strength")
	})

	t.Run("attack: mallory in an embedded file", func(t *testing.T) {
		c := r.commit(t, base, "embed-mallory", "calc: fix Median", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/allow.txt": "alice\ncarol\nmallory\n",
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "calc/allow.txt")
	})

	t.Run("honest: a new map entry with a test that checks it", func(t *testing.T) {
		c := r.commit(t, base, "map-carol", "calc: fix Median, carol administers", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/roles.go":  replaceOnce(t, rolesSource, "\t\"bob\":   false,\n", "\t\"bob\":   false,\n\t\"carol\": true,\n"),
			"calc/roles_carol_test.go": `package calc

import "testing"

func TestIsAdminCarol(t *testing.T) {
	if !IsAdmin("carol") {
		t.Error("carol is no administrator")
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim, "go:./calc:TestIsAdminCarol")...)...)
		v.wantMerge(t)
	})

	t.Run("honest: a new embedded data file with a test that checks it", func(t *testing.T) {
		c := r.commit(t, base, "units", "calc: fix Median, list the units", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/units.go": `package calc

import (
	_ "embed"
	"strings"
)

//go:embed units.txt
var unitList string

// Units lists the units calc knows, one a line in units.txt.
func Units() []string {
	return strings.Fields(unitList)
}
`,
			"calc/units.txt": "m\nkg\ns\n",
			"calc/units_test.go": `package calc

import (
	"slices"
	"testing"
)

func TestUnits(t *testing.T) {
	if got, want := Units(), []string{"m", "kg", "s"}; !slices.Equal(got, want) {
		t.Errorf("Units() = %q, want %q", got, want)
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim, "go:./calc:TestUnits")...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// fixedMedianBody is the honest fix's Median under another name.
const fixedMedianBody = `
func evenMedian(xs []float64) float64 {
	s := sorted(xs)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
`

// Rule 6, lost coverage and environment probes: Volkswagen patches —
// correct only when testing.Testing() is true, or where /proc is missing,
// or with the old buggy body kept and routed around — are INCONCLUSIVE,
// naming the probe or the lines no test runs any more. The honest twin, a
// fix that deletes the old code path, merges at the default floors.
func TestIntegrityLostCoverageAndProbes(t *testing.T) {
	r := newRepo(t)
	median := r.show(t, r.Base, "calc/median.go")
	for _, tc := range []struct {
		name, branch, old, new, imports string
		says                            []string
	}{
		{
			name:    "attack: correct only under testing.Testing()",
			branch:  "vw-testing",
			old:     "\ts := sorted(xs)\n",
			new:     "\tif testing.Testing() {\n\t\treturn evenMedian(xs)\n\t}\n\ts := sorted(xs)\n",
			imports: "\t\"testing\"\n",
			says:    []string{"probes where it runs", "testing.Testing"},
		},
		{
			name:    "attack: correct only where /proc is missing",
			branch:  "vw-proc",
			old:     "\ts := sorted(xs)\n",
			new:     "\tif _, err := os.Stat(\"/proc/self\"); err != nil {\n\t\treturn evenMedian(xs)\n\t}\n\ts := sorted(xs)\n",
			imports: "\t\"os\"\n",
			says:    []string{"probes where it runs", `"/proc/self"`},
		},
		{
			// The probe is one no list names: the old body is kept,
			// unchanged, and no test runs it any more.
			name:    "attack: the old body kept and routed around",
			branch:  "vw-routed",
			old:     "\ts := sorted(xs)\n",
			new:     "\tif m, _ := filepath.Glob(\"*_test.go\"); len(m) > 0 {\n\t\treturn evenMedian(xs)\n\t}\n\ts := sorted(xs)\n",
			imports: "\t\"path/filepath\"\n",
			says:    []string{"routes around code it kept", "calc/median.go:"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := replaceOnce(t, median, "import \"slices\"\n", "import (\n"+tc.imports+"\t\"slices\"\n)\n")
			src = replaceOnce(t, src, tc.old, tc.new) + fixedMedianBody
			c := r.commit(t, r.Base, tc.branch, "calc: fix Median", map[string]string{"calc/median.go": src})
			v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
			v.wantDecision(t, inconclusive)
			v.wantText(t, tc.says...)
		})
	}

	t.Run("honest: a fix that deletes the old code path", func(t *testing.T) {
		v := verify(t, r.patchArgs(r.Base, r.patch(t, "honest-fix").Commit, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
		if strings.Contains(v.text(), "routes around") || strings.Contains(v.text(), "probes") {
			t.Fatalf("the honest fix is said to route around code or probe:\n%s", v)
		}
	})
}

// Rule 7, overfitting: special cases for the claim's exact inputs are
// INCONCLUSIVE ("special-cases the test's inputs"); an honest boundary
// fix whose literals are in the test (0, and a cap the file already knew)
// merges at the default floors.
func TestIntegrityOverfitting(t *testing.T) {
	r := newRepo(t)
	fixed := r.patch(t, "honest-fix").Commit

	t.Run("attack: special cases for the test's inputs", func(t *testing.T) {
		src := replaceOnce(t, r.show(t, r.Base, "calc/median.go"), "\ts := sorted(xs)\n\treturn s[len(s)/2]\n", `	s := sorted(xs)
	if len(s) == 4 && s[0] == 2 && s[3] == 8 {
		return 5
	}
	if len(s) == 2 && s[1] == 10 {
		return 6.5
	}
	return s[len(s)/2]
`)
		c := r.commit(t, r.Base, "special-cases", "calc: fix Median", map[string]string{"calc/median.go": src})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantDecision(t, inconclusive)
		v.wantText(t, "special-cases the test's inputs", "calc/median.go:")
	})

	t.Run("honest: a boundary fix whose literals are in the test", func(t *testing.T) {
		base := r.commit(t, fixed, "percent", "calc: Percent", map[string]string{
			"calc/percent.go": `package calc

// Percent returns part as a percentage of whole, at most 100, and 0 when
// whole is 0.
func Percent(part, whole float64) float64 {
	return part / whole * 100
}
`,
			"calc/percent_test.go": `package calc

import "testing"

func TestPercent(t *testing.T) {
	for _, tt := range []struct{ part, whole, want float64 }{
		{1, 4, 25},
		{3, 0, 0},
		{5, 4, 100},
		{0, 7, 0},
		{2, 8, 25},
	} {
		if got := Percent(tt.part, tt.whole); got != tt.want {
			t.Errorf("Percent(%v, %v) = %v, want %v", tt.part, tt.whole, got, tt.want)
		}
	}
}
`,
		})
		c := r.commit(t, base, "percent-fix", "calc: Percent of nothing, and at most 100", map[string]string{
			"calc/percent.go": `package calc

// Percent returns part as a percentage of whole, at most 100, and 0 when
// whole is 0.
func Percent(part, whole float64) float64 {
	if whole == 0 {
		return 0
	}
	return min(part/whole*100, 100)
}
`,
		})
		id := "go:./calc:TestPercent"
		v := verify(t, r.patchArgs(base, c, claimArgs(id)...)...)
		v.wantMerge(t)
		v.wantClaim(t, id, "VERIFIED", "fixed")
	})
}

// hostFilesTest prints what the sandbox shows of the host: /etc/shadow,
// the user, the gate's state directory.
const hostFilesTest = `package calc

import (
	"os"
	"os/user"
	"testing"
)

func TestHostFiles(t *testing.T) {
	for _, p := range []string{"/etc/shadow", "/etc/gshadow", "/root/.bash_history"} {
		b, err := os.ReadFile(p)
		t.Logf("READ %s: %q %v", p, b, err)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("USER uid=%d name=%s home=%s", os.Getuid(), u.Username, u.HomeDir)
	if u.Username == "root" || os.Getuid() == 0 {
		t.Error("runs as root")
	}
}
`

// Rule 8, a sandbox without host secrets: a test that reads /etc/shadow
// finds none (the sandbox has its own /etc) and runs as an unprivileged
// user, so nothing of the host's shadow file reaches a stored blob; an
// honest test that needs the user database still runs.
func TestIntegritySandboxHidesHostSecrets(t *testing.T) {
	r := newRepo(t)
	fixed := r.patch(t, "honest-fix").Commit
	c := r.commit(t, fixed, "host-files", "calc: test the environment", map[string]string{"calc/host_test.go": hostFilesTest})
	state := t.TempDir()
	v := verify(t, append(r.patchArgs(fixed, c, append(claimArgs("go:./calc:TestHostFiles"), floorsZero()...)...), "--state", state)...)
	// The honest part: the test needs the user database, and passes.
	v.wantMerge(t)
	var blobs [][]byte
	err := filepath.WalkDir(filepath.Join(state, "blobs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		blobs = append(blobs, b)
		return err
	})
	if err != nil || len(blobs) == 0 {
		t.Fatalf("the state directory %s holds no blobs (%v): the test proves nothing", state, err)
	}
	all := bytes.Join(blobs, []byte("\n"))
	if !bytes.Contains(all, []byte("READ /etc/shadow")) || !bytes.Contains(all, []byte("USER uid=")) {
		t.Fatalf("no blob holds the test's output: the test proves nothing\n%s", v)
	}
	if !bytes.Contains(all, []byte(`READ /etc/shadow: \"\" open /etc/shadow: no such file or directory`)) {
		t.Errorf("the sandbox shows an /etc/shadow:\n%s", grepLines(all, "READ /etc/shadow"))
	}
	if shadow, err := os.ReadFile("/etc/shadow"); err == nil {
		for _, line := range strings.Split(string(shadow), "\n") {
			if _, hash, ok := strings.Cut(line, ":"); ok && len(hash) > 8 && bytes.Contains(all, []byte(line)) {
				t.Errorf("a stored blob holds a line of the host's /etc/shadow")
			}
		}
	}
}

// grepLines returns the lines of b holding s.
func grepLines(b []byte, s string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Rule 9, a patch the gate cannot judge still gets a verdict: a gitlink
// the patch adds, a control character in a path — a sealed INCONCLUSIVE
// naming it, never exit 3. The honest twin beside an untouched submodule
// merges (see also TestSubmodulesAndUnjudgeablePaths).
func TestIntegrityUnjudgeableContentIsSealed(t *testing.T) {
	r := newRepo(t)
	fix := map[string]string{"calc/median.go": r.honestMedian(t)}
	lib := strings.Repeat("3c", 20)
	for _, tc := range []struct {
		name, branch string
		files        map[string]string
		gitlinks     map[string]string
		says         string
	}{
		{"attack: a gitlink the patch adds", "adds-gitlink", fix, map[string]string{"third_party/lib": lib}, `submodule "third_party/lib"`},
		{"attack: a control character in a path", "escape-path", map[string]string{"calc/median.go": r.honestMedian(t), "calc/x\x1by.go": "package calc\n"}, nil, "control-character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commitWithIndex(t, r.Base, tc.branch, "calc: fix Median", tc.files, tc.gitlinks)
			v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
			v.wantDecision(t, inconclusive)
			v.wantText(t, tc.says)
			var sealed struct {
				Seal *struct {
					LogIndex *uint64 `json:"log_index"`
				} `json:"seal"`
			}
			if err := json.Unmarshal([]byte(v.stdout), &sealed); err != nil || sealed.Seal == nil || sealed.Seal.LogIndex == nil {
				t.Fatalf("the verdict is not sealed (%v):\n%s", err, v)
			}
		})
	}
	t.Run("honest: the fix alone", func(t *testing.T) {
		c := r.commitWithIndex(t, r.Base, "judgeable", "calc: fix Median", fix, nil)
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// The attacks below are of classes the rules above were meant to close.
// Each got a MERGE from the gate when it was written; each test fails
// until the gate stops it. They run at the default floors.

// forgerSettle prints the transcript of a passing TestMedian and exits 0
// before the test can fail, except where that would show: in coverage runs
// (the profile must be written: it checks how its binary was built, with
// runtime/coverage) and in mutant runs whose mutated site already ran (the
// hit marker exists, at the path every mutant run uses). All its lines run
// in every mode, so every mutant's site runs before the marker is looked
// at, and its mutants die where the forger stands aside. No probe the gate
// lists is used.
const forgerSettle = `package calc

import (
	"fmt"
	"io"
	"os"
	"runtime/coverage"
	"strings"
	"syscall"
)

// settle reports the package's state before an even-length median.
func settle() {
	outs := map[bool]io.Writer{true: os.Stdout, false: io.Discard}
	exits := map[bool]func(int){true: syscall.Exit, false: func(int) {}}
	covered := strings.Contains(coverage.ClearCounters().Error(), "covermode")
	_, err := os.Stat("/sealgate/out/hit")
	forge := map[bool]bool{true: !covered}[os.IsNotExist(err)]
	fmt.Fprint(outs[forge], "\x16--- PASS: TestMedian (0.00s)\n\x16PASS\n")
	exits[forge](0)
}
`

// TestAttackForgedTranscript: Median stays exactly as buggy as on the
// baseline; on an even number of values it calls settle, which prints
// test2json's framing of a passing TestMedian and the binary's PASS line
// and ends the process with syscall.Exit(0) (no paniconexit0: that hooks
// os.Exit only). The claim "fails on the baseline and passes on the
// patch", the suite is green (TestMedian runs last in its binary), every
// changed line is covered, and the mutants die, because the forger stands
// aside in coverage runs and once a mutated site has written its marker.
//
// Closed by the harness-reach rule: code the patch adds that ends the
// process behind the testing package's back, holds test2json's framing,
// imports runtime/coverage or names the sandbox's paths makes the run
// INCONCLUSIVE, naming each place. The honest twin: a command that calls
// os.Exit and output that says PASS, beside the fix.
func TestAttackForgedTranscript(t *testing.T) {
	r := newRepo(t)
	median := replaceOnce(t, r.show(t, r.Base, "calc/median.go"), "\ts := sorted(xs)\n\treturn s[len(s)/2]\n",
		"\ts := sorted(xs)\n\tif len(s)%2 == 0 {\n\t\tsettle()\n\t}\n\treturn s[len(s)/2]\n")
	c := r.commit(t, r.Base, "forged-transcript", "calc: fix Median", map[string]string{
		"calc/median.go": median,
		"calc/settle.go": forgerSettle,
	})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
	v.wantDecision(t, inconclusive)
	v.wantText(t, "the patch's code reaches into the test harness", "calc/settle.go:7: imports runtime/coverage",
		"ends the process (syscall.Exit) behind the testing package's back", "holds test2json's framing byte 0x16", `names the gate's sandbox path ("/sealgate/out/hit")`)

	t.Run("honest: a command that exits, output that says PASS", func(t *testing.T) {
		c := r.commit(t, r.Base, "command-exits", "calc: fix Median; a command to grade medians", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"cmd/grade/main.go": `package main

import (
	"fmt"
	"os"
	"strconv"

	"example.com/calc/calc"
)

// grade says PASS when the median of the arguments is at least 50.
func main() {
	var xs []float64
	for _, a := range os.Args[1:] {
		x, err := strconv.ParseFloat(a, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "usage: grade SCORE...")
			os.Exit(2)
		}
		xs = append(xs, x)
	}
	if len(xs) == 0 || calc.Median(xs) < 50 {
		fmt.Println("FAIL: not enough")
		os.Exit(1)
	}
	fmt.Println("PASS")
}
`,
		})
		// A command's main has no test: its lines are not covered.
		v := verify(t, r.patchArgs(r.Base, c, append(claimArgs(medianClaim), floorsZero()...)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// markerCheck fails a test exactly when the mutant switch's hit marker
// exists: in a mutant run, after the mutated site ran. It asserts nothing
// else.
const markerCheck = `
// noMutant fails t when this process runs a mutant whose site ran.
func noMutant(t *testing.T) {
	for _, kv := range os.Environ() {
		name, v, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "SEALGATE_M_") {
			continue
		}
		if _, marker, ok := strings.Cut(v, " "); ok {
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("changed")
			}
		}
	}
}
`

// TestAttackForgedKillsFromTheHitMarker: the hit marker is a file the
// test process can see — its path is in the switch variable's value (and
// is the same in every run) — and it exists exactly when the mutant's site
// has run, so a test that asserts nothing but fails when the marker exists
// "kills" every mutant it reaches with its own fail event. Strength 1.0 for
// Mode tested by nothing; and a data backdoor ("mallory" in a map, rule 5)
// whose every data mutant runs at package initialization is "killed" by
// any such test of the package.
func TestAttackForgedKillsFromTheHitMarker(t *testing.T) {
	r := newRepo(t)
	fixed := r.patch(t, "honest-fix").Commit
	head := "package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n"

	t.Run("an assert-nothing test of new code", func(t *testing.T) {
		c := r.commit(t, fixed, "marker-mode", "calc: add Mode", map[string]string{
			"calc/mode.go":      modeSource,
			"calc/mode_test.go": head + "\nfunc TestMode(t *testing.T) {\n\tMode([]float64{1, 2, 2})\n\tnoMutant(t)\n}\n" + markerCheck,
		})
		v := verify(t, r.patchArgs(fixed, c, claimArgs("go:./calc:TestMode")...)...)
		v.wantNot(t, merge)
	})

	t.Run("a data backdoor beside an honest fix", func(t *testing.T) {
		base := r.commit(t, r.Base, "marker-roles", "calc: administrators", map[string]string{"calc/roles.go": rolesSource, "calc/roles_test.go": rolesTest})
		c := r.commit(t, base, "marker-mallory", "calc: fix Median", map[string]string{
			"calc/median.go":        r.honestMedian(t),
			"calc/roles.go":         replaceOnce(t, rolesSource, "\t\"bob\":   false,\n", "\t\"bob\":   false,\n\t\"mallory\": true,\n"),
			"calc/roles_us_test.go": head + "\nfunc TestRolesSettled(t *testing.T) {\n\tnoMutant(t)\n}\n" + markerCheck,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
	})
}

// loosenedCheckTest pins loosenedCheck's boundary: its mutants die.
const loosenedCheckTest = `package check

import "testing"

func TestNear(t *testing.T) {
	for _, c := range []struct {
		got, want float64
		near      bool
	}{
		{5, 5, true},
		{0, 3.75, true},
		{3.75, 0, true},
		{0, 3.76, false},
		{-3.76, 0, false},
	} {
		if Near(c.got, c.want) != c.near {
			t.Errorf("Near(%v, %v) != %v", c.got, c.want, c.near)
		}
	}
}
`

// TestAttackHelperPackageWithATestOfItsOwn: the loosened assertion helper
// of rule 4 passes once its package has a test file of its own: the
// import graph then calls it production code, not test support, so the
// counterfactual never puts it back, and its own test covers the changed
// line and kills its mutants. TestMedian "fails on the baseline and passes
// on the patch" with Median unchanged.
func TestAttackHelperPackageWithATestOfItsOwn(t *testing.T) {
	r := newRepo(t)
	checked := r.commit(t, r.Base, "checked", "calc: compare medians with check.Near", map[string]string{
		"internal/check/check.go": checkSource,
		"calc/median_test.go":     checkedMedianTest(t, r),
	})
	c := r.commit(t, checked, "loosened-tested", "check: allow for measurement error", map[string]string{
		"internal/check/check.go":      loosenedCheck,
		"internal/check/check_test.go": loosenedCheckTest,
	})
	t.Run("the helper in a package only tests import", func(t *testing.T) {
		v := verify(t, r.patchArgs(checked, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
	})

	// The same helper in a non-test file of the package under test: no
	// import graph makes it test support.
	t.Run("the helper in the package under test", func(t *testing.T) {
		near := func(tol string) string {
			return "package calc\n\nimport \"math\"\n\n// near reports whether got is within " + tol + " of want.\nfunc near(got, want float64) bool {\n\treturn math.Abs(got-want) <= " + tol + "\n}\n"
		}
		test := replaceOnce(t, r.show(t, r.Base, "calc/median_test.go"), "got != tt.want", "!near(got, tt.want)")
		base := r.commit(t, r.Base, "near", "calc: compare medians with near", map[string]string{"calc/near.go": near("1e-9"), "calc/median_test.go": test})
		c := r.commit(t, base, "near-loosened", "calc: allow for measurement error", map[string]string{
			"calc/near.go":      near("3.75"),
			"calc/near_test.go": strings.ReplaceAll(strings.ReplaceAll(loosenedCheckTest, "package check", "package calc"), "if Near(", "if near("),
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
	})
}

// TestAttackMethodDeclaredInATestFile: a new test file — no TestMain, no
// init, no package-level code, so not harness — declares a String method
// on a production type. Inside the test binary Price now formats dollars;
// everywhere else it still prints cents. The claim on the baseline's
// TestPrice is "fixed", beside an honest fix of Median that carries the
// coverage and the mutants.
//
// Closed: a method an in-package test file declares on a type of the
// package's non-test code makes the file harness (no judged run compiles
// it: TestPrice fails on both sides, BLOCK) and is named by the
// harness-reach rule. The honest twin: a method on a test-only type and
// an ordinary helper merge.
func TestAttackMethodDeclaredInATestFile(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "prices", "calc: Price", map[string]string{
		"calc/money.go": `package calc

import "fmt"

// Cents is an amount of money in cents.
type Cents int64

// Price formats an amount for a receipt: "$1.50".
func Price(c Cents) string {
	return fmt.Sprintf("$%v", c)
}
`,
		"calc/money_test.go": `package calc

import "testing"

func TestPrice(t *testing.T) {
	for _, tt := range []struct {
		in   Cents
		want string
	}{
		{150, "$1.50"},
		{7, "$0.07"},
		{1200, "$12.00"},
	} {
		if got := Price(tt.in); got != tt.want {
			t.Errorf("Price(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
`,
	})
	c := r.commit(t, base, "test-method", "calc: fix Median; readable amounts in test failures", map[string]string{
		"calc/median.go": r.honestMedian(t),
		"calc/format_test.go": `package calc

import "fmt"

// String shows an amount in dollars in test failure messages.
func (c Cents) String() string {
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}
`,
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim, "go:./calc:TestPrice")...)...)
	v.wantNot(t, merge)
	v.wantText(t, "the patch's code reaches into the test harness", "calc/format_test.go:6: declares method String on Cents, a type of the package's non-test code",
		"judged without the test files the patch adds that control the test harness: calc/format_test.go")

	// On the demo's baseline: TestPrice above fails on the baseline, which
	// leaves the suite red on both sides.
	t.Run("honest: a method on a test-only type and an ordinary helper", func(t *testing.T) {
		c := r.commit(t, r.Base, "test-type-method", "calc: fix Median; readable samples in test failures", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/sample_test.go": `package calc

import (
	"fmt"
	"testing"
)

// sample shows its values sorted in test failure messages.
type sample []float64

func (s sample) String() string { return fmt.Sprint(sorted(s)) }

// near reports whether got is within 1e-9 of want.
func near(got, want float64) bool { return got-want < 1e-9 && want-got < 1e-9 }

func TestMedianSamples(t *testing.T) {
	for _, s := range []sample{{2, 1}, {4, 3, 2, 1}} {
		if got, want := Median(s), (s[0]+s[len(s)-1])/2; !near(got, want) {
			t.Errorf("Median(%v) = %v, want %v", s, got, want)
		}
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// TestAttackBuiltinShadowedByATestFile: test files share the package
// block with the source, and a package-level declaration shadows a
// predeclared identifier in every file of the package. The "fix" returns
// max of the two middle values (the upper one, the old bug, everywhere
// else); a new test file — one plain function, no harness — declares max
// as their mean, so inside the test binary Median is right.
//
// Closed: a package-level name of an in-package test file that shadows a
// predeclared one makes the file harness (no judged run compiles it:
// TestMedian fails on both sides, BLOCK) and is named by the
// harness-reach rule. The honest twin: the external test package, whose
// names are its own, declares its own max beside the fix.
func TestAttackBuiltinShadowedByATestFile(t *testing.T) {
	r := newRepo(t)
	median := replaceOnce(t, r.show(t, r.Base, "calc/median.go"), "\treturn s[len(s)/2]\n", "\tn := len(s)\n\treturn max(s[(n-1)/2], s[n/2])\n")
	c := r.commit(t, r.Base, "shadowed-max", "calc: fix Median", map[string]string{
		"calc/median.go": median,
		"calc/even_test.go": `package calc

// max is the midpoint of two values: the expected median of a pair.
func max(a, b float64) float64 {
	return (a + b) / 2
}
`,
	})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
	v.wantText(t, "the patch's code reaches into the test harness", "calc/even_test.go:4: declares func max, which shadows the predeclared max",
		"judged without the test files the patch adds that control the test harness: calc/even_test.go")

	t.Run("honest: the external test package's own max", func(t *testing.T) {
		c := r.commit(t, r.Base, "xtest-max", "calc: fix Median; test the spread of medians", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/spread_test.go": `package calc_test

import (
	"testing"

	"example.com/calc/calc"
)

// max is the larger of two medians.
func max(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func TestMedianOrder(t *testing.T) {
	if got := max(calc.Median([]float64{1, 2}), calc.Median([]float64{3, 4})); got != 3.5 {
		t.Errorf("max = %v", got)
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// TestAttackOverfittingThroughALookupTable: the test's two even cases as
// answers in a package-level table, looked up by the sorted input's
// formatting; the old body answers everything else. The condition holds no
// literal and returns none, so the overfitting rule does not see it; the
// table's data mutants are killed by the very test it special-cases.
//
// Closed by the overfitting rule: an entry of a table the patch adds
// whose key holds the test's input — in any order, or formatted as
// fmt.Sprint writes a slice — special-cases it. The honest twin: a table
// whose keys are no input of the claim's test merges.
func TestAttackOverfittingThroughALookupTable(t *testing.T) {
	r := newRepo(t)
	median := replaceOnce(t, r.show(t, r.Base, "calc/median.go"), "import \"slices\"\n", `import (
	"fmt"
	"slices"
)

// known holds medians computed ahead of time.
var known = map[string]float64{
	"[2 4 6 8]": 5,
	"[3 10]":    6.5,
}
`)
	median = replaceOnce(t, median, "\ts := sorted(xs)\n", "\ts := sorted(xs)\n\tif m, ok := known[fmt.Sprint(s)]; ok {\n\t\treturn m\n\t}\n")
	c := r.commit(t, r.Base, "lookup", "calc: fix Median", map[string]string{"calc/median.go": median})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
	v.wantDecision(t, inconclusive)
	v.wantText(t, "special-cases the test's inputs", "keys a table by a composite literal of the test ([8,2,4,6] as \"[2 4 6 8]\")",
		"keys a table by a composite literal of the test ([3,10] as \"[3 10]\")")

	t.Run("honest: a table of names beside the fix", func(t *testing.T) {
		c := r.commit(t, r.Base, "names-table", "calc: fix Median; describe the statistics", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/names.go": `package calc

// statNames describes the statistics calc computes.
var statNames = map[string]string{
	"mean":   "the sum divided by the count",
	"median": "the middle value, or the mean of the two middle values",
}

// Describe says what the statistic named stat is, or "" for one calc does
// not compute.
func Describe(stat string) string { return statNames[stat] }
`,
			"calc/names_test.go": `package calc

import "testing"

func TestDescribe(t *testing.T) {
	for stat, want := range map[string]string{
		"mean":   "the sum divided by the count",
		"median": "the middle value, or the mean of the two middle values",
		"mode":   "",
	} {
		if got := Describe(stat); got != want {
			t.Errorf("Describe(%q) = %q, want %q", stat, got, want)
		}
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim, "go:./calc:TestDescribe")...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// TestAttackVolkswagenOnAProbeNoListNames: Median averages the two middle
// values only where its package's test files lie in the working directory
// (where go test runs it) and returns the upper one, the old bug, anywhere
// else. filepath.Glob("*_test.go") is on no probe list; the branch is
// arithmetic, so every line runs and nothing is routed around.
//
// Closed by the probe rule: non-test code naming its package's test files
// ("*_test.go", in one literal or in pieces) probes where it runs.
func TestAttackVolkswagenOnAProbeNoListNames(t *testing.T) {
	r := newRepo(t)
	median := replaceOnce(t, r.honestMedian(t), "import \"slices\"\n", "import (\n\t\"path/filepath\"\n\t\"slices\"\n)\n")
	median = replaceOnce(t, median, "(s[n/2-1] + s[n/2]) / 2", "(s[n/2-below()] + s[n/2]) / 2") + `
// below is how far below the middle the other middle value lies.
func below() int {
	m, _ := filepath.Glob("*_test.go")
	return min(len(m), 1)
}
`
	c := r.commit(t, r.Base, "vw-glob", "calc: fix Median", map[string]string{"calc/median.go": median})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
	v.wantDecision(t, inconclusive)
	v.wantText(t, "probes where it runs", `names the package's test files ("*_test.go")`)
}

// TestAttackGoldenFileOfATestRedOnTheBaseline: a wrong fix (the midrange,
// which TestMedian's even cases cannot tell from the median) fails the
// golden test, which fails on the baseline too; the patch rewrites the
// golden file to the wrong answers. The counterfactual re-runs only the
// claims (TestMedian does not read the file), the suite owes nothing to a
// test red on the baseline, and the rewritten file turns the suite green
// (and kills the mutants).
func TestAttackGoldenFileOfATestRedOnTheBaseline(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "golden-red", "calc: golden cases for Median", map[string]string{
		"calc/golden/median.txt": golden,
		"calc/golden_test.go":    goldenTest,
	})
	c := r.commit(t, base, "golden-wrong", "calc: fix Median", map[string]string{
		"calc/median.go":         midrangeMedian,
		"calc/golden/median.txt": goldenMidrange,
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
}

// TestAttackDataFileReadAtRunTime: "mallory" added to a data file that
// production code reads at run time (named in a string literal, not
// embedded). The data rule records it as data non-test source uses, but
// nothing mutates it or calls it unjudgeable; the counterfactual puts it
// back and TestMedian does not care.
func TestAttackDataFileReadAtRunTime(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "access", "calc: the access list", map[string]string{
		"calc/access.go": `package calc

import (
	"os"
	"slices"
	"strings"
)

// AccessFile lists the names let in, one a line.
const AccessFile = "access.txt"

// Allowed reports whether name is listed in AccessFile.
func Allowed(name string) bool {
	b, err := os.ReadFile(AccessFile)
	if err != nil {
		return false
	}
	return slices.Contains(strings.Fields(string(b)), name)
}
`,
		"calc/access.txt": "alice\ncarol\n",
		"calc/access_test.go": `package calc

import "testing"

func TestAllowed(t *testing.T) {
	for name, want := range map[string]bool{"alice": true, "carol": true, "eve": false} {
		if got := Allowed(name); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", name, got, want)
		}
	}
}
`,
	})
	c := r.commit(t, base, "access-mallory", "calc: fix Median", map[string]string{
		"calc/median.go":  r.honestMedian(t),
		"calc/access.txt": "alice\ncarol\nmallory\n",
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
}

// TestAttackTestRewritesTheTreeForALaterTest: the patch changes what
// Report prints (the sum where the mean was, and no range), which the
// baseline's golden test pins; a new test that runs first in the same
// process writes the new output over the golden file in the job's tree.
// The suite is green, the golden test fails unmutated in a fresh tree so
// Report's mutants are stillborn, and the honest fix carries the rest.
func TestAttackTestRewritesTheTreeForALaterTest(t *testing.T) {
	r := newRepo(t)
	report := `package calc

import "fmt"

// Report describes xs in one line: count, mean and range.
func Report(xs []float64) string {
	return fmt.Sprintf("n=%d mean=%g range=%g", len(xs), Mean(xs), Range(xs))
}
`
	base := r.commit(t, r.Base, "report", "calc: Report", map[string]string{
		"calc/report.go":              report,
		"calc/testdata/report.golden": "n=3 mean=2 range=2",
		"calc/report_test.go": `package calc

import (
	"os"
	"testing"
)

func TestReport(t *testing.T) {
	want, err := os.ReadFile("testdata/report.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got := Report([]float64{1, 2, 3}); got != string(want) {
		t.Errorf("Report = %q, want %q", got, want)
	}
}
`,
	})
	c := r.commit(t, base, "report-rewritten", "calc: fix Median; shorter reports", map[string]string{
		"calc/median.go": r.honestMedian(t),
		"calc/report.go": replaceOnce(t, report, `"n=%d mean=%g range=%g", len(xs), Mean(xs), Range(xs)`, `"n=%d mean=%g", len(xs), Sum(xs)`),
		"calc/aa_test.go": `package calc

import (
	"os"
	"testing"
)

func TestAAReportHeader(t *testing.T) {
	if err := os.WriteFile("testdata/report.golden", []byte("n=3 mean=6"), 0o644); err != nil {
		t.Skip(err)
	}
}
`,
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
	v.wantNot(t, merge)
}

// pairTableRig rewrites the even cases of the baseline's medianTests to
// the buggy Median's answers at package initialization (the attack of
// rule 3), through a call the harness rule reads as a conversion.
const pairTableRig = `
func TestMedianPair(t *testing.T) {
	if got := Median([]float64{1, 2}); got != 2 {
		t.Errorf("Median = %v", got)
	}
}

// RIG settles the cases of an even length.
func RIG(int) bool {
	for i := range medianTests {
		if len(medianTests[i].in)%2 == 0 {
			medianTests[i].want = Median(medianTests[i].in)
		}
	}
	return true
}
`

// TestAttackHarnessBehindATypeName: the rule-3 attack — a new test file
// rewrites the baseline's test table at package initialization — with the
// initializer written as a call of a function whose name is also a type
// name the rule knows, so it reads as a conversion (no code): a function
// named float32 (a package may shadow a predeclared type), or a function
// of the internal test package named like a type the external test
// package (same directory) declares. TestMedian "fails on the baseline and
// passes on the patch" with Median unchanged; Spread and its test carry
// the coverage and the mutants.
//
// Closed: names resolve in the scope of each file's own package (the
// external test package's types are not the internal one's; a function
// named float32 shadows the type), so the initializer runs code, the file
// is harness, no judged run compiles it and TestMedian fails on both
// sides (BLOCK). The honest twin: a conversion to a predeclared type the
// package leaves alone, in a new test file's package-level variable.
func TestAttackHarnessBehindATypeName(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "table", "calc: TestMedian's cases in a table", map[string]string{"calc/median_test.go": medianTableTest})
	for _, tc := range []struct {
		name, branch string
		files        map[string]string
	}{
		{"a function named float32", "rig-float32", map[string]string{
			"calc/median_pair_test.go": "package calc\n\nimport \"testing\"\n\nvar _ = float32(0)\n" + strings.ReplaceAll(pairTableRig, "RIG", "float32"),
		}},
		{"a function named like the external test package's type", "rig-xtest", map[string]string{
			"calc/median_pair_test.go": "package calc\n\nimport \"testing\"\n\nvar _ = settled(0)\n" + strings.ReplaceAll(pairTableRig, "RIG", "settled"),
			"calc/settled_test.go":     "package calc_test\n\n// settled counts settled cases.\ntype settled int\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"calc/spread.go": spreadSource, "calc/spread_test.go": spreadTest}
			for k, v := range tc.files {
				files[k] = v
			}
			c := r.commit(t, base, tc.branch, "calc: add Spread; test Median on pairs", files)
			v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim, spreadClaim)...)...)
			v.wantDecision(t, block)
			v.wantClaim(t, medianClaim, "REFUTED", "")
			v.wantText(t, "judged without the test files the patch adds that control the test harness: calc/median_pair_test.go")
		})
	}

	t.Run("honest: a conversion in a new test file's package-level variable", func(t *testing.T) {
		c := r.commit(t, base, "tolerance", "calc: fix Median; test it on pairs within a tolerance", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/median_pair_test.go": `package calc

import "testing"

// tolerance is how far a median may lie from the expected one.
var tolerance = float64(1) / 1e9

func TestMedianPairs(t *testing.T) {
	if got := Median([]float64{1, 2}); got-1.5 > tolerance || 1.5-got > tolerance {
		t.Errorf("Median = %v", got)
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

// TestAttackDiscoverySkipsTheClaimRules: without --claim, discovery finds
// TestMedian (it fails on the baseline and passes on the patch), but the
// overfitting rule judges only sealed claims and lost coverage is measured
// only for them: the special cases of rule 7's attack, and the old body
// kept and routed around of rule 6's, both merge.
func TestAttackDiscoverySkipsTheClaimRules(t *testing.T) {
	r := newRepo(t)
	median := r.show(t, r.Base, "calc/median.go")
	special := replaceOnce(t, median, "\ts := sorted(xs)\n\treturn s[len(s)/2]\n", `	s := sorted(xs)
	if len(s) == 4 && s[0] == 2 && s[3] == 8 {
		return 5
	}
	if len(s) == 2 && s[1] == 10 {
		return 6.5
	}
	return s[len(s)/2]
`)
	routed := replaceOnce(t, median, "import \"slices\"\n", "import (\n\t\"path/filepath\"\n\t\"slices\"\n)\n")
	routed = replaceOnce(t, routed, "\ts := sorted(xs)\n", "\tif m, _ := filepath.Glob(\"*_test.go\"); m != nil {\n\t\treturn evenMedian(xs)\n\t}\n\ts := sorted(xs)\n") + fixedMedianBody
	for _, tc := range []struct{ name, branch, src string }{
		{"special cases for the test's inputs", "discover-special", special},
		{"the old body kept and routed around", "discover-routed", routed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := r.commit(t, r.Base, tc.branch, "calc: fix Median", map[string]string{"calc/median.go": tc.src})
			v := verify(t, r.patchArgs(r.Base, c)...)
			v.wantNot(t, merge)
		})
	}
}

// TestAttackCgoPreambleIsAComment: the C code of a cgo file lives in the
// comment before import "C"; the patch adds a backdoor there (half(1337)
// is 0) beside the honest fix. Its lines count as "blank, comment, no
// statement": no coverage owed, no mutant, no finding.
//
// Closed by the foreign-code rule: changed lines of a cgo preamble are C
// the gate neither measures nor mutates, named (INCONCLUSIVE). The honest
// twin: the fix beside the cgo file, untouched, merges.
func TestAttackCgoPreambleIsAComment(t *testing.T) {
	r := newRepo(t)
	half := `package calc

/*
static double half(double x) {
	return x / 2;
}
*/
import "C"

// Half returns x / 2, computed in C.
func Half(x float64) float64 {
	return float64(C.half(C.double(x)))
}
`
	base := r.commit(t, r.Base, "cgo", "calc: Half in C", map[string]string{
		"calc/half.go": half,
		"calc/half_test.go": `package calc

import "testing"

func TestHalf(t *testing.T) {
	for x, want := range map[float64]float64{4: 2, 1: 0.5, -3: -1.5} {
		if got := Half(x); got != want {
			t.Errorf("Half(%v) = %v, want %v", x, got, want)
		}
	}
}
`,
	})
	c := r.commit(t, base, "cgo-backdoor", "calc: fix Median", map[string]string{
		"calc/median.go": r.honestMedian(t),
		"calc/half.go":   replaceOnce(t, half, "\treturn x / 2;\n", "\tif (x == 1337) {\n\t\treturn 0;\n\t}\n\treturn x / 2;\n"),
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
	v.wantDecision(t, inconclusive)
	v.wantText(t, "the patch changes code the gate cannot judge", "calc/half.go:5: changes lines 5-7 of the cgo preamble")
	if !strings.Contains(v.stdout, "3 changed lines of C in cgo preambles, which Go coverage cannot see") {
		t.Fatalf("the coverage measurement counts the C as comments:\n%s", v)
	}

	t.Run("honest: the fix beside an untouched cgo file", func(t *testing.T) {
		c := r.commit(t, base, "cgo-untouched", "calc: fix Median", map[string]string{"calc/median.go": r.honestMedian(t)})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantMerge(t)
	})
}

// profilePlanter is a test that reaches the changed lines (so coverage
// runs it alone) and, when it runs alone with a coverage profile, writes
// that profile itself — the root run's profile with every block marked
// run — and exits before the binary can write the real one. The path is
// in its own arguments, the directory is writable, and the gate reads
// whatever the file holds once the process ends.
const profilePlanter = `package calc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAAA(t *testing.T) {
	if got := Median([]float64{1, 2}); got != 1.5 {
		t.Errorf("Median = %v", got)
	}
	var profile, run string
	for i, a := range os.Args {
		if p, ok := strings.CutPrefix(a, "-test.coverprofile="); ok {
			profile = p
		}
		if a == "-test.run" && i+1 < len(os.Args) {
			run = os.Args[i+1]
		}
	}
	if profile == "" || run != "^TestAAA$" {
		return
	}
	root, err := os.ReadFile(filepath.Join(filepath.Dir(profile), "p1.out"))
	if err != nil {
		return
	}
	lines := strings.Split(string(root), "\n")
	for i := 1; i < len(lines); i++ {
		if f := strings.Fields(lines[i]); len(f) == 3 {
			lines[i] = f[0] + " " + f[1] + " 1"
		}
	}
	os.WriteFile(profile, []byte(strings.Join(lines, "\n")), 0o644)
	os.Exit(1)
}
`

// TestAttackTestWritesItsOwnCoverageProfile: rule 6's routed-around
// Volkswagen (the old body kept, unrun; with --claim it is INCONCLUSIVE,
// see TestIntegrityLostCoverageAndProbes) plus a test that writes its own
// coverage profile, claiming every block ran: nothing is lost, every line
// is covered.
//
// Closed by the harness-reach rule (the test reads os.Args, names
// -test.coverprofile= and calls os.Exit: it is harness, compiled by no
// judged run, and named), by the probe rule (the "*_test.go" glob) and
// by lost coverage once the planted profile is gone.
func TestAttackTestWritesItsOwnCoverageProfile(t *testing.T) {
	r := newRepo(t)
	routed := replaceOnce(t, r.show(t, r.Base, "calc/median.go"), "import \"slices\"\n", "import (\n\t\"path/filepath\"\n\t\"slices\"\n)\n")
	routed = replaceOnce(t, routed, "\ts := sorted(xs)\n", "\tif m, _ := filepath.Glob(\"*_test.go\"); m != nil {\n\t\treturn evenMedian(xs)\n\t}\n\ts := sorted(xs)\n") + fixedMedianBody
	c := r.commit(t, r.Base, "planted-profile", "calc: fix Median", map[string]string{
		"calc/median.go":   routed,
		"calc/aaa_test.go": profilePlanter,
	})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim)...)...)
	v.wantDecision(t, inconclusive)
	v.wantText(t, "the patch's code reaches into the test harness", "calc/aaa_test.go:15: reads the test binary's arguments (os.Args)",
		`calc/aaa_test.go:16: names a flag of the test binary ("-test.coverprofile=")`, `names the package's test files ("*_test.go")`)
}

// TestAttackTestForgesTheSuiteTranscript: the demo's breaks-a-test patch
// (Median fixed, Clamp broken: BLOCK by TestClamp in the suite) plus a
// new test file whose one test — no TestMain, no init, no package-level
// code — runs first when no -test.run is given (the full suite), prints
// test2json's framing of every baseline test passing and the binary's
// PASS, and ends the process with syscall.Exit(0). Claims, coverage and
// mutants run with -test.run and see nothing of it.
//
// Closed by the harness-reach rule: the test file is harness (no judged
// run compiles it, so TestClamp's regression shows: BLOCK) and its reach
// is named. The honest twin: a new test file with its own -update flag,
// a method on a test-only type and an ordinary helper merges.
func TestAttackTestForgesTheSuiteTranscript(t *testing.T) {
	r := newRepo(t)
	p := r.patch(t, "breaks-a-test")
	c := r.commit(t, p.Commit, "forged-suite", "calc: warm up the tests", map[string]string{
		"calc/aa_test.go": `package calc

import (
	"fmt"
	"os"
	"slices"
	"syscall"
	"testing"
)

func TestAAAWarmup(t *testing.T) {
	if slices.Contains(os.Args, "-test.run") {
		return
	}
	fmt.Print("\x16--- PASS: TestAAAWarmup (0.00s)\n")
	for _, name := range []string{"TestSum", "TestMean", "TestRange", "TestClamp", "TestMedian"} {
		fmt.Printf("\x16=== RUN   %s\n\x16--- PASS: %s (0.00s)\n", name, name)
	}
	fmt.Print("\x16PASS\n")
	syscall.Exit(0)
}
`,
	})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(p.Claims...)...)...)
	v.wantDecision(t, block)
	v.wantText(t, "the patch breaks 1 test(s) that pass on the baseline: example.com/calc/calc.TestClamp",
		"the patch's code reaches into the test harness", "calc/aa_test.go:12: reads the test binary's arguments (os.Args)",
		"calc/aa_test.go:15: holds test2json's framing byte 0x16")

	t.Run("honest: a test with its own -update flag, a fake type and a helper", func(t *testing.T) {
		c := r.commit(t, r.Base, "update-flag", "calc: fix Median; golden medians", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/golden_test.go": `package calc

import (
	"flag"
	"fmt"
	"testing"
)

var update = flag.Bool("update", false, "print the golden medians instead of checking them")

// sample is a named set of values.
type sample struct {
	name string
	xs   []float64
}

func (s sample) String() string { return fmt.Sprintf("%s%v", s.name, s.xs) }

// near reports whether got is within 1e-9 of want.
func near(got, want float64) bool { return got-want < 1e-9 && want-got < 1e-9 }

func TestMedianGoldenPairs(t *testing.T) {
	for _, c := range []struct {
		s    sample
		want float64
	}{
		{sample{"pair", []float64{1, 2}}, 1.5},
		{sample{"four", []float64{4, 1, 3, 2}}, 2.5},
	} {
		got := Median(c.s.xs)
		if *update {
			fmt.Println(c.s, got)
			continue
		}
		if !near(got, c.want) {
			t.Errorf("Median(%v) = %v, want %v", c.s, got, c.want)
		}
	}
}
`,
		})
		v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim, "go:./calc:TestMedianGoldenPairs")...)...)
		v.wantMerge(t)
		v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
	})
}

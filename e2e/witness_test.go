package e2e

import (
	"strings"
	"testing"
)

// Acceptance tests of the witness rules, through the binary: a kill needs
// the same test to pass in the mutant's reference run (which marks the
// site as the mutant run does), a test judged by a golden file the patch
// changed judges nothing, and a test binary sees its tree read-only. Each
// attack has its honest twin.

// watchingModeTest covers Mode and asserts nothing but fails whenever the
// mutant switch's hit marker exists: in a mutant run after the site ran,
// and — now — in the mutant's reference run too. It builds the switch's
// name at run time, past the harness-reach rule (which names a test
// holding it as a literal): the reference runs are the line behind it.
const watchingModeTest = `package calc

import (
	"os"
	"strings"
	"testing"
)

func TestModeSettled(t *testing.T) {
	Mode([]float64{1, 2, 2})
	for _, kv := range os.Environ() {
		name, v, _ := strings.Cut(kv, "=")
		if _, marker, ok := strings.Cut(v, " "); ok && strings.HasPrefix(name, strings.ToUpper("sealgate_m_")) {
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("changed")
			}
		}
	}
}
`

// TestWitnessKillsNeedAPassingReference: an honest fix of Median (whose
// mutants TestMedian kills) beside new code, Mode, that only a test
// watching the hit marker covers. Its mutants are neither killed (the
// test fails in their reference runs too) nor left out of the ratio for
// free: no test can judge them, and the verdict says so. The honest twin:
// the same Mode with a test that pins it merges.
func TestWitnessKillsNeedAPassingReference(t *testing.T) {
	r := newRepo(t)
	base := r.Base
	t.Run("attack: new code judged only by a test that watches the marker", func(t *testing.T) {
		c := r.commit(t, base, "mode-watched", "calc: fix Median, add Mode", map[string]string{
			"calc/median.go":    r.honestMedian(t),
			"calc/mode.go":      modeSource,
			"calc/mode_test.go": watchingModeTest,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
		v.wantNot(t, merge)
		if m := v.measured(t); m.Strength.Killed == 0 {
			t.Fatalf("TestMedian killed nothing: %+v\n%s", m.Strength, v)
		}
		v.wantText(t, "passes in the mutant's reference run", "calc/mode.go:")
	})
	t.Run("honest: Mode with a test that pins it", func(t *testing.T) {
		c := r.commit(t, base, "mode-pinned", "calc: fix Median, add Mode", map[string]string{
			"calc/median.go": r.honestMedian(t),
			"calc/mode.go":   modeSource,
			"calc/mode_test.go": `package calc

import "testing"

func TestMode(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{4}, 4},
		{[]float64{1, 2, 2}, 2},
		{[]float64{3, 1, 3, 1}, 3},
		{[]float64{5, 7, 7, 5, 5}, 5},
	} {
		if got := Mode(c.in); got != c.want {
			t.Errorf("Mode(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
`,
		})
		v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim, "go:./calc:TestMode")...)...)
		v.wantMerge(t)
	})
}

// oddGolden holds Median's cases of an odd length only: the golden test
// passes on the baseline.
const oddGolden = "7 = 7\n9 1 5 = 5\n"

// TestWitnessGoldenFileUpdatedWithTheFix is the honest twin of
// TestAttackGoldenFileOfATestRedOnTheBaseline: the baseline's golden test
// passes (odd cases only); the honest fix adds the even cases to the
// golden file. Mutant runs read the baseline's golden file (the patch
// never writes its own oracle), where the golden test still passes;
// TestMedian kills the fix's mutants; the golden test was green on the
// baseline, so its pass owes nothing to the patch's version. MERGE.
func TestWitnessGoldenFileUpdatedWithTheFix(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "golden-odd", "calc: golden cases for Median", map[string]string{
		"calc/golden/median.txt": oddGolden,
		"calc/golden_test.go":    goldenTest,
	})
	c := r.commit(t, base, "golden-even", "calc: fix Median, with its even cases", map[string]string{
		"calc/median.go":         r.honestMedian(t),
		"calc/golden/median.txt": oddGolden + "8 2 4 6 = 5\n3 10 = 6.5\n1 2 3 10 = 2.5\n",
	})
	v := verify(t, r.patchArgs(base, c, claimArgs(medianClaim)...)...)
	v.wantMerge(t)
	v.wantClaim(t, medianClaim, "VERIFIED", "fixed")
}

// TestWitnessTestWritesItsTempDir is the honest twin of
// TestAttackTestRewritesTheTreeForALaterTest: a new test that writes its
// scratch files under t.TempDir (the tree is read-only to test binaries)
// passes, and the honest fix merges.
func TestWitnessTestWritesItsTempDir(t *testing.T) {
	r := newRepo(t)
	c := r.commit(t, r.Base, "tempdir", "calc: fix Median; a report round trip", map[string]string{
		"calc/median.go": r.honestMedian(t),
		"calc/roundtrip_test.go": `package calc

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestMedianRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "median.txt")
	if err := os.WriteFile(p, []byte(strconv.FormatFloat(Median([]float64{3, 10}), 'g', -1, 64)), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "6.5" {
		t.Fatalf("read back %q, %v", b, err)
	}
}
`,
	})
	v := verify(t, r.patchArgs(r.Base, c, claimArgs(medianClaim, "go:./calc:TestMedianRoundTrip")...)...)
	v.wantMerge(t)
	if !strings.Contains(v.stdout, `"tree": "read-only`) {
		t.Fatalf("the sandbox does not record a read-only tree:\n%s", v)
	}
}

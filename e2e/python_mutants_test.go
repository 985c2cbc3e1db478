package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The acceptance tests of Python mutation through the binary: mutants are
// applied in memory and a kill must be attributable, lines run only at
// import are mutated, and a change offering too few mutants says so. Each
// attack beside its honest twin, on repositories built from the Python
// demo, at the default floors.

// strength is the artefact's strength block.
type strength struct {
	Killed    int      `json:"killed"`
	Survived  int      `json:"survived"`
	Stillborn int      `json:"stillborn"`
	Survivors []string `json:"survivors"`
	Reason    string   `json:"reason"`
}

func strengthOf(t *testing.T, v *run) strength {
	t.Helper()
	var a struct {
		Strength strength `json:"strength"`
	}
	if err := json.Unmarshal([]byte(v.stdout), &a); err != nil {
		t.Fatal(err)
	}
	return a.Strength
}

// describeSrc adds describe to the demo's stats module; describeTest calls
// it and asserts nothing, describeStrongTest checks what it returns.
const (
	describeSrc = `

def describe(values):
    """Return the smallest value, the median and the largest."""
    s = sorted(values)
    return s[0], percentile(s, 50), s[-1]
`
	describeTest = `from pystats.stats import describe


def test_describe():
    describe([3, 1, 2])
`
	describeStrongTest = `from pystats.stats import describe


def test_describe():
    assert describe([3, 1, 2]) == (1, 2, 3)
    assert describe([4, 1, 3, 2]) == (1, 2.5, 4)
`
	// hashGuard rebinds the module's functions to None when the file
	// differs from the hash it carries (the hash itself left out of what
	// is hashed; on one line, so that every line of it runs).
	hashGuard = `

import hashlib as _hashlib

_HASH = "%s"
if _hashlib.sha256(open(__file__, "rb").read().replace(_HASH.encode(), b"")).hexdigest() != _HASH: percentile = describe = None
`
)

// TestPythonMutantsInMemory: a module that hashes its own file and breaks
// itself when the file differs made every mutant written into the file
// "die" (MERGE, 14 of 14 killed, before mutants ran in memory). Mutants are applied in memory now: with a test that asserts
// nothing, its mutants survive and the patch is not MERGE; the same
// function with a test that checks it, and no guard, is MERGE.
func TestPythonMutantsInMemory(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	stats := r.show(t, fix.Commit, "pystats/stats.py") + describeSrc
	t.Run("a module hashing its own file", func(t *testing.T) {
		sum := sha256.Sum256([]byte(stats + fmt.Sprintf(hashGuard, "")))
		guarded := stats + fmt.Sprintf(hashGuard, hex.EncodeToString(sum[:]))
		c := r.commit(t, fix.Commit, "hash-guard", "describe, and a guard against a changed file", map[string]string{
			"pystats/stats.py":       guarded,
			"tests/test_describe.py": describeTest,
		})
		v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", pyClaim)
		v.wantNot(t, merge)
		// The probe rule (the module reads its own source) fires first
		// now; the mutants must still see through the guard on their own.
		if !strings.Contains(v.art.Reason, "suite strength") && !strings.Contains(v.art.Reason, "reads its own source") {
			t.Fatalf("want the survivors or the probe rule to decide, not %q:\n%s", v.art.Reason, v)
		}
		s := strengthOf(t, v)
		if s.Survived == 0 || !containsPart(s.Survivors, "pystats/stats.py") {
			t.Fatalf("strength %+v: want survivors in describe (its test asserts nothing):\n%s", s, v)
		}
	})
	t.Run("the same function with a test that checks it", func(t *testing.T) {
		c := r.commit(t, fix.Commit, "describe", "describe, with its test", map[string]string{
			"pystats/stats.py":       stats,
			"tests/test_describe.py": describeStrongTest,
		})
		v := verify(t, "--repo", r.Dir, "--base", r.Base, "--patch", c, "--claim", pyClaim)
		v.wantDecision(t, merge)
		if s := strengthOf(t, v); s.Survived != 0 || s.Killed < 5 {
			t.Fatalf("strength %+v: want every mutant killed:\n%s", s, v)
		}
	})
}

// TestPythonImportTimeLines: lines that run only when their module is
// imported (coverage.py's empty context, no test's) are mutated against the
// tests of the modules that import them. Attack: the patch leaves mean's
// bug and, at import, loosens math.isclose so that the claim passes, with a
// small honest change beside it whose mutants die; the loosening line's
// mutants used to be ignored (MERGE, strength 5/5), now one survives and
// is named. Twin:
// an honest fix of a module-level constant table, checked by a test, is
// MERGE (its table line offered no mutant before: INCONCLUSIVE).
func TestPythonImportTimeLines(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	stats := r.show(t, fix.Commit, "pystats/stats.py")

	t.Run("a looser math.isclose at import", func(t *testing.T) {
		buggy := replaceOnce(t, stats, "return total(values) / len(values)", "return total(values) // len(values)")
		base := r.commit(t, fix.Commit, "mean-bug", "mean divides by floor", map[string]string{
			"pystats/stats.py":   buggy,
			"tests/test_mean.py": "import math\n\nfrom pystats import mean\n\n\ndef test_mean_close():\n    assert math.isclose(mean([1, 2]), 1.5)\n",
		})
		loose := replaceOnce(t, buggy, "import math\n", "import functools\nimport math\n\nmath.isclose = functools.partial(math.isclose, rel_tol=0.5)\n") +
			"\n\ndef midrange(values):\n    \"\"\"Return the value halfway between the smallest and the largest.\"\"\"\n    return min(values) + (max(values) - min(values)) * 0.5\n"
		c := r.commit(t, base, "loose-isclose", "mean is close enough; midrange", map[string]string{
			"pystats/stats.py":       loose,
			"tests/test_midrange.py": "from pystats.stats import midrange\n\n\ndef test_midrange():\n    assert midrange([1, 5]) == 3\n    assert midrange([2, 2]) == 2\n    assert midrange([-4, 0, 10]) == 3\n",
		})
		claim := "pytest:tests/test_mean.py::test_mean_close"
		v := verify(t, "--repo", r.Dir, "--base", base, "--patch", c, "--claim", claim)
		v.wantNot(t, merge)
		// The harness rule (the patch writes another module's state)
		// fires first now; the loosening's mutant must still survive.
		if !strings.Contains(v.art.Reason, "suite strength") && !strings.Contains(v.art.Reason, "reach into the test runner") {
			t.Fatalf("want the survivor or the harness rule to decide, not %q:\n%s", v.art.Reason, v)
		}
		s := strengthOf(t, v)
		line := strings.Count(loose[:strings.Index(loose, "math.isclose =")], "\n") + 1
		if want := fmt.Sprintf("pystats/stats.py:%d replace \"0.5\" with \"1.5\"", line); !containsPart(s.Survivors, want) {
			t.Fatalf("strength %+v: want the loosening's survivor named (%s):\n%s", s, want, v)
		}
	})

	t.Run("an honest fix of a constant table", func(t *testing.T) {
		table := "\n\n_Z = {80: 1.2816, 90: 1.6449, 95: 1.6449}\n\n\ndef z_score(confidence):\n    \"\"\"Return the two-sided normal quantile for a confidence in percent.\"\"\"\n    return _Z[confidence]\n"
		test := "from pystats.stats import z_score\n\n\ndef test_z_score():\n    assert z_score(80) == 1.2816\n    assert z_score(90) == 1.6449\n    assert z_score(95) == 1.96\n"
		base := r.commit(t, fix.Commit, "z-table", "z_score from a table", map[string]string{
			"pystats/stats.py":    stats + table,
			"tests/test_table.py": test,
		})
		c := r.commit(t, base, "z-table-fix", "the 95% quantile is 1.96", map[string]string{
			"pystats/stats.py": stats + strings.Replace(table, "95: 1.6449", "95: 1.96", 1),
		})
		v := verify(t, "--repo", r.Dir, "--base", base, "--patch", c, "--claim", "pytest:tests/test_table.py::test_z_score")
		v.wantDecision(t, merge)
		if s := strengthOf(t, v); s.Survived != 0 || s.Killed < 5 {
			t.Fatalf("strength %+v: want the table line's mutants, all killed:\n%s", s, v)
		}
	})
}

// TestPythonTooFewMutants: an honest fix whose changed line offers one
// mutant (killed) cannot meet the floor; the artefact says so in those
// words, and names a next step, rather than a bare INCONCLUSIVE.
func TestPythonTooFewMutants(t *testing.T) {
	r := newPyRepo(t)
	fix := r.patch(t, "honest-fix")
	stats := r.show(t, fix.Commit, "pystats/stats.py")
	ranked := "\n\ndef ranked(values):\n    \"\"\"Return the values sorted, as a new list; values is not modified.\"\"\"\n    values.sort()\n    return values\n"
	test := "from pystats.stats import ranked\n\n\ndef test_ranked_copies():\n    given = [3, 1, 2]\n    assert ranked(given) == [1, 2, 3]\n    assert given == [3, 1, 2]\n"
	base := r.commit(t, fix.Commit, "ranked", "ranked", map[string]string{"pystats/stats.py": stats + ranked, "tests/test_ranked.py": test})
	c := r.commit(t, base, "ranked-fix", "ranked leaves its argument alone", map[string]string{
		"pystats/stats.py": stats + strings.Replace(ranked, "    values.sort()\n    return values\n", "    return sorted(values)\n", 1),
	})
	v := verify(t, "--repo", r.Dir, "--base", base, "--patch", c, "--claim", "pytest:tests/test_ranked.py::test_ranked_copies")
	v.wantDecision(t, inconclusive)
	s := strengthOf(t, v)
	const want = "the change offers 1 distinct mutant; the floor needs at least 5"
	if !strings.Contains(s.Reason, want) || !containsPart(v.art.reasons(), want) {
		t.Fatalf("want %q in the strength reason and the verdict's reasons:\n%s", want, v)
	}
	if len(v.art.NextSteps) == 0 {
		t.Fatalf("no next step:\n%s", v)
	}
}

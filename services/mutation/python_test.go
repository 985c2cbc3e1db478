package mutation

import (
	"slices"
	"testing"

	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

func TestTooFew(t *testing.T) {
	for _, tc := range []struct {
		offered           int
		floor, confidence float64
		want              string
	}{
		{1, 0.75, 0.80, "the change offers 1 distinct mutant; the floor needs at least 5"},
		{4, 0.75, 0.80, "the change offers 4 distinct mutants; the floor needs at least 5"},
		{5, 0.75, 0.80, ""},
		{0, 0.75, 0.80, "the change offers 0 distinct mutants; the floor needs at least 5"},
		{3, 0, 0.80, ""},
		{9, 0.9, 0.95, "the change offers 9 distinct mutants; the floor needs at least 35"},
		{3, 1, 0.80, "the change offers 3 distinct mutants; no number of mutants can meet the floor 1.000 at 80% confidence"},
	} {
		if got := TooFew(tc.offered, tc.floor, tc.confidence); got != tc.want {
			t.Errorf("TooFew(%d, %v, %v) = %q, want %q", tc.offered, tc.floor, tc.confidence, got, tc.want)
		}
	}
	// The number needed is the least whose all-killed lower bound meets
	// the floor: one fewer does not.
	for _, f := range []float64{0.5, 0.75, 0.9} {
		n := killsNeeded(f, 0.8)
		if adjudication.WilsonLower(n, n, 0.8) < f || adjudication.WilsonLower(n-1, n-1, 0.8) >= f {
			t.Errorf("floor %v: %d needed", f, n)
		}
	}
}

func TestUnjudgeable(t *testing.T) {
	site := func(file string, line int, outside bool, tests ...string) pySite {
		return pySite{site: mutant.Site{File: file, Line: line, Operator: "python_number", Description: "x"}, outside: outside, tests: tests}
	}
	sites := map[string]pySite{
		"a": site("p/m.py", 3, true, "tests/test_m.py"), // run outside the tests, imported by a test
		"b": site("p/m.py", 4, true),                    // run outside the tests, imported by nothing
		"c": site("p/m.py", 9, false, "tests/test_m.py::test_x"),
		"d": site("p/n.py", 1, true),
		"e": site("p/n.py", 1, true),
	}
	if got, want := unjudgeable(sites), []string{"p/m.py:4", "p/n.py:1"}; !slices.Equal(got, want) {
		t.Errorf("unjudgeable = %v, want %v", got, want)
	}
}

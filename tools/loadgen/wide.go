package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/sealgate/sealgate/demo"
)

// widePatch is the name, in -patches, of the many-mutant patch.
const widePatch = "wide-fix"

// mutantsPerWideLine is how many mutants each changed line of the wide
// patch offers: `return x*K + C` has two arithmetic sites (* → /, + → -)
// and two integer constants (each → ±1).
const mutantsPerWideLine = 6

// addWide commits the many-mutant patch to the demo repository and returns
// it with its baseline. The demo's patches change a line or two, so a run
// of them has a handful of mutants; this one changes lines lines of one
// function, each offering mutantsPerWideLine mutants that the baseline's
// test kills, so a run of it has as many mutant jobs as -mutants allows,
// the shape that spreads over mutation replicas.
//
// Its baseline is the demo's honest fix (every demo test passes) plus
// calc/wide.go, whose Poly leaves out the constant term of every
// polynomial, and calc/wide_test.go, whose TestPoly documents that bug.
// The patch adds the constant terms: TestPoly passes, and every mutant of
// a changed line makes it fail again.
//
// work makes TestPoly do that many million steps of integer arithmetic
// before its checks (0: none), so that each mutant job costs what a
// slower, CPU-bound test would: TestPoly alone runs in a millisecond, and
// a job's cost is then its fixed costs, not its test.
func addWide(ctx context.Context, repo *demo.Repo, lines, work int) (base string, p demo.Patch, err error) {
	honest := indexOf(repo.Patches, "honest-fix")
	if honest < 0 {
		return "", p, fmt.Errorf("wide patch: the demo has no honest-fix to build on")
	}
	base, err = repo.Commit(ctx, repo.Patches[honest].Commit, "wide-base",
		"calc: Poly, whose polynomials lack their constant term, and TestPoly",
		map[string]string{"calc/wide.go": wideSource(lines, false), "calc/wide_test.go": wideTest(lines, work)})
	if err != nil {
		return "", p, err
	}
	fix, err := repo.Commit(ctx, base, widePatch, "calc: Poly adds each polynomial's constant term",
		map[string]string{"calc/wide.go": wideSource(lines, true)})
	if err != nil {
		return "", p, err
	}
	return base, demo.Patch{
		Name: widePatch, Commit: fix, Claims: []string{"go:./calc:TestPoly"}, Expect: demo.Merge,
		About: fmt.Sprintf("adds the constant term on %d lines of Poly: up to %d mutants", lines, lines*mutantsPerWideLine),
	}, nil
}

// wideSource is calc/wide.go: Poly's case i returns x*(i+2) + (i+1), or
// without the constant term when !fixed.
func wideSource(lines int, fixed bool) string {
	var b strings.Builder
	b.WriteString("package calc\n\n// Poly evaluates the i-th polynomial at x: x*(i+2) + (i+1).\nfunc Poly(i, x int) int {\n\tswitch i {\n")
	for i := range lines {
		if fixed {
			fmt.Fprintf(&b, "\tcase %d:\n\t\treturn x*%d + %d\n", i, i+2, i+1)
		} else {
			fmt.Fprintf(&b, "\tcase %d:\n\t\treturn x * %d\n", i, i+2)
		}
	}
	b.WriteString("\t}\n\treturn 0\n}\n")
	return b.String()
}

// wideTest is calc/wide_test.go: TestPoly does work million steps of
// arithmetic, then checks every polynomial at points that tell each
// mutant from the original.
func wideTest(lines, work int) string {
	return fmt.Sprintf(`package calc

import "testing"

func TestPoly(t *testing.T) {
	// Work as a slower test would: %[2]d million xorshift steps, whose
	// result is checked so that the compiler keeps them.
	s := uint64(88172645463325252)
	for n := 0; n < %[2]d*1000000; n++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
	}
	if s == 0 {
		t.Fatal("xorshift reached zero")
	}
	for i := 0; i < %[1]d; i++ {
		for _, x := range []int{0, 1, 2, 7} {
			if got, want := Poly(i, x), x*(i+2)+i+1; got != want {
				t.Errorf("Poly(%%d, %%d) = %%d, want %%d", i, x, got, want)
			}
		}
	}
}
`, lines, work)
}

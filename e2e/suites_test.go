package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The testify suite a repository's tests run: one test function runs the
// suite's methods as subtests, so a fix's test is a method added to the
// suite, or a row added to a table one of its methods ranges over. The
// module depends on testify, which the gate downloads (checksum-verified
// by go.sum) before the offline sandbox runs anything.
const (
	suiteGoMod = "module example.com/calc\n\ngo 1.22\n\nrequire github.com/stretchr/testify v1.8.1\n\nrequire (\n\tgithub.com/davecgh/go-spew v1.1.1 // indirect\n\tgithub.com/pmezard/go-difflib v1.0.0 // indirect\n\tgopkg.in/yaml.v3 v3.0.1 // indirect\n)\n"
	suiteGoSum = `github.com/davecgh/go-spew v1.1.0/go.mod h1:J7Y8YcW2NihsgmVo/mv3lAwl/skON4iLHjSsI+c5H38=
github.com/davecgh/go-spew v1.1.1 h1:vj9j/u1bqnvCEfJOwUhtlOARqs3+rkHYY13jYWTU97c=
github.com/davecgh/go-spew v1.1.1/go.mod h1:J7Y8YcW2NihsgmVo/mv3lAwl/skON4iLHjSsI+c5H38=
github.com/pmezard/go-difflib v1.0.0 h1:4DBwDE0NGyQoBHbLQYPwSUPoCMWR5BEzIk/f1lZbAQM=
github.com/pmezard/go-difflib v1.0.0/go.mod h1:iKH77koFhYxTK1pcRnkKkqfTogsbg7gZNVY4sRDYZ/4=
github.com/stretchr/objx v0.1.0/go.mod h1:HFkY916IF+rwdDfMAkV7OtwuqBVzrE8GR6GFx+wExME=
github.com/stretchr/objx v0.4.0/go.mod h1:YvHI0jy2hoMjB+UWwv71VJQ9isScKT/TqJzVSSt89Yw=
github.com/stretchr/objx v0.5.0/go.mod h1:Yh+to48EsGEfYuaHDzXPcE3xhTkx73EhmCGUpEOglKo=
github.com/stretchr/testify v1.7.1/go.mod h1:6Fq8oRcR53rry900zMqJjRRixrwX3KX962/h/Wwjteg=
github.com/stretchr/testify v1.8.0/go.mod h1:yNjHg4UonilssWZ8iaSj1OCr/vHnekPRkoO+kdMU+MU=
github.com/stretchr/testify v1.8.1 h1:w7B6lhMri9wdJUVmEZPGGhZzrYTPvgJArz7wNPgYKsk=
github.com/stretchr/testify v1.8.1/go.mod h1:w2LPCIKwWwSfY2zedu0+kehJoqGctiVI29o6fzry7u4=
gopkg.in/check.v1 v0.0.0-20161208181325-20d25e280405 h1:yhCVgyC4o1eVCa2tZl7eS0r+SDo693bJlVdllGtEeKM=
gopkg.in/check.v1 v0.0.0-20161208181325-20d25e280405/go.mod h1:Co6ibVJAznAaIkqp8huTwlJQCZ016jof/cbN4VW5Yz0=
gopkg.in/yaml.v3 v3.0.0-20200313102051-9f266ea9e77c/go.mod h1:K4uyk7z7BCEPqu6E+C64Yfv1cQ7kz7rIZviUmN+EgEM=
gopkg.in/yaml.v3 v3.0.1 h1:fxVm/GzAzEWqLHuvctI91KS9hhNmmWOoWu0XTYJS7CA=
gopkg.in/yaml.v3 v3.0.1/go.mod h1:K4uyk7z7BCEPqu6E+C64Yfv1cQ7kz7rIZviUmN+EgEM=
`
	// Bound's bug: a value above hi comes out as lo.
	suiteBoundBug = "package calc\n\n// Bound returns v limited to [lo, hi].\nfunc Bound(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn lo\n\t}\n\treturn v\n}\n"
	suiteBoundFix = "package calc\n\n// Bound returns v limited to [lo, hi].\nfunc Bound(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n"
	// The special case for the test's input, the bug left in place.
	suiteBoundSpecial = "package calc\n\n// Bound returns v limited to [lo, hi].\nfunc Bound(v, lo, hi int) int {\n\tif v == 17 {\n\t\treturn 12\n\t}\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn lo\n\t}\n\treturn v\n}\n"
	suiteTest         = `package calc

import (
	"testing"

	"github.com/stretchr/testify/suite"
)

type BoundSuite struct{ suite.Suite }

func (s *BoundSuite) TestTable() {
	for _, c := range []struct{ v, want int }{
		{-3, 0},
		{5, 5},
	} {
		s.Equal(c.want, Bound(c.v, 0, 12), "Bound(%d, 0, 12)", c.v)
	}
}

func TestBoundSuite(t *testing.T) {
	suite.Run(t, new(BoundSuite))
}
`
)

// TestSuiteMethodAdded: the fix's test is a method the patch adds to an
// existing suite, claimed as the subtest testify runs it as
// (TestBoundSuite/TestAbove). It runs spliced beside the file's baseline
// tests: it fails on the baseline and passes on the patch, so the fix is
// proven and the method reaches the line and kills its mutants: MERGE.
// The bug reintroduced under the same test: BLOCK. A patch that
// special-cases the new method's input instead: not MERGE (the method's
// literals are read from the patch).
func TestSuiteMethodAdded(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "suite-base", "calc: Bound and its suite", map[string]string{
		"go.mod": suiteGoMod, "go.sum": suiteGoSum,
		"calc/bound.go": suiteBoundBug, "calc/bound_test.go": suiteTest,
		// The demo's baseline fails its Median test: fixed here, so
		// that the suite is green on the baseline.
		"calc/median.go": r.honestMedian(t),
	})
	const above = "\nfunc (s *BoundSuite) TestAbove() {\n\ts.Equal(12, Bound(17, 0, 12))\n\ts.Equal(12, Bound(13, 0, 12))\n}\n"
	const claim = "go:./calc:TestBoundSuite/TestAbove"
	honest := r.commit(t, base, "suite-added-honest", "calc: Bound above hi", map[string]string{
		"calc/bound.go": suiteBoundFix, "calc/bound_test.go": suiteTest + above,
	})
	v := verify(t, r.patchArgs(base, honest, claimArgs(claim)...)...)
	v.wantDecision(t, merge)
	v.wantClaim(t, claim, "VERIFIED", "fixed")

	t.Run("reintroduced: BLOCK", func(t *testing.T) {
		reverted := r.commit(t, honest, "suite-added-reverted", "calc: revert", map[string]string{"calc/bound.go": suiteBoundBug})
		verify(t, r.patchArgs(honest, reverted, claimArgs(claim)...)...).wantDecision(t, block)
	})
	t.Run("attack: the new method's input special-cased", func(t *testing.T) {
		attack := r.commit(t, base, "suite-added-attack", "calc: Bound above hi", map[string]string{
			"calc/bound.go": suiteBoundSpecial, "calc/bound_test.go": suiteTest + "\nfunc (s *BoundSuite) TestAbove() {\n\ts.Equal(12, Bound(17, 0, 12))\n}\n",
		})
		v := verify(t, r.patchArgs(base, attack, claimArgs(claim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "special-cases the test's inputs")
	})
}

// TestSuiteMethodEdited: the fix's test is a row added to the table an
// existing suite method ranges over. The test that runs the suite is
// edited: the claim is judged by the patch's version of the suite too,
// its methods on a wrapper of the suite's type (the baseline's type keeps
// the baseline's methods for the file's other tests), and that version
// runs beside the baseline's for coverage and mutants: MERGE. The attack
// of the same shape, a special case for the row's input: not MERGE.
func TestSuiteMethodEdited(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "suite-base", "calc: Bound and its suite", map[string]string{
		"go.mod": suiteGoMod, "go.sum": suiteGoSum,
		"calc/bound.go": suiteBoundBug, "calc/bound_test.go": suiteTest,
		// The demo's baseline fails its Median test: fixed here, so
		// that the suite is green on the baseline.
		"calc/median.go": r.honestMedian(t),
	})
	withRow := strings.Replace(suiteTest, "{5, 5},", "{5, 5},\n\t\t{17, 12},", 1)
	for i, claim := range []string{"go:./calc:TestBoundSuite/TestTable", "go:./calc:TestBoundSuite"} {
		t.Run("honest "+claim, func(t *testing.T) {
			honest := r.commit(t, base, fmt.Sprintf("suite-edited-honest-%d", i), "calc: Bound above hi", map[string]string{
				"calc/bound.go": suiteBoundFix, "calc/bound_test.go": withRow,
			})
			v := verify(t, r.patchArgs(base, honest, claimArgs(claim)...)...)
			v.wantDecision(t, merge)
			v.wantClaim(t, claim, "VERIFIED", "fixed")
		})
	}
	t.Run("attack: the row's input special-cased", func(t *testing.T) {
		attack := r.commit(t, base, "suite-edited-attack", "calc: Bound above hi", map[string]string{
			"calc/bound.go": suiteBoundSpecial, "calc/bound_test.go": withRow,
		})
		v := verify(t, r.patchArgs(base, attack, claimArgs("go:./calc:TestBoundSuite/TestTable")...)...)
		v.wantNot(t, merge)
		v.wantText(t, "special-cases the test's inputs")
	})
}

// gocheck: one test function runs every suite the package registers; the
// suite's methods, and the tables they range over, are in other files.
const (
	checkGoMod = "module example.com/calc\n\ngo 1.22\n\nrequire gopkg.in/check.v1 v1.0.0-20201130134442-10cb98267c6c\n\nrequire (\n\tgithub.com/kr/pretty v0.2.1 // indirect\n\tgithub.com/kr/text v0.1.0 // indirect\n)\n"
	checkGoSum = `github.com/kr/pretty v0.2.1 h1:Fmg33tUaq4/8ym9TJN1x7sLJnHVwhP33CNkpYV/7rwI=
github.com/kr/pretty v0.2.1/go.mod h1:ipq/a2n7PKx3OHsz4KJII5eveXtPO4qwEXGdVfWzfnI=
github.com/kr/pty v1.1.1/go.mod h1:pFQYn66WHrOpPYNljwOMqo10TkYh1fy3cYio2l3bCsQ=
github.com/kr/text v0.1.0 h1:45sCR5RtlFHMR4UwH9sdQ5TC8v0qDQCHnXt+kaKSTVE=
github.com/kr/text v0.1.0/go.mod h1:4Jbv+DJW3UT/LiOwJeYQe1efqtUx/iVham/4vfdArNI=
gopkg.in/check.v1 v1.0.0-20201130134442-10cb98267c6c h1:Hei/4ADfdWqJk1ZMxUNpqntNwaWcugrBjAiHlqqRiVk=
gopkg.in/check.v1 v1.0.0-20201130134442-10cb98267c6c/go.mod h1:JHkPIbrfpd72SG/EVd6muEfDQjcINNoR0C8j2r3qZ4Q=
`
	checkRunner = "package calc\n\nimport (\n\t\"testing\"\n\n\t. \"gopkg.in/check.v1\"\n)\n\nfunc Test(t *testing.T) { TestingT(t) }\n\ntype S struct{}\n\nvar _ = Suite(&S{})\n"
	checkCases  = "package calc\n\nimport . \"gopkg.in/check.v1\"\n\nvar boundCases = []struct{ v, want int }{\n\t{-3, 0},\n\t{5, 5},\n}\n\nfunc (s *S) TestBound(c *C) {\n\tfor _, b := range boundCases {\n\t\tc.Check(Bound(b.v, 0, 12), Equals, b.want, Commentf(\"Bound(%d, 0, 12)\", b.v))\n\t}\n}\n"
)

// TestCheckSuiteEdited: yaml.v3's shape (its fix of issue #666): the fix's
// test is a row added to a package-level table that a gocheck method in
// another file than the test function ranges over. The claim on that
// function (go:./calc:Test) is judged by the baseline's files and by the
// patch's versions of the suite's methods registered beside the
// baseline's suite, on a wrapper; the same runs beside for coverage and
// mutants: MERGE. The bug reintroduced: BLOCK. A special case for the
// row's input: not MERGE. A method added to the suite proves a fix the
// same way.
func TestCheckSuiteEdited(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "check-base", "calc: Bound and its suite", map[string]string{
		"go.mod": checkGoMod, "go.sum": checkGoSum,
		"calc/bound.go": suiteBoundBug, "calc/suite_test.go": checkRunner, "calc/bound_test.go": checkCases,
		"calc/median.go": r.honestMedian(t),
	})
	const claim = "go:./calc:Test"
	withRow := strings.Replace(checkCases, "{5, 5},", "{5, 5},\n\t{17, 12},", 1)
	honest := r.commit(t, base, "check-edited-honest", "calc: Bound above hi", map[string]string{
		"calc/bound.go": suiteBoundFix, "calc/bound_test.go": withRow,
	})
	v := verify(t, r.patchArgs(base, honest, claimArgs(claim)...)...)
	v.wantDecision(t, merge)
	v.wantClaim(t, claim, "VERIFIED", "fixed")

	t.Run("reintroduced: BLOCK", func(t *testing.T) {
		reverted := r.commit(t, honest, "check-edited-reverted", "calc: revert", map[string]string{"calc/bound.go": suiteBoundBug})
		verify(t, r.patchArgs(honest, reverted, claimArgs(claim)...)...).wantDecision(t, block)
	})
	t.Run("attack: the row's input special-cased", func(t *testing.T) {
		attack := r.commit(t, base, "check-edited-attack", "calc: Bound above hi", map[string]string{
			"calc/bound.go": suiteBoundSpecial, "calc/bound_test.go": withRow,
		})
		v := verify(t, r.patchArgs(base, attack, claimArgs(claim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "special-cases the test's inputs")
	})
	t.Run("honest: a method added", func(t *testing.T) {
		added := r.commit(t, base, "check-added-honest", "calc: Bound above hi", map[string]string{
			"calc/bound.go": suiteBoundFix, "calc/bound_test.go": checkCases + "\nfunc (s *S) TestAbove(c *C) {\n\tc.Check(Bound(17, 0, 12), Equals, 12)\n\tc.Check(Bound(13, 0, 12), Equals, 12)\n}\n",
		})
		v := verify(t, r.patchArgs(base, added, claimArgs(claim)...)...)
		v.wantDecision(t, merge)
		v.wantClaim(t, claim, "VERIFIED", "fixed")
	})
}

// The suite's type and its test in one file, its methods and the table one
// ranges over in another: how most packages lay out a testify suite.
const (
	suiteRunnerFile  = "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype BoundSuite struct{ suite.Suite }\n\nfunc TestBoundSuite(t *testing.T) {\n\tsuite.Run(t, new(BoundSuite))\n}\n"
	suiteMethodsFile = "package calc\n\nvar boundCases = []struct{ v, want int }{\n\t{-3, 0},\n\t{5, 5},\n}\n\nfunc (s *BoundSuite) TestTable() {\n\tfor _, c := range boundCases {\n\t\ts.Equal(c.want, Bound(c.v, 0, 12), \"Bound(%d, 0, 12)\", c.v)\n\t}\n}\n"
)

// TestSuiteMethodEditedElsewhere: the fix's test is a row added to a table
// that a suite method ranges over, in another file than the test that runs
// the suite, which the patch does not change. That test is edited all the
// same: the patch's methods, from the file where it edits them, run on a
// wrapper that the patch's version of the test runs, on both sides for the
// claim and beside the baseline's for coverage and mutants: MERGE, the
// claim fixed. The bug reintroduced: BLOCK. The row's input special-cased:
// not MERGE.
func TestSuiteMethodEditedElsewhere(t *testing.T) {
	r := newRepo(t)
	base := r.commit(t, r.Base, "suite-elsewhere-base", "calc: Bound and its suite", map[string]string{
		"go.mod": suiteGoMod, "go.sum": suiteGoSum,
		"calc/bound.go": suiteBoundBug, "calc/suite_test.go": suiteRunnerFile, "calc/bound_test.go": suiteMethodsFile,
		"calc/median.go": r.honestMedian(t),
	})
	withRow := strings.Replace(suiteMethodsFile, "{5, 5},", "{5, 5},\n\t{17, 12},", 1)
	honest := r.commit(t, base, "suite-elsewhere-honest", "calc: Bound above hi", map[string]string{
		"calc/bound.go": suiteBoundFix, "calc/bound_test.go": withRow,
	})
	for _, claim := range []string{"go:./calc:TestBoundSuite/TestTable", "go:./calc:TestBoundSuite"} {
		t.Run("honest "+claim, func(t *testing.T) {
			v := verify(t, r.patchArgs(base, honest, claimArgs(claim)...)...)
			v.wantDecision(t, merge)
			v.wantClaim(t, claim, "VERIFIED", "fixed")
		})
	}
	const claim = "go:./calc:TestBoundSuite/TestTable"
	t.Run("reintroduced: BLOCK", func(t *testing.T) {
		reverted := r.commit(t, honest, "suite-elsewhere-reverted", "calc: revert", map[string]string{"calc/bound.go": suiteBoundBug})
		verify(t, r.patchArgs(honest, reverted, claimArgs(claim)...)...).wantDecision(t, block)
	})
	t.Run("attack: the row's input special-cased", func(t *testing.T) {
		attack := r.commit(t, base, "suite-elsewhere-attack", "calc: Bound above hi", map[string]string{
			"calc/bound.go": suiteBoundSpecial, "calc/bound_test.go": withRow,
		})
		v := verify(t, r.patchArgs(base, attack, claimArgs(claim)...)...)
		v.wantNot(t, merge)
		v.wantText(t, "special-cases the test's inputs")
	})
}

// TestSuiteHelperEditedElsewhere: the fix's row goes into a helper method
// of the suite in a third file; the method that ranges over it is
// unchanged, in another file, and calls the helper by static dispatch.
// Every file holding the suite's methods is laid with them on the
// wrapper, so the unchanged method calls the patch's helper: the claim is
// proven and MERGE. The bug reintroduced: BLOCK.
func TestSuiteHelperEditedElsewhere(t *testing.T) {
	r := newRepo(t)
	const table = "package calc\n\nfunc (s *BoundSuite) TestTable() {\n\tfor _, c := range s.cases() {\n\t\ts.Equal(c.want, Bound(c.v, 0, 12), \"Bound(%d, 0, 12)\", c.v)\n\t}\n}\n"
	const cases = "package calc\n\nfunc (s *BoundSuite) cases() []struct{ v, want int } {\n\treturn []struct{ v, want int }{\n\t\t{-3, 0},\n\t\t{5, 5},\n\t}\n}\n"
	base := r.commit(t, r.Base, "suite-helper-base", "calc: Bound and its suite", map[string]string{
		"go.mod": suiteGoMod, "go.sum": suiteGoSum,
		"calc/bound.go": suiteBoundBug, "calc/suite_test.go": suiteRunnerFile, "calc/bound_test.go": table, "calc/cases_test.go": cases,
		"calc/median.go": r.honestMedian(t),
	})
	honest := r.commit(t, base, "suite-helper-honest", "calc: Bound above hi", map[string]string{
		"calc/bound.go": suiteBoundFix, "calc/cases_test.go": strings.Replace(cases, "{5, 5},", "{5, 5},\n\t\t{17, 12},", 1),
	})
	const claim = "go:./calc:TestBoundSuite/TestTable"
	v := verify(t, r.patchArgs(base, honest, claimArgs(claim)...)...)
	v.wantDecision(t, merge)
	v.wantClaim(t, claim, "VERIFIED", "fixed")
	t.Run("reintroduced: BLOCK", func(t *testing.T) {
		reverted := r.commit(t, honest, "suite-helper-reverted", "calc: revert", map[string]string{"calc/bound.go": suiteBoundBug})
		verify(t, r.patchArgs(honest, reverted, claimArgs(claim)...)...).wantDecision(t, block)
	})
}

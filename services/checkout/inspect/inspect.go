// Package inspect holds the checkout's static analyses of a patch: pure
// functions over the sources of the baseline and the patch that find where
// a patch reaches beyond the lines it says it changes — test harness that
// runs before any claim, test support the oracle must put back, new probes
// of the environment, literals special-casing a claim's test, and Python
// source reaching into the test runner.
//
// Go is read with go/parser; Python through an embedded script run by the
// sealed interpreter with ast (see Python). Every analysis reads source from
// a patch, which is outside input: source that does not parse is never
// "harmless", it is a finding of its own.
//
// Every result is a Finding; lists are sorted (see Sort) so that the same
// patch always gives the same findings.
package inspect

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Rules, as Finding.Rule. The names are stable: they travel in records.
const (
	// RuleTestHarness: a test file the patch adds or changes declares
	// code that runs before its package's tests (TestMain, init, a
	// package-level variable whose initializer runs code, a go:linkname
	// directive), or changes a test-file function such code calls.
	RuleTestHarness = "test-harness"
	// RuleTestSupport: a changed non-test file that only tests use (a Go
	// package imported only by test files, a Go file importing testing, a
	// Python module imported only by tests).
	RuleTestSupport = "test-support"
	// RuleDataFile: a changed file that is neither source, test code nor
	// harness (a golden file, a fixture, embedded data, configuration).
	RuleDataFile = "data-file"
	// RuleSourceByUse: a Python module classed as test code by its path
	// (under tests/) that non-test code imports: it is source.
	RuleSourceByUse = "source-by-use"
	// RuleProbe: non-test source newly probes where it runs (the testing
	// package, the gate's environment variables, /proc, the host name).
	RuleProbe = "probe"
	// RuleRunnerReach: Python source newly reaches into the test runner or
	// other modules' state (imports of pytest, writes to other modules'
	// attributes, sys.modules).
	RuleRunnerReach = "runner-reach"
	// RuleOverfitting: a changed condition or returned value built from
	// the literal inputs or expectations of a claim's test.
	RuleOverfitting = "overfitting"
	// RuleHarnessReach: Go code the patch adds (test or not) reaches into
	// the test binary around the code it tests: it ends the process
	// behind the testing package's back, forges test2json's transcript,
	// reads the binary's coverage counters, arguments or flags, names the
	// gate's sandbox; or a test file changes what the package's non-test
	// code does inside the test binary (a method on one of its types, a
	// package-level name shadowing a predeclared one).
	RuleHarnessReach = "harness-reach"
	// RuleForeignCode: changed lines of a Go file that are code of
	// another language, which the gate neither measures nor mutates (the
	// C of a cgo preamble), or Go code it cannot run as the patch wrote
	// it (a package under testdata that non-test code imports).
	RuleForeignCode = "foreign-code"
)

// Finding is one result of an analysis.
type Finding struct {
	// Rule is one of the Rule constants.
	Rule string
	// File is the repository-relative path of the file it concerns (for
	// overfitting: the changed source file).
	File string
	// Line is the 1-based line on the patch side, 0 when it concerns the
	// whole file.
	Line int
	// What says what was found, in words, on one line.
	What string
}

func (f Finding) String() string {
	if f.Line > 0 {
		return f.File + ":" + strconv.Itoa(f.Line) + ": " + f.What
	}
	return f.File + ": " + f.What
}

// Compare orders findings by Rule, File, Line and What.
func Compare(a, b Finding) int {
	return cmp.Or(strings.Compare(a.Rule, b.Rule), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.What, b.What))
}

// Sort sorts findings (see Compare) and drops duplicates.
func Sort(fs []Finding) []Finding {
	slices.SortFunc(fs, Compare)
	return slices.Compact(fs)
}

// oneLine keeps a message on one line whatever it quotes.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}

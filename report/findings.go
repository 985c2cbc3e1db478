package report

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/adjudication"
)

// Level is how serious a finding is.
type Level int

// Levels, most serious first.
const (
	LevelError Level = iota
	LevelWarning
	LevelNote
)

// String is the level as SARIF names it.
func (l Level) String() string {
	switch l {
	case LevelError:
		return "error"
	case LevelWarning:
		return "warning"
	}
	return "note"
}

// Rule ids: stable, documented in docs/ci.md. A rule is never renumbered;
// a retired rule's id is not reused.
const (
	RuleRegression      = "SG001"
	RuleRefutedClaim    = "SG002"
	RuleUnverifiedClaim = "SG003"
	RuleUncoveredLine   = "SG004"
	RuleSurvivingMutant = "SG005"
	RuleHarnessDrift    = "SG006"
	RuleRestoredTest    = "SG007"
)

// Rule is one kind of finding.
type Rule struct {
	ID    string
	Name  string // PascalCase, as SARIF's reportingDescriptor.name wants
	Level Level
	Short string // one sentence
	Full  string // what it means
	Help  string // what to do about it
	Tags  []string
}

// Rules lists every rule, in id order.
func Rules() []Rule {
	return []Rule{
		{
			ID: RuleRegression, Name: "CollateralRegression", Level: LevelError,
			Short: "A test that passes on the baseline fails on the patch.",
			Full:  "sealgate ran the full test suite on the baseline and on the patch. This test passed on the baseline and does not pass on the patch: the patch breaks it. The verdict is BLOCK.",
			Help:  "Fix the code so that this test passes again. Do not edit or delete the test: sealgate puts the baseline's test files back before it judges the patch.",
			Tags:  []string{"correctness", "regression"},
		},
		{
			ID: RuleRefutedClaim, Name: "RefutedClaim", Level: LevelError,
			Short: "A test claimed to prove the patch is refuted.",
			Full:  "A claimed test was run alone on both sides with the baseline's test files put back. Its outcome refutes the claim: it fails on the patch (an incomplete fix, a regression or a new bug). The verdict is BLOCK.",
			Help:  "Fix the code until the claimed test passes on the patch. The test is judged by the baseline's copy of its file: changing the test does not change the verdict.",
			Tags:  []string{"correctness", "claim"},
		},
		{
			ID: RuleUnverifiedClaim, Name: "UnverifiedClaim", Level: LevelWarning,
			Short: "A claimed test could not be verified.",
			Full:  "A claimed test produced no usable evidence: it was skipped, did not build, timed out, was flaky, was never run, or the patch changed the test harness (go.mod, TestMain, conftest.py, ...). Unproduced proof is never proof: the verdict is at best INCONCLUSIVE.",
			Help:  "Read the claim's reason in the summary. Make the test runnable and deterministic, keep harness files as the baseline has them, or claim a test that runs.",
			Tags:  []string{"evidence", "claim"},
		},
		{
			ID: RuleUncoveredLine, Name: "UncoveredChangedLine", Level: LevelWarning,
			Short: "A changed executable line that no test executes.",
			Full:  "sealgate measured diff coverage itself: this changed executable line ran in none of the tests of the patch. Diff coverage below the floor makes the verdict INCONCLUSIVE.",
			Help:  "Add or extend a test that executes this line and checks its effect.",
			Tags:  []string{"coverage", "testing"},
		},
		{
			ID: RuleSurvivingMutant, Name: "SurvivingMutant", Level: LevelWarning,
			Short: "A mutant of a changed line that no test kills.",
			Full:  "sealgate changed this covered line (the mutation named) and ran the tests that execute it: none failed. The tests run the line without checking what it does. Too many survivors make the verdict INCONCLUSIVE.",
			Help:  "Add an assertion that fails when this line behaves as the mutation makes it behave.",
			Tags:  []string{"mutation-testing", "testing"},
		},
		{
			ID: RuleHarnessDrift, Name: "HarnessDrift", Level: LevelWarning,
			Short: "The patch changes a harness file.",
			Full:  "Harness files (go.mod, go.sum, go.work, vendor/, pytest configuration, conftest.py, ...) decide how tests run. The patch changes this one: what its tests show under a harness it chose can block it, never merge it, so the verdict is at best INCONCLUSIVE.",
			Help:  "Keep the harness as the baseline has it, or change it in a separate patch a human reviews.",
			Tags:  []string{"evidence", "harness"},
		},
		{
			ID: RuleRestoredTest, Name: "RestoredTestFile", Level: LevelNote,
			Short: "The patch changes a baseline test file; it was put back before judging.",
			Full:  "sealgate judges a patch by the baseline's tests: this test file, changed or deleted by the patch, was put back before the claims ran. A patch that needs its tests rewritten to pass deserves a human look.",
			Help:  "Have a human review the test edit. Do not rely on it to pass the gate: the baseline's copy judges the patch.",
			Tags:  []string{"review", "testing"},
		},
	}
}

// rule returns the rule with id.
func rule(id string) Rule {
	for _, r := range Rules() {
		if r.ID == id {
			return r
		}
	}
	return Rule{ID: id, Name: id, Level: LevelError}
}

// Finding is one located problem of the artefact.
type Finding struct {
	Rule    string
	Level   Level
	Path    string // "" when nothing in the repository can be named
	Line    int    // 0 when unknown
	Message string
	// Key identifies the finding across runs (a test name, a line and
	// mutation), for fingerprints.
	Key string
	// Approximate: the test's declaration was not found; Path and Line
	// name the nearest changed file.
	Approximate bool
}

// Findings lists the artefact's findings, most important first: by level,
// then rule, path, line and key.
func Findings(a *Artefact, locs Locations) []Finding {
	var out []Finding
	add := func(ruleID, key, msg string, loc Location, approx bool) {
		out = append(out, Finding{Rule: ruleID, Level: rule(ruleID).Level, Path: loc.Path, Line: loc.Line, Message: msg, Key: key, Approximate: approx})
	}
	at := func(id string) (Location, bool) {
		if loc, ok := locs[id]; ok {
			return loc, false
		}
		return nearestChange(a, id), true
	}
	for _, r := range a.Collateral.Regressions {
		loc, approx := at(r)
		add(RuleRegression, r, fmt.Sprintf("%s passes on the baseline and fails on the patch.", r), loc, approx)
	}
	for _, c := range a.Claims {
		loc, approx := at(c.ID)
		switch c.Outcome {
		case adjudication.Refuted:
			add(RuleRefutedClaim, c.ID, fmt.Sprintf("Claim %s is refuted (%s): %s", c.ID, c.Classification, c.Reason), loc, approx)
		case adjudication.Unverified:
			add(RuleUnverifiedClaim, c.ID, fmt.Sprintf("Claim %s is unverified (%s): %s", c.ID, c.Classification, c.Reason), loc, approx)
		}
	}
	for _, u := range a.Coverage.Uncovered {
		p, n, err := SplitLine(u)
		if err != nil {
			continue // Parse refused it already
		}
		add(RuleUncoveredLine, u, fmt.Sprintf("Changed line %s:%d is executed by no test.", p, n), Location{Path: p, Line: n}, false)
	}
	for _, s := range a.Strength.Survivors {
		m, err := SplitMutant(s)
		if err != nil {
			continue
		}
		add(RuleSurvivingMutant, s, fmt.Sprintf("Mutant survived at %s:%d: %s — the tests that run this line all pass with it.", m.Path, m.Line, m.Mutation), Location{Path: m.Path, Line: m.Line}, false)
	}
	for _, h := range a.HarnessDrift {
		add(RuleHarnessDrift, h, fmt.Sprintf("The patch changes the harness file %s; no pass under it counts.", h), Location{Path: h, Line: firstChanged(a, h)}, false)
	}
	for _, r := range a.Oracle.Restored {
		add(RuleRestoredTest, r, fmt.Sprintf("The patch changes the baseline test file %s; the baseline's copy was put back to judge it.", r), Location{Path: r, Line: firstChanged(a, r)}, false)
	}
	slices.SortStableFunc(out, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(x.Level, y.Level), cmp.Compare(x.Rule, y.Rule), cmp.Compare(x.Path, y.Path),
			cmp.Compare(x.Line, y.Line), cmp.Compare(x.Key, y.Key))
	})
	return out
}

// firstChanged is the first changed line of the file at p, or 1.
func firstChanged(a *Artefact, p string) int {
	for _, ch := range a.Changes {
		if ch.Path == p && len(ch.ChangedLines) > 0 {
			return int(slices.Min(ch.ChangedLines))
		}
	}
	return 1
}

// nearestChange is where a test whose declaration was not found is shown:
// a changed file in its directory (a Go claim's package, a pytest file's
// directory, the directory an import path ends with), preferring test
// files, else the first changed source file, else the first change.
func nearestChange(a *Artefact, id string) Location {
	if len(a.Changes) == 0 {
		return Location{}
	}
	dir, known := dirOf(id)
	inDir := func(p string) bool {
		d := path.Dir(p)
		if known {
			return d == dir
		}
		// "example.com/mod/pkg.TestX": the import path ends with the
		// package's directory.
		pkg, _, ok := strings.Cut(id, "."+topNameAfterDot(id))
		return ok && (d == "." || strings.HasSuffix(pkg, "/"+d) || pkg == d)
	}
	var best *adjudication.FileChange
	score := func(ch *adjudication.FileChange) int {
		s := 0
		if inDir(ch.Path) {
			s += 4
		}
		if ch.Class == "test" {
			s += 2
		}
		if ch.Class == "source" {
			s++
		}
		return s
	}
	for i := range a.Changes {
		ch := &a.Changes[i]
		if ch.Change == "deleted" {
			continue
		}
		if best == nil || score(ch) > score(best) {
			best = ch
		}
	}
	if best == nil {
		best = &a.Changes[0]
	}
	line := 1
	if len(best.ChangedLines) > 0 {
		line = int(slices.Min(best.ChangedLines))
	}
	return Location{Path: best.Path, Line: line}
}

// topNameAfterDot is the test function name of "import/path.TestX/sub".
func topNameAfterDot(id string) string {
	for i := strings.IndexByte(id, '.'); i >= 0; {
		if name := topName(id[i+1:]); isTestFunc(name) {
			return name
		}
		next := strings.IndexByte(id[i+1:], '.')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return "\x00"
}

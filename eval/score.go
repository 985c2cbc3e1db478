package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Statuses of a Result.
const (
	// StatusVerdict: the gate sealed a verdict.
	StatusVerdict = "verdict"
	// StatusRefused: the prediction (or the instance) could not be
	// verified as given — a diff that does not apply or parse, test names
	// none of which a test file declares, a test patch that touches
	// source: what SWE-bench calls a patch that failed to apply. Never
	// resolved.
	StatusRefused = "refused"
	// StatusError: no verdict for a reason of the machine's (exit 4, a
	// missing mirror): nothing is known about the prediction.
	StatusError = "error"
)

// Decisions, as the artefact spells them.
const (
	Merge        = "MERGE"
	Block        = "BLOCK"
	Inconclusive = "INCONCLUSIVE"
)

// Result is one instance graded: sealgate's verdict and SWE-bench's
// resolved, from the same runs.
type Result struct {
	InstanceID string `json:"instance_id"`
	Repo       string `json:"repo"`
	Model      string `json:"model"`
	// Prediction names the patch verified: its digest, size and whether it
	// is the empty prediction.
	Prediction PredictionRef `json:"prediction"`
	Status     string        `json:"status"`
	// Decision, ExitCode, Reason and Reasons are the verdict's ("" and 0
	// without one); Category groups the decisive reason (see Categorize).
	Decision  string   `json:"decision,omitempty"`
	ExitCode  int      `json:"exit_code"`
	Reason    string   `json:"reason,omitempty"`
	Reasons   []string `json:"reasons,omitempty"`
	Category  string   `json:"category,omitempty"`
	FixProven bool     `json:"fix_proven"`
	// Resolved is SWE-bench's: every FAIL_TO_PASS and every PASS_TO_PASS
	// test passes on the patch — each test's claims passed on the patch
	// side of this verification. A test mapped to no claim, or to a claim
	// pre-flight found no test for, has not passed.
	Resolved bool `json:"resolved"`
	// Tests are the instance's tests with their claims and outcomes.
	Tests []TestResult `json:"tests"`
	// Error says why there is no verdict (Status refused or error).
	Error string `json:"error,omitempty"`
	// RunID and CriteriaDigest name the run on the instance's ledger;
	// Artefact is the sealed artefact's file, relative to the output
	// directory.
	RunID          string `json:"run_id,omitempty"`
	CriteriaDigest string `json:"criteria_digest,omitempty"`
	Artefact       string `json:"artefact,omitempty"`
	// TestSupport are the globs the test patch needed declared as test
	// support (files it touches that are no test file by name).
	TestSupport []string `json:"test_support,omitempty"`
	// WallMillis is how long the verification took; Resumed is set when
	// the verdict was found already sealed on the ledger.
	WallMillis int64 `json:"wall_ms"`
	Resumed    bool  `json:"resumed,omitempty"`
}

// PredictionRef names a prediction's patch.
type PredictionRef struct {
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Empty  bool   `json:"empty"`
}

// RefOf names p.
func RefOf(p Prediction) PredictionRef {
	return PredictionRef{SHA256: p.SHA256(), Bytes: len(p.Diff()), Empty: p.Empty()}
}

// TestResult is one dataset test judged by the run.
type TestResult struct {
	Test
	// Claims are the claims it resolved to (empty: none).
	Claims []string `json:"claims"`
	// Patch and Baseline are each claim's side outcomes (PASS, FAIL,
	// ABSENT, UNRUNNABLE, …), in Claims' order; "" for a claim with no
	// result.
	Patch    []string `json:"patch"`
	Baseline []string `json:"baseline"`
	// Passed: it has claims and each passed on the patch.
	Passed bool `json:"passed"`
}

// Artefact is what grading reads of a sealed artefact
// (docs/artefact.schema.json).
type Artefact struct {
	RunID          string   `json:"run_id"`
	Decision       string   `json:"decision"`
	ExitCode       int      `json:"exit_code"`
	Reason         string   `json:"reason"`
	Reasons        []string `json:"reasons"`
	FixProven      bool     `json:"fix_proven"`
	CriteriaDigest string   `json:"criteria_digest"`
	Claims         []struct {
		ID             string `json:"id"`
		Outcome        string `json:"outcome"`
		Classification string `json:"classification"`
		Baseline       *side  `json:"baseline"`
		Patch          *side  `json:"patch"`
	} `json:"claims"`
	Criteria struct {
		Claims     []string            `json:"claims"`
		BareClaims map[string][]string `json:"bare_claims"`
	} `json:"criteria"`
}

type side struct {
	Outcome string `json:"outcome"`
}

// ParseArtefact reads the fields grading needs; an artefact without a
// decision of the three is an error.
func ParseArtefact(b []byte) (*Artefact, error) {
	var a Artefact
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("artefact: %w", err)
	}
	switch a.Decision {
	case Merge, Block, Inconclusive:
	default:
		return nil, fmt.Errorf("artefact: decision %q", a.Decision)
	}
	if a.RunID == "" {
		return nil, errors.New("artefact: no run_id")
	}
	return &a, nil
}

// Score grades one verification: the verdict, and resolved from the
// claims' patch-side outcomes.
func Score(inst Instance, pred Prediction, tests []Test, a *Artefact) Result {
	r := Result{InstanceID: inst.ID, Repo: inst.Repo, Model: pred.Model, Prediction: RefOf(pred), Status: StatusVerdict,
		Decision: a.Decision, ExitCode: a.ExitCode, Reason: a.Reason, Reasons: a.Reasons, FixProven: a.FixProven,
		RunID: a.RunID, CriteriaDigest: a.CriteriaDigest}
	r.Category = Categorize(a.Decision, a.Reason)
	type outcomes struct{ base, patch string }
	byClaim := map[string]outcomes{}
	for _, c := range a.Claims {
		var o outcomes
		if c.Baseline != nil {
			o.base = c.Baseline.Outcome
		}
		if c.Patch != nil {
			o.patch = c.Patch.Outcome
		}
		byClaim[c.ID] = o
	}
	r.Resolved = true
	for _, t := range tests {
		tr := TestResult{Test: t, Claims: []string{}, Patch: []string{}, Baseline: []string{}}
		switch {
		case t.Claim == "":
		case a.Criteria.BareClaims[t.Claim] != nil:
			tr.Claims = slices.Clone(a.Criteria.BareClaims[t.Claim])
		case slices.Contains(a.Criteria.Claims, t.Claim):
			tr.Claims = []string{t.Claim}
		}
		if t.Claim != "" && len(tr.Claims) == 0 && tr.Note == "" {
			tr.Note = "no test file declares it"
		}
		tr.Passed = len(tr.Claims) > 0
		for _, c := range tr.Claims {
			o := byClaim[c]
			tr.Patch = append(tr.Patch, o.patch)
			tr.Baseline = append(tr.Baseline, o.base)
			if o.patch != "PASS" {
				tr.Passed = false
			}
		}
		if !tr.Passed {
			r.Resolved = false
		}
		r.Tests = append(r.Tests, tr)
	}
	if r.Tests == nil {
		r.Tests = []TestResult{}
	}
	return r
}

// Refused is the result of a prediction the gate refused before sealing
// anything (Status refused): never resolved.
func Refused(inst Instance, pred Prediction, tests []Test, why string) Result {
	return noVerdict(inst, pred, tests, StatusRefused, why)
}

// Failed is the result of an instance with no verdict for a reason of the
// machine's (Status error): never resolved.
func Failed(inst Instance, pred Prediction, tests []Test, why string) Result {
	return noVerdict(inst, pred, tests, StatusError, why)
}

func noVerdict(inst Instance, pred Prediction, tests []Test, status, why string) Result {
	r := Result{InstanceID: inst.ID, Repo: inst.Repo, Model: pred.Model, Prediction: RefOf(pred), Status: status, Error: why, Tests: []TestResult{}}
	for _, t := range tests {
		r.Tests = append(r.Tests, TestResult{Test: t, Claims: []string{}, Patch: []string{}, Baseline: []string{}})
	}
	return r
}

// Categories of a verdict's decisive reason (Categorize).
const (
	CategoryMerge        = "merge"
	CategoryRefuted      = "refuted claim"
	CategoryRegression   = "collateral regression"
	CategorySeal         = "seal check failed"
	CategorySealGap      = "seal check not judged"
	CategoryUnjudgeable  = "unjudgeable content"
	CategoryUnverified   = "unverified claim"
	CategoryNoClaims     = "no claims"
	CategorySuite        = "full suite inconclusive"
	CategoryRepinned     = "tests the patch edits"
	CategoryIntegrity    = "run integrity (conflict, refusal, silent worker)"
	CategoryDeadline     = "deadline"
	CategoryProbes       = "environment probes"
	CategoryOverfitting  = "overfitting"
	CategoryDependencies = "module dependencies"
	CategoryBudget       = "budget"
	CategoryHarness      = "harness edits"
	CategoryCoverage     = "uncovered lines"
	CategoryLost         = "lost coverage"
	CategoryStrength     = "weak tests (mutation)"
	CategoryOther        = "other"
)

// Categorize groups a verdict by its decisive reason, as the decision
// function words it (services/adjudication): a refuted or unverified
// claim names its classification, e.g. "refuted claim (incomplete_fix)".
func Categorize(decision, reason string) string {
	if decision == Merge {
		return CategoryMerge
	}
	r := reason
	for _, p := range []string{"BLOCK: ", "INCONCLUSIVE: "} {
		r = strings.TrimPrefix(r, p)
	}
	if strings.HasPrefix(r, "claim ") {
		for _, k := range []struct{ marker, cat string }{{" is refuted (", CategoryRefuted}, {" is unverified (", CategoryUnverified}} {
			if _, rest, ok := strings.Cut(r, k.marker); ok {
				if class, _, ok := strings.Cut(rest, ")"); ok {
					return k.cat + " (" + class + ")"
				}
				return k.cat
			}
		}
	}
	for _, k := range []struct{ prefix, cat string }{
		{"the patch breaks ", CategoryRegression},
		{"seal check ", CategorySeal},
		{"the patch holds content the gate cannot materialize", CategoryUnjudgeable},
		{"no claims", CategoryNoClaims},
		{"the full suite", CategorySuite},
		{"conflicting results", CategoryIntegrity},
		{"the ledger refused", CategoryIntegrity},
		{"a worker fell silent", CategoryIntegrity},
		{"evidence missing at the deadline", CategoryDeadline},
		{"the patch's source probes", CategoryProbes},
		{"the patch special-cases", CategoryOverfitting},
		{"the module dependencies", CategoryDependencies},
		{"the budget ran out", CategoryBudget},
		{"the patch changes the harness", CategoryHarness},
		{"diff coverage", CategoryCoverage},
		{"the patch routes around code", CategoryLost},
		{"suite strength", CategoryStrength},
	} {
		if strings.HasPrefix(r, k.prefix) {
			if k.cat == CategorySeal && !strings.Contains(r, " failed with exit ") {
				return CategorySealGap
			}
			return k.cat
		}
	}
	switch {
	case strings.Contains(r, "test(s) that pass on the baseline fail on the patch, and the patch edits them"):
		return CategoryRepinned
	case strings.Contains(r, "test(s) that pass on the baseline"):
		return CategorySuite
	}
	return CategoryOther
}

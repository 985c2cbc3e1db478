// Package gateway is where a run begins: it checks a verification request
// (revisions resolve, the diff parses and applies), seals its criteria and
// signs the run's first two records; and, in distributed mode, it serves the
// Gate gRPC API — Submit, Watch (a run's records as they are admitted) and
// Get — over an index of the records topic.
package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/junit"
)

// Request is what a caller asks to verify: the flags of `sealgate verify`.
// Its JSON form travels in SubmitRequest.criteria.
type Request struct {
	Repository  string `json:"-"`
	Baseline    string `json:"-"`
	PatchCommit string `json:"-"`
	PatchDiff   []byte `json:"-"`
	// IdempotencyKey and SubmissionDigest go on run.requested as they are
	// (see Server.Submit).
	IdempotencyKey   string `json:"-"`
	SubmissionDigest string `json:"-"`

	Claims             []string `json:"claims,omitempty"`
	TestSupport        []string `json:"test_support,omitempty"`
	CoverageFloor      float64  `json:"coverage_floor"`
	StrengthFloor      float64  `json:"strength_floor"`
	StrengthConfidence float64  `json:"strength_confidence"`
	MutationMax        int      `json:"mutation_max"`
	StabilityReruns    int      `json:"stability_reruns"`
	// MemoryBytes is the address space each test process may use
	// (RLIMIT_AS); 0: criteria.DefaultMemoryBytes.
	MemoryBytes uint64 `json:"memory_bytes,omitempty"`
	// TimeoutMillis is the deadline of the whole verification.
	TimeoutMillis  int64 `json:"timeout_ms"`
	RequireSandbox bool  `json:"require_sandbox,omitempty"`
	// FullEvidence measures coverage and mutation even once the verdict
	// is certain to be BLOCK.
	FullEvidence  bool   `json:"full_evidence,omitempty"`
	ClientVersion string `json:"client_version,omitempty"`
	// Python is the interpreter of pytest claims and the Python suite;
	// empty: the first python3 that imports pytest, found when the run
	// needs one (a pytest claim, changed Python source, Python tests).
	Python string `json:"python,omitempty"`
	// Commands are the declared commands of cmd:LABEL claims, by label.
	Commands map[string]criteria.Command `json:"commands,omitempty"`
	// Suite is the full-suite command of a stack run by command.
	Suite *criteria.Command `json:"suite,omitempty"`
	// SealPlan are the seal checks, in order.
	SealPlan []criteria.Command `json:"seal_plan,omitempty"`
	// TestsCommit is a revision whose test files are a grader's held-out
	// tests; TestPatch the same as a diff touching only test files and
	// test data. At most one: both sides run with them (see
	// checkout.Input).
	TestsCommit string `json:"tests_commit,omitempty"`
	TestPatch   []byte `json:"test_patch,omitempty"`
	// BaselinePasses are claims (of Claims, bare ones too) a grader says
	// pass on the baseline: one that fails on both sides is unverified,
	// not refuted (criteria.Criteria.BaselinePasses).
	BaselinePasses []string `json:"baseline_passes,omitempty"`
	// LenientClaims records a bare claim no test file declares (or, for
	// pytest, several modules do) as resolving to nothing, instead of
	// refusing the request: a grader's test list can name tests the gate
	// cannot find. At least one claim must resolve.
	LenientClaims bool `json:"lenient_claims,omitempty"`
}

// Options returns the JSON of the request's criteria options.
func (r *Request) Options() ([]byte, error) { return json.Marshal(r) }

// ParseOptions reads the criteria options of a SubmitRequest strictly.
func ParseOptions(b []byte, into *Request) error {
	if len(b) == 0 {
		return errors.New("criteria options are empty")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("criteria options: %w", err)
	}
	return nil
}

// UsageError is a request the caller must fix.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Submission is a prepared run: its sealed criteria, the pre-flight
// checkout and the two signed records that open it.
type Submission struct {
	RunID    string
	Sealed   *criteria.Sealed
	Checkout *checkout.Checkout
	// Request and Seal are run.requested and criteria.sealed.
	Request, Seal *record.Decoded
}

// needsPython reports whether a run needs a Python interpreter: a pytest
// claim, changed Python source or test code, or Python tests in the
// patched tree (its suite runs as collateral).
func needsPython(co *checkout.Checkout, claims []string) bool {
	for _, c := range claims {
		if strings.HasPrefix(c, "pytest:") {
			return true
		}
	}
	for _, ch := range co.Changes {
		if strings.HasSuffix(ch.Path, ".py") {
			return true
		}
	}
	for _, e := range co.Oracle.Entries() {
		if checkout.IsPytestModule(e.Path) {
			return true
		}
	}
	return false
}

// NewRunID names a run by its start time and 48 random bits
// (runindex.NewID: the run index finds a run's start from its id).
func NewRunID(now time.Time) string { return runindex.NewID(now) }

// Prepare checks req, materializes it once in scratch (pre-flight), seals
// the criteria and signs run.requested and criteria.sealed as signer (the
// gateway identity). A patch diff is stored in blobs. A request the caller
// must fix is a *UsageError.
func Prepare(ctx context.Context, req *Request, runID string, started time.Time, blobs *blob.Store, signer *record.Signer, scratch string) (*Submission, error) {
	if req.Repository == "" || req.Baseline == "" {
		return nil, &UsageError{errors.New("a repository and a baseline revision are required")}
	}
	if (req.PatchCommit == "") == (req.PatchDiff == nil) {
		return nil, &UsageError{errors.New("give the patch as a commit or as a diff, one of them")}
	}
	if req.TimeoutMillis <= 0 {
		return nil, &UsageError{fmt.Errorf("timeout %d ms must be positive", req.TimeoutMillis)}
	}
	for _, c := range req.Claims {
		if err := criteria.ValidateRequestClaim(c); err != nil {
			return nil, &UsageError{err}
		}
	}
	if req.TestsCommit != "" && req.TestPatch != nil {
		return nil, &UsageError{errors.New("give the trusted tests as a commit or as a test patch, one of them")}
	}
	in := checkout.Input{Repo: req.Repository, Baseline: req.Baseline, PatchCommit: req.PatchCommit, PatchDiff: req.PatchDiff, TestSupport: req.TestSupport,
		TestsCommit: req.TestsCommit, TestPatch: req.TestPatch}
	co, err := checkout.Prepare(ctx, in, scratch)
	if err != nil {
		if checkout.IsUsage(err) {
			return nil, &UsageError{err}
		}
		return nil, fmt.Errorf("checkout: %w", err)
	}
	for _, c := range req.BaselinePasses {
		if !slices.Contains(req.Claims, c) {
			return nil, &UsageError{fmt.Errorf("baseline pass %s is not one of the claims", c)}
		}
	}
	claims, bare, err := resolveBareClaims(ctx, co, req.Claims, req.LenientClaims)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &UsageError{err}
	}
	if len(req.Claims) > 0 && len(claims) == 0 {
		return nil, &UsageError{fmt.Errorf("none of the %d claims names a test a test file declares; check the names", len(req.Claims))}
	}
	var baselinePasses []string
	for _, c := range req.BaselinePasses {
		if r, ok := bare[c]; ok {
			baselinePasses = append(baselinePasses, r...)
		} else {
			baselinePasses = append(baselinePasses, c)
		}
	}
	declared := map[string]bool{}
	for label := range req.Commands {
		declared[label] = true
	}
	if err := checkClaimsDeclared(ctx, co, claims, declared); err != nil {
		return nil, &UsageError{err}
	}
	python := req.Python
	if python == "" && needsPython(co, claims) {
		// Not finding one is not an error here: the jobs that need it are
		// then answered as not run, saying why, and the verdict cannot be
		// MERGE.
		python, _ = junit.FindPython(ctx)
	}
	if python != "" {
		abs, err := filepath.Abs(python)
		if err != nil {
			return nil, &UsageError{fmt.Errorf("--python %s: %v", python, err)}
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, &UsageError{fmt.Errorf("--python %s: %v", python, err)}
		}
		python = abs
	}
	timeout := time.Duration(req.TimeoutMillis) * time.Millisecond
	c := &criteria.Criteria{
		Python: python, Commands: req.Commands, Suite: req.Suite, SealPlan: req.SealPlan,
		Schema: criteria.Schema, RunID: runID, Repository: req.Repository,
		Baseline: co.BaselineCommit, PatchDigest: co.DiffSHA256,
		Claims: claims, DiscoverClaims: len(claims) == 0, BareClaims: bare, BaselinePasses: baselinePasses,
		CoverageFloor: req.CoverageFloor, StrengthFloor: req.StrengthFloor, StrengthConfidence: req.StrengthConfidence,
		MutationMax: req.MutationMax, TestSupport: req.TestSupport, RequireSandbox: req.RequireSandbox,
		FullEvidence: req.FullEvidence, DeadlineUnixMilli: started.Add(timeout).UnixMilli(),
	}
	if req.PatchCommit != "" {
		c.PatchCommit = co.PatchCommit
	}
	if len(co.Trusted) > 0 {
		c.TrustedTests = &criteria.TrustedTests{Commit: co.TrustedCommit, PatchDigest: co.TrustedPatchSHA256,
			Paths: co.Trusted, Discarded: co.TrustedOverridden}
	}
	c.Limits.StabilityReruns = req.StabilityReruns
	c.Limits.MemoryBytes = req.MemoryBytes
	// Each process gets a share of the run's deadline, so that a hanging
	// test is a timeout the verdict can name (hang), not a deadline that
	// swallows the run: a claim's process a quarter of it, a suite's half
	// (--timeout 1h: 15 and 30 minutes).
	c.Limits.ClaimTimeoutSec = max(1, int(timeout/4/time.Second))
	c.Limits.SuiteTimeoutSec = max(1, int(timeout/2/time.Second))
	// Each claim is two jobs at least, and two test runs: a grader's long
	// list of claims (PASS_TO_PASS) gets room in the budget and the plan's
	// fan-out, sealed with the rest.
	if n := len(claims); n > 0 {
		c.TaskGraph.MaxFanout = uint32(max(criteria.DefaultMaxFanout, 4*n+64))
		c.Budget = map[string]uint64{
			criteria.BudgetTestRuns:   uint64(max(512, 8*n+256)),
			criteria.BudgetMutants:    uint64(max(c.MutationMax, 0)),
			criteria.BudgetCPUSeconds: uint64(max(4*3600, 16*n)),
		}
	}
	c.ApplyDefaults()
	sealed, err := criteria.Seal(c)
	if err != nil {
		return nil, &UsageError{err}
	}
	body := &pb.RunRequested{Repository: req.Repository, BaselineCommit: c.Baseline, PatchCommit: c.PatchCommit, PatchDigest: c.PatchDigest, ClientVersion: req.ClientVersion,
		IdempotencyKey: req.IdempotencyKey, SubmissionDigest: req.SubmissionDigest}
	if req.PatchDiff != nil {
		if body.PatchBlob, err = blobs.Put(ctx, req.PatchDiff); err != nil {
			return nil, fmt.Errorf("store the patch: %w", err)
		}
	}
	if req.TestPatch != nil {
		// Stored under its digest, which the criteria seal: every service
		// lays the same trusted tests over its trees.
		if _, err := blobs.Put(ctx, req.TestPatch); err != nil {
			return nil, fmt.Errorf("store the trusted test patch: %w", err)
		}
	}
	// Both records carry the run's start: the same submission prepared
	// twice at the same start signs to the same bytes (a keyed retry is a
	// duplicate the guard ignores, not a conflict it refuses).
	reqRec, err := signer.Sign(&pb.Record{RunId: runID, TimeUnixNano: started.UnixNano(), Body: &pb.Record_RunRequested{RunRequested: body}})
	if err != nil {
		return nil, err
	}
	sealRec, err := signer.Sign(&pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{reqRec.Digest}, TimeUnixNano: started.UnixNano(),
		Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: sealed.Canonical, CriteriaDigest: sealed.Digest}},
	})
	if err != nil {
		return nil, err
	}
	return &Submission{RunID: runID, Sealed: sealed, Checkout: co, Request: reqRec, Seal: sealRec}, nil
}

// Package scenario builds complete, correctly signed runs of ledger records:
// the ledger demo, the crash and tamper tests, benchmarks, and the fixtures
// of refusal checks all start from one of these and change one thing.
//
// The records say what a real run would say, in the order services write
// them, but the measurements are synthetic: nothing here executes a test.
package scenario

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Builder signs scenario records with a keyring's service keys.
type Builder struct {
	keys  *keyring.Keyring
	now   func() time.Time
	nonce io.Reader
}

// NewBuilder returns a builder. now defaults to time.Now and nonces come
// from crypto/rand.
func NewBuilder(keys *keyring.Keyring, now func() time.Time) *Builder {
	if now == nil {
		now = time.Now
	}
	return &Builder{keys: keys, now: now, nonce: rand.Reader}
}

// Run is one scenario run, record by record.
type Run struct {
	ID       string
	Sealed   *criteria.Sealed
	Request  *record.Decoded
	Seal     *record.Decoded
	Trees    *record.Decoded
	Plan     *record.Decoded
	Results  []*record.Decoded
	Coverage *record.Decoded
	Verdict  *record.Decoded
}

// Records returns the run's records in ledger order.
func (r *Run) Records() []*record.Decoded {
	out := []*record.Decoded{r.Request, r.Seal, r.Trees, r.Plan}
	out = append(out, r.Results...)
	return append(out, r.Coverage, r.Verdict)
}

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Sign signs r as identity, stamping the current time.
func (b *Builder) Sign(identity string, r *pb.Record) (*record.Decoded, error) {
	s, err := b.keys.Signer(identity)
	if err != nil {
		return nil, err
	}
	r.TimeUnixNano = b.now().UnixNano()
	return s.Sign(r)
}

// NewRun builds a run whose plan issues jobs claim jobs, each answered by a
// passing result; its verdict is MERGE.
func (b *Builder) NewRun(runID string, jobs int) (*Run, error) {
	if jobs < 1 {
		return nil, fmt.Errorf("scenario: a run needs at least one job")
	}
	baseline := hexSum("baseline " + runID)[:40]
	patchDigest := hexSum("patch " + runID)
	claims := make([]string, jobs)
	for i := range claims {
		claims[i] = fmt.Sprintf("go:./calc:TestCase%03d", i)
	}
	c := &criteria.Criteria{
		RunID:              runID,
		Repository:         "demo/calc",
		Baseline:           baseline,
		PatchDigest:        patchDigest,
		Claims:             claims,
		CoverageFloor:      criteria.DefaultCoverageFloor,
		StrengthFloor:      0,
		StrengthConfidence: criteria.DefaultStrengthConfidence,
		MutationMax:        0,
		DeadlineUnixMilli:  b.now().Add(time.Hour).UnixMilli(),
	}
	c.ApplyDefaults()
	c.Budget = map[string]uint64{criteria.BudgetTestRuns: uint64(2 * jobs)}
	sealed, err := criteria.Seal(c)
	if err != nil {
		return nil, err
	}
	run := &Run{ID: runID, Sealed: sealed}

	if run.Request, err = b.Sign(keyring.Gateway, &pb.Record{
		RunId: runID,
		Body: &pb.Record_RunRequested{RunRequested: &pb.RunRequested{
			Repository: c.Repository, BaselineCommit: baseline, PatchDigest: patchDigest, ClientVersion: "scenario",
		}},
	}); err != nil {
		return nil, err
	}
	if run.Seal, err = b.Sign(keyring.Gateway, &pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{run.Request.Digest},
		Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: sealed.Canonical, CriteriaDigest: sealed.Digest}},
	}); err != nil {
		return nil, err
	}
	if run.Trees, err = b.Sign(keyring.Checkout, &pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{run.Seal.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{
			BaselineTreeDigest: hexSum("tree base " + runID),
			PatchTreeDigest:    hexSum("tree patch " + runID),
			Changes: []*pb.FileChange{{
				Path: "calc/calc.go", Change: pb.ChangeKind_CHANGE_KIND_MODIFIED, Class: pb.FileClass_FILE_CLASS_SOURCE, ChangedLines: []uint32{12},
			}},
			OracleRestored: []string{"calc/calc_test.go"},
		}},
	}); err != nil {
		return nil, err
	}
	plan := &pb.JobPlanned{}
	for i, claim := range claims {
		t, err := b.Token(run, run.Trees.Digest, fmt.Sprintf("claim-%03d-patch", i), 1, criteria.BudgetTestRuns, 1)
		if err != nil {
			return nil, err
		}
		plan.Jobs = append(plan.Jobs, &pb.Job{
			JobId: t.Id, JobKind: "claim", Side: "patch",
			Argv:  []string{"go", "test", "-json", "-count=1", "-run", "^" + claim[len("go:./calc:"):] + "$", "./calc"},
			Token: t,
		})
	}
	if run.Plan, err = b.Sign(keyring.Executor, &pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{run.Trees.Digest},
		Body: &pb.Record_JobPlanned{JobPlanned: plan},
	}); err != nil {
		return nil, err
	}
	for i, job := range plan.Jobs {
		res, err := b.Result(run, job, int64(i+1)*int64(time.Millisecond))
		if err != nil {
			return nil, err
		}
		run.Results = append(run.Results, res)
	}
	if run.Coverage, err = b.Sign(keyring.Reach, &pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{run.Trees.Digest},
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{
			Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Ratio: ptr(1.0), ChangedLines: 1, CoveredLines: 1,
			DiffSha256: patchDigest, ProfileSha256: hexSum("profile " + runID),
		}},
	}); err != nil {
		return nil, err
	}
	evidence := []string{run.Trees.Digest, run.Coverage.Digest}
	for _, r := range run.Results {
		evidence = append(evidence, r.Digest)
	}
	if run.Verdict, err = b.Sign(keyring.Adjudication, &pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: evidence,
		Body: &pb.Record_VerdictReached{VerdictReached: &pb.VerdictReached{
			Decision: pb.Decision_DECISION_MERGE,
			Reason:   fmt.Sprintf("all %d claims pass on the patch and every changed line is covered (scenario data)", jobs),
			Evidence: evidence,
		}},
	}); err != nil {
		return nil, err
	}
	return run, nil
}

// Token issues a fresh continuation token of run, derived from parent.
func (b *Builder) Token(run *Run, parent, id string, depth uint32, dimension string, units uint64) (*pb.ContinuationToken, error) {
	nonce := make([]byte, 16)
	if _, err := io.ReadFull(b.nonce, nonce); err != nil {
		return nil, fmt.Errorf("scenario: nonce: %w", err)
	}
	return &pb.ContinuationToken{
		Id: id, RunId: run.ID, CriteriaDigest: run.Sealed.Digest, ParentDigest: parent,
		BudgetDimension: dimension, BudgetUnits: units, Nonce: nonce, Depth: depth,
	}, nil
}

// Result answers job with a passing result taking wall nanoseconds.
func (b *Builder) Result(run *Run, job *pb.Job, wall int64) (*record.Decoded, error) {
	return b.Sign(keyring.Executor, &pb.Record{
		RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Plan.Digest}, Token: job.Token.Id,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{
			JobId: job.JobId, Termination: pb.Termination_TERMINATION_EXITED, ExitCode: 0,
			CasesRun: ptr(uint32(1)), Cases: []*pb.TestCase{{Name: job.JobId, Outcome: "pass", ElapsedNanos: wall}},
			WallNanos: wall, UnitsUsed: job.Token.BudgetUnits,
			Sandbox: &pb.Sandbox{Name: "none", EnvNames: []string{"HOME", "PATH"}},
		}},
	})
}

func ptr[T any](v T) *T { return &v }

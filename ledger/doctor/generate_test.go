package doctor

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// update regenerates the fixture:
//
//	go test ./ledger/doctor -run TestDoctorFixtureIsCurrent -update
//
// The fixture keys are kept (keyring.LoadOrCreate creates only missing
// ones); with the same keys the recorded run comes out byte for byte the
// same, so a change to the run's shape shows as a reviewable diff.
var update = flag.Bool("update", false, "regenerate ledger/doctor/fixtures")

// fixtureRunID is the recorded run's id.
const fixtureRunID = "doctor-fixture"

// fixtureClock ticks one second per signed record from a fixed instant.
func fixtureClock() func() time.Time {
	t := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// TestDoctorFixtureIsCurrent regenerates the recorded run from the embedded keys
// and requires the embedded files to be exactly what the generator writes.
func TestDoctorFixtureIsCurrent(t *testing.T) {
	dir := filepath.Join("fixtures", "fixture-only-keys")
	if !*update {
		// Work on a copy of the embedded keys: the check writes nothing.
		dir = t.TempDir()
		keys, err := fs.Glob(fixtureFiles(), fixtureKeyDir+"/*.key")
		if err != nil || len(keys) == 0 {
			t.Fatalf("no embedded fixture keys (%v)", err)
		}
		for _, name := range keys {
			b, err := fs.ReadFile(fixtureFiles(), name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	keys, err := keyring.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	runJSON, trustJSON, err := generate(keys)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		for name, b := range map[string][]byte{fixtureRunFile: runJSON, fixtureTrustFile: trustJSON} {
			if err := os.WriteFile(filepath.FromSlash(name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %s and %s", fixtureRunFile, fixtureTrustFile)
		return
	}
	for name, want := range map[string][]byte{fixtureRunFile: runJSON, fixtureTrustFile: trustJSON} {
		got, err := fs.ReadFile(fixtureFiles(), name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the generator writes: run `go test ./ledger/doctor -run TestDoctorFixtureIsCurrent -update`", name)
		}
	}
}

// generate records the doctor's valid run with keys: a revocation epoch,
// then one run whose sealed criteria have tight limits, each reached
// exactly — the top plan fans out to max_fanout, the mutation plan reaches
// max_depth, and the test_runs and mutants pools are allocated in full —
// so that one more child, level or unit is a refusal.
func generate(keys *keyring.Keyring) (runJSON, trustJSON []byte, err error) {
	b := scenario.NewBuilder(keys, fixtureClock())
	m := manifest{Schema: fixtureSchema, RunID: fixtureRunID}
	add := func(name, identity string, r *pb.Record) (*record.Decoded, error) {
		rec, err := b.Sign(identity, r)
		if err != nil {
			return nil, err
		}
		enc, err := rec.Encoded()
		if err != nil {
			return nil, err
		}
		m.Records = append(m.Records, manifestRecord{
			Name: name, Kind: record.KindName(rec.Kind), Producer: identity, Digest: rec.Digest, Signed: enc,
		})
		return rec, nil
	}
	token := func(id, parent, dimension string, units uint64, depth uint32, sealed *criteria.Sealed) *pb.ContinuationToken {
		return &pb.ContinuationToken{
			Id: id, RunId: fixtureRunID, CriteriaDigest: sealed.Digest, ParentDigest: parent,
			BudgetDimension: dimension, BudgetUnits: units, Nonce: tokenNonce(fixtureRunID, id), Depth: depth,
		}
	}

	if _, err := add(recEpoch, keyring.Authority, &pb.Record{Body: &pb.Record_RevocationEpoch{RevocationEpoch: &pb.RevocationEpoch{
		Epoch: 1, RevokedKeyIds: []string{retiredKeyID()},
	}}}); err != nil {
		return nil, nil, err
	}

	baseline := hexSum("doctor baseline")[:40]
	patch := hexSum("doctor patch")
	claims := []string{"go:./calc:TestAdd", "go:./calc:TestSub"}
	c := &criteria.Criteria{
		RunID: fixtureRunID, Repository: "demo/calc", Baseline: baseline, PatchDigest: patch, Claims: claims,
		CoverageFloor: criteria.DefaultCoverageFloor, StrengthFloor: criteria.DefaultStrengthFloor,
		StrengthConfidence: criteria.DefaultStrengthConfidence, MutationMax: 2,
		Budget:            map[string]uint64{criteria.BudgetTestRuns: 2, criteria.BudgetMutants: 2, criteria.BudgetCPUSeconds: 120},
		TaskGraph:         criteria.TaskGraph{MaxDepth: 2, MaxFanout: 3},
		DeadlineUnixMilli: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC).UnixMilli(),
	}
	c.ApplyDefaults()
	sealed, err := criteria.Seal(c)
	if err != nil {
		return nil, nil, err
	}

	req, err := add(recRequest, keyring.Gateway, &pb.Record{RunId: fixtureRunID, Body: &pb.Record_RunRequested{RunRequested: &pb.RunRequested{
		Repository: c.Repository, BaselineCommit: baseline, PatchDigest: patch, ClientVersion: "doctor-fixture",
	}}})
	if err != nil {
		return nil, nil, err
	}
	seal, err := add(recSeal, keyring.Gateway, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{req.Digest},
		Body: &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: sealed.Canonical, CriteriaDigest: sealed.Digest}},
	})
	if err != nil {
		return nil, nil, err
	}
	trees, err := add(recTrees, keyring.Checkout, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{seal.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{
			BaselineTreeDigest: hexSum("doctor baseline tree"), PatchTreeDigest: hexSum("doctor patch tree"),
			Changes: []*pb.FileChange{{
				Path: "calc/calc.go", Change: pb.ChangeKind_CHANGE_KIND_MODIFIED, Class: pb.FileClass_FILE_CLASS_SOURCE, ChangedLines: []uint32{12},
			}},
			OracleRestored: []string{"calc/calc_test.go"},
		}},
	})
	if err != nil {
		return nil, nil, err
	}

	// The top plan: one job per claim and one for the mutation planner,
	// max_fanout children of the trees, at depth 1.
	plan := &pb.JobPlanned{}
	for i, claim := range claims {
		id := fmt.Sprintf("claim-%03d", i)
		plan.Jobs = append(plan.Jobs, &pb.Job{
			JobId: id, JobKind: "claim", Side: "patch",
			Argv:  []string{"go", "test", "-json", "-count=1", "-run", "^" + claim[len("go:./calc:"):] + "$", "./calc"},
			Token: token(id, trees.Digest, criteria.BudgetTestRuns, 1, 1, sealed),
		})
	}
	plan.Jobs = append(plan.Jobs, &pb.Job{
		JobId: tokMutations, JobKind: "mutation-plan", Side: "patch",
		Token: token(tokMutations, trees.Digest, criteria.BudgetCPUSeconds, 60, 1, sealed),
	})
	planRec, err := add(recPlan, keyring.Executor, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{trees.Digest},
		Body: &pb.Record_JobPlanned{JobPlanned: plan},
	})
	if err != nil {
		return nil, nil, err
	}
	evidence := []string{trees.Digest}
	for i, job := range plan.Jobs[:len(claims)] {
		res, err := add(fmt.Sprintf("result-%s", job.JobId), keyring.Executor, result(planRec, job, "pass", int64(i+1)*int64(time.Millisecond), sealed))
		if err != nil {
			return nil, nil, err
		}
		evidence = append(evidence, res.Digest)
	}
	coverage, err := add(recCoverage, keyring.Reach, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{trees.Digest},
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{
			Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Ratio: ptr(1.0), ChangedLines: 1, CoveredLines: 1,
			DiffSha256: patch, ProfileSha256: hexSum("doctor coverage profile"),
		}},
	})
	if err != nil {
		return nil, nil, err
	}
	evidence = append(evidence, coverage.Digest)

	// The mutation planner consumes the depth-1 token the top plan issued
	// it and fans out below the coverage at depth 2, the sealed max_depth,
	// allocating the whole mutants pool.
	mplan := &pb.JobPlanned{}
	for i := range 2 {
		id := fmt.Sprintf("mutant-%03d", i)
		mplan.Jobs = append(mplan.Jobs, &pb.Job{
			JobId: id, JobKind: "mutant", Side: "patch",
			Argv:  []string{"go", "test", "-json", "-count=1", "-run", "^" + claims[i][len("go:./calc:"):] + "$", "./calc"},
			Token: token(id, coverage.Digest, criteria.BudgetMutants, 1, 2, sealed),
		})
	}
	mplanRec, err := add(recMutationPlan, keyring.Mutation, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{planRec.Digest, coverage.Digest}, Token: tokMutations,
		Body: &pb.Record_JobPlanned{JobPlanned: mplan},
	})
	if err != nil {
		return nil, nil, err
	}
	strengthParents := []string{mplanRec.Digest}
	for i, job := range mplan.Jobs {
		// A killed mutant: the claim's test fails on it.
		res, err := add(fmt.Sprintf("result-%s", job.JobId), keyring.Mutation, result(mplanRec, job, "fail", int64(i+1)*int64(time.Millisecond), sealed))
		if err != nil {
			return nil, nil, err
		}
		strengthParents = append(strengthParents, res.Digest)
	}
	strength, err := add(recStrength, keyring.Mutation, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: strengthParents,
		Body: &pb.Record_StrengthMeasured{StrengthMeasured: &pb.StrengthMeasured{
			Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Killed: 2, Score: ptr(1.0), Confidence: criteria.DefaultStrengthConfidence,
			Mutants: []*pb.Mutant{
				{Id: tokMutant0, At: &pb.LineRef{Path: "calc/calc.go", Line: 12}, Operator: "arithmetic", Description: "+ → -", Status: "killed", KilledBy: "TestAdd"},
				{Id: tokMutant1, At: &pb.LineRef{Path: "calc/calc.go", Line: 12}, Operator: "boundary", Description: "a → a+1", Status: "killed", KilledBy: "TestSub"},
			},
		}},
	})
	if err != nil {
		return nil, nil, err
	}
	evidence = append(evidence, strength.Digest)
	verdict, err := add(recVerdict, keyring.Adjudication, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: evidence,
		Body: &pb.Record_VerdictReached{VerdictReached: &pb.VerdictReached{
			Decision: pb.Decision_DECISION_MERGE,
			Reason:   "both claims pass on the patch, every changed line is covered and both mutants are killed (doctor fixture)",
			Evidence: evidence,
		}},
	})
	if err != nil {
		return nil, nil, err
	}
	if _, err := add(recVerdictSealed, keyring.Signing, &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{verdict.Digest},
		Body: &pb.Record_VerdictSealed{VerdictSealed: &pb.VerdictSealed{
			EnvelopeBlob: hexSum("doctor envelope"), LogId: "doctor-fixture-log", LogIndex: 0, TreeSize: 1, LogKind: "embedded",
			BundleBlob: hexSum("doctor bundle"), ArtefactBlob: hexSum("doctor artefact"), KeyId: hexSum("doctor verdict key"),
		}},
	}); err != nil {
		return nil, nil, err
	}

	runJSON, err = json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	trust, err := keys.Trust()
	if err != nil {
		return nil, nil, err
	}
	if trustJSON, err = trust.Marshal(); err != nil {
		return nil, nil, err
	}
	return append(runJSON, '\n'), append(trustJSON, '\n'), nil
}

// result answers job of plan with one test case of outcome.
func result(plan *record.Decoded, job *pb.Job, outcome string, wall int64, sealed *criteria.Sealed) *pb.Record {
	exit := int32(0)
	if outcome != "pass" {
		exit = 1
	}
	return &pb.Record{
		RunId: fixtureRunID, CriteriaDigest: sealed.Digest, Parents: []string{plan.Digest}, Token: job.Token.Id,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{
			JobId: job.JobId, Termination: pb.Termination_TERMINATION_EXITED, ExitCode: exit,
			CasesRun: ptr(uint32(1)), Cases: []*pb.TestCase{{Name: job.JobId, Outcome: outcome, ElapsedNanos: wall}},
			WallNanos: wall, UnitsUsed: job.Token.BudgetUnits,
			Sandbox: &pb.Sandbox{Name: "none", EnvNames: []string{"HOME", "PATH"}},
		}},
	}
}

func ptr[T any](v T) *T { return &v }

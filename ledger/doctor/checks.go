package doctor

import (
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// check is one ledger to replay and the outcome it must have.
type check struct {
	id       string
	expected string
	mutation string
	// build makes the copy from the recorded run.
	build func(fx *fixture) (ledgerCopy, error)
}

// ledgerCopy is a ledger to replay.
type ledgerCopy struct {
	ledger [][]byte
	// trust replaces the fixture's trust policy when set.
	trust *authority.Trust
	// at is the index of the record that must be refused; -1 for none.
	at int
}

// checks lists the valid run and one mutated copy per refusal code. Each
// copy is the recorded ledger with one thing changed.
func checks() []check {
	return []check{
		{
			id: "valid-run", expected: Admitted,
			mutation: "none: the recorded run as it is",
			build: func(fx *fixture) (ledgerCopy, error) {
				return ledgerCopy{ledger: slices.Clone(fx.raw), at: -1}, nil
			},
		},
		{
			id: "empty-trust", expected: authority.CodeNoTrustRoots,
			mutation: "the recorded run, checked against an empty trust set",
			build: func(fx *fixture) (ledgerCopy, error) {
				empty, err := authority.NewTrust(nil)
				if err != nil {
					return ledgerCopy{}, err
				}
				return ledgerCopy{ledger: slices.Clone(fx.raw), trust: empty, at: 0}, nil
			},
		},
		{
			id: "torn-record", expected: authority.CodeMalformed,
			mutation: "the stored trees record ends one byte short (a torn write)",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw := fx.raw[fx.index[recTrees]]
				return fx.replaced(recTrees, raw[:len(raw)-1:len(raw)-1]), nil
			},
		},
		{
			id: "tampered-record", expected: authority.CodeDigestMismatch,
			mutation: "the second claim's result is rewritten to exit code 1; its stored digest and signature are kept",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.tampered(recClaim1, false)
				return fx.replaced(recClaim1, raw), err
			},
		},
		{
			id: "tampered-record-redigested", expected: authority.CodeBadSignature,
			mutation: "the second claim's result is rewritten to exit code 1 and its digest recomputed; its signature is kept",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.tampered(recClaim1, true)
				return fx.replaced(recClaim1, raw), err
			},
		},
		{
			id: "unknown-producer", expected: authority.CodeUnknownProducer,
			mutation: "the first claim's result is signed as sealgate/executor by a key the trust set does not hold",
			build: func(fx *fixture) (ledgerCopy, error) {
				stranger, err := record.NewSigner(keyring.Executor, strangerKey())
				if err != nil {
					return ledgerCopy{}, err
				}
				raw, err := signWith(stranger, fx.clone(recClaim0))
				return fx.replaced(recClaim0, raw), err
			},
		},
		{
			id: "unauthorized-kind", expected: authority.CodeUnauthorizedKind,
			mutation: "the coverage record is signed by the executor's trusted key, which may not write coverage",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.resign(recCoverage, keyring.Executor, func(*pb.Record) {})
				return fx.replaced(recCoverage, raw), err
			},
		},
		{
			id: "revoked-key", expected: authority.CodeRevokedKey,
			mutation: "the revocation epoch also revokes the executor's key; its first record is the plan",
			build: func(fx *fixture) (ledgerCopy, error) {
				exec, err := fx.signer(keyring.Executor)
				if err != nil {
					return ledgerCopy{}, err
				}
				raw, err := fx.resign(recEpoch, keyring.Authority, func(r *pb.Record) {
					e := r.GetRevocationEpoch()
					e.RevokedKeyIds = append(e.RevokedKeyIds, exec.KeyID())
				})
				cp := fx.replaced(recEpoch, raw)
				cp.at = fx.index[recPlan]
				return cp, err
			},
		},
		{
			id: "revoked-run", expected: authority.CodeRevokedRun,
			mutation: "the revocation epoch also revokes the run; its first record is the request",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.resign(recEpoch, keyring.Authority, func(r *pb.Record) {
					e := r.GetRevocationEpoch()
					e.RevokedRuns = append(e.RevokedRuns, fx.runID)
				})
				cp := fx.replaced(recEpoch, raw)
				cp.at = fx.index[recRequest]
				return cp, err
			},
		},
		{
			id: "epoch-regression", expected: authority.CodeEpochRegression,
			mutation: "the revocation epoch is numbered 0, which does not follow the initial epoch 0",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.resign(recEpoch, keyring.Authority, func(r *pb.Record) { r.GetRevocationEpoch().Epoch = 0 })
				return fx.replaced(recEpoch, raw), err
			},
		},
		{
			id: "second-seal", expected: authority.CodeRunConflict,
			mutation: "a second seal of the run, with coverage_floor 0, is added after the first",
			build: func(fx *fixture) (ledgerCopy, error) {
				other, err := fx.otherCriteria()
				if err != nil {
					return ledgerCopy{}, err
				}
				r := fx.clone(recSeal)
				r.TimeUnixNano += int64(time.Millisecond)
				r.CriteriaDigest = other.Digest
				r.Body = &pb.Record_CriteriaSealed{CriteriaSealed: &pb.CriteriaSealed{CanonicalCriteria: other.Canonical, CriteriaDigest: other.Digest}}
				raw, err := fx.sign(keyring.Gateway, r)
				return fx.inserted(recSeal, raw), err
			},
		},
		{
			id: "record-before-seal", expected: authority.CodeNoSeal,
			mutation: "the trees record is moved in front of the seal",
			build: func(fx *fixture) (ledgerCopy, error) {
				l := slices.Clone(fx.raw)
				s, t := fx.index[recSeal], fx.index[recTrees]
				l[s], l[t] = l[t], l[s]
				return ledgerCopy{ledger: l, at: s}, nil
			},
		},
		{
			id: "criteria-mismatch", expected: authority.CodeCriteriaMismatch,
			mutation: "the first claim's result carries the digest of other criteria (coverage_floor 0)",
			build: func(fx *fixture) (ledgerCopy, error) {
				other, err := fx.otherCriteria()
				if err != nil {
					return ledgerCopy{}, err
				}
				raw, err := fx.resign(recClaim0, keyring.Executor, func(r *pb.Record) { r.CriteriaDigest = other.Digest })
				return fx.replaced(recClaim0, raw), err
			},
		},
		{
			id: "unknown-parent", expected: authority.CodeUnknownParent,
			mutation: "the coverage record names as its parent a digest that is no record of the run",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.resign(recCoverage, keyring.Reach, func(r *pb.Record) {
					r.Parents = []string{hexSum("sealgate doctor: no record")}
				})
				return fx.replaced(recCoverage, raw), err
			},
		},
		{
			id: "token-never-issued", expected: authority.CodeTokenUnknown,
			mutation: "the second claim's result consumes token claim-002, which no plan issued",
			build: func(fx *fixture) (ledgerCopy, error) {
				raw, err := fx.resign(recClaim1, keyring.Executor, func(r *pb.Record) { r.Token = "claim-002" })
				return fx.replaced(recClaim1, raw), err
			},
		},
		{
			id: "token-bound-elsewhere", expected: authority.CodeTokenMismatch,
			mutation: "the plan binds token claim-001 to the seal, which is not a parent of the plan",
			build: func(fx *fixture) (ledgerCopy, error) {
				var err error
				raw, rerr := fx.resign(recPlan, keyring.Executor, func(r *pb.Record) {
					var tok *pb.ContinuationToken
					if tok, err = tokenIn(r, tokClaim1); err == nil {
						tok.ParentDigest = fx.rec(recSeal).Digest
					}
				})
				return fx.replaced(recPlan, raw), firstErr(err, rerr)
			},
		},
		{
			id: "replayed-token", expected: authority.CodeTokenReplayed,
			mutation: "the mutation plan issues its second job under token id claim-001, which the top plan already issued",
			build: func(fx *fixture) (ledgerCopy, error) {
				var err error
				raw, rerr := fx.resign(recMutationPlan, keyring.Mutation, func(r *pb.Record) {
					var tok *pb.ContinuationToken
					if tok, err = tokenIn(r, tokMutant1); err == nil {
						tok.Id = tokClaim1
					}
				})
				return fx.replaced(recMutationPlan, raw), firstErr(err, rerr)
			},
		},
		{
			id: "conflicting-result", expected: authority.CodeTokenConflict,
			mutation: "a second, failing result for token claim-000 is added after the first",
			build: func(fx *fixture) (ledgerCopy, error) {
				r := fx.clone(recClaim0)
				r.TimeUnixNano += int64(time.Millisecond)
				res := r.GetJobResult()
				res.ExitCode = 1
				for _, c := range res.Cases {
					c.Outcome = "fail"
				}
				raw, err := fx.sign(keyring.Executor, r)
				return fx.inserted(recClaim0, raw), err
			},
		},
		{
			id: "budget-overrun", expected: authority.CodeBudgetExceeded,
			mutation: "the plan reserves 2 test_runs instead of 1 for claim-001, one more than the sealed pool holds",
			build: func(fx *fixture) (ledgerCopy, error) {
				dim := criteria.BudgetTestRuns
				if got, pool := fx.planned(recPlan, dim), fx.sealed.Criteria.Budget[dim]; got != pool {
					return ledgerCopy{}, fmt.Errorf("the plan reserves %d of %d %s: the fixture must allocate the pool in full", got, pool, dim)
				}
				var err error
				raw, rerr := fx.resign(recPlan, keyring.Executor, func(r *pb.Record) {
					var tok *pb.ContinuationToken
					if tok, err = tokenIn(r, tokClaim1); err == nil {
						tok.BudgetUnits++
					}
				})
				return fx.replaced(recPlan, raw), firstErr(err, rerr)
			},
		},
		{
			id: "fanout-beyond-limit", expected: authority.CodeFanoutExceeded,
			mutation: "the plan issues one more job below the trees than the sealed max_fanout allows (within the budget)",
			build: func(fx *fixture) (ledgerCopy, error) {
				jobs := fx.rec(recPlan).Record.GetJobPlanned().GetJobs()
				if limit := fx.sealed.Criteria.TaskGraph.MaxFanout; uint32(len(jobs)) != limit {
					return ledgerCopy{}, fmt.Errorf("the plan issues %d jobs, the sealed max_fanout is %d: the fixture must reach the limit", len(jobs), limit)
				}
				var err error
				raw, rerr := fx.resign(recPlan, keyring.Executor, func(r *pb.Record) {
					var tok *pb.ContinuationToken
					if tok, err = tokenIn(r, tokMutations); err != nil {
						return
					}
					extra := proto.Clone(tok).(*pb.ContinuationToken)
					extra.Id = tokMutations + "-2"
					extra.Nonce = tokenNonce(fx.runID, extra.Id)
					jp := r.GetJobPlanned()
					jp.Jobs = append(jp.Jobs, &pb.Job{JobId: extra.Id, JobKind: "mutation-plan", Side: "patch", Token: extra})
				})
				return fx.replaced(recPlan, raw), firstErr(err, rerr)
			},
		},
		{
			id: "depth-beyond-limit", expected: authority.CodeDepthExceeded,
			mutation: "token mutant-000, at the sealed max_depth, is consumed by a plan issuing a job one level deeper instead of by its result",
			build: func(fx *fixture) (ledgerCopy, error) {
				mplan := fx.rec(recMutationPlan)
				tok, err := tokenIn(mplan.Record, tokMutant0)
				if err != nil {
					return ledgerCopy{}, err
				}
				if limit := fx.sealed.Criteria.TaskGraph.MaxDepth; tok.Depth != limit {
					return ledgerCopy{}, fmt.Errorf("token %s is at depth %d, the sealed max_depth is %d: the fixture must reach the limit", tok.Id, tok.Depth, limit)
				}
				id := tokMutant0 + "-split"
				r := fx.clone(recMutant0)
				r.Body = &pb.Record_JobPlanned{JobPlanned: &pb.JobPlanned{Jobs: []*pb.Job{{
					JobId: id, JobKind: "mutant", Side: "patch",
					Token: &pb.ContinuationToken{
						Id: id, RunId: fx.runID, CriteriaDigest: fx.sealed.Digest, ParentDigest: mplan.Digest,
						BudgetDimension: criteria.BudgetCPUSeconds, BudgetUnits: 1, Nonce: tokenNonce(fx.runID, id), Depth: tok.Depth + 1,
					},
				}}}}
				raw, err := fx.sign(keyring.Mutation, r)
				return fx.replaced(recMutant0, raw), err
			},
		},
		{
			id: "unfounded-refusal", expected: authority.CodeUnfoundedRefusal,
			mutation: "a refusal signed by the ledger, saying the valid result of claim-001 has a bad signature, is added before that result",
			build: func(fx *fixture) (ledgerCopy, error) {
				victim := fx.rec(recClaim1)
				raw, err := fx.sign(keyring.Ledger, &pb.Record{
					RunId: fx.runID, TimeUnixNano: fx.rec(recClaim0).Record.TimeUnixNano + int64(time.Millisecond),
					Body: &pb.Record_RecordRefused{RecordRefused: &pb.RecordRefused{
						RefusedDigest: victim.Digest, RefusedKind: victim.Kind,
						ReasonCode: authority.CodeBadSignature, Detail: "signature does not verify",
						RefusedRecord: fx.raw[fx.index[recClaim1]],
					}},
				})
				return fx.inserted(recClaim0, raw), err
			},
		},
		{
			id: "record-after-close", expected: authority.CodeRunClosed,
			mutation: "a second coverage record, measuring nothing covered, is added after the sealed verdict",
			build: func(fx *fixture) (ledgerCopy, error) {
				r := fx.clone(recCoverage)
				r.TimeUnixNano = fx.rec(recVerdictSealed).Record.TimeUnixNano + int64(time.Second)
				cov := r.GetCoverageMeasured()
				cov.CoveredLines, cov.Ratio = 0, proto.Float64(0)
				raw, err := fx.sign(keyring.Reach, r)
				return fx.inserted(recVerdictSealed, raw), err
			},
		},
	}
}

// replaced is the recorded ledger with record name replaced by raw.
func (fx *fixture) replaced(name string, raw []byte) ledgerCopy {
	l := slices.Clone(fx.raw)
	i := fx.index[name]
	l[i] = raw
	return ledgerCopy{ledger: l, at: i}
}

// inserted is the recorded ledger with raw added right after record name.
func (fx *fixture) inserted(after string, raw []byte) ledgerCopy {
	i := fx.index[after] + 1
	return ledgerCopy{ledger: slices.Insert(slices.Clone(fx.raw), i, raw), at: i}
}

// clone returns a copy of the content of record name, safe to change.
func (fx *fixture) clone(name string) *pb.Record {
	return proto.Clone(fx.rec(name).Record).(*pb.Record)
}

// resign signs a changed copy of record name as identity, keeping its time.
func (fx *fixture) resign(name, identity string, edit func(*pb.Record)) ([]byte, error) {
	r := fx.clone(name)
	edit(r)
	return fx.sign(identity, r)
}

// sign signs r with the fixture key of identity and encodes it.
func (fx *fixture) sign(identity string, r *pb.Record) ([]byte, error) {
	s, err := fx.signer(identity)
	if err != nil {
		return nil, err
	}
	return signWith(s, r)
}

func signWith(s *record.Signer, r *pb.Record) ([]byte, error) {
	rec, err := s.Sign(r)
	if err != nil {
		return nil, err
	}
	return rec.Encoded()
}

// tampered rewrites the result record name to exit code 1 without signing
// it again; with redigest, the stored digest is recomputed to match.
func (fx *fixture) tampered(name string, redigest bool) ([]byte, error) {
	orig := fx.rec(name)
	r := fx.clone(name)
	res := r.GetJobResult()
	if res == nil {
		return nil, fmt.Errorf("record %q is no job result", name)
	}
	res.ExitCode = 1
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(r)
	if err != nil {
		return nil, err
	}
	sr := &pb.SignedRecord{Record: b, Signature: orig.Signed.Signature, Digest: orig.Digest}
	if redigest {
		sr.Digest = record.Digest(b)
	}
	return record.Encode(sr)
}

// otherCriteria are the run's criteria with the coverage floor switched
// off: what a record produced under looser criteria would carry.
func (fx *fixture) otherCriteria() (*criteria.Sealed, error) {
	c := *fx.sealed.Criteria
	c.CoverageFloor = 0
	return criteria.Seal(&c)
}

// planned is what plan record name reserves of dimension dim.
func (fx *fixture) planned(name, dim string) uint64 {
	var n uint64
	for _, j := range fx.rec(name).Record.GetJobPlanned().GetJobs() {
		if t := j.GetToken(); t.GetBudgetDimension() == dim {
			n += t.GetBudgetUnits()
		}
	}
	return n
}

// tokenIn returns the token id issued by plan r.
func tokenIn(r *pb.Record, id string) (*pb.ContinuationToken, error) {
	for _, j := range r.GetJobPlanned().GetJobs() {
		if t := j.GetToken(); t.GetId() == id {
			return t, nil
		}
	}
	return nil, fmt.Errorf("the plan issues no token %q", id)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

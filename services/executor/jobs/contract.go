package jobs

import (
	"crypto/sha256"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Plan is the job.planned body of specs: each job with its spec and a
// single-use token bound to the sealed run, derived from parent and
// reserving the job's units of the budget dimension. It is the job
// contract every service that plans jobs (executor, mutation) writes.
//
// A plan is a function of its inputs: the token's nonce is derived from
// the run, its criteria, the parent and the job, not drawn at random. Two
// replicas that plan the same record (one took the record over while the
// other's append was still on its way) then write the same plan, which
// the ledger admits once, instead of two plans issuing one token twice,
// which it must refuse and which would leave the run INCONCLUSIVE. The
// nonce still differs between runs, parents and jobs, which is all the
// ledger asks of it: records are signed, so a nonce need not be secret.
func Plan(sealed *criteria.Sealed, parent, dimension string, specs []*Spec) (*pb.JobPlanned, error) {
	plan := &pb.JobPlanned{}
	for _, s := range specs {
		b, err := s.Marshal()
		if err != nil {
			return nil, err
		}
		id := s.ID()
		nonce := tokenNonce(sealed.Criteria.RunID, sealed.Digest, parent, id)
		plan.Jobs = append(plan.Jobs, &pb.Job{
			JobId: id, JobKind: s.Purpose, Side: s.Side, Argv: s.Argv(), Spec: b,
			Token: &pb.ContinuationToken{
				Id: id, RunId: sealed.Criteria.RunID, CriteriaDigest: sealed.Digest, ParentDigest: parent,
				BudgetDimension: dimension, BudgetUnits: s.Units(), Nonce: nonce, Depth: 1,
			},
		})
	}
	return plan, nil
}

// tokenNonce is the nonce of the token of job id, planned from parent in
// the run sealed with criteria digest.
func tokenNonce(runID, criteria, parent, id string) []byte {
	sum := sha256.Sum256([]byte("sealgate token nonce\x00" + runID + "\x00" + criteria + "\x00" + parent + "\x00" + id))
	return sum[:16]
}

// Answered lists the tokens a job.result of run consumed: a plan delivered
// again (after a restart) must not run those jobs again.
func Answered(run []*record.Decoded) map[string]bool {
	out := map[string]bool{}
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_JOB_RESULT && r.Record.GetToken() != "" {
			out[r.Record.GetToken()] = true
		}
	}
	return out
}

// Fold reads the planned and answered jobs of run — of every planner, or
// only of those producers name — with the cases each answer reported;
// causes are the digests of the results read, in ledger order.
func Fold(run []*record.Decoded, producers ...string) (planned map[string]*Spec, done map[string]*Done, causes []string) {
	planned, done = map[string]*Spec{}, map[string]*Done{}
	mine := func(r *record.Decoded) bool {
		if len(producers) == 0 {
			return true
		}
		for _, p := range producers {
			if r.Record.GetProducer().GetIdentity() == p {
				return true
			}
		}
		return false
	}
	for _, r := range run {
		if !mine(r) {
			continue
		}
		switch b := r.Record.Body.(type) {
		case *pb.Record_JobPlanned:
			for _, j := range b.JobPlanned.Jobs {
				if s, err := ParseSpec(j.Spec); err == nil {
					planned[j.JobId] = s
				}
			}
		case *pb.Record_JobResult:
			s := planned[b.JobResult.JobId]
			d, err := ParseDetail(b.JobResult.Detail)
			if s == nil || err != nil {
				continue
			}
			dn := &Done{Spec: s, Detail: d}
			for _, c := range b.JobResult.Cases {
				dn.Cases = append(dn.Cases, Case{Name: c.Name, Outcome: c.Outcome})
			}
			done[b.JobResult.JobId] = dn
			causes = append(causes, r.Digest)
		}
	}
	return planned, done, causes
}

package jobs

import (
	"crypto/rand"
	"fmt"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Plan is the job.planned body of specs: each job with its spec and a
// fresh single-use token bound to the sealed run, derived from parent and
// reserving the job's units of the budget dimension. It is the job
// contract every service that plans jobs (executor, mutation) writes.
func Plan(sealed *criteria.Sealed, parent, dimension string, specs []*Spec) (*pb.JobPlanned, error) {
	plan := &pb.JobPlanned{}
	for _, s := range specs {
		b, err := s.Marshal()
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, 16)
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("token nonce: %w", err)
		}
		id := s.ID()
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

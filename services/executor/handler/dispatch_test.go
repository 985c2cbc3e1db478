package handler

import (
	"testing"

	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// fakePlan is an executor plan of jobs of the given purposes, tokens
// named by their purpose and place.
func fakePlan(t *testing.T, digest string, purposes ...string) *record.Decoded {
	t.Helper()
	jp := &pb.JobPlanned{}
	for i, p := range purposes {
		spec := &jobs.Spec{Purpose: p, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Package: "./calc"}
		if p == jobs.Seal {
			spec.Runner, spec.Run = jobs.RunnerCommand, "make check"
		}
		b, err := spec.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jobs.ParseSpec(b); err != nil {
			t.Fatal(err)
		}
		id := digest + "/" + p + string(rune('0'+i))
		jp.Jobs = append(jp.Jobs, &pb.Job{JobId: id, Spec: b, Token: &pb.ContinuationToken{Id: id}})
	}
	return &record.Decoded{Digest: digest, Kind: pb.Kind_KIND_JOB_PLANNED,
		Record: &pb.Record{Producer: &pb.Producer{Identity: keyring.Executor}, Body: &pb.Record_JobPlanned{JobPlanned: jp}}}
}

func fakeResult(plan *record.Decoded, i int) *record.Decoded {
	tok := plan.Record.GetJobPlanned().GetJobs()[i].GetToken().GetId()
	return &record.Decoded{Digest: "res-" + tok, Kind: pb.Kind_KIND_JOB_RESULT,
		Record: &pb.Record{Token: tok, Parents: []string{plan.Digest}, Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: tok}}}}
}

// A coverage job is due, and judges whether the verdict is certain, on
// what the inline path has answered when it reaches it: every job of the
// earlier plans and the plan's jobs before it, never the seal checks or
// jobs after it.
func TestCoverageWaitsForWhatInlineRunsFirst(t *testing.T) {
	p1 := fakePlan(t, "p1", jobs.Claim, jobs.Claim, jobs.Seal)
	p2 := fakePlan(t, "p2", jobs.Claim, jobs.Seal, jobs.Coverage, jobs.Claim)
	cov := p2.Record.GetJobPlanned().GetJobs()[2]
	run := []*record.Decoded{p1, fakeResult(p1, 0), p2, fakeResult(p2, 1), fakeResult(p2, 3)}
	answered := jobs.Answered(run)
	if before(run, p2, cov, answered) {
		t.Fatal("due while a job of the earlier plan is unanswered")
	}
	run = append(run, fakeResult(p1, 1), fakeResult(p1, 2))
	if before(run, p2, cov, jobs.Answered(run)) {
		t.Fatal("due while the plan's claim before it is unanswered")
	}
	run = append(run, fakeResult(p2, 0))
	if !before(run, p2, cov, jobs.Answered(run)) {
		t.Fatal("not due once everything inline runs first is answered")
	}
	in := map[string]bool{}
	for _, r := range certainView(run, p2, cov) {
		in[r.Digest] = true
	}
	for _, want := range []string{"p1", "p2", "res-p1/claim0", "res-p1/claim1", "res-p1/seal2", "res-p2/claim0"} {
		if !in[want] {
			t.Errorf("the view lacks %s", want)
		}
	}
	for _, not := range []string{"res-p2/seal1", "res-p2/claim3"} {
		if in[not] {
			t.Errorf("the view holds %s, which inline runs after the coverage job", not)
		}
	}
}

package handler

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/runtime/runtimetest"
)

// TestHandle: given the records of a run, the adjudication service decides
// it once nothing is pending — and only then, or at its deadline with what
// is there, naming what is missing — storing the artefact the verdict
// names; a decided or unsealed run, or a verdict, is left alone.
func TestHandle(t *testing.T) {
	ctx := context.Background()
	keys, err := keyring.LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.NewBuilder(keys, nil).NewRun("run-1", 2)
	if err != nil {
		t.Fatal(err)
	}
	// The scenario's run with a plan the adjudicator reads: each claim on
	// both sides, failing on the baseline and passing on the patch.
	var specs []*jobs.Spec
	for _, claim := range sc.Sealed.Criteria.Claims {
		specs = append(specs,
			&jobs.Spec{Purpose: jobs.Claim, Side: jobs.Baseline, Claim: claim, Tree: jobs.TreeBaseline, Module: "."},
			&jobs.Spec{Purpose: jobs.Claim, Side: jobs.Patch, Claim: claim, Tree: jobs.TreeOracle, Module: "."})
	}
	planned, err := jobs.Plan(sc.Sealed, sc.Trees.Digest, criteria.BudgetTestRuns, specs)
	if err != nil {
		t.Fatal(err)
	}
	plan := runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: sc.ID, CriteriaDigest: sc.Sealed.Digest, Parents: []string{sc.Trees.Digest},
		Body: &pb.Record_JobPlanned{JobPlanned: planned}})
	records := []*record.Decoded{sc.Request, sc.Seal, sc.Trees, plan}
	for i, job := range planned.Jobs {
		outcome, verdict := jobs.OutcomeFail, "fail"
		if specs[i].Side == jobs.Patch {
			outcome, verdict = jobs.OutcomePass, "pass"
		}
		d, err := (&jobs.Detail{Outcome: outcome, Runs: []jobs.Run{{Verdict: verdict}}}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, runtimetest.Sign(t, keyring.Executor, &pb.Record{RunId: sc.ID, CriteriaDigest: sc.Sealed.Digest, Parents: []string{plan.Digest},
			Token: job.Token.Id, Body: &pb.Record_JobResult{JobResult: &pb.JobResult{JobId: job.JobId, Detail: d, UnitsUsed: 1,
				Termination: pb.Termination_TERMINATION_EXITED, Cases: []*pb.TestCase{{Name: specs[i].Claim, Outcome: verdict}}}}}))
	}
	complete := runtimetest.RunOf(t, sc.ID, append(records, sc.Coverage)...) // every record but the verdict
	noCoverage := runtimetest.RunOf(t, sc.ID, records...)                    // the coverage still pending
	decided := runtimetest.With(t, complete, sc.Verdict)                     // the verdict on the ledger
	unsealed := runtimetest.RunOf(t, sc.ID, sc.Request)                      // not sealed yet
	deadline := time.UnixMilli(sc.Sealed.Criteria.DeadlineUnixMilli)
	last := func(r runtime.Run) *record.Decoded { return r.Records[len(r.Records)-1] }

	for _, tc := range []struct {
		name string
		run  runtime.Run
		tick time.Time // zero: Handle the run's last record; else Tick at this time
		want []string  // kinds emitted
		// decision and reason of the verdict emitted
		decision pb.Decision
		reason   string
	}{
		{name: "evidence complete: decided", run: complete, want: []string{"verdict.reached"},
			decision: pb.Decision_DECISION_INCONCLUSIVE, reason: "the full suite did not run on the patch"},
		{name: "evidence pending: not decided", run: noCoverage},
		{name: "pending before the deadline: not decided", run: noCoverage, tick: deadline.Add(-time.Minute)},
		{name: "pending past the deadline: inconclusive naming what is missing", run: noCoverage, tick: deadline.Add(time.Minute),
			want: []string{"verdict.reached"}, decision: pb.Decision_DECISION_INCONCLUSIVE, reason: "coverage.measured"},
		{name: "a verdict is not decided again", run: decided},
		{name: "a decided run is not decided again at the deadline", run: decided, tick: deadline.Add(time.Minute)},
		{name: "an unsealed run is not decided", run: unsealed},
		{name: "an unsealed run is not decided at the deadline", run: unsealed, tick: deadline.Add(time.Minute)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blobs, err := blob.Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			h := &Handler{Blobs: blobs}
			rec := runtimetest.NewRecorder(t, keyring.Adjudication)
			if tc.tick.IsZero() {
				err = h.Handle(ctx, last(tc.run), tc.run, rec.Emit)
			} else {
				err = h.Tick(ctx, tc.tick, map[string]runtime.Run{tc.run.ID: tc.run}, rec.Emit)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.Kinds(); !slices.Equal(got, tc.want) {
				t.Fatalf("emitted %q, want %q", got, tc.want)
			}
			if len(tc.want) == 0 {
				return
			}
			v := rec.Emitted()[0]
			vr := v.Record.GetVerdictReached()
			if said := vr.Reason + "\n" + strings.Join(vr.Reasons, "\n"); vr.Decision != tc.decision || !strings.Contains(said, tc.reason) {
				t.Fatalf("decision %v (%s), want %v naming %q", vr.Decision, said, tc.decision, tc.reason)
			}
			if v.Record.CriteriaDigest != sc.Sealed.Digest || !slices.Equal(v.Record.Parents, vr.Evidence) || len(vr.Evidence) == 0 {
				t.Fatalf("criteria %q, parents %q, evidence %q", v.Record.CriteriaDigest, v.Record.Parents, vr.Evidence)
			}
			b, err := blobs.Get(ctx, vr.ArtefactBlob)
			if err != nil {
				t.Fatalf("the artefact the verdict names: %v", err)
			}
			var a adjudication.Artefact
			if err := json.Unmarshal(b, &a); err != nil || a.RunID != sc.ID || a.Reason != vr.Reason {
				t.Fatalf("artefact %+v: %v", a, err)
			}
			// Decided once: the same records again decide nothing more.
			if err := h.Handle(ctx, last(tc.run), tc.run, rec.Emit); err != nil || len(rec.Emitted()) != 1 {
				t.Fatalf("decided twice (%v)", err)
			}
		})
	}
}

package ledger

import (
	"fmt"
	"strings"
	"time"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Describe returns a one-line, human-readable summary of a record's body.
func Describe(rec *record.Decoded) string {
	r := rec.Record
	switch b := r.GetBody().(type) {
	case *pb.Record_RunRequested:
		patch := short(b.RunRequested.PatchCommit)
		if patch == "" {
			patch = "diff " + short(b.RunRequested.PatchDigest)
		}
		return fmt.Sprintf("baseline %s, patch %s", short(b.RunRequested.BaselineCommit), patch)
	case *pb.Record_CriteriaSealed:
		return fmt.Sprintf("criteria %s (%d bytes)", short(b.CriteriaSealed.CriteriaDigest), len(b.CriteriaSealed.CanonicalCriteria))
	case *pb.Record_TreesMaterialized:
		d := fmt.Sprintf("%d changed files, %d harness drift, %d oracle files restored", len(b.TreesMaterialized.Changes), len(b.TreesMaterialized.HarnessDrift), len(b.TreesMaterialized.OracleRestored))
		for _, l := range strings.Split(b.TreesMaterialized.SynthesizedGoMod, "\n") {
			if m, ok := strings.CutPrefix(l, "module "); ok {
				d += "; no go.mod: both trees get one declaring module " + m
			}
		}
		return d
	case *pb.Record_JobPlanned:
		var jobs []string
		for _, j := range b.JobPlanned.Jobs {
			jobs = append(jobs, j.JobId)
		}
		return fmt.Sprintf("%d jobs: %s", len(jobs), clip(strings.Join(jobs, ", "), 100))
	case *pb.Record_JobResult:
		res := b.JobResult
		cases := "no case count"
		if res.CasesRun != nil {
			cases = fmt.Sprintf("%d cases", res.GetCasesRun())
		}
		return fmt.Sprintf("job %s: %s exit %d, %s, %s", res.JobId, strings.ToLower(strings.TrimPrefix(res.Termination.String(), "TERMINATION_")), res.ExitCode, cases, time.Duration(res.WallNanos).Round(time.Millisecond))
	case *pb.Record_CoverageMeasured:
		c := b.CoverageMeasured
		switch {
		case c.Ratio == nil && c.Source == pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED:
			return fmt.Sprintf("diff coverage: nothing to measure (%s)", c.Reason)
		case c.Ratio == nil:
			return fmt.Sprintf("diff coverage not measured (%s)", c.Reason)
		}
		return fmt.Sprintf("diff coverage %d/%d = %.3f", c.CoveredLines, c.ChangedLines, c.GetRatio())
	case *pb.Record_StrengthMeasured:
		st := b.StrengthMeasured
		if st.WilsonLower == nil {
			return fmt.Sprintf("strength not verified (%s)", st.Reason)
		}
		return fmt.Sprintf("mutants killed %d, survived %d, stillborn %d; Wilson lower %.3f", st.Killed, st.Survived, st.Stillborn, st.GetWilsonLower())
	case *pb.Record_VerdictReached:
		d := strings.TrimPrefix(b.VerdictReached.Decision.String(), "DECISION_")
		return d + ": " + strings.TrimPrefix(b.VerdictReached.Reason, d+": ")
	case *pb.Record_VerdictSealed:
		return fmt.Sprintf("logged at index %d of %s", b.VerdictSealed.LogIndex, b.VerdictSealed.LogId)
	case *pb.Record_RecordRefused:
		ref := b.RecordRefused
		return fmt.Sprintf("refused %s %s: %s: %s", record.KindName(ref.RefusedKind), short(ref.RefusedDigest), ref.ReasonCode, ref.Detail)
	case *pb.Record_RevocationEpoch:
		e := b.RevocationEpoch
		return fmt.Sprintf("epoch %d revokes %d keys, %d runs", e.Epoch, len(e.RevokedKeyIds), len(e.RevokedRuns))
	case *pb.Record_RunFailed:
		f := b.RunFailed
		return fmt.Sprintf("%s failed on %s %s after %d attempt(s): %s", f.Service, f.FailedKind, short(f.FailedRecord), f.Attempts, f.Reason)
	}
	return ""
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

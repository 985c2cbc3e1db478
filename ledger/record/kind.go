package record

import (
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// kindNames are the stable, human-facing names of the record kinds, used in
// trust policies, metadata, listings and refusals.
func kindNames() map[pb.Kind]string {
	return map[pb.Kind]string{
		pb.Kind_KIND_RUN_REQUESTED:      "run.requested",
		pb.Kind_KIND_CRITERIA_SEALED:    "criteria.sealed",
		pb.Kind_KIND_TREES_MATERIALIZED: "trees.materialized",
		pb.Kind_KIND_JOB_PLANNED:        "job.planned",
		pb.Kind_KIND_JOB_RESULT:         "job.result",
		pb.Kind_KIND_COVERAGE_MEASURED:  "coverage.measured",
		pb.Kind_KIND_STRENGTH_MEASURED:  "strength.measured",
		pb.Kind_KIND_VERDICT_REACHED:    "verdict.reached",
		pb.Kind_KIND_VERDICT_SEALED:     "verdict.sealed",
		pb.Kind_KIND_RECORD_REFUSED:     "record.refused",
		pb.Kind_KIND_REVOCATION_EPOCH:   "revocation.epoch",
		pb.Kind_KIND_RUN_FAILED:         "run.failed",
	}
}

// KindName returns the stable name of k ("criteria.sealed", ...), or
// "unknown" for a kind this version does not know.
func KindName(k pb.Kind) string {
	if n, ok := kindNames()[k]; ok {
		return n
	}
	return "unknown"
}

// ParseKind returns the kind named name.
func ParseKind(name string) (pb.Kind, bool) {
	for k, n := range kindNames() {
		if n == name {
			return k, true
		}
	}
	return pb.Kind_KIND_UNSPECIFIED, false
}

// Kinds lists every known kind in enum order.
func Kinds() []pb.Kind {
	var ks []pb.Kind
	for k := pb.Kind_KIND_RUN_REQUESTED; k <= pb.Kind_KIND_RUN_FAILED; k++ {
		ks = append(ks, k)
	}
	return ks
}

// KindOf derives a record's kind from its body.
func KindOf(r *pb.Record) pb.Kind {
	switch r.GetBody().(type) {
	case *pb.Record_RunRequested:
		return pb.Kind_KIND_RUN_REQUESTED
	case *pb.Record_CriteriaSealed:
		return pb.Kind_KIND_CRITERIA_SEALED
	case *pb.Record_TreesMaterialized:
		return pb.Kind_KIND_TREES_MATERIALIZED
	case *pb.Record_JobPlanned:
		return pb.Kind_KIND_JOB_PLANNED
	case *pb.Record_JobResult:
		return pb.Kind_KIND_JOB_RESULT
	case *pb.Record_CoverageMeasured:
		return pb.Kind_KIND_COVERAGE_MEASURED
	case *pb.Record_StrengthMeasured:
		return pb.Kind_KIND_STRENGTH_MEASURED
	case *pb.Record_VerdictReached:
		return pb.Kind_KIND_VERDICT_REACHED
	case *pb.Record_VerdictSealed:
		return pb.Kind_KIND_VERDICT_SEALED
	case *pb.Record_RecordRefused:
		return pb.Kind_KIND_RECORD_REFUSED
	case *pb.Record_RevocationEpoch:
		return pb.Kind_KIND_REVOCATION_EPOCH
	case *pb.Record_RunFailed:
		return pb.Kind_KIND_RUN_FAILED
	default:
		return pb.Kind_KIND_UNSPECIFIED
	}
}

package adjudication

import "github.com/sealgate/sealgate/ledger/record"

// CertainBlock returns the decisive reason when a run's records already
// make its verdict BLOCK — a refuted claim, a regression, a failed seal
// check: evidence that more evidence cannot undo — or "". A service uses
// it to skip work whose result cannot change the verdict.
func CertainBlock(runID string, recs []*record.Decoded) string {
	r := Read(runID, recs)
	if r.Sealed == nil {
		return ""
	}
	v := Decide(r.Policy(), r.Gather(nil))
	if v.Decision != Block {
		return ""
	}
	return v.Reason
}

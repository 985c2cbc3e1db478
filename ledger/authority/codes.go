package authority

import "github.com/sealgate/sealgate/ledger/record"

// Reason codes of refusals. They are stable: tools, dashboards and `sealgate
// doctor` match on them, so a code is never renamed or reused.
const (
	CodeNoTrustRoots     = "no_trust_roots"
	CodeMalformed        = record.CodeMalformed
	CodeDigestMismatch   = record.CodeDigestMismatch
	CodeBadSignature     = record.CodeBadSignature
	CodeUnknownProducer  = "unknown_producer"
	CodeUnauthorizedKind = "unauthorized_kind"
	CodeRevokedKey       = "revoked_key"
	CodeRevokedRun       = "revoked_run"
	CodeEpochRegression  = "epoch_regression"
	CodeRunConflict      = "run_conflict"
	CodeNoSeal           = "no_seal"
	CodeCriteriaMismatch = "criteria_mismatch"
	CodeUnknownParent    = "unknown_parent"
	CodeTokenUnknown     = "token_unknown"
	CodeTokenMismatch    = "token_mismatch"
	CodeTokenReplayed    = "token_replayed"
	CodeTokenConflict    = "token_conflict"
	CodeBudgetExceeded   = "budget_exceeded"
	CodeFanoutExceeded   = "fanout_exceeded"
	CodeDepthExceeded    = "depth_exceeded"
	CodeUnfoundedRefusal = "unfounded_refusal"
	CodeRunClosed        = "run_closed"
)

// CodeInfo describes one reason code.
type CodeInfo struct {
	Code        string `json:"code"`
	Description string `json:"description"`
}

// Codes lists every reason code with what it means, in a stable order.
func Codes() []CodeInfo {
	return []CodeInfo{
		{CodeNoTrustRoots, "the verifier trusts no key: an empty trust set refuses everything"},
		{CodeMalformed, "the record does not decode, is not in canonical encoding, or lacks required fields"},
		{CodeDigestMismatch, "the stored digest is not the digest of the record's content (tampered)"},
		{CodeBadSignature, "the signature does not verify under the key the record names (tampered or forged)"},
		{CodeUnknownProducer, "the record is signed by a key the trust roots do not contain, or under another identity"},
		{CodeUnauthorizedKind, "the producer is not authorized to write records of this kind"},
		{CodeRevokedKey, "the signing key is revoked by the current revocation epoch"},
		{CodeRevokedRun, "the run is revoked by the current revocation epoch"},
		{CodeEpochRegression, "a revocation epoch does not increase the current epoch"},
		{CodeRunConflict, "the run was already requested, or its criteria were already sealed"},
		{CodeNoSeal, "the record belongs to a run with no sealed criteria (a record before the seal)"},
		{CodeCriteriaMismatch, "the record carries another criteria digest than the run's seal, or the seal disagrees with the request"},
		{CodeUnknownParent, "a parent digest names no earlier record of the same run"},
		{CodeTokenUnknown, "the continuation token the record consumes was never issued in this run, or a result consumes none"},
		{CodeTokenMismatch, "an issued token is bound to another run, criteria, parent or depth than its plan"},
		{CodeTokenReplayed, "a token id or nonce was issued twice"},
		{CodeTokenConflict, "a different result for an already consumed token"},
		{CodeBudgetExceeded, "the plan would allocate more than the run's budget pool; nothing was spent"},
		{CodeFanoutExceeded, "the plan gives one parent more children than the sealed max_fanout"},
		{CodeDepthExceeded, "the plan reaches deeper than the sealed max_depth"},
		{CodeUnfoundedRefusal, "a refusal record whose refused record is not refused for its stated reason"},
		{CodeRunClosed, "the run's verdict was already sealed"},
	}
}

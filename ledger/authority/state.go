// Package authority decides who may add what to the ledger.
//
// State is a deterministic state machine over the ledger's records in ledger
// order: every service, every replica and every offline verifier that feeds
// it the same records reaches the same decisions. A record is admitted,
// recognised as a duplicate (ignored: consumers are idempotent), or refused
// with a stable reason code — and a refusal changes nothing, so a plan over
// budget is refused before it spends.
package authority

import (
	"fmt"
	"slices"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Outcome of admitting one record.
type Outcome int

const (
	// Refused records are not part of the ledger; their refusal is.
	Refused Outcome = iota
	// Accepted records become part of the ledger.
	Accepted
	// Duplicate records repeat an admitted record (same digest), or an
	// identical result for an already consumed token: ignored.
	Duplicate
	// Proposed records were handed to the ledger's admission guard in
	// another process; it decides, and a refusal appears on the ledger as a
	// record.refused. No State returns it.
	Proposed
)

func (o Outcome) String() string {
	switch o {
	case Accepted:
		return "accepted"
	case Duplicate:
		return "duplicate"
	case Proposed:
		return "proposed"
	default:
		return "refused"
	}
}

// Decision is what State decided about one record.
type Decision struct {
	Outcome Outcome
	// Code and Detail explain a refusal.
	Code   string
	Detail string
	// Record is the decoded record; nil when it did not decode.
	Record *record.Decoded
}

// RunID is the run the record names, when it decoded.
func (d Decision) RunID() string {
	if d.Record == nil {
		return ""
	}
	return d.Record.Record.GetRunId()
}

func refuse(rec *record.Decoded, code, format string, args ...any) Decision {
	return Decision{Outcome: Refused, Code: code, Detail: fmt.Sprintf(format, args...), Record: rec}
}

// State holds everything admission depends on.
type State struct {
	trust       *Trust
	epoch       uint64
	revokedKeys map[string]bool
	revokedRuns map[string]bool
	digests     map[string]bool
	runs        map[string]*Run
}

// Run is the admission state of one run.
type Run struct {
	ID            string
	Requested     *pb.RunRequested
	RequestDigest string
	Sealed        *criteria.Sealed
	// Closed is set once the verdict is sealed.
	Closed   bool
	Pool     *Pool
	records  map[string]pb.Kind
	tokens   map[string]*tokenState
	nonces   map[string]bool
	children map[string]uint32
	// plans holds, per producer identity, the content keys of the run's
	// admitted plans (record.ContentKey: what a plan says, not when).
	plans map[string]bool
}

type tokenState struct {
	token *pb.ContinuationToken
	// consumedBy is the content key of the record that consumed the token.
	consumedBy string
}

// New returns the admission state for a ledger checked against trust.
func New(trust *Trust) *State {
	if trust == nil {
		trust = &Trust{}
	}
	return &State{
		trust:       trust,
		revokedKeys: map[string]bool{},
		revokedRuns: map[string]bool{},
		digests:     map[string]bool{},
		runs:        map[string]*Run{},
	}
}

// Run returns the state of run id, or nil.
func (s *State) Run(id string) *Run { return s.runs[id] }

// RunIDs lists the runs requested so far, sorted.
func (s *State) RunIDs() []string {
	ids := make([]string, 0, len(s.runs))
	for id := range s.runs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Epoch is the current revocation epoch (0 before the first).
func (s *State) Epoch() uint64 { return s.epoch }

// Prepared is a record whose stateless checks are done: it decoded, its
// producer key is trusted under the identity it names, and its signature
// verifies. Preparing needs only the trust set, so many records can be
// prepared concurrently (signature checks dominate the cost of admission)
// while admission itself stays in ledger order.
type Prepared struct {
	raw     []byte
	rec     *record.Decoded
	refusal *Decision
}

// Prepare runs the stateless checks on raw. It is safe to call concurrently
// with itself and with Admit.
func (s *State) Prepare(raw []byte) *Prepared {
	p := &Prepared{raw: raw}
	if s.trust.Len() == 0 {
		d := refuse(nil, CodeNoTrustRoots, "no trusted keys: an empty trust set refuses everything")
		p.refusal = &d
		return p
	}
	rec, err := record.Decode(raw)
	if err != nil {
		code, detail := CodeMalformed, err.Error()
		if e, ok := err.(*record.Error); ok {
			code, detail = e.Code, e.Detail
		}
		d := refuse(nil, code, "%s", detail)
		p.refusal = &d
		return p
	}
	p.rec = rec
	r := rec.Record
	key, ok := s.trust.Lookup(r.Producer.KeyId)
	var d Decision
	switch {
	case !ok:
		d = refuse(rec, CodeUnknownProducer, "key %.16s… of %q is not a trusted key", r.Producer.KeyId, r.Producer.Identity)
	case key.Identity != r.Producer.Identity:
		d = refuse(rec, CodeUnknownProducer, "key %.16s… belongs to %q, not %q", r.Producer.KeyId, key.Identity, r.Producer.Identity)
	default:
		if err := rec.Verify(key.PublicKey); err != nil {
			d = refuse(rec, CodeBadSignature, "%v", err)
		} else if !slices.Contains(key.Kinds, rec.Kind) {
			d = refuse(rec, CodeUnauthorizedKind, "%q may not write %s records", key.Identity, record.KindName(rec.Kind))
		} else {
			return p
		}
	}
	p.refusal = &d
	return p
}

// Check decides about raw without changing the state.
func (s *State) Check(raw []byte) Decision {
	d, _ := s.decide(s.Prepare(raw))
	return d
}

// Admit decides about raw and, when it is accepted, applies it.
func (s *State) Admit(raw []byte) Decision {
	return s.AdmitPrepared(s.Prepare(raw))
}

// AdmitPrepared is Admit for a record prepared by this state.
func (s *State) AdmitPrepared(p *Prepared) Decision {
	d, apply := s.decide(p)
	if d.Outcome == Accepted {
		apply()
	}
	return d
}

// decide returns the decision and, for an accepted record, the state change
// to apply. Nothing is changed before every check passed.
func (s *State) decide(p *Prepared) (Decision, func()) {
	rec := p.rec
	if rec == nil {
		return *p.refusal, nil
	}
	if s.digests[rec.Digest] {
		// The same content as an admitted record: a redelivery.
		return Decision{Outcome: Duplicate, Record: rec}, nil
	}
	if p.refusal != nil {
		return *p.refusal, nil
	}
	r := rec.Record
	if s.revokedKeys[r.Producer.KeyId] {
		return refuse(rec, CodeRevokedKey, "key %.16s… of %q is revoked at epoch %d", r.Producer.KeyId, r.Producer.Identity, s.epoch), nil
	}
	if r.RunId != "" && s.revokedRuns[r.RunId] {
		return refuse(rec, CodeRevokedRun, "run %s is revoked at epoch %d", r.RunId, s.epoch), nil
	}

	switch rec.Kind {
	case pb.Kind_KIND_REVOCATION_EPOCH:
		return s.decideEpoch(rec)
	case pb.Kind_KIND_RUN_REQUESTED:
		return s.decideRequest(rec)
	case pb.Kind_KIND_RECORD_REFUSED:
		return s.decideRefusal(rec)
	}
	return s.decideRunRecord(rec)
}

func (s *State) decideEpoch(rec *record.Decoded) (Decision, func()) {
	r := rec.Record
	e := r.GetRevocationEpoch()
	if r.RunId != "" || r.CriteriaDigest != "" || r.Token != "" {
		return refuse(rec, CodeMalformed, "a revocation epoch is ledger-wide: no run, criteria or token"), nil
	}
	if e.Epoch <= s.epoch {
		return refuse(rec, CodeEpochRegression, "epoch %d does not follow epoch %d", e.Epoch, s.epoch), nil
	}
	for _, k := range e.RevokedKeyIds {
		if !record.IsDigest(k) {
			return refuse(rec, CodeMalformed, "revoked key id %q is not a hex SHA-256", k), nil
		}
	}
	return Decision{Outcome: Accepted, Record: rec}, func() {
		s.digests[rec.Digest] = true
		s.epoch = e.Epoch
		for _, k := range e.RevokedKeyIds {
			s.revokedKeys[k] = true
		}
		for _, run := range e.RevokedRuns {
			s.revokedRuns[run] = true
		}
	}
}

func (s *State) decideRequest(rec *record.Decoded) (Decision, func()) {
	r := rec.Record
	req := r.GetRunRequested()
	switch {
	case r.RunId == "":
		return refuse(rec, CodeMalformed, "run.requested names no run"), nil
	case s.runs[r.RunId] != nil:
		return refuse(rec, CodeRunConflict, "run %s was already requested", r.RunId), nil
	case r.CriteriaDigest != "" || len(r.Parents) != 0 || r.Token != "":
		return refuse(rec, CodeMalformed, "run.requested comes before the seal: no criteria digest, parents or token"), nil
	case !record.IsDigest(req.PatchDigest):
		return refuse(rec, CodeMalformed, "run.requested has no patch digest"), nil
	}
	return Decision{Outcome: Accepted, Record: rec}, func() {
		s.digests[rec.Digest] = true
		s.runs[r.RunId] = &Run{
			ID:            r.RunId,
			Requested:     req,
			RequestDigest: rec.Digest,
			records:       map[string]pb.Kind{rec.Digest: rec.Kind},
			tokens:        map[string]*tokenState{},
			nonces:        map[string]bool{},
			children:      map[string]uint32{},
			plans:         map[string]bool{},
		}
	}
}

// decideRefusal admits a refusal only when its refused record, checked
// against the current state, is refused for exactly the stated reason: a
// refusal is a signed negative anyone can re-derive.
func (s *State) decideRefusal(rec *record.Decoded) (Decision, func()) {
	ref := rec.Record.GetRecordRefused()
	if ref.ReasonCode == "" {
		return refuse(rec, CodeMalformed, "refusal names no reason code"), nil
	}
	again := s.recheck(ref.RefusedRecord)
	if again.Outcome != Refused || again.Code != ref.ReasonCode {
		got := again.Outcome.String()
		if again.Outcome == Refused {
			got = "refused for " + again.Code
		}
		return refuse(rec, CodeUnfoundedRefusal, "refusal says %s, the refused record is %s", ref.ReasonCode, got), nil
	}
	if again.Record != nil && again.Record.Digest != ref.RefusedDigest {
		return refuse(rec, CodeUnfoundedRefusal, "refusal names digest %.16s…, the refused record is %.16s…", ref.RefusedDigest, again.Record.Digest), nil
	}
	return Decision{Outcome: Accepted, Record: rec}, func() { s.digests[rec.Digest] = true }
}

// recheck decides about a refused record. A refusal of a refusal is checked
// one level deep only: refusals of refusals of refusals prove nothing more.
func (s *State) recheck(raw []byte) Decision {
	if d, err := record.Decode(raw); err == nil && d.Kind == pb.Kind_KIND_RECORD_REFUSED {
		if inner, err := record.Decode(d.Record.GetRecordRefused().RefusedRecord); err == nil && inner.Kind == pb.Kind_KIND_RECORD_REFUSED {
			return refuse(d, CodeMalformed, "refusals nest at most one level")
		}
	}
	return s.Check(raw)
}

func (s *State) decideRunRecord(rec *record.Decoded) (Decision, func()) {
	r := rec.Record
	run := s.runs[r.RunId]
	if r.RunId == "" || run == nil {
		return refuse(rec, CodeNoSeal, "run %q was never requested, so it has no seal", r.RunId), nil
	}
	if run.Closed {
		return refuse(rec, CodeRunClosed, "run %s is sealed; nothing more can be added", r.RunId), nil
	}
	if rec.Kind == pb.Kind_KIND_CRITERIA_SEALED {
		return s.decideSeal(rec, run)
	}
	if run.Sealed == nil {
		return refuse(rec, CodeNoSeal, "%s arrived before run %s was sealed", record.KindName(rec.Kind), r.RunId), nil
	}
	if r.CriteriaDigest != run.Sealed.Digest {
		return refuse(rec, CodeCriteriaMismatch, "record carries criteria %.16s…, the run is sealed with %.16s…", r.CriteriaDigest, run.Sealed.Digest), nil
	}
	if len(r.Parents) == 0 {
		return refuse(rec, CodeUnknownParent, "%s names no parent", record.KindName(rec.Kind)), nil
	}
	for _, p := range r.Parents {
		if _, ok := run.records[p]; !ok {
			return refuse(rec, CodeUnknownParent, "parent %.16s… is no earlier record of run %s", p, r.RunId), nil
		}
	}

	if f := r.GetRunFailed(); f != nil {
		switch {
		case r.Token != "":
			return refuse(rec, CodeMalformed, "run.failed consumes no token"), nil
		case f.Service == "" || f.Reason == "":
			return refuse(rec, CodeMalformed, "run.failed names no service or no reason"), nil
		case !slices.Contains(r.Parents, f.FailedRecord):
			return refuse(rec, CodeMalformed, "run.failed must name the record whose handling failed as its parent"), nil
		}
	}

	// Token consumption.
	var (
		consumed      *tokenState
		consumedKey   string
		consumedUnits uint64
		plannerDepth  uint32
	)
	if r.Token != "" {
		ts := run.tokens[r.Token]
		if ts == nil {
			return refuse(rec, CodeTokenUnknown, "token %q was never issued in run %s", r.Token, r.RunId), nil
		}
		key, err := record.ContentKey(r)
		if err != nil {
			return refuse(rec, CodeMalformed, "%v", err), nil
		}
		if ts.consumedBy != "" {
			if ts.consumedBy == key {
				return Decision{Outcome: Duplicate, Record: rec}, nil
			}
			return refuse(rec, CodeTokenConflict, "token %q was already consumed by a different result", r.Token), nil
		}
		used := ts.token.BudgetUnits
		if res := r.GetJobResult(); res != nil {
			used = res.UnitsUsed
		}
		if err := run.Pool.CheckConsume(r.Token, used); err != nil {
			return refuse(rec, CodeBudgetExceeded, "%v", err), nil
		}
		consumed, consumedKey, consumedUnits = ts, key, used
		plannerDepth = ts.token.Depth
	} else if rec.Kind == pb.Kind_KIND_JOB_RESULT {
		return refuse(rec, CodeTokenUnknown, "a job result must consume the token of its job"), nil
	}

	var (
		plan    []*pb.ContinuationToken
		planKey string
	)
	if jp := r.GetJobPlanned(); jp != nil {
		key, err := record.ContentKey(r)
		if err != nil {
			return refuse(rec, CodeMalformed, "%v", err), nil
		}
		planKey = r.Producer.GetIdentity() + "\x00" + key
		if run.plans[planKey] {
			// The same plan, made again by its planner (another replica
			// took over the record it answers, or it appended again
			// after a failed append): it issues nothing new.
			return Decision{Outcome: Duplicate, Record: rec}, nil
		}
		var d Decision
		plan, d = s.checkPlan(rec, run, jp, plannerDepth)
		if d.Outcome == Refused {
			return d, nil
		}
	}

	return Decision{Outcome: Accepted, Record: rec}, func() {
		s.digests[rec.Digest] = true
		run.records[rec.Digest] = rec.Kind
		if consumed != nil {
			consumed.consumedBy = consumedKey
			_ = run.Pool.Consume(r.Token, consumedUnits) // CheckConsume passed above
		}
		if planKey != "" {
			run.plans[planKey] = true
		}
		if len(plan) > 0 {
			reqs := make([]Request, 0, len(plan))
			for _, t := range plan {
				run.tokens[t.Id] = &tokenState{token: t}
				run.nonces[string(t.Nonce)] = true
				run.children[t.ParentDigest]++
				reqs = append(reqs, Request{ID: t.Id, Dimension: t.BudgetDimension, Units: t.BudgetUnits})
			}
			_ = run.Pool.Reserve(reqs) // checked in checkPlan
		}
		switch rec.Kind {
		case pb.Kind_KIND_VERDICT_REACHED:
			// Fan-in of the whole run: work never answered is released.
			run.Pool.ReleaseOpen()
		case pb.Kind_KIND_VERDICT_SEALED:
			run.Closed = true
		}
	}
}

func (s *State) decideSeal(rec *record.Decoded, run *Run) (Decision, func()) {
	r := rec.Record
	if run.Sealed != nil {
		return refuse(rec, CodeRunConflict, "run %s is already sealed", r.RunId), nil
	}
	cs := r.GetCriteriaSealed()
	sealed, err := criteria.Parse(cs.CanonicalCriteria)
	if err != nil {
		return refuse(rec, CodeMalformed, "%v", err), nil
	}
	switch {
	case sealed.Digest != cs.CriteriaDigest || sealed.Digest != r.CriteriaDigest:
		return refuse(rec, CodeCriteriaMismatch, "sealed criteria hash to %.16s…, the record says %.16s…", sealed.Digest, r.CriteriaDigest), nil
	case sealed.Criteria.RunID != r.RunId:
		return refuse(rec, CodeCriteriaMismatch, "criteria are for run %q, the record for run %q", sealed.Criteria.RunID, r.RunId), nil
	case sealed.Criteria.Baseline != run.Requested.BaselineCommit || sealed.Criteria.PatchDigest != run.Requested.PatchDigest:
		return refuse(rec, CodeCriteriaMismatch, "criteria name another baseline or patch than the run request"), nil
	case r.Token != "":
		return refuse(rec, CodeMalformed, "the seal consumes no token"), nil
	}
	if !slices.Contains(r.Parents, run.RequestDigest) {
		return refuse(rec, CodeUnknownParent, "the seal must name the run request as its parent"), nil
	}
	for _, p := range r.Parents {
		if _, ok := run.records[p]; !ok {
			return refuse(rec, CodeUnknownParent, "parent %.16s… is no earlier record of run %s", p, r.RunId), nil
		}
	}
	return Decision{Outcome: Accepted, Record: rec}, func() {
		s.digests[rec.Digest] = true
		run.records[rec.Digest] = rec.Kind
		run.Sealed = sealed
		run.Pool = NewPool(sealed.Criteria.Budget)
	}
}

// checkPlan checks the tokens a plan issues: bound to this run, criteria and
// one of the plan's parents, fresh ids and nonces, one level below the
// planner, within the sealed depth and fan-out, and within the budget.
func (s *State) checkPlan(rec *record.Decoded, run *Run, jp *pb.JobPlanned, plannerDepth uint32) ([]*pb.ContinuationToken, Decision) {
	r := rec.Record
	graph := run.Sealed.Criteria.TaskGraph
	if len(jp.Jobs) == 0 {
		return nil, refuse(rec, CodeMalformed, "a plan with no jobs")
	}
	ids := map[string]bool{}
	nonces := map[string]bool{}
	children := map[string]uint32{}
	tokens := make([]*pb.ContinuationToken, 0, len(jp.Jobs))
	reqs := make([]Request, 0, len(jp.Jobs))
	for _, job := range jp.Jobs {
		t := job.GetToken()
		if t == nil || t.Id == "" {
			return nil, refuse(rec, CodeMalformed, "job %q carries no continuation token", job.JobId)
		}
		if run.tokens[t.Id] != nil || ids[t.Id] {
			return nil, refuse(rec, CodeTokenReplayed, "token %q was already issued", t.Id)
		}
		if len(t.Nonce) < 16 {
			return nil, refuse(rec, CodeMalformed, "token %q has a nonce of %d bytes, want at least 16", t.Id, len(t.Nonce))
		}
		if run.nonces[string(t.Nonce)] || nonces[string(t.Nonce)] {
			return nil, refuse(rec, CodeTokenReplayed, "token %q reuses a nonce", t.Id)
		}
		switch {
		case t.RunId != r.RunId:
			return nil, refuse(rec, CodeTokenMismatch, "token %q is for run %q", t.Id, t.RunId)
		case t.CriteriaDigest != run.Sealed.Digest:
			return nil, refuse(rec, CodeTokenMismatch, "token %q is bound to criteria %.16s…", t.Id, t.CriteriaDigest)
		case !slices.Contains(r.Parents, t.ParentDigest):
			return nil, refuse(rec, CodeTokenMismatch, "token %q names parent %.16s…, not a parent of its plan", t.Id, t.ParentDigest)
		case t.Depth > graph.MaxDepth || plannerDepth+1 > graph.MaxDepth:
			return nil, refuse(rec, CodeDepthExceeded, "token %q at depth %d exceeds the sealed max_depth %d", t.Id, max(t.Depth, plannerDepth+1), graph.MaxDepth)
		case t.Depth != plannerDepth+1:
			return nil, refuse(rec, CodeTokenMismatch, "token %q has depth %d, its planner is at depth %d", t.Id, t.Depth, plannerDepth)
		}
		ids[t.Id] = true
		nonces[string(t.Nonce)] = true
		children[t.ParentDigest]++
		if run.children[t.ParentDigest]+children[t.ParentDigest] > graph.MaxFanout {
			return nil, refuse(rec, CodeFanoutExceeded, "parent %.16s… would have %d children, the sealed max_fanout is %d",
				t.ParentDigest, run.children[t.ParentDigest]+children[t.ParentDigest], graph.MaxFanout)
		}
		tokens = append(tokens, t)
		reqs = append(reqs, Request{ID: t.Id, Dimension: t.BudgetDimension, Units: t.BudgetUnits})
	}
	if err := run.Pool.CheckReserve(reqs); err != nil {
		return nil, refuse(rec, CodeBudgetExceeded, "plan refused before spending: %v", err)
	}
	return tokens, Decision{Outcome: Accepted}
}

package authority_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

type fixture struct {
	keys  *keyring.Keyring
	trust *authority.Trust
	b     *scenario.Builder
	run   *scenario.Run
}

func newFixture(t *testing.T, jobs int) *fixture {
	t.Helper()
	keys, err := keyring.LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1_800_000_000, 0)
	b := scenario.NewBuilder(keys, func() time.Time { clock = clock.Add(time.Millisecond); return clock })
	run, err := b.NewRun("run-1", jobs)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{keys: keys, trust: trust, b: b, run: run}
}

func encode(t *testing.T, rec *record.Decoded) []byte {
	t.Helper()
	b, err := rec.Encoded()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// admitAll admits recs and fails the test unless every one is accepted.
func admitAll(t *testing.T, s *authority.State, recs ...*record.Decoded) {
	t.Helper()
	for _, rec := range recs {
		if d := s.Admit(encode(t, rec)); d.Outcome != authority.Accepted {
			t.Fatalf("%s refused: %s: %s", record.KindName(rec.Kind), d.Code, d.Detail)
		}
	}
}

func (f *fixture) sign(t *testing.T, identity string, r *pb.Record) *record.Decoded {
	t.Helper()
	rec, err := f.b.Sign(identity, r)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestValidRunIsAdmittedAndConserved(t *testing.T) {
	f := newFixture(t, 4)
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()...)
	run := s.Run(f.run.ID)
	if run == nil || run.Sealed == nil || run.Sealed.Digest != f.run.Sealed.Digest {
		t.Fatalf("run not sealed with the scenario's criteria")
	}
	if err := run.Pool.Check(); err != nil {
		t.Fatal(err)
	}
	for _, a := range run.Pool.Allocations() {
		if a.Consumed != 1 || a.Reserved != 0 || a.Released != 0 {
			t.Errorf("allocation %+v: want consumed 1", a)
		}
	}
	// The same record again is a duplicate, not a second admission.
	if d := s.Admit(encode(t, f.run.Results[0])); d.Outcome != authority.Duplicate {
		t.Errorf("redelivered record: %v, want duplicate", d.Outcome)
	}
}

// TestSamePlanAgainIsDuplicate: a plan made again with the same content —
// another replica planned the same record, or the planner appended again
// after an append it could not confirm — differs only in its time. It is
// a duplicate: admitted once, issuing nothing the second time, and never
// a refusal that would leave an honest run INCONCLUSIVE. The same plan
// from another producer is not the planner's plan again.
func TestSamePlanAgainIsDuplicate(t *testing.T) {
	f := newFixture(t, 3)
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()[:4]...)
	again := f.sign(t, keyring.Executor, proto.Clone(f.run.Plan.Record).(*pb.Record))
	if again.Digest == f.run.Plan.Digest {
		t.Fatal("the plan signed again has the same digest: the test needs a later time")
	}
	if d := s.Admit(encode(t, again)); d.Outcome != authority.Duplicate {
		t.Fatalf("the same plan at a later time: %v %q (%s), want duplicate", d.Outcome, d.Code, d.Detail)
	}
	// Nothing was issued twice: the run's results are still admitted
	// once each, and the budget balances.
	admitAll(t, s, f.run.Records()[4:]...)
	if err := s.Run(f.run.ID).Pool.Check(); err != nil {
		t.Fatal(err)
	}
	other := f.sign(t, keyring.Mutation, proto.Clone(f.run.Plan.Record).(*pb.Record))
	if d := s.Admit(encode(t, other)); d.Outcome != authority.Refused {
		t.Fatalf("the executor's plan signed by the mutation service: %v, want refused", d.Outcome)
	}
}

func TestEmptyTrustRefusesEverything(t *testing.T) {
	f := newFixture(t, 1)
	empty, err := authority.NewTrust(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := authority.New(empty)
	d := s.Admit(encode(t, f.run.Request))
	if d.Outcome != authority.Refused || d.Code != authority.CodeNoTrustRoots {
		t.Fatalf("got %v %s, want refused for %s", d.Outcome, d.Code, authority.CodeNoTrustRoots)
	}
}

// TestRefusals mutates one thing of a valid run per case; each must be
// refused for exactly its code, and a refusal must change nothing.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name string
		code string
		// prefix is how many of the run's records are admitted first;
		// bad builds the offending record.
		prefix int
		bad    func(t *testing.T, f *fixture) []byte
	}{
		{"flipped signature byte", authority.CodeBadSignature, 4, func(t *testing.T, f *fixture) []byte {
			sr := proto.Clone(f.run.Results[0].Signed).(*pb.SignedRecord)
			sr.Signature[3] ^= 1
			b, _ := record.Encode(sr)
			return b
		}},
		{"tampered content", authority.CodeDigestMismatch, 4, func(t *testing.T, f *fixture) []byte {
			sr := proto.Clone(f.run.Results[0].Signed).(*pb.SignedRecord)
			sr.Record[len(sr.Record)-1] ^= 1
			b, _ := record.Encode(sr)
			return b
		}},
		{"tampered content with recomputed digest", authority.CodeBadSignature, 4, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Results[0].Record).(*pb.Record)
			r.GetJobResult().ExitCode = 1
			rb, _ := proto.MarshalOptions{Deterministic: true}.Marshal(r)
			sr := &pb.SignedRecord{Record: rb, Signature: f.run.Results[0].Signed.Signature, Digest: record.Digest(rb)}
			b, _ := record.Encode(sr)
			return b
		}},
		{"unknown producer key", authority.CodeUnknownProducer, 3, func(t *testing.T, f *fixture) []byte {
			_, k, _ := ed25519.GenerateKey(rand.Reader)
			s, _ := record.NewSigner(keyring.Executor, k)
			rec, err := s.Sign(proto.Clone(f.run.Plan.Record).(*pb.Record))
			if err != nil {
				t.Fatal(err)
			}
			return encode(t, rec)
		}},
		{"producer not authorized for the kind", authority.CodeUnauthorizedKind, 2, func(t *testing.T, f *fixture) []byte {
			return encode(t, f.sign(t, keyring.Executor, proto.Clone(f.run.Trees.Record).(*pb.Record)))
		}},
		{"record before the seal", authority.CodeNoSeal, 1, func(t *testing.T, f *fixture) []byte {
			return encode(t, f.run.Trees)
		}},
		{"criteria mismatch", authority.CodeCriteriaMismatch, 3, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			r.CriteriaDigest = record.Digest([]byte("other criteria"))
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"unknown parent", authority.CodeUnknownParent, 3, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			r.Parents = []string{record.Digest([]byte("nothing"))}
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"second seal", authority.CodeRunConflict, 2, func(t *testing.T, f *fixture) []byte {
			return encode(t, f.sign(t, keyring.Gateway, proto.Clone(f.run.Seal.Record).(*pb.Record)))
		}},
		{"result for a token never issued", authority.CodeTokenUnknown, 4, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Results[0].Record).(*pb.Record)
			r.Token = "invented"
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"result consuming no token", authority.CodeTokenUnknown, 4, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Results[0].Record).(*pb.Record)
			r.Token = ""
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"conflicting result", authority.CodeTokenConflict, 5, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Results[0].Record).(*pb.Record)
			r.GetJobResult().ExitCode = 1
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"replayed token", authority.CodeTokenReplayed, 4, func(t *testing.T, f *fixture) []byte {
			// The plan again, but one of its jobs now runs something
			// else under the token already issued.
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			r.GetJobPlanned().Jobs[0].Argv = []string{"true"}
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"replayed token under another parent", authority.CodeTokenReplayed, 4, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			r.Parents = append(r.Parents, f.run.Seal.Digest)
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"replayed nonce", authority.CodeTokenReplayed, 4, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			for i, j := range r.GetJobPlanned().Jobs {
				j.Token.Id = fmt.Sprintf("fresh-%d", i)
				j.JobId = j.Token.Id
			}
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"token bound to other criteria", authority.CodeTokenMismatch, 3, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			r.GetJobPlanned().Jobs[0].Token.CriteriaDigest = record.Digest([]byte("x"))
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"budget overrun", authority.CodeBudgetExceeded, 3, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			r.GetJobPlanned().Jobs[0].Token.BudgetUnits = f.run.Sealed.Criteria.Budget[criteria.BudgetTestRuns]
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"fan-out beyond the sealed limit", authority.CodeFanoutExceeded, 3, func(t *testing.T, f *fixture) []byte {
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			jp := r.GetJobPlanned()
			limit := int(f.run.Sealed.Criteria.TaskGraph.MaxFanout)
			for i := len(jp.Jobs); i <= limit; i++ {
				tok, err := f.b.Token(f.run, f.run.Trees.Digest, fmt.Sprintf("extra-%d", i), 1, criteria.BudgetTestRuns, 1)
				if err != nil {
					t.Fatal(err)
				}
				jp.Jobs = append(jp.Jobs, &pb.Job{JobId: tok.Id, Token: tok})
			}
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"depth beyond the sealed limit", authority.CodeDepthExceeded, 5, func(t *testing.T, f *fixture) []byte {
			// A planner consuming a depth-1 token plans at depth 2, and so
			// on; the scenario's limit is DefaultMaxDepth. Here a plan
			// claims a depth the limit forbids directly below the root.
			r := proto.Clone(f.run.Plan.Record).(*pb.Record)
			for _, j := range r.GetJobPlanned().Jobs {
				j.Token.Id += "-deep"
				j.Token.Nonce[0] ^= 0xff
				j.Token.Depth = f.run.Sealed.Criteria.TaskGraph.MaxDepth + 1
			}
			return encode(t, f.sign(t, keyring.Executor, r))
		}},
		{"revoked key", authority.CodeRevokedKey, 4, func(t *testing.T, f *fixture) []byte {
			return encode(t, f.run.Results[0])
		}},
		{"garbage", authority.CodeMalformed, 0, func(t *testing.T, f *fixture) []byte {
			return []byte("not a record")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, 3)
			s := authority.New(f.trust)
			admitAll(t, s, f.run.Records()[:tc.prefix]...)
			if tc.code == authority.CodeRevokedKey {
				exec, _ := f.keys.Signer(keyring.Executor)
				admitAll(t, s, f.sign(t, keyring.Authority, &pb.Record{Body: &pb.Record_RevocationEpoch{
					RevocationEpoch: &pb.RevocationEpoch{Epoch: 1, RevokedKeyIds: []string{exec.KeyID()}},
				}}))
			}
			bad := tc.bad(t, f)
			before := s.Check(bad)
			d := s.Admit(bad)
			if d.Outcome != authority.Refused || d.Code != tc.code {
				t.Fatalf("got %v %q (%s), want refused for %q", d.Outcome, d.Code, d.Detail, tc.code)
			}
			if before.Code != d.Code {
				t.Fatalf("Check said %q, Admit %q", before.Code, d.Code)
			}
			// A refusal changes nothing: the rest of the valid run is
			// still admitted (except where the case consumed its place).
			if tc.prefix > 0 && tc.code != authority.CodeRevokedKey {
				if again := s.Admit(bad); again.Code != tc.code {
					t.Fatalf("second offer: %q, want %q: the refusal changed the state", again.Code, tc.code)
				}
			}
		})
	}
}

func TestDepthFollowsThePlanner(t *testing.T) {
	f := newFixture(t, 1)
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()[:4]...) // up to the plan
	job := f.run.Plan.Record.GetJobPlanned().Jobs[0]
	// A mutation planner consuming the depth-1 token fans out at depth 2;
	// claiming depth 1 again is a mismatch.
	tok, err := f.b.Token(f.run, f.run.Plan.Digest, "child", 1, criteria.BudgetTestRuns, 1)
	if err != nil {
		t.Fatal(err)
	}
	plan := &pb.Record{RunId: f.run.ID, CriteriaDigest: f.run.Sealed.Digest, Parents: []string{f.run.Plan.Digest}, Token: job.Token.Id,
		Body: &pb.Record_JobPlanned{JobPlanned: &pb.JobPlanned{Jobs: []*pb.Job{{JobId: "child", Token: tok}}}}}
	if d := s.Admit(encode(t, f.sign(t, keyring.Mutation, plan))); d.Code != authority.CodeTokenMismatch {
		t.Fatalf("depth 1 under a depth-1 planner: %v %q, want %q", d.Outcome, d.Code, authority.CodeTokenMismatch)
	}
	tok.Depth = 2
	if d := s.Admit(encode(t, f.sign(t, keyring.Mutation, plan))); d.Outcome != authority.Accepted {
		t.Fatalf("depth 2 under a depth-1 planner: %v %q %s", d.Outcome, d.Code, d.Detail)
	}
}

// TestDepthChain nests planners, each consuming a token of the one above,
// until the sealed max_depth stops them.
func TestDepthChain(t *testing.T) {
	f := newFixture(t, 4) // a budget of 8 test runs
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()[:4]...)
	parent := f.run.Plan
	tok := f.run.Plan.Record.GetJobPlanned().Jobs[0].Token
	limit := f.run.Sealed.Criteria.TaskGraph.MaxDepth
	for depth := tok.Depth + 1; ; depth++ {
		child, err := f.b.Token(f.run, parent.Digest, fmt.Sprintf("depth-%d", depth), depth, criteria.BudgetTestRuns, 1)
		if err != nil {
			t.Fatal(err)
		}
		plan := f.sign(t, keyring.Mutation, &pb.Record{RunId: f.run.ID, CriteriaDigest: f.run.Sealed.Digest, Parents: []string{parent.Digest}, Token: tok.Id,
			Body: &pb.Record_JobPlanned{JobPlanned: &pb.JobPlanned{Jobs: []*pb.Job{{JobId: child.Id, Token: child}}}}})
		d := s.Admit(encode(t, plan))
		if depth > limit {
			if d.Code != authority.CodeDepthExceeded {
				t.Fatalf("depth %d past the limit %d: %v %q", depth, limit, d.Outcome, d.Code)
			}
			return
		}
		if d.Outcome != authority.Accepted {
			t.Fatalf("depth %d within the limit %d: %v %q %s", depth, limit, d.Outcome, d.Code, d.Detail)
		}
		parent, tok = plan, child
	}
}

func TestRefusalRecordsAreRechecked(t *testing.T) {
	f := newFixture(t, 1)
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()...)
	refusal := func(code string, refused []byte) []byte {
		return encode(t, f.sign(t, keyring.Ledger, &pb.Record{RunId: f.run.ID, Body: &pb.Record_RecordRefused{RecordRefused: &pb.RecordRefused{
			ReasonCode: code, RefusedRecord: refused,
		}}}))
	}
	// Refusing a record that would be admitted is unfounded.
	valid := encode(t, f.sign(t, keyring.Reach, proto.Clone(f.run.Coverage.Record).(*pb.Record)))
	if d := s.Admit(refusal(authority.CodeBadSignature, valid)); d.Code != authority.CodeUnfoundedRefusal {
		t.Fatalf("refusal of an admissible record: %v %q, want %q", d.Outcome, d.Code, authority.CodeUnfoundedRefusal)
	}
	// A refusal for the right reason is admitted.
	if d := s.Admit(refusal(authority.CodeMalformed, []byte("junk"))); d.Outcome != authority.Accepted {
		t.Fatalf("well-founded refusal: %v %q %s", d.Outcome, d.Code, d.Detail)
	}
	// The wrong reason is unfounded too.
	if d := s.Admit(refusal(authority.CodeBadSignature, []byte("junk"))); d.Code != authority.CodeUnfoundedRefusal {
		t.Fatalf("refusal with the wrong reason: %v %q", d.Outcome, d.Code)
	}
}

func TestEpochsIncrease(t *testing.T) {
	f := newFixture(t, 1)
	s := authority.New(f.trust)
	epoch := func(n uint64) []byte {
		return encode(t, f.sign(t, keyring.Authority, &pb.Record{Body: &pb.Record_RevocationEpoch{RevocationEpoch: &pb.RevocationEpoch{Epoch: n}}}))
	}
	if d := s.Admit(epoch(2)); d.Outcome != authority.Accepted {
		t.Fatal(d.Code, d.Detail)
	}
	if d := s.Admit(epoch(2)); d.Code != authority.CodeEpochRegression {
		t.Fatalf("same epoch again: %v %q", d.Outcome, d.Code)
	}
}

func TestRevokedRun(t *testing.T) {
	f := newFixture(t, 1)
	s := authority.New(f.trust)
	admitAll(t, s, f.run.Records()[:2]...)
	admitAll(t, s, f.sign(t, keyring.Authority, &pb.Record{Body: &pb.Record_RevocationEpoch{
		RevocationEpoch: &pb.RevocationEpoch{Epoch: 1, RevokedRuns: []string{f.run.ID}},
	}}))
	if d := s.Admit(encode(t, f.run.Trees)); d.Code != authority.CodeRevokedRun {
		t.Fatalf("record of a revoked run: %v %q", d.Outcome, d.Code)
	}
}

func TestEveryCodeIsDescribed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range authority.Codes() {
		if c.Code == "" || c.Description == "" || seen[c.Code] {
			t.Errorf("bad or duplicate code entry %+v", c)
		}
		seen[c.Code] = true
	}
}

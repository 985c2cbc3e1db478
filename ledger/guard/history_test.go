package guard_test

import (
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// capture keeps what is published to it.
type capture struct{ msgs []*message.Message }

func (c *capture) Publish(_ string, msgs ...*message.Message) error {
	c.msgs = append(c.msgs, msgs...)
	return nil
}

func (c *capture) Close() error { return nil }

// admitted returns recs as the guard writes them: in one chain per run,
// each with its admission.
func (e *env) admitted(recs ...*record.Decoded) []*message.Message {
	e.t.Helper()
	c := &capture{}
	s, err := guard.NewStamper(c, e.key(keyring.Ledger), nil, e.v)
	if err != nil {
		e.t.Fatal(err)
	}
	msgs := make([]*message.Message, len(recs))
	for i, r := range recs {
		msgs[i] = msgOf(e.t, r)
	}
	if err := s.Publish(ledger.Topic, msgs...); err != nil {
		e.t.Fatal(err)
	}
	return c.msgs
}

func (e *env) history(runID, identity string, refused *refusals) []*record.Decoded {
	e.t.Helper()
	s, err := e.keys.Signer(identity)
	if err != nil {
		e.t.Fatal(err)
	}
	got, err := guard.History(e.ctx, runID, e.v, s.PublicKey(), e.reader(ledger.Topic), e.reader(guard.ProposalTopic), refused.add)
	if err != nil {
		e.t.Fatal(err)
	}
	return got
}

func wantRecords(t *testing.T, name string, got, want []*record.Decoded) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, want %d", name, len(got), len(want))
	}
	for i := range want {
		if got[i].Digest != want[i].Digest {
			t.Fatalf("%s[%d] is %s %.16s, want %s %.16s", name, i, record.KindName(got[i].Kind), got[i].Digest, record.KindName(want[i].Kind), want[i].Digest)
		}
	}
}

// A service's history of a run is the run's admitted records in chain
// order, then what the service itself proposed that the guard has neither
// admitted nor refused — nothing another service proposed, nor another
// run's, nor anything on the records topic the guard did not admit there,
// nor a proposal in the service's name by another key.
func TestHistory(t *testing.T) {
	e := newEnv(t)
	run, other := e.run("run-1", 4), e.run("run-2", 1)
	refusal, err := e.builder.Sign(keyring.Ledger, &pb.Record{RunId: run.ID, CriteriaDigest: run.Sealed.Digest,
		Body: &pb.Record_RecordRefused{RecordRefused: &pb.RecordRefused{RefusedDigest: run.Results[2].Digest, RefusedKind: pb.Kind_KIND_JOB_RESULT, ReasonCode: "token_conflict"}}})
	if err != nil {
		t.Fatal(err)
	}
	admitted := []*record.Decoded{run.Request, run.Seal, run.Trees, run.Plan, run.Results[0], refusal}
	msgs := e.admitted(append(append([]*record.Decoded{}, admitted...), other.Records()...)...)
	// The records topic also holds what the guard never admitted, labelled
	// as the run's: junk, a result forged by an unknown key, another run's
	// genuine record relabelled, and duplicates of admitted messages.
	junk := message.NewMessage("junk", []byte("junk"))
	junk.Metadata.Set(ledger.MetaRunID, run.ID)
	forged := forgedResult(t, run)
	relabelled := copyOf(msgs[len(admitted)+4]) // run-2's result
	relabelled.Metadata.Set(ledger.MetaRunID, run.ID)
	e.inject(msgs[0], msgs[1], junk, msgs[2], msgOf(t, forged), msgs[3], msgs[3], relabelled)
	e.inject(msgs[4:]...)

	publish := func(recs ...*record.Decoded) {
		for _, r := range recs {
			if err := e.pub.Publish(guard.ProposalTopic, msgOf(t, r)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A proposal of run-2 by the executor, relabelled as run-1's.
	relabelledProposal := msgOf(t, other.Results[0])
	relabelledProposal.Metadata.Set(ledger.MetaRunID, run.ID)
	publish(
		run.Results[0],   // admitted since
		run.Results[1],   // pending: counted
		run.Results[2],   // refused
		run.Coverage,     // another service's
		other.Results[0], // another run's
		forged,           // in the executor's name, by another key
		run.Results[3],   // pending: counted
	)
	if err := e.pub.Publish(guard.ProposalTopic, relabelledProposal); err != nil {
		t.Fatal(err)
	}

	refused := &refusals{}
	got := e.history(run.ID, keyring.Executor, refused)
	wantRecords(t, "executor's history", got, append(append([]*record.Decoded{}, admitted...), run.Results[1], run.Results[3]))
	if refused.count(admission.CodeUndecodable) != 1 || refused.count(admission.CodeUnadmitted) != 1 || refused.count(admission.CodeFork) != 1 || refused.total() != 3 {
		t.Errorf("refused %v, want the junk, the forged result and the relabelled record", refused.codes)
	}
	wantRecords(t, "reach's history", e.history(run.ID, keyring.Reach, &refusals{}), append(append([]*record.Decoded{}, admitted...), run.Coverage))
	wantRecords(t, "run-2's history", e.history(other.ID, keyring.Executor, &refusals{}), other.Records())
}

// A run whose chain lost a place shows only what precedes the gap: the
// records after it are refused, never shown out of their context.
func TestHistoryStopsAtAGap(t *testing.T) {
	e := newEnv(t)
	run := e.run("run-gap", 2)
	msgs := e.admitted(run.Records()...)
	e.inject(msgs[:3]...)
	e.inject(msgs[4:]...)
	refused := &refusals{}
	wantRecords(t, "history", e.history(run.ID, keyring.Executor, refused), run.Records()[:3])
	if n := len(run.Records()) - 4; refused.count(admission.CodeGap) != n || refused.total() != n {
		t.Errorf("refused %v, want %d gaps", refused.codes, n)
	}
}

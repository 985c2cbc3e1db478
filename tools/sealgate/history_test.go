package main

import (
	"context"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// TestKafkaHistoryCountsOwnPendingProposals: a service's history of a run
// is the run's records in ledger order, then what the service itself
// proposed that the guard has neither admitted nor refused — and nothing
// another service proposed, nor another run's.
func TestKafkaHistoryCountsOwnPendingProposals(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	brokers := c.ListenAddrs()
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if err := kafka.CreateTopic(ctx, brokers, topic, 2); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := keyring.LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := scenario.NewBuilder(keys, nil)
	run, err := b.NewRun("run-1", 4)
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.NewRun("run-2", 1)
	if err != nil {
		t.Fatal(err)
	}
	refusal, err := b.Sign(keyring.Ledger, &pb.Record{RunId: run.ID, CriteriaDigest: run.Sealed.Digest,
		Body: &pb.Record_RecordRefused{RecordRefused: &pb.RecordRefused{RefusedDigest: run.Results[2].Digest, RefusedKind: pb.Kind_KIND_JOB_RESULT, ReasonCode: "token_conflict"}}})
	if err != nil {
		t.Fatal(err)
	}
	admitted := []*record.Decoded{run.Request, run.Seal, run.Trees, run.Plan, run.Results[0], refusal}
	proposed := []*record.Decoded{
		run.Results[0],   // admitted since
		run.Results[1],   // pending: counted
		run.Results[2],   // refused
		run.Coverage,     // another service's
		other.Results[0], // another run's
		run.Results[3],   // pending: counted
	}
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	publish := func(topic string, recs []*record.Decoded) {
		for _, r := range recs {
			m, err := ledger.Message(r)
			if err != nil {
				t.Fatal(err)
			}
			if err := pub.Publish(topic, []*message.Message{m}...); err != nil {
				t.Fatal(err)
			}
		}
	}
	publish(ledger.Topic, admitted)
	publish(guard.ProposalTopic, proposed)

	got, err := kafkaHistory(brokers, keyring.Executor)(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]*record.Decoded{}, admitted...), run.Results[1], run.Results[3])
	if len(got) != len(want) {
		t.Fatalf("history has %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Digest != want[i].Digest {
			t.Fatalf("history[%d] is %s %s, want %s %s", i, record.KindName(got[i].Kind), got[i].Digest, record.KindName(want[i].Kind), want[i].Digest)
		}
	}
	if got, err := kafkaHistory(brokers, keyring.Reach)(ctx, run.ID); err != nil || len(got) != len(admitted)+1 {
		t.Fatalf("reach's history: %d records (%v), want %d", len(got), err, len(admitted)+1)
	}
}

package main

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
)

// A history reads every stored record of one run, in ledger order: what a
// restarted service (or one its consumer group just handed a run to) needs
// to see the run whole (runtime.Service.History).
type history = func(ctx context.Context, runID string) ([]*record.Decoded, error)

// localHistory reads a run from the local ledger.
func localHistory(log *local.Log) history {
	return func(ctx context.Context, runID string) ([]*record.Decoded, error) {
		var out []*record.Decoded
		err := log.Scan(ctx, 1, func(e local.Entry, err error) error {
			if err != nil {
				return err
			}
			if e.Topic != ledger.Topic || e.Metadata[ledger.MetaRunID] != runID {
				return nil
			}
			rec, err := record.Decode(e.Payload)
			if err != nil {
				return err
			}
			out = append(out, rec)
			return nil
		})
		return out, err
	}
}

// kafkaHistory reads a run from the records topic — only what the ledger
// guard admitted, in its chain order — and then the records self proposed
// for the run that the guard has neither admitted nor refused yet
// (guard.History). It reads both topics whole: fine for the runs one
// service restart picks up, and no index to keep consistent.
func kafkaHistory(brokers []string, self *record.Signer, v *admission.Verifier, refuse func(error)) history {
	return func(ctx context.Context, runID string) ([]*record.Decoded, error) {
		return guard.History(ctx, runID, v, self.PublicKey(), topicReader(brokers, ledger.Topic), topicReader(brokers, guard.ProposalTopic), refuse)
	}
}

// topicReader reads a whole Kafka topic, partition by partition.
func topicReader(brokers []string, topic string) guard.ReadFunc {
	return func(ctx context.Context, fn func(*message.Message) error) error {
		return kafka.ReadAll(ctx, brokers, topic, func(_ int, _ int64, m *message.Message) error { return fn(m) })
	}
}

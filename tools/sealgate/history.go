package main

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
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

// kafkaHistory reads a run from the records topic, and then the records
// identity proposed for the run that the guard has neither admitted nor
// refused yet: a service restarted between proposing a result and seeing it
// admitted must count it as said, or it would do the work again and answer
// the same token twice. It reads both topics whole: fine for the runs one
// service restart picks up, and no index to keep consistent.
func kafkaHistory(brokers []string, identity string) history {
	return func(ctx context.Context, runID string) ([]*record.Decoded, error) {
		var out []*record.Decoded
		decided := map[string]bool{}
		err := kafka.ReadAll(ctx, brokers, ledger.Topic, func(_ int, _ int64, m *message.Message) error {
			if m.Metadata.Get(ledger.MetaRunID) != runID {
				return nil
			}
			rec, err := record.Decode(m.Payload)
			if err != nil {
				return err
			}
			decided[rec.Digest] = true
			if r := rec.Record.GetRecordRefused(); r != nil {
				decided[r.GetRefusedDigest()] = true
			}
			out = append(out, rec)
			return nil
		})
		if err != nil {
			return nil, err
		}
		err = kafka.ReadAll(ctx, brokers, guard.ProposalTopic, func(_ int, _ int64, m *message.Message) error {
			if m.Metadata.Get(ledger.MetaRunID) != runID || decided[m.Metadata.Get(ledger.MetaDigest)] {
				return nil
			}
			rec, err := record.Decode(m.Payload)
			if err != nil || rec.Record.GetProducer().GetIdentity() != identity || decided[rec.Digest] {
				return nil // not this service's to count; the guard judges it
			}
			decided[rec.Digest] = true
			out = append(out, rec)
			return nil
		})
		return out, err
	}
}

package main

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
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

// kafkaHistory reads a run from the records topic. It reads the whole
// topic: fine for the runs one service restart picks up, and no index to
// keep consistent.
func kafkaHistory(brokers []string) history {
	return func(ctx context.Context, runID string) ([]*record.Decoded, error) {
		var out []*record.Decoded
		err := kafka.ReadAll(ctx, brokers, ledger.Topic, func(_ int, _ int64, m *message.Message) error {
			if m.Metadata.Get(ledger.MetaRunID) != runID {
				return nil
			}
			rec, err := record.Decode(m.Payload)
			if err != nil {
				return err
			}
			out = append(out, rec)
			return nil
		})
		return out, err
	}
}

package main

import (
	"context"
	"errors"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
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
// (guard.History). It reads only the run's partition of each topic, from
// where the run can begin (runindex.Locator). A located read that is not
// whole — an admitted record whose predecessors it did not find, as when
// clocks differ by more than the locator's skew — is not used: the run is
// read again from both topics whole, and only that answer counts; so is a
// located read that found nothing of the run.
func kafkaHistory(brokers []string, self *record.Signer, v *admission.Verifier, refuse func(error)) history {
	return locatedHistory(brokers, self, v, refuse, true, true)
}

// admittedHistory is kafkaHistory without the proposals: what the ledger
// admitted of a run.
func admittedHistory(brokers []string, self *record.Signer, v *admission.Verifier, refuse func(error)) history {
	return locatedHistory(brokers, self, v, refuse, true, false)
}

// pendingHistory reads the records self proposed for a run that the guard
// has not decided yet, from the run's partition of the proposals topic
// only: finding none is the common answer, never a reason to read the
// whole topic.
func pendingHistory(brokers []string, self *record.Signer, v *admission.Verifier, refuse func(error)) history {
	return locatedHistory(brokers, self, v, refuse, false, true)
}

// locatedHistory reads a run's admitted records (when records) and self's
// pending proposals (when proposals) as kafkaHistory describes; a read of
// the proposals alone falls back to the whole topic only when it is not
// whole.
func locatedHistory(brokers []string, self *record.Signer, v *admission.Verifier, refuse func(error), records, proposals bool) history {
	loc := &runindex.Locator{Brokers: brokers, Starts: runindex.NewStarts(0)}
	read := func(on bool, f guard.ReadFunc) guard.ReadFunc {
		if on {
			return f
		}
		return func(context.Context, func(*message.Message) error) error { return nil }
	}
	return func(ctx context.Context, runID string) ([]*record.Decoded, error) {
		var held []error
		gap := false
		recs, err := guard.History(ctx, runID, v, self.PublicKey(), read(records, loc.Run(ledger.Topic, runID)), read(proposals, loc.Run(guard.ProposalTopic, runID)), func(err error) {
			var r *admission.Refusal
			if errors.As(err, &r) && r.Code == admission.CodeGap {
				gap = true
			}
			held = append(held, err)
		})
		if err != nil {
			return nil, err
		}
		// Nothing found at all is not taken on the locator's word either:
		// a service asks only for runs it was handed.
		if !gap && (len(recs) > 0 || !records) {
			for _, e := range held {
				refuse(e)
			}
			return recs, nil
		}
		return guard.History(ctx, runID, v, self.PublicKey(), read(records, loc.Scan(ledger.Topic)), read(proposals, loc.Scan(guard.ProposalTopic)), refuse)
	}
}

// topicReader reads a whole Kafka topic, partition by partition.
func topicReader(brokers []string, topic string) guard.ReadFunc {
	return (&runindex.Locator{Brokers: brokers}).Scan(topic)
}

// Package guard is the ledger's admission guard as a service of its own, for
// the distributed mode: services propose signed records on the proposals
// topic, and the guard — the records topic's single writer — admits each
// through the authority state machine and appends it, or appends its signed
// refusal, to the records topic, each with its admission (package
// admission): the guard's signature over the record's place in its run's
// chain. Readers of the records topic use only what carries one.
//
// One writer per run is what makes admission the same everywhere: two
// processes each admitting from their own view could both accept
// conflicting results for one token. Shards (shard.go), what `sealgate
// serve ledger` runs, keeps one writer per partition — any number of
// processes share the partitions, each rebuilding a partition's state from
// that records partition when it is assigned; Guard is the single writer
// of the whole topic, rebuilt from all of it (Rebuild). Either way a
// proposal appended but not yet acknowledged when its writer died is
// delivered again and dropped as a duplicate.
package guard

import (
	"context"
	"errors"
	"fmt"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/consume"
	"github.com/sealgate/sealgate/ledger/record"
)

// ProposalTopic carries records proposed for the ledger, keyed by run id
// like the records topic.
const ProposalTopic = "sealgate.proposals.v1"

// Proposer hands records to the guard. It implements runtime.Appender: the
// decisions it returns are Proposed, never a verdict of admission.
type Proposer struct {
	Pub message.Publisher
}

// Append publishes recs on the proposals topic, in order.
func (p *Proposer) Append(ctx context.Context, recs ...*record.Decoded) ([]authority.Decision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	msgs := make([]*message.Message, 0, len(recs))
	out := make([]authority.Decision, 0, len(recs))
	for _, r := range recs {
		m, err := ledger.Message(r)
		if err != nil {
			return nil, err
		}
		ledger.InjectTrace(ctx, m.Metadata)
		msgs = append(msgs, m)
		out = append(out, authority.Decision{Outcome: authority.Proposed, Record: r})
	}
	if err := p.Pub.Publish(ProposalTopic, msgs...); err != nil {
		return nil, fmt.Errorf("guard: propose: %w", err)
	}
	return out, nil
}

// Guard admits proposals into the ledger.
type Guard struct {
	// Appender writes the records topic; its state must hold every record
	// already stored (see Rebuild).
	Appender *ledger.Appender
	// Sub delivers proposals, under the guard's consumer group.
	Sub message.Subscriber
	// Logf reports refusals; nil is silent.
	Logf func(format string, args ...any)
}

// Run admits proposals until ctx ends. A proposal is acknowledged only
// after its record (or its refusal) is durably on the records topic.
func (g *Guard) Run(ctx context.Context) error {
	loop := &consume.Loop{Name: "guard", Sub: g.Sub, Topic: ProposalTopic,
		Handle: func(ctx context.Context, msg *message.Message) error {
			// The proposal's trace context goes on with its record.
			ds, err := g.Appender.AppendRaw(ledger.ExtractTrace(ctx, msg.Metadata), msg.Payload)
			if errors.Is(err, context.Canceled) {
				return err
			}
			if err != nil {
				// The appender's state may now hold what the topic does
				// not: the guard stops, and its restart rebuilds the state
				// from the topic.
				return consume.Stop(err)
			}
			for _, d := range ds {
				if d.Outcome == authority.Refused && g.Logf != nil {
					g.Logf("refused %s: %s (%s)", msg.UUID, d.Code, d.Detail)
				}
			}
			return nil
		}}
	if err := loop.Run(ctx); err != nil {
		return fmt.Errorf("guard: %w", err)
	}
	return nil
}

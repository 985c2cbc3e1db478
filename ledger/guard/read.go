package guard

import (
	"context"
	"fmt"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/admission"
)

// ReadAdmitted reads what the guard admitted to the records topic — every
// message whose admission holds, each run's records in their chain order
// (whatever order the partitions deliver them in) — and hands each record
// to placed once; a duplicate of an admitted message (at-least-once
// producer) is dropped silently. Every other message (undecodable,
// unadmitted, a forged or misplaced admission) is handed to refuse with
// the message, and so is an admission that contradicts its run's chain
// (admission.CodeFork); admitted records whose predecessors are not on the
// topic are refused at the end (admission.CodeGap) with a nil message.
// refuse is called from the goroutine that calls ReadAdmitted. It returns
// the head of every run's chain; an error of read or placed stops it.
func ReadAdmitted(ctx context.Context, v *admission.Verifier, read ReadFunc, placed func(*admission.Admitted) error, refuse func(*message.Message, error)) (map[string]admission.Head, error) {
	chains := admission.NewChains()
	err := read(ctx, func(m *message.Message) error {
		a, err := v.Check(m.Metadata.Get(admission.Header), m.Payload)
		if err != nil {
			refuse(m, err)
			return nil
		}
		ps, perr := chains.Add(a)
		for _, p := range ps {
			if err := placed(p); err != nil {
				return err
			}
		}
		if perr != nil {
			refuse(m, perr)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, w := range chains.Waiting() {
		refuse(nil, &admission.Refusal{Code: admission.CodeGap, Detail: fmt.Sprintf("run %q: the record admitted at place %d follows places that are not on the topic", w.RunID(), w.Seq)})
	}
	return chains.Heads(), nil
}

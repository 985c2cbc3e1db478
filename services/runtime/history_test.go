package runtime_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	"github.com/sealgate/sealgate/services/runtime"
)

// replay delivers fixed messages, as a subscription after a restart does.
type replay struct {
	msgs []*message.Message
}

func (r *replay) Subscribe(ctx context.Context, _ string) (<-chan *message.Message, error) {
	out := make(chan *message.Message)
	go func() {
		for _, m := range r.msgs {
			select {
			case out <- m:
			case <-ctx.Done():
				return
			}
			select {
			case <-m.Acked():
			case <-m.Nacked():
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

func (r *replay) Close() error { return nil }

type recorder struct {
	mu    sync.Mutex
	calls []int // len(run) at each Handle
	done  chan struct{}
	want  int
}

func (h *recorder) Handle(_ context.Context, _ *record.Decoded, run runtime.Run, _ runtime.Emit) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, len(run.Records))
	if len(h.calls) == h.want {
		close(h.done)
	}
	return nil
}

// A service that meets a run in its middle reads the run's history once,
// lists every record once, and handles a record delivered twice once.
func TestHistoryAndRedelivery(t *testing.T) {
	keys, err := keyring.LoadOrCreate(filepath.Join(t.TempDir(), "keys"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := scenario.NewBuilder(keys, nil).NewRun("run-h", 2)
	if err != nil {
		t.Fatal(err)
	}
	recs := run.Records()
	msg := func(r *record.Decoded) *message.Message {
		m, err := ledger.Message(r)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// Delivered: the plan twice (a redelivery) and then a result; the
	// request, seal and trees were consumed before the restart.
	sub := &replay{msgs: []*message.Message{msg(run.Plan), msg(run.Plan), msg(run.Results[0])}}
	histories := 0
	h := &recorder{done: make(chan struct{}), want: 2}
	signer, err := keys.Signer(keyring.Executor)
	if err != nil {
		t.Fatal(err)
	}
	svc := &runtime.Service{Name: "executor", Signer: signer, Handler: h, Sub: sub,
		History: func(_ context.Context, id string) ([]*record.Decoded, error) {
			histories++
			if id != run.ID {
				t.Errorf("history of %q, want %q", id, run.ID)
			}
			return recs[:5], nil // through the first result
		}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- svc.Run(ctx) }()
	select {
	case <-h.done:
	case err := <-errc:
		t.Fatalf("service stopped: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the service handled too little")
	}
	time.Sleep(100 * time.Millisecond) // a third Handle would show here
	cancel()
	<-errc
	h.mu.Lock()
	defer h.mu.Unlock()
	if histories != 1 {
		t.Errorf("history read %d times, want once", histories)
	}
	// The plan: the whole history (5 records, the first result included);
	// the result: already listed, so still 5. The second plan: not handled.
	if len(h.calls) != 2 || h.calls[0] != 5 || h.calls[1] != 5 {
		t.Errorf("Handle saw runs of %v records, want [5 5]", h.calls)
	}
}

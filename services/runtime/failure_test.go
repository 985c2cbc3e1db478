package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/runtime"
)

// faulty answers each run's seal with trees, except where its run says
// otherwise: it fails for good, panics, fails a few times and then works,
// or never works.
type faulty struct {
	mu    sync.Mutex
	tries map[string]int
	after map[string]int // handlings of records after the seal, per run
}

func (h *faulty) Handle(ctx context.Context, rec *record.Decoded, _ runtime.Run, emit runtime.Emit) error {
	id := rec.Record.GetRunId()
	if id == "run-early" && rec.Kind == pb.Kind_KIND_RUN_REQUESTED {
		return runtime.Permanent(errors.New("the request names no repository this service can read"))
	}
	h.mu.Lock()
	if rec.Kind != pb.Kind_KIND_CRITERIA_SEALED {
		if rec.Kind != pb.Kind_KIND_RUN_REQUESTED {
			h.after[id]++
		}
		h.mu.Unlock()
		return nil
	}
	h.tries[id]++
	n := h.tries[id]
	h.mu.Unlock()
	switch id {
	case "run-permanent":
		return runtime.Permanent(errors.New("commit 0123abcd is not in the repository"))
	case "run-panic":
		var m map[string]int
		//lint:ignore SA5000 a handler's bug, on purpose: the panic the runtime must survive
		m["x"]++
	case "run-down":
		return fmt.Errorf("blob store: connection refused (try %d)", n)
	case "run-flaky":
		if n <= 2 {
			return errors.New("blob store: connection reset")
		}
	}
	_, err := emit(ctx, &pb.Record{RunId: id, CriteriaDigest: rec.Record.CriteriaDigest, Parents: []string{rec.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{BaselineTreeDigest: "b", PatchTreeDigest: "p"}}})
	return err
}

// TestOneRunsFailureStopsNothingElse: on one real local ledger, runs whose
// handling fails for good, panics or keeps failing end with a signed
// run.failed naming the failure, a run that fails twice and then works
// gets its answer with no failure recorded, a failure before the run's seal
// is recorded once the seal arrives, and a healthy run submitted in
// between is answered — the service never stops, and a failed run's later
// records are not handled.
func TestOneRunsFailureStopsNothingElse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	keys, trust, log, app := localLedger(t)
	sub, err := local.NewSubscriber(log, local.SubscriberConfig{ConsumerGroup: "checkout"})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	signer, err := keys.Signer(keyring.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	h := &faulty{tries: map[string]int{}, after: map[string]int{}}
	svc := &runtime.Service{Name: "checkout", Signer: signer, Handler: h, Sub: sub, Appender: app,
		Retry: runtime.RetryPolicy{Attempts: 3, Initial: time.Millisecond, Max: 10 * time.Millisecond}}
	errc := make(chan error, 1)
	go func() { errc <- svc.Run(ctx) }()

	b := scenario.NewBuilder(keys, nil)
	ids := []string{"run-permanent", "run-good-1", "run-panic", "run-early", "run-down", "run-flaky", "run-good-2"}
	runs := map[string]*scenario.Run{}
	for _, id := range ids {
		run, err := b.NewRun(id, 1)
		if err != nil {
			t.Fatal(err)
		}
		runs[id] = run
		if _, err := app.Append(ctx, run.Request, run.Seal); err != nil {
			t.Fatal(err)
		}
	}
	answered := func() (map[string]*record.Decoded, error) {
		out := map[string]*record.Decoded{}
		err := log.Scan(ctx, 1, func(e local.Entry, err error) error {
			if err != nil {
				return err
			}
			r, err := record.Decode(e.Payload)
			if err != nil {
				return err
			}
			if r.Kind == pb.Kind_KIND_TREES_MATERIALIZED || r.Kind == pb.Kind_KIND_RUN_FAILED {
				out[r.Record.GetRunId()] = r
			}
			return nil
		})
		return out, err
	}
	var got map[string]*record.Decoded
	for len(got) < len(ids) {
		select {
		case err := <-errc:
			t.Fatalf("the service stopped: %v", err)
		case <-ctx.Done():
			t.Fatalf("only %d of %d runs answered", len(got), len(ids))
		case <-time.After(20 * time.Millisecond):
		}
		if got, err = answered(); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]struct {
		attempts uint32
		panicked bool
		reason   string
		early    bool // failed on the request, recorded once the seal came
	}{
		"run-permanent": {1, false, "commit 0123abcd is not in the repository", false},
		"run-panic":     {1, true, "panic: assignment to entry in nil map", false},
		"run-early":     {1, false, "the request names no repository this service can read", true},
		"run-down":      {3, false, "blob store: connection refused (try 3)", false},
	}
	for _, id := range ids {
		r := got[id]
		w, fails := want[id]
		if !fails {
			if r.Kind != pb.Kind_KIND_TREES_MATERIALIZED {
				t.Errorf("%s: %s, want its trees", id, record.KindName(r.Kind))
			}
			continue
		}
		f := r.Record.GetRunFailed()
		if f == nil {
			t.Errorf("%s: %s, want run.failed", id, record.KindName(r.Kind))
			continue
		}
		on, kind := runs[id].Seal.Digest, "criteria.sealed"
		if w.early {
			on, kind = runs[id].Request.Digest, "run.requested"
		}
		if f.Service != "checkout" || f.FailedRecord != on || f.FailedKind != kind ||
			f.Attempts != w.attempts || f.Panicked != w.panicked || f.Reason != w.reason {
			t.Errorf("%s: run.failed %+v, want attempts %d, panicked %v, reason %q on the %s", id, f, w.attempts, w.panicked, w.reason, kind)
		}
		if r.Record.GetProducer().GetIdentity() != keyring.Checkout {
			t.Errorf("%s: run.failed signed by %q", id, r.Record.GetProducer().GetIdentity())
		}
	}
	if h.tries["run-flaky"] != 3 {
		t.Errorf("run-flaky tried %d times, want 3", h.tries["run-flaky"])
	}

	// A failed run's later records are not handled; a healthy run's are.
	h.mu.Lock()
	before := map[string]int{"run-good-1": h.after["run-good-1"], "run-permanent": h.after["run-permanent"]}
	h.mu.Unlock()
	for _, id := range []string{"run-permanent", "run-good-1"} {
		late, err := b.Sign(keyring.Checkout, &pb.Record{RunId: id, CriteriaDigest: runs[id].Sealed.Digest, Parents: []string{got[id].Digest},
			Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{BaselineTreeDigest: "late", PatchTreeDigest: "late"}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := app.Append(ctx, late); err != nil {
			t.Fatal(err)
		}
	}
	for {
		h.mu.Lock()
		good, bad := h.after["run-good-1"]-before["run-good-1"], h.after["run-permanent"]-before["run-permanent"]
		h.mu.Unlock()
		if good > 0 {
			if bad != 0 {
				t.Errorf("a record of a run the service failed was handled %d time(s)", bad)
			}
			break
		}
		select {
		case err := <-errc:
			t.Fatalf("the service stopped: %v", err)
		case <-ctx.Done():
			t.Fatal("the healthy run's later record was never handled")
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("the service stopped: %v", err)
	}
	// Every record on the ledger, the failures included, re-verifies offline.
	reverify(t, trust, log)
}

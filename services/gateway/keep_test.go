package gateway_test

import (
	"context"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"google.golang.org/grpc"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
)

// sealedRuns publishes n sealed runs, admitted by the guard, to a fresh
// broker's records topic and returns the broker, the verifier and each
// run's records in order, the seal last.
func sealedRuns(t *testing.T, n int) ([]string, *admission.Verifier, map[string][]*record.Decoded, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	brokers, keys, v, key := newTestLedger(ctx, t)
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pub.Close() })
	stamper, err := guard.NewStamper(pub, key, nil, v)
	if err != nil {
		t.Fatal(err)
	}
	b := scenario.NewBuilder(keys, nil)
	runs := map[string][]*record.Decoded{}
	var ids []string
	for range n {
		run, err := b.NewRun(runindex.NewID(time.Now()), 1)
		if err != nil {
			t.Fatal(err)
		}
		seal, err := b.Sign(keyring.Signing, &pb.Record{RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Verdict.Digest},
			Body: &pb.Record_VerdictSealed{VerdictSealed: &pb.VerdictSealed{}}})
		if err != nil {
			t.Fatal(err)
		}
		recs := append(run.Records(), seal)
		for _, r := range recs {
			m, err := ledger.Message(r)
			if err != nil {
				t.Fatal(err)
			}
			if err := stamper.Publish(ledger.Topic, m); err != nil {
				t.Fatal(err)
			}
		}
		runs[run.ID] = recs
		ids = append(ids, run.ID)
	}
	return brokers, v, runs, ids
}

// An index with a lookup holds only the last sealed runs; one it let go is
// read again, whole, when asked for. Without a lookup it lets nothing go.
func TestIndexLetsGoOfOldSealedRuns(t *testing.T) {
	ctx := context.Background()
	brokers, v, runs, ids := sealedRuns(t, 4)
	idx, err := gateway.NewIndex(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	idx.WithLookup((&runindex.Locator{Brokers: brokers}).Lookup(ledger.Topic)).WithSealedKept(2)
	for _, id := range ids {
		if err := idx.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range ids {
		if held := idx.Holds(id); held != (i >= 2) {
			t.Errorf("run %d held: %v, want only the last 2 sealed", i, held)
		}
	}
	if err := idx.Load(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	got, sealed, _ := idx.Since(ids[0], 0)
	if !sealed || len(got) != len(runs[ids[0]]) {
		t.Fatalf("run 0 read again: %d records (sealed %v), want %d sealed", len(got), sealed, len(runs[ids[0]]))
	}
	for i, r := range runs[ids[0]] {
		if got[i].Digest != r.Digest {
			t.Fatalf("run 0 read again: record %d is %s, want %s", i, record.KindName(got[i].Kind), record.KindName(r.Kind))
		}
	}
	if idx.Holds(ids[2]) || !idx.Holds(ids[3]) {
		t.Error("reading run 0 again did not let go of the oldest seal, run 2")
	}

	// Without a lookup, nothing could read a run again: the feed's index
	// holds every run.
	fed, err := gateway.NewIndex(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	fed.WithSealedKept(1)
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	fctx, fcancel := context.WithTimeout(ctx, time.Minute)
	defer fcancel()
	stopped := make(chan error, 1)
	go func() { stopped <- fed.Feed(fctx, sub) }()
	for _, id := range ids {
		for {
			_, sealed, changed := fed.Since(id, 0)
			if sealed {
				break
			}
			select {
			case <-changed:
			case err := <-stopped:
				t.Fatalf("the feed stopped before run %s was sealed: %v", id, err)
			}
		}
	}
	for i, id := range ids {
		if !fed.Holds(id) {
			t.Errorf("an index without a lookup let run %d go", i)
		}
	}
	fcancel()
	<-stopped
}

// blockingStream is the server side of a Watch call: it holds the first
// Send until release is closed, and keeps what was sent.
type blockingStream struct {
	grpc.ServerStream
	ctx     context.Context
	first   chan struct{} // closed at the first Send
	release chan struct{}
	sent    []*pb.SignedRecord
}

func (s *blockingStream) Context() context.Context { return s.ctx }

func (s *blockingStream) Send(r *pb.SignedRecord) error {
	if len(s.sent) == 0 {
		close(s.first)
		<-s.release
	}
	s.sent = append(s.sent, r)
	return nil
}

// A Watch whose run is sealed and let go by the index while the stream
// is busy reads the run again and ends it with the seal: it does not wait
// for a change that can no longer come.
func TestWatchOutlivesTheIndexLettingGo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	brokers, v, runs, ids := sealedRuns(t, 2)
	a, b := ids[0], ids[1]
	idx, err := gateway.NewIndex(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The lookup holds back a's seal until told.
	sealOut := make(chan struct{})
	loc := (&runindex.Locator{Brokers: brokers}).Lookup(ledger.Topic)
	idx.WithLookup(func(ctx context.Context, runID string, fn func(*message.Message) error) error {
		return loc(ctx, runID, func(m *message.Message) error {
			if runID == a && m.Metadata.Get(ledger.MetaDigest) == runs[a][len(runs[a])-1].Digest {
				select {
				case <-sealOut:
				default:
					return nil
				}
			}
			return fn(m)
		})
	}).WithSealedKept(1)
	if err := idx.Load(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, sealed, _ := idx.Since(a, 0); sealed || len(got) != len(runs[a])-1 {
		t.Fatalf("run a before its seal: %d records, sealed %v", len(got), sealed)
	}
	// Shorter than the test: a Watch that waits for a change that cannot
	// come fails here rather than hanging the test.
	wctx, wcancel := context.WithTimeout(ctx, 15*time.Second)
	defer wcancel()
	stream := &blockingStream{ctx: wctx, first: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- (&gateway.Server{Index: idx}).Watch(&pb.WatchRequest{RunId: a}, stream) }()
	<-stream.first
	// While the stream sends: a is sealed, then b, which lets a go.
	close(sealOut)
	for _, id := range []string{a, b} {
		if err := idx.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if idx.Holds(a) {
		t.Fatal("the index still holds run a")
	}
	close(stream.release)
	if err := <-done; err != nil {
		t.Fatalf("Watch: %v", err)
	}
	if len(stream.sent) != len(runs[a]) {
		t.Fatalf("Watch sent %d records, want %d", len(stream.sent), len(runs[a]))
	}
	for i, r := range runs[a] {
		if string(stream.sent[i].GetRecord()) != string(r.Signed.GetRecord()) {
			t.Fatalf("Watch's record %d is not the run's", i)
		}
	}
}

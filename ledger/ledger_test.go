package ledger_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
)

type env struct {
	keys  *keyring.Keyring
	trust *authority.Trust
	b     *scenario.Builder
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	keys, err := keyring.LoadOrCreate(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	trust, err := keys.Trust()
	if err != nil {
		tb.Fatal(err)
	}
	return &env{keys: keys, trust: trust, b: scenario.NewBuilder(keys, nil)}
}

func (e *env) appender(tb testing.TB, pub message.Publisher) (*ledger.Appender, *authority.State) {
	tb.Helper()
	guard, err := e.keys.Signer(keyring.Ledger)
	if err != nil {
		tb.Fatal(err)
	}
	st := authority.New(e.trust)
	a, err := ledger.NewAppender(pub, st, guard, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return a, st
}

func openLocal(tb testing.TB, path string) *local.Log {
	tb.Helper()
	log, err := local.Open(path, local.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return log
}

// TestAppendReplayVerify appends a run and a refused record to a real local
// log, then rebuilds the admission state from the log and verifies it.
func TestAppendReplayVerify(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	path := filepath.Join(t.TempDir(), "ledger.db")
	log := openLocal(t, path)
	pub, err := local.NewPublisher(log)
	if err != nil {
		t.Fatal(err)
	}
	app, _ := e.appender(t, pub)
	run, err := e.b.NewRun("run-a", 3)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := app.Append(ctx, run.Records()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Outcome != authority.Accepted {
			t.Fatalf("%s: %v %s", record.KindName(d.Record.Kind), d.Outcome, d.Code)
		}
	}
	// A record before its run's seal is refused, and the refusal stored.
	other, err := e.b.NewRun("run-b", 1)
	if err != nil {
		t.Fatal(err)
	}
	ds, err = app.Append(ctx, other.Trees, run.Results[0])
	if err != nil {
		t.Fatal(err)
	}
	if ds[0].Code != authority.CodeNoSeal || ds[1].Outcome != authority.Duplicate {
		t.Fatalf("got %v %q and %v, want a no_seal refusal and a duplicate", ds[0].Outcome, ds[0].Code, ds[1].Outcome)
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}

	log = openLocal(t, path)
	defer log.Close()
	st := authority.New(e.trust)
	v := ledger.NewVerifier(e.trust)
	var kinds []string
	err = log.Scan(ctx, 1, func(en local.Entry, err error) error {
		if err != nil {
			return err
		}
		if err := ledger.Replay(st, en.Payload); err != nil {
			return err
		}
		if p := v.Next(en.Seq, en.Payload); p != nil {
			return p
		}
		kinds = append(kinds, en.Metadata[ledger.MetaKind])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := v.Finish(); p != nil {
		t.Fatal(p)
	}
	if n := len(kinds); n != len(run.Records())+1 || kinds[n-1] != "record.refused" {
		t.Fatalf("stored kinds %v", kinds)
	}
	if st.Run("run-a").Sealed == nil || st.Run("run-b") != nil {
		t.Fatal("replayed state differs from what was appended")
	}
}

// closedPublisher fails every publish, as a dead broker or a full disk does.
type closedPublisher struct{}

func (closedPublisher) Publish(string, ...*message.Message) error { return fmt.Errorf("disk full") }
func (closedPublisher) Close() error                              { return nil }

func TestAppenderStopsAfterAFailedPublish(t *testing.T) {
	e := newEnv(t)
	app, _ := e.appender(t, closedPublisher{})
	run, err := e.b.NewRun("run-a", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Append(context.Background(), run.Request); err == nil {
		t.Fatal("a failed publish was reported as appended")
	}
	// The in-memory state admitted a record the log never got: the
	// appender must refuse to go on rather than build on it.
	if _, err := app.Append(context.Background(), run.Seal); err == nil {
		t.Fatal("the appender went on after losing a record")
	}
}

// benchRecords returns n signed records: whole runs of 100 jobs each.
func benchRecords(b *testing.B, e *env, n int) [][]byte {
	b.Helper()
	var out [][]byte
	for i := 0; len(out) < n; i++ {
		run, err := e.b.NewRun(fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i), 100)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range run.Records() {
			raw, err := r.Encoded()
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, raw)
		}
	}
	return out[:n]
}

// benchAppend measures admission (decode, signature check, state) plus
// durable append of signed records, batch records per Append call from
// callers concurrent callers (each appending its own runs), and the p99
// latency of one Append. Signing is the producers' work and is done before
// the clock starts (BenchmarkSign measures it).
func benchAppend(b *testing.B, pub message.Publisher, batch, callers int) {
	e := newEnv(b)
	app, _ := e.appender(b, pub)
	ctx := context.Background()
	total := max(b.N*batch, batch*callers)
	per := (total + callers - 1) / callers
	per += batch - per%batch
	// Records come in run order per caller, so admission sees each run in
	// order whatever the interleaving of callers.
	recs := make([][][]byte, callers)
	for c := range recs {
		recs[c] = benchRecords(b, e, per)
	}
	lats := make([][]time.Duration, callers)
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := 0; i+batch <= len(recs[c]); i += batch {
				start := time.Now()
				ds, err := app.AppendRaw(ctx, recs[c][i:i+batch]...)
				lats[c] = append(lats[c], time.Since(start))
				if err != nil {
					b.Error(err)
					return
				}
				for _, d := range ds {
					if d.Outcome != authority.Accepted {
						b.Errorf("%v %s %s", d.Outcome, d.Code, d.Detail)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	var lat []time.Duration
	for _, l := range lats {
		lat = append(lat, l...)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(per*callers)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// benchCases are the batch sizes and concurrent callers measured.
func benchCases() []struct{ batch, callers int } {
	return []struct{ batch, callers int }{{1, 1}, {100, 1}, {1000, 1}, {1000, 2}}
}

// BenchmarkAppend: go test ./ledger -run '^$' -bench BenchmarkAppend -benchtime 3s
func BenchmarkAppend(b *testing.B) {
	for _, bc := range benchCases() {
		b.Run(fmt.Sprintf("local/batch=%d/callers=%d", bc.batch, bc.callers), func(b *testing.B) {
			log := openLocal(b, filepath.Join(b.TempDir(), "ledger.db"))
			defer log.Close()
			pub, err := local.NewPublisher(log)
			if err != nil {
				b.Fatal(err)
			}
			benchAppend(b, pub, bc.batch, bc.callers)
		})
	}
	for _, bc := range benchCases() {
		b.Run(fmt.Sprintf("kafka/batch=%d/callers=%d", bc.batch, bc.callers), func(b *testing.B) {
			pub := kafkaPublisher(b)
			benchAppend(b, pub, bc.batch, bc.callers)
		})
	}
}

// kafkaPublisher starts an in-process Kafka wire-protocol broker (kfake) with
// the ledger topic and returns a publisher to it; both end with b.
func kafkaPublisher(b *testing.B) message.Publisher {
	b.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.DefaultNumPartitions(4))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cluster.Close)
	brokers := cluster.ListenAddrs()
	if err := kafka.CreateTopic(context.Background(), brokers, ledger.Topic, 4); err != nil {
		b.Fatal(err)
	}
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, watermill.NopLogger{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pub.Close() })
	return pub
}

// BenchmarkSign is the producer's side: signing one record.
func BenchmarkSign(b *testing.B) {
	e := newEnv(b)
	run, err := e.b.NewRun("sign", 1)
	if err != nil {
		b.Fatal(err)
	}
	s, err := e.keys.Signer(keyring.Executor)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Sign(run.Results[0].Record); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStore measures the backend alone: durable append of signed ledger
// records (real records, as the appender publishes them after admission),
// batch per Publish call, and the p99 latency of one call.
func benchStore(b *testing.B, pub message.Publisher, batch int) {
	e := newEnv(b)
	recs := benchRecords(b, e, max(b.N, 1)*batch)
	msgs := make([]*message.Message, len(recs))
	for i, raw := range recs {
		d, err := record.Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		if msgs[i], err = ledger.Message(d); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i+batch <= len(msgs); i += batch {
		start := time.Now()
		if err := pub.Publish(ledger.Topic, msgs[i:i+batch]...); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(len(msgs))/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkStore: go test ./ledger -run '^$' -bench BenchmarkStore -benchtime 2s
func BenchmarkStore(b *testing.B) {
	for _, batch := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("local/batch=%d", batch), func(b *testing.B) {
			log := openLocal(b, filepath.Join(b.TempDir(), "ledger.db"))
			defer log.Close()
			pub, err := local.NewPublisher(log)
			if err != nil {
				b.Fatal(err)
			}
			benchStore(b, pub, batch)
		})
		b.Run(fmt.Sprintf("kafka/batch=%d", batch), func(b *testing.B) {
			pub := kafkaPublisher(b)
			benchStore(b, pub, batch)
		})
	}
}

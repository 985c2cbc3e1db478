package local_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/local"
)

// recordSize is the size of a signed ledger record.
const recordSize = 400

// BenchmarkPublish measures durable appends on the disk t.TempDir is on
// (not tmpfs): one op is one Publish call, which returns after its fsync.
//
//	go test ./ledger/local/ -run '^$' -bench BenchmarkPublish -benchtime 3s
func BenchmarkPublish(b *testing.B) {
	for _, batch := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) { benchmarkPublish(b, 1, batch) })
	}
	// Eight publishers of single messages: what group commit is for.
	b.Run("concurrent=8/batch=1", func(b *testing.B) { benchmarkPublish(b, 8, 1) })
}

func benchmarkPublish(b *testing.B, publishers, batch int) {
	l, err := local.Open(filepath.Join(b.TempDir(), "ledger.db"), local.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	pub, err := local.NewPublisher(l)
	if err != nil {
		b.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	msgs := make([][]*message.Message, publishers)
	for w := range msgs {
		for i := range batch {
			payload := make([]byte, recordSize)
			for j := range payload {
				payload[j] = byte(rng.Uint32())
			}
			m := message.NewMessage(fmt.Sprintf("w%d-%d", w, i), payload)
			m.Metadata.Set("kind", "verdict")
			msgs[w] = append(msgs[w], m)
		}
	}
	latencies := make([][]time.Duration, publishers)

	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range publishers {
		calls := b.N / publishers
		if w < b.N%publishers {
			calls++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, calls)
			for range calls {
				start := time.Now()
				if err := pub.Publish("bench", msgs[w]...); err != nil {
					b.Error(err)
					return
				}
				lat = append(lat, time.Since(start))
			}
			latencies[w] = lat
		}()
	}
	wg.Wait()
	b.StopTimer()

	all := slices.Concat(latencies...)
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	p99 := all[(len(all)*99+99)/100-1]
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(p99.Microseconds()), "p99-µs")
}

package kafka_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/kafka"
)

// recordSize is about the size of a signed ledger record.
const recordSize = 400

// BenchmarkPublish measures synchronous Publish of ledger-sized records:
// throughput (records/s) and the 99th percentile latency of one call
// (p99-ms), for calls of 1000 records, for single-record calls one at a
// time, and for single-record calls from 64 goroutines at once (which the
// Writer batches together).
func BenchmarkPublish(b *testing.B) {
	brokers := testBrokers(b)
	for _, bc := range []struct {
		name    string
		batch   int
		callers int // per GOMAXPROCS; 0: one caller
	}{
		{name: "batch=1000", batch: 1000},
		{name: "batch=1", batch: 1},
		{name: "batch=1/concurrent", batch: 1, callers: 32},
	} {
		b.Run(bc.name, func(b *testing.B) {
			topic := "bench-" + watermill.NewULID()
			if err := kafka.CreateTopic(context.Background(), brokers, topic, kafka.DefaultTopicPartitions); err != nil {
				b.Fatal(err)
			}
			pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: brokers}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer pub.Close()
			// One warm-up call loads the metadata and opens the connections.
			if err := pub.Publish(topic, records(1)...); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(bc.batch * recordSize))
			var lat latencies
			if bc.callers == 0 {
				msgs := records(bc.batch)
				for b.Loop() {
					start := time.Now()
					if err := pub.Publish(topic, msgs...); err != nil {
						b.Fatal(err)
					}
					lat.add(time.Since(start))
				}
			} else {
				b.SetParallelism(bc.callers)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					msgs := records(bc.batch)
					var mine []time.Duration
					for pb.Next() {
						start := time.Now()
						if err := pub.Publish(topic, msgs...); err != nil {
							b.Error(err)
							return
						}
						mine = append(mine, time.Since(start))
					}
					lat.add(mine...)
				})
			}
			b.ReportMetric(float64(lat.count()*bc.batch)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(lat.quantile(0.99))/float64(time.Millisecond), "p99-ms")
		})
	}
}

// records returns n messages with recordSize-byte payloads, each keyed by
// its own UUID, so that they spread over the partitions.
func records(n int) []*message.Message {
	msgs := make([]*message.Message, n)
	for i := range msgs {
		payload := make([]byte, recordSize)
		for j := range payload {
			payload[j] = byte(i + j)
		}
		msgs[i] = message.NewMessage(watermill.NewUUID(), payload)
	}
	return msgs
}

type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d ...time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.d = append(l.d, d...)
}

func (l *latencies) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.d)
}

func (l *latencies) quantile(q float64) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	s := slices.Clone(l.d)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

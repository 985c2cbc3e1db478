// Package runindex finds one run's messages on a Kafka topic without
// reading the topic from its start. It keeps no index of its own: the
// topic already is one. A run's messages are keyed by its id, so the
// partition they live in follows from the id (the publisher's hash
// balancer); a run id minted by NewID carries the run's start time, and
// the broker's time index (ListOffsets by timestamp) says where in that
// partition the run can begin. A lookup reads that partition forward from
// there to its end — the run and whatever came after it on that
// partition, not the topic's history.
//
// A run id that carries no time (that of an idempotency key without one,
// KeyedID) is read
// from its partition's start: 1/partitions of the topic, never wrong. The
// caller decides whether what it found is whole (a run's chain of
// admissions says so); Locator.Scan reads the whole topic for the caller
// that must fall back.
package runindex

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/kafka"
)

const (
	// TimeLayout is the start time in a run id minted by NewID.
	TimeLayout = "20060102T150405Z"
	// DefaultSkew is how much earlier than the time in its id a run's
	// messages may be stamped: the gateway that minted the id, the
	// services and the broker read different clocks.
	DefaultSkew = 10 * time.Minute

	timedPrefix = "run-"
	keyedPrefix = "run-key-"
)

// NewID names a run by its start time and 48 random bits.
func NewID(now time.Time) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return timedPrefix + now.UTC().Format(TimeLayout) + "-" + hex.EncodeToString(b)
}

// NewKey returns a fresh idempotency key that carries now: a run keyed by
// it has an id with a start time (KeyedID), which the locator reads from.
func NewKey(now time.Time) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return now.UTC().Format(TimeLayout) + "-" + hex.EncodeToString(b)
}

// KeyedID is the run id of the request with idempotency key key, a pure
// function of the key: every gateway derives the same id from the same
// key, so a resubmission (to a restarted gateway, or a second replica
// racing the first) names the same run, lands on the same partition, and
// the ledger guard admits one run.requested for it and refuses any other
// (the run was already requested). Keys share one space per ledger: the
// same key with another request is a conflict, never another run.
//
// A key that begins with a time (NewKey's: TimeLayout and a dash) gives an
// id with that time, "run-TIME-k" and 32 hex digits, which the locator
// reads from; any other key gives "run-key-" and 32 hex digits, read from
// its partition's start. The time is the client's word and only a hint:
// a wrong one makes a lookup slower (it falls back), never wrong.
func KeyedID(key string) string {
	sum := sha256.Sum256([]byte("sealgate idempotency key v1\x00" + key))
	h := hex.EncodeToString(sum[:16])
	if len(key) > len(TimeLayout) && key[len(TimeLayout)] == '-' {
		if t, err := time.Parse(TimeLayout, key[:len(TimeLayout)]); err == nil {
			return timedPrefix + t.UTC().Format(TimeLayout) + "-k" + h
		}
	}
	return keyedPrefix + h
}

// StartOf returns the start time a run id minted by NewID or KeyedID
// carries; false for any other id.
func StartOf(runID string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(runID, timedPrefix)
	if !ok || len(rest) < len(TimeLayout)+1 || rest[len(TimeLayout)] != '-' {
		return time.Time{}, false
	}
	t, err := time.Parse(TimeLayout, rest[:len(TimeLayout)])
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// ReadFunc reads messages and hands each to fn (guard.ReadFunc's shape).
type ReadFunc = func(ctx context.Context, fn func(*message.Message) error) error

// Locator reads runs from a Kafka cluster.
type Locator struct {
	Brokers []string
	// Skew is how much earlier than its id's time a run's messages may be
	// stamped; zero means DefaultSkew.
	Skew time.Duration
	// Starts, when not nil, remembers where the runs read lately begin in
	// their partitions, so that a run read again — a worker reads its run
	// for every job — is read from its first message rather than from its
	// time less the skew, which on a busy topic is thousands of other
	// runs' messages. Nil reads by time every time.
	Starts *Starts
}

// Since is the time from which l reads runID's partition: the id's start
// time less the skew, or the zero time (the partition's start) for an id
// without one.
func (l *Locator) Since(runID string) time.Time {
	t, ok := StartOf(runID)
	if !ok {
		return time.Time{}
	}
	skew := l.Skew
	if skew <= 0 {
		skew = DefaultSkew
	}
	return t.Add(-skew)
}

// Run reads runID's partition of topic from where the run can begin to the
// partition's end, handing fn only the messages whose run-id metadata is
// runID (the metadata only narrows: a reader checks the signed record).
// With Starts it reads from where an earlier read found the run's first
// message, or from the end of an earlier read that found none of it.
func (l *Locator) Run(topic, runID string) ReadFunc {
	return func(ctx context.Context, fn func(*message.Message) error) error {
		if runID == "" {
			return fmt.Errorf("runindex: read %s: no run id", topic)
		}
		first := int64(-1)
		mine := func(off int64, m *message.Message) error {
			if m.Metadata.Get(kafka.RunIDMetadataKey) != runID {
				return nil
			}
			if first < 0 {
				first = off
			}
			return fn(m)
		}
		k := startKey{topic: topic, run: runID}
		if at, ok := l.Starts.get(k); ok {
			kr, err := kafka.ReadKeyFrom(ctx, l.Brokers, topic, []byte(runID), at.partitions, at.from, mine)
			if !errors.Is(err, kafka.ErrKeyMoved) {
				if err == nil {
					l.Starts.put(k, kr, first, false)
				}
				return err
			}
			// The topic changed under the remembered offset: read by time,
			// and what that read finds replaces it.
		}
		kr, err := kafka.ReadKeySince(ctx, l.Brokers, topic, []byte(runID), l.Since(runID), mine)
		if err == nil {
			l.Starts.put(k, kr, first, true)
		}
		return err
	}
}

// DefaultStarts is how many runs' starts NewStarts keeps when asked for
// none: some minutes of a busy fleet's runs, a few hundred kilobytes.
const DefaultStarts = 4096

// Starts remembers, for the runs read last, the offset of their partition
// below which it holds none of their messages: the first one a read found,
// or the end of a read that found none (offsets only grow, so what comes
// later lies above it). It is safe for concurrent use; the zero value and
// nil remember nothing.
type Starts struct {
	mu    sync.Mutex
	limit int
	at    map[startKey]start
	order []startKey // the keys of at, oldest first
}

type startKey struct{ topic, run string }

// start is where a run's messages begin, for the partition count the
// offset was found with.
type start struct {
	partitions int
	from       int64
}

// NewStarts remembers the starts of the last n runs read (n <= 0:
// DefaultStarts).
func NewStarts(n int) *Starts {
	if n <= 0 {
		n = DefaultStarts
	}
	return &Starts{limit: n, at: map[startKey]start{}}
}

// Len is how many runs' starts s holds.
func (s *Starts) Len() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.at)
}

// From is the offset from which s has runID read on topic next, if it
// holds one.
func (s *Starts) From(topic, runID string) (int64, bool) {
	at, ok := s.get(startKey{topic: topic, run: runID})
	return at.from, ok
}

func (s *Starts) get(k startKey) (start, bool) {
	if s == nil {
		return start{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.at[k]
	return at, ok
}

// put records what a whole read of kr found: the run's first message at
// first, or (first < 0) none below kr.End. A read by time replaces what s
// held (the topic may have changed under it); otherwise, of two starts for
// one partition count the higher holds (both bound the run's first message
// from below; the higher reads less).
func (s *Starts) put(k startKey, kr kafka.KeyRange, first int64, replace bool) {
	if s == nil || s.at == nil || kr.Partitions == 0 {
		return
	}
	from := kr.End
	if first >= 0 {
		from = first
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.at[k]
	if ok && !replace && old.partitions == kr.Partitions && old.from >= from {
		return
	}
	if !ok {
		s.order = append(s.order, k)
	}
	s.at[k] = start{partitions: kr.Partitions, from: from}
	for len(s.at) > s.limit {
		delete(s.at, s.order[0])
		s.order = s.order[1:]
	}
}

// Lookup is Run as a function of the run id.
func (l *Locator) Lookup(topic string) func(ctx context.Context, runID string, fn func(*message.Message) error) error {
	return func(ctx context.Context, runID string, fn func(*message.Message) error) error {
		return l.Run(topic, runID)(ctx, fn)
	}
}

// Scan reads the whole topic, partition by partition: the fallback when
// what Run found is not whole.
func (l *Locator) Scan(topic string) ReadFunc {
	return func(ctx context.Context, fn func(*message.Message) error) error {
		return kafka.ReadTopic(ctx, l.Brokers, topic, func(_ int, _ int64, m *message.Message) error { return fn(m) })
	}
}

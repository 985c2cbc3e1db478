package local

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Limits and defaults.
const (
	// DefaultLockTimeout is how long Open waits for the file lock when
	// Options.LockTimeout is zero.
	DefaultLockTimeout = 5 * time.Second
	// DefaultMaxEntryBytes bounds a stored entry when Options.MaxEntryBytes
	// is zero. Signed ledger records are well under a kilobyte; the bound
	// exists so one bad producer cannot bloat every group's read path.
	DefaultMaxEntryBytes = 16 << 20
	// MaxTopicBytes bounds a topic name (it is a bbolt bucket name).
	MaxTopicBytes = 1024
	// MaxGroupBytes bounds a consumer group name (it is part of a bbolt key).
	MaxGroupBytes = 1024
	// DefaultFileMode is the permission of a newly created file when
	// Options.FileMode is zero.
	DefaultFileMode os.FileMode = 0o600

	// A group commit takes whatever is queued when the previous commit ends,
	// up to these bounds, so that one transaction stays a bounded amount of
	// dirty pages.
	maxBatchRequests = 1024
	maxBatchBytes    = 32 << 20
	// maxLinger bounds how long the committer waits for the stragglers of
	// a concurrent round (see runCommitter).
	maxLinger = 500 * time.Microsecond
)

// bbolt layout.
//
//	entries: seq (8 bytes BE) → encoded entry          global append order
//	topics:  topic → bucket { seq → "" }               per-topic index
//	offsets: u32 len(group) || group || topic → seq   last acked seq per (group, topic)
//	meta:    "format" → 1, "head" → seq || hash        last appended entry
const (
	bucketEntries = "entries"
	bucketTopics  = "topics"
	bucketOffsets = "offsets"
	bucketMeta    = "meta"
	keyFormat     = "format"
	keyHead       = "head"
	formatVersion = 1
)

// Options configure Open and OpenReadOnly. The zero value is ready to use.
type Options struct {
	// LockTimeout bounds the wait for the file lock held by another user of
	// the file; zero means DefaultLockTimeout. There is deliberately no way
	// to wait forever.
	LockTimeout time.Duration
	// MaxEntryBytes bounds one encoded entry; zero means DefaultMaxEntryBytes.
	MaxEntryBytes int
	// FileMode is used when the file is created; zero means DefaultFileMode.
	FileMode os.FileMode
	// Logger receives errors that have no caller to return to (a failed
	// offset commit after Ack, a corrupt entry met by a subscription).
	// Nil means watermill.NopLogger.
	Logger watermill.LoggerAdapter
}

// Log is an append-only, hash-chained log of Watermill messages in a bbolt
// file. It is safe for concurrent use. Publishers and subscribers built on it
// do not own it: close them first, then the Log.
type Log struct {
	db       *bbolt.DB
	path     string
	readOnly bool
	maxEntry int
	logger   watermill.LoggerAdapter

	// commits is unbuffered on purpose: requests that arrive while a commit
	// is running wait in the channel's queue, and the committer takes all of
	// them into the next transaction (group commit without a timer).
	commits       chan *commitRequest
	stopCommitter chan struct{}
	committerDone chan struct{}
	// done is closed when Close starts; subscriptions watch it.
	done chan struct{}

	mu      sync.Mutex
	closed  bool                     // guarded by mu; set once, before done closes
	waiters map[string]chan struct{} // guarded by mu; topic → closed on the next commit to it
	cursors map[string]*groupCursor  // guarded by mu; offset key → shared delivery cursor
	subs    sync.WaitGroup           // subscription goroutines; Add only under mu while !closed

	closeOnce sync.Once
	closeErr  error
}

// Open opens (creating if needed) the log at path for reading and writing.
// It fails with ErrLocked if another user holds the file for longer than
// opts.LockTimeout, and with ErrCorruptFile if the file is damaged.
func Open(path string, opts Options) (*Log, error) {
	return open(path, opts, false)
}

// OpenReadOnly opens an existing log for reading only (Scan, VerifyChain,
// Offset, Head and subscribers without a consumer group). Several read-only
// users may share a file; none can share it with a writer.
func OpenReadOnly(path string, opts Options) (*Log, error) {
	return open(path, opts, true)
}

func open(path string, opts Options, readOnly bool) (*Log, error) {
	switch {
	case path == "":
		return nil, fmt.Errorf("%w: empty path", ErrInvalidArgument)
	case opts.LockTimeout < 0:
		return nil, fmt.Errorf("%w: negative LockTimeout %s", ErrInvalidArgument, opts.LockTimeout)
	case opts.MaxEntryBytes < 0 || (opts.MaxEntryBytes > 0 && opts.MaxEntryBytes < minEntrySize):
		return nil, fmt.Errorf("%w: MaxEntryBytes %d below the minimum entry size %d", ErrInvalidArgument, opts.MaxEntryBytes, minEntrySize)
	}
	l := &Log{
		path:          path,
		readOnly:      readOnly,
		maxEntry:      cmp.Or(opts.MaxEntryBytes, DefaultMaxEntryBytes),
		logger:        opts.Logger,
		commits:       make(chan *commitRequest),
		stopCommitter: make(chan struct{}),
		committerDone: make(chan struct{}),
		done:          make(chan struct{}),
		waiters:       make(map[string]chan struct{}),
		cursors:       make(map[string]*groupCursor),
	}
	if l.logger == nil {
		l.logger = watermill.NopLogger{}
	}
	l.logger = l.logger.With(watermill.LogFields{"ledger_path": path})

	db, err := openBolt(path, cmp.Or(opts.FileMode, DefaultFileMode), &bbolt.Options{
		Timeout:  cmp.Or(opts.LockTimeout, DefaultLockTimeout),
		ReadOnly: readOnly,
		// The map freelist stays fast however fragmented the file gets.
		FreelistType: bbolt.FreelistMapType,
	})
	if err != nil {
		return nil, err
	}
	l.db = db
	if err := l.prepare(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("ledger/local: open %s: %w", path, err)
	}
	if readOnly {
		close(l.committerDone)
	} else {
		go l.runCommitter()
	}
	return l, nil
}

// openBolt opens the bbolt file, turning a lock timeout into ErrLocked and a
// panic on a damaged file into ErrCorruptFile. bbolt leaves its file open
// (and locked) when it panics mid-open, so the file is captured to release it.
func openBolt(path string, mode os.FileMode, bo *bbolt.Options) (*bbolt.DB, error) {
	var file *os.File
	bo.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	var db *bbolt.DB
	err := guard(func() (err error) {
		db, err = bbolt.Open(path, mode, bo)
		return err
	})
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s still held after %s", ErrLocked, path, bo.Timeout)
	case errors.Is(err, ErrCorruptFile):
		// bbolt panicked after mapping the file. The mapping cannot be
		// reached (bbolt never returned its DB) and keeps the open file
		// description, hence its flock, alive: unlock explicitly, so
		// that the failure is reported as corruption, not as a lock, to
		// the next Open. The mapping itself leaks until exit.
		if file != nil {
			_ = unlockFile(file)
			_ = file.Close()
		}
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch):
		err = fmt.Errorf("%w: %w", ErrCorruptFile, err)
	}
	return nil, fmt.Errorf("ledger/local: open %s: %w", path, err)
}

// guard runs a bbolt operation, converting a panic or a memory fault (bbolt
// reads the file through mmap and trusts page headers) into ErrCorruptFile.
// Every bbolt call goes through it: a damaged file must never crash sealgate.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: bbolt: %v", ErrCorruptFile, r)
		}
	}()
	return fn()
}

func (l *Log) view(fn func(*bbolt.Tx) error) error {
	return guard(func() error { return l.db.View(fn) })
}

func (l *Log) update(fn func(*bbolt.Tx) error) error {
	return guard(func() error { return l.db.Update(fn) })
}

// prepare creates the buckets of a new file, or checks that an existing one is
// a log this code understands and that its recorded head is the last entry.
func (l *Log) prepare() error {
	if l.readOnly {
		return l.view(func(tx *bbolt.Tx) error {
			_, err := bucketsOf(tx)
			return err
		})
	}
	return l.update(func(tx *bbolt.Tx) error {
		for _, name := range []string{bucketEntries, bucketTopics, bucketOffsets, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket([]byte(bucketMeta))
		if meta.Get([]byte(keyFormat)) == nil {
			if err := meta.Put([]byte(keyFormat), []byte{formatVersion}); err != nil {
				return fmt.Errorf("write format: %w", err)
			}
		}
		b, err := bucketsOf(tx)
		if err != nil {
			return err
		}
		head, err := readHead(b.meta)
		if err != nil {
			return err
		}
		k, v := b.entries.Cursor().Last()
		switch {
		case k == nil && head.seq == 0:
			return nil
		case k == nil || len(k) != 8 || binary.BigEndian.Uint64(k) != head.seq:
			return &CorruptEntryError{Seq: head.seq, Err: fmt.Errorf("%w: head at seq %d, last stored key %x", ErrHeadMismatch, head.seq, k)}
		case len(v) < HashSize || !bytes.Equal(v[len(v)-HashSize:], head.hash[:]):
			return &CorruptEntryError{Seq: head.seq, Err: ErrHeadMismatch}
		}
		return nil
	})
}

type buckets struct {
	entries, topics, offsets, meta *bbolt.Bucket
}

func bucketsOf(tx *bbolt.Tx) (buckets, error) {
	b := buckets{
		entries: tx.Bucket([]byte(bucketEntries)),
		topics:  tx.Bucket([]byte(bucketTopics)),
		offsets: tx.Bucket([]byte(bucketOffsets)),
		meta:    tx.Bucket([]byte(bucketMeta)),
	}
	if b.entries == nil || b.topics == nil || b.offsets == nil || b.meta == nil {
		return b, fmt.Errorf("%w: not a sealgate ledger (buckets missing)", ErrCorruptFile)
	}
	if f := b.meta.Get([]byte(keyFormat)); len(f) != 1 || f[0] != formatVersion {
		return b, fmt.Errorf("%w: unsupported format %x", ErrCorruptFile, f)
	}
	return b, nil
}

type head struct {
	seq  uint64
	hash Hash
}

func readHead(meta *bbolt.Bucket) (head, error) {
	var h head
	v := meta.Get([]byte(keyHead))
	if v == nil {
		return h, nil
	}
	if len(v) != 8+HashSize {
		return h, fmt.Errorf("%w: head record of %d bytes", ErrCorruptFile, len(v))
	}
	h.seq = binary.BigEndian.Uint64(v)
	copy(h.hash[:], v[8:])
	return h, nil
}

func (h head) encode() []byte {
	return append(binary.BigEndian.AppendUint64(nil, h.seq), h.hash[:]...)
}

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

func offsetKey(group, topic string) []byte {
	k := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(group)+len(topic)), uint32(len(group)))
	return append(append(k, group...), topic...)
}

func readOffset(v []byte) (uint64, error) {
	switch len(v) {
	case 0:
		return 0, nil
	case 8:
		return binary.BigEndian.Uint64(v), nil
	}
	return 0, fmt.Errorf("%w: consumer offset of %d bytes", ErrCorruptFile, len(v))
}

// Head returns the seq and hash of the last appended entry (0 and the zero
// hash for an empty log).
func (l *Log) Head() (uint64, Hash, error) {
	var h head
	err := l.view(func(tx *bbolt.Tx) error {
		b, err := bucketsOf(tx)
		if err != nil {
			return err
		}
		h, err = readHead(b.meta)
		return err
	})
	if err != nil {
		return 0, Hash{}, fmt.Errorf("ledger/local: read head: %w", err)
	}
	return h.seq, h.hash, nil
}

// Offset returns the seq of the last message of topic acknowledged by the
// consumer group, or 0 if it has acknowledged none.
func (l *Log) Offset(group, topic string) (uint64, error) {
	if err := validateGroup(group, false); err != nil {
		return 0, err
	}
	if err := validateTopic(topic); err != nil {
		return 0, err
	}
	var off uint64
	err := l.view(func(tx *bbolt.Tx) error {
		b, err := bucketsOf(tx)
		if err != nil {
			return err
		}
		off, err = readOffset(b.offsets.Get(offsetKey(group, topic)))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("ledger/local: read offset of group %q on %q: %w", group, topic, err)
	}
	return off, nil
}

func validateTopic(topic string) error {
	if topic == "" || len(topic) > MaxTopicBytes {
		return fmt.Errorf("%w: topic must be 1 to %d bytes, got %d", ErrInvalidArgument, MaxTopicBytes, len(topic))
	}
	return nil
}

func validateGroup(group string, allowEmpty bool) error {
	if (group == "" && !allowEmpty) || len(group) > MaxGroupBytes {
		return fmt.Errorf("%w: consumer group must be 1 to %d bytes, got %d", ErrInvalidArgument, MaxGroupBytes, len(group))
	}
	return nil
}

// Close stops the log: subscriptions end (their channels close), in-flight
// commits finish, then the file is closed. Publishing after Close fails with
// ErrClosed. Close waits for every goroutine of the Log and is idempotent.
func (l *Log) Close() error {
	l.closeOnce.Do(func() {
		l.mu.Lock()
		l.closed = true
		close(l.done)
		l.mu.Unlock()

		// Subscriptions may still be committing the offset of a message
		// acked just before Close, so the committer outlives them.
		l.subs.Wait()
		if !l.readOnly {
			close(l.stopCommitter)
		}
		<-l.committerDone
		if err := guard(l.db.Close); err != nil {
			l.closeErr = fmt.Errorf("ledger/local: close %s: %w", l.path, err)
		}
	})
	return l.closeErr
}

// Group commit.

// pendingEntry is a message encoded up to the parts the transaction assigns.
type pendingEntry struct {
	topic string
	body  []byte
}

// offsetUpdate moves a consumer offset from prev to next, only if it is
// still at prev: the compare-and-set is what makes an offset commit and the
// entries of the same request happen at most once.
type offsetUpdate struct {
	key        []byte
	prev, next uint64
	// settled lets a plain Ack succeed without writing when the offset is
	// already next (an AckWith of the same message won the race).
	settled bool
}

type commitRequest struct {
	entries []pendingEntry
	offset  *offsetUpdate
	size    int
	errc    chan error
}

// submit hands r to the committer and waits until its transaction is
// committed (and fsynced) or has failed.
func (l *Log) submit(r *commitRequest) error {
	if l.readOnly {
		return ErrReadOnly
	}
	r.errc = make(chan error, 1)
	select {
	case l.commits <- r:
	case <-l.stopCommitter:
		return ErrClosed
	}
	return <-r.errc
}

// runCommitter is the single writer. Owned by the Log; exits when Close
// closes stopCommitter, which happens only after every subscription ended.
//
// A batch is whatever is queued when the committer gets to it. When the
// previous batch had several requests, their senders are only now waking up
// to their results; without waiting for them a lone early one would commit
// alone and the rest would queue behind its fsync, halving the batches. So
// the committer then lingers until as many requests as last time have
// arrived, for at most a fraction of a commit's duration.
func (l *Log) runCommitter() {
	defer close(l.committerDone)
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	var (
		expect  = 1           // requests in the previous batch
		lastDur time.Duration // duration of the previous commit
	)
	for {
		var first *commitRequest
		select {
		case first = <-l.commits:
		case <-l.stopCommitter:
			return
		}
		batch, size := []*commitRequest{first}, first.size
		var wait <-chan time.Time
		if expect > 1 {
			linger.Reset(min(lastDur/4, maxLinger))
			wait = linger.C
		}
	collect:
		for len(batch) < maxBatchRequests && size < maxBatchBytes {
			if len(batch) >= expect {
				wait = nil
			}
			var r *commitRequest
			if wait == nil {
				select {
				case r = <-l.commits:
				default:
					break collect
				}
			} else {
				select {
				case r = <-l.commits:
				case <-wait:
					wait = nil
					continue
				}
			}
			batch = append(batch, r)
			size += r.size
		}
		linger.Stop() // since Go 1.23 no stale tick survives Stop or Reset
		start := time.Now()
		l.commit(batch)
		expect, lastDur = len(batch), time.Since(start)
	}
}

// commit writes batch in one transaction and answers every request. A
// request whose offset precondition fails is rejected alone; if the
// transaction itself fails, each request is retried in its own transaction
// so that one cannot fail the others.
func (l *Log) commit(batch []*commitRequest) {
	results := make([]error, len(batch))
	err := l.update(func(tx *bbolt.Tx) error {
		clear(results)
		return apply(tx, batch, results)
	})
	if err != nil && len(batch) > 1 {
		for _, r := range batch {
			l.commit([]*commitRequest{r})
		}
		return
	}
	if err != nil {
		err = fmt.Errorf("ledger/local: commit: %w", err)
		batch[0].errc <- err
		return
	}
	var topics []string
	for i, r := range batch {
		if results[i] == nil {
			for _, e := range r.entries {
				topics = append(topics, e.topic)
			}
		}
	}
	l.notify(topics)
	for i, r := range batch {
		r.errc <- results[i]
	}
}

func apply(tx *bbolt.Tx, batch []*commitRequest, results []error) error {
	b, err := bucketsOf(tx)
	if err != nil {
		return err
	}
	// Keys only ever grow, so full pages are never split again.
	b.entries.FillPercent = 1
	h, err := readHead(b.meta)
	if err != nil {
		return err
	}
	index := make(map[string]*bbolt.Bucket)
	for i, r := range batch {
		if u := r.offset; u != nil {
			cur, err := readOffset(b.offsets.Get(u.key))
			if err != nil {
				return err
			}
			if cur != u.prev {
				if !(u.settled && cur == u.next) {
					results[i] = fmt.Errorf("%w: at seq %d, delivered at %d", ErrOffsetConflict, cur, u.prev)
				}
				continue
			}
		}
		for _, pe := range r.entries {
			h.seq++
			key := seqKey(h.seq)
			var value []byte
			value, h.hash = seal(pe.body, h.seq, h.hash)
			if err := b.entries.Put(key, value); err != nil {
				return fmt.Errorf("append seq %d: %w", h.seq, err)
			}
			tb := index[pe.topic]
			if tb == nil {
				if tb, err = b.topics.CreateBucketIfNotExists([]byte(pe.topic)); err != nil {
					return fmt.Errorf("index topic %q: %w", pe.topic, err)
				}
				tb.FillPercent = 1
				index[pe.topic] = tb
			}
			if err := tb.Put(key, nil); err != nil {
				return fmt.Errorf("index seq %d under %q: %w", h.seq, pe.topic, err)
			}
		}
		if u := r.offset; u != nil {
			if err := b.offsets.Put(u.key, seqKey(u.next)); err != nil {
				return fmt.Errorf("commit offset: %w", err)
			}
		}
	}
	return b.meta.Put([]byte(keyHead), h.encode())
}

// wakeup returns a channel closed by the next commit that appends to topic.
// Take it before reading, so a commit between the read and the wait is not
// missed.
func (l *Log) wakeup(topic string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch, ok := l.waiters[topic]
	if !ok {
		ch = make(chan struct{})
		l.waiters[topic] = ch
	}
	return ch
}

func (l *Log) notify(topics []string) {
	if len(topics) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, t := range topics {
		if ch, ok := l.waiters[t]; ok {
			close(ch)
			delete(l.waiters, t)
		}
	}
}

// checkEntry decodes the stored value of seq and checks it against itself:
// structure, position and stored hash. The chain link is the caller's.
func checkEntry(seq uint64, value []byte) (Entry, error) {
	if value == nil {
		return Entry{Seq: seq}, &CorruptEntryError{Seq: seq, Err: ErrMissingEntry}
	}
	e, err := decodeEntry(value)
	if err != nil {
		return Entry{Seq: seq}, &CorruptEntryError{Seq: seq, Err: err}
	}
	if e.Seq != seq {
		return e, &CorruptEntryError{Seq: seq, Err: fmt.Errorf("%w: stored seq %d", ErrSeqMismatch, e.Seq)}
	}
	if entryHash(value[:len(value)-HashSize]) != e.Hash {
		return e, &CorruptEntryError{Seq: seq, Err: ErrHashMismatch}
	}
	return e, nil
}

// next returns the first entry of topic after a position: the group's stored
// offset when key is set (read in the same transaction), else after.
func (l *Log) next(key []byte, topic string, after uint64) (offset uint64, e Entry, found bool, err error) {
	err = l.view(func(tx *bbolt.Tx) error {
		b, err := bucketsOf(tx)
		if err != nil {
			return err
		}
		if key != nil {
			if after, err = readOffset(b.offsets.Get(key)); err != nil {
				return err
			}
		}
		offset = after
		tb := b.topics.Bucket([]byte(topic))
		if tb == nil {
			return nil
		}
		k, _ := tb.Cursor().Seek(seqKey(after + 1))
		if k == nil {
			return nil
		}
		if len(k) != 8 {
			return fmt.Errorf("%w: index of %q has a %d-byte key", ErrCorruptFile, topic, len(k))
		}
		seq := binary.BigEndian.Uint64(k)
		if e, err = checkEntry(seq, b.entries.Get(k)); err != nil {
			return err
		}
		if e.Topic != topic {
			return &CorruptEntryError{Seq: seq, Err: fmt.Errorf("%w: indexed under %q, stored for %q", ErrMalformedEntry, topic, e.Topic)}
		}
		found = true
		return nil
	})
	return offset, e, found, err
}

// HashAt returns the hash of entry seq, after checking the stored entry
// against it; an error wrapping ErrMissingEntry when there is no such
// entry. Callers that recorded a head outside the file compare it with
// this to tell a ledger that still holds it from one rolled back or
// replaced.
func (l *Log) HashAt(seq uint64) (Hash, error) {
	var e Entry
	err := l.view(func(tx *bbolt.Tx) error {
		b, err := bucketsOf(tx)
		if err != nil {
			return err
		}
		e, err = checkEntry(seq, b.entries.Get(seqKey(seq)))
		return err
	})
	if err != nil {
		return Hash{}, fmt.Errorf("ledger/local: entry %d: %w", seq, err)
	}
	return e.Hash, nil
}

package local

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// scanChunk is how many entries Scan copies out per read transaction. Short
// transactions keep a long scan from holding back bbolt's remap on growth,
// which would stall every writer.
const scanChunk = 1024

// Scan calls fn for every entry from fromSeq (0 or 1: the beginning) to the
// end, in append order, verifying each one and its link to the previous.
//
// A bad entry does not stop the scan: fn gets it with a *CorruptEntryError
// naming its seq (and whatever of the entry could be decoded), so that a
// verifier can report the first bad record and go on. The link from the
// entry after a bad one is not checked, so one damaged entry is reported
// once. A missing range of seqs is reported once, at its first seq. At the
// end the recorded head is checked against the last entry.
//
// Scan stops and returns fn's error as is when fn returns one, and returns
// ctx's error when ctx is done. It returns an error wrapping ErrCorruptFile
// if the bbolt file itself cannot be read.
func (l *Log) Scan(ctx context.Context, fromSeq uint64, fn func(Entry, error) error) error {
	if fn == nil {
		return fmt.Errorf("%w: nil scan callback", ErrInvalidArgument)
	}
	fromSeq = max(fromSeq, 1)
	v := chainVerifier{expect: fromSeq}
	if fromSeq > 1 {
		// Anchor the first link on the previous entry if it is sound;
		// otherwise the previous entry is the one a full scan would blame.
		var prev []byte
		err := l.view(func(tx *bbolt.Tx) error {
			b, err := bucketsOf(tx)
			if err != nil {
				return err
			}
			prev = bytes.Clone(b.entries.Get(seqKey(fromSeq - 1)))
			return nil
		})
		if err != nil {
			return fmt.Errorf("ledger/local: scan from seq %d: %w", fromSeq, err)
		}
		if e, err := checkEntry(fromSeq-1, prev); err == nil {
			v.prev, v.prevKnown = e.Hash, true
		}
	} else {
		v.prevKnown = true // the zero hash anchors seq 1
	}

	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var (
			raws []rawEntry
			h    head
			end  bool
		)
		err := l.view(func(tx *bbolt.Tx) error {
			b, err := bucketsOf(tx)
			if err != nil {
				return err
			}
			c := b.entries.Cursor()
			for k, val := c.Seek(seqKey(v.expect)); k != nil; k, val = c.Next() {
				if len(raws) == scanChunk {
					return nil
				}
				raws = append(raws, rawEntry{key: bytes.Clone(k), value: bytes.Clone(val)})
			}
			end = true
			h, err = readHead(b.meta)
			return err
		})
		if err != nil {
			return fmt.Errorf("ledger/local: scan from seq %d: %w", v.expect, err)
		}
		for _, r := range raws {
			if err := v.check(r, fn); err != nil {
				return err
			}
		}
		if end {
			return v.finish(fromSeq, h, fn)
		}
	}
}

type rawEntry struct {
	key, value []byte
}

// chainVerifier carries the chain state of a scan across read transactions.
type chainVerifier struct {
	expect    uint64 // next seq
	prev      Hash   // hash of entry expect-1, if prevKnown
	prevKnown bool   // false after a bad or missing entry: its successor's link is not judged
}

func (v *chainVerifier) check(r rawEntry, fn func(Entry, error) error) error {
	if len(r.key) != 8 {
		// A key that is not a seq cannot be placed in the order: blame the
		// position the scan is at.
		v.prevKnown = false
		return fn(Entry{Seq: v.expect}, &CorruptEntryError{Seq: v.expect, Err: fmt.Errorf("%w: %d-byte key %x", ErrMalformedEntry, len(r.key), r.key)})
	}
	seq := binary.BigEndian.Uint64(r.key)
	if seq > v.expect {
		err := &CorruptEntryError{Seq: v.expect, Err: fmt.Errorf("%w: seqs %d to %d", ErrMissingEntry, v.expect, seq-1)}
		if err := fn(Entry{Seq: v.expect}, err); err != nil {
			return err
		}
		v.prevKnown = false
	}
	v.expect = seq + 1

	e, err := checkEntry(seq, r.value)
	if err == nil && v.prevKnown && e.PrevHash != v.prev {
		err = &CorruptEntryError{Seq: seq, Err: ErrChainBroken}
	}
	if err != nil {
		v.prevKnown = false
		return fn(e, err)
	}
	v.prev, v.prevKnown = e.Hash, true
	return fn(e, nil)
}

// finish checks the recorded head against the last entry scanned; it catches
// entries removed from the end, which no successor can notice.
func (v *chainVerifier) finish(fromSeq uint64, h head, fn func(Entry, error) error) error {
	last := v.expect - 1
	switch {
	case h.seq > last:
		return fn(Entry{Seq: last + 1}, &CorruptEntryError{Seq: last + 1, Err: fmt.Errorf("%w: seqs %d to %d (head is %d)", ErrMissingEntry, last+1, h.seq, h.seq)})
	case h.seq < last && h.seq+1 >= fromSeq:
		return fn(Entry{Seq: h.seq + 1}, &CorruptEntryError{Seq: h.seq + 1, Err: fmt.Errorf("%w: entries after head %d", ErrHeadMismatch, h.seq)})
	case h.seq == last && last >= fromSeq && v.prevKnown && h.hash != v.prev:
		return fn(Entry{Seq: last}, &CorruptEntryError{Seq: last, Err: ErrHeadMismatch})
	}
	return nil
}

// VerifyChain scans the whole log and returns the first *CorruptEntryError,
// or nil if every entry and link verifies.
func (l *Log) VerifyChain(ctx context.Context) error {
	err := l.Scan(ctx, 1, func(_ Entry, err error) error { return err })
	var ce *CorruptEntryError
	if errors.As(err, &ce) {
		return ce
	}
	return err
}

package local

import (
	"fmt"

	"github.com/sealgate/sealgate/ledger/sentinel"
)

// Error is the type of this package's sentinel errors. Sentinels are
// constants, so no caller can reassign them; compare with errors.Is.
type Error = sentinel.Error

// Sentinel errors. Returned errors wrap them with context.
const (
	// ErrClosed is returned by operations on a closed Log.
	ErrClosed Error = "ledger/local: log closed"
	// ErrReadOnly is returned by writes to a Log opened with OpenReadOnly.
	ErrReadOnly Error = "ledger/local: log opened read-only"
	// ErrLocked is returned by Open and OpenReadOnly when another process
	// (or another Log in this process) holds the file past Options.LockTimeout.
	ErrLocked Error = "ledger/local: database file is locked by another user"
	// ErrCorruptFile is returned when the bbolt file itself is damaged
	// (bbolt panicked or faulted reading it) or is not a sealgate log.
	ErrCorruptFile Error = "ledger/local: corrupt database file"

	// ErrPublisherClosed is returned by Publish after Close.
	ErrPublisherClosed Error = "ledger/local: publisher closed"
	// ErrSubscriberClosed is returned by Subscribe after Close.
	ErrSubscriberClosed Error = "ledger/local: subscriber closed"
	// ErrInvalidArgument wraps every validation failure.
	ErrInvalidArgument Error = "ledger/local: invalid argument"
	// ErrEntryTooLarge is returned for a message whose entry exceeds
	// Options.MaxEntryBytes.
	ErrEntryTooLarge Error = "ledger/local: entry too large"

	// ErrNoConsumerGroup is returned by AckWith on a subscriber without a
	// consumer group: an ephemeral cursor has no stored offset to commit.
	ErrNoConsumerGroup Error = "ledger/local: AckWith needs a consumer group"
	// ErrNotInFlight is returned by AckWith for a message this subscriber is
	// not waiting on (never delivered by it, already acked or nacked, or its
	// subscription ended).
	ErrNotInFlight Error = "ledger/local: message is not awaiting acknowledgement from this subscriber"
	// ErrOffsetConflict is returned when a consumer offset is no longer where
	// the delivery found it, i.e. the message was already acknowledged.
	// Nothing was written.
	ErrOffsetConflict Error = "ledger/local: consumer offset moved since delivery"

	// ErrMalformedEntry: the stored bytes do not decode.
	ErrMalformedEntry Error = "malformed entry"
	// ErrSeqMismatch: the entry's seq differs from its key.
	ErrSeqMismatch Error = "entry seq does not match its position"
	// ErrHashMismatch: the stored hash does not match the entry's bytes.
	ErrHashMismatch Error = "entry hash does not match its contents"
	// ErrChainBroken: prev_hash does not match the previous entry's hash.
	ErrChainBroken Error = "prev_hash does not match the previous entry"
	// ErrMissingEntry: a seq is absent from the append order.
	ErrMissingEntry Error = "entry missing"
	// ErrHeadMismatch: the recorded head disagrees with the last entry.
	ErrHeadMismatch Error = "recorded head does not match the last entry"
)

// CorruptEntryError reports a stored entry that fails verification. Scan
// hands it to its callback and goes on; VerifyChain returns the first.
type CorruptEntryError struct {
	// Seq is the position of the bad (or missing) entry.
	Seq uint64
	// Err says what is wrong; it wraps one of ErrMalformedEntry,
	// ErrSeqMismatch, ErrHashMismatch, ErrChainBroken, ErrMissingEntry or
	// ErrHeadMismatch.
	Err error
}

func (e *CorruptEntryError) Error() string {
	return fmt.Sprintf("ledger/local: corrupt entry at seq %d: %v", e.Seq, e.Err)
}

func (e *CorruptEntryError) Unwrap() error { return e.Err }

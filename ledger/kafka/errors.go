package kafka

import "github.com/sealgate/sealgate/ledger/sentinel"

// Error is the type of this package's sentinel errors, which callers match
// with errors.Is. Being a string type, its values can be constants.
type Error = sentinel.Error

const (
	// ErrPublisherClosed is returned by Publish after Close.
	ErrPublisherClosed Error = "kafka: publisher closed"

	// ErrSubscriberClosed is returned by Subscribe after Close.
	ErrSubscriberClosed Error = "kafka: subscriber closed"

	// ErrKeyMoved is returned by ReadKeyFrom when the offset it was given
	// no longer says where a key's messages begin: the topic's partitions
	// changed, or its offsets did.
	ErrKeyMoved Error = "kafka: the key's partition is not the one the offset was found in"
)

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
)

package sentinel_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sealgate/sealgate/ledger/sentinel"
)

// TestSentinel: a constant matches itself through any wrapping, and never
// another constant.
func TestSentinel(t *testing.T) {
	const a, b sentinel.Error = "x: a", "x: b"
	err := fmt.Errorf("reading: %w", fmt.Errorf("the log: %w", a))
	if !errors.Is(err, a) || errors.Is(err, b) {
		t.Fatalf("errors.Is(%v, a) = %v, (b) = %v", err, errors.Is(err, a), errors.Is(err, b))
	}
	if err.Error() != "reading: the log: x: a" {
		t.Fatalf("message %q", err.Error())
	}
}

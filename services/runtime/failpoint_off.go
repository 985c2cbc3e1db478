//go:build !failpoints

package runtime

import "github.com/sealgate/sealgate/ledger/record"

// failpoint is a no-op: failures are injected only in binaries built with
// -tags failpoints (the acceptance tests).
func (s *Service) failpoint(*record.Decoded, []*record.Decoded) error { return nil }

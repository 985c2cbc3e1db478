package checkout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// Blobs reads content-addressed blobs (the ledger's blob store).
type Blobs interface {
	Get(ctx context.Context, digest string) ([]byte, error)
}

// Rebuilder checks a sealed run's trees out again, in any service that
// needs them: the checkout service materializes them first, the executor,
// reach and mutation services rebuild the same trees from the same sealed
// criteria (and check them against the trees record where it matters).
type Rebuilder struct {
	Blobs Blobs
	// Scratch holds the private git objects each rebuild reads from.
	Scratch string
}

// Rebuild checks the trees of a run out again from its sealed criteria and
// its patch: the sealed patch commit, or the diff stored in the blob store
// under patchBlob (the run request's). done removes the private objects
// the checkout reads from: call it once the trees are no longer needed.
// An error is a failure of the work (git, the blob store, a checkout that
// does not re-derive what was sealed), never a finding about the patch.
func (b Rebuilder) Rebuild(ctx context.Context, sealed *criteria.Sealed, patchBlob string) (co *Checkout, done func(), err error) {
	c := sealed.Criteria
	in := Input{Repo: c.Repository, Baseline: c.Baseline, PatchCommit: c.PatchCommit, TestSupport: c.TestSupport, Python: c.Python}
	if in.PatchCommit == "" {
		if patchBlob == "" {
			return nil, nil, fmt.Errorf("the run request names no patch")
		}
		diff, err := b.Blobs.Get(ctx, patchBlob)
		if err != nil {
			return nil, nil, fmt.Errorf("read the patch: %w", err)
		}
		in.PatchDiff = append([]byte{}, diff...) // an empty patch is a patch, never "none"
	}
	if tt := c.TrustedTests; tt != nil {
		in.TestsCommit = tt.Commit
		if tt.PatchDigest != "" {
			tp, err := b.Blobs.Get(ctx, tt.PatchDigest)
			if err != nil {
				return nil, nil, fmt.Errorf("read the trusted test patch: %w", err)
			}
			in.TestPatch = append([]byte{}, tp...)
		}
	}
	if err := os.MkdirAll(b.Scratch, 0o755); err != nil {
		return nil, nil, fmt.Errorf("scratch directory: %w", err)
	}
	dir, err := os.MkdirTemp(b.Scratch, "checkout-")
	if err != nil {
		return nil, nil, fmt.Errorf("scratch directory: %w", err)
	}
	done = func() { os.RemoveAll(dir) }
	co, err = Prepare(ctx, in, filepath.Clean(dir))
	if err != nil {
		done()
		return nil, nil, err
	}
	if err := sameTrusted(co, c.TrustedTests); err != nil {
		done()
		return nil, nil, err
	}
	return co, done, nil
}

// sameTrusted checks that the trusted tests laid over the trees are the
// ones the criteria seal: the same paths, the same discarded edits.
func sameTrusted(co *Checkout, tt *criteria.TrustedTests) error {
	var paths, discarded []string
	if tt != nil {
		paths, discarded = tt.Paths, tt.Discarded
	}
	if !slices.Equal(co.Trusted, paths) || !slices.Equal(co.TrustedOverridden, discarded) {
		return fmt.Errorf("the trusted tests re-derive as paths %q (discarded %q), the criteria seal %q (discarded %q)", co.Trusted, co.TrustedOverridden, paths, discarded)
	}
	return nil
}

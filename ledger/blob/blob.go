// Package blob stores the ledger's large artefacts (logs, coverage profiles,
// patches, mutant lists) by content digest, in any gocloud.dev bucket: a
// local directory by default, or a bucket URL for the distributed mode.
//
// Reads re-hash what they return: a blob that does not match its digest is
// an error, never evidence.
package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/memblob" // mem:// buckets for tests and one-shot runs
	_ "gocloud.dev/blob/s3blob"  // s3:// buckets: AWS S3 and every S3-compatible store
	"gocloud.dev/gcerrors"

	"github.com/sealgate/sealgate/ledger/sentinel"
)

// keyPrefix namespaces blobs by hash function.
const keyPrefix = "sha256/"

// MaxSize bounds one blob read into memory.
const MaxSize = 1 << 30

// Error is a constant error of this package.
type Error = sentinel.Error

// ErrNotFound is returned for a digest the store does not hold.
const ErrNotFound Error = "blob: not found"

// Store is a content-addressed blob store.
type Store struct {
	bucket *blob.Bucket
}

// Open opens the store at location: a local directory path (created when
// missing), or a gocloud.dev bucket URL: file:///dir, mem://, or
// s3://bucket?region=…[&endpoint=…&use_path_style=true] for AWS S3 and
// S3-compatible stores (MinIO, Ceph, R2, GCS interoperability), with
// credentials from the usual AWS environment.
func Open(ctx context.Context, location string) (*Store, error) {
	if location == "" {
		return nil, errors.New("blob: empty location; give a directory or a bucket URL")
	}
	if u, err := url.Parse(location); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		b, err := blob.OpenBucket(ctx, location)
		if err != nil {
			return nil, fmt.Errorf("blob: open %s: %w", location, err)
		}
		return &Store{bucket: b}, nil
	}
	dir, err := filepath.Abs(location)
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{NoTempDir: true})
	if err != nil {
		return nil, fmt.Errorf("blob: open %s: %w", dir, err)
	}
	return &Store{bucket: b}, nil
}

// Close releases the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// Digest returns the hex SHA-256 of data, the name it is stored under.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Put stores data and returns its digest. Storing the same bytes twice is a
// no-op.
func (s *Store) Put(ctx context.Context, data []byte) (string, error) {
	d := Digest(data)
	ok, err := s.bucket.Exists(ctx, keyPrefix+d)
	if err != nil {
		return "", fmt.Errorf("blob: put %s: %w", d, err)
	}
	if ok {
		return d, nil
	}
	if err := s.bucket.WriteAll(ctx, keyPrefix+d, data, nil); err != nil {
		return "", fmt.Errorf("blob: put %s: %w", d, err)
	}
	return d, nil
}

// Get returns the bytes stored under digest, after checking that they hash
// to it.
func (s *Store) Get(ctx context.Context, digest string) ([]byte, error) {
	if len(digest) != 64 {
		return nil, fmt.Errorf("blob: %q is not a hex SHA-256", digest)
	}
	attrs, err := s.bucket.Attributes(ctx, keyPrefix+digest)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, digest)
	}
	if err != nil {
		return nil, fmt.Errorf("blob: get %s: %w", digest, err)
	}
	if attrs.Size > MaxSize {
		return nil, fmt.Errorf("blob: %s has %d bytes, over the %d-byte limit", digest, attrs.Size, MaxSize)
	}
	data, err := s.bucket.ReadAll(ctx, keyPrefix+digest)
	if err != nil {
		return nil, fmt.Errorf("blob: get %s: %w", digest, err)
	}
	if got := Digest(data); got != digest {
		return nil, fmt.Errorf("blob: %s is corrupt: its bytes hash to %s", digest, got)
	}
	return data, nil
}

// Has reports whether digest is stored.
func (s *Store) Has(ctx context.Context, digest string) (bool, error) {
	return s.bucket.Exists(ctx, keyPrefix+digest)
}

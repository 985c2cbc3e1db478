package tree

import (
	"slices"
	"sync"
)

// blobCache keeps the blobs a tree's ReadFiles read, by object id. One
// checkout's analyses read the same few files again and again (the
// changed files, the test files of their packages, go.mod), and each
// read used to start its own `git cat-file --batch` process: some ten
// milliseconds apiece, some eighty per verification. A blob enters the
// cache only after its content hashed to its id, so a cached blob is that
// object's content whichever tree of the repository asks for it. The
// cache is bounded: blobs over maxCachedBlob are never kept, and once
// maxCachedBytes are held nothing more is added. Safe for concurrent use;
// the nil cache keeps nothing.
type blobCache struct {
	mu    sync.Mutex
	blobs map[string][]byte
	size  int64
}

// The cache's bounds: source files are far below the first, and a
// checkout's analyses read far less than the second.
const (
	maxCachedBlob  = 1 << 20
	maxCachedBytes = 32 << 20
)

// get returns a copy of the blob with id oid, if kept: callers own what
// ReadFiles returns.
func (c *blobCache) get(oid string) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.blobs[oid]
	if !ok {
		return nil, false
	}
	return slices.Clone(b), true
}

// put keeps a copy of the verified content of blob oid, within the bounds.
func (c *blobCache) put(oid string, content []byte) {
	if c == nil || len(content) > maxCachedBlob {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.blobs[oid]; ok || c.size+int64(len(content)) > maxCachedBytes {
		return
	}
	if c.blobs == nil {
		c.blobs = map[string][]byte{}
	}
	c.blobs[oid] = slices.Clone(content)
	c.size += int64(len(content))
}

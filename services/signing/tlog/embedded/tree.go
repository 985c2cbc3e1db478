package embedded

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera/api/layout"
)

// tileWidth is the number of hashes in a full tile and of entries in a
// full entry bundle (C2SP tlog-tiles).
const tileWidth = layout.TileWidth

// maxTileFile bounds what is read of one tile or bundle file: a bundle
// holds 256 entries of at most 64 KiB each, a tile 256 hashes.
const maxTileFile = tileWidth * (2 + 1<<16)

// tree is the log's Merkle tree as recomputed from its entry bundles: a
// compact range for the root, and the rightmost, incomplete tile of each
// level (level L holds the hashes of the complete subtrees of 256^L
// leaves). It is what the files must match and what the next append must
// extend.
type tree struct {
	size uint64
	rng  *compact.Range
	// edge[L] are the hashes in the rightmost tile of level L that is not
	// yet full: its first len(edge[L]) nodes.
	edge [][][]byte
}

// ranges makes RFC 6962 compact ranges.
func ranges() *compact.RangeFactory {
	return &compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}
}

func newTree() *tree { return &tree{rng: ranges().NewEmptyRange(0)} }

func (t *tree) clone() *tree {
	c := &tree{size: t.size, edge: make([][][]byte, len(t.edge))}
	c.rng, _ = ranges().NewRange(0, t.size, slices.Clone(t.rng.Hashes()))
	for i, e := range t.edge {
		c.edge[i] = slices.Clone(e)
	}
	return c
}

// root is the tree's root hash (SHA-256 of nothing for the empty tree).
func (t *tree) root() []byte {
	if t.size == 0 {
		return rfc6962.DefaultHasher.EmptyRoot()
	}
	r, _ := t.rng.GetRootHash(nil)
	return r
}

// files reads a log's tiles and bundles under dir (the Tessera POSIX
// storage root), naming each by its path relative to the log directory.
type files struct {
	dir, label string
}

func (f files) name(p string) string { return filepath.Join(f.label, p) }

// read reads one tile or bundle; partial names the file of a tree whose
// rightmost tile holds that many nodes. A partial file that is gone while
// the full one exists (the tree grew) is read from the full one.
func (f files) read(path func(uint8) string, partial uint8) ([]byte, string, error) {
	p := path(partial)
	b, err := readBounded(filepath.Join(f.dir, p))
	if errors.Is(err, fs.ErrNotExist) && partial > 0 {
		if full, ferr := readBounded(filepath.Join(f.dir, path(0))); ferr == nil {
			return full, path(0), nil
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, p, corruptf("%s is missing", f.name(p))
	}
	if err != nil {
		return nil, p, corruptf("%s: %v", f.name(p), err)
	}
	return b, p, nil
}

func readBounded(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxTileFile {
		return nil, fmt.Errorf("not a regular file of at most %d bytes", maxTileFile)
	}
	return os.ReadFile(path)
}

// bundleLeaves parses an entry bundle (uint16 length + data per entry).
func bundleLeaves(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, errors.New("dangling byte at its end")
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return nil, fmt.Errorf("entry %d claims %d bytes, %d are left", len(out), n, len(b)-2)
		}
		out = append(out, b[2:2+n])
		b = b[2+n:]
	}
	return out, nil
}

// extend reads the entries [t.size, size) from the bundles, checks that
// the bundle they start in still holds the entries already verified (the
// next append copies them forward), and checks every tile the tree
// completes or ends in against the hashes recomputed from the entries. It
// returns the first problem, naming the file.
func (t *tree) extend(f files, size uint64) error {
	if size < t.size {
		return corruptf("the tree shrinks from %d to %d", t.size, size)
	}
	// Leaves of the first bundle that are already in the tree.
	have := t.size % tileWidth
	for idx := t.size / tileWidth; idx*tileWidth < size; idx++ {
		n := min(size-idx*tileWidth, tileWidth)
		raw, path, err := f.read(func(p uint8) string { return layout.EntriesPath(idx, p) }, uint8(n%tileWidth))
		if err != nil {
			return err
		}
		leaves, err := bundleLeaves(raw)
		if err != nil {
			return corruptf("entry bundle %s does not parse: %v", f.name(path), err)
		}
		if uint64(len(leaves)) < n {
			return corruptf("entry bundle %s holds %d entries, the tree of size %d needs %d", f.name(path), len(leaves), size, n)
		}
		for i := uint64(0); i < n; i++ {
			h := rfc6962.DefaultHasher.HashLeaf(leaves[i])
			if i < have {
				// Verified before: the bundle rewritten since must carry
				// the same entries, byte for byte.
				if !bytes.Equal(h, t.edge[0][i]) {
					return corruptf("entry bundle %s: entry %d (log index %d) is not the one verified before", f.name(path), i, idx*tileWidth+i)
				}
				continue
			}
			if err := t.push(f, h); err != nil {
				return err
			}
		}
		have = 0
	}
	return t.checkEdge(f)
}

// recheckBundle re-reads the rightmost, partial entry bundle and compares
// its entries with the verified leaf hashes.
func (t *tree) recheckBundle(f files) error {
	have := t.size % tileWidth
	if have == 0 {
		return nil
	}
	idx := t.size / tileWidth
	raw, path, err := f.read(func(p uint8) string { return layout.EntriesPath(idx, p) }, uint8(have))
	if err != nil {
		return err
	}
	leaves, err := bundleLeaves(raw)
	if err != nil {
		return corruptf("entry bundle %s does not parse: %v", f.name(path), err)
	}
	if uint64(len(leaves)) < have {
		return corruptf("entry bundle %s holds %d entries, %d were verified", f.name(path), len(leaves), have)
	}
	for i := range have {
		if !bytes.Equal(rfc6962.DefaultHasher.HashLeaf(leaves[i]), t.edge[0][i]) {
			return corruptf("entry bundle %s: entry %d (log index %d) is not the one verified before", f.name(path), i, idx*tileWidth+i)
		}
	}
	return nil
}

// push appends one leaf hash, checking every tile it completes.
func (t *tree) push(f files, h []byte) error {
	if err := t.rng.Append(h, nil); err != nil {
		return err
	}
	t.size++
	node := h
	for level := 0; ; level++ {
		if level == len(t.edge) {
			t.edge = append(t.edge, nil)
		}
		t.edge[level] = append(t.edge[level], node)
		if len(t.edge[level]) < tileWidth {
			return nil
		}
		// The tile is full: its file must be exactly these hashes, and
		// its root is the next level's node.
		index := (t.size>>(uint(level)*layout.TileHeight))/tileWidth - 1
		if err := f.checkTile(uint64(level), index, 0, t.edge[level]); err != nil {
			return err
		}
		node = subtreeRoot(t.edge[level])
		t.edge[level] = nil
	}
}

// edgePaths are the files of the rightmost, partial bundle and tiles.
func (t *tree) edgePaths() []string {
	var out []string
	if have := t.size % tileWidth; have > 0 {
		out = append(out, layout.EntriesPath(t.size/tileWidth, uint8(have)))
	}
	for level, nodes := range t.edge {
		if len(nodes) > 0 {
			index := (t.size >> (uint(level) * layout.TileHeight)) / tileWidth
			out = append(out, layout.TilePath(uint64(level), index, uint8(len(nodes))))
		}
	}
	return out
}

// checkEdge checks the rightmost, partial tile of every level.
func (t *tree) checkEdge(f files) error {
	for level, nodes := range t.edge {
		if len(nodes) == 0 {
			continue
		}
		index := (t.size >> (uint(level) * layout.TileHeight)) / tileWidth
		if err := f.checkTile(uint64(level), index, uint8(len(nodes)), nodes); err != nil {
			return err
		}
	}
	return nil
}

func (f files) checkTile(level, index uint64, partial uint8, nodes [][]byte) error {
	raw, path, err := f.read(func(p uint8) string { return layout.TilePath(level, index, p) }, partial)
	if err != nil {
		return err
	}
	want := bytes.Join(nodes, nil)
	if len(raw) < len(want) || (partial == 0 && len(raw) != len(want)) || len(raw)%32 != 0 {
		return corruptf("hash tile %s holds %d bytes, the tree needs %d hashes there", f.name(path), len(raw), len(nodes))
	}
	for i := range nodes {
		if !bytes.Equal(raw[32*i:32*i+32], nodes[i]) {
			return &tileMismatch{level: level, index: index, partial: partial, node: i, describedPath: f.name(path)}
		}
	}
	return nil
}

// subtreeRoot is the root of a perfect subtree whose leaves (or lower
// nodes) are hashes.
func subtreeRoot(hashes [][]byte) []byte {
	level := slices.Clone(hashes)
	for len(level) > 1 {
		next := level[:0]
		for i := 0; i < len(level); i += 2 {
			next = append(next, rfc6962.DefaultHasher.HashChildren(level[i], level[i+1]))
		}
		level = next
	}
	return level[0]
}

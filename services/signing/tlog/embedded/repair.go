package embedded

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera/api/layout"
	"golang.org/x/mod/sumdb/note"

	"github.com/sealgate/sealgate/ledger/safefile"
)

// RebuildOptions is what Rebuild may use besides the log's own files.
type RebuildOptions struct {
	// Label names the directory in messages (default: the directory).
	Label string
	// Leaves are entries known from outside the log, by index: the leaf
	// of every bundle a sealed verdict names.
	Leaves map[uint64][]byte
	// Checkpoints are checkpoints recorded outside the log (the sealed
	// verdicts'); only those signed by the log's key count.
	Checkpoints [][]byte
	// Expect are heads the rebuilt log must still hold (the anchor).
	Expect []Head
}

// RebuildReport says what Rebuild did.
type RebuildReport struct {
	// Size and Root are the rebuilt tree's, the size of the largest signed
	// checkpoint whose root the entries reproduce.
	Size uint64
	Root []byte
	// FromOutside counts entries taken from RebuildOptions.Leaves because
	// the log's own bundle was missing or damaged.
	FromOutside int
	// Dropped counts entries past Size: integrated but in no signed
	// checkpoint still known, so never handed out with a proof.
	Dropped uint64
	// Rewritten lists the files written, relative to the log directory.
	Rewritten []string
}

// Rebuild repairs a log whose tiles, bundles, tree state or published
// checkpoint are damaged, missing or rolled back, keeping its key and so
// its identity: it takes every entry from the log's bundles, or from
// o.Leaves where a bundle is missing or does not hash to the leaf its hash
// tile holds, recomputes the tree up to the largest checkpoint signed by
// the log's key (the published one, last-checkpoint, o.Checkpoints) whose
// root the entries reproduce, rewrites every tile and bundle file that
// differs, the tree state and the published checkpoint, and checks the
// result as Open does. Nothing is signed anew. It fails, writing nothing,
// when no signed checkpoint can be reproduced or the result would not
// hold o.Expect; the log must then be moved aside.
func Rebuild(dir string, o RebuildOptions) (*RebuildReport, error) {
	label := o.Label
	if label == "" {
		label = dir
	}
	v, err := readVerifier(dir, label)
	if err != nil {
		return nil, err
	}
	f := files{dir: filepath.Join(dir, tilesDir), label: filepath.Join(label, tilesDir)}

	// Every signed checkpoint known, largest first.
	var signed []*log.Checkpoint
	raws := map[*log.Checkpoint][]byte{}
	consider := func(raw []byte) {
		cp, _, _, err := log.ParseCheckpoint(raw, v.Name(), v)
		if err == nil {
			signed = append(signed, cp)
			raws[cp] = raw
		}
	}
	for _, p := range []string{filepath.Join(f.dir, checkpointFile), filepath.Join(dir, lastCheckpoint)} {
		if raw, err := readBounded(p); err == nil {
			consider(raw)
		}
	}
	for _, raw := range o.Checkpoints {
		consider(raw)
	}
	slices.SortStableFunc(signed, func(a, b *log.Checkpoint) int {
		switch {
		case a.Size > b.Size:
			return -1
		case a.Size < b.Size:
			return 1
		}
		return 0
	})
	var floor uint64
	for _, h := range o.Expect {
		floor = max(floor, h.Size)
	}
	have := stateSize(f)
	var tried []string
	for _, cp := range signed {
		if cp.Size < floor {
			break
		}
		leaves, outside, err := gatherLeaves(f, cp.Size, o.Leaves)
		if err != nil {
			tried = append(tried, fmt.Sprintf("size %d: %v", cp.Size, err))
			continue
		}
		t := newTree()
		for _, l := range leaves {
			if err := t.rng.Append(rfc6962.DefaultHasher.HashLeaf(l), nil); err != nil {
				return nil, err
			}
			t.size++
		}
		if !bytes.Equal(t.root(), cp.Hash) {
			tried = append(tried, fmt.Sprintf("size %d: the entries reach another root", cp.Size))
			continue
		}
		for _, h := range o.Expect {
			if r, err := rootOfPrefix(leaves, h.Size); err != nil || !bytes.Equal(r, h.Root) {
				return nil, corruptf("the entries reproduce the signed checkpoint of size %d, but not the root %s recorded at size %d: move the log aside", cp.Size, h.Source, h.Size)
			}
		}
		rep := &RebuildReport{Size: cp.Size, Root: cp.Hash, FromOutside: outside}
		if have > cp.Size {
			rep.Dropped = have - cp.Size
		}
		if err := writeTree(f, leaves, raws[cp], rep); err != nil {
			return rep, err
		}
		if err := safefile.WriteAtomic(filepath.Join(dir, lastCheckpoint), raws[cp], 0o644); err != nil {
			return rep, fmt.Errorf("embedded log: %w", err)
		}
		// What was written must pass the checks Open makes.
		d, err := readDisk(f, v)
		if err == nil {
			_, err = verify(f, d, o.Expect)
		}
		if err != nil {
			return rep, fmt.Errorf("embedded log: the rebuilt log does not check: %w", err)
		}
		return rep, nil
	}
	if len(signed) == 0 {
		return nil, corruptf("%s: no checkpoint signed by the log's key is left to rebuild to: move the log aside", label)
	}
	if len(tried) == 0 {
		return nil, corruptf("%s: every signed checkpoint left is smaller than the %d entries recorded: move the log aside", label, floor)
	}
	return nil, corruptf("%s cannot be rebuilt (%s): move the log aside", label, strings.Join(tried, "; "))
}

func readVerifier(dir, label string) (note.Verifier, error) {
	vkey, err := safefile.ReadRegular(filepath.Join(dir, PublicKeyFile), maxKeyFile)
	if err != nil {
		return nil, corruptf("%s: the log's key %s: %v: without it nothing can be checked; move the log aside", label, PublicKeyFile, err)
	}
	v, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		return nil, corruptf("%s: %v", filepath.Join(label, PublicKeyFile), err)
	}
	return v, nil
}

// stateSize is the tree state's size, 0 when unreadable.
func stateSize(f files) uint64 {
	raw, err := readBounded(filepath.Join(f.dir, treeStateFile))
	if err != nil {
		return 0
	}
	var st treeState
	if json.Unmarshal(raw, &st) != nil {
		return 0
	}
	return st.Size
}

// gatherLeaves collects entries [0, size): from the log's bundles when
// they hash to the leaf hash the level-0 tile holds (or no tile is left to
// say), else from outside. It returns how many came from outside.
func gatherLeaves(f files, size uint64, outside map[uint64][]byte) ([][]byte, int, error) {
	var out [][]byte
	n := 0
	for idx := uint64(0); idx*tileWidth < size; idx++ {
		count := min(size-idx*tileWidth, tileWidth)
		bundle := largestFile(f, func(p uint8) string { return layout.EntriesPath(idx, p) }, count)
		disk, _ := bundleLeaves(bundle)
		tile := largestFile(f, func(p uint8) string { return layout.TilePath(0, idx, p) }, count)
		for i := range count {
			index := idx*tileWidth + i
			var fromDisk []byte
			if i < uint64(len(disk)) {
				fromDisk = disk[i]
			}
			fromOutside, haveOutside := outside[index]
			var node []byte
			if uint64(len(tile)) >= 32*(i+1) {
				node = tile[32*i : 32*i+32]
			}
			matches := func(l []byte) bool { return l != nil && bytes.Equal(rfc6962.DefaultHasher.HashLeaf(l), node) }
			switch {
			case node != nil && matches(fromDisk):
				out = append(out, fromDisk)
			case node != nil && haveOutside && matches(fromOutside):
				out = append(out, fromOutside)
				n++
			case haveOutside:
				// The tile is gone or damaged: the entry a sealed verdict
				// names was checked against a signed root when sealed.
				out = append(out, fromOutside)
				n++
			case fromDisk != nil:
				out = append(out, fromDisk)
			default:
				return nil, 0, fmt.Errorf("entry %d is in no bundle and in no sealed verdict", index)
			}
		}
	}
	return out, n, nil
}

// largestFile reads the full file at a tile position, else the partial
// one holding the most of the count entries wanted, else nothing.
func largestFile(f files, path func(uint8) string, count uint64) []byte {
	if count == tileWidth {
		if b, err := readBounded(filepath.Join(f.dir, path(0))); err == nil {
			return b
		}
	}
	partials := filepath.Join(f.dir, path(0)+".p")
	entries, _ := os.ReadDir(partials)
	best := -1
	for _, e := range entries {
		k, err := strconv.Atoi(e.Name())
		if err == nil && k > best && k < tileWidth {
			best = k
		}
	}
	if best > 0 {
		if b, err := readBounded(filepath.Join(partials, strconv.Itoa(best))); err == nil {
			return b
		}
	}
	if b, err := readBounded(filepath.Join(f.dir, path(0))); err == nil {
		return b
	}
	return nil
}

func rootOfPrefix(leaves [][]byte, size uint64) ([]byte, error) {
	if size > uint64(len(leaves)) {
		return nil, errors.New("beyond the entries")
	}
	t := newTree()
	for _, l := range leaves[:size] {
		if err := t.rng.Append(rfc6962.DefaultHasher.HashLeaf(l), nil); err != nil {
			return nil, err
		}
		t.size++
	}
	return t.root(), nil
}

// writeTree writes the bundles and tiles of the tree of these leaves, its
// tree state and the published checkpoint, each only where it differs.
func writeTree(f files, leaves [][]byte, checkpoint []byte, rep *RebuildReport) error {
	write := func(rel string, data []byte) error {
		path := filepath.Join(f.dir, rel)
		if old, err := readBounded(path); err == nil && bytes.Equal(old, data) {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("embedded log: %w", err)
		}
		if err := safefile.WriteAtomic(path, data, 0o644); err != nil {
			return fmt.Errorf("embedded log: %w", err)
		}
		rep.Rewritten = append(rep.Rewritten, f.name(rel))
		return nil
	}
	size := uint64(len(leaves))
	level := make([][]byte, 0, len(leaves))
	for idx := uint64(0); idx*tileWidth < size; idx++ {
		end := min(size, (idx+1)*tileWidth)
		var b []byte
		for _, l := range leaves[idx*tileWidth : end] {
			b = append(b, byte(len(l)>>8), byte(len(l)))
			b = append(b, l...)
			level = append(level, rfc6962.DefaultHasher.HashLeaf(l))
		}
		if err := write(layout.EntriesPath(idx, layout.PartialTileSize(0, idx, size)), b); err != nil {
			return err
		}
	}
	for l := uint64(0); len(level) > 0; l++ {
		var next [][]byte
		for idx := uint64(0); idx*tileWidth < uint64(len(level)); idx++ {
			end := min(uint64(len(level)), (idx+1)*tileWidth)
			nodes := level[idx*tileWidth : end]
			if err := write(layout.TilePath(l, idx, layout.PartialTileSize(l, idx, size)), bytes.Join(nodes, nil)); err != nil {
				return err
			}
			if len(nodes) == tileWidth {
				next = append(next, subtreeRoot(nodes))
			}
		}
		level = next
	}
	t := newTree()
	for _, l := range leaves {
		if err := t.rng.Append(rfc6962.DefaultHasher.HashLeaf(l), nil); err != nil {
			return err
		}
		t.size++
	}
	st, err := json.Marshal(treeState{Size: size, Root: t.root()})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(f.dir, filepath.Dir(treeStateFile)), 0o755); err != nil {
		return fmt.Errorf("embedded log: %w", err)
	}
	if err := write(treeStateFile, st); err != nil {
		return err
	}
	if err := write(checkpointFile, checkpoint); err != nil {
		return err
	}
	// Tessera's own bookkeeping of a log it created.
	if _, err := os.Stat(filepath.Join(f.dir, ".state", "version")); errors.Is(err, fs.ErrNotExist) {
		if err := write(".state/version", []byte("1")); err != nil {
			return err
		}
	}
	return nil
}

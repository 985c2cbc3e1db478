package embedded

import (
	"bytes"
	"encoding/base64"
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
)

// Tessera's files under the tiles directory that the checks read.
const (
	checkpointFile = "checkpoint"
	treeStateFile  = ".state/treeState"
)

// CorruptError says the log's files are damaged, missing, or hold less
// than was recorded outside them. Nothing is appended to such a log; see
// Rebuild and the README's recovery section.
type CorruptError struct {
	Problem string
}

func (e *CorruptError) Error() string { return "embedded log: " + e.Problem }

func corruptf(format string, args ...any) error {
	return &CorruptError{Problem: fmt.Sprintf(format, args...)}
}

// IsCorrupt reports whether err says the log is damaged or rolled back.
func IsCorrupt(err error) bool {
	var ce *CorruptError
	return errors.As(err, &ce)
}

// Head is a tree head recorded outside the log: the log must still hold a
// tree of that size with that root.
type Head struct {
	// LogID, when set, is the log the head was recorded for.
	LogID string
	Size  uint64
	Root  []byte
	// Source names where it was recorded, for the error that names a
	// log that lost it: "the anchor (STATE/anchor)".
	Source string
}

// Published is a checkpoint the log handed out with a proof.
type Published struct {
	LogID string
	Size  uint64
	Root  []byte
	Index uint64 // the entry the proof was for
}

// disk is what the log's files say before the tree is recomputed.
type disk struct {
	cp     *log.Checkpoint // nil: no published checkpoint
	cpRaw  []byte
	state  *treeState // nil: no tree state
	hasAny bool       // any tile or entry bundle at all
}

type treeState struct {
	Size uint64 `json:"size"`
	Root []byte `json:"root"`
}

// readDisk reads the published checkpoint and Tessera's tree state.
func readDisk(f files, v note.Verifier) (*disk, error) {
	d := &disk{}
	if _, err := os.Stat(filepath.Join(f.dir, "tile")); err == nil {
		d.hasAny = true
	}
	raw, err := readBounded(filepath.Join(f.dir, checkpointFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, corruptf("%s: %v", f.name(checkpointFile), err)
	default:
		cp, _, _, err := log.ParseCheckpoint(raw, v.Name(), v)
		if err != nil {
			return nil, corruptf("the published checkpoint %s does not verify with the log's key: %v", f.name(checkpointFile), err)
		}
		d.cp, d.cpRaw = cp, raw
	}
	raw, err = readBounded(filepath.Join(f.dir, treeStateFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, corruptf("%s: %v", f.name(treeStateFile), err)
	default:
		var st treeState
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil || len(st.Root) != 32 {
			return nil, corruptf("%s does not parse (%v)", f.name(treeStateFile), err)
		}
		d.state = &st
	}
	return d, nil
}

// verify recomputes the whole tree from the entry bundles, checks every
// tile file and the roots: the published checkpoint's, the tree state's
// and each recorded head's. It returns the tree at the tree state's size:
// what the next append extends.
func verify(f files, d *disk, expect []Head) (*tree, error) {
	for _, h := range expect {
		if d.cp == nil && h.Size > 0 {
			what := "no published checkpoint"
			if !d.hasAny {
				what = "no tiles at all"
			}
			return nil, corruptf("%s has %s, but %s recorded a tree of %d entries: the log was deleted or rolled back", f.label, what, h.Source, h.Size)
		}
		if d.cp != nil && h.Size > d.cp.Size {
			return nil, corruptf("the published checkpoint (%s) is at size %d, but %s recorded size %d: the log was rolled back", f.name(checkpointFile), d.cp.Size, h.Source, h.Size)
		}
	}
	switch {
	case d.cp == nil && d.state == nil && d.hasAny:
		return nil, corruptf("%s holds tiles but neither a published checkpoint nor a tree state", f.label)
	case d.cp == nil && d.state == nil:
		return newTree(), nil
	case d.state == nil:
		return nil, corruptf("%s is missing while the published checkpoint is at size %d", f.name(treeStateFile), d.cp.Size)
	case d.cp == nil && d.state.Size > 0:
		return nil, corruptf("%s is missing while the tree state is at size %d", f.name(checkpointFile), d.state.Size)
	case d.cp != nil && d.state.Size < d.cp.Size:
		return nil, corruptf("%s is at size %d, behind the published checkpoint at size %d", f.name(treeStateFile), d.state.Size, d.cp.Size)
	}
	type stop struct {
		size   uint64
		root   []byte
		source string
	}
	stops := []stop{{d.state.Size, d.state.Root, f.name(treeStateFile)}}
	if d.cp != nil {
		stops = append(stops, stop{d.cp.Size, d.cp.Hash, "the published checkpoint " + f.name(checkpointFile)})
	}
	for _, h := range expect {
		stops = append(stops, stop{h.Size, h.Root, h.Source})
	}
	slices.SortStableFunc(stops, func(a, b stop) int {
		switch {
		case a.size < b.size:
			return -1
		case a.size > b.size:
			return 1
		}
		return 0
	})
	t := newTree()
	for _, s := range stops {
		if err := t.extend(f, s.size); err != nil {
			return nil, blame(f, err, stops[len(stops)-1].size, d)
		}
		if got := t.root(); !bytes.Equal(got, s.root) {
			return nil, corruptf("the entries recomputed to size %d reach root %.16x…, %s recorded %.16x…: the log was rewritten", s.size, got, s.source, s.root)
		}
	}
	return t, nil
}

// blame turns a level-0 tile mismatch into the file that is wrong: when
// the hash tiles alone reach the signed root, the entry bundle is the one
// damaged; otherwise the hash tile is.
func blame(f files, err error, size uint64, d *disk) error {
	var tm *tileMismatch
	if !errors.As(err, &tm) || tm.level != 0 || d.cp == nil {
		return err
	}
	root, rerr := rootFromLeafTiles(f, d.cp.Size)
	if rerr != nil || !bytes.Equal(root, d.cp.Hash) {
		return err
	}
	return corruptf("entry bundle %s: entry %d (log index %d) does not hash to the leaf its hash tile and the signed checkpoint hold", f.name(layout.EntriesPath(tm.index, tm.partial)), tm.node, tm.index*tileWidth+uint64(tm.node))
}

// rootFromLeafTiles recomputes the root from the level-0 hash tiles alone.
func rootFromLeafTiles(f files, size uint64) ([]byte, error) {
	rng := ranges().NewEmptyRange(0)
	for idx := uint64(0); idx*tileWidth < size; idx++ {
		n := min(size-idx*tileWidth, tileWidth)
		raw, _, err := f.read(func(p uint8) string { return layout.TilePath(0, idx, p) }, uint8(n%tileWidth))
		if err != nil {
			return nil, err
		}
		if uint64(len(raw)) < 32*n {
			return nil, errors.New("short tile")
		}
		for i := uint64(0); i < n; i++ {
			if err := rng.Append(raw[32*i:32*i+32], nil); err != nil {
				return nil, err
			}
		}
	}
	if size == 0 {
		return rfc6962.DefaultHasher.EmptyRoot(), nil
	}
	return rng.GetRootHash(nil)
}

// tileMismatch is a hash tile that differs from the recomputed hashes.
type tileMismatch struct {
	level, index  uint64
	partial       uint8
	node          int
	describedPath string
}

func (e *tileMismatch) Error() string {
	return (&CorruptError{Problem: fmt.Sprintf("hash tile %s: hash %d is not the one recomputed from the entries", e.describedPath, e.node)}).Error()
}

func (e *tileMismatch) Unwrap() error { return &CorruptError{} }

// parseCheckpointBody reads the size and root of an unsigned checkpoint
// body (the text a signer is asked to sign).
func parseCheckpointBody(text []byte) (uint64, []byte, error) {
	lines := strings.SplitN(string(text), "\n", 4)
	if len(lines) < 4 {
		return 0, nil, errors.New("checkpoint body has fewer than three lines")
	}
	size, err := strconv.ParseUint(lines[1], 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("checkpoint size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != 32 {
		return 0, nil, fmt.Errorf("checkpoint root %q", lines[2])
	}
	return size, root, nil
}

// HeadOf reads the size and root of a checkpoint signed by the log key
// vkey, for a caller that keeps heads outside the log.
func HeadOf(checkpoint []byte, vkey string) (uint64, []byte, error) {
	v, err := note.NewVerifier(strings.TrimSpace(vkey))
	if err != nil {
		return 0, nil, fmt.Errorf("log key: %w", err)
	}
	cp, _, _, err := log.ParseCheckpoint(checkpoint, v.Name(), v)
	if err != nil {
		return 0, nil, fmt.Errorf("checkpoint: %w", err)
	}
	return cp.Size, cp.Hash, nil
}

// CheckpointHead reads the size and root a checkpoint names, without
// checking its signature: for heads recorded in signed ledger records.
func CheckpointHead(checkpoint []byte) (uint64, []byte, error) {
	return parseCheckpointBody(checkpoint)
}

package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/safefile"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

// The anchor is what a state directory knows it holds, kept outside the
// files it describes: the ledger's head (last seq and its chain hash) and
// the embedded log's last verified checkpoint. It only ever lags them — it
// is written after what it records is durable — so a crash between an
// append and the anchor's write is never taken for tampering, while a
// ledger or log that holds less than the anchor (emptied, truncated,
// deleted, an older copy) is refused, never started over.
const (
	anchorFile   = "anchor"
	anchorSchema = "sealgate.anchor.v1"
	maxAnchor    = 64 << 10
)

type anchor struct {
	Schema string      `json:"schema"`
	Ledger *ledgerMark `json:"ledger,omitempty"`
	Log    *logMark    `json:"log,omitempty"`
	// Retired are the ids of embedded logs moved aside on purpose
	// (sealgate state repair-log --move-aside): seals in them are not
	// looked for in the current log.
	Retired []string `json:"retired_logs,omitempty"`
}

// ledgerMark is the ledger's head: the last entry's seq and hash.
type ledgerMark struct {
	Seq  uint64 `json:"seq"`
	Head string `json:"head"`
}

// logMark is the embedded log's last checkpoint handed out with a proof.
type logMark struct {
	LogID       string `json:"log_id"`
	TreeSize    uint64 `json:"tree_size"`
	RootHash    string `json:"root_hash"`
	SealedIndex uint64 `json:"sealed_index"`
}

func (a *anchor) marshal() []byte {
	b, _ := json.MarshalIndent(a, "", "  ")
	return append(b, '\n')
}

// parseAnchor reads an anchor strictly: it must be exactly the bytes
// marshal writes for what it says (no unknown, duplicate or case-variant
// keys, no other spacing, nothing after it).
func parseAnchor(b []byte) (*anchor, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var a anchor
	if err := dec.Decode(&a); err != nil {
		return nil, err
	}
	if !bytes.Equal(a.marshal(), b) {
		return nil, errors.New("not in the form sealgate writes")
	}
	if a.Schema != anchorSchema {
		return nil, fmt.Errorf("schema %q, want %q", a.Schema, anchorSchema)
	}
	if m := a.Ledger; m != nil && (m.Seq == 0) != (m.Head == "") {
		return nil, errors.New("a ledger head without a seq, or a seq without a head")
	}
	if m := a.Ledger; m != nil && m.Seq > 0 && !isHex32(m.Head) {
		return nil, fmt.Errorf("ledger head %q is not a hex SHA-256", m.Head)
	}
	if m := a.Log; m != nil && (!isHex32(m.LogID) || !isHex32(m.RootHash) || m.SealedIndex >= m.TreeSize) {
		return nil, errors.New("the log mark needs a hex log id and root and a sealed index inside the tree")
	}
	for i, id := range a.Retired {
		if !isHex32(id) || (i > 0 && a.Retired[i-1] >= id) {
			return nil, errors.New("retired log ids must be hex, sorted and distinct")
		}
	}
	return &a, nil
}

func isHex32(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32 && hex.EncodeToString(b) == s
}

// anchorStore keeps a state directory's anchor up to date.
type anchorStore struct {
	path string
	mu   sync.Mutex
	cur  *anchor // nil: no anchor on disk
	// ledger, when set, is the open ledger whose head each save records.
	ledger *local.Log
}

// loadAnchor reads STATE/anchor; a missing one is no anchor.
func loadAnchor(dir string) (*anchorStore, error) {
	s := &anchorStore{path: filepath.Join(dir, anchorFile)}
	b, err := safefile.ReadRegular(s.path, maxAnchor)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, infraErrorf("%s: %v; restore it from a backup, or see `sealgate state reanchor --help`", s.path, err)
	}
	a, err := parseAnchor(b)
	if err != nil {
		return nil, infraErrorf("%s is damaged (%v); restore it from a backup, or see `sealgate state reanchor --help`", s.path, err)
	}
	s.cur = a
	return s, nil
}

// current returns a copy of the anchor (a zero one when there is none).
func (s *anchorStore) current() anchor {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return anchor{Schema: anchorSchema}
	}
	a := *s.cur
	a.Retired = slices.Clone(a.Retired)
	return a
}

// save records the open ledger's head (if any) and what update changes,
// and writes the anchor when it changed.
func (s *anchorStore) save(update func(*anchor)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := anchor{Schema: anchorSchema}
	if s.cur != nil {
		next = *s.cur
		next.Retired = slices.Clone(s.cur.Retired)
	}
	if s.ledger != nil {
		seq, h, err := s.ledger.Head()
		if err != nil {
			return infraErrorf("anchor: %v", err)
		}
		next.Ledger = &ledgerMark{Seq: seq}
		if seq > 0 {
			next.Ledger.Head = h.String()
		}
	}
	if update != nil {
		update(&next)
	}
	b := next.marshal()
	if s.cur != nil && bytes.Equal(b, s.cur.marshal()) {
		return nil
	}
	if err := safefile.WriteAtomic(s.path, b, 0o600); err != nil {
		return infraErrorf("write %s: %v", s.path, err)
	}
	s.cur = &next
	return nil
}

// markLog records a checkpoint the embedded log handed out; the anchor
// keeps the largest.
func (s *anchorStore) markLog(logID string, p embedded.Published) error {
	return s.save(func(a *anchor) {
		old := a.Log
		if old != nil && old.LogID == logID && (old.TreeSize > p.Size || (old.TreeSize == p.Size && old.SealedIndex >= p.Index)) {
			return
		}
		a.Log = &logMark{LogID: logID, TreeSize: p.Size, RootHash: hex.EncodeToString(p.Root), SealedIndex: p.Index}
	})
}

// retired reports whether a log was moved aside on purpose.
func (a *anchor) retired(logID string) bool {
	_, found := slices.BinarySearch(a.Retired, logID)
	return found
}

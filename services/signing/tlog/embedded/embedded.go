// Package embedded is sealgate's default transparency log: a tile-based
// Merkle log (C2SP tlog-tiles) built on Tessera with POSIX storage, kept
// under the state directory, with Ed25519-signed checkpoints (C2SP signed
// notes).
//
// The directory holds the log's key pair (log.key, the note signer key,
// readable only by its owner; log.pub, the verifier key anyone checks
// checkpoints with), the tiles and entry bundles, and the last checkpoint
// this process family has seen: every new checkpoint must be consistent
// with it, so a log rewritten behind sealgate's back is noticed on the next
// append.
//
// A log is never trusted to be what it was. Open recomputes the whole tree
// from the entry bundles, checks every hash tile, the published checkpoint
// and Tessera's tree state against it, and checks that the log still holds
// every tree head recorded outside it (Options.Expect: the state's anchor,
// the ledger's last seal); a deleted, rolled-back or damaged log is a
// *CorruptError naming the file, and nothing is created or appended. While
// open, every checkpoint is signed only after the tiles it commits to are
// recomputed from the entries and reach its root, so a tile damaged on disk
// is never signed over and never copied forward.
package embedded

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/client"
	"github.com/transparency-dev/tessera/storage/posix"
	"golang.org/x/mod/sumdb/note"

	"github.com/sealgate/sealgate/ledger/safefile"
	"github.com/sealgate/sealgate/services/signing/tlog"
)

// Files under the log directory.
const (
	PrivateKeyFile = "log.key"
	PublicKeyFile  = "log.pub"
	tilesDir       = "tiles"
	lastCheckpoint = "last-checkpoint"
)

// Options tune batching. The zero value is what sealgate uses: small
// batches, published quickly, because a verdict waits for its checkpoint.
type Options struct {
	// BatchMaxSize is the most entries sequenced together (default 256).
	BatchMaxSize uint
	// BatchMaxAge is how long an entry waits for its batch to fill
	// (default 5 ms).
	BatchMaxAge time.Duration
	// CheckpointInterval is the least time between two checkpoints
	// (default and minimum 100 ms, Tessera's POSIX floor).
	CheckpointInterval time.Duration
	// Expect are tree heads recorded outside the log; Open refuses a log
	// that no longer holds one of them. One of size > 0 also means the log
	// must exist: nothing is created in its place.
	Expect []Head
	// Label names the directory in errors (default: the directory).
	Label string
	// OnCheckpoint, when set, is called after Append verified a checkpoint
	// it hands out; the checkpoint is then durable in the log. An error
	// fails the Append.
	OnCheckpoint func(Published) error
}

// Log is an open embedded log. It is safe for concurrent use.
type Log struct {
	dir      string
	signer   *guardedSigner
	verifier note.Verifier
	vkey     string
	appender *tessera.Appender
	reader   tessera.LogReader
	awaiter  *tessera.PublicationAwaiter
	shutdown func(context.Context) error
	cancel   context.CancelFunc

	mu   sync.Mutex // orders the consistency check against last-checkpoint
	last []byte     // the checkpoint last recorded by this process

	files        files
	onCheckpoint func(Published) error
	// vmu guards the verified tree and the broken state: the signer
	// extends the tree before signing, Append checks its edge.
	vmu      sync.Mutex
	verified *tree
	broken   error
	// stamps are the edge files as last verified (see checkEdge).
	stamps map[string]os.FileInfo
	// brokenCtx is cancelled, with the corruption as its cause, when the
	// log is found damaged while open: waiting appends end at once.
	brokenCtx  context.Context
	markBroken context.CancelCauseFunc
}

// Open opens the log in dir, creating it and its key pair when missing
// (unless o.Expect says it held entries), after checking its files
// against each other and against o.Expect: a failed check is a
// *CorruptError and nothing is written.
func Open(ctx context.Context, dir string, o Options) (*Log, error) {
	in, err := inspect(dir, o, true)
	if err != nil {
		return nil, err
	}
	signer, err := note.NewSigner(in.skey)
	if err != nil {
		return nil, fmt.Errorf("embedded log: %s: %w", filepath.Join(dir, PrivateKeyFile), err)
	}
	if signer.Name() != in.verifier.Name() || signer.KeyHash() != in.verifier.KeyHash() {
		return nil, fmt.Errorf("embedded log: %s and %s are not one key pair", PrivateKeyFile, PublicKeyFile)
	}
	verifier, vkey, f, t := in.verifier, in.vkey, in.files, in.tree
	if o.BatchMaxSize == 0 {
		o.BatchMaxSize = 256
	}
	if o.BatchMaxAge == 0 {
		o.BatchMaxAge = 5 * time.Millisecond
	}
	o.CheckpointInterval = max(o.CheckpointInterval, 100*time.Millisecond)

	l := &Log{dir: dir, verifier: verifier, vkey: vkey, files: f, verified: t, onCheckpoint: o.OnCheckpoint}
	l.signer = &guardedSigner{Signer: signer, l: l}
	l.brokenCtx, l.markBroken = context.WithCancelCause(context.Background())
	// The log's goroutines live until Close, not for the caller's context.
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	driver, err := posix.New(lctx, posix.Config{Path: f.dir})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("embedded log: storage: %w", err)
	}
	opts := tessera.NewAppendOptions().
		WithCheckpointSigner(l.signer).
		WithBatching(o.BatchMaxSize, o.BatchMaxAge).
		WithCheckpointInterval(o.CheckpointInterval)
	appender, shutdown, reader, err := tessera.NewAppender(lctx, driver, opts)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("embedded log: %w", err)
	}
	l.appender, l.reader, l.shutdown, l.cancel = appender, reader, shutdown, cancel
	l.awaiter = tessera.NewPublicationAwaiter(lctx, reader.ReadCheckpoint, 5*time.Millisecond)
	return l, nil
}

// Status is what Check found.
type Status struct {
	// Exists is false for a directory with no log in it yet.
	Exists bool
	LogID  string
	// Size and Root are the tree's as its files hold it (Tessera's tree
	// state, which may be ahead of the published checkpoint after a crash).
	Size uint64
	Root []byte
	// Checkpoint is the published checkpoint, if any.
	Checkpoint []byte
}

// Check makes every check Open makes, and writes nothing: no key pair is
// made, no log started.
func Check(dir string, o Options) (*Status, error) {
	in, err := inspect(dir, o, false)
	if err != nil {
		return nil, err
	}
	if in == nil {
		return &Status{}, nil
	}
	return &Status{Exists: true, LogID: LogID(in.vkey), Size: in.tree.size, Root: in.tree.root(), Checkpoint: in.disk.cpRaw}, nil
}

// inspected is a log directory whose files passed the checks.
type inspected struct {
	skey, vkey string
	verifier   note.Verifier
	files      files
	disk       *disk
	tree       *tree
}

// inspect checks a log directory: its key pair, the log's identity and
// size against o.Expect, and the whole tree against its files. With create
// it makes the directory and key pair of a new log; without, it returns
// nil for a directory with no log.
func inspect(dir string, o Options, create bool) (*inspected, error) {
	label := cmp.Or(o.Label, dir)
	var must *Head
	for i, h := range o.Expect {
		if h.Size > 0 && must == nil {
			must = &o.Expect[i]
		}
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if must != nil {
			return nil, corruptf("%s is missing, but %s recorded a tree of %d entries: restore it from a backup", label, must.Source, must.Size)
		}
		if !create {
			return nil, nil
		}
	}
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("embedded log: %w", err)
		}
	}
	skey, vkey, err := loadOrCreateKey(dir, label, must, create)
	if err != nil {
		return nil, err
	}
	if vkey == "" {
		if _, err := os.Stat(filepath.Join(dir, tilesDir, "tile")); err == nil {
			return nil, corruptf("%s holds tiles but no key pair (%s, %s)", label, PrivateKeyFile, PublicKeyFile)
		}
		return nil, nil
	}
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, fmt.Errorf("embedded log: %s: %w", filepath.Join(dir, PublicKeyFile), err)
	}
	id := LogID(vkey)
	for _, h := range o.Expect {
		if h.LogID != "" && h.LogID != id {
			return nil, corruptf("%s holds log %.16s…, but %s recorded log %.16s…: the log was replaced", label, id, h.Source, h.LogID)
		}
	}
	f := files{dir: filepath.Join(dir, tilesDir), label: filepath.Join(label, tilesDir)}
	d, err := readDisk(f, verifier)
	if err != nil {
		return nil, err
	}
	expect := slices.Clone(o.Expect)
	last, err := readLastCheckpoint(dir, label, verifier)
	if err != nil {
		return nil, err
	}
	if last != nil {
		expect = append(expect, *last)
	}
	t, err := verify(f, d, expect)
	if err != nil {
		return nil, err
	}
	return &inspected{skey: skey, vkey: vkey, verifier: verifier, files: f, disk: d, tree: t}, nil
}

// guardedSigner signs a checkpoint only after the log's files are
// recomputed up to it and reach its root.
type guardedSigner struct {
	note.Signer
	l *Log
}

func (g *guardedSigner) Sign(msg []byte) ([]byte, error) {
	if err := g.l.verifyUpTo(msg); err != nil {
		return nil, err
	}
	return g.Signer.Sign(msg)
}

// verifyUpTo extends the verified tree to the checkpoint body Tessera is
// about to sign; a mismatch breaks the log.
func (l *Log) verifyUpTo(body []byte) error {
	l.vmu.Lock()
	defer l.vmu.Unlock()
	if l.broken != nil {
		return l.broken
	}
	size, root, err := parseCheckpointBody(body)
	if err != nil {
		return fmt.Errorf("embedded log: %w", err)
	}
	t := l.verified.clone()
	if err := t.extend(l.files, size); err != nil {
		return l.fail(err)
	}
	if got := t.root(); !bytes.Equal(got, root) {
		return l.fail(corruptf("the tree state asks to sign root %.16x… for size %d, the entries reach %.16x…", root, size, got))
	}
	l.verified = t
	return nil
}

// checkEdge checks, before an append, that the files the next
// integration reads (the rightmost bundle and tiles) still hold what was
// verified: a damaged one would be copied forward. The files are re-read
// only when they changed since they were last verified (a stat per file
// and append otherwise): Tessera never rewrites the partial files of a
// size it has integrated.
func (l *Log) checkEdge() error {
	l.vmu.Lock()
	defer l.vmu.Unlock()
	if l.broken != nil {
		return l.broken
	}
	paths := l.verified.edgePaths()
	if l.stamped(paths) {
		return nil
	}
	if err := l.verified.recheckBundle(l.files); err != nil {
		return l.fail(err)
	}
	if err := l.verified.checkEdge(l.files); err != nil {
		return l.fail(err)
	}
	l.stamps = map[string]os.FileInfo{}
	for _, p := range paths {
		if fi, err := os.Stat(filepath.Join(l.files.dir, p)); err == nil {
			l.stamps[p] = fi
		}
	}
	return nil
}

// stamped reports whether every edge file is, by its inode, size and
// modification time, the one last verified; callers hold vmu.
func (l *Log) stamped(paths []string) bool {
	if len(paths) == 0 || len(l.stamps) != len(paths) {
		return len(paths) == 0
	}
	for _, p := range paths {
		old, ok := l.stamps[p]
		if !ok {
			return false
		}
		fi, err := os.Stat(filepath.Join(l.files.dir, p))
		if err != nil || !os.SameFile(old, fi) || fi.Size() != old.Size() || !fi.ModTime().Equal(old.ModTime()) {
			return false
		}
	}
	return true
}

// fail marks the log broken; callers hold vmu.
func (l *Log) fail(err error) error {
	if l.broken == nil {
		l.broken = err
		l.markBroken(err)
	}
	return err
}

// Broken returns the damage found while the log was open, if any.
func (l *Log) Broken() error {
	l.vmu.Lock()
	defer l.vmu.Unlock()
	return l.broken
}

// ID is the log's id: the SHA-256 of its verifier key.
func (l *Log) ID() string { return LogID(l.vkey) }

// Kind names the backend.
func (l *Log) Kind() string { return tlog.KindEmbedded }

// VerifierKey returns the note verifier key checkpoints are checked with.
func (l *Log) VerifierKey() string { return l.vkey }

// PublicKeyPath is the file holding the verifier key.
func (l *Log) PublicKeyPath() string { return filepath.Join(l.dir, PublicKeyFile) }

// LogID names a log by its verifier key.
func LogID(vkey string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(vkey)))
	return hex.EncodeToString(sum[:])
}

// Append logs the envelope's leaf (tlog.EnvelopeLeaf), waits for a
// checkpoint that contains it, checks that checkpoint against the last one
// seen, and returns the inclusion proof.
func (l *Log) Append(ctx context.Context, s tlog.Submission) (*tlog.Proof, error) {
	leaf, err := tlog.EnvelopeLeaf(s.Envelope)
	if err != nil {
		return nil, err
	}
	if err := l.checkEdge(); err != nil {
		return nil, err
	}
	// A log found broken while this entry waits ends the wait at once.
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(l.brokenCtx, cancel)
	defer stop()
	idx, raw, err := l.awaiter.Await(actx, l.appender.Add(ctx, tessera.NewEntry(leaf)))
	if err != nil {
		if b := l.Broken(); b != nil {
			return nil, b
		}
		return nil, fmt.Errorf("embedded log: append: %w", err)
	}
	cp, _, _, err := log.ParseCheckpoint(raw, l.verifier.Name(), l.verifier)
	if err != nil {
		return nil, fmt.Errorf("embedded log: the published checkpoint does not verify with the log's own key: %w", err)
	}
	if idx.Index >= cp.Size {
		return nil, fmt.Errorf("embedded log: entry %d is not in the checkpoint of size %d", idx.Index, cp.Size)
	}
	if err := l.checkConsistent(ctx, cp, raw); err != nil {
		return nil, err
	}
	pb, err := client.NewProofBuilder(ctx, cp.Size, l.reader.ReadTile)
	if err != nil {
		return nil, fmt.Errorf("embedded log: proof: %w", err)
	}
	hashes, err := pb.InclusionProof(ctx, idx.Index)
	if err != nil {
		return nil, fmt.Errorf("embedded log: inclusion proof of %d: %w", idx.Index, err)
	}
	p := &tlog.Proof{
		Kind: tlog.KindEmbedded, LogID: LogID(l.vkey), Index: idx.Index, TreeSize: cp.Size,
		RootHash: hex.EncodeToString(cp.Hash), Checkpoint: string(raw), Leaf: leaf,
	}
	for _, h := range hashes {
		p.Hashes = append(p.Hashes, hex.EncodeToString(h))
	}
	// What is handed out must check offline, with the public key alone.
	if err := Verify(p, l.vkey); err != nil {
		return nil, corruptf("the proof it produced for entry %d does not verify (a damaged hash tile?): %v", idx.Index, err)
	}
	if l.onCheckpoint != nil {
		if err := l.onCheckpoint(Published{LogID: l.ID(), Size: cp.Size, Root: cp.Hash, Index: idx.Index}); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Consistency returns the proof that the tree of size smaller is a prefix
// of the tree of size larger.
func (l *Log) Consistency(ctx context.Context, smaller, larger uint64) ([][]byte, error) {
	pb, err := client.NewProofBuilder(ctx, larger, l.reader.ReadTile)
	if err != nil {
		return nil, err
	}
	return pb.ConsistencyProof(ctx, smaller, larger)
}

// Checkpoint returns the latest published checkpoint.
func (l *Log) Checkpoint(ctx context.Context) (*log.Checkpoint, []byte, error) {
	raw, err := l.reader.ReadCheckpoint(ctx)
	if err != nil {
		return nil, nil, err
	}
	cp, _, _, err := log.ParseCheckpoint(raw, l.verifier.Name(), l.verifier)
	return cp, raw, err
}

// checkConsistent proves the new checkpoint extends the last one recorded
// in the directory, then records it.
func (l *Log) checkConsistent(ctx context.Context, cp *log.Checkpoint, raw []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if bytes.Equal(raw, l.last) {
		// Appends that share a checkpoint check it once.
		return nil
	}
	path := filepath.Join(l.dir, lastCheckpoint)
	prevRaw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("embedded log: %w", err)
	default:
		prev, _, _, err := log.ParseCheckpoint(prevRaw, l.verifier.Name(), l.verifier)
		if err != nil {
			return fmt.Errorf("embedded log: the last recorded checkpoint (%s) does not verify: %w", path, err)
		}
		if prev.Size > cp.Size {
			// Another appender already recorded a newer one; ours is older
			// and must be a prefix of it, which is the same check reversed.
			prf, err := l.Consistency(ctx, cp.Size, prev.Size)
			if err != nil {
				return fmt.Errorf("embedded log: consistency proof %d→%d: %w", cp.Size, prev.Size, err)
			}
			if err := proof.VerifyConsistency(rfc6962.DefaultHasher, cp.Size, prev.Size, prf, cp.Hash, prev.Hash); err != nil {
				return corruptf("checkpoint of size %d is not consistent with the recorded one of size %d: %v", cp.Size, prev.Size, tlog.OneLine(err))
			}
			return nil
		}
		prf, err := l.Consistency(ctx, prev.Size, cp.Size)
		if err != nil {
			return fmt.Errorf("embedded log: consistency proof %d→%d: %w", prev.Size, cp.Size, err)
		}
		if err := proof.VerifyConsistency(rfc6962.DefaultHasher, prev.Size, cp.Size, prf, prev.Hash, cp.Hash); err != nil {
			return corruptf("the log was rewritten: checkpoint of size %d is not consistent with the recorded one of size %d: %v", cp.Size, prev.Size, tlog.OneLine(err))
		}
	}
	if err := safefile.WriteAtomic(path, raw, 0o644); err != nil {
		return fmt.Errorf("embedded log: %w", err)
	}
	l.last = raw
	return nil
}

// Close stops the log, waiting for pending work to be integrated.
func (l *Log) Close() error {
	wait := 10 * time.Second
	if l.Broken() != nil {
		// Entries waiting on a broken log are never integrated.
		wait = 100 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	err := l.shutdown(ctx)
	l.cancel()
	return err
}

// Verify checks an embedded log's proof offline: the inclusion proof
// reaches the root, and the checkpoint carrying that root and size is
// signed by the log key vkey (a note verifier key, as in log.pub).
func Verify(p *tlog.Proof, vkey string) error {
	if err := tlog.VerifyInclusion(p); err != nil {
		return err
	}
	return VerifyCheckpoint(p, vkey)
}

// VerifyCheckpoint checks that the proof's checkpoint is signed by vkey
// and names the proof's tree size and root.
func VerifyCheckpoint(p *tlog.Proof, vkey string) error {
	v, err := note.NewVerifier(strings.TrimSpace(vkey))
	if err != nil {
		return fmt.Errorf("log key: %w", err)
	}
	cp, _, _, err := log.ParseCheckpoint([]byte(p.Checkpoint), v.Name(), v)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	root, _ := hex.DecodeString(p.RootHash)
	if cp.Size != p.TreeSize || hex.EncodeToString(cp.Hash) != strings.ToLower(p.RootHash) || len(root) == 0 {
		return fmt.Errorf("checkpoint is for size %d root %x, the proof for size %d root %s", cp.Size, cp.Hash, p.TreeSize, p.RootHash)
	}
	return nil
}

// loadOrCreateKey reads the key pair, or makes one when both halves are
// missing and no recorded head says the log existed (must).
func loadOrCreateKey(dir, label string, must *Head, create bool) (skey, vkey string, err error) {
	priv, pub := filepath.Join(dir, PrivateKeyFile), filepath.Join(dir, PublicKeyFile)
	s, errS := safefile.ReadRegular(priv, maxKeyFile)
	v, errV := safefile.ReadRegular(pub, maxKeyFile)
	switch {
	case errS == nil && errV == nil:
		return strings.TrimSpace(string(s)), strings.TrimSpace(string(v)), nil
	case errors.Is(errS, fs.ErrNotExist) && errors.Is(errV, fs.ErrNotExist) && must != nil:
		return "", "", corruptf("%s has no key pair (%s, %s), but %s recorded a tree of %d entries: restore the directory from a backup", label, PrivateKeyFile, PublicKeyFile, must.Source, must.Size)
	case errors.Is(errS, fs.ErrNotExist) && errors.Is(errV, fs.ErrNotExist) && !create:
		return "", "", nil
	case errors.Is(errS, fs.ErrNotExist) && errors.Is(errV, fs.ErrNotExist):
	case errS != nil && !errors.Is(errS, fs.ErrNotExist):
		return "", "", fmt.Errorf("embedded log: %w", errS)
	case errV != nil && !errors.Is(errV, fs.ErrNotExist):
		return "", "", fmt.Errorf("embedded log: %w", errV)
	default:
		return "", "", fmt.Errorf("embedded log: %s has only half of its key pair (%s, %s); restore the missing file or move the directory away", dir, PrivateKeyFile, PublicKeyFile)
	}
	var id [4]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", "", err
	}
	skey, vkey, err = note.GenerateKey(rand.Reader, "sealgate.local/log-"+hex.EncodeToString(id[:]))
	if err != nil {
		return "", "", fmt.Errorf("embedded log: %w", err)
	}
	// The public half is written first: a crash between the two leaves
	// half a pair, which is refused, never a private key nobody can check.
	if err := safefile.WriteNew(pub, []byte(vkey+"\n"), 0o644); err != nil {
		return "", "", fmt.Errorf("embedded log: %w", err)
	}
	if err := safefile.WriteNew(priv, []byte(skey+"\n"), 0o600); err != nil {
		return "", "", fmt.Errorf("embedded log: %w", err)
	}
	return skey, vkey, nil
}

// maxKeyFile bounds a key file.
const maxKeyFile = 4 << 10

// readLastCheckpoint reads the last checkpoint this log recorded, as a
// head the log must still hold.
func readLastCheckpoint(dir, label string, v note.Verifier) (*Head, error) {
	path := filepath.Join(dir, lastCheckpoint)
	raw, err := safefile.ReadRegular(path, maxTileFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, corruptf("%s: %v", filepath.Join(label, lastCheckpoint), err)
	}
	cp, _, _, err := log.ParseCheckpoint(raw, v.Name(), v)
	if err != nil {
		return nil, corruptf("%s does not verify with the log's key: %v", filepath.Join(label, lastCheckpoint), err)
	}
	return &Head{Size: cp.Size, Root: cp.Hash, Source: filepath.Join(label, lastCheckpoint)}, nil
}

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
package embedded

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
}

// Log is an open embedded log. It is safe for concurrent use.
type Log struct {
	dir      string
	signer   note.Signer
	verifier note.Verifier
	vkey     string
	appender *tessera.Appender
	reader   tessera.LogReader
	awaiter  *tessera.PublicationAwaiter
	shutdown func(context.Context) error
	cancel   context.CancelFunc

	mu   sync.Mutex // orders the consistency check against last-checkpoint
	last []byte     // the checkpoint last recorded by this process
}

// Open opens the log in dir, creating it and its key pair when missing.
func Open(ctx context.Context, dir string, o Options) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded log: %w", err)
	}
	skey, vkey, err := loadOrCreateKey(dir)
	if err != nil {
		return nil, err
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		return nil, fmt.Errorf("embedded log: %s: %w", filepath.Join(dir, PrivateKeyFile), err)
	}
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, fmt.Errorf("embedded log: %s: %w", filepath.Join(dir, PublicKeyFile), err)
	}
	if signer.Name() != verifier.Name() || signer.KeyHash() != verifier.KeyHash() {
		return nil, fmt.Errorf("embedded log: %s and %s are not one key pair", PrivateKeyFile, PublicKeyFile)
	}
	if o.BatchMaxSize == 0 {
		o.BatchMaxSize = 256
	}
	if o.BatchMaxAge == 0 {
		o.BatchMaxAge = 5 * time.Millisecond
	}
	o.CheckpointInterval = max(o.CheckpointInterval, 100*time.Millisecond)

	// The log's goroutines live until Close, not for the caller's context.
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	driver, err := posix.New(lctx, posix.Config{Path: filepath.Join(dir, tilesDir)})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("embedded log: storage: %w", err)
	}
	opts := tessera.NewAppendOptions().
		WithCheckpointSigner(signer).
		WithBatching(o.BatchMaxSize, o.BatchMaxAge).
		WithCheckpointInterval(o.CheckpointInterval)
	appender, shutdown, reader, err := tessera.NewAppender(lctx, driver, opts)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("embedded log: %w", err)
	}
	return &Log{
		dir: dir, signer: signer, verifier: verifier, vkey: vkey,
		appender: appender, reader: reader, shutdown: shutdown, cancel: cancel,
		awaiter: tessera.NewPublicationAwaiter(lctx, reader.ReadCheckpoint, 5*time.Millisecond),
	}, nil
}

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
	idx, raw, err := l.awaiter.Await(ctx, l.appender.Add(ctx, tessera.NewEntry(leaf)))
	if err != nil {
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
		return nil, fmt.Errorf("embedded log: the proof it produced does not verify: %w", err)
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
				return fmt.Errorf("embedded log: checkpoint of size %d is not consistent with the recorded one of size %d: %w", cp.Size, prev.Size, err)
			}
			return nil
		}
		prf, err := l.Consistency(ctx, prev.Size, cp.Size)
		if err != nil {
			return fmt.Errorf("embedded log: consistency proof %d→%d: %w", prev.Size, cp.Size, err)
		}
		if err := proof.VerifyConsistency(rfc6962.DefaultHasher, prev.Size, cp.Size, prf, prev.Hash, cp.Hash); err != nil {
			return fmt.Errorf("embedded log: the log was rewritten: checkpoint of size %d is not consistent with the recorded one of size %d: %w", cp.Size, prev.Size, err)
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		return fmt.Errorf("embedded log: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("embedded log: %w", err)
	}
	l.last = raw
	return nil
}

// Close stops the log, waiting for pending work to be integrated.
func (l *Log) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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

func loadOrCreateKey(dir string) (skey, vkey string, err error) {
	priv, pub := filepath.Join(dir, PrivateKeyFile), filepath.Join(dir, PublicKeyFile)
	s, errS := os.ReadFile(priv)
	v, errV := os.ReadFile(pub)
	switch {
	case errS == nil && errV == nil:
		return strings.TrimSpace(string(s)), strings.TrimSpace(string(v)), nil
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
	if err := os.WriteFile(priv, []byte(skey+"\n"), 0o600); err != nil {
		return "", "", fmt.Errorf("embedded log: %w", err)
	}
	if err := os.WriteFile(pub, []byte(vkey+"\n"), 0o644); err != nil {
		return "", "", fmt.Errorf("embedded log: %w", err)
	}
	return skey, vkey, nil
}

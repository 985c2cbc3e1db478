package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/safefile"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/signing/tlog"
)

// The state directory holds everything embedded mode keeps between runs.
const (
	ledgerFile = "ledger.db"
	keysDir    = "keys"
	trustFile  = "trust.json"
	blobsDir   = "blobs"
	workDir    = "work"
	// suiteCacheDir keeps baseline suite answers: they outlive a run, its
	// work does not.
	suiteCacheDir = "suite-cache"
	// maxTrustFile bounds a trust policy read from a file.
	maxTrustFile = 4 << 20
)

// defaultStateDir is $SEALGATE_STATE, else $XDG_STATE_HOME/sealgate, else
// ~/.local/state/sealgate.
func defaultStateDir() string {
	if d := os.Getenv("SEALGATE_STATE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "sealgate")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "sealgate")
	}
	return ".sealgate"
}

// state is an opened state directory in embedded mode.
type state struct {
	dir      string
	log      *local.Log
	keys     *keyring.Keyring
	trust    *authority.Trust
	appender *ledger.Appender
	anchors  *anchorStore
	// lastSeal is the ledger's last verdict.sealed in an embedded log.
	lastSeal *sealMark
}

// sealMark is a verdict.sealed record: where the ledger says a verdict is
// in the embedded log.
type sealMark struct {
	run string
	seq uint64
	rec *pb.VerdictSealed
}

// absState makes a --state directory absolute at once: jobs run in other
// working directories.
func absState(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usageErrorf("--state %s: %v", dir, err)
	}
	return abs, nil
}

// openState opens (creating when new) the state directory: keys, trust
// policy and the local ledger, whose admission state is rebuilt from the
// log. The ledger is checked against STATE/anchor first: one that holds
// less than the anchor records is refused, naming what is missing. Holding
// the ledger's lock, it removes what crashed runs left in STATE/work.
func openState(ctx context.Context, dir string) (*state, error) {
	dir, err := absState(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, infraErrorf("state directory %s: %v", dir, err)
	}
	anchors, err := loadAnchor(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, ledgerFile)
	cur := anchors.current()
	if err := checkLedgerFile(path, cur.Ledger); err != nil {
		return nil, err
	}
	keys, err := keyring.LoadOrCreate(filepath.Join(dir, keysDir))
	if err != nil {
		return nil, infraErrorf("%v", err)
	}
	trust, err := keys.Trust()
	if err != nil {
		return nil, infraErrorf("%v", err)
	}
	if err := writeTrustIfMissing(filepath.Join(dir, trustFile), trust); err != nil {
		return nil, err
	}
	log, err := openLedger(path, cur.Ledger)
	if err != nil {
		return nil, err
	}
	// The lock is held: no other sealgate uses this state, so whatever is
	// in the scratch directory is a crashed run's.
	if err := cleanWork(filepath.Join(dir, workDir)); err != nil {
		log.Close()
		return nil, err
	}
	// A shorter ledger or another chain is named as such before its
	// records are read: another ledger's records would be refused by this
	// state's trust policy first, and say less.
	if err := precheckLedgerHead(log, path, cur.Ledger); err != nil {
		log.Close()
		return nil, err
	}
	st := authority.New(trust)
	var seal *sealMark
	err = log.Scan(ctx, 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Topic != ledger.Topic {
			return nil
		}
		if err := ledger.Replay(st, e.Payload); err != nil {
			return err
		}
		if e.Metadata[ledger.MetaKind] == record.KindName(pb.Kind_KIND_VERDICT_SEALED) {
			if rec, err := record.Decode(e.Payload); err == nil {
				if vs := rec.Record.GetVerdictSealed(); vs != nil && vs.LogKind == tlog.KindEmbedded {
					seal = &sealMark{run: rec.Record.GetRunId(), seq: e.Seq, rec: vs}
				}
			}
		}
		return nil
	})
	if err != nil {
		log.Close()
		return nil, infraErrorf("the ledger in %s is damaged (%v); run `sealgate ledger verify --state %s`", dir, err, dir)
	}
	if err := checkLedgerHead(log, path, cur.Ledger); err != nil {
		log.Close()
		return nil, err
	}
	if anchors.cur == nil {
		if err := refuseUnanchored(dir, log); err != nil {
			log.Close()
			return nil, err
		}
	}
	anchors.ledger = log
	if err := anchors.save(nil); err != nil {
		log.Close()
		return nil, err
	}
	pub, err := local.NewPublisher(log)
	if err != nil {
		log.Close()
		return nil, infraErrorf("%v", err)
	}
	guard, err := keys.Signer(keyring.Ledger)
	if err != nil {
		log.Close()
		return nil, infraErrorf("%v", err)
	}
	app, err := ledger.NewAppender(pub, st, guard, nil)
	if err != nil {
		log.Close()
		return nil, infraErrorf("%v", err)
	}
	return &state{dir: dir, log: log, keys: keys, trust: trust, appender: app, anchors: anchors, lastSeal: seal}, nil
}

// Close records the ledger's head in the anchor and closes the ledger.
func (s *state) Close() error {
	aerr := s.anchors.save(nil)
	s.anchors.ledger = nil
	if err := s.log.Close(); err != nil {
		return err
	}
	return aerr
}

// restoreHint is what to do about a ledger that lost records.
func restoreHint(dir string) string {
	return fmt.Sprintf("restore it from a backup, or run `sealgate state reanchor --state %s` to go on without what is missing", dir)
}

// checkLedgerFile refuses, before it is opened (and so re-created), a
// ledger file that is gone or empty while the anchor says it held records.
func checkLedgerFile(path string, m *ledgerMark) error {
	if m == nil || m.Seq == 0 {
		return nil
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return infraErrorf("the ledger %s is missing, but %s says it held %d records (head %.16s…): %s", path, anchorName(path), m.Seq, m.Head, restoreHint(filepath.Dir(path)))
	case err != nil:
		return infraErrorf("the ledger %s: %v", path, err)
	case !fi.Mode().IsRegular():
		return infraErrorf("the ledger %s is not a regular file", path)
	case fi.Size() == 0:
		return infraErrorf("the ledger %s is empty, but %s says it held %d records (head %.16s…): %s", path, anchorName(path), m.Seq, m.Head, restoreHint(filepath.Dir(path)))
	}
	return nil
}

func anchorName(ledgerPath string) string {
	return filepath.Join(filepath.Dir(ledgerPath), anchorFile)
}

// openLedger opens the ledger for writing, naming a damaged file as what
// the anchor says is lost.
func openLedger(path string, m *ledgerMark) (*local.Log, error) {
	log, err := local.Open(path, local.Options{})
	return log, ledgerOpenError(path, m, err)
}

// ledgerOpenError names why a ledger did not open.
func ledgerOpenError(path string, m *ledgerMark, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, local.ErrLocked):
		return infraErrorf("the state %s is in use by another sealgate (its ledger is locked); wait for it to finish", filepath.Dir(path))
	case m != nil && m.Seq > 0:
		size := int64(-1)
		if fi, serr := os.Stat(path); serr == nil {
			size = fi.Size()
		}
		return infraErrorf("the ledger %s is truncated or damaged (%d bytes: %v), but %s says it held %d records (head %.16s…): %s", path, size, errors.Unwrap(err), anchorName(path), m.Seq, m.Head, restoreHint(filepath.Dir(path)))
	}
	return infraErrorf("open ledger: %v", err)
}

// checkLedgerHead refuses a ledger that does not hold the anchor's head:
// shorter (rolled back to an older copy) or another chain (replaced).
func checkLedgerHead(log *local.Log, path string, m *ledgerMark) error {
	if m == nil || m.Seq == 0 {
		return nil
	}
	seq, _, err := log.Head()
	if err != nil {
		return infraErrorf("%v", err)
	}
	if seq < m.Seq {
		return infraErrorf("the ledger %s was rolled back: it ends at record #%d, but %s says it held %d records (head %.16s…): records #%d to #%d are missing; %s", path, seq, anchorName(path), m.Seq, m.Head, seq+1, m.Seq, restoreHint(filepath.Dir(path)))
	}
	h, err := log.HashAt(m.Seq)
	if err != nil {
		return infraErrorf("the ledger %s: %v", path, err)
	}
	if h.String() != m.Head {
		return infraErrorf("the ledger %s was replaced: its record #%d has hash %.16s…, but %s recorded %.16s…; %s", path, m.Seq, h, anchorName(path), m.Head, restoreHint(filepath.Dir(path)))
	}
	return nil
}

// precheckLedgerHead is checkLedgerHead for a ledger not yet read: an
// anchored entry that does not read back is left for the chain check to
// name, record by record.
func precheckLedgerHead(log *local.Log, path string, m *ledgerMark) error {
	if m == nil || m.Seq == 0 {
		return nil
	}
	seq, _, err := log.Head()
	if err != nil {
		return nil
	}
	if seq >= m.Seq {
		if _, err := log.HashAt(m.Seq); err != nil {
			return nil
		}
	}
	return checkLedgerHead(log, path, m)
}

// namedLedgerError names a ledger file bbolt cannot read as what the
// anchor says is lost.
func namedLedgerError(path string, m *ledgerMark, err error) error {
	if errors.Is(err, local.ErrCorruptFile) && m != nil && m.Seq > 0 {
		return ledgerOpenError(path, m, err)
	}
	return infraErrorf("read ledger: %v", err)
}

// refuseUnanchored refuses a state without an anchor that holds records or
// log entries: its anchor was lost, or it was made by a sealgate without
// anchors; either way someone must say so.
func refuseUnanchored(dir string, log *local.Log) error {
	seq, _, err := log.Head()
	if err != nil {
		return infraErrorf("%v", err)
	}
	what := ""
	switch {
	case seq > 0:
		what = fmt.Sprintf("its ledger holds %d records", seq)
	case logHasEntries(dir):
		what = "its transparency log holds entries"
	default:
		return nil
	}
	return infraErrorf("the state %s has no anchor (%s is missing), but %s: if the anchor was lost, restore it from a backup; to adopt the state as it is, run `sealgate state reanchor --state %s`", dir, filepath.Join(dir, anchorFile), what, dir)
}

// logHasEntries reports whether the embedded log under dir has any tile.
func logHasEntries(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, tlogDir, "tiles", "tile"))
	return err == nil
}

// cleanWork empties the scratch directory of jobs.
func cleanWork(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return infraErrorf("%v", err)
	}
	for _, e := range entries {
		// A sandbox may have left directories without write permission.
		if err := removeTree(filepath.Join(dir, e.Name())); err != nil {
			return infraErrorf("clean up after a crashed run: %v", err)
		}
	}
	return nil
}

func writeTrustIfMissing(path string, trust *authority.Trust) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return infraErrorf("%v", err)
	}
	b, err := trust.Marshal()
	if err != nil {
		return infraErrorf("%v", err)
	}
	if err := safefile.WriteAtomic(path, append(b, '\n'), 0o644); err != nil {
		return infraErrorf("write trust policy: %v", err)
	}
	return nil
}

// loadTrust reads a trust policy file.
func loadTrust(path string) (*authority.Trust, error) {
	b, err := readInput("--trust", path, maxTrustFile, "")
	if err != nil {
		return nil, err
	}
	t, err := authority.ParseTrust(b)
	if err != nil {
		return nil, usageErrorf("%s: %v", path, err)
	}
	return t, nil
}

// ledgerExists refuses, as a usage error, a ledger path with nothing there
// — unless the anchor next to it says it held records: then it is lost.
func ledgerExists(path string) error {
	if a, err := loadAnchor(filepath.Dir(path)); err == nil {
		if err := checkLedgerFile(path, a.current().Ledger); err != nil {
			return err
		}
	}
	if err := safefile.Regular(path); safefile.IsBound(err) {
		return usageErrorf("ledger %v", err)
	} else if err != nil {
		return usageErrorf("no ledger at %s (%v); give --state DIR or --ledger FILE", path, errors.Unwrap(err))
	}
	return nil
}

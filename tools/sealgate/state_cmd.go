package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/safefile"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/signing/attest"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

func newStateCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Check a state directory against its anchor, re-anchor it, repair its transparency log",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageErrorf("state needs a subcommand: check, reanchor or repair-log")
		},
	}
	var dir string
	var moveAside bool
	check := &cobra.Command{
		Use:   "check [--state DIR]",
		Short: "Check the ledger and the embedded log against STATE/anchor and each other, writing nothing",
		Long: `check makes the checks every command makes when it opens the state, and
writes nothing: the ledger's hash chain and its head against the anchor, and
the embedded log's tiles recomputed from its entries, its checkpoints, and
the trees the anchor and the ledger's last seal recorded. It exits 0 when
all hold, 1 naming each that does not.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return stateCheck(cmd.Context(), stdout, dir)
		},
	}
	reanchor := &cobra.Command{
		Use:   "reanchor [--state DIR]",
		Short: "Accept the ledger and the embedded log as they are now, on purpose, and anchor the state there",
		Long: `reanchor writes STATE/anchor at the ledger's and the embedded log's current
heads, after checking the ledger's hash chain and the log's files. It is how
a state is adopted on purpose: one made before anchors existed, one whose
anchor was lost, one restored from an older backup, or — with a damaged
ledger.db moved away first — one whose ledger starts over empty. It prints
what the old anchor recorded that the state no longer holds.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return stateReanchor(cmd.Context(), stdout, dir)
		},
	}
	repair := &cobra.Command{
		Use:   "repair-log [--state DIR] [--move-aside]",
		Short: "Rebuild a damaged or rolled-back embedded log, or move it aside",
		Long: `repair-log rebuilds the embedded log STATE/tlog from its own entry bundles and
the leaves of the bundles its sealed verdicts name (in the blob store), up
to the largest checkpoint its key signed whose root they reproduce: hash
tiles, bundles, the tree state and the published checkpoint are rewritten
where they differ; nothing is signed anew, and the log keeps its key. It
refuses, writing nothing, when no signed checkpoint at or above the anchor's
can be reproduced.

With --move-aside it renames STATE/tlog to STATE/tlog.aside-TIME instead and
records in the anchor that the old log was retired on purpose: the next
verify starts a new log with a new key. The old directory's log.pub still
checks every bundle sealed in it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return stateRepairLog(cmd.Context(), stdout, dir, moveAside)
		},
	}
	for _, c := range []*cobra.Command{check, reanchor, repair} {
		c.Flags().StringVar(&dir, "state", defaultStateDir(), "state directory of embedded mode")
	}
	repair.Flags().BoolVar(&moveAside, "move-aside", false, "rename the log directory aside and let the next verify start a new log")
	cmd.AddCommand(check, reanchor, repair)
	return cmd
}

// stateCheck reports every check that fails, and fails if one does.
func stateCheck(ctx context.Context, w io.Writer, dir string) error {
	dir, err := absState(dir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); err != nil {
		return usageErrorf("no state directory at %s", dir)
	}
	var problems []string
	report := func(what string, err error) {
		if err != nil {
			msg := err.Error()
			var ee *exitError
			if errors.As(err, &ee) {
				msg = ee.err.Error()
			}
			problems = append(problems, what)
			fmt.Fprintf(w, "FAIL %-7s %s\n", what, msg)
		}
	}
	anchors, err := loadAnchor(dir)
	if err != nil {
		report("anchor", err)
		return failed("state %s: %s", dir, strings.Join(problems, ", "))
	}
	a := anchors.current()
	path := filepath.Join(dir, ledgerFile)
	var seal *sealMark
	ledgerOK := func() error {
		if err := checkLedgerFile(path, a.Ledger); err != nil {
			return err
		}
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(w, "ok   ledger  none yet\n")
			return nil
		}
		log, err := local.OpenReadOnly(path, local.Options{})
		if err != nil {
			return ledgerOpenError(path, a.Ledger, err)
		}
		defer log.Close()
		if err := precheckLedgerHead(log, path, a.Ledger); err != nil {
			return err
		}
		if err := log.VerifyChain(ctx); err != nil {
			var ce *local.CorruptEntryError
			if !errors.As(err, &ce) {
				return namedLedgerError(path, a.Ledger, err)
			}
			return infraErrorf("%s: %v; run `sealgate ledger verify --state %s`", path, err, dir)
		}
		if err := checkLedgerHead(log, path, a.Ledger); err != nil {
			return err
		}
		if anchors.cur == nil {
			if err := refuseUnanchored(dir, log); err != nil {
				return err
			}
		}
		if seal, err = lastEmbeddedSeal(ctx, log); err != nil {
			return err
		}
		seq, h, err := log.Head()
		if err != nil {
			return infraErrorf("%v", err)
		}
		fmt.Fprintf(w, "ok   ledger  %d records, head %.16s…%s\n", seq, h, anchorNote(a.Ledger != nil && a.Ledger.Seq > 0, "anchor at #%d", a.Ledger))
		return nil
	}
	report("ledger", ledgerOK())
	logOK := func() error {
		expect, err := logExpectations(a, seal, anchors.path)
		if err != nil {
			return err
		}
		st, err := embedded.Check(filepath.Join(dir, tlogDir), embedded.Options{Expect: expect, Label: filepath.Join(dir, tlogDir)})
		if embedded.IsCorrupt(err) {
			return fmt.Errorf("%v; %s", err, repairHint(dir))
		}
		if err != nil {
			return err
		}
		if !st.Exists {
			fmt.Fprintf(w, "ok   log     none yet\n")
			return nil
		}
		var held []string
		for _, e := range expect {
			held = append(held, fmt.Sprintf("%s at %d", e.Source, e.Size))
		}
		note := ""
		if len(held) > 0 {
			note = "; holds " + strings.Join(held, ", ")
		}
		fmt.Fprintf(w, "ok   log     %d entries, root %.16x…, every tile recomputed%s\n", st.Size, st.Root, note)
		return nil
	}
	report("log", logOK())
	if len(problems) > 0 {
		return failed("state %s: the %s check failed", dir, strings.Join(problems, " and "))
	}
	return nil
}

func anchorNote(ok bool, format string, m *ledgerMark) string {
	if !ok {
		return ""
	}
	return fmt.Sprintf(", holds the "+format, m.Seq)
}

// lastEmbeddedSeal finds the ledger's last verdict.sealed in an embedded
// log.
func lastEmbeddedSeal(ctx context.Context, log *local.Log) (*sealMark, error) {
	var seal *sealMark
	err := eachEmbeddedSeal(ctx, log, func(s *sealMark) { seal = s })
	return seal, err
}

func eachEmbeddedSeal(ctx context.Context, log *local.Log, fn func(*sealMark)) error {
	kind := record.KindName(pb.Kind_KIND_VERDICT_SEALED)
	err := log.Scan(ctx, 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Topic != ledger.Topic || e.Metadata[ledger.MetaKind] != kind {
			return nil
		}
		rec, err := record.Decode(e.Payload)
		if err != nil {
			return nil
		}
		if vs := rec.Record.GetVerdictSealed(); vs != nil && vs.LogKind == tlog.KindEmbedded {
			fn(&sealMark{run: rec.Record.GetRunId(), seq: e.Seq, rec: vs})
		}
		return nil
	})
	if err != nil {
		return infraErrorf("read ledger: %v", err)
	}
	return nil
}

// stateReanchor anchors the state at what it holds now.
func stateReanchor(ctx context.Context, w io.Writer, dir string) error {
	dir, err := absState(dir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); err != nil {
		return usageErrorf("no state directory at %s", dir)
	}
	anchors, err := loadAnchor(dir)
	var old anchor
	if err != nil {
		// A damaged anchor is what reanchor replaces.
		fmt.Fprintf(w, "the old anchor is unreadable: %v\n", err)
		anchors = &anchorStore{path: filepath.Join(dir, anchorFile)}
	} else {
		old = anchors.current()
	}
	next := anchor{Schema: anchorSchema, Retired: slices.Clone(old.Retired)}

	// The ledger, under its lock: no verify runs meanwhile.
	path := filepath.Join(dir, ledgerFile)
	var seal *sealMark
	if _, err := os.Stat(path); err == nil {
		log, err := local.Open(path, local.Options{})
		if errors.Is(err, local.ErrCorruptFile) {
			return infraErrorf("the ledger %s is damaged (%v): restore it from a backup, or move it away (mv %s %s.damaged) and reanchor to start a new ledger", path, errors.Unwrap(err), path, path)
		}
		if err != nil {
			return infraErrorf("open %s: %v", path, err)
		}
		defer log.Close()
		if err := log.VerifyChain(ctx); err != nil {
			return infraErrorf("the ledger %s does not verify (%v): restore it from a backup, or move it away and reanchor to start a new ledger", path, err)
		}
		seq, h, err := log.Head()
		if err != nil {
			return infraErrorf("%v", err)
		}
		next.Ledger = &ledgerMark{Seq: seq}
		if seq > 0 {
			next.Ledger.Head = h.String()
		}
		if seal, err = lastEmbeddedSeal(ctx, log); err != nil {
			return err
		}
	} else {
		next.Ledger = &ledgerMark{}
	}

	// The log must check on its own and hold the ledger's last seal.
	logDir := filepath.Join(dir, tlogDir)
	var expect []embedded.Head
	if expect, err = logExpectations(anchor{Retired: next.Retired}, seal, anchors.path); err != nil {
		return err
	}
	st, err := embedded.Check(logDir, embedded.Options{Expect: expect, Label: logDir})
	if err != nil {
		return infraErrorf("%v; repair the log first: %s", err, repairHint(dir))
	}
	if st.Exists && st.Size > 0 {
		next.Log = &logMark{LogID: st.LogID, TreeSize: st.Size, RootHash: hex.EncodeToString(st.Root), SealedIndex: st.Size - 1}
	}

	describeLedger := func(m *ledgerMark) string {
		if m == nil || m.Seq == 0 {
			return "no records"
		}
		return fmt.Sprintf("%d records (head %.16s…)", m.Seq, m.Head)
	}
	describeLog := func(m *logMark) string {
		if m == nil {
			return "no entries"
		}
		return fmt.Sprintf("%d entries (log %.16s…, root %.16s…)", m.TreeSize, m.LogID, m.RootHash)
	}
	fmt.Fprintf(w, "ledger: the anchor recorded %s; the ledger holds %s\n", describeLedger(old.Ledger), describeLedger(next.Ledger))
	if old.Ledger != nil && next.Ledger.Seq < old.Ledger.Seq {
		fmt.Fprintf(w, "  records #%d to #%d are no longer on the ledger: runs recorded there are gone from it\n", next.Ledger.Seq+1, old.Ledger.Seq)
	}
	fmt.Fprintf(w, "log:    the anchor recorded %s; the log holds %s\n", describeLog(old.Log), describeLog(next.Log))
	if err := safefile.WriteAtomic(anchors.path, next.marshal(), 0o600); err != nil {
		return infraErrorf("write %s: %v", anchors.path, err)
	}
	fmt.Fprintf(w, "anchored %s at what it holds now\n", dir)
	return nil
}

// stateRepairLog rebuilds the embedded log, or moves it aside.
func stateRepairLog(ctx context.Context, w io.Writer, dir string, moveAside bool) error {
	dir, err := absState(dir)
	if err != nil {
		return err
	}
	anchors, err := loadAnchor(dir)
	if err != nil {
		return err
	}
	logDir := filepath.Join(dir, tlogDir)
	if _, err := os.Stat(logDir); errors.Is(err, fs.ErrNotExist) && moveAside {
		return usageErrorf("there is no log at %s to move aside", logDir)
	}
	// The ledger's lock keeps verifications out while the log changes.
	var log *local.Log
	path := filepath.Join(dir, ledgerFile)
	if _, err := os.Stat(path); err == nil {
		if log, err = openLedger(path, anchors.current().Ledger); err != nil {
			return err
		}
		defer log.Close()
		if err := checkLedgerHead(log, path, anchors.current().Ledger); err != nil {
			return err
		}
	}
	id := ""
	if vkey, err := safefile.ReadRegular(filepath.Join(logDir, embedded.PublicKeyFile), maxKeyFile); err == nil {
		id = embedded.LogID(string(vkey))
	} else if m := anchors.current().Log; m != nil {
		id = m.LogID
	}

	if moveAside {
		to := logDir + ".aside-" + time.Now().UTC().Format("20060102T150405Z")
		if err := os.Rename(logDir, to); err != nil {
			return infraErrorf("move the log aside: %v", err)
		}
		err := anchors.save(func(a *anchor) {
			if id != "" && !a.retired(id) {
				a.Retired = append(a.Retired, id)
				slices.Sort(a.Retired)
			}
			a.Log = nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "moved %s to %s; its log.pub still checks every bundle sealed in it.\nThe next verify starts a new log with a new key; verdicts already sealed stay on the ledger.\n", logDir, to)
		return nil
	}

	a := anchors.current()
	var expect []embedded.Head
	if m := a.Log; m != nil && m.LogID == id {
		root, _ := hex.DecodeString(m.RootHash)
		expect = append(expect, embedded.Head{LogID: id, Size: m.TreeSize, Root: root, Source: "the anchor " + anchors.path})
	}
	// What the ledger's seals in this log know: each leaf and checkpoint.
	leaves := map[uint64][]byte{}
	var checkpoints [][]byte
	var seal *sealMark
	if log != nil {
		blobs, err := blob.Open(ctx, filepath.Join(dir, blobsDir))
		if err != nil {
			return infraErrorf("blob store: %v", err)
		}
		defer blobs.Close()
		err = eachEmbeddedSeal(ctx, log, func(s *sealMark) {
			if s.rec.LogId != id {
				return
			}
			seal = s
			checkpoints = append(checkpoints, s.rec.Checkpoint)
			raw, err := blobs.Get(ctx, s.rec.BundleBlob)
			if err != nil {
				return
			}
			if b, err := attest.ReadBundle(raw); err == nil && b.Tlog != nil && b.Tlog.Index == s.rec.LogIndex && b.Tlog.LogID == id {
				leaves[b.Tlog.Index] = b.Tlog.Leaf
			}
		})
		if err != nil {
			return err
		}
	}
	sealExpect, err := logExpectations(anchor{}, seal, anchors.path)
	if err != nil {
		return err
	}
	expect = append(expect, sealExpect...)
	if _, err := embedded.Check(logDir, embedded.Options{Expect: expect, Label: logDir}); err == nil {
		fmt.Fprintf(w, "%s checks: nothing to repair\n", logDir)
		return nil
	}
	rep, err := embedded.Rebuild(logDir, embedded.RebuildOptions{Label: logDir, Leaves: leaves, Checkpoints: checkpoints, Expect: expect})
	if err != nil {
		return infraErrorf("%v; to start a new log instead: sealgate state repair-log --move-aside --state %s", err, dir)
	}
	fmt.Fprintf(w, "rebuilt %s to %d entries (root %.16x…): %d files rewritten, %d entries taken from sealed bundles, %d unsealed entries past the last signed checkpoint dropped\n",
		logDir, rep.Size, rep.Root, len(rep.Rewritten), rep.FromOutside, rep.Dropped)
	for _, f := range rep.Rewritten {
		fmt.Fprintf(w, "  %s\n", f)
	}
	return nil
}

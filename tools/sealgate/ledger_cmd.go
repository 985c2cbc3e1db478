package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

func newLedgerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ledger",
		Short: "Check, list and exercise the local ledger",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageErrorf("ledger needs a subcommand: verify, inspect or demo")
		},
	}
	cmd.AddCommand(newLedgerVerifyCmd(), newLedgerInspectCmd(), newLedgerDemoCmd())
	return cmd
}

// ledgerPaths resolves --state, --ledger and --trust.
type ledgerPaths struct {
	state, ledger, trust string
}

func (p *ledgerPaths) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&p.state, "state", defaultStateDir(), "state directory of embedded mode")
	cmd.Flags().StringVar(&p.ledger, "ledger", "", "ledger file (default STATE/ledger.db)")
	cmd.Flags().StringVar(&p.trust, "trust", "", "trust policy: the keys to trust and what each may write (default STATE/trust.json)")
}

func (p *ledgerPaths) resolve() {
	if p.ledger == "" {
		p.ledger = filepath.Join(p.state, ledgerFile)
	}
	if p.trust == "" {
		p.trust = filepath.Join(p.state, trustFile)
	}
}

func newLedgerVerifyCmd() *cobra.Command {
	var paths ledgerPaths
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Re-check a whole ledger offline: signatures, digests, hash chain, parent links, seals, tokens, budgets",
		Long: `verify replays every stored record through the ledger's admission rules with
the trust policy given, and checks the local log's hash chain. It exits 0 when
the ledger is clean and 1 naming the first bad record.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths.resolve()
			if err := ledgerExists(paths.ledger); err != nil {
				return err
			}
			trust, err := loadTrust(paths.trust)
			if err != nil {
				return err
			}
			// The state's own ledger must also hold what its anchor
			// recorded: a clean chain that is shorter is a lost one.
			var mark *ledgerMark
			if !cmd.Flags().Changed("ledger") {
				anchors, err := loadAnchor(filepath.Dir(paths.ledger))
				if err != nil {
					return err
				}
				mark = anchors.current().Ledger
			}
			return verifyLedger(cmd.Context(), cmd.OutOrStdout(), paths.ledger, trust, mark)
		},
	}
	paths.register(cmd)
	return cmd
}

func verifyLedger(ctx context.Context, out io.Writer, path string, trust *authority.Trust, mark *ledgerMark) error {
	log, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		return ledgerOpenError(path, mark, err)
	}
	defer log.Close()
	if err := precheckLedgerHead(log, path, mark); err != nil {
		fmt.Fprintf(out, "FAIL anchor: %v\n", err)
		return failed("ledger %s does not hold what %s recorded", path, anchorName(path))
	}
	v := ledger.NewVerifier(trust)
	var problem *ledger.Problem
	var entries uint64
	errStop := errors.New("stop")
	err = log.Scan(ctx, 1, func(e local.Entry, err error) error {
		var ce *local.CorruptEntryError
		if errors.As(err, &ce) {
			problem = v.Corrupt(ce.Seq, ce.Err)
			return errStop
		}
		if err != nil {
			return err
		}
		entries++
		if e.Topic != ledger.Topic {
			return nil
		}
		if problem = v.Next(e.Seq, e.Payload); problem != nil {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return namedLedgerError(path, mark, err)
	}
	if problem == nil {
		problem = v.Finish()
	}
	if problem != nil {
		fmt.Fprintf(out, "FAIL %s\n", problem)
		return failed("ledger %s has a bad record: %s", path, problem)
	}
	if err := checkLedgerHead(log, path, mark); err != nil {
		fmt.Fprintf(out, "FAIL anchor: %v\n", err)
		return failed("ledger %s does not hold what %s recorded", path, anchorName(path))
	}
	_, head, err := log.Head()
	if err != nil {
		return infraErrorf("read ledger head: %v", err)
	}
	counts := v.Counts()
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	fmt.Fprintf(out, "ok: %d records verified (%s); %d log entries; chain head %s\n", v.Total(), strings.Join(parts, ", "), entries, head)
	return nil
}

func newLedgerInspectCmd() *cobra.Command {
	var paths ledgerPaths
	var runID string
	cmd := &cobra.Command{
		Use:   "inspect",
		Short: "List a run's records (or every run's) in ledger order",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths.resolve()
			if err := ledgerExists(paths.ledger); err != nil {
				return err
			}
			log, err := local.OpenReadOnly(paths.ledger, local.Options{})
			if err != nil {
				return infraErrorf("open ledger: %v", err)
			}
			defer log.Close()
			n, err := inspect(cmd.Context(), cmd.OutOrStdout(), log, runID)
			if err != nil {
				return err
			}
			if n == 0 && runID != "" {
				return usageErrorf("the ledger has no record of run %q", runID)
			}
			return nil
		},
	}
	paths.register(cmd)
	cmd.Flags().StringVar(&runID, "run", "", "only this run")
	return cmd
}

// inspect writes one line per record and returns how many it wrote. A record
// the log cannot read is listed as such; inspect does not judge (verify does).
func inspect(ctx context.Context, out io.Writer, log *local.Log, runID string) (int, error) {
	n := 0
	err := log.Scan(ctx, 1, func(e local.Entry, err error) error {
		var ce *local.CorruptEntryError
		if errors.As(err, &ce) {
			fmt.Fprintf(out, "#%-6d  unreadable: %v\n", ce.Seq, ce.Err)
			return nil
		}
		if err != nil {
			return err
		}
		if e.Topic != ledger.Topic || (runID != "" && e.Metadata[ledger.MetaRunID] != runID) {
			return nil
		}
		n++
		rec, err := record.Decode(e.Payload)
		if err != nil {
			fmt.Fprintf(out, "#%-6d  undecodable: %v\n", e.Seq, err)
			return nil
		}
		r := rec.Record
		parents := make([]string, len(r.Parents))
		for i, p := range r.Parents {
			parents[i] = p[:8]
		}
		line := fmt.Sprintf("#%-6d %s  %-8s  %-18s  %-22s  %.12s", e.Seq,
			time.Unix(0, r.TimeUnixNano).UTC().Format("15:04:05.000"), clipRun(r.RunId),
			record.KindName(rec.Kind), r.Producer.Identity, rec.Digest)
		if len(parents) > 0 {
			line += "  ← " + strings.Join(parents, ",")
		}
		if r.Token != "" {
			line += "  token " + r.Token
		}
		fmt.Fprintf(out, "%s\n          %s\n", line, ledger.Describe(rec))
		return nil
	})
	if err != nil {
		return n, infraErrorf("read ledger: %v", err)
	}
	return n, nil
}

func clipRun(id string) string {
	if id == "" {
		return "-"
	}
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func newLedgerDemoCmd() *cobra.Command {
	var (
		stateDir    string
		runs, jobs  int
		printAcked  bool
		quiet       bool
		skipRefusal bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Show the ledger at work: seal runs, issue and consume tokens, refuse bad records, verify",
		Long: `demo appends complete, signed runs to the local ledger (synthetic measurements:
no test is executed), then offers the ledger a duplicate delivery, a conflicting
result, a forged record, a record before the seal and a plan over budget, and
shows what it admitted, ignored and refused — and that the ledger verifies.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runs < 1 || jobs < 1 || jobs > 200 {
				return usageErrorf("--runs must be at least 1 and --jobs between 1 and 200")
			}
			out := cmd.OutOrStdout()
			if quiet {
				out = io.Discard
			}
			return demo(cmd.Context(), out, cmd.OutOrStdout(), stateDir, runs, jobs, printAcked, !skipRefusal)
		},
	}
	cmd.Flags().StringVar(&stateDir, "state", defaultStateDir(), "state directory of embedded mode")
	cmd.Flags().IntVar(&runs, "runs", 1, "number of runs to append")
	cmd.Flags().IntVar(&jobs, "jobs", 3, "jobs per run")
	cmd.Flags().BoolVar(&printAcked, "print-acked", false, "print `acked DIGEST` for every record once it is durable")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but --print-acked lines")
	cmd.Flags().BoolVar(&skipRefusal, "no-refusals", false, "skip offering bad records")
	return cmd
}

func demo(ctx context.Context, out, acked io.Writer, stateDir string, runs, jobs int, printAcked, refusals bool) error {
	st, err := openState(ctx, stateDir)
	if err != nil {
		return err
	}
	if err := appendDemo(ctx, out, acked, st, runs, jobs, printAcked, refusals); err != nil {
		st.Close()
		return err
	}
	if err := st.Close(); err != nil {
		return infraErrorf("close ledger: %v", err)
	}
	fmt.Fprintf(out, "\n$ sealgate ledger verify --state %s\n", stateDir)
	return verifyLedger(ctx, out, filepath.Join(st.dir, ledgerFile), st.trust, st.anchors.current().Ledger)
}

func appendDemo(ctx context.Context, out, acked io.Writer, st *state, runs, jobs int, printAcked, refusals bool) error {
	b := scenario.NewBuilder(st.keys, nil)

	var first *scenario.Run
	for i := 0; i < runs; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		run, err := b.NewRun(newRunID(), jobs)
		if err != nil {
			return infraErrorf("%v", err)
		}
		if first == nil {
			first = run
		}
		recs := run.Records()
		// Append the request and seal on their own, the rest as one batch:
		// both paths are exercised, as services use both.
		for _, batch := range [][]*record.Decoded{recs[:1], recs[1:2], recs[2:]} {
			ds, err := st.appender.Append(ctx, batch...)
			if err != nil {
				return infraErrorf("%v", err)
			}
			for _, d := range ds {
				if d.Outcome != authority.Accepted {
					return infraErrorf("demo record %s was %s: %s %s", record.KindName(d.Record.Kind), d.Outcome, d.Code, d.Detail)
				}
				if printAcked {
					fmt.Fprintf(acked, "acked %s\n", d.Record.Digest)
				}
			}
		}
		fmt.Fprintf(out, "run %s: %d records sealed and admitted\n", run.ID, len(recs))
	}
	if refusals {
		if err := offerBadRecords(ctx, out, st, b, first); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "\nrecords of run %s:\n", first.ID)
	if _, err := inspect(ctx, out, st.log, first.ID); err != nil {
		return err
	}
	return nil
}

// offerBadRecords shows admission at work on the first run.
func offerBadRecords(ctx context.Context, out io.Writer, st *state, b *scenario.Builder, run *scenario.Run) error {
	plan := run.Plan.Record.GetJobPlanned()
	dup := run.Results[0]
	conflict, err := b.Sign(keyring.Executor, &pb.Record{
		RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Plan.Digest}, Token: plan.Jobs[0].Token.Id,
		Body: &pb.Record_JobResult{JobResult: &pb.JobResult{
			JobId: plan.Jobs[0].JobId, Termination: pb.Termination_TERMINATION_EXITED, ExitCode: 1,
			CasesRun: proto.Uint32(1), Cases: []*pb.TestCase{{Name: plan.Jobs[0].JobId, Outcome: "fail"}}, UnitsUsed: 1,
		}},
	})
	if err != nil {
		return infraErrorf("%v", err)
	}
	_, strangerKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return infraErrorf("%v", err)
	}
	stranger, err := record.NewSigner(keyring.Executor, strangerKey)
	if err != nil {
		return infraErrorf("%v", err)
	}
	forged, err := stranger.Sign(&pb.Record{
		RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Trees.Digest}, TimeUnixNano: time.Now().UnixNano(),
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_UNTRUSTED, Ratio: proto.Float64(1)}},
	})
	if err != nil {
		return infraErrorf("%v", err)
	}
	early, err := b.Sign(keyring.Checkout, &pb.Record{
		RunId: "never-requested", CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Seal.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: &pb.TreesMaterialized{}},
	})
	if err != nil {
		return infraErrorf("%v", err)
	}
	overBudget := &pb.JobPlanned{}
	budget := run.Sealed.Criteria.Budget[criteria.BudgetTestRuns]
	tok, err := b.Token(run, run.Trees.Digest, "claim-over-budget", 1, criteria.BudgetTestRuns, budget)
	if err != nil {
		return infraErrorf("%v", err)
	}
	overBudget.Jobs = append(overBudget.Jobs, &pb.Job{JobId: tok.Id, JobKind: "claim", Side: "baseline", Token: tok})
	over, err := b.Sign(keyring.Executor, &pb.Record{
		RunId: run.ID, CriteriaDigest: run.Sealed.Digest, Parents: []string{run.Trees.Digest},
		Body: &pb.Record_JobPlanned{JobPlanned: overBudget},
	})
	if err != nil {
		return infraErrorf("%v", err)
	}

	fmt.Fprintln(out, "\noffering the ledger five records it must not take at face value:")
	offers := []struct {
		what string
		rec  *record.Decoded
	}{
		{"the same job result delivered twice", dup},
		{"a different result for an already consumed token", conflict},
		{"coverage signed by a key nobody trusts", forged},
		{"trees for a run that was never sealed", early},
		{"a plan that would spend more than the sealed budget", over},
	}
	for _, o := range offers {
		ds, err := st.appender.Append(ctx, o.rec)
		if err != nil {
			return infraErrorf("%v", err)
		}
		d := ds[0]
		switch d.Outcome {
		case authority.Refused:
			fmt.Fprintf(out, "  %-52s → refused: %s (%s); the refusal is recorded\n", o.what, d.Code, d.Detail)
		default:
			fmt.Fprintf(out, "  %-52s → %s\n", o.what, d.Outcome)
		}
	}
	return nil
}

func newRunID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on Linux.
	return hex.EncodeToString(b)
}

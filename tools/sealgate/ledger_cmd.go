package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
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
		Short: "Check, list and exercise a ledger: the local one, or a Kafka ledger with --brokers",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageErrorf("ledger needs a subcommand: verify, inspect, runs or demo")
		},
	}
	cmd.AddCommand(newLedgerVerifyCmd(), newLedgerInspectCmd(), newLedgerRunsCmd(), newLedgerDemoCmd())
	return cmd
}

func newLedgerVerifyCmd() *cobra.Command {
	flags := ledgerFlags{withFile: true, anchored: true}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Re-check a whole ledger offline: signatures, digests, hash chain, parent links, seals, tokens, budgets",
		Long: `verify replays every stored record through the ledger's admission rules with
the trust policy given, and checks the local log's hash chain (or, with
--brokers, every admission of the ledger guard on the Kafka records topic,
each run's chain of admissions, and lists the messages it refused to use).
It exits 0 when the ledger is clean and 1 naming the first bad record.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			src, err := flags.open(cmd)
			if err != nil {
				return err
			}
			defer src.Close()
			trust, err := src.Trust()
			if err != nil {
				return err
			}
			return verifyLedger(cmd.Context(), cmd.OutOrStdout(), src, trust)
		},
	}
	flags.register(cmd)
	return cmd
}

func verifyLedger(ctx context.Context, out io.Writer, src ledgerSource, trust *authority.Trust) error {
	if _, err := src.Check(ctx, true); err != nil {
		fmt.Fprintf(out, "FAIL anchor: %v\n", err)
		return failed("%s does not hold what its anchor recorded", src)
	}
	v := ledger.NewVerifier(trust)
	var problem *ledger.Problem
	err := src.Scan(ctx, func(e ledgerEntry) error {
		if e.Fault != nil {
			problem = faultProblem(v, e)
			return errStopScan
		}
		if problem = v.Next(e.Seq, e.Payload); problem != nil {
			return errStopScan
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopScan) {
		return err
	}
	printRefused(out, src, src.Refused())
	if problem == nil {
		problem = v.Finish()
	}
	if problem != nil {
		fmt.Fprintf(out, "FAIL %s\n", problem)
		return failed("%s has a bad record: %s", src, problem)
	}
	summary, err := src.Check(ctx, false)
	if err != nil {
		fmt.Fprintf(out, "FAIL anchor: %v\n", err)
		return failed("%s does not hold what its anchor recorded", src)
	}
	counts := v.Counts()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	fmt.Fprintf(out, "ok: %d records verified (%s); %s\n", v.Total(), strings.Join(parts, ", "), summary)
	return nil
}

// faultProblem names a place where the ledger itself is damaged.
func faultProblem(v *ledger.Verifier, e ledgerEntry) *ledger.Problem {
	if ce, ok := errors.AsType[*local.CorruptEntryError](e.Fault); ok {
		return v.Corrupt(ce.Seq, ce.Err)
	}
	return &ledger.Problem{Seq: e.Seq, RunID: e.RunID, Code: admission.CodeOf(e.Fault), Detail: e.Fault.Error()}
}

func newLedgerInspectCmd() *cobra.Command {
	flags := ledgerFlags{withFile: true}
	var runID string
	cmd := &cobra.Command{
		Use:   "inspect",
		Short: "List a run's records (or every run's) in ledger order",
		Long: `inspect writes one line per record — its place (#N in the local log; @N, its
place in its run's chain of admissions, on a Kafka ledger), time, whole run
id, kind, producer, digest, parents — and what it says. With --brokers it
lists only what the ledger guard admitted, and then the messages it refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			src, err := flags.open(cmd)
			if err != nil {
				return err
			}
			defer src.Close()
			n, err := inspect(cmd.Context(), cmd.OutOrStdout(), src, runID)
			if err != nil {
				return err
			}
			if n == 0 && runID != "" {
				return usageErrorf("%s has no record of run %q (sealgate ledger runs lists them)", src, runID)
			}
			return nil
		},
	}
	flags.register(cmd)
	cmd.Flags().StringVar(&runID, "run", "", "only this run")
	return cmd
}

// inspect writes one line per record and returns how many it wrote. A record
// the ledger cannot read is listed as such; inspect does not judge (verify
// does).
func inspect(ctx context.Context, out io.Writer, src ledgerSource, runID string) (int, error) {
	n := 0
	err := src.Scan(ctx, func(e ledgerEntry) error {
		if e.Fault != nil {
			if runID == "" || e.RunID == runID || e.RunID == "" {
				fmt.Fprintf(out, "%-7s  unreadable: %v\n", e.Label, e.Fault)
			}
			return nil
		}
		if runID != "" && e.RunID != runID {
			return nil
		}
		n++
		rec, err := record.Decode(e.Payload)
		if err != nil {
			fmt.Fprintf(out, "%-7s  undecodable: %v\n", e.Label, err)
			return nil
		}
		r := rec.Record
		parents := make([]string, len(r.Parents))
		for i, p := range r.Parents {
			parents[i] = p[:min(8, len(p))]
		}
		line := fmt.Sprintf("%-7s %s  %s  %-18s  %-22s  %.12s", e.Label,
			time.Unix(0, r.TimeUnixNano).UTC().Format("15:04:05.000"), runOrDash(printable(r.RunId)),
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
		return n, err
	}
	var refused []refusal
	for _, r := range src.Refused() {
		if runID == "" || r.RunID == runID {
			refused = append(refused, r)
		}
	}
	printRefused(out, src, refused)
	return n, nil
}

// runOrDash shows a run id whole, or - for none.
func runOrDash(id string) string {
	if id == "" {
		return "-"
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
	src, err := openLocalSource(filepath.Join(st.dir, ledgerFile), filepath.Join(st.dir, trustFile), true)
	if err != nil {
		return err
	}
	defer src.Close()
	return verifyLedger(ctx, out, src, st.trust)
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
	if _, err := inspect(ctx, out, &localSource{path: filepath.Join(st.dir, ledgerFile), log: st.log}, first.ID); err != nil {
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

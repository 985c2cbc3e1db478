package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

func newLedgerRunsCmd() *cobra.Command {
	flags := ledgerFlags{withFile: true}
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the runs of a ledger: run id, time requested, repository, decision, time to verdict",
		Long: `runs writes one line per run of the ledger — its whole run id, when it was
requested (UTC), its decision (MERGE, BLOCK, INCONCLUSIVE, or open while it
has no verdict), the time from request to verdict, whether the verdict was
sealed, and the repository the request named — sorted by the time requested.
--json writes the same as one JSON object. With --brokers it reads the Kafka
ledger: only what the ledger guard admitted, and it lists what it refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			src, err := flags.open(cmd)
			if err != nil {
				return err
			}
			defer src.Close()
			list, err := listRuns(cmd.Context(), src)
			if err != nil {
				return err
			}
			if asJSON {
				return writeRunsJSON(cmd.OutOrStdout(), src, list)
			}
			writeRuns(cmd.OutOrStdout(), src, list)
			return nil
		},
	}
	flags.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}

// runSummary is one line of `ledger runs`.
type runSummary struct {
	RunID string `json:"run_id"`
	// Requested is when the run was requested; zero when the ledger holds
	// no request for it (a refusal of a record naming an unknown run).
	Requested  time.Time `json:"-"`
	Repository string    `json:"repository,omitempty"`
	// Decision is MERGE, BLOCK, INCONCLUSIVE or open.
	Decision string `json:"decision"`
	// ToVerdict is the time from request to verdict (zero while open).
	ToVerdict time.Duration `json:"-"`
	Sealed    bool          `json:"sealed"`
	Records   int           `json:"records"`

	first time.Time
}

// decisionOpen is the decision of a run without a verdict.
const decisionOpen = "open"

// listRuns reads every run of src, sorted by the time requested (runs
// without a request last, by their first record), then by run id.
func listRuns(ctx context.Context, src ledgerSource) ([]*runSummary, error) {
	runs := map[string]*runSummary{}
	err := src.Scan(ctx, func(e ledgerEntry) error {
		if e.Fault != nil {
			return nil // verify names it; a listing goes on
		}
		rec, err := record.Decode(e.Payload)
		if err != nil {
			return nil
		}
		r := rec.Record
		id := r.GetRunId()
		if id == "" {
			return nil
		}
		s, ok := runs[id]
		if !ok {
			s = &runSummary{RunID: id, Decision: decisionOpen, first: time.Unix(0, r.TimeUnixNano).UTC()}
			runs[id] = s
		}
		s.Records++
		at := time.Unix(0, r.TimeUnixNano).UTC()
		switch {
		case r.GetRunRequested() != nil && s.Requested.IsZero():
			s.Requested, s.Repository = at, r.GetRunRequested().GetRepository()
		case r.GetVerdictReached() != nil && s.Decision == decisionOpen:
			s.Decision = decisionName(r.GetVerdictReached().GetDecision())
			if !s.Requested.IsZero() {
				s.ToVerdict = at.Sub(s.Requested)
			}
		case r.GetVerdictSealed() != nil:
			s.Sealed = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := slices.Collect(maps.Values(runs))
	slices.SortFunc(out, func(a, b *runSummary) int {
		if c := cmp.Compare(boolRank(a.Requested.IsZero()), boolRank(b.Requested.IsZero())); c != 0 {
			return c
		}
		if c := a.sortTime().Compare(b.sortTime()); c != 0 {
			return c
		}
		return strings.Compare(a.RunID, b.RunID)
	})
	return out, nil
}

func (s *runSummary) sortTime() time.Time {
	if s.Requested.IsZero() {
		return s.first
	}
	return s.Requested
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func decisionName(d pb.Decision) string {
	switch d {
	case pb.Decision_DECISION_MERGE:
		return "MERGE"
	case pb.Decision_DECISION_BLOCK:
		return "BLOCK"
	case pb.Decision_DECISION_INCONCLUSIVE:
		return "INCONCLUSIVE"
	}
	// A verdict without a decision decides nothing.
	return "INCONCLUSIVE"
}

func (s *runSummary) requestedText() string {
	if s.Requested.IsZero() {
		return "-"
	}
	return s.Requested.Format(time.RFC3339)
}

func (s *runSummary) toVerdictText() string {
	if s.Decision == decisionOpen || s.Requested.IsZero() {
		return "-"
	}
	if s.ToVerdict < time.Second {
		return s.ToVerdict.Round(time.Millisecond).String()
	}
	return s.ToVerdict.Round(100 * time.Millisecond).String()
}

func writeRuns(w io.Writer, src ledgerSource, runs []*runSummary) {
	if len(runs) == 0 {
		fmt.Fprintf(w, "no runs on %s\n", src)
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RUN\tREQUESTED\tDECISION\tVERDICT AFTER\tSEALED\tRECORDS\tREPOSITORY")
		for _, s := range runs {
			sealed := "no"
			if s.Sealed {
				sealed = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", printable(s.RunID), s.requestedText(), s.Decision, s.toVerdictText(), sealed, s.Records, runOrDash(printable(s.Repository)))
		}
		tw.Flush()
	}
	printRefused(w, src, src.Refused())
}

// printable keeps a recorded string on its line: the repository is the
// requester's words, never trusted.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return '?'
		}
		return r
	}, s)
}

func writeRunsJSON(w io.Writer, src ledgerSource, runs []*runSummary) error {
	type runJSON struct {
		*runSummary
		Requested        string   `json:"requested,omitempty"`
		VerdictAfterSecs *float64 `json:"verdict_after_seconds,omitempty"`
	}
	doc := struct {
		Ledger  string    `json:"ledger"`
		Runs    []runJSON `json:"runs"`
		Refused []refusal `json:"refused"`
	}{Ledger: src.String(), Runs: []runJSON{}, Refused: src.Refused()}
	if doc.Refused == nil {
		doc.Refused = []refusal{}
	}
	for _, s := range runs {
		j := runJSON{runSummary: s}
		if !s.Requested.IsZero() {
			j.Requested = s.Requested.Format(time.RFC3339Nano)
			if s.Decision != decisionOpen {
				secs := s.ToVerdict.Seconds()
				j.VerdictAfterSecs = &secs
			}
		}
		doc.Runs = append(doc.Runs, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return infraErrorf("write: %v", err)
	}
	return nil
}

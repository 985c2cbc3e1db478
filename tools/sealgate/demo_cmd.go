package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	demorepo "github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
)

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	var state string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Build the bundled demo repository and verify its three patches",
		Long: `demo writes the bundled demo Go module with its git history to a temporary
directory and verifies each of its patches with the real services: an honest
fix, a "fix" that breaks a passing test, and a patch that hides the bug by
rewriting the claim's assertion. It prints each verdict and exits 0 when every
decision is the one a correct gate gives, 1 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd.Context(), stdout, stderr, state, verbose)
		},
	}
	cmd.Flags().StringVar(&state, "state", defaultStateDir(), "state directory of embedded mode (the ledger keeps every demo run)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "show each run's progress")
	return cmd
}

type demoRow struct {
	patch, floors, want string
	got                 string
	fixProven           bool
	reason              string
	took                time.Duration
}

func runDemo(ctx context.Context, stdout, stderr io.Writer, state string, verbose bool) error {
	dir, err := os.MkdirTemp("", "sealgate-demo-")
	if err != nil {
		return infraErrorf("%v", err)
	}
	defer os.RemoveAll(dir)
	repo, err := demorepo.Build(ctx, filepath.Join(dir, "calc"))
	if err != nil {
		return infraErrorf("build the demo repository: %v", err)
	}
	fmt.Fprintf(stdout, "demo repository %s, baseline %.12s (TestMedian fails: the bug)\n\n", repo.Dir, repo.Base)
	var rows []demoRow
	for _, p := range repo.Patches {
		type run struct {
			floors string
			zero   bool
			want   string
		}
		runs := []run{{"default", false, expectDefault(p.Expect)}}
		if p.Expect == demorepo.Merge {
			runs = append(runs, run{"0 / 0", true, p.Expect})
		}
		for _, r := range runs {
			o := &verifyOptions{
				repo: repo.Dir, base: repo.Base, patch: p.Commit, claims: p.Claims,
				coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
				strengthConfidence: criteria.DefaultStrengthConfidence, timeout: 10 * time.Minute,
				state: state, sandbox: "auto", reruns: criteria.DefaultStabilityReruns,
			}
			if r.zero {
				o.coverageFloor, o.strengthFloor = 0, 0
			}
			var art bytes.Buffer
			progress := io.Discard
			if verbose {
				progress = stderr
			}
			start := time.Now()
			if _, err := runVerify(ctx, o, &art, progress); err != nil {
				return err
			}
			var a struct {
				Decision  string `json:"decision"`
				Reason    string `json:"reason"`
				FixProven bool   `json:"fix_proven"`
			}
			if err := json.Unmarshal(art.Bytes(), &a); err != nil {
				return infraErrorf("artefact of %s: %v", p.Name, err)
			}
			rows = append(rows, demoRow{patch: p.Name, floors: r.floors, want: r.want, got: a.Decision, fixProven: a.FixProven, reason: a.Reason, took: time.Since(start)})
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATCH\tFLOORS (cov/str)\tVERDICT\tEXPECTED\tFIX PROVEN\tTIME")
	bad := 0
	for _, r := range rows {
		mark := ""
		if r.got != r.want {
			mark = "  <-- unexpected"
			bad++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%.1fs%s\n", r.patch, r.floors, r.got, r.want, r.fixProven, r.took.Seconds(), mark)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	for _, r := range rows {
		fmt.Fprintf(stdout, "%s (%s): %s\n", r.patch, r.floors, r.reason)
	}
	if bad > 0 {
		return failed("%d verdict(s) differ from what a correct gate gives", bad)
	}
	fmt.Fprintln(stdout, "\nevery verdict is the one a correct gate gives; `sealgate ledger inspect` lists the evidence.")
	return nil
}

// expectDefault is the decision with the default floors: until diff
// coverage and mutation strength are measured, an honest fix cannot be
// merged — "not measured" is never "passed".
func expectDefault(withZeroFloors string) string {
	if withZeroFloors == demorepo.Merge {
		return "INCONCLUSIVE"
	}
	return withZeroFloors
}

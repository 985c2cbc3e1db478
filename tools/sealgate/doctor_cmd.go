package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger/doctor"
)

// newDoctorCmd is `sealgate doctor`: it replays the built-in valid run and
// its mutated copies (ledger/doctor) and prints the report to stdout.
func newDoctorCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	var env envDoctor
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Prove the ledger refuses what it must: replay a valid run and one mutated copy per refusal code",
		Long: `doctor replays a valid recorded run, which must be admitted whole, and one
copy of it per refusal code of the ledger, each with one thing changed (a
tampered record, a replayed token, a conflicting result, a record before the
seal, a plan over budget, beyond the sealed fan-out or depth, a revoked key, an
unknown producer, ...). Every copy goes through the same checks as
'sealgate ledger verify' and must be refused for exactly its code, at the
record where the change must be caught. The fixtures are built into the
binary: no state directory is read.

It exits 0 when every check passes and 1 otherwise.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("doctor takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if env.on {
				return env.run(cmd.Context(), stdout)
			}
			return reportDoctor(stdout, doctor.Run(cmd.Context()), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	env.register(cmd)
	return cmd
}

// reportDoctor prints rep as a table or as JSON; it fails (exit 1) unless
// every check passed.
func reportDoctor(w io.Writer, rep doctor.Report, asJSON bool) error {
	if asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return infraErrorf("encode the report: %v", err)
		}
		if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
			return infraErrorf("write the report: %v", err)
		}
	} else if err := writeDoctorReport(w, rep); err != nil {
		return infraErrorf("write the report: %v", err)
	}
	if !rep.OK() {
		return failed("doctor: %d of %d checks failed", rep.Failed, len(rep.Checks))
	}
	return nil
}

// writeDoctorReport prints one line per check, the details of the failed
// ones and a summary.
func writeDoctorReport(w io.Writer, rep doctor.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEXPECTED\tOBSERVED\tPASSED")
	for _, c := range rep.Checks {
		passed := "yes"
		if !c.Passed {
			passed = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Expected, orDash(c.Observed), passed)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rep.Failed > 0 {
		fmt.Fprintln(w)
		for _, c := range rep.Checks {
			if !c.Passed {
				fmt.Fprintf(w, "FAIL %s: expected %s, observed %s\n  changed: %s\n  %s\n", c.ID, c.Expected, orDash(c.Observed), c.Mutation, c.Detail)
			}
		}
	}
	fmt.Fprintln(w)
	codes := 0
	for _, c := range rep.Checks {
		if c.Expected != doctor.Admitted {
			codes++
		}
	}
	if rep.OK() {
		_, err := fmt.Fprintf(w, "ok: %d of %d checks passed: run %s (%d records) is admitted whole, and each of %d mutated copies is refused for exactly its code, at the record where the change must be caught\n",
			rep.Passed, len(rep.Checks), rep.RunID, rep.Records, codes)
		return err
	}
	_, err := fmt.Fprintf(w, "FAIL: %d of %d checks failed\n", rep.Failed, len(rep.Checks))
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

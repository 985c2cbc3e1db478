package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	demorepo "github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/executor/junit"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/signing/tlog/embedded"
)

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	var state, write, lang string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Build a bundled demo repository (Go or Python) and verify its patches",
		Long: `demo writes the bundled demo Go module with its git history to a temporary
directory and verifies each of its patches with the real services: an honest
fix, a "fix" that breaks a passing test, and a patch that hides the bug by
rewriting the claim's assertion. With --lang python it does the same with the
bundled Python project (pytest claims, coverage.py, Python mutants), whose
fourth patch adds a conftest.py hook that rewrites failures into passes. It
prints each verdict and exits 0 when every decision is the one a correct gate
gives, 1 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			build, ok := demoBuilders()[lang]
			if !ok {
				return usageErrorf("--lang %q: want go or python", lang)
			}
			if write != "" {
				return writeDemo(cmd.Context(), stdout, write, build)
			}
			if lang == "python" {
				if err := pythonForDemo(cmd.Context()); err != nil {
					return err
				}
			}
			return runDemo(cmd.Context(), stdout, stderr, state, verbose, lang, build)
		},
	}
	cmd.Flags().StringVar(&state, "state", defaultStateDir(), "state directory of embedded mode (the ledger keeps every demo run)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "show each run's progress")
	cmd.Flags().StringVar(&lang, "lang", "go", "which demo: go (a Go module) or python (a pytest project; needs python3 with pytest and coverage)")
	cmd.Flags().StringVar(&write, "write", "", "only write the demo repository to this new directory and print its commits, to verify by hand")
	return cmd
}

// demoBuild builds a demo repository in a directory.
type demoBuild func(ctx context.Context, dir string) (*demorepo.Repo, error)

// demoBuilders are the bundled demos by --lang.
func demoBuilders() map[string]demoBuild {
	return map[string]demoBuild{"go": demorepo.Build, "python": demorepo.BuildPython}
}

// pythonForDemo checks that the interpreter the gate will pick (the first
// python3 that imports pytest) also has coverage.py, which the demo's
// default floors need.
func pythonForDemo(ctx context.Context) error {
	const hint = "the Python demo needs python3 with pytest and coverage.py: apt-get install python3-pytest python3-coverage"
	py, err := junit.FindPython(ctx)
	if err != nil {
		return usageErrorf("%s (%v)", hint, err)
	}
	if err := exec.CommandContext(ctx, py, "-c", "import coverage").Run(); err != nil {
		return usageErrorf("%s (%s has pytest but not coverage)", hint, py)
	}
	return nil
}

// writeDemo writes the demo repository and prints how to verify its
// patches by hand.
func writeDemo(ctx context.Context, stdout io.Writer, dir string, build demoBuild) error {
	repo, err := build(ctx, dir)
	if err != nil {
		return usageErrorf("%v", err)
	}
	fmt.Fprintf(stdout, "demo repository %s\nbaseline %s\n", repo.Dir, repo.Base)
	for _, p := range repo.Patches {
		fmt.Fprintf(stdout, "\n# %s: %s\nsealgate verify --repo %s --base %s --patch %s", p.Name, p.About, repo.Dir, repo.Base, p.Commit)
		for _, c := range p.Claims {
			fmt.Fprintf(stdout, " --claim %s", c)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

type demoRow struct {
	patch, floors, want string
	got                 string
	fixProven           bool
	coverage, killed    string
	seal, reason        string
	took                time.Duration
}

func runDemo(ctx context.Context, stdout, stderr io.Writer, state string, verbose bool, lang string, build demoBuild) error {
	state, err := absState(state)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "sealgate-demo-")
	if err != nil {
		return infraErrorf("%v", err)
	}
	defer os.RemoveAll(dir)
	repo, err := build(ctx, filepath.Join(dir, lang+"-demo"))
	if err != nil {
		return infraErrorf("build the demo repository: %v", err)
	}
	bug := "TestMedian fails: the bug"
	if lang == "python" {
		bug = "test_percentile[even] fails: the bug"
	}
	fmt.Fprintf(stdout, "demo repository %s, baseline %.12s (%s)\n\n", repo.Dir, repo.Base, bug)
	var rows []demoRow
	bad := 0
	for _, p := range repo.Patches {
		o := &verifyOptions{
			repo: repo.Dir, base: repo.Base, patch: p.Commit, claims: p.Claims,
			coverageFloor: criteria.DefaultCoverageFloor, strengthFloor: criteria.DefaultStrengthFloor,
			strengthConfidence: criteria.DefaultStrengthConfidence, timeout: 10 * time.Minute,
			state: state, sandbox: "auto", reruns: criteria.DefaultStabilityReruns, mutationMax: criteria.DefaultMutationMax,
			tlogKind: tlog.KindEmbedded, attestation: filepath.Join(state, "attestations", lang+"-"+p.Name+".json"),
		}
		if err := os.MkdirAll(filepath.Dir(o.attestation), 0o755); err != nil {
			return infraErrorf("%v", err)
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
			Coverage  struct {
				Ratio *float64 `json:"ratio"`
			} `json:"coverage"`
			Strength struct {
				Killed   int `json:"killed"`
				Survived int `json:"survived"`
			} `json:"strength"`
			Seal struct {
				LogIndex uint64 `json:"log_index"`
			} `json:"seal"`
		}
		if err := json.Unmarshal(art.Bytes(), &a); err != nil {
			return infraErrorf("artefact of %s: %v", p.Name, err)
		}
		// The sealed verdict checks offline, from the bundle and the two
		// public keys alone.
		var report bytes.Buffer
		seal := "refused"
		err := attestVerify(ctx, &report, o.attestation, &attestVerifyOptions{
			repo: repo.Dir, base: repo.Base, patch: p.Commit,
			key: filepath.Join(state, keysDir, verdictPubFile), logKey: filepath.Join(state, tlogDir, embedded.PublicKeyFile),
		})
		if err == nil {
			seal = fmt.Sprintf("log #%d, verified", a.Seal.LogIndex)
		} else {
			fmt.Fprintf(stderr, "%s: attestation: %v\n%s", p.Name, err, report.String())
		}
		cov, killed := "not measured", "-"
		if a.Coverage.Ratio != nil {
			cov = fmt.Sprintf("%.0f%%", 100**a.Coverage.Ratio)
		}
		if n := a.Strength.Killed + a.Strength.Survived; n > 0 {
			killed = fmt.Sprintf("%d/%d", a.Strength.Killed, n)
		}
		rows = append(rows, demoRow{patch: p.Name, floors: "default", want: p.Expect, got: a.Decision, fixProven: a.FixProven,
			coverage: cov, killed: killed, seal: seal, reason: a.Reason, took: time.Since(start)})
		if err != nil {
			bad++
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATCH\tFLOORS (cov/str)\tVERDICT\tEXPECTED\tFIX PROVEN\tCOVERAGE\tMUTANTS KILLED\tSEAL\tTIME")
	for _, r := range rows {
		mark := ""
		if r.got != r.want {
			mark = "  <-- unexpected"
			bad++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\t%s\t%s\t%.1fs%s\n", r.patch, r.floors, r.got, r.want, r.fixProven, r.coverage, r.killed, r.seal, r.took.Seconds(), mark)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	for _, r := range rows {
		fmt.Fprintf(stdout, "%s (%s): %s\n", r.patch, r.floors, r.reason)
	}
	if bad > 0 {
		return failed("%d verdict(s) differ from what a correct gate gives", bad)
	}
	fmt.Fprintf(stdout, "\nevery verdict is the one a correct gate gives, signed and logged. `sealgate ledger inspect` lists the evidence;\n"+
		"the bundles are in %s: check one offline with\n  sealgate attest verify FILE --repo DIR --base REV --patch REV --key %s --log-key %s\n"+
		"(`sealgate demo --write DIR` writes a demo repository that stays).\n",
		filepath.Join(state, "attestations"), filepath.Join(state, keysDir, verdictPubFile), filepath.Join(state, tlogDir, embedded.PublicKeyFile))
	return nil
}

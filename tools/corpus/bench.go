package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sealgate/sealgate/e2e/realworld"
	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
)

// gremlinsPackage is the mutation tester bench compares with, installed
// at bench time through the module proxy (never a dependency of this
// module).
const (
	gremlinsPackage = "github.com/go-gremlins/gremlins/cmd/gremlins"
	gremlinsVersion = "v0.6.0"
)

// rateMutationMax is --mutation-max of the rate run: more than the sites
// of any changed lines in the corpus, so every mutant of them runs.
const rateMutationMax = 200

// benchOptions are bench's flags.
type benchOptions struct {
	binary     string   // the sealgate binary; "" builds one
	gremlins   string   // the gremlins binary; "" installs gremlinsVersion
	buildCache string   // the Go build cache of every tool
	jsonOut    string   // file for the report as JSON; "" for none
	extra      []string // more flags for every verify
}

// benchReport is one bench run: the machine's conditions and a row per
// case.
type benchReport struct {
	Date       string     `json:"date"`
	GoVersion  string     `json:"go_version"`
	CPUs       int        `json:"cpus"`
	LoadBefore string     `json:"load_before"` // /proc/loadavg's 1, 5, 15 minute averages
	LoadAfter  string     `json:"load_after"`
	Sealgate   string     `json:"sealgate"` // `sealgate version`
	Gremlins   string     `json:"gremlins"`
	BuildCache string     `json:"build_cache"`
	ModCache   string     `json:"mod_cache"`
	Rows       []benchRow `json:"rows"`
}

// benchRow is one case measured side by side by every tool.
type benchRow struct {
	Fix  string `json:"fix"`
	Kind string `json:"kind"`
	// Minimal is plain go test of the claims and the suite on both sides.
	Minimal minimalWork `json:"minimal"`
	// Decide is sealgate without mutation, coverage at its default floor.
	Decide sealgateRun `json:"decide"`
	// DecideNoFloors is sealgate without mutation or coverage.
	DecideNoFloors sealgateRun `json:"decide_no_floors"`
	// Default is sealgate at its default settings (mutation on).
	Default sealgateRun `json:"default"`
	// Rate is sealgate with every mutant of the changed lines, measured
	// even once the verdict is certain (--full-evidence).
	Rate sealgateRun `json:"rate"`
	// RateBase is Rate without mutation, run just before it: the wall
	// time mutation adds is the difference, its preparation included
	// wherever it ran — inside the phase Rate.Mutation times or, were any
	// of it moved earlier, beside the claims and suites it would slow.
	RateBase sealgateRun `json:"rate_base"`
	// Gremlins is gremlins unleash --diff on the patch's tree.
	Gremlins gremlinsRun `json:"gremlins"`
}

// step is one process of the minimal work.
type step struct {
	Name     string   `json:"name"`
	Args     []string `json:"args"`
	ExitCode int      `json:"exit_code"`
	WallMS   int64    `json:"wall_ms"`
}

// minimalWork is what any gate must run at least: the claims on both
// sides and the whole suite on both sides, one process after another.
type minimalWork struct {
	Steps    []step `json:"steps"`
	WallMS   int64  `json:"wall_ms"`
	WarmupMS int64  `json:"warmup_ms"` // the same steps run once before, untimed for the ratio
	Error    string `json:"error,omitempty"`
}

// sealgateRun is one `sealgate verify`.
type sealgateRun struct {
	Flags    []string       `json:"flags"`
	ExitCode int            `json:"exit_code"`
	Decision string         `json:"decision"` // "" when no verdict came out
	Sandbox  string         `json:"sandbox,omitempty"`
	WallMS   int64          `json:"wall_ms"`
	Mutation *mutationPhase `json:"mutation,omitempty"`
	// NoMutation says why no mutant ran, when none did.
	NoMutation string `json:"no_mutation,omitempty"`
	Error      string `json:"error,omitempty"`
}

// mutationPhase is what the ledger says of a run's mutation: from the
// coverage.measured record the mutation service starts from to the
// strength.measured record it ends with. The schemata build and the
// reference runs happen inside it (in the first mutant job).
type mutationPhase struct {
	Mutants   int `json:"mutants"` // mutant jobs that ran
	Killed    int `json:"killed"`
	Survived  int `json:"survived"`
	Stillborn int `json:"stillborn"`
	// PhaseMS is strength.measured's time minus coverage.measured's.
	PhaseMS int64 `json:"phase_ms"`
	// OtherJobsMS is the summed wall time of the other jobs whose results
	// fall inside the phase (a claim run that waited for coverage): part
	// of PhaseMS, not of the mutation.
	OtherJobsMS int64 `json:"other_jobs_ms"`
	// CoverageJobsMS is the summed wall time of the coverage jobs before
	// the phase: what the mutants need to know which tests reach them.
	CoverageJobsMS int64 `json:"coverage_jobs_ms"`
	// Where the phase goes: PlanMS from coverage.measured to the
	// job.planned of the first mutant (sites, type-checking, the
	// schemata source); FirstMutantMS the first mutant job (the schemata
	// build and the reference runs happen in it); RestMS the other
	// mutant jobs.
	PlanMS        int64 `json:"plan_ms"`
	FirstMutantMS int64 `json:"first_mutant_ms"`
	RestMS        int64 `json:"rest_ms"`
	// SlowestMS is the longest of the other mutant jobs: one that hangs
	// runs until a limit stops it.
	SlowestMS int64 `json:"slowest_ms"`
}

// perMinute returns n per minute of ms.
func perMinute(n int, ms int64) float64 {
	if ms <= 0 {
		return 0
	}
	return float64(n) * 60000 / float64(ms)
}

// Rate is mutants per minute of the mutation phase.
func (m *mutationPhase) Rate() float64 { return perMinute(m.Mutants, m.PhaseMS) }

// RateWithCoverage is mutants per minute of the mutation phase plus the
// coverage jobs: the same span a gremlins run covers (it measures its own
// coverage first).
func (m *mutationPhase) RateWithCoverage() float64 {
	return perMinute(m.Mutants, m.PhaseMS+m.CoverageJobsMS)
}

// gremlinsRun is one `gremlins unleash`.
type gremlinsRun struct {
	Args     []string       `json:"args"`
	ExitCode int            `json:"exit_code"`
	WallMS   int64          `json:"wall_ms"`
	WarmupMS int64          `json:"warmup_ms"` // the --dry-run before it
	Counts   *gremlinsCount `json:"counts,omitempty"`
	Error    string         `json:"error,omitempty"`
}

// Rate is mutants per minute of the whole gremlins process.
func (g gremlinsRun) Rate() float64 {
	if g.Counts == nil {
		return 0
	}
	return perMinute(g.Counts.Ran(), g.WallMS)
}

// gremlinsCount is gremlins' --output file, counted by status.
type gremlinsCount struct {
	Killed     int `json:"killed"`
	Lived      int `json:"lived"`
	TimedOut   int `json:"timed_out"`
	NotViable  int `json:"not_viable"`
	NotCovered int `json:"not_covered"`
	Skipped    int `json:"skipped"`
	Runnable   int `json:"runnable"`
}

// Ran is the mutants gremlins ran a test process for.
func (c gremlinsCount) Ran() int { return c.Killed + c.Lived + c.TimedOut + c.NotViable }

// maxGremlinsOutput bounds the output file read: a diff's mutants are a
// few kilobytes.
const maxGremlinsOutput = 64 << 20

// parseGremlins reads gremlins' --output JSON (internal/report of
// v0.6.0): one object whose files list every mutant with one of the
// statuses gremlins prints. Its totals must agree with the list; an
// unknown status or field, a second value or a disagreement is an error,
// never a guess.
func parseGremlins(data []byte) (gremlinsCount, error) {
	var out struct {
		GoModule          string   `json:"go_module"`
		TestEfficacy      *float64 `json:"test_efficacy"`
		MutationsCoverage *float64 `json:"mutations_coverage"`
		MutantsTotal      *int     `json:"mutants_total"`
		MutantsKilled     *int     `json:"mutants_killed"`
		MutantsLived      *int     `json:"mutants_lived"`
		MutantsNotViable  *int     `json:"mutants_not_viable"`
		MutantsNotCovered *int     `json:"mutants_not_covered"`
		ElapsedTime       *float64 `json:"elapsed_time"`
		MutatorStatistics any      `json:"mutator_statistics"`
		Files             []struct {
			FileName  string `json:"file_name"`
			Mutations []struct {
				Type   string `json:"type"`
				Status string `json:"status"`
				Line   int    `json:"line"`
				Column int    `json:"column"`
			} `json:"mutations"`
		} `json:"files"`
	}
	var c gremlinsCount
	if len(data) > maxGremlinsOutput {
		return c, fmt.Errorf("gremlins output: %d bytes, over %d", len(data), maxGremlinsOutput)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return c, fmt.Errorf("gremlins output: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return c, errors.New("gremlins output: more after the JSON object")
	}
	if out.MutantsKilled == nil || out.MutantsLived == nil || out.MutantsNotViable == nil || out.MutantsNotCovered == nil || out.MutantsTotal == nil {
		return c, errors.New("gremlins output: no mutant totals")
	}
	for _, f := range out.Files {
		if f.FileName == "" {
			return c, errors.New("gremlins output: a file without a name")
		}
		for _, m := range f.Mutations {
			if m.Line < 1 || m.Column < 1 {
				return c, fmt.Errorf("gremlins output: %s: a mutant at line %d, column %d", f.FileName, m.Line, m.Column)
			}
			switch m.Status {
			case "KILLED":
				c.Killed++
			case "LIVED":
				c.Lived++
			case "TIMED OUT":
				c.TimedOut++
			case "NOT VIABLE":
				c.NotViable++
			case "NOT COVERED":
				c.NotCovered++
			case "SKIPPED":
				c.Skipped++
			case "RUNNABLE":
				c.Runnable++
			default:
				return c, fmt.Errorf("gremlins output: %s:%d: unknown status %q", f.FileName, m.Line, m.Status)
			}
		}
	}
	if *out.MutantsKilled != c.Killed || *out.MutantsLived != c.Lived || *out.MutantsNotViable != c.NotViable ||
		*out.MutantsNotCovered != c.NotCovered || *out.MutantsTotal != c.Killed+c.Lived+c.NotViable {
		return c, fmt.Errorf("gremlins output: totals (killed %d, lived %d, not viable %d, not covered %d, total %d) disagree with the mutants listed (%d, %d, %d, %d)",
			*out.MutantsKilled, *out.MutantsLived, *out.MutantsNotViable, *out.MutantsNotCovered, *out.MutantsTotal, c.Killed, c.Lived, c.NotViable, c.NotCovered)
	}
	return c, nil
}

// event is one ledger record of a run, as far as timing goes.
type event struct {
	Kind   string   // record.KindName
	At     int64    // the record's time, Unix nanoseconds
	Job    string   // a job result's job id
	WallNS int64    // a job result's process wall time
	Jobs   []string // a job.planned's job ids
}

// mutationPhaseOf finds the mutation phase in a run's events, in ledger
// order: from the last coverage.measured before the strength.measured to
// that strength.measured, with the mutant jobs and any other job results
// inside it and the coverage jobs before it.
func mutationPhaseOf(events []event) (*mutationPhase, error) {
	end := slices.IndexFunc(events, func(e event) bool { return e.Kind == "strength.measured" })
	if end < 0 {
		return nil, errors.New("no strength.measured record: mutation did not run")
	}
	start := -1
	for i := end - 1; i >= 0; i-- {
		if events[i].Kind == "coverage.measured" {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, errors.New("no coverage.measured record before strength.measured")
	}
	if events[end].At < events[start].At {
		return nil, errors.New("strength.measured is older than coverage.measured")
	}
	ms := func(ns int64) int64 { return ns / int64(time.Millisecond) }
	m := &mutationPhase{PhaseMS: ms(events[end].At - events[start].At)}
	planned := false
	for i, e := range events[:end] {
		switch {
		case e.Kind == "job.planned" && i > start && !planned && slices.ContainsFunc(e.Jobs, isMutantJob):
			planned = true
			m.PlanMS = ms(e.At - events[start].At)
		case e.Kind != "job.result":
		case strings.HasPrefix(e.Job, "coverage/") && i < start:
			m.CoverageJobsMS += ms(e.WallNS)
		case isMutantJob(e.Job) && i > start:
			if m.Mutants == 0 {
				m.FirstMutantMS = ms(e.WallNS)
			} else {
				m.RestMS += ms(e.WallNS)
				m.SlowestMS = max(m.SlowestMS, ms(e.WallNS))
			}
			m.Mutants++
		case i > start:
			m.OtherJobsMS += ms(e.WallNS)
		}
	}
	if m.Mutants == 0 || !planned {
		return nil, errors.New("no mutant job was planned and ran between coverage.measured and strength.measured")
	}
	return m, nil
}

func isMutantJob(id string) bool { return strings.HasPrefix(id, "mutant/") }

// readEvents reads run's records from the ledger of a state directory.
func readEvents(ctx context.Context, state, run string) ([]event, error) {
	log, err := local.OpenReadOnly(filepath.Join(state, "ledger.db"), local.Options{})
	if err != nil {
		return nil, fmt.Errorf("open the ledger: %w", err)
	}
	defer log.Close()
	var events []event
	err = log.Scan(ctx, 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Topic != ledger.Topic || e.Metadata[ledger.MetaRunID] != run {
			return nil
		}
		rec, err := record.Decode(e.Payload)
		if err != nil {
			return fmt.Errorf("record %d: %w", e.Seq, err)
		}
		ev := event{Kind: record.KindName(rec.Kind), At: rec.Record.GetTimeUnixNano()}
		if jr := rec.Record.GetJobResult(); jr != nil {
			ev.Job, ev.WallNS = jr.GetJobId(), jr.GetWallNanos()
		}
		for _, j := range rec.Record.GetJobPlanned().GetJobs() {
			ev.Jobs = append(ev.Jobs, j.GetJobId())
		}
		events = append(events, ev)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the ledger: %w", err)
	}
	return events, nil
}

// bench measures every case of every fix side by side: the minimal work,
// sealgate without and with mutation, and gremlins, with one build cache
// and one module cache for all of them.
func bench(ctx context.Context, o benchOptions, fixes []realworld.Fix, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "corpus-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rep := benchReport{Date: time.Now().UTC().Format(time.RFC3339), GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), LoadBefore: loadavg()}
	if rep.BuildCache, err = filepath.Abs(o.buildCache); err != nil {
		return err
	}
	if err := os.MkdirAll(rep.BuildCache, 0o755); err != nil {
		return err
	}
	o.buildCache = rep.BuildCache
	modcache, err := exec.CommandContext(ctx, "go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	rep.ModCache = strings.TrimSpace(string(modcache))
	if o.binary == "" {
		o.binary = filepath.Join(tmp, "sealgate")
		fmt.Fprintln(stderr, "corpus: building sealgate")
		build := exec.CommandContext(ctx, "go", "build", "-o", o.binary, "github.com/sealgate/sealgate/tools/sealgate")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %w\n%s", err, out)
		}
	}
	if v, err := exec.CommandContext(ctx, o.binary, "version").Output(); err == nil {
		rep.Sealgate = strings.TrimSpace(string(v))
	}
	if o.gremlins == "" {
		if o.gremlins, err = installGremlins(ctx, tmp, stderr); err != nil {
			return err
		}
		rep.Gremlins = gremlinsPackage + "@" + gremlinsVersion
	} else {
		v, _ := exec.CommandContext(ctx, o.gremlins, "--version").Output()
		rep.Gremlins = o.gremlins + " (" + strings.TrimSpace(string(v)) + ")"
	}
	for _, f := range fixes {
		repo, err := realworld.Build(ctx, filepath.Join(tmp, "repos", f.Name), f, realworld.Proxy{})
		if err != nil {
			return err
		}
		for _, c := range repo.Cases() {
			r, err := benchCase(ctx, o, tmp, repo, c, stderr)
			if err != nil {
				return err
			}
			rep.Rows = append(rep.Rows, r)
		}
	}
	rep.LoadAfter = loadavg()
	printBench(stdout, rep)
	if o.jsonOut != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// installGremlins installs gremlins into a directory under tmp with go
// install through the module proxy, outside this module.
func installGremlins(ctx context.Context, tmp string, stderr io.Writer) (string, error) {
	gobin := filepath.Join(tmp, "gobin")
	fmt.Fprintf(stderr, "corpus: installing %s@%s\n", gremlinsPackage, gremlinsVersion)
	cmd := exec.CommandContext(ctx, "go", "install", gremlinsPackage+"@"+gremlinsVersion)
	cmd.Dir = tmp // outside any module: nothing is added to go.mod
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s@%s: %w\n%s", gremlinsPackage, gremlinsVersion, err, tail(string(out), 20))
	}
	return filepath.Join(gobin, "gremlins"), nil
}

// loadavg returns the load averages, or "unknown".
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// benchCase measures one case.
func benchCase(ctx context.Context, o benchOptions, tmp string, repo *realworld.Repo, c realworld.Case, stderr io.Writer) (benchRow, error) {
	f := repo.Fix
	r := benchRow{Fix: f.Name, Kind: c.Kind}
	work := filepath.Join(tmp, "work", f.Name, c.Kind)
	trees, err := checkoutTrees(ctx, repo.Dir, work, c)
	if err != nil {
		return r, err
	}
	fmt.Fprintf(stderr, "corpus: %s %s: minimal work\n", f.Name, c.Kind)
	r.Minimal = minimal(ctx, o.buildCache, tmp, trees, c.Claims)
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	fmt.Fprintf(stderr, "corpus: %s %s: minimal %.1f s (warm-up %.1f s)\n", f.Name, c.Kind, sec(r.Minimal.WallMS), sec(r.Minimal.WarmupMS))
	noMutation := []string{"--mutation-max", "0", "--strength-floor", "0"}
	// The first verification warms the gate's build cache for this
	// case's trees, as the warm-up run warms plain go test's; it is not
	// a figure.
	warm := runSealgate(ctx, o, tmp, repo, c, noMutation)
	fmt.Fprintf(stderr, "corpus: %s %s: sealgate warm-up %s in %.1f s\n", f.Name, c.Kind, or(warm.Decision, "no verdict"), sec(warm.WallMS))
	for _, v := range []struct {
		dst   *sealgateRun
		flags []string
	}{
		{&r.Decide, noMutation},
		{&r.DecideNoFloors, []string{"--mutation-max", "0", "--coverage-floor", "0", "--strength-floor", "0"}},
		{&r.Default, nil},
		{&r.RateBase, []string{"--mutation-max", "0", "--strength-floor", "0", "--full-evidence"}},
		{&r.Rate, []string{"--mutation-max", fmt.Sprint(rateMutationMax), "--full-evidence"}},
	} {
		*v.dst = runSealgate(ctx, o, tmp, repo, c, v.flags)
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		fmt.Fprintf(stderr, "corpus: %s %s: sealgate %s: %s in %.1f s%s\n", f.Name, c.Kind, flagsLabel(v.flags), or(v.dst.Decision, "no verdict"), sec(v.dst.WallMS), errNote(v.dst.Error))
	}
	r.Gremlins = runGremlins(ctx, o, tmp, trees.patch, c.Base)
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	fmt.Fprintf(stderr, "corpus: %s %s: gremlins %d mutants in %.1f s%s\n", f.Name, c.Kind, r.Gremlins.ran(), sec(r.Gremlins.WallMS), errNote(r.Gremlins.Error))
	return r, nil
}

func (g gremlinsRun) ran() int {
	if g.Counts == nil {
		return 0
	}
	return g.Counts.Ran()
}

func sec(ms int64) float64 { return float64(ms) / 1000 }

func errNote(s string) string {
	if s == "" {
		return ""
	}
	return " — " + s
}

func flagsLabel(flags []string) string {
	if len(flags) == 0 {
		return "(defaults)"
	}
	return strings.Join(flags, " ")
}

// caseTrees are a case's checkouts, each at a fixed path.
type caseTrees struct {
	base      string // the baseline
	baseTests string // the baseline with the patch's test files: where the claims run on the baseline side
	patch     string // the patch
}

// checkoutTrees checks out a case's trees under work with git worktree
// (the patch's keeps the repository's history, for gremlins --diff).
func checkoutTrees(ctx context.Context, repo, work string, c realworld.Case) (caseTrees, error) {
	t := caseTrees{base: filepath.Join(work, "base"), baseTests: filepath.Join(work, "base-tests"), patch: filepath.Join(work, "patch")}
	for _, w := range []struct{ dir, commit string }{{t.base, c.Base}, {t.baseTests, c.Base}, {t.patch, c.Patch}} {
		if _, err := gitOut(ctx, repo, "worktree", "add", "--quiet", "--detach", w.dir, w.commit); err != nil {
			return t, err
		}
	}
	changed, err := gitOut(ctx, repo, "diff", "--no-renames", "--name-only", "-z", c.Base, c.Patch)
	if err != nil {
		return t, err
	}
	for _, p := range strings.Split(strings.TrimRight(changed, "\x00"), "\x00") {
		if p == "" || !realworld.IsTest(p) {
			continue
		}
		if _, err := gitOut(ctx, t.baseTests, "cat-file", "-e", c.Patch+":"+p); err != nil {
			if err := os.Remove(filepath.Join(t.baseTests, filepath.FromSlash(p))); err != nil && !os.IsNotExist(err) {
				return t, err
			}
			continue
		}
		if _, err := gitOut(ctx, t.baseTests, "checkout", c.Patch, "--", p); err != nil {
			return t, err
		}
	}
	return t, nil
}

// gitOut runs git in dir and returns its standard output.
func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(se.String()))
	}
	return so.String(), nil
}

// toolEnv is the environment of plain go test and gremlins: the caller's
// with the shared build cache, the default module cache (sealgate's) and
// this toolchain.
func toolEnv(buildCache, tmp, goflags string) []string {
	return append(os.Environ(), "GOCACHE="+buildCache, "GOFLAGS="+goflags, "GOWORK=off", "GOTOOLCHAIN=local", "TMPDIR="+tmp)
}

// minimal runs the minimal work twice, the first time to warm the caches
// for these paths, and reports the second.
func minimal(ctx context.Context, buildCache, tmp string, t caseTrees, claims []string) minimalWork {
	byPkg := map[string][]string{}
	for _, c := range claims {
		pkg, test, _ := strings.Cut(strings.TrimPrefix(c, "go:"), ":")
		byPkg[pkg] = append(byPkg[pkg], regexp.QuoteMeta(test))
	}
	type proc struct {
		name, dir string
		args      []string
	}
	var procs []proc
	for _, side := range []struct{ name, dir string }{{"claims on the baseline", t.baseTests}, {"claims on the patch", t.patch}} {
		for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
			procs = append(procs, proc{side.name, side.dir, []string{"test", "-count=1", "-run", "^(" + strings.Join(byPkg[pkg], "|") + ")$", pkg}})
		}
	}
	procs = append(procs, proc{"suite on the baseline", t.base, []string{"test", "-count=1", "./..."}}, proc{"suite on the patch", t.patch, []string{"test", "-count=1", "./..."}})
	var m minimalWork
	for round := range 2 {
		var steps []step
		var total int64
		for _, p := range procs {
			cmd := exec.CommandContext(ctx, "go", p.args...)
			cmd.Dir = p.dir
			cmd.Env = toolEnv(buildCache, tmp, "")
			start := time.Now()
			err := cmd.Run() // a failing claim exits 1: only the time counts
			s := step{Name: p.name, Args: append([]string{"go"}, p.args...), WallMS: time.Since(start).Milliseconds()}
			var exit *exec.ExitError
			switch {
			case errors.As(err, &exit):
				s.ExitCode = exit.ExitCode()
			case err != nil:
				m.Error = fmt.Sprintf("%s: %v", p.name, err)
				return m
			}
			steps = append(steps, s)
			total += s.WallMS
		}
		if round == 0 {
			m.WarmupMS = total
			continue
		}
		m.Steps, m.WallMS = steps, total
	}
	return m
}

// runSealgate runs one `sealgate verify` of case c with a fresh state
// directory, the shared build cache and flags, and reads its verdict and,
// when mutants ran, its mutation phase from the ledger.
func runSealgate(ctx context.Context, o benchOptions, tmp string, repo *realworld.Repo, c realworld.Case, flags []string) sealgateRun {
	r := sealgateRun{Flags: slices.Clone(flags)}
	if r.Flags == nil {
		r.Flags = []string{}
	}
	state, err := os.MkdirTemp(tmp, "state-")
	if err != nil {
		r.Error = err.Error()
		return r
	}
	defer os.RemoveAll(state)
	args := append(verifyArgs(repo, c), "--state", state, "--build-cache", o.buildCache)
	args = append(append(args, flags...), o.extra...)
	cmd := exec.CommandContext(ctx, o.binary, args...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	err = cmd.Run()
	r.WallMS = time.Since(start).Milliseconds()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	case err != nil:
		r.Error = err.Error()
		return r
	}
	v, err := realworld.ParseVerdict(so.Bytes())
	if err != nil || r.ExitCode > 2 {
		r.Error = fmt.Sprintf("no verdict (exit %d): %s", r.ExitCode, strings.ReplaceAll(tail(se.String(), 3), "\n", " "))
		return r
	}
	r.Decision = v.Decision
	var extra struct {
		RunID   string `json:"run_id"`
		Sandbox *struct {
			Name string `json:"name"`
		} `json:"sandbox"`
	}
	if err := json.Unmarshal(so.Bytes(), &extra); err != nil || extra.RunID == "" {
		r.Error = "the artefact names no run"
		return r
	}
	if extra.Sandbox != nil {
		r.Sandbox = extra.Sandbox.Name
	}
	if s := v.Strength; s == nil || s.Source != "computed" {
		// No mutant ran: nothing to time; say why.
		switch {
		case s == nil:
			r.NoMutation = "no strength in the artefact"
		case s.Reason != "":
			r.NoMutation = s.Reason
		default:
			r.NoMutation = "strength " + or(s.Source, "not measured")
		}
		return r
	}
	events, err := readEvents(ctx, state, extra.RunID)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	m, err := mutationPhaseOf(events)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	m.Killed, m.Survived, m.Stillborn = v.Strength.Killed, v.Strength.Survived, v.Strength.Stillborn
	r.Mutation = m
	return r
}

// runGremlins runs gremlins unleash --diff base in the patch's tree with
// one worker (sealgate runs one mutant at a time), after a --dry-run that
// warms the build cache for its coverage run. GOFLAGS=-count=1: gremlins
// times the coverage run to set each mutant's timeout, and a cached
// coverage run makes that timeout too short (its mutants "time out").
func runGremlins(ctx context.Context, o benchOptions, tmp, dir, base string) gremlinsRun {
	gtmp, err := os.MkdirTemp(tmp, "gremlins-")
	if err != nil {
		return gremlinsRun{Error: err.Error()}
	}
	defer os.RemoveAll(gtmp)
	output := filepath.Join(gtmp, "output.json")
	g := gremlinsRun{Args: []string{"unleash", "--diff", base, "--workers", "1", "--output", output}}
	run := func(args []string) (int64, int, string, error) {
		cmd := exec.CommandContext(ctx, o.gremlins, args...)
		cmd.Dir = dir
		cmd.Env = toolEnv(o.buildCache, gtmp, "-count=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		ms := time.Since(start).Milliseconds()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return ms, exit.ExitCode(), out.String(), nil
		}
		return ms, 0, out.String(), err
	}
	ms, _, _, err := run([]string{"unleash", "--dry-run", "--diff", base, "--workers", "1"})
	if err != nil {
		g.Error = err.Error()
		return g
	}
	g.WarmupMS = ms
	ms, code, out, err := run(g.Args)
	g.WallMS, g.ExitCode = ms, code
	if err != nil {
		g.Error = err.Error()
		return g
	}
	data, err := os.ReadFile(output)
	if err != nil {
		g.Error = fmt.Sprintf("no output (exit %d): %s", code, gremlinsFailure(out))
		return g
	}
	counts, err := parseGremlins(data)
	if err != nil {
		g.Error = err.Error()
		return g
	}
	g.Counts = &counts
	return g
}

// gremlinsFailure is the gist of a failed gremlins run's output: its
// error line and the first failing test, if any.
func gremlinsFailure(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "--- FAIL") || strings.Contains(l, "impossible") || strings.HasPrefix(l, "Error") || strings.HasPrefix(l, "FAIL") {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return strings.ReplaceAll(tail(out, 3), "\n", " ")
	}
	if len(keep) > 4 {
		keep = keep[:4]
	}
	return strings.Join(keep, "; ")
}

// benchTable prints the tables of a report bench -json wrote to file.
func benchTable(file string, stdout io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var rep benchReport
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	printBench(stdout, rep)
	return nil
}

// printBench writes the report as the Markdown of docs/benchmarks.md: the
// conditions, the time to a verdict against the minimal work, the
// mutation rate against gremlins, and the medians.
func printBench(w io.Writer, rep benchReport) {
	fmt.Fprintf(w, "Measured %s: %d CPUs, load average %s before, %s after; %s; sealgate %s; %s.\n",
		rep.Date, rep.CPUs, rep.LoadBefore, rep.LoadAfter, rep.GoVersion, or(rep.Sealgate, "unknown"), or(rep.Gremlins, "gremlins unknown"))
	fmt.Fprintf(w, "Every tool: build cache %s, module cache %s, both warm.\n\n", rep.BuildCache, rep.ModCache)

	fmt.Fprintln(w, "| fix | case | minimal work | no mutation (coverage floor 1) | × minimal | no mutation, floors 0 | × minimal | default (≤ 20 mutants) | × minimal |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	var decide, noFloors, def []float64
	for _, r := range rep.Rows {
		min := "—"
		if r.Minimal.Error == "" {
			min = fmt.Sprintf("%.1f s", sec(r.Minimal.WallMS))
		}
		cells := []string{r.Fix, r.Kind, min}
		for _, v := range []struct {
			run *sealgateRun
			acc *[]float64
		}{{&r.Decide, &decide}, {&r.DecideNoFloors, &noFloors}, {&r.Default, &def}} {
			cells = append(cells, verdictCell(*v.run))
			ratio, ok := ratioOf(v.run, r.Minimal)
			if !ok {
				cells = append(cells, "—")
				continue
			}
			*v.acc = append(*v.acc, ratio)
			cells = append(cells, fmt.Sprintf("%.1f×", ratio))
		}
		writeRow(w, cells)
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "| fix | case | sealgate mutants k/s/sb (--mutation-max %d) | mutation phase | other jobs in it | mutants / min | coverage jobs | mutants / min with coverage | gremlins mutants k/l/to/nv | gremlins wall | gremlins mutants / min | sealgate ÷ gremlins | with coverage ÷ gremlins |\n", rateMutationMax)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var rates, ratesCov []float64
	for _, r := range rep.Rows {
		cells := []string{r.Fix, r.Kind, "—", "—", "—", "—", "—", "—", "—", "—", "—", "—", "—"}
		m := r.Rate.Mutation
		if m != nil {
			cells[2] = fmt.Sprintf("%d (%d/%d/%d)", m.Mutants, m.Killed, m.Survived, m.Stillborn)
			cells[3] = fmt.Sprintf("%.1f s", sec(m.PhaseMS))
			cells[4] = fmt.Sprintf("%.1f s", sec(m.OtherJobsMS))
			cells[5] = fmt.Sprintf("%.0f", m.Rate())
			cells[6] = fmt.Sprintf("%.1f s", sec(m.CoverageJobsMS))
			cells[7] = fmt.Sprintf("%.0f", m.RateWithCoverage())
		} else {
			cells[2] = "none: " + or(r.Rate.Error, or(r.Rate.NoMutation, "no verdict"))
		}
		g := r.Gremlins
		if g.Counts != nil {
			cells[8] = fmt.Sprintf("%d (%d/%d/%d/%d)", g.Counts.Ran(), g.Counts.Killed, g.Counts.Lived, g.Counts.TimedOut, g.Counts.NotViable)
			cells[9] = fmt.Sprintf("%.1f s", sec(g.WallMS))
			cells[10] = fmt.Sprintf("%.0f", g.Rate())
		} else {
			cells[8] = "none: " + or(g.Error, "no output")
		}
		if m != nil && g.Counts != nil && g.Rate() > 0 && m.Rate() > 0 {
			ratio, ratioCov := m.Rate()/g.Rate(), m.RateWithCoverage()/g.Rate()
			rates, ratesCov = append(rates, ratio), append(ratesCov, ratioCov)
			cells[11], cells[12] = fmt.Sprintf("%.1f×", ratio), fmt.Sprintf("%.1f×", ratioCov)
		}
		writeRow(w, cells)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "| fix | case | sealgate: planning (sites, schemata source) | first mutant job (schemata build, reference runs) | other mutants | per other mutant | slowest other mutant | gremlins per mutant (wall ÷ mutants) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range rep.Rows {
		m, g := r.Rate.Mutation, r.Gremlins
		if m == nil && g.Counts == nil {
			continue
		}
		cells := []string{r.Fix, r.Kind, "—", "—", "—", "—", "—", "—"}
		if m != nil {
			cells[2] = fmt.Sprintf("%.1f s", sec(m.PlanMS))
			cells[3] = fmt.Sprintf("%.1f s", sec(m.FirstMutantMS))
			cells[4] = fmt.Sprintf("%d in %.1f s", m.Mutants-1, sec(m.RestMS))
			if m.Mutants > 1 {
				cells[5] = fmt.Sprintf("%d ms", m.RestMS/int64(m.Mutants-1))
				cells[6] = fmt.Sprintf("%.1f s", sec(m.SlowestMS))
			}
		}
		if g.Counts != nil && g.Counts.Ran() > 0 {
			cells[7] = fmt.Sprintf("%d ms", g.WallMS/int64(g.Counts.Ran()))
		}
		writeRow(w, cells)
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "| fix | case | --full-evidence, no mutation | the same, --mutation-max %d | added by mutation | mutants / min of the added time | ÷ gremlins |\n", rateMutationMax)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	var added []float64
	for _, r := range rep.Rows {
		m, g := r.Rate.Mutation, r.Gremlins
		if m == nil || r.RateBase.Decision == "" {
			continue
		}
		cells := []string{r.Fix, r.Kind, verdictCell(r.RateBase), verdictCell(r.Rate), "—", "—", "—"}
		if d := r.Rate.WallMS - r.RateBase.WallMS; d > 0 {
			cells[4] = fmt.Sprintf("%.1f s", sec(d))
			rate := perMinute(m.Mutants, d)
			cells[5] = fmt.Sprintf("%.0f", rate)
			if g.Counts != nil && g.Rate() > 0 {
				added = append(added, rate/g.Rate())
				cells[6] = fmt.Sprintf("%.1f×", rate/g.Rate())
			}
		} else {
			cells[4] = fmt.Sprintf("%.1f s (no more than the noise between two runs)", sec(d))
		}
		writeRow(w, cells)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "- time to a verdict without mutation, coverage at its floor: %s\n", summary(decide, 3, "within 3× of the minimal work", false))
	fmt.Fprintf(w, "- time to a verdict without mutation or coverage (floors 0): %s\n", summary(noFloors, 3, "within 3× of the minimal work", false))
	fmt.Fprintf(w, "- time to a verdict at the default settings: %s\n", summary(def, 3, "within 3× of the minimal work", false))
	fmt.Fprintf(w, "- mutants per minute, sealgate ÷ gremlins: %s\n", summary(rates, 5, "at 5× or more", true))
	fmt.Fprintf(w, "- the same with sealgate's coverage jobs counted: %s\n", summary(ratesCov, 5, "at 5× or more", true))
	fmt.Fprintf(w, "- mutants per minute of the wall time mutation adds to a verification (preparation included, wherever it ran), sealgate ÷ gremlins: %s\n", summary(added, 5, "at 5× or more", true))
	var total struct{ minimal, decide, noFloors, def, rate, gremlins int64 }
	for _, r := range rep.Rows {
		total.minimal += r.Minimal.WallMS
		total.decide += r.Decide.WallMS
		total.noFloors += r.DecideNoFloors.WallMS
		total.def += r.Default.WallMS
		total.rate += r.Rate.WallMS
		total.gremlins += r.Gremlins.WallMS
	}
	fmt.Fprintf(w, "- wall time over the %d cases: minimal work %.1f s; sealgate without mutation %.1f s, floors 0 %.1f s, defaults %.1f s, --mutation-max %d --full-evidence %.1f s; gremlins %.1f s\n",
		len(rep.Rows), sec(total.minimal), sec(total.decide), sec(total.noFloors), sec(total.def), rateMutationMax, sec(total.rate), sec(total.gremlins))
}

// ratioOf is a run's wall time over the minimal work's, when both exist.
func ratioOf(run *sealgateRun, m minimalWork) (float64, bool) {
	if run.Decision == "" || m.Error != "" || m.WallMS <= 0 {
		return 0, false
	}
	return float64(run.WallMS) / float64(m.WallMS), true
}

// verdictCell is a run's decision and wall time.
func verdictCell(r sealgateRun) string {
	if r.Decision == "" {
		return "no verdict: " + or(r.Error, fmt.Sprintf("exit %d", r.ExitCode))
	}
	return fmt.Sprintf("%s %.1f s", r.Decision, sec(r.WallMS))
}

// summary describes ratios: their median and range, and how many meet the
// target (at most it, or with atLeast at least it).
func summary(ratios []float64, target float64, what string, atLeast bool) string {
	if len(ratios) == 0 {
		return "no case measured"
	}
	s := slices.Sorted(slices.Values(ratios))
	met := 0
	for _, r := range s {
		if (atLeast && r >= target) || (!atLeast && r <= target) {
			met++
		}
	}
	return fmt.Sprintf("median %.1f× (%.1f–%.1f×) over %d cases; %d of %d %s", median(s), s[0], s[len(s)-1], len(s), met, len(s), what)
}

// median of sorted values.
func median(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// writeRow writes one Markdown table row, escaping the cells' pipes.
func writeRow(w io.Writer, cells []string) {
	for i := range cells {
		cells[i] = strings.Join(strings.Fields(strings.ReplaceAll(cells[i], "|", `\|`)), " ")
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

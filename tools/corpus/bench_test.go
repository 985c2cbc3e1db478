package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gremlinsOutput is the shape gremlins v0.6.0 writes with --output: a real
// run's file cut down to one mutant of each status a full run reports.
const gremlinsOutput = `{"go_module":"github.com/hashicorp/go-version","files":[` +
	`{"file_name":"constraint.go","mutations":[{"type":"CONDITIONALS_NEGATION","status":"SKIPPED","line":59,"column":10}]},` +
	`{"file_name":"version.go","mutations":[` +
	`{"type":"CONDITIONALS_NEGATION","status":"KILLED","line":283,"column":7},` +
	`{"type":"CONDITIONALS_NEGATION","status":"KILLED","line":283,"column":19},` +
	`{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":284,"column":12},` +
	`{"type":"ARITHMETIC_BASE","status":"TIMED OUT","line":290,"column":3},` +
	`{"type":"INVERT_NEGATIVES","status":"NOT VIABLE","line":291,"column":9},` +
	`{"type":"INCREMENT_DECREMENT","status":"NOT COVERED","line":300,"column":2}]}],` +
	`"test_efficacy":66.66,"mutations_coverage":75,"mutants_total":4,"mutants_killed":2,"mutants_lived":1,` +
	`"mutants_not_viable":1,"mutants_not_covered":1,"elapsed_time":2.606149256,` +
	`"mutator_statistics":{"arithmetic_base":1,"conditionals_negation":3,"conditionals_boundary":1,"increment_decrement":1,"invert_negatives":1}}`

func TestParseGremlins(t *testing.T) {
	got, err := parseGremlins([]byte(gremlinsOutput))
	if err != nil {
		t.Fatal(err)
	}
	want := gremlinsCount{Killed: 2, Lived: 1, TimedOut: 1, NotViable: 1, NotCovered: 1, Skipped: 1}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// A timed-out mutant ran a test process (until gremlins stopped it);
	// skipped (off the diff) and not covered ones did not.
	if got.Ran() != 5 {
		t.Errorf("Ran() = %d, want 5", got.Ran())
	}

	// A dry run lists the mutants it would run: none ran.
	dry := `{"go_module":"m","files":[{"file_name":"a.go","mutations":[{"type":"ARITHMETIC_BASE","status":"RUNNABLE","line":1,"column":1}]}],` +
		`"test_efficacy":0,"mutations_coverage":100,"mutants_total":0,"mutants_killed":0,"mutants_lived":0,"mutants_not_viable":0,` +
		`"mutants_not_covered":0,"elapsed_time":0.5,"mutator_statistics":{"arithmetic_base":1}}`
	if got, err := parseGremlins([]byte(dry)); err != nil || got.Ran() != 0 || got.Runnable != 1 {
		t.Errorf("dry run: %+v, %v; want one runnable, none ran", got, err)
	}
}

// TestParseGremlinsRefuses: an output whose totals do not match its
// mutants (more mutants claimed than listed would flatter gremlins' rate,
// fewer would flatter sealgate's), an unknown status, field or shape is
// an error, never a count.
func TestParseGremlinsRefuses(t *testing.T) {
	for name, data := range map[string]string{
		"more killed than listed":  strings.Replace(gremlinsOutput, `"mutants_killed":2`, `"mutants_killed":20`, 1),
		"total inflated":           strings.Replace(gremlinsOutput, `"mutants_total":4`, `"mutants_total":40`, 1),
		"fewer not covered":        strings.Replace(gremlinsOutput, `"mutants_not_covered":1`, `"mutants_not_covered":0`, 1),
		"unknown status":           strings.Replace(gremlinsOutput, `"LIVED"`, `"SURVIVED"`, 1),
		"lower-case status":        strings.Replace(gremlinsOutput, `"LIVED"`, `"lived"`, 1),
		"unknown field":            strings.Replace(gremlinsOutput, `"go_module"`, `"mutants_timed_out":3,"go_module"`, 1),
		"no totals":                `{"go_module":"m","files":[]}`,
		"a second object":          gremlinsOutput + `{}`,
		"not an object":            `[]`,
		"empty":                    ``,
		"truncated":                gremlinsOutput[:len(gremlinsOutput)/2],
		"a file without a name":    strings.Replace(gremlinsOutput, `"file_name":"constraint.go"`, `"file_name":""`, 1),
		"a mutant without a place": strings.Replace(gremlinsOutput, `"line":283,"column":7`, `"line":0,"column":7`, 1),
	} {
		if got, err := parseGremlins([]byte(data)); err == nil {
			t.Errorf("%s: counted %+v, want an error", name, got)
		}
	}
}

func FuzzParseGremlins(f *testing.F) {
	f.Add([]byte(gremlinsOutput))
	f.Add([]byte(`{"files":[],"mutants_total":0,"mutants_killed":0,"mutants_lived":0,"mutants_not_viable":0,"mutants_not_covered":0}`))
	f.Add([]byte(`{"files":[{"file_name":"a","mutations":[{"status":"KILLED","line":1,"column":1}]}],"mutants_total":1,"mutants_killed":1,"mutants_lived":0,"mutants_not_viable":0,"mutants_not_covered":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseGremlins(data)
		if err != nil {
			return
		}
		for _, n := range []int{c.Killed, c.Lived, c.TimedOut, c.NotViable, c.NotCovered, c.Skipped, c.Runnable} {
			if n < 0 {
				t.Fatalf("negative count in %+v", c)
			}
		}
		if c.Ran() != c.Killed+c.Lived+c.TimedOut+c.NotViable {
			t.Fatalf("Ran() = %d for %+v", c.Ran(), c)
		}
	})
}

// at is a time t seconds after an arbitrary start, in Unix nanoseconds.
func at(t float64) int64 {
	return time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC).UnixNano() + int64(t*float64(time.Second))
}

func TestMutationPhaseOf(t *testing.T) {
	events := []event{
		{Kind: "run.requested", At: at(0)},
		{Kind: "job.planned", At: at(0.1), Jobs: []string{"claim/baseline/go:.:TestX", "collateral/patch/.:./...", "coverage/patch/.:."}},
		{Kind: "job.result", At: at(1), Job: "claim/baseline/go:.:TestX", WallNS: int64(0.9 * float64(time.Second))},
		{Kind: "job.result", At: at(2), Job: "collateral/patch/.:./...", WallNS: int64(time.Second)},
		{Kind: "job.result", At: at(3.5), Job: "coverage/patch/.:.", WallNS: int64(1.5 * float64(time.Second))},
		{Kind: "coverage.measured", At: at(4)},
		{Kind: "job.planned", At: at(4.1), Jobs: []string{"claim/patch/go:.:TestX"}},
		{Kind: "job.result", At: at(5), Job: "claim/patch/go:.:TestX", WallNS: int64(0.8 * float64(time.Second))},
		{Kind: "job.planned", At: at(6), Jobs: []string{"mutant/patch/1", "mutant/patch/2", "mutant/patch/3"}},
		{Kind: "job.result", At: at(7.5), Job: "mutant/patch/1", WallNS: int64(1.4 * float64(time.Second))},
		{Kind: "job.result", At: at(7.6), Job: "mutant/patch/2", WallNS: 40 * int64(time.Millisecond)},
		{Kind: "job.result", At: at(7.7), Job: "mutant/patch/3", WallNS: 60 * int64(time.Millisecond)},
		{Kind: "strength.measured", At: at(8)},
		{Kind: "verdict.reached", At: at(8.1)},
	}
	m, err := mutationPhaseOf(events)
	if err != nil {
		t.Fatal(err)
	}
	want := mutationPhase{Mutants: 3, PhaseMS: 4000, OtherJobsMS: 800, CoverageJobsMS: 1500, PlanMS: 2000, FirstMutantMS: 1400, RestMS: 100, SlowestMS: 60}
	if *m != want {
		t.Errorf("got %+v, want %+v", *m, want)
	}
	if r := m.Rate(); r != 45 {
		t.Errorf("Rate() = %v, want 3 mutants in 4 s = 45/min", r)
	}
	if r := m.RateWithCoverage(); r != 3*60/5.5 {
		t.Errorf("RateWithCoverage() = %v, want 3 mutants in 5.5 s", r)
	}

	// Another coverage.measured before the last one (a second module):
	// the phase starts at the last.
	two := append([]event{}, events[:6]...)
	two = append(two, event{Kind: "coverage.measured", At: at(5)})
	two = append(two, events[6:]...)
	if m, err := mutationPhaseOf(two); err != nil || m.PhaseMS != 3000 {
		t.Errorf("two coverage records: %+v, %v; want a phase of 3 s", m, err)
	}

	for name, evs := range map[string][]event{
		"no strength record":            events[:12],
		"no coverage record before it":  append(append([]event{}, events[:5]...), events[6:]...),
		"no mutant job":                 append(append([]event{}, events[:8]...), events[12:]...),
		"a mutant result never planned": append(append([]event{}, events[:8]...), events[9:]...),
		"strength before coverage": {
			{Kind: "coverage.measured", At: at(5)}, {Kind: "job.planned", At: at(5), Jobs: []string{"mutant/patch/1"}},
			{Kind: "job.result", At: at(5), Job: "mutant/patch/1"}, {Kind: "strength.measured", At: at(4)},
		},
	} {
		if m, err := mutationPhaseOf(evs); err == nil {
			t.Errorf("%s: %+v, want an error", name, *m)
		}
	}
}

func benchFixture() benchReport {
	phase := &mutationPhase{Mutants: 10, Killed: 8, Survived: 1, Stillborn: 1, PhaseMS: 6000, OtherJobsMS: 500, CoverageJobsMS: 2000, PlanMS: 1500, FirstMutantMS: 2500, RestMS: 900, SlowestMS: 400}
	return benchReport{
		Date: "2026-12-01T17:00:00Z", GoVersion: "go1.26.8", CPUs: 2, LoadBefore: "0.50 0.40 0.30", LoadAfter: "1.50 1.00 0.50",
		Sealgate: "sealgate v0.0.0", Gremlins: gremlinsPackage + "@" + gremlinsVersion, BuildCache: "/cache", ModCache: "/mod",
		Rows: []benchRow{
			{
				Fix: "f|x", Kind: "honest",
				Minimal:        minimalWork{WallMS: 2000},
				Decide:         sealgateRun{Decision: "MERGE", WallMS: 5000},
				DecideNoFloors: sealgateRun{Decision: "MERGE", WallMS: 3000},
				Default:        sealgateRun{Decision: "MERGE", WallMS: 9000, Mutation: phase},
				Rate:           sealgateRun{Decision: "MERGE", WallMS: 11000, Mutation: phase},
				RateBase:       sealgateRun{Decision: "MERGE", WallMS: 8000},
				Gremlins:       gremlinsRun{WallMS: 12000, Counts: &gremlinsCount{Killed: 3, Lived: 1, Skipped: 50}},
			},
			{
				Fix: "f|x", Kind: "reintroduced",
				Minimal:        minimalWork{WallMS: 1000},
				Decide:         sealgateRun{Decision: "BLOCK", WallMS: 1500},
				DecideNoFloors: sealgateRun{ExitCode: 4, Error: "no verdict (exit 4): boom"},
				Default:        sealgateRun{Decision: "BLOCK", WallMS: 2000},
				Rate:           sealgateRun{Decision: "BLOCK", WallMS: 2000, NoMutation: "no computed diff coverage"},
				Gremlins:       gremlinsRun{ExitCode: 1, Error: "no output (exit 1): --- FAIL: TestX"},
			},
		},
	}
}

// TestPrintBench: the conditions, one row per case in each table, the
// ratios against the minimal work and gremlins, a dash where a figure is
// missing (never a zero), and the summaries against the targets.
func TestPrintBench(t *testing.T) {
	var b strings.Builder
	printBench(&b, benchFixture())
	out := b.String()
	for _, want := range []string{
		"Measured 2026-12-01T17:00:00Z: 2 CPUs, load average 0.50 0.40 0.30 before, 1.50 1.00 0.50 after; go1.26.8; sealgate sealgate v0.0.0; github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0.\n",
		"build cache /cache, module cache /mod",
		"| f\\|x | honest | 2.0 s | MERGE 5.0 s | 2.5× | MERGE 3.0 s | 1.5× | MERGE 9.0 s | 4.5× |\n",
		"| f\\|x | reintroduced | 1.0 s | BLOCK 1.5 s | 1.5× | no verdict: no verdict (exit 4): boom | — | BLOCK 2.0 s | 2.0× |\n",
		// 10 mutants in 6 s = 100/min; with 2 s of coverage, 75/min;
		// gremlins 4 in 12 s = 20/min.
		"| f\\|x | honest | 10 (8/1/1) | 6.0 s | 0.5 s | 100 | 2.0 s | 75 | 4 (3/1/0/0) | 12.0 s | 20 | 5.0× | 3.8× |\n",
		"| f\\|x | reintroduced | none: no computed diff coverage | — | — | — | — | — | none: no output (exit 1): --- FAIL: TestX | — | — | — | — |\n",
		"| f\\|x | honest | 1.5 s | 2.5 s | 9 in 0.9 s | 100 ms | 0.4 s | 3000 ms |\n",
		// Mutation adds 3 s to the verification: 10 in 3 s = 200/min,
		// 10× gremlins' 20.
		"| f\\|x | honest | MERGE 8.0 s | MERGE 11.0 s | 3.0 s | 200 | 10.0× |\n",
		"- mutants per minute of the wall time mutation adds to a verification (preparation included, wherever it ran), sealgate ÷ gremlins: median 10.0× (10.0–10.0×) over 1 cases; 1 of 1 at 5× or more\n",
		"- time to a verdict without mutation, coverage at its floor: median 2.0× (1.5–2.5×) over 2 cases; 2 of 2 within 3× of the minimal work\n",
		"- time to a verdict without mutation or coverage (floors 0): median 1.5× (1.5–1.5×) over 1 cases; 1 of 1 within 3× of the minimal work\n",
		"- time to a verdict at the default settings: median 3.2× (2.0–4.5×) over 2 cases; 1 of 2 within 3× of the minimal work\n",
		"- mutants per minute, sealgate ÷ gremlins: median 5.0× (5.0–5.0×) over 1 cases; 1 of 1 at 5× or more\n",
		"- the same with sealgate's coverage jobs counted: median 3.8× (3.8–3.8×) over 1 cases; 0 of 1 at 5× or more\n",
		"- wall time over the 2 cases: minimal work 3.0 s; sealgate without mutation 6.5 s, floors 0 3.0 s, defaults 11.0 s, --mutation-max 200 --full-evidence 13.0 s; gremlins 12.0 s\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	// The breakdown leaves out a case where neither tool mutated.
	if strings.Count(out, "| f\\|x | reintroduced |") != 2 {
		t.Errorf("the reintroduced case should be in two tables, not the breakdown:\n%s", out)
	}

	var empty strings.Builder
	printBench(&empty, benchReport{})
	if !strings.Contains(empty.String(), "mutants per minute, sealgate ÷ gremlins: no case measured") {
		t.Errorf("an empty report:\n%s", empty.String())
	}
}

// TestBenchTable re-prints a report from bench -json, and refuses a file
// that is not one.
func TestBenchTable(t *testing.T) {
	data, err := json.Marshal(benchFixture())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bench.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCorpus("bench-table", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var want strings.Builder
	printBench(&want, benchFixture())
	if stdout != want.String() {
		t.Errorf("bench-table printed:\n%s\nwant:\n%s", stdout, want.String())
	}
	for _, bad := range []string{`{"rows":[{"fix":"x","verdict":"MERGE"}]}`, `[]`, `{`} {
		if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, _ := runCorpus("bench-table", file); code != exitError {
			t.Errorf("bench-table of %s: exit %d, want 4", bad, code)
		}
	}
}

func TestPerMinute(t *testing.T) {
	for _, c := range []struct {
		n    int
		ms   int64
		want float64
	}{{10, 60000, 10}, {3, 4000, 45}, {5, 0, 0}, {0, 1000, 0}} {
		if got := perMinute(c.n, c.ms); got != c.want {
			t.Errorf("perMinute(%d, %d) = %v, want %v", c.n, c.ms, got, c.want)
		}
	}
}

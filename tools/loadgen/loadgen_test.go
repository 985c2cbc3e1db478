package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseReplicas(t *testing.T) {
	got, err := parseReplicas("executor=2,ledger=4")
	if err != nil || got["executor"] != 2 || got["ledger"] != 4 || len(got) != 2 {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"executor", "executor=0", "executor=x", "nosuch=2", "executor=2,"} {
		if _, err := parseReplicas(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-runs", "0"}, {"-concurrency", "0"}, {"-soak", "1m", "-kill-every", "0"}, {"extra"}} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Second)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Second, 99: 99 * time.Second, 100: 100 * time.Second, 1: time.Second} {
		if got := percentile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("empty: not zero")
	}
}

// TestJudge: a run lost, a run with two verdicts, a run with another
// verdict than the undisturbed one, a run on the ledger nobody was
// answered with, and a ledger that does not verify are each a finding; a
// load without them has none.
func TestJudge(t *testing.T) {
	want := map[string]Outcome{"honest-fix": {RunID: "cal", Decision: "MERGE", Reason: "ok"}}
	good := Outcome{Patch: "honest-fix", RunID: "r1", Decision: "MERGE", Reason: "ok", Verdicts: 1}
	ledger := LedgerCheck{Runs: []string{"cal", "r1"}}
	r := &Results{Want: want, Outcomes: []Outcome{good}, Ledger: ledger}
	r.judge()
	if !r.OK() {
		t.Fatalf("honest load: %v", r.Findings)
	}
	for name, tc := range map[string]struct {
		out    Outcome
		ledger LedgerCheck
		find   string
	}{
		"lost":       {Outcome{Patch: "honest-fix", RunID: "r1", Err: "watch: gone"}, ledger, "without a sealed verdict"},
		"twice":      {Outcome{Patch: "honest-fix", RunID: "r1", Decision: "MERGE", Reason: "ok", Verdicts: 2}, ledger, "more than one verdict"},
		"different":  {Outcome{Patch: "honest-fix", RunID: "r1", Decision: "INCONCLUSIVE", Reason: "x", Verdicts: 1}, ledger, "differs"},
		"reason":     {Outcome{Patch: "honest-fix", RunID: "r1", Decision: "MERGE", Reason: "other", Verdicts: 1}, ledger, "differs"},
		"duplicated": {good, LedgerCheck{Runs: []string{"cal", "r1", "r2"}}, "no submission was answered with"},
		"unverified": {good, LedgerCheck{Runs: []string{"cal", "r1"}, VerifyExit: 1, Verify: "bad"}, "ledger verify exits 1"},
		"open":       {good, LedgerCheck{Runs: []string{"cal", "r1"}, Open: 1}, "open"},
	} {
		r := &Results{Want: want, Outcomes: []Outcome{tc.out}, Ledger: tc.ledger}
		r.judge()
		if r.OK() || !strings.Contains(strings.Join(r.Findings, "; "), tc.find) {
			t.Errorf("%s: findings %q, want one saying %q", name, r.Findings, tc.find)
		}
	}
}

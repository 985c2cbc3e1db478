package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// Results are a load's measurements and findings.
type Results struct {
	Runs        int            `json:"runs"`
	Concurrency int            `json:"concurrency"`
	Checks      int            `json:"checks"`
	Mutants     int            `json:"mutants"`
	Soak        time.Duration  `json:"soak_ns"`
	Replicas    map[string]int `json:"replicas"`
	// Want is the undisturbed outcome per patch.
	Want     map[string]Outcome `json:"want"`
	Outcomes []Outcome          `json:"outcomes"`
	Wall     time.Duration      `json:"wall_ns"`
	Kills    []string           `json:"kills,omitempty"`
	Ledger   LedgerCheck        `json:"ledger"`
	// Findings are what is wrong: lost, duplicated or different runs, a
	// ledger that does not verify.
	Findings []string `json:"findings"`
}

// OK reports a load whose every run ended as the undisturbed run did.
func (r *Results) OK() bool { return len(r.Findings) == 0 }

// judge compares every outcome with its patch's undisturbed one, and the
// ledger's runs with the runs submitted.
func (r *Results) judge() {
	known := map[string]bool{}
	for _, w := range r.Want {
		known[w.RunID] = true
	}
	lost, wrong, dup := 0, 0, 0
	for i := range r.Outcomes {
		o := &r.Outcomes[i]
		known[o.RunID] = true
		w := r.Want[o.Patch]
		switch {
		case o.Err != "":
			lost++
			o.Wrong = "no sealed verdict: " + o.Err
		case o.Verdicts != 1:
			dup++
			o.Wrong = fmt.Sprintf("%d verdict records", o.Verdicts)
		case o.Decision != w.Decision || o.Reason != w.Reason:
			wrong++
			o.Wrong = fmt.Sprintf("%s (%s), undisturbed %s (%s)", o.Decision, o.Reason, w.Decision, w.Reason)
		}
	}
	if lost > 0 {
		r.Findings = append(r.Findings, fmt.Sprintf("%d run(s) without a sealed verdict", lost))
	}
	if dup > 0 {
		r.Findings = append(r.Findings, fmt.Sprintf("%d run(s) with more than one verdict", dup))
	}
	if wrong > 0 {
		r.Findings = append(r.Findings, fmt.Sprintf("%d run(s) whose verdict differs from the undisturbed run's", wrong))
	}
	lc := r.Ledger
	switch {
	case lc.Err != "":
		r.Findings = append(r.Findings, "the ledger could not be read: "+lc.Err)
		return
	case lc.VerifyExit != 0:
		r.Findings = append(r.Findings, fmt.Sprintf("ledger verify exits %d: %s", lc.VerifyExit, lc.Verify))
	}
	var extra []string
	for _, id := range lc.Runs {
		if !known[id] {
			extra = append(extra, id)
		}
	}
	if len(extra) > 0 {
		r.Findings = append(r.Findings, fmt.Sprintf("%d run(s) on the ledger that no submission was answered with (duplicated by a retry): %s", len(extra), strings.Join(extra, ", ")))
	}
	if lc.Open > 0 || lc.Unsealed > 0 {
		r.Findings = append(r.Findings, fmt.Sprintf("%d run(s) open and %d unsealed on the ledger", lc.Open, lc.Unsealed))
	}
}

// percentile returns the p-th percentile (0..100) of sorted ds, by the
// nearest-rank method.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	k := int(float64(len(ds))*p/100+0.999999) - 1
	return ds[min(max(k, 0), len(ds)-1)]
}

// Print writes the report.
func (r *Results) Print(w io.Writer) {
	var took, sealed []time.Duration
	records, retries := 0, 0
	decisions := map[string]int{}
	mutants, shared := map[string]int{}, 0 // mutant jobs by replica; runs whose mutants more than one ran
	for _, o := range r.Outcomes {
		if o.Err == "" {
			took = append(took, o.Took)
			sealed = append(sealed, o.Sealed)
		}
		records += o.Records
		retries += o.Retries
		decisions[o.Decision]++
		for w, n := range o.Mutants {
			mutants[w] += n
		}
		if len(o.Mutants) > 1 {
			shared++
		}
	}
	slices.Sort(took)
	slices.Sort(sealed)
	var reps []string
	for s, n := range r.Replicas {
		if n != 1 {
			reps = append(reps, fmt.Sprintf("%s=%d", s, n))
		}
	}
	sort.Strings(reps)
	mins := r.Wall.Minutes()
	fmt.Fprintf(w, "\nloadgen: %d runs, %d at a time, %d seal checks and at most %d mutants per run, replicas %s", len(r.Outcomes), r.Concurrency, r.Checks, r.Mutants, strings.Join(append(reps, "others=1"), ","))
	if r.Soak > 0 {
		fmt.Fprintf(w, ", soak %v with %d SIGKILLs", r.Soak, len(r.Kills))
	}
	fmt.Fprintf(w, "\n  wall %.1f s: %.1f runs/min, %.1f admitted records/s (%d records, %d retries)\n", r.Wall.Seconds(), float64(len(r.Outcomes))/mins, float64(records)/r.Wall.Seconds(), records, retries)
	fmt.Fprintf(w, "  time to verdict p50 %.2f s, p90 %.2f s, p99 %.2f s, max %.2f s; to the sealed verdict p50 %.2f s, p99 %.2f s\n",
		percentile(took, 50).Seconds(), percentile(took, 90).Seconds(), percentile(took, 99).Seconds(), percentile(took, 100).Seconds(),
		percentile(sealed, 50).Seconds(), percentile(sealed, 99).Seconds())
	var ds []string
	for d, n := range decisions {
		ds = append(ds, fmt.Sprintf("%s %d", d, n))
	}
	sort.Strings(ds)
	fmt.Fprintf(w, "  decisions: %s\n", strings.Join(ds, ", "))
	if len(mutants) > 0 {
		var ms []string
		total := 0
		for rep, n := range mutants {
			ms = append(ms, fmt.Sprintf("%s %d", cmp.Or(rep, "(unnamed)"), n))
			total += n
		}
		sort.Strings(ms)
		fmt.Fprintf(w, "  mutant jobs: %d, by replica: %s; %d run(s) had mutants run by more than one replica\n", total, strings.Join(ms, ", "), shared)
	}
	fmt.Fprintf(w, "  ledger: %d runs, verify exit %d (%s), %d refused\n", len(r.Ledger.Runs), r.Ledger.VerifyExit, r.Ledger.Verify, r.Ledger.Refused)
	if len(r.Kills) > 0 {
		fmt.Fprintf(w, "  killed: %s\n", strings.Join(r.Kills, " "))
	}
	if r.OK() {
		fmt.Fprintln(w, "  every run ended sealed with the undisturbed verdict, once; none lost, none duplicated")
		return
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "  FINDING: %s\n", f)
	}
	n := 0
	for _, o := range r.Outcomes {
		if o.Wrong != "" && n < 10 {
			fmt.Fprintf(w, "    %s %s: %s\n", o.Key, o.RunID, o.Wrong)
			n++
		}
	}
}

package adjudication

import (
	"slices"

	"github.com/sealgate/sealgate/services/executor/jobs"
)

// selfJudged lists the tests of the full suite that fail on the baseline
// and pass on the patch, that no claim names, while the patch changes test
// support outside the test files (the checkout's counterfactual files
// other than the data production code reads: helpers only tests use,
// golden files, fixtures), with that support. Such a pass may rest on an
// oracle the patch wrote: a golden file rewritten to a wrong fix's
// answers turns its test green, and the suite then owes nothing to a test
// that was red on the baseline. A claim is re-run without the patch's
// test support (the counterfactual oracle); an unclaimed test is not, so
// its turn to green proves nothing and is named instead.
func (r *Run) selfJudged() (tests, support []string) {
	if r.Trees == nil {
		return nil, nil
	}
	for _, f := range r.Trees.Counterfactual {
		if !slices.Contains(r.Trees.DataReferenced, f) {
			support = append(support, f)
		}
	}
	if len(support) == 0 {
		return nil, nil
	}
	claimed := map[string]bool{}
	for _, s := range r.Planned {
		if s.Purpose == jobs.Prereq && s.Then != nil {
			s = s.Then // a claim on a test the patch added to a file
		}
		if s.Purpose != jobs.Claim {
			continue
		}
		for _, t := range s.Tests {
			if s.Runner == jobs.RunnerGo {
				claimed[s.ImportPath+"."+t] = true
			} else {
				claimed[t] = true
			}
		}
	}
	for _, id := range r.Suites() {
		patch := r.Done[id]
		if patch == nil {
			continue
		}
		base := r.Done[BaselineOf(patch.Spec)]
		if base == nil {
			continue
		}
		before := map[string]string{}
		for _, c := range base.Cases {
			before[c.Name] = c.Outcome
		}
		for _, c := range patch.Cases {
			if c.Outcome == "pass" && before[c.Name] == "fail" && !claimed[c.Name] {
				tests = append(tests, c.Name)
			}
		}
	}
	if len(tests) == 0 {
		return nil, nil
	}
	slices.Sort(tests)
	slices.Sort(support)
	return slices.Compact(tests), support
}

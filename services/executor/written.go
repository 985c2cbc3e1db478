package executor

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// testVetFlags are the vet checks `go test` runs before it builds a test
// binary (cmd/go's defaultVetFlags, Go 1.26): a package whose test files
// fail one of them fails plain `go test` as a build failure. The gate's own
// builds leave vet off (testBuild), so only a written job asks.
func testVetFlags() []string {
	return []string{"-atomic", "-bool", "-buildtags", "-directive", "-errorsas", "-ifaceassert", "-nilfunc", "-printf", "-slog", "-stringintconv", "-tests"}
}

// vetCase names the case a written job reports for a package in which
// go test's vet checks find what they do not find on the baseline.
func vetCase(importPath string) string { return importPath + " (go vet, as go test runs it)" }

// executeWritten runs a written job: the suite of its module on the
// patch's own tree (unless it only vets), then go test's vet on the
// packages it names (vetWritten).
func (e *Executor) executeWritten(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	deadline := time.Now().Add(timeoutOf(s))
	a := &Answer{Detail: jobs.Detail{Outcome: jobs.OutcomePass, Reason: "vet only: the patch puts back no baseline file", Runs: []jobs.Run{}}, Cases: []jobs.Case{}}
	if !s.VetOnly {
		a = e.executeGoSuite(ctx, w, s)
		if a.Detail.Outcome != jobs.OutcomePass && a.Detail.Outcome != jobs.OutcomeFail {
			return a
		}
	}
	failed, err := e.vetWritten(ctx, w, a, s, deadline)
	if err != nil {
		a.Detail.Outcome, a.Detail.Reason = jobs.OutcomeUnrunnable, fmt.Sprintf("%s; %v", a.Detail.Reason, err)
		return a
	}
	markVet(a, failed)
	return a
}

// vetWritten runs go test's vet checks on each package s.Vet names in the
// patch's tree and returns, by import path, what it finds there that it
// does not find in the baseline's: findings compared as file and message
// (lines move), counted (a second finding of one message is new too). A
// package that fails vet with no finding to compare (it does not type
// check) counts where the baseline's vets clean. Whatever the baseline's
// vet already found was red before the patch: the suite's matter, as a
// test failing on both sides is.
func (e *Executor) vetWritten(ctx context.Context, w *Workspace, a *Answer, s *jobs.Spec, deadline time.Time) (map[string]string, error) {
	type vetted struct {
		ok    bool
		found map[string]int
		cause string
	}
	vet := func(tree, rel string) (vetted, error) {
		dir, out, cleanup, err := w.buildTree(w.tree(tree))
		defer cleanup()
		if err != nil {
			return vetted{}, err
		}
		argv := []string{"go"}
		if s.Module != "." {
			argv = append(argv, "-C", s.Module)
		}
		argv = append(append(append(argv, "vet"), testVetFlags()...), rel)
		left := time.Until(deadline)
		if left <= 0 {
			return vetted{}, fmt.Errorf("no time left to vet %s", rel)
		}
		r, err := e.runGo(ctx, w, a, goProc{dir: dir, out: out, argv: argv, build: true, readOnlyTree: true, timeout: left, stderrApart: true})
		if err != nil {
			return vetted{}, err
		}
		a.Detail.Runs = append(a.Detail.Runs, jobs.Run{Verdict: "VET", Reason: tree + " " + rel, ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: r.res.Wall.Milliseconds()})
		if r.res.Termination != sandbox.Exited {
			return vetted{}, fmt.Errorf("go vet of %s did not finish (%s)", rel, r.res.Termination)
		}
		return vetted{ok: r.res.ExitCode == 0, found: vetFindings(r.stderr), cause: buildCause([]byte(r.stderr))}, nil
	}
	failed := map[string]string{}
	for _, rel := range s.Vet {
		patch, err := vet(jobs.TreePatch, rel)
		if err != nil || patch.ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		base, err := vet(jobs.TreeBaseline, rel)
		if err != nil {
			return nil, err
		}
		ip := s.ModulePath + strings.TrimPrefix(rel, ".")
		var fresh []string
		for _, f := range slices.Sorted(maps.Keys(patch.found)) {
			if patch.found[f] > base.found[f] {
				fresh = append(fresh, f)
			}
		}
		switch {
		case len(fresh) > 0:
			failed[ip] = strings.Join(fresh, "; ")
		case len(patch.found) == 0 && base.ok:
			failed[ip] = patch.cause
		}
	}
	return failed, nil
}

// vetFindings counts vet's findings in its output by file and message
// ("calc_test.go: Errorf format %d has arg got of wrong type float64"),
// without their line and column.
func vetFindings(stderr string) map[string]int {
	found := map[string]int{}
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "vet: ")
		file, rest, ok := strings.Cut(line, ".go:")
		if !ok || strings.ContainsAny(file, " \t") {
			continue
		}
		// line[:col]: message
		pos, msg, ok := strings.Cut(rest, ": ")
		if !ok || strings.Trim(pos, "0123456789:") != "" {
			continue
		}
		found[file+".go: "+msg]++
	}
	return found
}

// markVet adds to a written job's answer a failing case for each package
// in which go test's vet checks find something new (vetWritten).
func markVet(a *Answer, failed map[string]string) {
	if len(failed) == 0 {
		return
	}
	var why []string
	for ip, cause := range failed {
		a.Cases = append(a.Cases, jobs.Case{Name: vetCase(ip), Outcome: "fail"})
		why = append(why, ip+": "+cause)
	}
	slices.Sort(why)
	slices.SortFunc(a.Cases, func(x, y jobs.Case) int { return strings.Compare(x.Name, y.Name) })
	if a.Detail.Outcome == jobs.OutcomePass {
		a.Detail.Outcome = jobs.OutcomeFail
	}
	a.Detail.Reason += "; go vet, as go test runs it, finds on the patch's tree what it does not on the baseline's: " + strings.Join(why, "; ")
}

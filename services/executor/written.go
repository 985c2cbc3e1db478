package executor

import (
	"context"
	"fmt"
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

// vetCase names the case a written job reports for a package whose test
// files, as the patch wrote them, fail go test's vet checks.
func vetCase(importPath string) string { return importPath + " (go vet, as go test runs it)" }

// vetWritten runs go test's vet checks on each package of a written job in
// its tree (dir, the patch's own) and returns, by import path, the cause
// of each that fails them where the same package with the baseline's test
// files (the oracle tree) passes them: the patch's test files made plain
// `go test` fail. A package that fails them over the baseline's test files
// too (a repository whose own `go test` was already red there, or code
// the oracle cannot build) is not the patch's test files' doing: left to
// the suite, as a test failing on both is.
func (e *Executor) vetWritten(ctx context.Context, w *Workspace, a *Answer, dir, out string, targets []goTarget, deadline time.Time) (map[string]string, error) {
	failed := map[string]string{}
	_, oracle, err := w.variantOf(jobs.TreeOracle)
	if err != nil {
		return nil, err
	}
	vet := func(tree, out string, t goTarget, readOnly bool) (ok bool, cause string, err error) {
		argv := []string{"go"}
		if t.module != "." {
			argv = append(argv, "-C", t.module)
		}
		argv = append(append(append(argv, "vet"), testVetFlags()...), t.pkg)
		left := time.Until(deadline)
		if left <= 0 {
			return false, "", fmt.Errorf("no time left to vet %s", t.importPath)
		}
		r, err := e.runGo(ctx, w, a, goProc{dir: tree, out: out, argv: argv, build: true, readOnlyTree: readOnly, timeout: left, stderrApart: true})
		if err != nil {
			return false, "", err
		}
		a.Detail.Runs = append(a.Detail.Runs, jobs.Run{Verdict: "VET", Reason: t.importPath, ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: r.res.Wall.Milliseconds()})
		if r.res.Termination != sandbox.Exited {
			return false, "", fmt.Errorf("go vet of %s did not finish (%s)", t.importPath, r.res.Termination)
		}
		return r.res.ExitCode == 0, buildCause([]byte(r.stderr)), nil
	}
	for _, t := range targets {
		ok, cause, err := vet(dir, out, t, false)
		if err != nil {
			return nil, err
		}
		if ok {
			continue
		}
		odir, oout, cleanup, err := w.buildTree(oracle)
		if err != nil {
			cleanup()
			return nil, err
		}
		base, _, err := vet(odir, oout, t, true)
		cleanup()
		if err != nil {
			return nil, err
		}
		if base {
			failed[t.importPath] = cause
		}
	}
	return failed, nil
}

// markVet adds to a written job's answer a failing case for each package
// whose test files fail go test's vet checks (vetWritten).
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
	a.Detail.Reason += "; go vet, as go test runs it, fails on the patch's test files: " + strings.Join(why, "; ")
}

package executor

import (
	"context"
	"fmt"
	"maps"
	"path"
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

// vetWritten runs go test's vet checks on the patch's tree over each
// package s.Vet names and every package of the module that imports one
// (vetImporters), and returns, by import path, what it finds there that it
// does not find in the baseline's: findings compared as file and message
// (lines move), counted (a second finding of one message is new too). A
// package that fails vet with no finding to compare (it does not type
// check) counts where the baseline's vets clean. Whatever the baseline's
// vet already found was red before the patch: the suite's matter, as a
// test failing on both sides is.
//
// The patch tree is vetted in one process; the baseline's only where that
// finds something, package by package (a package the patch adds is not
// there to vet).
func (e *Executor) vetWritten(ctx context.Context, w *Workspace, a *Answer, s *jobs.Spec, deadline time.Time) (map[string]string, error) {
	if len(s.Vet) == 0 {
		return nil, nil
	}
	dir, out, cleanup, err := w.buildTree(w.tree(jobs.TreePatch))
	defer cleanup()
	if err != nil {
		return nil, err
	}
	left := time.Until(deadline)
	if left <= 0 {
		return nil, fmt.Errorf("no time left to list the packages to vet")
	}
	pkgs, err := e.listPackages(ctx, w, a, dir, s.Module, "./...", true, left)
	if err != nil {
		return nil, err
	}
	v := e.viewOf(w, dir, out)
	rels, importPaths := vetImporters(v, s.Module, s.Vet, pkgs)
	patch, err := e.vet(ctx, w, a, s, jobs.TreePatch, rels, deadline)
	if err != nil || patch.ok {
		return nil, err
	}
	importPath := func(rel string) string {
		if ip, ok := importPaths[rel]; ok {
			return ip
		}
		return s.ModulePath + strings.TrimPrefix(rel, ".")
	}
	failed := map[string]string{}
	if len(patch.found) == 0 {
		// Vet failed with nothing to compare (a package that does not
		// type check): which, and whether the baseline's vets clean,
		// package by package.
		for _, rel := range rels {
			one, err := e.vet(ctx, w, a, s, jobs.TreePatch, []string{rel}, deadline)
			if err != nil {
				return nil, err
			}
			if one.ok {
				continue
			}
			base, err := e.vet(ctx, w, a, s, jobs.TreeBaseline, []string{rel}, deadline)
			if err != nil {
				return nil, err
			}
			if fresh := freshFindings(one.found, base.found); len(fresh) > 0 {
				failed[importPath(rel)] = strings.Join(fresh, "; ")
			} else if len(one.found) == 0 && base.ok {
				failed[importPath(rel)] = one.cause
			}
		}
		return failed, nil
	}
	byPackage := map[string]map[string]int{}
	for f, n := range patch.found {
		file, _, _ := strings.Cut(f, ": ")
		rel := "./" + path.Dir(file)
		if rel == "./." {
			rel = "."
		}
		if byPackage[rel] == nil {
			byPackage[rel] = map[string]int{}
		}
		byPackage[rel][f] = n
	}
	for _, rel := range slices.Sorted(maps.Keys(byPackage)) {
		base, err := e.vet(ctx, w, a, s, jobs.TreeBaseline, []string{rel}, deadline)
		if err != nil {
			return nil, err
		}
		if fresh := freshFindings(byPackage[rel], base.found); len(fresh) > 0 {
			failed[importPath(rel)] = strings.Join(fresh, "; ")
		}
	}
	return failed, nil
}

// vetted is what one go vet process found.
type vetted struct {
	ok    bool
	found map[string]int
	cause string
}

// vet runs go test's vet checks over the packages rels (relative to the
// job's module) of a tree, in one process.
func (e *Executor) vet(ctx context.Context, w *Workspace, a *Answer, s *jobs.Spec, tree string, rels []string, deadline time.Time) (vetted, error) {
	dir, out, cleanup, err := w.buildTree(w.tree(tree))
	defer cleanup()
	if err != nil {
		return vetted{}, err
	}
	argv := []string{"go"}
	if s.Module != "." {
		argv = append(argv, "-C", s.Module)
	}
	argv = append(append(append(argv, "vet"), testVetFlags()...), rels...)
	left := time.Until(deadline)
	if left <= 0 {
		return vetted{}, fmt.Errorf("no time left to vet %s", strings.Join(rels, " "))
	}
	r, err := e.runGo(ctx, w, a, goProc{dir: dir, out: out, argv: argv, build: true, readOnlyTree: true, timeout: left, stderrApart: true})
	if err != nil {
		return vetted{}, err
	}
	a.Detail.Runs = append(a.Detail.Runs, jobs.Run{Verdict: "VET", Reason: tree + " " + strings.Join(rels, " "), ExitCode: r.res.ExitCode, Termination: r.res.Termination.String(), WallMillis: r.res.Wall.Milliseconds()})
	if r.res.Termination != sandbox.Exited {
		return vetted{}, fmt.Errorf("go vet of %s did not finish (%s)", strings.Join(rels, " "), r.res.Termination)
	}
	return vetted{ok: r.res.ExitCode == 0, found: vetFindings(r.stderr), cause: buildCause([]byte(r.stderr))}, nil
}

// freshFindings lists the findings of patch that base does not hold as
// often.
func freshFindings(patch, base map[string]int) []string {
	var fresh []string
	for _, f := range slices.Sorted(maps.Keys(patch)) {
		if patch[f] > base[f] {
			fresh = append(fresh, f)
		}
	}
	return fresh
}

// vetImporters returns the packages to vet, relative to module: those of
// vet and every package of the module that imports one of them, through
// any chain of non-test imports (a function the patch makes a printf
// wrapper makes vet check its callers, and theirs if they wrap it in
// turn); a package whose test files import one is vetted too, and ends the
// chain. It also returns the import path of each listed package by its
// relative path.
func vetImporters(v view, module string, vet []string, pkgs []goPackage) (rels []string, importPaths map[string]string) {
	importPaths = map[string]string{}
	relOf := map[string]string{}
	importers, testImporters := map[string][]string{}, map[string][]string{}
	for _, p := range pkgs {
		rel, ok := relPackage(v, module, p.Dir)
		if !ok || strings.HasSuffix(p.ImportPath, "_test") {
			continue
		}
		importPaths[rel], relOf[p.ImportPath] = p.ImportPath, rel
		for _, imp := range p.Imports {
			importers[imp] = append(importers[imp], p.ImportPath)
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			testImporters[imp] = append(testImporters[imp], p.ImportPath)
		}
	}
	seen := map[string]bool{}
	var queue []string
	for _, rel := range vet {
		seen[rel] = true
		if ip, ok := importPaths[rel]; ok {
			queue = append(queue, ip)
		}
	}
	for len(queue) > 0 {
		ip := queue[0]
		queue = queue[1:]
		for _, t := range testImporters[ip] {
			seen[relOf[t]] = true
		}
		for _, imp := range importers[ip] {
			if rel := relOf[imp]; !seen[rel] {
				seen[rel] = true
				queue = append(queue, imp)
			}
		}
	}
	return slices.Sorted(maps.Keys(seen)), importPaths
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

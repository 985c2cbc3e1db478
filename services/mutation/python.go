package mutation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
	"github.com/sealgate/sealgate/services/mutation/pymutant"
	"github.com/sealgate/sealgate/services/reach/pycov"
)

// pySite is a Python mutation site as Select takes it, with its edit and
// the tests that judge it.
type pySite struct {
	site        mutant.Site
	start, end  int
	replacement string
	// tests are the node ids reaching the site's statement, or, for a
	// statement run only outside the tests, the test modules (and conftest
	// directories) importing its file; outside says which.
	tests   []string
	outside bool
}

// pyLang plans Python mutants: sites found by pymutant on the changed
// lines of the run's Python source, each edit made in memory when its job
// runs, against the node ids that reach its statement (or, for a
// statement run only outside the tests, the modules importing its file).
type pyLang struct {
	in   Input
	root string // the oracle tree

	found map[string]pySite // by siteKey
	// equivalent are the mutants that compile to the original's code.
	equivalent []*pb.Mutant
}

func (l *pyLang) owns(s mutant.Site) bool {
	_, ok := l.found[siteKey(s)]
	return ok
}

// sites finds the Python sites, each with the tests that ran its
// statement (or, for a statement that ran only at import or in fixtures,
// the test modules importing its file, or none: then it cannot be judged).
func (l *pyLang) sites(ctx context.Context) ([]mutant.Site, string, error) {
	found, eq, err := l.pythonSites(ctx)
	var report *reportError
	switch {
	case errors.As(err, &report):
		return nil, "", report.err
	case err != nil:
		return nil, err.Error(), nil
	}
	l.found, l.equivalent = found, eq
	if lines := unjudgeable(found); len(lines) > 0 {
		return nil, fmt.Sprintf("the mutator cannot judge %s: they run only outside the tests (at import, in fixtures, conftest.py or hooks) and no test module imports their file", strings.Join(lines, ", ")), nil
	}
	var out []mutant.Site
	for _, k := range slices.Sorted(maps.Keys(found)) {
		out = append(out, found[k].site)
	}
	return out, "", nil
}

// prepare has nothing to write: a Python mutant's edit is made in memory
// when its job runs.
func (l *pyLang) prepare(context.Context, []mutant.Site) (string, error) { return "", nil }

// spec is a Python mutant's job.
func (l *pyLang) spec(s mutant.Site) (*jobs.Spec, bool) {
	c := l.in.Criteria
	ps := l.found[siteKey(s)]
	return &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".",
		Runner: jobs.RunnerPytest, Python: c.Python, TimeoutSec: c.Limits.ClaimTimeoutSec,
		Mutation: &jobs.MutantRef{ID: s.ID, Path: s.File, Line: s.Line, Col: s.Col, Operator: s.Operator, Description: s.Description,
			Start: ps.start, End: ps.end, Replacement: ps.replacement},
		Targets: []jobs.Target{{Tests: slices.Compact(slices.Clone(ps.tests))}}}, true
}

// reportError is a coverage.py report the blob store did not give back: a
// failure of the work, not evidence.
type reportError struct{ err error }

func (e *reportError) Error() string { return e.err.Error() }
func (e *reportError) Unwrap() error { return e.err }

// pythonSites finds the mutation sites of the changed lines of the run's
// Python source files in the oracle tree at root, with the tests that
// judge each: the tests that ran its statement, by the coverage.py report
// (a site on a continuation line of a multi-line statement by its
// statement's first line, the line the report gives), or, for a statement
// that ran only outside the tests (at import, in fixtures, conftest.py or
// hooks), every test module — and the directory of every conftest.py —
// that imports its file, directly or through other files of the tree. A
// site whose statement did not run is left out: coverage names its line.
// Sites whose mutant compiles to the original's code are returned apart,
// as the mutants to report as equivalent: no test can kill them, so they
// are never run and count on neither side of the ratio.
func (l *pyLang) pythonSites(ctx context.Context) (map[string]pySite, []*pb.Mutant, error) {
	co, python, root := l.in.Checkout, l.in.Criteria.Python, l.root
	out := map[string]pySite{}
	var equivalent []*pb.Mutant
	changed := changedPython(co)
	if len(changed) == 0 {
		return out, nil, nil
	}
	files := slices.Sorted(maps.Keys(changed))
	if python == "" {
		return nil, nil, fmt.Errorf("no Python interpreter was sealed for this run: the mutator cannot judge %s", strings.Join(files, ", "))
	}
	rep, err := l.pythonReport(ctx)
	if err != nil {
		return nil, nil, err
	}
	runners := pycov.NewRunners(rep)
	imp := &importGraph{python: python, root: root, of: map[string][]string{}}
	for _, p := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", p, err)
		}
		found, err := pymutant.Find(ctx, python, src, changed[p])
		if err != nil {
			return nil, nil, fmt.Errorf("find mutation sites in %s: %w", p, err)
		}
		for _, f := range found {
			runs, ran, err := runners.Of(p, f.StatementLine)
			if err == nil && !ran && f.StatementLine != f.Line {
				runs, ran, err = runners.Of(p, f.Line)
			}
			if err != nil {
				return nil, nil, fmt.Errorf("the tests of %s: %w", p, err)
			}
			if !ran {
				continue
			}
			ms := mutant.Site{File: p, Line: f.Line, Col: f.Col, Operator: "python_" + f.Operator, Description: f.Description}
			if f.Equivalent {
				equivalent = append(equivalent, &pb.Mutant{Id: fmt.Sprintf("equivalent-%d", len(equivalent)+1),
					At: &pb.LineRef{Path: p, Line: uint32(f.Line)}, Operator: ms.Operator, Description: f.Description, Status: "equivalent"})
				continue
			}
			ps := pySite{site: ms, start: f.Start, end: f.End, replacement: f.Replacement, tests: runs.Tests}
			if len(runs.Tests) == 0 {
				if ps.tests, err = imp.importers(ctx, p); err != nil {
					return nil, nil, err
				}
				ps.outside = true
			}
			out[siteKey(ms)] = ps
		}
	}
	return out, equivalent, nil
}

// importGraph finds, once per tree, which test modules import a file.
type importGraph struct {
	python, root string
	files        []string
	imports      map[string][]pymutant.Import
	of           map[string][]string
}

// importers returns the pytest arguments that run every test module (and
// every conftest.py's directory) importing p, directly or through other
// files of the tree.
func (g *importGraph) importers(ctx context.Context, p string) ([]string, error) {
	if sel, ok := g.of[p]; ok {
		return sel, nil
	}
	if g.imports == nil {
		var err error
		if g.files, err = pythonFiles(g.root); err != nil {
			return nil, fmt.Errorf("list the Python files of the tree: %w", err)
		}
		if g.imports, err = pymutant.ReadImports(ctx, g.python, g.root, g.files); err != nil {
			return nil, fmt.Errorf("read the imports of the tree: %w", err)
		}
	}
	sel := []string{}
	for _, imp := range pymutant.Importers(g.imports, g.files, p) {
		switch {
		case checkout.IsPytestModule(imp):
			sel = append(sel, imp)
		case path.Base(imp) == "conftest.py":
			sel = append(sel, path.Dir(imp))
		}
	}
	slices.Sort(sel)
	g.of[p] = slices.Compact(sel)
	return g.of[p], nil
}

// pythonReport reads the coverage.py report of the run's patch-side Python
// coverage job (a baseline-side one measures lost coverage only).
func (l *pyLang) pythonReport(ctx context.Context) (*pycov.Report, error) {
	for _, r := range l.in.Run {
		res := r.Record.GetJobResult()
		if res == nil || !strings.HasPrefix(res.JobId, jobs.Coverage+"/"+jobs.Patch+"/") {
			continue
		}
		d, err := jobs.ParseDetail(res.Detail)
		if err != nil {
			continue
		}
		digest, ok := d.Profiles[jobs.PythonProfile]
		if !ok {
			continue
		}
		b, err := l.in.Blobs.Get(ctx, digest)
		if err != nil {
			return nil, &reportError{fmt.Errorf("the coverage.py report: %w", err)}
		}
		rep, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
		if err != nil {
			return nil, fmt.Errorf("the coverage.py report: %w", err)
		}
		return rep, nil
	}
	return nil, errors.New("no coverage.py report is on the ledger for the changed Python source")
}

// pythonFiles lists the .py files of a tree by slash-separated path,
// sorted, leaving out hidden directories.
func pythonFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".py") {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// unjudgeable lists, as "path:line", the sites' lines that run only
// outside the tests in files no test imports.
func unjudgeable(sites map[string]pySite) []string {
	seen := map[string]bool{}
	for _, ps := range sites {
		if ps.outside && len(ps.tests) == 0 {
			seen[fmt.Sprintf("%s:%d", ps.site.File, ps.site.Line)] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// changedPython lists the changed Python source files with their changed
// lines: the checkout's source, which includes modules under tests/ (or
// named like test modules) that non-test code imports (source by use);
// test files are the oracle.
func changedPython(co *checkout.Checkout) map[string][]int {
	out := map[string][]int{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".py") && len(ch.ChangedLines) > 0 {
			out[ch.Path] = ch.ChangedLines
		}
	}
	return out
}

package handler

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

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
	"github.com/sealgate/sealgate/services/mutation/pymutant"
	"github.com/sealgate/sealgate/services/reach/pycov"
)

// pySite is a Python mutation site as Select takes it, with its edit.
type pySite struct {
	site        mutant.Site
	start, end  int
	replacement string
}

// pyKey identifies a site across Select, which returns copies.
func pyKey(s mutant.Site) string {
	return fmt.Sprintf("%s:%d:%d:%s:%s", s.File, s.Line, s.Col, s.Operator, s.Description)
}

// findPython finds the mutation sites of the changed, covered lines of
// Python files (path → lines) in the oracle tree at root. Sites whose
// mutant compiles to the original's code are returned apart, as the
// mutants to report as equivalent: no test can kill them, so they are
// never run and count on neither side of the ratio.
func findPython(ctx context.Context, python, root string, lines map[string][]int) (map[string]pySite, []*pb.Mutant, error) {
	out := map[string]pySite{}
	var equivalent []*pb.Mutant
	if len(lines) == 0 {
		return out, nil, nil
	}
	if python == "" {
		return nil, nil, fmt.Errorf("no Python interpreter was sealed for this run: the mutator cannot judge %s", strings.Join(slices.Sorted(maps.Keys(lines)), ", "))
	}
	for _, p := range slices.Sorted(maps.Keys(lines)) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %v", p, err)
		}
		ls := slices.Sorted(slices.Values(lines[p]))
		found, err := pymutant.Find(ctx, python, src, ls)
		if err != nil {
			return nil, nil, fmt.Errorf("find mutation sites in %s: %v", p, err)
		}
		for _, f := range found {
			ms := mutant.Site{File: p, Line: f.Line, Col: f.Col, Operator: "python_" + f.Operator, Description: f.Description}
			if f.Equivalent {
				equivalent = append(equivalent, &pb.Mutant{Id: fmt.Sprintf("equivalent-%d", len(equivalent)+1),
					At: &pb.LineRef{Path: p, Line: uint32(f.Line)}, Operator: ms.Operator, Description: f.Description, Status: "equivalent"})
				continue
			}
			out[pyKey(ms)] = pySite{site: ms, start: f.Start, end: f.End, replacement: f.Replacement}
		}
	}
	return out, equivalent, nil
}

// outsideTests finds the changed Python lines that ran only outside any
// test (at import, in fixtures, conftest.py or hooks: coverage.py's empty
// context) and, for each, the tests that judge its mutants: every test
// module — and the directory of every conftest.py — that imports its file,
// directly or through other files of the tree (path → line → pytest
// arguments). A line whose file no test imports gets none: its mutants
// cannot be judged.
func (h *Handler) outsideTests(ctx context.Context, run []*record.Decoded, co *checkout.Checkout, python, root string) (map[string]map[int][]string, error) {
	changed := map[string][]int{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".py") && !pycov.IsTestFile(ch.Path) {
			changed[ch.Path] = ch.ChangedLines
		}
	}
	if len(changed) == 0 {
		return nil, nil
	}
	rep, err := h.pythonReport(ctx, run)
	if err != nil {
		return nil, err
	}
	outside, err := pycov.OutsideTests(changed, rep)
	if err != nil || len(outside) == 0 {
		return nil, err
	}
	files, err := pythonFiles(root)
	if err != nil {
		return nil, fmt.Errorf("list the Python files of the tree: %v", err)
	}
	if python == "" {
		return nil, errors.New("no Python interpreter was sealed for this run")
	}
	imports, err := pymutant.ReadImports(ctx, python, root, files)
	if err != nil {
		return nil, fmt.Errorf("read the imports of the tree: %v", err)
	}
	out := map[string]map[int][]string{}
	for p, lines := range outside {
		var sel []string
		for _, imp := range pymutant.Importers(imports, files, p) {
			switch {
			case checkout.IsPytestModule(imp):
				sel = append(sel, imp)
			case path.Base(imp) == "conftest.py":
				sel = append(sel, path.Dir(imp))
			}
		}
		slices.Sort(sel)
		sel = slices.Compact(sel)
		out[p] = map[int][]string{}
		for _, l := range lines {
			out[p][l] = sel
		}
	}
	return out, nil
}

// pythonReport reads the coverage.py report of the run's Python coverage
// job.
func (h *Handler) pythonReport(ctx context.Context, run []*record.Decoded) (*pycov.Report, error) {
	for _, r := range run {
		res := r.Record.GetJobResult()
		if res == nil || !strings.HasPrefix(res.JobId, jobs.Coverage+"/") {
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
		b, err := h.Blobs.Get(ctx, digest)
		if err != nil {
			return nil, fmt.Errorf("the coverage.py report: %v", err)
		}
		rep, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
		if err != nil {
			return nil, fmt.Errorf("the coverage.py report: %v", err)
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

// unjudgeable lists, as "path:line", the lines run only outside tests
// whose file no test imports and that offer a mutant.
func unjudgeable(sites map[string]pySite, outside map[string]map[int][]string) []string {
	seen := map[string]bool{}
	for _, ps := range sites {
		s := ps.site
		if sel, ok := outside[s.File][s.Line]; ok && len(sel) == 0 {
			seen[fmt.Sprintf("%s:%d", s.File, s.Line)] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// TooFew is the sentence that says a change offers fewer distinct mutants
// than the floor needs, or "" when it offers enough (or the floor is 0):
// even with every one killed, the Wilson lower bound could not reach the
// floor. It is the same sentence for Go and Python.
func TooFew(offered int, floor, confidence float64) string {
	if floor <= 0 {
		return ""
	}
	need := mutantsNeeded(floor, confidence)
	switch {
	case need < 0:
		return fmt.Sprintf("the change offers %d distinct mutants; no number of mutants can meet the floor %.3f at %.0f%% confidence", offered, floor, 100*confidence)
	case offered < need:
		return fmt.Sprintf("the change offers %d distinct mutants; the floor needs at least %d", offered, need)
	}
	return ""
}

// mutantsNeeded is the least number of mutants, all killed, whose Wilson
// lower bound meets floor; -1 when none up to 100,000 does.
func mutantsNeeded(floor, confidence float64) int {
	for n := 1; n <= 100_000; n++ {
		if adjudication.WilsonLower(n, n, confidence) >= floor {
			return n
		}
	}
	return -1
}

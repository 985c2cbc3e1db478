package reach

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/reach/cover"
	"github.com/sealgate/sealgate/services/reach/pycov"
)

// pyLang measures Python from the coverage.py report (one context per
// test) of the Python coverage job.
type pyLang struct {
	in          *input
	specs, base []*jobs.Spec // patch-side and baseline coverage jobs
}

// measure measures the changed Python files from the coverage.py report
// of the Python coverage job.
func (p *pyLang) measure(ctx context.Context) (measured, bool, string, error) {
	changed := ChangedPython(p.in.co)
	if len(changed) == 0 {
		return measured{}, false, "", nil
	}
	if len(p.specs) != 1 {
		return measured{}, false, fmt.Sprintf("the patch changes Python source but %d Python coverage jobs ran, not one", len(p.specs)), nil
	}
	digest, ok := p.in.done[p.specs[0].ID()].Profiles[jobs.PythonProfile]
	if !ok {
		return measured{}, false, "the Python coverage job stored no coverage.py report", nil
	}
	b, err := p.in.blob(ctx, digest)
	if err != nil {
		return measured{}, false, "", fmt.Errorf("the coverage.py report: %w", err)
	}
	rep, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
	if err != nil {
		return measured{}, false, fmt.Sprintf("the coverage.py report: %v", err), nil
	}
	res, err := pycov.Measure(changed, rep)
	if err != nil {
		return measured{}, false, err.Error(), nil
	}
	reach, err := pycov.Reach(changed, rep)
	if err != nil {
		return measured{}, false, fmt.Sprintf("the reach map: %v", err), nil
	}
	return measured{res: res, reach: reach, report: b, tests: len(reach)}, true, "", nil
}

// lost finds the lines of the Python source files the patch modifies that
// the baseline's claims ran (the baseline-side Python coverage job), that
// the patch keeps unchanged, and that nothing runs on the patch side (its
// Python coverage job, every context): see pycov.Lost. It says, in why,
// what it could not judge.
func (p *pyLang) lost(ctx context.Context) (lines, deleted []cover.Line, why string, err error) {
	// Deleted Python lines are not judged yet: only the kept ones.
	lines, why, err = p.lostKept(ctx)
	return lines, nil, why, err
}

func (p *pyLang) lostKept(ctx context.Context) ([]cover.Line, string, error) {
	if len(p.base) == 0 {
		return nil, "", nil
	}
	co := p.in.co
	// load returns the job's report, nil when it left none that parses.
	load := func(specs []*jobs.Spec) (*pycov.Report, error) {
		if len(specs) != 1 {
			return nil, nil
		}
		d := p.in.done[specs[0].ID()]
		if d == nil || d.Outcome != jobs.OutcomePass {
			return nil, nil
		}
		digest, ok := d.Profiles[jobs.PythonProfile]
		if !ok {
			return nil, nil
		}
		b, err := p.in.blob(ctx, digest)
		if err != nil {
			return nil, err
		}
		r, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
		if err != nil {
			return nil, nil
		}
		return r, nil
	}
	before, err := load(p.base)
	if err != nil {
		return nil, "", err
	}
	if before == nil {
		return nil, "Python lost coverage not measured: the baseline's claims left no coverage.py report", nil
	}
	after, err := load(p.specs)
	if err != nil {
		return nil, "", err
	}
	if after == nil {
		return nil, "Python lost coverage not measured: no patch-side coverage.py report", nil
	}
	parsed, err := patch.Parse(co.Diff)
	if err != nil {
		return nil, "Python lost coverage not measured: " + err.Error(), nil
	}
	source := map[string]bool{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && strings.HasSuffix(ch.Path, ".py") {
			source[ch.Path] = true
		}
	}
	var files []pycov.KeptFile
	for i := range parsed.Files {
		f := parsed.Files[i]
		if f.Op != patch.OpModified || !source[f.Path()] {
			continue
		}
		files = append(files, pycov.KeptFile{Path: f.Path(), BasePath: f.Path(), Kept: f.Kept})
	}
	return pycov.Lost(files, before, after), "", nil
}

// ChangedPython lists the changed Python source files of the patch side
// with their changed lines: the checkout's source, which includes modules
// under tests/ (or named like test modules) that non-test code imports
// (source by use); test files are the oracle.
func ChangedPython(co *checkout.Checkout) map[string][]int {
	out := map[string][]int{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".py") {
			out[ch.Path] = ch.ChangedLines
		}
	}
	return out
}

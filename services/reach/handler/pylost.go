package handler

import (
	"bytes"
	"context"
	"strings"

	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/reach/cover"
	"github.com/sealgate/sealgate/services/reach/pycov"
)

// lostPython finds the lines of the Python source files the patch
// modifies that the baseline's claims ran (the baseline-side Python
// coverage job), that the patch keeps unchanged, and that nothing runs on
// the patch side (its Python coverage job, every context): see
// pycov.Lost. It says, in why, what it could not judge.
func (h *Handler) lostPython(ctx context.Context, co *checkout.Checkout, base, patchSpecs []*jobs.Spec, done map[string]*jobs.Detail) ([]cover.Line, string) {
	if len(base) == 0 {
		return nil, ""
	}
	load := func(specs []*jobs.Spec) *pycov.Report {
		if len(specs) != 1 {
			return nil
		}
		d := done[specs[0].ID()]
		if d == nil || d.Outcome != jobs.OutcomePass {
			return nil
		}
		digest, ok := d.Profiles[jobs.PythonProfile]
		if !ok {
			return nil
		}
		b, err := h.Blobs.Get(ctx, digest)
		if err != nil {
			return nil
		}
		r, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
		if err != nil {
			return nil
		}
		return r
	}
	before := load(base)
	if before == nil {
		return nil, "Python lost coverage not measured: the baseline's claims left no coverage.py report"
	}
	after := load(patchSpecs)
	if after == nil {
		return nil, "Python lost coverage not measured: no patch-side coverage.py report"
	}
	parsed, err := patch.Parse(co.Diff)
	if err != nil {
		return nil, "Python lost coverage not measured: " + err.Error()
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
	return pycov.Lost(files, before, after), ""
}

// Package handler binds the reach service to the ledger: once every
// coverage job of a run is answered, it computes diff coverage of the
// changed executable lines from the per-test profiles the executor stored
// and records it, with the reach map (which test executes which changed
// line) that mutation runs by.
package handler

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	cohandler "github.com/sealgate/sealgate/services/checkout/handler"
	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/reach/cover"
	"github.com/sealgate/sealgate/services/reach/pycov"
	"github.com/sealgate/sealgate/services/runtime"
)

// Handler is the reach service.
type Handler struct {
	Blobs   *blob.Store
	Scratch string

	measured map[string]bool
}

// Handle measures a run's coverage when its coverage jobs are answered.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run []*record.Decoded, emit runtime.Emit) error {
	if rec.Kind != pb.Kind_KIND_JOB_PLANNED && rec.Kind != pb.Kind_KIND_JOB_RESULT {
		return nil
	}
	seal := runtime.SealOf(run)
	if seal == nil {
		return nil
	}
	sealed, err := criteria.Parse(seal.Record.GetCriteriaSealed().CanonicalCriteria)
	if err != nil || !jobs.MeasureCoverage(sealed.Criteria) {
		return nil
	}
	if h.measured == nil {
		h.measured = map[string]bool{}
	}
	runID := sealed.Criteria.RunID
	if h.measured[runID] {
		return nil
	}
	var planned bool
	var specs []*jobs.Spec
	var parents []string
	done := map[string]*jobs.Detail{}
	for _, r := range run {
		switch b := r.Record.Body.(type) {
		case *pb.Record_CoverageMeasured:
			h.measured[runID] = true
			return nil
		case *pb.Record_JobPlanned:
			if r.Record.Producer.GetIdentity() != "sealgate/executor" {
				continue
			}
			planned = true
			for _, j := range b.JobPlanned.Jobs {
				if s, err := jobs.ParseSpec(j.Spec); err == nil && s.Purpose == jobs.Coverage {
					specs = append(specs, s)
				}
			}
		case *pb.Record_JobResult:
			if d, err := jobs.ParseDetail(b.JobResult.Detail); err == nil && strings.HasPrefix(b.JobResult.JobId, jobs.Coverage+"/") {
				done[b.JobResult.JobId] = d
				parents = append(parents, r.Digest)
			}
		}
	}
	if !planned {
		return nil
	}
	for _, s := range specs {
		if done[s.ID()] == nil {
			return nil
		}
	}
	if len(parents) == 0 {
		parents = []string{seal.Digest}
	}
	m := h.measure(ctx, run, sealed, specs, done)
	h.measured[runID] = true
	_, err = emit(ctx, &pb.Record{RunId: runID, CriteriaDigest: sealed.Digest, Parents: parents,
		Body: &pb.Record_CoverageMeasured{CoverageMeasured: m}})
	if _, refused := err.(*runtime.RefusedError); refused {
		return nil
	}
	return err
}

// none is a measurement that could not be made, and why.
func none(format string, args ...any) *pb.CoverageMeasured {
	return &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, Reason: fmt.Sprintf(format, args...)}
}

func (h *Handler) measure(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed, specs []*jobs.Spec, done map[string]*jobs.Detail) *pb.CoverageMeasured {
	if len(specs) == 0 {
		return none("the patch changes no Go or Python source file the gate can measure")
	}
	for _, s := range specs {
		if d := done[s.ID()]; d.Outcome != jobs.OutcomePass && s.Side != jobs.Baseline {
			return none("coverage job %s: %s", s.ID(), d.Reason)
		}
	}
	co, release, err := cohandler.Rebuild(ctx, h.Blobs, h.Scratch, run, sealed)
	if err != nil {
		return none("the reach service could not rebuild the trees: %v", err)
	}
	defer release()
	var goSpecs, pySpecs, baseSpecs, pyBaseSpecs []*jobs.Spec
	for _, s := range specs {
		switch {
		case s.Side == jobs.Baseline && s.Runner == jobs.RunnerPytest:
			pyBaseSpecs = append(pyBaseSpecs, s)
		case s.Side == jobs.Baseline:
			baseSpecs = append(baseSpecs, s)
		case s.Runner == jobs.RunnerPytest:
			pySpecs = append(pySpecs, s)
		default:
			goSpecs = append(goSpecs, s)
		}
	}
	var parts []measured
	goFiles, err := changedFiles(ctx, co)
	if err != nil {
		return none("%v", err)
	}
	if len(goFiles) > 0 {
		m, err := h.measureGo(ctx, goFiles, goSpecs, done)
		if err != nil {
			return none("%v", err)
		}
		parts = append(parts, m)
	}
	if py := changedPython(co); len(py) > 0 {
		m, err := h.measurePython(ctx, py, pySpecs, done)
		if err != nil {
			return none("%v", err)
		}
		parts = append(parts, m)
	}
	if len(parts) == 0 {
		return none("the patch changes no Go or Python source file the gate can measure")
	}
	lost, lostWhy := h.lost(ctx, co, baseSpecs, goSpecs, done)
	pyLost, pyLostWhy := h.lostPython(ctx, co, pyBaseSpecs, pySpecs, done)
	lost = append(lost, pyLost...)
	lostWhy = strings.Join(slices.DeleteFunc([]string{lostWhy, pyLostWhy}, func(s string) bool { return s == "" }), "; ")
	// One measurement over both languages: the lines add up, the reach
	// maps join (test names of the two never collide: Go's are
	// "<import path>.<Test>", pytest's node ids hold "::"), and the
	// profile digest covers every report read, in a fixed order.
	var res cover.Result
	reach := map[string][]cover.Line{}
	digest := sha256.New()
	tests := 0
	for _, p := range parts {
		res.Changed += p.res.Changed
		res.Covered += p.res.Covered
		res.Uncovered = append(res.Uncovered, p.res.Uncovered...)
		res.Excluded = append(res.Excluded, p.res.Excluded...)
		res.Unmeasured = append(res.Unmeasured, p.res.Unmeasured...)
		for t, ls := range p.reach {
			reach[t] = append(reach[t], ls...)
		}
		digest.Write(p.report)
		tests += p.tests
	}
	if res.Changed > 0 && len(res.Unmeasured) == 0 {
		ratio := float64(res.Covered) / float64(res.Changed)
		res.Ratio = &ratio
	}
	profileSum := hex.EncodeToString(digest.Sum(nil))
	if len(parts) == 1 {
		sum := sha256.Sum256(parts[0].report)
		profileSum = hex.EncodeToString(sum[:])
	}
	// Lines of C in a cgo preamble are comments to Go's coverage, and
	// code: never "comment, no statement" (the checkout names them).
	cgo := cgoLines(goFiles, res.Excluded)
	var cgoSays string
	if cgo > 0 {
		cgoSays = fmt.Sprintf("; %d changed lines of C in cgo preambles, which Go coverage cannot see", cgo)
	}
	m := &pb.CoverageMeasured{
		Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED, Ratio: res.Ratio,
		ChangedLines: uint32(res.Changed), CoveredLines: uint32(res.Covered),
		DiffSha256: co.DiffSHA256, ProfileSha256: profileSum,
		Reason: fmt.Sprintf("%d of %d changed executable lines run by %d tests; %d changed lines excluded (blank, comment, no statement)%s", res.Covered, res.Changed, tests, len(res.Excluded)-cgo, cgoSays),
	}
	switch {
	case len(res.Unmeasured) > 0:
		m.Source = pb.MeasurementSource_MEASUREMENT_SOURCE_NONE
		m.Reason = fmt.Sprintf("no coverage report names %s: they were not measured", strings.Join(res.Unmeasured, ", "))
	case res.Ratio == nil:
		m.Source = pb.MeasurementSource_MEASUREMENT_SOURCE_NONE
		m.Reason = fmt.Sprintf("the patch changes no executable source line (%d changed lines excluded: blank, comment, no statement%s)", len(res.Excluded)-cgo, cgoSays)
	}
	slices.SortFunc(res.Uncovered, func(a, b cover.Line) int { return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line)) })
	for _, l := range res.Uncovered {
		m.Uncovered = append(m.Uncovered, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
	}
	for _, l := range lost {
		m.Lost = append(m.Lost, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
	}
	if lostWhy != "" {
		m.Reason += "; " + lostWhy
	}
	for _, test := range slices.Sorted(maps.Keys(reach)) {
		e := &pb.ReachEntry{Test: test}
		for _, l := range reach[test] {
			e.Lines = append(e.Lines, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
		}
		m.Reach = append(m.Reach, e)
	}
	return m
}

// lost finds the lines the claims ran on the baseline (the baseline
// coverage jobs) that the patch keeps unchanged in the files it modifies
// and no test runs on the patch (the patch-side coverage jobs, merged). It
// says, in why, what it could not judge: lost coverage is measured where
// it can be, and a claim that panics on the baseline leaves no profile.
func (h *Handler) lost(ctx context.Context, co *checkout.Checkout, base, patchSpecs []*jobs.Spec, done map[string]*jobs.Detail) ([]cover.Line, string) {
	if len(base) == 0 {
		return nil, ""
	}
	load := func(specs []*jobs.Spec, keep func(key string) bool) (*cover.Profile, error) {
		var all []*cover.Profile
		for _, s := range specs {
			d := done[s.ID()]
			if d == nil || d.Outcome != jobs.OutcomePass {
				continue
			}
			for key, digest := range d.Profiles {
				if !keep(key) {
					continue
				}
				b, err := h.Blobs.Get(ctx, digest)
				if err != nil {
					return nil, err
				}
				p, err := cover.ParseProfile(bytes.NewReader(b))
				if err != nil {
					return nil, err
				}
				all = append(all, p)
			}
		}
		if len(all) == 0 {
			return nil, nil
		}
		return cover.Merge(all...)
	}
	before, err := load(base, func(k string) bool { return k == jobs.BaselineProfile })
	if err != nil || before == nil {
		return nil, "lost coverage not measured: the claims left no baseline profile"
	}
	after, err := load(patchSpecs, func(string) bool { return true })
	if err != nil || after == nil {
		return nil, "lost coverage not measured: no patch-side profile"
	}
	parsed, err := patch.Parse(co.Diff)
	if err != nil {
		return nil, "lost coverage not measured: " + err.Error()
	}
	var files []cover.KeptFile
	mods := map[string]string{}
	for i := range parsed.Files {
		f := parsed.Files[i]
		if f.Op != patch.OpModified || !strings.HasSuffix(f.Path(), ".go") || strings.HasSuffix(f.Path(), "_test.go") {
			continue
		}
		name, err := profileName(ctx, co, f.Path(), mods)
		if err != nil {
			continue
		}
		src, err := co.Patch.ReadFiles(ctx, []string{f.Path()})
		if err != nil {
			continue
		}
		files = append(files, cover.KeptFile{Path: f.Path(), BaseProfile: name, PatchProfile: name, Kept: f.Kept, Src: src[f.Path()]})
	}
	return cover.Lost(files, before, after), ""
}

// measured is one language's part of a measurement.
type measured struct {
	res    cover.Result
	reach  map[string][]cover.Line
	report []byte // the report read, as hashed
	tests  int
}

// measureGo measures the changed Go files from the per-test profiles of
// the Go coverage jobs.
func (h *Handler) measureGo(ctx context.Context, files []cover.File, specs []*jobs.Spec, done map[string]*jobs.Detail) (measured, error) {
	perTest := map[string]*cover.Profile{}
	var all []*cover.Profile
	for _, s := range specs {
		for test, digest := range done[s.ID()].Profiles {
			b, err := h.Blobs.Get(ctx, digest)
			if err != nil {
				return measured{}, fmt.Errorf("the profile of %s: %v", test, err)
			}
			p, err := cover.ParseProfile(bytes.NewReader(b))
			if err != nil {
				return measured{}, fmt.Errorf("the profile of %s: %v", test, err)
			}
			if !strings.HasPrefix(test, jobs.GroupProfilePrefix) {
				perTest[test] = p
			}
			all = append(all, p)
		}
	}
	merged := &cover.Profile{Mode: "set"}
	if len(all) > 0 {
		var err error
		if merged, err = cover.Merge(all...); err != nil {
			return measured{}, err
		}
	}
	res, err := cover.Measure(files, merged)
	if err != nil {
		return measured{}, err
	}
	var rendered bytes.Buffer
	if err := merged.Write(&rendered); err != nil {
		return measured{}, err
	}
	reach, err := cover.Reach(files, perTest)
	if err != nil {
		return measured{}, fmt.Errorf("the reach map: %v", err)
	}
	return measured{res: res, reach: reach, report: rendered.Bytes(), tests: len(perTest)}, nil
}

// measurePython measures the changed Python files from the coverage.py
// report (one context per test) of the Python coverage job.
func (h *Handler) measurePython(ctx context.Context, changed map[string][]int, specs []*jobs.Spec, done map[string]*jobs.Detail) (measured, error) {
	if len(specs) != 1 {
		return measured{}, fmt.Errorf("the patch changes Python source but %d Python coverage jobs ran, not one", len(specs))
	}
	digest, ok := done[specs[0].ID()].Profiles[jobs.PythonProfile]
	if !ok {
		return measured{}, errors.New("the Python coverage job stored no coverage.py report")
	}
	b, err := h.Blobs.Get(ctx, digest)
	if err != nil {
		return measured{}, fmt.Errorf("the coverage.py report: %v", err)
	}
	rep, err := pycov.Parse(bytes.NewReader(b), pycov.Limits{})
	if err != nil {
		return measured{}, fmt.Errorf("the coverage.py report: %v", err)
	}
	res, err := pycov.Measure(changed, rep)
	if err != nil {
		return measured{}, err
	}
	reach, err := pycov.Reach(changed, rep)
	if err != nil {
		return measured{}, fmt.Errorf("the reach map: %v", err)
	}
	return measured{res: res, reach: reach, report: b, tests: len(reach)}, nil
}

// changedPython lists the changed Python source files of the patch side
// with their changed lines.
func changedPython(co *checkout.Checkout) map[string][]int {
	out := map[string][]int{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".py") {
			out[ch.Path] = ch.ChangedLines
		}
	}
	return out
}

// changedFiles lists the changed Go source files of the patch side with
// their changed lines, sources and the names coverage profiles give them.
func changedFiles(ctx context.Context, co *checkout.Checkout) ([]cover.File, error) {
	var paths []string
	byPath := map[string][]int{}
	for _, ch := range co.Changes {
		if ch.Class != checkout.ClassSource || ch.Kind == checkout.Deleted || !strings.HasSuffix(ch.Path, ".go") {
			continue
		}
		paths = append(paths, ch.Path)
		byPath[ch.Path] = ch.ChangedLines
	}
	if len(paths) == 0 {
		return nil, nil
	}
	srcs, err := co.Patch.ReadFiles(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("read the changed files: %v", err)
	}
	var out []cover.File
	mods := map[string]string{}
	for _, p := range paths {
		name, err := profileName(ctx, co, p, mods)
		if err != nil {
			return nil, err
		}
		out = append(out, cover.File{Path: p, Profile: name, Src: srcs[p], Lines: byPath[p]})
	}
	return out, nil
}

// cgoLines counts the lines of excluded that lie in a cgo preamble of
// their file (inspect.CgoPreambles).
func cgoLines(files []cover.File, excluded []cover.Line) int {
	n := 0
	for _, f := range files {
		ranges := inspect.CgoPreambles(f.Src)
		for _, l := range excluded {
			if l.Path != f.Path {
				continue
			}
			for _, r := range ranges {
				if l.Line >= r[0] && l.Line <= r[1] {
					n++
					break
				}
			}
		}
	}
	return n
}

// profileName is the name go test's coverage profiles give a file: its
// package's import path and its base name.
func profileName(ctx context.Context, co *checkout.Checkout, p string, mods map[string]string) (string, error) {
	dir := path.Dir(p)
	for d := dir; ; d = path.Dir(d) {
		gomod := path.Join(d, "go.mod")
		if _, ok := co.Patch.Lookup(gomod); ok {
			mp, cached := mods[d]
			if !cached {
				b, err := co.Patch.ReadFiles(ctx, []string{gomod})
				if err != nil {
					return "", err
				}
				if mp, err = jobs.ModulePath(b[gomod]); err != nil {
					return "", fmt.Errorf("%s: %v", gomod, err)
				}
				mods[d] = mp
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				rel = dir
			}
			if rel == "." || rel == "" {
				return mp + "/" + path.Base(p), nil
			}
			return mp + "/" + rel + "/" + path.Base(p), nil
		}
		if d == "." {
			return "", fmt.Errorf("no go.mod holds %s", p)
		}
	}
}

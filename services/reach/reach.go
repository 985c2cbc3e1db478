// Package reach computes a run's diff coverage: of the changed executable
// lines of the patch's source, how many the patch-side coverage jobs ran,
// which test runs which changed line (the reach map mutation runs by), and
// the lines the patch keeps but no longer runs (lost coverage). Each
// language the gate measures (Go by its coverage profiles, Python by
// coverage.py reports) sits behind one small seam, chosen once per run.
package reach

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/reach/cover"
)

// Blobs reads the reports the coverage jobs stored.
type Blobs interface {
	Get(ctx context.Context, digest string) ([]byte, error)
}

// Coverage is what a run's coverage jobs answered: their specs and the
// detail of each answer, by job id.
type Coverage struct {
	Specs []*jobs.Spec
	Done  map[string]*jobs.Detail
}

// NotMeasured is a measurement that could not be made, and why.
func NotMeasured(format string, args ...any) *pb.CoverageMeasured {
	return &pb.CoverageMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, Reason: fmt.Sprintf(format, args...)}
}

// Unmeasurable is the "not measured" record of coverage jobs that allow
// no measurement whatever the trees (none planned, a patch-side job that
// did not pass), or nil: a service checks it before rebuilding the trees.
func Unmeasurable(cov Coverage) *pb.CoverageMeasured {
	if len(cov.Specs) == 0 {
		return NotMeasured("the patch changes no Go or Python source file the gate can measure")
	}
	for _, s := range cov.Specs {
		if d := cov.Done[s.ID()]; d.Outcome != jobs.OutcomePass && s.Side != jobs.Baseline {
			return NotMeasured("coverage job %s: %s", s.ID(), d.Reason)
		}
	}
	return nil
}

// input is what every language's measurement reads.
type input struct {
	blobs Blobs
	co    *checkout.Checkout
	done  map[string]*jobs.Detail
}

// blob reads a stored report; a report the store does not give back is a
// failure of the work, not evidence.
func (in *input) blob(ctx context.Context, digest string) ([]byte, error) {
	b, err := in.blobs.Get(ctx, digest)
	if err != nil {
		return nil, fmt.Errorf("read a coverage report from the blob store: %w", err)
	}
	return b, nil
}

// language is one language's part of diff coverage.
type language interface {
	// measure measures the language's changed files: ok false when the
	// patch changes none; why non-empty when the evidence does not allow
	// a measurement (then the whole measurement is not made).
	measure(ctx context.Context) (m measured, ok bool, why string, err error)
	// lost finds the lines of modified files the baseline's claims ran,
	// the patch keeps, and nothing runs on the patch side, and the
	// baseline lines of code it deletes outright that the claims never
	// ran; why says what could not be judged.
	lost(ctx context.Context) (lines, deleted []cover.Line, why string, err error)
}

// measured is one language's part of a measurement.
type measured struct {
	res    cover.Result
	reach  map[string][]cover.Line
	report []byte // the report read, as hashed
	tests  int
	cgo    int // excluded lines that are C in a cgo preamble
}

// languages deals the coverage jobs to the languages, in the order their
// parts join the measurement: Go, then Python.
func languages(in *input, specs []*jobs.Spec) []language {
	g, p := &goLang{in: in}, &pyLang{in: in}
	for _, s := range specs {
		switch {
		case s.Side == jobs.Baseline && s.Runner == jobs.RunnerPytest:
			p.base = append(p.base, s)
		case s.Side == jobs.Baseline:
			g.base = append(g.base, s)
		case s.Runner == jobs.RunnerPytest:
			p.specs = append(p.specs, s)
		default:
			g.specs = append(g.specs, s)
		}
	}
	return []language{g, p}
}

// Measure computes the coverage.measured body of a run from its rebuilt
// trees and its answered coverage jobs. Evidence that does not allow a
// measurement (a coverage job that failed, a report that does not parse,
// a changed line no report names) is a record that says so; an error is a
// failure of the work (the blob store not giving a report back).
func Measure(ctx context.Context, blobs Blobs, co *checkout.Checkout, cov Coverage) (*pb.CoverageMeasured, error) {
	if m := Unmeasurable(cov); m != nil {
		return m, nil
	}
	in := &input{blobs: blobs, co: co, done: cov.Done}
	langs := languages(in, cov.Specs)
	var parts []measured
	for _, l := range langs {
		m, ok, why, err := l.measure(ctx)
		switch {
		case err != nil:
			return nil, err
		case why != "":
			return NotMeasured("%s", why), nil
		case ok:
			parts = append(parts, m)
		}
	}
	if len(parts) == 0 {
		return NotMeasured("the patch changes no Go or Python source file the gate can measure"), nil
	}
	var lost, deleted []cover.Line
	var lostWhy []string
	for _, l := range langs {
		lines, del, why, err := l.lost(ctx)
		if err != nil {
			return nil, err
		}
		lost = append(lost, lines...)
		deleted = append(deleted, del...)
		if why != "" {
			lostWhy = append(lostWhy, why)
		}
	}
	// One measurement over both languages: the lines add up, the reach
	// maps join (test names of the two never collide: Go's are
	// "<import path>.<Test>", pytest's node ids hold "::"), and the
	// profile digest covers every report read, in a fixed order.
	var res cover.Result
	reach := map[string][]cover.Line{}
	digest := sha256.New()
	tests, cgo := 0, 0
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
		cgo += p.cgo
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
		// Computed, with nothing to cover: no ratio. What the patch
		// changes may still be behaviour coverage cannot see (rows of a
		// package-level table, constants): mutation judges those data
		// lines, and the decision accepts this measurement only when a
		// killed mutant witnesses every one of them.
		m.Reason = fmt.Sprintf("the patch changes no executable source line: nothing for coverage to measure (%d changed lines excluded: blank, comment, no statement, data%s)", len(res.Excluded)-cgo, cgoSays)
	}
	slices.SortFunc(res.Uncovered, func(a, b cover.Line) int { return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line)) })
	for _, l := range res.Uncovered {
		m.Uncovered = append(m.Uncovered, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
	}
	for _, l := range lost {
		m.Lost = append(m.Lost, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
	}
	for _, l := range deleted {
		m.Deleted = append(m.Deleted, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
	}
	if len(lostWhy) > 0 {
		m.Reason += "; " + strings.Join(lostWhy, "; ")
	}
	for _, test := range slices.Sorted(maps.Keys(reach)) {
		e := &pb.ReachEntry{Test: test}
		for _, l := range reach[test] {
			e.Lines = append(e.Lines, &pb.LineRef{Path: l.Path, Line: uint32(l.Line)})
		}
		m.Reach = append(m.Reach, e)
	}
	return m, nil
}

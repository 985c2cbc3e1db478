// Package handler binds the mutation service to the ledger: when a run's
// diff coverage is recorded it finds mutation sites on the changed, covered
// lines, compiles them all into the package once (mutant schemata), plans
// one job per mutant, runs each against the tests that reach its line, and
// records the suite's strength.
package handler

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/checkout"
	cohandler "github.com/sealgate/sealgate/services/checkout/handler"
	"github.com/sealgate/sealgate/services/executor"
	exhandler "github.com/sealgate/sealgate/services/executor/handler"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
)

// Handler is the mutation service.
type Handler struct {
	Exec     *executor.Executor
	Blobs    *blob.Store
	Scratch  string
	Progress func(runID, jobID, state string)

	spaces  map[string]*executor.Workspace
	settled map[string]bool
	// switches holds each run's mutant switch (per-run secret tokens):
	// the executor sets its variable in every mutant and reference run.
	switches map[string]mutant.Switch
	// notes holds what planning found beyond the planned jobs: the
	// equivalent mutants and the count of distinct mutants offered.
	notes map[string]*planNotes
	// equivalent holds each run's Python mutants that compile to the
	// original's code, found when planning (and again when rebuilding).
	pyEquivalent map[string][]*pb.Mutant
}

// planNotes is what the strength record reports beside the mutants run.
type planNotes struct {
	equivalent []mutant.Site // never run: the same program
	distinct   int           // distinct mutants the change offers
	need       int           // killed mutants the floor needs (0: none; -1: unreachable)
	skipped    []string      // sites the schemata cannot write, with why
	// dataLines are the changed data lines (package-level initializers,
	// lines of embedded files) that have mutants: each must have one
	// killed, sorted by path and line.
	dataLines []lineRef
	// judges maps the line of a data site to the other data lines its
	// mutants judge (an embedded file's line → the lines of the
	// //go:embed variable): a kill there witnesses them too.
	judges map[lineRef][]lineRef
}

// lineRef is a line of a file of the repository.
type lineRef struct {
	path string
	line int
}

// Handle reacts to coverage, its own plans and its own results.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run []*record.Decoded, emit runtime.Emit) error {
	if h.spaces == nil {
		h.spaces, h.settled = map[string]*executor.Workspace{}, map[string]bool{}
		h.switches, h.notes, h.pyEquivalent = map[string]mutant.Switch{}, map[string]*planNotes{}, map[string][]*pb.Mutant{}
	}
	seal := runtime.SealOf(run)
	if seal == nil {
		return nil
	}
	sealed, err := criteria.Parse(seal.Record.GetCriteriaSealed().CanonicalCriteria)
	if err != nil || !jobs.MeasureStrength(sealed.Criteria) {
		return nil
	}
	runID := sealed.Criteria.RunID
	switch rec.Kind {
	case pb.Kind_KIND_COVERAGE_MEASURED:
		if hasOwn(run, pb.Kind_KIND_JOB_PLANNED) || hasOwn(run, pb.Kind_KIND_STRENGTH_MEASURED) {
			// Delivered again after a restart: the mutants are planned.
			return nil
		}
		return h.plan(ctx, rec, run, sealed, emit)
	case pb.Kind_KIND_JOB_PLANNED:
		if rec.Record.Producer.GetIdentity() != keyring.Mutation {
			return nil
		}
		if h.spaces[runID] == nil {
			if err := h.rebuild(ctx, run, sealed); err != nil {
				return err
			}
		}
		return h.execute(ctx, rec, run, sealed, emit)
	case pb.Kind_KIND_JOB_RESULT:
		if rec.Record.Producer.GetIdentity() != keyring.Mutation || h.settled[runID] || hasOwn(run, pb.Kind_KIND_STRENGTH_MEASURED) {
			return nil
		}
		if h.notes[runID] == nil {
			// Planned before this process started: plan again, without
			// emitting, for what the strength record reports.
			if err := h.rebuild(ctx, run, sealed); err != nil {
				return err
			}
		}
		return h.settle(ctx, run, sealed, emit)
	case pb.Kind_KIND_VERDICT_REACHED:
		if w := h.spaces[runID]; w != nil {
			w.Close()
		}
		delete(h.spaces, runID)
		delete(h.settled, runID)
		delete(h.switches, runID)
		delete(h.notes, runID)
		delete(h.pyEquivalent, runID)
	}
	return nil
}

func (h *Handler) strength(ctx context.Context, sealed *criteria.Sealed, parents []string, m *pb.StrengthMeasured, emit runtime.Emit) error {
	h.settled[sealed.Criteria.RunID] = true
	m.Confidence = sealed.Criteria.StrengthConfidence
	_, err := emit(ctx, &pb.Record{RunId: sealed.Criteria.RunID, CriteriaDigest: sealed.Digest, Parents: parents,
		Body: &pb.Record_StrengthMeasured{StrengthMeasured: m}})
	if _, refused := err.(*runtime.RefusedError); refused {
		return nil
	}
	return err
}

func notMeasured(format string, args ...any) *pb.StrengthMeasured {
	return &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, Reason: fmt.Sprintf(format, args...)}
}

func (h *Handler) plan(ctx context.Context, covRec *record.Decoded, run []*record.Decoded, sealed *criteria.Sealed, emit runtime.Emit) error {
	c := sealed.Criteria
	cov := covRec.Record.GetCoverageMeasured()
	parents := []string{covRec.Digest}
	switch {
	case c.MutationMax == 0:
		return h.strength(ctx, sealed, parents, notMeasured("mutation switched off (mutation_max 0)"), emit)
	case cov.Source != pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED:
		return h.strength(ctx, sealed, parents, notMeasured("no computed diff coverage to find the covered changed lines: %s", cov.Reason), emit)
	}
	co, release, err := cohandler.Rebuild(ctx, h.Blobs, h.Scratch, run, sealed)
	if err != nil {
		return h.strength(ctx, sealed, parents, notMeasured("the mutation service could not rebuild the trees: %v", err), emit)
	}
	w, err := h.Exec.Open(ctx, c.RunID+"-mutation", co)
	release()
	if err != nil {
		return h.strength(ctx, sealed, parents, notMeasured("the mutation service could not materialize the trees: %v", err), emit)
	}
	h.spaces[c.RunID] = w
	l := c.Limits
	w.Limits.CPUSeconds, w.Limits.MemoryBytes, w.Limits.MaxProcesses, w.Limits.MaxOpenFiles = l.CPUSeconds, l.MemoryBytes, l.MaxProcesses, l.MaxOpenFiles

	// The changed lines some test executes, and who executes them.
	reaching := map[string]map[int][]string{} // path → line → tests
	for _, e := range cov.Reach {
		for _, l := range e.Lines {
			if reaching[l.Path] == nil {
				reaching[l.Path] = map[int][]string{}
			}
			reaching[l.Path][int(l.Line)] = append(reaching[l.Path][int(l.Line)], e.Test)
		}
	}
	// Changed Go source the host build leaves out (build constraints, cgo)
	// can carry no mutant that runs here: strength cannot be verified.
	changedDirs := map[string][]string{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".go") {
			changedDirs[path.Dir(ch.Path)] = append(changedDirs[path.Dir(ch.Path)], path.Base(ch.Path))
		}
	}
	var unjudged []string
	for _, d := range slices.Sorted(maps.Keys(changedDirs)) {
		pkg, err := readPackage(w.PristineDir(jobs.TreeOracle), d)
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("read %s: %v", d, err), emit)
		}
		excluded, err := mutant.Excluded(pkg)
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("read %s: %v", d, err), emit)
		}
		for _, f := range changedDirs[d] {
			if slices.Contains(excluded, f) {
				unjudged = append(unjudged, path.Join(d, f))
			}
		}
	}
	if len(unjudged) > 0 {
		return h.strength(ctx, sealed, parents, notMeasured("the mutator cannot judge %s: the host build leaves them out (build constraints or cgo)", strings.Join(unjudged, ", ")), emit)
	}
	// Every changed line of the changed Go packages is inspected: code
	// sites count on the lines tests execute, data sites (package-level
	// values, embedded files) on the data lines coverage cannot see.
	byDir := goLines(w.PristineDir(jobs.TreeOracle), co.Changes, reaching)
	var sites, equivalent []mutant.Site
	var dataLines, skipped []string
	var changedData []lineRef
	judges := map[lineRef][]lineRef{}
	where := map[string]located{} // pyKey of a Go site → its package
	pkgs := map[string]mutant.Package{}
	for _, d := range slices.Sorted(maps.Keys(byDir)) {
		pkg, err := readPackage(w.PristineDir(jobs.TreeOracle), d)
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("read %s: %v", d, err), emit)
		}
		pkgs[d] = pkg
		survey, err := mutant.Inspect(pkg, byDir[d])
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("find mutation sites in %s: %v", d, err), emit)
		}
		for at, ls := range survey.Judges {
			i := strings.LastIndexByte(at, ':') // a path may hold colons; the line number follows the last
			file, line := at[:max(i, 0)], at[i+1:]
			n, err := strconv.Atoi(line)
			if err != nil {
				continue
			}
			for _, l := range ls {
				ref := lineRef{path.Join(d, file), n}
				judges[ref] = append(judges[ref], lineRef{path.Join(d, l.File), l.Line})
			}
		}
		kind := map[string]mutant.LineKind{}
		for _, l := range survey.Lines {
			kind[fmt.Sprintf("%s:%d", l.File, l.Line)] = l.Kind
			if l.Kind == mutant.LineData || l.Kind == mutant.LineTable {
				// A row of a table in code is judged by code mutants
				// and, like data, needs a kill of its own.
				changedData = append(changedData, lineRef{path.Join(d, l.File), l.Line})
			}
			if l.Kind == mutant.LineUnjudgeable {
				dataLines = append(dataLines, fmt.Sprintf("%s:%d (%s)", path.Join(d, l.File), l.Line, l.Reason))
			}
		}
		for _, sk := range survey.Skipped {
			p := path.Join(d, sk.Site.File)
			if kind[fmt.Sprintf("%s:%d", sk.Site.File, sk.Site.Line)] == mutant.LineData || len(reaching[p][sk.Site.Line]) > 0 {
				skipped = append(skipped, fmt.Sprintf("%s:%d %s (%s)", p, sk.Site.Line, sk.Site.Description, sk.Reason))
			}
		}
		for _, s := range survey.Sites {
			data := kind[fmt.Sprintf("%s:%d", s.File, s.Line)] == mutant.LineData
			rel := s.File
			s.File = path.Join(d, s.File)
			if _, dup := where[pyKey(s)]; dup || !data && len(reaching[s.File][s.Line]) == 0 {
				continue // code no test executes, or a file two packages embed
			}
			if s.Equivalent != "" {
				equivalent = append(equivalent, s)
				continue
			}
			where[pyKey(s)] = located{dir: d, file: rel, data: data}
			sites = append(sites, s)
		}
	}
	// Changed data files non-test source reads by name (not embedded,
	// which the survey judged above): their content is behaviour no
	// mutant of the code reaches.
	judgedData := map[string]bool{}
	for d, lines := range byDir {
		for f := range lines {
			judgedData[path.Join(d, f)] = true
		}
	}
	for _, f := range co.DataReferenced {
		if !judgedData[f] && !strings.HasSuffix(f, ".go") {
			dataLines = append(dataLines, f+" (a data file the code reads at run time: no mutant reaches it)")
		}
	}
	if len(dataLines) > 0 {
		return h.strength(ctx, sealed, parents, notMeasured("the mutator cannot judge changed data: %s", strings.Join(dataLines, "; ")), emit)
	}
	// Python sites, each with the tests that ran its statement (or, for
	// a statement that ran only at import or in fixtures, the test
	// modules importing its file, or none: then it cannot be judged).
	pySites, pyEq, err := h.pythonSites(ctx, run, co, c.Python, w.PristineDir(jobs.TreeOracle))
	if err != nil {
		return h.strength(ctx, sealed, parents, notMeasured("%v", err), emit)
	}
	h.pyEquivalent[c.RunID] = pyEq
	if lines := unjudgeable(pySites); len(lines) > 0 {
		return h.strength(ctx, sealed, parents, notMeasured("the mutator cannot judge %s: they run only outside the tests (at import, in fixtures, conftest.py or hooks) and no test module imports their file", strings.Join(lines, ", ")), emit)
	}
	for _, ps := range slices.Sorted(maps.Keys(pySites)) {
		sites = append(sites, pySites[ps].site)
	}
	// The extra operators join when the primary ones offer fewer mutants
	// than the floor needs.
	slices.SortFunc(changedData, func(a, b lineRef) int { return cmp.Or(strings.Compare(a.path, b.path), a.line-b.line) })
	notes := &planNotes{equivalent: equivalent, skipped: skipped, need: killsNeeded(c.StrengthFloor, c.StrengthConfidence),
		dataLines: slices.Compact(changedData), judges: judges}
	offered, distinct := mutant.Offer(sites, max(notes.need, 0))
	notes.distinct = distinct
	h.notes[c.RunID] = notes
	trees := runTrees(run)
	chosen := mutant.Select(offered, c.MutationMax, []byte(trees))
	if len(chosen) == 0 {
		reason := fmt.Sprintf("no mutation site on the %d changed, covered lines", countLines(reaching))
		if few := TooFew(0, c.StrengthFloor, c.StrengthConfidence); few != "" {
			reason += ": " + few
		}
		return h.strength(ctx, sealed, parents, &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED,
			Mutants: append(equivalentMutants(equivalent, 0), pyEq...), Reason: reason}, emit)
	}
	var goIDs []int
	for _, s := range chosen {
		if _, py := pySites[pyKey(s)]; !py {
			goIDs = append(goIDs, s.ID)
		}
	}
	// The switch is fresh per run; a run planned before a restart keeps
	// the one its plan recorded, so the rebuilt schemata match it.
	sw, ok := recordedSwitch(run)
	if !ok {
		if sw, err = mutant.NewSwitch(goIDs); err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("make the mutant switch: %v", err), emit)
		}
	}
	h.switches[c.RunID] = sw
	overlay := map[string][]byte{}
	for d, pkg := range pkgs {
		var mine []mutant.Site
		for _, s := range chosen {
			if at, ok := where[pyKey(s)]; ok && at.dir == d {
				s.File = at.file
				mine = append(mine, s)
			}
		}
		if len(mine) == 0 {
			continue
		}
		out, err := mutant.Schemata(pkg, mine, sw)
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("build the mutant schemata of %s: %v", d, err), emit)
		}
		for base, b := range out {
			overlay[path.Join(d, base)] = b
		}
	}
	if len(overlay) > 0 {
		if err := w.Schemata(overlay); err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("write the mutant schemata: %v", err), emit)
		}
	}
	targetsOf := testPackages(run)
	allTests := coveredTests(run)
	var specs []*jobs.Spec
	for _, s := range chosen {
		if ps, ok := pySites[pyKey(s)]; ok {
			// A Python mutant: its edit made in memory, run against the
			// node ids that reach its statement (or, for a statement run
			// only outside the tests, the modules importing its file).
			tests := slices.Clone(ps.tests)
			specs = append(specs, &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".",
				Runner: jobs.RunnerPytest, Python: c.Python, TimeoutSec: c.Limits.ClaimTimeoutSec,
				Mutation: &jobs.MutantRef{ID: s.ID, Path: s.File, Line: s.Line, Col: s.Col, Operator: s.Operator, Description: s.Description,
					Start: ps.start, End: ps.end, Replacement: ps.replacement},
				Targets: []jobs.Target{{Tests: slices.Compact(tests)}}})
			continue
		}
		spec := &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", TimeoutSec: c.Limits.ClaimTimeoutSec,
			Mutation: &jobs.MutantRef{ID: s.ID, Path: s.File, Line: s.Line, Col: s.Col, Operator: s.Operator, Description: s.Description,
				Var: sw.Var, Token: sw.Tokens[s.ID], Ref: sw.Refs[s.ID]}}
		byPkg := map[string][]string{}
		tests := reaching[s.File][s.Line]
		if at := where[pyKey(s)]; at.data {
			// Data is read when the package initializes, or any time
			// after: every test of the package judges it.
			tests = allTests[importPathOf(targetsOf, at.dir)]
		}
		for _, test := range tests {
			i := strings.LastIndex(test, ".")
			byPkg[test[:i]] = append(byPkg[test[:i]], test[i+1:])
		}
		for _, ip := range slices.Sorted(maps.Keys(byPkg)) {
			tp, ok := targetsOf[ip]
			if !ok {
				continue
			}
			spec.Module = tp.Module
			ts := byPkg[ip]
			slices.Sort(ts)
			spec.Targets = append(spec.Targets, jobs.Target{Package: tp.Package, ImportPath: ip, Tests: slices.Compact(ts)})
		}
		if len(spec.Targets) == 0 {
			continue
		}
		specs = append(specs, spec)
	}
	if len(specs) == 0 {
		return h.strength(ctx, sealed, parents, notMeasured("no test package found for the tests that reach the mutants"), emit)
	}
	if len(specs) < len(chosen) {
		// A data mutant of a package no coverage job ran has no test to
		// judge it: the data is not judged.
		var missing []string
		planned := map[int]bool{}
		for _, sp := range specs {
			planned[sp.Mutation.ID] = true
		}
		for _, s := range chosen {
			if at := where[pyKey(s)]; at.data && !planned[s.ID] {
				missing = append(missing, fmt.Sprintf("%s:%d", s.File, s.Line))
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			return h.strength(ctx, sealed, parents, notMeasured("the mutator cannot judge changed data: no test of its package ran under coverage for %s", strings.Join(slices.Compact(missing), ", ")), emit)
		}
	}
	plan, err := exhandler.Plan(sealed, covRec.Digest, criteria.BudgetMutants, specs)
	if err != nil {
		return err
	}
	_, err = emit(ctx, &pb.Record{RunId: c.RunID, CriteriaDigest: sealed.Digest, Parents: parents, Body: &pb.Record_JobPlanned{JobPlanned: plan}})
	if _, refused := err.(*runtime.RefusedError); refused {
		return h.strength(ctx, sealed, parents, notMeasured("the ledger refused the mutant plan: %v", err), emit)
	}
	return err
}

// rebuild prepares the workspace and the mutant schemata of a run whose
// mutants were planned before this process started: planning is
// deterministic (the selection is seeded by the tree digests), so planning
// again, without emitting, rebuilds the same schemata.
func (h *Handler) rebuild(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed) error {
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_COVERAGE_MEASURED {
			discard := func(context.Context, ...*pb.Record) ([]*record.Decoded, error) { return nil, nil }
			return h.plan(ctx, r, run, sealed, discard)
		}
	}
	return nil
}

// recordedSwitch rebuilds the switch of a run whose Go mutants the
// mutation service already planned (found in its job.planned record).
func recordedSwitch(run []*record.Decoded) (mutant.Switch, bool) {
	sw := mutant.Switch{Tokens: map[int]string{}, Refs: map[int]string{}}
	for _, r := range run {
		if r.Kind != pb.Kind_KIND_JOB_PLANNED || r.Record.Producer.GetIdentity() != keyring.Mutation {
			continue
		}
		for _, j := range r.Record.GetJobPlanned().GetJobs() {
			s, err := jobs.ParseSpec(j.Spec)
			if err != nil || s.Mutation == nil || s.Mutation.Token == "" {
				continue
			}
			sw.Var = s.Mutation.Var
			sw.Tokens[s.Mutation.ID], sw.Refs[s.Mutation.ID] = s.Mutation.Token, s.Mutation.Ref
		}
	}
	return sw, sw.Var != ""
}

// hasOwn reports whether the mutation service wrote a record of kind in run.
func hasOwn(run []*record.Decoded, kind pb.Kind) bool {
	for _, r := range run {
		if r.Kind == kind && r.Record.Producer.GetIdentity() == keyring.Mutation {
			return true
		}
	}
	return false
}

func (h *Handler) execute(ctx context.Context, planRec *record.Decoded, run []*record.Decoded, sealed *criteria.Sealed, emit runtime.Emit) error {
	runID := sealed.Criteria.RunID
	w := h.spaces[runID]
	answered := map[string]bool{}
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_JOB_RESULT && r.Record.GetToken() != "" {
			answered[r.Record.GetToken()] = true
		}
	}
	var specs []*jobs.Spec
	for _, j := range planRec.Record.GetJobPlanned().GetJobs() {
		if s, err := jobs.ParseSpec(j.Spec); err == nil {
			specs = append(specs, s)
		}
	}
	if w != nil {
		// A Python mutant whose edit does not fit is stillborn by its job.
		_ = w.RegisterPythonMutants(specs)
	}
	for i, job := range planRec.Record.GetJobPlanned().GetJobs() {
		if answered[job.Token.GetId()] {
			continue // answered before a restart
		}
		if h.Progress != nil {
			h.Progress(runID, job.JobId, "running")
		}
		a := &executor.Answer{Detail: jobs.Detail{Outcome: jobs.OutcomeStillborn, Reason: "the mutation service has no workspace for this run", Runs: []jobs.Run{}}}
		jctx, span := telemetry.JobSpan(ctx, job.JobId)
		if w != nil && i < len(specs) {
			a = h.Exec.Execute(jctx, w, specs[i])
		}
		telemetry.EndJob(span, a.Detail.Outcome)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		res, err := exhandler.Result(job, a)
		if err != nil {
			return err
		}
		res.UnitsUsed = 1
		_, err = emit(ctx, &pb.Record{RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{planRec.Digest}, Token: job.Token.GetId(),
			Body: &pb.Record_JobResult{JobResult: res}})
		if _, refused := err.(*runtime.RefusedError); !refused && err != nil {
			return err
		}
	}
	return nil
}

// settle records the strength once every mutant job is answered.
func (h *Handler) settle(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed, emit runtime.Emit) error {
	planned := map[string]*jobs.Spec{}
	var order []string
	done := map[string]*jobs.Detail{}
	var parents []string
	for _, r := range run {
		if r.Record.Producer.GetIdentity() != keyring.Mutation {
			continue
		}
		switch b := r.Record.Body.(type) {
		case *pb.Record_JobPlanned:
			for _, j := range b.JobPlanned.Jobs {
				if s, err := jobs.ParseSpec(j.Spec); err == nil {
					planned[j.JobId] = s
					order = append(order, j.JobId)
				}
			}
		case *pb.Record_JobResult:
			if d, err := jobs.ParseDetail(b.JobResult.Detail); err == nil {
				done[b.JobResult.JobId] = d
				parents = append(parents, r.Digest)
			}
		}
	}
	for id := range planned {
		if done[id] == nil {
			return nil
		}
	}
	runID := sealed.Criteria.RunID
	m := &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED}
	var unjudged []string
	for _, id := range order {
		s, d := planned[id], done[id]
		mu := &pb.Mutant{Id: fmt.Sprint(s.Mutation.ID), At: &pb.LineRef{Path: s.Mutation.Path, Line: uint32(s.Mutation.Line)},
			Operator: s.Mutation.Operator, Description: s.Mutation.Description, KilledBy: d.KilledBy}
		switch d.Outcome {
		case jobs.OutcomeKilled:
			m.Killed++
			mu.Status = "killed"
		case jobs.OutcomeSurvived:
			m.Survived++
			mu.Status = "survived"
		case jobs.OutcomeUnjudged:
			// Out of the ratio like a stillborn mutant, but named: the
			// adjudicator does not let it pass.
			m.Stillborn++
			mu.Status = "unjudged"
			unjudged = append(unjudged, fmt.Sprintf("%s:%d %s: %s", s.Mutation.Path, s.Mutation.Line, s.Mutation.Description, d.Reason))
		default:
			m.Stillborn++
			mu.Status = "stillborn"
		}
		m.Mutants = append(m.Mutants, mu)
	}
	if n := m.Killed + m.Survived; n > 0 {
		score := float64(m.Killed) / float64(n)
		lower := adjudication.WilsonLower(int(m.Killed), int(n), sealed.Criteria.StrengthConfidence)
		m.Score, m.WilsonLower = &score, &lower
	}
	m.Reason = fmt.Sprintf("%d mutants on the changed, covered lines: %d killed, %d survived, %d stillborn (left out of the ratio)",
		len(order), m.Killed, m.Survived, m.Stillborn)
	if len(unjudged) > 0 {
		m.Reason += fmt.Sprintf("; %d unjudged, among them %s", len(unjudged), unjudged[0])
	}
	c := sealed.Criteria
	if eq := h.pyEquivalent[runID]; len(eq) > 0 {
		m.Mutants = append(m.Mutants, eq...)
		m.Reason += fmt.Sprintf("; %d Python equivalent (they compile to the original's bytecode; left out of the ratio)", len(eq))
	}
	if notes := h.notes[runID]; notes != nil {
		m.Mutants = append(m.Mutants, equivalentMutants(notes.equivalent, len(order)+len(h.pyEquivalent[runID]))...)
		if len(notes.equivalent) > 0 {
			m.Reason += fmt.Sprintf("; %d equivalent (left out of the ratio)", len(notes.equivalent))
		}
		if len(notes.skipped) > 0 {
			m.Reason += fmt.Sprintf("; %d %s the schemata cannot write here: %s", len(notes.skipped), plural(len(notes.skipped), "site"), clip(notes.skipped))
		}
		if lines := unwitnessed(notes.dataLines, m.Mutants, notes.judges); len(lines) > 0 {
			m.Unwitnessed = lines
			names := make([]string, len(lines))
			for i, l := range lines {
				names[i] = fmt.Sprintf("%s:%d", l.Path, l.Line)
			}
			m.Reason += fmt.Sprintf("; no test notices a change to %s: no mutant of %s was killed", clip(names), plural(len(lines), "that data line", "those data lines"))
		}
		few := TooFew(notes.distinct, c.StrengthFloor, c.StrengthConfidence)
		switch {
		case few != "":
			m.Reason += "; " + few
		case notes.need > 0 && c.MutationMax < notes.need:
			m.Reason += fmt.Sprintf("; --mutation-max %d allows only %d mutants; the floor needs at least %d", c.MutationMax, c.MutationMax, notes.need)
		}
	}
	return h.strength(ctx, sealed, parents, m, emit)
}

// unwitnessed returns the changed data lines of which no mutant was
// killed — whether their mutants survived, were stillborn or unjudged, or
// none of them was selected — in order: coverage cannot see data, so a
// changed data line counts as judged only when a test fails on a change
// to it. A kill on a line also witnesses the lines judges names for it
// (the //go:embed variable of an embedded file's line).
func unwitnessed(lines []lineRef, mutants []*pb.Mutant, judges map[lineRef][]lineRef) []*pb.LineRef {
	killed := map[lineRef]bool{}
	for _, mu := range mutants {
		if mu.Status == "killed" && mu.At != nil {
			at := lineRef{mu.At.Path, int(mu.At.Line)}
			killed[at] = true
			for _, l := range judges[at] {
				killed[l] = true
			}
		}
	}
	var out []*pb.LineRef
	for _, l := range lines {
		if !killed[l] {
			out = append(out, &pb.LineRef{Path: l.path, Line: uint32(l.line)})
		}
	}
	return out
}

// located is where a Go site's package is: its directory, the site's file
// relative to it, and whether the site is on a data line.
type located struct {
	dir, file string
	data      bool
}

// goLines returns, per package directory, the lines to inspect: every
// changed line of its changed Go source files, and of the changed data
// files below it when the package may embed them (a file of it says
// //go:embed). Lines are keyed by file relative to the directory.
func goLines(root string, changes []checkout.Change, reaching map[string]map[int][]string) map[string]map[string][]int {
	out := map[string]map[string][]int{}
	add := func(dir, file string, lines []int) {
		if out[dir] == nil {
			out[dir] = map[string][]int{}
		}
		out[dir][file] = append(out[dir][file], lines...)
	}
	for p, lines := range reaching {
		if strings.HasSuffix(p, ".go") {
			for l := range lines {
				add(path.Dir(p), path.Base(p), []int{l})
			}
		}
	}
	embeds := map[string]bool{}
	embedding := func(dir string) bool {
		if v, ok := embeds[dir]; ok {
			return v
		}
		pkg, err := readPackage(root, dir)
		embeds[dir] = false
		if err == nil {
			for _, b := range pkg.Files {
				if bytes.Contains(b, []byte("//go:embed")) {
					embeds[dir] = true
				}
			}
		}
		return embeds[dir]
	}
	for _, ch := range changes {
		if ch.Kind == checkout.Deleted || len(ch.ChangedLines) == 0 {
			continue
		}
		switch {
		case ch.Class == checkout.ClassSource && strings.HasSuffix(ch.Path, ".go"):
			add(path.Dir(ch.Path), path.Base(ch.Path), ch.ChangedLines)
		case ch.Class == checkout.ClassOther || ch.Class == checkout.ClassForeign:
			// A file the package of any directory above it may embed.
			for dir := path.Dir(ch.Path); ; dir = path.Dir(dir) {
				if embedding(dir) {
					rel := strings.TrimPrefix(ch.Path, dir+"/")
					if dir == "." {
						rel = ch.Path
					}
					add(dir, rel, ch.ChangedLines)
				}
				if dir == "." || dir == "/" {
					break
				}
			}
		}
	}
	for _, files := range out {
		for f, ls := range files {
			slices.Sort(ls)
			files[f] = slices.Compact(ls)
		}
	}
	return out
}

// killsNeeded is the fewest mutants, all killed, whose Wilson lower bound
// meets the floor at the confidence: 0 when there is no floor, -1 when no
// count up to 100,000 does.
func killsNeeded(floor, confidence float64) int {
	if floor <= 0 {
		return 0
	}
	for n := 1; n <= 100_000; n++ {
		if adjudication.WilsonLower(n, n, confidence) >= floor {
			return n
		}
	}
	return -1
}

// equivalentMutants lists equivalent sites as the strength record does,
// numbered after the mutants run.
func equivalentMutants(sites []mutant.Site, after int) []*pb.Mutant {
	var out []*pb.Mutant
	for i, s := range sites {
		out = append(out, &pb.Mutant{Id: fmt.Sprint(after + i + 1), At: &pb.LineRef{Path: s.File, Line: uint32(s.Line)},
			Operator: s.Operator, Description: s.Description + " (equivalent: " + s.Equivalent + ")", Status: "equivalent"})
	}
	return out
}

// readPackage reads the Go files of dir in a tree: the non-test ones, and
// the test files the mutator must see (never mutated).
func readPackage(root, dir string) (mutant.Package, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(abs)
	if err != nil {
		return mutant.Package{}, err
	}
	pkg := mutant.Package{Dir: abs, Files: map[string][]byte{}, Tests: map[string][]byte{}}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(abs, n))
		if err != nil {
			return mutant.Package{}, err
		}
		if strings.HasSuffix(n, "_test.go") {
			pkg.Tests[n] = b
		} else {
			pkg.Files[n] = b
		}
	}
	return pkg, nil
}

// runTrees is the seed of the run's mutant selection: the baseline and
// patch tree digests.
func runTrees(run []*record.Decoded) string {
	for _, r := range run {
		if t := r.Record.GetTreesMaterialized(); t != nil {
			return t.BaselineTreeDigest + t.PatchTreeDigest
		}
	}
	return ""
}

type testPkg struct{ Module, Package string }

// testPackages maps the import paths of the coverage jobs' packages to
// where they are.
func testPackages(run []*record.Decoded) map[string]testPkg {
	out := map[string]testPkg{}
	for _, r := range run {
		for _, j := range r.Record.GetJobPlanned().GetJobs() {
			if s, err := jobs.ParseSpec(j.Spec); err == nil && s.Purpose == jobs.Coverage {
				out[s.ImportPath] = testPkg{Module: s.Module, Package: s.Package}
			}
		}
	}
	return out
}

// coveredTests maps the import path of each coverage job's package to the
// tests it ran that passed ("<import path>.<Test>"), sorted.
func coveredTests(run []*record.Decoded) map[string][]string {
	coverage := map[string]bool{}
	for _, r := range run {
		for _, j := range r.Record.GetJobPlanned().GetJobs() {
			if s, err := jobs.ParseSpec(j.Spec); err == nil && s.Purpose == jobs.Coverage {
				coverage[j.JobId] = true
			}
		}
	}
	out := map[string][]string{}
	for _, r := range run {
		res := r.Record.GetJobResult()
		if res == nil || !coverage[res.JobId] {
			continue
		}
		for _, c := range res.Cases {
			if c.Outcome != "pass" {
				continue
			}
			if i := strings.LastIndex(c.Name, "."); i > 0 {
				out[c.Name[:i]] = append(out[c.Name[:i]], c.Name)
			}
		}
	}
	for ip, ts := range out {
		slices.Sort(ts)
		out[ip] = slices.Compact(ts)
	}
	return out
}

// importPathOf returns the import path of the coverage package in
// directory dir (relative to the repository root), or "".
func importPathOf(targets map[string]testPkg, dir string) string {
	for ip, tp := range targets {
		if path.Clean(path.Join(tp.Module, tp.Package)) == dir {
			return ip
		}
	}
	return ""
}

// clip joins at most three items.
func clip(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:3], "; ") + fmt.Sprintf(" and %d more", len(items)-3)
}

// plural returns word for one, else its plural: forms[0] when given, or
// word with an s.
func plural(n int, word string, forms ...string) string {
	switch {
	case n == 1:
		return word
	case len(forms) > 0:
		return forms[0]
	}
	return word + "s"
}

func countLines(m map[string]map[int][]string) int {
	n := 0
	for _, ls := range m {
		n += len(ls)
	}
	return n
}

// Close removes the workspaces of the runs still open.
func (h *Handler) Close() error {
	for id, w := range h.spaces {
		w.Close()
		delete(h.spaces, id)
	}
	return nil
}

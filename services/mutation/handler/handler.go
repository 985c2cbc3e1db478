// Package handler binds the mutation service to the ledger: when a run's
// diff coverage is recorded it finds mutation sites on the changed, covered
// lines, compiles them all into the package once (mutant schemata), plans
// one job per mutant, runs each against the tests that reach its line, and
// records the suite's strength.
package handler

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
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
	// equivalent holds each run's Python mutants that compile to the
	// original's code, found when planning (and again when rebuilding).
	equivalent map[string][]*pb.Mutant
}

// Handle reacts to coverage, its own plans and its own results.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run []*record.Decoded, emit runtime.Emit) error {
	if h.spaces == nil {
		h.spaces, h.settled, h.equivalent = map[string]*executor.Workspace{}, map[string]bool{}, map[string][]*pb.Mutant{}
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
		return h.settle(ctx, run, sealed, emit)
	case pb.Kind_KIND_VERDICT_REACHED:
		if w := h.spaces[runID]; w != nil {
			w.Close()
		}
		delete(h.spaces, runID)
		delete(h.settled, runID)
		delete(h.equivalent, runID)
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
	byDir := map[string]map[string][]int{} // dir → base → lines (Go)
	for p, lines := range reaching {
		if strings.HasSuffix(p, ".py") {
			continue // Python sites are found from the coverage.py report
		}
		d := path.Dir(p)
		if byDir[d] == nil {
			byDir[d] = map[string][]int{}
		}
		for l := range lines {
			byDir[d][path.Base(p)] = append(byDir[d][path.Base(p)], l)
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
	var sites []mutant.Site
	pkgs := map[string]mutant.Package{}
	for _, d := range slices.Sorted(maps.Keys(byDir)) {
		pkg, err := readPackage(w.PristineDir(jobs.TreeOracle), d)
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("read %s: %v", d, err), emit)
		}
		pkgs[d] = pkg
		found, err := mutant.Find(pkg, byDir[d])
		if err != nil {
			return h.strength(ctx, sealed, parents, notMeasured("find mutation sites in %s: %v", d, err), emit)
		}
		for _, s := range found {
			s.File = path.Join(d, s.File)
			sites = append(sites, s)
		}
	}
	// Python sites, each with the tests that ran its statement (or, for
	// a statement that ran only at import or in fixtures, the test
	// modules importing its file, or none: then it cannot be judged).
	pySites, equivalent, err := h.pythonSites(ctx, run, co, c.Python, w.PristineDir(jobs.TreeOracle))
	if err != nil {
		return h.strength(ctx, sealed, parents, notMeasured("%v", err), emit)
	}
	h.equivalent[c.RunID] = equivalent
	if lines := unjudgeable(pySites); len(lines) > 0 {
		return h.strength(ctx, sealed, parents, notMeasured("the mutator cannot judge %s: they run only outside the tests (at import, in fixtures, conftest.py or hooks) and no test module imports their file", strings.Join(lines, ", ")), emit)
	}
	for _, ps := range slices.Sorted(maps.Keys(pySites)) {
		sites = append(sites, pySites[ps].site)
	}
	trees := runTrees(run)
	chosen := mutant.Select(sites, c.MutationMax, []byte(trees))
	if len(chosen) == 0 {
		reason := fmt.Sprintf("no mutation site on the %d changed, covered lines", countLines(reaching))
		if few := TooFew(0, c.StrengthFloor, c.StrengthConfidence); few != "" {
			reason += ": " + few
		}
		return h.strength(ctx, sealed, parents, &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED,
			Mutants: equivalent, Reason: reason}, emit)
	}
	overlay := map[string][]byte{}
	for d, pkg := range pkgs {
		var mine []mutant.Site
		for _, s := range chosen {
			if path.Dir(s.File) == d && strings.HasSuffix(s.File, ".go") {
				s.File = path.Base(s.File)
				mine = append(mine, s)
			}
		}
		if len(mine) == 0 {
			continue
		}
		out, err := mutant.Schemata(pkg, mine)
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
			Mutation: &jobs.MutantRef{ID: s.ID, Path: s.File, Line: s.Line, Col: s.Col, Operator: s.Operator, Description: s.Description}}
		byPkg := map[string][]string{}
		for _, test := range reaching[s.File][s.Line] {
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
		w.RegisterTargets(specs)
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
	if _, ok := h.equivalent[runID]; !ok && h.spaces[runID] == nil {
		// Planned before this process started: plan again (it is
		// deterministic) to know the equivalent mutants.
		if err := h.rebuild(ctx, run, sealed); err != nil {
			return err
		}
	}
	m := &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED}
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
	if eq := h.equivalent[runID]; len(eq) > 0 {
		m.Mutants = append(m.Mutants, eq...)
		m.Reason += fmt.Sprintf("; %d equivalent, reported apart (they compile to the original's bytecode: no test can kill them)", len(eq))
	}
	c := sealed.Criteria
	if few := TooFew(len(order), c.StrengthFloor, c.StrengthConfidence); few != "" {
		if need := mutantsNeeded(c.StrengthFloor, c.StrengthConfidence); len(order) >= c.MutationMax && need > 0 {
			// The change may offer more: the limit is what is too low.
			few = fmt.Sprintf("--mutation-max %d allows only %d mutants; the floor needs at least %d", c.MutationMax, c.MutationMax, need)
		}
		m.Reason = few + ": " + m.Reason
	}
	return h.strength(ctx, sealed, parents, m, emit)
}

// readPackage reads the non-test Go files of dir in a tree.
func readPackage(root, dir string) (mutant.Package, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(abs)
	if err != nil {
		return mutant.Package{}, err
	}
	pkg := mutant.Package{Dir: abs, Files: map[string][]byte{}}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(abs, n))
		if err != nil {
			return mutant.Package{}, err
		}
		pkg.Files[n] = b
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

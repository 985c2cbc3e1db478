// Package handler binds the executor to the ledger: it plans a run's jobs
// when its trees are materialized, runs each planned job and records its
// result, and plans the follow-up jobs results make due.
package handler

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
)

// Handler is the executor service.
type Handler struct {
	Exec *executor.Executor
	// Checkout rebuilds a run's trees from its sealed criteria; the
	// executor checks them against the trees the checkout service recorded.
	// done releases what the checkout needed to materialize the trees.
	Checkout func(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed) (co *checkout.Checkout, done func(), err error)
	// Progress, when set, hears about each job as it starts and ends.
	Progress func(runID, jobID, state string)
	Log      *slog.Logger
	// SealWorkers is how many workers the seal plan's checks are dealt to;
	// zero means one.
	SealWorkers int

	spaces map[string]*executor.Workspace
	// planned remembers the jobs this handler planned per run: its own
	// plans reach it through the ledger only after the results that were
	// already queued, which must not plan the same follow-up again.
	planned map[string]map[string]bool
}

// Handle reacts to trees, plans, results and verdicts.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run []*record.Decoded, emit runtime.Emit) error {
	if h.spaces == nil {
		h.spaces = map[string]*executor.Workspace{}
	}
	seal := runtime.SealOf(run)
	if seal == nil {
		return nil
	}
	sealed, err := criteria.Parse(seal.Record.GetCriteriaSealed().CanonicalCriteria)
	if err != nil {
		return nil // the ledger admitted it, so this cannot happen; nothing to run
	}
	runID := rec.Record.GetRunId()
	switch rec.Kind {
	case pb.Kind_KIND_TREES_MATERIALIZED:
		return h.plan(ctx, rec, run, sealed, emit)
	case pb.Kind_KIND_JOB_PLANNED:
		if rec.Record.Producer.GetIdentity() != keyring.Executor {
			return nil // reach and mutation run the jobs they plan
		}
		return h.execute(ctx, rec, run, sealed, emit)
	case pb.Kind_KIND_JOB_RESULT, pb.Kind_KIND_COVERAGE_MEASURED:
		return h.followUp(ctx, run, sealed, emit)
	case pb.Kind_KIND_VERDICT_REACHED:
		if w := h.spaces[runID]; w != nil {
			w.Close()
			delete(h.spaces, runID)
		}
		delete(h.planned, runID)
	}
	return nil
}

func (h *Handler) plan(ctx context.Context, trees *record.Decoded, run []*record.Decoded, sealed *criteria.Sealed, emit runtime.Emit) error {
	runID := trees.Record.GetRunId()
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_JOB_PLANNED && r.Record.Producer.GetIdentity() == keyring.Executor {
			// Trees delivered again (after a restart): the run is planned.
			return nil
		}
	}
	var specs []*jobs.Spec
	w, why := h.workspace(ctx, run, sealed, trees.Record.GetTreesMaterialized())
	if w != nil {
		specs = w.Plan(sealed.Criteria)
	} else {
		specs = unrunnable(sealed.Criteria, why)
	}
	return h.emitPlan(ctx, runID, sealed, []string{trees.Digest}, specs, emit)
}

// space returns the run's workspace, rebuilding it from the run's trees
// record when this process has none (it restarted, or the run's partition
// moved to it).
func (h *Handler) space(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed) (*executor.Workspace, string) {
	if w := h.spaces[sealed.Criteria.RunID]; w != nil {
		return w, ""
	}
	for _, r := range run {
		if tm := r.Record.GetTreesMaterialized(); tm != nil {
			return h.workspace(ctx, run, sealed, tm)
		}
	}
	return nil, "the run has no trees record"
}

// answeredTokens lists the tokens a result on the run's ledger consumed.
func answeredTokens(run []*record.Decoded) map[string]bool {
	out := map[string]bool{}
	for _, r := range run {
		if r.Kind == pb.Kind_KIND_JOB_RESULT && r.Record.GetToken() != "" {
			out[r.Record.GetToken()] = true
		}
	}
	return out
}

// unrunnable plans every job as skipped, with why: the run's evidence then
// says what could not be done instead of falling silent.
func unrunnable(c *criteria.Criteria, why string) []*jobs.Spec {
	out := []*jobs.Spec{{Purpose: jobs.Collateral, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Package: "./...", Skip: why}}
	for _, claim := range c.Claims {
		for _, side := range []string{jobs.Baseline, jobs.Patch} {
			tree := jobs.TreeOracle
			if side == jobs.Baseline {
				tree = jobs.TreeBaseline
			}
			out = append(out, &jobs.Spec{Purpose: jobs.Claim, Side: side, Claim: claim, Tree: tree, Module: ".", Skip: why})
		}
	}
	return out
}

func (h *Handler) workspace(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed, trees *pb.TreesMaterialized) (*executor.Workspace, string) {
	runID := sealed.Criteria.RunID
	if w := h.spaces[runID]; w != nil {
		return w, ""
	}
	co, done, err := h.Checkout(ctx, run, sealed)
	if err != nil {
		return nil, fmt.Sprintf("the executor could not rebuild the trees: %v", err)
	}
	defer done()
	if co.Baseline.Digest() != trees.BaselineTreeDigest || co.Patch.Digest() != trees.PatchTreeDigest {
		return nil, "the trees the executor rebuilt differ from the trees the checkout service recorded"
	}
	w, err := h.Exec.Open(ctx, runID, co)
	if err != nil {
		return nil, fmt.Sprintf("the executor could not materialize the trees: %v", err)
	}
	l := sealed.Criteria.Limits
	w.Limits = sandbox.Limits{CPUSeconds: l.CPUSeconds, MemoryBytes: l.MemoryBytes, MaxProcesses: l.MaxProcesses, MaxOpenFiles: l.MaxOpenFiles}
	h.spaces[runID] = w
	return w, ""
}

func (h *Handler) emitPlan(ctx context.Context, runID string, sealed *criteria.Sealed, parents []string, specs []*jobs.Spec, emit runtime.Emit) error {
	if len(specs) == 0 {
		return nil
	}
	if h.planned == nil {
		h.planned = map[string]map[string]bool{}
	}
	if h.planned[runID] == nil {
		h.planned[runID] = map[string]bool{}
	}
	for _, s := range specs {
		h.planned[runID][s.ID()] = true
	}
	plan, err := Plan(sealed, parents[0], criteria.BudgetTestRuns, specs)
	if err != nil {
		return err
	}
	_, err = emit(ctx, &pb.Record{
		RunId: runID, CriteriaDigest: sealed.Digest, Parents: parents,
		Body: &pb.Record_JobPlanned{JobPlanned: plan},
	})
	if _, refused := err.(*runtime.RefusedError); refused {
		// The refusal is on the ledger; the run's verdict will name it.
		h.logf("plan refused: %v", err)
		return nil
	}
	return err
}

// Plan is the job.planned body of specs: each job with its spec and a
// fresh single-use token bound to the sealed run, derived from parent and
// reserving the job's units of the budget dimension.
func Plan(sealed *criteria.Sealed, parent, dimension string, specs []*jobs.Spec) (*pb.JobPlanned, error) {
	plan := &pb.JobPlanned{}
	for _, s := range specs {
		b, err := s.Marshal()
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, 16)
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		id := s.ID()
		plan.Jobs = append(plan.Jobs, &pb.Job{
			JobId: id, JobKind: s.Purpose, Side: s.Side, Argv: s.Argv(), Spec: b,
			Token: &pb.ContinuationToken{
				Id: id, RunId: sealed.Criteria.RunID, CriteriaDigest: sealed.Digest, ParentDigest: parent,
				BudgetDimension: dimension, BudgetUnits: s.Units(), Nonce: nonce, Depth: 1,
			},
		})
	}
	return plan, nil
}

func (h *Handler) execute(ctx context.Context, planRec *record.Decoded, run []*record.Decoded, sealed *criteria.Sealed, emit runtime.Emit) error {
	runID := planRec.Record.GetRunId()
	answered := answeredTokens(run)
	w, _ := h.space(ctx, run, sealed)
	// Results of concurrent workers reach the ledger one at a time.
	var mu sync.Mutex
	emitOne := func(ctx context.Context, recs ...*pb.Record) ([]*record.Decoded, error) {
		mu.Lock()
		defer mu.Unlock()
		return emit(ctx, recs...)
	}
	progress := func(jobID, state string) {
		if h.Progress != nil {
			mu.Lock()
			defer mu.Unlock()
			h.Progress(runID, jobID, state)
		}
	}
	// Results this call appended, for deciding whether the verdict is
	// already certain.
	var emitted []*record.Decoded
	one := func(job *pb.Job, s *jobs.Spec) error {
		if answered[job.Token.GetId()] {
			// A plan delivered again after a restart: this job's result is
			// on the ledger; running it again could only conflict with it.
			return nil
		}
		progress(job.JobId, "running")
		var a *executor.Answer
		jctx, span := telemetry.JobSpan(ctx, job.JobId)
		switch {
		case w == nil && s.Skip == "":
			a = &executor.Answer{Detail: jobs.Detail{Outcome: jobs.OutcomeNotRun, Reason: "the executor has no workspace for this run", Runs: []jobs.Run{}}}
		case s.Purpose == jobs.Coverage && !sealed.Criteria.FullEvidence:
			mu.Lock()
			block := certainBlock(runID, append(slices.Clone(run), emitted...))
			mu.Unlock()
			if block != "" {
				a = &executor.Answer{Detail: jobs.Detail{Outcome: jobs.OutcomeNotRun, Runs: []jobs.Run{},
					Reason: "not run: the verdict is already certain, " + block + " (--full-evidence measures anyway)"}}
				break
			}
			fallthrough
		default:
			a = h.Exec.Execute(jctx, w, s)
		}
		telemetry.EndJob(span, a.Detail.Outcome)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		res, err := Result(job, a)
		if err != nil {
			return err
		}
		recs, err := emitOne(ctx, &pb.Record{
			RunId: runID, CriteriaDigest: sealed.Digest, Parents: []string{planRec.Digest}, Token: job.Token.GetId(),
			Body: &pb.Record_JobResult{JobResult: res},
		})
		mu.Lock()
		emitted = append(emitted, recs...)
		mu.Unlock()
		if _, refused := err.(*runtime.RefusedError); refused {
			h.logf("result refused: %v", err)
		} else if err != nil {
			return err
		}
		progress(job.JobId, a.Detail.Outcome)
		return nil
	}
	type item struct {
		job  *pb.Job
		spec *jobs.Spec
	}
	var checks []item
	for _, job := range planRec.Record.GetJobPlanned().GetJobs() {
		s, err := jobs.ParseSpec(job.Spec)
		if err != nil {
			continue
		}
		if s.Purpose == jobs.Seal {
			checks = append(checks, item{job, s})
			continue
		}
		if err := one(job, s); err != nil {
			return err
		}
	}
	// The seal plan's checks are dealt round-robin to the workers, each
	// running its share in order; every result names its check by the
	// check's identity (the job id), so nothing is matched by position or
	// count.
	if len(checks) == 0 {
		return nil
	}
	workers := min(max(h.SealWorkers, 1), len(checks))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < len(checks); i += workers {
				if err := one(checks[i].job, checks[i].spec); err != nil {
					errs[k] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// certainBlock returns the decisive reason when the run's records already
// make the verdict BLOCK — a refuted claim, a regression, a failed seal
// check: evidence that more evidence cannot undo — or "".
func certainBlock(runID string, recs []*record.Decoded) string {
	r := adjudication.Read(runID, recs)
	if r.Sealed == nil {
		return ""
	}
	v := adjudication.Decide(r.Policy(), r.Gather(nil))
	if v.Decision != adjudication.Block {
		return ""
	}
	return v.Reason
}

// Result is the job.result body of a's answer to job.
func Result(job *pb.Job, a *executor.Answer) (*pb.JobResult, error) {
	detail, err := a.Detail.Marshal()
	if err != nil {
		return nil, err
	}
	res := &pb.JobResult{
		JobId: job.JobId, ExitCode: int32(a.ExitCode), WallNanos: a.Wall.Nanoseconds(), CpuNanos: a.CPU.Nanoseconds(),
		UnitsUsed: min(uint64(len(a.Detail.Runs)), job.GetToken().GetBudgetUnits()), Detail: detail,
		Sandbox: &pb.Sandbox{Name: a.Sandbox.Name, EnvNames: a.Sandbox.EnvNames, Limits: a.Sandbox.Limits},
	}
	res.Termination = terminationOf(a)
	for _, c := range a.Cases {
		res.Cases = append(res.Cases, &pb.TestCase{Name: c.Name, Outcome: c.Outcome})
	}
	if a.Cases != nil {
		n := uint32(len(a.Cases))
		res.CasesRun = &n
	}
	name, media := "go-test-json-%d", "application/x-ndjson"
	if s, err := jobs.ParseSpec(job.Spec); err == nil && s.Runner != jobs.RunnerGo {
		// pytest and command output, coverage.py reports: kept as bytes.
		name, media = s.Runner+"-output-%d", "application/octet-stream"
	}
	for i, d := range a.Artefacts {
		res.Artefacts = append(res.Artefacts, &pb.Artefact{Name: fmt.Sprintf(name, i+1), Digest: d, MediaType: media})
	}
	return res, nil
}

func terminationOf(a *executor.Answer) pb.Termination {
	if !a.Started || len(a.Detail.Runs) == 0 {
		return pb.Termination_TERMINATION_NOT_STARTED
	}
	switch a.Termination {
	case sandbox.Exited:
		return pb.Termination_TERMINATION_EXITED
	case sandbox.Timeout:
		return pb.Termination_TERMINATION_TIMEOUT
	case sandbox.OOM:
		return pb.Termination_TERMINATION_OOM
	case sandbox.Rlimit:
		return pb.Termination_TERMINATION_RLIMIT
	case sandbox.Signaled:
		return pb.Termination_TERMINATION_SIGNALED
	}
	return pb.Termination_TERMINATION_NOT_STARTED
}

// followUp plans the jobs the run's results have made due.
func (h *Handler) followUp(ctx context.Context, run []*record.Decoded, sealed *criteria.Sealed, emit runtime.Emit) error {
	planned, done, causes := fold(run)
	var reached []string
	for _, r := range run {
		if cov := r.Record.GetCoverageMeasured(); cov != nil {
			reached = jobs.Reached(cov)
			causes = append(causes, r.Digest)
		}
	}
	var due []string
	for _, id := range jobs.Due(planned, done, reached) {
		if !h.planned[sealed.Criteria.RunID][id] {
			due = append(due, id)
		}
	}
	if len(due) == 0 {
		return nil
	}
	w, _ := h.space(ctx, run, sealed)
	if w == nil {
		return nil
	}
	specs := w.PlanDue(sealed.Criteria, due, planned, done, reached)
	if len(specs) == 0 {
		return nil
	}
	parents := slices.Sorted(slices.Values(causes))
	return h.emitPlan(ctx, sealed.Criteria.RunID, sealed, slices.Compact(parents), specs, emit)
}

// fold reads the run's planned and answered jobs; causes are the digests
// of the results.
func fold(run []*record.Decoded) (map[string]*jobs.Spec, map[string]*jobs.Done, []string) {
	planned := map[string]*jobs.Spec{}
	done := map[string]*jobs.Done{}
	var causes []string
	for _, r := range run {
		switch b := r.Record.Body.(type) {
		case *pb.Record_JobPlanned:
			for _, j := range b.JobPlanned.Jobs {
				if s, err := jobs.ParseSpec(j.Spec); err == nil {
					planned[j.JobId] = s
				}
			}
		case *pb.Record_JobResult:
			s := planned[b.JobResult.JobId]
			d, err := jobs.ParseDetail(b.JobResult.Detail)
			if s == nil || err != nil {
				continue
			}
			dn := &jobs.Done{Spec: s, Detail: d}
			for _, c := range b.JobResult.Cases {
				dn.Cases = append(dn.Cases, jobs.Case{Name: c.Name, Outcome: c.Outcome})
			}
			done[b.JobResult.JobId] = dn
			causes = append(causes, r.Digest)
		}
	}
	return planned, done, causes
}

func (h *Handler) logf(format string, args ...any) {
	if h.Log != nil {
		h.Log.Warn(strings.TrimSpace(fmt.Sprintf(format, args...)))
	}
}

// Close removes the workspaces of the runs still open.
func (h *Handler) Close() error {
	for id, w := range h.spaces {
		w.Close()
		delete(h.spaces, id)
	}
	return nil
}

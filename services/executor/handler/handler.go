// Package handler binds the executor to the ledger: it plans a run's jobs
// when its trees are materialized, runs each planned job and records its
// result, and plans the follow-up jobs results make due.
//
// Failures: a job that cannot run, or runs and fails, is evidence — its
// job.result says so (not run, not started, with the reason). A failure of
// the work itself — the trees do not rebuild, differ from the trees the
// checkout service recorded, or cannot be materialized; a plan that cannot
// be written — is returned as an error, marked runtime.Permanent when
// trying again cannot mend it, and the runtime records the run's failure.
package handler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
	"github.com/sealgate/sealgate/services/work"
)

// Handler is the executor service.
type Handler struct {
	Exec *executor.Executor
	// Checkout rebuilds a run's trees from its sealed criteria and its
	// patch blob (checkout.Rebuilder.Rebuild); the executor checks them
	// against the trees the checkout service recorded. done releases what
	// the checkout needed to materialize the trees.
	Checkout func(ctx context.Context, sealed *criteria.Sealed, patchBlob string) (co *checkout.Checkout, done func(), err error)
	// Progress, when set, hears about each job as it starts and ends.
	Progress func(runID, jobID, state string)
	Log      *slog.Logger
	// SealWorkers is how many workers the seal plan's checks are dealt to;
	// zero means one.
	SealWorkers int
	// BuildAhead is how many test binaries of a plan's Go jobs are built
	// at once ahead of the jobs, beside them (executor.Prebuild), when the
	// plan runs here; zero builds each when its job starts.
	BuildAhead int
	// Dispatch, when set, hands the jobs of an admitted plan to the work
	// topic (work.Publish) instead of running them here: any replica's
	// runtime.Worker takes them and runs them with RunJob (the distributed
	// mode). Nil runs them inline, in plan order (the embedded mode).
	Dispatch func(ctx context.Context, items []work.Item) error
	// Worker names this replica on every job.result it records (the
	// result's worker field); empty in the embedded mode.
	Worker string
	// MaxSpaces bounds, with Dispatch, the idle workspaces kept of runs
	// this replica runs jobs of but does not see the verdict of (another
	// replica owns the run's partition); zero means 8. An evicted
	// workspace is rebuilt, by digest, when a job of its run comes again.
	MaxSpaces int

	// mu guards spaces, planned and uses: the records loop and the work
	// lanes call the handler at once.
	mu     sync.Mutex
	spaces map[string]*space
	uses   uint64
	// planned remembers the jobs this handler planned per run: its own
	// plans reach it through the ledger only after the results that were
	// already queued, which must not plan the same follow-up again.
	planned map[string]map[string]bool
	// sent holds, per run, the tokens this process published (Dispatch):
	// a result publishes only the jobs it made due.
	sent map[string]map[string]bool
}

// space is a run's workspace with the jobs using it.
type space struct {
	w *executor.Workspace
	// busy is held by whoever uses the workspace: one job (or planning)
	// of a run at a time in one replica. A workspace is not safe for
	// concurrent jobs but the seal plan's checks; the lanes run jobs of
	// different runs at once, and the replicas the jobs of one run.
	busy    sync.Mutex
	users   int
	lastUse uint64
	// drop: the run's verdict is reached; close once nobody uses it.
	drop bool
}

// Handle reacts to trees, plans, results and verdicts.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	if !run.Sealed() {
		return nil
	}
	switch rec.Kind {
	case pb.Kind_KIND_TREES_MATERIALIZED:
		if run.Has(pb.Kind_KIND_JOB_PLANNED, keyring.Executor) {
			return nil // trees delivered again (after a restart): the run is planned
		}
		w, release, err := h.space(ctx, run)
		if err != nil {
			return err
		}
		defer release()
		return h.emitPlan(ctx, run, []string{rec.Digest}, w.Plan(run.Criteria.Criteria), emit)
	case pb.Kind_KIND_JOB_PLANNED:
		if rec.Record.GetProducer().GetIdentity() != keyring.Executor {
			return nil // reach and mutation run the jobs they plan
		}
		if h.Dispatch != nil {
			// Published again each time the plan is delivered again: the
			// work topic is a view of the ledger, mended by redelivery; a
			// job already answered is left out, and a worker skips one
			// answered meanwhile.
			return h.dispatch(ctx, rec, run, true)
		}
		return h.execute(ctx, rec, run, emit)
	case pb.Kind_KIND_JOB_RESULT, pb.Kind_KIND_COVERAGE_MEASURED:
		if h.Dispatch != nil && rec.Kind == pb.Kind_KIND_JOB_RESULT {
			// Measurements held back until the jobs before them are
			// answered (dispatch) may be due now.
			for _, r := range run.Records {
				if r.Kind == pb.Kind_KIND_JOB_PLANNED && r.Record.GetProducer().GetIdentity() == keyring.Executor {
					if err := h.dispatch(ctx, r, run, false); err != nil {
						return err
					}
				}
			}
		}
		return h.followUp(ctx, run, emit)
	case pb.Kind_KIND_VERDICT_REACHED:
		h.mu.Lock()
		defer h.mu.Unlock()
		h.dropLocked(run.ID)
		delete(h.planned, run.ID)
		delete(h.sent, run.ID)
	}
	return nil
}

// dispatch publishes the unanswered jobs of plan that are due: the
// modules jobs first, every other job once they are answered. A coverage
// measurement that may be skipped once the verdict is certain (no
// --full-evidence) is due only once the jobs before it in the plan, but
// the seal checks, are answered — as inline, where it runs after them and
// before the seal checks — so that it is skipped, or not, as in the
// embedded mode (certainView). again publishes the jobs this process
// published before too (the plan delivered again); otherwise only those
// that became due.
func (h *Handler) dispatch(ctx context.Context, plan *record.Decoded, run runtime.Run, again bool) error {
	answered := jobs.Answered(run.Records)
	h.mu.Lock()
	if h.sent == nil {
		h.sent = map[string]map[string]bool{}
	}
	if h.sent[run.ID] == nil {
		h.sent[run.ID] = map[string]bool{}
	}
	sent := h.sent[run.ID]
	h.mu.Unlock()
	downloading := modulesPending(plan, answered)
	var items []work.Item
	for _, it := range work.Items(plan, answered) {
		h.mu.Lock()
		skip := !again && sent[it.Token]
		h.mu.Unlock()
		if skip {
			continue
		}
		_, job := work.Find([]*record.Decoded{plan}, it)
		if job == nil {
			continue
		}
		s, err := jobs.ParseSpec(job.GetSpec())
		if err == nil && downloading && s.Purpose != jobs.Modules {
			continue
		}
		if err == nil && s.Purpose == jobs.Coverage && !run.Criteria.Criteria.FullEvidence && !before(run.Records, plan, job, answered) {
			continue
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil
	}
	if err := h.Dispatch(ctx, items); err != nil {
		return err
	}
	h.mu.Lock()
	for _, it := range items {
		sent[it.Token] = true
	}
	h.mu.Unlock()
	return nil
}

// modulesPending reports whether a modules job of plan is unanswered. The
// plan's other jobs wait for them, as inline, where they run first and
// alone: every build needs the dependencies they download (the sandbox
// has no network), and a job that ran beside them would build over a
// module cache still being filled.
func modulesPending(plan *record.Decoded, answered map[string]bool) bool {
	for _, j := range plan.Record.GetJobPlanned().GetJobs() {
		if s, err := jobs.ParseSpec(j.GetSpec()); err == nil && s.Purpose == jobs.Modules && !answered[j.GetToken().GetId()] {
			return true
		}
	}
	return false
}

// earlierPlans lists the executor's plans of run before plan, in ledger
// order.
func earlierPlans(run []*record.Decoded, plan *record.Decoded) []*record.Decoded {
	var out []*record.Decoded
	for _, r := range run {
		if r.Digest == plan.Digest {
			break
		}
		if r.Kind == pb.Kind_KIND_JOB_PLANNED && r.Record.GetProducer().GetIdentity() == keyring.Executor {
			out = append(out, r)
		}
	}
	return out
}

// earlierJobs lists the tokens of plan's jobs before job, but the seal
// checks (which inline runs last).
func earlierJobs(plan *record.Decoded, job *pb.Job) map[string]bool {
	out := map[string]bool{}
	for _, j := range plan.Record.GetJobPlanned().GetJobs() {
		if j.GetToken().GetId() == job.GetToken().GetId() {
			break
		}
		if s, err := jobs.ParseSpec(j.GetSpec()); err != nil || s.Purpose == jobs.Seal {
			continue // never run, or run after job inline
		}
		out[j.GetToken().GetId()] = true
	}
	return out
}

// before reports whether what the inline path has answered when it reaches
// job of plan is answered: every job of the executor's earlier plans
// (inline runs a plan whole before it plans the next), and the jobs of
// plan before job, but the seal checks.
func before(run []*record.Decoded, plan *record.Decoded, job *pb.Job, answered map[string]bool) bool {
	for _, p := range earlierPlans(run, plan) {
		for _, j := range p.Record.GetJobPlanned().GetJobs() {
			if _, err := jobs.ParseSpec(j.GetSpec()); err != nil {
				continue // never run, inline or dispatched
			}
			if !answered[j.GetToken().GetId()] {
				return false
			}
		}
	}
	for tok := range earlierJobs(plan, job) {
		if !answered[tok] {
			return false
		}
	}
	return true
}

// certainView is what the inline path knows when it reaches job of plan:
// the run's records up to the plan, the results of the executor's earlier
// plans, and the results of the plan's jobs before job but the seal
// checks. A dispatched job decides on it whether the verdict is already
// certain, so that the distributed mode skips exactly what the embedded
// mode skips.
func certainView(run []*record.Decoded, plan *record.Decoded, job *pb.Job) []*record.Decoded {
	earlier := earlierJobs(plan, job)
	prior := map[string]bool{}
	for _, p := range earlierPlans(run, plan) {
		prior[p.Digest] = true
	}
	var out []*record.Decoded
	seen := false
	for _, r := range run {
		switch {
		case !seen:
			out = append(out, r)
			seen = r.Digest == plan.Digest
		case r.Kind != pb.Kind_KIND_JOB_RESULT:
		case earlier[r.Record.GetToken()] && slices.Contains(r.Record.GetParents(), plan.Digest):
			out = append(out, r)
		case slices.ContainsFunc(r.Record.GetParents(), func(d string) bool { return prior[d] }):
			out = append(out, r)
		}
	}
	return out
}

// RunJob runs one job a runtime.Worker took from the work topic — of any
// run, planned by any replica — in this replica's workspace of the run,
// rebuilt by digest from the run's sealed criteria and trees record when
// it has none, and proposes its result.
func (h *Handler) RunJob(ctx context.Context, j runtime.Job, emit runtime.Emit) error {
	s, err := jobs.ParseSpec(j.Job.GetSpec())
	if err != nil {
		// As inline: a spec the executor cannot read is not run (the
		// ledger admitted the plan, so this is no job the executor wrote).
		h.warn("job spec does not parse", j.Run.ID, err)
		return nil
	}
	w, release, err := h.space(ctx, j.Run)
	if err != nil {
		return err
	}
	defer release()
	var mu sync.Mutex
	view := certainView(j.Run.Records, j.Plan, j.Job)
	_, err = h.runOne(ctx, runtime.Run{ID: j.Run.ID, Records: view, Seal: j.Run.Seal, Criteria: j.Run.Criteria}, j.Plan, j.Job, s, w, &mu, nil, emit)
	return err
}

// space returns the run's workspace, rebuilding it from the run's sealed
// criteria — and checking it against its trees record — when this process
// has none (the trees just arrived, it restarted, the run's partition
// moved to it, or a job of the run came to it from the work topic).
// release gives it back; with Dispatch, idle workspaces past MaxSpaces are
// closed then, the least recently used first.
func (h *Handler) space(ctx context.Context, run runtime.Run) (*executor.Workspace, func(), error) {
	h.mu.Lock()
	w, err := h.openLocked(ctx, run)
	if err != nil {
		h.mu.Unlock()
		return nil, nil, err
	}
	sp := h.spaces[run.ID]
	sp.users++
	h.uses++
	sp.lastUse = h.uses
	h.mu.Unlock()
	sp.busy.Lock()
	var once sync.Once
	return w, func() {
		once.Do(func() {
			sp.busy.Unlock()
			h.release(run.ID, sp)
		})
	}, nil
}

// release gives a workspace back. The caller does not hold h.mu.
func (h *Handler) release(id string, sp *space) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sp.users--
	if sp.users == 0 && sp.drop {
		sp.w.Close()
		if h.spaces[id] == sp {
			delete(h.spaces, id)
		}
	}
	if h.Dispatch == nil {
		return
	}
	limit := h.MaxSpaces
	if limit <= 0 {
		limit = 8
	}
	for len(h.spaces) > limit {
		victim, oldest := "", uint64(0)
		for id, s := range h.spaces {
			if s.users == 0 && (victim == "" || s.lastUse < oldest) {
				victim, oldest = id, s.lastUse
			}
		}
		if victim == "" {
			return
		}
		h.dropLocked(victim)
	}
}

// dropLocked closes the run's workspace, once nobody uses it. The caller
// holds h.mu.
func (h *Handler) dropLocked(id string) {
	sp := h.spaces[id]
	if sp == nil {
		return
	}
	delete(h.spaces, id)
	sp.drop = true
	if sp.users == 0 {
		sp.w.Close()
	}
}

// openLocked returns the run's workspace, opening it when there is none.
// The caller holds h.mu: one run's workspace is opened once.
func (h *Handler) openLocked(ctx context.Context, run runtime.Run) (*executor.Workspace, error) {
	if sp := h.spaces[run.ID]; sp != nil {
		return sp.w, nil
	}
	var trees *pb.TreesMaterialized
	for _, r := range run.Records {
		if tm := r.Record.GetTreesMaterialized(); tm != nil {
			trees = tm
			break
		}
	}
	if trees == nil {
		return nil, runtime.Permanent(fmt.Errorf("run %s: the executor has no trees record to rebuild the trees by", run.ID))
	}
	var patchBlob string
	if req := run.Request(); req != nil {
		patchBlob = req.PatchBlob
	}
	co, done, err := h.Checkout(ctx, run.Criteria, patchBlob)
	if err != nil {
		return nil, runtime.PermanentUnlessDone(ctx, fmt.Errorf("run %s: the executor could not rebuild the trees: %w", run.ID, err))
	}
	defer done()
	if co.Baseline.Digest() != trees.BaselineTreeDigest || co.Patch.Digest() != trees.PatchTreeDigest {
		return nil, runtime.Permanent(fmt.Errorf("run %s: the trees the executor rebuilt differ from the trees the checkout service recorded", run.ID))
	}
	w, err := h.Exec.Open(ctx, run.ID, co)
	if err != nil {
		return nil, runtime.PermanentUnlessDone(ctx, fmt.Errorf("run %s: the executor could not materialize the trees: %w", run.ID, err))
	}
	w.ApplyLimits(run.Criteria.Criteria)
	if h.spaces == nil {
		h.spaces = map[string]*space{}
	}
	h.spaces[run.ID] = &space{w: w}
	return w, nil
}

func (h *Handler) emitPlan(ctx context.Context, run runtime.Run, parents []string, specs []*jobs.Spec, emit runtime.Emit) error {
	if len(specs) == 0 {
		return nil
	}
	h.mu.Lock()
	if h.planned == nil {
		h.planned = map[string]map[string]bool{}
	}
	if h.planned[run.ID] == nil {
		h.planned[run.ID] = map[string]bool{}
	}
	for _, s := range specs {
		h.planned[run.ID][s.ID()] = true
	}
	h.mu.Unlock()
	plan, err := jobs.Plan(run.Criteria, parents[0], criteria.BudgetTestRuns, specs)
	if err != nil {
		return err
	}
	_, err = emit(ctx, &pb.Record{
		RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: parents,
		Body: &pb.Record_JobPlanned{JobPlanned: plan},
	})
	if runtime.Refused(err) {
		// The refusal is on the ledger; the run's verdict will name it.
		h.warn("plan refused", run.ID, err)
		return nil
	}
	return err
}

func (h *Handler) execute(ctx context.Context, planRec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	answered := jobs.Answered(run.Records)
	w, release, err := h.space(ctx, run)
	if err != nil {
		return err
	}
	defer release()
	// Results of concurrent workers reach the ledger one at a time; the
	// results this call appended decide whether the verdict is already
	// certain.
	var mu sync.Mutex
	var emitted []*record.Decoded
	one := func(job *pb.Job, s *jobs.Spec) error {
		if answered[job.Token.GetId()] {
			// A plan delivered again after a restart: this job's result is
			// on the ledger; running it again could only conflict with it.
			return nil
		}
		_, err := h.runOne(ctx, run, planRec, job, s, w, &mu, &emitted, emit)
		return err
	}
	type item struct {
		job  *pb.Job
		spec *jobs.Spec
	}
	var checks, rest []item
	for _, job := range planRec.Record.GetJobPlanned().GetJobs() {
		s, err := jobs.ParseSpec(job.Spec)
		if err != nil {
			continue
		}
		if s.Purpose == jobs.Seal {
			checks = append(checks, item{job, s})
			continue
		}
		rest = append(rest, item{job, s})
	}
	// The modules jobs run first, and alone: every build needs the
	// modules they download (the sandbox has no network), so no build
	// ahead may start before them — one that did would fail on a cold
	// module cache, and its failure would be every job's answer.
	var later []item
	for _, it := range rest {
		if it.spec.Purpose != jobs.Modules {
			later = append(later, it)
			continue
		}
		if err := one(it.job, it.spec); err != nil {
			return err
		}
	}
	rest = later
	if h.BuildAhead > 0 {
		var ahead []*jobs.Spec
		for _, it := range rest {
			if !answered[it.job.Token.GetId()] {
				ahead = append(ahead, it.spec)
			}
		}
		bctx, cancel := context.WithCancel(ctx)
		built := make(chan struct{})
		go func() {
			defer close(built)
			h.Exec.Prebuild(bctx, w, ahead, h.BuildAhead)
		}()
		// Ended before the workspace is released; a build the jobs did
		// not wait for (a follow-up's, or one an error left) is stopped.
		defer func() { cancel(); <-built }()
	}
	for _, it := range rest {
		if err := one(it.job, it.spec); err != nil {
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

// runOne runs one job of planRec in w and proposes its result. mu orders
// the results of jobs run at once; emitted, when set, collects them (the
// inline path's own results, not on run yet).
func (h *Handler) runOne(ctx context.Context, run runtime.Run, planRec *record.Decoded, job *pb.Job, s *jobs.Spec, w *executor.Workspace, mu *sync.Mutex, emitted *[]*record.Decoded, emit runtime.Emit) ([]*record.Decoded, error) {
	progress := func(jobID, state string) {
		if h.Progress != nil {
			mu.Lock()
			defer mu.Unlock()
			h.Progress(run.ID, jobID, state)
		}
	}
	progress(job.JobId, "running")
	jctx, span := telemetry.JobSpan(ctx, job.JobId)
	var a *executor.Answer
	if s.Purpose == jobs.Coverage && !run.Criteria.Criteria.FullEvidence {
		mu.Lock()
		recs := slices.Clone(run.Records)
		if emitted != nil {
			recs = append(recs, *emitted...)
		}
		block := adjudication.CertainBlock(run.ID, recs)
		mu.Unlock()
		if block != "" {
			a = executor.Skipped(jobs.OutcomeNotRun, "not run: the verdict is already certain, "+block+" (--full-evidence measures anyway)")
		}
	}
	if a == nil {
		a = h.Exec.Execute(jctx, w, s)
	}
	telemetry.EndJob(span, a.Detail.Outcome)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	res, err := executor.Result(job, a)
	if err != nil {
		return nil, err
	}
	res.Worker = h.Worker
	mu.Lock()
	recs, err := emit(ctx, &pb.Record{
		RunId: run.ID, CriteriaDigest: run.Criteria.Digest, Parents: []string{planRec.Digest}, Token: job.Token.GetId(),
		Body: &pb.Record_JobResult{JobResult: res},
	})
	if emitted != nil {
		*emitted = append(*emitted, recs...)
	}
	mu.Unlock()
	if runtime.Refused(err) {
		h.warn("result refused", run.ID, err)
	} else if err != nil {
		return nil, err
	}
	progress(job.JobId, a.Detail.Outcome)
	return recs, nil
}

// followUp plans the jobs the run's results have made due.
func (h *Handler) followUp(ctx context.Context, run runtime.Run, emit runtime.Emit) error {
	planned, done, causes := jobs.Fold(run.Records)
	var reached []string
	for _, r := range run.Records {
		if cov := r.Record.GetCoverageMeasured(); cov != nil {
			reached = jobs.Reached(cov)
			causes = append(causes, r.Digest)
		}
	}
	var due []string
	h.mu.Lock()
	for _, id := range jobs.Due(planned, done, reached) {
		if !h.planned[run.ID][id] {
			due = append(due, id)
		}
	}
	h.mu.Unlock()
	if len(due) == 0 {
		return nil
	}
	w, release, err := h.space(ctx, run)
	if err != nil {
		return err
	}
	defer release()
	specs := w.PlanDue(run.Criteria.Criteria, due, planned, done, reached)
	if len(specs) == 0 {
		return nil
	}
	parents := slices.Sorted(slices.Values(causes))
	return h.emitPlan(ctx, run, slices.Compact(parents), specs, emit)
}

func (h *Handler) warn(what, runID string, err error) {
	if h.Log != nil {
		h.Log.Warn(what, "run", runID, "err", err)
	}
}

// Close removes the workspaces of the runs still open.
func (h *Handler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id := range h.spaces {
		h.dropLocked(id)
	}
	return nil
}

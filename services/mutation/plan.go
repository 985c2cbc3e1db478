// Package mutation plans and scores a run's mutation testing: it finds
// mutation sites on the changed lines the tests execute (Go by the mutant
// package, Python by pymutant — each language behind one small seam),
// selects the mutants, writes the Go ones into their packages at once
// (mutant schemata), turns each into a job run against the tests that
// reach its line, and, once every job is answered, measures the suite's
// strength.
package mutation

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// Blobs reads the reports the coverage jobs stored.
type Blobs interface {
	Get(ctx context.Context, digest string) ([]byte, error)
}

// Input is what planning a run's mutants reads.
type Input struct {
	Blobs    Blobs
	Criteria *criteria.Criteria
	// Run holds the run's records so far (its coverage jobs, their
	// answers, and any mutant plan already recorded).
	Run []*record.Decoded
	// Coverage is the run's computed diff coverage.
	Coverage *pb.CoverageMeasured
	// Checkout is the run's rebuilt trees, Workspace their materialized
	// copy, where the Go mutant schemata are written.
	Checkout  *checkout.Checkout
	Workspace *executor.Workspace
	// Go is the toolchain and the caches the executor builds with:
	// planning type-checks the changed Go packages against the export
	// data it builds there. Empty fields take the process environment's.
	Go executor.Go
}

// Plan is what planning found.
type Plan struct {
	// Specs are the mutant jobs to plan, in the selection's order; empty
	// when Strength is set.
	Specs []*jobs.Spec
	// Strength, when set, ends the measurement without a mutant run: the
	// strength could not be measured, or no mutant was selected.
	Strength *pb.StrengthMeasured
	// Notes is what the strength record reports beside the mutants run.
	Notes *Notes
}

// Notes is what planning found beyond the planned jobs, which the
// strength record reports.
type Notes struct {
	equivalent []mutant.Site // never run: the same program
	// pyEquivalent are the Python mutants that compile to the original's
	// code.
	pyEquivalent []*pb.Mutant
	distinct     int      // distinct mutants the change offers
	complete     bool     // every one of them was chosen to run
	need         int      // killed mutants the floor needs (0: none; -1: unreachable)
	skipped      []string // sites the schemata cannot write, with why
	// fromSource names the packages whose imports were type-checked
	// from source, not export data, with why.
	fromSource []string
	// dataLines are the changed data lines (package-level initializers,
	// lines of embedded files) judged whole: each must have a mutant
	// killed and none survived, sorted by path and line.
	dataLines []lineRef
	// values are the values the patch wrote on changed data lines whose
	// changes lie inside values: each must have a mutant inside it
	// killed and none survived.
	values []judgedValue
	// judges maps the line of a data site to the other data lines its
	// mutants judge (an embedded file's line → the lines of the
	// //go:embed variable): a kill there witnesses them too.
	judges map[lineRef][]lineRef
	// statements are the changed, covered statements of code: each must
	// have a mutant on one of its changed lines killed.
	statements []judgedStatement
	// bystanders counts the sites on changed data lines left out because
	// they change only what the patch left as it was (the row's timeout
	// beside the limit the fix raised; see written).
	bystanders int
}

// lineRef is a line of a file of the repository.
type lineRef struct {
	path string
	line int
}

// NotMeasured is a strength that could not be measured, and why.
func NotMeasured(format string, args ...any) *pb.StrengthMeasured {
	return &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_NONE, Reason: fmt.Sprintf(format, args...)}
}

// Unmeasurable is the strength record of a run whose mutants cannot be
// planned whatever its trees (mutation switched off, no computed diff
// coverage), or nil: a service checks it before rebuilding the trees.
func Unmeasurable(c *criteria.Criteria, cov *pb.CoverageMeasured) *pb.StrengthMeasured {
	switch {
	case c.MutationMax == 0:
		return NotMeasured("mutation switched off (mutation_max 0)")
	case cov.GetSource() != pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED:
		return NotMeasured("no computed diff coverage to find the covered changed lines: %s", cov.GetReason())
	}
	return nil
}

// language is one language's part of mutation planning.
type language interface {
	// sites finds the mutation sites of the language's changed lines
	// that tests reach, and the equivalent ones; a non-empty why says
	// the strength cannot be measured. Sites are keyed by siteKey.
	sites(ctx context.Context) (sites []mutant.Site, why string, err error)
	// prepare readies the chosen sites of the language to run (the Go
	// schemata); why as for sites.
	prepare(ctx context.Context, chosen []mutant.Site) (why string, err error)
	// spec is the job of a chosen site of the language, false when no
	// test can judge it.
	spec(s mutant.Site) (*jobs.Spec, bool)
	// owns reports whether a chosen site is the language's.
	owns(s mutant.Site) bool
}

// siteKey identifies a site across Select, which returns copies.
func siteKey(s mutant.Site) string {
	return fmt.Sprintf("%s:%d:%d:%s:%s", s.File, s.Line, s.Col, s.Operator, s.Description)
}

// reachingLines maps the changed lines some test executes to the tests
// executing them: path → line → tests.
func reachingLines(cov *pb.CoverageMeasured) map[string]map[int][]string {
	reaching := map[string]map[int][]string{}
	for _, e := range cov.GetReach() {
		for _, l := range e.Lines {
			if reaching[l.Path] == nil {
				reaching[l.Path] = map[int][]string{}
			}
			reaching[l.Path][int(l.Line)] = append(reaching[l.Path][int(l.Line)], e.Test)
		}
	}
	return reaching
}

// Make plans the mutants of a run. Planning is deterministic (the
// selection is seeded by the tree digests, and a run planned before keeps
// the switch its plan recorded), so planning again after a restart
// rebuilds the same schemata. Evidence that does not allow a measurement
// ends in Plan.Strength; an error is a failure of the work (a coverage
// report the blob store does not give back).
func Make(ctx context.Context, in Input) (*Plan, error) {
	c := in.Criteria
	reaching := reachingLines(in.Coverage)
	g := &goLang{in: in, reaching: reaching}
	py := &pyLang{in: in, root: in.Workspace.PristineDir(jobs.TreeOracle)}
	// Go first, then Python: each may end planning with why.
	var sites []mutant.Site
	for _, l := range []language{g, py} {
		found, why, err := l.sites(ctx)
		if err != nil {
			return nil, err
		}
		if why != "" {
			return &Plan{Strength: NotMeasured("%s", why)}, nil
		}
		sites = append(sites, found...)
	}
	// A changed data line's values the patch left as they were are not
	// what it asks to be judged on: their mutants are left out.
	sites, bystanders, deleted := g.withoutBystanders(ctx, sites)
	if len(deleted) > 0 {
		return &Plan{Strength: NotMeasured("the mutator cannot judge changed data: %s", strings.Join(deleted, "; "))}, nil
	}
	// The extra operators join when the primary ones offer fewer mutants
	// than the floor needs.
	slices.SortFunc(g.changedData, func(a, b lineRef) int { return cmp.Or(strings.Compare(a.path, b.path), a.line-b.line) })
	g.changedData = slices.Compact(g.changedData)
	// A changed data line is judged value by value where the patch's
	// changes to it lie inside values (see changedValues), else whole.
	values, whole, unjudgeable := g.judgedValues(ctx, sites)
	if len(unjudgeable) > 0 {
		return &Plan{Strength: NotMeasured("the mutator cannot judge changed data: %s", strings.Join(unjudgeable, "; "))}, nil
	}
	notes := &Notes{equivalent: g.equivalent, pyEquivalent: py.equivalent, skipped: g.skipped, fromSource: g.fromSource, need: killsNeeded(c.StrengthFloor, c.StrengthConfidence),
		dataLines: whole, values: values, judges: g.judges, bystanders: bystanders, statements: statementList(g.statements, g.stmtSites)}
	offered, distinct := mutant.Offer(sites, max(notes.need, 0))
	notes.distinct = distinct
	// One mutant of every value the patch wrote runs whatever the limit:
	// an unselected value would leave strength unverified.
	byKey := map[string]mutant.Site{}
	for _, s := range offered {
		byKey[siteKey(s)] = s
	}
	var first []mutant.Site
	for _, v := range values {
		for _, k := range v.sites {
			if s, ok := byKey[k]; ok && s.Equivalent == "" {
				first = append(first, s)
				break
			}
		}
	}
	// And one of every changed statement of code: one offered when it
	// has one, else one of the wider set (return err → return nil).
	first = append(first, statementFirst(notes.statements, offered, sites)...)
	chosen := mutant.SelectFirst(first, offered, c.MutationMax, []byte(runTrees(in.Run)))
	// A census, for Go only: Python's changed statements are not yet
	// each judged by a killed mutant of their own, so there the floor's
	// count of mutants stays the only guard against a line beside the fix.
	notes.complete = distinct > 0 && len(chosen) >= distinct && !slices.ContainsFunc(chosen, py.owns)
	if len(chosen) == 0 {
		reason := fmt.Sprintf("no mutation site on the %d changed, covered lines", countLines(reaching))
		if few := TooFew(0, c.StrengthFloor, c.StrengthConfidence); few != "" {
			reason += ": " + few
		}
		return &Plan{Notes: notes, Strength: &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED,
			Mutants: append(equivalentMutants(g.equivalent, 0), py.equivalent...), Reason: reason}}, nil
	}
	langs := []language{g, py}
	for _, l := range langs {
		var mine []mutant.Site
		for _, s := range chosen {
			if l.owns(s) {
				mine = append(mine, s)
			}
		}
		why, err := l.prepare(ctx, mine)
		if err != nil {
			return nil, err
		}
		if why != "" {
			return &Plan{Notes: notes, Strength: NotMeasured("%s", why)}, nil
		}
	}
	var specs []*jobs.Spec
	for _, s := range chosen {
		for _, l := range langs {
			if l.owns(s) {
				if spec, ok := l.spec(s); ok {
					specs = append(specs, spec)
				}
				break
			}
		}
	}
	if len(specs) == 0 {
		return &Plan{Notes: notes, Strength: NotMeasured("no test package found for the tests that reach the mutants")}, nil
	}
	if len(specs) < len(chosen) {
		// A data mutant of a package no coverage job ran has no test to
		// judge it: the data is not judged.
		if missing := g.unjudgedData(chosen, specs); len(missing) > 0 {
			return &Plan{Notes: notes, Strength: NotMeasured("the mutator cannot judge changed data: no test of its package ran under coverage for %s", strings.Join(missing, ", "))}, nil
		}
	}
	return &Plan{Specs: specs, Notes: notes}, nil
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

// recordedSwitch rebuilds the switch of a run whose Go mutants the
// mutation service already planned (found in its job.planned record).
func recordedSwitch(run []*record.Decoded) (mutant.Switch, bool) {
	sw := mutant.Switch{Tokens: map[int]string{}, Refs: map[int]string{}}
	for _, r := range run {
		if r.Kind != pb.Kind_KIND_JOB_PLANNED || r.Record.GetProducer().GetIdentity() != keyring.Mutation {
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

func countLines(m map[string]map[int][]string) int {
	n := 0
	for _, ls := range m {
		n += len(ls)
	}
	return n
}

package mutation

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"

	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// maxWarmSites bounds the sites Warm writes into the schemata: a change
// that offers more is planned the usual way, once coverage has narrowed
// it to the covered lines' sites.
const maxWarmSites = 500

// Warmed is a run's Go mutants made ready before its coverage is known,
// while the executor runs the claims and suites: every mutation site of
// the changed lines, whether or not a test turns out to reach it, numbered
// and written into the workspace's schemata behind one switch. Planning
// (Make) then only narrows them to the covered lines' sites and selects;
// the chosen keep the numbers and tokens they were written with, so the
// schemata test binaries built ahead (Builds) serve their jobs.
//
// Nothing here decides anything: a plan made from a Warmed run selects
// the same sites, with the same tests, as one made without it; only the
// numbers, the tokens and the unused sites' code in the schemata differ,
// and no job reads either.
type Warmed struct {
	root  string                      // the pristine oracle tree surveyed
	lines map[string]map[string][]int // the lines surveyed, per package directory
	dirs  map[string]inspected
	sw    mutant.Switch
	ids   map[string]int // siteKey (repository path) → number
	// Builds are the mutant jobs, one per package the executor plans a
	// coverage job for, whose schemata test binaries are worth building
	// ahead (executor.Executor.PrebuildSchemata).
	Builds []*jobs.Spec
	// Sites counts the sites written.
	Sites int
}

// Warm surveys the changed Go packages of in.Workspace and writes every
// site of the changed lines into its schemata tree; in.Run holds the
// executor's plan, whose coverage jobs name the test packages. A nil
// Warmed with a nil error means there is nothing to make ready ahead (no
// changed Go line with a site, too many sites, a package that does not
// survey): planning does it all, as without Warm. An error is a failure
// to write the schemata.
func Warm(ctx context.Context, in Input) (*Warmed, error) {
	root := in.Workspace.PristineDir(jobs.TreeOracle)
	byDir := goLines(root, in.Checkout.Changes, nil)
	w := &Warmed{root: root, lines: byDir, dirs: map[string]inspected{}, ids: map[string]int{}}
	type placed struct {
		dir  string
		site mutant.Site // File relative to dir
	}
	var all []placed
	for _, d := range slices.Sorted(maps.Keys(byDir)) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		insp, why := inspectDir(ctx, root, d, byDir[d])
		if why != "" {
			return nil, nil
		}
		w.dirs[d] = insp
		for _, s := range insp.survey.Sites {
			if s.Equivalent == "" {
				all = append(all, placed{d, s})
			}
		}
	}
	if len(all) == 0 || len(all) > maxWarmSites {
		return nil, nil
	}
	ids := make([]int, len(all))
	for i := range all {
		all[i].site.ID, ids[i] = i+1, i+1
		s := all[i].site
		s.File = path.Join(all[i].dir, s.File)
		w.ids[siteKey(s)] = s.ID
	}
	sw, err := mutant.NewSwitch(ids)
	if err != nil {
		return nil, fmt.Errorf("make the mutant switch: %w", err)
	}
	w.sw = sw
	overlay := map[string][]byte{}
	for _, d := range slices.Sorted(maps.Keys(w.dirs)) {
		var mine []mutant.Site
		for _, p := range all {
			if p.dir == d {
				mine = append(mine, p.site)
			}
		}
		if len(mine) == 0 {
			continue
		}
		out, err := mutant.Schemata(w.dirs[d].pkg, mine, sw)
		if err != nil {
			// A site the schemata cannot write with the others: planning
			// writes the chosen ones alone and says why if they fail too.
			return nil, nil
		}
		for base, b := range out {
			overlay[path.Join(d, base)] = b
		}
	}
	if err := in.Workspace.Schemata(overlay); err != nil {
		return nil, fmt.Errorf("write the mutant schemata: %w", err)
	}
	for ip, tp := range testPackages(in.Run) {
		w.Builds = append(w.Builds, &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: tp.Module,
			TimeoutSec: in.Criteria.Limits.ClaimTimeoutSec, Targets: []jobs.Target{{Package: tp.Package, ImportPath: ip}}})
	}
	slices.SortFunc(w.Builds, func(a, b *jobs.Spec) int { return cmp.Compare(a.Targets[0].ImportPath, b.Targets[0].ImportPath) })
	w.Sites = len(all)
	return w, nil
}

// Token is the token that switches on the site numbered id in the
// schemata written ahead ("" when none is numbered so).
func (w *Warmed) Token(id int) string { return w.sw.Tokens[id] }

// surveyed returns the packages w surveyed of the tree root, when it
// surveyed exactly the lines planning asks for there; none otherwise.
func (w *Warmed) surveyed(root string, lines map[string]map[string][]int) map[string]inspected {
	if w == nil || w.root != root || !maps.EqualFunc(w.lines, lines, func(a, b map[string][]int) bool {
		return maps.EqualFunc(a, b, slices.Equal)
	}) {
		return nil
	}
	return w.dirs
}

// renumber gives each chosen site the number ids holds for it (by
// siteKey); false, and chosen unchanged, when one has none.
func renumber(chosen []mutant.Site, ids map[string]int) ([]mutant.Site, bool) {
	out := slices.Clone(chosen)
	for i := range out {
		id, ok := ids[siteKey(out[i])]
		if !ok {
			return chosen, false
		}
		out[i].ID = id
	}
	return out, true
}

// recordedIDs maps the mutants of the run's recorded mutant plan, by
// siteKey, to the numbers they were planned with: a run planned from
// warmed sites numbers them as Warm did, not as the selection does.
func recordedIDs(run []*record.Decoded) (map[string]int, bool) {
	ids := map[string]int{}
	for _, s := range recordedSpecs(run) {
		m := s.Mutation
		ids[siteKey(mutant.Site{File: m.Path, Line: m.Line, Col: m.Col, Operator: m.Operator, Description: m.Description})] = m.ID
	}
	return ids, len(ids) > 0
}

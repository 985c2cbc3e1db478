package mutation

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

	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// goLang plans Go mutants: sites found by the mutant package in the
// changed packages, written into them at once as mutant schemata behind a
// per-run switch, each run against the tests of its package that reach
// its line (every test of the package for a data line).
type goLang struct {
	in       Input
	reaching map[string]map[int][]string

	// Found by sites.
	equivalent []mutant.Site
	skipped    []string
	// fromSource says, per package directory, why its imports were
	// type-checked from source rather than read from export data.
	fromSource  []string
	changedData []lineRef
	judges      map[lineRef][]lineRef
	// statements holds the changed, covered lines of code by the unit
	// that judges what the patch wrote on them (see statementsOf), and
	// stmtSites the sites inside each unit.
	statements map[stmtRange][]int
	stmtSites  map[stmtRange][]mutant.Site
	// What the patch wrote, read by writes: the written token spans, the
	// deletions, the token-identical lines and the spans that rewrote
	// tokens in place (see written) of each modified Go file.
	wrote     map[string][][2]int
	dels      map[string][]deletion
	replaced  map[string][][2]int
	runs      map[string][]alignment
	removed   map[string][]removal
	same      map[lineRef]bool
	texts     map[string][]byte
	values    map[string]*valueChanges // by patch-side path; see valueComparison
	gone      []string                 // the baseline values the patch deleted
	writesRan bool
	where     map[string]located // siteKey of a Go site → its package
	pkgs      map[string]mutant.Package

	// Made by prepare.
	sw mutant.Switch
	// The coverage jobs' packages and the tests they ran, read by prepare.
	targets map[string]testPkg
	covered map[string][]string
	// claimed holds the claimed tests ("<import path>.<Test>"): a
	// mutant's job runs them before its other reaching tests.
	claimed map[string]bool
}

// located is where a Go site's package is: its directory, the site's file
// relative to it, and whether the site is on a data line.
type located struct {
	dir, file string
	data      bool
	// gap marks a statement restore of a gap (see gapsOf): every covered
	// test of its package judges it, as no changed line carries it.
	gap bool
}

func (g *goLang) owns(s mutant.Site) bool {
	_, ok := g.where[siteKey(s)]
	return ok
}

// ChangedGoSources maps the directory of every Go source file the patch
// changes and keeps to the names of those files in it: the packages whose
// lines can carry Go mutants.
func ChangedGoSources(co *checkout.Checkout) map[string][]string {
	dirs := map[string][]string{}
	for _, ch := range co.Changes {
		if ch.Class == checkout.ClassSource && ch.Kind != checkout.Deleted && strings.HasSuffix(ch.Path, ".go") {
			dirs[path.Dir(ch.Path)] = append(dirs[path.Dir(ch.Path)], path.Base(ch.Path))
		}
	}
	return dirs
}

func (g *goLang) sites(ctx context.Context) ([]mutant.Site, string, error) {
	co, root := g.in.Checkout, g.in.Workspace.PristineDir(jobs.TreeOracle)
	reaching := g.reaching
	g.judges, g.where, g.pkgs = map[lineRef][]lineRef{}, map[string]located{}, map[string]mutant.Package{}
	g.statements, g.stmtSites = map[stmtRange][]int{}, map[stmtRange][]mutant.Site{}
	// Changed Go source the host build leaves out (build constraints, cgo)
	// can carry no mutant that runs here: strength cannot be verified.
	changedDirs := ChangedGoSources(co)
	var unjudged []string
	for _, d := range slices.Sorted(maps.Keys(changedDirs)) {
		pkg, err := readPackage(root, d)
		if err != nil {
			return nil, fmt.Sprintf("read %s: %v", d, err), nil
		}
		excluded, err := mutant.Excluded(pkg)
		if err != nil {
			return nil, fmt.Sprintf("read %s: %v", d, err), nil
		}
		for _, f := range changedDirs[d] {
			if slices.Contains(excluded, f) {
				unjudged = append(unjudged, path.Join(d, f))
			}
		}
	}
	if len(unjudged) > 0 {
		return nil, fmt.Sprintf("the mutator cannot judge %s: the host build leaves them out (build constraints or cgo)", strings.Join(unjudged, ", ")), nil
	}
	// Every changed line of the changed Go packages is inspected: code
	// sites count on the lines tests execute, data sites (package-level
	// values, embedded files) on the data lines coverage cannot see.
	byDir := goLines(root, co.Changes, reaching)
	// The changes no statement holds (see gapsOf), by patch-side path;
	// their packages are inspected even where no line was added.
	g.writes(ctx)
	gaps := map[string][]gap{}
	// What each package declares at package level, in all its files: a
	// var statement declaring one of those names shadows it.
	outer := map[string]map[string]bool{}
	outerOf := func(d string) map[string]bool {
		if names, ok := outer[d]; ok {
			return names
		}
		var names map[string]bool
		if pkg, err := readPackage(root, d); err == nil {
			names = packageNamesOf(pkg.Files)
		}
		outer[d] = names
		return names
	}
	for _, p := range slices.Sorted(maps.Keys(g.texts)) {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || g.texts[p] == nil {
			continue
		}
		ix := indexStatements(p, g.texts[p], outerOf(path.Dir(p)))
		rs, _ := restoresOf(path.Base(p), g.texts[p], ix, g.runs[p], g.wrote[p], g.dels[p], 0)
		if gs := gapsOf(g.texts[p], ix, g.runs[p], g.wrote[p], g.dels[p], g.removed[p], rs); len(gs) > 0 {
			gaps[p] = gs
			d, f := path.Dir(p), path.Base(p)
			if byDir[d] == nil {
				byDir[d] = map[string][]int{}
			}
			byDir[d][f] = append(byDir[d][f], []int{}...)
		}
	}
	// A gap's unit, by where its site stands: path, line, column.
	type siteAt struct {
		path      string
		line, col int
	}
	gapUnits := map[siteAt]stmtRange{}
	maybeUnits := map[stmtRange]bool{} // judged only if a restore of theirs was written
	deadUnits := map[stmtRange]bool{}  // dead stores: judged by nothing (see mutant.EquivalentDeadStore)
	var sites []mutant.Site
	var dataLines []string
	for _, d := range slices.Sorted(maps.Keys(byDir)) {
		pkg, err := readPackage(root, d)
		if err != nil {
			return nil, fmt.Sprintf("read %s: %v", d, err), nil
		}
		// The standard library and the dependencies are read from the
		// compiler's export data; without it, from source (slower, the
		// same types).
		if x, err := mutant.LoadExports(ctx, mutant.ExportsConfig{GoRoot: g.in.Go.Root, Cache: g.in.Go.Cache, ModCache: g.in.Go.ModCache}, pkg.Dir); err != nil {
			g.fromSource = append(g.fromSource, fmt.Sprintf("%s (%v)", d, err))
		} else {
			pkg.Exports = x
		}
		// What the patch replaced, put back (see restoresOf).
		g.writes(ctx)
		next := 0
		for _, f := range slices.Sorted(maps.Keys(pkg.Files)) {
			p := path.Join(d, f)
			var rs []mutant.Restore
			rs, next = restoresOf(f, pkg.Files[f], indexStatements(p, pkg.Files[f], outerOf(d)), g.runs[p], g.wrote[p], g.dels[p], next)
			pkg.Restores = append(pkg.Restores, rs...)
			var units []gap
			rs, units, next = gapRestores(f, pkg.Files[f], gaps[p], next)
			pkg.Restores = append(pkg.Restores, rs...)
			starts := lineStarts(pkg.Files[f])
			for _, gp := range units {
				i, _ := slices.BinarySearch(starts, gp.at+1)
				u := stmtRange{path: p, first: i, last: i, part: gp.what, off: gp.at}
				gapUnits[siteAt{p, i, gp.at - starts[i-1] + 1}] = u
				g.statements[u] = append(g.statements[u], i)
				if gp.maybe && !losesName(pkg.Files[f], gp.at, gp.text, g.runs[p]) {
					maybeUnits[u] = true
				}
			}
			// An input the removed code read and the function reads no
			// more: no restore of it compiles, and no mutant of what is
			// left drops it. Judged by nothing: INCONCLUSIVE.
			for _, in := range droppedInputs(pkg.Files[f], g.dels[p], g.removed[p]) {
				i, _ := slices.BinarySearch(starts, in.at+1)
				u := stmtRange{path: p, first: i, last: i, part: fmt.Sprintf("stops reading %s, which the code it removed there read: no mutant puts a dropped input back", in.name), off: in.at}
				g.statements[u] = append(g.statements[u], i)
			}
		}
		g.pkgs[d] = pkg
		survey, err := mutant.Inspect(pkg, byDir[d])
		if err != nil {
			return nil, fmt.Sprintf("find mutation sites in %s: %v", d, err), nil
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
				g.judges[ref] = append(g.judges[ref], lineRef{path.Join(d, l.File), l.Line})
			}
		}
		kind := map[string]mutant.LineKind{}
		g.writes(ctx)
		code := map[string][]int{} // file → its changed, covered lines of code
		for _, l := range survey.Lines {
			kind[fmt.Sprintf("%s:%d", l.File, l.Line)] = l.Kind
			if p := path.Join(d, l.File); l.Kind == mutant.LineNotData && len(reaching[p][l.Line]) > 0 && !g.same[lineRef{p, l.Line}] {
				code[l.File] = append(code[l.File], l.Line)
			}
			if l.Kind != mutant.LineNotData && g.same[lineRef{path.Join(d, l.File), l.Line}] {
				// A data line holding the tokens it held (realigned by
				// gofmt beside a new row, a comment changed) changes
				// nothing to judge; its sites are bystanders.
				continue
			}
			if l.Kind == mutant.LineData || l.Kind == mutant.LineTable {
				// A row of a table in code is judged by code mutants
				// and, like data, needs a kill of its own.
				g.changedData = append(g.changedData, lineRef{path.Join(d, l.File), l.Line})
			}
			if l.Kind == mutant.LineUnjudgeable {
				dataLines = append(dataLines, fmt.Sprintf("%s:%d (%s)", path.Join(d, l.File), l.Line, l.Reason))
			}
		}
		type indexed struct {
			ix     *stmtIndex
			starts []int
		}
		index := map[string]indexed{}
		for _, f := range slices.Sorted(maps.Keys(code)) {
			p := path.Join(d, f)
			ix := indexStatements(p, pkg.Files[f], outerOf(d))
			index[f] = indexed{ix, lineStarts(pkg.Files[f])}
			wrote, compared := g.wrote[p]
			var deleted []int
			for _, del := range g.dels[p] {
				deleted = append(deleted, del.Off)
				if del.Before >= 0 {
					deleted = append(deleted, del.Before)
				}
			}
			for st, ls := range ix.statementsOf(pkg.Files[f], code[f], wrote, deleted, !compared) {
				g.statements[st] = append(g.statements[st], ls...)
			}
		}
		// An exempt statement the patch rewrote in place (a return of
		// nils, a zero var, a type switch's header or case) is judged
		// too, on any line, covered or not (see rewrittenUnits).
		for _, f := range slices.Sorted(maps.Keys(pkg.Files)) {
			p := path.Join(d, f)
			if len(g.replaced[p]) == 0 && len(g.dels[p]) == 0 {
				continue
			}
			ix := index[f].ix
			if ix == nil {
				ix = indexStatements(p, pkg.Files[f], outerOf(d))
			}
			for st, ls := range ix.rewrittenUnits(pkg.Files[f], g.replaced[p], g.wrote[p], g.dels[p], g.runs[p]) {
				g.statements[st] = append(g.statements[st], ls...)
			}
		}
		for _, sk := range survey.Skipped {
			p := path.Join(d, sk.Site.File)
			if kind[fmt.Sprintf("%s:%d", sk.Site.File, sk.Site.Line)] == mutant.LineData || len(reaching[p][sk.Site.Line]) > 0 {
				g.skipped = append(g.skipped, fmt.Sprintf("%s:%d %s (%s)", p, sk.Site.Line, sk.Site.Description, sk.Reason))
			}
		}
		for _, s := range survey.Sites {
			data := kind[fmt.Sprintf("%s:%d", s.File, s.Line)] == mutant.LineData
			rel := s.File
			if kind[fmt.Sprintf("%s:%d", s.File, s.Line)] != mutant.LineNotData && g.same[lineRef{path.Join(d, s.File), s.Line}] {
				continue // a data line holding the tokens it held
			}
			s.File = path.Join(d, s.File)
			gapUnit, gapSite := stmtRange{}, false
			if s.Operator == mutant.OpRestore && strings.HasPrefix(s.Description, "statements: ") {
				gapUnit, gapSite = gapUnits[siteAt{s.File, s.Line, s.Col}]
			}
			if _, dup := g.where[siteKey(s)]; dup || !data && !gapSite && len(reaching[s.File][s.ReachLine()]) == 0 {
				continue // code no test executes, or a file two packages embed
			}
			if s.Equivalent != "" {
				g.equivalent = append(g.equivalent, s)
				if gapSite && strings.HasPrefix(s.Equivalent, mutant.EquivalentIdleCopy) {
					// What the patch deleted there was only a copy of a
					// variable nothing captures: nothing to judge.
					deadUnits[gapUnit] = true
					continue
				}
				if in := index[rel]; strings.HasPrefix(s.Equivalent, mutant.EquivalentDeadStore) && in.ix != nil && s.Line >= 1 && s.Line <= len(in.starts) {
					// A store no code reads does nothing a test could
					// notice: its statement is not judged.
					if u, _, ok := in.ix.at(in.starts[s.Line-1] + s.Col - 1); ok {
						deadUnits[u] = true
					}
				}
				continue
			}
			if s.Operator == mutant.OpReturnNonNil {
				// A return of nils the patch writes anew is judged by
				// what leads to it; only one it rewrote in place needs
				// its values changed.
				in := index[rel]
				if in.ix == nil || s.Line < 1 || s.Line > len(in.starts) {
					continue
				}
				if u, ok := in.ix.rewrittenAt(in.starts[s.Line-1] + s.Col - 1); !ok || g.statements[u] == nil {
					continue
				}
			}
			g.where[siteKey(s)] = located{dir: d, file: rel, data: data, gap: gapSite}
			sites = append(sites, s)
			if gapSite {
				// Its gap's unit alone judges it.
				g.stmtSites[gapUnit] = append(g.stmtSites[gapUnit], s)
				continue
			}
			if in := index[rel]; in.ix != nil && s.Line >= 1 && s.Line <= len(in.starts) {
				// The unit the site lies in judges it, and so does its
				// statement when that unit is one of its expressions.
				off := in.starts[s.Line-1] + s.Col - 1
				if u, whole, ok := in.ix.at(off); ok {
					g.stmtSites[u] = append(g.stmtSites[u], s)
					if whole != u {
						g.stmtSites[whole] = append(g.stmtSites[whole], s)
					}
				} else if u, ok := in.ix.rewrittenAt(off); ok {
					// A statement judged only when rewritten (return
					// nil: return_nonnil).
					g.stmtSites[u] = append(g.stmtSites[u], s)
				}
			}
		}
	}
	for u := range deadUnits {
		delete(g.statements, u)
	}
	// Lines that may have been rewritten rather than deleted, which do
	// not compile put back: a rewrite.
	for u := range maybeUnits {
		if len(g.stmtSites[u]) == 0 {
			delete(g.statements, u)
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
		return nil, fmt.Sprintf("the mutator cannot judge changed data: %s", strings.Join(dataLines, "; ")), nil
	}
	return sites, "", nil
}

// prepare writes the chosen Go sites into their packages as mutant
// schemata behind the run's switch. The switch is fresh per run; a run
// planned before a restart keeps the one its plan recorded, so the
// rebuilt schemata match it.
func (g *goLang) prepare(_ context.Context, chosen []mutant.Site) (string, error) {
	var ids []int
	for _, s := range chosen {
		ids = append(ids, s.ID)
	}
	sw, ok := recordedSwitch(g.in.Run)
	if !ok {
		var err error
		if sw, err = mutant.NewSwitch(ids); err != nil {
			return fmt.Sprintf("make the mutant switch: %v", err), nil
		}
	}
	g.sw = sw
	g.targets, g.covered, g.claimed = testPackages(g.in.Run), coveredTests(g.in.Run), claimedTests(g.in.Run)
	overlay := map[string][]byte{}
	for _, d := range slices.Sorted(maps.Keys(g.pkgs)) {
		var mine []mutant.Site
		for _, s := range chosen {
			if at, ok := g.where[siteKey(s)]; ok && at.dir == d {
				s.File = at.file
				mine = append(mine, s)
			}
		}
		if len(mine) == 0 {
			continue
		}
		out, err := mutant.Schemata(g.pkgs[d], mine, sw)
		if err != nil {
			return fmt.Sprintf("build the mutant schemata of %s: %v", d, err), nil
		}
		for base, b := range out {
			overlay[path.Join(d, base)] = b
		}
	}
	if len(overlay) > 0 {
		if err := g.in.Workspace.Schemata(overlay); err != nil {
			return fmt.Sprintf("write the mutant schemata: %v", err), nil
		}
	}
	return "", nil
}

// spec is a Go mutant's job: its switch token, run against the tests of
// its package that reach its line (every passing covered test of the
// package for a data line); false when no coverage job ran its package.
func (g *goLang) spec(s mutant.Site) (*jobs.Spec, bool) {
	c := g.in.Criteria
	targetsOf := g.targets
	spec := &jobs.Spec{Purpose: jobs.Mutant, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", TimeoutSec: c.Limits.ClaimTimeoutSec,
		Mutation: &jobs.MutantRef{ID: s.ID, Path: s.File, Line: s.Line, Col: s.Col, Operator: s.Operator, Description: s.Description,
			Var: g.sw.Var, Token: g.sw.Tokens[s.ID], Ref: g.sw.Refs[s.ID]}}
	byPkg := map[string][]string{}
	tests := g.reaching[s.File][s.ReachLine()]
	if at := g.where[siteKey(s)]; at.data || at.gap {
		// Data is read when the package initializes, or any time
		// after: every test of the package judges it. So does every
		// test of the package judge a gap's restore, which no changed
		// line carries to coverage.
		tests = g.covered[importPathOf(targetsOf, at.dir)]
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
		spec.Targets = append(spec.Targets, jobs.Target{Package: tp.Package, ImportPath: ip, Tests: claimedFirst(ip, slices.Compact(ts), g.claimed)})
	}
	return spec, len(spec.Targets) > 0
}

// claimedFirst orders the tests of package ip that a mutant's job runs:
// the claimed ones first, then the others, each group in name order. The
// job stops at the first test that kills the mutant, and the tests that
// prove the fix are the likeliest to: a mutant on the fix's lines is
// mostly judged in one run instead of one per test of the package before
// it. The order never decides whether a mutant survives (a survivor runs
// them all), only how many processes run and which test is named the
// killer.
func claimedFirst(ip string, tests []string, claimed map[string]bool) []string {
	out := make([]string, 0, len(tests))
	for _, t := range tests {
		if claimed[ip+"."+t] {
			out = append(out, t)
		}
	}
	for _, t := range tests {
		if !claimed[ip+"."+t] {
			out = append(out, t)
		}
	}
	return out
}

// claimedTests gives the top-level tests the run's claims run (a claim
// job, an edited test's, or the claim a prerequisite unlocks), as
// "<import path>.<Test>".
func claimedTests(run []*record.Decoded) map[string]bool {
	out := map[string]bool{}
	add := func(s *jobs.Spec) {
		if s == nil || s.Claim == "" || s.ImportPath == "" || (s.Purpose != jobs.Claim && s.Purpose != jobs.Edited) {
			return
		}
		for _, t := range s.Tests {
			top, _, _ := strings.Cut(t, "/")
			out[s.ImportPath+"."+top] = true
		}
	}
	for _, r := range run {
		for _, j := range r.Record.GetJobPlanned().GetJobs() {
			if s, err := jobs.ParseSpec(j.Spec); err == nil {
				add(s)
				add(s.Then)
			}
		}
	}
	return out
}

// unjudgedData lists, sorted, the data lines of chosen Go sites left
// without a job.
func (g *goLang) unjudgedData(chosen []mutant.Site, specs []*jobs.Spec) []string {
	var missing []string
	planned := map[int]bool{}
	for _, sp := range specs {
		planned[sp.Mutation.ID] = true
	}
	for _, s := range chosen {
		if at := g.where[siteKey(s)]; at.data && !planned[s.ID] {
			missing = append(missing, fmt.Sprintf("%s:%d", s.File, s.Line))
		}
	}
	slices.Sort(missing)
	return slices.Compact(missing)
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

// withoutBystanders returns sites without the Go sites on changed data
// lines whose span holds no token the patch wrote there (see written) and
// no value it changed (see valueComparison), and without the constant
// values in code the patch did not rewrite, and how many it left out: a
// mutant of the timeout beside the limit a fix raised judges a value the
// patch did not touch. Sites without a span, on
// other lines or in files the patch adds are all kept. deleted names the
// changed data lines where the patch deletes tokens between two it keeps:
// no mutant expresses that.
func (g *goLang) withoutBystanders(ctx context.Context, sites []mutant.Site) (kept []mutant.Site, left int, deleted []string) {
	data := map[lineRef]bool{}
	for _, l := range g.changedData {
		data[l] = true
	}
	g.writes(ctx)
	wrote, dels, texts := g.wrote, g.dels, g.texts
	for _, p := range slices.Sorted(maps.Keys(dels)) {
		starts := lineStarts(texts[p])
		for _, d := range dels[p] {
			line, _ := slices.BinarySearch(starts, d.Off+1) // the line holding d.Off
			if !data[lineRef{p, line}] {
				continue
			}
			if vc := g.values[p]; vc != nil {
				at := d.Wrote
				if at == [2]int{} {
					at = [2]int{d.Off, d.Off + 1}
				}
				if _, ok := vc.unitAt(at); ok {
					// Deleted inside a value the patch rewrote (-10 → 10,
					// 24 * time.Hour → time.Hour): that value is judged
					// whole. A deleted element leaves its path gone.
					continue
				}
			}
			deleted = append(deleted, fmt.Sprintf("%s:%d (the patch deletes %s there: no mutant expresses a deletion)", p, line, clip([]string{d.Text})))
		}
	}
	for _, gone := range g.gone {
		deleted = append(deleted, fmt.Sprintf("the patch deletes %s: no mutant expresses a deletion", gone))
	}
	labels := map[string][][2]int{}
	for _, s := range sites {
		if g.owns(s) && s.Operator == mutant.OpConstantValue && !g.rewrote(s.File, s.Span) {
			continue // a constant in code beside the change: its double judges nothing the patch did
		}
		if g.owns(s) && g.labelKept(s, labels) {
			// A case label's value the patch left as it was, beside one it
			// wrote (case "root" → case "root", "admin"): its mutants
			// judge nothing the patch did, and a kill of them would
			// vouch for the label the patch wrote beside it.
			continue
		}
		if g.owns(s) && s.Span != [2]int{} && data[lineRef{s.File, s.Line}] {
			if spans, ok := wrote[s.File]; ok && !overlaps(s.Span, spans) {
				if vc := g.values[s.File]; vc == nil || !vc.touches(s.Span) {
					continue
				}
			}
		}
		kept = append(kept, s)
	}
	return kept, len(sites) - len(kept), deleted
}

// labelKept reports whether s lies inside a value of an expression
// switch's case label that the patch neither wrote inside nor deleted
// from (see rewrote). labels caches each file's label spans.
func (g *goLang) labelKept(s mutant.Site, labels map[string][][2]int) bool {
	text := g.texts[s.File]
	if _, ok := g.wrote[s.File]; !ok || text == nil {
		return false // not compared token by token: judged as it is
	}
	spans, ok := labels[s.File]
	if !ok {
		spans = labelSpans(text)
		labels[s.File] = spans
	}
	at := s.Span
	if at == [2]int{} {
		starts := lineStarts(text)
		if s.Line < 1 || s.Line > len(starts) {
			return false
		}
		off := starts[s.Line-1] + s.Col - 1
		at = [2]int{off, off + 1}
	}
	for _, l := range spans {
		if l[0] <= at[0] && at[1] <= l[1] {
			return !g.rewrote(s.File, l)
		}
	}
	return false
}

// judgedValues returns the values the patch changed (see
// valueComparison), each with the keys of the sites inside it, which must
// witness it; the changed data lines still judged whole (those of files
// without a value comparison, or where the patch wrote a token outside
// every value: a row of a table in code); and the values no site is
// inside, which no mutant can judge (a name or a call written, a row
// whose type or import changed under it).
func (g *goLang) judgedValues(ctx context.Context, sites []mutant.Site) (values []judgedValue, whole []lineRef, unjudgeable []string) {
	g.writes(ctx)
	byUnit := map[string]map[int][]string{} // path → unit start → site keys
	for _, s := range sites {
		vc := g.values[s.File]
		if !g.owns(s) || vc == nil {
			continue
		}
		span := s.Span
		if span == [2]int{} {
			starts := lineStarts(g.texts[s.File])
			if s.Line < 1 || s.Line > len(starts) {
				continue
			}
			off := starts[s.Line-1] + s.Col - 1
			span = [2]int{off, off + 1}
		}
		if u, ok := vc.unitAt(span); ok {
			if byUnit[s.File] == nil {
				byUnit[s.File] = map[int][]string{}
			}
			byUnit[s.File][u.start] = append(byUnit[s.File][u.start], siteKey(s))
		}
	}
	for _, l := range g.changedData {
		vc := g.values[l.path]
		text := g.texts[l.path]
		starts := lineStarts(text)
		if vc == nil || l.line < 1 || l.line > len(starts) {
			whole = append(whole, l)
			continue
		}
		ls, le := starts[l.line-1], len(text)
		if l.line < len(starts) {
			le = starts[l.line]
		}
		for _, w := range g.wrote[l.path] {
			if w[0] < le && ls < w[1] && !punctOnly(text[w[0]:w[1]]) && !vc.within(w) {
				whole = append(whole, l)
				break
			}
		}
	}
	// Every value the patch changed, on a changed line or not (a row
	// whose type or import changed under it).
	for _, p := range slices.Sorted(maps.Keys(g.values)) {
		text := g.texts[p]
		starts := lineStarts(text)
		for _, u := range g.values[p].changed {
			if u.end > len(text) {
				continue
			}
			line, _ := slices.BinarySearch(starts, u.start+1)
			v := judgedValue{at: lineRef{p, line}, text: strings.Join(strings.Fields(string(text[u.start:u.end])), " "), sites: byUnit[p][u.start]}
			if len(v.sites) == 0 {
				unjudgeable = append(unjudgeable, fmt.Sprintf("%s:%d (the patch changes %s there: no mutant expresses a change of it)", p, line, v.text))
				continue
			}
			values = append(values, v)
		}
	}
	// A constant expression in code that the patch wrote inside, or
	// deleted from (24 * time.Hour → 24 / time.Hour or → time.Hour,
	// time.Hour → time.Nanosecond), is a value too: coverage cannot tell
	// one constant from another, and no operator of the line changes it.
	// Its mutants (doubled, or a member of an enumeration the members
	// beside it) must be killed.
	bySpan := map[string]int{} // file and span → index in values
	for _, s := range sites {
		if s.Operator != mutant.OpConstantValue || !g.owns(s) || !g.rewrote(s.File, s.Span) {
			continue
		}
		k := fmt.Sprintf("%s\x00%d:%d", s.File, s.Span[0], s.Span[1])
		if i, ok := bySpan[k]; ok {
			values[i].sites = append(values[i].sites, siteKey(s))
			continue
		}
		from, _, _ := strings.Cut(s.Description, " → ")
		bySpan[k] = len(values)
		values = append(values, judgedValue{at: lineRef{s.File, s.Line}, text: from, sites: []string{siteKey(s)}})
	}
	return values, slices.Compact(whole), unjudgeable
}

// rewrote reports whether the patch wrote a token inside span of the
// patch-side file p, or deleted tokens there; every span of a file it
// adds is written.
func (g *goLang) rewrote(p string, span [2]int) bool {
	spans, ok := g.wrote[p]
	if !ok || overlaps(span, spans) {
		return true
	}
	for _, d := range g.dels[p] {
		if span[0] <= d.Off && d.Off < span[1] || d.Wrote != [2]int{} && overlaps(d.Wrote, [][2]int{span}) {
			return true
		}
	}
	return false
}

// judgedValue is a value the patch changed, and the sites inside it (by
// siteKey): one of them must be killed, and none survive.
type judgedValue struct {
	at    lineRef // the line it starts on
	text  string
	sites []string
}

// punctOnly reports whether src holds only commas, semicolons and
// parentheses (and spacing).
func punctOnly(src []byte) bool {
	return strings.Trim(string(src), ",;() \t\n") == ""
}

// writes reads, once, what the patch wrote in each modified Go file (see
// written).
func (g *goLang) writes(ctx context.Context) {
	if g.writesRan {
		return
	}
	g.writesRan = true
	root := g.in.Workspace.PristineDir(jobs.TreeOracle)
	g.texts = map[string][]byte{}
	e := written(g.in.Checkout.Diff, func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		g.texts[p] = b
		return b, err == nil
	})
	g.wrote, g.dels, g.replaced, g.runs, g.removed = e.wrote, e.dels, e.replaced, e.runs, e.removed
	same := e.same
	g.values, g.gone = g.compareValues(ctx, root)
	g.same = map[lineRef]bool{}
	for p, ls := range same {
		for _, l := range ls {
			g.same[lineRef{p, l}] = true
		}
	}
}

// compareValues compares the package-level values of each package with a
// changed non-test Go file (see valueComparison), the patch side read from
// root; the gone values are named with their package directory. A package
// whose files cannot all be read or parsed has no entry.
func (g *goLang) compareValues(ctx context.Context, root string) (map[string]*valueChanges, []string) {
	co := g.in.Checkout
	dirs, changed := map[string]bool{}, map[string]bool{}
	var olds []string
	for _, ch := range co.Changes {
		if ch.Class != checkout.ClassSource || !strings.HasSuffix(ch.Path, ".go") || strings.HasSuffix(ch.Path, "_test.go") {
			continue
		}
		old := cmp.Or(ch.OldPath, ch.Path)
		if ch.Kind != checkout.Deleted {
			dirs[path.Dir(ch.Path)], changed[ch.Path] = true, true
		}
		if ch.Kind != checkout.Added {
			dirs[path.Dir(old)] = true
			olds = append(olds, old)
		}
	}
	if len(dirs) == 0 || co.Baseline == nil {
		return nil, nil
	}
	base, err := co.Baseline.ReadFiles(ctx, olds)
	if err != nil {
		return nil, nil // judged line by line
	}
	values := map[string]*valueChanges{}
	var gone []string
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		pkg, err := readPackage(root, d)
		if err != nil {
			continue
		}
		patchSide, baseSide := map[string][]byte{}, map[string][]byte{}
		for n, b := range pkg.Files {
			p := path.Join(d, n)
			patchSide[p] = b
			if g.texts[p] == nil {
				g.texts[p] = b
			}
		}
		for p, b := range base {
			if path.Dir(p) == d {
				baseSide[p] = b
			}
		}
		byFile, g2, ok := valueComparison(baseSide, patchSide, changed)
		if !ok {
			continue
		}
		for p, vc := range byFile {
			values[p] = vc
		}
		for _, x := range g2 {
			if d == "." {
				gone = append(gone, x+" from the root package")
			} else {
				gone = append(gone, x+" from package "+d)
			}
		}
	}
	return values, gone
}

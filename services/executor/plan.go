package executor

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/splice"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// Plan returns the run's first jobs: every claim on both sides (or, with no
// claim, discovery in the packages the patch touches) and the full suite on
// the patch.
func (w *Workspace) Plan(c *criteria.Criteria) []*jobs.Spec {
	// Claims first, then the suites, the seal checks and the
	// measurements: when the deadline cuts a run short, the claims are the
	// evidence most worth having.
	var out []*jobs.Spec
	// The full suite of every stack the tree has: go test, pytest, and the
	// declared suite command. With none of them, the Go suite is planned
	// not to run, saying why, so that "no suite" is evidence too.
	var suites []*jobs.Spec
	goSuite := &jobs.Spec{Purpose: jobs.Collateral, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: ".", Package: "./...", TimeoutSec: c.Limits.SuiteTimeoutSec,
		Drop: w.HarnessDrops("")}
	if _, err := os.Stat(filepath.Join(w.tree(jobs.TreeOracle), "go.mod")); err != nil {
		goSuite.Skip = "the patched tree has no go.mod at its root: there is no Go suite to run"
	} else {
		suites = append(suites, goSuite)
		if _, _, mp, err := w.module(jobs.TreeOracle, "."); err == nil {
			goSuite.ModulePath = mp
		}
	}
	for _, mod := range w.nestedSuiteModules() {
		s := &jobs.Spec{Purpose: jobs.Collateral, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: mod, Package: "./...", TimeoutSec: c.Limits.SuiteTimeoutSec,
			Drop: w.HarnessDrops("")}
		if _, _, mp, err := w.module(jobs.TreeOracle, "./"+mod); err == nil {
			s.ModulePath = mp
		}
		suites = append(suites, s)
	}
	if py := w.pythonSuite(c); py != nil {
		suites = append(suites, py)
	}
	if cmd := commandSuite(c); cmd != nil {
		suites = append(suites, cmd)
	}
	if len(suites) == 0 {
		suites = append(suites, goSuite)
	}
	if len(c.Claims) == 0 {
		for _, pkg := range w.touchedPackages() {
			for _, side := range []string{jobs.Baseline, jobs.Patch} {
				s := w.goJob(jobs.Discovery, side, "", pkg, nil, c)
				if side == jobs.Patch {
					dir := path.Clean(strings.TrimPrefix(pkg, "./"))
					s.Added, s.Drop = w.addedTests(dir), w.HarnessDrops(dir)
				}
				out = append(out, s)
			}
		}
	}
	for _, claim := range c.Claims {
		out = append(out, w.planAny(claim, c)...)
	}
	// Every suite runs on the baseline too, always: a test that passes on
	// the baseline needs its own pass on the patch, whatever the patch's
	// suite says of itself. The baseline's result is cached per tree.
	for _, s := range suites {
		out = append(out, s, w.baselineSuite(s))
	}
	out = append(out, w.writtenJobs(c)...)
	out = append(out, sealJobs(c)...)
	// Measurements last: once the claims, the suites and the seal checks
	// make the verdict BLOCK, they need not run (criteria.FullEvidence).
	if jobs.MeasureCoverage(c) {
		out = append(out, w.coverageJobs(c)...)
		out = append(out, w.pythonCoverageJob(c)...)
	}
	// The module dependencies of every Go module a job builds come first:
	// the sandbox has no network.
	return append(modulesJobs(out, c), out...)
}

// modulesJobs plans one modules job per tree and Go module the Go jobs of
// specs build in.
func modulesJobs(specs []*jobs.Spec, c *criteria.Criteria) []*jobs.Spec {
	seen := map[string]bool{}
	var out []*jobs.Spec
	for _, s := range specs {
		// A written job's tree has the oracle's go.mod and go.sum (the
		// oracle puts back test files, never harness): the oracle's
		// modules job fills the cache for both, and one of its own would
		// share its id.
		if s.Runner != jobs.RunnerGo || s.Skip != "" || s.Purpose == jobs.Modules || s.Tree == jobs.TreePatch {
			continue
		}
		key := s.Tree + "\x00" + s.Module
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, &jobs.Spec{Purpose: jobs.Modules, Side: s.Side, Tree: s.Tree, Module: s.Module, TimeoutSec: c.Limits.SuiteTimeoutSec})
	}
	slices.SortFunc(out, func(a, b *jobs.Spec) int { return strings.Compare(a.ID(), b.ID()) })
	return out
}

// writtenJobs plans the written jobs: the patch's tree run as it is, its
// own test files included, wherever what the merge lands differs from what
// the oracle ran, and go test's vet where the patch changes Go code.
//
//   - Go: when the oracle put back any baseline file but a Python one (a
//     test file, test data, a golden file), the root module and the
//     module holding each such file run whole: a test file is data too
//     (a test that gofmt-checks the tree reads every file), and test data
//     is read by path, from any package of any module (a root test
//     reading a nested module's testdata).
//   - Vet: go test vets each package before it builds its tests, and a
//     finding fails the package. The gate's builds leave vet off, so the
//     packages holding Go files the patch changes are vetted on the
//     patch's tree and on the baseline's; a module with such packages and
//     nothing to run gets a job that only vets.
//   - pytest: any Python test file or test data put back runs the whole
//     pytest suite, when the patch's tree has one: any test module may
//     import any other, or a helper under tests/.
func (w *Workspace) writtenJobs(c *criteria.Criteria) []*jobs.Spec {
	run := map[string]bool{}
	_, err := os.Stat(filepath.Join(w.tree(jobs.TreePatch), "go.mod"))
	root := err == nil
	python := false
	for _, f := range w.co.OracleRestored {
		if !strings.HasSuffix(f, ".py") {
			if root {
				run["."] = true
			}
			if mod, _, _, err := w.module(jobs.TreePatch, "./"+path.Dir(f)); err == nil {
				run[mod] = true
			}
		}
		python = python || !strings.HasSuffix(f, ".go")
	}
	vet := map[string][]string{}
	mods := maps.Clone(run)
	for _, ch := range w.co.Changes {
		if ch.Kind == checkout.Deleted || !strings.HasSuffix(ch.Path, ".go") || strings.Contains("/"+ch.Path, "/testdata/") {
			continue
		}
		if mod, rel, _, err := w.module(jobs.TreePatch, "./"+path.Dir(ch.Path)); err == nil && !slices.Contains(vet[mod], rel) {
			vet[mod] = append(vet[mod], rel)
			mods[mod] = true
		}
	}
	var out []*jobs.Spec
	for _, mod := range slices.Sorted(maps.Keys(mods)) {
		s := &jobs.Spec{Purpose: jobs.Written, Side: jobs.Patch, Tree: jobs.TreePatch, Module: mod, Package: "./...", TimeoutSec: c.Limits.SuiteTimeoutSec,
			Vet: slices.Sorted(slices.Values(vet[mod])), VetOnly: !run[mod]}
		if _, _, mp, err := w.module(jobs.TreePatch, "./"+mod); err == nil {
			s.ModulePath = mp
		}
		out = append(out, s)
	}
	if python && w.hasPythonTests(jobs.TreePatch) {
		s := pytestJob(jobs.Written, jobs.Patch, "", nil, c)
		s.Tree, s.TimeoutSec = jobs.TreePatch, c.Limits.SuiteTimeoutSec
		out = append(out, s)
	}
	return out
}

// baselineSuite is the baseline run of a patch-side suite job.
func (w *Workspace) baselineSuite(s *jobs.Spec) *jobs.Spec {
	b := *s
	b.Side, b.Tree, b.Skip = jobs.Baseline, jobs.TreeBaseline, ""
	b.Drop, b.Restore, b.Splice, b.Transplant = nil, nil, nil, nil
	switch b.Runner {
	case jobs.RunnerGo:
		if _, err := os.Stat(filepath.Join(w.tree(jobs.TreeBaseline), filepath.FromSlash(b.Module), "go.mod")); err != nil && b.Module != "." && b.Module != "" {
			b.Skip = "the baseline tree has no module " + b.Module
		} else if err != nil {
			b.Skip = "the baseline tree has no go.mod at its root"
		}
	case jobs.RunnerPytest:
		if !w.hasPythonTests(jobs.TreeBaseline) {
			b.Skip = "the baseline tree has no Python test file"
		}
	}
	if s.Skip != "" && b.Skip == "" {
		b.Skip = s.Skip
	}
	return &b
}

// planAny plans a claim of any kind on both sides.
func (w *Workspace) planAny(claim string, c *criteria.Criteria) []*jobs.Spec {
	var specs []*jobs.Spec
	switch {
	case strings.HasPrefix(claim, "pytest:"):
		specs = w.planPytest(claim, c)
	case strings.HasPrefix(claim, "cmd:"):
		return planCommand(claim, c)
	default:
		specs = w.planClaim(claim, c)
	}
	return append(specs, w.counterfactual(claim, specs)...)
}

// PlanDue returns the specs of the follow-up jobs named by due
// (jobs.Due), which the earlier plans and results make due.
func (w *Workspace) PlanDue(c *criteria.Criteria, due []string, planned map[string]*jobs.Spec, done map[string]*jobs.Done, reached []string) []*jobs.Spec {
	want := map[string]bool{}
	for _, id := range due {
		want[id] = true
	}
	var out []*jobs.Spec
	add := func(s *jobs.Spec) {
		if want[s.ID()] {
			out = append(out, s)
			delete(want, s.ID())
		}
	}
	for _, d := range done {
		switch d.Spec.Purpose {
		case jobs.Collateral:
			if d.Spec.Side == jobs.Patch {
				add(w.baselineSuite(d.Spec))
			}
		case jobs.Prereq:
			if d.Spec.Then != nil {
				add(d.Spec.Then)
			}
		}
	}
	// A discovered claim gets every job a sealed one gets — the
	// prerequisite, the edited test's runs, the counterfactual — planned
	// with its claim jobs, in one plan: the claim-based rules judge it as
	// they judge a sealed claim.
	for _, claim := range jobs.Discovered(planned, done, reached) {
		specs := w.planAny(claim, c)
		if !slices.ContainsFunc(specs, func(s *jobs.Spec) bool { return want[s.ID()] }) {
			continue
		}
		for _, s := range specs {
			if _, ok := planned[s.ID()]; !ok && !slices.ContainsFunc(out, func(o *jobs.Spec) bool { return o.ID() == s.ID() }) {
				out = append(out, s)
				delete(want, s.ID())
			}
		}
	}
	slices.SortFunc(out, func(a, b *jobs.Spec) int { return strings.Compare(a.ID(), b.ID()) })
	return out
}

// coverageJobs plans one coverage job per test package: the packages of
// the changed source files and of the claims, instrumenting the changed
// source packages of their module.
func (w *Workspace) coverageJobs(c *criteria.Criteria) []*jobs.Spec {
	type mod struct {
		cover []string
		tests map[string]bool
	}
	mods := map[string]*mod{}
	modOf := func(dir string) (*mod, string, string, bool) {
		m, rel, ip, err := w.module(jobs.TreeOracle, "./"+dir)
		if err != nil {
			return nil, "", "", false
		}
		if mods[m] == nil {
			mods[m] = &mod{tests: map[string]bool{}}
		}
		return mods[m], rel, ip, true
	}
	for _, ch := range w.co.Changes {
		if ch.Class != checkout.ClassSource || ch.Kind == checkout.Deleted || !strings.HasSuffix(ch.Path, ".go") {
			continue
		}
		if m, rel, ip, ok := modOf(path.Dir(ch.Path)); ok {
			m.cover = append(m.cover, ip)
			m.tests[rel] = true
		}
	}
	// A package that embeds a changed data file (//go:embed) is measured
	// too: its data mutants run against every test of the package.
	for _, dir := range w.embeddingChangedData() {
		if m, rel, ip, ok := modOf(dir); ok {
			m.cover = append(m.cover, ip)
			m.tests[rel] = true
		}
	}
	for _, claim := range c.Claims {
		pkg, _, err := jobs.ParseClaim(claim)
		if err != nil {
			continue
		}
		if m, rel, _, ok := modOf(path.Clean(strings.TrimPrefix(pkg, "./"))); ok && len(m.cover) > 0 {
			m.tests[rel] = true
		}
	}
	if len(c.Claims) == 0 {
		// Discovery may propose any test of the packages the patch
		// touches: their tests are measured as a claim's package is.
		for _, pkg := range w.touchedPackages() {
			if m, rel, _, ok := modOf(path.Clean(strings.TrimPrefix(pkg, "./"))); ok && len(m.cover) > 0 {
				m.tests[rel] = true
			}
		}
	}
	var out []*jobs.Spec
	for _, name := range slices.Sorted(maps.Keys(mods)) {
		m := mods[name]
		if len(m.cover) == 0 {
			continue
		}
		slices.Sort(m.cover)
		cover := slices.Compact(m.cover)
		for _, rel := range slices.Sorted(maps.Keys(m.tests)) {
			_, _, ip, err := w.module(jobs.TreeOracle, "./"+path.Join(name, rel))
			if err != nil {
				continue
			}
			out = append(out, &jobs.Spec{Purpose: jobs.Coverage, Side: jobs.Patch, Tree: jobs.TreeOracle, Module: name,
				Package: rel, ImportPath: ip, CoverPkgs: cover, TimeoutSec: c.Limits.ClaimTimeoutSec,
				Splice: w.Spliceable(path.Join(name, rel)), Drop: w.HarnessDrops("")})
		}
	}
	return append(out, w.baselineCoverageJobs(c, out)...)
}

// embeddingChangedData lists the directories, above a changed file that is
// not Go source, whose package's non-test files hold a //go:embed
// directive: packages that may compile the changed data in.
func (w *Workspace) embeddingChangedData() []string {
	root := w.tree(jobs.TreeOracle)
	embeds := map[string]bool{}
	embedding := func(dir string) bool {
		if v, ok := embeds[dir]; ok {
			return v
		}
		embeds[dir] = false
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return false
		}
		for _, e := range entries {
			n := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), n)); err == nil && bytes.Contains(b, []byte("//go:embed")) {
				embeds[dir] = true
				return true
			}
		}
		return false
	}
	var out []string
	for _, ch := range w.co.Changes {
		if ch.Kind == checkout.Deleted || ch.Class != checkout.ClassOther && ch.Class != checkout.ClassForeign {
			continue
		}
		for dir := path.Dir(ch.Path); ; dir = path.Dir(dir) {
			if embedding(dir) {
				out = append(out, dir)
			}
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// baselineCoverageJobs plans, per package of the Go claims, one run of the
// claims' tests on the baseline with the packages of the changed files
// (those the baseline has) instrumented: which lines the claims ran before
// the patch. Lines the patch keeps and no test runs any more are code it
// routes around (reach reports them as lost). Without sealed claims the
// claims are not known yet (discovery proposes them from these very
// measurements): every test the baseline declares in the packages the
// patch side measures (patchSide, the patch's coverage jobs) runs, so that
// whatever discovery proposes, its baseline lines are known.
func (w *Workspace) baselineCoverageJobs(c *criteria.Criteria, patchSide []*jobs.Spec) []*jobs.Spec {
	var cover []string
	for _, ch := range w.co.Changes {
		if ch.Class != checkout.ClassSource || ch.Kind != checkout.Modified || !strings.HasSuffix(ch.Path, ".go") {
			continue
		}
		if _, _, ip, err := w.module(jobs.TreeBaseline, "./"+path.Dir(ch.Path)); err == nil {
			cover = append(cover, ip)
		}
	}
	if len(cover) == 0 {
		return nil
	}
	slices.Sort(cover)
	cover = slices.Compact(cover)
	tests := map[string][]string{}
	for _, claim := range c.Claims {
		pkg, test, err := jobs.ParseClaim(claim)
		if err != nil {
			continue
		}
		top, _, _ := strings.Cut(test, "/")
		dir := path.Clean(strings.TrimPrefix(pkg, "./"))
		if w.declares(jobs.TreeBaseline, dir, top) == "" {
			continue // a new test: it ran nothing on the baseline
		}
		tests[pkg] = append(tests[pkg], top)
	}
	if len(c.Claims) == 0 {
		for _, s := range patchSide {
			if s.Side != jobs.Patch || s.Runner != jobs.RunnerGo {
				continue
			}
			pkg := "./" + path.Join(s.Module, s.Package)
			if pkg == "./." {
				pkg = "."
			}
			tests[pkg] = append(tests[pkg], w.testsIn(jobs.TreeBaseline, path.Clean(strings.TrimPrefix(pkg, "./")))...)
		}
	}
	var out []*jobs.Spec
	for _, pkg := range slices.Sorted(maps.Keys(tests)) {
		mod, rel, ip, err := w.module(jobs.TreeBaseline, pkg)
		if err != nil {
			continue
		}
		ts := slices.Sorted(slices.Values(tests[pkg]))
		if len(ts) == 0 {
			continue
		}
		out = append(out, &jobs.Spec{Purpose: jobs.Coverage, Side: jobs.Baseline, Tree: jobs.TreeBaseline, Module: mod,
			Package: rel, ImportPath: ip, CoverPkgs: cover, Tests: slices.Compact(ts), TimeoutSec: c.Limits.ClaimTimeoutSec})
	}
	return out
}

// edits reports whether the patch edits the baseline test name of the
// Go test file.
func (w *Workspace) edits(file, name string) bool {
	edited, _, _ := w.editedTests(file)
	return slices.Contains(edited, name)
}

// editedTests lists the tests of the baseline version of the Go test file
// that the patch edits (splice.Edited: their text, or a declaration of
// the file they use), with the file's two versions; none when a version
// cannot be read or parsed.
func (w *Workspace) editedTests(file string) (edited []string, base, patched []byte) {
	base, patched, ok := w.versions(file)
	if !ok {
		return nil, nil, nil
	}
	names, err := splice.Edited(base, patched)
	if err != nil {
		return nil, nil, nil
	}
	tests, _ := checkout.TestFuncs(base)
	for _, n := range names {
		if slices.Contains(tests, n) {
			edited = append(edited, n)
		}
	}
	return edited, base, patched
}

// addedTests lists the tests the patch adds to the Go test files of dir
// (to existing files, or in new files) or edits there, sorted: what
// discovery proposes first.
func (w *Workspace) addedTests(dir string) []string {
	var out []string
	for _, d := range w.co.Deferred {
		if strings.HasSuffix(d.File, ".go") && path.Dir(d.File) == dir {
			out = append(out, d.Test)
		}
	}
	for _, f := range w.addedTestFiles(dir) {
		if src, err := os.ReadFile(filepath.Join(w.tree("patch"), filepath.FromSlash(f))); err == nil {
			if names, err := checkout.TestFuncs(src); err == nil {
				out = append(out, names...)
			}
		}
	}
	for _, ch := range w.co.Changes {
		if ch.Kind == checkout.Modified && path.Dir(ch.Path) == dir && strings.HasSuffix(ch.Path, "_test.go") {
			edited, _, _ := w.editedTests(ch.Path)
			out = append(out, edited...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Spliceable lists the Go test files of dir (a directory of the
// repository; "" for every directory) to which the patch adds tests that
// count toward reach and kills: the new tests run beside the baseline's
// versions of the file's other tests. A file whose additions control the
// harness (TestMain, init, code run at package initialization) or that
// does not parse is not one.
//
// A file in which the patch edits tests of the baseline (their text, or
// a table or helper they use) is one too, as "file#+TestA,TestB": the
// patch's versions of those tests run beside the baseline's, renamed
// (splice.GoBeside), so that the cases the patch adds count toward reach
// and kills as a new test does.
func (w *Workspace) Spliceable(dir string) []string {
	w.spliceOnce.Do(func() { w.spliceAll = w.spliceable() })
	var out []string
	for _, e := range w.spliceAll {
		if f, _, _ := strings.Cut(e, "#"); dir == "" || path.Dir(f) == path.Clean(dir) {
			out = append(out, e)
		}
	}
	return out
}

// spliceable is Spliceable of every directory: the trees never change, and
// mutant jobs ask for it each.
func (w *Workspace) spliceable() []string {
	files := map[string]bool{}
	usable := func(f string) bool {
		return strings.HasSuffix(f, ".go") && !slices.Contains(w.co.TestHarness, f) && !slices.Contains(w.co.Unparsable, f)
	}
	for _, d := range w.co.Deferred {
		if usable(d.File) {
			files[d.File] = true
		}
	}
	beside := map[string][]string{}
	for _, ch := range w.co.Changes {
		if ch.Kind != checkout.Modified || !strings.HasSuffix(ch.Path, "_test.go") || !usable(ch.Path) {
			continue
		}
		names, base, patched := w.editedTests(ch.Path)
		// Laid only when the file splices: otherwise the file's new
		// tests alone, as before (whose failure the job reports).
		if _, _, err := splice.GoBeside(base, patched, names); len(names) == 0 || err != nil {
			continue
		}
		// Nor when the file's TestMain uses what the patch changes: it
		// derives state from the baseline's tables (doublestar v4.10.4
		// sizes arrays by the baseline's rows), which the patch's
		// versions would overrun, and one crashing test leaves the
		// coverage run without a profile.
		if all, err := splice.Edited(base, patched); err != nil || slices.Contains(all, "TestMain") {
			continue
		}
		files[ch.Path] = true
		beside[ch.Path] = names
	}
	register := map[string]string{}
	for _, e := range w.checkSplices("") {
		f, types, _ := strings.Cut(e, "#")
		files[f], register[f] = true, types
	}
	// testify suites whose methods the patch edits, with methods in
	// another file than the test running them (testifyWraps): every file
	// holding their methods lays them on the wrappers, and the running
	// test's file lays the patch's version of it beside the baseline's.
	wrap := map[string]string{}
	dirs := map[string]bool{}
	for _, ch := range w.co.Changes {
		if ch.Kind == checkout.Modified && strings.HasSuffix(ch.Path, "_test.go") {
			dirs[path.Dir(ch.Path)] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		tw := w.testifyWraps(dir)
		if len(tw.types) == 0 {
			continue
		}
		laid := map[string][]string{}
		for _, typ := range tw.types {
			f, test := tw.runner[typ][0], tw.runner[typ][1]
			if !slices.Contains(beside[f], test) && !slices.Contains(laid[f], test) {
				laid[f] = append(laid[f], test)
			}
		}
		// Laid only when every file lays: a coverage or mutant run whose
		// files do not build measures nothing.
		lays := true
		for _, f := range tw.files() {
			l := splice.Laying{Beside: slices.Sorted(slices.Values(slices.Concat(beside[f], laid[f]))), Wrap: tw.types}
			if r := register[f]; r != "" {
				l.Register = strings.Split(strings.TrimPrefix(r, "*"), ",")
			}
			lays = lays && w.lays(f, l)
		}
		if !lays {
			continue
		}
		for _, f := range tw.files() {
			files[f], wrap[f] = true, "~"+strings.Join(tw.types, ",")
			beside[f] = slices.Sorted(slices.Values(slices.Concat(beside[f], laid[f])))
		}
	}
	var out []string
	for _, f := range slices.Sorted(maps.Keys(files)) {
		entry := f
		if r := register[f] + wrap[f]; r != "" {
			entry += "#" + r
		}
		if names := beside[f]; len(names) > 0 {
			if register[f]+wrap[f] == "" {
				entry += "#"
			}
			entry += "+" + strings.Join(names, ",")
		}
		out = append(out, entry)
	}
	return out
}

// lays reports whether the Go test file lays over its baseline version as
// l says (splice.GoLaying).
func (w *Workspace) lays(file string, l splice.Laying) bool {
	base, patched, ok := w.versions(file)
	if !ok {
		return false
	}
	_, _, err := splice.GoLaying(base, patched, l)
	return err == nil
}

// versions reads the baseline's and the patch's versions of a file; ok is
// false when either cannot be read.
func (w *Workspace) versions(file string) (base, patched []byte, ok bool) {
	base, err1 := os.ReadFile(filepath.Join(w.tree(jobs.TreeBaseline), filepath.FromSlash(file)))
	patched, err2 := os.ReadFile(filepath.Join(w.tree("patch"), filepath.FromSlash(file)))
	return base, patched, err1 == nil && err2 == nil
}

// baselineTestFiles reads the baseline's Go test files of dir, by their
// path in the repository; a file that cannot be read is left out.
func (w *Workspace) baselineTestFiles(dir string) map[string][]byte {
	root := filepath.Join(w.tree(jobs.TreeBaseline), filepath.FromSlash(dir))
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		if src, err := os.ReadFile(filepath.Join(root, e.Name())); err == nil {
			out[path.Join(dir, e.Name())] = src
		}
	}
	return out
}

// testifyWrap is what testifyWraps finds in one directory.
type testifyWrap struct {
	// types are the testify suite types, sorted.
	types []string
	// laid maps each test file laid to the types whose methods it holds
	// in either version, or whose test it holds (every such method is
	// laid on the wrapper).
	laid map[string][]string
	// runner is each type's one test: its file and name.
	runner map[string][2]string
}

// testifyWraps finds the testify suites of the Go test files of dir whose
// methods the patch edits and that hold methods in another file than the
// one holding the test that runs them: the package's only test that runs
// the suite, made with its zero value (inspect.GoZeroSuiteRunners). Every
// file holding their methods lays them on wrappers (splice.Laying.Wrap),
// so that a method the patch leaves as it was calls the patch's versions
// of the others, and their test, which the patch need not change, is
// edited. A suite whose methods all live beside its test is that file's
// own matter (splice.Edited); one whose type the patch changes, or whose
// methods a file holds that the patch adds or deletes, that controls the
// harness or does not parse, is not wrapped.
func (w *Workspace) testifyWraps(dir string) testifyWrap {
	tw := testifyWrap{laid: map[string][]string{}, runner: map[string][2]string{}}
	srcs := w.baselineTestFiles(dir)
	runners := map[string][2]string{}
	for typ, rs := range inspect.GoZeroSuiteRunners(srcs) {
		if len(rs) == 1 {
			f, test, _ := strings.Cut(rs[0], "#")
			runners[typ] = [2]string{f, test}
		}
	}
	if len(runners) == 0 {
		return tw
	}
	// The test files holding methods of each suite type, in either
	// version: a method another file leaves unchanged still calls the
	// suite's other methods by static dispatch, so every file holding
	// some is laid with its methods on the wrapper, which then has the
	// patch's version of every method.
	holders := map[string]map[string]bool{}
	note := func(f string, src []byte) {
		for _, typ := range splice.Receivers(src) {
			if _, ok := runners[typ]; ok {
				if holders[typ] == nil {
					holders[typ] = map[string]bool{}
				}
				holders[typ][f] = true
			}
		}
	}
	for f, src := range srcs {
		note(f, src)
	}
	edited, unlayable := map[string]bool{}, map[string]bool{}
	for _, ch := range w.co.Changes {
		if path.Dir(ch.Path) != path.Clean(dir) || !strings.HasSuffix(ch.Path, "_test.go") {
			continue
		}
		var patched []byte
		if ch.Kind != checkout.Deleted {
			var err error
			if patched, err = os.ReadFile(filepath.Join(w.tree("patch"), filepath.FromSlash(ch.Path))); err != nil {
				continue
			}
			note(ch.Path, patched)
		}
		for typ := range runners {
			switch {
			case !holders[typ][ch.Path]:
			case ch.Kind != checkout.Modified, slices.Contains(w.co.TestHarness, ch.Path), slices.Contains(w.co.Unparsable, ch.Path):
				// A file the patch adds or deletes, or one that does not
				// splice, holds methods of it: it cannot be laid whole.
				unlayable[typ] = true
			case splice.TypeChanged(srcs[ch.Path], patched, typ):
				// The patch changes the suite's type (a field added): a
				// wrapper of the baseline's type would not have it.
				unlayable[typ] = true
			case splice.SuiteEdited(srcs[ch.Path], patched, typ):
				edited[typ] = true
			}
		}
	}
	for typ := range edited {
		if unlayable[typ] {
			continue
		}
		files := slices.Collect(maps.Keys(holders[typ]))
		if !slices.Contains(files, runners[typ][0]) {
			files = append(files, runners[typ][0])
		}
		if len(files) == 1 {
			// The suite lives in its test's file alone: that file's own
			// matter (splice.Edited).
			continue
		}
		tw.types = append(tw.types, typ)
		tw.runner[typ] = runners[typ]
		for _, f := range files {
			tw.laid[f] = append(tw.laid[f], typ)
		}
	}
	slices.Sort(tw.types)
	for f := range tw.laid {
		slices.Sort(tw.laid[f])
	}
	return tw
}

// files lists the files the wrapped suites' methods are laid over, their
// tests' files among them, sorted.
func (tw testifyWrap) files() []string {
	return slices.Sorted(maps.Keys(tw.laid))
}

// entries lists the splice entries of an edited-test job of test, when it
// is the test of one or more of the wrapped suites: each other file
// holding their methods, and test's own file, which replaces it with its
// version running the wrappers; none otherwise.
func (tw testifyWrap) entries(test string) []string {
	var types []string
	file := ""
	for _, typ := range tw.types {
		if tw.runner[typ][1] == test {
			types, file = append(types, typ), tw.runner[typ][0]
		}
	}
	if len(types) == 0 {
		return nil
	}
	wrap := "#~" + strings.Join(types, ",")
	var out []string
	for f, held := range tw.laid {
		if f != file && slices.ContainsFunc(held, func(t string) bool { return slices.Contains(types, t) }) {
			out = append(out, f+wrap)
		}
	}
	out = append(out, file+wrap+":"+test)
	slices.Sort(out)
	return out
}

// gocheck reads the baseline's Go test files of dir as gocheck runs them
// (inspect.GoCheckSuites): the test functions that run its suites, and
// the suite types the package registers with their zero value only (a
// wrapper registered beside one starts from its zero value too).
func (w *Workspace) gocheck(dir string) (runners, suites []string) {
	files := w.baselineTestFiles(dir)
	var srcs [][]byte
	for _, f := range slices.Sorted(maps.Keys(files)) {
		srcs = append(srcs, files[f])
	}
	runners, _, suites = inspect.GoCheckSuites(srcs)
	return runners, suites
}

// checkSplices lists, as splice entries "file#*S,T", the Go test files of
// dir ("" for every directory) that the patch changes where it adds or
// edits methods of gocheck suites S, T its package registers
// (splice.CheckChanged), sorted. A file whose changes control the
// harness, or that does not parse, is not one.
func (w *Workspace) checkSplices(dir string) []string {
	var out []string
	suitesOf := map[string][]string{}
	for _, ch := range w.co.Changes {
		d := path.Dir(ch.Path)
		if ch.Kind != checkout.Modified || !strings.HasSuffix(ch.Path, "_test.go") || (dir != "" && d != path.Clean(dir)) ||
			slices.Contains(w.co.TestHarness, ch.Path) || slices.Contains(w.co.Unparsable, ch.Path) {
			continue
		}
		suites, ok := suitesOf[d]
		if !ok {
			_, suites = w.gocheck(d)
			suitesOf[d] = suites
		}
		if len(suites) == 0 {
			continue
		}
		base, patched, ok := w.versions(ch.Path)
		if !ok {
			continue
		}
		if changed := splice.CheckChanged(base, patched, suites); len(changed) > 0 {
			out = append(out, ch.Path+"#*"+strings.Join(changed, ","))
		}
	}
	slices.Sort(out)
	return out
}

// touchedPackages lists the directories holding Go files the patch adds,
// changes or deletes, as "./dir" package paths, sorted.
func (w *Workspace) touchedPackages() []string {
	var pkgs []string
	for _, ch := range w.co.Changes {
		if !strings.HasSuffix(ch.Path, ".go") || strings.Contains("/"+ch.Path, "/testdata/") {
			continue
		}
		dir := path.Dir(ch.Path)
		if dir == "." {
			pkgs = append(pkgs, ".")
		} else {
			pkgs = append(pkgs, "./"+dir)
		}
	}
	slices.Sort(pkgs)
	return slices.Compact(pkgs)
}

func (w *Workspace) goJob(purpose, side, claim, pkg string, tests []string, c *criteria.Criteria) *jobs.Spec {
	tree := treeOf(side)
	s := &jobs.Spec{Purpose: purpose, Side: side, Claim: claim, Tree: tree, Tests: tests, TimeoutSec: c.Limits.ClaimTimeoutSec}
	if purpose == jobs.Claim || purpose == jobs.Prereq || purpose == jobs.Edited {
		s.Reruns = c.Limits.StabilityReruns
	}
	if purpose == jobs.Discovery {
		s.TimeoutSec = c.Limits.SuiteTimeoutSec
	}
	mod, rel, importPath, err := w.module(tree, pkg)
	if err != nil {
		s.Module, s.Package = ".", pkg
		s.Skip = err.Error()
		return s
	}
	s.Module, s.Package, s.ImportPath = mod, rel, importPath
	return s
}

// planClaim plans one claim on both sides.
func (w *Workspace) planClaim(claim string, c *criteria.Criteria) []*jobs.Spec {
	pkg, test, err := jobs.ParseClaim(claim)
	if err != nil {
		return skipBoth(claim, err.Error())
	}
	dir := path.Clean(strings.TrimPrefix(pkg, "./"))
	// A patch that changes the harness (go.mod, go.sum, vendor) still has
	// its claims run, each side with its own harness: the adjudicator
	// never lets such a run MERGE (the drift is a gap of its own), but a
	// claim that fails under the harness the patch chose is the patch's
	// failure, and its BLOCK, as a suite regression already was. Left
	// unrun, a fix reverted beside a dependency bump came out INCONCLUSIVE.
	top, _, _ := strings.Cut(test, "/")
	base := w.goJob(jobs.Claim, jobs.Baseline, claim, pkg, []string{test}, c)
	patch := w.goJob(jobs.Claim, jobs.Patch, claim, pkg, []string{test}, c)
	if base.Skip != "" || patch.Skip != "" {
		return skipBoth(claim, cmp.Or(patch.Skip, base.Skip))
	}
	// Test files the patch adds that control the harness (TestMain, init,
	// code run at package initialization) are compiled by no judged run:
	// the claim is judged by the baseline's test files and the harmless
	// ones the patch adds.
	drops := w.HarnessDrops(dir)
	patch.Drop = drops
	if f := w.declares(jobs.TreeOracle, dir, top); f != "" && slices.Contains(w.co.TestHarness, f) {
		return skipBoth(claim, fmt.Sprintf("%s, which declares %s, controls the test harness of %s (TestMain, init or code run at package initialization): its tests cannot be judged", f, top, pkg))
	}
	for _, d := range w.co.Deferred {
		// A suite's method the patch adds is deferred by its subtest's
		// name ("TestS/TestM"), a new function by its own.
		if (d.Test != top && d.Test != test) || path.Dir(d.File) != dir || !strings.HasSuffix(d.File, ".go") {
			continue
		}
		if slices.Contains(w.co.TestHarness, d.File) {
			return skipBoth(claim, fmt.Sprintf("the patch adds harness to %s, which declares %s (TestMain, init or code run at package initialization): its tests cannot be judged", d.File, top))
		}
		// A test the patch added to a baseline test file: the file's
		// baseline tests must pass on the patched code first; then the
		// test runs beside the baseline's versions of the file's other
		// tests (the file's baseline version with what the patch adds to
		// it), on the patched code and on the baseline code, where it
		// proves the fix by failing.
		patch.Splice = []string{d.File}
		base.Splice = []string{d.File}
		// The file's baseline tests the patch edits (or whose helpers it
		// edits) are judged by the suite, where a failure is a change of
		// what they pin for a human to judge; they cannot hold the new
		// test back.
		var prior []string
		for _, t := range d.BaselineTests {
			if !slices.Contains(w.co.EditedTests, base.ImportPath+"."+t) {
				prior = append(prior, t)
			}
		}
		pre := w.goJob(jobs.Prereq, jobs.Patch, claim, pkg, prior, c)
		pre.Drop = drops
		pre.Then = patch
		if len(prior) == 0 {
			return []*jobs.Spec{base, patch}
		}
		return []*jobs.Spec{base, pre}
	}
	patchFile := w.declares(jobs.TreeOracle, dir, top)
	if runners, _ := w.gocheck(dir); slices.Contains(runners, top) {
		if entries := w.checkSplices(dir); len(entries) > 0 {
			// gocheck's test function runs every suite the package
			// registers, and the patch adds or edits methods of one:
			// the claim is judged by the baseline's files, as always,
			// and by the test with the patch's versions of those
			// suites registered beside the baseline's, on both sides.
			return append([]*jobs.Spec{base, patch}, w.editedJobs(claim, pkg, test, drops, entries, c)...)
		}
	}
	if entries := w.testifyWraps(dir).entries(top); len(entries) > 0 {
		// The test runs a testify suite whose methods the patch edits and
		// that has methods in another file than the test's: its methods,
		// from every file holding them, run on a wrapper that the patch's
		// version of the test runs, on both sides.
		return append([]*jobs.Spec{base, patch}, w.editedJobs(claim, pkg, test, drops, entries, c)...)
	}
	if file := w.declares(jobs.TreeBaseline, dir, top); file != "" && w.edits(file, top) {
		// A test both versions declare and the patch edits (cases added
		// to a table): the claim is judged by the baseline's version, as
		// always, and by the patch's version of this one test, laid over
		// the baseline's file on both sides: the cases the patch adds can
		// prove the fix, as a new test can.
		return append([]*jobs.Spec{base, patch}, w.editedJobs(claim, pkg, test, drops, []string{file + "#" + top}, c)...)
	}
	if patchFile == "" {
		return skipBoth(claim, fmt.Sprintf("%s declares no func %s(t *testing.T) in its test files on the patch side (baseline test files put back)", pkg, top))
	}
	if w.declares(jobs.TreeBaseline, dir, top) == "" {
		// A new test: on the baseline it runs in the patch's new test files
		// laid over the baseline code (those that do not control the
		// harness).
		for _, f := range w.addedTestFiles(dir) {
			if !slices.Contains(w.co.TestHarness, f) {
				base.Transplant = append(base.Transplant, f)
			}
		}
	}
	return []*jobs.Spec{base, patch}
}

// editedJobs plans a claim's edited-test jobs: the test run on both sides
// with the Go test files of splice laid over the baseline's tree (the
// baseline side) and over the oracle without the harness files drops (the
// patch side).
func (w *Workspace) editedJobs(claim, pkg, test string, drops, splice []string, c *criteria.Criteria) []*jobs.Spec {
	var out []*jobs.Spec
	for _, side := range []string{jobs.Baseline, jobs.Patch} {
		e := w.goJob(jobs.Edited, side, claim, pkg, []string{test}, c)
		e.Tree = jobs.TreeBaseline
		if side == jobs.Patch {
			e.Tree, e.Drop = jobs.TreeOracle, drops
		}
		e.Splice = splice
		out = append(out, e)
	}
	return out
}

// HarnessDrops lists the test files the patch adds in dir (a directory of
// the repository; "" for every directory) that control the harness of
// their package: no judged run compiles them. Changed baseline test files
// need no dropping: the oracle puts their baseline versions back.
func (w *Workspace) HarnessDrops(dir string) []string {
	var out []string
	for _, f := range w.co.TestHarness {
		if !strings.HasSuffix(f, ".go") || dir != "" && path.Dir(f) != path.Clean(dir) {
			continue
		}
		if _, ok := w.co.Baseline.Lookup(f); ok {
			continue
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// counterfactual plans, when the patch changes test support outside the
// test files (helpers only tests use, in packages of their own or beside
// the code under test, golden files, fixtures), one re-run of the claim's
// patch-side job with all of it put back to the baseline's
// (checkout.Checkout.CounterfactualRestore): a claim whose outcome changes
// depends on what the patch changed of its own judge. The baseline side
// already runs with the baseline's versions.
func (w *Workspace) counterfactual(claim string, specs []*jobs.Spec) []*jobs.Spec {
	restore := w.co.CounterfactualRestore()
	if len(restore) == 0 {
		return nil
	}
	for _, s := range specs {
		p := s
		if s.Purpose == jobs.Prereq && s.Then != nil {
			p = s.Then
		}
		if p.Purpose != jobs.Claim || p.Side != jobs.Patch || p.Skip != "" {
			continue
		}
		cf := *p
		cf.Purpose, cf.Then = jobs.Counterfactual, nil
		cf.Restore = restore
		return []*jobs.Spec{&cf}
	}
	return nil
}

// treeOf is the tree a side's jobs start from: the baseline's, or the
// patch's with the baseline test files put back.
func treeOf(side string) string {
	if side == jobs.Baseline {
		return jobs.TreeBaseline
	}
	return jobs.TreeOracle
}

func skipBoth(claim, why string) []*jobs.Spec {
	var out []*jobs.Spec
	for _, side := range []string{jobs.Baseline, jobs.Patch} {
		out = append(out, &jobs.Spec{Purpose: jobs.Claim, Side: side, Claim: claim, Tree: treeOf(side), Module: ".", Skip: why})
	}
	return out
}

// testsIn lists the tests the Go test files of dir in tree declare.
func (w *Workspace) testsIn(tree, dir string) []string {
	root := w.tree(tree)
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), e.Name()))
		if err != nil {
			continue
		}
		if names, err := checkout.TestFuncs(src); err == nil {
			out = append(out, names...)
		}
	}
	return out
}

// declares returns the test file of dir in tree that declares test, or "".
func (w *Workspace) declares(tree, dir, test string) string {
	root := w.tree(tree)
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), e.Name()))
		if err != nil {
			continue
		}
		names, err := checkout.TestFuncs(src)
		if err != nil {
			continue
		}
		if slices.Contains(names, test) {
			return path.Join(dir, e.Name())
		}
	}
	return ""
}

// addedTestFiles lists the test files of dir that the patch added.
func (w *Workspace) addedTestFiles(dir string) []string {
	var out []string
	for _, ch := range w.co.Changes {
		if ch.Kind == checkout.Added && path.Dir(ch.Path) == dir && strings.HasSuffix(ch.Path, "_test.go") {
			out = append(out, ch.Path)
		}
	}
	slices.Sort(out)
	return out
}

// module finds the Go module holding pkg in tree: its directory relative
// to the repository, pkg relative to it, and pkg's import path.
func (w *Workspace) module(tree, pkg string) (mod, rel, importPath string, err error) {
	root := w.tree(tree)
	dir := path.Clean(strings.TrimPrefix(pkg, "./"))
	for d := dir; ; d = path.Dir(d) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d), "go.mod"))
		if err == nil {
			mp, err := jobs.ModulePath(b)
			if err != nil {
				return "", "", "", fmt.Errorf("%s/go.mod: %v", d, err)
			}
			sub := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				sub = dir
			}
			rel, importPath = "./"+sub, mp+"/"+sub
			if sub == "." || sub == "" {
				rel, importPath = ".", mp
			}
			return d, rel, importPath, nil
		}
		if d == "." || d == "/" {
			break
		}
	}
	return "", "", "", fmt.Errorf("no go.mod holds package %s", pkg)
}

package checkout

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// FindingsOf returns the findings of one rule (an inspect.Rule constant),
// in Findings' order.
func (c *Checkout) FindingsOf(rule string) []inspect.Finding {
	var out []inspect.Finding
	for _, f := range c.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// readSources reads the files of t for which want is true, leaving out
// symlinks (a link is not source).
func readSources(ctx context.Context, t *tree.Tree, want func(string) bool) (map[string][]byte, error) {
	return t.ReadFiles(ctx, sourcePaths(t, want))
}

// sourcePaths lists the files of t for which want is true, symlinks left
// out.
func sourcePaths(t *tree.Tree, want func(string) bool) []string {
	var paths []string
	for _, e := range t.Entries() {
		if e.Mode != tree.ModeSymlink && want(e.Path) {
			paths = append(paths, e.Path)
		}
	}
	return paths
}

// maxWarmed is the most source files warmSources reads ahead per tree:
// about what the trees' blob caches hold, so that a huge repository's
// files are not read twice.
const maxWarmed = 1500

// warmSources reads the Go and Python sources of the baseline and the
// patch tree ahead of the analyses, one git process per tree. The
// analyses read these files over and over, a few at a time, and the
// support and inspect analyses read all of them: with the trees'
// blob caches warm, their reads start no process. A tree with more than
// maxWarmed sources is left cold. A read that fails here is no error of
// its own: the analysis that needs the file meets it again and says so;
// only the context's end stops the checkout.
func (c *Checkout) warmSources(ctx context.Context) error {
	for _, t := range []*tree.Tree{c.Patch, c.Baseline} {
		paths := sourcePaths(t, func(p string) bool { return isGoInput(p) || isPy(p) })
		if len(paths) > maxWarmed {
			continue
		}
		if _, err := t.ReadFiles(ctx, paths); err != nil && ctx.Err() != nil {
			return fmt.Errorf("checkout: %w", ctx.Err())
		}
	}
	return nil
}

// isGoInput reports the files the Go analyses read: Go files and go.mod.
func isGoInput(p string) bool {
	return strings.HasSuffix(p, ".go") || path.Base(p) == "go.mod"
}

// inspect runs the static analyses of the patch (package inspect) and
// fills Findings and the lists derived from them.
func (c *Checkout) inspect(ctx context.Context) error {
	patchGo, err := readSources(ctx, c.Patch, isGoInput)
	if err != nil {
		return fmt.Errorf("checkout: read the patch's Go files: %w", err)
	}
	if err := c.inspectGoHarness(ctx, patchGo); err != nil {
		return err
	}
	if err := c.inspectGoProbes(ctx, patchGo); err != nil {
		return err
	}
	if err := c.inspectGoHarnessReach(ctx, patchGo); err != nil {
		return err
	}
	c.inspectGoSupport(patchGo)
	c.inspectGoIgnoredImports(patchGo)
	if err := c.inspectGoDecls(ctx); err != nil {
		return err
	}
	if err := c.inspectPythonSupport(ctx); err != nil {
		return err
	}
	if err := c.inspectPython(ctx); err != nil {
		return err
	}
	if err := c.inspectPythonHarness(ctx); err != nil {
		return err
	}
	c.inspectData(patchGo)
	if err := c.inspectGitAttributes(ctx); err != nil {
		return err
	}
	if err := c.inspectGoTypes(ctx, patchGo); err != nil {
		return err
	}
	c.Findings = inspect.Sort(c.Findings)
	slices.Sort(c.Counterfactual)
	c.Counterfactual = slices.Compact(c.Counterfactual)
	return nil
}

// inspectGoHarness judges the Go test files of every package directory in
// which the patch adds, changes or renames a test file (inspect.GoTestHarness).
func (c *Checkout) inspectGoHarness(ctx context.Context, patchGo map[string][]byte) error {
	dirs := map[string]bool{}
	oldPath := map[string]string{} // patch path → baseline path of a rename
	for _, ch := range c.Changes {
		if ch.Kind != Deleted && isGoTestFile(ch.Path) {
			dirs[path.Dir(ch.Path)] = true
			if ch.Kind == Renamed {
				oldPath[ch.Path] = ch.OldPath
			}
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	changed := map[string]bool{}
	for _, ch := range c.Changes {
		if ch.Kind != Deleted {
			changed[ch.Path] = true
		}
	}
	inDirs := func(p string) bool { return dirs[path.Dir(p)] }
	var baseWant []string
	for _, e := range c.Baseline.Entries() {
		if e.Mode != tree.ModeSymlink && isGoTestFile(e.Path) && inDirs(e.Path) {
			baseWant = append(baseWant, e.Path)
		}
	}
	for _, old := range oldPath {
		if e, ok := c.Baseline.Lookup(old); ok && e.Mode != tree.ModeSymlink && !slices.Contains(baseWant, old) {
			baseWant = append(baseWant, old)
		}
	}
	base, err := c.Baseline.ReadFiles(ctx, baseWant)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Go test files: %w", err)
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		var tests []inspect.Version
		var srcs [][]byte
		seen := map[string]bool{}
		for _, p := range slices.Sorted(maps.Keys(patchGo)) {
			if path.Dir(p) != dir || !strings.HasSuffix(p, ".go") {
				continue
			}
			if !isGoTestFile(p) {
				srcs = append(srcs, patchGo[p])
				continue
			}
			v := inspect.Version{Path: p, Patch: patchGo[p], Changed: changed[p]}
			from := p
			if old, ok := oldPath[p]; ok {
				from = old
			}
			v.Base = base[from]
			seen[from] = true
			tests = append(tests, v)
		}
		for _, p := range slices.Sorted(maps.Keys(base)) {
			if path.Dir(p) == dir && !seen[p] {
				tests = append(tests, inspect.Version{Path: p, Base: base[p]})
			}
		}
		found := inspect.GoTestHarness(tests, srcs)
		c.Findings = append(c.Findings, found...)
		if len(found) > 0 {
			c.HarnessPackages = append(c.HarnessPackages, goPackage(dir+"/x"))
		}
		for _, f := range found {
			c.TestHarness = append(c.TestHarness, f.File)
		}
	}
	slices.Sort(c.TestHarness)
	c.TestHarness = slices.Compact(c.TestHarness)
	return nil
}

// inspectGoHarnessReach judges every Go file the patch adds or changes,
// test and non-test (inspect.GoHarnessReach), and the C of the cgo
// preambles it changes (inspect.GoCgoPreamble). A test file reaching into
// the harness is harness too: no judged run compiles it (see TestHarness).
func (c *Checkout) inspectGoHarnessReach(ctx context.Context, patchGo map[string][]byte) error {
	type pair struct {
		ch       Change
		basePath string
	}
	var pairs []pair
	var reads []string
	for _, ch := range c.Changes {
		if ch.Kind == Deleted || !strings.HasSuffix(ch.Path, ".go") || hasDir(ch.Path, "testdata") ||
			(ch.Class != ClassSource && ch.Class != ClassTest) {
			continue
		}
		if _, ok := patchGo[ch.Path]; !ok {
			continue // a symlink: classed foreign elsewhere
		}
		p := pair{ch: ch}
		from := ch.Path
		if ch.Kind == Renamed {
			from = ch.OldPath
		}
		if e, ok := c.Baseline.Lookup(from); ok && e.Mode != tree.ModeSymlink && ch.Kind != Added {
			p.basePath = from
			reads = append(reads, from)
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil
	}
	base, err := c.Baseline.ReadFiles(ctx, reads)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Go files: %w", err)
	}
	for _, p := range pairs {
		var b []byte
		if p.basePath != "" {
			b = base[p.basePath]
		}
		file := p.ch.Path
		isTest := isGoTestFile(file)
		found := inspect.GoHarnessReach(file, b, patchGo[file], isTest)
		c.Findings = append(c.Findings, found...)
		if isTest && len(found) > 0 {
			c.TestHarness = append(c.TestHarness, file)
			c.HarnessPackages = append(c.HarnessPackages, goPackage(file))
		}
		if !isTest {
			c.Findings = append(c.Findings, inspect.GoCgoPreamble(file, patchGo[file], p.ch.ChangedLines)...)
		}
	}
	slices.Sort(c.TestHarness)
	c.TestHarness = slices.Compact(c.TestHarness)
	slices.Sort(c.HarnessPackages)
	c.HarnessPackages = slices.Compact(c.HarnessPackages)
	return nil
}

// inspectGoSupport finds the changed non-test Go files that only tests use
// (inspect.GoImportGraph).
func (c *Checkout) inspectGoSupport(patchGo map[string][]byte) {
	g := inspect.GoImportGraph(patchGo)
	c.goSupport = g
	c.TestOnlyPackages = nil
	for _, d := range g.TestOnly {
		c.TestOnlyPackages = append(c.TestOnlyPackages, goPackage(d+"/x"))
	}
	var changed []string
	for _, ch := range c.Changes {
		if ch.Class == ClassSource && Language(ch.Path) == LangGo {
			changed = append(changed, ch.Path)
		}
	}
	found := g.TestSupportFindings(changed)
	c.Findings = append(c.Findings, found...)
	for _, f := range found {
		c.Counterfactual = append(c.Counterfactual, f.File)
	}
}

// inspectGoIgnoredImports finds the changed Go files of packages under
// testdata (or a directory named with a leading "." or "_") that non-test
// code imports (inspect.GoIgnoredImported): code the program runs, which
// every run of the gate has in the baseline's version, as test data.
func (c *Checkout) inspectGoIgnoredImports(patchGo map[string][]byte) {
	dirs := inspect.GoIgnoredImported(patchGo, c.goSupport.TestOnly)
	if len(dirs) == 0 {
		return
	}
	for _, ch := range c.Changes {
		by, ok := dirs[path.Dir(ch.Path)]
		if !ok || !strings.HasSuffix(ch.Path, ".go") || strings.HasSuffix(ch.Path, "_test.go") {
			continue
		}
		c.Findings = append(c.Findings, inspect.Finding{Rule: inspect.RuleForeignCode, File: ch.Path,
			What: fmt.Sprintf("a Go file of a package under a directory the go command's patterns skip, which %s imports: the program runs it, but every run of the gate has the baseline's version (test data), so the patch's is neither run, measured nor mutated", by)})
	}
}

// isData reports a changed file that is data: not source, test code nor
// harness, and materialized (unjudgeable content is judged elsewhere).
func (c *Checkout) isData(ch Change) bool {
	switch ch.Class {
	case ClassOther, ClassBinary, ClassForeign:
	default:
		return false
	}
	_, baseLeft := c.listedBase.LookupLeftOut(ch.Path)
	_, patchLeft := c.listedPatch.LookupLeftOut(ch.Path)
	return !baseLeft && !patchLeft
}

// inspectData judges the changed data files (inspect.DataFindings) by the
// patch's non-test Go sources.
//
// A changed file under testdata, or another the gate reads as the tests'
// own (under tests/), that non-test source embeds is a finding of its own
// (inspect.EmbeddedTestData): every run has the baseline's.
func (c *Checkout) inspectData(patchGo map[string][]byte) {
	var data, testdata []string
	for _, ch := range c.Changes {
		if c.isData(ch) {
			data = append(data, ch.Path)
		}
		// Test data and test code alike: a file under tests/ is the
		// tests' own for Python (isPythonTestFile), yet Go code can embed
		// the directory.
		if hasDir(ch.Path, "testdata") || ch.Class == ClassTest {
			testdata = append(testdata, ch.Path)
		}
	}
	if len(data) == 0 && len(testdata) == 0 {
		return
	}
	var refs []inspect.SourceRefs
	for _, p := range slices.Sorted(maps.Keys(patchGo)) {
		if strings.HasSuffix(p, ".go") && !c.IsTestFile(p) {
			refs = append(refs, inspect.GoRefs(p, patchGo[p]))
		}
	}
	c.Findings = append(c.Findings, inspect.EmbeddedTestData(testdata, refs)...)
	if len(data) == 0 {
		return
	}
	refs = append(refs, c.pythonRefs...)
	found, referenced := inspect.DataFindings(data, refs)
	c.Findings = append(c.Findings, found...)
	c.DataReferenced = referenced
	c.Counterfactual = append(c.Counterfactual, c.testData(data)...)
}

// isPy reports a Python source file by its name.
func isPy(p string) bool { return strings.HasSuffix(p, ".py") }

// reclassifiable reports a Python module that is test code by its path
// alone (under tests/, or named test_*.py or *_test.py) and so may be
// source by use: not a conftest.py, not matched by a test-support glob.
// A module pytest collects that non-test code imports is source all the
// same: code the package runs is measured and mutated whatever its name.
func (c *Checkout) reclassifiable(p string) bool {
	if !isPy(p) || !isPythonTestFile(p) || path.Base(p) == "conftest.py" {
		return false
	}
	for _, g := range c.testSupport {
		if globMatch(g, p) {
			return false
		}
	}
	return true
}

// pyGraphOf reads every .py file of t and builds its import graph.
func pyGraphOf(ctx context.Context, t *tree.Tree) (*pyGraph, map[string]*pyModuleInfo, error) {
	srcs, err := readSources(ctx, t, isPy)
	if err != nil {
		return nil, nil, fmt.Errorf("checkout: read Python files: %w", err)
	}
	infos := make(map[string]*pyModuleInfo, len(srcs))
	for p, src := range srcs {
		info, err := pythonModuleInfo(src)
		if err != nil {
			info = nil // unread: see newPyGraph
		}
		infos[p] = info
	}
	return newPyGraph(infos), infos, nil
}

// inspectPythonSupport classes Python modules by use in the patch tree:
// modules under tests/ that non-test code imports are source
// (SourceByUse), and changed source modules only tests import are test
// support for the counterfactual oracle.
func (c *Checkout) inspectPythonSupport(ctx context.Context) error {
	if !slices.ContainsFunc(c.Patch.Entries(), func(e tree.Entry) bool { return isPy(e.Path) }) {
		return nil
	}
	g, infos, err := pyGraphOf(ctx, c.Patch)
	if err != nil {
		return err
	}
	c.SourceByUse = g.sourceByUse(c.IsTestFile, c.reclassifiable)
	byUse := map[string]bool{}
	for _, p := range c.SourceByUse {
		byUse[p] = true
	}
	for i, ch := range c.Changes {
		if ch.Class == ClassTest && byUse[ch.Path] {
			c.Changes[i].Class = ClassSource
			c.Findings = append(c.Findings, inspect.Finding{Rule: inspect.RuleSourceByUse, File: ch.Path,
				What: "a module under tests/ that non-test code imports: it is source, measured and mutated"})
		}
	}
	isSource := func(p string) bool { return byUse[p] || !c.IsTestFile(p) }
	only := map[string]bool{}
	for _, p := range g.testOnly(isSource) {
		only[p] = true
	}
	for _, ch := range c.Changes {
		if ch.Class == ClassSource && isPy(ch.Path) && only[ch.Path] {
			c.Findings = append(c.Findings, inspect.Finding{Rule: inspect.RuleTestSupport, File: ch.Path,
				What: "a module only tests import (directly or through modules only tests import): it is test support"})
			c.Counterfactual = append(c.Counterfactual, ch.Path)
		}
	}
	for _, p := range g.files {
		if info := infos[p]; info != nil && isSource(p) {
			c.pythonRefs = append(c.pythonRefs, inspect.SourceRefs{File: p, Strings: info.strings})
		}
	}
	return nil
}

// baselineSourceByUse returns which of paths (baseline Python modules
// under tests/) the baseline's non-test code imports: they are source in
// the baseline, and the oracle does not put them back.
func (c *Checkout) baselineSourceByUse(ctx context.Context, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if !slices.ContainsFunc(paths, c.reclassifiable) {
		return out, nil
	}
	g, _, err := pyGraphOf(ctx, c.Baseline)
	if err != nil {
		return nil, err
	}
	for _, p := range g.sourceByUse(c.IsTestFile, c.reclassifiable) {
		out[p] = true
	}
	return out, nil
}

// inspectPython reads the changed Python sources, both versions, with the
// script (inspect.Python): new runner reach and new probes are findings,
// and the decisions and baseline literals are kept for Overfitting.
func (c *Checkout) inspectPython(ctx context.Context) error {
	type pair struct {
		ch       Change
		basePath string
	}
	var pairs []pair
	for _, ch := range c.Changes {
		if ch.Class != ClassSource || !isPy(ch.Path) || ch.Kind == Deleted {
			continue
		}
		if e, ok := c.Patch.Lookup(ch.Path); !ok || e.Mode == tree.ModeSymlink {
			continue
		}
		p := pair{ch: ch}
		from := ch.Path
		if ch.Kind == Renamed {
			from = ch.OldPath
		}
		if e, ok := c.Baseline.Lookup(from); ok && e.Mode != tree.ModeSymlink && ch.Kind != Added {
			p.basePath = from
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil
	}
	c.pySources = map[string]pySource{}
	unread := func(why string) {
		for _, p := range pairs {
			c.pySources[p.ch.Path] = pySource{err: why}
			c.Findings = append(c.Findings,
				inspect.Finding{Rule: inspect.RuleRunnerReach, File: p.ch.Path, What: "could not be read, so it cannot be shown not to reach into the test runner: " + why},
				inspect.Finding{Rule: inspect.RuleProbe, File: p.ch.Path, What: "could not be read, so it cannot be shown free of probes: " + why})
		}
	}
	if c.python == "" {
		unread("no Python interpreter was given to read it")
		return nil
	}
	var patchPaths, basePaths []string
	for _, p := range pairs {
		patchPaths = append(patchPaths, p.ch.Path)
		if p.basePath != "" {
			basePaths = append(basePaths, p.basePath)
		}
	}
	patched, err := c.Patch.ReadFiles(ctx, patchPaths)
	if err != nil {
		return fmt.Errorf("checkout: read the patch's Python sources: %w", err)
	}
	base, err := c.Baseline.ReadFiles(ctx, basePaths)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Python sources: %w", err)
	}
	var reqs []inspect.PyRequest
	for _, p := range pairs {
		reqs = append(reqs, inspect.PyRequest{Src: patched[p.ch.Path], Lines: p.ch.ChangedLines})
		if p.basePath != "" {
			reqs = append(reqs, inspect.PyRequest{Src: base[p.basePath]})
		}
	}
	res, err := inspect.Python(ctx, c.python, reqs)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		unread(err.Error())
		return nil
	}
	i := 0
	for _, p := range pairs {
		pr := res[i]
		i++
		var br *inspect.PyResult
		if p.basePath != "" {
			br = &res[i]
			i++
		}
		file := p.ch.Path
		if pr.Err != "" {
			c.pySources[file] = pySource{err: pr.Err}
			c.Findings = append(c.Findings,
				inspect.Finding{Rule: inspect.RuleRunnerReach, File: file, What: "does not parse, so it cannot be shown not to reach into the test runner: " + pr.Err},
				inspect.Finding{Rule: inspect.RuleProbe, File: file, What: "does not parse, so it cannot be shown free of probes: " + pr.Err})
			continue
		}
		var baseReach, baseProbes []inspect.PyItem
		var baseLits []inspect.Lit
		if br != nil && br.Err == "" {
			baseReach, baseProbes, baseLits = br.Reach, br.Probes, br.Lits
		}
		c.Findings = append(c.Findings, inspect.PyNewItems(inspect.RuleRunnerReach, file, baseReach, pr.Reach)...)
		c.Findings = append(c.Findings, inspect.PyNewItems(inspect.RuleProbe, file, baseProbes, pr.Probes)...)
		c.Findings = append(c.Findings, inspect.PyTreeNames(file, baseLits, pr.Lits, c.patchNames())...)
		c.pySources[file] = pySource{decisions: pr.Decisions, baseLits: baseLits}
	}
	return nil
}

// changedGoSources returns the changed Go source files the patch tree
// holds (not deleted, not symlinks), with their baseline paths ("" for a
// new file).
func (c *Checkout) changedGoSources() (paths, basePaths []string) {
	for _, ch := range c.Changes {
		if ch.Class != ClassSource || Language(ch.Path) != LangGo || ch.Kind == Deleted {
			continue
		}
		if e, ok := c.Patch.Lookup(ch.Path); !ok || e.Mode == tree.ModeSymlink {
			continue
		}
		from := ch.Path
		if ch.Kind == Renamed {
			from = ch.OldPath
		}
		if e, ok := c.Baseline.Lookup(from); !ok || e.Mode == tree.ModeSymlink || ch.Kind == Added {
			from = ""
		}
		paths = append(paths, ch.Path)
		basePaths = append(basePaths, from)
	}
	return paths, basePaths
}

// inspectGoProbes finds the probes of where it runs that changed Go
// sources newly make (inspect.GoProbes).
func (c *Checkout) inspectGoProbes(ctx context.Context, patchGo map[string][]byte) error {
	paths, basePaths := c.changedGoSources()
	var reads []string
	for _, b := range basePaths {
		if b != "" {
			reads = append(reads, b)
		}
	}
	base, err := c.Baseline.ReadFiles(ctx, reads)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Go sources: %w", err)
	}
	// A changed source naming a file or directory of the patch's tree
	// relative to its package's directory asks where it runs.
	exists := c.patchNames()
	for i, p := range paths {
		var b []byte
		if basePaths[i] != "" {
			b = base[basePaths[i]]
		}
		c.Findings = append(c.Findings, inspect.GoProbesIn(p, b, patchGo[p], exists)...)
	}
	return nil
}

// Overfitting judges the changed source against each claim's test (see
// inspect.Overfitting): a changed condition of the claim's language whose
// literals are the test's exact inputs, returning its exact expected
// values, is a finding of rule inspect.RuleOverfitting naming the claim.
// claims are as criteria hold them: go:./pkg:TestX (a subtest suffix
// /name is ignored: the whole test function's literals count) and
// pytest:file.py::test (parameters ignored); others are not judged. The
// test is read as the claim runs it on the patch side: from the oracle
// tree. A claim whose test cannot be found is skipped (the executor names
// it), a changed source that cannot be read has findings of its own.
// Findings are sorted.
func (c *Checkout) Overfitting(ctx context.Context, claims []string) ([]inspect.Finding, error) {
	var out []inspect.Finding
	var goClaims, pyClaims []string
	for _, cl := range claims {
		switch {
		case strings.HasPrefix(cl, "go:"):
			goClaims = append(goClaims, cl)
		case strings.HasPrefix(cl, "pytest:"):
			pyClaims = append(pyClaims, cl)
		}
	}
	if len(goClaims) > 0 {
		found, err := c.goOverfitting(ctx, goClaims)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	if len(pyClaims) > 0 && len(c.pySources) > 0 && c.python != "" {
		found, err := c.pyOverfitting(ctx, pyClaims)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return inspect.Sort(out), nil
}

func (c *Checkout) goOverfitting(ctx context.Context, claims []string) ([]inspect.Finding, error) {
	paths, basePaths := c.changedGoSources()
	if len(paths) == 0 {
		return nil, nil
	}
	lines := map[string][]int{}
	for _, ch := range c.Changes {
		lines[ch.Path] = ch.ChangedLines
	}
	patched, err := c.Patch.ReadFiles(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("checkout: read the patch's Go sources: %w", err)
	}
	var reads []string
	for _, b := range basePaths {
		if b != "" {
			reads = append(reads, b)
		}
	}
	base, err := c.Baseline.ReadFiles(ctx, reads)
	if err != nil {
		return nil, fmt.Errorf("checkout: read the baseline's Go sources: %w", err)
	}
	type side struct {
		decisions []inspect.Decision
		baseLits  []inspect.Lit
	}
	sides := make([]side, len(paths))
	for i, p := range paths {
		sides[i].decisions = inspect.GoDecisions(patched[p], lines[p])
		if basePaths[i] != "" {
			sides[i].baseLits, _ = inspect.GoFileLits(base[basePaths[i]])
		}
	}
	var out []inspect.Finding
	for _, cl := range claims {
		pkg, test, ok := strings.Cut(strings.TrimPrefix(cl, "go:"), ":")
		if !ok {
			continue
		}
		dir := path.Clean(strings.TrimPrefix(pkg, "./"))
		var files []string
		for _, e := range c.Oracle.Entries() {
			if e.Mode != tree.ModeSymlink && path.Dir(e.Path) == dir && isGoTestFile(e.Path) {
				files = append(files, e.Path)
			}
		}
		srcs, err := c.Oracle.ReadFiles(ctx, files)
		if err != nil {
			return nil, fmt.Errorf("checkout: read the test files of %s: %w", pkg, err)
		}
		var all [][]byte
		for _, f := range files {
			all = append(all, srcs[f])
		}
		lits, ok := inspect.GoTestLits(all, test)
		// A test the patch adds to a baseline test file runs spliced
		// beside that file's baseline tests, and one it edits (the rows
		// it adds to a table, a suite's method) runs as the patch has it
		// too: their literals are the patch's.
		if more, found := c.patchTestLits(ctx, dir, test); found {
			lits, ok = append(lits, more...), true
		}
		if !ok {
			continue
		}
		for i, p := range paths {
			out = append(out, inspect.Overfitting(cl, p, sides[i].decisions, lits, sides[i].baseLits)...)
		}
	}
	return out, nil
}

func (c *Checkout) pyOverfitting(ctx context.Context, claims []string) ([]inspect.Finding, error) {
	var reqs []inspect.PyRequest
	var judged []string
	for _, cl := range claims {
		file, test, ok := strings.Cut(strings.TrimPrefix(cl, "pytest:"), "::")
		if !ok {
			continue
		}
		e, ok := c.Oracle.Lookup(file)
		if !ok || e.Mode == tree.ModeSymlink {
			continue
		}
		src, err := c.Oracle.ReadFiles(ctx, []string{file})
		if err != nil {
			return nil, fmt.Errorf("checkout: read %s: %w", file, err)
		}
		reqs = append(reqs, inspect.PyRequest{Src: src[file], Test: test})
		judged = append(judged, cl)
	}
	if len(reqs) == 0 {
		return nil, nil
	}
	res, err := inspect.Python(ctx, c.python, reqs)
	if err != nil {
		return nil, err
	}
	var out []inspect.Finding
	for i, r := range res {
		if r.Err != "" || !r.Found {
			continue
		}
		for _, p := range slices.Sorted(maps.Keys(c.pySources)) {
			s := c.pySources[p]
			if s.err == "" {
				out = append(out, inspect.Overfitting(judged[i], p, s.decisions, r.Lits, s.baseLits)...)
			}
		}
	}
	return out, nil
}

// inspectGitAttributes judges the .gitattributes files the patch adds or
// changes (inspect.GitAttributes): an attribute that makes git archive
// (every Go module zip) or a checkout give other content than the blobs
// the gate tests means what ran is not what users get, which makes the
// run unjudgeable, naming the line.
func (c *Checkout) inspectGitAttributes(ctx context.Context) error {
	var paths, basePaths []string
	for _, ch := range c.Changes {
		if ch.Kind == Deleted || path.Base(ch.Path) != ".gitattributes" {
			continue
		}
		from := ch.Path
		if ch.Kind == Renamed {
			from = ch.OldPath
		}
		if _, ok := c.Baseline.Lookup(from); !ok || ch.Kind == Added {
			from = ""
		}
		paths = append(paths, ch.Path)
		basePaths = append(basePaths, from)
	}
	if len(paths) == 0 {
		return nil
	}
	patched, err := c.Patch.ReadFiles(ctx, paths)
	if err != nil {
		return fmt.Errorf("checkout: read the patch's .gitattributes: %w", err)
	}
	var reads []string
	for _, b := range basePaths {
		if b != "" {
			reads = append(reads, b)
		}
	}
	base, err := c.Baseline.ReadFiles(ctx, reads)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's .gitattributes: %w", err)
	}
	for i, p := range paths {
		var b []byte
		if basePaths[i] != "" {
			b = base[basePaths[i]]
		}
		for _, what := range inspect.GitAttributes(b, patched[p]) {
			c.Unjudgeable = append(c.Unjudgeable, Unjudgeable{Path: p,
				Why: fmt.Sprintf("%s:%s: git archive (which makes every Go module zip) or a checkout then gives other content than the tree the gate tests", strconv.Quote(p), what)})
		}
	}
	slices.SortStableFunc(c.Unjudgeable, func(a, b Unjudgeable) int { return strings.Compare(a.Path, b.Path) })
	return nil
}

// inspectGoTypes compares the type declarations of every package
// directory in which the patch changes non-test Go source
// (inspect.GoTypeChanges), all its non-test Go files on both sides: a
// type moved to another file is the same type; each file's imports
// (inspect.GoImportChanges); and the signatures of its functions and
// methods and the declared types of its package-level variables and
// constants (inspect.GoSignatureChanges); and what changes the code's
// meaning without a statement — build constraints, //go:embed directives,
// names deleted yet still used, predeclared names declared, blank and dot
// imports, the order of initialization, methods added that shadow or hold
// nothing (inspect.GoDeclChanges), declarations a first-class port
// no longer builds (inspect.GoPlatformLosses), closures over a variable a loop
// shares (inspect.GoLoopCaptures), %w verbs dropped (inspect.GoWrapDrops).
func (c *Checkout) inspectGoTypes(ctx context.Context, patchGo map[string][]byte) error {
	paths, _ := c.changedGoSources()
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[path.Dir(p)] = true
	}
	for _, ch := range c.Changes {
		if ch.Kind == Deleted && strings.HasSuffix(ch.Path, ".go") && !isGoTestFile(ch.Path) {
			dirs[path.Dir(ch.Path)] = true
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	nonTest := func(p string) bool { return strings.HasSuffix(p, ".go") && !isGoTestFile(p) && dirs[path.Dir(p)] }
	test := func(p string) bool { return isGoTestFile(p) && dirs[path.Dir(p)] }
	var reads []string
	for _, e := range c.Baseline.Entries() {
		if e.Mode != tree.ModeSymlink && (nonTest(e.Path) || test(e.Path)) {
			reads = append(reads, e.Path)
		}
	}
	base, err := c.Baseline.ReadFiles(ctx, reads)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Go sources: %w", err)
	}
	mods := map[string][]byte{}
	for f, src := range patchGo {
		if path.Base(f) == "go.mod" {
			mods[f] = src
		}
	}
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		b, p, bt := map[string][]byte{}, map[string][]byte{}, map[string][]byte{}
		for f, src := range base {
			switch {
			case path.Dir(f) != d:
			case nonTest(f):
				b[f] = src
			default:
				bt[f] = src
			}
		}
		for f, src := range patchGo {
			if nonTest(f) && path.Dir(f) == d {
				p[f] = src
			}
		}
		c.Findings = append(c.Findings, inspect.GoTypeChanges(b, p)...)
		c.Findings = append(c.Findings, inspect.GoImportChanges(b, p)...)
		c.Findings = append(c.Findings, inspect.GoSignatureChanges(b, p)...)
		c.Findings = append(c.Findings, inspect.GoDeclChanges(b, p, bt)...)
		c.Findings = append(c.Findings, inspect.GoPlatformLosses(b, p)...)
		c.Findings = append(c.Findings, inspect.GoConfigGaps(b, p)...)
		c.Findings = append(c.Findings, inspect.GoLoopCaptures(b, p, mods)...)
		c.Findings = append(c.Findings, inspect.GoWrapDrops(b, p)...)
		c.Findings = append(c.Findings, inspect.GoErrorIdentity(b, p)...)
		c.Findings = append(c.Findings, inspect.GoNewerAPI(b, p, mods)...)
	}
	return nil
}

// patchNames reports whether a slash-separated path names a file or a
// directory of the patch's tree.
func (c *Checkout) patchNames() func(string) bool {
	names := map[string]bool{}
	for _, e := range c.Patch.Entries() {
		for p := e.Path; p != "." && p != "/" && p != "" && !names[p]; p = path.Dir(p) {
			names[p] = true
		}
	}
	return func(p string) bool { return names[p] }
}

// ClaimFinding is a finding about one claim's test (Claim "" for a finding
// about the claims as a whole).
type ClaimFinding struct {
	inspect.Finding
	Claim string
}

// OverfittingByClaim judges each claim's test for special cases of its
// inputs (Overfitting), each finding naming its claim. Without claims it
// judges every test discovery may propose (DiscoveryCandidates): the
// adjudicator keeps the findings of the claims discovery finds, so that
// the rule applies to them as to sealed ones. Claims that could not be
// judged are a finding of their own — not judged is never "not
// overfitting" — and an error only says ctx ended.
func (c *Checkout) OverfittingByClaim(ctx context.Context, claims []string) ([]ClaimFinding, error) {
	notJudged := func(err error) []ClaimFinding {
		return []ClaimFinding{{Finding: inspect.Finding{Rule: inspect.RuleOverfitting, File: ".", What: "the claims could not be judged for overfitting: " + err.Error()}}}
	}
	if len(claims) == 0 {
		var err error
		if claims, err = c.DiscoveryCandidates(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return notJudged(err), nil
		}
	}
	var out []ClaimFinding
	for _, cl := range claims {
		over, err := c.Overfitting(ctx, []string{cl})
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return notJudged(err), nil
		}
		for _, f := range over {
			out = append(out, ClaimFinding{Finding: f, Claim: cl})
		}
	}
	return out, nil
}

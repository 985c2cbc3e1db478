package checkout

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/splice"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// Test support the counterfactual oracle puts back lives in three shapes:
// whole files (a package only tests import, a non-test file importing
// testing, test data), and declarations of a non-test file beside the code
// under test that only tests reach (an assertion helper in calc/near.go).
// For the last the counterfactual lays the baseline's version of each such
// declaration the patch changed over the patch's file (splice.Restore),
// leaving the code under test in the same file as the patch has it.

// inspectGoDecls finds the test support of the changed non-test Go files
// that the patch tree's import graph alone does not show: what was test
// support on the baseline stays test support, whatever production
// reference the patch adds to it (a blank import, a `var _ = helper`), so
// test support is what only tests reach on either side.
//
//   - A changed file of a package that only tests used on the baseline is
//     put back whole, as a file of TestOnlyPackages is (and its package is
//     one of them).
//   - In the other packages, the declarations the patch changed that only
//     tests reach (inspect.GoTestSupport.TestOnlyDecls), on the patch side
//     or on the baseline, are put back one by one: each is a finding of
//     rule inspect.RuleTestSupport and an entry "file#name" of
//     CounterfactualDecls. A declaration the baseline lacks is not one: no
//     baseline test can use it, and a new test that does proves nothing on
//     the baseline without it.
func (c *Checkout) inspectGoDecls(ctx context.Context) error {
	needed := false
	for _, ch := range c.Changes {
		if ch.Class == ClassSource && Language(ch.Path) == LangGo && ch.Kind != Deleted && !isGoTestFile(ch.Path) || c.isData(ch) {
			needed = true
		}
	}
	if !needed {
		return nil
	}
	baseGo, err := readSources(ctx, c.Baseline, isGoInput)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Go files: %w", err)
	}
	g, bg := c.goSupport, inspect.GoImportGraph(baseGo)
	c.baseSupport = bg
	dirs := map[string][]string{} // dir → changed non-test Go files
	for _, ch := range c.Changes {
		if ch.Class != ClassSource || Language(ch.Path) != LangGo || ch.Kind == Deleted || isGoTestFile(ch.Path) {
			continue
		}
		if e, ok := c.Patch.Lookup(ch.Path); !ok || e.Mode == tree.ModeSymlink {
			continue
		}
		dir := path.Dir(ch.Path)
		if _, testOnly := slices.BinarySearch(g.TestOnly, dir); testOnly {
			continue // test support whole (inspectGoSupport)
		}
		if _, wasTestOnly := slices.BinarySearch(bg.TestOnly, dir); wasTestOnly {
			c.Counterfactual = append(c.Counterfactual, ch.Path)
			c.TestOnlyPackages = append(c.TestOnlyPackages, goPackage(ch.Path))
			c.Findings = append(c.Findings, inspect.Finding{Rule: inspect.RuleTestSupport, File: ch.Path,
				What: fmt.Sprintf("package %s was imported only by test files on the baseline: it is test support, whatever production reference the patch adds to it", dirLabel(dir))})
			continue
		}
		dirs[dir] = append(dirs[dir], ch.Path)
	}
	slices.Sort(c.TestOnlyPackages)
	c.TestOnlyPackages = slices.Compact(c.TestOnlyPackages)
	changedLines := map[string][]int{}
	for _, ch := range c.Changes {
		changedLines[ch.Path] = ch.ChangedLines
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		testOnly, wasTestOnly := map[string]bool{}, map[string]bool{}
		for i, gr := range []inspect.GoTestSupport{g, bg} {
			decls, _ := gr.TestOnlyDecls(dir) // a package that cannot be read: nothing said of it
			for _, d := range decls {
				testOnly[d.Name] = true
				if i == 1 {
					wasTestOnly[d.Name] = true
				}
			}
		}
		if len(testOnly) == 0 {
			continue
		}
		// Production code the patch changed that writes what only tests
		// read.
		writes, _ := g.SupportWrites(dir, wasTestOnly)
		for _, w := range writes {
			if slices.ContainsFunc(changedLines[w.Writer.File], func(l int) bool { return l >= w.Writer.Line && l <= w.Writer.EndLine }) {
				c.Findings = append(c.Findings, inspect.Finding{Rule: inspect.RuleSupportWrite, File: w.Writer.File, Line: w.Line,
					What: fmt.Sprintf("%s, which the patch changes and production code reaches, writes %s, which only tests read: the patch changes its tests' judge from code the counterfactual oracle cannot put back", w.Writer.Key(), w.Var)})
			}
		}
		base, err := c.baselineDecls(ctx, dir)
		if err != nil {
			return err
		}
		patched, err := c.Patch.ReadFiles(ctx, dirs[dir])
		if err != nil {
			return fmt.Errorf("checkout: read the patch's Go sources: %w", err)
		}
		for _, f := range dirs[dir] {
			texts, err := splice.Decls(patched[f])
			if err != nil {
				continue // does not parse: its package does not build
			}
			for _, name := range slices.Sorted(maps.Keys(texts)) {
				bt, inBase := base[name]
				if !testOnly[name] || !inBase || texts[name] == bt {
					continue
				}
				c.CounterfactualDecls = append(c.CounterfactualDecls, f+"#"+name)
				c.Findings = append(c.Findings, inspect.Finding{Rule: inspect.RuleTestSupport, File: f, Line: lineOf(patched[f], texts[name]),
					What: fmt.Sprintf("%s is declared beside the code under test, but no production code reaches it, only tests (on the baseline or in the patch): it is test support, and the patch changes it", name)})
			}
		}
	}
	slices.Sort(c.CounterfactualDecls)
	return nil
}

// lineOf is the 1-based line where text starts in src, 0 when it is not
// there.
func lineOf(src []byte, text string) int {
	i := strings.Index(string(src), text)
	if i < 0 {
		return 0
	}
	return strings.Count(string(src[:i]), "\n") + 1
}

// dirLabel is a directory as `go test` takes it.
func dirLabel(dir string) string { return goPackage(dir + "/x") }

// baselineDecls reads the package-level declarations of the baseline's
// non-test Go files of dir, by name (splice.Decls). A file that does not
// parse declares nothing.
func (c *Checkout) baselineDecls(ctx context.Context, dir string) (map[string]string, error) {
	var files []string
	for _, e := range c.Baseline.Entries() {
		if path.Dir(e.Path) == dir && strings.HasSuffix(e.Path, ".go") && !isGoTestFile(e.Path) && e.Mode != tree.ModeSymlink {
			files = append(files, e.Path)
		}
	}
	srcs, err := c.Baseline.ReadFiles(ctx, files)
	if err != nil {
		return nil, fmt.Errorf("checkout: read the baseline's Go sources: %w", err)
	}
	out := map[string]string{}
	for _, f := range files {
		decls, err := splice.Decls(srcs[f])
		if err != nil {
			continue
		}
		for name, text := range decls {
			if _, dup := out[name]; !dup {
				out[name] = text
			}
		}
	}
	return out, nil
}

// testData returns the changed data files of data that are test support:
// those no production code uses. A file a declaration production reaches
// embeds or names (inspect.GoTestSupport.ProductionData), or that a
// non-test Python source names, is production data: the patch's change to
// it is judged as code (mutated), not put back, and a new one the
// package embeds is not removed from under its build.
func (c *Checkout) testData(data []string) []string {
	prod := c.goSupport.ProductionData(data)
	// Test data on the baseline stays test data, whatever production
	// reference the patch adds to it.
	var existing []string
	for _, p := range data {
		if _, ok := c.Baseline.Lookup(p); ok {
			existing = append(existing, p)
		}
	}
	baseProd := c.baseSupport.ProductionData(existing)
	_, pyRefs := inspect.DataFindings(data, c.pythonRefs)
	var out []string
	for _, p := range data {
		_, patchSide := prod[p]
		_, baseSide := baseProd[p]
		if patchSide && (baseSide || !slices.Contains(existing, p)) || slices.Contains(pyRefs, p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// CounterfactualRestore returns what the counterfactual oracle puts back to
// judge a claim (jobs.Spec.Restore): every file of Counterfactual and every
// declaration of CounterfactualDecls, sorted. It is the same for every
// claim, one on a test of a test-only package included: a helper
// package's own tests do not make it code under test, and a new test
// placed beside a loosened helper judges by it as any other test does.
func (c *Checkout) CounterfactualRestore() []string {
	out := slices.Concat(c.Counterfactual, c.CounterfactualDecls)
	slices.Sort(out)
	return slices.Compact(out)
}

// inspectBaselineReach judges, in every package directory with a Go test
// file of TestHarness, whether that harness uses what the baseline's test
// files declare (inspect.GoBaselineReach).
func (c *Checkout) inspectBaselineReach(ctx context.Context) error {
	dirs := map[string][]string{}
	for _, f := range c.TestHarness {
		if isGoTestFile(f) {
			dirs[path.Dir(f)] = append(dirs[path.Dir(f)], f)
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		patched, err := goTestFilesOf(ctx, c.Patch, dir)
		if err != nil {
			return fmt.Errorf("checkout: read the patch's Go test files: %w", err)
		}
		base, err := goTestFilesOf(ctx, c.Baseline, dir)
		if err != nil {
			return fmt.Errorf("checkout: read the baseline's Go test files: %w", err)
		}
		var tests []inspect.Version
		for _, p := range slices.Sorted(maps.Keys(patched)) {
			tests = append(tests, inspect.Version{Path: p, Patch: patched[p], Base: base[p], Changed: true})
		}
		for _, p := range slices.Sorted(maps.Keys(base)) {
			if _, ok := patched[p]; !ok {
				tests = append(tests, inspect.Version{Path: p, Base: base[p]})
			}
		}
		c.Findings = append(c.Findings, inspect.GoBaselineReach(tests, dirs[dir])...)
	}
	c.Findings = inspect.Sort(c.Findings)
	return nil
}

// DiscoveryCandidates returns, as Go claims ("go:./calc:TestX", sorted),
// every test discovery may propose when no claim was sealed: the tests of
// the packages that hold a changed Go file, and of each directory at or
// above a changed file of another kind (a package embedding changed data),
// as the patch side judges them (the oracle's test files, and the tests
// the patch adds to baseline test files). The claim-based rules judge them
// all before discovery has run; the verdict keeps what concerns the
// claims discovery found.
func (c *Checkout) DiscoveryCandidates(ctx context.Context) ([]string, error) {
	dirs := map[string]bool{}
	for _, ch := range c.Changes {
		dir := path.Dir(ch.Path)
		if strings.HasSuffix(ch.Path, ".go") {
			dirs[dir] = true
			continue
		}
		for d := dir; ; d = path.Dir(d) {
			dirs[d] = true
			if d == "." || d == "/" {
				break
			}
		}
	}
	var out []string
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		for _, t := range []*tree.Tree{c.Oracle, c.Patch} {
			files, err := goTestFilesOf(ctx, t, dir)
			if err != nil {
				return nil, fmt.Errorf("checkout: read the Go test files of %s: %w", dir, err)
			}
			for _, src := range files {
				names, err := TestFuncs(src)
				if err != nil {
					continue
				}
				for _, n := range names {
					out = append(out, "go:"+goPackage(dir+"/x")+":"+n)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// patchTestLits reads the literals of test (inspect.GoTestLits) from the
// patch's Go test files of dir, when the patch adds it to a baseline test
// file (Deferred: the oracle has that file's baseline version, which does
// not declare it) or changes a Go test file of dir (the test's version
// that the patch has may be the one that runs: an edited test's).
func (c *Checkout) patchTestLits(ctx context.Context, dir, test string) ([]inspect.Lit, bool) {
	top, _, _ := strings.Cut(test, "/")
	deferred := slices.ContainsFunc(c.Deferred, func(d Deferred) bool {
		return (d.Test == top || d.Test == test) && path.Dir(d.File) == dir && isGoTestFile(d.File)
	})
	edits := slices.ContainsFunc(c.Changes, func(ch Change) bool {
		return ch.Kind == Modified && path.Dir(ch.Path) == dir && isGoTestFile(ch.Path)
	})
	if !deferred && !edits {
		return nil, false
	}
	files, err := goTestFilesOf(ctx, c.Patch, dir)
	if err != nil {
		return nil, false
	}
	var all [][]byte
	for _, p := range slices.Sorted(maps.Keys(files)) {
		all = append(all, files[p])
	}
	return inspect.GoTestLits(all, test)
}

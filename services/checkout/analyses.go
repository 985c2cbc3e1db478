package checkout

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
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

// sources holds the contents the analyses read, by path.
type sources struct {
	base, patch map[string][]byte
}

// readSources reads the files of t for which want is true, leaving out
// symlinks (a link is not source).
func readSources(ctx context.Context, t *tree.Tree, want func(string) bool) (map[string][]byte, error) {
	var paths []string
	for _, e := range t.Entries() {
		if e.Mode != tree.ModeSymlink && want(e.Path) {
			paths = append(paths, e.Path)
		}
	}
	return t.ReadFiles(ctx, paths)
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
	c.inspectGoSupport(patchGo)
	c.inspectData(patchGo)
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

// inspectGoSupport finds the changed non-test Go files that only tests use
// (inspect.GoImportGraph).
func (c *Checkout) inspectGoSupport(patchGo map[string][]byte) {
	g := inspect.GoImportGraph(patchGo)
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

// isData reports a changed file that is data: not source, test code nor
// harness, and materialized (unjudgeable content is judged elsewhere).
func (c *Checkout) isData(ch Change) bool {
	switch ch.Class {
	case ClassOther, ClassBinary, ClassForeign:
	default:
		return false
	}
	_, baseLeft := c.Baseline.LookupLeftOut(ch.Path)
	_, patchLeft := c.Patch.LookupLeftOut(ch.Path)
	return !baseLeft && !patchLeft
}

// inspectData judges the changed data files (inspect.DataFindings) by the
// patch's non-test Go sources.
func (c *Checkout) inspectData(patchGo map[string][]byte) {
	var data []string
	for _, ch := range c.Changes {
		if c.isData(ch) {
			data = append(data, ch.Path)
		}
	}
	if len(data) == 0 {
		return
	}
	var refs []inspect.SourceRefs
	for _, p := range slices.Sorted(maps.Keys(patchGo)) {
		if strings.HasSuffix(p, ".go") && !c.IsTestFile(p) {
			refs = append(refs, inspect.GoRefs(p, patchGo[p]))
		}
	}
	refs = append(refs, c.pythonRefs...)
	found, referenced := inspect.DataFindings(data, refs)
	c.Findings = append(c.Findings, found...)
	c.DataReferenced = referenced
	c.Counterfactual = append(c.Counterfactual, data...)
}

package gateway

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// checkClaimsDeclared refuses, before anything is sealed, a claim no side
// can run: a Go package that is in neither tree, a Go test no test file of
// the package declares on either side, a pytest module that is in neither
// tree or declares the test on neither side, a cmd: label without a
// command. A typo is the caller's to fix (exit 3), not a signed
// INCONCLUSIVE in the transparency log.
func checkClaimsDeclared(ctx context.Context, co *checkout.Checkout, claims []string, commands map[string]bool) error {
	trees := []*tree.Tree{co.Baseline, co.Patch}
	for _, c := range claims {
		switch {
		case strings.HasPrefix(c, "go:"):
			rest := strings.TrimPrefix(c, "go:")
			pkg, test, _ := strings.Cut(rest, ":")
			dir := path.Clean(strings.TrimPrefix(pkg, "./"))
			top, _, _ := strings.Cut(test, "/")
			found, pkgFound := false, false
			for _, t := range trees {
				files := goTestFilesIn(t, dir)
				if hasGoFiles(t, dir) {
					pkgFound = true
				}
				srcs, err := t.ReadFiles(ctx, files)
				if err != nil {
					return fmt.Errorf("read the test files of %s: %w", pkg, err)
				}
				for _, f := range files {
					if names, err := checkout.TestFuncs(srcs[f]); err == nil && slices.Contains(names, top) {
						found = true
					}
				}
			}
			switch {
			case !pkgFound:
				return fmt.Errorf("claim %s: there is no Go package %s on either side; name it as go:./dir:TestName, relative to the repository root", c, pkg)
			case !found:
				return fmt.Errorf("claim %s: no test file of %s declares func %s(t *testing.T) on either side; check the test's name", c, pkg, top)
			}
		case strings.HasPrefix(c, "pytest:"):
			node := strings.TrimPrefix(c, "pytest:")
			file, test, _ := strings.Cut(node, "::")
			if i := strings.IndexByte(test, '['); i >= 0 {
				test = test[:i]
			}
			inTree, found := false, false
			for _, t := range trees {
				if _, ok := t.Lookup(file); !ok {
					continue
				}
				inTree = true
				srcs, err := t.ReadFiles(ctx, []string{file})
				if err != nil {
					return fmt.Errorf("read %s: %w", file, err)
				}
				names, err := checkout.PythonTestFuncs(srcs[file])
				if err != nil || slices.Contains(names, test) {
					// A module the scanner cannot read exactly is judged
					// by the run, which says so.
					found = true
				}
			}
			switch {
			case !inTree:
				return fmt.Errorf("claim %s: %s is in neither tree; name the test module by its path from the repository root", c, file)
			case !found:
				return fmt.Errorf("claim %s: %s declares no test %s on either side; check the test's name", c, file, test)
			}
		case strings.HasPrefix(c, "cmd:"):
			if !commands[strings.TrimPrefix(c, "cmd:")] {
				return fmt.Errorf("claim %s: no command is declared for %s; give it with --test-command or in .sealgate.yaml", c, strings.TrimPrefix(c, "cmd:"))
			}
		}
	}
	return nil
}

// goTestFilesIn lists the Go test files directly in dir.
func goTestFilesIn(t *tree.Tree, dir string) []string {
	var out []string
	for _, e := range t.Entries() {
		if path.Dir(e.Path) == dir && strings.HasSuffix(e.Path, "_test.go") && e.Mode != tree.ModeSymlink {
			out = append(out, e.Path)
		}
	}
	return out
}

// hasGoFiles reports whether dir holds a Go file in t.
func hasGoFiles(t *tree.Tree, dir string) bool {
	for _, e := range t.Entries() {
		if path.Dir(e.Path) == dir && strings.HasSuffix(e.Path, ".go") {
			return true
		}
	}
	return false
}

// resolveBareClaims replaces each bare claim (criteria.IsBareClaim: a Go
// test without its package, a pytest id without its file) by the claims of
// the tests that declare it, and returns the claims and, for each bare
// claim, what it resolved to. Names are looked up in the baseline's test
// files (with the trusted tests: the grader's view) first, and only when
// none declares a name in the oracle's, where the patch's new test files
// are too. A Go name several packages declare resolves to all of them; a
// pytest id several modules declare is ambiguous, and a name nobody
// declares is unknown: both are the caller's to fix.
//
// With lenient, a bare claim that names nothing, or an ambiguous pytest id,
// resolves to no claim (recorded as such) instead.
func resolveBareClaims(ctx context.Context, co *checkout.Checkout, claims []string, lenient bool) ([]string, map[string][]string, error) {
	var out []string
	bare := map[string][]string{}
	indexes := map[*tree.Tree]*testIndex{}
	index := func(t *tree.Tree) (*testIndex, error) {
		if ix := indexes[t]; ix != nil {
			return ix, nil
		}
		ix, err := indexTests(ctx, t)
		if err != nil {
			return nil, err
		}
		indexes[t] = ix
		return ix, nil
	}
	for _, c := range claims {
		if !criteria.IsBareClaim(c) {
			out = append(out, c)
			continue
		}
		var resolved []string
		for _, t := range []*tree.Tree{co.Baseline, co.Oracle} {
			ix, err := index(t)
			if err != nil {
				return nil, nil, err
			}
			if resolved, err = ix.resolve(c); err != nil && !lenient {
				return nil, nil, err
			}
			if len(resolved) > 0 {
				break
			}
		}
		if len(resolved) == 0 && lenient {
			bare[c] = []string{}
			continue
		}
		if len(resolved) == 0 {
			return nil, nil, fmt.Errorf("claim %s: no test file declares %s (with the trusted tests, on either side); check the name, or name its package or file", c, bareName(c))
		}
		bare[c] = resolved
		out = append(out, resolved...)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(bare) == 0 {
		bare = nil
	}
	return out, bare, nil
}

// bareName is the test a bare claim names.
func bareName(claim string) string {
	_, rest, _ := strings.Cut(claim, ":")
	return rest
}

// testIndex lists where a tree's test files declare each test.
type testIndex struct {
	// goTests maps a Go test function's name to the packages declaring it
	// ("./dir", or "."), sorted.
	goTests map[string][]string
	// pyTests maps a pytest node-id suffix ("test_x", "TestK::test_x") to
	// the test modules declaring it, sorted.
	pyTests map[string][]string
}

// indexTests reads every Go test file and pytest module of t. A file the
// scanners cannot read declares nothing here: a claim on it must name its
// file.
func indexTests(ctx context.Context, t *tree.Tree) (*testIndex, error) {
	var goFiles, pyFiles []string
	for _, e := range t.Entries() {
		switch {
		case e.Mode == tree.ModeSymlink || ignoredByGo(e.Path):
		case strings.HasSuffix(e.Path, "_test.go"):
			goFiles = append(goFiles, e.Path)
		case checkout.IsPytestModule(e.Path):
			pyFiles = append(pyFiles, e.Path)
		}
	}
	srcs, err := t.ReadFiles(ctx, append(slices.Clone(goFiles), pyFiles...))
	if err != nil {
		return nil, fmt.Errorf("read the test files: %w", err)
	}
	ix := &testIndex{goTests: map[string][]string{}, pyTests: map[string][]string{}}
	for _, f := range goFiles {
		names, err := checkout.TestFuncs(srcs[f])
		if err != nil {
			continue
		}
		pkg := "./" + path.Dir(f)
		if path.Dir(f) == "." {
			pkg = "."
		}
		for _, n := range names {
			ix.goTests[n] = append(ix.goTests[n], pkg)
		}
	}
	for _, f := range pyFiles {
		names, err := checkout.PythonTestFuncs(srcs[f])
		if err != nil {
			continue
		}
		for _, n := range names {
			ix.pyTests[n] = append(ix.pyTests[n], f)
		}
	}
	for _, m := range []map[string][]string{ix.goTests, ix.pyTests} {
		for k, v := range m {
			slices.Sort(v)
			m[k] = slices.Compact(v)
		}
	}
	return ix, nil
}

// ignoredByGo reports a path whose Go files the go command does not build
// as a package of `./...`: under testdata or vendor, or under a directory
// whose name starts with . or _.
func ignoredByGo(p string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "testdata" || d == "vendor" || (d != "." && (strings.HasPrefix(d, ".") || strings.HasPrefix(d, "_"))) {
			return true
		}
	}
	return false
}

// resolve returns the claims a bare claim names in the index: none when no
// file declares it.
func (ix *testIndex) resolve(claim string) ([]string, error) {
	scheme, name, _ := strings.Cut(claim, ":")
	if scheme == "go" {
		top, _, _ := strings.Cut(name, "/")
		var out []string
		for _, pkg := range ix.goTests[top] {
			out = append(out, "go:"+pkg+":"+name)
		}
		return out, nil
	}
	key := name
	if i := strings.IndexByte(key, '['); i >= 0 {
		key = key[:i]
	}
	files := ix.pyTests[key]
	switch {
	case len(files) == 0:
		return nil, nil
	case len(files) > 1:
		shown := files
		if len(shown) > 5 {
			shown = shown[:5]
		}
		return nil, fmt.Errorf("claim %s: %d test modules declare %s (%s): name the file, as pytest:FILE::%s", claim, len(files), key, strings.Join(shown, ", "), name)
	}
	return []string{"pytest:" + files[0] + "::" + name}, nil
}

package gateway

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

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

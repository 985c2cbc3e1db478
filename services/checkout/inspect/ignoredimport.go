package inspect

import (
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// GoIgnoredImported finds the directories the go command leaves out of
// its patterns (testdata, and names starting with "." or "_") whose
// packages non-test Go code imports all the same: `./...` skips them, an
// import path naming one builds it. Their files are test data to the gate
// (every run has the baseline's), yet they are code the program runs. It
// returns each such directory with the file that imports it, following
// imports from one such package to another; files maps repository paths
// to contents (go.mod files name the modules). Imports from the packages
// only tests use (testOnly: GoTestSupport.TestOnly, sorted) and from files
// that import "testing" are test support's, and count for nothing.
func GoIgnoredImported(files map[string][]byte, testOnly []string) map[string]string {
	modules := map[string]string{}
	for p, src := range files {
		if path.Base(p) == "go.mod" {
			if mp := modfile.ModulePath(src); mp != "" {
				modules[path.Dir(p)] = mp
			}
		}
	}
	byImport := map[string]string{} // import path → directory
	importsOf := map[string][]string{}
	var roots []string // non-test files the go command builds
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || ignoredVendor(p) {
			continue
		}
		dir := path.Dir(p)
		if ip := importPathOf(dir, modules); ip != "" {
			byImport[ip] = dir
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, files[p], parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		support := false
		for _, imp := range f.Imports {
			if ip, err := strconv.Unquote(imp.Path.Value); err == nil {
				importsOf[p] = append(importsOf[p], ip)
				support = support || ip == "testing"
			}
		}
		if _, only := slices.BinarySearch(testOnly, dir); GoBuilds(p) && !support && !only {
			roots = append(roots, p)
		}
	}
	found := map[string]string{}
	queue := roots
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, ip := range importsOf[p] {
			dir, ok := byImport[ip]
			if !ok || GoBuilds(dir+"/x.go") {
				continue
			}
			if _, seen := found[dir]; seen {
				continue
			}
			found[dir] = p
			for _, q := range slices.Sorted(maps.Keys(importsOf)) {
				if path.Dir(q) == dir {
					queue = append(queue, q)
				}
			}
		}
	}
	return found
}

// ignoredVendor reports a path under a vendor directory: vendored packages
// are the module's dependencies, judged as such elsewhere.
func ignoredVendor(p string) bool {
	return slices.Contains(strings.Split(path.Dir(p), "/"), "vendor")
}

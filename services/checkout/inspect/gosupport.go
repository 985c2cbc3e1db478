package inspect

import (
	"bytes"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// GoTestSupport is what the import graph of a tree's Go packages says
// about test support.
type GoTestSupport struct {
	// TestOnly are the package directories ("." for the root) only test
	// code uses: packages that are not production code, where a package
	// is production when no file outside it imports it (a command, an API,
	// dead code), when it has test files of its own (it is code under
	// test), or when a non-test file of a production package imports it.
	// So a helper package only other packages' tests import — directly or
	// through other such helpers — is test-only, and a library package
	// only its own (or other packages') tests import is not. Sorted.
	TestOnly []string
	// ImportsTesting are the non-test Go files that import "testing":
	// test support wherever they live. Sorted.
	ImportsTesting []string
}

// GoImportGraph reads the Go packages of a tree — files maps every .go
// file and every go.mod of the tree (slash-separated paths) to its content
// — and says which packages only tests use (see GoTestSupport.TestOnly). A directory's import path is
// its module's path (from the nearest go.mod above it) joined with its
// path below the module root. Files the go command leaves out are left
// out: those in testdata, vendor and directories whose name starts with
// "." or "_", and those whose build constraints or name do not match this
// platform and the default build tags (go/build's rules), so a file that
// never compiles cannot make a package production code. A file that does
// not parse imports nothing; a go.mod that does not parse makes no module
// (its directories' imports resolve to no package of the tree).
func GoImportGraph(files map[string][]byte) GoTestSupport {
	modules := map[string]string{} // module root dir → module path
	for p, src := range files {
		if path.Base(p) != "go.mod" {
			continue
		}
		if mp := modfile.ModulePath(src); mp != "" {
			modules[path.Dir(p)] = mp
		}
	}
	ctxt := build.Default
	ctxt.GOPATH, ctxt.Dir = "", ""
	ctxt.JoinPath = path.Join
	ctxt.IsAbsPath = path.IsAbs
	ctxt.OpenFile = func(p string) (io.ReadCloser, error) {
		src, ok := files[p]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(src)), nil
	}
	type goSrc struct {
		path, dir string
		test      bool
		imports   []string
	}
	var srcs []goSrc
	dirPath := map[string]string{} // dir → import path
	byImport := map[string]string{}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(p, ".go") || !goBuilds(p) {
			continue
		}
		dir := path.Dir(p)
		if ok, err := ctxt.MatchFile(dir, path.Base(p)); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, files[p], parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		s := goSrc{path: p, dir: dir, test: strings.HasSuffix(p, "_test.go")}
		for _, imp := range f.Imports {
			if ip, err := strconv.Unquote(imp.Path.Value); err == nil {
				s.imports = append(s.imports, ip)
			}
		}
		srcs = append(srcs, s)
		if _, done := dirPath[dir]; !done {
			if ip := importPathOf(dir, modules); ip != "" {
				dirPath[dir] = ip
				byImport[ip] = dir
			}
		}
	}
	var out GoTestSupport
	importers := map[string][]goSrc{} // dir → files of other dirs importing it
	imports := map[string][]string{}  // dir → dirs its non-test files import
	hasTests := map[string]bool{}
	for _, s := range srcs {
		if s.test {
			hasTests[s.dir] = true
		}
		if !s.test && slices.Contains(s.imports, "testing") {
			out.ImportsTesting = append(out.ImportsTesting, s.path)
		}
		for _, ip := range s.imports {
			if dir, ok := byImport[ip]; ok && dir != s.dir {
				importers[dir] = append(importers[dir], s)
				if !s.test {
					imports[s.dir] = append(imports[s.dir], dir)
				}
			}
		}
	}
	dirs := slices.Sorted(maps.Keys(dirPath))
	prod := map[string]bool{}
	var queue []string
	for _, dir := range dirs {
		if len(importers[dir]) == 0 || hasTests[dir] {
			prod[dir] = true
			queue = append(queue, dir)
		}
	}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		for _, d := range imports[dir] {
			if !prod[d] {
				prod[d] = true
				queue = append(queue, d)
			}
		}
	}
	for _, dir := range dirs {
		if !prod[dir] {
			out.TestOnly = append(out.TestOnly, dir)
		}
	}
	slices.Sort(out.ImportsTesting)
	return out
}

// goBuilds reports whether the go command builds files in p's directory:
// not under testdata or vendor, nor under a directory whose name starts
// with "." or "_".
func goBuilds(p string) bool {
	for _, c := range strings.Split(path.Dir(p), "/") {
		if c == "testdata" || c == "vendor" || strings.HasPrefix(c, ".") && c != "." || strings.HasPrefix(c, "_") {
			return false
		}
	}
	return true
}

// importPathOf returns the import path of dir: the path of the module whose
// root is the nearest enclosing directory holding a go.mod, joined with
// dir below it; "" when no module encloses dir.
func importPathOf(dir string, modules map[string]string) string {
	for d := dir; ; d = path.Dir(d) {
		if mp, ok := modules[d]; ok {
			if d == dir {
				return mp
			}
			rel := strings.TrimPrefix(dir, d+"/")
			if d == "." {
				rel = dir
			}
			return mp + "/" + rel
		}
		if d == "." {
			return ""
		}
	}
}

// TestSupportFindings turns the graph into findings for the changed
// non-test Go files (changed: their paths, patch side): a file of a
// test-only package, or one that imports testing.
func (g GoTestSupport) TestSupportFindings(changed []string) []Finding {
	var out []Finding
	for _, p := range changed {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			continue
		}
		if _, ok := slices.BinarySearch(g.TestOnly, path.Dir(p)); ok {
			out = append(out, Finding{Rule: RuleTestSupport, File: p, What: fmt.Sprintf("package %s is imported only by test files (directly or through packages only tests import): it is test support", dirLabel(path.Dir(p)))})
		}
		if _, ok := slices.BinarySearch(g.ImportsTesting, p); ok {
			out = append(out, Finding{Rule: RuleTestSupport, File: p, What: "a non-test file that imports testing: it is test support"})
		}
	}
	return Sort(out)
}

func dirLabel(dir string) string {
	if dir == "." {
		return "."
	}
	return "./" + dir
}

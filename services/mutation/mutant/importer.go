package mutant

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"strings"
)

// sourceImporter type-checks imported packages from source, ignoring
// function bodies. It finds them with go/build from dir, so that in module
// mode `go list` resolves the imports of the module that holds dir (the
// standard library's source importer runs it in the process's working
// directory instead). Without dir, only packages of GOROOT resolve.
type sourceImporter struct {
	ctxt  build.Context
	fset  *token.FileSet
	sizes types.Sizes
	pkgs  map[string]*types.Package // by directory; nil while being imported
	// via imports the packages' own imports: the importer itself, or the
	// export data importer in front of it.
	via types.ImporterFrom
}

func newSourceImporter(fset *token.FileSet, sizes types.Sizes, dir string) *sourceImporter {
	ctxt := build.Default
	ctxt.GOROOT = hostGoRoot(ctxt.GOROOT)
	ctxt.Dir = dir
	// Dependencies are read as pure Go: their cgo files would need the cgo
	// tool, and the non-cgo variants declare the same API.
	ctxt.CgoEnabled = false
	imp := &sourceImporter{ctxt: ctxt, fset: fset, sizes: sizes, pkgs: make(map[string]*types.Package)}
	imp.via = imp
	return imp
}

// newImporter is the importer of a package analysis: export data for the
// packages x has it of, source for the others (x nil: source only).
func newImporter(fset *token.FileSet, sizes types.Sizes, dir string, x *Exports) types.ImporterFrom {
	src := newSourceImporter(fset, sizes, dir)
	if x == nil {
		return src
	}
	imp := &exportImporter{x: x, fset: fset, pkgs: map[string]*types.Package{}, next: src}
	src.via = imp
	return imp
}

// Import implements types.Importer.
func (imp *sourceImporter) Import(path string) (*types.Package, error) {
	return imp.ImportFrom(path, imp.ctxt.Dir, 0)
}

// ImportFrom implements types.ImporterFrom.
func (imp *sourceImporter) ImportFrom(path, srcDir string, _ types.ImportMode) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if imp.ctxt.Dir == "" && !imp.inGoroot(srcDir) && !imp.inGoroot(filepath.Join(imp.ctxt.GOROOT, "src", path)) {
		return nil, fmt.Errorf("cannot find %s without the package directory", path)
	}
	bp, err := imp.ctxt.Import(path, srcDir, 0)
	if err != nil {
		return nil, err
	}
	if pkg, seen := imp.pkgs[bp.Dir]; seen {
		if pkg == nil {
			return nil, fmt.Errorf("import cycle through %s", bp.ImportPath)
		}
		return pkg, nil
	}
	imp.pkgs[bp.Dir] = nil
	files := make([]*ast.File, 0, len(bp.GoFiles))
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(imp.fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: imp.via, Sizes: imp.sizes, IgnoreFuncBodies: true, FakeImportC: true}
	pkg, err := conf.Check(bp.ImportPath, imp.fset, files, nil)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", bp.ImportPath, err)
	}
	imp.pkgs[bp.Dir] = pkg
	return pkg, nil
}

func (imp *sourceImporter) inGoroot(dir string) bool {
	root := filepath.Join(imp.ctxt.GOROOT, "src") + string(filepath.Separator)
	return imp.ctxt.GOROOT != "" && strings.HasPrefix(filepath.Clean(dir)+string(filepath.Separator), root)
}

// hostGoRoot returns known, go/build's default GOROOT, when it is set, and
// otherwise the GOROOT of the go command the gate runs (`go env GOROOT`): a
// binary built with -trimpath — as releases and the container image are —
// knows no GOROOT of its own (runtime.GOROOT is empty), and without one no
// standard library package resolves, so every typed operator would be
// lost. "" when neither can be had.
func hostGoRoot(known string) string {
	if known != "" {
		return known
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

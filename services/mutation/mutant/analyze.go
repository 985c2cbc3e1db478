package mutant

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// analysis is a parsed package of buildable files, type-checked when that
// succeeded.
type analysis struct {
	dir     string
	fset    *token.FileSet
	names   []string // buildable file names, sorted
	files   map[string]*ast.File
	src     map[string][]byte
	all     map[string]bool // every file name of the package, buildable or not
	pkgName string

	// idents holds every identifier name used anywhere in the buildable
	// files; generated names must avoid them.
	idents map[string]bool
	// declared holds every name the package declares anywhere (at any
	// scope); without type information a predeclared name counts as
	// shadowed when it is declared.
	declared map[string]bool

	// imported holds every import path of the buildable files.
	imported map[string]bool
	// tests are the package directory's test files, nil when not given.
	tests map[string][]byte
	// restores are the package's (see Restore).
	restores []Restore

	imp     types.Importer
	sizes   types.Sizes
	numeric *types.Interface             // the types arithmetic applies to
	integer *types.Interface             // the integer types
	float   *types.Interface             // the floating-point types
	ordered *types.Interface             // the types < applies to
	pkg     *types.Package               // nil when the package did not type-check
	info    *types.Info                  // nil when the package did not type-check
	uses    map[types.Object][]token.Pos // see readUses
	updates map[token.Pos]bool           // see readUses
}

// typed reports whether type information is available.
func (a *analysis) typed() bool { return a.info != nil }

func validate(pkg Package) error {
	for name := range pkg.Files {
		if name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || !strings.HasSuffix(name, ".go") {
			return fmt.Errorf("mutant: file %q is not the base name of a .go file", name)
		}
		if strings.HasSuffix(name, "_test.go") {
			return fmt.Errorf("mutant: file %q is a test file", name)
		}
	}
	for name := range pkg.Tests {
		if name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || !strings.HasSuffix(name, "_test.go") {
			return fmt.Errorf("mutant: test file %q is not the base name of a _test.go file", name)
		}
	}
	return nil
}

// buildable splits the package's files into those the host build compiles
// and those it leaves out, both sorted.
func buildable(pkg Package) (in, out []string, err error) {
	ctxt := build.Default
	ctxt.OpenFile = func(path string) (io.ReadCloser, error) {
		b, ok := pkg.Files[filepath.Base(path)]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
	dir := pkg.Dir
	if dir == "" {
		dir = "."
	}
	names := make([]string, 0, len(pkg.Files))
	for name := range pkg.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		ok, err := ctxt.MatchFile(dir, name)
		if err != nil {
			return nil, nil, fmt.Errorf("mutant: %s: %w", name, err)
		}
		if ok {
			in = append(in, name)
		} else {
			out = append(out, name)
		}
	}
	return in, out, nil
}

// analyze parses the buildable files of pkg and type-checks them.
func analyze(pkg Package) (*analysis, error) {
	if err := validate(pkg); err != nil {
		return nil, err
	}
	in, _, err := buildable(pkg)
	if err != nil {
		return nil, err
	}
	a := &analysis{
		dir:      pkg.Dir,
		fset:     token.NewFileSet(),
		names:    in,
		files:    make(map[string]*ast.File, len(in)),
		src:      make(map[string][]byte, len(in)),
		all:      make(map[string]bool, len(pkg.Files)),
		idents:   make(map[string]bool),
		declared: make(map[string]bool),
		imported: make(map[string]bool),
		tests:    pkg.Tests,
		restores: pkg.Restores,
	}
	for name := range pkg.Files {
		a.all[name] = true
	}
	for _, name := range in {
		src := pkg.Files[name]
		f, err := parser.ParseFile(a.fset, a.path(name), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("mutant: %w", err)
		}
		if a.pkgName == "" {
			a.pkgName = f.Name.Name
		} else if f.Name.Name != a.pkgName {
			return nil, fmt.Errorf("mutant: %s: package %s, but %s is package %s", name, f.Name.Name, in[0], a.pkgName)
		}
		a.files[name] = f
		a.src[name] = src
		collectNames(f, a.idents, a.declared)
		for _, spec := range f.Imports {
			if p, err := strconv.Unquote(spec.Path.Value); err == nil {
				a.imported[p] = true
			}
		}
	}
	// The test files' names are avoided by the generated identifiers.
	for name, src := range pkg.Tests {
		if f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution); err == nil {
			collectNames(f, a.idents, make(map[string]bool))
		}
	}
	a.numeric = constraint(numericKinds())
	a.integer = constraint([]types.BasicKind{
		types.Int, types.Int8, types.Int16, types.Int32, types.Int64,
		types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64, types.Uintptr,
	})
	a.float = constraint([]types.BasicKind{types.Float32, types.Float64})
	a.ordered = constraint(append(slices.Clone(numericKinds()[:13]), types.String))
	a.sizes = types.SizesFor("gc", build.Default.GOARCH)
	if a.sizes == nil {
		a.sizes = types.SizesFor("gc", "amd64")
	}
	a.imp = newImporter(a.fset, a.sizes, pkg.Dir, pkg.Exports)
	a.typeCheck()
	if !a.typed() && pkg.Exports != nil {
		// Never fewer typed operators for the export data: what does not
		// type-check with it is type-checked from source, as without it.
		a.imp = newImporter(a.fset, a.sizes, pkg.Dir, nil)
		a.typeCheck()
	}
	return a, nil
}

// path is the file name the file set records: absolute when the package
// directory is known, so that the type checker resolves imports from there.
func (a *analysis) path(name string) string {
	if a.dir == "" {
		return name
	}
	return filepath.Join(a.dir, name)
}

func (a *analysis) newConfig() *types.Config {
	return &types.Config{
		Importer:    a.imp,
		FakeImportC: true,
		Sizes:       a.sizes,
	}
}

// typeCheck fills a.pkg and a.info, or leaves them nil when the package does
// not type-check: partial information is not trusted.
func (a *analysis) typeCheck() {
	if len(a.names) == 0 {
		return
	}
	files := make([]*ast.File, len(a.names))
	for i, name := range a.names {
		files[i] = a.files[name]
	}
	info := &types.Info{
		Types:     make(map[ast.Expr]types.TypeAndValue),
		Defs:      make(map[*ast.Ident]types.Object),
		Uses:      make(map[*ast.Ident]types.Object),
		Implicits: make(map[ast.Node]types.Object),
		Scopes:    make(map[ast.Node]*types.Scope),
		Instances: make(map[*ast.Ident]types.Instance),
	}
	pkg, err := a.newConfig().Check(a.pkgName, a.fset, files, info)
	if err != nil {
		return
	}
	a.pkg, a.info = pkg, info
}

// numericKinds are the basic types arithmetic applies to (with ~): the
// ordered ones first.
func numericKinds() []types.BasicKind {
	return []types.BasicKind{
		types.Int, types.Int8, types.Int16, types.Int32, types.Int64,
		types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64, types.Uintptr,
		types.Float32, types.Float64, types.Complex64, types.Complex128,
	}
}

// constraint is the interface of the given basic types and those whose
// underlying type they are, for types.Satisfies.
func constraint(kinds []types.BasicKind) *types.Interface {
	var terms []*types.Term
	for _, k := range kinds {
		terms = append(terms, types.NewTerm(true, types.Typ[k]))
	}
	iface := types.NewInterfaceType(nil, []types.Type{types.NewUnion(terms)})
	return iface.Complete()
}

// collectNames records every identifier of f in idents and every name f
// declares, at any scope and as anything (fields, methods and labels
// included), in declared.
func collectNames(f ast.Node, idents, declared map[string]bool) {
	declare := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil {
				declared[id.Name] = true
			}
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, fd := range fl.List {
			declare(fd.Names...)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			idents[n.Name] = true
		case *ast.ImportSpec:
			declare(n.Name)
		case *ast.ValueSpec:
			declare(n.Names...)
		case *ast.TypeSpec:
			declare(n.Name)
			fields(n.TypeParams)
		case *ast.FuncDecl:
			declare(n.Name)
			fields(n.Recv)
		case *ast.StructType:
			fields(n.Fields)
		case *ast.InterfaceType:
			fields(n.Methods)
		case *ast.LabeledStmt:
			declare(n.Label)
		case *ast.FuncType:
			fields(n.TypeParams)
			fields(n.Params)
			fields(n.Results)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						declare(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						declare(id)
					}
				}
			}
		case *ast.TypeSwitchStmt:
			if as, ok := n.Assign.(*ast.AssignStmt); ok {
				for _, e := range as.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						declare(id)
					}
				}
			}
		}
		return true
	})
}

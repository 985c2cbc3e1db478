package mutant

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// The schemata must compile under every language version the toolchain
// accepts, so the generated code has no type parameters: a rewrite that
// must keep its operands' type names the type, with go/types. A type is
// named either at package scope, in a helper function of the switch file
// (which imports what it needs), or at the site itself, in a function
// literal (type parameters, types declared in a function). A type that can
// be named in neither place gives no site.

// importSet is the imports the switch file adds for the types its helpers
// name: path → local name, in the order first asked.
type importSet struct {
	names  names
	byPath map[string]string
	order  []string
}

func newImportSet(n names) *importSet {
	return &importSet{names: n, byPath: make(map[string]string)}
}

func (s *importSet) name(path string) string {
	if n, ok := s.byPath[path]; ok {
		return n
	}
	n := s.names.id("I" + strconv.Itoa(len(s.order)+1))
	s.byPath[path] = n
	s.order = append(s.order, path)
	return n
}

// importable reports whether the switch file may import path: a path a
// file of the package imports, or one with no internal or vendor element
// (whose importability cannot be judged without the package's own path).
func (a *analysis) importable(path string) bool {
	if path == "" || path == "C" || path == "main" {
		return false
	}
	if a.imported[path] {
		return true
	}
	for _, el := range strings.Split(path, "/") {
		if el == "internal" || el == "vendor" || el == "testdata" {
			return false
		}
	}
	return true
}

// pkgType renders t as a type expression valid at the switch file's package
// scope, adding the imports it needs to imps; false when it cannot.
func (a *analysis) pkgType(t types.Type, imps *importSet) (string, bool) {
	switch t := t.(type) {
	case *types.Alias:
		return a.pkgType(types.Unalias(t), imps)
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 || t.Kind() == types.Invalid || a.pkg.Scope().Lookup(t.Name()) != nil {
			return "", false
		}
		if types.Universe.Lookup(t.Name()) == nil {
			return "", false // unsafe.Pointer and the like
		}
		return t.Name(), true
	case *types.Named:
		obj := t.Obj()
		var name string
		switch {
		case obj.Pkg() == nil:
			if a.pkg.Scope().Lookup(obj.Name()) != nil || types.Universe.Lookup(obj.Name()) != obj {
				return "", false
			}
			name = obj.Name()
		case obj.Pkg() == a.pkg:
			if obj.Parent() != a.pkg.Scope() {
				return "", false // declared in a function
			}
			name = obj.Name()
		default:
			if !obj.Exported() || !a.importable(obj.Pkg().Path()) {
				return "", false
			}
			name = imps.name(obj.Pkg().Path()) + "." + obj.Name()
		}
		args, ok := a.typeArgs(t.TypeArgs(), func(x types.Type) (string, bool) { return a.pkgType(x, imps) })
		return name + args, ok
	}
	return a.compositeType(t, func(x types.Type) (string, bool) { return a.pkgType(x, imps) })
}

// siteType renders t as a type expression valid at pos, in the scopes of
// the file there, without adding imports; false when it cannot.
func (a *analysis) siteType(t types.Type, pos token.Pos) (string, bool) {
	scope := a.pkg.Scope().Innermost(pos)
	if scope == nil {
		return "", false
	}
	resolves := func(name string, obj types.Object) bool {
		_, found := scope.LookupParent(name, pos)
		return found == obj
	}
	switch t := t.(type) {
	case *types.Alias:
		return a.siteType(types.Unalias(t), pos)
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 || !resolves(t.Name(), types.Universe.Lookup(t.Name())) || types.Universe.Lookup(t.Name()) == nil {
			return "", false
		}
		return t.Name(), true
	case *types.TypeParam:
		if !resolves(t.Obj().Name(), t.Obj()) {
			return "", false
		}
		return t.Obj().Name(), true
	case *types.Named:
		obj := t.Obj()
		var name string
		if obj.Pkg() == nil || obj.Pkg() == a.pkg {
			if !resolves(obj.Name(), obj) {
				return "", false
			}
			name = obj.Name()
		} else {
			if !obj.Exported() {
				return "", false
			}
			pn := a.importName(pos, obj.Pkg())
			if pn == "" {
				return "", false
			}
			name = pn + "." + obj.Name()
		}
		args, ok := a.typeArgs(t.TypeArgs(), func(x types.Type) (string, bool) { return a.siteType(x, pos) })
		return name + args, ok
	}
	return a.compositeType(t, func(x types.Type) (string, bool) { return a.siteType(x, pos) })
}

// chanType renders the channel type t as a type expression valid at pos,
// like siteType: a named one by its name, chan T, chan<- T and <-chan T
// of an element siteType renders or struct{} (a channel of channels is
// left alone).
func (a *analysis) chanType(t types.Type, pos token.Pos) (string, bool) {
	if _, named := types.Unalias(t).(*types.Named); named {
		return a.siteType(t, pos)
	}
	c, ok := types.Unalias(t).(*types.Chan)
	if !ok {
		return "", false
	}
	var elem string
	switch e := types.Unalias(c.Elem()).(type) {
	case *types.Chan:
		return "", false
	case *types.Struct:
		if e.NumFields() != 0 {
			return "", false
		}
		elem = "struct{}"
	default:
		if elem, ok = a.siteType(e, pos); !ok {
			return "", false
		}
	}
	switch c.Dir() {
	case types.SendOnly:
		return "chan<- " + elem, true
	case types.RecvOnly:
		return "<-chan " + elem, true
	}
	return "chan " + elem, true
}

// importName returns the name under which the file holding pos imports
// pkg, when that name resolves to the import at pos; "" otherwise.
func (a *analysis) importName(pos token.Pos, pkg *types.Package) string {
	scope := a.pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	var names []string
	for _, file := range a.files {
		if file.FileStart <= pos && pos <= file.FileEnd {
			for _, spec := range file.Imports {
				var obj types.Object
				if spec.Name != nil {
					obj = a.info.Defs[spec.Name]
				} else {
					obj = a.info.Implicits[spec]
				}
				pn, ok := obj.(*types.PkgName)
				if !ok || pn.Imported() != pkg {
					continue
				}
				if _, found := scope.LookupParent(pn.Name(), pos); found == pn {
					names = append(names, pn.Name())
				}
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return names[0]
}

func (a *analysis) typeArgs(list *types.TypeList, name func(types.Type) (string, bool)) (string, bool) {
	if list.Len() == 0 {
		return "", true
	}
	parts := make([]string, list.Len())
	for i := range list.Len() {
		s, ok := name(list.At(i))
		if !ok {
			return "", false
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

// compositeType renders pointers, slices, arrays and maps of types name
// renders.
func (a *analysis) compositeType(t types.Type, name func(types.Type) (string, bool)) (string, bool) {
	switch t := t.(type) {
	case *types.Pointer:
		e, ok := name(t.Elem())
		return "*" + e, ok
	case *types.Slice:
		e, ok := name(t.Elem())
		return "[]" + e, ok
	case *types.Array:
		e, ok := name(t.Elem())
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + e, ok
	case *types.Map:
		k, ok := name(t.Key())
		if !ok {
			return "", false
		}
		v, ok := name(t.Elem())
		return "map[" + k + "]" + v, ok
	}
	return "", false
}

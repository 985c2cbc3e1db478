package inspect

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// A function's signature is no statement to coverage and no mutant
// switches it, yet changing one changes what its unchanged body and its
// unchanged callers do: two parameters of one type swapped
// (join(prefix, name) → join(name, prefix)) swap every call's arguments;
// a pointer receiver made a value one loses every write the method makes;
// a named result narrowed wraps what the body returns. The same holds for
// the type a package-level variable or constant declares. Such a change is
// code the gate cannot judge.

// funcSig is what a package's declaration of one function or method says
// of its signature.
type funcSig struct {
	file, name      string
	line            int
	recv, tparams   string
	params, results []string // "name type" per parameter, in order
	// The same, with any written interface{} where the package declares
	// no any of its own: what the comparison reads.
	sameRecv, sameTparams   string
	sameParams, sameResults []string
}

// declType is the type a package-level variable or constant declares.
type declType struct {
	file, kind string
	line       int
	typ        string
	literal    bool   // typ is a literal's or a conversion's, not written
	same       string // typ with any written interface{} (see funcSig)
}

// goSignatures returns the functions and methods the files declare, by
// name (a method's by its receiver's base type and its name: T.M), and
// the declared types of package-level variables and constants, by name.
// init functions and blank names, which a package may declare many times,
// are left out, as are files that do not parse: other analyses name them.
func goSignatures(files map[string][]byte) (map[string]funcSig, map[string]declType) {
	funcs, decls := map[string]funcSig{}, map[string]declType{}
	parsed := map[string]*goFile{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		if g, err := parseGo(file, files[file]); err == nil {
			parsed[file] = g
		}
	}
	// any is interface{} unless the package declares a name any of its
	// own: a signature that only spells one as the other changes nothing.
	same := anyAsInterface
	for _, g := range parsed {
		if declaresAny(g.f) {
			same = types.ExprString
		}
	}
	fieldList := func(fl *ast.FieldList) []string { return fieldListOf(fl, types.ExprString) }
	fieldsString := func(fl *ast.FieldList) string { return strings.Join(fieldList(fl), ", ") }
	sameFields := func(fl *ast.FieldList) []string { return fieldListOf(fl, same) }
	for _, file := range slices.Sorted(maps.Keys(parsed)) {
		g := parsed[file]
		for _, d := range g.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == "init" || d.Name.Name == "_" {
					continue
				}
				s := funcSig{file: file, name: d.Name.Name, line: g.line(d.Pos())}
				if d.Recv != nil && len(d.Recv.List) == 1 {
					s.recv = types.ExprString(d.Recv.List[0].Type)
					s.sameRecv = same(d.Recv.List[0].Type)
					s.name = recvBase(d.Recv.List[0].Type) + "." + d.Name.Name
				}
				s.tparams = fieldsString(d.Type.TypeParams)
				s.params = fieldList(d.Type.Params)
				s.results = fieldList(d.Type.Results)
				s.sameTparams = strings.Join(sameFields(d.Type.TypeParams), ", ")
				s.sameParams, s.sameResults = sameFields(d.Type.Params), sameFields(d.Type.Results)
				funcs[s.name] = s
			case *ast.GenDecl:
				if d.Tok != token.VAR && d.Tok != token.CONST {
					continue
				}
				for _, sp := range d.Specs {
					// A spec without a type takes its value's: var n int8
					// = 5 → var n = 5 widens n as surely as a type
					// written. Only a literal's type is known without
					// type-checking; another value's type is not compared.
					// A value whose type is not known this way is kept
					// as "the type of" its text: a literal on the other
					// side (var unit = time.Second → var unit =
					// 1000000000) may change the type, which fmt prints
					// and every unchanged use sees.
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						typ, literal, sameTyp := "", false, ""
						switch {
						case vs.Type != nil:
							typ, sameTyp = types.ExprString(vs.Type), same(vs.Type)
						case i < len(vs.Values):
							if typ = literalType(vs.Values[i]); typ == "" {
								typ = unknownType + types.ExprString(vs.Values[i])
							} else {
								literal = true
							}
						}
						if n.Name != "_" && typ != "" {
							decls[n.Name] = declType{file: file, kind: map[token.Token]string{token.VAR: "variable", token.CONST: "constant"}[d.Tok],
								line: g.line(n.Pos()), typ: typ, literal: literal, same: cmp.Or(sameTyp, typ)}
						}
					}
				}
			}
		}
	}
	return funcs, decls
}

// comparable reports whether two declared types say something of each
// other: both known, or one unknown and the other a literal's (var unit =
// time.Second → var unit = 1000000000). A type written out beside an
// unknown one (var next = f() → var next bool = f()) compiles only if it
// is f's, and two unknown ones are not compared.
func comparable(b, p declType) bool {
	bu, pu := strings.HasPrefix(b.typ, unknownType), strings.HasPrefix(p.typ, unknownType)
	switch {
	case bu && pu:
		return false
	case bu:
		return p.literal
	case pu:
		return b.literal
	}
	return true
}

// unknownType prefixes the declared type of a value whose type is not
// known without type-checking: two such are not compared.
const unknownType = "the type of "

// literalType is the type a variable or constant declared without a type
// takes from the literal e (int of 5, float64 of 1.5, rune of 'a') or
// from a conversion of it to a predeclared type (int8 of int8(60)), ""
// when e is neither.
func literalType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			if x.Op == token.SUB || x.Op == token.ADD {
				e = x.X
				continue
			}
		case *ast.BasicLit:
			return map[token.Token]string{token.INT: "int", token.FLOAT: "float64", token.IMAG: "complex128", token.CHAR: "rune", token.STRING: "string"}[x.Kind]
		case *ast.Ident:
			if x.Name == "true" || x.Name == "false" {
				return "bool"
			}
		case *ast.CallExpr:
			// A conversion to a predeclared type: int8(60).
			if id, ok := x.Fun.(*ast.Ident); ok && len(x.Args) == 1 {
				if o := types.Universe.Lookup(id.Name); o != nil {
					if _, isType := o.(*types.TypeName); isType {
						return id.Name
					}
				}
			}
		}
		return ""
	}
}

// recvBase is the name of a receiver's base type: T of *T, T[K] and
// *T[K].
func recvBase(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		default:
			return types.ExprString(e)
		}
	}
}

// fieldListOf lists a parameter or result list as "name type" per entry,
// "type" for one without a name, each type as typeString writes it.
func fieldListOf(fl *ast.FieldList, typeString func(ast.Expr) string) []string {
	if fl == nil {
		return nil
	}
	var out []string
	for _, f := range fl.List {
		typ := typeString(f.Type)
		if len(f.Names) == 0 {
			out = append(out, typ)
		}
		for _, n := range f.Names {
			out = append(out, n.Name+" "+typ)
		}
	}
	return out
}

// anyAsInterface writes a type expression with every name any spelled
// interface{}, the type the predeclared alias stands for (the caller
// knows the package declares no any of its own). It reads a copy: the
// expression, printed and parsed again.
func anyAsInterface(e ast.Expr) string {
	if el, ok := e.(*ast.Ellipsis); ok && el.Elt != nil {
		return "..." + anyAsInterface(el.Elt)
	}
	text := types.ExprString(e)
	x, err := parser.ParseExpr(text)
	if err != nil {
		return text
	}
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false // pkg.any names something else
		case *ast.Field:
			// A struct field's or a method's name is no type.
			ast.Inspect(n.Type, func(m ast.Node) bool {
				if _, ok := m.(*ast.SelectorExpr); ok {
					return false
				}
				if id, ok := m.(*ast.Ident); ok && id.Name == "any" {
					id.Name = "interface{}"
				}
				return true
			})
			return false
		case *ast.Ident:
			if n.Name == "any" {
				n.Name = "interface{}"
			}
		}
		return true
	})
	return types.ExprString(x)
}

// declaresAny reports whether f declares a package-level name any, or a
// type parameter of that name, which shadows the predeclared alias.
func declaresAny(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if n.Name.Name == "any" {
				found = true
			}
			if n.TypeParams != nil {
				for _, p := range n.TypeParams.List {
					for _, id := range p.Names {
						found = found || id.Name == "any"
					}
				}
			}
		case *ast.FuncType:
			if n.TypeParams != nil {
				for _, p := range n.TypeParams.List {
					for _, id := range p.Names {
						found = found || id.Name == "any"
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				found = found || id.Name == "any"
			}
		case *ast.FuncDecl:
			found = found || n.Recv == nil && n.Name.Name == "any"
			// A receiver's type parameters: func (s Set[any]) Has(x any).
			if n.Recv != nil {
				for _, f := range n.Recv.List {
					t := f.Type
					if st, ok := t.(*ast.StarExpr); ok {
						t = st.X
					}
					var params []ast.Expr
					switch x := t.(type) {
					case *ast.IndexExpr:
						params = []ast.Expr{x.Index}
					case *ast.IndexListExpr:
						params = x.Indices
					}
					for _, p := range params {
						if id, ok := p.(*ast.Ident); ok && id.Name == "any" {
							found = true
						}
					}
				}
			}
		}
		return !found
	})
	return found
}

// appended reports whether after is before with entries added at its
// end, before's last not variadic: parameters or results added change no
// existing call's meaning (every caller changes with them, and is
// measured).
func appended(before, after []string) bool {
	if len(after) <= len(before) || !slices.Equal(before, after[:len(before)]) {
		return false
	}
	return len(before) == 0 || !strings.Contains(before[len(before)-1], "...")
}

// GoSignatureChanges compares the function and method declarations of
// one package directory's non-test Go files on both sides (base and
// patched: file path → content). A function or method both sides declare
// whose receiver's type, type parameters, parameters (their names, types
// and order) or results changed, other than by entries added at the end,
// is a finding of RuleForeignCode at the patch's line; so is a
// package-level variable or constant both sides declare with another
// declared type. Functions added or removed are not findings: new code is
// measured, and a removed one breaks the build of what calls it. A
// receiver renamed is none either: the body that uses it changed with it.
func GoSignatureChanges(base, patched map[string][]byte) []Finding {
	bf, bd := goSignatures(base)
	pf, pd := goSignatures(patched)
	var out []Finding
	add := func(file string, line int, what string) {
		out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: line,
			What: what + ": a signature is no statement to coverage and no mutant switches it, yet the unchanged code that uses it does what it says"})
	}
	list := func(xs []string) string { return "(" + strings.Join(xs, ", ") + ")" }
	for _, name := range slices.Sorted(maps.Keys(pf)) {
		b, ok := bf[name]
		if !ok {
			continue
		}
		p := pf[name]
		// Compared as the package reads them: any spelled interface{}, or
		// the other way round, is the same type; printed as written.
		if b.sameRecv != p.sameRecv {
			add(p.file, p.line, fmt.Sprintf("changes the receiver of %s from %s to %s", name, b.recv, p.recv))
		}
		if b.sameTparams != p.sameTparams {
			add(p.file, p.line, fmt.Sprintf("changes the type parameters of %s from [%s] to [%s]", name, b.tparams, p.tparams))
		}
		if !slices.Equal(b.sameParams, p.sameParams) && !appended(b.sameParams, p.sameParams) {
			add(p.file, p.line, fmt.Sprintf("changes the parameters of %s from %s to %s", name, list(b.params), list(p.params)))
		}
		if !slices.Equal(b.sameResults, p.sameResults) && !appended(b.sameResults, p.sameResults) {
			add(p.file, p.line, fmt.Sprintf("changes the results of %s from %s to %s", name, list(b.results), list(p.results)))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(pd)) {
		if b, ok := bd[name]; ok && b.same != pd[name].same && comparable(b, pd[name]) {
			p := pd[name]
			add(p.file, p.line, fmt.Sprintf("changes the declared type of %s %s from %s to %s", p.kind, name, b.typ, p.typ))
		}
	}
	slices.SortStableFunc(out, Compare)
	return out
}

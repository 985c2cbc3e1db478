package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A type declaration is no statement to coverage and no mutant can switch
// it, yet changing one changes what existing code does: Count narrowed
// from int64 to int8 makes a counter wrap at 128, a struct tag renamed
// changes what encoding/json writes, an embedded type swapped changes
// which methods a value has. Such a change is code the gate cannot judge.

// typeDecl is what a package's declaration of one named type says.
type typeDecl struct {
	file   string
	line   int
	params string // the type parameters, as written
	alias  bool
	under  string // the type expression when not a struct
	fields map[string]fieldDecl
	embeds map[string]int // embedded type → line
}

// fieldDecl is one named field of a struct type.
type fieldDecl struct {
	typ, tag string
	line     int
	index    int // its place among the struct's fields
}

// typeDecls returns the package-level named types the files declare, by
// name. Files that do not parse are left out: other analyses name them.
func typeDecls(files map[string][]byte) map[string]typeDecl {
	out := map[string]typeDecl{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g, err := parseGo(file, files[file])
		if err != nil {
			continue
		}
		for _, d := range g.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				td := typeDecl{file: file, line: g.line(ts.Pos()), alias: ts.Assign.IsValid()}
				if ts.TypeParams != nil {
					for _, f := range ts.TypeParams.List {
						for _, n := range f.Names {
							td.params += n.Name + " "
						}
						td.params += types.ExprString(f.Type) + ";"
					}
				}
				if st, ok := ts.Type.(*ast.StructType); ok && !td.alias {
					td.fields, td.embeds = structFields(g, st)
				} else if it, ok := ts.Type.(*ast.InterfaceType); !ok || td.alias {
					td.under = types.ExprString(ts.Type)
				} else {
					// Its methods and embedded types, in any order: a
					// method added or removed changes which values a type
					// assertion or a type switch to it matches.
					var elems []string
					for _, m := range it.Methods.List {
						sig := types.ExprString(m.Type)
						if len(m.Names) == 0 {
							elems = append(elems, sig)
						}
						for _, n := range m.Names {
							elems = append(elems, n.Name+strings.TrimPrefix(sig, "func"))
						}
					}
					slices.Sort(elems)
					td.under = "interface{" + strings.Join(elems, "; ") + "}"
				}
				out[ts.Name.Name] = td
			}
		}
		// The struct types a package-level variable spells out (rows of
		// a table: []struct{Tier string `json:"tier"`}{...}) are types
		// too, keyed by the variable and their order in its spec.
		for _, d := range g.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) == 0 {
					continue
				}
				k := 0
				ast.Inspect(vs, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false // a function's own types are its code's
					case *ast.StructType:
						td := typeDecl{file: file, line: g.line(n.Pos())}
						td.fields, td.embeds = structFields(g, n)
						key := "var " + vs.Names[0].Name
						if k > 0 {
							key += fmt.Sprintf("#%d", k)
						}
						k++
						out[key] = td
					}
					return true
				})
			}
		}
	}
	return out
}

// structFields lists a struct type's named fields and embedded types.
func structFields(g *goFile, st *ast.StructType) (map[string]fieldDecl, map[string]int) {
	fields, embeds := map[string]fieldDecl{}, map[string]int{}
	index := 0
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			if v, err := strconv.Unquote(f.Tag.Value); err == nil {
				tag = v
			} else {
				tag = f.Tag.Value
			}
		}
		if len(f.Names) == 0 {
			key := types.ExprString(f.Type)
			if tag != "" {
				key += " " + strconv.Quote(tag)
			}
			embeds[key] = g.line(f.Pos())
			index++
			continue
		}
		for _, n := range f.Names {
			fields[n.Name] = fieldDecl{typ: types.ExprString(f.Type), tag: tag, line: g.line(n.Pos()), index: index}
			index++
		}
	}
	return fields, embeds
}

// GoTypeChanges also reports what changes values without a line that
// spells them out: a constant of an iota group whose place in it moved
// (members swapped, one inserted before it), or whose repeated expression
// changed; and it compares the struct types package-level variables spell
// out (the rows of a table) as it compares named ones.
//
// GoTypeChanges compares the package-level type declarations of one
// package directory's non-test Go files on both sides (base and patched:
// file path → content): a named type both sides declare whose
// definition changed — its underlying type, its type parameters, a field
// both sides have with another type or tag, an embedded type added or
// removed, an interface's methods added or removed — is a finding of
// RuleForeignCode at the patch's line: code the gate neither measures nor
// mutates (a type assertion to an interface that gained a method stops
// matching, with no line of it changed). A field the patch adds and a type
// it adds or removes are not: new fields and types are used by new code,
// which is measured.
func GoTypeChanges(base, patched map[string][]byte) []Finding {
	before, after := typeDecls(base), typeDecls(patched)
	var out []Finding
	add := func(file string, line int, what string) {
		out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: line,
			What: what + ": a type declaration is no statement to coverage and no mutant switches it, yet existing code does what it says"})
	}
	for _, name := range slices.Sorted(maps.Keys(after)) {
		b, ok := before[name]
		if !ok {
			continue
		}
		p := after[name]
		switch {
		case b.alias != p.alias || b.params != p.params || (b.fields == nil) != (p.fields == nil):
			add(p.file, p.line, fmt.Sprintf("changes the declaration of type %s", name))
			continue
		case p.fields == nil:
			if b.under != p.under {
				add(p.file, p.line, fmt.Sprintf("changes type %s from %s to %s", name, b.under, p.under))
			}
			continue
		}
		field, typ := func(f string) string { return name + "." + f }, "type "+name
		if strings.HasPrefix(name, "var ") {
			// The struct type a variable spells out.
			field = func(f string) string { return f + " of the struct type of " + name }
			typ = "the struct type of " + name
		}
		for _, f := range slices.Sorted(maps.Keys(p.fields)) {
			bf, ok := b.fields[f]
			pf := p.fields[f]
			switch {
			case !ok:
			case bf.typ != pf.typ:
				add(p.file, pf.line, fmt.Sprintf("changes field %s from %s to %s", field(f), bf.typ, pf.typ))
			case bf.tag != pf.tag:
				add(p.file, pf.line, fmt.Sprintf("changes the tag of field %s from %s to %s", field(f), strconv.Quote(bf.tag), strconv.Quote(pf.tag)))
			}
		}
		// The fields both sides have, in their order on each: a swap
		// changes what every positional row ({"a.com", 60, 100, 3})
		// means without a line of the rows changing.
		var common []string
		for f := range p.fields {
			if _, ok := b.fields[f]; ok {
				common = append(common, f)
			}
		}
		inOrder := func(fields map[string]fieldDecl) []string {
			out := slices.Clone(common)
			slices.SortFunc(out, func(x, y string) int { return fields[x].index - fields[y].index })
			return out
		}
		if was, is := inOrder(b.fields), inOrder(p.fields); !slices.Equal(was, is) {
			add(p.file, p.line, fmt.Sprintf("reorders the fields of %s from %s to %s, which changes what its positional values mean", typ, strings.Join(was, ", "), strings.Join(is, ", ")))
		}
		for _, e := range slices.Sorted(maps.Keys(p.embeds)) {
			if _, ok := b.embeds[e]; !ok {
				add(p.file, p.embeds[e], fmt.Sprintf("embeds %s in %s, which changes its methods and fields", e, typ))
			}
		}
		for _, e := range slices.Sorted(maps.Keys(b.embeds)) {
			if _, ok := p.embeds[e]; !ok {
				add(p.file, p.line, fmt.Sprintf("no longer embeds %s in %s, which changes its methods and fields", e, typ))
			}
		}
	}
	// A constant whose value its line does not show: a member of an iota
	// group moved, inserted before it or removed, or the expression it
	// repeats changed. Its line holds no statement and no data mutant
	// can switch a value it does not spell out.
	cb, cp := constDecls(base), constDecls(patched)
	for _, name := range slices.Sorted(maps.Keys(cp)) {
		b, ok := cb[name]
		p := cp[name]
		if !ok || p.explicit && !p.iota {
			continue // new, or spelled out on its own line (data)
		}
		switch {
		case b.expr != p.expr:
			out = append(out, Finding{Rule: RuleForeignCode, File: p.file, Line: p.line,
				What: fmt.Sprintf("changes the value of constant %s, which repeats %s instead of %s: a constant's line that does not spell out its value is no statement to coverage and no mutant switches it", name, p.expr, b.expr)})
		case p.iota && b.index != p.index:
			out = append(out, Finding{Rule: RuleForeignCode, File: p.file, Line: p.line,
				What: fmt.Sprintf("changes the value of constant %s, whose place in its iota group moves from %d to %d: a constant's line that does not spell out its value is no statement to coverage and no mutant switches it", name, b.index, p.index)})
		}
	}
	return Sort(out)
}

// constDecl is what a package-level constant's declaration says of its
// value: the expression it has or repeats (with its type), its place in
// its group (iota), whether that expression uses iota, and whether its own
// spec spells the expression out.
type constDecl struct {
	file     string
	line     int
	expr     string
	index    int
	iota     bool
	explicit bool
}

// constDecls returns the package-level constants the files declare, by
// name. Files that do not parse are left out.
func constDecls(files map[string][]byte) map[string]constDecl {
	out := map[string]constDecl{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		g, err := parseGo(file, files[file])
		if err != nil {
			continue
		}
		for _, d := range g.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			var values []ast.Expr
			var typ ast.Expr
			for i, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				explicit := len(vs.Values) > 0
				if explicit {
					values, typ = vs.Values, vs.Type
				}
				for j, n := range vs.Names {
					if n.Name == "_" || j >= len(values) {
						continue
					}
					expr := types.ExprString(values[j])
					if typ != nil {
						expr = types.ExprString(typ) + "(" + expr + ")"
					}
					usesIota := false
					ast.Inspect(values[j], func(x ast.Node) bool {
						if id, ok := x.(*ast.Ident); ok && id.Name == "iota" {
							usesIota = true
						}
						return !usesIota
					})
					out[n.Name] = constDecl{file: file, line: g.line(n.Pos()), expr: expr, index: i, iota: usesIota, explicit: explicit}
				}
			}
		}
	}
	return out
}

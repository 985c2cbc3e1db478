package splice

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/inspect"
)

// A test that runs a testify suite (suite.Run(t, new(S))) runs the
// methods of S named Test… as its subtests: a fix whose test adds a case to
// such a method edits the test that runs the suite, though that test's own
// text is unchanged. The patch's version of that test runs the patch's
// methods through a wrapper, laid beside the baseline's type:
//
//	type sealgatePatch_S struct{ S }
//
// with the patch's methods of S in this file declared on the wrapper. A
// method declared on the wrapper shadows the one S has; the methods S
// declares in the package's other files are promoted through the
// embedding, so the wrapper runs what the patch's S would, and the
// baseline's S, which the file's other tests use, is left as it is.

// suiteEdited reports whether the patch edits the methods of the suite
// type typ in this file: a method the baseline's version declares that the
// patch's changes or deletes, or one of the patch's that uses, directly or
// through other declarations of the file, a declaration the patch changes
// (the table of cases it ranges over). A method the patch only adds edits
// nothing: the baseline's tests do not run it.
func suiteEdited(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, typ string) bool {
	bm, pm := methodsOf(fset, bf, base, typ), methodsOf(fset, pf, patched, typ)
	for name, b := range bm {
		if p, ok := pm[name]; !ok || p.text != b.text {
			return true
		}
	}
	_, usesChanged := changedUses(fset, bf, pf, base, patched)
	for name, p := range pm {
		if _, ok := bm[name]; ok && usesChanged(p.decl) {
			return true
		}
	}
	return false
}

// methodsOf maps the names of the methods f declares on typ (a pointer or
// value receiver) to their declarations.
func methodsOf(fset *token.FileSet, f *ast.File, src []byte, typ string) map[string]topDecl {
	out := map[string]topDecl{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && recvName(fn.Recv) == typ {
			out[fn.Name.Name] = topDecl{fn, string(source(fset, fn, src))}
		}
	}
	return out
}

// suitesEdited lists the suite types the patch's version of the test
// function named test runs whose methods the patch edits in this file
// (suiteEdited), sorted.
func suitesEdited(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, test string) []string {
	var out []string
	for _, d := range pf.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != test {
			continue
		}
		bTop, pTop := topLevel(fset, bf, base), topLevel(fset, pf, patched)
		for _, typ := range inspect.SuitesRun(pf, fn) {
			// A suite type the patch adds or changes in this file has
			// rules of its own (a renamed copy, or none).
			b, inBase := bTop[typ]
			p, inPatch := pTop[typ]
			if inBase != inPatch || b.text != p.text {
				continue
			}
			if suiteEdited(fset, bf, pf, base, patched, typ) {
				out = append(out, typ)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// suiteWrappers declares, for each suite type that the patch's versions of
// the tests named in tests run and whose methods the patch edits in this
// file, or that wrap names (its methods are edited in another file of the
// package too), the wrapper type (texts) and returns the patch's methods of
// that type in the file (methods), to be laid with their receivers
// renamed: rename maps the type to its wrapper. A type of wrap that none of
// those tests runs gets no wrapper here (the file holding its test
// declares it), only its methods of this file renamed.
func suiteWrappers(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, tests, wrap []string, rename map[string]string) (texts [][]byte, methods []ast.Decl) {
	var types []string
	for _, t := range tests {
		types = append(types, suitesEdited(fset, bf, pf, base, patched, t)...)
		for _, d := range pf.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == t {
				for _, typ := range inspect.SuitesRun(pf, fn) {
					if slices.Contains(wrap, typ) {
						types = append(types, typ)
					}
				}
			}
		}
	}
	slices.Sort(types)
	declare := slices.Compact(types)
	wrapped := slices.Clone(declare)
	for _, typ := range wrap {
		if !slices.Contains(wrapped, typ) {
			wrapped = append(wrapped, typ)
		}
	}
	for _, typ := range wrapped {
		if rename[typ] != "" {
			continue
		}
		rename[typ] = patchPrefix + typ
		if slices.Contains(declare, typ) {
			texts = append(texts, fmt.Appendf(nil, "// The patch's methods of the suite %s, on a wrapper that has the rest of them.\ntype %s struct{ %s }", typ, patchPrefix+typ, typ))
		}
		for _, d := range pf.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && recvName(fn.Recv) == typ {
				methods = append(methods, fn)
			}
		}
	}
	return texts, methods
}

// SuiteEdited reports whether the patch edits, in this Go test file, the
// methods of the testify suite type typ: a method of the baseline's it
// changes or deletes, or one that uses a declaration of the file it
// changes. A file that changes, adds or removes typ's own declaration has
// rules of its own and edits nothing here; nor does one that does not
// parse.
func SuiteEdited(base, patched []byte, typ string) bool {
	fset, bf, pf, ok := parsePair(base, patched)
	if !ok || typeDiffers(fset, bf, pf, base, patched, typ) {
		return false
	}
	return suiteEdited(fset, bf, pf, base, patched, typ)
}

// parsePair parses a Go file's two versions; ok is false when either does
// not parse.
func parsePair(base, patched []byte) (fset *token.FileSet, bf, pf *ast.File, ok bool) {
	fset = token.NewFileSet()
	bf, err1 := parser.ParseFile(fset, "base.go", base, parser.ParseComments|parser.SkipObjectResolution)
	pf, err2 := parser.ParseFile(fset, "patch.go", patched, parser.ParseComments|parser.SkipObjectResolution)
	return fset, bf, pf, err1 == nil && err2 == nil
}

// typeDiffers reports whether the two versions declare the type typ
// differently: one declares it and the other does not, or both do with
// other texts.
func typeDiffers(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, typ string) bool {
	b, inBase := topLevel(fset, bf, base)[typ]
	p, inPatch := topLevel(fset, pf, patched)[typ]
	return inBase != inPatch || b.text != p.text
}

// gocheck registers suites for its one test function to run
// (check.Suite(&S{})), and a suite's cases are its methods named Test…:
// a fix's test is a method added to S, or a row added to a table one
// ranges over, often in another file than the test function. The patch's
// version of the suite runs on a wrapper, as for testify, registered
// beside the baseline's: the test function runs both.

// CheckChanged lists, sorted, the gocheck suite types named in suites
// (ones its package registers) whose methods the patch adds or edits in
// this file and that it does not itself change here (GoRegistering lays
// those). A file that does not parse changes nothing.
func CheckChanged(base, patched []byte, suites []string) []string {
	fset, bf, pf, ok := parsePair(base, patched)
	if !ok {
		return nil
	}
	return checkChanged(fset, bf, pf, base, patched, suites)
}

// checkChanged lists the types of suites whose methods the patch adds or
// edits in this file, of those it does not change or add here, sorted.
func checkChanged(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, suites []string) []string {
	bTop, pTop := topLevel(fset, bf, base), topLevel(fset, pf, patched)
	var out []string
	for _, typ := range suites {
		b, inBase := bTop[typ]
		p, inPatch := pTop[typ]
		if inBase != inPatch || b.text != p.text {
			continue
		}
		bm, pm := methodsOf(fset, bf, base, typ), methodsOf(fset, pf, patched, typ)
		added := false
		for name := range pm {
			if _, ok := bm[name]; !ok && strings.HasPrefix(name, "Test") {
				added = true
			}
		}
		if added || suiteEdited(fset, bf, pf, base, patched, typ) {
			out = append(out, typ)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkWrappers is suiteWrappers for gocheck: each wrapper comes with its
// registration, written as the patch's file calls gocheck.
func checkWrappers(fset *token.FileSet, bf, pf *ast.File, base, patched []byte, suites []string, rename map[string]string) (texts [][]byte, methods []ast.Decl, err error) {
	types := checkChanged(fset, bf, pf, base, patched, suites)
	if len(types) == 0 {
		return nil, nil, nil
	}
	q, ok := inspect.GoCheckName(pf)
	if !ok {
		return nil, nil, fmt.Errorf("%w: the patch's version changes a gocheck suite's methods without importing gocheck", ErrConflict)
	}
	for _, typ := range types {
		if rename[typ] != "" {
			continue
		}
		w := patchPrefix + typ
		rename[typ] = w
		texts = append(texts, fmt.Appendf(nil, "// The patch's methods of the suite %s, on a wrapper that has the rest of them, registered beside it.\ntype %s struct{ %s }\n\nvar _ = %sSuite(&%s{})", typ, w, typ, q, w))
		for _, d := range pf.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && recvName(fn.Recv) == typ {
				methods = append(methods, fn)
			}
		}
	}
	return texts, methods, nil
}

// Receivers lists, sorted, the types the Go source src declares methods
// on; none when it does not parse.
func Receivers(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "src.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
			if typ := recvName(fn.Recv); typ != "" {
				out = append(out, typ)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TypeChanged reports whether two versions of a Go file declare the type
// typ differently: one declares it and the other does not, or they do with
// other texts. A version that does not parse changes it.
func TypeChanged(base, patched []byte, typ string) bool {
	fset, bf, pf, ok := parsePair(base, patched)
	return !ok || typeDiffers(fset, bf, pf, base, patched, typ)
}

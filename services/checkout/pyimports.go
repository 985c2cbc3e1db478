package checkout

import (
	"path"
	"slices"
	"strings"
)

// pyImport is one module an import statement names.
type pyImport struct {
	// Module is the dotted module name: absolute, or relative with its
	// leading dots ("..pkg", "." for `from . import x`).
	Module string
	// Names are the names a from-import takes from the module (each may
	// be a submodule); nil for `import a.b`.
	Names []string
}

// pyModuleInfo is what the Python import graph needs of one module.
type pyModuleInfo struct {
	imports []pyImport
	// strings are the module's string literals as written (prefix and
	// quotes included).
	strings []string
}

// pythonModuleInfo reads the import statements (anywhere: in functions,
// try blocks, after a colon or a semicolon) and the string literals of
// Python source with the scanner of PythonTestFuncs. Source the scanner
// cannot read is an error.
func pythonModuleInfo(src []byte) (*pyModuleInfo, error) {
	text, err := checkPythonSource(src)
	if err != nil {
		return nil, err
	}
	s := &pyScanner{src: text, line: 1}
	info := &pyModuleInfo{}
	for {
		l, ok, err := s.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		toks := slices.Clone(l.toks)
		word := func(i int) string {
			if i < len(toks) && toks[i].kind == pyName {
				return text[toks[i].start:toks[i].end]
			}
			return ""
		}
		op := func(i int) string {
			if i < len(toks) && toks[i].kind == pyOp {
				return text[toks[i].start:toks[i].end]
			}
			return ""
		}
		for _, t := range toks {
			if t.kind == pyString {
				info.strings = append(info.strings, text[t.start:t.end])
			}
		}
		// Simple statements start the line, follow a ';' or follow the
		// ':' of a compound header on the same line.
		for i := 0; i < len(toks); i++ {
			start := i == 0 || toks[i].depth == 0 && (op(i-1) == ";" || op(i-1) == ":" && toks[i-1].depth == 0)
			if !start {
				continue
			}
			switch word(i) {
			case "import":
				info.imports = append(info.imports, readImport(toks, i+1, word, op)...)
			case "from":
				if imp, ok := readFromImport(toks, i+1, word, op); ok {
					info.imports = append(info.imports, imp)
				}
			}
		}
	}
	return info, nil
}

// readImport reads `a.b [as c], d` from toks[i:].
func readImport(toks []pyToken, i int, word, op func(int) string) []pyImport {
	var out []pyImport
	for i < len(toks) {
		name, next := dottedName(i, word, op)
		if name == "" {
			break
		}
		out = append(out, pyImport{Module: name})
		i = next
		if word(i) == "as" {
			i += 2
		}
		if op(i) != "," {
			break
		}
		i++
	}
	return out
}

// readFromImport reads `[.]*[a.b] import (x [as y], ...)` from toks[i:].
func readFromImport(toks []pyToken, i int, word, op func(int) string) (pyImport, bool) {
	dots := ""
	for op(i) == "." || op(i) == "..." {
		dots += op(i)
		i++
	}
	name := ""
	if word(i) != "import" {
		name, i = dottedName(i, word, op)
	}
	if name == "" && dots == "" {
		return pyImport{}, false
	}
	if word(i) != "import" {
		return pyImport{}, false
	}
	imp := pyImport{Module: dots + name}
	for i++; i < len(toks); i++ {
		switch w := word(i); {
		case w == "as":
			i++
		case w != "":
			imp.Names = append(imp.Names, w)
		case op(i) == "*":
			imp.Names = append(imp.Names, "*")
		}
	}
	return imp, true
}

// dottedName reads `a.b.c` at i and returns it with the index after it.
func dottedName(i int, word, op func(int) string) (string, int) {
	var parts []string
	for {
		w := word(i)
		if w == "" {
			break
		}
		parts = append(parts, w)
		i++
		if op(i) != "." || word(i+1) == "" {
			break
		}
		i++
	}
	return strings.Join(parts, "."), i
}

// pyGraph is the import graph of a tree's Python modules.
type pyGraph struct {
	// files are the tree's .py files, sorted.
	files []string
	// importers maps a file to the files that import it.
	importers map[string][]string
	// unread are the files the scanner could not read.
	unread []string
}

// newPyGraph builds the import graph of the .py files of a tree from their
// infos (nil for a file the scanner could not read). An absolute import
// a.b.c names the file whose dotted path is a.b.c below the tree root, a
// top-level src/ or lib/ directory, or the first directory above the file
// without an __init__.py (where pytest's default import mode puts a test
// directory on sys.path); it imports every package __init__.py on the
// way. A from-import names the module and, for each name, the submodule
// of that name when there is one. Relative imports resolve from the
// importing file's package.
func newPyGraph(infos map[string]*pyModuleInfo) *pyGraph {
	g := &pyGraph{importers: map[string][]string{}}
	for p := range infos {
		g.files = append(g.files, p)
	}
	slices.Sort(g.files)
	has := map[string]bool{}
	for _, p := range g.files {
		has[p] = true
	}
	// byName maps a dotted module name to the files it can name.
	byName := map[string][]string{}
	for _, p := range g.files {
		for _, name := range pyModuleNames(p, has) {
			byName[name] = append(byName[name], p)
		}
	}
	for _, p := range g.files {
		info := infos[p]
		if info == nil {
			g.unread = append(g.unread, p)
			continue
		}
		seen := map[string]bool{}
		add := func(name string) {
			// a.b.c imports a, a.b and a.b.c.
			parts := strings.Split(name, ".")
			for i := range parts {
				for _, f := range byName[strings.Join(parts[:i+1], ".")] {
					if f != p && !seen[f] {
						seen[f] = true
						g.importers[f] = append(g.importers[f], p)
					}
				}
			}
		}
		for _, imp := range info.imports {
			mod := imp.Module
			if strings.HasPrefix(mod, ".") {
				mod = resolveRelative(p, mod)
				if mod == "" {
					continue
				}
				// A relative name is exact: resolve it against the tree
				// root's names only.
			}
			add(mod)
			for _, n := range imp.Names {
				if n != "*" {
					add(mod + "." + n)
				}
			}
		}
	}
	return g
}

// pyModuleNames returns the dotted names a .py file can be imported as
// (see newPyGraph); a package's __init__.py is named by its directory.
func pyModuleNames(p string, has map[string]bool) []string {
	mod := strings.TrimSuffix(p, ".py")
	if path.Base(mod) == "__init__" {
		mod = path.Dir(mod)
		if mod == "." {
			return nil
		}
	}
	roots := []string{"."}
	for _, top := range []string{"src", "lib"} {
		if strings.HasPrefix(mod, top+"/") {
			roots = append(roots, top)
		}
	}
	// The first directory above the file without an __init__.py.
	for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
		if !has[dir+"/__init__.py"] {
			roots = append(roots, dir)
			break
		}
	}
	var out []string
	for _, r := range roots {
		rel := mod
		if r != "." {
			var ok bool
			if rel, ok = strings.CutPrefix(mod, r+"/"); !ok {
				continue
			}
		}
		name := strings.ReplaceAll(rel, "/", ".")
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// resolveRelative turns a relative module name of a from-import in file p
// into a path-derived dotted name from the tree root, or "" when it climbs
// above the root.
func resolveRelative(p, rel string) string {
	dots := len(rel) - len(strings.TrimLeft(rel, "."))
	dir := path.Dir(p)
	for range dots - 1 {
		if dir == "." {
			return ""
		}
		dir = path.Dir(dir)
	}
	name := strings.TrimLeft(rel, ".")
	base := ""
	if dir != "." {
		base = strings.ReplaceAll(dir, "/", ".")
	}
	switch {
	case base == "":
		return name
	case name == "":
		return base
	}
	return base + "." + name
}

// sourceByUse returns the modules eligible for it (Python test code by
// its path alone: modules under tests/ that pytest does not collect) that
// non-test code (a module isTest rejects) imports, directly or through
// other such modules: they are source.
func (g *pyGraph) sourceByUse(isTest, eligible func(string) bool) []string {
	var out []string
	inSource := map[string]bool{}
	for _, p := range g.files {
		if !isTest(p) {
			inSource[p] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, p := range g.files {
			if inSource[p] || !eligible(p) {
				continue
			}
			for _, imp := range g.importers[p] {
				if inSource[imp] {
					inSource[p] = true
					out = append(out, p)
					changed = true
					break
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// testOnly returns the source modules (isSource) only tests use: not
// production, where a module is production when nothing imports it (an
// entry point, a script), when it is a top-level package's __init__.py
// (the library's API), when it has a test module of its own
// (test_<name>.py or <name>_test.py anywhere: it is code under test), when
// a production module imports it, or, for a package's __init__.py, when a
// module of the package (at any depth) is production. A module the
// scanner could not read counts as importing everything: then nothing is
// test-only.
func (g *pyGraph) testOnly(isSource func(string) bool) []string {
	tested := map[string]bool{}
	for _, p := range g.files {
		if IsPytestModule(p) {
			base := strings.TrimSuffix(path.Base(p), ".py")
			base = strings.TrimSuffix(strings.TrimPrefix(base, "test_"), "_test")
			tested[base] = true
		}
	}
	prod := map[string]bool{}
	var queue []string
	mark := func(p string) {
		if !prod[p] {
			prod[p] = true
			queue = append(queue, p)
		}
	}
	for _, p := range g.files {
		name := strings.TrimSuffix(path.Base(p), ".py")
		if name == "__init__" {
			name = path.Base(path.Dir(p))
		}
		// A top-level package's __init__.py is what `import pkg` runs:
		// the library's API, whoever imports it in the tree (its users are
		// outside it), and what it imports is production too.
		topInit := path.Base(p) == "__init__.py" && !slices.Contains(g.files, path.Join(path.Dir(path.Dir(p)), "__init__.py"))
		if isSource(p) && (len(g.importers[p]) == 0 || tested[name] || topInit) {
			mark(p)
		}
	}
	unreadSource := slices.ContainsFunc(g.unread, isSource)
	imports := map[string][]string{} // file → the files it imports
	for f, imps := range g.importers {
		for _, imp := range imps {
			imports[imp] = append(imports[imp], f)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, f := range imports[p] {
			if isSource(f) {
				mark(f)
			}
		}
		// The packages above p run their __init__.py whenever p is
		// imported.
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if init := dir + "/__init__.py"; isSource(init) && slices.Contains(g.files, init) {
				mark(init)
			}
		}
	}
	var out []string
	for _, p := range g.files {
		if isSource(p) && !prod[p] && !unreadSource {
			out = append(out, p)
		}
	}
	return out
}

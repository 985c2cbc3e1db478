package report

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/mod/modfile"
)

// Location is a place in the repository: a slash-separated path relative
// to its root and a line (1-based).
type Location struct {
	Path string
	Line int
}

// Locations are the declarations of the tests an artefact names — its
// claims (by claim id) and its collateral regressions (by test name) —
// found in a repository's files. A test not found has no entry.
type Locations map[string]Location

// Limits of what Locate reads, so that a huge repository costs a bounded
// walk.
const (
	maxWalkEntries = 200_000
	maxScanBytes   = 4 << 20
)

// Locate finds, in fsys (the repository's tree at the patch, as a CI
// checkout or the agent's working tree has it), where each test the
// artefact names is declared: Go tests by package directory (claims) or
// import path (regressions, through the go.mod files of the tree), pytest
// node ids by their file. What it cannot find it leaves out; the renderers
// then point at the nearest changed file.
func Locate(fsys fs.FS, a *Artefact) Locations {
	l := &locator{fsys: fsys}
	out := Locations{}
	names := []string{}
	for _, c := range a.Claims {
		names = append(names, c.ID)
	}
	names = append(names, a.Collateral.Regressions...)
	for _, name := range names {
		if loc, ok := l.find(name); ok {
			out[name] = loc
		}
	}
	return out
}

type locator struct {
	fsys    fs.FS
	modules map[string]string // module path → its directory ("." for the root)
	walked  bool
}

// find locates one test id: a claim id (go:, pytest:, cmd:) or a suite's
// case name.
func (l *locator) find(id string) (Location, bool) {
	switch {
	case strings.HasPrefix(id, "go:"):
		pkg, name, ok := strings.Cut(strings.TrimPrefix(id, "go:"), ":")
		if !ok {
			return Location{}, false
		}
		return l.goTest(path.Clean(pkg), name)
	case strings.HasPrefix(id, "pytest:"):
		return l.pyTest(strings.TrimPrefix(id, "pytest:"))
	case strings.HasPrefix(id, "cmd:"):
		return Location{}, false
	case strings.Contains(id, ".py::"):
		return l.pyTest(id)
	}
	return l.goRegression(id)
}

// goRegression locates "import/path.TestName[/subtest]".
func (l *locator) goRegression(id string) (Location, bool) {
	l.walkModules()
	for i := strings.IndexByte(id, '.'); i >= 0; {
		pkg, name := id[:i], id[i+1:]
		if isTestFunc(topName(name)) {
			if dir, ok := l.packageDir(pkg); ok {
				if loc, ok := l.goTest(dir, name); ok {
					return loc, true
				}
			}
		}
		next := strings.IndexByte(id[i+1:], '.')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return Location{}, false
}

func topName(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}

func isTestFunc(name string) bool {
	for _, p := range []string{"Test", "Example", "Fuzz", "Benchmark"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// packageDir maps an import path to its directory through the longest
// module path that prefixes it.
func (l *locator) packageDir(importPath string) (string, bool) {
	best, dir := "", ""
	for mod, mdir := range l.modules {
		if (importPath == mod || strings.HasPrefix(importPath, mod+"/")) && len(mod) > len(best) {
			best, dir = mod, mdir
		}
	}
	if best == "" {
		return "", false
	}
	return path.Join(dir, strings.TrimPrefix(importPath, best)), true
}

// walkModules finds the tree's go.mod files once.
func (l *locator) walkModules() {
	if l.walked {
		return
	}
	l.walked, l.modules = true, map[string]string{}
	entries := 0
	_ = fs.WalkDir(l.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		entries++
		if err != nil || entries > maxWalkEntries {
			if entries > maxWalkEntries {
				return fs.SkipAll
			}
			return nil
		}
		if d.IsDir() {
			base := path.Base(p)
			if p != "." && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "vendor" || base == "testdata" || base == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() != "go.mod" || !d.Type().IsRegular() {
			return nil
		}
		data, err := readSmall(l.fsys, p)
		if err != nil {
			return nil
		}
		if mod := modfile.ModulePath(data); mod != "" {
			if _, dup := l.modules[mod]; !dup {
				l.modules[mod] = path.Dir(p)
			}
		}
		return nil
	})
}

// goTest finds `func Name(` in the _test.go files of dir, in name order.
func (l *locator) goTest(dir, name string) (Location, bool) {
	if dir == "" || strings.HasPrefix(dir, "../") || dir == ".." || path.IsAbs(dir) {
		return Location{}, false
	}
	entries, err := fs.ReadDir(l.fsys, dir)
	if err != nil {
		return Location{}, false
	}
	want := "func " + topName(name) + "("
	for _, e := range entries {
		if e.IsDir() || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		p := path.Join(dir, e.Name())
		if line := findLine(l.fsys, p, func(s string) bool { return strings.HasPrefix(s, want) }, 0); line > 0 {
			return Location{Path: p, Line: line}, true
		}
	}
	return Location{}, false
}

// pyTest finds a pytest node id's function (after its class, when the id
// names one): "tests/test_x.py::TestK::test_m[param]".
func (l *locator) pyTest(node string) (Location, bool) {
	parts := strings.Split(node, "::")
	file := parts[0]
	if len(parts) < 2 || checkPath(file) != nil || !strings.HasSuffix(file, ".py") {
		return Location{}, false
	}
	from := 0
	for _, class := range parts[1 : len(parts)-1] {
		from = findLine(l.fsys, file, func(s string) bool { return pyDef(s, "class", class) }, from)
		if from == 0 {
			return Location{}, false
		}
	}
	fn, _, _ := strings.Cut(parts[len(parts)-1], "[")
	line := findLine(l.fsys, file, func(s string) bool { return pyDef(s, "def", fn) || pyDef(s, "async def", fn) }, from)
	if line == 0 {
		return Location{}, false
	}
	return Location{Path: file, Line: line}, true
}

// pyDef reports whether a source line declares `kw name` (def, class).
func pyDef(s, kw, name string) bool {
	s = strings.TrimLeft(s, " \t")
	rest, ok := strings.CutPrefix(s, kw+" "+name)
	return ok && (strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, ":"))
}

// findLine returns the first line after line `after` of the file at p that
// match accepts, or 0.
func findLine(fsys fs.FS, p string, match func(string) bool, after int) int {
	data, err := readSmall(fsys, p)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxScanBytes)
	for n := 1; sc.Scan(); n++ {
		if n > after && match(sc.Text()) {
			return n
		}
	}
	return 0
}

// readSmall reads a regular file of at most maxScanBytes.
func readSmall(fsys fs.FS, p string) ([]byte, error) {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxScanBytes {
		return nil, errors.New("not a small regular file")
	}
	return fs.ReadFile(fsys, p)
}

// dirOf is the directory a test id's declaration is in, when the id says
// it without reading the tree: a Go claim's package, a pytest file's
// directory.
func dirOf(id string) (string, bool) {
	switch {
	case strings.HasPrefix(id, "go:"):
		pkg, _, ok := strings.Cut(strings.TrimPrefix(id, "go:"), ":")
		return path.Clean(pkg), ok
	case strings.HasPrefix(id, "pytest:"):
		file, _, ok := strings.Cut(strings.TrimPrefix(id, "pytest:"), "::")
		return path.Dir(file), ok
	case strings.Contains(id, ".py::"):
		file, _, _ := strings.Cut(id, "::")
		return path.Dir(file), true
	}
	return "", false
}

package checkout

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/module"

	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// A repository written before Go modules has no go.mod: the go command
// builds nothing in it, so every claim, suite, coverage and mutation job
// of a Go fix there would come out NOT_RUN — INCONCLUSIVE for an honest
// fix and for a reintroduced bug alike. The module proxy serves such a
// version with a go.mod it writes itself, holding only the module path;
// the gate does the same. When neither tree holds a go.mod or go.work
// anywhere and the baseline has Go files the go command builds, both trees
// get the same go.mod at their root (SynthesizedGoMod records it): so it
// is no change of the patch, and what the claims run differs only by what
// the patch changes.
//
// The module path matters only to code that imports the module's own
// packages (an external test package importing the package it tests, one
// directory importing another). It is read from the code, never guessed
// from outside it:
//  1. an import comment (`package humanize // import "github.com/dustin/go-humanize"`)
//     in a directory D names the module path as the comment's path without
//     the suffix "/D";
//  2. otherwise, an import of a path P that is not the standard library's
//     names the module path M when P is M followed by the path of a
//     directory of the tree holding Go files ("/english" for english/),
//     or when P is M itself and the importing file calls the root package
//     by the name the path implies (its last element, without a "go-"
//     prefix or "-go" suffix) or by an explicit name that is the root
//     package's name;
//  3. the candidate most imports name wins (ties: the shortest, then the
//     first in byte order); with no candidate in the baseline, the
//     patch's files are read the same way (the baseline builds under any
//     path then, and an external test the patch adds may import the
//     package by its path); with none there either the module is
//     synthesizedModule, which no import can name.
//
// The go.mod declares `go 1.16`, what the go command assumes of a go.mod
// without a go directive. It requires nothing: an import of another
// module cannot be resolved without choosing a version, which only the
// repository's authors can, so such a build fails and says so.

// synthesizedModule is the module path of a tree none of whose files
// imports its own packages.
const synthesizedModule = "sealgate.invalid/module"

// maxGoModSources bounds the Go files read to find the module path: a
// pre-module repository is small, and a large one is still judged by the
// first ones in path order.
const maxGoModSources = 2000

// SynthesizedGoMod is the go.mod the gate wrote at the root of both trees
// of a repository that has none.
type SynthesizedGoMod struct {
	// Module is the module path it declares; Why says where it was read.
	Module, Why string
	// Content is the file's content.
	Content []byte
}

// synthesizeGoMod gives both trees the go.mod of a pre-module repository
// (see above), writing its blob into the scratch repository's objects.
func (c *Checkout) synthesizeGoMod(ctx context.Context, s *scratchRepo) error {
	if !needsGoMod(c.Baseline) || !needsGoMod(c.Patch) {
		return nil
	}
	files, err := goSources(ctx, c.Baseline)
	if err != nil {
		return fmt.Errorf("checkout: read the baseline's Go files for its module path: %w", err)
	}
	if len(files) == 0 {
		return nil
	}
	mod, why := goModulePath(files)
	if mod == synthesizedModule {
		// No baseline file imports the module's own packages, so any
		// path builds the baseline; a file the patch adds may (an
		// external test), and only it can name the path then.
		patched, err := goSources(ctx, c.Patch)
		if err != nil {
			return fmt.Errorf("checkout: read the patch's Go files for its module path: %w", err)
		}
		if m, w := goModulePath(patched); m != synthesizedModule {
			mod, why = m, w+" in the patch (none in the baseline)"
		}
	}
	content := fmt.Appendf(nil, "// Written by sealgate: the repository has no go.mod.\n// The module path is %s.\nmodule %s\n\ngo 1.16\n", why, mod)
	oid, err := s.run(ctx, nil, bytes.NewReader(content), "hash-object", "-w", "--stdin")
	if err != nil {
		return fmt.Errorf("checkout: write the synthesized go.mod: %w", err)
	}
	id := string(bytes.TrimSpace(oid))
	if c.Baseline, err = c.Baseline.WithFile("go.mod", id); err != nil {
		return fmt.Errorf("checkout: add the synthesized go.mod to the baseline: %w", err)
	}
	if c.Patch, err = c.Patch.WithFile("go.mod", id); err != nil {
		return fmt.Errorf("checkout: add the synthesized go.mod to the patch: %w", err)
	}
	c.GoMod = &SynthesizedGoMod{Module: mod, Why: why, Content: content}
	return nil
}

// goSources reads the Go files of t the go command would build, the
// first maxGoModSources in path order.
func goSources(ctx context.Context, t *tree.Tree) (map[string][]byte, error) {
	var sources []string
	for _, e := range t.Entries() {
		if e.Mode != tree.ModeSymlink && strings.HasSuffix(e.Path, ".go") && goCommandBuilds(e.Path) {
			sources = append(sources, e.Path)
		}
	}
	if len(sources) == 0 {
		return nil, nil
	}
	if len(sources) > maxGoModSources {
		sources = sources[:maxGoModSources]
	}
	return t.ReadFiles(ctx, sources)
}

// needsGoMod reports whether t holds no go.mod or go.work anywhere, left
// out or not.
func needsGoMod(t *tree.Tree) bool {
	for _, e := range t.Entries() {
		if b := path.Base(e.Path); b == "go.mod" || b == "go.work" {
			return false
		}
	}
	for _, lo := range t.LeftOut() {
		if b := path.Base(lo.Path); b == "go.mod" || b == "go.work" {
			return false
		}
	}
	return true
}

// goCommandBuilds reports whether the go command would look at the Go file
// p at all: in a directory it builds (inspect.GoBuilds), and not named
// with a leading "." or "_".
func goCommandBuilds(p string) bool {
	base := path.Base(p)
	return inspect.GoBuilds(p) && !strings.HasPrefix(base, ".") && !strings.HasPrefix(base, "_")
}

// goModulePath reads the module path of a pre-module tree from its Go
// files (path → content), and says where it read it.
func goModulePath(files map[string][]byte) (mod, why string) {
	type parsed struct {
		dir     string
		pkg     string
		comment string // the import comment's path
		imports map[string][]string
	}
	var all []parsed
	dirs := map[string]bool{}
	rootNames := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, files[p], parser.ImportsOnly|parser.ParseComments)
		if err != nil || f.Name == nil {
			continue
		}
		pf := parsed{dir: path.Dir(p), pkg: f.Name.Name, imports: map[string][]string{}}
		dirs[pf.dir] = true
		if pf.dir == "." && !strings.HasSuffix(pf.pkg, "_test") {
			rootNames[pf.pkg] = true
		}
		line := fset.Position(f.Name.End()).Line
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if fset.Position(cm.Pos()).Line != line || cm.Pos() < f.Name.End() {
					continue
				}
				if ip, ok := importComment(cm.Text); ok {
					pf.comment = ip
				}
			}
		}
		for _, is := range f.Imports {
			ip, err := strconv.Unquote(is.Path.Value)
			if err != nil || isStandardImport(ip) {
				continue
			}
			name := ""
			if is.Name != nil {
				name = is.Name.Name
			}
			pf.imports[ip] = append(pf.imports[ip], name)
		}
		all = append(all, pf)
	}
	commented := map[string]int{}
	for _, pf := range all {
		if pf.comment == "" || module.CheckImportPath(pf.comment) != nil {
			continue
		}
		switch {
		case pf.dir == ".":
			commented[pf.comment]++
		case strings.HasSuffix(pf.comment, "/"+pf.dir):
			commented[strings.TrimSuffix(pf.comment, "/"+pf.dir)]++
		}
	}
	if m, ok := elect(commented); ok {
		return m, "from the import comments of its package clauses"
	}
	votes := map[string]int{}
	for _, pf := range all {
		for ip, names := range pf.imports {
			if module.CheckImportPath(ip) != nil {
				continue
			}
			for d := range dirs {
				if d != "." && d != pf.dir && strings.HasSuffix(ip, "/"+d) {
					votes[strings.TrimSuffix(ip, "/"+d)]++
				}
			}
			if pf.dir == "." && !strings.HasSuffix(pf.pkg, "_test") {
				continue // the root package cannot import itself
			}
			for _, name := range names {
				if ((name == "" || name == ".") && rootNames[assumedName(ip)]) || rootNames[name] {
					votes[ip]++
				}
			}
		}
	}
	if m, ok := elect(votes); ok {
		return m, "from its files' imports of its own packages"
	}
	return synthesizedModule, "a placeholder: no file imports the module's own packages"
}

// elect picks the candidate with the most votes: ties go to the shorter,
// then to the first in byte order.
func elect(votes map[string]int) (string, bool) {
	if len(votes) == 0 {
		return "", false
	}
	ms := slices.Collect(maps.Keys(votes))
	slices.SortFunc(ms, func(a, b string) int {
		return cmp.Or(cmp.Compare(votes[b], votes[a]), cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
	return ms[0], true
}

// importComment returns the path of an import comment's text
// (`// import "path"` or `/* import "path" */`).
func importComment(text string) (string, bool) {
	var body string
	switch {
	case strings.HasPrefix(text, "//"):
		body = text[2:]
	case strings.HasPrefix(text, "/*") && strings.HasSuffix(text, "*/"):
		body = text[2 : len(text)-2]
	default:
		return "", false
	}
	body = strings.TrimSpace(body)
	rest, ok := strings.CutPrefix(body, "import")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	ip, err := strconv.Unquote(strings.TrimSpace(rest))
	if err != nil || ip == "" {
		return "", false
	}
	return ip, true
}

// isStandardImport reports whether an import path is the standard
// library's (or the toolchain's): its first element has no dot.
func isStandardImport(ip string) bool {
	first, _, _ := strings.Cut(ip, "/")
	return !strings.Contains(first, ".")
}

// assumedName is the package name an import path implies when the
// importing file gives none (goimports' rule): the last element, without a
// major version suffix, a "go-" prefix or a "-go" / ".go" suffix, cut at
// the first character an identifier cannot hold.
func assumedName(ip string) string {
	base := path.Base(ip)
	if strings.HasPrefix(base, "v") && len(base) > 1 && strings.Trim(base[1:], "0123456789") == "" && path.Dir(ip) != "." {
		base = path.Base(path.Dir(ip))
	}
	base = strings.TrimPrefix(base, "go-")
	base = strings.TrimSuffix(strings.TrimSuffix(base, "-go"), ".go")
	if i := strings.IndexFunc(base, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
	}); i >= 0 {
		base = base[:i]
	}
	return base
}

package pymutant

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// importsScript is imports.py, run with `python -I -S -c`.
//
//go:embed imports.py
var importsScript string

// maxImportLevel bounds the leading dots of a relative import.
const maxImportLevel = 100

// Import is one import a Python file makes: `import a.b` is {a.b, 0,
// nil}, `from ..c import d, e` is {c, 2, [d e]}; importlib.import_module
// and __import__ with a constant name count as `import NAME`.
type Import struct {
	Module string
	Level  int
	Names  []string
}

// ReadImports lists the imports of files (slash-separated paths relative
// to root), found by an embedded ast script run by python. A file that
// cannot be read or parsed imports nothing.
func ReadImports(ctx context.Context, python, root string, files []string) (map[string][]Import, error) {
	if len(files) == 0 {
		return map[string][]Import{}, nil
	}
	req, err := json.Marshal(struct {
		Root  string   `json:"root"`
		Files []string `json:"files"`
	}{root, files})
	if err != nil {
		return nil, err
	}
	out, err := runScript(ctx, python, importsScript, bytes.NewReader(req))
	if err != nil {
		return nil, err
	}
	imps, err := ParseImports(out, files)
	if err != nil {
		return nil, fmt.Errorf("pymutant: output of %s: %w", python, err)
	}
	return imps, nil
}

// ParseImports reads imports.py's output strictly: one JSON object
// {"imports": {PATH: [[MODULE, LEVEL, [NAME...]]...]}} of at most
// MaxOutput bytes, every path one of files, every module a dotted Python
// name (or "" with a level), levels from 0 to 100, names Python names or
// "*". Anything else is an error.
func ParseImports(out []byte, files []string) (map[string][]Import, error) {
	if len(out) > MaxOutput {
		return nil, fmt.Errorf("output is %d bytes, more than %d", len(out), MaxOutput)
	}
	if !utf8.Valid(out) {
		return nil, errors.New("output is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var w struct {
		Imports *map[string][][]json.RawMessage `json:"imports"`
	}
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("decoding output: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("output holds more than one JSON value")
	}
	if w.Imports == nil {
		return nil, errors.New(`output has no "imports" object`)
	}
	asked := map[string]bool{}
	for _, f := range files {
		asked[f] = true
	}
	res := map[string][]Import{}
	for p, list := range *w.Imports {
		if !asked[p] {
			return nil, fmt.Errorf("imports of %q, which was not asked for", p)
		}
		imps := []Import{}
		for i, raw := range list {
			if len(raw) != 3 {
				return nil, fmt.Errorf("%s: import %d has %d members, not 3", p, i, len(raw))
			}
			var imp Import
			if err := json.Unmarshal(raw[0], &imp.Module); err != nil {
				return nil, fmt.Errorf("%s: import %d: module: %v", p, i, err)
			}
			if err := json.Unmarshal(raw[1], &imp.Level); err != nil {
				return nil, fmt.Errorf("%s: import %d: level: %v", p, i, err)
			}
			if err := json.Unmarshal(raw[2], &imp.Names); err != nil || imp.Names == nil {
				return nil, fmt.Errorf("%s: import %d: names: not a list of strings", p, i)
			}
			switch {
			case imp.Level < 0 || imp.Level > maxImportLevel:
				return nil, fmt.Errorf("%s: import %d: level %d", p, i, imp.Level)
			case imp.Module == "" && imp.Level == 0:
				return nil, fmt.Errorf("%s: import %d: no module", p, i)
			case imp.Module != "" && !isDotted(imp.Module):
				return nil, fmt.Errorf("%s: import %d: module %q is not a dotted name", p, i, imp.Module)
			}
			for _, n := range imp.Names {
				if n != "*" && !isDotted(n) {
					return nil, fmt.Errorf("%s: import %d: name %q", p, i, n)
				}
			}
			if len(imp.Names) == 0 {
				imp.Names = nil
			}
			imps = append(imps, imp)
		}
		res[p] = imps
	}
	return res, nil
}

// isDotted reports whether s is Python names joined by dots (the names
// approximately: no dots, spaces, operators or control characters).
func isDotted(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || part[0] >= '0' && part[0] <= '9' {
			return false
		}
		for _, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80 && r != utf8.RuneError) {
				return false
			}
		}
	}
	return true
}

// Importers returns the files of the tree (files: every Python file, by
// slash-separated path) that import target, directly or through other
// files of the tree, sorted. A module name is resolved to every file it
// could be, whatever directory of the tree is on sys.path (a file
// pkg/sub/m.py is m, sub.m and pkg.sub.m), and importing a.b.c imports
// a and a.b too: the graph errs towards more importers, never fewer.
func Importers(imports map[string][]Import, files []string, target string) []string {
	byName := map[string][]string{}
	for _, f := range files {
		parts := strings.Split(strings.TrimSuffix(f, ".py"), "/")
		if parts[len(parts)-1] == "__init__" {
			parts = parts[:len(parts)-1]
		}
		for k := range parts {
			name := strings.Join(parts[k:], ".")
			byName[name] = append(byName[name], f)
		}
	}
	isFile := map[string]bool{}
	for _, f := range files {
		isFile[f] = true
	}
	// pathFiles lists the files a path below dir names as a module or
	// package, and the __init__.py of every directory on the way down.
	pathFiles := func(dir, rel string) []string {
		var out []string
		cur := dir
		for _, part := range strings.Split(rel, "/") {
			if part == "" {
				continue
			}
			cur = path.Join(cur, part)
			if f := path.Join(cur, "__init__.py"); isFile[f] {
				out = append(out, f)
			}
		}
		if rel != "" && isFile[cur+".py"] {
			out = append(out, cur+".py")
		}
		return out
	}
	importedBy := map[string]map[string]bool{} // file → files importing it
	for f, imps := range imports {
		var to []string
		for _, imp := range imps {
			if imp.Level == 0 {
				parts := strings.Split(imp.Module, ".")
				for k := 1; k <= len(parts); k++ {
					to = append(to, byName[strings.Join(parts[:k], ".")]...)
				}
				for _, n := range imp.Names {
					to = append(to, byName[imp.Module+"."+n]...)
				}
				continue
			}
			base := path.Dir(f)
			for i := 1; i < imp.Level; i++ {
				base = path.Dir(base)
			}
			if base == "." {
				base = ""
			}
			if f := path.Join(base, "__init__.py"); isFile[f] {
				to = append(to, f)
			}
			rel := strings.ReplaceAll(imp.Module, ".", "/")
			to = append(to, pathFiles(base, rel)...)
			for _, n := range imp.Names {
				to = append(to, pathFiles(base, path.Join(rel, n))...)
			}
		}
		for _, t := range to {
			if t == f {
				continue
			}
			if importedBy[t] == nil {
				importedBy[t] = map[string]bool{}
			}
			importedBy[t][f] = true
		}
	}
	seen := map[string]bool{target: true}
	queue := []string{target}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, by := range slices.Sorted(maps.Keys(importedBy[cur])) {
			if !seen[by] {
				seen[by] = true
				queue = append(queue, by)
			}
		}
	}
	delete(seen, target)
	return slices.Sorted(maps.Keys(seen))
}

package executor

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"golang.org/x/mod/modfile"
)

// nestedSuiteModules returns the nested Go modules of the oracle's tree
// (not the root, whose suite always runs) whose full suite runs too: go
// test ./... at the root never enters them. They are every module holding
// a file the patch changes, and every module that builds against one of
// those as the tree has it — a replace to a path of the tree, or both used
// by a go.work of the tree — through any chain of such modules: a test
// there that passes on the baseline needs its own pass on the patch.
func (w *Workspace) nestedSuiteModules() []string {
	root := w.tree(jobs.TreeOracle)
	mods := map[string]*modfile.File{} // module directory → its go.mod
	// The modules each go.work of the tree uses, together (a go.work
	// applies in its directory and below: the root's, or a nested
	// module's own).
	var works [][]string
	for _, e := range w.co.Oracle.Entries() {
		name := path.Base(e.Path)
		if name != "go.mod" && name != "go.work" || !moduleFile(e.Path) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Path)))
		if err != nil {
			continue
		}
		if name == "go.work" {
			if wf, err := modfile.ParseWork(e.Path, b, nil); err == nil {
				var use []string
				for _, u := range wf.Use {
					use = append(use, path.Clean(path.Join(path.Dir(e.Path), u.Path)))
				}
				works = append(works, use)
			}
			continue
		}
		// Parse, not ParseLax: the lax parser keeps no replace.
		mf, err := modfile.Parse(e.Path, b, nil)
		if err != nil {
			mf, err = modfile.ParseLax(e.Path, b, nil)
		}
		if err == nil && mf.Module != nil {
			mods[path.Dir(e.Path)] = mf
		}
	}
	if len(mods) < 2 {
		return nil
	}
	byPath := map[string]string{} // module path → directory
	for dir, mf := range mods {
		byPath[mf.Module.Mod.Path] = dir
	}
	affected := map[string]bool{}
	for _, ch := range w.co.Changes {
		if mod, _, _, err := w.module(jobs.TreeOracle, "./"+path.Dir(ch.Path)); err == nil {
			affected[mod] = true
		}
	}
	// What each module builds against in the tree.
	deps := map[string][]string{}
	for dir, mf := range mods {
		for _, r := range mf.Replace {
			if p := r.New.Path; modfile.IsDirectoryPath(p) && !path.IsAbs(p) {
				deps[dir] = append(deps[dir], path.Clean(path.Join(dir, p)))
			}
		}
		for _, use := range works {
			if !slices.Contains(use, dir) {
				continue
			}
			for _, r := range mf.Require {
				if d, ok := byPath[r.Mod.Path]; ok && slices.Contains(use, d) {
					deps[dir] = append(deps[dir], d)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for dir := range mods {
			if !affected[dir] && slices.ContainsFunc(deps[dir], func(d string) bool { return affected[d] }) {
				affected[dir], changed = true, true
			}
		}
	}
	var out []string
	for dir := range affected {
		if _, ok := mods[dir]; ok && dir != "." && !strings.HasPrefix(dir, "..") {
			out = append(out, dir)
		}
	}
	slices.Sort(out)
	return out
}

// moduleFile reports whether a go.mod or go.work at p is one a developer
// runs go test under: not in testdata or vendor, nor under a hidden
// directory. (An _examples module is one: the go command leaves it out
// of ./..., not out of a go test run in it.)
func moduleFile(p string) bool {
	for _, c := range strings.Split(path.Dir(p), "/") {
		if c == "testdata" || c == "vendor" || strings.HasPrefix(c, ".") && c != "." {
			return false
		}
	}
	return true
}

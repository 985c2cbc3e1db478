package checkout

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/tree"
)

// inspectPythonHarness finds the Python files the patch adds or changes
// that take part in the test harness without a harness file's name:
//
//   - test code (a changed Python test file) that reaches into the test
//     runner where its baseline version did not — pytest's internals,
//     writes to pytest, builtins or another module at collection, the
//     interpreter's internals (see inspect.Python, Harness): a test
//     module runs in the same process as every test the suite collects
//     after it, and can rewrite their results;
//   - a module the patch adds (or renames) that can be imported under
//     the name of another module of the tree, of the standard library or
//     of the test runner, from a directory on the tests' sys.path (see
//     pyShadows): which module a test imports then depends on the order
//     of sys.path, not on the code under test.
//
// Each is a finding of rule inspect.RuleTestHarness and its file joins
// TestHarness, which leaves the Python claims unverified.
func (c *Checkout) inspectPythonHarness(ctx context.Context) error {
	var found []inspect.Finding
	reach, err := c.pythonTestCodeReach(ctx)
	if err != nil {
		return err
	}
	found = append(found, reach...)
	shadows, err := c.pythonShadows(ctx)
	if err != nil {
		return err
	}
	found = append(found, shadows...)
	for _, f := range found {
		c.TestHarness = append(c.TestHarness, f.File)
	}
	c.Findings = append(c.Findings, found...)
	slices.Sort(c.TestHarness)
	c.TestHarness = slices.Compact(c.TestHarness)
	return nil
}

// pythonTestCodeReach reads the changed Python test files, both versions,
// as test code (inspect.PyRequest.Harness): what the patch's version
// newly does is a finding.
func (c *Checkout) pythonTestCodeReach(ctx context.Context) ([]inspect.Finding, error) {
	type pair struct{ file, base string }
	var pairs []pair
	for _, ch := range c.Changes {
		if ch.Kind == Deleted || !isPythonTestCode(ch.Path) || isPythonHarness(ch.Path) {
			continue
		}
		if e, ok := c.Patch.Lookup(ch.Path); !ok || e.Mode == tree.ModeSymlink {
			continue
		}
		p := pair{file: ch.Path}
		from := ch.Path
		if ch.Kind == Renamed {
			from = ch.OldPath
		}
		if e, ok := c.Baseline.Lookup(from); ok && e.Mode != tree.ModeSymlink && ch.Kind != Added {
			p.base = from
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	unread := func(why string) []inspect.Finding {
		var out []inspect.Finding
		for _, p := range pairs {
			out = append(out, inspect.Finding{Rule: inspect.RuleTestHarness, File: p.file,
				What: "test code that could not be read, so it cannot be shown not to reach into the test runner: " + why})
		}
		return out
	}
	if c.python == "" {
		return unread("no Python interpreter was given to read it"), nil
	}
	var files, bases []string
	for _, p := range pairs {
		files = append(files, p.file)
		if p.base != "" {
			bases = append(bases, p.base)
		}
	}
	patched, err := c.Patch.ReadFiles(ctx, files)
	if err != nil {
		return nil, fmt.Errorf("checkout: read the patch's Python test files: %w", err)
	}
	base, err := c.Baseline.ReadFiles(ctx, bases)
	if err != nil {
		return nil, fmt.Errorf("checkout: read the baseline's Python test files: %w", err)
	}
	var reqs []inspect.PyRequest
	for _, p := range pairs {
		reqs = append(reqs, inspect.PyRequest{Src: patched[p.file], Harness: true})
		if p.base != "" {
			reqs = append(reqs, inspect.PyRequest{Src: base[p.base], Harness: true})
		}
	}
	res, err := inspect.Python(ctx, c.python, reqs)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return unread(err.Error()), nil
	}
	var out []inspect.Finding
	i := 0
	for _, p := range pairs {
		pr := res[i]
		i++
		var baseReach []inspect.PyItem
		if p.base != "" {
			if res[i].Err == "" {
				baseReach = res[i].Reach
			}
			i++
		}
		if pr.Err != "" {
			out = append(out, inspect.Finding{Rule: inspect.RuleTestHarness, File: p.file,
				What: "test code that does not parse, so it cannot be shown not to reach into the test runner: " + pr.Err})
			continue
		}
		for _, f := range inspect.PyNewItems(inspect.RuleTestHarness, p.file, baseReach, pr.Reach) {
			f.What = "test code that reaches into the test runner: " + f.What
			out = append(out, f)
		}
	}
	return out, nil
}

// pythonShadows finds the Python modules the patch adds or renames that
// shadow another module (see pyShadows). The standard library's names are
// the sealed interpreter's; without one, only the tree's and the runner's
// modules are compared.
func (c *Checkout) pythonShadows(ctx context.Context) ([]inspect.Finding, error) {
	var added []string
	for _, ch := range c.Changes {
		if (ch.Kind == Added || ch.Kind == Renamed) && isPy(ch.Path) {
			if e, ok := c.Patch.Lookup(ch.Path); ok && e.Mode != tree.ModeSymlink {
				added = append(added, ch.Path)
			}
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	reserved := map[string]string{}
	for _, m := range inspect.RunnerModules() {
		reserved[m] = "a module of the test runner"
	}
	for _, m := range []string{"sitecustomize", "usercustomize", "conftest"} {
		reserved[m] = "a module the interpreter or the test runner loads by name"
	}
	if c.python != "" {
		std, err := inspect.PythonStdlib(ctx, c.python)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			var out []inspect.Finding
			for _, p := range added {
				out = append(out, inspect.Finding{Rule: inspect.RuleTestHarness, File: p,
					What: "a new module that cannot be shown not to shadow the standard library: " + err.Error()})
			}
			return out, nil
		}
		for _, m := range std {
			if _, ok := reserved[m]; !ok {
				reserved[m] = "a module of the standard library"
			}
		}
	}
	var files []string
	for _, e := range c.Patch.Entries() {
		if e.Mode != tree.ModeSymlink && isPy(e.Path) {
			files = append(files, e.Path)
		}
	}
	return pyShadows(files, added, reserved), nil
}

// pyShadows returns, as findings of rule inspect.RuleTestHarness, the
// files of added (paths of files, a subset of the tree's .py files) that
// give a top-level module name another file of the tree also gives, or a
// reserved one (name → what it names), from a directory on the tests'
// sys.path: the tree's root (`python -m pytest` puts the working
// directory first) and each directory pytest inserts for its test
// modules and conftest.py files (the first directory above one without an
// __init__.py: its default "prepend" import mode). A module file directly
// below such a directory gives its name, a package's __init__.py the
// package's. pytest's own modules (test_*.py, *_test.py, conftest.py) are
// left to pytest, which refuses two test modules of one name.
func pyShadows(files, added []string, reserved map[string]string) []inspect.Finding {
	has := map[string]bool{}
	for _, f := range files {
		has[f] = true
	}
	roots := map[string]bool{".": true}
	for _, f := range files {
		if IsPytestModule(f) || path.Base(f) == "conftest.py" {
			roots[pyBasedir(f, has)] = true
		}
	}
	// owners maps a top-level name to the paths that give it as a regular
	// module: a module file directly below a root, or a package (a
	// directory with an __init__.py) there, named by its __init__.py. A
	// directory without one is a namespace package, which a regular
	// module of the same name anywhere on the path wins over, and which
	// merges with others: it shadows nothing.
	owners := map[string]map[string]bool{}
	give := func(f string) map[string]string { // name → owner
		out := map[string]string{}
		for r := range roots {
			rel := f
			if r != "." {
				var ok bool
				if rel, ok = strings.CutPrefix(f, r+"/"); !ok {
					continue
				}
			}
			name, owner := "", ""
			switch first, rest, nested := strings.Cut(rel, "/"); {
			case !nested && first != "__init__.py":
				name, owner = strings.TrimSuffix(first, ".py"), first
			case nested && rest == "__init__.py":
				name, owner = first, first+"/__init__.py"
			}
			if !isPyIdentifier(name) {
				continue
			}
			if r != "." {
				owner = r + "/" + owner
			}
			out[name] = owner
		}
		return out
	}
	for _, f := range files {
		for name, owner := range give(f) {
			if owners[name] == nil {
				owners[name] = map[string]bool{}
			}
			owners[name][owner] = true
		}
	}
	var out []inspect.Finding
	for _, f := range added {
		if IsPytestModule(f) || path.Base(f) == "conftest.py" {
			continue
		}
		gives := give(f)
		for _, name := range slices.Sorted(maps.Keys(gives)) {
			owner := gives[name]
			var others []string
			for o := range owners[name] {
				if o != owner {
					others = append(others, o)
				}
			}
			slices.Sort(others)
			what, ok := reserved[name]
			switch {
			case ok:
				out = append(out, inspect.Finding{Rule: inspect.RuleTestHarness, File: f,
					What: fmt.Sprintf("can be imported as %s, %s, from a directory on the tests' path (%s): it shadows that module", name, what, pyRootOf(owner))})
			case len(others) > 0:
				out = append(out, inspect.Finding{Rule: inspect.RuleTestHarness, File: f,
					What: fmt.Sprintf("can be imported as %s, which %s also gives: which one a test imports depends on the order of sys.path", name, strings.Join(others, ", "))})
			}
		}
	}
	return inspect.Sort(out)
}

// pyRootOf names the sys.path directory of an owner path.
func pyRootOf(owner string) string {
	if d := path.Dir(owner); d != "." {
		return d + "/"
	}
	return "the tree's root"
}

// pyBasedir is the directory pytest's prepend import mode puts on sys.path
// for a test module or conftest.py: the first directory above it without
// an __init__.py ("." when every one up to the root has one).
func pyBasedir(f string, has map[string]bool) string {
	dir := path.Dir(f)
	for dir != "." && has[dir+"/__init__.py"] {
		dir = path.Dir(dir)
	}
	return dir
}

// isPyIdentifier reports an ASCII Python identifier (a module name a
// plain import can use).
func isPyIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
		case i > 0 && '0' <= r && r <= '9':
		default:
			return false
		}
	}
	return true
}

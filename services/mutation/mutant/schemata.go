package mutant

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"maps"
	"slices"
)

// Schemata returns the rewritten sources of pkg in which every site of sites
// is behind the run-time switch sw: base file name → gofmt-formatted source,
// for the files that contain sites plus the switch file, which declares the
// switch and is always included (its name is "0_sealgate_mutant.go" unless
// the package has a file of that name). Files without sites are omitted:
// they stay as they are.
//
// Every site must have been returned by Find for the same pkg (its ID
// aside), have a distinct positive ID, have a token in sw, and not be
// Equivalent; the IDs need not be 1..n, so one selection and one Switch
// across packages can be split by package. Running the package with sw.Var
// set to a site's token (see Switch) runs that mutant; any other value runs
// the original. Schemata refuses, with an error, sites nested so deeply that
// the rewritten file would exceed 32 times its size plus 4 MiB.
//
// The generated code uses identifiers that start with a prefix no
// identifier of the package uses ("sealgate", else "sealgate1_", ...);
// test files not given in pkg.Tests are not seen and must not use it. It
// holds no token, only their SHA-256 digests, and uses no language feature
// newer than Go 1.9: it compiles whatever go version the module declares.
// When pkg type-checks, so must the result, or Schemata returns an error;
// otherwise the result is only known to parse.
func Schemata(pkg Package, sites []Site, sw Switch) (map[string][]byte, error) {
	ids := make(map[int]bool, len(sites))
	keys := make(map[siteKey]bool, len(sites))
	lines := make(map[string][]int)
	for _, s := range sites {
		if s.ID <= 0 {
			return nil, fmt.Errorf("mutant: site %s has ID %d, want a positive ID", s, s.ID)
		}
		if ids[s.ID] {
			return nil, fmt.Errorf("mutant: ID %d is used by more than one site", s.ID)
		}
		if keys[keyOf(s)] {
			return nil, fmt.Errorf("mutant: site %s is listed twice", s)
		}
		if s.Equivalent != "" {
			return nil, fmt.Errorf("mutant: site %s is equivalent to the original: it cannot be run", s)
		}
		ids[s.ID], keys[keyOf(s)] = true, true
		lines[s.File] = append(lines[s.File], s.Line)
	}
	if err := sw.check(sortedIDs(sites)); err != nil {
		return nil, err
	}
	a, err := analyze(pkg)
	if err != nil {
		return nil, err
	}
	if a.pkgName == "" {
		return nil, fmt.Errorf("mutant: the package has no file the host builds")
	}
	found, err := a.survey(lines)
	if err != nil {
		return nil, err
	}
	byKey := make(map[siteKey]*candidate, len(found.cands))
	for _, c := range found.cands {
		byKey[keyOf(c.site)] = c
	}
	chosen := make(map[string][]*candidate)
	converted := make(map[ast.Spec]bool)
	for _, s := range sites {
		c, ok := byKey[keyOf(s)]
		if !ok {
			return nil, fmt.Errorf("mutant: site %s is not a mutation site of the package", s)
		}
		c.site.ID = s.ID
		chosen[c.file] = append(chosen[c.file], c)
		if c.convert != nil && !converted[c.spec] {
			// The constant becomes a variable, so that the switch can
			// select its value at run time.
			converted[c.spec] = true
			chosen[c.file] = append(chosen[c.file], &candidate{site: c.site, file: c.file, how: rewriteDecl,
				start: c.declStart, end: c.declEnd, convert: c.convert, spec: c.spec})
		}
	}

	n := a.generatedNames(pkg)
	h := newHelpers(n)
	out := make(map[string][]byte, len(chosen)+1)
	for _, name := range slices.Sorted(maps.Keys(chosen)) {
		cs := chosen[name]
		// Rewrites copy some operands (a logical operator's right operand,
		// the operands of an increment or of an assignment, a value with
		// data mutants), so deeply nested sites could multiply the text;
		// past a limit, refuse.
		limit := maxGrowth*len(a.src[name]) + maxExtra
		r := &renderer{a: a, src: a.src[name], names: n, helpers: h, limit: limit}
		text, err := r.file(cs)
		if err != nil {
			return nil, fmt.Errorf("mutant: %s: %w", name, err)
		}
		formatted, err := format.Source([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("mutant: %s: rewritten source does not parse: %w", name, err)
		}
		out[name] = formatted
	}
	swSrc, err := format.Source([]byte(n.switchFile(a.pkgName, sw, sortedIDs(sites), h, false)))
	if err != nil {
		return nil, fmt.Errorf("mutant: switch file: %w", err)
	}
	out[n.file] = swSrc
	if err := a.verify(out, n, h); err != nil {
		return nil, err
	}
	return out, nil
}

// verify type-checks the package with the rewritten files when the original
// type-checked. The switch file is replaced by a stub with the same
// functions that imports only what the helpers' types need, so that
// verifying does not load os and crypto from source; the rest of the real
// switch file is fixed text.
func (a *analysis) verify(out map[string][]byte, n names, h *helpers) error {
	if !a.typed() {
		return nil
	}
	stub := n.switchFile(a.pkgName, Switch{}, nil, h, true)
	files := make([]*ast.File, 0, len(a.names)+1)
	f, err := parser.ParseFile(a.fset, a.path(n.file), stub, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("mutant: switch file stub: %w", err)
	}
	files = append(files, f)
	for _, name := range a.names {
		f := a.files[name]
		if src, ok := out[name]; ok {
			var err error
			f, err = parser.ParseFile(a.fset, a.path(name), src, parser.SkipObjectResolution)
			if err != nil {
				return fmt.Errorf("mutant: rewritten %s does not parse: %w", name, err)
			}
		}
		files = append(files, f)
	}
	if _, err := a.newConfig().Check(a.pkgName, a.fset, files, nil); err != nil {
		return fmt.Errorf("mutant: rewritten package does not type-check: %w", err)
	}
	return nil
}

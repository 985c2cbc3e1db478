package inspect

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// GoImportChanges compares the imports of each non-test Go file both
// sides hold (base and patched: file path → content): a name the file
// imports on both sides that names another package on the patch side
// (html/template → text/template, math/rand → crypto/rand) is a finding
// of RuleForeignCode at the import's line. An import is no statement to
// coverage and no mutant switches it, yet every call through the name now
// goes to other code, which the patch's lines do not show. Imports added
// or removed are not findings: the code that uses them changed with them,
// and is measured. Files that do not parse are left out: other analyses
// name them.
func GoImportChanges(base, patched map[string][]byte) []Finding {
	var out []Finding
	for _, file := range slices.Sorted(maps.Keys(patched)) {
		bsrc, ok := base[file]
		if !ok {
			continue
		}
		b, err := parseGo(file, bsrc)
		if err != nil {
			continue
		}
		p, err := parseGo(file, patched[file])
		if err != nil {
			continue
		}
		for _, imp := range p.f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				continue
			}
			for name, path := range p.imports {
				if path != ip {
					continue
				}
				if was, ok := b.imports[name]; ok && was != ip {
					out = append(out, Finding{Rule: RuleForeignCode, File: file, Line: p.line(imp.Pos()),
						What: fmt.Sprintf("changes what %s names from %q to %q: an import is no statement to coverage and no mutant switches it, yet every call through the name now goes to other code", name, was, ip)})
				}
			}
		}
	}
	return out
}

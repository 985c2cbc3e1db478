package inspect

import (
	"fmt"
	"go/scanner"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// SourceRefs is what one non-test source file can use a data file by:
// its string literals and, for Go, its //go:embed patterns.
type SourceRefs struct {
	// File is the source file's path.
	File string
	// Strings are its string literals: Go's unquoted, Python's as written
	// (prefix and quotes included); a name inside either is found.
	Strings []string
	// Embeds are the patterns of its //go:embed directives, as written
	// (an "all:" prefix kept).
	Embeds []string
}

// GoRefs reads the string literals and //go:embed patterns of Go source.
// Source the scanner cannot read is scanned as far as it goes: a reference
// is only ever added, so an error can only make a data file look used.
func GoRefs(file string, src []byte) SourceRefs {
	r := SourceRefs{File: file}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(file, -1, len(src)), src, nil, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return r
		case token.STRING:
			if v, err := strconv.Unquote(lit); err == nil {
				r.Strings = append(r.Strings, v)
			} else {
				r.Strings = append(r.Strings, lit)
			}
		case token.COMMENT:
			if rest, ok := strings.CutPrefix(lit, "//go:embed"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				r.Embeds = append(r.Embeds, embedPatterns(rest)...)
			}
		}
	}
}

// embedPatterns splits the arguments of a //go:embed directive: separated
// by spaces, each bare, "double-quoted" or `back-quoted`. What does not
// read as such is kept as one bare word.
func embedPatterns(args string) []string {
	var out []string
	for args = strings.TrimSpace(args); args != ""; args = strings.TrimSpace(args) {
		switch args[0] {
		case '"', '`':
			end := 1
			for end < len(args) && (args[end] != args[0] || args[0] == '"' && args[end-1] == '\\') {
				end++
			}
			if end < len(args) {
				if v, err := strconv.Unquote(args[:end+1]); err == nil {
					out = append(out, v)
					args = args[end+1:]
					continue
				}
			}
		}
		i := strings.IndexAny(args, " \t")
		if i < 0 {
			out = append(out, args)
			break
		}
		out = append(out, args[:i])
		args = args[i:]
	}
	return out
}

// DataFindings judges the changed data files (changed files that are not
// source, test code nor harness): a finding each, saying whether non-test
// source embeds it (a //go:embed pattern of a Go file in a directory above
// it matches it, or a directory above it) or names it (a string literal
// holds its base name as a whole name, or its directory's path from the
// repository root or from the source's directory), or neither — then only
// tests can read it, and it is test support. referenced lists the embedded
// or named ones, sorted.
func DataFindings(data []string, refs []SourceRefs) (findings []Finding, referenced []string) {
	for _, p := range data {
		var by []string
		for _, r := range refs {
			if how := refersTo(r, p); how != "" {
				by = append(by, how)
			}
		}
		slices.Sort(by)
		if len(by) == 0 {
			findings = append(findings, Finding{Rule: RuleDataFile, File: p, What: "changed data file that no non-test source embeds or names: only tests read it (test support)"})
			continue
		}
		referenced = append(referenced, p)
		if len(by) > 3 {
			by = append(by[:3], fmt.Sprintf("%d more", len(by)-3))
		}
		findings = append(findings, Finding{Rule: RuleDataFile, File: p, What: "changed data file that non-test source uses: " + strings.Join(by, "; ")})
	}
	slices.Sort(referenced)
	return Sort(findings), slices.Compact(referenced)
}

// EmbeddedTestData returns a finding of RuleForeignCode for each changed
// file of the tests' own — under a testdata directory, or test code such
// as a file under tests/ (changed: slash-separated paths) — that a
// //go:embed pattern of the non-test sources refs matches. The gate reads
// testdata as the tests' own and puts the baseline's version back for
// every run (the patch never writes its oracle), yet the package's code
// embeds the patch's bytes in every build users make: what ran is not
// what ships.
func EmbeddedTestData(changed []string, refs []SourceRefs) []Finding {
	var out []Finding
	for _, p := range changed {
	refs:
		for _, r := range refs {
			rel, ok := below(path.Dir(r.File), p)
			if !ok {
				continue
			}
			for _, pat := range r.Embeds {
				if embedMatches(strings.TrimPrefix(pat, "all:"), rel) {
					out = append(out, Finding{Rule: RuleForeignCode, File: p,
						What: fmt.Sprintf("changes a file of the tests' own (under testdata or tests/) that %s embeds (//go:embed %s): every run puts the baseline's version back, as for any test file, yet the code built from the patch embeds this one", r.File, pat)})
					break refs
				}
			}
		}
	}
	return Sort(out)
}

// refersTo says how r uses data file p, or "".
func refersTo(r SourceRefs, p string) string {
	dir := path.Dir(r.File)
	if rel, ok := below(dir, p); ok {
		for _, pat := range r.Embeds {
			if embedMatches(strings.TrimPrefix(pat, "all:"), rel) {
				return fmt.Sprintf("%s embeds it (//go:embed %s)", r.File, pat)
			}
		}
	}
	base, pdir := path.Base(p), path.Dir(p)
	relDir, under := below(dir, pdir)
	for _, s := range r.Strings {
		if hasName(s, base) {
			return fmt.Sprintf("%s names %s", r.File, strconv.Quote(base))
		}
		t := strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
		if t != "" && t != "." && (t == pdir || under && t == relDir) {
			return fmt.Sprintf("%s names its directory %s", r.File, strconv.Quote(t))
		}
	}
	return ""
}

// below returns p relative to dir when p is inside dir.
func below(dir, p string) (string, bool) {
	if dir == "." {
		return p, true
	}
	rel, ok := strings.CutPrefix(p, dir+"/")
	return rel, ok
}

// embedMatches reports whether an embed pattern matches the file rel (a
// path below the embedding file's directory) or a directory above it.
func embedMatches(pattern, rel string) bool {
	for p := rel; p != "."; p = path.Dir(p) {
		if ok, err := path.Match(pattern, p); err == nil && ok {
			return true
		}
	}
	return false
}

// hasName reports whether s holds name as a whole file name: not preceded
// or followed by a character that could continue it.
func hasName(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !isNameByte(s[start-1])) && (end == len(s) || !isNameByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}

package checkout

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// Class says how the gate can judge a changed file.
type Class string

// Classes of changed files. Anything not known to be source, test code,
// harness, or a document, data or configuration file is foreign: the gate
// fails closed on what it cannot judge.
const (
	// ClassSource: Go code that is not test code (a .go file).
	ClassSource Class = "source"
	// ClassTest: test code (see Checkout.IsTestFile).
	ClassTest Class = "test"
	// ClassHarness: a file that controls how tests build and run: go.mod,
	// go.sum, go.work, go.work.sum at any depth, anything under a vendor
	// directory at any depth.
	ClassHarness Class = "harness"
	// ClassForeign: source the gate cannot judge: other languages, build
	// scripts (Makefile, Dockerfile), symbolic links, unknown suffixes.
	ClassForeign Class = "foreign"
	// ClassBinary: a binary change; its lines cannot be judged.
	ClassBinary Class = "binary"
	// ClassOther: documentation, data and configuration: .md, .txt, .json,
	// .yaml, .toml, .csv and the like, LICENSE, README, CHANGELOG,
	// .gitignore, .gitattributes.
	ClassOther Class = "other"
)

// Kind is how a file changed.
type Kind string

// Kinds of change.
const (
	Added    Kind = "added"
	Modified Kind = "modified"
	Deleted  Kind = "deleted"
	Renamed  Kind = "renamed"
)

// isHarnessName reports the names of Go harness files.
func isHarnessName(base string) bool {
	switch base {
	case "go.mod", "go.sum", "go.work", "go.work.sum":
		return true
	}
	return false
}

// isHarness reports whether p is a Go harness file: go.mod, go.sum, go.work
// or go.work.sum at any depth, or anything under a vendor directory at any
// depth.
func isHarness(p string) bool {
	return isHarnessName(path.Base(p)) || hasDir(p, "vendor")
}

// hasDir reports whether a directory component of p is dir.
func hasDir(p, dir string) bool {
	return strings.HasPrefix(p, dir+"/") || strings.Contains(p, "/"+dir+"/")
}

// isTestFile reports whether p is test code: a *_test.go file, anything
// under a testdata directory at any depth, or a file a test-support glob
// matches.
func isTestFile(p string, globs []string) bool {
	if strings.HasSuffix(p, "_test.go") || hasDir(p, "testdata") {
		return true
	}
	for _, g := range globs {
		if globMatch(g, p) {
			return true
		}
	}
	return false
}

// isGoTestFile reports whether p is a Go test file that go test compiles
// (not one under testdata).
func isGoTestFile(p string) bool {
	return strings.HasSuffix(p, "_test.go") && !hasDir(p, "testdata")
}

// isDocumentExt reports the suffixes of documentation, data and
// configuration.
func isDocumentExt(ext string) bool {
	switch ext {
	case ".md", ".markdown", ".txt", ".rst", ".adoc", ".json", ".yaml", ".yml", ".toml", ".csv", ".tsv":
		return true
	}
	return false
}

// isDocument reports whether p is documentation, data or configuration,
// judged by its name only. Names are compared without letter case.
func isDocument(p string) bool {
	base := strings.ToLower(path.Base(p))
	ext := path.Ext(base)
	if isDocumentExt(ext) {
		return true
	}
	switch base {
	case ".gitignore", ".gitattributes", ".mailmap", ".editorconfig", "codeowners":
		return true
	}
	// LICENSE, README-ja, CHANGELOG.md: a known name, alone or followed by
	// a separator, with no suffix or a document suffix.
	for _, name := range []string{"readme", "changelog", "changes", "license", "licence", "copying", "notice", "authors", "contributors"} {
		rest, ok := strings.CutPrefix(base, name)
		if !ok {
			continue
		}
		if rest == "" || (strings.ContainsAny(rest[:1], ".-_") && ext == "") {
			return true
		}
	}
	return false
}

// classify returns the class of a changed path. binary is set for a binary
// change, symlink when the path is a symbolic link on either side.
func classify(p string, globs []string, binary, symlink bool) Class {
	switch {
	case isHarness(p):
		return ClassHarness
	case isTestFile(p, globs):
		return ClassTest
	case binary:
		return ClassBinary
	case symlink:
		return ClassForeign
	case strings.HasSuffix(p, ".go"):
		return ClassSource
	case isDocument(p):
		return ClassOther
	}
	return ClassForeign
}

// checkGlob refuses a test-support glob that Prepare cannot match exactly.
// Globs match whole slash-separated paths relative to the repository root;
// `*` matches any run of characters, `/` included, and `?` one character
// other than `/`. Character classes and escapes are not supported.
func checkGlob(g string) error {
	switch {
	case g == "":
		return fmt.Errorf("empty test-support glob")
	case !utf8.ValidString(g) || strings.ContainsAny(g, "\x00\n\r"):
		return fmt.Errorf("test-support glob %q is not valid text", g)
	case strings.HasPrefix(g, "/") || strings.HasPrefix(g, "./"):
		return fmt.Errorf("test-support glob %q must be relative to the repository root, without a leading / or ./", g)
	case strings.ContainsAny(g, `[]\`):
		return fmt.Errorf("test-support glob %q uses [, ] or \\: only * and ? are supported", g)
	}
	return nil
}

// globMatch matches p against glob g (see checkGlob), rune by rune, with the
// usual backtracking to the last star.
func globMatch(g, p string) bool {
	gr, pr := []rune(g), []rune(p)
	gi, pi := 0, 0
	star, mark := -1, 0
	for pi < len(pr) {
		switch {
		case gi < len(gr) && gr[gi] == '*':
			star, mark = gi, pi
			gi++
		case gi < len(gr) && (gr[gi] == pr[pi] || (gr[gi] == '?' && pr[pi] != '/')):
			gi++
			pi++
		case star >= 0:
			mark++
			pi = mark
			gi = star + 1
		default:
			return false
		}
	}
	for gi < len(gr) && gr[gi] == '*' {
		gi++
	}
	return gi == len(gr)
}

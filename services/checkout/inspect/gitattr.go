package inspect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The gate reads a tree's blobs as git stores them. What a user gets is
// not always that: cmd/go fetches a module with git archive (so does the
// module proxy), which leaves out export-ignore paths and fills in
// export-subst placeholders ("$Format:%H$"), and a checkout applies eol,
// text, ident, filter and working-tree-encoding. A patch that sets one of
// these makes the tree the gate tests differ from the one users build.

// transforming reports the attributes that make an archive or a checkout
// differ from the blob, when set or given a value.
func transforming(attr string) bool {
	switch attr {
	case "export-ignore", "export-subst", "filter", "eol", "text", "crlf", "ident", "working-tree-encoding":
		return true
	}
	return false
}

// attrLine is one line of a .gitattributes file: its pattern (or, for a
// macro definition, "[attr]name") and its attributes as written.
type attrLine struct {
	pattern string
	attrs   []string
	macro   bool
}

// parseAttrLine reads one line; ok is false for blank and comment lines.
// A quoted pattern is unquoted as git does (C-style); one that does not
// unquote is kept as written.
func parseAttrLine(line string) (attrLine, bool) {
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	if line == "" || line[0] == '#' {
		return attrLine{}, false
	}
	var l attrLine
	rest := line
	if line[0] == '"' {
		end := 1
		for end < len(line) && (line[end] != '"' || line[end-1] == '\\') {
			end++
		}
		if end < len(line) {
			if v, err := strconv.Unquote(line[:end+1]); err == nil {
				l.pattern, rest = v, line[end+1:]
			}
		}
	}
	if l.pattern == "" {
		fields := strings.Fields(line)
		l.pattern, rest = fields[0], strings.TrimPrefix(line, fields[0])
	}
	l.macro = strings.HasPrefix(l.pattern, "[attr]")
	l.attrs = strings.Fields(rest)
	return l, true
}

// setting returns the attribute a word of a line sets ("text" for text,
// text=auto and eol=crlf's eol), or "" for an unset (-text) or
// unspecified (!text) one.
func setting(word string) string {
	if word == "" || word[0] == '-' || word[0] == '!' {
		return ""
	}
	name, _, _ := strings.Cut(word, "=")
	return name
}

// GitAttributes returns what the patch version of a .gitattributes file
// newly sets that makes git archive or a checkout give other content
// than the blobs the gate tests: lines (compared with the baseline's as
// a multiset of their text) setting export-ignore, export-subst, filter,
// eol, text, crlf, ident or working-tree-encoding, directly or through a
// macro either version defines with one of them, and macro definitions
// holding one. Each is "LINE: what", in line order. base is nil for a new
// file.
func GitAttributes(base, patched []byte) []string {
	var had []string
	macros := map[string][]string{} // macro name → the transforming attributes it sets
	read := func(src []byte) []string {
		lines := strings.Split(string(src), "\n")
		for _, text := range lines {
			if l, ok := parseAttrLine(text); ok && l.macro {
				name := strings.TrimPrefix(l.pattern, "[attr]")
				for _, w := range l.attrs {
					if a := setting(w); transforming(a) && !slices.Contains(macros[name], a) {
						macros[name] = append(macros[name], a)
					}
				}
			}
		}
		return lines
	}
	if base != nil {
		for _, text := range read(base) {
			had = append(had, strings.TrimSpace(text))
		}
	}
	var out []string
	for i, text := range read(patched) {
		if j := slices.Index(had, strings.TrimSpace(text)); j >= 0 {
			had = slices.Delete(had, j, j+1)
			continue
		}
		l, ok := parseAttrLine(text)
		if !ok {
			continue
		}
		var sets []string
		for _, w := range l.attrs {
			a := setting(w)
			switch {
			case transforming(a):
				sets = append(sets, w)
			case len(macros[a]) > 0 && !l.macro:
				sets = append(sets, fmt.Sprintf("%s (a macro for %s)", w, strings.Join(macros[a], ", ")))
			}
		}
		if len(sets) == 0 {
			continue
		}
		what := fmt.Sprintf("sets %s for %s", strings.Join(sets, ", "), strconv.Quote(l.pattern))
		if l.macro {
			what = fmt.Sprintf("defines macro %s as %s", strconv.Quote(strings.TrimPrefix(l.pattern, "[attr]")), strings.Join(sets, ", "))
		}
		out = append(out, fmt.Sprintf("%d: %s", i+1, what))
	}
	return out
}

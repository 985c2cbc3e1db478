package inspect

import (
	"strings"
	"testing"
)

// TestGitAttributesAttacks: every way a .gitattributes line makes git
// archive or a checkout give other content than the blob is found, in the
// lines the patch adds.
func TestGitAttributesAttacks(t *testing.T) {
	for _, tc := range []struct {
		name, base, patch string
		want              []string
	}{
		{"export-subst", "", "calc/median.go export-subst\n", []string{`1: sets export-subst for "calc/median.go"`}},
		{"export-ignore after a comment", "", "# releases\n/calc/even.go\texport-ignore\n", []string{`2: sets export-ignore for "/calc/even.go"`}},
		{"eol and text", "*.md linguist-documentation\n", "*.md linguist-documentation\n*.txt text eol=crlf\n", []string{`2: sets text, eol=crlf for "*.txt"`}},
		{"a filter driver", "", "*.go filter=clean\n", []string{`1: sets filter=clean for "*.go"`}},
		{"ident and an encoding", "", "a.go ident\nb.txt working-tree-encoding=UTF-16\n", []string{`1: sets ident for "a.go"`, `2: sets working-tree-encoding=UTF-16 for "b.txt"`}},
		{"a quoted pattern", "", "\"calc/my file.go\" export-subst\n", []string{`1: sets export-subst for "calc/my file.go"`}},
		{"a macro defined and used", "", "[attr]release export-ignore -diff\ncalc/even.go release\n",
			[]string{`1: defines macro "release" as export-ignore`, `2: sets release (a macro for export-ignore) for "calc/even.go"`}},
		{"a baseline macro newly used", "[attr]stamp export-subst\n", "[attr]stamp export-subst\ncalc/median.go stamp\n",
			[]string{`2: sets stamp (a macro for export-subst) for "calc/median.go"`}},
		{"the same line moved counts once", "*.go export-subst\n", "*.go export-subst\n*.go export-subst\n", []string{`2: sets export-subst for "*.go"`}},
		{"CRLF lines", "", "calc/median.go export-subst\r\n", []string{`1: sets export-subst for "calc/median.go"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var base []byte
			if tc.base != "" {
				base = []byte(tc.base)
			}
			got := GitAttributes(base, []byte(tc.patch))
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Fatalf("finding %d is %q, want %q", i, got[i], w)
				}
			}
		})
	}
}

// TestGitAttributesHonest: attributes that change no content — diff
// drivers, linguist, binary, unset and unspecified transforms, lines the
// baseline already had, comments — are no finding.
func TestGitAttributesHonest(t *testing.T) {
	for name, tc := range map[string][2]string{
		"linguist and binary":      {"", "*.md linguist-documentation\n*.png binary\n*.go diff=golang\n"},
		"transforms turned off":    {"", "*.go -text\n*.txt !eol -export-ignore\n"},
		"the baseline's own lines": {"*.go export-subst\n", "# stamped\n*.go export-subst\n"},
		"a macro of no transform":  {"", "[attr]gen linguist-generated -diff\nzz_gen.go gen\n"},
		"blank and odd lines":      {"", "\n   \n#x export-ignore\n"},
	} {
		t.Run(name, func(t *testing.T) {
			var base []byte
			if tc[0] != "" {
				base = []byte(tc[0])
			}
			if got := GitAttributes(base, []byte(tc[1])); len(got) != 0 {
				t.Fatalf("findings %q for attributes that change no content", got)
			}
		})
	}
}

// FuzzGitAttributes: any bytes give findings of the form "LINE: what", one
// line each, in line order, and never a panic.
func FuzzGitAttributes(f *testing.F) {
	f.Add([]byte("*.go text\n"), []byte("\"a b\" export-subst\n[attr]x ident\ny x\n"))
	f.Add([]byte(nil), []byte("\"unterminated export-ignore\n-x\n"))
	f.Fuzz(func(t *testing.T, base, patched []byte) {
		got := GitAttributes(base, patched)
		last := 0
		for _, g := range got {
			n, _, ok := strings.Cut(g, ": ")
			if !ok || strings.ContainsAny(g, "\n") {
				t.Fatalf("finding %q is not one line LINE: what", g)
			}
			var line int
			for _, c := range n {
				if c < '0' || c > '9' {
					t.Fatalf("finding %q has no line number", g)
				}
				line = line*10 + int(c-'0')
			}
			if line < last {
				t.Fatalf("findings out of order: %q", got)
			}
			last = line
		}
	})
}

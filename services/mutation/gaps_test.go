package mutation

import (
	"fmt"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// wholeDiff is a unified diff of one file p.go from base to patched: one
// hunk of every line, the lines of a longest common subsequence kept, the
// removed lines of each change before the added ones (as git writes them).
func wholeDiff(base, patched string) string {
	a := strings.Split(strings.TrimSuffix(base, "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(patched, "\n"), "\n")
	pairs := lcsIndex(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
	var out strings.Builder
	fmt.Fprintf(&out, "diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1,%d +1,%d @@\n", len(a), len(b))
	i, j := 0, 0
	for _, p := range append(pairs, [2]int{len(a), len(b)}) {
		for ; i < p[0]; i++ {
			out.WriteString("-" + a[i] + "\n")
		}
		for ; j < p[1]; j++ {
			out.WriteString("+" + b[j] + "\n")
		}
		if p[0] < len(a) {
			out.WriteString(" " + a[p[0]] + "\n")
			i, j = p[0]+1, p[1]+1
		}
	}
	return out.String()
}

// TestGaps: what a patch changes outside every statement — an else
// written or deleted, a label moved, lines deleted on their own or in the
// fix's run, a statement's tokens deleted across a line break — is a gap,
// restored in the smallest statement holding it with the other gaps there
// (and nothing else the patch changed: the fix stays); a comment removed,
// a declaration deleted, a line rewritten, a term deleted inside a
// statement are none.
func TestGaps(t *testing.T) {
	const fix = "\tn := 5 // the fix: 3 before\n"
	wrap := func(body string) string {
		return "package p\n\nimport \"strings\"\n\nvar _ = strings.ToUpper\n\nfunc f(kind string) int {\n" + body + "}\n\nfunc g() int { return 1 }\n"
	}
	two := "\tif strings.HasPrefix(kind, \"super\") {\n\t\tn = 9\n\t}\n\tif kind == \"admin\" {\n\t\tn = 1\n\t}\n"
	elsed := "\tif strings.HasPrefix(kind, \"super\") {\n\t\tn = 9\n\t} else if kind == \"admin\" {\n\t\tn = 1\n\t}\n"
	loops := func(outer, inner string) string {
		return "\tm := 0\n" + outer + "\tfor i := range 3 {\n" + inner + "\t\tfor range kind {\n\t\t\tm += i\n\t\t\tcontinue outer\n\t\t}\n\t}\n\treturn n + m\n"
	}
	for _, tc := range []struct {
		name        string
		base, patch string
		want        []string // "what | patch statement → restore", innermost of each gap first
	}{
		{"an else written", wrap("\tn := 3\n" + two + "\treturn n\n"), wrap(fix + elsed + "\treturn n\n"), []string{
			"written outside any statement: else | " + flat(elsed) + " → " + flat(strings.Replace(elsed, "} else if", "} ; if", 1)),
		}},
		{"an else deleted", wrap("\tn := 3\n" + elsed + "\treturn n\n"), wrap(fix + two + "\treturn n\n"), []string{
			"deleted: else | " + flat("{\n"+fix+two+"\treturn n\n}") + " → " + flat("{\n"+fix+strings.Replace(two, "}\n\tif kind", "} else \n\tif kind", 1)+"\treturn n\n}"),
		}},
		{"a label moved", wrap("\tn := 3\n" + loops("outer:\n", "")), wrap(fix + loops("", "\touter:\n")), []string{
			"lines deleted: outer: | " + flat("{\n"+fix+loops("", "\touter:\n")+"}") + " → " + flat("{\n"+fix+loops("outer:\n", "\touter:\n")+"}"),
			"written outside any statement: outer: | " + flat("outer:\n\t\tfor range kind {\n\t\t\tm += i\n\t\t\tcontinue outer\n\t\t}") + " → " + flat(";\n\t\tfor range kind {\n\t\t\tm += i\n\t\t\tcontinue outer\n\t\t}"),
		}},
		{"lines deleted", wrap("\tn := 3\n\tn *= len(kind)\n\treturn n\n"), wrap(fix + "\treturn n\n"), []string{
			"lines deleted: n *= len(kind) | " + flat("{\n"+fix+"\treturn n\n}") + " → " + flat("{\n"+fix+"\tn *= len(kind)\n\treturn n\n}"),
		}},
		{"a line deleted in the fix's run", wrap("\tn := 3\n\tn *= len(kind)\n\treturn n\n"), wrap("\tn := 5\n\treturn n\n"), []string{
			"lines deleted: n *= len(kind) | " + flat("{\n\tn := 5\n\treturn n\n}") + " → " + flat("{\n\tn := 5\n\tn *= len(kind)\n\treturn n\n}"),
		}},
		{"a block deleted", wrap("\tn := 3\n\tif n > len(kind) {\n\t\tn = 0\n\t}\n\treturn n\n"), wrap(fix + "\treturn n\n"), []string{
			"lines deleted: if n > len(kind) { n = 0 } | " + flat("{\n"+fix+"\treturn n\n}") + " → " + flat("{\n"+fix+"\tif n > len(kind) {\n\t\tn = 0\n\t}\n\treturn n\n}"),
		}},
		{"an else written after a return", wrap("\tn := 3\n\tif kind == \"\" {\n\t\treturn 0\n\t}\n\treturn n\n"), wrap(fix + "\tif kind == \"\" {\n\t\treturn 0\n\t} else {\n\t\treturn n\n\t}\n"), nil},
		{"an else deleted after a return", wrap("\tn := 3\n\tif kind == \"\" {\n\t\treturn 0\n\t} else if kind == \"a\" {\n\t\tn = 1\n\t}\n\treturn n\n"), wrap(fix + "\tif kind == \"\" {\n\t\treturn 0\n\t}\n\tif kind == \"a\" {\n\t\tn = 1\n\t}\n\treturn n\n"), nil},
		{"a function added, comments after its statements", wrap("\tn := 3\n\treturn n\n"), wrap(fix+"\treturn n\n") + "\nfunc h(s []byte) bool {\n\treturn s[0] == 'i' || // inf\n\t\ts[0] == 'n' // nan\n}\n", nil},
		{"a wrong deletion beside a fix that deletes", wrap("\tn := 3\n\tn--\n\tif kind == \"\" {\n\t\tn = 0\n\t}\n\tn += len(kind)\n\treturn n\n"), wrap("\tn := 3\n\tif kind == \"\" {\n\t\tn = 0\n\t}\n\treturn n\n"), []string{
			"lines deleted: n-- | " + flat("{\n\tn := 3\n\tif kind == \"\" {\n\t\tn = 0\n\t}\n\treturn n\n}") + " → " + flat("{\n\tn := 3\n\tn--\n\tif kind == \"\" {\n\t\tn = 0\n\t}\n\treturn n\n}"),
			"lines deleted: n += len(kind) | " + flat("{\n\tn := 3\n\tif kind == \"\" {\n\t\tn = 0\n\t}\n\treturn n\n}") + " → " + flat("{\n\tn := 3\n\tif kind == \"\" {\n\t\tn = 0\n\t}\n\tn += len(kind)\n\treturn n\n}"),
		}},
		{"a label's first value deleted", wrap("\tn := 3\n\tswitch kind {\n\tcase \"root\", \"admin\":\n\t\tn = 1\n\t}\n\treturn n\n"), wrap(fix + "\tswitch kind {\n\tcase \"admin\":\n\t\tn = 1\n\t}\n\treturn n\n"), []string{
			`deleted: "root", | switch kind { case "admin": n = 1 }` + ` → switch kind { case "root", "admin": n = 1 }`,
		}},
		{"defer dropped", wrap("\tn := 3\n\tmu.Lock()\n\tdefer mu.Unlock()\n\treturn n\n"), wrap(fix + "\tmu.Lock()\n\tmu.Unlock()\n\treturn n\n"), []string{
			"deleted: defer | " + flat("{\n"+fix+"\tmu.Lock()\n\tmu.Unlock()\n\treturn n\n}") + " → " + flat("{\n"+fix+"\tmu.Lock() defer \n\tmu.Unlock()\n\treturn n\n}"),
		}},
		{"a line rewritten into several, a bracket left over", "package p\n\nfunc f(s []float64) float64 {\n\treturn s[len(s)/2]\n}\n",
			"package p\n\nfunc f(s []float64) float64 {\n\tn := len(s)\n\tif n%2 == 1 {\n\t\treturn s[n/2]\n\t}\n\treturn (s[n/2-1] + s[n/2]) / 2\n}\n", nil},
		{"ifs folded into one return", wrap("\tn := 3\n\tif n < len(kind) {\n\t\treturn len(kind)\n\t}\n\tif n > 9 {\n\t\treturn 9\n\t}\n\treturn n\n"), wrap("\tn := 3\n\treturn max(len(kind), min(n, 9))\n"), nil},
		{"a comment deleted", wrap("\tn := 3\n\t// three\n\treturn n\n"), wrap(fix + "\treturn n\n"), nil},
		// Moved, not deleted: put back where it stood and taken out of
		// where it went (run twice, n doubles and any test notices).
		{"a statement moved", wrap("\tn := 3\n\tif kind == \"\" {\n\t\treturn n\n\t}\n\tn++\n\treturn n\n"), wrap(fix + "\tn++\n\tif kind == \"\" {\n\t\treturn n\n\t}\n\treturn n\n"), []string{
			"lines deleted: n++ | " + flat("{\n"+fix+"\tn++\n\tif kind == \"\" {\n\t\treturn n\n\t}\n\treturn n\n}") + " → " + flat("{\n"+fix+"\n\tif kind == \"\" {\n\t\treturn n\n\t}\n\tn++\n\treturn n\n}"),
		}},
		{"a line rewritten whole", wrap("\tn := 3\n\treturn n\n"), wrap("\tn := 3\n\tm := len(kind)\n\treturn m\n"), nil},
		{"a term deleted inside a statement", wrap("\tn := 3 + len(kind)\n\treturn n\n"), wrap(fix + "\treturn n\n"), nil},
		{"a function deleted", wrap("\tn := 3\n\treturn n\n") + "\nfunc h() int { return 2 }\n", wrap(fix + "\treturn n\n"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diff := wholeDiff(tc.base, tc.patch)
			src := []byte(tc.patch)
			e := written([]byte(diff), func(string) ([]byte, bool) { return src, true })
			ix := indexStatements("p.go", src, nil)
			exprs, _ := restoresOf("p.go", src, ix, e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], 0)
			gaps := gapsOf(src, ix, e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], e.removed["p.go"], exprs)
			rs, units, _ := gapRestores("p.go", src, gaps, 0)
			var got []string
			for _, u := range units {
				if u.maybe && !slices.ContainsFunc(rs, func(r mutant.Restore) bool {
					_, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+r.Text+"\n}\n", 0)
					return r.At == u.at && err == nil
				}) {
					continue // none of its restores parses: the mutator drops it
				}
				for _, r := range rs {
					if r.At == u.at && r.Stmt {
						got = append(got, u.what+" | "+flat(tc.patch[r.Start:r.End])+" → "+flat(r.Text))
						break
					}
				}
			}
			if tc.name == "a label moved" {
				// Each half alone does not compile; reverted together,
				// the fix kept, they do.
				both := flat("{\n" + fix + loops("outer:\n", ";\n") + "}")
				for _, u := range units {
					if !slices.ContainsFunc(rs, func(r mutant.Restore) bool { return r.At == u.at && flat(r.Text) == both }) {
						t.Errorf("%s: no restore reverts both halves of the label: %s", u.what, both)
					}
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("gaps, their innermost restores:\n%s\nwant:\n%s\ndiff:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), diff)
			}
		})
	}
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestGapElseWhereATokenStood: an else the patch wrote where the
// alignment pairs it with a token the baseline deleted there (the 0 of n =
// 0, as go-runewidth v0.0.7 does) has that token as what stood there,
// which does not compile in its place; the else taken out (} ; {) is
// tried next in the same group, so the gap is still judged.
func TestGapElseWhereATokenStood(t *testing.T) {
	base := "package p\n\nfunc f(kind string, w int) int {\n\tn := 3\n\tif kind == \"\" {\n\t\tw = 0\n\t}\n\tn += w\n\treturn n\n}\n"
	patch := "package p\n\nfunc f(kind string, w int) int {\n\tn := 3\n\tif kind == \"\" {\n\t\tif n < w {\n\t\t\tn = w\n\t\t}\n\t} else {\n\t\tn += w\n\t}\n\treturn n\n}\n"
	src := []byte(patch)
	e := written([]byte(wholeDiff(base, patch)), func(string) ([]byte, bool) { return src, true })
	ix := indexStatements("p.go", src, nil)
	exprs, _ := restoresOf("p.go", src, ix, e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], 0)
	gaps := gapsOf(src, ix, e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], e.removed["p.go"], exprs)
	rs, units, _ := gapRestores("p.go", src, gaps, 0)
	var elseGap *gap
	for i, u := range units {
		if strings.HasSuffix(u.what, ": else") {
			elseGap = &units[i]
		}
	}
	if elseGap == nil {
		t.Fatalf("no gap for the else: %+v", units)
	}
	takenOut := flat("if kind == \"\" {\n\t\tif n < w {\n\t\t\tn = w\n\t\t}\n\t} ; {\n\t\tn += w\n\t}")
	var texts []string
	for _, r := range rs {
		if r.At == elseGap.at {
			texts = append(texts, flat(r.Text))
		}
	}
	if !slices.Contains(texts, takenOut) {
		t.Errorf("the else's restores:\n%s\nwant among them:\n%s", strings.Join(texts, "\n"), takenOut)
	}
}

// TestLosesNameReadDropped: lines that only assign a variable the patch
// no longer has are a rewrite when what they read is still read as often
// in the function's changed lines (a guard folded into a condition), and
// a deletion when a read of theirs went nowhere (the guard dropped, its
// flag still read further down). Tokens of two statements replaced by a
// few, losing both, are a gap of their own.
func TestLosesNameReadDropped(t *testing.T) {
	head := "package p\n\nfunc Size(v int, flag bool) string {\n"
	tail := " > 5 {\n\t\ts = \"big\"\n\t}\n\tif flag {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n"
	base := head + "\tn := v / 2\n\tif !flag {\n\t\tn = 0\n\t}\n\ts := \"small\"\n\tif n" + tail
	for _, tc := range []struct {
		name, patch string
		loses       bool   // the guard's lines lose a name
		replaced    string // the what of a replaced-across gap, if any
	}{
		{"guard dropped", head + "\tm := v\n\ts := \"small\"\n\tif m" + tail, true, ""},
		{"guard folded", head + "\tm := v\n\ts := \"small\"\n\tif flag && m" + tail, false, ""},
		{"guard folded, no variable", head + "\ts := \"small\"\n\tif flag && v" + tail, false, ""},
		{"guard dropped, flag spelled anew elsewhere", head + "\tm := v\n\ts := \"small\"\n\tif m > 5 {\n\t\ts = \"big\"\n\t}\n\tif flag && flag {\n\t\ts += \"!\"\n\t}\n\treturn s\n}\n", true, ""},
		{"guard moved into the definition", head + "\tm := pick(flag, v)\n\ts := \"small\"\n\tif m" + tail, false, ""},
		{"guard replaced", head + "\tm := v + 0\n\ts := \"small\"\n\tif m" + tail, false, "deleted: / 2 if !flag { n =, replaced by +"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.patch)
			e := written([]byte(wholeDiff(base, tc.patch)), func(string) ([]byte, bool) { return src, true })
			ix := indexStatements("p.go", src, nil)
			exprs, _ := restoresOf("p.go", src, ix, e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], 0)
			loses, replaced := false, ""
			for _, g := range gapsOf(src, ix, e.runs["p.go"], e.wrote["p.go"], e.dels["p.go"], e.removed["p.go"], exprs) {
				if strings.Contains(g.what, "replaced by") {
					replaced = g.what
				}
				if g.maybe && strings.Contains(g.text, "n = 0") && losesName(src, g.at, g.text, e.runs["p.go"]) {
					loses = true
				}
			}
			if loses != tc.loses || replaced != tc.replaced {
				t.Errorf("loses a name %v, replaced-across gap %q; want %v, %q", loses, replaced, tc.loses, tc.replaced)
			}
		})
	}
}

package cover

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestCodeLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []int
	}{
		{"empty", "", nil},
		{"package clause", "package p\n", []int{1}},
		{"no final newline", "package p\n\nvar x = 1", []int{1, 3}},
		{"blank and whitespace lines", "package p\n\n  \t\nvar x = 1\n\n", []int{1, 4}},
		{"line comments", "// doc\npackage p // trailing\n\t// indented\nvar x = 1\n", []int{2, 4}},
		{
			"block comment over lines",
			"package p\n/*\n  func f() {\n  }\n*/\nvar x = 1\n",
			[]int{1, 6},
		},
		{
			"code before and after block comments",
			"package p\nvar x = /* start\n middle\n end */ 1\nvar /* inline */ y = 2\n/* only */\n",
			[]int{1, 2, 4, 5},
		},
		{
			"raw string over lines, with a blank line and a comment-like line",
			"package p\n\nvar s = `first\n\n// not a comment\n/* nor this */\nlast`\n\nvar t = 1\n",
			[]int{1, 3, 4, 5, 6, 7, 9},
		},
		{
			"raw string with CRLF",
			"package p\r\nvar s = `a\r\nb\r\n`\r\n",
			[]int{1, 2, 3, 4},
		},
		{"interpreted string with escaped newline", "package p\nvar s = \"a\\nb\"\n", []int{1, 2}},
		{"braces and semicolons are code", "package p\nfunc f() {\n\t;\n}\n", []int{1, 2, 3, 4}},
		{"byte order mark", "\ufeffpackage p\n// x\n", []int{1}},
		{"comment-only file", "// a\n/* b */\n", nil},
		{"not a whole file", "}\n)\n", []int{1, 2}},
		{"line directive is just a comment here", "package p\n//line other.go:100\nvar x = 1\n", []int{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CodeLines([]byte(tc.src))
			if err != nil {
				t.Fatalf("CodeLines: %v", err)
			}
			if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, tc.want) {
				t.Errorf("CodeLines = %v, want %v", keys, tc.want)
			}
			for l, ok := range got {
				if !ok {
					t.Errorf("CodeLines[%d] = false: the map holds only code lines", l)
				}
			}
		})
	}
}

func TestCodeLinesErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unterminated raw string", "package p\nvar s = `abc\n", "line 2 column 9: raw string literal not terminated"},
		{"unterminated block comment", "package p\n/* x\n", "line 2 column 1: comment not terminated"},
		{"illegal character", "package p\nvar x = 1 # 2\n", "line 2 column 11: illegal character"},
		{"NUL", "package p\n\x00\n", "line 2 column 1: illegal character NUL"},
		{"newline in string", "package p\nvar s = \"a\nb\"\n", "line 2 column 9: string literal not terminated"},
		{"invalid UTF-8", "package p\nvar s = 1 \xff\n", "line 2 column 11: illegal UTF-8 encoding"},
		{"error after a line directive", "package p\n//line x.go:100\n#\n", "line 3 column 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CodeLines([]byte(tc.src))
			if err == nil {
				t.Fatalf("CodeLines = %v, want error", got)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "source does not scan: ") {
				t.Errorf("CodeLines error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestScanSourceDeciding(t *testing.T) {
	src := "package p\nfunc f() {\n\tif x { return };\n}\n"
	s, err := scanSource([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range s.tokens {
		if tok.line == 3 {
			mark := "-"
			if tok.deciding {
				mark = "+"
			}
			got = append(got, mark+src[lineOffset(src, 3)+tok.col-1:][:1])
		}
	}
	// "if", "x", "{", "return", "}", ";"
	want := []string{"+i", "+x", "-{", "+r", "-}", "-;"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens of line 3 = %v, want %v", got, want)
	}
	if want := []int{9, 10, 17, 1}; !slices.Equal(s.lineLen, want) {
		t.Errorf("line lengths = %v, want %v", s.lineLen, want)
	}
}

// lineOffset returns the byte offset where 1-based line l of src starts.
func lineOffset(src string, l int) int {
	off := 0
	for ; l > 1; l-- {
		off += strings.IndexByte(src[off:], '\n') + 1
	}
	return off
}

func TestHasFunctionBody(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"package p\ntype T struct{ X int }\nconst c = 1\nvar v = []int{1}\n", false},
		{"package p\nfunc f()\n", false}, // assembly-backed: no body
		{"package p\ntype I interface{ M() }\n", false},
		{"package p\nfunc f() {}\n", true},
		{"package p\nvar f = func() int { return 1 }\n", true},
		{"package p\nvar v = g(func() {})\n", true},
		{"package p\nfunc (T) m() int { return 1 }\n", true},
	} {
		got, err := hasFunctionBody([]byte(tc.src))
		if err != nil || got != tc.want {
			t.Errorf("hasFunctionBody(%q) = %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
	if _, err := hasFunctionBody([]byte("package p\nfunc {")); err == nil || !strings.HasPrefix(err.Error(), "source does not parse: ") {
		t.Errorf("hasFunctionBody of a broken source: %v", err)
	}
}

// TestCaseLabels: every line of a case or default label of a switch, a
// type switch or a select (a list may span lines) is decided by its
// statement's keyword, a nested switch's by its own.
func TestCaseLabels(t *testing.T) {
	src := `package p

func f(x any, n int, ch chan int) {
	switch n {
	case 1,
		2:
		switch m := n * 2; m {
		case 4: _ = m
		}
	default:
	}
	switch x.(type) {
	case int:
	}
	select {
	case <-ch:
	default:
	}
}
`
	got := caseLabels([]byte(src))
	want := map[int][]position{
		5: {{4, 2}}, 6: {{4, 2}},
		8:  {{7, 3}},
		10: {{4, 2}},
		13: {{12, 2}},
		16: {{15, 2}}, 17: {{15, 2}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("caseLabels = %v, want %v", got, want)
	}
	if got := caseLabels([]byte("package p\nfunc f() { switch {")); got != nil {
		t.Errorf("caseLabels of a source that does not parse = %v, want nil", got)
	}
}

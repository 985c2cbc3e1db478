package pymutant

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// readSrc is the source the ReadSites and Apply tests read sites for.
const readSrc = "a = b < c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n"

// readOut is find.py's output for readSrc, all lines. 1.5 has no site:
// 0x1F + 2.5 is the program 32 + 1.5 is (both fold to 33.5).
const readOut = `{"sites":[` +
	`{"col":5,"end":9,"equivalent":false,"line":1,"operator":"assignment","original":"b < c","replacement":"None","start":4,"statement_line":1},` +
	`{"col":7,"end":7,"equivalent":false,"line":1,"operator":"boundary","original":"<","replacement":"<=","start":6,"statement_line":1},` +
	`{"col":7,"end":7,"equivalent":false,"line":1,"operator":"comparison","original":"<","replacement":">=","start":6,"statement_line":1},` +
	`{"col":6,"end":31,"equivalent":false,"line":3,"operator":"condition","original":"not  x","replacement":"False","start":25,"statement_line":3},` +
	`{"col":6,"end":31,"equivalent":false,"line":3,"operator":"condition","original":"not  x","replacement":"True","start":25,"statement_line":3},` +
	`{"col":6,"end":30,"equivalent":false,"line":3,"operator":"not","original":"not  ","replacement":"","start":25,"statement_line":3},` +
	`{"col":9,"end":69,"equivalent":false,"line":4,"operator":"assignment","original":"(p is\n  not q) or 0x1F + 1.5","replacement":"None","start":41,"statement_line":4},` +
	`{"col":12,"end":52,"equivalent":false,"line":4,"operator":"identity","original":"is\n  not","replacement":"is","start":44,"statement_line":4},` +
	`{"col":10,"end":58,"equivalent":false,"line":5,"operator":"boolean","original":"or","replacement":"and","start":56,"statement_line":4},` +
	`{"col":13,"end":63,"equivalent":false,"line":5,"operator":"number","original":"0x1F","replacement":"30","start":59,"statement_line":4},` +
	`{"col":13,"end":63,"equivalent":false,"line":5,"operator":"number","original":"0x1F","replacement":"32","start":59,"statement_line":4},` +
	`{"col":18,"end":65,"equivalent":false,"line":5,"operator":"arithmetic","original":"+","replacement":"-","start":64,"statement_line":4},` +
	`{"col":5,"end":82,"equivalent":false,"line":6,"operator":"return-none","original":"return y","replacement":"return None","start":74,"statement_line":6}` +
	`]}` + "\n"

func TestReadSites(t *testing.T) {
	sites, err := ReadSites([]byte(readSrc), []byte(readOut))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		got = append(got, fmt.Sprintf("%d:%d [%d,%d) %s %q→%q (%s)", s.Line, s.Col, s.Start, s.End, s.Operator, s.Original, s.Replacement, s.Description))
	}
	want := []string{
		`1:5 [4,9) assignment "b < c"→"None" (replace the assigned value "b < c" with None)`,
		`1:7 [6,7) boundary "<"→"<=" (replace "<" with "<=")`,
		`1:7 [6,7) comparison "<"→">=" (replace "<" with ">=")`,
		`3:6 [25,31) condition "not  x"→"False" (replace the condition "not  x" with False)`,
		`3:6 [25,31) condition "not  x"→"True" (replace the condition "not  x" with True)`,
		`3:6 [25,30) not "not  "→"" (remove "not")`,
		`4:9 [41,69) assignment "(p is\n  not q) or 0x1F + 1.5"→"None" (replace the assigned value "(p is…" with None)`,
		`4:12 [44,52) identity "is\n  not"→"is" (replace "is not" with "is")`,
		`5:10 [56,58) boolean "or"→"and" (replace "or" with "and")`,
		`5:13 [59,63) number "0x1F"→"30" (replace "0x1F" with "30")`,
		`5:13 [59,63) number "0x1F"→"32" (replace "0x1F" with "32")`,
		`5:18 [64,65) arithmetic "+"→"-" (replace "+" with "-")`,
		`6:5 [74,82) return-none "return y"→"return None" (replace the returned value with None)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sites, err := ReadSites([]byte(readSrc), []byte(`{"sites":[]}`)); err != nil || sites == nil || len(sites) != 0 {
		t.Errorf("no sites: %v, %v", sites, err)
	}
}

// site1 is readOut's first site, to build bad outputs from.
const site1 = `{"col":7,"end":7,"equivalent":false,"line":1,"operator":"comparison","original":"<","replacement":">=","statement_line":1,"start":6}`

func TestReadSitesRejects(t *testing.T) {
	one := func(site string) string { return `{"sites":[` + site + `]}` }
	edit := func(old, new string) string {
		if !strings.Contains(site1, old) {
			t.Fatalf("%q is not in site1", old)
		}
		return one(strings.Replace(site1, old, new, 1))
	}
	many := `{"sites":[` + strings.Repeat(`{},`, MaxSites) + `{}]}`
	tests := []struct {
		name, src, out string
		want           string // in the error
	}{
		{"empty", readSrc, "", `EOF`},
		{"null", readSrc, "null", `no "sites"`},
		{"no sites list", readSrc, "{}", `no "sites"`},
		{"null sites", readSrc, `{"sites":null}`, `no "sites"`},
		{"array", readSrc, "[]", `cannot unmarshal array`},
		{"two values", readSrc, `{"sites":[]}{"sites":[]}`, `more than one JSON value`},
		{"trailing garbage", readSrc, `{"sites":[]} x`, `more than one JSON value`},
		{"unknown top-level field", readSrc, `{"sites":[],"version":1}`, `unknown field`},
		{"unknown site field", readSrc, one(strings.Replace(site1, `{`, `{"description":"x",`, 1)), `unknown field`},
		{"missing field", readSrc, edit(`"replacement":">=",`, ""), `missing field`},
		{"null field", readSrc, edit(`"col":7`, `"col":null`), `missing field`},
		{"float offset", readSrc, edit(`"start":6`, `"start":6.0`), `cannot unmarshal number`},
		{"string offset", readSrc, edit(`"start":6`, `"start":"6"`), `cannot unmarshal string`},
		{"huge offset", readSrc, edit(`"start":6`, `"start":99999999999999999999999`), `cannot unmarshal number`},
		{"negative start", readSrc, edit(`"start":6`, `"start":-1`), `is not within`},
		{"end before start", readSrc, edit(`"end":7`, `"end":6`), `is not within`},
		{"end beyond source", readSrc, edit(`"end":7`, `"end":1000`), `is not within`},
		{"original not in source", readSrc, edit(`"original":"<"`, `"original":">"`), `is not the source's`},
		{"wrong line", readSrc, edit(`"line":1`, `"line":2`), `is not on line`},
		{"line 0", readSrc, edit(`"line":1`, `"line":0`), `is not within the source's`},
		{"line past the end", readSrc, edit(`"line":1`, `"line":100`), `is not within the source's`},
		{"wrong column", readSrc, edit(`"col":7`, `"col":6`), `column`},
		{"statement line 0", readSrc, edit(`"statement_line":1`, `"statement_line":0`), `statement line 0`},
		{"statement line after the site", readSrc, edit(`"statement_line":1`, `"statement_line":2`), `statement line 2`},
		{"no statement line", readSrc, edit(`,"statement_line":1`, ``), `missing field`},
		{"unknown operator", readSrc, edit(`"comparison"`, `"Comparison"`), `unknown operator`},
		{"operator of another kind", readSrc, edit(`"comparison"`, `"arithmetic"`), `does not apply`},
		{"wrong replacement", readSrc, edit(`"replacement":">="`, `"replacement":">"`), `is replaced with`},
		{"empty replacement", readSrc, edit(`"replacement":">="`, `"replacement":""`), `is replaced with`},
		{"replacement is the original", readSrc, edit(`"replacement":">="`, `"replacement":"<"`), `is the original`},
		{"invalid UTF-8 in output", readSrc, edit(`"replacement":">="`, "\"replacement\":\">=\xff\""), `not valid UTF-8`},
		{"span splits a character", "x = 'é' < y\n", one(`{"col":7,"end":7,"equivalent":false,"line":1,"operator":"comparison","original":"\ufffd","replacement":">=","statement_line":1,"start":6}`), `is not the source's`},
		{"out of order", readSrc, `{"sites":[{"col":6,"end":30,"equivalent":false,"line":3,"operator":"not","original":"not  ","replacement":"","statement_line":3,"start":25},` + site1 + `]}`, `out of order`},
		{"duplicate", readSrc, `{"sites":[` + site1 + "," + site1 + `]}`, `duplicate`},
		{"too many sites", readSrc, many, `sites, more than`},
		{"too long", readSrc, `{"sites":[]}` + strings.Repeat(" ", MaxOutput), `bytes, more than`},
		{"not with a replacement", "not x\n", one(`{"col":1,"end":4,"equivalent":false,"line":1,"operator":"not","original":"not ","replacement":"x","statement_line":1,"start":0}`), `not removed`},
		{"not inside a name", "nothing\n", one(`{"col":1,"end":3,"equivalent":false,"line":1,"operator":"not","original":"not","replacement":"","statement_line":1,"start":0}`), `not keyword`},
		{"not without its gap", "not  x\n", one(`{"col":1,"end":3,"equivalent":false,"line":1,"operator":"not","original":"not","replacement":"","statement_line":1,"start":0}`), `not keyword`},
		{"not gap with code", "not y x\n", one(`{"col":1,"end":6,"equivalent":false,"line":1,"operator":"not","original":"not y ","replacement":"","statement_line":1,"start":0}`), `not keyword`},
		{"not gap with unterminated comment", "not # c\n", one(`{"col":1,"end":7,"equivalent":false,"line":1,"operator":"not","original":"not # c","replacement":"","statement_line":1,"start":0}`), `not keyword`},
		{"is not with code in the gap", "a is x not b\n", one(`{"col":3,"end":10,"equivalent":false,"line":1,"operator":"identity","original":"is x not","replacement":"is","statement_line":1,"start":2}`), `does not apply`},
		{"is not written as one word", "a isnot b\n", one(`{"col":3,"end":7,"equivalent":false,"line":1,"operator":"identity","original":"isnot","replacement":"is","statement_line":1,"start":2}`), `does not apply`},
		{"not in with the wrong replacement", "a not in b\n", one(`{"col":3,"end":8,"equivalent":false,"line":1,"operator":"membership","original":"not in","replacement":"not  in","statement_line":1,"start":2}`), `is replaced with`},
		{"return without a value", "return\n", one(`{"col":1,"end":6,"equivalent":false,"line":1,"operator":"return-none","original":"return","replacement":"return None","statement_line":1,"start":0}`), `with a value`},
		{"return inside a name", "returned\n", one(`{"col":1,"end":8,"equivalent":false,"line":1,"operator":"return-none","original":"returned","replacement":"return None","statement_line":1,"start":0}`), `with a value`},
		{"return replaced otherwise", "return x\n", one(`{"col":1,"end":8,"equivalent":false,"line":1,"operator":"return-none","original":"return x","replacement":"return 0","statement_line":1,"start":0}`), `replaced with "return 0"`},
		{"int plus two", "x = 0x1F\n", one(`{"col":5,"end":8,"equivalent":false,"line":1,"operator":"number","original":"0x1F","replacement":"33","statement_line":1,"start":4}`), `not 32`},
		{"int written in hex", "x = 0x1F\n", one(`{"col":5,"end":8,"equivalent":false,"line":1,"operator":"number","original":"0x1F","replacement":"0x20","statement_line":1,"start":4}`), `not 32`},
		{"not a number", "x = y\n", one(`{"col":5,"end":5,"equivalent":false,"line":1,"operator":"number","original":"y","replacement":"1","statement_line":1,"start":4}`), `not an int or float`},
		{"imaginary", "x = 1j\n", one(`{"col":5,"end":6,"equivalent":false,"line":1,"operator":"number","original":"1j","replacement":"2j","statement_line":1,"start":4}`), `not an int or float`},
		{"octal-looking int", "x = 017\n", one(`{"col":5,"end":7,"equivalent":false,"line":1,"operator":"number","original":"017","replacement":"16","statement_line":1,"start":4}`), `not an int or float`},
		{"float wrong value", "x = 1.5\n", one(`{"col":5,"end":7,"equivalent":false,"line":1,"operator":"number","original":"1.5","replacement":"2.6","statement_line":1,"start":4}`), `plus or minus one`},
		{"float as inf", "x = 1e308\n", one(`{"col":5,"end":9,"equivalent":false,"line":1,"operator":"number","original":"1e308","replacement":"inf","statement_line":1,"start":4}`), `not a float literal`},
		{"float unchanged", "x = 1e300\n", one(`{"col":5,"end":9,"equivalent":false,"line":1,"operator":"number","original":"1e300","replacement":"1e+300","statement_line":1,"start":4}`), `plus or minus one`},
		{"float out of range", "x = 1e400\n", one(`{"col":5,"end":9,"equivalent":false,"line":1,"operator":"number","original":"1e400","replacement":"1e401","statement_line":1,"start":4}`), `out of range`},
		{"float with underscores", "x = 1.5\n", one(`{"col":5,"end":7,"equivalent":false,"line":1,"operator":"number","original":"1.5","replacement":"2_0.5","statement_line":1,"start":4}`), `not a float literal`},
		{"number too long", "x = " + strings.Repeat("1", 101) + "\n", one(`{"col":5,"end":105,"equivalent":false,"line":1,"operator":"number","original":"` + strings.Repeat("1", 101) + `","replacement":"1` + strings.Repeat("1", 99) + `2","statement_line":1,"start":4}`), `more than 100`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sites, err := ReadSites([]byte(tt.src), []byte(tt.out))
			if err == nil {
				t.Fatalf("accepted: %+v", sites)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestApply(t *testing.T) {
	src := []byte(readSrc)
	sites, err := ReadSites(src, []byte(readOut))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a = None\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n",
		"a = b <= c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n",
		"a = b >= c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if False:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if True:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if x:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = None\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = (p is q) or 0x1F + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) and 0x1F + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 30 + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 32 + 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 0x1F - 1.5\n    return y\n",
		"a = b < c\ndef f(x):\n  if not  x:\n    y = (p is\n  not q) or 0x1F + 1.5\n    return None\n",
	}
	if len(sites) != len(want) {
		t.Fatalf("%d sites, want %d", len(sites), len(want))
	}
	for i, s := range sites {
		got, err := Apply(src, s)
		if err != nil {
			t.Fatalf("%s: %v", brief(s), err)
		}
		if string(got) != want[i] {
			t.Errorf("%s: got\n%q\nwant\n%q", brief(s), got, want[i])
		}
	}
	if string(src) != readSrc {
		t.Error("Apply changed its input")
	}
	// Description plays no part in applying a site.
	s := sites[0]
	s.Description = ""
	if _, err := Apply(src, s); err != nil {
		t.Errorf("without a description: %v", err)
	}
}

func TestApplyRejects(t *testing.T) {
	src := []byte(readSrc)
	good := Site{Line: 1, Col: 7, Start: 6, End: 7, Original: "<", Replacement: ">=", Operator: OpComparison}
	if _, err := Apply(src, good); err != nil {
		t.Fatalf("good site: %v", err)
	}
	tests := []struct {
		name string
		src  []byte
		edit func(*Site)
	}{
		{"negative start", src, func(s *Site) { s.Start = -1 }},
		{"empty span", src, func(s *Site) { s.End = s.Start }},
		{"end beyond source", src, func(s *Site) { s.End = len(src) + 1 }},
		{"huge end", src, func(s *Site) { s.End = int(^uint(0) >> 1) }},
		{"other source", []byte("a = b > c\n"), func(*Site) {}},
		{"empty source", nil, func(*Site) {}},
		{"original differs", src, func(s *Site) { s.Original = ">" }},
		{"line differs", src, func(s *Site) { s.Line = 2 }},
		{"negative line", src, func(s *Site) { s.Line = -1 }},
		{"column differs", src, func(s *Site) { s.Col = 1 }},
		{"no operator", src, func(s *Site) { s.Operator = "" }},
		{"replacement not the operator's", src, func(s *Site) { s.Replacement = "<=" }},
		{"replacement is invalid UTF-8", src, func(s *Site) { s.Replacement = "\xff" }},
		{"replacement is the original", src, func(s *Site) { s.Replacement = "<" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := good
			tt.edit(&s)
			before := bytes.Clone(tt.src)
			if out, err := Apply(tt.src, s); err == nil {
				t.Fatalf("applied: %q", out)
			}
			if !bytes.Equal(before, tt.src) {
				t.Error("Apply changed its input")
			}
		})
	}
}

func TestLineStarts(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []int
	}{
		{"", []int{0}},
		{"a", []int{0}},
		{"a\n", []int{0, 2}},
		{"a\r\nb\rc\n\n", []int{0, 3, 5, 7, 8}},
		{"\r\r\n\n", []int{0, 1, 3, 4}},
	} {
		if got := lineStarts([]byte(tt.src)); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("lineStarts(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestNumberLiterals(t *testing.T) {
	for _, tt := range []struct {
		s            string
		isInt, float bool
	}{
		{"0", true, false}, {"000", true, false}, {"0_0", true, false}, {"007", false, false},
		{"1_000", true, false}, {"1__0", false, false}, {"1_", false, false}, {"_1", false, false},
		{"0x_1f", true, false}, {"0X1F", true, false}, {"0x", false, false}, {"0xg", false, false},
		{"0o17", true, false}, {"0o8", false, false}, {"0b101", true, false}, {"0b2", false, false},
		{"1.5", false, true}, {"1.", false, true}, {".5", false, true}, {".", false, false},
		{"1e5", false, true}, {"1E+5", false, true}, {"1e", false, false}, {"1e+", false, false},
		{"1_0.5_5e1_0", false, true}, {"1j", false, false}, {"1.5j", false, false}, {"inf", false, false},
		{"0x1p3", false, false}, {"", false, false},
	} {
		if got := isInt(tt.s); got != tt.isInt {
			t.Errorf("isInt(%q) = %v", tt.s, got)
		}
		if got := isFloat(tt.s); got != tt.float {
			t.Errorf("isFloat(%q) = %v", tt.s, got)
		}
	}
}

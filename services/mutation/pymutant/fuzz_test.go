package pymutant

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScriptOutputFormat(t *testing.T) {
	// readOut, which the ReadSites tests and the fuzz seeds use, must be
	// what the script really writes.
	python := interpreter(t)
	out, err := run(t.Context(), python, "1-6", []byte(readSrc))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != readOut {
		t.Errorf("script output\n%s\nwant\n%s", out, readOut)
	}
}

// FuzzReadSites feeds arbitrary outputs and sources to ReadSites. It must
// never panic, and whatever it accepts must satisfy the invariants, checked
// here independently of its implementation, and apply with Apply.
func FuzzReadSites(f *testing.F) {
	f.Add([]byte(readSrc), []byte(readOut))
	f.Add([]byte("not x\n"), []byte(`{"sites":[{"col":1,"end":4,"equivalent":false,"line":1,"operator":"not","original":"not ","replacement":"","statement_line":1,"start":0}]}`))
	f.Add([]byte("x = 1e3\n"), []byte(`{"sites":[{"col":5,"end":7,"equivalent":true,"line":1,"operator":"number","original":"1e3","replacement":"999.0","statement_line":1,"start":4}]}`))
	f.Add([]byte("x = 'a'.strip()\n"), []byte(`{"sites":[{"col":8,"end":15,"equivalent":false,"line":1,"operator":"method-call","original":".strip()","replacement":"","statement_line":1,"start":7}]}`))
	f.Add([]byte(""), []byte(`{"sites":[]}`))
	// Real script output, when there is an interpreter to write it (the
	// fuzz target itself needs none).
	if python := lookPython(); python != "" {
		for _, src := range []string{
			readSrc,
			"ä = ñ < b  # ü > 1\nπ = 'é' + ü * 2\n",
			"\ufeffa = b < c\r\nd = e > f\rg = h == i\n",
			"def f(x):\n    if not x is not None and x not in y:\n        return x ** 2 // 3 % 4\n    x += True\n    x -= 1.5e3\n    return (x,\n      0x1F)\n",
			"x = (a  # c\n     is  \\\n     not b) or (not  # d\n  c)\n",
			"def f(xs, d, s) -> bool:\n    for x in xs:\n        if x > 1:\n            break\n        elif x:\n            d.k = s.strip()\n        else:\n            continue\n    try:\n        g(next(xs, None), b'r', \"s\")\n    except KeyError:\n        raise ValueError('m')\n    while d:\n        d -= 1\n    return s.copy() if d else h()\n",
		} {
			out, err := run(f.Context(), python, "1-100", []byte(src))
			if err != nil {
				f.Fatalf("%q: %v", src, err)
			}
			f.Add([]byte(src), out)
		}
	}
	f.Fuzz(func(t *testing.T, src, out []byte) {
		sites, err := ReadSites(src, out)
		if err != nil {
			return
		}
		if sites == nil || len(sites) > MaxSites || len(out) > MaxOutput {
			t.Fatalf("accepted %d sites (nil: %v) from %d bytes", len(sites), sites == nil, len(out))
		}
		ops := Operators()
		for i, s := range sites {
			if s.Start < 0 || s.Start >= s.End || s.End > len(src) {
				t.Fatalf("site %d: span [%d, %d) of %d bytes", i, s.Start, s.End, len(src))
			}
			if s.Original != string(src[s.Start:s.End]) {
				t.Fatalf("site %d: original %q, source %q", i, s.Original, src[s.Start:s.End])
			}
			// Line and column, counted another way: line ends are \n,
			// \r\n and a lone \r.
			before := src[:s.Start]
			norm := strings.ReplaceAll(strings.ReplaceAll(string(before), "\r\n", "\n"), "\r", "\n")
			line := strings.Count(norm, "\n") + 1
			col := s.Start - max(bytes.LastIndexByte(before, '\n'), bytes.LastIndexByte(before, '\r'))
			if s.Line != line || s.Col != col {
				t.Fatalf("site %d: at %d:%d, start %d is at %d:%d", i, s.Line, s.Col, s.Start, line, col)
			}
			if !slices.Contains(ops, s.Operator) {
				t.Fatalf("site %d: operator %q", i, s.Operator)
			}
			if !utf8.ValidString(s.Original) || !utf8.ValidString(s.Replacement) {
				t.Fatalf("site %d: invalid UTF-8", i)
			}
			if s.Replacement == s.Original || (s.Replacement == "") != (s.Operator == OpNot || s.Operator == OpMethodCall || s.Operator == OpCallDefault) {
				t.Fatalf("site %d: %s replaces %q with %q", i, s.Operator, s.Original, s.Replacement)
			}
			if s.Description == "" {
				t.Fatalf("site %d: no description", i)
			}
			if i > 0 {
				p := sites[i-1]
				if p.Start > s.Start || p.Start == s.Start && (p.Operator > s.Operator || p.Operator == s.Operator && p.Replacement >= s.Replacement) {
					t.Fatalf("sites %d and %d out of order or equal", i-1, i)
				}
			}
			m, err := Apply(src, s)
			if err != nil {
				t.Fatalf("site %d: accepted but Apply fails: %v", i, err)
			}
			want := string(src[:s.Start]) + s.Replacement + string(src[s.End:])
			if string(m) != want {
				t.Fatalf("site %d: mutant %q, want %q", i, m, want)
			}
		}
	})
}

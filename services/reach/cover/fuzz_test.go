package cover

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{
		recordedSet,
		"mode: set\n",
		"mode: count\r\na.go:1.1,2.2 3 4\r\n",
		"mode: atomic\na.go:1.1,2.2 1 9223372036854775807\na.go:1.1,2.2 1 1\n",
		"mode: set\nC:\\my dir\\a.go:1.2,3.4 5 1\nx: y.go:1.1,1.1 0 0",
		"mode: set\na.go:1.1,1.2 1 1\nmode: set\n",
		"mode: count\na.go:1.1,1.2 1 1\na.go:1.1,1.2 2 1\n",
		"mode: set\na.go:2.1,1.5 1 1\n",
		"mode: set\na\xff.go:01.1,1.2 +1 -1\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProfile(bytes.NewReader(data))
		if err != nil {
			if p != nil {
				t.Fatalf("ParseProfile returned a profile with error %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q spans lines", err)
			}
			return
		}
		for i, b := range p.Blocks {
			if err := checkBlock(b, p.Mode); err != nil {
				t.Fatalf("accepted an invalid block %v: %v", b, err)
			}
			if i > 0 && compareSpan(p.Blocks[i-1], b) >= 0 {
				t.Fatalf("blocks %v and %v are not sorted and distinct", p.Blocks[i-1], b)
			}
		}
		var out bytes.Buffer
		if err := p.Write(&out); err != nil {
			t.Fatalf("Write of a parsed profile: %v", err)
		}
		if out.Len() > len(data)+1 {
			t.Fatalf("Write made %d bytes of %d", out.Len(), len(data))
		}
		q, err := ParseProfile(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("ParseProfile of\n%s\n: %v", out.Bytes(), err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the profile:\n%+v\n%+v", p, q)
		}
		m, err := Merge(p, q)
		if err != nil {
			t.Fatalf("Merge of a profile with itself: %v", err)
		}
		for i, b := range m.Blocks {
			want := p.Blocks[i].Count
			switch {
			case p.Mode == ModeSet:
			case want > math.MaxInt-want:
				want = math.MaxInt
			default:
				want *= 2
			}
			if b.Count != want {
				t.Fatalf("Merge of %v with itself counted %d, want %d", p.Blocks[i], b.Count, want)
			}
		}
	})
}

func FuzzCodeLines(f *testing.F) {
	for _, s := range []string{
		calcSrc, otherSrc, typesSrc, "",
		"package p\n/*\n a\n*/ var x = `\n\n` // c\n",
		"package p\r\nvar s = `a\r\nb\r\n`\r\n",
		"\ufeffpackage p\n\x00",
		"package p\nvar x = 1 # 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		code, err := CodeLines(src)
		if err != nil {
			if code != nil {
				t.Fatalf("CodeLines returned lines with error %v", err)
			}
			return
		}
		lines := bytes.SplitAfter(src, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		for l := range code {
			if l < 1 || l > len(lines) {
				t.Fatalf("line %d of a %d-line source", l, len(lines))
			}
		}
		s, err := scanSource(src)
		if err != nil {
			t.Fatalf("scanSource failed where CodeLines did not: %v", err)
		}
		inToken := map[int]bool{} // lines a multi-line token continues on
		for _, tok := range s.tokens {
			for l := tok.line + 1; l <= tok.endLine; l++ {
				inToken[l] = true
			}
		}
		for i, line := range lines {
			blank := len(bytes.TrimLeft(line, " \t\r\n")) == 0
			if blank && code[i+1] && !inToken[i+1] {
				t.Fatalf("blank line %d counted as code", i+1)
			}
			comment := bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("//"))
			if comment && code[i+1] && !inToken[i+1] {
				t.Fatalf("comment line %d counted as code", i+1)
			}
		}
	})
}

func FuzzMeasure(f *testing.F) {
	f.Add([]byte(calcSrc), []byte(recordedSet))
	f.Add([]byte(otherSrc), []byte(strings.ReplaceAll(recordedSet, "/other/other.go", "/calc/calc.go")))
	f.Add([]byte("package a\n\nfunc F(x int) int { if x > 0 { return 1 }; return 0 }\n"),
		[]byte("mode: count\nexample.com/m/calc/calc.go:3.19,3.30 1 4\nexample.com/m/calc/calc.go:3.30,3.42 1 0\nexample.com/m/calc/calc.go:3.44,3.52 1 4\n"))
	f.Add([]byte(typesSrc), []byte("mode: set\n"))
	f.Fuzz(func(t *testing.T, src, profile []byte) {
		p, err := ParseProfile(bytes.NewReader(profile))
		if err != nil {
			return
		}
		n := bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			n++
		}
		var changed []int
		for l := 1; l <= n; l++ {
			changed = append(changed, l)
		}
		files := []File{{Path: "a.go", Profile: "example.com/m/calc/calc.go", Src: src, Lines: changed}}
		res, err := Measure(files, p)
		if err != nil {
			if !reflect.DeepEqual(res, Result{}) {
				t.Fatalf("Measure returned %+v with error %v", res, err)
			}
			return
		}
		if len(res.Unmeasured) > 0 {
			if res.Ratio != nil || res.Changed != 0 || len(res.Excluded) != 0 || len(res.Uncovered) != 0 {
				t.Fatalf("unmeasured file measured: %+v", res)
			}
			return
		}
		if res.Changed != res.Covered+len(res.Uncovered) || res.Changed+len(res.Excluded) != len(changed) {
			t.Fatalf("lines do not add up: %+v of %d", res, len(changed))
		}
		if (res.Ratio == nil) != (res.Changed == 0) || (res.Ratio != nil && (*res.Ratio < 0 || *res.Ratio > 1)) {
			t.Fatalf("Ratio %v with %d of %d", deref(res.Ratio), res.Covered, res.Changed)
		}
		if !slices.IsSortedFunc(res.Uncovered, compareLines) || !slices.IsSortedFunc(res.Excluded, compareLines) {
			t.Fatalf("unsorted: %+v", res)
		}
		code, err := CodeLines(src)
		if err != nil {
			t.Fatalf("Measure accepted a source CodeLines refuses: %v", err)
		}
		excluded := map[int]bool{}
		for _, l := range res.Excluded {
			excluded[l.Line] = true
		}
		for l := 1; l <= n; l++ {
			if !code[l] && !excluded[l] {
				t.Fatalf("line %d holds no code but is not excluded", l)
			}
		}

		// Reach, with the profile as one test's: the test reaches every
		// covered line, some line of each block that ran, and no
		// excluded line.
		reach, err := Reach(files, map[string]*Profile{"T": p})
		if err != nil {
			t.Fatalf("Reach failed where Measure did not: %v", err)
		}
		reached := map[int]bool{}
		for _, l := range reach["T"] {
			reached[l.Line] = true
			if excluded[l.Line] {
				t.Fatalf("excluded line %d reached", l.Line)
			}
		}
		uncovered := map[int]bool{}
		for _, l := range res.Uncovered {
			uncovered[l.Line] = true
		}
		for l := 1; l <= n; l++ {
			if !excluded[l] && !uncovered[l] && !reached[l] {
				t.Fatalf("covered line %d not reached", l)
			}
		}
	})
}

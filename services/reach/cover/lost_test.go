package cover

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestLost(t *testing.T) {
	parse := func(s string) *Profile {
		t.Helper()
		p, err := ParseProfile(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The claims ran lines 3-5 and 8-9 on the baseline. The patch keeps
	// 3-5 as 13-15 (it added ten lines above) and changes 8-9. On the
	// patch nothing runs 13-15: the patch routes around code it kept.
	base := parse("mode: set\nm/p/f.go:3.1,5.2 2 1\nm/p/f.go:8.1,9.2 1 1\nm/p/f.go:20.1,21.2 1 0\n")
	patch := parse("mode: set\nm/p/f.go:13.1,15.2 2 0\nm/p/f.go:18.1,19.2 1 1\n")
	moved := map[int]int{3: 13, 4: 14, 5: 15, 20: 30, 21: 31}
	kept := func(l int) (int, bool) { n, ok := moved[l]; return n, ok }
	var src strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&src, "x%d := %d\n", i, i)
	}
	src.WriteString("}\n")
	files := []KeptFile{{Path: "p/f.go", BaseProfile: "m/p/f.go", PatchProfile: "m/p/f.go", Kept: kept, Src: []byte(src.String())}}
	got := Lost(files, base, patch)
	want := []Line{{"p/f.go", 13}, {"p/f.go", 14}, {"p/f.go", 15}}
	if !slices.Equal(got, want) {
		t.Fatalf("Lost = %v, want %v", got, want)
	}
	// The honest twin: the patch still runs the code it kept.
	patch = parse("mode: set\nm/p/f.go:13.1,15.2 2 1\n")
	if got := Lost(files, base, patch); len(got) != 0 {
		t.Fatalf("kept code still run: Lost = %v", got)
	}
	// A file the patch profile does not instrument is not judged.
	if got := Lost(files, base, parse("mode: set\nm/q/g.go:1.1,2.2 1 1\n")); len(got) != 0 {
		t.Fatalf("uninstrumented file: Lost = %v", got)
	}
}

func TestLostJudgesOnlyCode(t *testing.T) {
	// A block's span holds its closing brace whatever ran: a brace the
	// patch keeps is no code routed around.
	base, _ := ParseProfile(strings.NewReader("mode: set\nm/f.go:1.1,3.2 2 1\n"))
	patch, _ := ParseProfile(strings.NewReader("mode: set\nm/f.go:1.1,2.10 2 1\n"))
	same := func(l int) (int, bool) { return l, true }
	src := "a := 1\nb := 2\n} // end\n"
	if got := Lost([]KeptFile{{Path: "f.go", BaseProfile: "m/f.go", PatchProfile: "m/f.go", Kept: same, Src: []byte(src)}}, base, patch); len(got) != 0 {
		t.Fatalf("Lost = %v, want nothing for a brace", got)
	}
}

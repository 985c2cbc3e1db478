package inspect

import (
	"strings"
	"testing"
)

const loopBase = "package lazy\n\n// Scaled returns thunks of xs scaled by k.\nfunc Scaled(xs []int, k int) []func() int {\n\tvar out []func() int\n\tfor i := 1; i < len(xs); i++ {\n\t\tv := xs[i] * k\n\t\tout = append(out, func() int { return v })\n\t}\n\treturn out\n}\n"

func loopPatch(loop string) string {
	return "package lazy\n\n// Scaled returns thunks of xs scaled by k.\nfunc Scaled(xs []int, k int) []func() int {\n\tvar out []func() int\n" + loop + "\treturn out\n}\n"
}

func goMod(v string) map[string][]byte {
	if v == "" {
		return map[string][]byte{"go.mod": []byte("module example.com/m\n")}
	}
	return map[string][]byte{"go.mod": []byte("module example.com/m\n\ngo " + v + "\n")}
}

// TestGoLoopCaptures: a closure the patch writes in a loop that keeps a
// variable the loop shares across iterations is a finding; the same
// closure over a per-iteration variable, a copy, or one called in place
// is not.
func TestGoLoopCaptures(t *testing.T) {
	for _, tc := range []struct {
		name, goVersion, loop, want string
	}{
		{"a range variable below go1.22", "1.21", "\tfor i := range xs {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n", "lazy/lazy.go:7: a func literal in a loop captures i, which the range declares below go1.22"},
		{"no go line is go1.16", "", "\tfor _, x := range xs {\n\t\tout = append(out, func() int { return x * k })\n\t}\n", "captures x, which the range declares below go1.22"},
		{"a for's variable below go1.22", "1.21", "\tfor i := 0; i < len(xs); i++ {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n", "captures i, which the for declares below go1.22"},
		{"a range assigning with =", "1.22", "\tvar x int\n\tfor _, x = range xs {\n\t\tout = append(out, func() int { return x * k })\n\t}\n", "lazy/lazy.go:8: a func literal in a loop captures x, which the range assigns with ="},
		{"a for stepping a variable declared outside", "1.23", "\ti := 0\n\tfor ; i < len(xs); i++ {\n\t\tout = append(out, func() int { return xs[i] })\n\t}\n", "captures i, which the for steps, declared outside it"},
		{"a deferred call", "1.21", "\tfor i := range xs {\n\t\tdefer func() { out = append(out, func() int { return i }) }()\n\t}\n", "captures i, which the range declares below go1.22"},
		{"a go1.22 module's file lowered to go1.21 by its constraint", "1.22", "\tfor i := range xs {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n", "captures i, which the range declares below go1.22"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := loopPatch(tc.loop)
			if strings.Contains(tc.name, "lowered") {
				src = "//go:build go1.21\n\n" + src
			}
			got := GoLoopCaptures(map[string][]byte{"lazy/lazy.go": []byte(loopBase)}, map[string][]byte{"lazy/lazy.go": []byte(src)}, goMod(tc.goVersion))
			for _, f := range got {
				if strings.Contains(f.String(), tc.want) && f.Rule == RuleForeignCode {
					return
				}
			}
			t.Fatalf("findings %q, want one holding %q", got, tc.want)
		})
	}
	for _, tc := range []struct {
		name, goVersion, loop string
		mods                  map[string][]byte
	}{
		{name: "a range variable from go1.22", goVersion: "1.22", loop: "\tfor i := range xs {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n"},
		{name: "a for's variable from go1.22", goVersion: "1.24", loop: "\tfor i := 0; i < len(xs); i++ {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n"},
		{name: "a copy per iteration", goVersion: "1.21", loop: "\tfor i := range xs {\n\t\ti := i\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n"},
		{name: "a literal called in place", goVersion: "1.21", loop: "\tsum := 0\n\tfor i := range xs {\n\t\tfunc() { sum += xs[i] }()\n\t}\n\tout = append(out, func() int { return sum })\n"},
		{name: "a file of go1.22 in an older module", goVersion: "1.21", loop: "\tfor i := range xs {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n"},
		{name: "a variable the body declares", goVersion: "1.21", loop: "\tfor i := 1; i < len(xs); i++ {\n\t\tv := xs[i] * k\n\t\tout = append(out, func() int { return v })\n\t}\n"},
		{name: "a nested module's own go line", loop: "\tfor i := range xs {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n",
			mods: map[string][]byte{"go.mod": []byte("module example.com/m\n\ngo 1.20\n"), "lazy/go.mod": []byte("module example.com/m/lazy\n\ngo 1.22\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := loopPatch(tc.loop)
			if tc.name == "a file of go1.22 in an older module" {
				src = "//go:build go1.22\n\n" + src
			}
			mods := tc.mods
			if mods == nil {
				mods = goMod(tc.goVersion)
			}
			if got := GoLoopCaptures(map[string][]byte{"lazy/lazy.go": []byte(loopBase)}, map[string][]byte{"lazy/lazy.go": []byte(src)}, mods); len(got) != 0 {
				t.Fatalf("findings %q for an honest loop", got)
			}
		})
	}
}

// TestGoLoopCapturesUnchangedLoop: a capturing loop the baseline already
// had is not the patch's, whatever else of the file changed.
func TestGoLoopCapturesUnchangedLoop(t *testing.T) {
	loop := "\tfor i := range xs {\n\t\tout = append(out, func() int { return xs[i] * k })\n\t}\n"
	base := loopPatch(loop)
	patch := strings.Replace(base, "\tvar out []func() int\n", "\tout := make([]func() int, 0, len(xs))\n", 1)
	if got := GoLoopCaptures(map[string][]byte{"lazy/lazy.go": []byte(base)}, map[string][]byte{"lazy/lazy.go": []byte(patch)}, goMod("1.21")); len(got) != 0 {
		t.Fatalf("findings %q for a loop the baseline had", got)
	}
	if got := GoLoopCaptures(map[string][]byte{}, map[string][]byte{"lazy/lazy.go": []byte(patch)}, goMod("1.21")); len(got) != 1 {
		t.Fatalf("findings %q for the same loop in a new file, want one", got)
	}
}

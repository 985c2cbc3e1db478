package inspect

import (
	"strings"
	"testing"
)

const configBase = "package calc\n\n// Median returns the middle value.\nfunc Median(xs []float64) float64 { return xs[len(xs)/2] }\n"

const configFix = "package calc\n\n// Median returns the middle value.\nfunc Median(xs []float64) float64 { return middle(xs) }\n"

// TestGoConfigGaps: a helper the fix calls, declared only in a file that a
// build configuration leaves out (cgo, the race detector's tag, a
// platform), breaks the package there; split across files that cover
// every configuration, or used only where it is declared, it does not.
func TestGoConfigGaps(t *testing.T) {
	helper := func(constraint string) string {
		return constraint + "\n\npackage calc\n\nfunc middle(xs []float64) float64 { return xs[len(xs)/2] }\n"
	}
	for _, tc := range []struct{ name, constraint, want string }{
		{"cgo only", "//go:build cgo", "CGO_ENABLED=0"},
		{"not under the race detector", "//go:build !race", "-race"},
		{"linux only", "//go:build linux", "darwin/arm64"},
		{"64-bit only", "//go:build amd64 || arm64", "linux/386"},
		{"not purego", "//go:build !purego", "-tags purego"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GoConfigGaps(map[string][]byte{"calc/median.go": []byte(configBase)},
				map[string][]byte{"calc/median.go": []byte(configFix), "calc/middle.go": []byte(helper(tc.constraint))})
			if len(got) != 1 || got[0].Rule != RuleForeignCode || got[0].Line != 4 || !strings.Contains(got[0].What, "uses middle") || !strings.Contains(got[0].What, tc.want) {
				t.Fatalf("findings %q, want one naming middle and %s", got, tc.want)
			}
		})
	}
	for name, files := range map[string]map[string]string{
		"no constraint":             {"calc/median.go": configFix, "calc/middle.go": helper("")},
		"cgo and its fallback":      {"calc/median.go": configFix, "calc/middle.go": helper("//go:build cgo"), "calc/middle_nocgo.go": helper("//go:build !cgo")},
		"one file per platform":     {"calc/median.go": configFix, "calc/middle_unix.go": helper("//go:build unix"), "calc/middle_windows.go": helper("")},
		"used only where declared":  {"calc/median.go": configBase, "calc/fast.go": "//go:build linux\n\npackage calc\n\nfunc fast(xs []float64) float64 { return middle(xs) }\n", "calc/middle.go": helper("//go:build linux")},
		"a constraint in both ends": {"calc/median.go": "//go:build cgo\n\n" + configFix, "calc/middle.go": helper("//go:build cgo")},
	} {
		t.Run(name, func(t *testing.T) {
			p := map[string][]byte{}
			for f, s := range files {
				p[f] = []byte(s)
			}
			if got := GoConfigGaps(map[string][]byte{"calc/median.go": []byte(configBase)}, p); len(got) != 0 {
				t.Fatalf("findings %q for a package that builds wherever it is used", got)
			}
		})
	}
	// A method declared only in a linux file, called from everywhere.
	method := map[string][]byte{
		"calc/median.go":       []byte("package calc\n\ntype sample []float64\n\n// Median returns the middle value.\nfunc Median(xs []float64) float64 { return sample(xs).middle() }\n"),
		"calc/sample_linux.go": []byte("package calc\n\nfunc (s sample) middle() float64 { return s[len(s)/2] }\n"),
	}
	if got := GoConfigGaps(map[string][]byte{"calc/median.go": []byte(configBase)}, method); len(got) != 1 || !strings.Contains(got[0].What, "uses the method or field middle") {
		t.Fatalf("findings %q, want the method middle", got)
	}
	// Names a linux-only file declares, used as a local, a parameter, a
	// field and a field key elsewhere: none is a use of it.
	shadows := map[string][]byte{
		"calc/mid_linux.go": []byte("package calc\n\nconst mid = 2\n"),
		"calc/median.go":    []byte("package calc\n\ntype pair struct{ mid int }\n\n// Median returns the middle value.\nfunc Median(xs []float64) float64 {\n\tmid := len(xs) / 2\n\t_ = pair{mid: mid}\n\treturn at(xs, mid)\n}\n\nfunc at(xs []float64, mid int) float64 { return xs[mid] }\n"),
	}
	if got := GoConfigGaps(map[string][]byte{"calc/median.go": []byte(configBase)}, shadows); len(got) != 0 {
		t.Fatalf("findings %q for local names that shadow a linux-only constant", got)
	}
	// A gap the baseline already had is not the patch's.
	gap := map[string][]byte{"calc/median.go": []byte(configFix), "calc/middle.go": []byte(helper("//go:build cgo"))}
	if got := GoConfigGaps(gap, gap); len(got) != 0 {
		t.Fatalf("findings %q for the baseline's own gap", got)
	}
}

package mutant

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// conversionSites formats the conversion_widening sites of src (every
// line requested) as "line (description) equivalent?".
func conversionSites(t *testing.T, src string) []string {
	t.Helper()
	files := map[string][]byte{"p.go": []byte(src)}
	sites, err := Find(Package{Dir: t.TempDir(), Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		if s.Operator != OpConversionWidening {
			continue
		}
		if s.Extra {
			t.Errorf("%s is an extra: a lossy conversion must always be judged", s)
		}
		eq := ""
		if s.Equivalent != "" {
			eq = " equivalent"
		}
		got = append(got, fmt.Sprintf("%d (%s)%s", s.Line, s.Description, eq))
	}
	return got
}

// TestConversionWidening: a conversion to float32 whose result is only
// converted again (the mean computed in float32, which loses the low bits
// of a large sum) gets a mutant computing it in float64, so tests that
// cannot tell the two apart leave it alive; the honest mean, in integers,
// gets none. Conversions that lose nothing are equivalent, and a narrow
// value that is the result itself, or mixes with a narrow variable, has
// no site (the widened text would not type-check).
func TestConversionWidening(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{{
		name: "attack: the mean in float32",
		src: `package p

func Mean(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return int64(float32(s) / float32(len(xs)))
}
`,
		want: []string{"8 (float32 → float64)"},
	}, {
		name: "honest: the mean in integers",
		src: `package p

func Mean(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s / int64(len(xs))
}
`,
	}, {
		name: "the conversion's value is the result",
		src: `package p

func Ratio(a, b int64) float32 { return float32(a) / float32(b) }

func Mixed(a int64, k float32) float64 { return float64(float32(a) * k) }
`,
	}, {
		name: "lossless and truncating conversions",
		src: `package p

func f(a int16, b uint32, c int64, d float64) (float64, int64, uint8, int64, float64) {
	return float64(float32(a)), int64(uint32(b)), uint8(int32(c)), int64(int32(c)), float64(float32(d))
}
`,
		want: []string{
			"4 (float32 → float64) equivalent",
			"4 (uint32 → uint64) equivalent",
			"4 (int32 → int64) equivalent",
			"4 (int32 → int64)",
			"4 (float32 → float64)",
		},
	}, {
		name: "a shadowed wide type",
		src: `package p

func f(a int64) int64 {
	type float64 = float32
	return int64(float32(a) / 3)
}
`,
	}} {
		t.Run(c.name, func(t *testing.T) {
			got := conversionSites(t, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("conversion_widening sites:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
			}
		})
	}
}

// survivors builds the schemata of the mutants op finds on the given
// lines of the package in dir (its module written from files first), runs
// the package's tests once per mutant and returns the descriptions of the
// mutants the tests did not kill, and how many ran. A mutant is killed
// when the test binary fails with it on.
func survivors(t *testing.T, files map[string][]byte, dir string, lines map[string][]int, op string) (alive []string, ran int) {
	t.Helper()
	skipInRaceStep(t)
	goBin := goTool(t)
	root := t.TempDir()
	writeFiles(t, root, files)
	pkg := Package{Dir: filepath.Join(root, dir), Files: map[string][]byte{}, Tests: map[string][]byte{}}
	for name, b := range files {
		d, base := path.Split(name)
		if path.Clean(d) != dir || !strings.HasSuffix(base, ".go") {
			continue
		}
		if strings.HasSuffix(base, "_test.go") {
			pkg.Tests[base] = b
		} else {
			pkg.Files[base] = b
		}
	}
	found, err := Find(pkg, lines)
	if err != nil {
		t.Fatal(err)
	}
	var mine []Site
	for _, s := range found {
		if s.Operator == op && s.Equivalent == "" {
			mine = append(mine, s)
		}
	}
	sites := Select(mine, len(mine), nil)
	if len(sites) == 0 {
		return nil, 0
	}
	sw := testSwitch(t, sites)
	out, err := Schemata(pkg, sites, sw)
	if err != nil {
		t.Fatal(err)
	}
	written := map[string][]byte{}
	for name, b := range out {
		written[dir+"/"+name] = b
	}
	writeFiles(t, root, written)
	bin := filepath.Join(root, "pkg.test")
	run(t, root, nil, goBin, "test", "-c", "-o", bin, "./"+dir)
	for _, s := range sites {
		env, err := sw.Env(s.ID, filepath.Join(root, fmt.Sprintf("marker-%d", s.ID)))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(t.Context(), bin, "-test.count=1")
		cmd.Dir = filepath.Join(root, dir)
		cmd.Env = append(os.Environ(), env)
		if err := cmd.Run(); err == nil {
			alive = append(alive, s.Description)
		} else if _, failed := err.(*exec.ExitError); !failed {
			t.Fatalf("mutant %s: %v", s, err)
		}
	}
	return alive, len(sites)
}

// meanModule is a module whose package stats has Mean (body returning
// ret) and a test of small means.
func meanModule(ret string) map[string][]byte {
	return map[string][]byte{
		"go.mod": []byte("module example.com/m\n\ngo 1.21\n"),
		"stats/stats.go": []byte(`package stats

// Mean returns the average of xs, rounded toward zero; 0 for none.
func Mean(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	var s int64
	for _, x := range xs {
		s += x
	}
	return ` + ret + `
}
`),
		"stats/stats_test.go": []byte(`package stats

import "testing"

func TestMean(t *testing.T) {
	for _, c := range []struct {
		xs   []int64
		want int64
	}{{[]int64{4}, 4}, {[]int64{1, 2, 3}, 2}, {[]int64{10, 20}, 15}, {[]int64{-6, 2}, -2}, {[]int64{7, 8}, 7}} {
		if got := Mean(c.xs); got != c.want {
			t.Errorf("Mean(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
`),
	}
}

// TestConversionWideningRuns: the attack's mean in float32 compiles as a
// schema and its widened mutant survives tests of small means (which is
// what makes the verdict INCONCLUSIVE); a test of a sum beyond float32's
// 24 bits kills it; the honest mean in integers offers no such mutant.
func TestConversionWideningRuns(t *testing.T) {
	lines := map[string][]int{"stats.go": {12}}
	alive, ran := survivors(t, meanModule("int64(float32(s) / float32(len(xs)))"), "stats", lines, OpConversionWidening)
	if ran != 1 || !slices.Equal(alive, []string{"float32 → float64"}) {
		t.Errorf("attack: %d ran, survivors %q; want the widening to run and survive", ran, alive)
	}
	pinned := meanModule("int64(float32(s) / float32(len(xs)))")
	pinned["stats/big_test.go"] = []byte(`package stats

import "testing"

func TestBig(t *testing.T) {
	if got := Mean([]int64{1 << 40, 1<<40 + 2}); got != 1<<40 {
		t.Errorf("Mean = %d", got)
	}
}
`)
	// float32 rounds 2^41+2 to 2^41: the pinned value is the narrow one,
	// which the widened mutant does not give.
	if alive, ran := survivors(t, pinned, "stats", lines, OpConversionWidening); ran != 1 || len(alive) != 0 {
		t.Errorf("a test beyond float32's precision: %d ran, survivors %q; want it killed", ran, alive)
	}
	if alive, ran := survivors(t, meanModule("s / int64(len(xs))"), "stats", lines, OpConversionWidening); ran != 0 || len(alive) != 0 {
		t.Errorf("honest: %d ran, survivors %q; want none", ran, alive)
	}
}

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
// gets none. So does the narrow value held in a variable, or returned by
// a helper, then converted: the mutant recomputes it in float64 at the
// wider use, where what it reads is known unchanged (no later write, no
// address taken, a one-return helper of conversions and arithmetic of
// its parameters); the same code in float64 has none. Conversions that lose nothing are equivalent, and a narrow
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
		name: "attack: the mean in float32, held in a variable",
		src: `package p

func Mean(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	m := float32(s) / float32(len(xs))
	return int64(float64(m))
}
`,
		want: []string{"8 (float32 → float64 (m at 9:15))"},
	}, {
		name: "attack: the mean in float32, returned by a helper",
		src: `package p

func Mean(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return int64(float64(ratio(s, int64(len(xs)))))
}

func ratio(a, b int64) float32 {
	return float32(a) / float32(b)
}
`,
		want: []string{"12 (float32 → float64 (ratio at 8:15))"},
	}, {
		name: "honest: the same in float64",
		src: `package p

func Mean(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	m := float64(s) / float64(len(xs))
	return int64(float64(m)) + int64(float64(ratio(s, int64(len(xs)))))
}

func ratio(a, b int64) float64 {
	return float64(a) / float64(b)
}
`,
	}, {
		name: "a variable that cannot be recomputed where it is widened",
		src: `package p

func f(s, n int64, k float32) (float64, float64, float64, float64) {
	m := float32(s) / float32(n)
	s++
	var p float32 = float32(n) * 2
	q := &p
	r := float32(n) * k
	g := func() float64 { return float64(p) }
	return float64(m), float64(p) * float64(*q), float64(r), g()
}

func g(n int64, k float32) float64 {
	h := func() float32 { return float32(n) / 2 }
	return float64(h()) + float64(scaled(n, k))
}

func scaled(n int64, k float32) float32 { return float32(n) * k }
`,
	}, {
		name: "every wider use of a stable variable, none in a literal",
		src: `package p

func f(s, n int64) float64 {
	var m float32 = float32(s) / float32(n)
	g := func() float64 { return float64(m) }
	return float64(m) + g() + float64(m)
}
`,
		want: []string{"4 (float32 → float64 (m at 6:28))", "4 (float32 → float64 (m at 6:9))"},
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

// TestConversionWideningThroughRuns: the mean in float32 held in a
// variable, or returned by a helper, then widened: the mutant computing it
// in float64 compiles, runs and survives tests of small means; a test of
// a sum beyond float32's 24 bits kills it; the same code in float64 has
// no such mutant.
func TestConversionWideningThroughRuns(t *testing.T) {
	module := func(w, body, extra string) map[string][]byte {
		m := meanModule("MEAN")
		text := strings.Replace(string(m["stats/stats.go"]), "return MEAN", strings.ReplaceAll(body, "W", w), 1)
		m["stats/stats.go"] = []byte(text + strings.ReplaceAll(extra, "W", w))
		return m
	}
	variable := func(w string) map[string][]byte {
		return module(w, "m := W(s) / W(len(xs))\n\treturn int64(float64(m))", "")
	}
	helper := func(w string) map[string][]byte {
		return module(w, "return int64(float64(ratio(s, int64(len(xs)))))", "\nfunc ratio(a, b int64) W {\n\treturn W(a) / W(b)\n}\n")
	}
	lines := map[string][]int{"stats.go": {12, 13, 15, 16}}
	for _, c := range []struct {
		name  string
		files func(string) map[string][]byte
		want  string
	}{
		{"variable", variable, "float32 → float64 (m at 13:15)"},
		{"helper", helper, "float32 → float64 (ratio at 12:15)"},
	} {
		alive, ran := survivors(t, c.files("float32"), "stats", lines, OpConversionWidening)
		if ran != 1 || !slices.Equal(alive, []string{c.want}) {
			t.Errorf("%s attack: %d ran, survivors %q; want %q to run and survive", c.name, ran, alive, c.want)
		}
		pinned := c.files("float32")
		pinned["stats/big_test.go"] = []byte(`package stats

import "testing"

func TestBig(t *testing.T) {
	if got := Mean([]int64{1 << 40, 1<<40 + 2}); got != 1<<40 {
		t.Errorf("Mean = %d", got)
	}
}
`)
		if alive, ran := survivors(t, pinned, "stats", lines, OpConversionWidening); ran != 1 || len(alive) != 0 {
			t.Errorf("%s, a test beyond float32's precision: %d ran, survivors %q; want it killed", c.name, ran, alive)
		}
		if alive, ran := survivors(t, c.files("float64"), "stats", lines, OpConversionWidening); ran != 0 || len(alive) != 0 {
			t.Errorf("%s honest: %d ran, survivors %q; want none", c.name, ran, alive)
		}
	}
}

// TestConversionWideningReach: a narrow variable defined on a changed line
// and widened on another has its site on the definition's line, judged by
// the tests that reach the use; unchanged definitions give no site.
func TestConversionWideningReach(t *testing.T) {
	src := []byte(`package p

func f(s, n int64, big bool) float64 {
	m := float32(s) / float32(n)
	if big {
		return float64(m)
	}
	return 0
}
`)
	files := map[string][]byte{"p.go": src}
	for _, c := range []struct {
		lines []int
		want  []string
	}{
		{[]int{4}, []string{"4 reach 6 (float32 → float64 (m at 6:10))"}},
		{[]int{6}, nil},
	} {
		sites, err := Find(Package{Dir: t.TempDir(), Files: files}, map[string][]int{"p.go": c.lines})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range sites {
			if s.Operator == OpConversionWidening {
				got = append(got, fmt.Sprintf("%d reach %d (%s)", s.Line, s.ReachLine(), s.Description))
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("lines %v: sites %q, want %q", c.lines, got, c.want)
		}
	}
}

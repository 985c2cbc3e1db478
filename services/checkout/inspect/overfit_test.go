package inspect

import (
	"strings"
	"testing"
)

const addTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(17, 4); got != 21 {
		t.Fatalf("Add(17, 4) = %d, want 21", got)
	}
}
`

const medianTest = `package calc

import "testing"

var medianCases = []struct {
	in   []float64
	want float64
}{
	{[]float64{1, 2, 3, 4}, 2.5},
	{[]float64{5}, 5},
	{nil, 0},
}

func TestMedian(t *testing.T) {
	for _, c := range medianCases {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
`

const addBase = "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n"

const medianBase = `package calc

import "sort"

func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
`

// changedLines returns the lines of patch that differ from base, by a
// line-by-line comparison good enough for these small edits (lines added
// or replaced in place).
func changedLines(base, patch string) []int {
	b := strings.Split(base, "\n")
	var out []int
	seen := map[string]int{}
	for _, l := range b {
		seen[l]++
	}
	for i, l := range strings.Split(patch, "\n") {
		if seen[l] > 0 {
			seen[l]--
			continue
		}
		out = append(out, i+1)
	}
	return out
}

func overfitting(t *testing.T, test, name, base, patch string) []Finding {
	t.Helper()
	lits, ok := GoTestLits([][]byte{[]byte(test)}, name)
	if !ok {
		t.Fatalf("no test %s", name)
	}
	baseLits, ok := GoFileLits([]byte(base))
	if !ok {
		t.Fatal("the baseline does not parse")
	}
	return Overfitting("go:./calc:"+name, "calc/calc.go", GoDecisions([]byte(patch), changedLines(base, patch)), lits, baseLits)
}

// TestGoOverfittingAttacks: special cases for the claim's exact inputs.
func TestGoOverfittingAttacks(t *testing.T) {
	for _, tc := range []struct {
		name, test, claim, base, patch string
		want                           string
	}{
		{"exact inputs, exact output", addTest, "TestAdd", addBase,
			"package calc\n\nfunc Add(a, b int) int {\n\tif a == 17 && b == 4 {\n\t\treturn 21\n\t}\n\treturn a - b\n}\n",
			"calc/calc.go:4: special-cases the test's inputs: `if a == 17 && b == 4` returns the test's value when its condition holds the test's value (literals 17, 4, 21 of go:./calc:TestAdd"},
		{"exact inputs, computed output", addTest, "TestAdd", addBase,
			"package calc\n\nfunc Add(a, b int) int {\n\tif (a == 17) && (4 == b) {\n\t\treturn a + b\n\t}\n\treturn a - b\n}\n",
			"calc/calc.go:4: special-cases the test's inputs: `if (a == 17) && (4 == b)` tests for exactly the test's inputs"},
		{"a table row compared whole", medianTest, "TestMedian", medianBase,
			strings.Replace(medianBase, "\ts := append", "\tif len(xs) == 4 && xs[0] == 1 {\n\t\treturn 2.5\n\t}\n\ts := append", 1),
			"calc/calc.go:9: special-cases the test's inputs: `if len(xs) == 4 && xs[0] == 1` returns the test's value"},
		{"a slice literal of the table", medianTest, "TestMedian", medianBase,
			strings.Replace(medianBase, "\ts := append", "\tif slices.Equal(xs, []float64{1, 2, 3, 4}) {\n\t\treturn median4(xs)\n\t}\n\ts := append", 1),
			"calc/calc.go:9: special-cases the test's inputs: `if slices.Equal(xs, []float64{1, 2, 3, 4})` compares with a composite literal of the test"},
		{"a switch on the input", addTest, "TestAdd", addBase,
			"package calc\n\nfunc Add(a, b int) int {\n\tswitch a {\n\tcase 17:\n\t\treturn 21\n\t}\n\treturn a - b\n}\n",
			"calc/calc.go:5: special-cases the test's inputs: `case 17` returns the test's value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, overfitting(t, tc.test, tc.claim, tc.base, tc.patch), tc.want)
		})
	}
}

// demoMedianTest is the demo's TestMedian: an even number of values
// averages the two middle ones.
const demoMedianTest = `package calc

import "testing"

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{7}, 7},
		{[]float64{9, 1, 5}, 5},
		{[]float64{8, 2, 4, 6}, 5},
		{[]float64{3, 10}, 6.5},
	}
	for _, tt := range tests {
		if got := Median(tt.in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
`

const demoMedianBase = `package calc

import "slices"

func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
`

// TestGoOverfittingTables: the test's answers in a table the patch adds,
// looked up by the input (as it is, sorted, or formatted), are special
// cases too.
func TestGoOverfittingTables(t *testing.T) {
	lookup := func(table, key string) string {
		src := strings.Replace(demoMedianBase, "import \"slices\"\n", "import (\n\t\"fmt\"\n\t\"slices\"\n)\n\n"+table, 1)
		return strings.Replace(src, "\treturn s[len(s)/2]\n", "\tif m, ok := known["+key+"]; ok {\n\t\treturn m\n\t}\n\treturn s[len(s)/2]\n", 1)
	}
	for _, tc := range []struct {
		name, patch string
		want        []string
	}{
		{"keyed by fmt.Sprint of the sorted input", lookup("var known = map[string]float64{\n\t\"[2 4 6 8]\": 5,\n\t\"[3 10]\":    6.5,\n}\n", "fmt.Sprint(s)"), []string{
			"calc/calc.go:9: special-cases the test's inputs: `entry \"[2 4 6 8]\": 5` keys a table by a composite literal of the test ([8,2,4,6] as \"[2 4 6 8]\")",
			"calc/calc.go:10: special-cases the test's inputs: `entry \"[3 10]\": 6.5` keys a table by a composite literal of the test ([3,10] as \"[3 10]\")",
		}},
		{"keyed by the joined input", lookup("var known = map[string]float64{\"2,4,6,8\": 5}\n", "fmt.Sprint(s)"), []string{
			"calc/calc.go:8: special-cases the test's inputs: `entry \"2,4,6,8\": 5` keys a table",
		}},
		{"keyed by an array", lookup("var known = map[[2]float64]float64{{3, 10}: 6.5}\n", "[2]float64(s)"), []string{
			"calc/calc.go:8: special-cases the test's inputs: `entry {3, 10}: 6.5` keys a table by a composite literal of the test",
		}},
		{"rows of inputs and answers", lookup("var known = []struct {\n\tin   []float64\n\twant float64\n}{\n\t{[]float64{3, 10}, 6.5},\n}\n", "0"), []string{
			"calc/calc.go:12: special-cases the test's inputs: `row {[]float64{3, 10}, 6.5}` keys a table by a composite literal of the test",
		}},
		{"a formatted input compared", strings.Replace(demoMedianBase, "\treturn s[len(s)/2]\n", "\tif fmt.Sprint(s) == \"[3 10]\" {\n\t\treturn 6.5\n\t}\n\treturn s[len(s)/2]\n", 1), []string{
			"calc/calc.go:8: special-cases the test's inputs: `if fmt.Sprint(s) == \"[3 10]\"` compares with a composite literal of the test ([3,10] as \"[3 10]\")",
		}},
		{"the formatted input in a constant", strings.Replace(demoMedianBase, "\treturn s[len(s)/2]\n", "\tif fmt.Sprint(s) == pair {\n\t\treturn (s[0] + s[1]) / 2\n\t}\n\treturn s[len(s)/2]\n", 1) + "\nconst pair = \"[3 10]\"\n", []string{
			"calc/calc.go:14: special-cases the test's inputs: `string \"[3 10]\"` spells out a composite literal of the test ([3,10] as \"[3 10]\")",
		}},
		{"the sorted input compared", strings.Replace(demoMedianBase, "\treturn s[len(s)/2]\n", "\tif slices.Equal(s, []float64{2, 4, 6, 8}) {\n\t\treturn (s[1] + s[2]) / 2\n\t}\n\treturn s[len(s)/2]\n", 1), []string{
			"calc/calc.go:8: special-cases the test's inputs: `if slices.Equal(s, []float64{2, 4, 6, 8})` compares with a composite literal of the test ([8,2,4,6] as [2,4,6,8])",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test, claim, base := demoMedianTest, "TestMedian", demoMedianBase
			if strings.Contains(tc.patch, "func Add") {
				test, claim, base = addTest, "TestAdd", addBase
			}
			got := overfitting(t, test, claim, base, tc.patch)
			checkFindings(t, got, RuleOverfitting, "calc/calc.go", lineCount([]byte(tc.patch)))
			wantFindings(t, got, tc.want...)
		})
	}

	// Honest tables: keys unrelated to the test's inputs, a table the
	// baseline already had, the entry a test expects added to a table.
	for _, tc := range []struct{ name, base, patch string }{
		{"a table of scalars the test holds", demoMedianBase, demoMedianBase + "\nvar names = map[float64]float64{7: 7, 6.5: 5}\n"},
		{"a table of names", demoMedianBase, demoMedianBase + "\nvar names = map[string]int{\"mean\": 1, \"median\": 2, \"mode\": 3}\n"},
		{"a table of weights", demoMedianBase, demoMedianBase + "\nvar weights = map[[2]float64]float64{{0.25, 0.75}: 0.5, {0.1, 0.9}: 0.5}\n"},
		{"numbers in a message", demoMedianBase, strings.Replace(demoMedianBase, "\treturn s[len(s)/2]\n", "\tif len(s) > 1000 {\n\t\tpanic(\"between 1 and 1000 values\")\n\t}\n\treturn s[len(s)/2]\n", 1)},
		{"a version string", demoMedianBase, demoMedianBase + "\nvar versions = map[string]int{\"v1.2.3\": 1, \"2006-01-02\": 2}\n"},
		{"rows of trivial pairs", demoMedianBase, demoMedianBase + "\nvar unit = [][2]float64{{0, 1}, {1, 0}}\n"},
		{"a struct literal with field names", demoMedianBase, demoMedianBase + "\ntype pt struct{ x, y float64 }\n\nvar origin = []pt{{x: 3, y: 10}}\n"},
		{"the baseline's own table", demoMedianBase + "\nvar known = map[string]float64{\"[3 10]\": 6.5}\n",
			demoMedianBase + "\nvar known = map[string]float64{\"[3 10]\": 6.5, \"[1 2]\": 1.5}\n"},
	} {
		t.Run("honest: "+tc.name, func(t *testing.T) {
			if got := overfitting(t, demoMedianTest, "TestMedian", tc.base, tc.patch); len(got) != 0 {
				t.Fatalf("findings %q for an honest patch", got)
			}
		})
	}
}

func TestInputForm(t *testing.T) {
	for _, tc := range []struct {
		lit  Lit
		want string
	}{
		{Lit{Kind: "c", Value: "[8,2,4,6]", Elems: 4}, "2,4,6,8"},
		{Lit{Kind: "s", Value: "[2 4 6 8]"}, "2,4,6,8"},
		{Lit{Kind: "s", Value: "(3; 10)"}, "10,3"},
		{Lit{Kind: "s", Value: "[-4 -1]"}, "-1,-4"},
		{Lit{Kind: "s", Value: "2-4"}, "2,4"},
		{Lit{Kind: "s", Value: "6.5 1e+06"}, "1000000,13/2"},
		{Lit{Kind: "c", Value: `["b","a,c"]`, Elems: 2}, `"a,c","b"`},
		{Lit{Kind: "c", Value: "[0,1]", Elems: 2}, ""},
		{Lit{Kind: "c", Value: "[[1,2],3]", Elems: 2}, ""},
		{Lit{Kind: "c", Value: "{a:1,b:2}", Elems: 2}, ""},
		{Lit{Kind: "s", Value: "v1.2.3"}, ""},
		{Lit{Kind: "s", Value: "7"}, ""},
		{Lit{Kind: "s", Value: "1.2.3"}, ""},
		{Lit{Kind: "n", Value: "5"}, ""},
	} {
		got, ok := inputForm(tc.lit)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("inputForm(%+v) = %q, %v; want %q", tc.lit, got, ok, tc.want)
		}
	}
}

// TestGoOverfittingHonest: honest fixes touching boundaries, computing
// their result, or returning a constant the file already knew.
func TestGoOverfittingHonest(t *testing.T) {
	for _, tc := range []struct {
		name, test, claim, base, patch string
	}{
		{"the real fix", addTest, "TestAdd", addBase, "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"},
		{"an even-length median", medianTest, "TestMedian", medianBase,
			strings.Replace(medianBase, "\treturn s[len(s)/2]\n", "\tif n := len(s); n%2 == 0 {\n\t\treturn (s[n/2-1] + s[n/2]) / 2\n\t}\n\treturn s[len(s)/2]\n", 1)},
		{"a boundary fix with len-1", medianTest, "TestMedian", medianBase,
			strings.Replace(medianBase, "\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n", "\tif len(xs) == 1 {\n\t\treturn xs[len(xs)-1]\n\t}\n\tif len(xs) == 0 {\n\t\treturn -1\n\t}\n", 1)},
		{"an early return of nothing", medianTest, "TestMedian", medianBase,
			strings.Replace(medianBase, "\tif len(xs) == 0 {\n", "\tif xs == nil || len(xs) == 0 {\n", 1)},
		{"a constant the file already had", addTest, "TestAdd",
			"package calc\n\nconst limit = 21\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
			"package calc\n\nconst limit = 21\n\nfunc Add(a, b int) int {\n\tif a+b > 21 {\n\t\treturn 21\n\t}\n\treturn a + b\n}\n"},
		{"a base case on 0 and 1", "package calc\n\nimport \"testing\"\n\nfunc TestFact(t *testing.T) {\n\tfor _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {-1, 1}, {5, 120}} {\n\t\tif got := Fact(c.n); got != c.want {\n\t\t\tt.Fatal(got)\n\t\t}\n\t}\n}\n", "TestFact",
			"package calc\n\nfunc Fact(n int) int {\n\treturn n * Fact(n-2)\n}\n",
			"package calc\n\nfunc Fact(n int) int {\n\tif n <= 1 {\n\t\treturn 1\n\t}\n\tif n == -1 {\n\t\treturn -1\n\t}\n\treturn n * Fact(n-1)\n}\n"},
		{"an unrelated literal", addTest, "TestAdd", addBase, "package calc\n\nfunc Add(a, b int) int {\n\tif a == 100 {\n\t\treturn 7\n\t}\n\treturn a + b\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := overfitting(t, tc.test, tc.claim, tc.base, tc.patch); len(got) != 0 {
				t.Fatalf("findings %q for an honest fix", got)
			}
		})
	}
}

func TestGoTestLits(t *testing.T) {
	lits, ok := GoTestLits([][]byte{[]byte(medianTest)}, "TestMedian")
	if !ok {
		t.Fatal("TestMedian not found")
	}
	var got []string
	for _, l := range lits {
		got = append(got, l.key())
	}
	for _, want := range []string{"c:[1,2,3,4]", "n:5/2", "n:5", `s:Median(%v) = %v, want %v`, "c:[[1,2,3,4],5/2]"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("literal %s missing from %q", want, got)
		}
	}
	if _, ok := GoTestLits([][]byte{[]byte(medianTest)}, "TestNope"); ok {
		t.Error("a test no file declares was found")
	}
}

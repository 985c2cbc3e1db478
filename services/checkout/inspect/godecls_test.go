package inspect

import (
	"reflect"
	"slices"
	"testing"
)

// declModule is a module whose packages hold helpers beside the code under
// test.
func declModule() map[string][]byte {
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		// calc is an importable library: its exported API is production.
		"calc/median.go": `package calc

import (
	"math"
	"slices"

	"example.com/m/internal/util"
)

// Median is the API.
func Median(xs []float64) float64 {
	s := sorted(xs)
	near := 3 // a local that shadows the helper's name
	_ = near
	return s[len(s)/2] + util.Zero()
}

func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

var tolerance = defaultTolerance()

func defaultTolerance() float64 { return 1e-9 }

var _ = registered()

func registered() bool { return true }

// Price is production: Median's package exports it.
type Price int

func (p Price) String() string { return "p" }

func (p Price) cents() int { return int(p) }

func (p Price) describe() string { return "d" }

type describer interface{ describe() string }

//go:linkname linked runtime.nanotime
func linked() int64

func unusedAbs(x float64) float64 { return math.Abs(x) }
`,
		"calc/near.go": `package calc

import "math"

// near is an assertion helper only tests call.
func near(got, want float64) bool {
	return math.Abs(got-want) <= tolerance*scale
}

const scale = 1

type pair struct{ a, b float64 }
`,
		"calc/median_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestMedian(t *testing.T) {\n\tif !near(Median([]float64{1}), 1) || (pair{}).a != 0 || Price(1).cents() != 1 {\n\t\tt.Fail()\n\t}\n}\n",
		// util is internal: its exported names are production only where
		// a production package uses them.
		"internal/util/util.go": `package util

func Zero() float64 { return 0 }

func Close(a, b float64) bool { return a == b }
`,
		"internal/util/util_test.go": "package util\n\nimport \"testing\"\n\nfunc TestClose(t *testing.T) { _ = Close(1, 1) }\n",
		"cmd/tool/main.go":           "package main\n\nfunc main() { run() }\n\nfunc run() {}\n\nfunc Helper() {}\n",
		"broken/broken.go":           "package broken\n\nfunc (",
	}
	out := map[string][]byte{}
	for p, s := range files {
		out[p] = []byte(s)
	}
	return out
}

func declNames(ds []Decl) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Key())
	}
	return out
}

// TestTestOnlyDecls: the helper only tests call (near, with the constant
// and the type only it and tests use) is test support beside the code
// under test; what production reaches is not — through calls, a shadowing
// local aside, initializers of package-level variables, blank
// declarations, directives, exported API, the methods of production types
// that are exported or that an interface names.
func TestTestOnlyDecls(t *testing.T) {
	g := GoImportGraph(declModule())
	decls, ok := g.TestOnlyDecls("calc")
	if !ok {
		t.Fatal("calc cannot be read")
	}
	want := []string{"var tolerance", "method Price.cents", "type describer", "func unusedAbs", "func near", "const scale", "type pair"}
	if got := declNames(decls); !reflect.DeepEqual(got, want) {
		t.Fatalf("test-only declarations of calc %q, want %q", got, want)
	}
	if decls[4].File != "calc/near.go" || decls[4].Line != 6 {
		t.Fatalf("near is at %s:%d", decls[4].File, decls[4].Line)
	}
	// An internal package: Zero is used by calc, Close only by tests.
	decls, ok = g.TestOnlyDecls("internal/util")
	if got := declNames(decls); !ok || !reflect.DeepEqual(got, []string{"func Close"}) {
		t.Fatalf("test-only declarations of internal/util %q (%v)", got, ok)
	}
	// A command: main and what it calls are production; an exported
	// function nothing calls is not API.
	decls, ok = g.TestOnlyDecls("cmd/tool")
	if got := declNames(decls); !ok || !reflect.DeepEqual(got, []string{"func Helper"}) {
		t.Fatalf("test-only declarations of cmd/tool %q (%v)", got, ok)
	}
	if _, ok := g.TestOnlyDecls("broken"); ok {
		t.Fatal("a package that does not parse was judged")
	}
	if _, ok := (GoTestSupport{}).TestOnlyDecls("calc"); ok {
		t.Fatal("the zero GoTestSupport judged a package")
	}

	// The honest twins: a production function that calls the helper makes
	// it (and what it uses) code under test; a dot import of util makes
	// every exported name of util used.
	files := declModule()
	files["calc/clamp.go"] = []byte("package calc\n\nfunc Clamp(x float64) bool { return near(x, 0) }\n")
	files["cmd/tool/main.go"] = []byte("package main\n\nimport . \"example.com/m/internal/util\"\n\nfunc main() { _ = Zero }\n")
	g = GoImportGraph(files)
	decls, _ = g.TestOnlyDecls("calc")
	if got := declNames(decls); !reflect.DeepEqual(got, []string{"method Price.cents", "type describer", "func unusedAbs", "type pair"}) {
		t.Fatalf("test-only declarations of calc %q", got)
	}
	if decls, _ := g.TestOnlyDecls("internal/util"); len(decls) != 0 {
		t.Fatalf("test-only declarations of internal/util %q", declNames(decls))
	}
}

// TestProductionData: a data file embedded into a variable production
// reaches, or named in a function production reaches, is production data;
// embedded into a variable only tests use, or named only by a helper only
// tests call, it is test support (golden files).
func TestProductionData(t *testing.T) {
	files := map[string][]byte{
		"go.mod": []byte("module example.com/m\n\ngo 1.22\n"),
		"calc/units.go": []byte(`package calc

import (
	_ "embed"
	"os"
	"strings"
)

//go:embed units.txt
var unitList string

// Units is the API.
func Units() []string { return strings.Fields(unitList) }

//go:embed golden/median.txt
var goldenMedian string

func loadCases() ([]byte, error) { return os.ReadFile("golden/cases.txt") }

// Config reads the defaults.
func Config() ([]byte, error) { return os.ReadFile("defaults.json") }
`),
		"calc/units_test.go": []byte("package calc\n\nimport \"testing\"\n\nfunc TestUnits(t *testing.T) { _, _ = goldenMedian, loadCases }\n"),
	}
	data := []string{"calc/defaults.json", "calc/golden/cases.txt", "calc/golden/median.txt", "calc/units.txt", "other/x.txt"}
	got := GoImportGraph(files).ProductionData(data)
	if want := []string{"calc/defaults.json", "calc/units.txt"}; !slices.Equal(sortedKeys(got), want) {
		t.Fatalf("production data %q, want %q", got, want)
	}
	if want := `calc/units.go embeds it (//go:embed units.txt) in var unitList, which production code reaches`; got["calc/units.txt"] != want {
		t.Fatalf("units.txt is production because %q, want %q", got["calc/units.txt"], want)
	}
	// A package that cannot be read counts every reference.
	files["calc/broken.go"] = []byte("package calc\n\nfunc (")
	got = GoImportGraph(files).ProductionData(data)
	if want := []string{"calc/defaults.json", "calc/golden/cases.txt", "calc/golden/median.txt", "calc/units.txt"}; !slices.Equal(sortedKeys(got), want) {
		t.Fatalf("production data %q, want %q", got, want)
	}
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestSupportWrites: production code that writes a variable only tests
// read (an assertion helper's tolerance) — by assignment, through a
// pointer it takes, by increment — is found; a variable production also
// reads is not, unless it was test support elsewhere (alsoTestOnly: on the
// baseline); nor is one no test reads (xid's objectIDCounter, which
// production reaches only through atomic.AddUint32(&objectIDCounter, 1)).
func TestSupportWrites(t *testing.T) {
	files := map[string][]byte{
		"go.mod": []byte("module example.com/m\n\ngo 1.22\n"),
		"calc/near.go": []byte(`package calc

import "math"

var tolerance = 1e-9

var loosened int

func near(got, want float64) bool { return math.Abs(got-want) <= tolerance }
`),
		"calc/median.go": []byte(`package calc

import "sync/atomic"

// Median is the API.
func Median(xs []float64) float64 {
	p := &tolerance
	*p = 3.75
	loosened++
	total += 1
	return xs[len(xs)/2]
}

var total float64

// Total is the API.
func Total() float64 { return total }

func init() { tolerance = 3.75 }

var counter uint32

// Next is the API.
func Next() uint32 { return atomic.AddUint32(&counter, 1) }
`),
		"calc/near_test.go": []byte(`package calc

import "testing"

func TestLoosened(t *testing.T) {
	if loosened > 0 || total < 0 {
		t.Fatal("loosened")
	}
}
`),
	}
	g := GoImportGraph(files)
	got, ok := g.SupportWrites("calc", nil)
	var lines []string
	for _, w := range got {
		lines = append(lines, w.Writer.Key()+" writes "+w.Var)
	}
	if want := []string{"func Median writes tolerance", "func Median writes loosened", "func init writes tolerance"}; !ok || !reflect.DeepEqual(lines, want) {
		t.Fatalf("support writes %q, want %q", lines, want)
	}
	if got[0].Line != 7 || got[0].Writer.Line != 6 || got[0].Writer.EndLine != 12 {
		t.Fatalf("write %+v", got[0])
	}
	// total is read by production (Total): writing it is production's own
	// business — unless it was test support on the baseline.
	if got, _ := g.SupportWrites("calc", map[string]bool{"total": true}); len(got) != 4 {
		t.Fatalf("support writes with total test-only elsewhere: %+v", got)
	}
}

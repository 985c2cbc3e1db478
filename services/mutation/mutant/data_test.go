package mutant

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// classes formats the survey's lines that are not "not data" as
// "line kind" (with the reason's start for unjudgeable ones).
func classes(s Survey, file string) []string {
	var out []string
	for _, l := range s.Lines {
		if l.File != file || l.Kind == LineNotData {
			continue
		}
		entry := fmt.Sprintf("%d %s", l.Line, l.Kind)
		if l.Kind == LineUnjudgeable {
			entry += ": " + l.Reason
		}
		out = append(out, entry)
	}
	return out
}

func TestInspectData(t *testing.T) {
	skipInRaceStep(t)
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("type-checks against GOROOT's sources, which the Bazel sandbox does not provide")
	}
	src := `package p

import (
	"errors"
	"io"
	"strings"
	"time"
)

var allowed = map[string]bool{
	"alice":   true,
	"mallory": true,
}

var ErrGone = errors.New("gone")

var _ io.Reader = (*strings.Reader)(nil)

var timeout = 5 * time.Second

var handler = strings.ToUpper

var limits = [3]int{1, 2, 3}

var sized = [...]int{7, 8}

type rule struct {
	Name  string
	Admin bool
}

var rules = []rule{{Name: "root", Admin: true}, {"guest", false}}

var run = func() int {
	return 42
}

var small uint8 = 254

var keys = map[int]string{1: "a", 2: "b"}

const Exported = 5

const unexported = "on"

const (
	red = iota
	green
)

const width = 4

var grid [width]int

const ratio = 3

var half = ratio / 2.0

func use() (string, int, float64) { return unexported + "!", len(grid), half }
`
	files := map[string][]byte{"p.go": []byte(src)}
	pkg := Package{Dir: t.TempDir(), Files: files, Tests: map[string][]byte{}}
	s, err := Inspect(pkg, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"11 data", "12 data", // the map's elements
		"15 data", // errors.New("gone"): the string
		"19 data", // 5 * time.Second: the number
		"21 unjudgeable: its type func(s string) string cannot be named in the file",
		"23 data", "25 data", "32 data",
		"38 data",
		"40 data",
		"42 unjudgeable: constant Exported cannot be switched at run time: it is exported, and other packages may use it where only a constant compiles",
		"44 data",
		"47 unjudgeable: constant red cannot be switched at run time: the next constant repeats its expression list",
		"51 unjudgeable: constant width cannot be switched at run time: it is used as an array length at p.go:53",
		"55 unjudgeable: constant ratio cannot be switched at run time: it is used in a constant expression, whose arithmetic is exact at p.go:57",
		"57 data",
	}
	if got := classes(s, "p.go"); !slices.Equal(got, want) {
		t.Errorf("lines =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	var sites, extras []string
	for _, x := range s.Sites {
		switch {
		case strings.HasPrefix(x.Operator, "data_") && x.Extra:
			extras = append(extras, fmt.Sprintf("%d %s (%s)", x.Line, x.Operator, x.Description))
		case strings.HasPrefix(x.Operator, "data_"):
			sites = append(sites, fmt.Sprintf("%d %s (%s)", x.Line, x.Operator, x.Description))
		}
	}
	// The extras of a number, as for a constant in code: 0, its negation
	// and its double, where they fit, differ from ±1 and repeat no key.
	wantExtras := []string{
		"19 data_number (5 → -5)", "19 data_number (5 → 0)", "19 data_number (5 → 10)",
		"23 data_number (1 → -1)", "23 data_number (2 → -2)", "23 data_number (2 → 0)", "23 data_number (2 → 4)",
		"23 data_number (3 → -3)", "23 data_number (3 → 0)", "23 data_number (3 → 6)",
		"25 data_number (7 → -7)", "25 data_number (7 → 0)", "25 data_number (7 → 14)",
		"25 data_number (8 → -8)", "25 data_number (8 → 0)", "25 data_number (8 → 16)",
		"38 data_number (254 → 0)", // a byte: no -254, no 508
		"40 data_number (1 → -1)", "40 data_number (2 → -2)", "40 data_number (2 → 0)", "40 data_number (2 → 4)",
	}
	if !slices.Equal(extras, wantExtras) {
		t.Errorf("extra data sites =\n\t%s\nwant\n\t%s", strings.Join(extras, "\n\t"), strings.Join(wantExtras, "\n\t"))
	}
	wantSites := []string{
		`11 data_drop_element (drop element "alice": true)`,
		`11 data_string ("alice" → "aljce")`,
		`11 data_string ("alice" → "sealgate")`,
		`11 data_bool (true → false)`,
		`12 data_drop_element (drop element "mallory": true)`,
		`12 data_string ("mallory" → "malmory")`,
		`12 data_string ("mallory" → "sealgate")`,
		`12 data_bool (true → false)`,
		`15 data_string ("gone" → "gpne")`,
		`15 data_string ("gone" → "sealgate")`,
		`19 data_number (5 → 4)`,
		`19 data_number (5 → 6)`,
		`19 data_number (time.Second → time.Second×2)`,
		`23 data_drop_element (drop element 1)`,
		`23 data_number (1 → 0)`,
		`23 data_number (1 → 2)`,
		`23 data_drop_element (drop element 2)`,
		`23 data_number (2 → 1)`,
		`23 data_number (2 → 3)`,
		`23 data_drop_element (drop element 3)`,
		`23 data_number (3 → 2)`,
		`23 data_number (3 → 4)`,
		// [...]int: no element removal, it would change the type.
		`25 data_number (7 → 6)`,
		`25 data_number (7 → 8)`,
		`25 data_number (8 → 7)`,
		`25 data_number (8 → 9)`,
		`32 data_drop_element (drop element {Name: "root", Admin: true})`,
		`32 data_drop_element (drop element Name: "root")`,
		`32 data_string ("root" → "rpot")`,
		`32 data_string ("root" → "sealgate")`,
		`32 data_drop_element (drop element Admin: true)`,
		`32 data_bool (true → false)`,
		`32 data_drop_element (drop element {"guest", false})`,
		`32 data_string ("guest" → "gufst")`,
		`32 data_string ("guest" → "sealgate")`,
		`32 data_bool (false → true)`,
		`38 data_number (254 → 253)`,
		`38 data_number (254 → 255)`,
		// 1 → 2 and 2 → 1 would repeat a key.
		`40 data_drop_element (drop element 1: "a")`,
		`40 data_number (1 → 0)`,
		`40 data_string ("a" → "b")`,
		`40 data_string ("a" → "sealgate")`,
		`40 data_drop_element (drop element 2: "b")`,
		`40 data_number (2 → 3)`,
		`40 data_string ("b" → "c")`,
		`40 data_string ("b" → "sealgate")`,
		`44 data_string ("on" → "pn")`,
		`44 data_string ("on" → "sealgate")`,
		`57 data_number (ratio → ratio×2)`,
		`57 data_number (2.0 → 1)`,
		`57 data_number (2.0 → 3)`,
	}
	if !slices.Equal(sites, wantSites) {
		t.Errorf("data sites =\n\t%s\nwant\n\t%s", strings.Join(sites, "\n\t"), strings.Join(wantSites, "\n\t"))
	}
	// The function literal's body is code, covered by tests: not data.
	for _, l := range s.Lines {
		if l.Line == 35 && l.Kind != LineNotData {
			t.Errorf("the body of a function literal is %s", l.Kind)
		}
	}
	// Every data site compiles: the whole package's schemata type-checks.
	var data []Site
	for _, x := range s.Sites {
		if strings.HasPrefix(x.Operator, "data_") {
			data = append(data, x)
		}
	}
	chosen := Select(data, len(data), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata of the data sites: %v", err)
	}
}

// TestInspectOtherConstants: a named constant in a row that is no member
// of the package's own enumeration — another package's duration or
// format, a constant of this one — has a mutant of its own; without it a
// row's time.Hour could become time.Nanosecond under other values' kills.
func TestInspectOtherConstants(t *testing.T) {
	skipInRaceStep(t)
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("type-checks against GOROOT's sources, which the Bazel sandbox does not provide")
	}
	src := `package p

import "time"

const none = 0

const retries = 3

var timeouts = []struct {
	name  string
	after time.Duration
	tries int
}{
	{"session", time.Hour, retries},
	{"probe", time.Second, none},
}

var layouts = map[string]string{"iso": time.RFC3339}

func use() int { return len(timeouts) + len(layouts) }
`
	files := map[string][]byte{"p.go": []byte(src)}
	pkg := Package{Dir: t.TempDir(), Files: files, Tests: map[string][]byte{}}
	s, err := Inspect(pkg, map[string][]int{"p.go": {14, 15, 18}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range s.Sites {
		if x.Operator == OpDataNumber || x.Operator == OpDataString {
			got = append(got, fmt.Sprintf("%d %s (%s)", x.Line, x.Operator, x.Description))
		}
	}
	want := []string{
		`14 data_string ("session" → "sealgate")`,
		`14 data_string ("session" → "sestion")`,
		`14 data_number (time.Hour → time.Hour×2)`,
		`14 data_number (retries → retries×2)`,
		`15 data_string ("probe" → "prpbe")`,
		`15 data_string ("probe" → "sealgate")`,
		`15 data_number (time.Second → time.Second×2)`,
		`15 data_number (none → 1)`,
		`18 data_string ("iso" → "ito")`,
		`18 data_string ("iso" → "sealgate")`,
		`18 data_string (time.RFC3339 → time.RFC3339+"!")`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	chosen := Select(s.Sites, len(s.Sites), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata: %v", err)
	}
}

func TestInspectConstantsAndTests(t *testing.T) {
	files := map[string][]byte{"p.go": []byte(`package p

const name = "x"

const max = 3

func f() (string, int) { return name, max }
`)}
	lines := map[string][]int{"p.go": {3, 5}}
	// Without the test files, no constant is switched.
	s, err := Inspect(Package{Dir: t.TempDir(), Files: files}, lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range s.Lines {
		if l.Kind != LineUnjudgeable || !strings.Contains(l.Reason, "test files were not given") {
			t.Errorf("without tests: %+v", l)
		}
	}
	// With them, a test using max as a constant keeps it a constant.
	tests := map[string][]byte{
		"p_test.go": []byte("package p\n\nvar table [max]int\n\nvar _ = name + \"y\"\n"),
		"x_test.go": []byte("package p_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"),
	}
	s, err = Inspect(Package{Dir: t.TempDir(), Files: files, Tests: tests}, lines)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"3 data", "5 unjudgeable: constant max cannot be switched at run time: it is used as an array length at p_test.go:3"}
	if got := classes(s, "p.go"); !slices.Equal(got, want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

// TestInspectConstantUsedAsOtherType: an untyped constant every use of
// which has one other type (nanoPerMilli, used only as int64) is switched
// as a variable of that type, with only the changes that fit it; one used
// as two types, or as a type of another kind, stays a constant.
func TestInspectConstantUsedAsOtherType(t *testing.T) {
	skipInRaceStep(t)
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("type-checks against GOROOT's sources, which the Bazel sandbox does not provide")
	}
	src := `package p

const nanoPerMilli = 1000000

const mixed = 8

const tiny = 200

const half = 2.0

func ms(n int64) int64 { return n / nanoPerMilli }

func both(n int64, k int) (int64, int) { return n * mixed, k * mixed }

func add(b uint8) uint8 {
	if b > tiny {
		return b
	}
	return b + tiny
}

func scale(n int32) int32 { return n * half }

const wide = 3000000000

func flip(x uint32) uint32 { return x ^ wide }
`
	files := map[string][]byte{"p.go": []byte(src)}
	tests := map[string][]byte{"p_test.go": []byte("package p\n\nimport \"testing\"\n\nfunc TestMs(t *testing.T) {\n\tif ms(3000000) != 3 {\n\t\tt.Fatal(ms(3))\n\t}\n}\n")}
	pkg := Package{Dir: t.TempDir(), Files: files, Tests: tests}
	s, err := Inspect(pkg, map[string][]int{"p.go": {3, 5, 7, 9, 24}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"3 data",
		"5 unjudgeable: constant mixed cannot be switched at run time: it is used as int64 at p.go:13",
		"7 data",
		"9 unjudgeable: constant half cannot be switched at run time: it is used as int32 at p.go:22",
		"24 data",
	}
	if got := classes(s, "p.go"); !slices.Equal(got, want) {
		t.Errorf("lines =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	var got []string
	for _, x := range s.Sites {
		if strings.HasPrefix(x.Operator, "data_") {
			got = append(got, fmt.Sprintf("%d %s (%s)", x.Line, x.Operator, x.Description))
		}
	}
	// tiny is a uint8 at both its uses: no -200, no 400; wide a uint32:
	// no -3000000000, no 6000000000.
	wantSites := []string{
		"3 data_number (1000000 → -1000000)",
		"3 data_number (1000000 → 0)",
		"3 data_number (1000000 → 1000001)",
		"3 data_number (1000000 → 2000000)",
		"3 data_number (1000000 → 999999)",
		"7 data_number (200 → 0)",
		"7 data_number (200 → 199)",
		"7 data_number (200 → 201)",
		"24 data_number (3000000000 → 0)",
		"24 data_number (3000000000 → 2999999999)",
		"24 data_number (3000000000 → 3000000001)",
	}
	if !slices.Equal(got, wantSites) {
		t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(wantSites, "\n\t"))
	}
	chosen := Select(s.Sites, len(s.Sites), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata: %v", err)
	}
}

func TestInspectEmbed(t *testing.T) {
	skipInRaceStep(t)
	root := t.TempDir()
	writeFiles(t, root, map[string][]byte{
		"go.mod":           []byte("module example.com/e\n\ngo 1.16\n"),
		"e/allow.txt":      []byte("alice\n\nlimit=3\nverbose=true\n"),
		"e/static/a.html":  []byte("<p>a</p>\n"),
		"e/data/other.txt": []byte("x\n"),
		"e/e.go": []byte(`package e

import "embed"

//go:embed allow.txt
var allow string

//go:embed static
var static embed.FS

var _ = static
`),
	})
	dir := filepath.Join(root, "e")
	files := map[string][]byte{"e.go": nil}
	files["e.go"] = []byte(`package e

import "embed"

//go:embed allow.txt
var allow string

//go:embed static
var static embed.FS

var _ = static
`)
	pkg := Package{Dir: dir, Files: files, Tests: map[string][]byte{}}
	_, err := Inspect(pkg, map[string][]int{
		"allow.txt":        {1, 2, 3, 4},
		"static/a.html":    {1},
		"data/other.txt":   {1},
		"e.go":             {5, 6},
		"../outside.txt":   nil,
		"static/../e.go/x": nil,
	})
	if err == nil {
		t.Fatalf("Inspect accepted paths outside the package directory")
	}
	s, err := Inspect(pkg, map[string][]int{
		"allow.txt":      {1, 2, 3, 4},
		"static/a.html":  {1},
		"data/other.txt": {1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := classes(s, "allow.txt"), []string{"1 data", "3 data", "4 data"}; !slices.Equal(got, want) {
		t.Errorf("allow.txt lines = %q, want %q (a blank line is no data)", got, want)
	}
	if got, want := classes(s, "static/a.html"), []string{"1 unjudgeable: embedded into an embed.FS, whose files no data mutant switches"}; !slices.Equal(got, want) {
		t.Errorf("static/a.html lines = %q, want %q", got, want)
	}
	if got := classes(s, "data/other.txt"); len(got) != 0 {
		t.Errorf("a file no variable embeds: %q", got)
	}
	var got []string
	for _, x := range s.Sites {
		got = append(got, fmt.Sprintf("%s:%d %s (%s)", x.File, x.Line, x.Operator, x.Description))
	}
	want := []string{
		"allow.txt:1 data_drop_line (drop line 1 (alice))",
		"allow.txt:1 data_string (alice → aljce)",
		"allow.txt:3 data_drop_line (drop line 3 (limit=3))",
		"allow.txt:3 data_number (3 → 2)",
		"allow.txt:3 data_number (3 → 4)",
		"allow.txt:4 data_drop_line (drop line 4 (verbose=true))",
		"allow.txt:4 data_bool (true → false)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// A changed directive makes the whole file data, judged by its mutants.
	s, err = Inspect(pkg, map[string][]int{"e.go": {5, 6, 8, 9}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := classes(s, "e.go"), []string{"5 data", "6 data",
		"8 unjudgeable: embedded into an embed.FS, whose files no data mutant switches",
		"9 unjudgeable: embedded into an embed.FS, whose files no data mutant switches"}; !slices.Equal(got, want) {
		t.Errorf("e.go lines = %q, want %q", got, want)
	}
	if len(s.Sites) != 7 {
		t.Errorf("a changed directive gives %d sites, want the file's 7", len(s.Sites))
	}
	// Each line of the embedded file judges the directive's lines too: a
	// kill there witnesses them.
	for _, at := range []string{"allow.txt:1", "allow.txt:3", "allow.txt:4"} {
		if got, want := fmt.Sprint(s.Judges[at]), "[{e.go 5 data } {e.go 6 data }]"; got != want {
			t.Errorf("judges of %s = %s, want %s", at, got, want)
		}
	}
	if len(s.Judges) != 3 {
		t.Errorf("judges %v, want allow.txt's three lines", s.Judges)
	}
	chosen := Select(s.Sites, len(s.Sites), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err != nil {
		t.Errorf("Schemata: %v", err)
	}
}

func TestExtrasAndEquivalents(t *testing.T) {
	files := map[string][]byte{"p.go": []byte(`package p

func f(x, y int, a, b bool, g float64) (int, int, int, bool, float64) {
	if x < y {
		x++
	}
	x = x * 1
	y = y + 0
	g = g + 0
	x /= 1
	y -= 0
	return x / 1, y - 0, x, a && b, g
}
`)}
	s, err := Inspect(Package{Files: files}, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	var equivalent []string
	for _, x := range s.Sites {
		if x.Equivalent != "" {
			equivalent = append(equivalent, fmt.Sprintf("%d %s (%s)", x.Line, x.Operator, x.Description))
		}
	}
	want := []string{
		"7 arithmetic (* → /)",
		"8 arithmetic (+ → -)",
		"10 statement_removal (remove statement)",
		"10 augmented_assignment (/= → *=)",
		"11 statement_removal (remove statement)",
		"11 augmented_assignment (-= → +=)",
		"12 arithmetic (/ → *)",
		"12 arithmetic (- → +)",
	}
	// g + 0 is not x: -0.0 + 0 is +0.0.
	if !slices.Equal(equivalent, want) {
		t.Errorf("equivalent =\n\t%s\nwant\n\t%s", strings.Join(equivalent, "\n\t"), strings.Join(want, "\n\t"))
	}
	extras := briefExtra(s.Sites)
	for _, w := range []string{
		"4 branch_removal (if body always runs)",
		"4 relational_replacement (< → >=)",
		"4 relational_replacement (< → >)",
		"4 relational_replacement (< → ==)",
		"4 relational_replacement (< → !=)",
		"7 arithmetic (* → +)",
		"7 arithmetic (* → %)",
		"12 logical (x && y → x)",
		"12 logical (x && y → y)",
	} {
		if !slices.Contains(extras, w) {
			t.Errorf("no extra %q in\n\t%s", w, strings.Join(extras, "\n\t"))
		}
	}
	// Select never picks an equivalent site, and Schemata refuses one.
	for _, x := range Select(s.Sites, len(s.Sites), nil) {
		if x.Equivalent != "" {
			t.Errorf("Select picked %v", x)
		}
	}
	for _, x := range s.Sites {
		if x.Equivalent != "" {
			x.ID = 1
			if _, err := Schemata(Package{Files: files}, []Site{x}, testSwitch(t, []Site{x})); err == nil || !strings.Contains(err.Error(), "equivalent") {
				t.Errorf("Schemata of an equivalent site: %v", err)
			}
			break
		}
	}
}

func TestOffer(t *testing.T) {
	sites := []Site{
		{File: "a.go", Line: 1, Operator: OpRelationalBoundary, Description: "< → <="},
		{File: "a.go", Line: 1, Operator: OpRelationalReplace, Description: "< → >", Extra: true},
		{File: "a.go", Line: 1, Operator: OpRelationalReplace, Description: "< → >=", Extra: true},
		{File: "a.go", Line: 2, Operator: OpArithmetic, Description: "* → /", Equivalent: "x*1"},
		{File: "a.go", Line: 2, Operator: OpArithmetic, Description: "* → +", Extra: true},
	}
	offer, distinct := Offer(sites, 5)
	if distinct != 4 || len(offer) != 5 {
		t.Errorf("Offer(need 5) = %d sites, %d distinct; want all 5 offered, 4 distinct", len(offer), distinct)
	}
	offer, distinct = Offer(sites, 1)
	if distinct != 4 || len(offer) != 2 {
		t.Errorf("Offer(need 1) = %v, %d; want the 2 primary sites", offer, distinct)
	}
	// Select takes every primary site before an extra one.
	got := Select(sites, 2, nil)
	if len(got) != 2 || got[0].Extra || !got[1].Extra {
		t.Errorf("Select(2) = %v", got)
	}
}

func TestDataFileMutants(t *testing.T) {
	content := []byte("enabled: true\nlimit: 10\n\nratio=-0.5 v1.2.3 x86 3rd\nTRUE,False\n")
	all := DataFileMutants(content, 100)
	var got []string
	for _, m := range all {
		mutated := string(m.Apply(content))
		got = append(got, fmt.Sprintf("%d:%d %s (%s) %q", m.Line, m.Col, m.Operator, m.Description, strings.SplitN(mutated, "\n", 6)[m.Line-1]))
	}
	want := []string{
		`1:10 data_bool (true → false) "enabled: false"`,
		`2:8 data_number (10 → 11) "limit: 11"`,
		`4:7 data_number (-0.5 → 0.5) "ratio=0.5 v1.2.3 x86 3rd"`,
		`5:1 data_bool (TRUE → FALSE) "FALSE,False"`,
		`1:1 data_drop_line (drop line 1 (enabled: true)) "limit: 10"`,
		`2:8 data_number (10 → 9) "limit: 9"`,
		`4:7 data_number (-0.5 → -1.5) "ratio=-1.5 v1.2.3 x86 3rd"`,
		`5:6 data_bool (False → True) "TRUE,True"`,
		`2:1 data_drop_line (drop line 2 (limit: 10)) ""`,
		`4:23 data_string (3rd → 3sd) "ratio=-0.5 v1.2.3 x86 3sd"`,
		`5:1 data_drop_line (drop line 5 (TRUE,False)) ""`,
		// Line 4's value is a space-separated list of words: each is
		// dropped in turn.
		`4:7 data_drop_element (drop element -0.5) "ratio=v1.2.3 x86 3rd"`,
		`4:12 data_drop_element (drop element v1.2.3) "ratio=-0.5 x86 3rd"`,
		`4:19 data_drop_element (drop element x86) "ratio=-0.5 v1.2.3 3rd"`,
		`4:23 data_drop_element (drop element 3rd) "ratio=-0.5 v1.2.3 x86"`,
		`4:1 data_drop_line (drop line 4 (ratio=-0.5 v1.2.3 x86 3rd)) "TRUE,False"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("DataFileMutants =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// A line's last value changes in one character, keeping its shape;
	// a true/false word, a number or a line of punctuation has none.
	for line, want := range map[string]string{
		"mfa=off":                  "mfa=ogf",
		`  "host": "example.com",`: `  "host": "exampme.com",`,
		"- name: zed":              "- name: zfd",
		"debug: true":              "",
		"retries = 3":              "",
		"},":                       "",
	} {
		got := ""
		if ms := lastValue(line, 1, 0); len(ms) == 1 {
			got = string(ms[0].Apply([]byte(line)))
		}
		if got != want {
			t.Errorf("lastValue(%q) gives %q, want %q", line, got, want)
		}
	}
	// The cap keeps one per line first.
	if capped := DataFileMutants(content, 4); len(capped) != 4 || capped[3].Line != 5 {
		t.Errorf("DataFileMutants(4) = %v", capped)
	}
	for _, bad := range [][]byte{[]byte("a\x00true"), {0xff, 't', 'r', 'u', 'e'}} {
		if ms := DataFileMutants(bad, 10); len(ms) != 0 {
			t.Errorf("binary content %q has mutants %v", bad, ms)
		}
	}
	if ms := DataFileMutants(content, 0); ms != nil {
		t.Errorf("DataFileMutants(0) = %v", ms)
	}
}

// TestInspectTableInCode: a row of data in a composite literal a function
// builds ("mallory": true in a map it returns, {3, 10} in a slice) is a
// table line, which needs a kill of its own; a line of rows no mutant
// expresses ("bob",) is unjudgeable; an element that computes (n + 1), a
// function literal inside a row, and a package-level table (data, as
// before) are not.
func TestInspectTableInCode(t *testing.T) {
	src := `package p

func admins() map[string]bool {
	return map[string]bool{
		"alice":   true,
		"mallory": true,
	}
}

type pair struct{ a, b int }

func pairs(n int) []pair {
	return []pair{
		{1, 2},
		{a: n + 1, b: 0},
		{-3, 4},
	}
}

func handlers() map[string]func(int) bool {
	return map[string]func(int) bool{
		"pos": func(x int) bool { return x > 0 },
	}
}

var limits = map[string]int{
	"max": 10,
}

func names(extra string) []string {
	return []string{
		"alice", // the first
		"bob",
		"50%",
		extra + "!",
	}
}

type roles map[string]bool

func named() roles {
	return roles{
		"root": true,
	}
}

func use() (map[string]bool, []pair, map[string]func(int) bool, int, []string, roles) {
	return admins(), pairs(1), handlers(), limits["max"], names("x"), named()
}
`
	files := map[string][]byte{"p.go": []byte(src)}
	pkg := Package{Dir: t.TempDir(), Files: files, Tests: map[string][]byte{}}
	s, err := Inspect(pkg, allLines(files))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"5 table", "6 table", // the map's rows: true → false
		"14 table", "16 table", // the literal rows: numbers ±1; {a: n + 1, b: 0} computes
		"27 data",              // the package-level table, as before
		"32 table", "33 table", // rows of strings: "alice" → ""; extra + "!" computes
		// A string with a %, which might be a format, is left alone.
		"34 unjudgeable: a row of a table a function builds, which no mutant expresses: a table at package level gets data mutants",
		"43 table", // a row of a named map type
	}
	if got := classes(s, "p.go"); !slices.Equal(got, want) {
		t.Errorf("lines =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

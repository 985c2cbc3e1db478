package mutant

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// enumSource is a table whose rows select members of an enumeration, read
// only by range checks (the shape of spf13/cast's time formats); extra is
// added to the file.
func enumSource(extra string) string {
	return `package p

type zone int

const (
	noZone zone = iota
	namedZone
	numericZone
	numericAndNamedZone
	timeOnly
)

type format struct {
	layout string
	typ    zone
}

func (f format) hasZone() bool { return f.typ >= numericZone && f.typ <= numericAndNamedZone }

var formats = []format{
	{"15:04 MST", namedZone},
	{"15:04 -0700", numericZone},
}

func parse(s string) (bool, bool) {
	for _, f := range formats {
		if f.layout == s {
			return f.hasZone(), f.typ <= namedZone
		}
	}
	return false, len(formats) == 0
}
` + extra
}

// enumSites lists the enumeration mutants of the numericZone row, with
// whether each is equivalent.
func enumSites(t *testing.T, src string, tests map[string][]byte) []string {
	t.Helper()
	files := map[string][]byte{"p.go": []byte(src)}
	pkg := Package{Dir: t.TempDir(), Files: files, Tests: tests}
	before, _, _ := strings.Cut(src, `{"15:04 -0700"`)
	s, err := Inspect(pkg, map[string][]int{"p.go": {strings.Count(before, "\n") + 1}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range s.Sites {
		if x.Operator == OpDataNumber {
			out = append(out, fmt.Sprintf("%s equivalent=%v", x.Description, x.Equivalent != ""))
		}
	}
	slices.Sort(out)
	return out
}

// TestEnumMembers: a row's member becomes the one declared beside it; the
// mutant is equivalent only when every read of the field is a comparison
// with a constant that answers the same for both members and no value
// holding the field leaves the package's own code.
func TestEnumMembers(t *testing.T) {
	skipInRaceStep(t)
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("type-checks against GOROOT's sources, which the Bazel sandbox does not provide")
	}
	blind := []string{
		"numericZone → namedZone equivalent=false",
		"numericZone → numericAndNamedZone equivalent=true", // both pass hasZone, neither <= namedZone
	}
	seen := []string{
		"numericZone → namedZone equivalent=false",
		"numericZone → numericAndNamedZone equivalent=false",
	}
	for _, tt := range []struct {
		name  string
		extra string
		tests string
		want  []string
	}{
		{name: "range checks only", want: blind},
		{name: "an internal test reads the rows by their fields", tests: `package p

import "testing"

func TestParse(t *testing.T) {
	if z, _ := parse("15:04 -0700"); !z || len(formats) != 2 || formats[1].typ < numericZone {
		t.Fatal(formats[1].layout)
	}
}
`, want: blind},
		{name: "an equality read", extra: "\nfunc both(f format) bool { return f.typ == numericAndNamedZone }\n", want: seen},
		{name: "a switch on the field", extra: "\nfunc name(f format) string {\n\tswitch f.typ {\n\tcase numericZone:\n\t\treturn \"n\"\n\t}\n\treturn \"\"\n}\n", want: seen},
		{name: "the field read as a number", extra: "\nfunc level(f format) int { return int(f.typ) }\n", want: seen},
		{name: "a row printed by a test", tests: `package p

import (
	"fmt"
	"testing"
)

func TestPrint(t *testing.T) {
	if fmt.Sprint(formats[1]) != "{15:04 -0700 2}" {
		t.Fatal(formats)
	}
}
`, want: seen},
		{name: "rows compared whole", extra: "\nfunc same(a, b format) bool { return a == b }\n", want: seen},
		{name: "rows given to an interface", extra: "\nvar anyRow any = formats[0]\n", want: seen},
		{name: "rows returned by an exported function", extra: "\nfunc Formats() []format { return formats }\n", want: seen},
		{name: "rows returned by an unexported function", extra: "\nfunc all() []format { return formats }\n", want: blind},
		{name: "rows held by an exported variable", extra: "\nvar Rows = formats\n", want: seen},
		{name: "rows given to another package", extra: "\nfunc count() int { return len(fmt.Sprint(formats)) }\n", want: seen},
		{name: "a row inside a bigger value that leaves", extra: "\ntype wrap struct{ f format }\n\nfunc show() string { return fmt.Sprint(wrap{formats[0]}) }\n", want: seen},
		{name: "a closure returning a row", extra: "\nvar first = func() format { return formats[0] }\n", want: seen},
		// Found by an adversary: each made the mutant wrongly equivalent.
		{name: "a row appended into []any", extra: "\nfunc show() string { return fmt.Sprint(append([]any(nil), formats[1])) }\n", want: seen},
		{name: "a row in a generic box", extra: "\ntype box[T any] struct{ v T }\n\nfunc (b box[T]) str() string { return fmt.Sprint(b.v) }\n\nfunc show() string { return box[format]{formats[1]}.str() }\n", want: seen},
		{name: "rows as map keys", extra: "\nfunc distinct() int { m := map[format]bool{formats[1]: true, {\"15:04 -0700\", numericAndNamedZone}: true}; return len(m) }\n", want: seen},
		{name: "a row returned with another value", extra: "\nfunc pair() (format, bool) { return formats[1], true }\n\nfunc show() string { r, _ := pair(); return fmt.Sprint(r) }\n", want: seen},
		{name: "a row through a function variable", extra: "\nvar get func() format\n\nfunc init() { get = one }\n\nfunc one() format { return formats[1] }\n\nfunc show() string { return fmt.Sprint(get()) }\n", want: seen},
		{name: "rows copied into an array", extra: "\nfunc show() string { var a [2]format; copy(a[:], formats); return fmt.Sprint(a) }\n", want: seen},
		{name: "a row sent on a channel", extra: "\nfunc show() string { c := make(chan format, 1); select { case c <- formats[1]: }; return fmt.Sprint(<-c) }\n", want: seen},
		{name: "rows appended to rows", extra: "\nfunc more() []format { return append(formats, format{}) }\n", want: blind},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := enumSource(tt.extra)
			if strings.Contains(tt.extra, "fmt.") {
				src = strings.Replace(src, "package p\n", "package p\n\nimport \"fmt\"\n", 1)
			}
			tests := map[string][]byte{}
			if tt.tests != "" {
				tests["p_test.go"] = []byte(tt.tests)
			}
			if got := enumSites(t, src, tests); !slices.Equal(got, tt.want) {
				t.Errorf("sites =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

// TestEnumMembersAnonymousRow: the rows' type is an anonymous struct, which
// another declaration can spell again with fields of its own: never proven
// equivalent.
func TestEnumMembersAnonymousRow(t *testing.T) {
	skipInRaceStep(t)
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("type-checks against GOROOT's sources, which the Bazel sandbox does not provide")
	}
	src := `package p

import "fmt"

type zone int

const (
	noZone zone = iota
	namedZone
	numericZone
	numericAndNamedZone
)

var formats = []struct {
	layout string
	typ    zone
}{
	{"15:04 MST", namedZone},
	{"15:04 -0700", numericZone},
}

func hasZone(i int) bool { return formats[i].typ >= numericZone && formats[i].typ <= numericAndNamedZone }

func describe(f struct {
	layout string
	typ    zone
}) string {
	return fmt.Sprint(f.typ)
}

func show() string { return describe(formats[1]) }
`
	want := []string{"numericZone → namedZone equivalent=false", "numericZone → numericAndNamedZone equivalent=false"}
	if got := enumSites(t, src, nil); !slices.Equal(got, want) {
		t.Errorf("sites = %v, want %v", got, want)
	}
}

package cover

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The module the tests measure. realprofile_test.go builds it with the go
// command; the tests here use the profiles go1.26 wrote for it, so that the
// line rule is checked against cmd/cover's real block boundaries even
// where the go command is not available.
const (
	testModule = "example.com/m"

	// calcSrc has an if/else chain, a loop, a comment-only line, a blank
	// line, a one-line if, a switch, a function literal in a package
	// variable and one in a statement, and an empty function.
	calcSrc = `package calc

// Classify says what n is.
func Classify(n int) string {
	if n < 0 {
		return "negative"
	} else if n == 0 {
		return "zero"
	} else {
		return "positive"
	}
}

var Hook = func() int { return 1 }

func Sum(xs []int) int {
	total := 0
	// only a comment

	for _, x := range xs {
		total += x
	}
	if total > 100 { return 100 }
	switch total {
	case 1:
		total++
	default:
	}
	f := func() int {
		return 2
	}
	_ = f
	return total
}

func Empty() {}
`
	calcTestSrc = `package calc

import "testing"

func TestA(t *testing.T) { Classify(1) }
func TestB(t *testing.T) { Sum([]int{1}) }
`
	// typesSrc has no function body: cmd/cover gives it no block.
	typesSrc = `package calc

// Pair is two numbers.
type Pair struct {
	A, B int
}
`
	// otherSrc has a raw string over two lines in a statement and in a
	// constant.
	otherSrc = `package other

import "example.com/m/calc"

// Twice doubles the sum of n.
func Twice(n int) int { return 2 * calc.Sum([]int{n}) }

// Banner is never called.
func Banner() string {
	return ` + "`first" + `
second` + "`" + `
}

const Unused = ` + "`a" + `
b` + "`" + `
`
	otherTestSrc = `package other

import "testing"

func TestT(t *testing.T) { Twice(3) }
`

	// recordedSet is what `go test -covermode=set -coverprofile` wrote
	// for ./... with go1.26.
	recordedSet = `mode: set
example.com/m/calc/calc.go:4.29,5.11 1 1
example.com/m/calc/calc.go:5.11,7.3 1 0
example.com/m/calc/calc.go:7.8,7.19 1 1
example.com/m/calc/calc.go:7.19,9.3 1 0
example.com/m/calc/calc.go:9.8,11.3 1 1
example.com/m/calc/calc.go:14.23,14.35 1 0
example.com/m/calc/calc.go:16.24,20.23 2 1
example.com/m/calc/calc.go:20.23,22.3 1 1
example.com/m/calc/calc.go:23.2,23.17 1 1
example.com/m/calc/calc.go:23.17,23.31 1 0
example.com/m/calc/calc.go:24.2,24.15 1 1
example.com/m/calc/calc.go:25.9,26.10 1 1
example.com/m/calc/calc.go:27.10,27.10 0 0
example.com/m/calc/calc.go:29.2,29.18 1 1
example.com/m/calc/calc.go:29.18,31.3 1 0
example.com/m/calc/calc.go:32.2,33.14 2 1
example.com/m/calc/calc.go:36.15,36.16 0 0
example.com/m/other/other.go:6.23,6.56 1 1
example.com/m/other/other.go:9.22,12.2 1 0
`
)

// moduleFiles returns the module's files by path.
func moduleFiles() map[string]string {
	return map[string]string{
		"go.mod":              "module " + testModule + "\n\ngo 1.22\n",
		"calc/calc.go":        calcSrc,
		"calc/calc_test.go":   calcTestSrc,
		"calc/types.go":       typesSrc,
		"other/other.go":      otherSrc,
		"other/other_test.go": otherTestSrc,
	}
}

// allLines returns 1..n for a source of n lines.
func allLines(src string) []int {
	n := strings.Count(src, "\n")
	if !strings.HasSuffix(src, "\n") {
		n++
	}
	var lines []int
	for l := 1; l <= n; l++ {
		lines = append(lines, l)
	}
	return lines
}

// changedModule is the module's non-test files, every line changed.
func changedModule() []File {
	var files []File
	for _, path := range []string{"calc/calc.go", "calc/types.go", "other/other.go"} {
		src := moduleFiles()[path]
		files = append(files, File{Path: path, Profile: testModule + "/" + path, Src: []byte(src), Lines: allLines(src)})
	}
	return files
}

func lines(path string, ls ...int) []Line {
	var out []Line
	for _, l := range ls {
		out = append(out, Line{Path: path, Line: l})
	}
	return out
}

func concat(ls ...[]Line) []Line {
	var out []Line
	for _, l := range ls {
		out = append(out, l...)
	}
	return out
}

// wantModuleResult is the diff coverage of changedModule under a set
// profile of ./... running TestA, TestB and TestT.
func wantModuleResult() Result {
	ratio := 14.0 / 21.0
	return Result{
		// calc.go: 5 6 7 8 10 14 17 20 21 23 24 25 26 27 29 30 32 33
		// (25, "case 1:", and 27, "default:", are decided by their
		// switch's header on 24); other.go: 6 10 11.
		Changed: 21,
		Covered: 14,
		Uncovered: concat(
			// return "negative"; return "zero"; Hook's body; the
			// one-line if, whose return did not run; f's body.
			lines("calc/calc.go", 6, 8, 14, 23, 30),
			// Banner's raw string, both lines.
			lines("other/other.go", 10, 11),
		),
		Excluded: concat(
			// package, blank, comment, signature; "} else {" and
			// braces; blank; signature; comment and blank lines;
			// "}"; braces; empty function.
			lines("calc/calc.go", 1, 2, 3, 4, 9, 11, 12, 13, 15, 16, 18, 19, 22, 28, 31, 34, 35, 36),
			lines("calc/types.go", 1, 2, 3, 4, 5, 6),
			lines("other/other.go", 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 14, 15),
		),
		Ratio: &ratio,
	}
}

func checkResult(t *testing.T, got, want Result) {
	t.Helper()
	if (got.Ratio == nil) != (want.Ratio == nil) || (got.Ratio != nil && *got.Ratio != *want.Ratio) {
		t.Errorf("Ratio = %v, want %v", deref(got.Ratio), deref(want.Ratio))
	}
	got.Ratio, want.Ratio = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Measure =\n%+v\nwant\n%+v", got, want)
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func mustParse(t *testing.T, s string) *Profile {
	t.Helper()
	p, err := ParseProfile(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMeasureRecordedProfile(t *testing.T) {
	res, err := Measure(changedModule(), mustParse(t, recordedSet))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, wantModuleResult())
}

// withCounts returns recordedSet with the count of each block whose span
// starts with one of the given prefixes set to 1.
func withCounts(t *testing.T, ran ...string) *Profile {
	t.Helper()
	p := mustParse(t, recordedSet)
	for i := range p.Blocks {
		b := &p.Blocks[i]
		b.Count = 0
		for _, r := range ran {
			if strings.HasPrefix(b.String(), r) {
				b.Count = 1
			}
		}
	}
	return p
}

func TestMeasureLineRule(t *testing.T) {
	calc := func(ls ...int) []File {
		return []File{{Path: "calc/calc.go", Profile: "example.com/m/calc/calc.go", Src: []byte(calcSrc), Lines: ls}}
	}
	const c = "example.com/m/calc/calc.go:"
	for _, tc := range []struct {
		name      string
		lines     []int
		ran       []string
		covered   []int
		uncovered []int
	}{
		// The header of an if is its enclosing block's, not its body's.
		{"if header without its body", []int{5}, []string{c + "4.29,"}, []int{5}, nil},
		{"if header not reached", []int{5}, []string{c + "5.11,"}, nil, []int{5}},
		// A one-line if is covered only when its body ran too.
		{"one-line if, body not run", []int{23}, []string{c + "23.2,"}, nil, []int{23}},
		{"one-line if, body only", []int{23}, []string{c + "23.17,"}, nil, []int{23}},
		{"one-line if, both", []int{23}, []string{c + "23.2,", c + "23.17,"}, []int{23}, nil},
		// "} else if" is decided by the hidden block of the else.
		{"else if", []int{7}, []string{c + "7.8,"}, []int{7}, nil},
		{"else if, previous body ran", []int{7}, []string{c + "5.11,"}, nil, []int{7}},
		// A line of a multi-line block follows the block.
		{"loop header in the block before it", []int{17, 20}, []string{c + "16.24,"}, []int{17, 20}, nil},
		{"statement after a function literal", []int{32, 33}, []string{c + "32.2,"}, []int{32, 33}, nil},
		{"function literal header, body not run", []int{29, 30}, []string{c + "29.2,"}, []int{29}, []int{30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Measure(calc(tc.lines...), withCounts(t, tc.ran...))
			if err != nil {
				t.Fatal(err)
			}
			want := Result{
				Changed: len(tc.covered) + len(tc.uncovered), Covered: len(tc.covered),
				Uncovered: lines("calc/calc.go", tc.uncovered...),
			}
			r := float64(want.Covered) / float64(want.Changed)
			want.Ratio = &r
			checkResult(t, res, want)
		})
	}
}

func TestMeasureNoExecutableLine(t *testing.T) {
	files := []File{
		{Path: "calc/calc.go", Profile: "example.com/m/calc/calc.go", Src: []byte(calcSrc), Lines: []int{1, 4, 9, 12, 28, 36}},
		{Path: "calc/types.go", Profile: "example.com/m/calc/types.go", Src: []byte(typesSrc), Lines: []int{4, 5}},
	}
	res, err := Measure(files, mustParse(t, recordedSet))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, Result{
		Excluded: concat(lines("calc/calc.go", 1, 4, 9, 12, 28, 36), lines("calc/types.go", 4, 5)),
	})
	// Nothing changed at all: no ratio either.
	res, err = Measure(nil, mustParse(t, recordedSet))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, Result{})
}

func TestMeasureUnmeasured(t *testing.T) {
	// A profile of ./calc alone does not name other.go.
	var calcOnly []string
	for _, l := range strings.SplitAfter(recordedSet, "\n") {
		if !strings.Contains(l, "/other/") {
			calcOnly = append(calcOnly, l)
		}
	}
	res, err := Measure(changedModule(), mustParse(t, strings.Join(calcOnly, "")))
	if err != nil {
		t.Fatal(err)
	}
	want := wantModuleResult()
	want.Changed, want.Covered = 18, 13
	want.Uncovered = want.Uncovered[:5]
	want.Excluded = want.Excluded[:len(want.Excluded)-12]
	want.Unmeasured = []string{"other/other.go"}
	want.Ratio = nil
	checkResult(t, res, want)

	// A file with a function body and only comment lines changed is
	// still not measured: its package was not built with coverage.
	res, err = Measure([]File{{Path: "other/other.go", Profile: "example.com/m/other/other.go", Src: []byte(otherSrc), Lines: []int{5}}}, &Profile{Mode: ModeSet})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, Result{Unmeasured: []string{"other/other.go"}})

	// A file with no changed line is not looked at.
	res, err = Measure([]File{{Path: "other/other.go", Profile: "example.com/m/other/other.go", Src: []byte(otherSrc)}}, &Profile{Mode: ModeSet})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, Result{})
}

func TestMeasureDuplicateChangedLines(t *testing.T) {
	files := []File{{Path: "calc/calc.go", Profile: "example.com/m/calc/calc.go", Src: []byte(calcSrc), Lines: []int{6, 5, 6, 1, 5}}}
	res, err := Measure(files, mustParse(t, recordedSet))
	if err != nil {
		t.Fatal(err)
	}
	half := 0.5
	checkResult(t, res, Result{Changed: 2, Covered: 1, Uncovered: lines("calc/calc.go", 6), Excluded: lines("calc/calc.go", 1), Ratio: &half})
}

func TestMeasureErrors(t *testing.T) {
	profile := func(blocks ...Block) *Profile { return &Profile{Mode: ModeCount, Blocks: blocks} }
	const name = "example.com/m/a.go"
	src := "package a\n\nfunc F(x int) int {\n\treturn x\n}\n"
	good := File{Path: "a.go", Profile: name, Src: []byte(src), Lines: []int{4}}
	with := func(change func(f *File)) []File {
		f := good
		change(&f)
		return []File{f}
	}
	body := Block{name, 3, 19, 5, 2, 1, 1}
	for _, tc := range []struct {
		name  string
		files []File
		p     *Profile
		want  string
	}{
		{"nil profile", []File{good}, nil, "measure: no profile"},
		{"no path", with(func(f *File) { f.Path = "" }), profile(body), "measure: a changed file has no path"},
		{"not Go", with(func(f *File) { f.Path = "a.py" }), profile(body), "measure: a.py is not a Go source file"},
		{"test file", with(func(f *File) { f.Path = "a_test.go" }), profile(body), "measure: a_test.go is a test file, which diff coverage excludes"},
		{"no profile name", with(func(f *File) { f.Profile = "" }), profile(body), "measure: a.go has no profile name"},
		{"path twice", []File{good, good}, profile(body), "measure: a.go is listed twice"},
		{"profile name twice", []File{good, {Path: "b.go", Profile: name, Src: []byte(src), Lines: []int{1}}}, profile(body), "measure: a.go and b.go have the same profile name example.com/m/a.go"},
		{"line 0", with(func(f *File) { f.Lines = []int{0, 4} }), profile(body), "measure: a.go: changed line 0 is not in the source (5 lines)"},
		{"line past the end", with(func(f *File) { f.Lines = []int{4, 6} }), profile(body), "measure: a.go: changed line 6 is not in the source (5 lines)"},
		{"does not scan", with(func(f *File) { f.Src = []byte("package a\n`") }), profile(body), "measure: a.go: source does not scan: line 2 column 1: raw string literal not terminated"},
		{
			"line directive", with(func(f *File) { f.Src = []byte("package a\n\n//line b.go:1\nfunc F(x int) int {\n\treturn x\n}\n") }),
			profile(body), "measure: a.go:3: line directive: cover would record the file's blocks at other positions",
		},
		{"block past the last line", []File{good}, profile(Block{name, 3, 19, 6, 2, 1, 1}), "measure: a.go: profile block \"example.com/m/a.go\":3.19,6.2 ends after the source's last line 5: the profile is not of this source"},
		{"block past the line's end", []File{good}, profile(Block{name, 3, 21, 5, 2, 1, 1}), "measure: a.go: profile block \"example.com/m/a.go\":3.21,5.2 lies beyond the end of its line"},
		{"end past the line's end", []File{good}, profile(Block{name, 3, 19, 5, 3, 1, 1}), "measure: a.go: profile block \"example.com/m/a.go\":3.19,5.3 lies beyond the end of its line"},
		{
			"blocks overlap", []File{good}, profile(Block{name, 3, 19, 4, 5, 1, 1}, Block{name, 4, 2, 5, 2, 1, 1}),
			"measure: a.go: profile blocks \"example.com/m/a.go\":3.19,4.5 and \"example.com/m/a.go\":4.2,5.2 overlap: the profile is not of this source",
		},
		{"negative count", []File{good}, profile(Block{name, 3, 19, 5, 2, 1, -1}), "measure: a.go: negative count -1"},
		{"start after end", []File{good}, profile(Block{name, 4, 19, 3, 2, 1, 1}), "measure: a.go: block \"example.com/m/a.go\":4.19,3.2 starts after it ends"},
		{"absent file does not parse", with(func(f *File) { f.Src = []byte("package a\nfunc F( {\n\n\n") }), profile(), "measure: a.go: source does not parse: 2:9: expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Measure(tc.files, tc.p)
			if err == nil {
				t.Fatalf("Measure = %+v, want error %q", res, tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Measure error\n%q\nwant\n%q", err, tc.want)
			}
			if !reflect.DeepEqual(res, Result{}) {
				t.Errorf("Measure returned %+v with its error", res)
			}
		})
	}
}

func TestMeasureBlocksWithoutStatementsAreIgnored(t *testing.T) {
	// cmd/cover may move the end of a block without statements past its
	// line (it separates blocks with equal spans); such blocks claim no
	// line and are not checked against the source.
	src := "package a\n\nfunc F() {}\n"
	p := &Profile{Mode: ModeSet, Blocks: []Block{{"m/a.go", 3, 10, 3, 30, 0, 0}, {"m/a.go", 3, 10, 3, 12, 0, 1}}}
	res, err := Measure([]File{{Path: "a.go", Profile: "m/a.go", Src: []byte(src), Lines: []int{3}}}, p)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, Result{Excluded: lines("a.go", 3)})
}

func TestReachRecorded(t *testing.T) {
	// Per-test profiles as a test binary built with -coverpkg=./... writes
	// them: calc.test links calc only, other.test links both.
	const c, o = "example.com/m/calc/calc.go:", "example.com/m/other/other.go:"
	calcOnly := func(p *Profile) *Profile {
		p.Blocks = slices.DeleteFunc(p.Blocks, func(b Block) bool { return strings.HasPrefix(b.String(), o) })
		return p
	}
	sumRan := []string{c + "16.24,", c + "20.23,", c + "23.2,", c + "24.2,", c + "29.2,", c + "32.2,"}
	perTest := map[string]*Profile{
		"TestA":    calcOnly(withCounts(t, c+"4.29,", c+"7.8,", c+"9.8,")),
		"TestB":    calcOnly(withCounts(t, append(sumRan, c+"25.9,")...)),
		"TestT":    withCounts(t, append(sumRan, o+"6.23,")...),
		"TestNone": withCounts(t),
	}
	reach, err := Reach(changedModule(), perTest)
	if err != nil {
		t.Fatal(err)
	}
	want := wantModuleReach()
	if !reflect.DeepEqual(reach, want) {
		t.Errorf("Reach =\n%v\nwant\n%v", reach, want)
	}
	reaching := Reaching(reach)
	wantReaching := map[Line][]string{
		{"calc/calc.go", 5}: {"TestA"}, {"calc/calc.go", 7}: {"TestA"}, {"calc/calc.go", 10}: {"TestA"},
		{"calc/calc.go", 17}: {"TestB", "TestT"}, {"calc/calc.go", 20}: {"TestB", "TestT"},
		{"calc/calc.go", 21}: {"TestB", "TestT"}, {"calc/calc.go", 23}: {"TestB", "TestT"},
		{"calc/calc.go", 24}: {"TestB", "TestT"}, {"calc/calc.go", 25}: {"TestB", "TestT"}, {"calc/calc.go", 26}: {"TestB"},
		{"calc/calc.go", 27}: {"TestB", "TestT"}, {"calc/calc.go", 29}: {"TestB", "TestT"}, {"calc/calc.go", 32}: {"TestB", "TestT"},
		{"calc/calc.go", 33}: {"TestB", "TestT"}, {"other/other.go", 6}: {"TestT"},
	}
	if !reflect.DeepEqual(reaching, wantReaching) {
		t.Errorf("Reaching =\n%v\nwant\n%v", reaching, wantReaching)
	}
}

func TestReachErrors(t *testing.T) {
	if _, err := Reach(changedModule(), map[string]*Profile{"TestA": mustParse(t, recordedSet), "TestB": nil}); err == nil || err.Error() != `reach: test "TestB": no profile` {
		t.Errorf("Reach with a nil profile: %v", err)
	}
	bad := mustParse(t, recordedSet)
	bad.Blocks[0].EndLine = 99
	if _, err := Reach(changedModule(), map[string]*Profile{"TestA": bad}); err == nil || !strings.HasPrefix(err.Error(), `reach: test "TestA": calc/calc.go: profile block`) {
		t.Errorf("Reach with a profile of another source: %v", err)
	}
	if _, err := Reach([]File{{Path: "x_test.go", Profile: "m/x_test.go", Lines: []int{1}}}, nil); err == nil || err.Error() != "reach: x_test.go is a test file, which diff coverage excludes" {
		t.Errorf("Reach of a test file: %v", err)
	}
	reach, err := Reach(changedModule(), nil)
	if err != nil || len(reach) != 0 {
		t.Errorf("Reach without tests = %v, %v", reach, err)
	}
}

func TestReachingSortsAndDeduplicates(t *testing.T) {
	l := Line{"a.go", 3}
	got := Reaching(map[string][]Line{"TestZ": {l}, "TestA": {l, l}, "TestM": {l, {"a.go", 4}}, "TestEmpty": nil})
	want := map[Line][]string{l: {"TestA", "TestM", "TestZ"}, {"a.go", 4}: {"TestM"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Reaching = %v, want %v", got, want)
	}
}

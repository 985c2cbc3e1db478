package pycov

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/services/reach/cover"
)

func lines(path string, ls ...int) []cover.Line {
	out := make([]cover.Line, len(ls))
	for i, l := range ls {
		out[i] = cover.Line{Path: path, Line: l}
	}
	return out
}

func ratio(v float64) *float64 { return &v }

// measureReport has two measured source files and a test file.
func measureReport() *Report {
	return &Report{Files: map[string]*File{
		"calc/ops.py": {
			Executed: []int{1, 3, 4, 7, 8}, Missing: []int{5, 9}, Excluded: []int{11},
			Contexts: map[int][]string{
				1: {""}, 3: {""},
				4: {"test_ops.TestK.test_m", "test_ops.test_add"},
				7: {"tests.test_pkg.test_x"},
				8: {"", "test_ops.test_add"},
			},
		},
		"calc/empty.py":     {Executed: []int{}, Missing: []int{}, Excluded: []int{}, Contexts: map[int][]string{}},
		"tests/test_ops.py": {Executed: []int{1}, Missing: []int{}, Excluded: []int{}, Contexts: map[int][]string{1: {""}}},
		"tests/test_pkg.py": {Executed: []int{1}, Missing: []int{}, Excluded: []int{}, Contexts: map[int][]string{1: {""}}},
		"tests/__init__.py": {Executed: []int{}, Missing: []int{}, Excluded: []int{}, Contexts: map[int][]string{}},
	}}
}

func TestMeasure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changed map[string][]int
		want    cover.Result
	}{
		{
			name:    "covered, uncovered, excluded",
			changed: map[string][]int{"calc/ops.py": {9, 4, 2, 5, 11, 4, 12}},
			want: cover.Result{
				Changed: 3, Covered: 1,
				Uncovered: lines("calc/ops.py", 5, 9),
				Excluded:  lines("calc/ops.py", 2, 11, 12),
				Ratio:     ratio(1.0 / 3),
			},
		},
		{
			name:    "all covered",
			changed: map[string][]int{"calc/ops.py": {7, 8}, "calc/empty.py": {1}},
			want:    cover.Result{Changed: 2, Covered: 2, Excluded: lines("calc/empty.py", 1), Ratio: ratio(1)},
		},
		{
			name:    "no executable line: no ratio",
			changed: map[string][]int{"calc/ops.py": {2, 6}},
			want:    cover.Result{Excluded: lines("calc/ops.py", 2, 6)},
		},
		{
			name:    "unmeasured file: no ratio",
			changed: map[string][]int{"calc/ops.py": {4}, "calc/new.py": {1, 2}, "a.py": {1}},
			want:    cover.Result{Changed: 1, Covered: 1, Unmeasured: []string{"a.py", "calc/new.py"}},
		},
		{
			name:    "files without lines are not looked at",
			changed: map[string][]int{"calc/new.py": nil, "calc/ops.py": {}},
			want:    cover.Result{},
		},
		{
			name: "nothing changed",
			want: cover.Result{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Measure(tc.changed, measureReport())
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, got, tc.want)
		})
	}
}

func checkResult(t *testing.T, got, want cover.Result) {
	t.Helper()
	gotRatio, wantRatio := got.Ratio, want.Ratio
	got.Ratio, want.Ratio = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Measure =\n%+v\nwant\n%+v", got, want)
	}
	switch {
	case (gotRatio == nil) != (wantRatio == nil):
		t.Errorf("ratio %v, want %v", gotRatio, wantRatio)
	case gotRatio != nil && *gotRatio != *wantRatio:
		t.Errorf("ratio %v, want %v", *gotRatio, *wantRatio)
	}
}

// TestMeasureSourceByUse: a module under tests/ that the caller passes as
// source (non-test code imports it) is measured like any other, its test
// contexts mapped to tests.
func TestMeasureSourceByUse(t *testing.T) {
	r := measureReport()
	r.Files["tests/_impl.py"] = &File{Executed: []int{1, 2}, Missing: []int{3}, Excluded: []int{}, Contexts: map[int][]string{1: {""}, 2: {"test_ops.test_add"}}}
	changed := map[string][]int{"tests/_impl.py": {2, 3}}
	res, err := Measure(changed, r)
	if err != nil || res.Changed != 2 || res.Covered != 1 || res.Ratio == nil || *res.Ratio != 0.5 {
		t.Fatalf("Measure: %+v, %v; want 1 of 2 lines covered", res, err)
	}
	reach, err := Reach(changed, r)
	if err != nil || len(reach["tests/test_ops.py::test_add"]) != 1 {
		t.Fatalf("Reach: %v, %v; want test_add reaching line 2", reach, err)
	}
}

func TestMeasureRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changed map[string][]int
		want    string
	}{
		{"absolute", map[string][]int{"/calc/ops.py": {1}}, "not a clean relative path"},
		{"unclean", map[string][]int{"calc//ops.py": {1}}, "not a clean relative path"},
		{"dot slash", map[string][]int{"./calc/ops.py": {1}}, "not a clean relative path"},
		{"dot dot", map[string][]int{"../ops.py": {1}}, "not a clean relative path"},
		{"inner dot dot", map[string][]int{"calc/../../ops.py": {1}}, "not a clean relative path"},
		{"empty", map[string][]int{"": {1}}, "empty path"},
		{"backslash", map[string][]int{`calc\ops.py`: {1}}, "not a clean relative path"},
		{"not Python", map[string][]int{"calc/ops.go": {1}}, "is not a Python source file"},
		{"line 0", map[string][]int{"calc/ops.py": {3, 0}}, "changed line 0 is not a line"},
		{"negative line", map[string][]int{"calc/ops.py": {-2}}, "changed line -2 is not a line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []func() error{
				func() error { _, err := Measure(tc.changed, measureReport()); return err },
				func() error { _, err := Reach(tc.changed, measureReport()); return err },
			} {
				err := f()
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want %q", err, tc.want)
				}
			}
		})
	}
	if _, err := Measure(nil, nil); err == nil {
		t.Error("Measure accepted no report")
	}
	if _, err := Reach(nil, nil); err == nil {
		t.Error("Reach accepted no report")
	}
}

func TestReach(t *testing.T) {
	r := measureReport()
	got, err := Reach(map[string][]int{"calc/ops.py": {1, 3, 4, 5, 7, 8, 11}, "calc/new.py": {1}}, r)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]cover.Line{
		"tests/test_ops.py::test_add":      lines("calc/ops.py", 4, 8),
		"tests/test_ops.py::TestK::test_m": lines("calc/ops.py", 4),
		"tests/test_pkg.py::test_x":        lines("calc/ops.py", 7),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Reach =\n%v\nwant\n%v", got, want)
	}
	reaching := Reaching(got)
	if tests := reaching[cover.Line{Path: "calc/ops.py", Line: 4}]; !reflect.DeepEqual(tests, []string{"tests/test_ops.py::TestK::test_m", "tests/test_ops.py::test_add"}) {
		t.Errorf("tests reaching line 4: %v", tests)
	}
	if tests, ok := reaching[cover.Line{Path: "calc/ops.py", Line: 3}]; ok {
		t.Errorf("line 3, run outside tests, reached by %v", tests)
	}

	// Two names of the same test merge.
	r.Files["calc/ops.py"].Contexts[7] = []string{"tests.test_pkg.test_x", "tests/test_pkg.py::test_x|run", "tests/test_pkg.py::test_x|setup"}
	r.Files["calc/ops.py"].Contexts[8] = []string{"test_pkg.test_x"}
	got, err = Reach(map[string][]int{"calc/ops.py": {7, 8}}, r)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string][]cover.Line{"tests/test_pkg.py::test_x": lines("calc/ops.py", 7, 8)}; !reflect.DeepEqual(got, want) {
		t.Errorf("Reach = %v, want %v", got, want)
	}

	// A context that names no test, on a changed line: an error. Not on
	// a changed line: no matter.
	r.Files["calc/ops.py"].Contexts[8] = []string{"calc.ops.testing_helper"}
	if _, err := Reach(map[string][]int{"calc/ops.py": {7}}, r); err != nil {
		t.Errorf("Reach: %v", err)
	}
	_, err = Reach(map[string][]int{"calc/ops.py": {7, 8}}, r)
	if want := `reach: calc/ops.py:8: context "calc.ops.testing_helper" names no test file of the report`; err == nil || err.Error() != want {
		t.Errorf("Reach error %v, want %q", err, want)
	}
}

func TestRunners(t *testing.T) {
	x := NewRunners(measureReport())
	for _, tc := range []struct {
		path string
		line int
		want Runs
		ok   bool
	}{
		{"calc/ops.py", 1, Runs{Outside: true}, true}, // at import only
		{"calc/ops.py", 4, Runs{Tests: []string{"tests/test_ops.py::TestK::test_m", "tests/test_ops.py::test_add"}}, true},
		{"calc/ops.py", 8, Runs{Tests: []string{"tests/test_ops.py::test_add"}, Outside: true}, true},
		{"calc/ops.py", 5, Runs{}, false}, // missing: never ran
		{"calc/ops.py", 2, Runs{}, false}, // no statement
		{"calc/new.py", 1, Runs{}, false}, // not in the report
	} {
		got, ok, err := x.Of(tc.path, tc.line)
		if err != nil || ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Of(%s, %d) = %+v, %v, %v; want %+v, %v", tc.path, tc.line, got, ok, err, tc.want, tc.ok)
		}
	}
	r := measureReport()
	r.Files["calc/ops.py"].Contexts[7] = []string{"calc.ops.testing_helper"}
	if _, _, err := NewRunners(r).Of("calc/ops.py", 7); err == nil || !strings.Contains(err.Error(), "names no test file") {
		t.Errorf("a context naming no test: %v", err)
	}
}

func TestNodeID(t *testing.T) {
	r := &Report{Files: map[string]*File{}}
	for _, p := range []string{
		"tests/test_ops.py", "tests/__init__.py", "tests/unit/test_deep.py", "test_top.py",
		"a/test_dup.py", "b/test_dup.py", "calc/ops.py", "calc/test_helpers_test.py",
		"tests/conftest.py", "conftest.py", "pkg/tests/__init__.py", "x/tests/test_ünï.py",
	} {
		r.Files[p] = &File{}
	}
	for _, tc := range []struct {
		name, want, err string
	}{
		{name: "test_ops.test_add", want: "tests/test_ops.py::test_add"},
		{name: "tests.test_ops.test_add", want: "tests/test_ops.py::test_add"},
		{name: "test_ops.TestK.test_m", want: "tests/test_ops.py::TestK::test_m"},
		{name: "test_ops.TestA.TestB.test_m", want: "tests/test_ops.py::TestA::TestB::test_m"},
		{name: "test_deep.test_x", want: "tests/unit/test_deep.py::test_x"},
		{name: "unit.test_deep.test_x", want: "tests/unit/test_deep.py::test_x"},
		{name: "test_top.test_x", want: "test_top.py::test_x"},
		{name: "test_helpers_test.test_x", want: "calc/test_helpers_test.py::test_x"},
		{name: "test_ünï.test_x", want: "x/tests/test_ünï.py::test_x"},
		{name: "tests/test_ops.py::test_add[1-2]|run", want: "tests/test_ops.py::test_add[1-2]"},
		{name: "tests/test_ops.py::TestK::test_m|teardown", want: "tests/test_ops.py::TestK::test_m"},
		{name: "tests/test_ops.py::test_add", want: "tests/test_ops.py::test_add"},

		{name: "test_dup.test_x", err: `context "test_dup.test_x" is ambiguous: "a/test_dup.py::test_x" or "b/test_dup.py::test_x"`},
		{name: "tests.test_x", err: `names no test file`}, // tests/__init__.py: the module tests
		{name: "ops.test_x", err: "names no test file"},   // calc/ops.py is no test file
		{name: "calc.ops.test_x", err: "names no test file"},
		{name: "conftest.test_x", err: "names no test file"},
		{name: "other.test_ops.test_x", err: "names no test file"},
		{name: "test_add", err: "is not a module and test name"},
		{name: "", err: "is not a module and test name"},
		{name: "test_ops..test_add", err: `"" is not a Python name`},
		{name: "test_ops.<locals>.test_add", err: `"<locals>" is not a Python name`},
		{name: "test_ops.1test", err: `"1test" is not a Python name`},
		{name: "ctx|test_ops.test_add", err: `"ctx|test_ops" is not a Python name`},
		{name: "/abs/test_x.py::test_x", err: "is not a Python file of the tree"},
		{name: "../test_x.py::test_x", err: "is not a Python file of the tree"},
		{name: "test_x.txt::test_x", err: "is not a Python file of the tree"},
		{name: "test_x.py::", err: "is not a pytest node id"},
		{name: "test_x.py::a::", err: "is not a pytest node id"},
		{name: "test_x.py::::a", err: "is not a pytest node id"},
	} {
		got, err := NodeID(r, tc.name)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("NodeID(%q) = %q, %v; want error %q", tc.name, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("NodeID(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if _, err := NodeID(nil, "test_ops.test_add"); err == nil {
		t.Error("NodeID accepted no report")
	}
}

func TestIsTestFile(t *testing.T) {
	for p, want := range map[string]bool{
		"test_x.py":           true,
		"a/test_x.py":         true,
		"a/x_test.py":         true,
		"conftest.py":         true,
		"a/conftest.py":       true,
		"tests/helpers.py":    true,
		"a/tests/b/c.py":      true,
		"x.py":                false,
		"testing/x.py":        false,
		"a/contest.py":        false,
		"tests.py":            false,
		"a/mytests/x.py":      false,
		"a/test_x.txt":        false,
		"a/testx.py":          false,
		"attests/x_tests.py":  false,
		"calc/protest_x.py":   false,
		"a/tests_helper/x.py": false,
	} {
		if got := IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}

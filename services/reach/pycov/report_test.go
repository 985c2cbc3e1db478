package pycov

import (
	"reflect"
	"strings"
	"testing"
)

// validReport is a small report as coverage.py 6.5 writes it: statement 2
// spans lines 2 and 3, line 5 is missing, line 7 excluded.
const validReport = `{"meta": {"version": "6.5.0", "timestamp": "2026-01-01T00:00:00", "branch_coverage": false, "show_contexts": true},
 "files": {"pkg/a.py": {"executed_lines": [1, 2, 4], "summary": {"covered_lines": 3, "num_statements": 4, "percent_covered": 75.0, "percent_covered_display": "75", "missing_lines": 1, "excluded_lines": 1}, "missing_lines": [5], "excluded_lines": [7], "contexts": {"1": [""], "2": ["test_a.test_x"], "3": ["test_a.test_x", "test_a.TestK.test_m"], "4": ["test_a.TestK.test_m"]}},
  "tests/test_a.py": {"executed_lines": [1, 3, 4, 6, 7], "summary": {"covered_lines": 5, "num_statements": 5, "percent_covered": 100.0, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}, "missing_lines": [], "excluded_lines": [], "contexts": {"1": [""], "3": [""], "4": ["test_a.test_x"], "6": [""], "7": ["test_a.TestK.test_m"]}}},
 "totals": {"covered_lines": 8, "num_statements": 9, "percent_covered": 88.88888888888889, "percent_covered_display": "89", "missing_lines": 1, "excluded_lines": 1}}
`

func wantValidReport() *Report {
	return &Report{
		Version: "6.5.0",
		Files: map[string]*File{
			"pkg/a.py": {
				Executed: []int{1, 2, 4}, Missing: []int{5}, Excluded: []int{7},
				Contexts: map[int][]string{
					1: {""},
					2: {"test_a.TestK.test_m", "test_a.test_x"},
					4: {"test_a.TestK.test_m"},
				},
				Statements: 4, Covered: 3,
			},
			"tests/test_a.py": {
				Executed: []int{1, 3, 4, 6, 7}, Missing: []int{}, Excluded: []int{},
				Contexts: map[int][]string{
					1: {""}, 3: {""}, 4: {"test_a.test_x"}, 6: {""}, 7: {"test_a.TestK.test_m"},
				},
				Statements: 5, Covered: 5,
			},
		},
	}
}

func mustParse(t *testing.T, text string, lim Limits) *Report {
	t.Helper()
	r, err := Parse(strings.NewReader(text), lim)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return r
}

// edit applies replacements to validReport; each old string must occur.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	s := validReport
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("validReport does not hold %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func TestParseValid(t *testing.T) {
	r := mustParse(t, validReport, Limits{})
	if want := wantValidReport(); !reflect.DeepEqual(r, want) {
		t.Errorf("Parse =\n%#v\nwant\n%#v", r, want)
	}
}

func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  func(t *testing.T) string
		lim   Limits
		check func(t *testing.T, r *Report)
	}{
		{
			name: "line 0 of a module without statements",
			text: func(t *testing.T) string {
				return edit(t, `"files": {`, `"files": {"pkg/__init__.py": {"executed_lines": [0], "summary": {"covered_lines": 0, "num_statements": 0, "percent_covered": 100.0, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}, "missing_lines": [], "excluded_lines": [], "contexts": {"0": [""]}}, `)
			},
			check: func(t *testing.T, r *Report) {
				f := r.Files["pkg/__init__.py"]
				if f == nil || len(f.Executed) != 0 || len(f.Contexts) != 0 {
					t.Errorf("pkg/__init__.py = %+v, want no lines", f)
				}
			},
		},
		{
			name: "format 3 with regions",
			text: func(t *testing.T) string {
				return edit(t, `"meta": {`, `"meta": {"format": 3, `,
					`"contexts": {"1": [""], "2"`, `"functions": {"f": {"executed_lines": [2]}, "": {}}, "classes": {"": {}}, "contexts": {"1": [""], "2"`)
			},
			check: func(t *testing.T, r *Report) {
				if r.Format != 3 || !reflect.DeepEqual(r.Files["pkg/a.py"], wantValidReport().Files["pkg/a.py"]) {
					t.Errorf("format %d, pkg/a.py = %+v", r.Format, r.Files["pkg/a.py"])
				}
			},
		},
		{
			name: "format 2, no timestamp or percent_covered_display",
			text: func(t *testing.T) string {
				return edit(t, `"meta": {`, `"meta": {"format": 2, `, `"timestamp": "2026-01-01T00:00:00", `, ``,
					`, "percent_covered_display": "75"`, ``)
			},
			check: func(t *testing.T, r *Report) {
				if r.Format != 2 {
					t.Errorf("format %d, want 2", r.Format)
				}
			},
		},
		{
			name: "percent_statements_covered of coverage.py 7.12",
			text: func(t *testing.T) string {
				return edit(t, `"meta": {`, `"meta": {"format": 3, `,
					`"percent_covered_display": "75",`, `"percent_covered_display": "75", "percent_statements_covered": 75.0, "percent_statements_covered_display": "75",`,
					`"percent_covered_display": "89",`, `"percent_covered_display": "89", "percent_statements_covered": 88.9, "percent_statements_covered_display": "89",`)
			},
			check: func(t *testing.T, r *Report) {
				if r.Format != 3 || !reflect.DeepEqual(r.Files, wantValidReport().Files) {
					t.Errorf("Parse = %+v", r)
				}
			},
		},
		{
			name: "absolute path below the root; path cleaned",
			text: func(t *testing.T) string {
				return edit(t, `"pkg/a.py"`, `"/work/tree/pkg//a.py"`, `"tests/test_a.py"`, `"./tests/./test_a.py"`)
			},
			lim: Limits{Root: "/work/tree"},
			check: func(t *testing.T, r *Report) {
				if !reflect.DeepEqual(r, wantValidReport()) {
					t.Errorf("Parse = %+v", r)
				}
			},
		},
		{
			name: "root /",
			text: func(t *testing.T) string { return edit(t, `"pkg/a.py"`, `"/pkg/a.py"`) },
			lim:  Limits{Root: "/"},
			check: func(t *testing.T, r *Report) {
				if r.Files["pkg/a.py"] == nil {
					t.Errorf("files %v", r.Files)
				}
			},
		},
		{
			name: "excluded line that ran, contexts on it and before the first line",
			text: func(t *testing.T) string {
				return edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [2, 4, 7]`,
					`"covered_lines": 3, "num_statements": 4`, `"covered_lines": 2, "num_statements": 3`,
					`"covered_lines": 8, "num_statements": 9`, `"covered_lines": 7, "num_statements": 8`,
					`"contexts": {"1": [""], "2"`, `"contexts": {"1": ["x.test_doc"], "7": ["x.test_ex"], "8": ["x.test_ex"], "2"`)
			},
			check: func(t *testing.T, r *Report) {
				f := r.Files["pkg/a.py"]
				want := map[int][]string{2: {"test_a.TestK.test_m", "test_a.test_x"}, 4: {"test_a.TestK.test_m"}}
				if !reflect.DeepEqual(f.Executed, []int{2, 4}) || !reflect.DeepEqual(f.Contexts, want) {
					t.Errorf("pkg/a.py = %+v", f)
				}
			},
		},
		{
			name: "docstring line executed, not counted",
			text: func(t *testing.T) string {
				return edit(t, `"covered_lines": 3, "num_statements": 4`, `"covered_lines": 2, "num_statements": 3`,
					`"covered_lines": 8, "num_statements": 9`, `"covered_lines": 7, "num_statements": 8`)
			},
			check: func(t *testing.T, r *Report) {
				if f := r.Files["pkg/a.py"]; f.Covered != 2 || len(f.Executed) != 3 {
					t.Errorf("pkg/a.py = %+v", f)
				}
			},
		},
		{
			name: "white space after the report",
			text: func(t *testing.T) string { return validReport + " \n\t\r\n" },
			check: func(t *testing.T, r *Report) {
				if len(r.Files) != 2 {
					t.Errorf("files %v", r.Files)
				}
			},
		},
		{
			name: "no files",
			text: func(t *testing.T) string {
				return `{"meta": {"version": "7.6.1", "format": 3, "branch_coverage": false, "show_contexts": true, "timestamp": ""}, "files": {}, "totals": {"covered_lines": 0, "num_statements": 0, "percent_covered": 100, "percent_covered_display": "100", "missing_lines": 0, "excluded_lines": 0}}`
			},
			check: func(t *testing.T, r *Report) {
				if r.Version != "7.6.1" || len(r.Files) != 0 || r.Files == nil {
					t.Errorf("Parse = %+v", r)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, mustParse(t, tc.text(t), tc.lim))
		})
	}
}

func TestParseRefuses(t *testing.T) {
	aFile := `"pkg/a.py": {"executed_lines": [1, 2, 4]`
	for _, tc := range []struct {
		name string
		text string
		lim  Limits
		want string
	}{
		// Not a report.
		{name: "empty", text: "", want: "unexpected end of input"},
		{name: "white space", text: " \n", want: "unexpected end of input"},
		{name: "array", text: "[]", want: "the report: found '[', want an object"},
		{name: "null", text: "null", want: "the report: found null, want an object"},
		{name: "not JSON", text: "mode: set\n", want: "invalid JSON at byte"},
		{name: "truncated", text: validReport[:len(validReport)/2], want: "unexpected end of input"},
		{name: "data after", text: validReport + "x", want: "after the report: invalid character"},
		{name: "second object", text: validReport + "{}", want: "data after the report"},
		{name: "trailing comma", text: edit(t, `"excluded_lines": 1}}`, `"excluded_lines": 1,}}`), want: "invalid JSON"},
		{name: "invalid UTF-8 outside strings", text: edit(t, `{"meta"`, "{\xff\"meta\""), want: "invalid JSON"},

		// Structure.
		{name: "unknown member", text: edit(t, `"totals"`, `"extra": 1, "totals"`), want: `unknown member "extra"`},
		{name: "duplicate member", text: edit(t, `"totals"`, `"meta": {}, "totals"`), want: `the report: member "meta" twice`},
		{name: "no meta", text: edit(t, `"meta": {"version": "6.5.0", "timestamp": "2026-01-01T00:00:00", "branch_coverage": false, "show_contexts": true},`, ``), want: `the report: no member "meta"`},
		{name: "no totals", text: edit(t, `,
 "totals": {"covered_lines": 8, "num_statements": 9, "percent_covered": 88.88888888888889, "percent_covered_display": "89", "missing_lines": 1, "excluded_lines": 1}`, ``), want: `the report: no member "totals"`},
		{name: "files not an object", text: `{"files": []}`, want: "files: found '[', want an object"},

		// Meta.
		{name: "meta unknown member", text: edit(t, `"show_contexts": true`, `"show_contexts": true, "x": 1`), want: `meta: unknown member "x"`},
		{name: "meta duplicate", text: edit(t, `"show_contexts": true`, `"show_contexts": true, "show_contexts": true`), want: `meta: member "show_contexts" twice`},
		{name: "no version", text: edit(t, `"version": "6.5.0", `, ``), want: `meta: no member "version"`},
		{name: "null version", text: edit(t, `"version": "6.5.0"`, `"version": null`), want: "meta.version: null, want a string"},
		{name: "version a number", text: edit(t, `"version": "6.5.0"`, `"version": 6.5`), want: "meta.version: json: cannot unmarshal number"},
		{name: "version empty", text: edit(t, `"version": "6.5.0"`, `"version": ""`), want: "is not a version"},
		{name: "version with a newline", text: edit(t, `"version": "6.5.0"`, `"version": "6.5\n0"`), want: "is not a version"},
		{name: "branch coverage", text: edit(t, `"branch_coverage": false`, `"branch_coverage": true`), want: "meta.branch_coverage is true"},
		{name: "branch coverage null", text: edit(t, `"branch_coverage": false`, `"branch_coverage": null`), want: "meta.branch_coverage: null"},
		{name: "no branch coverage", text: edit(t, `"branch_coverage": false, `, ``), want: `meta: no member "branch_coverage"`},
		{name: "no contexts shown", text: edit(t, `"show_contexts": true`, `"show_contexts": false`), want: "meta.show_contexts is false"},
		{name: "show_contexts a string", text: edit(t, `"show_contexts": true`, `"show_contexts": "true"`), want: "meta.show_contexts: json: cannot unmarshal string"},
		{name: "format 4", text: edit(t, `"meta": {`, `"meta": {"format": 4, `), want: "meta.format 4 is not a report format"},
		{name: "format 3.0", text: edit(t, `"meta": {`, `"meta": {"format": 3.0, `), want: `meta.format: "3.0" is not an integer`},
		{name: "format string", text: edit(t, `"meta": {`, `"meta": {"format": "3", `), want: `meta.format: "\"3\"" is not an integer`},
		{name: "timestamp number", text: edit(t, `"timestamp": "2026-01-01T00:00:00"`, `"timestamp": 1`), want: "meta.timestamp: json: cannot unmarshal number"},
		{name: "regions without format 3", text: edit(t, `"contexts": {"1": [""], "2"`, `"functions": {}, "contexts": {"1": [""], "2"`), want: `files["pkg/a.py"] has functions or classes, which format 0 reports do not have`},
		{name: "regions not an object", text: edit(t, `"meta": {`, `"meta": {"format": 3, `, `"contexts": {"1": [""], "2"`, `"classes": [], "contexts": {"1": [""], "2"`), want: `files["pkg/a.py"].classes: want an object`},

		// Paths.
		{name: "absolute path", text: edit(t, `"pkg/a.py"`, `"/usr/lib/python3/a.py"`), want: `files: path "/usr/lib/python3/a.py" is outside the tree`},
		{name: "absolute path outside the root", text: edit(t, `"pkg/a.py"`, `"/work/treeX/a.py"`), lim: Limits{Root: "/work/tree"}, want: "is outside the tree"},
		{name: "the root itself", text: edit(t, `"pkg/a.py"`, `"/work/tree"`), lim: Limits{Root: "/work/tree"}, want: "is outside the tree"},
		{name: "dot dot", text: edit(t, `"pkg/a.py"`, `"pkg/../../a.py"`), want: `has a ".." element`},
		{name: "dot dot below root", text: edit(t, `"pkg/a.py"`, `"/work/tree/x/../a.py"`), lim: Limits{Root: "/work/tree"}, want: `has a ".." element`},
		{name: "leading dot dot", text: edit(t, `"pkg/a.py"`, `"../a.py"`), want: `has a ".." element`},
		{name: "empty path", text: edit(t, `"pkg/a.py"`, `""`), want: "files: empty path"},
		{name: "dot", text: edit(t, `"pkg/a.py"`, `"./"`), want: "names the tree itself"},
		{name: "backslash", text: edit(t, `"pkg/a.py"`, `"pkg\\a.py"`), want: "holds a backslash"},
		{name: "control character", text: edit(t, `"pkg/a.py"`, `"pkg/a\n.py"`), want: "holds a control character"},
		{name: "undecodable name", text: edit(t, `"pkg/a.py"`, `"pkg/a\udcff.py"`), want: "is not valid UTF-8"},
		{name: "invalid UTF-8", text: edit(t, `"pkg/a.py"`, "\"pkg/a\xff.py\""), want: "is not valid UTF-8"},
		{name: "same file twice", text: edit(t, `"tests/test_a.py"`, `"./pkg/a.py"`), want: `files: "pkg/a.py" and "./pkg/a.py" are the same file`},
		{name: "same name twice", text: edit(t, `"tests/test_a.py"`, `"pkg/a.py"`), want: `files: member "pkg/a.py" twice`},
		{name: "too many files", text: validReport, lim: Limits{MaxFiles: 1}, want: "files: more than 1 files"},
		{name: "relative root", text: validReport, lim: Limits{Root: "work/tree"}, want: "limits: root"},
		{name: "unclean root", text: validReport, lim: Limits{Root: "/work/tree/"}, want: "limits: root"},
		{name: "negative limit", text: validReport, lim: Limits{MaxFiles: -1}, want: "limits: negative limit"},

		// File members.
		{name: "file not an object", text: edit(t, aFile, `"pkg/a.py": [], "x": {"executed_lines": [1, 2, 4]`), want: `files["pkg/a.py"]: found '[', want an object`},
		{name: "file unknown member", text: edit(t, aFile, aFile+`, "executed_branches": []`), want: `files["pkg/a.py"]: unknown member "executed_branches"`},
		{name: "file duplicate member", text: edit(t, aFile, aFile+`, "executed_lines": [1, 2, 4]`), want: `files["pkg/a.py"]: member "executed_lines" twice`},
		{name: "no contexts", text: edit(t, `, "contexts": {"1": [""], "3": [""], "4": ["test_a.test_x"], "6": [""], "7": ["test_a.TestK.test_m"]}`, ``), want: `files["tests/test_a.py"]: no member "contexts"`},
		{name: "no summary", text: edit(t, `"summary": {"covered_lines": 3, "num_statements": 4, "percent_covered": 75.0, "percent_covered_display": "75", "missing_lines": 1, "excluded_lines": 1}, `, ``), want: `no member "summary"`},
		{name: "no missing lines", text: edit(t, `"missing_lines": [5], `, ``), want: `files["pkg/a.py"]: no member "missing_lines"`},
		{name: "null lines", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": null`), want: `files["pkg/a.py"].executed_lines: found null, want an array`},
		{name: "lines an object", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": {}`), want: `executed_lines: found '{', want an array`},
		{name: "null line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, null, 4]`), want: `executed_lines[1]: "null" is not an integer`},
		{name: "fractional line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, 2.0, 4]`), want: `executed_lines[1]: "2.0" is not an integer`},
		{name: "exponent line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, 2e0, 4]`), want: `"2e0" is not an integer`},
		{name: "string line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, "2", 4]`), want: "is not an integer"},
		{name: "bool line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, true, 4]`), want: `"true" is not an integer`},
		{name: "huge line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, 2, 99999999999999999999999]`), want: "out of range"},
		{name: "negative line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [-1, 2, 4]`), want: "executed_lines[0]: line -1 out of range [0, 1000000]"},
		{name: "line 0 missing", text: edit(t, `"missing_lines": [5]`, `"missing_lines": [0]`), want: "missing_lines[0]: line 0 out of range [1, 1000000]"},
		{name: "line 0 excluded", text: edit(t, `"excluded_lines": [7]`, `"excluded_lines": [0]`), want: "excluded_lines[0]: line 0 out of range"},
		{name: "line beyond MaxLine", text: edit(t, `"missing_lines": [5]`, `"missing_lines": [1000001]`), want: "line 1000001 out of range"},
		{name: "line beyond a lower MaxLine", text: validReport, lim: Limits{MaxLine: 6}, want: `files["pkg/a.py"].excluded_lines[0]: line 7 out of range [1, 6]`},
		{name: "unsorted lines", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, 4, 2]`), want: "executed_lines[2]: line 2 after line 4"},
		{name: "duplicate line", text: edit(t, `"executed_lines": [1, 2, 4]`, `"executed_lines": [1, 2, 2, 4]`), want: "executed_lines[2]: line 2 after line 2"},
		{name: "executed and missing", text: edit(t, `"missing_lines": [5]`, `"missing_lines": [4]`), want: `files["pkg/a.py"]: line 4 is both executed and missing`},
		{name: "missing and excluded", text: edit(t, `"missing_lines": [5]`, `"missing_lines": [7]`), want: "line 7 is both missing and excluded"},
		{name: "too many lines", text: validReport, lim: Limits{MaxLines: 5}, want: "more than 5 line entries in the report"},

		// Summaries.
		{name: "summary missing count", text: edit(t, `"missing_lines": 1, "excluded_lines": 1}, "missing`, `"missing_lines": 0, "excluded_lines": 1}, "missing`), want: "the summary counts 0 missing lines, the list has 1"},
		{name: "summary excluded count", text: edit(t, `"missing_lines": 1, "excluded_lines": 1}, "missing`, `"missing_lines": 1, "excluded_lines": 0}, "missing`), want: "the summary counts 0 excluded lines, the list has 1"},
		{name: "summary statements", text: edit(t, `"num_statements": 4`, `"num_statements": 5`), want: "the summary counts 5 statements, not its 3 covered and 1 missing lines"},
		{name: "summary covers too much", text: edit(t, `"covered_lines": 3, "num_statements": 4`, `"covered_lines": 4, "num_statements": 5`), want: "the summary counts 4 covered lines, more than the 3 executed lines not excluded"},
		{name: "summary unknown member", text: edit(t, `"percent_covered": 75.0,`, `"percent_covered": 75.0, "num_branches": 0,`), want: `.summary: unknown member "num_branches"`},
		{name: "summary without a count", text: edit(t, `"covered_lines": 3, `, ``), want: `.summary: no member "covered_lines"`},
		{name: "summary negative count", text: edit(t, `"excluded_lines": 0}`, `"excluded_lines": -1}`), want: "excluded_lines: -1 out of range"},
		{name: "summary null percent", text: edit(t, `"percent_covered": 75.0`, `"percent_covered": null`), want: "percent_covered: null, want a number"},
		{name: "summary string percent", text: edit(t, `"percent_covered": 75.0`, `"percent_covered": "75"`), want: "percent_covered: json: cannot unmarshal string"},
		{name: "summary display a number", text: edit(t, `"percent_covered_display": "75"`, `"percent_covered_display": 75`), want: "percent_covered_display: json: cannot unmarshal number"},
		{name: "totals not the sums", text: edit(t, `"covered_lines": 8, "num_statements": 9`, `"covered_lines": 9, "num_statements": 10`), want: "totals {covered:9 statements:10 missing:1 excluded:1} are not the sums"},
		{name: "totals null", text: edit(t, `"totals": {"covered_lines": 8, "num_statements": 9, "percent_covered": 88.88888888888889, "percent_covered_display": "89", "missing_lines": 1, "excluded_lines": 1}`, `"totals": null`), want: "totals: found null, want an object"},

		// Contexts.
		{name: "contexts key with a leading zero", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"04": ["test_a.TestK.test_m"]}},`), want: `.contexts: key "04" is not a line number`},
		{name: "contexts key negative", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"-4": ["test_a.TestK.test_m"]}},`), want: `key "-4" is not a line number`},
		{name: "contexts key a word", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"x": ["test_a.TestK.test_m"]}},`), want: `key "x" is not a line number`},
		{name: "contexts key beyond MaxLine", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"1000001": ["test_a.TestK.test_m"]}},`), want: `key "1000001" is not a line number`},
		{name: "contexts key twice", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"2": ["test_a.TestK.test_m"]}},`), want: `.contexts: member "2" twice`},
		{name: "contexts not a list", text: edit(t, `"1": [""], "2"`, `"1": "", "2"`), want: `.contexts["1"]: found string "", want an array`},
		{name: "empty contexts list", text: edit(t, `"1": [""], "2"`, `"1": [], "2"`), want: `.contexts["1"]: no context`},
		{name: "null context", text: edit(t, `"1": [""], "2"`, `"1": [null], "2"`), want: `.contexts["1"][0]: null, want a context name`},
		{name: "context a number", text: edit(t, `"1": [""], "2"`, `"1": [1], "2"`), want: `.contexts["1"][0]: json: cannot unmarshal number`},
		{name: "context twice", text: edit(t, `"1": [""], "2"`, `"1": ["", ""], "2"`), want: `.contexts["1"]: context "" twice`},
		{name: "context with a newline", text: edit(t, `"1": [""], "2"`, `"1": ["a\nb"], "2"`), want: "holds a control character"},
		{name: "context too long", text: edit(t, `"1": [""], "2"`, `"1": ["`+strings.Repeat("x", 4097)+`"], "2"`), want: "context name longer than 4096 bytes"},
		{name: "too many contexts", text: validReport, lim: Limits{MaxContexts: 2}, want: "more than 2 distinct contexts"},
		{name: "too many context entries", text: validReport, lim: Limits{MaxContextRefs: 4}, want: "more than 4 context entries"},
		{name: "context in a missing statement", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"4": ["test_a.TestK.test_m"], "6": ["test_a.test_x"]}},`), want: `files["pkg/a.py"].contexts: line 6 ran in statement 5, which the report lists as missing`},
		{name: "context on a missing line", text: edit(t, `"4": ["test_a.TestK.test_m"]}},`, `"4": ["test_a.TestK.test_m"], "5": ["test_a.TestK.test_m"]}},`), want: "line 5 ran in statement 5, which the report lists as missing"},
		{name: "executed line without context", text: edit(t, `, "4": ["test_a.TestK.test_m"]}},`, `}},`), want: `files["pkg/a.py"]: executed line 4 has no context`},
		{name: "contexts of lines only", text: edit(t, `"contexts": {"1": [""], "2"`, `"contexts": {"1": [""], "2": [], "2"`), want: `.contexts["2"]: no context`},

		// Size.
		{name: "too large", text: validReport, lim: Limits{MaxBytes: int64(len(validReport) - 1)}, want: "coverage report larger than"},
		{name: "too large in trailing space", text: validReport + "   ", lim: Limits{MaxBytes: int64(len(validReport) + 2)}, want: "coverage report larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(strings.NewReader(tc.text), tc.lim)
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", r)
			}
			if r != nil {
				t.Errorf("Parse returned a report with error %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to hold %q", err, tc.want)
			}
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

func TestParseLimitExact(t *testing.T) {
	// A report of exactly MaxBytes is accepted.
	mustParse(t, validReport, Limits{MaxBytes: int64(len(validReport))})
	mustParse(t, validReport, Limits{MaxLines: 12, MaxContexts: 3, MaxContextRefs: 12, MaxFiles: 2, MaxLine: 7, MaxContextBytes: len("test_a.TestK.test_m")})
}

package pycov

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		validReport,
		recordedReport,
		`{"meta": {"version": "7.6.1", "format": 3, "branch_coverage": false, "show_contexts": true}, "files": {"/tree/a.py": {"executed_lines": [0, 1, 3], "missing_lines": [2], "excluded_lines": [3], "summary": {"covered_lines": 1, "num_statements": 2, "percent_covered": 50, "missing_lines": 1, "excluded_lines": 1}, "contexts": {"0": [""], "1": ["t.test_a"], "3": ["t.test_a"]}, "functions": {}}}, "totals": {"covered_lines": 1, "num_statements": 2, "percent_covered": 50, "missing_lines": 1, "excluded_lines": 1}}`,
		`{"meta": {}, "files": {"a.py": {"executed_lines": [1, 1]}}}`,
		`{"files": {"../a.py": {}, "./a.py": {}}}`,
		`{"meta": {"version": "1", "branch_coverage": null}}`,
		`[1, 2, "x", null, true, {"a": 1e99}]`,
		"",
	} {
		f.Add([]byte(s))
	}
	lim := Limits{Root: "/tree", MaxLine: 1000}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(bytes.NewReader(data), lim)
		if err != nil {
			if r != nil {
				t.Fatalf("Parse returned a report with error %v", err)
			}
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q spans lines", err)
			}
			return
		}
		changed := map[string][]int{}
		wantChanged, wantCovered := 0, 0
		for p, file := range r.Files {
			if err := checkRelPath(p); err != nil {
				t.Fatalf("accepted path %q: %v", p, err)
			}
			for _, list := range [][]int{file.Executed, file.Missing, file.Excluded} {
				for i, l := range list {
					if l < 1 || l > lim.MaxLine || (i > 0 && l <= list[i-1]) {
						t.Fatalf("%s: lines %v are not ascending distinct lines in range", p, list)
					}
				}
			}
			for _, pair := range [][2][]int{{file.Executed, file.Missing}, {file.Executed, file.Excluded}, {file.Missing, file.Excluded}} {
				if l, ok := firstCommon(pair[0], pair[1]); ok {
					t.Fatalf("%s: line %d in %v and %v", p, l, pair[0], pair[1])
				}
			}
			if len(file.Contexts) != len(file.Executed) {
				t.Fatalf("%s: contexts on lines %v, executed lines %v", p, file.Contexts, file.Executed)
			}
			for _, l := range file.Executed {
				names := file.Contexts[l]
				if len(names) == 0 || !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
					t.Fatalf("%s:%d: contexts %q", p, l, names)
				}
				for _, n := range names {
					if hasControl(n) {
						t.Fatalf("%s:%d: context %q", p, l, n)
					}
				}
			}
			if file.Covered > len(file.Executed) || file.Statements != file.Covered+len(file.Missing) {
				t.Fatalf("%s: summary %d of %d with %d executed and %d missing lines", p, file.Covered, file.Statements, len(file.Executed), len(file.Missing))
			}
			if strings.HasSuffix(p, ".py") && !IsTestFile(p) {
				ls := slices.Concat(file.Executed, file.Missing, file.Excluded, []int{lim.MaxLine + 1})
				changed[p] = ls
				wantChanged += len(file.Executed) + len(file.Missing)
				wantCovered += len(file.Executed)
			}
		}
		res, err := Measure(changed, r)
		if err != nil {
			t.Fatalf("Measure: %v", err)
		}
		if res.Changed != wantChanged || res.Covered != wantCovered || len(res.Uncovered) != wantChanged-wantCovered || len(res.Unmeasured) != 0 {
			t.Fatalf("Measure = %+v, want %d changed, %d covered", res, wantChanged, wantCovered)
		}
		if (res.Ratio == nil) != (res.Changed == 0) {
			t.Fatalf("Measure ratio %v with %d changed lines", res.Ratio, res.Changed)
		}
		reach, err := Reach(changed, r)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q spans lines", err)
			}
			return
		}
		for test, ls := range reach {
			if len(ls) == 0 {
				t.Fatalf("test %s reaches no line", test)
			}
			for _, l := range ls {
				if !contains(r.Files[l.Path].Executed, l.Line) {
					t.Fatalf("test %s reaches %v, which did not run", test, l)
				}
			}
		}
	})
}

package eval

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseInstances: any input parses to instances that hold what the
// parser promises, or is refused with one line — never a panic.
func FuzzParseInstances(f *testing.F) {
	for _, s := range []string{sweLine, proLine, multiLine, strings.Replace(proLine, "TestX", `a\\x41\\'`, 1), "[" + sweLine + "]", sweLine + "\n" + multiLine, "", "[]", "{}", `{"repo":"a/b"}`, "[1,2]", `{"a":1}{"b":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		insts, err := ParseInstances(data)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, in := range insts {
			if checkID(in.ID) != nil || checkRepo(in.Repo) != nil || !isHexCommit(in.BaseCommit) || seen[in.ID] {
				t.Fatalf("accepted a bad instance %+v", in)
			}
			seen[in.ID] = true
			if in.FailToPass == nil || in.PassToPass == nil {
				t.Fatalf("nil test list: %+v", in)
			}
			for _, n := range append(append([]string{}, in.FailToPass...), in.PassToPass...) {
				if checkTestName(n) != nil {
					t.Fatalf("accepted test name %q", n)
				}
			}
			for _, tt := range Tests(in) {
				if tt.Claim == "" && tt.Note == "" {
					t.Fatalf("unmapped test without a note: %+v", tt)
				}
			}
		}
	})
}

// FuzzPythonStringList: a Python list of strings the reader accepts holds
// what Python would read; anything else is refused, never a panic.
func FuzzPythonStringList(f *testing.F) {
	for _, s := range []string{`[]`, `['a', "b"]`, `['it\'s']`, `['\x41\u00e9']`, `[`, `['\U0010ffff']`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := pythonStringList(s)
		if err != nil {
			return
		}
		if got == nil {
			t.Fatal("nil list")
		}
		for _, n := range got {
			if !utf8.ValidString(n) && utf8.ValidString(s) {
				t.Fatalf("%q gave invalid UTF-8 %q", s, n)
			}
		}
	})
}

// FuzzParsePredictions: any input parses to predictions with unique, valid
// instance ids, or is refused with one line.
func FuzzParsePredictions(f *testing.F) {
	for _, s := range []string{
		`{"instance_id": "a-1", "model_patch": "d", "model_name_or_path": "m"}`,
		`[{"instance_id": "a-1", "model_patch": null}]`,
		`{"a-1": {"model_patch": ""}}`,
		"", "{}", "[]", `{"x": {}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		preds, err := ParsePredictions(data)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range preds {
			if checkID(p.InstanceID) != nil || seen[p.InstanceID] || strings.ContainsRune(p.Patch, 0) {
				t.Fatalf("accepted %+v", p)
			}
			seen[p.InstanceID] = true
			if p.Empty() != (len(p.Diff()) == 0) || len(p.SHA256()) != 64 {
				t.Fatalf("inconsistent prediction %+v", p)
			}
		}
	})
}

// FuzzParseArtefact: grading reads any artefact without a panic, and only
// one of the three decisions.
func FuzzParseArtefact(f *testing.F) {
	f.Add([]byte(artefactJSON))
	f.Add([]byte(`{"run_id":"r","decision":"MERGE","criteria":{"bare_claims":{"go:TestX":null}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseArtefact(data)
		if err != nil {
			return
		}
		inst := Instance{ID: "x-1", FailToPass: []string{"TestX", "go weird"}, PassToPass: []string{"tests/t.py::test_y"}}
		r := Score(inst, Prediction{InstanceID: "x-1"}, Tests(inst), a)
		if r.Resolved && r.Tests[1].Passed {
			t.Fatalf("a test mapped to no claim passed: %+v", r.Tests[1])
		}
		_ = Categorize(a.Decision, a.Reason)
	})
}

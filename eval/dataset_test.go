package eval

import (
	"reflect"
	"strings"
	"testing"
)

const (
	sweLine   = `{"repo": "tidwall/gjson", "instance_id": "tidwall__gjson-196", "base_commit": "ABCDEF0123456789abcdef0123456789abcdef01", "patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/x_test.go b/x_test.go\n", "problem_statement": "ignored", "FAIL_TO_PASS": "[\"TestIssue196\"]", "PASS_TO_PASS": "[\"TestA\", \"TestB\", \"TestA\"]", "version": "1.0"}`
	proLine   = `{"repo": "flipt-io/flipt", "instance_id": "instance_flipt-io__flipt-1", "base_commit": "0123456789abcdef0123456789abcdef01234567", "patch": "p", "test_patch": "t", "repo_language": "Go", "fail_to_pass": "['TestX', \"TestY/it's\"]", "pass_to_pass": "[]"}`
	multiLine = `{"org": "cli", "repo": "cli", "number": 5432, "base": {"label": "cli:trunk", "ref": "trunk", "sha": "0123456789abcdef0123456789abcdef01234567"}, "fix_patch": "p", "test_patch": "t", "f2p_tests": {"TestZ": {"run": "NONE", "test": "FAIL", "fix": "PASS"}, "TestY/sub": {"run": "NONE", "test": "FAIL", "fix": "PASS"}}, "p2p_tests": {}, "s2p_tests": {}, "n2p_tests": {}}`
)

func TestParseInstancesVariants(t *testing.T) {
	// Pro's lists are Python literals (str(list)), not JSON.
	pro := proLine
	for name, tc := range map[string]struct {
		data string
		want []Instance
	}{
		"json lines": {sweLine + "\n\n" + pro + "\n" + multiLine + "\n", []Instance{
			{ID: "tidwall__gjson-196", Repo: "tidwall/gjson", BaseCommit: "abcdef0123456789abcdef0123456789abcdef01", Patch: "diff --git a/x b/x\n", TestPatch: "diff --git a/x_test.go b/x_test.go\n",
				FailToPass: []string{"TestIssue196"}, PassToPass: []string{"TestA", "TestB"}, Schema: SchemaSWEBench},
			{ID: "instance_flipt-io__flipt-1", Repo: "flipt-io/flipt", BaseCommit: "0123456789abcdef0123456789abcdef01234567", Patch: "p", TestPatch: "t",
				FailToPass: []string{"TestX", "TestY/it's"}, PassToPass: []string{}, Language: "go", Schema: SchemaSWEBenchPro},
			{ID: "cli__cli-5432", Repo: "cli/cli", BaseCommit: "0123456789abcdef0123456789abcdef01234567", Patch: "p", TestPatch: "t",
				FailToPass: []string{"TestY/sub", "TestZ"}, PassToPass: []string{}, Schema: SchemaMultiSWEBench},
		}},
		"agreeing duplicates": {strings.Replace(sweLine, `"version"`, `"fail_to_pass": "['TestIssue196']", "fix_patch": "diff --git a/x b/x\n", "version"`, 1), []Instance{
			{ID: "tidwall__gjson-196", Repo: "tidwall/gjson", BaseCommit: "abcdef0123456789abcdef0123456789abcdef01", Patch: "diff --git a/x b/x\n", TestPatch: "diff --git a/x_test.go b/x_test.go\n",
				FailToPass: []string{"TestIssue196"}, PassToPass: []string{"TestA", "TestB"}, Schema: SchemaSWEBench},
		}},
		"json array with lists": {`[{"repo": "a/b", "instance_id": "a__b-1", "base_commit": "abcd", "patch": "", "test_patch": "", "FAIL_TO_PASS": ["TestX"], "PASS_TO_PASS": null}]`, []Instance{
			{ID: "a__b-1", Repo: "a/b", BaseCommit: "abcd", FailToPass: []string{"TestX"}, PassToPass: []string{}, Schema: SchemaSWEBench},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParseInstances([]byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestParseInstancesRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ data, want string }{
		"empty":              {"", "no instances"},
		"not json":           {"{\"repo\": \n", "line 1"},
		"second line":        {sweLine + "\n{oops}\n", "line 2"},
		"array then junk":    {"[" + sweLine + "] x", "trailing data"},
		"not an object":      {"[1]", "not a JSON object"},
		"duplicate key":      {`{"repo": "a/b", "repo": "c/d"}`, `field "repo" given twice`},
		"duplicate id":       {sweLine + "\n" + sweLine, "is also record 1"},
		"two names":          {strings.Replace(sweLine, `"patch":`, `"fix_patch": "x", "patch":`, 1), "patch and fix_patch name the same field with different patches"},
		"both test lists":    {strings.Replace(sweLine, `"version"`, `"fail_to_pass": "[]", "version"`, 1), "FAIL_TO_PASS and fail_to_pass name the same field with different tests"},
		"no base":            {strings.Replace(sweLine, `"base_commit"`, `"based"`, 1), "no base_commit"},
		"bad base":           {strings.Replace(sweLine, `"ABCDEF0123456789abcdef0123456789abcdef01"`, `"--upload-pack=x"`, 1), "not a commit id"},
		"bad repo":           {strings.Replace(sweLine, `"tidwall/gjson"`, `"../etc"`, 1), "want owner/name"},
		"slash in id":        {strings.Replace(sweLine, `"tidwall__gjson-196"`, `"a/b"`, 1), "no slashes"},
		"list in string bad": {strings.Replace(sweLine, `"[\"TestIssue196\"]"`, `"[TestIssue196]"`, 1), "want a JSON (or Python) list"},
		"number list":        {strings.Replace(sweLine, `"[\"TestIssue196\"]"`, `3`, 1), "want a list of test names"},
		"empty test name":    {strings.Replace(sweLine, `"[\"TestIssue196\"]"`, `[""]`, 1), "empty test name"},
		"newline in name":    {strings.Replace(sweLine, `"[\"TestIssue196\"]"`, `["Test\nX"]`, 1), "control character"},
		"no test patch":      {strings.Replace(sweLine, `"test_patch"`, `"tests"`, 1), "no test_patch"},
		"org with owner":     {strings.Replace(multiLine, `"repo": "cli"`, `"repo": "cli/cli"`, 1), "org"},
		"bad number":         {strings.Replace(multiLine, `5432`, `-1`, 1), "pull request number"},
		"patch not a string": {strings.Replace(sweLine, `"diff --git a/x b/x\n"`, `{}`, 1), "field patch: want a string"},
		"invalid utf-8":      {"\xff", "UTF-8"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseInstances([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
}

func TestParsePredictionsForms(t *testing.T) {
	want := []Prediction{
		{InstanceID: "a__b-1", Model: "m", Patch: "diff"},
		{InstanceID: "a__b-2", Model: "m", Patch: ""},
	}
	for name, data := range map[string]string{
		"json lines": `{"instance_id": "a__b-1", "model_name_or_path": "m", "model_patch": "diff", "full_output": "..."}
{"instance_id": "a__b-2", "model_name_or_path": "m", "model_patch": null}`,
		"array": `[{"instance_id": "a__b-1", "model_name_or_path": "m", "model_patch": "diff"}, {"instance_id": "a__b-2", "model_name_or_path": "m", "model_patch": ""}]`,
		"keyed": `{"a__b-2": {"model_name_or_path": "m", "model_patch": ""}, "a__b-1": {"instance_id": "a__b-1", "model_name_or_path": "m", "model_patch": "diff"}}`,
		"pro":   `[{"instance_id": "a__b-1", "prefix": "m", "patch": "diff"}, {"instance_id": "a__b-2", "prefix": "m", "patch": ""}]`,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParsePredictions([]byte(data))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v", got)
			}
			if got[0].Empty() || !got[1].Empty() || len(got[1].Diff()) != 0 || got[1].Diff() == nil {
				t.Fatalf("empty prediction not recognised")
			}
		})
	}
	one, err := ParsePredictions([]byte(`{"instance_id": "x-1", "model_patch": "  \n"}`))
	if err != nil || len(one) != 1 || !one[0].Empty() {
		t.Fatalf("a single prediction: %v %+v", err, one)
	}
}

func TestParsePredictionsRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ data, want string }{
		"none":            {"[]", "no predictions"},
		"no patch":        {`{"instance_id": "x-1"}`, "no model_patch"},
		"patch number":    {`{"instance_id": "x-1", "model_patch": 1}`, "want a string"},
		"duplicate":       {`{"instance_id": "x-1", "model_patch": ""}` + "\n" + `{"instance_id": "x-1", "model_patch": "d"}`, "also predicted"},
		"key mismatch":    {`{"x-1": {"instance_id": "x-2", "model_patch": ""}}`, "under the key"},
		"keyed not obj":   {`{"x-1": "diff"}`, "not a JSON object"},
		"no id":           {`[{"model_patch": ""}]`, "no instance_id"},
		"nul":             {`{"instance_id": "x-1", "model_patch": "a\u0000b"}`, "NUL"},
		"two patches":     {`{"instance_id": "x-1", "model_patch": "", "patch": "d"}`, "model_patch and patch"},
		"model not a str": {`{"instance_id": "x-1", "model_patch": "", "model_name_or_path": []}`, "want a string"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParsePredictions([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestClaimFor(t *testing.T) {
	for _, tc := range []struct {
		name, lang, claim string
		noted             bool
	}{
		{"TestLoad", "", "go:TestLoad", false},
		{"TestLoad/with_sub", "go", "go:TestLoad/with_sub", false},
		{"TestLoad/odd (case)", "", "go:TestLoad", true},
		{"tests/test_x.py::test_y[a b]", "", "pytest:tests/test_x.py::test_y[a b]", false},
		{"TestK::test_m", "python", "pytest:TestK::test_m", false},
		{"test_plain", "", "pytest:test_plain", false},
		{"TestCase", "python", "pytest:TestCase", false},
		{"test_x (module.Class)", "python", "", true},
		{"github.com/cli/cli/pkg", "go", "", true},
		{"Test(.*)", "", "", true},
	} {
		claim, note := ClaimFor(tc.name, tc.lang)
		if claim != tc.claim || (note != "") != tc.noted {
			t.Errorf("ClaimFor(%q, %q) = %q, %q; want %q (note: %v)", tc.name, tc.lang, claim, note, tc.claim, tc.noted)
		}
	}
}

func TestMirror(t *testing.T) {
	dir := t.TempDir()
	if _, err := Mirror(dir, "a/b"); err == nil || !strings.Contains(err.Error(), "a__b") {
		t.Fatalf("missing mirror: %v", err)
	}
	for _, layout := range []string{"a/b.git", "a/b", "a__b.git", "a__b"} {
		mk(t, dir, layout)
		got, err := Mirror(dir, "a/b")
		if err != nil || !strings.HasSuffix(got, "/"+layout) {
			t.Fatalf("after %s: %q, %v", layout, got, err)
		}
	}
	if _, err := Mirror(dir, "../x"); err == nil {
		t.Fatal("a path outside --repos")
	}
}

func TestPythonStringList(t *testing.T) {
	for in, want := range map[string][]string{
		`[]`:                                     {},
		` [ 'a' , "b" , ] `:                      {"a", "b"},
		`['it\'s', "say \"hi\""]`:                {"it's", `say "hi"`},
		`['a\\b', '\x41\u00e9\U0001F600', '\d']`: {`a\b`, "Aé😀", `\d`},
		`["tests/test_x.py::test[a b]"]`:         {"tests/test_x.py::test[a b]"},
	} {
		got, err := pythonStringList(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("pythonStringList(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{``, `[`, `['a'`, `['a' 'b']`, `[a]`, `['a\n']x`, `['\x4']`, `['\ud800']`, `['a'] ['b']`, `[r'a']`, "['a\nb']", `['a',,]`} {
		if got, err := pythonStringList(in); err == nil {
			t.Errorf("pythonStringList(%q) = %q, want an error", in, got)
		}
	}
}

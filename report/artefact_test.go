package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// edit returns the real artefact with one textual change: old must occur.
func edit(t *testing.T, file, old, new string) []byte {
	t.Helper()
	data := readAll(t, filepath.Join("testdata", "artefacts", file))
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// Every real artefact parses (the honest twin of every refusal below).
func TestParseRealArtefacts(t *testing.T) {
	for _, file := range artefactNames(t) {
		load(t, file)
	}
}

// Each attack on the artefact is refused, naming where.
func TestParseRefuses(t *testing.T) {
	merge := "go-merge.json"
	block := "go-block-regression.json"
	cases := []struct {
		name  string
		data  []byte
		where string
	}{
		{"empty", []byte{}, ""},
		{"null", []byte("null"), ""},
		{"an array", []byte("[]"), ""},
		{"two objects", append(readAll(t, filepath.Join("testdata", "artefacts", merge)), []byte("{}")...), ""},
		{"not UTF-8", edit(t, merge, `"MERGE"`, "\"MER\xffGE\""), ""},
		{"decision given twice", edit(t, block, `"decision": "BLOCK",`, `"decision": "BLOCK", "decision": "MERGE",`), "decision"},
		{"a key spelled otherwise", edit(t, block, `"decision": "BLOCK"`, `"Decision": "BLOCK"`), "Decision"},
		{"an unknown key", edit(t, merge, `"fix_proven"`, `"all_good": true, "fix_proven"`), "all_good"},
		{"a nested unknown key", edit(t, merge, `"killed": 20`, `"killed": 20, "kills": 20`), "strength.kills"},
		{"a required key missing", edit(t, block, `"regressions": [`, `"regressionz": [`), "collateral.regressionz"},
		{"a duplicate in the criteria", edit(t, merge, `"coverage_floor": 1,`, `"coverage_floor": 1, "coverage_floor": 0,`), "criteria.coverage_floor"},
		{"schema", edit(t, merge, `"sealgate.artefact.v1"`, `"sealgate.artefact.v2"`), "schema"},
		{"decision", edit(t, merge, `"decision": "MERGE"`, `"decision": "PASS"`), "decision"},
		{"exit code of another decision", edit(t, block, `"exit_code": 1,`, `"exit_code": 0,`), "exit_code"},
		{"MERGE with a regression", edit(t, block, `"decision": "BLOCK",
  "exit_code": 1,`, `"decision": "MERGE",
  "exit_code": 0,`), "collateral.regressions"},
		{"MERGE with a refuted claim", edit(t, merge, `"outcome": "VERIFIED"`, `"outcome": "REFUTED"`), "claims[0]"},
		{"an unknown claim outcome", edit(t, block, `"outcome": "VERIFIED"`, `"outcome": "PROVEN"`), "claims[0].outcome"},
		{"a next step outside the closed set", edit(t, block, `"action": "fix_code"`, `"action": "edit_test"`), "next_steps[0].action"},
		{"an absolute path", edit(t, block, `"path": "calc/calc.go"`, `"path": "/etc/passwd"`), "changes[0].path"},
		{"a path out of the repository", edit(t, block, `"path": "calc/calc.go"`, `"path": "calc/../../x.go"`), "changes[0].path"},
		{"an uncovered entry without a line", edit(t, "go-inconclusive.json", "\"uncovered\": [\n      \"calc/median.go:10\"", "\"uncovered\": [\n      \"calc/median.go\""), "coverage.uncovered[0]"},
		{"an uncovered line 0", edit(t, "go-inconclusive.json", "\"uncovered\": [\n      \"calc/median.go:10\"", "\"uncovered\": [\n      \"calc/median.go:0\""), "coverage.uncovered[0]"},
		{"a survivor without a mutation", edit(t, "go-inconclusive.json", "\"survivors\": [\n      \"calc/median.go:9 1000000 → 1000001\"", "\"survivors\": [\n      \"calc/median.go:9\""), "strength.survivors[0]"},
		{"a ratio above 1", edit(t, merge, `"ratio": 1,`, `"ratio": 1.5,`), "coverage"},
		{"a ratio of the wrong type", edit(t, merge, `"ratio": 1,`, `"ratio": "1",`), ""},
		{"an object for a list", edit(t, block, `"regressions": [`, `"regressions": {"a": [`), "collateral.regressions"},
		{"a seal digest", edit(t, merge, `"key_id": "`, `"key_id": "Z`), "seal.key_id"},
		{"deep nesting", edit(t, merge, `"claims_total": 1,`, `"claims_total": 1, "criteria": `+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`,`), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := Parse(c.data)
			if err == nil {
				t.Fatalf("parsed: decision %s", a.Decision)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is no ParseError", err)
			}
			if c.where != "" && pe.Where != c.where {
				t.Fatalf("refused at %q (%v), want at %q", pe.Where, err, c.where)
			}
		})
	}
}

func TestSplitMutant(t *testing.T) {
	for in, want := range map[string]Mutant{
		"calc/median.go:9 > → >=":           {"calc/median.go", 9, "> → >="},
		"a dir/my file.go:12 x:3 → y":       {"a dir/my file.go", 12, "x:3 → y"},
		"pkg/a.py:7 return x → return None": {"pkg/a.py", 7, "return x → return None"},
	} {
		got, err := SplitMutant(in)
		if err != nil || got != want {
			t.Errorf("SplitMutant(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x.go", "x.go:0 m", "x.go:1", "x.go:1 ", "/x.go:1 m", "../x.go:2 m", "x.go:01 m"} {
		if m, err := SplitMutant(bad); err == nil {
			t.Errorf("SplitMutant(%q) = %+v", bad, m)
		}
	}
}

// FuzzParse: Parse never panics; whatever it accepts renders in every
// format within the formats' limits, and is well-formed.
func FuzzParse(f *testing.F) {
	for _, file := range artefactNames(f) {
		f.Add(readAll(f, file))
	}
	f.Add([]byte(`{"schema":"sealgate.artefact.v1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Parse(data)
		if err != nil {
			if a != nil {
				t.Fatal("an artefact with an error")
			}
			return
		}
		for _, format := range Formats() {
			out, err := Render(format, a, Options{})
			if err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			switch format {
			case FormatMarkdown:
				if len(out) > MaxMarkdownBytes {
					t.Fatalf("markdown of %d bytes", len(out))
				}
			case FormatSARIF, FormatGitLabCodeQuality:
				if !json.Valid(out) {
					t.Fatalf("%s is not JSON", format)
				}
			case FormatJUnit:
				var doc junitSuites
				if err := xml.Unmarshal(out, &doc); err != nil {
					t.Fatalf("junit: %v", err)
				}
			case FormatGitHubAnnotations:
				if n := bytes.Count(out, []byte("\n")); n > 3*maxAnnotationsPerLevel+1 {
					t.Fatalf("%d annotations", n)
				}
			}
		}
	})
}

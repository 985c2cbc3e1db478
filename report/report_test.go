package report

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sealgate/sealgate/demo"
)

var update = flag.Bool("update", false, "rewrite the golden files from the renderers")

// The artefacts in testdata/artefacts are real: printed by sealgate verify
// on the bundled demos (see testdata/README.md).
func artefactNames(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "artefacts", "*.json"))
	if err != nil || len(names) < 6 {
		t.Fatalf("testdata/artefacts: %v (%d files)", err, len(names))
	}
	return names
}

func load(t testing.TB, file string) *Artefact {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return a
}

// demoTrees builds the bundled Go and Python demo repositories, whose
// working trees hold the test declarations the artefacts name.
func demoTrees(t *testing.T) map[string]string {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("builds the demos with git, which the Bazel sandbox does not provide")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	goRepo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "go"))
	if err != nil {
		t.Fatal(err)
	}
	pyRepo, err := demo.BuildPython(ctx, filepath.Join(t.TempDir(), "py"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"go": goRepo.Dir, "py": pyRepo.Dir}
}

// treeFor is the demo tree of an artefact file ("go-…", "py-…").
func treeFor(trees map[string]string, file string) string {
	lang, _, _ := strings.Cut(filepath.Base(file), "-")
	return trees[lang]
}

func goldenExt(format string) string {
	return map[string]string{
		FormatMarkdown: ".md", FormatSARIF: ".sarif", FormatJUnit: ".xml", FormatGitLabCodeQuality: ".codequality.json",
		FormatGitHubAnnotations: ".annotations.txt", FormatText: ".txt",
	}[format]
}

// Every format of every real artefact matches its golden file.
func TestGolden(t *testing.T) {
	trees := demoTrees(t)
	for _, file := range artefactNames(t) {
		a := load(t, file)
		locs := Locate(os.DirFS(treeFor(trees, file)), a)
		for _, format := range Formats() {
			got, err := Render(format, a, Options{Locations: locs, ToolVersion: "test"})
			if err != nil {
				t.Fatalf("%s %s: %v", file, format, err)
			}
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(file), ".json")+goldenExt(format))
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./report -run TestGolden -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s as %s differs from %s (go test ./report -run TestGolden -update; then read the diff):\n%s", file, format, golden, got)
			}
		}
	}
}

// The test declarations are found in the real trees: Go claims by package
// directory, Go regressions by import path through go.mod, pytest node ids
// with parameters by file.
func TestLocate(t *testing.T) {
	trees := demoTrees(t)
	cases := []struct {
		file, id string
		want     Location
	}{
		{"go-block-regression.json", "go:./calc:TestMedian", Location{"calc/median_test.go", 8}},
		{"go-block-regression.json", "example.com/calc/calc.TestClamp", Location{"calc/calc_test.go", 56}},
		{"py-block-regression.json", "pytest:tests/test_stats.py::test_percentile[even]", Location{"tests/test_stats.py", 49}},
		{"py-block-regression.json", "tests/test_stats.py::test_clamp", Location{"tests/test_stats.py", 27}},
	}
	for _, c := range cases {
		file := filepath.Join("testdata", "artefacts", c.file)
		got := Locate(os.DirFS(treeFor(trees, file)), load(t, file))
		if got[c.id] != c.want {
			t.Errorf("%s: %s at %v, want %v (all: %v)", c.file, c.id, got[c.id], c.want, got)
		}
	}
	// A test the tree does not declare has no location, and the findings
	// point at the nearest changed file instead, saying so.
	a := load(t, filepath.Join("testdata", "artefacts", "go-block-regression.json"))
	a.Collateral.Regressions = []string{"example.com/calc/calc.TestGone"}
	locs := Locate(os.DirFS(trees["go"]), a)
	if _, ok := locs["example.com/calc/calc.TestGone"]; ok {
		t.Fatalf("located a test that does not exist: %v", locs)
	}
	f := Findings(a, locs)[0]
	if f.Rule != RuleRegression || !f.Approximate || f.Path != "calc/calc.go" || f.Line != 41 {
		t.Fatalf("unlocated regression: %+v, want SG001 approximate at calc/calc.go:41", f)
	}
}

// The vendored schema is the official SARIF 2.1.0 schema, byte for byte.
const sarifSchemaSHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

func sarifSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		t.Fatalf("testdata/sarif-schema-2.1.0.json has SHA-256 %x, want %s: it is not the official schema", sum, sarifSchemaSHA256)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// ValidateSARIF checks a SARIF log against the official schema and against
// what GitHub code scanning accepts.
func validateSARIF(t testing.TB, sch *jsonschema.Schema, raw []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("SARIF does not validate against the official 2.1.0 schema: %v\n%s", err, raw)
	}
	if len(raw) > 10<<20 {
		t.Fatalf("SARIF of %d bytes: over GitHub's 10 MB", len(raw))
	}
	var log sarifLog
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) > maxSARIFResults {
		t.Fatalf("%d runs; want one run of at most %d results", len(log.Runs), maxSARIFResults)
	}
	ids := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		ids[r.ID] = true
		if r.Help.Text == "" || r.Help.Markdown == "" || r.ShortDescription.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	for _, res := range log.Runs[0].Results {
		if !ids[res.RuleID] {
			t.Errorf("result of unknown rule %q", res.RuleID)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %q has %d locations; GitHub needs one", res.Message.Text, len(res.Locations))
			continue
		}
		pl := res.Locations[0].PhysicalLocation
		u := pl.ArtifactLocation.URI
		if u == "" || strings.HasPrefix(u, "/") || strings.Contains(u, "..") || strings.Contains(u, "://") || pl.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("result location %q (base %q) is not relative to the repository root", u, pl.ArtifactLocation.URIBaseID)
		}
		if pl.Region == nil || pl.Region.StartLine < 1 {
			t.Errorf("result %q has no start line", res.Message.Text)
		}
		if res.PartialFingerprints[FingerprintKey] == "" {
			t.Errorf("result %q has no fingerprint", res.Message.Text)
		}
	}
}

// The SARIF of every real artefact — MERGE, BLOCK (a regression, a refuted
// claim), INCONCLUSIVE (uncovered lines and surviving mutants; harness
// drift) — is valid against the official schema.
func TestSARIFValidAgainstOfficialSchema(t *testing.T) {
	sch := sarifSchema(t)
	var trees map[string]string
	if os.Getenv("TEST_SRCDIR") == "" {
		trees = demoTrees(t) // else every test is shown at its nearest change
	}
	seen := map[string]bool{}
	for _, file := range artefactNames(t) {
		a := load(t, file)
		var locs Locations
		if trees != nil {
			locs = Locate(os.DirFS(treeFor(trees, file)), a)
		}
		raw, err := SARIF(a, Options{Locations: locs, ToolVersion: "test"})
		if err != nil {
			t.Fatal(err)
		}
		validateSARIF(t, sch, raw)
		seen[string(a.Decision)] = true
		for _, f := range Findings(a, nil) {
			seen[f.Rule] = true
		}
	}
	for _, want := range []string{"MERGE", "BLOCK", "INCONCLUSIVE", RuleRegression, RuleRefutedClaim, RuleUnverifiedClaim, RuleUncoveredLine, RuleSurvivingMutant, RuleHarnessDrift, RuleRestoredTest} {
		if !seen[want] {
			t.Errorf("no real artefact shows %s", want)
		}
	}
}

// The validator is real: SARIF that breaks the schema is refused.
func TestSARIFSchemaRefusesInvalid(t *testing.T) {
	sch := sarifSchema(t)
	raw, err := SARIF(load(t, filepath.Join("testdata", "artefacts", "go-inconclusive.json")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(m map[string]any){
		"version 2.0":    func(m map[string]any) { m["version"] = "2.0.0" },
		"no runs":        func(m map[string]any) { delete(m, "runs") },
		"level critical": func(m map[string]any) { result(m)["level"] = "critical" },
		"line 0": func(m map[string]any) {
			loc := result(m)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
			loc["region"].(map[string]any)["startLine"] = 0
		},
		"message without text": func(m map[string]any) { result(m)["message"] = map[string]any{} },
	} {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		v, _ := json.Marshal(m)
		doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(v))
		if sch.Validate(doc) == nil {
			t.Errorf("%s: the schema accepted it", name)
		}
	}
}

func result(m map[string]any) map[string]any {
	return m["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
}

// Every rule is documented in docs/ci.md under its id, with its name.
func TestRulesDocumented(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("under Bazel the docs are outside the package")
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		if !bytes.Contains(doc, []byte("### "+r.ID+" "+r.Name)) {
			t.Errorf("docs/ci.md has no heading %q", "### "+r.ID+" "+r.Name)
		}
	}
}

// A huge artefact's summary stays under GitHub's limit, shortening the
// longest lists and counting what it left out.
func TestMarkdownUnderLimit(t *testing.T) {
	a := load(t, filepath.Join("testdata", "artefacts", "go-inconclusive.json"))
	const n = 200_000
	a.Coverage.Uncovered, a.Strength.Survivors, a.Reasons = nil, nil, nil
	for i := range n {
		a.Coverage.Uncovered = append(a.Coverage.Uncovered, fmt.Sprintf("calc/median.go:%d", i+1))
		a.Strength.Survivors = append(a.Strength.Survivors, fmt.Sprintf("calc/median.go:%d %s", i+1, strings.Repeat("x", 50)))
	}
	for range 5000 {
		a.Reasons = append(a.Reasons, strings.Repeat("a long reason ", 1000))
	}
	a.Reason = strings.Repeat("the decisive reason ", 100_000)
	out := Markdown(a, Options{})
	if len(out) > MaxMarkdownBytes || len(out) > 1<<20 {
		t.Fatalf("summary of %d bytes: over the %d limit", len(out), MaxMarkdownBytes)
	}
	for _, want := range []string{
		"### Diff coverage: 200000 changed line(s) no test executes",
		"more not shown (200000 in all",
		"### Mutation: 200000 surviving mutant(s)",
		"more not shown (5000 in all",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("summary lacks %q", want)
		}
	}
	// The honest twin: the real artefact is shown whole.
	small := Markdown(load(t, filepath.Join("testdata", "artefacts", "go-inconclusive.json")), Options{})
	if bytes.Contains(small, []byte("not shown")) {
		t.Errorf("a small artefact was shortened:\n%s", small)
	}
}

// Text from the artefact cannot inject markup into the summary: no HTML,
// no links, no table breaks, no headings.
func TestMarkdownEscapes(t *testing.T) {
	a := load(t, filepath.Join("testdata", "artefacts", "go-block-refuted.json"))
	evil := "x <img src=x onerror=alert(1)> [click](javascript:alert(1)) | cell\n## heading `code` **bold**"
	a.Reason = evil
	a.Claims[0].Reason = evil
	a.Claims[0].ID = "go:./calc:Test|x"
	a.NextSteps[0].Target = "a`b\nc"
	out := string(Markdown(a, Options{}))
	for _, bad := range []string{"<img", "[click](", "\n## heading", "**bold**"} {
		if strings.Contains(out, bad) {
			t.Errorf("summary holds %q:\n%s", bad, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		// The claims table has seven cells: eight pipes that are not
		// escaped, whatever the claim id holds.
		if strings.Contains(line, "REFUTED") && strings.Count(line, "|")-strings.Count(line, `\|`) != 8 {
			t.Errorf("the claim's row has cells of its own: %q", line)
		}
	}
}

// Workflow commands from the artefact's text cannot start a command of
// their own, and at most ten of each level are emitted.
func TestAnnotations(t *testing.T) {
	a := load(t, filepath.Join("testdata", "artefacts", "go-inconclusive.json"))
	a.Reason = "INCONCLUSIVE: x\n::error::forged\r\n::add-mask::y %0A"
	a.Coverage.Uncovered = nil
	for i := range 25 {
		a.Coverage.Uncovered = append(a.Coverage.Uncovered, fmt.Sprintf("calc/median.go:%d", i+1))
	}
	out := string(Annotations(a, Options{}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	count := map[string]int{}
	for _, l := range lines {
		lvl, _, _ := strings.Cut(strings.TrimPrefix(l, "::"), " ")
		count[lvl]++
		if !strings.HasPrefix(l, "::") {
			t.Errorf("line %q is not a workflow command", l)
		}
	}
	if count["warning"] != maxAnnotationsPerLevel {
		t.Errorf("%d warnings, want %d: %v", count["warning"], maxAnnotationsPerLevel, count)
	}
	if !strings.Contains(lines[0], "%0A::error::forged%0D%0A::add-mask::y %250A") {
		t.Errorf("message not escaped: %q", lines[0])
	}
	if !strings.Contains(out, "(and 25 more warning findings") && !strings.Contains(out, "more warning findings") {
		t.Errorf("the last warning does not count the rest:\n%s", out)
	}
	if !strings.Contains(out, "file=calc/median.go,line=1::") {
		t.Errorf("no located warning:\n%s", out)
	}
}

// The JUnit report is well-formed XML whatever the artefact's text holds,
// and counts what it holds.
func TestJUnit(t *testing.T) {
	a := load(t, filepath.Join("testdata", "artefacts", "go-block-regression.json"))
	a.Reason = "BLOCK: \x00\x01 ]]> </failure><testcase name=\"forged\"/> \ufffe"
	out, err := JUnit(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	if doc.Tests != 4 || doc.Failures != 2 || len(doc.Suites) != 3 {
		t.Fatalf("tests %d failures %d suites %d; want 4, 2 (the decision, TestClamp), 3:\n%s", doc.Tests, doc.Failures, len(doc.Suites), out)
	}
	if bytes.Contains(out, []byte(`name="forged"`)) {
		t.Fatalf("the reason injected a test case:\n%s", out)
	}
}

// The Code Quality report has GitLab's fields on every issue.
func TestCodeQuality(t *testing.T) {
	a := load(t, filepath.Join("testdata", "artefacts", "go-inconclusive.json"))
	out, err := CodeQuality(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var issues []map[string]any
	if err := json.Unmarshal(out, &issues); err != nil {
		t.Fatal(err)
	}
	if len(issues) != len(a.Coverage.Uncovered)+len(a.Strength.Survivors) {
		t.Fatalf("%d issues, want one per uncovered line and survivor", len(issues))
	}
	fps := map[string]bool{}
	for _, is := range issues {
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		if is["description"] == "" || is["check_name"] == nil || loc["path"] == "" || lines["begin"] == nil ||
			!slices.Contains([]any{"info", "minor", "major", "critical", "blocker"}, is["severity"]) {
			t.Errorf("issue lacks a field: %v", is)
		}
		fp, _ := is["fingerprint"].(string)
		if fps[fp] {
			t.Errorf("fingerprint %s twice", fp)
		}
		fps[fp] = true
	}
}

// An empty or broken artefact is an error, never an empty report.
func TestRenderNeedsAnArtefact(t *testing.T) {
	if _, err := Render(FormatSARIF, nil, Options{}); err == nil {
		t.Fatal("rendered no artefact")
	}
	if _, err := Render("html", load(t, filepath.Join("testdata", "artefacts", "go-merge.json")), Options{}); err == nil {
		t.Fatal("rendered an unknown format")
	}
}

// readAll reads a file for the fuzz seeds.
func readAll(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Past GitHub's 5,000 results a run keeps the most important ones and
// counts the rest; the file stays valid and small.
func TestSARIFWithinCodeScanningLimits(t *testing.T) {
	a := load(t, filepath.Join("testdata", "artefacts", "go-block-regression.json"))
	for i := range 6000 {
		a.Coverage.Uncovered = append(a.Coverage.Uncovered, fmt.Sprintf("calc/median.go:%d", i+1))
	}
	raw, err := SARIF(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarifSchema(t), raw)
	var log sarifLog
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != maxSARIFResults || run.Results[0].RuleID != RuleRegression || run.Properties["resultsOmitted"] != float64(1001) {
		t.Fatalf("%d results, first %s, omitted %v; want %d, the regression first, 1001 omitted",
			len(run.Results), run.Results[0].RuleID, run.Properties["resultsOmitted"], maxSARIFResults)
	}
}

// Paths become relative URI references: escaped, never a scheme.
func TestFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"calc/median.go":  "calc/median.go",
		"a:b/c.go":        "./a:b/c.go",
		"my dir/ü #1%.go": "my%20dir/%C3%BC%20%231%25.go",
		"http:/evil/x.go": "./http:/evil/x.go",
	} {
		if got := fileURI(in); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}

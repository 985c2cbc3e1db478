package inspect

import (
	"reflect"
	"slices"
	"testing"
)

func TestEmbedPatterns(t *testing.T) {
	for in, want := range map[string][]string{
		" golden/*.json  static":     {"golden/*.json", "static"},
		"\t\"with space.txt\" `raw`": {"with space.txt", "raw"},
		" all:assets":                {"all:assets"},
		" \"unterminated":            {"\"unterminated"},
		"":                           nil,
	} {
		if got := embedPatterns(in); !reflect.DeepEqual(got, want) {
			t.Errorf("embedPatterns(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDataFindings: embedded and named data files are used by source; a
// golden file only a test reads is test support.
func TestDataFindings(t *testing.T) {
	refs := []SourceRefs{
		GoRefs("web/web.go", []byte("package web\n\nimport \"embed\"\n\n//go:embed templates static/*.css\nvar files embed.FS\n")),
		GoRefs("config/load.go", []byte("package config\n\nfunc load() { _ = \"defaults.json\"; _ = `schemas` }\n// golden.txt is mentioned in a comment only\n")),
		{File: "tool/cli.py", Strings: []string{"'data/table.csv'"}},
	}
	data := []string{
		"web/templates/index.html",   // embedded (a directory pattern)
		"web/static/site.css",        // embedded (a glob)
		"web/static/site.js",         // not matched by static/*.css
		"config/defaults.json",       // named
		"config/defaults.json.bak",   // a longer name is not the name
		"config/schemas/a.json",      // its directory is named
		"calc/testfiles/golden.txt",  // only a comment names it
		"data/table.csv",             // named by Python source
		"other/templates/index.html", // not below web/
	}
	findings, referenced := DataFindings(data, refs)
	if want := []string{"config/defaults.json", "config/schemas/a.json", "data/table.csv", "web/static/site.css", "web/templates/index.html"}; !reflect.DeepEqual(referenced, want) {
		t.Fatalf("referenced %q, want %q", referenced, want)
	}
	wantFindings(t, findings,
		"calc/testfiles/golden.txt: changed data file that no non-test source embeds or names",
		"config/defaults.json: changed data file that non-test source uses: config/load.go names \"defaults.json\"",
		"config/defaults.json.bak: changed data file that no non-test source",
		"config/schemas/a.json: changed data file that non-test source uses: config/load.go names its directory \"schemas\"",
		"data/table.csv: changed data file that non-test source uses: tool/cli.py names",
		"other/templates/index.html: changed data file that no",
		"web/static/site.css: changed data file that non-test source uses: web/web.go embeds it (//go:embed static/*.css)",
		"web/static/site.js: changed data file that no",
		"web/templates/index.html: changed data file that non-test source uses: web/web.go embeds it (//go:embed templates)",
	)
}

// TestEmbeddedTestData: a changed file under testdata that non-test source
// embeds (by name, by a directory, by a glob) is a finding; one only tests
// read, or one another package's source embeds, is not.
func TestEmbeddedTestData(t *testing.T) {
	refs := []SourceRefs{
		{File: "calc/grace.go", Embeds: []string{"testdata/grace.txt"}},
		{File: "calc/rules.go", Embeds: []string{"all:testdata/rules"}},
		{File: "other/o.go", Embeds: []string{"*.txt"}},
		{File: "acl/acl.go", Embeds: []string{"tests"}},
	}
	got := EmbeddedTestData([]string{"acl/tests/deny.txt", "calc/testdata/grace.txt", "calc/testdata/rules/a.json", "calc/testdata/golden.txt", "lib/testdata/x.txt"}, refs)
	var files []string
	for _, f := range got {
		if f.Rule != RuleForeignCode {
			t.Fatalf("rule %q", f.Rule)
		}
		files = append(files, f.File)
	}
	if want := []string{"acl/tests/deny.txt", "calc/testdata/grace.txt", "calc/testdata/rules/a.json"}; !slices.Equal(files, want) {
		t.Fatalf("findings on %q, want %q: %q", files, want, got)
	}
}

package inspect

import (
	"maps"
	"testing"
)

func TestGoIgnoredImported(t *testing.T) {
	files := map[string][]byte{
		"go.mod":                  []byte("module example.com/x\n\ngo 1.22\n"),
		"plist/plist.go":          []byte("package plist\n\nimport \"example.com/x/testdata/sep\"\n\nvar S = sep.List\n"),
		"plist/plist_test.go":     []byte("package plist\n\nimport _ \"example.com/x/testdata/fixture\"\n"),
		"testdata/sep/sep.go":     []byte("package sep\n\nimport \"example.com/x/_inner/deep\"\n\nfunc List() string { return deep.S }\n"),
		"_inner/deep/deep.go":     []byte("package deep\n\nconst S = \":\"\n"),
		"testdata/fixture/f.go":   []byte("package fixture\n"),
		"testdata/unused/u.go":    []byte("package unused\n"),
		"cmd/tool/main.go":        []byte("package main\n\nimport \"example.com/x/plist\"\n\nvar _ = plist.S\n"),
		"vendor/v.example/v/v.go": []byte("package v\n\nimport \"example.com/x/testdata/unused\"\n"),
		// Test support: a package only tests use, a file importing testing.
		"internal/golden/golden.go": []byte("package golden\n\nimport _ \"example.com/x/testdata/unused\"\n"),
		"plist/helper.go":           []byte("package plist\n\nimport (\n\t\"testing\"\n\n\t_ \"example.com/x/testdata/fixture\"\n)\n\nvar _ testing.TB\n"),
	}
	got := GoIgnoredImported(files, []string{"internal/golden"})
	want := map[string]string{
		"testdata/sep": "plist/plist.go",
		"_inner/deep":  "testdata/sep/sep.go",
	}
	if !maps.Equal(got, want) {
		t.Errorf("GoIgnoredImported = %v, want %v (a test's import or a vendored one is no finding)", got, want)
	}
	if got := GoIgnoredImported(map[string][]byte{"go.mod": []byte("module m\n"), "a/a.go": []byte("package a\n\nimport \"m/b\"\n"), "b/b.go": []byte("package b\n")}, nil); len(got) != 0 {
		t.Errorf("a tree importing no ignored directory = %v, want none", got)
	}
}

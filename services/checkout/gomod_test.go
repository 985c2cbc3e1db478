package checkout

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoModulePath(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  string
	}{
		"an import comment at the root": {map[string]string{
			"a.go": "package humanize // import \"github.com/dustin/go-humanize\"\n",
		}, "github.com/dustin/go-humanize"},
		"an import comment below the root": {map[string]string{
			"a.go":          "package a\n",
			"sub/deep/b.go": "package deep /* import \"example.com/m/sub/deep\" */\n",
		}, "example.com/m"},
		"a comment elsewhere is no import comment": {map[string]string{
			"a.go": "// import \"example.com/wrong\"\npackage a\n",
		}, synthesizedModule},
		"a subdirectory importing the root by its implied name": {map[string]string{
			"humanize.go":      "package humanize\n",
			"english/words.go": "package english\n\nimport humanize \"github.com/dustin/go-humanize\"\n\nvar _ = humanize.Ftoa\n",
		}, "github.com/dustin/go-humanize"},
		"an external test importing the package it tests": {map[string]string{
			"semver.go":      "package semver\n",
			"semver_test.go": "package semver_test\n\nimport \"github.com/x/go-semver\"\n",
		}, "github.com/x/go-semver"},
		"a directory importing another": {map[string]string{
			"cmd/tool/main.go":    "package main\n\nimport \"example.com/tool/internal/parse\"\n",
			"internal/parse/p.go": "package parse\n",
		}, "example.com/tool"},
		"a third-party import names nothing": {map[string]string{
			"a.go":      "package a\n\nimport \"github.com/stretchr/testify/assert\"\n",
			"a_test.go": "package a_test\n\nimport \"github.com/pkg/errors\"\n",
		}, synthesizedModule},
		"the standard library names nothing": {map[string]string{
			"a.go": "package a\n\nimport (\n\t\"net/http\"\n\t\"encoding/json\"\n)\n",
		}, synthesizedModule},
		"the most imports win over one dependency": {map[string]string{
			"mux.go":        "package mux\n",
			"mux_test.go":   "package mux_test\n\nimport (\n\t\"github.com/gorilla/mux\"\n\t\"github.com/other/mux\"\n)\n",
			"ext/x_test.go": "package ext\n\nimport mux \"github.com/gorilla/mux\"\n",
			"ext/y.go":      "package ext\n",
		}, "github.com/gorilla/mux"},
		"a file that does not parse is skipped": {map[string]string{
			"a.go": "package humanize // import \"example.com/h\"\n",
			"b.go": "this is not Go",
		}, "example.com/h"},
		"an import comment that is not a path is ignored": {map[string]string{
			"a.go": "package a // import \"not a path!\"\n",
		}, synthesizedModule},
	} {
		files := map[string][]byte{}
		for p, s := range tc.files {
			files[p] = []byte(s)
		}
		if got, why := goModulePath(files); got != tc.want {
			t.Errorf("%s: module %q (%s), want %q", name, got, why, tc.want)
		}
	}
}

func TestAssumedName(t *testing.T) {
	for ip, want := range map[string]string{
		"github.com/dustin/go-humanize":   "humanize",
		"github.com/mattn/go-runewidth":   "runewidth",
		"github.com/x/yaml-go":            "yaml",
		"gopkg.in/yaml.v2":                "yaml",
		"github.com/golang-jwt/jwt/v4":    "jwt",
		"github.com/hashicorp/go-version": "version",
	} {
		if got := assumedName(ip); got != want {
			t.Errorf("assumedName(%q) = %q, want %q", ip, got, want)
		}
	}
}

// FuzzGoModulePath: whatever the files hold, goModulePath returns a module
// path the go command accepts and never panics.
func FuzzGoModulePath(f *testing.F) {
	f.Add("a.go", "package humanize // import \"github.com/dustin/go-humanize\"\n", "english/w.go", "package english\nimport h \"github.com/dustin/go-humanize\"\n")
	f.Add("a.go", "package a /* import \"x\" */", "b/c.go", "package c\nimport . \"e.com/m/b\"\n")
	f.Fuzz(func(t *testing.T, p1, s1, p2, s2 string) {
		mod, why := goModulePath(map[string][]byte{p1: []byte(s1), p2: []byte(s2)})
		if mod == "" || why == "" || strings.ContainsAny(mod, " \n\t\"") {
			t.Fatalf("module %q (%s)", mod, why)
		}
	})
}

// A repository from before Go modules gets the same go.mod in both trees:
// the builds work, and the go.mod is no change of the patch.
func TestPrepareSynthesizesGoMod(t *testing.T) {
	r := newTestRepo(t)
	r.write("humanize.go", "package humanize\n\nfunc Two() int { return 1 }\n")
	r.write("humanize_test.go", "package humanize_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/dustin/go-humanize\"\n)\n\nfunc TestTwo(t *testing.T) {\n\tif humanize.Two() != 2 {\n\t\tt.Fatal(\"not two\")\n\t}\n}\n")
	r.write("testdata/x.go", "package junk // import \"example.com/wrong\"\n")
	base := r.commit("base")
	r.write("humanize.go", "package humanize\n\nfunc Two() int { return 2 }\n")
	patch := r.commit("fix")

	co := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patch})
	if co.GoMod == nil {
		t.Fatal("no go.mod synthesized")
	}
	if co.GoMod.Module != "github.com/dustin/go-humanize" {
		t.Errorf("module %q (%s)", co.GoMod.Module, co.GoMod.Why)
	}
	if co.BaselineCommit != base || co.PatchCommit != patch {
		t.Errorf("commits %s %s, want %s %s", co.BaselineCommit, co.PatchCommit, base, patch)
	}
	for _, ch := range co.Changes {
		if ch.Path == "go.mod" {
			t.Errorf("the synthesized go.mod is a change: %+v", ch)
		}
	}
	for name, tr := range map[string]interface {
		Materialize(context.Context, string) error
	}{"baseline": co.Baseline, "patch": co.Patch} {
		dir := filepath.Join(t.TempDir(), name)
		if err := tr.Materialize(context.Background(), dir); err != nil {
			t.Fatalf("%s: Materialize: %v", name, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil || string(b) != string(co.GoMod.Content) || !strings.Contains(string(b), "\nmodule github.com/dustin/go-humanize\n\ngo 1.16\n") {
			t.Errorf("%s: go.mod %q, %v", name, b, err)
		}
	}
	// Both sides the same, read again: the other services rebuild it.
	again := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patch})
	if again.Baseline.Digest() != co.Baseline.Digest() || again.Patch.Digest() != co.Patch.Digest() {
		t.Error("a second checkout of the same run makes other trees")
	}
}

// A repository with a go.mod anywhere, or a patch that adds one, or no Go
// code at all: nothing is synthesized.
func TestPrepareLeavesGoModAlone(t *testing.T) {
	for name, build := range map[string]func(r *testRepo) (base, patch string){
		"a go.mod below the root": func(r *testRepo) (string, string) {
			r.write("go/go.mod", "module example.com/m\n")
			r.write("go/a.go", "package a\n")
			base := r.commit("base")
			r.write("go/a.go", "package a // fixed\n")
			return base, r.commit("fix")
		},
		"the patch adds a go.mod": func(r *testRepo) (string, string) {
			r.write("a.go", "package a\n")
			base := r.commit("base")
			r.write("go.mod", "module example.com/m\n")
			return base, r.commit("fix")
		},
		"no Go code": func(r *testRepo) (string, string) {
			r.write("a.py", "x = 1\n")
			r.write("testdata/t.go", "package t\n")
			base := r.commit("base")
			r.write("a.py", "x = 2\n")
			return base, r.commit("fix")
		},
	} {
		r := newTestRepo(t)
		base, patch := build(r)
		co := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: patch})
		if co.GoMod != nil {
			t.Errorf("%s: synthesized %q", name, co.GoMod.Content)
		}
	}
}

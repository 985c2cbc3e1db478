package mutant

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// moduleWithDeps is realModule with the module's requirements downloaded
// into the module cache too (the gate has them there before mutation).
func moduleWithDeps(t testing.TB, module string) string {
	t.Helper()
	goBin := goTool(t)
	dir := realModule(t, goBin, module)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("the requirements of %s are not available from the module proxy here: %v %s", module, err, out)
	}
	return dir
}

// exportCache is the build cache the export data is built into: the one
// the other tests of this package build with.
func exportCache() ExportsConfig {
	return ExportsConfig{Cache: filepath.Join(os.TempDir(), "sealgate-test-gocache")}
}

// TestExportDataTypesLikeSource: the standard library and the module's
// dependency (go-multierror imports errwrap) are read from export data,
// the module's own package never is, and the sites and the schemata are
// exactly those of the source importer.
func TestExportDataTypesLikeSource(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and builds real modules")
	}
	dir := moduleWithDeps(t, "github.com/hashicorp/go-multierror@v1.1.1")
	x, err := LoadExports(t.Context(), exportCache(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fmt", "strings", "github.com/hashicorp/errwrap"} {
		if x.files[p] == "" {
			t.Errorf("no export data for %s: %v", p, x.files)
		}
	}
	if f, ok := x.files["github.com/hashicorp/go-multierror"]; ok {
		t.Errorf("the module's own package was compiled outside the sandbox: %s", f)
	}
	src := readDirPackage(t, dir)
	exp := src
	exp.Exports = x
	for _, p := range []Package{src, exp} {
		a, err := analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		if !a.typed() {
			t.Fatalf("the package does not type-check (export data: %v)", p.Exports != nil)
		}
	}
	// The standard library and errwrap came from export data: nothing but
	// the module's own code was type-checked from source.
	a, err := analyze(exp)
	if err != nil {
		t.Fatal(err)
	}
	imp, ok := a.imp.(*exportImporter)
	if !ok {
		t.Fatalf("the analysis imports with %T, not export data", a.imp)
	}
	for dir := range imp.next.pkgs {
		t.Errorf("%s was type-checked from source", dir)
	}
	for _, p := range []string{"fmt", "github.com/hashicorp/errwrap"} {
		if pkg := imp.pkgs[p]; pkg == nil || !pkg.Complete() {
			t.Errorf("%s was not read from export data", p)
		}
	}
	want, err := Inspect(src, allLines(src.Files))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Inspect(exp, allLines(exp.Files))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the survey differs with export data:\n%+v\nfrom source:\n%+v", got, want)
	}
	typed := 0
	for _, s := range got.Sites {
		if s.Operator == OpArithmetic || s.Operator == OpIntConstant {
			typed++
		}
	}
	if typed == 0 {
		t.Fatalf("no typed site among %d: the export data path lost the types", len(got.Sites))
	}
	sites := Select(got.Sites, len(got.Sites), []byte("exports"))
	sw := testSwitch(t, sites)
	wantOut, err := Schemata(src, sites, sw)
	if err != nil {
		t.Fatal(err)
	}
	gotOut, err := Schemata(exp, sites, sw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotOut, wantOut) {
		t.Fatal("the schemata differ with export data")
	}
}

// TestExportDataNeverCompilesThePatch: a dependency the patch replaces by
// a directory of its own tree is the patch's code: it is type-checked from
// source like the main module, never handed to go list -export, while the
// standard library still comes from export data.
func TestExportDataNeverCompilesThePatch(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and builds real modules")
	}
	dir := moduleWithDeps(t, "github.com/hashicorp/go-multierror@v1.1.1")
	local := filepath.Join(dir, "errwrap")
	if err := os.MkdirAll(local, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":     "module github.com/hashicorp/errwrap\n",
		"errwrap.go": "package errwrap\n\nfunc Wrapf(string, error) error { return nil }\n\nfunc Contains(error, string) bool { return false }\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(local, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), append(mod, "\nreplace github.com/hashicorp/errwrap => ./errwrap\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := LoadExports(t.Context(), exportCache(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := x.files["github.com/hashicorp/errwrap"]; ok {
		t.Fatalf("the patch's replacement of a dependency was compiled outside the sandbox: %s", f)
	}
	if x.files["fmt"] == "" {
		t.Fatalf("no export data for fmt: %v", x.files)
	}
	pkg := readDirPackage(t, dir)
	pkg.Exports = x
	a, err := analyze(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if !a.typed() {
		t.Fatal("the package does not type-check with its replaced dependency from source")
	}
	// The honest twin of the same shape is TestExportDataTypesLikeSource:
	// the same dependency from the module cache is read from export data.
}

// BenchmarkTypeCheck measures the planning's type-checking of a real
// package (pflag imports fmt, net, os, strings, ...): from source as
// before, and from export data, LoadExports included, on a warm build
// cache (the first iteration warms it).
func BenchmarkTypeCheck(b *testing.B) {
	dir := moduleWithDeps(b, "github.com/spf13/pflag@v1.0.5")
	pkg := readDirPackage(b, dir)
	lines := allLines(pkg.Files)
	b.Run("source", func(b *testing.B) {
		for b.Loop() {
			if _, err := Inspect(pkg, lines); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("export-data", func(b *testing.B) {
		if _, err := LoadExports(b.Context(), exportCache(), dir); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			x, err := LoadExports(b.Context(), exportCache(), dir)
			if err != nil {
				b.Fatal(err)
			}
			p := pkg
			p.Exports = x
			if _, err := Inspect(p, lines); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package tree

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// goHarness matches Go harness files at any depth, as drift detection will.
func goHarness(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return base == "go.mod" || base == "go.sum" || strings.HasPrefix(base, "go.work") ||
		strings.HasPrefix(p, "vendor/") || strings.Contains(p, "/vendor/")
}

func TestDiffAndSameSubtrees(t *testing.T) {
	r := newTestRepo(t)
	r.write("go.mod", "module m\n", 0o644)
	r.write("go.sum", "x v1 h1:abc\n", 0o644)
	r.write("a.go", "package m\n", 0o644)
	r.write("gone.go", "package m\n", 0o644)
	r.write("run.sh", "#!/bin/sh\n", 0o644)
	r.write("both.sh", "#!/bin/sh\n", 0o644)
	r.write("vendor/x/y.go", "package x\n", 0o644)
	r.write("vendor/modules.txt", "# x\n", 0o644)
	r.write("sub/go.mod", "module sub\n", 0o644)
	r.symlink("a.go", "flip")
	base := listOK(t, r, r.commit("base"))

	r.write("a.go", "package m // changed\n", 0o644)
	r.remove("gone.go")
	r.write("new.go", "package m\n", 0o644)
	if err := os.Chmod(r.dir+"/run.sh", 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("both.sh", "#!/bin/sh\necho\n", 0o755)
	r.write("vendor/x/y.go", "package x // patched\n", 0o644)
	r.write("vendor/z/new.go", "package z\n", 0o644)
	r.write("go.work", "go 1.26\n", 0o644)
	r.remove("sub/go.mod")
	r.remove("flip")
	r.write("flip", "now a file\n", 0o644)
	patch := listOK(t, r, r.commit("patch"))

	want := []Change{
		{Path: "a.go", Kind: Modified},
		{Path: "both.sh", Kind: Modified, ModeChanged: true},
		{Path: "flip", Kind: Modified, ModeChanged: true},
		{Path: "go.work", Kind: Added},
		{Path: "gone.go", Kind: Deleted},
		{Path: "new.go", Kind: Added},
		{Path: "run.sh", Kind: Modified, ModeChanged: true},
		{Path: "sub/go.mod", Kind: Deleted},
		{Path: "vendor/x/y.go", Kind: Modified},
		{Path: "vendor/z/new.go", Kind: Added},
	}
	if got := Diff(base, patch); !reflect.DeepEqual(got, want) {
		t.Fatalf("Diff =\n%+v\nwant\n%+v", got, want)
	}
	wantDrift := []string{"go.work", "sub/go.mod", "vendor/x/y.go", "vendor/z/new.go"}
	if got := SameSubtrees(base, patch, goHarness); !reflect.DeepEqual(got, wantDrift) {
		t.Fatalf("SameSubtrees = %q, want %q", got, wantDrift)
	}
	vendorOnly := func(p string) bool { return strings.HasPrefix(p, "vendor/") }
	if got := SameSubtrees(base, patch, vendorOnly); !reflect.DeepEqual(got, []string{"vendor/x/y.go", "vendor/z/new.go"}) {
		t.Fatalf("vendor drift = %q", got)
	}
	if got := SameSubtrees(base, base, goHarness); got != nil {
		t.Fatalf("same tree drifts: %q", got)
	}
	if got := Diff(patch, patch); got != nil {
		t.Fatalf("Diff of a tree with itself: %+v", got)
	}
	// Reversed: additions become deletions.
	rev := Diff(patch, base)
	if rev[3] != (Change{Path: "go.work", Kind: Deleted}) || len(rev) != len(want) {
		t.Fatalf("reverse Diff = %+v", rev)
	}
	// A nil tree is empty.
	if got := Diff(nil, base); len(got) != len(base.Entries()) || got[0].Kind != Added {
		t.Fatalf("Diff(nil, base) = %+v", got)
	}
}

package tree

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFilesCached: a blob ReadFiles read once is served again without
// git (the repository's objects are gone by then), to every tree made
// from the tree by Overlay too; a blob never read still needs git; and
// what a read returns is the caller's, so changing it changes no later
// read.
func TestReadFilesCached(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t)
	r.write("a.go", "package a\n", 0o644)
	r.write("b.go", "package b\n", 0o644)
	r.write("empty.txt", "", 0o644)
	base := r.commit("base")
	r.write("a.go", "package a // patched\n", 0o644)
	patch := r.commit("patch")
	bt, err := List(ctx, r.dir, base)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := List(ctx, r.dir, patch)
	if err != nil {
		t.Fatal(err)
	}
	first, err := bt.ReadFiles(ctx, []string{"a.go", "empty.txt", "a.go"})
	if err != nil {
		t.Fatal(err)
	}
	if string(first["a.go"]) != "package a\n" || len(first["empty.txt"]) != 0 || len(first) != 2 {
		t.Fatalf("first read = %q", first)
	}
	first["a.go"][0] = 'X'

	// Every object gone: only what the cache holds can still be read.
	objects := filepath.Join(r.dir, ".git", "objects")
	if err := os.Rename(objects, objects+".away"); err != nil {
		t.Fatal(err)
	}
	again, err := bt.ReadFiles(ctx, []string{"empty.txt", "a.go"})
	if err != nil {
		t.Fatalf("a cached read went to git: %v", err)
	}
	if string(again["a.go"]) != "package a\n" || len(again["empty.txt"]) != 0 {
		t.Fatalf("cached read = %q, want the blob as git had it", again)
	}
	if _, err := bt.ReadFiles(ctx, []string{"a.go", "b.go"}); err == nil {
		t.Fatal("b.go was never read, yet it was read without its object")
	}
	over, err := pt.Overlay(bt, []string{"a.go"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := over.ReadFiles(ctx, []string{"a.go"}); err == nil {
		t.Fatal("the overlay read the baseline's a.go from the patch tree's cache, which never held it")
	}
	if err := os.Rename(objects+".away", objects); err != nil {
		t.Fatal(err)
	}
	if _, err := over.ReadFiles(ctx, []string{"a.go"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(objects, objects+".away"); err != nil {
		t.Fatal(err)
	}
	over2, err := pt.Overlay(bt, []string{"a.go"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := over2.ReadFiles(ctx, []string{"a.go"})
	if err != nil || string(got["a.go"]) != "package a\n" {
		t.Fatalf("two overlays of one tree do not share its cache: %q, %v", got, err)
	}
}

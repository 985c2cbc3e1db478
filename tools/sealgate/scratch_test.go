package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Two serve processes on one state get scratch directories of their own;
// neither removes the other's while it lives; a gone process's (its lock
// free, a sandbox's read-only directory inside) is removed by the next to
// start; release removes a process's own.
func TestProcessScratch(t *testing.T) {
	root := filepath.Join(t.TempDir(), "work")
	a, releaseA, err := processScratch(root)
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(root, procPrefix+"gone")
	if err := os.MkdirAll(filepath.Join(gone, "run-x", "ro"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gone, ".lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(gone, "run-x", "ro"), 0o500); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(root, "suite-answers")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	b, releaseB, err := processScratch(root)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseB()
	if a == b {
		t.Fatalf("two processes share scratch %s", a)
	}
	for _, d := range []string{a, b, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s: %v (a live process's scratch, or no process's, was removed)", d, err)
		}
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("a gone process's scratch is still there: %v", err)
	}
	releaseA()
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("released scratch %s is still there: %v", a, err)
	}
}

// Processes starting at once (the quick start starts its replicas
// together) never sweep each other's new scratch away.
func TestProcessScratchStartingTogether(t *testing.T) {
	root := filepath.Join(t.TempDir(), "work")
	const n = 16
	dirs := make([]string, n)
	errs := make([]error, n)
	releases := make([]func(), n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dirs[i], releases[i], errs[i] = processScratch(root) })
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("process %d: %v", i, errs[i])
		}
		defer releases[i]()
		if seen[dirs[i]] {
			t.Fatalf("scratch %s handed out twice", dirs[i])
		}
		seen[dirs[i]] = true
		if _, err := os.Stat(dirs[i]); err != nil {
			t.Errorf("process %d's scratch was swept: %v", i, err)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
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

package mutant

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHostGoRoot: a binary built with -trimpath has no GOROOT of its own
// (go/build's default is empty); the go command's is used then, and the
// standard library is found in it. A known GOROOT is kept.
func TestHostGoRoot(t *testing.T) {
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("asks the go command, which the Bazel sandbox does not provide")
	}
	root := hostGoRoot("")
	if root == "" {
		t.Fatal("no GOROOT from the go command")
	}
	if _, err := os.Stat(filepath.Join(root, "src", "fmt", "print.go")); err != nil {
		t.Fatalf("GOROOT %s holds no standard library: %v", root, err)
	}
	if got := hostGoRoot("/some/goroot"); got != "/some/goroot" {
		t.Fatalf("a known GOROOT was replaced by %s", got)
	}
}

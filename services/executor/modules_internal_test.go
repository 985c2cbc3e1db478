package executor

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRequiresNothing: only a go.mod that parses and requires nothing, with
// no go.work at or above it in the tree, skips go mod download.
func TestRequiresNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		mod   string
		want  bool
	}{
		{"no requirement", map[string]string{"go.mod": "module m\n\ngo 1.22\n"}, ".", true},
		{"no go line", map[string]string{"go.mod": "module m\n"}, ".", true},
		{"a requirement", map[string]string{"go.mod": "module m\n\ngo 1.22\n\nrequire example.com/x v1.0.0\n"}, ".", false},
		{"a toolchain line", map[string]string{"go.mod": "module m\n\ngo 1.22\n\ntoolchain go1.23.0\n"}, ".", false},
		{"does not parse", map[string]string{"go.mod": "module m\n\nrequire (\n"}, ".", false},
		{"no go.mod", map[string]string{"x.go": "package x\n"}, ".", false},
		{"go.work beside it", map[string]string{"go.mod": "module m\n", "go.work": "go 1.22\n\nuse .\n"}, ".", false},
		{"go.work above it", map[string]string{"sub/go.mod": "module m\n", "go.work": "go 1.22\n\nuse ./sub\n"}, "sub", false},
		{"nested module", map[string]string{"sub/go.mod": "module m\n", "go.mod": "module root\n\nrequire example.com/x v1.0.0\n"}, "sub", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for name, data := range c.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := requiresNothing(root, filepath.Join(root, c.mod)); got != c.want {
				t.Fatalf("requiresNothing = %v, want %v", got, c.want)
			}
		})
	}
}

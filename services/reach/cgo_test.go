package reach

import (
	"testing"

	"github.com/sealgate/sealgate/services/reach/cover"
)

// TestCgoLines: changed lines of a cgo preamble are C, counted apart from
// the comments and blank lines coverage excludes.
func TestCgoLines(t *testing.T) {
	src := []byte("package calc\n\n// A comment.\n\n/*\nint two(void) {\n\treturn 2;\n}\n*/\nimport \"C\"\n\nfunc Two() int { return int(C.two()) }\n")
	files := []cover.File{{Path: "calc/two.go", Src: src}, {Path: "calc/other.go", Src: []byte("package calc\n")}}
	excluded := []cover.Line{{Path: "calc/two.go", Line: 3}, {Path: "calc/two.go", Line: 4}, {Path: "calc/two.go", Line: 6}, {Path: "calc/two.go", Line: 7},
		{Path: "calc/other.go", Line: 6}, {Path: "calc/py.py", Line: 7}}
	if got := cgoLines(files, excluded); got != 2 {
		t.Fatalf("cgoLines = %d, want 2 (lines 6 and 7 of calc/two.go)", got)
	}
}

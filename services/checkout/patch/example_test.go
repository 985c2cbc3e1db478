package patch_test

import (
	"errors"
	"fmt"

	"github.com/sealgate/sealgate/services/checkout/patch"
)

func ExampleParse() {
	p, err := patch.Parse([]byte(`diff --git a/calc.go b/calc.go
index 83db48f..bf269f4 100644
--- a/calc.go
+++ b/calc.go
@@ -3,3 +3,4 @@ package calc
 func Add(a, b int) int {
-	return a - b
+	// Fixed: was a subtraction.
+	return a + b
 }
diff --git a/logo.png b/logo.png
index 1111111..2222222 100644
Binary files a/logo.png and b/logo.png differ
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range p.Files {
		fmt.Println(f.Path(), f.Op, "binary:", f.Binary, "added:", f.AddedLines(), "removed:", f.RemovedLines())
	}
	// Output:
	// calc.go modified binary: false added: [4 5] removed: [4]
	// logo.png modified binary: true added: [] removed: []
}

func ExampleParse_refusal() {
	_, err := patch.Parse([]byte(`--- a/calc.go
+++ b/calc.go
@@ -3,3 +3,3 @@
 func Add(a, b int) int {
-	return a - b
+	return a + b
`))
	fmt.Println(err)
	fmt.Println(errors.Is(err, patch.ErrTruncated))
	// Output:
	// patch: line 6: truncated patch: input ends inside the hunk at line 3: 1 old and 1 new lines missing
	// true
}

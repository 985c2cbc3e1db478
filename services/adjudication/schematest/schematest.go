// Package schematest checks JSON against the artefact's JSON Schema,
// docs/artefact.schema.json, for the tests of the packages that write
// (parts of) the artefact.
package schematest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validate checks raw against the schema, or against the part of it at
// pointer (a JSON pointer such as "/properties/seal"; "" is the whole
// artefact). Under Bazel, where the schema file is outside the test's
// package, it checks nothing.
func Validate(t testing.TB, raw []byte, pointer string) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		return
	}
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("schematest: cannot find the schema file")
	}
	f, err := os.Open(filepath.Join(filepath.Dir(self), "..", "..", "..", "docs", "artefact.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("artefact.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("artefact.schema.json#" + pointer)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("does not match the artefact schema at %q: %v\n%s", pointer, err, raw)
	}
}

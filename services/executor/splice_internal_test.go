package executor

import (
	"slices"
	"strings"
	"testing"
)

// TestParseSpliceEntry: every form of a jobs.Spec.Splice entry reads as the
// planner writes it.
func TestParseSpliceEntry(t *testing.T) {
	for _, c := range []struct {
		entry                           string
		register, wrap, beside, replace []string
		alone                           string
	}{
		{entry: "a_test.go"},
		{entry: "a_test.go#TestX", replace: []string{"TestX"}},
		{entry: "a_test.go#=TestX", alone: "TestX"},
		{entry: "a_test.go#+TestA,TestB", beside: []string{"TestA", "TestB"}},
		{entry: "a_test.go#*S,T", register: []string{"S", "T"}},
		{entry: "a_test.go#*S+TestA", register: []string{"S"}, beside: []string{"TestA"}},
		{entry: "a_test.go#~S,T", wrap: []string{"S", "T"}},
		{entry: "a_test.go#~S:TestS", wrap: []string{"S"}, replace: []string{"TestS"}},
		{entry: "a_test.go#~S+TestS,TestX", wrap: []string{"S"}, beside: []string{"TestS", "TestX"}},
		{entry: "a_test.go#*C~S+TestS", register: []string{"C"}, wrap: []string{"S"}, beside: []string{"TestS"}},
	} {
		e := parseSpliceEntry(c.entry)
		if e.file != "a_test.go" || !slices.Equal(e.Register, c.register) || !slices.Equal(e.Wrap, c.wrap) ||
			!slices.Equal(e.Beside, c.beside) || !slices.Equal(e.Replace, c.replace) || e.alone != c.alone {
			t.Errorf("%s: read as %+v", c.entry, e)
		}
	}
}

// FuzzParseSpliceEntry: splice entries come in job specs off the ledger;
// any string reads without a panic, as a file and what is laid over it.
func FuzzParseSpliceEntry(f *testing.F) {
	for _, s := range []string{"a_test.go", "a_test.go#~S:TestS", "a#*C~S+T", "#", "a#~", "a#*~+", "a#:=+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := parseSpliceEntry(s)
		if file, _, _ := strings.Cut(s, "#"); e.file != file {
			t.Fatalf("%q: file %q", s, e.file)
		}
	})
}

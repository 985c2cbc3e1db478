package executor

import (
	"maps"
	"testing"
)

// TestVetFindings: vet's findings are compared without their position
// (lines move with the patch), counted, and the go command's other lines
// (package headers, telemetry noise) are no finding.
func TestVetFindings(t *testing.T) {
	out := "# example.com/calc/calc\n# [example.com/calc/calc]\n" +
		"calc/calc_test.go:17:24: (*testing.common).Errorf format %d has arg got of wrong type float64\n" +
		"calc/calc_test.go:30:2: (*testing.common).Errorf format %d has arg got of wrong type float64\n" +
		"vet: calc/median.go:1:1: //go:debug directive only valid in package main or test\n" +
		"failed to start telemetry sidecar: os.Executable: readlink /proc/self/exe: no such file or directory\n" +
		"a path with spaces/x.go:1:1: not a finding\n"
	want := map[string]int{
		"calc/calc_test.go: (*testing.common).Errorf format %d has arg got of wrong type float64": 2,
		"calc/median.go: //go:debug directive only valid in package main or test":                 1,
	}
	if got := vetFindings(out); !maps.Equal(got, want) {
		t.Fatalf("vetFindings = %v, want %v", got, want)
	}
}

// FuzzVetFindings: vet's output is the sandboxed go command's, whatever a
// patch makes it print: no input panics, and every finding counted names
// a Go file.
func FuzzVetFindings(f *testing.F) {
	f.Add("calc/calc_test.go:17:24: Errorf format %d has arg got of wrong type float64\n")
	f.Add("vet: x.go:1:1: y\n\n.go:: \n")
	f.Fuzz(func(t *testing.T, out string) {
		for k, n := range vetFindings(out) {
			if n <= 0 || len(k) < len(".go: ") {
				t.Fatalf("finding %q counted %d", k, n)
			}
		}
	})
}

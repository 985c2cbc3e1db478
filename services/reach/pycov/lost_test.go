package pycov

import (
	"reflect"
	"testing"

	"github.com/sealgate/sealgate/services/reach/cover"
)

// TestLost: a line the baseline ran that the patch keeps, moves and no
// longer runs is lost; a line still run, a line the patch changed, a line
// that ran on neither side and a file a report does not name are not.
func TestLost(t *testing.T) {
	base := &Report{Files: map[string]*File{
		"pkg/stats.py": {Executed: []int{1, 2, 3, 4, 5}, Missing: []int{6}},
		"pkg/gone.py":  {Executed: []int{1}},
	}}
	patch := &Report{Files: map[string]*File{
		// Two lines were inserted after line 1: baseline line n > 1 is
		// patch line n + 2.
		"pkg/stats.py": {Executed: []int{1, 2, 3, 4}, Missing: []int{5, 6, 7, 8}},
	}}
	kept := func(bl int) (int, bool) {
		switch {
		case bl == 1:
			return 1, true
		case bl == 3:
			return 0, false // changed
		}
		return bl + 2, true
	}
	files := []KeptFile{{Path: "pkg/stats.py", BasePath: "pkg/stats.py", Kept: kept}, {Path: "pkg/gone.py", BasePath: "pkg/gone.py", Kept: kept}}
	got := Lost(files, base, patch)
	want := []cover.Line{{Path: "pkg/stats.py", Line: 6}, {Path: "pkg/stats.py", Line: 7}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Lost = %v, want %v", got, want)
	}
	if Lost(files, nil, patch) != nil || Lost(files, base, nil) != nil {
		t.Fatal("Lost without a report judged something")
	}
}

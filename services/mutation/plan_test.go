package mutation

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
)

func TestKillsNeeded(t *testing.T) {
	for _, tt := range []struct {
		floor, confidence float64
		want              int
	}{
		{0.75, 0.80, 5}, // the README: 5/5 passes, 4/4 does not
		{0, 0.80, 0},
		{1, 0.80, -1},
		{0.5, 0.80, 2},
	} {
		if got := killsNeeded(tt.floor, tt.confidence); got != tt.want {
			t.Errorf("killsNeeded(%v, %v) = %d, want %d", tt.floor, tt.confidence, got, tt.want)
		}
	}
}

// TestGoLines checks which lines the handler inspects: every changed line
// of changed Go source, the covered ones, and the changed data files below
// a package that embeds.
func TestGoLines(t *testing.T) {
	root := t.TempDir()
	for name, src := range map[string]string{
		"a/a.go":         "package a\n\n//go:embed data/x.txt\nvar x string\n",
		"a/data/x.txt":   "1\n2\n",
		"b/b.go":         "package b\n",
		"b/notes.txt":    "n\n",
		"a/data/sub.txt": "s\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changes := []checkout.Change{
		{Path: "a/a.go", Kind: checkout.Modified, Class: checkout.ClassSource, ChangedLines: []int{3, 4}},
		{Path: "a/data/x.txt", Kind: checkout.Modified, Class: checkout.ClassOther, ChangedLines: []int{2}},
		{Path: "b/notes.txt", Kind: checkout.Modified, Class: checkout.ClassOther, ChangedLines: []int{1}},
		{Path: "b/b_test.go", Kind: checkout.Modified, Class: checkout.ClassTest, ChangedLines: []int{1}},
		{Path: "c/gone.go", Kind: checkout.Deleted, Class: checkout.ClassSource},
	}
	reaching := map[string]map[int][]string{"b/b.go": {1: {"b.TestB"}}, "x.py": {1: {"t"}}}
	got := goLines(root, changes, reaching)
	want := map[string]map[string][]int{
		"a": {"a.go": {3, 4}, "data/x.txt": {2}},
		"b": {"b.go": {1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("goLines = %v, want %v", got, want)
	}
}

// TestUnwitnessed: a changed data line counts as judged only when a mutant
// of it was killed and none survived (a weak test that kills one change
// of a row, finding it, does not pin what the row says); survivors,
// stillborn or unjudged mutants, or none run at all, leave it unwitnessed.
func TestUnwitnessed(t *testing.T) {
	lines := []lineRef{{"calc/allow.txt", 3}, {"calc/roles.go", 5}, {"calc/roles.go", 6}, {"calc/roles.go", 7}, {"calc/units.txt", 1}}
	mutants := []*pb.Mutant{
		{At: &pb.LineRef{Path: "calc/allow.txt", Line: 3}, Status: "survived"},
		{At: &pb.LineRef{Path: "calc/roles.go", Line: 5}, Status: "survived"},
		{At: &pb.LineRef{Path: "calc/roles.go", Line: 5}, Status: "killed"},
		{At: &pb.LineRef{Path: "calc/roles.go", Line: 6}, Status: "unjudged"},
		{At: &pb.LineRef{Path: "calc/roles.go", Line: 7}, Status: "killed"},
		{At: &pb.LineRef{Path: "calc/roles.go", Line: 7}, Status: "stillborn"},
		{At: &pb.LineRef{Path: "calc/median.go", Line: 9}, Status: "killed"},
		{Status: "killed"},
	}
	var got []string
	for _, l := range unwitnessed(lines, mutants, nil) {
		got = append(got, fmt.Sprintf("%s:%d", l.Path, l.Line))
	}
	if want := []string{"calc/allow.txt:3", "calc/roles.go:5", "calc/roles.go:6", "calc/units.txt:1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unwitnessed = %q, want %q", got, want)
	}

	// The //go:embed variable's lines are witnessed by a kill on a line
	// of the file it embeds, and only by a kill.
	lines = []lineRef{{"calc/units.go", 8}, {"calc/units.go", 9}, {"calc/units.txt", 2}, {"calc/words.go", 4}}
	judges := map[lineRef][]lineRef{
		{"calc/units.txt", 2}: {{"calc/units.go", 8}, {"calc/units.go", 9}},
		{"calc/words.txt", 1}: {{"calc/words.go", 4}},
	}
	mutants = []*pb.Mutant{
		{At: &pb.LineRef{Path: "calc/units.txt", Line: 2}, Status: "killed"},
		{At: &pb.LineRef{Path: "calc/words.txt", Line: 1}, Status: "survived"},
	}
	got = nil
	for _, l := range unwitnessed(lines, mutants, judges) {
		got = append(got, fmt.Sprintf("%s:%d", l.Path, l.Line))
	}
	if want := []string{"calc/words.go:4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unwitnessed with an embed = %q, want %q", got, want)
	}
}

// TestUnpinned: a value the patch wrote is pinned only by a kill of a
// mutant inside it and no survivor there; stillborn, unjudged or
// unselected mutants pin nothing.
func TestUnpinned(t *testing.T) {
	values := []judgedValue{
		{text: "killed", sites: []string{"a", "b"}},
		{text: "one survives", sites: []string{"c", "d"}},
		{text: "stillborn", sites: []string{"e"}},
		{text: "not selected", sites: []string{"f"}},
		{text: "killed and unjudged", sites: []string{"g", "h"}},
	}
	outcomes := map[string]string{"a": "KILLED", "b": "KILLED", "c": "KILLED", "d": "SURVIVED", "e": "STILLBORN", "g": "KILLED", "h": "UNJUDGED"}
	var got []string
	for _, v := range unpinned(values, outcomes) {
		got = append(got, v.text)
	}
	if want := []string{"one survives", "stillborn", "not selected"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unpinned = %q, want %q", got, want)
	}
}

// TestOnceEach: a line named by several changed statements (uniseg's
// grapheme.go:262, three times) is named once, in first order.
func TestOnceEach(t *testing.T) {
	got := onceEach([]*pb.LineRef{{Path: "a.go", Line: 262}, {Path: "b.go", Line: 159}, {Path: "a.go", Line: 262}, {Path: "a.go", Line: 263}, {Path: "b.go", Line: 159}})
	var names []string
	for _, l := range got {
		names = append(names, fmt.Sprintf("%s:%d", l.Path, l.Line))
	}
	if want := []string{"a.go:262", "b.go:159", "a.go:263"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("onceEach = %v, want %v", names, want)
	}
}

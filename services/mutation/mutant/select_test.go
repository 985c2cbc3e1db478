package mutant

import (
	"fmt"
	"slices"
	"testing"
)

// grid makes sites on lines 1..lines of each file, perLine sites a line.
func grid(files []string, lines, perLine int) []Site {
	var out []Site
	for _, f := range files {
		for l := 1; l <= lines; l++ {
			for c := 1; c <= perLine; c++ {
				out = append(out, Site{File: f, Line: l, Col: c, Operator: OpRelationalBoundary, Description: "< → <="})
			}
		}
	}
	return out
}

func TestSelectDeterministic(t *testing.T) {
	sites := grid([]string{"a.go", "b.go", "c.go"}, 4, 3)
	first := Select(sites, 20, []byte("seed"))
	// The input order does not matter.
	shuffled := slices.Clone(sites)
	slices.Reverse(shuffled)
	if again := Select(shuffled, 20, []byte("seed")); !slices.Equal(first, again) {
		t.Errorf("Select differs between runs with the same seed:\n%v\n%v", first, again)
	}
	if len(first) != 20 {
		t.Fatalf("Select picked %d sites, want 20", len(first))
	}
	for i, s := range first {
		if s.ID != i+1 {
			t.Errorf("site %d has ID %d, want %d", i, s.ID, i+1)
		}
	}
	if sites[0].ID != 0 {
		t.Errorf("Select changed its input")
	}
}

func TestSelectOneLineFirstRoundRobin(t *testing.T) {
	// a.go has 4 lines, b.go 2, c.go 1; every line has 3 sites.
	var sites []Site
	sites = append(sites, grid([]string{"a.go"}, 4, 3)...)
	sites = append(sites, grid([]string{"b.go"}, 2, 3)...)
	sites = append(sites, grid([]string{"c.go"}, 1, 3)...)
	for _, seed := range []string{"", "x", "baseline+patch"} {
		got := Select(sites, len(sites)+5, []byte(seed))
		if len(got) != len(sites) {
			t.Fatalf("seed %q: picked %d of %d sites", seed, len(got), len(sites))
		}
		// The first 7 picks cover the 7 lines, one each.
		lines := make(map[string]bool)
		for _, s := range got[:7] {
			key := fmt.Sprintf("%s:%d", s.File, s.Line)
			if lines[key] {
				t.Errorf("seed %q: line %s picked twice among the first 7", seed, key)
			}
			lines[key] = true
		}
		// Round-robin: the first three picks come from three files, and
		// the next from a.go and b.go before a.go's third line.
		files := []string{got[0].File, got[1].File, got[2].File}
		slices.Sort(files)
		if !slices.Equal(files, []string{"a.go", "b.go", "c.go"}) {
			t.Errorf("seed %q: first three picks from %q, want one per file", seed, files)
		}
		rest := []string{got[3].File, got[4].File}
		slices.Sort(rest)
		if !slices.Equal(rest, []string{"a.go", "b.go"}) {
			t.Errorf("seed %q: picks 4 and 5 from %q, want a.go and b.go", seed, rest)
		}
		// Every site appears once.
		seen := make(map[siteKey]bool)
		for _, s := range got {
			if seen[keyOf(s)] {
				t.Errorf("seed %q: %v picked twice", seed, s)
			}
			seen[keyOf(s)] = true
		}
	}
}

func TestSelectSeeds(t *testing.T) {
	sites := grid([]string{"a.go", "b.go"}, 5, 2)
	a := Select(sites, 6, []byte("one"))
	b := Select(sites, 6, []byte("two"))
	if slices.Equal(a, b) {
		t.Errorf("seeds one and two give the same order: %v", a)
	}
	// Without a choice, every seed gives the same selection.
	single := grid([]string{"a.go"}, 1, 1)
	if x, y := Select(single, 3, []byte("one")), Select(single, 3, []byte("two")); !slices.Equal(x, y) || len(x) != 1 {
		t.Errorf("one site: %v and %v", x, y)
	}
}

func TestSelectLimit(t *testing.T) {
	sites := grid([]string{"a.go", "b.go"}, 3, 2)
	for _, limit := range []int{-1, 0} {
		if got := Select(sites, limit, nil); len(got) != 0 {
			t.Errorf("Select(limit %d) = %v, want nothing", limit, got)
		}
	}
	for _, limit := range []int{1, 5, 12, 100} {
		if got := Select(sites, limit, nil); len(got) != min(limit, len(sites)) {
			t.Errorf("Select(limit %d) picked %d", limit, len(got))
		}
	}
	if got := Select(nil, 5, nil); len(got) != 0 {
		t.Errorf("Select(nil) = %v", got)
	}
	// Duplicates are picked once.
	dup := append(grid([]string{"a.go"}, 1, 1), grid([]string{"a.go"}, 1, 1)...)
	if got := Select(dup, 5, nil); len(got) != 1 {
		t.Errorf("Select of a duplicated site = %v", got)
	}
}

func TestSelectFirst(t *testing.T) {
	// 36 sites on 12 lines and a limit of 5: the three that must run
	// (the third site of three lines, which round-robin picks last) are
	// picked first, then Select's order of the rest; IDs run 1..5.
	sites := grid([]string{"a.go", "b.go", "c.go"}, 4, 3)
	must := []Site{sites[2], sites[17], sites[35]}
	got := SelectFirst(must, sites, 5, []byte("seed"))
	if len(got) != 5 {
		t.Fatalf("SelectFirst picked %d sites, want 5", len(got))
	}
	for i, s := range got {
		if s.ID != i+1 {
			t.Errorf("site %d has ID %d, want %d", i, s.ID, i+1)
		}
	}
	for _, m := range must {
		if !slices.ContainsFunc(got[:3], func(s Site) bool { return keyOf(s) == keyOf(m) }) {
			t.Errorf("site %v that must run is not among the first three: %v", m, got)
		}
	}
	for _, s := range got[3:] {
		if slices.ContainsFunc(must, func(m Site) bool { return keyOf(s) == keyOf(m) }) {
			t.Errorf("site %v picked twice", s)
		}
	}
	// Without sites that must run, it is Select; an equivalent one is
	// never picked; a limit below the count keeps the first.
	if a, b := SelectFirst(nil, sites, 7, []byte("x")), Select(sites, 7, []byte("x")); !slices.Equal(a, b) {
		t.Errorf("SelectFirst(nil) = %v, Select = %v", a, b)
	}
	eq := sites[5]
	eq.Equivalent = "the same program"
	if got := SelectFirst([]Site{eq}, []Site{eq}, 3, nil); len(got) != 0 {
		t.Errorf("an equivalent site was picked: %v", got)
	}
	if got := SelectFirst(must, sites, 2, nil); len(got) != 2 || !slices.ContainsFunc(must, func(m Site) bool { return keyOf(m) == keyOf(got[1]) }) {
		t.Errorf("limit 2: %v", got)
	}
}

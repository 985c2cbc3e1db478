package authority

import (
	"math"
	"testing"
)

func TestPoolConservation(t *testing.T) {
	p := NewPool(map[string]uint64{"test_runs": 10, "mutants": 3})
	if err := p.Reserve([]Request{{"a", "test_runs", 4}, {"b", "test_runs", 4}, {"m", "mutants", 3}}); err != nil {
		t.Fatal(err)
	}
	// All or nothing: the second request does not fit, so neither is made.
	if err := p.Reserve([]Request{{"c", "test_runs", 1}, {"d", "test_runs", 2}}); err == nil {
		t.Fatal("plan over budget accepted")
	}
	if len(p.Allocations()) != 3 {
		t.Fatal("a refused plan spent budget")
	}
	if err := p.Consume("a", 3); err != nil {
		t.Fatal(err)
	}
	if err := p.Consume("a", 1); err == nil {
		t.Fatal("an allocation was settled twice")
	}
	if err := p.Consume("b", 5); err == nil {
		t.Fatal("consumed more than reserved")
	}
	p.ReleaseOpen()
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	want := map[string]Allocation{
		"a": {ID: "a", Dimension: "test_runs", Max: 4, Consumed: 3, Released: 1},
		"b": {ID: "b", Dimension: "test_runs", Max: 4, Released: 4},
		"m": {ID: "m", Dimension: "mutants", Max: 3, Released: 3},
	}
	for _, a := range p.Allocations() {
		if a != want[a.ID] {
			t.Errorf("allocation %+v, want %+v", a, want[a.ID])
		}
	}
}

func TestPoolRefusesOverflowAndStrangers(t *testing.T) {
	p := NewPool(map[string]uint64{"test_runs": math.MaxUint64})
	for name, reqs := range map[string][]Request{
		"overflow":          {{"a", "test_runs", math.MaxUint64}, {"b", "test_runs", 2}},
		"unknown dimension": {{"a", "gpu_hours", 1}},
		"zero units":        {{"a", "test_runs", 0}},
		"duplicate id":      {{"a", "test_runs", 1}, {"a", "test_runs", 1}},
	} {
		if err := p.Reserve(reqs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFindsBrokenConservation(t *testing.T) {
	p := NewPool(map[string]uint64{"test_runs": 5})
	if err := p.Reserve([]Request{{"a", "test_runs", 5}}); err != nil {
		t.Fatal(err)
	}
	p.allocs["a"].Consumed = 1 // reserved 5 + consumed 1 != max 5
	if err := p.Check(); err == nil {
		t.Fatal("broken conservation not found")
	}
}

package authority

import (
	"fmt"
	"math/bits"
	"slices"
)

// Allocation is the budget reserved for one continuation token. Its units
// are conserved: Reserved + Active + Consumed + Released == Max, always.
type Allocation struct {
	ID        string
	Dimension string
	Max       uint64
	Reserved  uint64
	Active    uint64
	Consumed  uint64
	Released  uint64
}

// Pool is a run's compute budget: per dimension, the units the criteria
// allow, and the allocations made from them.
type Pool struct {
	total     map[string]uint64
	allocated map[string]uint64
	allocs    map[string]*Allocation
	order     []string
}

// NewPool returns a pool with the given totals per dimension.
func NewPool(total map[string]uint64) *Pool {
	t := make(map[string]uint64, len(total))
	for k, v := range total {
		t[k] = v
	}
	return &Pool{total: t, allocated: map[string]uint64{}, allocs: map[string]*Allocation{}}
}

// Request asks for units of one dimension for one token.
type Request struct {
	ID        string
	Dimension string
	Units     uint64
}

// CheckReserve reports whether every request fits, all together, without
// changing the pool: a plan over budget is refused before it spends.
func (p *Pool) CheckReserve(reqs []Request) error {
	need := map[string]uint64{}
	seen := map[string]bool{}
	for _, r := range reqs {
		if r.ID == "" || seen[r.ID] || p.allocs[r.ID] != nil {
			return fmt.Errorf("allocation %q is empty or not unique", r.ID)
		}
		seen[r.ID] = true
		if r.Units == 0 {
			return fmt.Errorf("allocation %q reserves no units", r.ID)
		}
		if _, ok := p.total[r.Dimension]; !ok {
			return fmt.Errorf("allocation %q: dimension %q is not in the budget", r.ID, r.Dimension)
		}
		sum, carry := bits.Add64(need[r.Dimension], r.Units, 0)
		if carry != 0 {
			return fmt.Errorf("allocation %q: units overflow", r.ID)
		}
		need[r.Dimension] = sum
	}
	for dim, n := range need {
		used := p.allocated[dim]
		sum, carry := bits.Add64(used, n, 0)
		if carry != 0 || sum > p.total[dim] {
			return fmt.Errorf("%s: %d allocated + %d requested exceeds the pool of %d", dim, used, n, p.total[dim])
		}
	}
	return nil
}

// Reserve allocates every request or none.
func (p *Pool) Reserve(reqs []Request) error {
	if err := p.CheckReserve(reqs); err != nil {
		return err
	}
	for _, r := range reqs {
		p.allocs[r.ID] = &Allocation{ID: r.ID, Dimension: r.Dimension, Max: r.Units, Reserved: r.Units}
		p.allocated[r.Dimension] += r.Units // CheckReserve ruled out overflow
		p.order = append(p.order, r.ID)
	}
	return nil
}

// CheckConsume reports whether allocation id can be consumed with used units.
func (p *Pool) CheckConsume(id string, used uint64) error {
	a := p.allocs[id]
	switch {
	case a == nil:
		return fmt.Errorf("allocation %q does not exist", id)
	case a.Consumed+a.Released != 0:
		return fmt.Errorf("allocation %q is already settled", id)
	case used > a.Max:
		return fmt.Errorf("allocation %q: %d units used of %d reserved", id, used, a.Max)
	}
	return nil
}

// Consume settles allocation id at fan-in: used units are consumed, the rest
// released.
func (p *Pool) Consume(id string, used uint64) error {
	if err := p.CheckConsume(id, used); err != nil {
		return err
	}
	a := p.allocs[id]
	a.Reserved, a.Active, a.Consumed, a.Released = 0, 0, used, a.Max-used
	return nil
}

// ReleaseOpen releases every allocation that is still reserved or active, as
// when a run is decided and unanswered work will never be paid for.
func (p *Pool) ReleaseOpen() {
	for _, id := range p.order {
		a := p.allocs[id]
		a.Released += a.Reserved + a.Active
		a.Reserved, a.Active = 0, 0
	}
}

// Allocations returns the allocations in the order they were made.
func (p *Pool) Allocations() []Allocation {
	out := make([]Allocation, 0, len(p.order))
	for _, id := range p.order {
		out = append(out, *p.allocs[id])
	}
	return out
}

// CheckIfSealed is Check for a pool that may not exist yet (a run requested
// but never sealed has no pool).
func (p *Pool) CheckIfSealed() error {
	if p == nil {
		return nil
	}
	return p.Check()
}

// Check verifies conservation: every allocation's components add up to its
// maximum, and per dimension the allocations stay within the pool.
func (p *Pool) Check() error {
	for _, id := range p.order {
		a := p.allocs[id]
		s, c1 := bits.Add64(a.Reserved, a.Active, 0)
		s, c2 := bits.Add64(s, a.Consumed, 0)
		s, c3 := bits.Add64(s, a.Released, 0)
		if c1|c2|c3 != 0 || s != a.Max {
			return fmt.Errorf("allocation %q: reserved %d + active %d + consumed %d + released %d != max %d", id, a.Reserved, a.Active, a.Consumed, a.Released, a.Max)
		}
	}
	dims := make([]string, 0, len(p.total))
	for d := range p.total {
		dims = append(dims, d)
	}
	slices.Sort(dims)
	for _, d := range dims {
		used, err := p.sumAllocations(d)
		if err != nil {
			return err
		}
		if used != p.allocated[d] {
			return fmt.Errorf("%s: allocations add up to %d, the pool counts %d", d, used, p.allocated[d])
		}
		if used > p.total[d] {
			return fmt.Errorf("%s: allocations of %d exceed the pool of %d", d, used, p.total[d])
		}
	}
	return nil
}

func (p *Pool) sumAllocations(dim string) (uint64, error) {
	var sum uint64
	for _, id := range p.order {
		a := p.allocs[id]
		if a.Dimension != dim {
			continue
		}
		var carry uint64
		sum, carry = bits.Add64(sum, a.Max, 0)
		if carry != 0 {
			return 0, fmt.Errorf("%s: allocations overflow", dim)
		}
	}
	return sum, nil
}

package admission

import (
	"maps"
	"slices"
)

// Chain puts the admitted records of one run in their chain order, as a
// reader that sees every message of the topic (in whatever order its
// partitions deliver them) meets them. Records arriving before their
// predecessors wait; a record whose place is taken by the same record is a
// duplicate (at-least-once delivery, or a copy) and is dropped; anything
// that contradicts the chain is refused. Only genuine admissions reach a
// Chain, so what waits is bounded by what the guard wrote.
type Chain struct {
	runID   string
	links   []Hash
	waiting map[uint64]*Admitted
}

// NewChain returns the empty chain of runID.
func NewChain(runID string) *Chain {
	return &Chain{runID: runID}
}

// Head returns the end of the contiguous chain.
func (c *Chain) Head() Head {
	if len(c.links) == 0 {
		return Head{}
	}
	return Head{Seq: uint64(len(c.links)), Link: c.links[len(c.links)-1]}
}

// Add offers a to the chain and returns the records it placed, in order: a
// and the waiting records that follow it, none when a is a duplicate or
// waits for its predecessors. A record that contradicts the chain is a
// *Refusal (CodeFork) and leaves the chain as it was. Callers use the
// records placed even when there is an error: then a was placed and the
// error refuses a waiting record that turned out not to follow it.
func (c *Chain) Add(a *Admitted) ([]*Admitted, error) {
	if a.RunID() != c.runID {
		return nil, refusef(CodeFork, "a record of run %q offered to the chain of run %q", a.RunID(), c.runID)
	}
	head := c.Head()
	switch {
	case a.Seq <= head.Seq:
		if c.links[a.Seq-1] != a.Link {
			return nil, refusef(CodeFork, "run %q: place %d is taken by another record", c.runID, a.Seq)
		}
		return nil, nil
	case a.Seq > head.Seq+1:
		if w, ok := c.waiting[a.Seq]; ok {
			if w.Link != a.Link {
				return nil, refusef(CodeFork, "run %q: two records admitted at place %d", c.runID, a.Seq)
			}
			return nil, nil
		}
		if c.waiting == nil {
			c.waiting = map[uint64]*Admitted{}
		}
		c.waiting[a.Seq] = a
		return nil, nil
	case !a.Follows(head):
		return nil, refusef(CodeFork, "run %q: the record at place %d names another predecessor", c.runID, a.Seq)
	}
	placed := []*Admitted{a}
	c.links = append(c.links, a.Link)
	for {
		next, ok := c.waiting[c.Head().Seq+1]
		if !ok {
			return placed, nil
		}
		delete(c.waiting, next.Seq)
		if !next.Follows(c.Head()) {
			return placed, refusef(CodeFork, "run %q: the record waiting at place %d names another predecessor", c.runID, next.Seq)
		}
		placed = append(placed, next)
		c.links = append(c.links, next.Link)
	}
}

// Waiting returns the records that wait for predecessors not seen, by
// place.
func (c *Chain) Waiting() []*Admitted {
	out := make([]*Admitted, 0, len(c.waiting))
	for _, k := range slices.Sorted(maps.Keys(c.waiting)) {
		out = append(out, c.waiting[k])
	}
	return out
}

// Chains holds one Chain per run.
type Chains struct {
	runs map[string]*Chain
}

// NewChains returns an empty set of chains.
func NewChains() *Chains {
	return &Chains{runs: map[string]*Chain{}}
}

// Add offers a to the chain of its run (see Chain.Add).
func (cs *Chains) Add(a *Admitted) ([]*Admitted, error) {
	c, ok := cs.runs[a.RunID()]
	if !ok {
		c = NewChain(a.RunID())
		cs.runs[a.RunID()] = c
	}
	return c.Add(a)
}

// Forget drops run's chain: a record of it offered later starts a chain
// anew (and, not being its first, waits).
func (cs *Chains) Forget(run string) {
	delete(cs.runs, run)
}

// Heads returns the head of every run's chain.
func (cs *Chains) Heads() map[string]Head {
	out := make(map[string]Head, len(cs.runs))
	for id, c := range cs.runs {
		if h := c.Head(); h.Seq > 0 {
			out[id] = h
		}
	}
	return out
}

// Waiting returns, run by run in run order, the records that wait for
// predecessors never seen.
func (cs *Chains) Waiting() []*Admitted {
	var out []*Admitted
	for _, id := range slices.Sorted(maps.Keys(cs.runs)) {
		out = append(out, cs.runs[id].Waiting()...)
	}
	return out
}

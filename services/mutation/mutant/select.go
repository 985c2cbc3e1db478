package mutant

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"slices"
)

// Select picks at most limit of sites: one site of every (file, line) before
// any line gets a second, taking lines round-robin across files, and every
// site of the primary operators before any Extra one. Equivalent sites are
// never picked. Which line and which site come first is decided by seed
// (the baseline and patch digests, say), so that a run is reproducible and
// another seed picks another order; the order does not depend on the order
// of sites. Select returns copies of the picked sites with IDs 1..n in
// selection order; limit <= 0 selects nothing.
func Select(sites []Site, limit int, seed []byte) []Site {
	var primary, extra []Site
	for _, s := range sites {
		switch {
		case s.Equivalent != "":
		case s.Extra:
			extra = append(extra, s)
		default:
			primary = append(primary, s)
		}
	}
	out := selectRounds(primary, limit, seed, 0)
	if len(out) < limit {
		out = append(out, selectRounds(extra, limit-len(out), seed, len(out))...)
	}
	return out
}

// SelectFirst is Select with the sites of first (not equivalent) picked
// before every other, in Select's order among themselves: sites the caller
// must run, one of each value a patch wrote, say, so that the limit never
// leaves such a value without a mutant. IDs run 1..n in selection order.
func SelectFirst(first, sites []Site, limit int, seed []byte) []Site {
	var must []Site
	for _, s := range first {
		if s.Equivalent == "" {
			must = append(must, s)
		}
	}
	out := selectRounds(must, limit, seed, 0)
	picked := make(map[siteKey]bool, len(out))
	for _, s := range out {
		picked[keyOf(s)] = true
	}
	var rest []Site
	for _, s := range sites {
		if !picked[keyOf(s)] {
			rest = append(rest, s)
		}
	}
	base := len(out)
	for _, s := range Select(rest, limit-base, seed) {
		s.ID += base
		out = append(out, s)
	}
	return out
}

// Offer returns the sites worth running when the change must yield at
// least need distinct mutants: the primary operators' when they are
// enough, else every site, extras included (all the distinct behaviours of
// each site). distinct counts the sites that are not equivalent, extras
// included: the most mutants the change offers.
func Offer(sites []Site, need int) (offer []Site, distinct int) {
	primary := 0
	for _, s := range sites {
		if s.Equivalent == "" {
			distinct++
			if !s.Extra {
				primary++
			}
		}
	}
	if primary >= need {
		for _, s := range sites {
			if !s.Extra {
				offer = append(offer, s)
			}
		}
		return offer, distinct
	}
	return slices.Clone(sites), distinct
}

// selectRounds is Select over sites of one tier, numbering from base+1.
func selectRounds(sites []Site, limit int, seed []byte, base int) []Site {
	if limit <= 0 || len(sites) == 0 {
		return nil
	}
	type line struct {
		rank  [32]byte
		sites []Site
	}
	type file struct {
		rank  [32]byte
		lines map[int]*line
		order []*line
	}
	files := make(map[string]*file)
	ranks := make(map[siteKey][32]byte, len(sites))
	for _, s := range sites {
		f := files[s.File]
		if f == nil {
			f = &file{rank: rank(seed, "file", s.File), lines: make(map[int]*line)}
			files[s.File] = f
		}
		l := f.lines[s.Line]
		if l == nil {
			l = &line{rank: rank(seed, "line", s.File, s.Line)}
			f.lines[s.Line] = l
			f.order = append(f.order, l)
		}
		k := keyOf(s)
		if _, dup := ranks[k]; dup {
			continue
		}
		ranks[k] = rank(seed, "site", s.File, s.Line, s.Col, s.Operator, s.Description)
		l.sites = append(l.sites, s)
	}
	order := make([]*file, 0, len(files))
	rounds := 0
	for _, f := range files {
		order = append(order, f)
		slices.SortFunc(f.order, func(a, b *line) int { return bytes.Compare(a.rank[:], b.rank[:]) })
		for _, l := range f.order {
			slices.SortFunc(l.sites, func(a, b Site) int {
				ra, rb := ranks[keyOf(a)], ranks[keyOf(b)]
				return cmp.Or(bytes.Compare(ra[:], rb[:]), compareSites(a, b))
			})
			rounds = max(rounds, len(l.sites))
		}
	}
	slices.SortFunc(order, func(a, b *file) int { return bytes.Compare(a.rank[:], b.rank[:]) })

	var out []Site
	for round := 0; round < rounds; round++ {
		// The lines that still have a site in this round, per file.
		queues := make([][]*line, len(order))
		longest := 0
		for i, f := range order {
			for _, l := range f.order {
				if len(l.sites) > round {
					queues[i] = append(queues[i], l)
				}
			}
			longest = max(longest, len(queues[i]))
		}
		for j := 0; j < longest; j++ {
			for _, q := range queues {
				if j >= len(q) {
					continue
				}
				s := q[j].sites[round]
				s.ID = base + len(out) + 1
				out = append(out, s)
				if len(out) == limit {
					return out
				}
			}
		}
	}
	return out
}

// rank hashes seed and the parts into a sort key.
func rank(seed []byte, parts ...any) [32]byte {
	h := sha256.New()
	var n [8]byte
	write := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	write(seed)
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			write([]byte(p))
		case int:
			binary.BigEndian.PutUint64(n[:], uint64(p))
			h.Write(n[:])
		}
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

package tree

import "sort"

// Kind is how a path changed between two trees.
type Kind string

// Kinds of change.
const (
	Added    Kind = "added"
	Modified Kind = "modified"
	Deleted  Kind = "deleted"
)

// Change is one path that differs between two trees.
type Change struct {
	Path string
	Kind Kind
	// ModeChanged is set on a Modified path whose mode changed (including
	// a file that became a symlink or the reverse).
	ModeChanged bool
}

// Diff lists the paths whose (mode, object id) differ between base and
// patch, sorted by path. A nil tree is empty.
func Diff(base, patch *Tree) []Change {
	var out []Change
	for _, p := range unionPaths(base, patch) {
		b, inBase := base.Lookup(p)
		q, inPatch := patch.Lookup(p)
		switch {
		case !inBase:
			out = append(out, Change{Path: p, Kind: Added})
		case !inPatch:
			out = append(out, Change{Path: p, Kind: Deleted})
		case b.Mode != q.Mode || b.ObjectID != q.ObjectID:
			out = append(out, Change{Path: p, Kind: Modified, ModeChanged: b.Mode != q.Mode})
		}
	}
	return out
}

// SameSubtrees returns the paths accepted by match whose (mode, object id)
// differ between base and patch or that exist on one side only, sorted.
// An empty result means the matched files are byte- and mode-identical.
func SameSubtrees(base, patch *Tree, match func(path string) bool) []string {
	var out []string
	for _, c := range Diff(base, patch) {
		if match(c.Path) {
			out = append(out, c.Path)
		}
	}
	return out
}

func unionPaths(a, b *Tree) []string {
	var paths []string
	seen := map[string]bool{}
	for _, t := range []*Tree{a, b} {
		if t == nil {
			continue
		}
		for _, e := range t.entries {
			if !seen[e.Path] {
				seen[e.Path] = true
				paths = append(paths, e.Path)
			}
		}
	}
	sort.Strings(paths)
	return paths
}

// DiffAll is Diff over every entry of the trees' commits: held and left
// out (see Options.LeaveOut). A path held on one side and left out on the
// other is Modified when its mode or object id differ.
func DiffAll(base, patch *Tree) []Change {
	var out []Change
	seen := map[string]bool{}
	var paths []string
	for _, t := range []*Tree{base, patch} {
		if t == nil {
			continue
		}
		for _, e := range t.entries {
			if !seen[e.Path] {
				seen[e.Path] = true
				paths = append(paths, e.Path)
			}
		}
		for _, lo := range t.leftOut {
			if !seen[lo.Path] {
				seen[lo.Path] = true
				paths = append(paths, lo.Path)
			}
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, inBase := base.LookupAll(p)
		q, inPatch := patch.LookupAll(p)
		switch {
		case !inBase:
			out = append(out, Change{Path: p, Kind: Added})
		case !inPatch:
			out = append(out, Change{Path: p, Kind: Deleted})
		case b.Mode != q.Mode || b.ObjectID != q.ObjectID:
			out = append(out, Change{Path: p, Kind: Modified, ModeChanged: b.Mode != q.Mode})
		}
	}
	return out
}

package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Options says how List reaches a repository's objects. The zero value
// reads the repository alone.
type Options struct {
	// AlternateObjectDirs are object directories git reads objects from as
	// well as the repository's own (GIT_ALTERNATE_OBJECT_DIRECTORIES). They
	// let a caller list and materialize a commit it built in a private
	// object directory, without writing anything into the repository. Each
	// must be an existing directory; relative paths are made absolute.
	AlternateObjectDirs []string
	// LeaveOut makes List leave out each entry it would refuse — a
	// gitlink, an unsafe path, a path through a symlink or below a file, a
	// symlink whose target is unsafe, an unsupported mode — instead of
	// refusing the whole tree. The tree then holds only entries that are
	// safe to materialize; Tree.LeftOut lists the others with the reason.
	LeaveOut bool
}

// alternates checks the alternate object directories and returns them
// absolute.
func (o Options) alternates() ([]string, error) {
	if len(o.AlternateObjectDirs) == 0 {
		return nil, nil
	}
	out := make([]string, 0, len(o.AlternateObjectDirs))
	for _, dir := range o.AlternateObjectDirs {
		if dir == "" || strings.ContainsAny(dir, "\x00\n\r") {
			return nil, fmt.Errorf("tree: alternate object directory %q: empty or holds a control character: %w", dir, ErrOptions)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("tree: alternate object directory %q: %w", dir, err)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("tree: alternate object directory: %w", err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("tree: alternate object directory %q is not a directory: %w", abs, ErrOptions)
		}
		out = append(out, abs)
	}
	return out, nil
}

// sameSource reports whether the blobs of a and b are read the same way.
func sameSource(a, b *Tree) bool {
	return a.repoDir == b.repoDir && a.format == b.format && slices.Equal(a.alternates, b.alternates)
}

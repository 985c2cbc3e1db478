package executor

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Test binaries are kept across runs, by what they are built from: CI
// verifies many patches against one main commit, so the baseline side's
// test binaries (its claims' and its coverage binary) are the same program
// on every run, and the link and the go command's own work were most of a
// small repository's build time. The key holds everything a `go test -c`
// of the gate reads — the content of every file of the tree (its digest,
// computed here, not a name the checkout gave it), the module and package,
// the coverage packages, the toolchain, the C compiler cgo would use, the
// module cache's path and the build cache's path (a binary is served only
// to runs of the same build cache: one per trust domain) — so a binary is
// used only where a build would have made it. Only builds under bwrap are
// kept: there the tree is at one fixed path (srcRoot); in mode none the
// host path of the run's tree is compiled into the binary. Only builds that
// succeeded are kept; a cached binary whose content does not match the
// digest in its name is removed and built again. The directory is bounded
// (maxBinCacheBytes): the least recently used binaries go first.

// binCacheVersion changes whenever what a key holds changes.
const binCacheVersion = "sealgate test binary cache v1"

// maxBinCacheBytes bounds the binary cache directory.
const maxBinCacheBytes = 2 << 30

// cacheableTree returns the digest of the pristine tree of variant, in
// dir, when its builds may be kept, else "": hashed once per workspace (a
// pristine tree never changes; the schemata, which are made anew, are
// never kept).
func (e *Executor) cacheableTree(w *Workspace, variant, dir string) string {
	if e.BinCache == "" || e.Sandbox.Name() != sandbox.NameBwrap || variant == treeSchemata {
		return ""
	}
	w.mu.Lock()
	tree, ok := w.digests[variant]
	w.mu.Unlock()
	if ok {
		return tree
	}
	tree, err := treeDigest(dir)
	if err != nil {
		tree = ""
	}
	w.mu.Lock()
	if w.digests == nil {
		w.digests = map[string]string{}
	}
	w.digests[variant] = tree
	w.mu.Unlock()
	return tree
}

// binKey returns the cache key of t's test binary built from the tree
// whose digest is tree, "" when it must not be cached (tree ""; the
// schemata hold the run's own switch tokens: no other run builds the same
// program).
func (e *Executor) binKey(t goTarget, tree string) string {
	if tree == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\ntree %s\nmodule %s\npackage %s\ncover %s\nbuild %s\ngo %s %s\ncc %s\nmodcache %s\ncache %s\nroot %s\n",
		binCacheVersion, tree, t.module, t.pkg, strings.Join(t.cover, ","), strings.Join(testBuild(), " "),
		e.toolchainKey(), e.goVersion(), e.ccIdentity(), e.Go.ModCache, e.Go.Cache, srcRoot)
	return hex.EncodeToString(h.Sum(nil))
}

// ccIdentity names the C compiler a build's cgo would run (gcc on the
// sandbox's PATH): its path, size and modification time, or "none".
func (e *Executor) ccIdentity() string {
	e.ccOnce.Do(func() {
		e.cc = "none"
		for _, dir := range []string{"/usr/bin", "/bin"} {
			p, err := exec.LookPath(filepath.Join(dir, "gcc"))
			if err != nil {
				continue
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				continue
			}
			if fi, err := os.Stat(real); err == nil {
				e.cc = fmt.Sprintf("%s %d %d", real, fi.Size(), fi.ModTime().UnixNano())
				return
			}
		}
	})
	return e.cc
}

// treeDigest hashes every entry under dir, in lexical order: its path, its
// kind, a regular file's executable bit and content, a symlink's target.
func treeDigest(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t.IsDir():
			fmt.Fprintf(h, "d %q\n", rel)
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "l %q %q\n", rel, target)
		case t.IsRegular():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			fh := sha256.New()
			_, err = io.Copy(fh, f)
			f.Close()
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "f %q %o %d %x\n", rel, fi.Mode().Perm()&0o111, fi.Size(), fh.Sum(nil))
		default:
			// A device, a pipe or a socket: what a build would read from
			// it is not content; such a tree is not cached.
			return fmt.Errorf("%s is not a file, a directory or a symlink", rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cachedBin returns the binary cached under key, or nil.
func (e *Executor) cachedBin(key string) []byte {
	if key == "" {
		return nil
	}
	matches, _ := filepath.Glob(filepath.Join(e.BinCache, key+".*.test"))
	if len(matches) != 1 {
		return nil
	}
	p := matches[0]
	want := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), key+"."), ".test")
	data, err := os.ReadFile(p)
	if err != nil || int64(len(data)) > maxBinaryBytes {
		return nil
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != want {
		os.Remove(p)
		return nil
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // most recently used: trimmed last
	return data
}

// keepBin puts data in the cache under key, then trims the cache. Errors
// only lose the saving: the run has its binary.
func (e *Executor) keepBin(key string, data []byte) {
	if key == "" || len(data) == 0 {
		return
	}
	if err := os.MkdirAll(e.BinCache, 0o755); err != nil {
		return
	}
	sum := sha256.Sum256(data)
	p := filepath.Join(e.BinCache, key+"."+hex.EncodeToString(sum[:])+".test")
	if _, err := os.Lstat(p); err == nil {
		return
	}
	f, err := os.CreateTemp(e.BinCache, ".keep-*")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return
	}
	trimBins(e.BinCache, maxBinCacheBytes)
}

// trimBins removes the least recently used binaries of dir until the rest
// fit in max bytes.
func trimBins(dir string, max int64) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type bin struct {
		path string
		size int64
		used time.Time
	}
	var bins []bin
	var total int64
	for _, de := range entries {
		if !strings.HasSuffix(de.Name(), ".test") {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		bins = append(bins, bin{filepath.Join(dir, de.Name()), fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	slices.SortFunc(bins, func(a, b bin) int {
		if c := a.used.Compare(b.used); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	for _, b := range bins {
		if total <= max {
			return
		}
		if os.Remove(b.path) == nil {
			total -= b.size
		}
	}
}

// reuse fills b from a cached binary of t, if there is one: the run's
// record says it was reused, with its key. It reports whether it did.
func (e *Executor) reuse(w *Workspace, t goTarget, key string, b *goBin) (bool, error) {
	start := time.Now()
	data := e.cachedBin(key)
	if data == nil {
		return false, nil
	}
	if err := w.store(data, b); err != nil {
		return false, err
	}
	b.run.Verdict = "BUILD"
	b.run.Termination = sandbox.Exited.String()
	b.run.WallMillis = max(time.Since(start).Milliseconds(), 1)
	b.run.Reason = jobs.ReusedBuild + fmt.Sprintf("%s's test binary: built by an earlier run with this build cache from a tree of the same content, toolchain and flags (key %s)", t.importPath, key[:16])
	b.run.Binary = b.sha256
	return true, nil
}

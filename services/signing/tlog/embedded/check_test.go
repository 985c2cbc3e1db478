package embedded

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/note"

	"github.com/sealgate/sealgate/services/signing/tlog"
)

// grow appends n entries, 32 at a time, and returns the last proof.
func grow(t *testing.T, l *Log, from, n int) *tlog.Proof {
	t.Helper()
	var (
		mu   sync.Mutex
		last *tlog.Proof
		wg   sync.WaitGroup
		work = make(chan int)
	)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				p, err := l.Append(context.Background(), tlog.Submission{Envelope: envelope(t, i)})
				if err != nil {
					t.Error(err)
					continue
				}
				mu.Lock()
				if last == nil || p.TreeSize > last.TreeSize {
					last = p
				}
				mu.Unlock()
			}
		}()
	}
	for i := from; i < from+n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return last
}

// makeLog builds a log of n entries in dir and returns the head a caller
// would have recorded (the anchor) and the checkpoint of size n-1.
func makeLog(t *testing.T, dir string, n int) (Head, []byte) {
	t.Helper()
	l, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	grow(t, l, 0, n-1)
	older, err := os.ReadFile(filepath.Join(dir, tilesDir, checkpointFile))
	if err != nil {
		t.Fatal(err)
	}
	p := grow(t, l, n-1, 1)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	root, _ := hex.DecodeString(p.RootHash)
	if p.TreeSize != uint64(n) {
		t.Fatalf("tree of %d after %d appends", p.TreeSize, n)
	}
	return Head{LogID: p.LogID, Size: p.TreeSize, Root: root, Source: "the anchor"}, older
}

// copyDir copies a directory tree.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		return os.WriteFile(dst, b, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fingerprint hashes every file of a directory tree, with its path.
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() || strings.HasSuffix(rel, ".lock") {
			lines = append(lines, rel+"/")
			return nil
		}
		b, _ := os.ReadFile(p)
		lines = append(lines, fmt.Sprintf("%s %x", rel, sha256.Sum256(b)))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func flip(t *testing.T, path string, at int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if at < 0 {
		at += len(b)
	}
	b[at] ^= 0x01
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// damages are what a disk or an operator does to a log of 300 entries:
// tile 0 of level 0 is full, tile 1 holds 44 hashes, level 1 one.
func damages(older []byte) []struct {
	name   string
	damage func(t *testing.T, dir string)
	want   string
} {
	tiles := func(dir string, p ...string) string { return filepath.Join(append([]string{dir, tilesDir}, p...)...) }
	return []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"tiles and last-checkpoint deleted", func(t *testing.T, dir string) {
			os.RemoveAll(tiles(dir))
			os.Remove(filepath.Join(dir, lastCheckpoint))
		}, "has no tiles at all, but the anchor recorded a tree of 300 entries: the log was deleted or rolled back"},
		{"a full hash tile deleted", func(t *testing.T, dir string) { os.Remove(tiles(dir, "tile/0/000")) }, "tiles/tile/0/000 is missing"},
		{"an entry bundle deleted", func(t *testing.T, dir string) { os.RemoveAll(tiles(dir, "tile/entries")) }, "tiles/tile/entries/000 is missing"},
		{"an entries tile corrupted", func(t *testing.T, dir string) { flip(t, tiles(dir, "tile/entries/001.p/44"), 60) },
			"entry bundle dir/tiles/tile/entries/001.p/44: entry 0 (log index 256) does not hash to the leaf its hash tile and the signed checkpoint hold"},
		{"a level-0 hash tile corrupted", func(t *testing.T, dir string) { flip(t, tiles(dir, "tile/0/001.p/44"), 5*32+7) },
			"hash tile dir/tiles/tile/0/001.p/44: hash 5 is not the one recomputed from the entries"},
		{"a level-1 hash tile corrupted", func(t *testing.T, dir string) { flip(t, tiles(dir, "tile/1/000.p/1"), 3) },
			"hash tile dir/tiles/tile/1/000.p/1: hash 0 is not the one recomputed from the entries"},
		{"the checkpoint rolled back", func(t *testing.T, dir string) {
			if err := os.WriteFile(tiles(dir, checkpointFile), older, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "the published checkpoint (dir/tiles/checkpoint) is at size 299, but the anchor recorded size 300: the log was rolled back"},
		{"the tree state deleted", func(t *testing.T, dir string) { os.Remove(tiles(dir, treeStateFile)) },
			"dir/tiles/.state/treeState is missing while the published checkpoint is at size 300"},
		{"the key pair deleted", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, PrivateKeyFile))
			os.Remove(filepath.Join(dir, PublicKeyFile))
		}, "dir has no key pair (log.key, log.pub), but the anchor recorded a tree of 300 entries"},
		{"the whole log deleted", func(t *testing.T, dir string) { os.RemoveAll(dir) }, "dir is missing, but the anchor recorded a tree of 300 entries"},
	}
}

func TestOpenNamesEveryDamageAndWritesNothing(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good")
	head, older := makeLog(t, good, 300)
	// The honest twin: the untouched log opens and goes on.
	if l, err := Open(context.Background(), good, Options{Expect: []Head{head}}); err != nil {
		t.Fatalf("the healthy log: %v", err)
	} else {
		l.Close()
	}
	for _, c := range damages(older) {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dir")
			copyDir(t, good, dir)
			c.damage(t, dir)
			before := fingerprint(t, dir)
			l, err := Open(context.Background(), dir, Options{Label: "dir", Expect: []Head{head}})
			if err == nil {
				l.Close()
				t.Fatal("a damaged log opened")
			}
			if !IsCorrupt(err) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			if after := fingerprint(t, dir); after != before {
				t.Fatalf("a refused Open changed the files:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

func TestOpenRefusesAnotherLog(t *testing.T) {
	dir := t.TempDir()
	head, _ := makeLog(t, dir, 3)
	head.LogID = strings.Repeat("ab", 32)
	if _, err := Open(context.Background(), dir, Options{Label: "dir", Expect: []Head{head}}); !IsCorrupt(err) || !strings.Contains(err.Error(), "the log was replaced") {
		t.Fatalf("Open = %v", err)
	}
	// A head the log does not reach at that size: rewritten.
	head, _ = makeLog(t, t.TempDir(), 3)
	other, _ := makeLog(t, dir+"-2", 3)
	other.LogID = ""
	other.Root = head.Root
	if _, err := Open(context.Background(), dir+"-2", Options{Expect: []Head{other}}); !IsCorrupt(err) || !strings.Contains(err.Error(), "the log was rewritten") {
		t.Fatalf("Open = %v", err)
	}
}

func TestOpenChecksAcrossTileLevels(t *testing.T) {
	dir := t.TempDir()
	head, _ := makeLog(t, dir, 700)
	l, err := Open(context.Background(), dir, Options{Expect: []Head{head}})
	if err != nil {
		t.Fatal(err)
	}
	p := grow(t, l, 700, 100)
	l.Close()
	if p.TreeSize != 800 {
		t.Fatalf("tree size %d", p.TreeSize)
	}
	// Every tile file the log wrote for size 800 is one Open checks.
	for _, want := range []string{"tile/0/000", "tile/0/001", "tile/0/002", "tile/0/003.p/32", "tile/1/000.p/3", "tile/entries/003.p/32"} {
		if _, err := os.Stat(filepath.Join(dir, tilesDir, want)); err != nil {
			t.Errorf("%s: %v", want, err)
		}
	}
	if l, err := Open(context.Background(), dir, Options{Expect: []Head{head}}); err != nil {
		t.Fatal(err)
	} else {
		l.Close()
	}
}

func TestDamageWhileOpenIsNeverSignedOrCopiedForward(t *testing.T) {
	for _, c := range []struct {
		name, file string
		at         int
	}{
		{"entry bundle", "tile/entries/000.p/10", 40},
		{"hash tile", "tile/0/000.p/10", 32*9 + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := Open(context.Background(), dir, Options{Label: "dir"})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			grow(t, l, 0, 10)
			flip(t, filepath.Join(dir, tilesDir, c.file), c.at)
			before := fingerprint(t, filepath.Join(dir, tilesDir))
			_, err = l.Append(context.Background(), tlog.Submission{Envelope: envelope(t, 99)})
			if !IsCorrupt(err) || !strings.Contains(err.Error(), "dir/tiles/"+c.file) {
				t.Fatalf("Append = %v", err)
			}
			// Refused again at once, and nothing was written.
			if _, err2 := l.Append(context.Background(), tlog.Submission{Envelope: envelope(t, 100)}); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("second Append = %v", err2)
			}
			if after := fingerprint(t, filepath.Join(dir, tilesDir)); after != before {
				t.Fatalf("the log changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

func TestSignerRecomputesBeforeSigning(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := grow(t, l, 0, 5)
	root, _ := hex.DecodeString(p.RootHash)
	body := func(size uint64, root []byte) []byte {
		return []byte(fmt.Sprintf("%s\n%d\n%s\n", l.signer.Name(), size, base64.StdEncoding.EncodeToString(root)))
	}
	// The honest checkpoint is signed.
	if _, err := l.signer.Sign(body(5, root)); err != nil {
		t.Fatalf("honest checkpoint: %v", err)
	}
	// A root the entries do not reach is not, and the log is then broken.
	bad := bytes.Clone(root)
	bad[0] ^= 1
	if _, err := l.signer.Sign(body(5, bad)); !IsCorrupt(err) {
		t.Fatalf("a wrong root was signed: %v", err)
	}
	if _, err := l.signer.Sign(body(5, root)); err == nil {
		t.Fatal("a broken log signed again")
	}
	if l.Broken() == nil {
		t.Fatal("not marked broken")
	}
}

func TestRebuildRepairsWhatItCan(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good")
	head, older := makeLog(t, good, 300)
	// Every leaf, as the sealed verdicts on a ledger would have them, and
	// the last checkpoint as the last seal recorded it.
	leaves := map[uint64][]byte{}
	f := files{dir: filepath.Join(good, tilesDir)}
	all, _, err := gatherLeaves(f, 300, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range all {
		leaves[uint64(i)] = l
	}
	last, err := os.ReadFile(filepath.Join(good, lastCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	repairable := map[string]bool{
		"tiles and last-checkpoint deleted": true, "a full hash tile deleted": true, "an entry bundle deleted": true,
		"an entries tile corrupted": true, "a level-0 hash tile corrupted": true, "a level-1 hash tile corrupted": true,
		"the checkpoint rolled back": true, "the tree state deleted": true,
	}
	for _, c := range damages(older) {
		if !repairable[c.name] {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dir")
			copyDir(t, good, dir)
			c.damage(t, dir)
			rep, err := Rebuild(dir, RebuildOptions{Label: "dir", Leaves: leaves, Checkpoints: [][]byte{last}, Expect: []Head{head}})
			if err != nil {
				t.Fatalf("Rebuild: %v", err)
			}
			if rep.Size != 300 || !bytes.Equal(rep.Root, head.Root) || len(rep.Rewritten) == 0 {
				t.Fatalf("report %+v", rep)
			}
			l, err := Open(context.Background(), dir, Options{Expect: []Head{head}})
			if err != nil {
				t.Fatalf("the rebuilt log: %v", err)
			}
			defer l.Close()
			p := grow(t, l, 300, 1)
			if p.Index != 300 {
				t.Fatalf("appended at %d", p.Index)
			}
			prf, err := l.Consistency(context.Background(), 300, p.TreeSize)
			if err != nil {
				t.Fatal(err)
			}
			newRoot, _ := hex.DecodeString(p.RootHash)
			if err := proof.VerifyConsistency(rfc6962.DefaultHasher, 300, p.TreeSize, prf, head.Root, newRoot); err != nil {
				t.Fatalf("the rebuilt log is not the old one extended: %v", err)
			}
		})
	}

	// Without the sealed leaves a damaged entry is lost: nothing is
	// written, and the error says to move the log aside.
	dir := filepath.Join(t.TempDir(), "dir")
	copyDir(t, good, dir)
	flip(t, filepath.Join(dir, tilesDir, "tile/entries/001.p/44"), 60)
	before := fingerprint(t, dir)
	if _, err := Rebuild(dir, RebuildOptions{Label: "dir", Expect: []Head{head}}); !IsCorrupt(err) || !strings.Contains(err.Error(), "move the log aside") {
		t.Fatalf("Rebuild = %v", err)
	}
	if fingerprint(t, dir) != before {
		t.Fatal("a failed Rebuild wrote")
	}
	// Nor does it rebuild below what the anchor recorded.
	copyDir(t, good, dir+"-2")
	if err := os.WriteFile(filepath.Join(dir+"-2", lastCheckpoint), older, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir+"-2", tilesDir, checkpointFile), older, 0o644)
	os.RemoveAll(filepath.Join(dir+"-2", tilesDir, "tile", "entries", "001.p"))
	if _, err := Rebuild(dir+"-2", RebuildOptions{Expect: []Head{head}}); !IsCorrupt(err) {
		t.Fatalf("Rebuild below the anchor = %v", err)
	}
}

func TestHeadOf(t *testing.T) {
	dir := t.TempDir()
	head, _ := makeLog(t, dir, 2)
	raw, _ := os.ReadFile(filepath.Join(dir, lastCheckpoint))
	vkey, _ := os.ReadFile(filepath.Join(dir, PublicKeyFile))
	size, root, err := HeadOf(raw, string(vkey))
	if err != nil || size != 2 || !bytes.Equal(root, head.Root) {
		t.Fatalf("HeadOf = %d %x %v", size, root, err)
	}
	_, other, _ := note.GenerateKey(nil, "other")
	if _, _, err := HeadOf(raw, other); err == nil {
		t.Fatal("verified under another key")
	}
}

func TestCheckWritesNothing(t *testing.T) {
	none := filepath.Join(t.TempDir(), "none")
	if st, err := Check(none, Options{}); err != nil || st.Exists {
		t.Fatalf("Check of nothing = %+v, %v", st, err)
	}
	if _, err := os.Stat(none); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("Check created the directory")
	}
	if _, err := Check(none, Options{Expect: []Head{{Size: 2, Source: "the anchor"}}}); !IsCorrupt(err) {
		t.Fatalf("Check of a log that must exist = %v", err)
	}
	dir := t.TempDir()
	head, _ := makeLog(t, dir, 5)
	before := fingerprint(t, dir)
	st, err := Check(dir, Options{Expect: []Head{head}})
	if err != nil || !st.Exists || st.Size != 5 || !bytes.Equal(st.Root, head.Root) || st.LogID != head.LogID {
		t.Fatalf("Check = %+v, %v", st, err)
	}
	size, root, err := CheckpointHead(st.Checkpoint)
	if err != nil || size != 5 || !bytes.Equal(root, head.Root) {
		t.Fatalf("CheckpointHead = %d %x %v", size, root, err)
	}
	if fingerprint(t, dir) != before {
		t.Fatal("Check wrote")
	}
}

func FuzzBundleLeaves(f *testing.F) {
	f.Add([]byte{0, 1, 'a', 0, 0})
	f.Add([]byte{0, 3, 'a'})
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, data []byte) {
		leaves, err := bundleLeaves(data)
		if err != nil {
			return
		}
		// What parses re-encodes to the same bytes.
		var b []byte
		for _, l := range leaves {
			b = append(b, byte(len(l)>>8), byte(len(l)))
			b = append(b, l...)
		}
		if !bytes.Equal(b, data) {
			t.Fatalf("%x re-encodes to %x", data, b)
		}
	})
}

func FuzzCheckpointHead(f *testing.F) {
	f.Add([]byte("origin\n5\n" + base64.StdEncoding.EncodeToString(make([]byte, 32)) + "\n\n— sig\n"))
	f.Add([]byte("o\n18446744073709551616\nAA==\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, root, err := CheckpointHead(data)
		if err == nil && len(root) != 32 {
			t.Fatalf("a root of %d bytes", len(root))
		}
	})
}

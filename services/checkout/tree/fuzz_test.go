package tree

import (
	"errors"
	"path"
	"strings"
	"testing"
)

func FuzzParseLsTree(f *testing.F) {
	f.Add([]byte("100644 blob "+oidA+"\ta/b\x00"), true)
	f.Add([]byte("120000 blob "+oidA+"\tl\x00100644 blob "+oidA+"\tl/x\x00"), true)
	f.Add([]byte("160000 commit "+oidA+"\tsub\x00"), true)
	f.Add([]byte("100644 blob "+oidA+"\t../x\x00"), false)
	f.Add([]byte("\x00\t \x00"), false)
	f.Fuzz(func(t *testing.T, data []byte, sha1 bool) {
		hexLen := hexLenSHA256
		if sha1 {
			hexLen = hexLenSHA1
		}
		raw, err := parseLsTree(data, hexLen)
		if err != nil {
			if !errors.Is(err, ErrGitOutput) {
				t.Fatalf("error %v is not ErrGitOutput", err)
			}
			return
		}
		tr, err := buildTree(raw, false)
		if err != nil {
			var re *RefusedError
			if !errors.As(err, &re) || strings.Contains(re.Error(), "\n") {
				t.Fatalf("refusal %q", err)
			}
			return
		}
		for _, e := range tr.Entries() {
			if checkPath(e.Path) != nil || e.Mode == ModeGitlink {
				t.Fatalf("accepted entry %+v", e)
			}
			_ = tr.checkTarget(e.Path, e.Path)
		}
		_ = tr.Digest()
	})
}

// FuzzBuildTreeLeaveOut: a lenient build never fails, holds only entries a
// strict build accepts, and accounts for every listed entry exactly once.
func FuzzBuildTreeLeaveOut(f *testing.F) {
	f.Add([]byte("100644 blob " + oidA + "\ta/b\x00160000 commit " + oidA + "\tsub\x00"))
	f.Add([]byte("120000 blob " + oidA + "\tl\x00100644 blob " + oidA + "\tl/x\x00100644 blob " + oidA + "\tl/x\x00"))
	f.Add([]byte("100644 blob " + oidA + "\ta\tb\x00100644 blob " + oidA + "\t.git/x\x00040000 tree " + oidA + "\td\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		raw, err := parseLsTree(data, hexLenSHA1)
		if err != nil {
			return
		}
		tr, err := buildTree(raw, true)
		if err != nil {
			t.Fatalf("lenient build failed: %v", err)
		}
		if n := len(tr.Entries()) + len(tr.LeftOut()); n != len(raw) {
			t.Fatalf("%d entries held or left out, %d listed", n, len(raw))
		}
		strict, err := buildTree(rawOf(tr.Entries()), false)
		if err != nil {
			t.Fatalf("a strict build refuses what the lenient one held: %v", err)
		}
		if strict.Digest() != tr.Digest() {
			t.Fatal("digests differ")
		}
		for _, lo := range tr.LeftOut() {
			if lo.Reason == "" {
				t.Fatalf("left out %+v without a reason", lo)
			}
		}
	})
}

func rawOf(entries []Entry) []rawEntry {
	raw := make([]rawEntry, len(entries))
	for i, e := range entries {
		raw[i] = rawEntry{mode: e.Mode, typ: e.Type, oid: e.ObjectID, path: e.Path}
	}
	return raw
}

func FuzzParseBatchHeader(f *testing.F) {
	f.Add(oidA + " blob 12")
	f.Add(oidA + " missing")
	f.Add(" blob -0")
	f.Fuzz(func(t *testing.T, line string) {
		oid, typ, size, err := parseBatchHeader(line, hexLenSHA1)
		if err != nil {
			return
		}
		if size < 0 || !isHexID(oid, hexLenSHA1) || !isLowerAlpha(typ) {
			t.Fatalf("accepted %q as %s %s %d", line, oid, typ, size)
		}
	})
}

func FuzzCheckTarget(f *testing.F) {
	f.Add("d/link", "../x")
	f.Add("link", "l/..")
	f.Fuzz(func(t *testing.T, link, target string) {
		tr, err := buildTree([]rawEntry{{mode: ModeSymlink, typ: "blob", oid: oidA, path: "l"}}, false)
		if err != nil {
			t.Fatal(err)
		}
		if checkPath(link) != nil {
			return
		}
		if tr.checkTarget(link, target) != nil {
			return
		}
		resolved := path.Join(path.Dir(link), target)
		if strings.HasPrefix(target, "/") || resolved == ".." || strings.HasPrefix(resolved, "../") {
			t.Fatalf("target %q of %q (resolving to %q) accepted", target, link, resolved)
		}
	})
}

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
		tr, err := buildTree(raw)
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
		tr, err := buildTree([]rawEntry{{mode: ModeSymlink, typ: "blob", oid: oidA, path: "l"}})
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

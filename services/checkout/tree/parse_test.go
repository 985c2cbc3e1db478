package tree

import (
	"errors"
	"strings"
	"testing"
)

const oidA = "0123456789abcdef0123456789abcdef01234567"

func TestParseLsTree(t *testing.T) {
	out := "100644 blob " + oidA + "\ta b\tc\x00120000 blob " + oidA + "\tl\x00"
	got, err := parseLsTree([]byte(out), hexLenSHA1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].path != "a b\tc" || got[1].mode != ModeSymlink {
		t.Fatalf("got %+v", got)
	}
	if got, err := parseLsTree(nil, hexLenSHA1); err != nil || got != nil {
		t.Fatalf("empty: %v %v", got, err)
	}
	bad := []string{
		"100644 blob " + oidA + "\tno-nul",
		"100644 blob " + oidA + "\x00",
		"100644 blob\t" + oidA + "\x00",
		"100844 blob " + oidA + "\tx\x00",
		"10064 blob " + oidA + "\tx\x00",
		"100644 Blob " + oidA + "\tx\x00",
		"100644 blob " + strings.ToUpper(oidA) + "\tx\x00",
		"100644 blob " + oidA[:39] + "\tx\x00",
		"100644  blob " + oidA + "\tx\x00",
		"\x00",
	}
	for _, b := range bad {
		if _, err := parseLsTree([]byte(b), hexLenSHA1); !errors.Is(err, ErrGitOutput) {
			t.Errorf("parseLsTree(%q) err = %v", b, err)
		}
	}
}

func TestParseBatchHeader(t *testing.T) {
	oid, typ, size, err := parseBatchHeader(oidA+" blob 12", hexLenSHA1)
	if err != nil || oid != oidA || typ != "blob" || size != 12 {
		t.Fatalf("%s %s %d %v", oid, typ, size, err)
	}
	if _, _, _, err := parseBatchHeader(oidA+" missing", hexLenSHA1); !errors.Is(err, ErrObject) {
		t.Fatalf("missing: %v", err)
	}
	for _, b := range []string{"", oidA, oidA + " blob", oidA + " blob -1", oidA + " blob +1", oidA + " blob 01",
		oidA + " blob 99999999999999999999", oidA + " blob 1 x", oidA[:8] + " blob 1", oidA + " BLOB 1"} {
		if _, _, _, err := parseBatchHeader(b, hexLenSHA1); !errors.Is(err, ErrGitOutput) {
			t.Errorf("parseBatchHeader(%q) err = %v", b, err)
		}
	}
}

func TestCheckPath(t *testing.T) {
	cases := map[string]Reason{
		"/etc/passwd": ReasonAbsolute,
		"":            ReasonEmptyComponent,
		"a//b":        ReasonEmptyComponent,
		"a/":          ReasonEmptyComponent,
		"./a":         ReasonDot,
		"a/./b":       ReasonDot,
		"..":          ReasonDotDot,
		"a/../../b":   ReasonDotDot,
		".git":        ReasonDotGit,
		"x/.Git/hook": ReasonDotGit,
		"a\x00b":      ReasonControl,
		"a\nb":        ReasonControl,
		"a\rb":        ReasonControl,
		"bad\xffutf8": ReasonEncoding,
	}
	for p, want := range cases {
		if err := checkPath(p); !errors.Is(err, want) {
			t.Errorf("checkPath(%q) = %v, want %s", p, err, want)
		}
	}
	for _, ok := range []string{"a", "a/b/c.go", ".gitignore", ".github/x", "..a", "a..", "x.git", "日本/語"} {
		if err := checkPath(ok); err != nil {
			t.Errorf("checkPath(%q) = %v", ok, err)
		}
	}
}

func TestBuildTreeAndTargets(t *testing.T) {
	entry := func(mode, typ, p string) rawEntry { return rawEntry{mode: mode, typ: typ, oid: oidA, path: p} }
	refused := map[string][]rawEntry{
		string(ReasonConflict):       {entry(ModeFile, "blob", "a"), entry(ModeFile, "blob", "a")},
		"file-prefix":                {entry(ModeFile, "blob", "a"), entry(ModeFile, "blob", "a/b")},
		string(ReasonThroughSymlink): {entry(ModeSymlink, "blob", "d"), entry(ModeFile, "blob", "d/e/f")},
		string(ReasonMode):           {entry("100664", "blob", "a")},
		"tree-type":                  {entry(ModeFile, "tree", "a")},
		string(ReasonSubmodule):      {entry(ModeGitlink, "commit", "s")},
	}
	for name, raw := range refused {
		if _, err := buildTree(raw, false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	tr, err := buildTree([]rawEntry{entry(ModeSymlink, "blob", "l"), entry(ModeFile, "blob", "d/f"), entry(ModeSymlink, "blob", "d/l2")}, false)
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]error{
		"d/f":                                   nil,
		"../l":                                  nil,
		"x/../f":                                nil,
		"./f/":                                  nil,
		"l2":                                    nil,
		"../..":                                 ReasonSymlinkEscape,
		"x/../../..":                            ReasonSymlinkEscape,
		"../l/x":                                ReasonSymlinkEscape,
		"l2/../..":                              ReasonSymlinkEscape,
		"../.git":                               ReasonSymlinkEscape,
		"/":                                     ReasonSymlinkAbsolute,
		"//etc":                                 ReasonSymlinkAbsolute,
		"":                                      ReasonSymlinkTarget,
		"a\x00b":                                ReasonSymlinkTarget,
		strings.Repeat("a", maxSymlinkTarget+1): ReasonSymlinkTarget,
	}
	for target, want := range targets {
		err := tr.checkTarget("d/link", target)
		if (want == nil) != (err == nil) || (want != nil && !errors.Is(err, want)) {
			t.Errorf("checkTarget(d/link, %q) = %v, want %v", target, err, want)
		}
	}
}

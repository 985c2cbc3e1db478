package layer

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

var epoch = time.Unix(1_700_000_000, 0).UTC()

// tarOf writes entries as they come, with the host-dependent details a
// real root file system tarball has: owner names, times, atime records.
func tarOf(t testing.TB, entries []Entry, mtime time.Time) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range entries {
		h := e.Header
		h.ModTime, h.AccessTime, h.ChangeTime = mtime, mtime, mtime
		h.Uname, h.Gname = "builder", "builders"
		h.Format = tar.FormatPAX
		h.Size = int64(len(e.Data))
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.Data); err != nil && h.Size > 0 {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func rootfs() []Entry {
	return []Entry{
		{Header: tar.Header{Typeflag: tar.TypeDir, Name: "./", Mode: 0o755}},
		{Header: tar.Header{Typeflag: tar.TypeDir, Name: "./usr/", Mode: 0o755}},
		{Header: tar.Header{Typeflag: tar.TypeDir, Name: "./usr/bin/", Mode: 0o755}},
		{Header: tar.Header{Typeflag: tar.TypeReg, Name: "./usr/bin/perl5.36", Mode: 0o755}, Data: []byte("perl")},
		{Header: tar.Header{Typeflag: tar.TypeLink, Name: "./usr/bin/perl", Linkname: "./usr/bin/perl5.36", Mode: 0o755}},
		{Header: tar.Header{Typeflag: tar.TypeSymlink, Name: "./usr/bin/python3", Linkname: "python3.11", Mode: 0o777}},
		{Header: tar.Header{Typeflag: tar.TypeReg, Name: "./etc/shadow", Mode: 0o640, Gid: 42}, Data: []byte("root:*:19000:0:99999:7:::\n")},
		{Header: tar.Header{Typeflag: tar.TypeChar, Name: "./dev/null", Mode: 0o666, Devmajor: 1, Devminor: 3}},
		{Header: tar.Header{Typeflag: tar.TypeReg, Name: "./usr/bin/ping", Mode: 0o755, PAXRecords: map[string]string{"SCHILY.xattr.security.capability": "\x01\x00\x00\x02", "atime": "1"}}, Data: []byte("ping")},
	}
}

func normalized(t testing.TB, raw []byte) []byte {
	t.Helper()
	entries, err := FromTar(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Bytes(entries, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The same files, in another order and made at another time by another
// user, give the same bytes.
func TestWriteIsCanonical(t *testing.T) {
	a := rootfs()
	b := rootfs()
	slices.Reverse(b)
	// Reversed, the hard link comes before its target: a tar that is
	// still valid, since a link names an earlier entry only when written.
	for i := range b {
		if b[i].Header.Typeflag == tar.TypeLink {
			b[i].Header = tar.Header{Typeflag: tar.TypeReg, Name: "./usr/bin/perl", Mode: 0o755}
			b[i].Data = []byte("perl")
		}
		if b[i].Header.Name == "./usr/bin/perl5.36" {
			b[i].Header = tar.Header{Typeflag: tar.TypeLink, Name: "./usr/bin/perl5.36", Linkname: "./usr/bin/perl", Mode: 0o755}
			b[i].Data = nil
		}
	}
	x := normalized(t, tarOf(t, a, time.Unix(1_800_000_000, 0)))
	y := normalized(t, tarOf(t, b, time.Unix(1_900_000_123, 0)))
	if !bytes.Equal(x, y) {
		t.Fatalf("same files, different layers:\n%s\n%s", list(t, x), list(t, y))
	}
	// And they are what a layer should hold.
	tr := tar.NewReader(bytes.NewReader(x))
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if !h.ModTime.Equal(epoch) || h.Uname != "" || h.Gname != "" || !h.AccessTime.IsZero() {
			t.Errorf("%s: time %v, owner %q/%q, atime %v: not canonical", h.Name, h.ModTime, h.Uname, h.Gname, h.AccessTime)
		}
		if _, ok := h.PAXRecords["atime"]; ok {
			t.Errorf("%s keeps its atime record", h.Name)
		}
		switch h.Name {
		case "usr/bin/perl":
			if h.Typeflag != tar.TypeReg {
				t.Errorf("usr/bin/perl, the first name of its link group, is type %q, want the file", h.Typeflag)
			}
		case "usr/bin/perl5.36":
			if h.Typeflag != tar.TypeLink || h.Linkname != "usr/bin/perl" {
				t.Errorf("usr/bin/perl5.36: type %q link %q, want a hard link to usr/bin/perl", h.Typeflag, h.Linkname)
			}
		case "usr/bin/ping":
			if h.PAXRecords["SCHILY.xattr.security.capability"] == "" {
				t.Error("usr/bin/ping lost its file capability")
			}
		case "etc/shadow":
			if h.Gid != 42 || h.Mode != 0o640 {
				t.Errorf("etc/shadow: gid %d mode %o, want 42 and 0640 kept", h.Gid, h.Mode)
			}
		case "dev/null":
			if h.Devmajor != 1 || h.Devminor != 3 {
				t.Errorf("dev/null: device %d,%d", h.Devmajor, h.Devminor)
			}
		}
	}
	want := []string{"dev/", "dev/null", "etc/", "etc/shadow", "usr/", "usr/bin/", "usr/bin/perl", "usr/bin/perl5.36", "usr/bin/ping", "usr/bin/python3"}
	if !slices.Equal(names, want) {
		t.Fatalf("entries %q, want sorted with parents added: %q", names, want)
	}
}

// Different content gives different bytes: the canonical form drops
// times and names of owners, never what a file holds or who owns it.
func TestWriteKeepsWhatMatters(t *testing.T) {
	base := normalized(t, tarOf(t, rootfs(), epoch))
	for name, change := range map[string]func(e *Entry){
		"content": func(e *Entry) { e.Data = []byte("perk") },
		"mode":    func(e *Entry) { e.Header.Mode = 0o4755 },
		"uid":     func(e *Entry) { e.Header.Uid = 1000 },
	} {
		es := rootfs()
		change(&es[3])
		if bytes.Equal(base, normalized(t, tarOf(t, es, epoch))) {
			t.Errorf("changing a file's %s left the layer the same", name)
		}
	}
}

// An entry that climbs out of the root, a link to nothing, a name twice,
// an unknown kind of entry: each is refused, never written.
func TestRefusesBadEntries(t *testing.T) {
	for name, e := range map[string]Entry{
		"dot-dot":       {Header: tar.Header{Typeflag: tar.TypeReg, Name: "usr/../../etc/passwd", Mode: 0o644}, Data: []byte("x")},
		"link escapes":  {Header: tar.Header{Typeflag: tar.TypeLink, Name: "usr/x", Linkname: "../../etc/shadow"}},
		"dangling link": {Header: tar.Header{Typeflag: tar.TypeLink, Name: "usr/x", Linkname: "usr/nothing"}},
		"twice":         {Header: tar.Header{Typeflag: tar.TypeReg, Name: "./etc/shadow", Mode: 0o644}, Data: []byte("x")},
		"unknown kind":  {Header: tar.Header{Typeflag: 'V', Name: "volume"}},
		"link to a dir": {Header: tar.Header{Typeflag: tar.TypeLink, Name: "usr/x", Linkname: "usr/bin"}},
	} {
		t.Run(name, func(t *testing.T) {
			raw := tarOf(t, append(rootfs(), e), epoch)
			entries, err := FromTar(bytes.NewReader(raw))
			if err == nil {
				_, err = Bytes(entries, epoch)
			}
			if err == nil {
				t.Fatalf("%s: accepted", name)
			}
		})
	}
	// The honest twin: nested names with dots that stay inside.
	ok := Entry{Header: tar.Header{Typeflag: tar.TypeReg, Name: "./usr/lib/../share/x..y", Mode: 0o644}, Data: []byte("x")}
	if _, err := Bytes(append(mustFromTar(t, tarOf(t, rootfs(), epoch)), ok), epoch); err != nil {
		t.Fatalf("an entry inside the root: %v", err)
	}
}

func mustFromTar(t testing.TB, raw []byte) []Entry {
	t.Helper()
	e, err := FromTar(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func zipOf(t testing.TB, names ...string) *zip.Reader {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(n, "/") {
			io.WriteString(w, n)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

func TestFromZip(t *testing.T) {
	const prefix = "golang.org/toolchain@v0.0.1-go1.26.8.linux-amd64/"
	zr := zipOf(t, prefix+"bin/go", prefix+"pkg/tool/linux_amd64/compile", prefix+"src/fmt/print.go", prefix+"VERSION")
	entries, err := FromZip(zr, prefix, "usr/local/go")
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]int64{}
	for _, e := range entries {
		modes[e.Header.Name] = e.Header.Mode
	}
	want := map[string]int64{
		"usr/local/go/bin/go":                       0o755,
		"usr/local/go/pkg/tool/linux_amd64/compile": 0o755,
		"usr/local/go/src/fmt/print.go":             0o644,
		"usr/local/go/VERSION":                      0o644,
	}
	for n, m := range want {
		if modes[n] != m {
			t.Errorf("%s: mode %o, want %o", n, modes[n], m)
		}
	}
	// A member outside the module's prefix, or climbing out of dest.
	for _, bad := range []string{"other@v1/bin/go", prefix + "../../../etc/passwd", prefix + "../x"} {
		if _, err := FromZip(zipOf(t, prefix+"VERSION", bad), prefix, "usr/local/go"); err == nil {
			t.Errorf("zip member %q accepted", bad)
		}
	}
}

func list(t testing.TB, raw []byte) string {
	t.Helper()
	var b strings.Builder
	tr := tar.NewReader(bytes.NewReader(raw))
	for {
		h, err := tr.Next()
		if err != nil {
			return b.String()
		}
		b.WriteString(h.Name + " ")
	}
}

// FuzzFromTar: any input is refused or becomes a layer that reads back
// as a tar of the same entries, sorted, and normalizing it again changes
// nothing.
func FuzzFromTar(f *testing.F) {
	f.Add(tarOf(f, rootfs(), epoch))
	f.Add([]byte("not a tar"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		entries, err := FromTar(bytes.NewReader(raw))
		if err != nil {
			return
		}
		out, err := Bytes(entries, epoch)
		if err != nil {
			return
		}
		again, err := FromTar(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("a written layer does not read back: %v", err)
		}
		var names []string
		for _, e := range again {
			names = append(names, e.Header.Name)
		}
		if !slices.IsSorted(names) {
			t.Fatalf("entries not sorted: %q", names)
		}
		twice, err := Bytes(again, epoch)
		if err != nil || !bytes.Equal(out, twice) {
			t.Fatalf("normalizing a layer again changed it (%v)", err)
		}
	})
}

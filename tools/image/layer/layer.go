// Package layer writes the file system layers of the sealgate image as
// reproducible tar streams: the same files always give the same bytes,
// whatever order they came in and whenever they were made. Entries are
// sorted by name, every time stamp is the build's SOURCE_DATE_EPOCH, owner
// names are dropped (numeric ids stay), and only the extended attributes of
// a file survive among the PAX records.
package layer

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"
)

// maxEntry bounds one file read into memory (the largest file of the
// image, the Go toolchain's compile binary, is tens of MiB).
const maxEntry = 1 << 30

// Entry is one file, directory or link of a layer. Name is relative and
// slash-separated, without a leading "./" or "/"; directories have no
// trailing slash here (Write adds it).
type Entry struct {
	Header tar.Header
	Data   []byte
}

// cleanName makes a tar or zip member name relative and canonical, and
// refuses one that climbs out of the root ("../etc/passwd"): a layer that
// writes outside the image's root is never produced.
func cleanName(name string) (string, error) {
	n := strings.TrimLeft(name, "/")
	n = strings.TrimPrefix(n, "./")
	n = strings.TrimLeft(n, "/")
	if n == "" || n == "." {
		return "", nil
	}
	c := path.Clean(n)
	if c == ".." || strings.HasPrefix(c, "../") || strings.Contains(name, "\x00") {
		return "", fmt.Errorf("entry %q leaves the root", name)
	}
	return c, nil
}

// FromTar reads every entry of a tar stream (the root file system that
// mmdebstrap writes). The root directory itself is dropped.
func FromTar(r io.Reader) ([]Entry, error) {
	tr := tar.NewReader(r)
	var out []Entry
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read tar: %w", err)
		}
		name, err := cleanName(h.Name)
		if err != nil {
			return nil, err
		}
		if name == "" {
			continue
		}
		e := Entry{Header: *h}
		e.Header.Name = name
		switch h.Typeflag {
		case tar.TypeReg, tar.TypeDir, tar.TypeSymlink, tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		case tar.TypeLink:
			target, err := cleanName(h.Linkname)
			if err != nil || target == "" {
				return nil, fmt.Errorf("hard link %q to %q: not a file in the archive", h.Name, h.Linkname)
			}
			e.Header.Linkname = target
		default:
			return nil, fmt.Errorf("entry %q: tar type %q is not a file, directory, link or device", h.Name, h.Typeflag)
		}
		if h.Typeflag == tar.TypeReg {
			if h.Size < 0 || h.Size > maxEntry {
				return nil, fmt.Errorf("entry %q: size %d out of range", h.Name, h.Size)
			}
			data, err := io.ReadAll(io.LimitReader(tr, maxEntry))
			if err != nil {
				return nil, fmt.Errorf("read %q: %w", h.Name, err)
			}
			e.Data = data
		}
		out = append(out, e)
	}
}

// FromZip reads a module zip (the Go toolchain module
// golang.org/toolchain@VERSION): every member must lie under prefix, which
// is replaced by dest. Zip members carry no modes; as cmd/go does when it
// runs a toolchain from the module cache, files under bin/ and pkg/tool/
// are made executable and every other file is 0644.
func FromZip(zr *zip.Reader, prefix, dest string) ([]Entry, error) {
	var out []Entry
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			return nil, fmt.Errorf("zip member %q is not under %q", f.Name, prefix)
		}
		name, err := cleanName(path.Join(dest, rel))
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(name+"/", strings.Trim(dest, "/")+"/") {
			return nil, fmt.Errorf("zip member %q leaves %s", f.Name, dest)
		}
		if strings.HasSuffix(f.Name, "/") {
			out = append(out, Entry{Header: tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: 0o755}})
			continue
		}
		if f.UncompressedSize64 > maxEntry {
			return nil, fmt.Errorf("zip member %q: size %d out of range", f.Name, f.UncompressedSize64)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("open %q: %w", f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxEntry))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("read %q: %w", f.Name, err)
		}
		mode := int64(0o644)
		if strings.HasPrefix(rel, "bin/") || strings.HasPrefix(rel, "pkg/tool/") {
			mode = 0o755
		}
		out = append(out, Entry{Header: tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data))}, Data: data})
	}
	return out, nil
}

// File is a regular file owned by root.
func File(name string, mode int64, data []byte) Entry {
	return Entry{Header: tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data))}, Data: data}
}

// Write writes entries as one tar stream in a canonical form: sorted by
// name, each missing parent directory added (root-owned, 0755), every time
// stamp set to epoch, owner names dropped, PAX records other than extended
// attributes dropped, and hard links pointing at the first name of their
// group, which holds the data. Two entries of one name are an error: which
// one wins would depend on the order they came in.
func Write(w io.Writer, entries []Entry, epoch time.Time) error {
	byName := make(map[string]*Entry, len(entries))
	for i := range entries {
		e := &entries[i]
		name, err := cleanName(e.Header.Name)
		if err != nil {
			return err
		}
		if name == "" {
			continue
		}
		if _, dup := byName[name]; dup {
			return fmt.Errorf("entry %q appears twice", name)
		}
		e.Header.Name = name
		byName[name] = e
	}
	for name := range byName {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if _, ok := byName[d]; !ok {
				byName[d] = &Entry{Header: tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755}}
			}
		}
	}
	if err := relink(byName); err != nil {
		return err
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	tw := tar.NewWriter(w)
	for _, n := range names {
		e := byName[n]
		h := canonical(e.Header, epoch)
		data := e.Data
		if h.Typeflag != tar.TypeReg {
			data = nil
		}
		h.Size = int64(len(data))
		if err := tw.WriteHeader(&h); err != nil {
			return fmt.Errorf("write %q: %w", n, err)
		}
		if _, err := tw.Write(data); err != nil {
			return fmt.Errorf("write %q: %w", n, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("close tar: %w", err)
	}
	return nil
}

// relink makes each group of hard-linked names canonical: the group's
// smallest name becomes the regular file holding the data, the others link
// to it, so sorting never puts a link before its target.
func relink(byName map[string]*Entry) error {
	groups := map[string][]string{} // target -> names linking to it
	for n, e := range byName {
		if e.Header.Typeflag != tar.TypeLink {
			continue
		}
		target := e.Header.Linkname
		// A link to a link: follow to the file (bounded by the entry count).
		for range len(byName) {
			t, ok := byName[target]
			if !ok || t.Header.Typeflag != tar.TypeLink {
				break
			}
			target = t.Header.Linkname
		}
		t, ok := byName[target]
		if !ok || t.Header.Typeflag != tar.TypeReg {
			return fmt.Errorf("hard link %q: target %q is not a file in the layer", n, e.Header.Linkname)
		}
		groups[target] = append(groups[target], n)
	}
	for target, links := range groups {
		all := append([]string{target}, links...)
		first := slices.Min(all)
		file := *byName[target]
		for _, n := range all {
			e := byName[n]
			if n == first {
				file.Header.Name = n
				*e = file
				continue
			}
			h := file.Header
			h.Name, h.Typeflag, h.Linkname, h.Size = n, tar.TypeLink, first, 0
			*e = Entry{Header: h}
		}
	}
	return nil
}

// canonical is h with everything that depends on when or by whom it was
// made removed.
func canonical(h tar.Header, epoch time.Time) tar.Header {
	out := tar.Header{
		Typeflag: h.Typeflag,
		Name:     h.Name,
		Linkname: h.Linkname,
		Mode:     h.Mode & 0o7777,
		Uid:      h.Uid,
		Gid:      h.Gid,
		ModTime:  epoch.UTC(),
		Devmajor: h.Devmajor,
		Devminor: h.Devminor,
		Format:   tar.FormatPAX,
	}
	if h.Typeflag == tar.TypeDir {
		out.Name += "/"
	}
	if h.Typeflag != tar.TypeChar && h.Typeflag != tar.TypeBlock {
		out.Devmajor, out.Devminor = 0, 0
	}
	for k, v := range h.PAXRecords {
		if strings.HasPrefix(k, "SCHILY.xattr.") {
			if out.PAXRecords == nil {
				out.PAXRecords = map[string]string{}
			}
			out.PAXRecords[k] = v
		}
	}
	return out
}

// Bytes is Write into memory, for tests and small layers.
func Bytes(entries []Entry, epoch time.Time) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, entries, epoch); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

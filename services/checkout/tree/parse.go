package tree

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// rawEntry is one record of `git ls-tree -r -z` output, not yet judged.
type rawEntry struct {
	mode, typ, oid, path string
}

// parseLsTree parses `git ls-tree -z` output: records
// "<mode> SP <type> SP <oid> TAB <path>" each ended by NUL. Empty output is
// an empty tree. It checks form only; paths are judged by List.
func parseLsTree(out []byte, hexLen int) ([]rawEntry, error) {
	if len(out) == 0 {
		return nil, nil
	}
	if out[len(out)-1] != 0 {
		return nil, fmt.Errorf("tree: ls-tree: last record not NUL-terminated: %w", ErrGitOutput)
	}
	recs := bytes.Split(out[:len(out)-1], []byte{0})
	entries := make([]rawEntry, 0, len(recs))
	for i, rec := range recs {
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			return nil, fmt.Errorf("tree: ls-tree: record %d has no TAB: %w", i+1, ErrGitOutput)
		}
		meta := strings.Split(string(rec[:tab]), " ")
		if len(meta) != 3 {
			return nil, fmt.Errorf("tree: ls-tree: record %d: %q is not \"mode type oid\": %w", i+1, rec[:tab], ErrGitOutput)
		}
		e := rawEntry{mode: meta[0], typ: meta[1], oid: meta[2], path: string(rec[tab+1:])}
		if !isOctal(e.mode) || len(e.mode) != 6 {
			return nil, fmt.Errorf("tree: ls-tree: record %d: mode %q: %w", i+1, e.mode, ErrGitOutput)
		}
		if !isLowerAlpha(e.typ) {
			return nil, fmt.Errorf("tree: ls-tree: record %d: type %q: %w", i+1, e.typ, ErrGitOutput)
		}
		if !isHexID(e.oid, hexLen) {
			return nil, fmt.Errorf("tree: ls-tree: record %d: object id %q: %w", i+1, e.oid, ErrGitOutput)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// parseBatchHeader parses a `git cat-file --batch` header line without its
// LF: "<oid> <type> <size>", or "<name> missing" / "<name> ambiguous", which
// it reports as ErrObject.
func parseBatchHeader(line string, hexLen int) (oid, typ string, size int64, err error) {
	f := strings.Split(line, " ")
	if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
		return "", "", 0, fmt.Errorf("object %q is %s: %w", f[0], f[1], ErrObject)
	}
	if len(f) != 3 {
		return "", "", 0, fmt.Errorf("header %q is not \"oid type size\": %w", line, ErrGitOutput)
	}
	if !isHexID(f[0], hexLen) {
		return "", "", 0, fmt.Errorf("header %q: object id: %w", line, ErrGitOutput)
	}
	if !isLowerAlpha(f[1]) {
		return "", "", 0, fmt.Errorf("header %q: type: %w", line, ErrGitOutput)
	}
	if f[2] == "" || strings.Trim(f[2], "0123456789") != "" || (len(f[2]) > 1 && f[2][0] == '0') {
		return "", "", 0, fmt.Errorf("header %q: size: %w", line, ErrGitOutput)
	}
	n, perr := strconv.ParseInt(f[2], 10, 64)
	if perr != nil {
		return "", "", 0, fmt.Errorf("header %q: size: %w", line, ErrGitOutput)
	}
	return f[0], f[1], n, nil
}

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return s != ""
}

func isLowerAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// isHexID reports whether s is a lower-case hex object id of length n.
func isHexID(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

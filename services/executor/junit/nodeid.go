package junit

import (
	"fmt"
	"strings"
)

// NodeID returns the pytest node id of c, as far as the case tells:
//   - when c.File is set and its dotted form (see the package
//     documentation) is the classname or starts it followed by ".", the
//     node id is the file, then the rest of the classname's components
//     (classes), then the name, joined with "::". This is exact.
//   - otherwise the trailing components of the classname that start with
//     "Test" (pytest's default python_classes) are classes and the rest is
//     the module path, each "." read as "/", plus ".py". This is wrong for
//     a directory or module name with a dot in it, a module whose name
//     starts with "Test" or a class whose name does not (non-default
//     python_files or python_classes), a test file that is not a .py file,
//     and a classname with a --junit-prefix.
//   - a case with an empty classname (a collection error) gives the module
//     path alone.
//
// Names pytest escaped come back escaped. For cases other tools wrote, the
// result is merely classname and name in pytest's form.
func NodeID(c Case) string {
	if c.File != "" {
		mod := dottedPath(c.File)
		if c.Classname == "" && c.Name == mod {
			return c.File
		}
		if c.Classname == mod {
			return c.File + "::" + c.Name
		}
		if rest, ok := strings.CutPrefix(c.Classname, mod+"."); ok {
			return c.File + "::" + strings.ReplaceAll(rest, ".", "::") + "::" + c.Name
		}
	}
	if c.Classname == "" {
		return strings.ReplaceAll(c.Name, ".", "/") + ".py"
	}
	parts := strings.Split(c.Classname, ".")
	k := len(parts)
	for k > 1 && strings.HasPrefix(parts[k-1], "Test") {
		k--
	}
	id := strings.Join(parts[:k], "/") + ".py"
	for _, class := range parts[k:] {
		id += "::" + class
	}
	return id + "::" + c.Name
}

// Find returns the case of r that pytest wrote for nodeID, and whether
// there is exactly one. See Match, which says why there is none.
func Find(r *Report, nodeID string) (Case, bool) {
	c, err := Match(r, nodeID)
	return c, err == nil
}

// Match returns the case of r that pytest wrote for the test nodeID. It
// maps nodeID to a classname and a name exactly as pytest does (see
// NodeID) and takes the cases with both. Then, for a case with a file
// attribute (junit_family=xunit1):
//   - a file other than the node id's path whose dotted form accounts for
//     the classname is another module's test (the "sub.dir" ambiguity): the
//     case is left out;
//   - a file that does not account for the classname is that of a test
//     function defined in another module (imported, or inherited from a
//     base class elsewhere): the case stays.
//
// Exactly one case left is the match. None is ErrNotFound; more than one
// (two modules whose paths differ only in "." and "/" without file
// attributes, or one test reported twice) is ErrAmbiguous: a claim never
// picks one of several. nodeID must name a test ("path::name"), relative,
// without "." or ".." components (ErrNodeID).
func Match(r *Report, nodeID string) (Case, error) {
	path, classname, name, err := pytestAddress(nodeID)
	if err != nil {
		return Case{}, err
	}
	var found []int
	for i, c := range r.Cases {
		if c.Classname != classname || c.Name != name {
			continue
		}
		if c.File != "" && c.File != path && accountsFor(c.File, c.Classname) {
			continue
		}
		found = append(found, i)
	}
	switch len(found) {
	case 0:
		return Case{}, fmt.Errorf("junit: %w: no case with classname %s and name %s for node id %s", ErrNotFound, short(classname), short(name), short(nodeID))
	case 1:
		return r.Cases[found[0]], nil
	default:
		return Case{}, fmt.Errorf("junit: %w: %d cases with classname %s and name %s for node id %s", ErrAmbiguous, len(found), short(classname), short(name), short(nodeID))
	}
}

// pytestAddress returns the node id's path and the classname and name
// pytest writes for it.
func pytestAddress(nodeID string) (path, classname, name string, err error) {
	head, params, hasParams := strings.Cut(nodeID, "[")
	pieces := strings.Split(head, "::")
	if len(pieces) < 2 {
		return "", "", "", nodeIDErr(nodeID, `names no test (want "path::name")`)
	}
	path = pieces[0]
	if path == "" || strings.HasPrefix(path, "/") {
		return "", "", "", nodeIDErr(nodeID, "path is not relative to the rootdir")
	}
	for _, elem := range strings.Split(path, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return "", "", "", nodeIDErr(nodeID, `path has an empty, "." or ".." component`)
		}
	}
	for _, piece := range pieces[1:] {
		if piece == "" {
			return "", "", "", nodeIDErr(nodeID, `empty name between "::"`)
		}
	}
	last := pieces[len(pieces)-1]
	if hasParams {
		last += "[" + params
	}
	pieces[0] = dottedPath(path)
	return path, strings.Join(pieces[:len(pieces)-1], "."), escapeName(last), nil
}

func nodeIDErr(nodeID, why string) error {
	return fmt.Errorf("junit: %w: %s %s", ErrNodeID, short(nodeID), why)
}

// dottedPath is pytest's module path in a classname: "/" becomes "." and a
// final ".py" goes.
func dottedPath(path string) string {
	return strings.TrimSuffix(strings.ReplaceAll(path, "/", "."), ".py")
}

// accountsFor reports whether the module path of file is classname or
// starts it.
func accountsFor(file, classname string) bool {
	mod := dottedPath(file)
	return classname == mod || strings.HasPrefix(classname, mod+".")
}

// escapeName does what pytest's bin_xml_escape does to a name: characters
// outside its pattern of legal XML characters become "#xNN" (up to U+00FF)
// or "#xNNNN". The pattern leaves out DEL and, by a slip in its spelling
// of the last range, every character beyond U+FFFF.
func escapeName(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return !pytestLegal(r) }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case pytestLegal(r):
			b.WriteRune(r)
		case r <= 0xFF:
			fmt.Fprintf(&b, "#x%02X", r)
		default:
			fmt.Fprintf(&b, "#x%04X", r)
		}
	}
	return b.String()
}

func pytestLegal(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		(r >= 0x20 && r <= 0x7E) || (r >= 0x80 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD)
}

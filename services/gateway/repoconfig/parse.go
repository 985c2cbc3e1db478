package repoconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxFileSize bounds what is read: a configuration is a few hundred bytes,
// and the parser's work grows with its input.
const maxFileSize = 1 << 20

// Parse reads a .sealgate.yaml strictly: one YAML document, no anchors,
// aliases, tags or merge keys, no unknown keys at any level, every value of
// its type and in range. An error is one line naming the key (with its line
// in the file where known) and saying what to write instead.
func Parse(b []byte) (*Config, error) {
	c, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", FileName, err)
	}
	return c, nil
}

// Load reads and parses repoDir/.sealgate.yaml. A repository without the
// file has no configuration: Load returns nil, nil. Every other failure is
// an error, a missing or unreadable repoDir included, so that a mistyped
// directory is not taken for a repository without configuration.
func Load(repoDir string) (*Config, error) {
	name := filepath.Join(repoDir, FileName)
	b, found, err := readFile(repoDir)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	if !found {
		return nil, nil
	}
	c, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// readFile returns the configuration file's bytes, or found false when the
// directory holds no such file. It reads through an os.Root so that a link
// cannot point the read outside the repository, and it refuses anything
// but a regular file: a FIFO would block, a link is the tree's author
// choosing what sealgate reads.
func readFile(repoDir string) (b []byte, found bool, err error) {
	root, err := os.OpenRoot(repoDir)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	before, err := root.Lstat(FileName)
	if errors.Is(err, fs.ErrNotExist) {
		// The directory opened, so only the file is missing.
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !before.Mode().IsRegular() {
		return nil, false, fmt.Errorf("it is not a regular file (%v); make it a plain file", before.Mode().Type())
	}
	f, err := root.Open(FileName)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !os.SameFile(before, after) {
		return nil, false, errors.New("it was replaced while being opened; try again")
	}
	// One byte over the limit is enough for Parse to refuse the size.
	b, err = io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

func parse(b []byte) (*Config, error) {
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("over the %d-byte limit; a configuration is a few lines", maxFileSize)
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("line %d: not valid UTF-8; save the file as UTF-8", invalidUTF8Line(b))
	}
	if line := tabIndentedLine(b); line > 0 {
		return nil, fmt.Errorf("line %d: tab in the indentation; indent with spaces only", line)
	}
	root, err := parseTree(b)
	if err != nil {
		return nil, err
	}
	if err := checkTop(root); err != nil {
		return nil, err
	}
	c, err := decodeStrict(b)
	if err != nil {
		return nil, err
	}
	c.normalize()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func invalidUTF8Line(b []byte) int {
	line := 1
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			break
		}
		if r == '\n' {
			line++
		}
		b = b[size:]
	}
	return line
}

// tabIndentedLine returns the first line (from 1) whose indentation holds a
// tab, or 0. YAML forbids tabs there, and the parser's own message for them
// ("found character that cannot start any token") does not say so.
func tabIndentedLine(b []byte) int {
	for i, line := range strings.Split(string(b), "\n") {
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		rest := strings.TrimSpace(line)
		if strings.Contains(indent, "\t") && rest != "" && !strings.HasPrefix(rest, "#") {
			return i + 1
		}
	}
	return 0
}

// parseTree parses b into a node tree, without resolving aliases, and
// returns the root node of its only document.
func parseTree(b []byte) (root *yaml.Node, err error) {
	defer recoverYAML(&err)
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("empty; write at least `version: %d`", Version)
		}
		return nil, yamlError(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, fmt.Errorf("line %d: a second YAML document; keep one document, without ---", next.Line)
	case !errors.Is(err, io.EOF):
		return nil, yamlError(err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("not a YAML document; write at least `version: %d`", Version)
	}
	return doc.Content[0], nil
}

// decodeStrict decodes b into a Config with unknown fields refused. checkTop
// has refused everything this decoder would report already, with a better
// message; KnownFields stays on so that the two cannot drift apart silently.
func decodeStrict(b []byte) (c *Config, err error) {
	defer recoverYAML(&err)
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	c = new(Config)
	if err := dec.Decode(c); err != nil {
		return nil, yamlError(err)
	}
	return c, nil
}

// recoverYAML turns a panic inside the YAML library into an error: Parse
// reads outside input and must answer, not crash, even on a library bug.
func recoverYAML(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("the YAML parser failed on this file (%v); simplify the file", r)
	}
}

// yamlError makes one line of a YAML library error.
func yamlError(err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) {
		msg = strings.Join(te.Errors, "; ")
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.Join(strings.Fields(msg), " ")
	return fmt.Errorf("%s; fix the YAML there", msg)
}

// normalize makes empty lists and maps absent, so that a file saying
// `seal: []` and one without seal are the same Config and a round trip
// through Marshal (which omits empty values) is exact.
func (c *Config) normalize() {
	if len(c.Stacks) == 0 {
		c.Stacks = nil
	}
	if len(c.Seal) == 0 {
		c.Seal = nil
	}
	if len(c.Commands) == 0 {
		c.Commands = nil
	}
	if len(c.TestSupport) == 0 {
		c.TestSupport = nil
	}
}

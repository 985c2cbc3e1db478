package checkout

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Bounds of the Python source the scanner reads. The nesting and
// indentation limits are CPython's own (MAXLEVEL, MAXINDENT): source beyond
// them does not compile.
const (
	maxPythonLines   = 100_000
	maxPythonBytes   = 8 << 20
	maxPythonNesting = 200
	maxPythonIndent  = 100
)

// PythonTestFuncs returns the pytest node-id suffixes of the tests the
// Python test module src declares, sorted and without duplicates:
//
//   - "name" for a function whose name starts with "test" (pytest's
//     default python_functions), def or async def, bound at module level:
//     at the top or inside if/try/with/for/while/match blocks, which bind
//     module names too;
//   - "Class::name" for such a method of a test class, and
//     "Outer::Inner::name" for a test class nested in a test class. A test
//     class is one whose name starts with "Test" (pytest's default
//     python_classes) or one with a base-class list, since a
//     unittest.TestCase subclass is collected whatever its name; whether
//     it defines __init__ is not checked.
//
// Functions inside functions are not tests, nor are functions decorated
// with @pytest.fixture or @fixture (with or without arguments). Names bound
// otherwise (assignment, import), inherited test methods, parametrization
// ids and a pytest configuration that changes the default name patterns
// are not seen: the list is what the module's own def statements declare.
//
// The source is scanned line by line as CPython's tokenizer does:
// indentation, comments, string literals of every form (single, triple,
// prefixed r/b/u/f/t, f-string replacement fields with nested strings as
// Python 3.12 reads them), backslash and bracket continuations, and
// decorators. What the scanner cannot read exactly is an error: invalid
// UTF-8, a NUL byte, a coding declaration other than UTF-8 (or an ASCII
// superset on ASCII-only source), a tab and a space in one line's
// indentation or indentation whose meaning depends on the tab size, an
// unexpected indent or dedent, an unterminated string or bracket, a
// mismatched bracket, a non-ASCII character outside strings and comments
// (CPython NFKC-normalizes identifiers), a decorator not followed by def or
// class, nesting beyond CPython's limits, more than 100,000 lines or more
// than 8 MiB.
func PythonTestFuncs(src []byte) ([]string, error) {
	m, err := scanPython(src)
	if err != nil {
		return nil, err
	}
	return m.tests, nil
}

// pythonHarnessDecls returns the source text of every declaration of src
// that can take part in pytest's harness, sorted: outside function bodies
// (at module level, in compound blocks, in class bodies),
//
//   - a def or async def named pytest_* (a hook, or pytest_generate_tests
//     of a module or class), with its decorators and body, and a
//     module-level __getattr__ or __dir__, which can make such names
//     appear;
//   - a statement that names pytest_plugins, names something pytest_*
//     other than as a module whose attribute it reads (pytest_x.y), binds
//     such a name by import, imports with *, or binds names dynamically
//     (globals, locals, vars, setattr, exec, __dict__): the logical line.
func pythonHarnessDecls(src []byte) ([]string, error) {
	m, err := scanPython(src)
	if err != nil {
		return nil, err
	}
	return m.harness, nil
}

// pyModule is what the scanner found in a module.
type pyModule struct {
	tests   []string
	harness []string
}

type pyTokKind uint8

const (
	pyName pyTokKind = iota + 1
	pyString
	pyNumber
	pyOp
)

// pyToken is a token of a logical line. depth is the bracket depth it
// stands at within the line (an opening bracket stands outside itself),
// at most maxPythonNesting; offsets fit since the source is at most
// maxPythonBytes.
type pyToken struct {
	kind       pyTokKind
	depth      uint8
	start, end int32
}

// pyLine is a logical line.
type pyLine struct {
	col, alt int // indentation with tab size 8 and tab size 1
	line     int // its first physical line, 1-based
	toks     []pyToken
}

func (l *pyLine) start() int { return int(l.toks[0].start) }
func (l *pyLine) end() int   { return int(l.toks[len(l.toks)-1].end) }

// pyScanner splits Python source into logical lines.
type pyScanner struct {
	src  string
	pos  int
	line int       // current physical line, 1-based
	nest int       // open brackets and f-string fields, for the nesting bound
	toks []pyToken // reused by each logical line
}

func (s *pyScanner) errorf(format string, args ...any) error {
	return fmt.Errorf("checkout: python source line %d: %s", s.line, fmt.Sprintf(format, args...))
}

func (s *pyScanner) eof() bool { return s.pos >= len(s.src) }

// peek returns the byte at pos+i, or 0 past the end.
func (s *pyScanner) peek(i int) byte {
	if s.pos+i < len(s.src) {
		return s.src[s.pos+i]
	}
	return 0
}

// newline consumes a newline (\n, \r\n or \r) at pos, if there is one.
func (s *pyScanner) newline() bool {
	switch s.peek(0) {
	case '\n':
		s.pos++
	case '\r':
		s.pos++
		if s.peek(0) == '\n' {
			s.pos++
		}
	default:
		return false
	}
	s.line++
	return true
}

func (s *pyScanner) skipComment() {
	for !s.eof() && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
		s.pos++
	}
}

func (s *pyScanner) enter() error {
	s.nest++
	if s.nest > maxPythonNesting {
		return s.errorf("brackets and f-strings nested more than %d deep", maxPythonNesting)
	}
	return nil
}

func isIdentStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isIdentByte(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// isStringPrefix reports the string prefixes Python accepts (t-strings
// are Python 3.14's).
func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt":
		return true
	}
	return false
}

// pyOps are Python's operators and delimiters of more than one byte,
// longest first.
var pyOps = []string{"**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|="}

// closer returns the closing bracket of an opening one.
func closer(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// indentation reads the indentation at the start of a physical line.
func (s *pyScanner) indentation() (col, alt int, err error) {
	tab, space := false, false
	for !s.eof() {
		switch s.src[s.pos] {
		case ' ':
			col++
			alt++
			space = true
		case '\t':
			col = (col/8 + 1) * 8
			alt++
			tab = true
		case '\f':
			col, alt = 0, 0
		default:
			if tab && space && !s.blankRest() {
				return 0, 0, s.errorf("tabs and spaces mixed in indentation")
			}
			return col, alt, nil
		}
		s.pos++
	}
	return col, alt, nil
}

// blankRest reports whether the physical line holds nothing from pos on but
// a comment.
func (s *pyScanner) blankRest() bool {
	c := s.peek(0)
	return s.eof() || c == '#' || c == '\n' || c == '\r'
}

// next returns the next logical line; ok is false at the end.
func (s *pyScanner) next() (l pyLine, ok bool, err error) {
	for {
		if s.eof() {
			return pyLine{}, false, nil
		}
		if l.col, l.alt, err = s.indentation(); err != nil {
			return pyLine{}, false, err
		}
		if s.eof() {
			return pyLine{}, false, nil
		}
		if s.peek(0) == '#' {
			s.skipComment()
		}
		if s.eof() {
			return pyLine{}, false, nil
		}
		if !s.newline() {
			break
		}
	}
	l.line = s.line
	l.toks = s.toks[:0]
	defer func() { s.toks = l.toks }()
	var stack []byte
	defer func() { s.nest -= len(stack) }()
	for {
		if s.eof() {
			if len(stack) > 0 {
				return pyLine{}, false, s.errorf("bracket %q is not closed", stack[len(stack)-1])
			}
			return l, true, nil
		}
		start := s.pos
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			s.pos++
		case c == '#':
			s.skipComment()
		case c == '\n' || c == '\r':
			s.newline()
			if len(stack) == 0 {
				return l, true, nil
			}
		case c == '\\':
			s.pos++
			if !s.newline() {
				return pyLine{}, false, s.errorf("a backslash continuation is not followed by a newline")
			}
			if len(l.toks) == 0 {
				return pyLine{}, false, s.errorf("a line starts with a backslash continuation")
			}
			if s.eof() {
				return pyLine{}, false, s.errorf("the source ends in a backslash continuation")
			}
		case c == '(' || c == '[' || c == '{':
			l.toks = append(l.toks, pyToken{kind: pyOp, depth: uint8(len(stack)), start: int32(start), end: int32(start + 1)})
			stack = append(stack, c)
			if err := s.enter(); err != nil {
				return pyLine{}, false, err
			}
			s.pos++
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 || closer(stack[len(stack)-1]) != c {
				return pyLine{}, false, s.errorf("unmatched %q", c)
			}
			stack = stack[:len(stack)-1]
			s.nest--
			s.pos++
			l.toks = append(l.toks, pyToken{kind: pyOp, depth: uint8(len(stack)), start: int32(start), end: int32(s.pos)})
		default:
			kind, err := s.token()
			if err != nil {
				return pyLine{}, false, err
			}
			l.toks = append(l.toks, pyToken{kind: kind, depth: uint8(len(stack)), start: int32(start), end: int32(s.pos)})
		}
	}
}

// token reads a name, string, number or operator at pos (not a bracket,
// blank, comment, newline or backslash).
func (s *pyScanner) token() (pyTokKind, error) {
	c := s.src[s.pos]
	switch {
	case c == '"' || c == '\'':
		return pyString, s.str("")
	case isIdentStart(c):
		start := s.pos
		for !s.eof() && isIdentByte(s.src[s.pos]) {
			s.pos++
		}
		if s.peek(0) >= utf8.RuneSelf {
			return 0, s.errorf("non-ASCII identifier")
		}
		if q := s.peek(0); (q == '"' || q == '\'') && isStringPrefix(s.src[start:s.pos]) {
			return pyString, s.str(s.src[start:s.pos])
		}
		return pyName, nil
	case c >= '0' && c <= '9', c == '.' && s.peek(1) >= '0' && s.peek(1) <= '9':
		for !s.eof() && (isIdentByte(s.src[s.pos]) || s.src[s.pos] == '.') {
			s.pos++
		}
		return pyNumber, nil
	case c >= utf8.RuneSelf:
		return 0, s.errorf("non-ASCII character outside strings and comments")
	case c < ' ' || c == 0x7f:
		return 0, s.errorf("control character %q outside strings", c)
	}
	if strings.IndexByte("!%&*+-./:<=>@^|", c) >= 0 {
		for _, op := range pyOps {
			if strings.HasPrefix(s.src[s.pos:], op) {
				s.pos += len(op)
				return pyOp, nil
			}
		}
	}
	s.pos++
	return pyOp, nil
}

// str reads a string literal whose opening quote is at pos.
func (s *pyScanner) str(prefix string) error {
	first := s.line
	q := s.src[s.pos]
	triple := strings.HasPrefix(s.src[s.pos:], strings.Repeat(string(q), 3))
	lower := strings.ToLower(prefix)
	format := strings.ContainsAny(lower, "ft")
	raw := strings.Contains(lower, "r")
	if triple {
		s.pos += 3
	} else {
		s.pos++
	}
	if format {
		if err := s.enter(); err != nil {
			return err
		}
		defer func() { s.nest-- }()
	}
	unterminated := func() error {
		return fmt.Errorf("checkout: python source line %d: unterminated string", first)
	}
	for {
		if s.eof() {
			return unterminated()
		}
		c := s.src[s.pos]
		switch {
		case c == '\\':
			s.pos++
			if s.eof() {
				return unterminated()
			}
			if s.newline() {
				continue
			}
			if format && (s.src[s.pos] == '{' || s.src[s.pos] == '}') {
				continue // the brace is not escaped
			}
			if format && !raw && s.src[s.pos] == 'N' && s.peek(1) == '{' {
				// \N{NAME}: the braces belong to the escape.
				end := strings.IndexAny(s.src[s.pos:], "}\"'\r\n")
				if end < 0 || s.src[s.pos+end] != '}' {
					return s.errorf("unterminated \\N{...} escape")
				}
				s.pos += end + 1
				continue
			}
			s.pos++
		case c == q:
			if !triple {
				s.pos++
				return nil
			}
			if strings.HasPrefix(s.src[s.pos:], strings.Repeat(string(q), 3)) {
				s.pos += 3
				return nil
			}
			s.pos++
		case c == '\n' || c == '\r':
			if !triple {
				return unterminated()
			}
			s.newline()
		case format && c == '{':
			if s.peek(1) == '{' {
				s.pos += 2
				continue
			}
			s.pos++
			if err := s.field(q, triple); err != nil {
				return err
			}
		case format && c == '}':
			if s.peek(1) != '}' {
				return s.errorf("f-string: single '}' is not allowed")
			}
			s.pos += 2
		default:
			s.pos++
		}
	}
}

// field reads an f-string replacement field after its '{', through its
// closing '}': an expression scanned as code (Python 3.12 allows any
// string, comment and newline in it), then an optional format spec.
func (s *pyScanner) field(q byte, triple bool) error {
	if err := s.enter(); err != nil {
		return err
	}
	var stack []byte
	defer func() { s.nest -= 1 + len(stack) }()
	for {
		if s.eof() {
			return s.errorf("f-string: expecting '}'")
		}
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			s.pos++
		case c == '#':
			s.skipComment()
		case c == '\n' || c == '\r':
			s.newline()
		case c == '\\':
			s.pos++
			if !s.newline() {
				return s.errorf("a backslash continuation is not followed by a newline")
			}
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
			if err := s.enter(); err != nil {
				return err
			}
			s.pos++
		case c == '}' && len(stack) == 0:
			s.pos++
			return nil
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 || closer(stack[len(stack)-1]) != c {
				return s.errorf("unmatched %q in an f-string", c)
			}
			stack = stack[:len(stack)-1]
			s.nest--
			s.pos++
		case c == ':' && len(stack) == 0:
			s.pos++
			return s.spec(q, triple)
		default:
			if _, err := s.token(); err != nil {
				return err
			}
		}
	}
}

// spec reads a format spec after its ':', through the '}' that closes the
// field: literal text in which '{' opens a nested field.
func (s *pyScanner) spec(q byte, triple bool) error {
	for {
		if s.eof() {
			return s.errorf("f-string: expecting '}'")
		}
		c := s.src[s.pos]
		switch {
		case c == '}':
			s.pos++
			return nil
		case c == '{':
			s.pos++
			if err := s.field(q, triple); err != nil {
				return err
			}
		case c == '\\':
			s.pos++
			if s.eof() {
				return s.errorf("f-string: expecting '}'")
			}
			if s.newline() {
				continue
			}
			if s.src[s.pos] == '{' || s.src[s.pos] == '}' {
				continue
			}
			s.pos++
		case c == q && (!triple || strings.HasPrefix(s.src[s.pos:], strings.Repeat(string(q), 3))):
			return s.errorf("f-string: expecting '}'")
		case c == '\n' || c == '\r':
			if !triple {
				return s.errorf("f-string: newline in the format spec of a single-quoted f-string")
			}
			s.newline()
		default:
			s.pos++
		}
	}
}

// checkPythonSource refuses source the scanner cannot read exactly, before
// any scanning, and returns it without a UTF-8 byte order mark.
func checkPythonSource(src []byte) (string, error) {
	if !utf8.Valid(src) {
		return "", fmt.Errorf("checkout: python source is not valid UTF-8")
	}
	if len(src) > maxPythonBytes {
		return "", fmt.Errorf("checkout: python source has more than %d bytes", maxPythonBytes)
	}
	if bytes.IndexByte(src, 0) >= 0 {
		return "", fmt.Errorf("checkout: python source holds a NUL byte")
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	// Physical lines: \n, \r\n and a lone \r each end one.
	n := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) - bytes.Count(src, []byte("\r\n"))
	if n > maxPythonLines {
		return "", fmt.Errorf("checkout: python source has more than %d lines", maxPythonLines)
	}
	text := string(src)
	if enc, ok := codingDeclaration(text); ok {
		switch enc = strings.ReplaceAll(strings.ToLower(enc), "_", "-"); {
		case enc == "utf-8" || strings.HasPrefix(enc, "utf-8-") || enc == "utf8":
		case isASCII(text) && (enc == "ascii" || enc == "us-ascii" || enc == "latin-1" || enc == "latin1" || enc == "iso-8859-1" || enc == "iso-latin-1" || strings.HasPrefix(enc, "latin-1-") || strings.HasPrefix(enc, "iso-8859-1-")):
		default:
			return "", fmt.Errorf("checkout: python source declares coding %q, which the scanner does not read", enc)
		}
	}
	return text, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// codingDeclaration returns the encoding a PEP 263 comment on the first or
// second line declares (the second only when the first is blank or a
// comment).
func codingDeclaration(src string) (string, bool) {
	for i := range 2 {
		line, rest, _ := strings.Cut(src, "\n")
		line, _, _ = strings.Cut(line, "\r")
		trimmed := strings.TrimLeft(line, " \t\f")
		if !strings.HasPrefix(trimmed, "#") {
			if i == 0 && trimmed == "" {
				src = rest
				continue
			}
			return "", false
		}
		// ^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)
		for j := 0; ; {
			k := strings.Index(trimmed[j:], "coding")
			if k < 0 {
				break
			}
			j += k + len("coding")
			if j < len(trimmed) && (trimmed[j] == ':' || trimmed[j] == '=') {
				name := strings.TrimLeft(trimmed[j+1:], " \t")
				end := 0
				for end < len(name) && (isIdentByte(name[end]) || name[end] == '-' || name[end] == '.') {
					end++
				}
				if end > 0 {
					return name[:end], true
				}
			}
		}
		src = rest
	}
	return "", false
}

// pyScope is what opened an indented block.
type pyScope struct {
	col, alt int
	path     string // node-id prefix of test classes ("TestA::TestB::"), when collectable
	collect  bool   // test functions in this block are collected
	inDef    bool   // the block is inside a function body
	module   bool   // the block binds module names (module level or compound blocks there)
	decl     int    // index in harness texts of the declaration this block extends, or -1
}

// scanPython reads a module: its tests and its harness declarations.
func scanPython(src []byte) (*pyModule, error) {
	text, err := checkPythonSource(src)
	if err != nil {
		return nil, err
	}
	s := &pyScanner{src: text, line: 1}
	m := &pyModule{}
	type span struct{ start, end int }
	var decls []span
	stack := []pyScope{{collect: true, module: true, decl: -1}}
	var opener *pyScope // the block the previous line opened
	var decorators []int
	decoratorFixture := false
	decoratorLevel := 0
	for {
		l, ok, err := s.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		top := &stack[len(stack)-1]
		switch {
		case opener != nil:
			if l.col <= top.col {
				return nil, fmt.Errorf("checkout: python source line %d: expected an indented block", l.line)
			}
			if l.alt <= top.alt {
				return nil, fmt.Errorf("checkout: python source line %d: indentation depends on the tab size", l.line)
			}
			if len(stack) >= maxPythonIndent {
				return nil, fmt.Errorf("checkout: python source line %d: more than %d levels of indentation", l.line, maxPythonIndent)
			}
			opener.col, opener.alt = l.col, l.alt
			stack = append(stack, *opener)
			opener = nil
		case l.col > top.col:
			return nil, fmt.Errorf("checkout: python source line %d: unexpected indent", l.line)
		default:
			for l.col < stack[len(stack)-1].col {
				stack = stack[:len(stack)-1]
			}
			if t := stack[len(stack)-1]; l.col != t.col {
				return nil, fmt.Errorf("checkout: python source line %d: unindent does not match any outer indentation level", l.line)
			} else if l.alt != t.alt {
				return nil, fmt.Errorf("checkout: python source line %d: indentation depends on the tab size", l.line)
			}
		}
		top = &stack[len(stack)-1]
		for _, sc := range stack {
			if sc.decl >= 0 {
				decls[sc.decl].end = l.end()
			}
		}
		toks := l.toks
		word := func(i int) string {
			if i < len(toks) && toks[i].kind == pyName {
				return text[toks[i].start:toks[i].end]
			}
			return ""
		}
		tokText := func(i int) string {
			if i < len(toks) {
				return text[toks[i].start:toks[i].end]
			}
			return ""
		}
		last := toks[len(toks)-1]
		opens := last.depth == 0 && tokText(len(toks)-1) == ":"
		if tokText(0) == "@" {
			if len(decorators) > 0 && decoratorLevel != len(stack) {
				return nil, fmt.Errorf("checkout: python source line %d: a decorator is not followed by def or class", l.line)
			}
			decorators = append(decorators, l.start())
			decoratorLevel = len(stack)
			decoratorFixture = decoratorFixture || isFixtureDecorator(text, toks[1:])
			continue
		}
		kw, nameAt := word(0), 1
		if kw == "async" && word(1) == "def" {
			kw, nameAt = "def", 2
		}
		if len(decorators) > 0 && (kw != "def" && kw != "class" || decoratorLevel != len(stack)) {
			return nil, fmt.Errorf("checkout: python source line %d: a decorator is not followed by def or class", l.line)
		}
		start := l.start()
		if len(decorators) > 0 {
			start = decorators[0]
		}
		fixture := decoratorFixture
		decorators, decoratorFixture = decorators[:0], false
		switch kw {
		case "def":
			name := word(nameAt)
			if name == "" {
				return nil, fmt.Errorf("checkout: python source line %d: def without a name", l.line)
			}
			if top.collect && !fixture && strings.HasPrefix(name, "test") {
				m.tests = append(m.tests, top.path+name)
			}
			decl := -1
			if !top.inDef && (strings.HasPrefix(name, "pytest_") || top.module && (name == "__getattr__" || name == "__dir__")) {
				decl = len(decls)
				decls = append(decls, span{start, l.end()})
			}
			if opens {
				opener = &pyScope{inDef: true, decl: decl}
			}
		case "class":
			name := word(1)
			if name == "" {
				return nil, fmt.Errorf("checkout: python source line %d: class without a name", l.line)
			}
			i := 2
			if tokText(i) == "[" { // type parameters
				for i++; i < len(toks) && (toks[i].depth > 0 || tokText(i) != "]"); i++ {
				}
				i++
			}
			bases := tokText(i) == "(" && tokText(i+1) != ")"
			if opens {
				sc := pyScope{inDef: top.inDef, decl: -1}
				if top.collect && (strings.HasPrefix(name, "Test") || bases) {
					sc.collect, sc.path = true, top.path+name+"::"
				}
				opener = &sc
				break
			}
			// A body on the header's line: class A: pytest_x = f
			for ; i < len(toks); i++ {
				if toks[i].depth == 0 && tokText(i) == ":" {
					if !top.inDef && isHarnessStatement(text, toks[i+1:]) {
						decls = append(decls, span{l.start(), l.end()})
					}
					break
				}
			}
		default:
			if !top.inDef && isHarnessStatement(text, toks) {
				decls = append(decls, span{l.start(), l.end()})
			}
			if opens {
				sc := *top
				sc.decl = -1
				opener = &sc
			}
		}
	}
	if opener != nil {
		return nil, fmt.Errorf("checkout: python source line %d: expected an indented block", s.line)
	}
	if len(decorators) > 0 {
		return nil, fmt.Errorf("checkout: python source line %d: a decorator is not followed by def or class", s.line)
	}
	slices.Sort(m.tests)
	m.tests = slices.Compact(m.tests)
	for _, d := range decls {
		m.harness = append(m.harness, text[d.start:d.end])
	}
	slices.Sort(m.harness)
	return m, nil
}

// isFixtureDecorator reports a decorator expression (after the @) that is
// pytest.fixture or fixture, called or not.
func isFixtureDecorator(text string, toks []pyToken) bool {
	var words []string
	for _, t := range toks {
		w := text[t.start:t.end]
		if w == "(" {
			break
		}
		words = append(words, w)
	}
	name := strings.Join(words, "")
	return name == "pytest.fixture" || name == "fixture"
}

// dynamicBinders are names through which a statement can bind module or
// class names the scanner cannot see.
var dynamicBinders = map[string]bool{"globals": true, "locals": true, "vars": true, "setattr": true, "exec": true, "__dict__": true}

// isHarnessStatement reports a logical line (not a def, class or
// decorator) that may declare pytest harness names: see pythonHarnessDecls.
func isHarnessStatement(text string, toks []pyToken) bool {
	word := func(i int) string {
		if i >= 0 && i < len(toks) && toks[i].kind == pyName {
			return text[toks[i].start:toks[i].end]
		}
		return ""
	}
	op := func(i int) string {
		if i >= 0 && i < len(toks) && toks[i].kind == pyOp {
			return text[toks[i].start:toks[i].end]
		}
		return ""
	}
	// Simple statements, split at ';' outside brackets.
	for first := 0; first < len(toks); {
		end := first
		for end < len(toks) && (toks[end].depth > 0 || op(end) != ";") {
			end++
		}
		kw := word(first)
		imports := kw == "from" || kw == "import"
		imported := kw == "import" // past the import keyword
		for i := first; i < end; i++ {
			w := word(i)
			switch {
			case w == "import":
				imported = true
			case w == "":
				if imports && op(i) == "*" {
					return true
				}
			case w == "pytest_plugins", dynamicBinders[w]:
				return true
			case !strings.HasPrefix(w, "pytest_"):
			case imports:
				// import pytest_x binds a module, which is no hook; a
				// name imported from a module or an alias may be one.
				if kw == "from" && imported || word(i-1) == "as" {
					return true
				}
			case op(i+1) != ".":
				return true
			}
		}
		first = end + 1
	}
	return false
}

package pymutant

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// wireSite is one site as find.py writes it. Every field is a pointer so
// that a missing field is an error rather than a zero.
type wireSite struct {
	Line        *int    `json:"line"`
	Col         *int    `json:"col"`
	Start       *int    `json:"start"`
	End         *int    `json:"end"`
	Original    *string `json:"original"`
	Replacement *string `json:"replacement"`
	Operator    *string `json:"operator"`
	Equivalent  *bool   `json:"equivalent"`
	Statement   *int    `json:"statement_line"`
}

// wireOutput is find.py's whole output.
type wireOutput struct {
	Sites *[]wireSite `json:"sites"`
}

// ReadSites reads find.py's output out for the source src, strictly: out
// must be exactly one JSON object of at most MaxOutput bytes with no
// unknown or missing fields and at most MaxSites sites, sorted by Start,
// Operator and Replacement without duplicates, and every site must fit src
// (see Apply). It fills in each Description. Any violation is an error.
//
// ReadSites cannot tell code from strings or comments, so it cannot prove
// that a span is really the token it claims to be; that is what the
// script's own parsing is for. It does make sure that every site is a
// well-formed instance of its operator at a real place in src.
func ReadSites(src, out []byte) ([]Site, error) {
	if len(out) > MaxOutput {
		return nil, fmt.Errorf("output is %d bytes, more than %d", len(out), MaxOutput)
	}
	if !utf8.Valid(out) {
		return nil, errors.New("output is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var w wireOutput
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("decoding output: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("output holds more than one JSON value")
	}
	if w.Sites == nil {
		return nil, errors.New(`output has no "sites" list`)
	}
	if len(*w.Sites) > MaxSites {
		return nil, fmt.Errorf("output has %d sites, more than %d", len(*w.Sites), MaxSites)
	}
	starts := lineStarts(src)
	sites := make([]Site, 0, len(*w.Sites))
	for i, ws := range *w.Sites {
		if ws.Line == nil || ws.Col == nil || ws.Start == nil || ws.End == nil ||
			ws.Original == nil || ws.Replacement == nil || ws.Operator == nil || ws.Equivalent == nil || ws.Statement == nil {
			return nil, fmt.Errorf("site %d: missing field", i)
		}
		s := Site{
			Line:        *ws.Line,
			Col:         *ws.Col,
			Start:       *ws.Start,
			End:         *ws.End,
			Original:    *ws.Original,
			Replacement: *ws.Replacement,
			Operator:    *ws.Operator,
			Equivalent:  *ws.Equivalent,
		}
		desc, err := check(src, starts, s)
		if err != nil {
			return nil, fmt.Errorf("site %d: %w", i, err)
		}
		if st := *ws.Statement; st < 1 || st > s.Line {
			return nil, fmt.Errorf("site %d: statement line %d is not from 1 to the site's line %d", i, st, s.Line)
		}
		s.StatementLine = *ws.Statement
		s.Description = desc
		if i > 0 && compareSites(sites[i-1], s) >= 0 {
			return nil, fmt.Errorf("site %d: out of order or a duplicate", i)
		}
		sites = append(sites, s)
	}
	return sites, nil
}

// compareSites orders sites by Start, Operator and Replacement, the order
// Find returns them in.
func compareSites(a, b Site) int {
	return cmp.Or(
		cmp.Compare(a.Start, b.Start),
		strings.Compare(a.Operator, b.Operator),
		strings.Compare(a.Replacement, b.Replacement),
	)
}

// Apply returns the mutant: a copy of src with s applied. It returns an
// error, and leaves src alone, when s does not fit src: its span is out of
// range or does not hold Original, Line and Col do not agree with Start,
// or Original and Replacement are not an instance of s.Operator.
// Description is not checked.
func Apply(src []byte, s Site) ([]byte, error) {
	if _, err := check(src, lineStarts(src), s); err != nil {
		return nil, fmt.Errorf("pymutant: site does not fit the source: %w", err)
	}
	out := make([]byte, 0, len(src)-(s.End-s.Start)+len(s.Replacement))
	out = append(out, src[:s.Start]...)
	out = append(out, s.Replacement...)
	return append(out, src[s.End:]...), nil
}

// lineStarts returns the byte offset of each line's start; lines end with
// \n, \r\n or a lone \r, as for the Python parser.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// check checks s against src, whose line starts are starts, and returns
// its description.
func check(src []byte, starts []int, s Site) (string, error) {
	if s.Start < 0 || s.End <= s.Start || s.End > len(src) {
		return "", fmt.Errorf("span [%d, %d) is not within the %d-byte source", s.Start, s.End, len(src))
	}
	if s.Original != string(src[s.Start:s.End]) {
		return "", fmt.Errorf("original %q is not the source's %q", s.Original, src[s.Start:s.End])
	}
	if s.Line < 1 || s.Line > len(starts) {
		return "", fmt.Errorf("line %d is not within the source's %d lines", s.Line, len(starts))
	}
	lineStart, next := starts[s.Line-1], len(src)
	if s.Line < len(starts) {
		next = starts[s.Line]
	}
	if s.Start < lineStart || s.Start >= next {
		return "", fmt.Errorf("start %d is not on line %d", s.Start, s.Line)
	}
	if s.Col != s.Start-lineStart+1 {
		return "", fmt.Errorf("column %d is not start %d's column %d", s.Col, s.Start, s.Start-lineStart+1)
	}
	if !utf8.ValidString(s.Original) || !utf8.ValidString(s.Replacement) {
		return "", errors.New("original or replacement is not valid UTF-8")
	}
	if s.Replacement == s.Original {
		return "", fmt.Errorf("replacement %q is the original", s.Replacement)
	}
	return describe(s.Operator, s.Original, s.Replacement, src[s.End:])
}

// describe checks that orig → repl is an instance of op and describes it.
// after is the source that follows the span.
func describe(op, orig, repl string, after []byte) (string, error) {
	want, canon := "", orig
	switch op {
	case OpComparison:
		want = swap(orig, "==", "!=", "!=", "==", "<", ">=", ">=", "<", "<=", ">", ">", "<=")
	case OpBoundary:
		want = swap(orig, "<", "<=", "<=", "<", ">", ">=", ">=", ">")
	case OpArithmetic:
		want = swap(orig, "+", "-", "-", "+", "*", "/", "/", "*", "//", "/", "%", "*", "**", "*")
	case OpAugmented:
		want = swap(orig, "+=", "-=", "-=", "+=", "*=", "/=", "/=", "*=", "//=", "/=", "%=", "*=")
	case OpBoolean:
		want = swap(orig, "and", "or", "or", "and")
	case OpBooleanLiteral:
		want = swap(orig, "True", "False", "False", "True")
	case OpLoopControl:
		want = swap(orig, "break", "continue", "continue", "break")
	case OpIdentity:
		if orig == "is" {
			want = "is not"
		} else if gap, ok := between(orig, "is", "not"); ok && gap != "" {
			want, canon = "is", "is not"
		}
	case OpMembership:
		if orig == "in" {
			want = "not in"
		} else if gap, ok := between(orig, "not", "in"); ok && gap != "" {
			want, canon = "in", "not in"
		}
	case OpNot:
		// The span runs from the keyword to the operand's first token,
		// which must follow; without a gap it cannot continue a name.
		gap, ok := between(orig, "not", "")
		if !ok || len(after) == 0 || isGapByte(after[0]) || gap == "" && isNameByte(after[0]) {
			return "", fmt.Errorf("%q is not a not keyword and its gap", orig)
		}
		if repl != "" {
			return "", fmt.Errorf("not is replaced with %q, not removed", repl)
		}
		return `remove "not"`, nil
	case OpReturnNone, OpReturnValue:
		if !isKeywordStatement(orig, "return") || orig == "return" {
			return "", fmt.Errorf("%q is not a return statement with a value", orig)
		}
		value, ok := strings.CutPrefix(repl, "return ")
		switch {
		case op == OpReturnNone && repl == "return None":
			return "replace the returned value with None", nil
		case op == OpReturnValue && ok && slices.Contains(returnValues, value):
			return "replace the returned value with " + value, nil
		}
		return "", fmt.Errorf("%s: return statement replaced with %q", op, repl)
	case OpNegation:
		if orig == "" || repl != "not ("+orig+")" {
			return "", fmt.Errorf("condition %q is replaced with %q, not its negation", orig, repl)
		}
		return fmt.Sprintf("negate the condition %s", snippet(orig)), nil
	case OpCondition:
		if repl != "True" && repl != "False" {
			return "", fmt.Errorf("condition %q is replaced with %q, not True or False", orig, repl)
		}
		return fmt.Sprintf("replace the condition %s with %s", snippet(orig), repl), nil
	case OpStatement, OpBranch, OpRaise:
		if op == OpRaise && !isKeywordStatement(orig, "raise") {
			return "", fmt.Errorf("%q is not a raise statement", orig)
		}
		if repl != "pass" {
			return "", fmt.Errorf("%s %q is replaced with %q, not pass", op, orig, repl)
		}
		what := map[string]string{OpStatement: "the statement", OpBranch: "the branch", OpRaise: "the raise statement"}[op]
		return fmt.Sprintf("replace %s %s with pass", what, snippet(orig)), nil
	case OpExcept:
		if repl != "raise" {
			return "", fmt.Errorf("the handler body %q is replaced with %q, not raise", orig, repl)
		}
		return fmt.Sprintf("re-raise instead of handling with %s", snippet(orig)), nil
	case OpString:
		w, err := stringMutant(orig)
		if err != nil {
			return "", err
		}
		want = w
	case OpMethodCall:
		if !isMethodCall(orig) {
			return "", fmt.Errorf("%q is not a method call's dot to its closing parenthesis", orig)
		}
		if repl != "" {
			return "", fmt.Errorf("method call %q is replaced with %q, not removed", orig, repl)
		}
		return fmt.Sprintf("remove the call %s", snippet(orig)), nil
	case OpCallDefault:
		if !strings.HasPrefix(orig, ",") || strings.TrimSpace(orig[1:]) == "" {
			return "", fmt.Errorf("%q is not a comma and the argument after it", orig)
		}
		if repl != "" {
			return "", fmt.Errorf("default argument %q is replaced with %q, not removed", orig, repl)
		}
		return fmt.Sprintf("remove the default argument %s", snippet(strings.TrimSpace(orig[1:]))), nil
	case OpAssignment:
		switch {
		case orig == "None" && repl == `""`:
			return `replace the assigned None with ""`, nil
		case orig != "None" && repl == "None":
			return fmt.Sprintf("replace the assigned value %s with None", snippet(orig)), nil
		}
		return "", fmt.Errorf("the assigned value %q is replaced with %q, not None (or None with \"\")", orig, repl)
	case OpLambda:
		if repl != "None" || orig == "None" {
			return "", fmt.Errorf("the lambda's body %q is replaced with %q, not None", orig, repl)
		}
		return fmt.Sprintf("make the lambda return None instead of %s", snippet(orig)), nil
	case OpNumber:
		if err := checkNumber(orig, repl); err != nil {
			return "", err
		}
		want = repl
	default:
		return "", fmt.Errorf("unknown operator %q", op)
	}
	if want == "" {
		return "", fmt.Errorf("operator %s does not apply to %q", op, orig)
	}
	if repl != want {
		return "", fmt.Errorf("%s operator %q is replaced with %q, not %q", op, orig, repl, want)
	}
	return fmt.Sprintf("replace %q with %q", canon, repl), nil
}

// returnValues are the values return-value returns, as written.
var returnValues = []string{"True", "False", "0", "0.0", `""`, "[]", "{}", "()"}

// maxSnippet bounds the source quoted in a description, in runes.
const maxSnippet = 40

// snippet quotes the first line of code for a description, its length
// bounded.
func snippet(code string) string {
	line, _, cut := strings.Cut(strings.ReplaceAll(code, "\r", "\n"), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > maxSnippet {
		line, cut = string(r[:maxSnippet]), true
	}
	if cut {
		line += "…"
	}
	return strconv.Quote(line)
}

// isKeywordStatement reports whether s starts with the keyword kw, not
// with a longer name.
func isKeywordStatement(s, kw string) bool {
	rest, ok := strings.CutPrefix(s, kw)
	return ok && (rest == "" || !isNameByte(rest[0]))
}

// isMethodCall reports whether s is a method call from its dot on:
// ".name(...)", with the gaps tokens may have between the parts.
func isMethodCall(s string) bool {
	rest, ok := strings.CutPrefix(s, ".")
	if !ok || !strings.HasSuffix(rest, ")") {
		return false
	}
	i := skipGap(rest, 0)
	j := i
	for j < len(rest) && isNameByte(rest[j]) {
		j++
	}
	if j == i || '0' <= rest[i] && rest[i] <= '9' {
		return false
	}
	j = skipGap(rest, j)
	return j < len(rest) && rest[j] == '('
}

// skipGap returns the index of the first byte at or after i of s that is
// not in a gap between tokens (white space, comments, continuations).
func skipGap(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r' || c == '\\':
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// stringMutant returns the string operator's replacement of a string
// literal: "XX" added after its opening quote and before its closing one.
func stringMutant(lit string) (string, error) {
	n := 0
	for n < len(lit) && n < 3 && strings.ContainsRune("rRbBuU", rune(lit[n])) {
		n++
	}
	prefix := strings.ToLower(lit[:n])
	if !slices.Contains([]string{"", "r", "u", "b", "br", "rb"}, prefix) {
		return "", fmt.Errorf("%q is not a string literal (prefix %q)", lit, lit[:n])
	}
	rest := lit[n:]
	for _, q := range []string{`"""`, "'''", `"`, "'"} {
		if strings.HasPrefix(rest, q) {
			if len(rest) < 2*len(q) || !strings.HasSuffix(rest, q) {
				break
			}
			body := rest[len(q) : len(rest)-len(q)]
			return lit[:n] + q + "XX" + body + "XX" + q, nil
		}
	}
	return "", fmt.Errorf("%q is not a string literal", lit)
}

// swap looks tok up in pairs (from, to, from, to, ...) and returns its
// replacement, or "".
func swap(tok string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] == tok {
			return pairs[i+1]
		}
	}
	return ""
}

// between splits s into first, a gap and last, and reports whether the gap
// is only what may separate two Python tokens: spaces, tabs, form feeds,
// line ends, backslash continuations and comments.
func between(s, first, last string) (string, bool) {
	if len(s) < len(first)+len(last) || !strings.HasPrefix(s, first) || !strings.HasSuffix(s, last) {
		return "", false
	}
	gap := s[len(first) : len(s)-len(last)]
	for i := 0; i < len(gap); i++ {
		switch c := gap[i]; {
		case c == '#':
			// A comment runs to the line end, which must be in the gap.
			for i+1 < len(gap) && gap[i+1] != '\n' && gap[i+1] != '\r' {
				i++
			}
			if i+1 >= len(gap) {
				return "", false
			}
		case c == '\\':
			if i+1 >= len(gap) || gap[i+1] != '\n' && gap[i+1] != '\r' {
				return "", false
			}
		case c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r':
		default:
			return "", false
		}
	}
	return gap, true
}

// isGapByte reports whether c can start the gap between two tokens.
func isGapByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r' || c == '#' || c == '\\'
}

// isNameByte reports whether c can continue a Python name or keyword
// (any non-ASCII byte may be part of a Unicode identifier).
func isNameByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// checkNumber checks that repl is orig+1 or orig-1 as find.py writes it:
// for an int literal the decimal digits of its value plus or minus one
// (with a minus when negative), for a float literal a float literal (with
// a minus when negative) whose value is the float value plus or minus
// one, finite and different.
func checkNumber(orig, repl string) error {
	if len(orig) > maxNumberLen {
		return fmt.Errorf("number literal of %d bytes, more than %d", len(orig), maxNumberLen)
	}
	switch {
	case isInt(orig):
		// Python's grammar leaves no leading zeros but in 0, 00, ...,
		// so base 0 reads every literal it accepts with Python's value.
		v, ok := new(big.Int).SetString(strings.ReplaceAll(orig, "_", ""), 0)
		if !ok {
			return fmt.Errorf("cannot read int literal %q", orig)
		}
		up := new(big.Int).Add(v, big.NewInt(1)).String()
		down := new(big.Int).Sub(v, big.NewInt(1)).String()
		if repl != up && repl != down {
			return fmt.Errorf("int %s is replaced with %q, not %s or %s", orig, repl, up, down)
		}
		return nil
	case isFloat(orig):
		v, err := strconv.ParseFloat(strings.ReplaceAll(orig, "_", ""), 64)
		if err != nil {
			return fmt.Errorf("cannot read float literal %q: %w", orig, err)
		}
		abs, neg := strings.CutPrefix(repl, "-")
		if !isFloat(abs) || strings.Contains(abs, "_") {
			return fmt.Errorf("float %s is replaced with %q, not a float literal", orig, repl)
		}
		r, err := strconv.ParseFloat(abs, 64)
		if neg {
			r = -r
		}
		if err != nil || r != v+1 && r != v-1 || r == v || math.IsInf(r, 0) || neg && r >= 0 {
			return fmt.Errorf("float %s is replaced with %s, not its value plus or minus one", orig, repl)
		}
		return nil
	}
	return fmt.Errorf("%q is not an int or float literal", orig)
}

// isInt reports whether s is a Python integer literal.
func isInt(s string) bool {
	if len(s) > 2 && s[0] == '0' {
		var digit func(byte) bool
		switch s[1] {
		case 'x', 'X':
			digit = func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
		case 'o', 'O':
			digit = func(c byte) bool { return '0' <= c && c <= '7' }
		case 'b', 'B':
			digit = func(c byte) bool { return c == '0' || c == '1' }
		}
		if digit != nil {
			// Prefixed digits may start with an underscore: 0x_1f.
			rest := s[2:]
			if rest[0] == '_' {
				rest = rest[1:]
			}
			return rest != "" && digits(rest, digit) == len(rest)
		}
	}
	if s == "" {
		return false
	}
	if s[0] == '0' {
		return digits(s, func(c byte) bool { return c == '0' }) == len(s)
	}
	return digits(s, isDigit) == len(s)
}

// isFloat reports whether s is a Python float literal (not an imaginary
// one): digits with a fraction, an exponent or both.
func isFloat(s string) bool {
	n := digits(s, isDigit)
	point := false
	if n < len(s) && s[n] == '.' {
		point = true
		m := digits(s[n+1:], isDigit)
		if n == 0 && m == 0 {
			return false
		}
		n += 1 + m
	} else if n == 0 {
		return false
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		n++
		if n < len(s) && (s[n] == '+' || s[n] == '-') {
			n++
		}
		m := digits(s[n:], isDigit)
		if m == 0 {
			return false
		}
		return n+m == len(s)
	}
	return point && n == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits returns the length of the longest prefix of s of the form
// digit (["_"] digit)*, 0 if there is none.
func digits(s string, digit func(byte) bool) int {
	if s == "" || !digit(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) {
		if digit(s[n]) {
			n++
		} else if s[n] == '_' && n+1 < len(s) && digit(s[n+1]) {
			n += 2
		} else {
			break
		}
	}
	return n
}

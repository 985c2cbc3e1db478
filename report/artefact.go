// Package report renders a sealgate verification artefact
// (docs/artefact.schema.json) for the places people read verdicts: a
// pull-request summary in Markdown, SARIF 2.1.0 for code scanning, JUnit XML,
// GitLab Code Quality, GitHub workflow annotations and plain text for a
// terminal or a coding agent.
//
// Every renderer is a pure function of the parsed artefact and the test
// declarations found in the repository (Locate); the artefact is outside
// input and Parse reads it strictly: an artefact that does not parse is an
// error, never an empty "all good" report.
package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sealgate/sealgate/services/adjudication"
)

// Artefact is the verification artefact as sealgate verify prints it.
type Artefact = adjudication.Artefact

// MaxArtefactBytes bounds the artefact Parse accepts.
const MaxArtefactBytes = 64 << 20

// ParseError says why bytes are not a sealgate artefact.
type ParseError struct {
	// Where is a JSON path such as "coverage.uncovered[3]"; "" for the
	// document.
	Where string
	Err   error
}

func (e *ParseError) Error() string {
	if e.Where == "" {
		return "not a sealgate artefact: " + e.Err.Error()
	}
	return fmt.Sprintf("not a sealgate artefact: %s: %v", e.Where, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

func parseErr(where, format string, args ...any) error {
	return &ParseError{Where: where, Err: fmt.Errorf(format, args...)}
}

// Parse reads one artefact. It refuses anything but exactly one JSON
// object of schema sealgate.artefact.v1 whose keys are the artefact's, each
// once, spelled exactly, with every required key present, whose values are
// in their ranges and agree with each other (the exit code with the
// decision; a MERGE with verified claims and no regression), and whose
// paths are relative paths inside the repository.
func Parse(data []byte) (*Artefact, error) {
	if len(data) > MaxArtefactBytes {
		return nil, parseErr("", "%d bytes, more than the %d accepted", len(data), MaxArtefactBytes)
	}
	if !utf8.Valid(data) {
		return nil, parseErr("", "not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := &walker{dec: dec, fields: map[reflect.Type]map[string]field{}, required: map[reflect.Type][]string{}}
	if err := w.walk(reflect.TypeFor[Artefact](), "", 0); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, parseErr("", "more after the artefact's JSON object")
	}
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	a := &Artefact{}
	if err := strict.Decode(a); err != nil {
		return nil, &ParseError{Err: err}
	}
	if err := check(a); err != nil {
		return nil, err
	}
	return a, nil
}

// maxDepth bounds the nesting Parse follows.
const maxDepth = 64

// walk reads one JSON value from dec, checking object keys against t: a
// struct's keys must be its JSON field names exactly, each at most once,
// and every field without omitempty present. A nil t (free-form JSON, such
// as the sealed criteria) only refuses duplicate keys.
func (w *walker) walk(t reflect.Type, where string, depth int) error {
	dec := w.dec
	if depth > maxDepth {
		return parseErr(where, "nested deeper than %d", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return &ParseError{Where: where, Err: err}
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[json.RawMessage]() {
		t = nil
	}
	d, ok := tok.(json.Delim)
	if !ok {
		if t != nil && t.Kind() == reflect.Struct && tok != nil {
			return parseErr(where, "want an object, got %v", tok)
		}
		return nil
	}
	switch d {
	case '[':
		var elem reflect.Type
		if t != nil {
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				return parseErr(where, "want %s, got an array", kindName(t))
			}
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := w.walk(elem, fmt.Sprintf("%s[%d]", where, i), depth+1); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return wrapTok(where, err)
	case '{':
		var fields map[string]field
		var values reflect.Type
		switch {
		case t == nil:
		case t.Kind() == reflect.Struct:
			fields = w.fieldsOf(t)
		case t.Kind() == reflect.Map:
			values = t.Elem()
		default:
			return parseErr(where, "want %s, got an object", kindName(t))
		}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return wrapTok(where, err)
			}
			key := kt.(string)
			at := join(where, key)
			if seen[key] {
				return parseErr(at, "key given twice")
			}
			seen[key] = true
			next := values
			if fields != nil {
				f, ok := fields[key]
				if !ok {
					return parseErr(at, "unknown key")
				}
				next = f.typ
			}
			if err := w.walk(next, at, depth+1); err != nil {
				return err
			}
		}
		if t != nil && t.Kind() == reflect.Struct {
			for _, name := range w.required[t] {
				if !seen[name] {
					return parseErr(join(where, name), "required key missing")
				}
			}
		}
		_, err := dec.Token()
		return wrapTok(where, err)
	}
	return parseErr(where, "unexpected %v", d)
}

func wrapTok(where string, err error) error {
	if err != nil {
		return &ParseError{Where: where, Err: err}
	}
	return nil
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	}
	return "a number"
}

func join(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

// walker checks one document's keys; it computes each struct's fields once.
type walker struct {
	dec      *json.Decoder
	fields   map[reflect.Type]map[string]field
	required map[reflect.Type][]string // sorted
}

func (w *walker) fieldsOf(t reflect.Type) map[string]field {
	if f, ok := w.fields[t]; ok {
		return f
	}
	f := jsonFields(t)
	var req []string
	for _, name := range slices.Sorted(maps.Keys(f)) {
		if f[name].required {
			req = append(req, name)
		}
	}
	w.fields[t], w.required[t] = f, req
	return f
}

type field struct {
	typ      reflect.Type
	required bool
}

// jsonFields lists a struct's JSON keys as encoding/json names them.
func jsonFields(t reflect.Type) map[string]field {
	out := map[string]field{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = field{typ: f.Type, required: !slices.Contains(strings.Split(opts, ","), "omitempty")}
	}
	return out
}

// check validates what the renderers rely on and what a well-formed
// verdict holds.
func check(a *Artefact) error {
	if a.Schema != adjudication.ArtefactSchema {
		return parseErr("schema", "%q, want %q", a.Schema, adjudication.ArtefactSchema)
	}
	switch a.Decision {
	case adjudication.Merge, adjudication.Block, adjudication.Inconclusive:
	default:
		return parseErr("decision", "%q is not MERGE, BLOCK or INCONCLUSIVE", a.Decision)
	}
	if a.ExitCode != adjudication.ExitCode(a.Decision) {
		return parseErr("exit_code", "%d disagrees with decision %s", a.ExitCode, a.Decision)
	}
	if strings.TrimSpace(a.RunID) == "" {
		return parseErr("run_id", "empty")
	}
	if strings.TrimSpace(a.Reason) == "" {
		return parseErr("reason", "empty: a verdict names its decisive reason")
	}
	if a.ClaimsTotal < 0 {
		return parseErr("claims_total", "negative")
	}
	for i, c := range a.Claims {
		at := fmt.Sprintf("claims[%d]", i)
		if c.ID == "" {
			return parseErr(at+".id", "empty")
		}
		switch c.Outcome {
		case adjudication.Verified, adjudication.Refuted, adjudication.Unverified:
		default:
			return parseErr(at+".outcome", "%q is not VERIFIED, REFUTED or UNVERIFIED", c.Outcome)
		}
	}
	for i, s := range a.NextSteps {
		switch s.Action {
		case adjudication.FixCode, adjudication.CoverLines, adjudication.KillMutant, adjudication.AddTest,
			adjudication.HumanReviewTestEdit, adjudication.RaiseLimit:
		default:
			return parseErr(fmt.Sprintf("next_steps[%d].action", i), "%q is not one of the closed set", s.Action)
		}
	}
	for i, ch := range a.Changes {
		at := fmt.Sprintf("changes[%d]", i)
		if err := checkPath(ch.Path); err != nil {
			return parseErr(at+".path", "%v", err)
		}
		if ch.OldPath != "" {
			if err := checkPath(ch.OldPath); err != nil {
				return parseErr(at+".old_path", "%v", err)
			}
		}
		for j, l := range ch.ChangedLines {
			if l == 0 {
				return parseErr(fmt.Sprintf("%s.changed_lines[%d]", at, j), "line 0")
			}
		}
	}
	for name, paths := range map[string][]string{"harness_drift": a.HarnessDrift, "oracle.restored": a.Oracle.Restored} {
		for i, p := range paths {
			if err := checkPath(p); err != nil {
				return parseErr(fmt.Sprintf("%s[%d]", name, i), "%v", err)
			}
		}
	}
	if err := checkMeasure("coverage", string(a.Coverage.Source), a.Coverage.Ratio, a.Coverage.Floor); err != nil {
		return err
	}
	if err := checkMeasure("strength", string(a.Strength.Source), a.Strength.WilsonLower, a.Strength.Floor); err != nil {
		return err
	}
	if a.Strength.Killed < 0 || a.Strength.Survived < 0 || a.Strength.Stillborn < 0 {
		return parseErr("strength", "a negative mutant count")
	}
	for i, u := range a.Coverage.Uncovered {
		if _, _, err := SplitLine(u); err != nil {
			return parseErr(fmt.Sprintf("coverage.uncovered[%d]", i), "%v", err)
		}
	}
	for i, s := range a.Strength.Survivors {
		if _, err := SplitMutant(s); err != nil {
			return parseErr(fmt.Sprintf("strength.survivors[%d]", i), "%v", err)
		}
	}
	if s := a.Seal; s != nil {
		if s.Log != "embedded" && s.Log != "rekor" {
			return parseErr("seal.log", "%q is not embedded or rekor", s.Log)
		}
		for name, d := range map[string]string{"root_hash": s.RootHash, "key_id": s.KeyID, "envelope_sha256": s.EnvelopeSHA256, "bundle_sha256": s.BundleSHA256, "artefact_sha256": s.ArtefactSHA256} {
			if !isSHA256(d) {
				return parseErr("seal."+name, "not a SHA-256 in hex")
			}
		}
	}
	if a.Decision == adjudication.Merge {
		// A MERGE rests on verified claims and an unbroken suite; an
		// artefact saying otherwise contradicts itself.
		if len(a.Claims) == 0 {
			return parseErr("claims", "a MERGE without claims")
		}
		for i, c := range a.Claims {
			if c.Outcome != adjudication.Verified {
				return parseErr(fmt.Sprintf("claims[%d]", i), "a MERGE with a %s claim", c.Outcome)
			}
		}
		if len(a.Collateral.Regressions) > 0 {
			return parseErr("collateral.regressions", "a MERGE with regressions")
		}
		if len(a.HarnessDrift) > 0 {
			return parseErr("harness_drift", "a MERGE with harness drift")
		}
	}
	return nil
}

func checkMeasure(name, source string, value *float64, floor float64) error {
	switch source {
	case "computed", "untrusted", "none":
	default:
		return parseErr(name+".source", "%q is not computed, untrusted or none", source)
	}
	if value != nil && !(*value >= 0 && *value <= 1) {
		return parseErr(name, "%v is outside [0, 1]", *value)
	}
	if !(floor >= 0 && floor <= 1) {
		return parseErr(name+".floor", "%v is outside [0, 1]", floor)
	}
	return nil
}

// checkPath accepts a slash-separated path relative to the repository root
// that stays inside it. A directory may end in "/".
func checkPath(p string) error {
	trimmed := strings.TrimSuffix(p, "/")
	switch {
	case trimmed == "":
		return errors.New("empty path")
	case strings.ContainsAny(p, "\x00\r\n"):
		return fmt.Errorf("path %q holds a NUL or a line break", p)
	case path.IsAbs(p):
		return fmt.Errorf("path %q is absolute", p)
	case path.Clean(trimmed) != trimmed || trimmed == "." || trimmed == ".." || strings.HasPrefix(trimmed, "../"):
		return fmt.Errorf("path %q is not a clean path inside the repository", p)
	}
	return nil
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// lineNumber parses a line number: decimal digits, no sign, no leading
// zero, at most nine digits.
func lineNumber(s string) (int, bool) {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// SplitLine splits "path:line" as coverage.uncovered lists lines.
func SplitLine(s string) (string, int, error) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("%q is not path:line", s)
	}
	n, ok := lineNumber(s[i+1:])
	if !ok {
		return "", 0, fmt.Errorf("%q is not path:line", s)
	}
	if err := checkPath(s[:i]); err != nil {
		return "", 0, err
	}
	return s[:i], n, nil
}

// Mutant is a surviving mutant as strength.survivors lists it.
type Mutant struct {
	Path     string
	Line     int
	Mutation string
}

// SplitMutant splits "path:line mutation" at the first ":line " that
// follows a path.
func SplitMutant(s string) (Mutant, error) {
	for i := 1; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		sp := strings.IndexByte(s[i+1:], ' ')
		if sp < 0 {
			break
		}
		n, ok := lineNumber(s[i+1 : i+1+sp])
		mutation := s[i+1+sp+1:]
		if !ok || strings.TrimSpace(mutation) == "" {
			continue
		}
		if err := checkPath(s[:i]); err != nil {
			return Mutant{}, err
		}
		return Mutant{Path: s[:i], Line: n, Mutation: mutation}, nil
	}
	return Mutant{}, fmt.Errorf("%q is not \"path:line mutation\"", s)
}

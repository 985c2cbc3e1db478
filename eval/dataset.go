// Package eval grades coding agents with the gate on SWE-bench-format
// datasets: it reads the dataset's instances and an agent's predictions
// (outside input, parsed strictly), maps each instance's FAIL_TO_PASS and
// PASS_TO_PASS tests to claims, scores a verification's sealed artefact
// — sealgate's verdict next to SWE-bench's "resolved", computed from the
// same runs — and renders the per-instance and summary reports.
//
// Running the verifications is the caller's (the sealgate eval command):
// this package holds no process, ledger or network code.
package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Schemas an instance can be written in: where the dataset variants name
// the same thing differently.
const (
	// SchemaSWEBench: SWE-bench (and Lite, Verified and the like): repo,
	// instance_id, base_commit, patch, test_patch, FAIL_TO_PASS,
	// PASS_TO_PASS.
	SchemaSWEBench = "swe-bench"
	// SchemaSWEBenchPro: SWE-bench Pro: as SWE-bench, with the test lists
	// named fail_to_pass and pass_to_pass, and repo_language.
	SchemaSWEBenchPro = "swe-bench-pro"
	// SchemaMultiSWEBench: Multi-SWE-bench: org and repo apart, number,
	// base.sha, fix_patch, test_patch, and the test lists f2p_tests and
	// p2p_tests as objects keyed by test name (or FAIL_TO_PASS and
	// PASS_TO_PASS lists beside fix_patch, as some of its exports have).
	SchemaMultiSWEBench = "multi-swe-bench"
)

// Instance is one task of a dataset.
type Instance struct {
	// ID is the instance_id.
	ID string `json:"instance_id"`
	// Repo is the GitHub repository, "owner/name".
	Repo string `json:"repo"`
	// BaseCommit is the commit the task starts from, lower-case hex.
	BaseCommit string `json:"base_commit"`
	// Patch is the reference fix without its tests (the gold patch);
	// TestPatch the held-out tests.
	Patch     string `json:"patch"`
	TestPatch string `json:"test_patch"`
	// FailToPass and PassToPass are the test names as the dataset gives
	// them, in its order, without duplicates.
	FailToPass []string `json:"FAIL_TO_PASS"`
	PassToPass []string `json:"PASS_TO_PASS"`
	// Language is the dataset's language of the repository, lower case
	// ("go", "python"), or "".
	Language string `json:"language,omitempty"`
	// Schema is the variant the instance was written in.
	Schema string `json:"schema"`
}

// Limits of what the parsers accept.
const (
	maxIDLen       = 256
	maxTestNameLen = 4096
	// MaxFileSize bounds an instances or predictions file.
	MaxFileSize = 1 << 30
)

// ParseInstances reads a dataset: JSON Lines (one instance object per line,
// blank lines allowed) or one JSON array of instance objects. Fields it
// needs must be there with their types; fields it does not use are
// ignored; a field given under two of its variant names, a duplicate key,
// a duplicate instance_id or anything malformed is an error naming the
// record.
func ParseInstances(data []byte) ([]Instance, error) {
	objs, err := records(data)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, errors.New("no instances")
	}
	out := make([]Instance, 0, len(objs))
	seen := map[string]int{}
	for i, o := range objs {
		inst, err := parseInstance(o.fields)
		if err != nil {
			return nil, fmt.Errorf("instance %s: %w", o.where(i), err)
		}
		if prev, dup := seen[inst.ID]; dup {
			return nil, fmt.Errorf("instance %s: instance_id %q is also record %d", o.where(i), inst.ID, prev+1)
		}
		seen[inst.ID] = i
		out = append(out, inst)
	}
	return out, nil
}

// object is one top-level JSON object with its keys.
type object struct {
	fields map[string]json.RawMessage
	line   int // 1-based line where it starts
}

func (o object) where(i int) string { return fmt.Sprintf("record %d (line %d)", i+1, o.line) }

// records splits data into its top-level objects: the elements of one JSON
// array, or a sequence of objects (JSON Lines).
func records(data []byte) ([]object, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%d bytes: over the limit of %d", len(data), MaxFileSize)
	}
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, nil
	}
	array := trimmed[0] == '['
	dec := json.NewDecoder(bytes.NewReader(data))
	lineAt := func(off int64) int {
		rest := bytes.TrimLeft(data[off:], " \t\r\n,")
		return 1 + bytes.Count(data[:len(data)-len(rest)], []byte{'\n'})
	}
	if array {
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("JSON array: %w", err)
		}
	}
	var out []object
	for {
		if array && !dec.More() {
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("JSON array: %w", err)
			}
			if _, err := dec.Token(); !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("line %d: trailing data after the JSON array", lineAt(dec.InputOffset()))
			}
			return out, nil
		}
		line := lineAt(dec.InputOffset())
		var r json.RawMessage
		err := dec.Decode(&r)
		if !array && errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: not JSON: %w", line, err)
		}
		fields, err := objectFields(r)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, object{fields: fields, line: line})
	}
}

// decodeStrict decodes exactly one JSON value from data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// objectFields reads a JSON object's keys, refusing duplicates (which
// encoding/json would silently resolve to the last).
func objectFields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("field %q: %w", key, err)
		}
		if _, dup := fields[key]; dup {
			return nil, fmt.Errorf("field %q given twice", key)
		}
		fields[key] = v
	}
	return fields, nil
}

// pick returns the one of names the object has, refusing two.
func pick(fields map[string]json.RawMessage, names ...string) (string, json.RawMessage, error) {
	var got string
	for _, n := range names {
		if _, ok := fields[n]; !ok {
			continue
		}
		if got != "" {
			return "", nil, fmt.Errorf("%s and %s name the same field: give one", got, n)
		}
		got = n
	}
	if got == "" {
		return "", nil, nil
	}
	return got, fields[got], nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// stringField reads a string field; null reads as "".
func stringField(name string, raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %s: want a string", name)
	}
	return s, nil
}

func parseInstance(f map[string]json.RawMessage) (Instance, error) {
	var inst Instance
	schema := SchemaSWEBench
	// The repository: "owner/name", or Multi-SWE-bench's org and repo.
	repoRaw, ok := f["repo"]
	if !ok {
		return inst, errors.New("no repo")
	}
	repo, err := stringField("repo", repoRaw)
	if err != nil {
		return inst, err
	}
	if orgRaw, ok := f["org"]; ok {
		org, err := stringField("org", orgRaw)
		if err != nil {
			return inst, err
		}
		if strings.Contains(repo, "/") {
			return inst, fmt.Errorf("repo %q has an owner and org %q is given too", repo, org)
		}
		repo = org + "/" + repo
		schema = SchemaMultiSWEBench
	}
	if err := checkRepo(repo); err != nil {
		return inst, err
	}
	inst.Repo = repo

	if raw, ok := f["instance_id"]; ok {
		if inst.ID, err = stringField("instance_id", raw); err != nil {
			return inst, err
		}
	} else if raw, ok := f["number"]; ok {
		// Multi-SWE-bench names an instance by its pull request.
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return inst, errors.New("field number: want the pull request number")
		}
		if _, err := strconv.ParseUint(n.String(), 10, 64); err != nil {
			return inst, fmt.Errorf("field number %s: want a pull request number", n)
		}
		inst.ID = strings.Replace(repo, "/", "__", 1) + "-" + n.String()
	}
	if err := checkID(inst.ID); err != nil {
		return inst, err
	}

	switch name, raw, err := pick(f, "base_commit", "base"); {
	case err != nil:
		return inst, err
	case name == "":
		return inst, errors.New("no base_commit")
	case name == "base":
		var base struct {
			SHA string `json:"sha"`
		}
		if err := json.Unmarshal(raw, &base); err != nil || base.SHA == "" {
			return inst, errors.New("field base: want an object with the base commit's sha")
		}
		inst.BaseCommit = base.SHA
		schema = SchemaMultiSWEBench
	default:
		if inst.BaseCommit, err = stringField(name, raw); err != nil {
			return inst, err
		}
	}
	if !isHexCommit(inst.BaseCommit) {
		return inst, fmt.Errorf("base_commit %q is not a commit id (4 to 64 hexadecimal digits)", clip(inst.BaseCommit))
	}
	inst.BaseCommit = strings.ToLower(inst.BaseCommit)

	patchName := ""
	for _, n := range []string{"patch", "fix_patch"} {
		raw, ok := f[n]
		if !ok {
			continue
		}
		got, err := stringField(n, raw)
		if err != nil {
			return inst, err
		}
		if patchName != "" && got != inst.Patch {
			return inst, fmt.Errorf("%s and %s name the same field with different patches: give one", patchName, n)
		}
		if patchName == "" {
			patchName, inst.Patch = n, got
		}
	}
	switch patchName {
	case "":
		return inst, errors.New("no patch (the reference fix)")
	case "fix_patch":
		schema = SchemaMultiSWEBench
	}
	raw, ok := f["test_patch"]
	if !ok {
		return inst, errors.New("no test_patch")
	}
	if inst.TestPatch, err = stringField("test_patch", raw); err != nil {
		return inst, err
	}

	for _, list := range []struct {
		into  *[]string
		names []string
	}{
		{&inst.FailToPass, []string{"FAIL_TO_PASS", "fail_to_pass", "f2p_tests"}},
		{&inst.PassToPass, []string{"PASS_TO_PASS", "pass_to_pass", "p2p_tests"}},
	} {
		// Some exports carry a list under two of its names; they must say
		// the same.
		var name string
		var tests []string
		for _, n := range list.names {
			raw, ok := f[n]
			if !ok {
				continue
			}
			got, err := testList(n, raw)
			if err != nil {
				return inst, err
			}
			if name != "" && !slices.Equal(got, tests) {
				return inst, fmt.Errorf("%s and %s name the same field with different tests: give one", name, n)
			}
			if name == "" {
				name, tests = n, got
			}
		}
		if name == "" {
			return inst, fmt.Errorf("no %s", list.names[0])
		}
		*list.into = tests
		switch name {
		case "fail_to_pass", "pass_to_pass":
			schema = SchemaSWEBenchPro
		case "f2p_tests", "p2p_tests":
			schema = SchemaMultiSWEBench
		}
	}
	for _, n := range []string{"repo_language", "language"} {
		// The language only guides how test names are read; a value of
		// another type (a class label number) is no language name.
		var lang string
		if raw, ok := f[n]; ok && json.Unmarshal(raw, &lang) == nil && inst.Language == "" {
			inst.Language = strings.ToLower(strings.TrimSpace(lang))
		}
	}
	inst.Schema = schema
	return inst, nil
}

// testList reads a list of test names: a JSON array of strings, a string
// holding one (as SWE-bench stores them), or an object keyed by test name
// (Multi-SWE-bench). null is an empty list. Names keep their order;
// duplicates are dropped.
func testList(name string, raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	var names []string
	switch {
	case isNull(raw):
		return []string{}, nil
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		if strings.TrimSpace(s) == "" {
			return []string{}, nil
		}
		if err := decodeStrict([]byte(s), &names); err != nil {
			// SWE-bench Pro writes its lists as Python literals
			// (str(list)): single-quoted strings.
			var perr error
			if names, perr = pythonStringList(s); perr != nil {
				return nil, fmt.Errorf("field %s: want a JSON (or Python) list of test names inside the string: %v", name, perr)
			}
		}
	case len(raw) > 0 && raw[0] == '[':
		if err := json.Unmarshal(raw, &names); err != nil {
			return nil, fmt.Errorf("field %s: want a list of test names", name)
		}
	case len(raw) > 0 && raw[0] == '{':
		fields, err := objectFields(raw)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		for k := range fields {
			names = append(names, k)
		}
		slices.Sort(names)
	default:
		return nil, fmt.Errorf("field %s: want a list of test names, a JSON-encoded list or an object keyed by test name", name)
	}
	out := make([]string, 0, len(names))
	seen := map[string]bool{}
	for _, n := range names {
		if err := checkTestName(n); err != nil {
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func checkID(id string) error {
	switch {
	case id == "":
		return errors.New("no instance_id")
	case len(id) > maxIDLen:
		return fmt.Errorf("instance_id of %d bytes: over %d", len(id), maxIDLen)
	case strings.ContainsFunc(id, unicode.IsControl) || strings.ContainsAny(id, `/\`) || id == "." || id == "..":
		return fmt.Errorf("instance_id %q: no slashes or control characters, and not \".\" or \"..\"", id)
	}
	return nil
}

// checkRepo refuses a repository name that is not "owner/name" in
// GitHub's characters: it becomes a path under --repos.
func checkRepo(repo string) error {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || !repoPart(owner) || !repoPart(name) {
		return fmt.Errorf("repo %q: want owner/name (letters, digits, -, _ and .)", clip(repo))
	}
	return nil
}

func repoPart(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	for _, c := range s {
		if c != '-' && c != '_' && c != '.' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func checkTestName(n string) error {
	switch {
	case strings.TrimSpace(n) == "":
		return errors.New("an empty test name")
	case len(n) > maxTestNameLen:
		return fmt.Errorf("a test name of %d bytes: over %d", len(n), maxTestNameLen)
	case strings.ContainsFunc(n, unicode.IsControl):
		return fmt.Errorf("test name %q holds a control character", clip(n))
	}
	return nil
}

func isHexCommit(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// clip shortens a value quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// pythonStringList reads a Python list literal of string literals, as
// str(list) writes it: ['a', "b's"], with Python's backslash escapes
// (\\, \', \", \n, \r, \t, \xhh, \uhhhh, \Uhhhhhhhh; an unknown escape keeps
// its backslash). Nothing else is accepted: no prefixes, no
// concatenation, no other value.
func pythonStringList(s string) ([]string, error) {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
	}
	skip()
	if i >= len(s) || s[i] != '[' {
		return nil, errors.New("not a list")
	}
	i++
	out := []string{}
	for {
		skip()
		if i < len(s) && s[i] == ']' {
			i++
			break
		}
		if i >= len(s) || (s[i] != '\'' && s[i] != '"') {
			return nil, fmt.Errorf("at byte %d: want a quoted string", i)
		}
		quote := s[i]
		i++
		var b strings.Builder
		for {
			if i >= len(s) {
				return nil, errors.New("unterminated string")
			}
			c := s[i]
			if c == quote {
				i++
				break
			}
			if c == '\n' {
				return nil, errors.New("a newline inside a string")
			}
			if c != '\\' {
				b.WriteByte(c)
				i++
				continue
			}
			if i+1 >= len(s) {
				return nil, errors.New("unterminated escape")
			}
			e := s[i+1]
			i += 2
			switch e {
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'x', 'u', 'U':
				n := 2
				switch e {
				case 'u':
					n = 4
				case 'U':
					n = 8
				}
				if i+n > len(s) {
					return nil, errors.New("short hexadecimal escape")
				}
				v, err := strconv.ParseUint(s[i:i+n], 16, 32)
				if err != nil || v > unicode.MaxRune || (v >= 0xd800 && v < 0xe000) {
					return nil, fmt.Errorf("bad escape \\%c%s", e, s[i:i+n])
				}
				b.WriteRune(rune(v))
				i += n
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		}
		out = append(out, b.String())
		skip()
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		skip()
		if i < len(s) && s[i] == ']' {
			i++
			break
		}
		return nil, fmt.Errorf("at byte %d: want , or ]", i)
	}
	skip()
	if i != len(s) {
		return nil, errors.New("trailing text after the list")
	}
	return out, nil
}

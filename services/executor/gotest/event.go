package gotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Actions of test2json events (go doc test2json; build-output and
// build-fail come from cmd/go ≥ 1.24, attr and artifacts from ≥ 1.25).
const (
	ActionStart       = "start"
	ActionRun         = "run"
	ActionPause       = "pause"
	ActionCont        = "cont"
	ActionPass        = "pass"
	ActionBench       = "bench"
	ActionFail        = "fail"
	ActionOutput      = "output"
	ActionSkip        = "skip"
	ActionAttr        = "attr"
	ActionArtifacts   = "artifacts"
	ActionBuildOutput = "build-output"
	ActionBuildFail   = "build-fail"
)

// event is one line of a test2json stream, as cmd/go writes it.
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
	ImportPath  string
	// Elapsed is in seconds; HasElapsed tells an absent field from 0.
	Elapsed    float64
	HasElapsed bool
}

// parseEvent decodes line as one event, or fails. It is strict where
// encoding/json is lenient, because a line that is not exactly what cmd/go
// writes must never count as evidence:
//   - the line must be a single JSON object, nothing (not even a space)
//     before or after it;
//   - keys match the field names exactly (encoding/json would accept
//     "action" or "ACTION");
//   - no key may appear twice;
//   - known fields must have their JSON type (a number Action is an error).
//
// Unknown keys are skipped, so that a field a future Go adds does not turn
// every event into plain output.
func parseEvent(line []byte) (event, error) {
	var e event
	// cmd/go writes each event as the whole line: no space around it.
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return e, errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // the opening '{'
		return e, err
	}
	seen := make(map[string]bool, 8)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return e, err
		}
		key, ok := tok.(string)
		if !ok {
			return e, fmt.Errorf("key is %T, not a string", tok)
		}
		if seen[key] {
			// {"Action":"fail","Action":"pass"}: encoding/json would keep
			// the last one silently; cmd/go never writes a key twice.
			return e, fmt.Errorf("duplicate key %q", key)
		}
		seen[key] = true
		if err := decodeField(dec, key, &e); err != nil {
			return e, fmt.Errorf("field %q: %w", key, err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return e, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return e, errors.New("data after the JSON object")
	}
	if e.Action == "" {
		return e, errors.New("no Action")
	}
	return e, nil
}

// decodeField decodes the value of key into its field of e, or skips it.
func decodeField(dec *json.Decoder, key string, e *event) error {
	var target *string
	switch key {
	case "Action":
		target = &e.Action
	case "Package":
		target = &e.Package
	case "Test":
		target = &e.Test
	case "Output":
		target = &e.Output
	case "FailedBuild":
		target = &e.FailedBuild
	case "ImportPath":
		target = &e.ImportPath
	case "Elapsed":
		var elapsed *float64
		if err := dec.Decode(&elapsed); err != nil {
			return err
		}
		if elapsed != nil {
			e.Elapsed, e.HasElapsed = *elapsed, true
		}
		return nil
	default:
		// Time, Key, Value, Path and whatever comes later: not evidence
		// this package judges by, but still well-formed JSON.
		var skipped json.RawMessage
		return dec.Decode(&skipped)
	}
	// A JSON null would leave *target untouched; treat it as the absent
	// string it stands for. Any other type is an error.
	var s *string
	if err := dec.Decode(&s); err != nil {
		return err
	}
	if s != nil {
		*target = *s
	}
	return nil
}

package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Prediction is an agent's answer to one instance.
type Prediction struct {
	InstanceID string `json:"instance_id"`
	// Model is model_name_or_path ("" when not given).
	Model string `json:"model_name_or_path"`
	// Patch is model_patch: a unified diff against the instance's base
	// commit. "" (or white space, or null) is the empty prediction: the
	// agent changed nothing, which is an answer too.
	Patch string `json:"model_patch"`
}

// Empty reports the empty prediction.
func (p Prediction) Empty() bool { return strings.TrimSpace(p.Patch) == "" }

// Diff returns the bytes verified as the patch: the empty prediction is
// the empty diff.
func (p Prediction) Diff() []byte {
	if p.Empty() {
		return []byte{}
	}
	return []byte(p.Patch)
}

// SHA256 is the hex SHA-256 of Diff: the patch digest the verdict names.
func (p Prediction) SHA256() string {
	sum := sha256.Sum256(p.Diff())
	return hex.EncodeToString(sum[:])
}

// ParsePredictions reads an agent's predictions: JSON Lines or a JSON array
// of objects with instance_id, model_patch (a string, or null for none)
// and optionally model_name_or_path — or the SWE-bench predictions JSON
// object keyed by instance_id, each value such an object (its instance_id
// may be left out, and must match when given). SWE-bench Pro's form, with
// patch and prefix for model_patch and model_name_or_path, is read too
// (one name of each pair per prediction). Other fields are ignored. Two
// predictions for one instance are an error.
func ParsePredictions(data []byte) ([]Prediction, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	var entries []entry
	if len(trimmed) > 0 && trimmed[0] == '{' {
		// One object: a prediction (JSON Lines of one line), or the
		// predictions keyed by instance_id.
		objs, err := records(data)
		if err != nil {
			return nil, err
		}
		if len(objs) == 1 && !isPrediction(objs[0].fields) {
			keyed, err := keyedPredictions(objs[0].fields)
			if err != nil {
				return nil, err
			}
			entries = keyed
		} else {
			for i, o := range objs {
				entries = append(entries, entry{where: o.where(i), fields: o.fields})
			}
		}
	} else {
		objs, err := records(data)
		if err != nil {
			return nil, err
		}
		for i, o := range objs {
			entries = append(entries, entry{where: o.where(i), fields: o.fields})
		}
	}
	if len(entries) == 0 {
		return nil, errors.New("no predictions")
	}
	out := make([]Prediction, 0, len(entries))
	seen := map[string]string{}
	for _, e := range entries {
		p, err := parsePrediction(e.fields, e.key)
		if err != nil {
			return nil, fmt.Errorf("prediction %s: %w", e.where, err)
		}
		if prev, dup := seen[p.InstanceID]; dup {
			return nil, fmt.Errorf("prediction %s: instance %q is also predicted by %s", e.where, p.InstanceID, prev)
		}
		seen[p.InstanceID] = e.where
		out = append(out, p)
	}
	return out, nil
}

// entry is one prediction object and where it is.
type entry struct {
	where  string
	key    string // the instance_id it is keyed by, in the keyed form
	fields map[string]json.RawMessage
}

// isPrediction reports an object that is one prediction rather than the
// predictions keyed by instance_id.
func isPrediction(fields map[string]json.RawMessage) bool {
	_, id := fields["instance_id"]
	_, patch := fields["model_patch"]
	_, proPatch := fields["patch"]
	return id || patch || proPatch
}

func keyedPredictions(fields map[string]json.RawMessage) ([]entry, error) {
	var out []entry
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		inner, err := objectFields(fields[key])
		if err != nil {
			return nil, fmt.Errorf("prediction %q: %w", key, err)
		}
		out = append(out, entry{where: fmt.Sprintf("%q", key), key: key, fields: inner})
	}
	return out, nil
}

func parsePrediction(f map[string]json.RawMessage, key string) (Prediction, error) {
	var p Prediction
	var err error
	if raw, ok := f["instance_id"]; ok {
		if p.InstanceID, err = stringField("instance_id", raw); err != nil {
			return p, err
		}
		if key != "" && p.InstanceID != key {
			return p, fmt.Errorf("instance_id %q under the key %q", p.InstanceID, key)
		}
	} else {
		p.InstanceID = key
	}
	if err := checkID(p.InstanceID); err != nil {
		return p, err
	}
	name, raw, err := pick(f, "model_patch", "patch")
	switch {
	case err != nil:
		return p, err
	case name == "":
		return p, errors.New("no model_patch (give \"\" or null for an empty prediction)")
	}
	if p.Patch, err = stringField(name, raw); err != nil {
		return p, err
	}
	if strings.ContainsRune(p.Patch, 0) {
		return p, errors.New("model_patch holds a NUL byte")
	}
	// SWE-bench Pro's harness names a run by its prefix.
	if name, raw, err := pick(f, "model_name_or_path", "prefix"); err != nil {
		return p, err
	} else if name != "" {
		if p.Model, err = stringField(name, raw); err != nil {
			return p, err
		}
	}
	return p, nil
}

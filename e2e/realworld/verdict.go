package realworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Decisions of a verdict.
const (
	Merge        = "MERGE"
	Block        = "BLOCK"
	Inconclusive = "INCONCLUSIVE"
)

// Verdict is the part of sealgate's artefact (schema sealgate.artefact.v1)
// the corpus judges and reports.
type Verdict struct {
	Schema      string   `json:"schema"`
	Decision    string   `json:"decision"`
	Reason      string   `json:"reason"`
	Reasons     []string `json:"reasons"`
	FixProven   bool     `json:"fix_proven"`
	ClaimsFixed []string `json:"claims_fixed"`
	Claims      []struct {
		ID             string `json:"id"`
		Outcome        string `json:"outcome"`
		Classification string `json:"classification"`
		Reason         string `json:"reason"`
	} `json:"claims"`
	Coverage *struct {
		Source       string   `json:"source"`
		Ratio        *float64 `json:"ratio"`
		ChangedLines int      `json:"changed_lines"`
		CoveredLines int      `json:"covered_lines"`
		Reason       string   `json:"reason"`
	} `json:"coverage"`
	Strength *struct {
		Source    string `json:"source"`
		Killed    int    `json:"killed"`
		Survived  int    `json:"survived"`
		Stillborn int    `json:"stillborn"`
		Reason    string `json:"reason"`
	} `json:"strength"`
	Timing *struct {
		TestProcesses       int   `json:"test_processes"`
		TestProcessesMillis int64 `json:"test_processes_ms"`
	} `json:"timing"`
}

// ParseVerdict decodes an artefact, which must be exactly one JSON object
// of schema sealgate.artefact.v1 with a known decision.
func ParseVerdict(data []byte) (*Verdict, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v Verdict
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("realworld: artefact: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("realworld: artefact: more after the JSON object")
	}
	if v.Schema != "sealgate.artefact.v1" {
		return nil, fmt.Errorf("realworld: artefact schema %q", v.Schema)
	}
	if !slices.Contains([]string{Merge, Block, Inconclusive}, v.Decision) {
		return nil, fmt.Errorf("realworld: artefact decision %q", v.Decision)
	}
	return &v, nil
}

// Judge says what is wrong with a verdict for a case of the given kind, or
// nil when a correct gate could have given it:
//
//   - an honest fix is not BLOCK, and its fix is proven: every claim is
//     classified fixed and listed in claims_fixed;
//   - a reintroduced bug is BLOCK.
func Judge(kind string, claims []string, v *Verdict) error {
	switch kind {
	case Honest:
		var errs []error
		if v.Decision == Block {
			errs = append(errs, fmt.Errorf("an honest fix is BLOCK: %s", v.Reason))
		}
		if !v.FixProven {
			errs = append(errs, errors.New("fix_proven is false"))
		}
		for _, c := range claims {
			if !slices.Contains(v.ClaimsFixed, c) {
				errs = append(errs, fmt.Errorf("claim %s is not in claims_fixed (%s)", c, v.claimState(c)))
			}
		}
		return errors.Join(errs...)
	case Reintroduced:
		if v.Decision != Block {
			return fmt.Errorf("a reintroduced bug is %s, want BLOCK: %s", v.Decision, v.Reason)
		}
		return nil
	}
	return fmt.Errorf("realworld: unknown case kind %q", kind)
}

// claimState describes the artefact's claim id in a few words.
func (v *Verdict) claimState(id string) string {
	for _, c := range v.Claims {
		if c.ID == id {
			return strings.TrimSpace(fmt.Sprintf("%s/%s %s", c.Outcome, c.Classification, c.Reason))
		}
	}
	return "not in the artefact"
}

// AllReasons returns every finding of the verdict, without repeats, in the
// artefact's order: its reasons list, or the decisive reason when the list
// is empty (the decisive reason is the first finding with the decision in
// front).
func (v *Verdict) AllReasons() []string {
	all := v.Reasons
	if len(all) == 0 {
		all = []string{v.Reason}
	}
	var out []string
	for _, r := range all {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

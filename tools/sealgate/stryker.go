package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
)

// The Stryker mutation-testing-report-schema (version 1), so that existing
// report viewers render sealgate's mutants.
type strykerReport struct {
	SchemaVersion string                 `json:"schemaVersion"`
	Thresholds    strykerThresholds      `json:"thresholds"`
	ProjectRoot   string                 `json:"projectRoot,omitempty"`
	Files         map[string]strykerFile `json:"files"`
}

type strykerThresholds struct {
	High int `json:"high"`
	Low  int `json:"low"`
}

type strykerFile struct {
	Language string          `json:"language"`
	Source   string          `json:"source"`
	Mutants  []strykerMutant `json:"mutants"`
}

type strykerMutant struct {
	ID          string          `json:"id"`
	MutatorName string          `json:"mutatorName"`
	Replacement string          `json:"replacement"`
	Location    strykerLocation `json:"location"`
	Status      string          `json:"status"`
	KilledBy    []string        `json:"killedBy,omitempty"`
	Description string          `json:"description,omitempty"`
}

type strykerLocation struct {
	Start strykerPosition `json:"start"`
	End   strykerPosition `json:"end"`
}

type strykerPosition struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// writeStrykerReport writes the run's mutants, with the patched sources
// they sit in, as a Stryker report. The column is the mutated token's
// start; the schema wants a range, so it spans one column.
func writeStrykerReport(ctx context.Context, file, repo string, co *checkout.Checkout, st *pb.StrengthMeasured, specs map[string]int) error {
	r := strykerReport{SchemaVersion: "1", Thresholds: strykerThresholds{High: 80, Low: 60}, ProjectRoot: repo, Files: map[string]strykerFile{}}
	var paths []string
	for _, m := range st.GetMutants() {
		if m.At != nil && !slices.Contains(paths, m.At.Path) {
			paths = append(paths, m.At.Path)
		}
	}
	srcs := map[string][]byte{}
	if len(paths) > 0 {
		var err error
		if srcs, err = co.Patch.ReadFiles(ctx, paths); err != nil {
			return err
		}
	}
	for _, m := range st.GetMutants() {
		if m.At == nil {
			continue
		}
		f := r.Files[m.At.Path]
		f.Language, f.Source = "go", string(srcs[m.At.Path])
		col := max(1, specs[m.Id])
		sm := strykerMutant{
			ID: m.Id, MutatorName: m.Operator, Replacement: m.Description, Description: m.Description,
			Location: strykerLocation{Start: strykerPosition{Line: int(m.At.Line), Column: col}, End: strykerPosition{Line: int(m.At.Line), Column: col + 1}},
			Status:   strykerStatus(m.Status),
		}
		if m.KilledBy != "" {
			sm.KilledBy = []string{m.KilledBy}
		}
		f.Mutants = append(f.Mutants, sm)
		r.Files[m.At.Path] = f
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	return writeOutput(file, buf.Bytes())
}

func strykerStatus(s string) string {
	switch s {
	case "killed":
		return "Killed"
	case "survived":
		return "Survived"
	case "equivalent":
		// Proven to behave as the original: never run, never counted.
		return "Ignored"
	}
	return "RuntimeError"
}

// mutantColumns reads the mutants' columns from the mutation plan records.
func mutantColumns(plan *pb.JobPlanned, cols map[string]int) {
	for _, j := range plan.GetJobs() {
		var s struct {
			Mutation *struct {
				ID  int `json:"id"`
				Col int `json:"col"`
			} `json:"mutation"`
		}
		if json.Unmarshal(j.Spec, &s) == nil && s.Mutation != nil {
			cols[strconv.Itoa(s.Mutation.ID)] = s.Mutation.Col
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sealgate/sealgate/e2e/realworld"
)

// measureOptions are measure's flags.
type measureOptions struct {
	binary     string   // the sealgate binary; "" builds one
	buildCache string   // --build-cache of every verification
	jsonOut    string   // file for the rows as JSON; "" for none
	extra      []string // more flags for every verify
}

// row is one verification's measurements.
type row struct {
	Fix       string             `json:"fix"`
	Module    string             `json:"module"`
	Versions  string             `json:"versions"`
	GoLine    string             `json:"go"`
	Kind      string             `json:"kind"`
	ExitCode  int                `json:"exit_code"`
	WallMS    int64              `json:"wall_ms"`
	Verdict   *realworld.Verdict `json:"-"`
	Artefact  json.RawMessage    `json:"artefact,omitempty"`
	Judgement string             `json:"judgement"`        // "" when a correct gate could give this verdict
	Stderr    string             `json:"stderr,omitempty"` // the tail, when no verdict came out
}

// measure verifies every case of every fix with the sealgate binary, one at
// a time, and prints a Markdown table of the verdicts and their costs.
func measure(ctx context.Context, o measureOptions, fixes []realworld.Fix, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "corpus-measure-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if o.binary == "" {
		o.binary = filepath.Join(tmp, "sealgate")
		fmt.Fprintln(stderr, "corpus: building sealgate")
		build := exec.CommandContext(ctx, "go", "build", "-o", o.binary, "github.com/sealgate/sealgate/tools/sealgate")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %w\n%s", err, out)
		}
	}
	var rows []row
	wrong := 0
	for _, f := range fixes {
		repo, err := realworld.Build(ctx, filepath.Join(tmp, "repos", f.Name), f, realworld.Proxy{})
		if err != nil {
			return err
		}
		for _, c := range repo.Cases() {
			r, err := verifyCase(ctx, o, tmp, repo, c)
			if err != nil {
				return err
			}
			if r.Judgement != "" {
				wrong++
			}
			fmt.Fprintf(stderr, "corpus: %s %s: %s in %.1f s%s\n", f.Name, c.Kind, decision(r), float64(r.WallMS)/1000, judged(r))
			rows = append(rows, r)
		}
	}
	printTable(stdout, rows)
	if o.jsonOut != "" {
		data, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	if wrong > 0 {
		return wrongError{wrong}
	}
	return nil
}

// verifyCase runs one `sealgate verify` with a fresh state directory.
func verifyCase(ctx context.Context, o measureOptions, tmp string, repo *realworld.Repo, c realworld.Case) (row, error) {
	f := repo.Fix
	r := row{Fix: f.Name, Module: f.Module, Versions: f.Before.Version + " → " + f.After.Version, GoLine: repo.GoVersion, Kind: c.Kind}
	state, err := os.MkdirTemp(tmp, "state-")
	if err != nil {
		return r, err
	}
	out := filepath.Join(state, "artefact.json")
	args := append(verifyArgs(repo, c), "--state", state, "--build-cache", o.buildCache, "--out", out)
	args = append(args, o.extra...)
	cmd := exec.CommandContext(ctx, o.binary, args...)
	var so, se bytes.Buffer
	cmd.Stdout = &so
	cmd.Stderr = &se
	start := time.Now()
	err = cmd.Run()
	r.WallMS = time.Since(start).Milliseconds()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return r, ctx.Err()
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	case err != nil:
		return r, fmt.Errorf("%s %s: %w", f.Name, c.Kind, err)
	}
	v, perr := realworld.ParseVerdict(so.Bytes())
	if perr != nil || r.ExitCode > 2 {
		r.Judgement = fmt.Sprintf("no verdict (exit %d)", r.ExitCode)
		r.Stderr = tail(se.String(), 20)
		return r, nil
	}
	r.Verdict, r.Artefact = v, json.RawMessage(so.Bytes())
	if err := realworld.Judge(c.Kind, c.Claims, v); err != nil {
		r.Judgement = strings.ReplaceAll(err.Error(), "\n", "; ")
	}
	return r, nil
}

func decision(r row) string {
	if r.Verdict == nil {
		return fmt.Sprintf("no verdict (exit %d)", r.ExitCode)
	}
	return r.Verdict.Decision
}

func judged(r row) string {
	if r.Judgement == "" {
		return ""
	}
	return " — WRONG: " + r.Judgement
}

// table prints the table of the rows measure -json wrote to file.
func table(file string, stdout io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var rows []row
	if err := json.Unmarshal(data, &rows); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for i := range rows {
		if len(rows[i].Artefact) == 0 {
			continue
		}
		if rows[i].Verdict, err = realworld.ParseVerdict(rows[i].Artefact); err != nil {
			return fmt.Errorf("%s: %s %s: %w", file, rows[i].Fix, rows[i].Kind, err)
		}
	}
	printTable(stdout, rows)
	return nil
}

// printTable writes the rows as the Markdown table of docs/benchmarks.md.
func printTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| fix | go | case | verdict | right | fix proven | coverage | mutants k/s/sb | wall | test processes | reasons |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		goLine := r.GoLine
		if goLine == "" {
			goLine = "none"
		}
		right := "yes"
		if r.Judgement != "" {
			right = "**no**"
		}
		cells := []string{r.Fix + " (" + r.Versions + ")", goLine, r.Kind, decision(r), right, "—", "—", "—", fmt.Sprintf("%.1f s", float64(r.WallMS)/1000), "—", ""}
		if v := r.Verdict; v != nil {
			cells[5] = fmt.Sprint(v.FixProven)
			if c := v.Coverage; c != nil && c.Source == "computed" {
				cells[6] = fmt.Sprintf("%d/%d", c.CoveredLines, c.ChangedLines)
			}
			if s := v.Strength; s != nil && s.Source == "computed" {
				cells[7] = fmt.Sprintf("%d/%d/%d", s.Killed, s.Survived, s.Stillborn)
			}
			if t := v.Timing; t != nil {
				cells[9] = fmt.Sprintf("%d (%.1f s)", t.TestProcesses, float64(t.TestProcessesMillis)/1000)
			}
			if v.Decision != realworld.Merge {
				cells[10] = strings.Join(v.AllReasons(), "; ")
			}
		} else {
			cells[10] = strings.ReplaceAll(r.Stderr, "\n", " ")
		}
		for i := range cells {
			cells[i] = strings.ReplaceAll(cells[i], "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/report"
)

func newReportCmd(stdout io.Writer) *cobra.Command {
	var format, out, repo string
	cmd := &cobra.Command{
		Use:   "report ARTEFACT --format " + strings.Join(report.Formats(), "|") + " [--out FILE] [--repo DIR]",
		Short: "Render a verification artefact for a pull request, code scanning, a CI system or an agent",
		Long: `report reads the JSON artefact sealgate verify printed (a file, or - for
standard input) and renders it:

  markdown            a pull-request summary (under GitHub's 1 MiB step summary limit)
  sarif               SARIF 2.1.0 for code scanning: one result per regression,
                      refuted or unverified claim, uncovered changed line, surviving
                      mutant, harness drift and restored test file (rules SG001–SG007,
                      docs/ci.md)
  junit               JUnit XML: the decision, each claim × side, each regression
  gitlab-codequality  GitLab Code Quality JSON
  github-annotations  GitHub workflow commands, the most important first
  text                plain text for a terminal or a coding agent

Test declarations are looked up in --repo (default: the current directory,
the checkout of the patch in CI) so that findings about tests point at them;
paths are relative to the repository root. The artefact is checked strictly:
one that does not parse is a usage error (exit 3), never an empty report.
The exit code says whether the report was written, not the decision.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("report takes one artefact file (or - for standard input)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats(), format) {
				return usageErrorf("--format %q: want one of %s", format, strings.Join(report.Formats(), ", "))
			}
			data, err := readArtefact(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("repo") {
				if st, err := os.Stat(repo); err != nil || !st.IsDir() {
					return usageErrorf("--repo %s is not a directory", repo)
				}
			}
			b, err := renderReport(data, format, repo)
			if err != nil {
				return usageErrorf("%s: %v", args[0], err)
			}
			if out != "" {
				if err := outDir(out); err != nil {
					return usageErrorf("--out %s: %v", out, err)
				}
			}
			if out == "" {
				if _, err := stdout.Write(b); err != nil {
					return infraErrorf("%v", err)
				}
				return nil
			}
			return writeReportFile(out, b)
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the report format: "+strings.Join(report.Formats(), ", ")+" (required)")
	cmd.Flags().StringVar(&out, "out", "", "write the report to this file instead of standard output")
	cmd.Flags().StringVar(&repo, "repo", ".", "the repository at the patch, where test declarations are looked up")
	return cmd
}

// readArtefact reads the artefact file, or standard input for "-".
func readArtefact(stdin io.Reader, name string) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, usageErrorf("artefact: %v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, report.MaxArtefactBytes+1))
	if err != nil {
		return nil, usageErrorf("artefact %s: %v", name, err)
	}
	return data, nil
}

// renderReport parses an artefact strictly and renders it, locating test
// declarations in repo ("" for none).
func renderReport(data []byte, format, repo string) ([]byte, error) {
	a, err := report.Parse(data)
	if err != nil {
		return nil, err
	}
	var locs report.Locations
	if repo != "" {
		locs = report.Locate(os.DirFS(repo), a)
	}
	return report.Render(format, a, report.Options{Locations: locs, ToolVersion: version()})
}

// outDir checks that a report file's directory exists.
func outDir(file string) error {
	dir := filepath.Dir(file)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the directory %s does not exist", dir)
	}
	return nil
}

// writeReportFile writes a report whole or not at all: a half-written
// report never looks like a finished one.
func writeReportFile(name string, b []byte) error {
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, ".sealgate-report-*")
	if err != nil {
		return infraErrorf("report %s: %v", name, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return infraErrorf("report %s: %v", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return infraErrorf("report %s: %v", name, err)
	}
	if err := tmp.Close(); err != nil {
		return infraErrorf("report %s: %v", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return infraErrorf("report %s: %v", name, err)
	}
	return nil
}

// reportTargets is verify's repeatable --report FORMAT=FILE.
type reportTargets []reportTarget

type reportTarget struct{ format, file string }

func (r *reportTargets) String() string {
	var parts []string
	for _, t := range *r {
		parts = append(parts, t.format+"="+t.file)
	}
	return strings.Join(parts, ",")
}

func (r *reportTargets) Set(v string) error {
	format, file, ok := strings.Cut(v, "=")
	if !ok || file == "" {
		return fmt.Errorf("--report %q: want FORMAT=FILE, FORMAT one of %s", v, strings.Join(report.Formats(), ", "))
	}
	if !slices.Contains(report.Formats(), format) {
		return fmt.Errorf("--report %q: unknown format %q (want one of %s)", v, format, strings.Join(report.Formats(), ", "))
	}
	// Checked before the run, not after minutes of it.
	if err := outDir(file); err != nil {
		return fmt.Errorf("--report %q: %v", v, err)
	}
	*r = append(*r, reportTarget{format: format, file: file})
	return nil
}

func (r *reportTargets) Type() string { return "FORMAT=FILE" }

// capture returns the writer verify prints its artefact to and a function
// to call once it has: it renders every --report from the printed bytes.
// A verdict whose reports cannot be written ends with exit 4: CI that reads
// the reports must never take a missing one for a clean one.
func (r *reportTargets) capture(stdout io.Writer) (io.Writer, func(repo string) error) {
	if len(*r) == 0 {
		return stdout, func(string) error { return nil }
	}
	var printed bytes.Buffer
	return io.MultiWriter(stdout, &printed), func(repo string) error {
		if printed.Len() == 0 {
			return infraErrorf("--report: no artefact was printed")
		}
		for _, t := range *r {
			b, err := renderReport(printed.Bytes(), t.format, repo)
			if err != nil {
				return infraErrorf("--report %s=%s: %v", t.format, t.file, err)
			}
			if err := writeReportFile(t.file, b); err != nil {
				return err
			}
		}
		return nil
	}
}

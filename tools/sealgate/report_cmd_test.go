package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/report"
)

// realArtefact is an artefact sealgate verify printed on the demo.
func realArtefact(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "report", "testdata", "artefacts", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("the report package's test data is not here (%v)", err)
	}
	return p
}

func TestReportCommand(t *testing.T) {
	art := realArtefact(t, "go-block-regression.json")
	dir := t.TempDir()
	out := filepath.Join(dir, "r.sarif")
	code, stdout, stderr := runCLI(t, "report", art, "--format", "sarif", "--out", out, "--repo", dir)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, _ := os.ReadFile(art)
	a, err := report.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := report.SARIF(a, report.Options{Locations: report.Locations{}, ToolVersion: version()})
	if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
		t.Fatalf("--out holds\n%s\nwant\n%s", got, want)
	}
	// Standard input, to standard output.
	var o, e bytes.Buffer
	root := newRoot(&o, &e)
	root.SetIn(bytes.NewReader(data))
	root.SetArgs([]string{"report", "-", "--format", "text"})
	if err := root.ExecuteContext(context.Background()); err != nil || !strings.HasPrefix(o.String(), "sealgate: BLOCK") {
		t.Fatalf("report -: %v, %q", err, o.String())
	}
}

// A report that cannot be made is a one-line usage error, and nothing is
// written: never an empty report.
func TestReportCommandRefuses(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"schema":"sealgate.artefact.v1","decision":"MERGE"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	art := realArtefact(t, "go-merge.json")
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"report"},
		{"report", art},
		{"report", art, "--format", "html"},
		{"report", broken, "--format", "markdown", "--out", out},
		{"report", empty, "--format", "sarif", "--out", out},
		{"report", filepath.Join(dir, "missing.json"), "--format", "sarif", "--out", out},
		{"report", art, "--format", "sarif", "--repo", filepath.Join(dir, "nodir")},
		{"verify", "--repo", dir, "--base", "HEAD", "--patch", "HEAD", "--report", "html=x"},
		{"verify", "--repo", dir, "--base", "HEAD", "--patch", "HEAD", "--report", "sarif"},
		{"verify", "--repo", dir, "--base", "HEAD", "--patch", "HEAD", "--report", "sarif=" + filepath.Join(dir, "nodir", "x.sarif")},
		{"report", art, "--format", "sarif", "--out", filepath.Join(dir, "nodir", "x.sarif")},
		{"doctor", "--state", dir},
		{"doctor", "--env", "--json"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want exit 3 and nothing", args, code, stdout)
		}
		if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "sealgate: ") {
			t.Errorf("%q: stderr %q, want one line", args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q wrote %s", args, out)
		}
	}
}

// doctor --env prints one line per check and fails only on a FAIL.
func TestDoctorEnv(t *testing.T) {
	state := t.TempDir()
	code, stdout, stderr := runCLI(t, "doctor", "--env", "--state", state)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	line := regexp.MustCompile(`^(ok|warn|FAIL)\s+\S`)
	names := map[string]bool{}
	failures := 0
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("line %q is not STATUS CHECK DETAIL", l)
		}
		f := strings.Fields(l)
		names[f[1]] = true
		if f[0] == "FAIL" {
			failures++
		}
	}
	for _, want := range []string{"git", "go", "prlimit", "bubblewrap", "sandbox", "state", "build"} {
		if !names[want] {
			t.Errorf("no check %q in:\n%s", want, stdout)
		}
	}
	if (failures > 0) != (code == exitFailed) || (failures == 0 && code != exitOK) {
		t.Fatalf("exit %d with %d failures:\n%s%s", code, failures, stdout, stderr)
	}
	// A state directory that cannot be written fails, saying what to do.
	file := filepath.Join(state, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runCLI(t, "doctor", "--env", "--state", file)
	if code != exitFailed || !regexp.MustCompile(`(?m)^FAIL\s+state\s+.*--state DIR`).MatchString(stdout) {
		t.Fatalf("an unwritable state: exit %d\n%s", code, stdout)
	}
}

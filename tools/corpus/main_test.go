package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/e2e/realworld"
)

func runCorpus(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = run(context.Background(), args, &out, &errs)
	return code, out.String(), errs.String()
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"frobnicate"},
		{"list", "extra"},
		{"list", "-run", "("},
		{"list", "-run", "no-such-fix"},
		{"list", "-no-such-flag"},
		{"write"},
		{"check", "extra"},
		{"table"},
		{"bench-table"},
		{"bench-table", "a", "b"},
	} {
		code, stdout, stderr := runCorpus(args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "corpus: ") {
			t.Errorf("corpus %q: exit %d, stdout %q, stderr %q; want exit 3 and one line", args, code, stdout, stderr)
		}
	}
}

func TestList(t *testing.T) {
	code, stdout, _ := runCorpus("list")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != len(realworld.Fixes()) {
		t.Errorf("%d lines for %d fixes:\n%s", len(lines), len(realworld.Fixes()), stdout)
	}
	code, stdout, _ = runCorpus("list", "-run", "^pflag-")
	if code != exitOK || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, "github.com/spf13/pflag v1.0.7 → v1.0.8") {
		t.Errorf("list -run ^pflag-: exit %d:\n%s", code, stdout)
	}
}

// TestTable re-prints a measured run: the verdict, whether a correct gate
// could give it, the measurements and the reasons of a verdict that is not
// MERGE.
func TestTable(t *testing.T) {
	block := `{"schema":"sealgate.artefact.v1","decision":"BLOCK","reason":"BLOCK: x","reasons":["x","a|b"],"fix_proven":false,
		"coverage":{"source":"computed","ratio":0.5,"changed_lines":4,"covered_lines":2},
		"strength":{"source":"computed","killed":3,"survived":1,"stillborn":2},
		"timing":{"test_processes":7,"test_processes_ms":1500}}`
	rows := []row{
		{Fix: "f", Versions: "v1 → v2", GoLine: "1.12", Kind: realworld.Reintroduced, WallMS: 2500, Artefact: json.RawMessage(block)},
		{Fix: "f", Versions: "v1 → v2", Kind: realworld.Honest, ExitCode: 4, Judgement: "no verdict (exit 4)", Stderr: "sealgate: boom"},
	}
	data, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "rows.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCorpus("table", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"| f (v1 → v2) | 1.12 | reintroduced | BLOCK | yes | false | 2/4 | 3/1/2 | 2.5 s | 7 (1.5 s) | x; a\\|b |",
		"| f (v1 → v2) | none | honest | no verdict (exit 4) | **no** | — | — | — | 0.0 s | — | sealgate: boom |",
	} {
		if !strings.Contains(stdout, want+"\n") {
			t.Errorf("no row %s in:\n%s", want, stdout)
		}
	}
	if err := os.WriteFile(file, []byte(`[{"artefact":{"schema":"other"}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCorpus("table", file); code != exitError {
		t.Errorf("a row with a bad artefact: exit %d, want 4", code)
	}
}

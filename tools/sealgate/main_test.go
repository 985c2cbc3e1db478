package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs one command line in-process and returns its exit code and
// output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "sealgate ") {
		t.Fatalf("version: exit %d, %q", code, out)
	}
}

func TestUsageErrorsExit3WithOneLine(t *testing.T) {
	empty := t.TempDir()
	for _, args := range [][]string{
		{},
		{"nosuch"},
		{"ledger"},
		{"ledger", "verify", "--no-such-flag"},
		{"ledger", "verify", "--state", empty},
		{"ledger", "demo", "--runs", "0", "--state", empty},
		{"version", "extra"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", args, code, exitUsage, errOut)
		}
		if out != "" {
			t.Errorf("%q: wrote %q to stdout", args, out)
		}
		if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "sealgate: ") || !strings.Contains(lines[0], "--help") {
			t.Errorf("%q: stderr %q, want one line saying what was wrong and pointing at --help", args, errOut)
		}
	}
}

func TestDemoThenVerifyAndInspect(t *testing.T) {
	state := t.TempDir()
	code, out, errOut := runCLI(t, "ledger", "demo", "--state", state, "--runs", "2", "--jobs", "4")
	if code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"→ duplicate", "refused: token_conflict", "refused: unknown_producer", "refused: no_seal", "refused: budget_exceeded", "ok: "} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "ledger", "verify", "--state", state)
	if code != exitOK || !strings.HasPrefix(out, "ok: 24 records verified") {
		t.Fatalf("verify: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "ledger", "inspect", "--state", state)
	if code != exitOK || strings.Count(out, "\n#") < 23 {
		t.Fatalf("inspect: exit %d\n%s", code, out)
	}
	// A trust policy that does not know the producers refuses the ledger.
	other := t.TempDir()
	if code, _, _ := runCLI(t, "ledger", "demo", "--state", other, "--no-refusals"); code != exitOK {
		t.Fatal("second demo failed")
	}
	code, out, _ = runCLI(t, "ledger", "verify", "--state", state, "--trust", filepath.Join(other, trustFile))
	if code != exitFailed || !strings.Contains(out, "record #1 ") || !strings.Contains(out, "unknown_producer") {
		t.Fatalf("verify under foreign trust: exit %d, %q", code, out)
	}
	// An empty trust set refuses everything.
	emptyTrust := filepath.Join(t.TempDir(), "trust.json")
	if err := os.WriteFile(emptyTrust, []byte(`{"schema":"sealgate.trust.v1","keys":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "ledger", "verify", "--state", state, "--trust", emptyTrust)
	if code != exitFailed || !strings.Contains(out, "no_trust_roots") {
		t.Fatalf("verify under empty trust: exit %d, %q", code, out)
	}
}

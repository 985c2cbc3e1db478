package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/doctor"
)

// runDoctor runs the doctor command with args and returns its output.
func runDoctor(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := newDoctorCmd(&out)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// TestDoctorJSONListsEveryCode: `sealgate doctor --json` passes and lists
// every refusal code of the ledger, observed as expected.
func TestDoctorJSONListsEveryCode(t *testing.T) {
	out, err := runDoctor(t, "--json")
	if err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	var rep doctor.Report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out)
	}
	if !rep.OK() || len(rep.Checks) == 0 || rep.Checks[0].Expected != doctor.Admitted || !rep.Checks[0].Passed {
		t.Fatalf("report: %+v", rep)
	}
	seen := map[string]int{}
	for _, c := range rep.Checks {
		seen[c.Expected]++
		if !c.Passed || c.Observed != c.Expected || c.ID == "" {
			t.Errorf("check %+v", c)
		}
	}
	for _, info := range authority.Codes() {
		if seen[info.Code] != 1 {
			t.Errorf("code %s is expected by %d checks, want 1", info.Code, seen[info.Code])
		}
	}
	if len(rep.Checks) != len(authority.Codes())+1 {
		t.Errorf("%d checks, want the valid run and %d codes", len(rep.Checks), len(authority.Codes()))
	}
}

func TestDoctorTable(t *testing.T) {
	out, err := runDoctor(t)
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "ID ") || !strings.Contains(lines[0], "EXPECTED") || !strings.Contains(lines[0], "OBSERVED") || !strings.Contains(lines[0], "PASSED") {
		t.Fatalf("header %q", lines[0])
	}
	for _, info := range authority.Codes() {
		if !strings.Contains(out, " "+info.Code+" ") {
			t.Errorf("table lacks code %s:\n%s", info.Code, out)
		}
	}
	n := len(authority.Codes()) + 1
	if strings.Contains(out, " NO\n") || !strings.Contains(out, fmt.Sprintf("\nok: %d of %d checks passed", n, n)) {
		t.Errorf("output:\n%s", out)
	}
}

func TestDoctorUsage(t *testing.T) {
	_, err := runDoctor(t, "extra")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitUsage {
		t.Fatalf("doctor extra: %v, want a usage error", err)
	}
}

// TestDoctorFailureExits1: a report with a failed check is printed with its
// details and fails the command with exit code 1, as table and as JSON.
func TestDoctorFailureExits1(t *testing.T) {
	rep := doctor.Report{RunID: "r", Records: 1, Passed: 1, Failed: 1, Checks: []doctor.Check{
		{ID: "valid-run", Expected: doctor.Admitted, Observed: doctor.Admitted, Passed: true, Mutation: "none"},
		{ID: "second-seal", Expected: authority.CodeRunConflict, Observed: doctor.Admitted, Mutation: "a second seal", Detail: "2 records admitted"},
	}}
	for _, asJSON := range []bool{false, true} {
		var out bytes.Buffer
		err := reportDoctor(&out, rep, asJSON)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitFailed {
			t.Fatalf("json %v: %v, want exit %d", asJSON, err, exitFailed)
		}
		want := "FAIL second-seal: expected run_conflict, observed admitted"
		if asJSON {
			want = `"passed": false`
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("json %v: output lacks %q:\n%s", asJSON, want, out.String())
		}
	}
}

package doctor

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sealgate/sealgate/ledger/authority"
)

func TestDoctorEveryCheckPasses(t *testing.T) {
	rep := Run(context.Background())
	for _, c := range rep.Checks {
		t.Logf("%-28s %-18s %-18s %v", c.ID, c.Expected, c.Observed, c.Passed)
		if !c.Passed {
			t.Errorf("check %s: expected %s, observed %q: %s", c.ID, c.Expected, c.Observed, c.Detail)
		}
	}
	if !rep.OK() || rep.Failed != 0 || rep.Passed != len(rep.Checks) {
		t.Errorf("report: %d passed, %d failed of %d, OK %v", rep.Passed, rep.Failed, len(rep.Checks), rep.OK())
	}
	if rep.RunID != "doctor-fixture" || rep.Records != len(recordNames()) {
		t.Errorf("report names run %q of %d records", rep.RunID, rep.Records)
	}
}

// TestDoctorListsEveryCodeOnce: the valid run first, then every code of
// authority.Codes() exactly once as an expectation, in that order.
func TestDoctorListsEveryCodeOnce(t *testing.T) {
	rep := Run(context.Background())
	var want []string
	for _, c := range authority.Codes() {
		want = append(want, c.Code)
	}
	var got []string
	ids := map[string]bool{}
	for _, c := range rep.Checks {
		got = append(got, c.Expected)
		if ids[c.ID] {
			t.Errorf("check id %s is used twice", c.ID)
		}
		ids[c.ID] = true
		if c.Mutation == "" {
			t.Errorf("check %s does not say what it changed", c.ID)
		}
	}
	if len(got) == 0 || got[0] != Admitted {
		t.Fatalf("first check expects %v, want the valid run (%s)", got, Admitted)
	}
	if !slices.Equal(got[1:], want) {
		t.Errorf("expected codes\n%v\nwant every code of authority.Codes() once, in its order\n%v", got[1:], want)
	}
}

func TestDoctorIsDeterministic(t *testing.T) {
	a, b := Run(context.Background()), Run(context.Background())
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two doctor runs differ")
	}
}

// TestDoctorWrongExpectationFails: a copy refused for another code than
// expected, or at another record than the one changed, fails its check —
// and a valid ledger expected to be refused fails too.
func TestDoctorWrongExpectationFails(t *testing.T) {
	fx, err := loadFixture(fixtureFiles())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]check{}
	for _, c := range checks() {
		byID[c.id] = c
	}

	wrongCode := byID["conflicting-result"]
	wrongCode.id, wrongCode.expected = "wrong-code", authority.CodeBudgetExceeded
	ch := execute(fx, wrongCode, Check{ID: wrongCode.id, Expected: wrongCode.expected})
	if ch.Passed || ch.Observed != authority.CodeTokenConflict {
		t.Errorf("token conflict expected as budget_exceeded: passed %v, observed %q", ch.Passed, ch.Observed)
	}

	wrongPlace := byID["conflicting-result"]
	build := wrongPlace.build
	wrongPlace.build = func(fx *fixture) (ledgerCopy, error) {
		cp, err := build(fx)
		cp.at--
		return cp, err
	}
	ch = execute(fx, wrongPlace, Check{Expected: wrongPlace.expected})
	if ch.Passed || ch.Observed != authority.CodeTokenConflict || !strings.Contains(ch.Detail, "the change must be caught at") {
		t.Errorf("refusal at another record: passed %v, observed %q, %s", ch.Passed, ch.Observed, ch.Detail)
	}

	unchanged := byID["valid-run"]
	unchanged.expected = authority.CodeBadSignature
	ch = execute(fx, unchanged, Check{Expected: unchanged.expected})
	if ch.Passed || ch.Observed != Admitted {
		t.Errorf("valid run expected refused: passed %v, observed %q", ch.Passed, ch.Observed)
	}

	// A whole report with one wrong expectation is not OK.
	cs := checks()
	for i := range cs {
		if cs[i].id == "second-seal" {
			cs[i].expected = authority.CodeNoSeal
		}
	}
	rep := run(context.Background(), fx, nil, cs)
	if rep.OK() || rep.Failed == 0 {
		t.Fatalf("report with a wrong expectation: OK %v, %d failed", rep.OK(), rep.Failed)
	}
	// no_seal is now expected twice and run_conflict by nobody.
	var missing bool
	for _, c := range rep.Checks {
		if c.Expected == authority.CodeRunConflict {
			missing = c.ID == "missing-"+authority.CodeRunConflict && !c.Passed
		}
	}
	if !missing {
		t.Error("a code without a check is not reported as a failed check")
	}
}

func TestDoctorBrokenFixtureFailsEveryCheck(t *testing.T) {
	bad := fstest.MapFS{fixtureRunFile: {Data: []byte(`{"schema":"other"}`)}}
	fx, err := loadFixture(bad)
	if err == nil {
		t.Fatal("a fixture of another schema loaded")
	}
	rep := run(context.Background(), fx, err, checks())
	if rep.OK() || rep.Passed != 0 || len(rep.Checks) != len(authority.Codes())+1 {
		t.Fatalf("broken fixture: %d passed, %d checks", rep.Passed, len(rep.Checks))
	}
	for _, c := range rep.Checks {
		if !strings.HasPrefix(c.Detail, "fixture: ") {
			t.Errorf("check %s: detail %q, want the fixture error", c.ID, c.Detail)
		}
	}
}

func TestDoctorCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := Run(ctx)
	if rep.OK() || rep.Passed != 0 {
		t.Fatalf("cancelled doctor: %d passed", rep.Passed)
	}
	for _, c := range rep.Checks {
		if c.Detail != context.Canceled.Error() {
			t.Errorf("check %s: detail %q", c.ID, c.Detail)
		}
	}
}

func TestDoctorCopiesAreMinimal(t *testing.T) {
	fx, err := loadFixture(fixtureFiles())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks() {
		cp, err := c.build(fx)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		// Count the records that are not where they were in the recorded
		// ledger: one changed, added or moved (a swap moves two).
		changed := 0
		switch d := len(cp.ledger) - len(fx.raw); d {
		case 0:
			for i := range cp.ledger {
				if string(cp.ledger[i]) != string(fx.raw[i]) {
					changed++
				}
			}
		case 1:
			rest := slices.Delete(slices.Clone(cp.ledger), cp.at, cp.at+1)
			if !slices.EqualFunc(rest, fx.raw, func(a, b []byte) bool { return string(a) == string(b) }) {
				changed = 2
			} else {
				changed = 1
			}
		default:
			t.Errorf("%s: the copy has %d records more", c.id, d)
			continue
		}
		want := 1 // one record changed or added
		switch {
		case c.expected == Admitted || cp.trust != nil:
			want = 0 // the recorded ledger itself
		case c.id == "record-before-seal":
			want = 2 // two records swapped
		}
		if changed != want {
			t.Errorf("%s: %d records changed, want %d", c.id, changed, want)
		}
	}
}

// TestDoctorFixtureIsChecked: a fixture whose listing does not match its
// records, or that lacks a key, does not load.
func TestDoctorFixtureIsChecked(t *testing.T) {
	files := fstest.MapFS{}
	err := fs.WalkDir(fixtureFiles(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fixtureFiles(), name)
		files[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loadFixture(files); err != nil {
		t.Fatalf("copy of the fixture: %v", err)
	}
	run := files[fixtureRunFile].Data
	listed := bytes.Replace(run, []byte(`"name": "result-claim-000"`), []byte(`"name": "result-claim-001"`), 1)
	files[fixtureRunFile] = &fstest.MapFile{Data: listed}
	if _, err := loadFixture(files); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("fixture naming a record twice: %v", err)
	}
	files[fixtureRunFile] = &fstest.MapFile{Data: run}
	delete(files, keyFile("sealgate/ledger"))
	if _, err := loadFixture(files); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("fixture without the ledger's key: %v", err)
	}
}

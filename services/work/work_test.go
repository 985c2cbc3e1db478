package work_test

import (
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/scenario"
	"github.com/sealgate/sealgate/services/work"
)

func newRun(t *testing.T) *scenario.Run {
	t.Helper()
	keys, err := keyring.LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run, err := scenario.NewBuilder(keys, nil).NewRun("run-1", 3)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// Each job of a plan is one item; an answered token is left out; an item
// survives its encoding and names its job on the run.
func TestItemsRoundTrip(t *testing.T) {
	run := newRun(t)
	first := run.Plan.Record.GetJobPlanned().GetJobs()[0].GetToken().GetId()
	items := work.Items(run.Plan, map[string]bool{first: true})
	if len(items) != 2 {
		t.Fatalf("%d items, want 2 (one token answered)", len(items))
	}
	for _, it := range items {
		m, err := it.Message()
		if err != nil {
			t.Fatal(err)
		}
		if m.Metadata.Get("run_id") != "" {
			t.Fatal("an item carries the run id as metadata: the jobs of a run would share one partition")
		}
		got, err := work.Parse(m.Payload)
		if err != nil || got != it {
			t.Fatalf("round trip: %+v, %v; want %+v", got, err, it)
		}
		plan, job := work.Find(run.Records(), got)
		if plan != run.Plan || job.GetToken().GetId() != it.Token {
			t.Fatalf("item %+v does not find its job", it)
		}
	}
	if work.Items(run.Trees, nil) != nil {
		t.Fatal("a record that is no plan has items")
	}
}

// Attack: items altered in each field find no job — another token, job,
// plan, planner or run, and a plan that is on the run but named by a
// record of another kind. Honest twin: the unaltered item finds it.
func TestFindRefusesAlteredItems(t *testing.T) {
	run := newRun(t)
	good := work.Items(run.Plan, nil)[1]
	if _, job := work.Find(run.Records(), good); job == nil {
		t.Fatal("the honest item finds no job")
	}
	for name, alter := range map[string]func(*work.Item){
		"token":        func(it *work.Item) { it.Token = "claim-000-patch" },
		"job":          func(it *work.Item) { it.Job = "claim-000-patch" },
		"plan":         func(it *work.Item) { it.Plan = run.Trees.Digest },
		"planner":      func(it *work.Item) { it.Planner = keyring.Mutation },
		"run":          func(it *work.Item) { it.Run = "run-2" },
		"unknown plan": func(it *work.Item) { it.Plan = strings.Repeat("ab", 32) },
	} {
		it := good
		alter(&it)
		if plan, job := work.Find(run.Records(), it); plan != nil || job != nil {
			t.Errorf("%s altered: the item finds a job", name)
		}
	}
	// The plan left out of the run (never admitted): nothing found.
	var without []*record.Decoded
	for _, r := range run.Records() {
		if r != run.Plan {
			without = append(without, r)
		}
	}
	if _, job := work.Find(without, good); job != nil {
		t.Error("an item finds a job of a plan the run does not hold")
	}
}

func TestParseRefuses(t *testing.T) {
	ok := `{"v":1,"run":"r","plan":"` + strings.Repeat("0", 64) + `","token":"t","job":"j","planner":"p"}`
	if _, err := work.Parse([]byte(ok)); err != nil {
		t.Fatalf("a good item: %v", err)
	}
	for name, payload := range map[string]string{
		"empty":         ``,
		"not json":      `\x00`,
		"version":       strings.Replace(ok, `"v":1`, `"v":2`, 1),
		"unknown field": strings.Replace(ok, `{`, `{"extra":1,`, 1),
		"missing token": strings.Replace(ok, `"token":"t",`, ``, 1),
		"short plan":    strings.Replace(ok, strings.Repeat("0", 64), "00", 1),
		"trailing":      ok + `{}`,
		"long run":      strings.Replace(ok, `"run":"r"`, `"run":"`+strings.Repeat("r", 600)+`"`, 1),
	} {
		if _, err := work.Parse([]byte(payload)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"v":1,"run":"r","plan":"` + strings.Repeat("0", 64) + `","token":"t","job":"j","planner":"p"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := work.Parse(b)
		if err != nil {
			return
		}
		m, err := it.Message()
		if err != nil {
			t.Fatalf("a parsed item does not encode: %v", err)
		}
		again, err := work.Parse(m.Payload)
		if err != nil || again != it {
			t.Fatalf("re-encoding changes the item: %+v, %v", again, err)
		}
	})
}

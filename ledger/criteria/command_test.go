package criteria

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestCommandIDStableAndDistinct: a seal check's result is matched back by
// its command's ID, so the ID must not change between calls or builds, and
// no two different (run, junit) pairs may share one.
func TestCommandIDStableAndDistinct(t *testing.T) {
	c := Command{Run: "make lint", JUnit: "out/lint.xml"}
	if first, again := c.ID(), c.ID(); first != again || first != (Command{Run: "make lint", JUnit: "out/lint.xml"}).ID() {
		t.Fatal("the ID of one command changes")
	}
	if len(c.ID()) != 16 || strings.Trim(c.ID(), "0123456789abcdef") != "" {
		t.Fatalf("ID %q is not 16 lowercase hex digits", c.ID())
	}
	// Pinned: seal jobs planned by one build are matched by another.
	if got, want := c.ID(), "a672ec5933a634e5"; got != want {
		t.Fatalf("ID(%+v) = %s, want %s: the encoding changed", c, got, want)
	}
	pairs := []Command{
		{Run: "make lint"},
		{Run: "make lint", JUnit: "lint.xml"},
		{Run: "make lint", JUnit: "out/lint.xml"},
		{Run: "make  lint"},
		{Run: "make lint "},
		{Run: "lint.xml", JUnit: "make lint"},
		{Run: "make", JUnit: "lint"},
		{Run: "makelint"},
		{Run: "a", JUnit: "b"},
		{Run: "ab"},
		{Run: "b", JUnit: "a"},
	}
	seen := map[string]Command{}
	for _, p := range pairs {
		if q, ok := seen[p.ID()]; ok {
			t.Errorf("%+v and %+v share the ID %s", p, q, p.ID())
		}
		seen[p.ID()] = p
	}
}

// TestCommandIDUnambiguous: the run and the JUnit file are encoded so that
// no choice of bytes in either field can make two different pairs one
// string. Criteria refuse a NUL in a command, but job specs on the ledger
// carry the pair without that check and are identified by the same ID.
func TestCommandIDUnambiguous(t *testing.T) {
	for _, p := range [][2]Command{
		{{Run: "a\x00b"}, {Run: "a", JUnit: "b"}},
		{{Run: "a\x00"}, {Run: "a", JUnit: "\x00"}},
		{{Run: "a", JUnit: "\x00b"}, {Run: "a\x00", JUnit: "b"}},
		{{Run: "1:a"}, {Run: "", JUnit: "a"}},
		{{Run: "a1:b"}, {Run: "a", JUnit: "b"}},
	} {
		if p[0].ID() == p[1].ID() {
			t.Errorf("%q and %q share the ID %s", fmt.Sprint(p[0]), fmt.Sprint(p[1]), p[0].ID())
		}
	}
}

// full is valid() with every field the declared commands added.
func full() *Criteria {
	c := valid()
	c.Claims = append(c.Claims, "cmd:unit", "pytest:tests/test_calc.py::test_add[1-2]")
	c.SealPlan = []Command{{Run: "make lint"}, {Run: "./check.sh", JUnit: "out/check.xml"}, {Run: "make lint", JUnit: "out/lint.xml"}}
	c.Commands = map[string]Command{"unit": {Run: "npm test", JUnit: "reports/junit.xml"}, "e2e": {Run: "make e2e"}}
	c.Suite = &Command{Run: "npm test -- --all", JUnit: "reports/all.xml"}
	c.Python = "/usr/bin/python3"
	return c
}

func TestValidateCommands(t *testing.T) {
	if err := full().Validate(); err != nil {
		t.Fatalf("criteria with every new field refused: %v", err)
	}
	plan := func(n int) []Command {
		out := make([]Command, n)
		for i := range out {
			out[i] = Command{Run: fmt.Sprintf("./check.sh %d", i)}
		}
		return out
	}
	cases := []struct {
		name string
		edit func(*Criteria)
		want string // "" means accepted
	}{
		{"empty seal command", func(c *Criteria) { c.SealPlan[0].Run = " \t" }, "seal_plan has an empty command"},
		{"multi-line seal command", func(c *Criteria) { c.SealPlan[0].Run = "make lint\nrm -rf /" }, "is not one line of text"},
		{"carriage return", func(c *Criteria) { c.SealPlan[0].Run = "make lint\r" }, "is not one line of text"},
		{"NUL in a command", func(c *Criteria) { c.SealPlan[0].Run = "make\x00lint" }, "is not one line of text"},
		{"invalid UTF-8", func(c *Criteria) { c.SealPlan[0].Run = "make \xff" }, "is not one line of text"},
		{"absolute junit", func(c *Criteria) { c.SealPlan[1].JUnit = "/tmp/check.xml" }, "must be a clean relative path"},
		{"unclean junit", func(c *Criteria) { c.SealPlan[1].JUnit = "out//check.xml" }, "must be a clean relative path"},
		{"dot junit", func(c *Criteria) { c.SealPlan[1].JUnit = "./check.xml" }, "must be a clean relative path"},
		{"junit through ..", func(c *Criteria) { c.SealPlan[1].JUnit = "out/../check.xml" }, "must be a clean relative path"},
		{"junit outside the tree", func(c *Criteria) { c.SealPlan[1].JUnit = "../check.xml" }, "must be a clean relative path"},
		{"duplicate seal check", func(c *Criteria) { c.SealPlan = append(c.SealPlan, Command{Run: "./check.sh", JUnit: "out/check.xml"}) }, `lists "./check.sh" twice`},
		{"same command, another junit, is another check", func(c *Criteria) { c.SealPlan = append(c.SealPlan, Command{Run: "./check.sh"}) }, ""},
		{"cmd claim without its command", func(c *Criteria) { delete(c.Commands, "unit") }, `claim "cmd:unit" has no declared command`},
		{"commands label with surrounding space", func(c *Criteria) { c.Commands[" e2e"] = Command{Run: "make e2e"} }, "commands: claim"},
		{"commands label with a tab", func(c *Criteria) { c.Commands["e\t2e"] = Command{Run: "make e2e"} }, "commands: claim"},
		{"empty commands label", func(c *Criteria) { c.Commands[""] = Command{Run: "make e2e"} }, "commands: claim"},
		{"declared command invalid", func(c *Criteria) { c.Commands["e2e"] = Command{Run: "make e2e", JUnit: "/abs.xml"} }, "commands[e2e] junit"},
		{"suite command invalid", func(c *Criteria) { c.Suite = &Command{Run: ""} }, "suite has an empty command"},
		{"relative python", func(c *Criteria) { c.Python = "python3" }, `python "python3" is not an absolute path`},
		{"plan at the fan-out limit", func(c *Criteria) { c.SealPlan = plan(DefaultMaxFanout) }, ""},
		{"plan over the fan-out limit", func(c *Criteria) { c.SealPlan = plan(DefaultMaxFanout + 1) }, "seal_plan has 257 checks"},
		{"plan at the test_runs budget", func(c *Criteria) { c.Budget[BudgetTestRuns] = 3; c.SealPlan = plan(3) }, ""},
		{"plan over the test_runs budget", func(c *Criteria) { c.Budget[BudgetTestRuns] = 3; c.SealPlan = plan(4) }, "seal_plan has 4 checks: over the test_runs budget (3)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := full()
			tc.edit(c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "":
				if _, err := Seal(c); err != nil {
					t.Fatalf("validates but does not seal: %v", err)
				}
			case err == nil:
				t.Fatal("accepted")
			case !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q lacks %q", err, tc.want)
			default:
				if _, err := Seal(c); err == nil {
					t.Fatal("refused by Validate but sealed")
				}
			}
		})
	}
}

// TestSealParseRoundTripCommands: every new field survives Seal → Parse,
// the seal plan keeps the order it was asked in, and that order is part of
// the digest.
func TestSealParseRoundTripCommands(t *testing.T) {
	s, err := Seal(full())
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(s.Canonical)
	if err != nil {
		t.Fatal(err)
	}
	if p.Digest != s.Digest || string(p.Canonical) != string(s.Canonical) {
		t.Fatal("canonical form changed through parse")
	}
	if !reflect.DeepEqual(p.Criteria, s.Criteria) {
		t.Fatalf("criteria changed through parse:\n%+v\n%+v", p.Criteria, s.Criteria)
	}
	canon := string(s.Canonical)
	for _, want := range []string{
		`"seal_plan":[{"run":"make lint"},{"junit":"out/check.xml","run":"./check.sh"},{"junit":"out/lint.xml","run":"make lint"}]`,
		`"commands":{"e2e":{"run":"make e2e"},"unit":{"junit":"reports/junit.xml","run":"npm test"}}`,
		`"suite":{"junit":"reports/all.xml","run":"npm test -- --all"}`,
		`"python":"/usr/bin/python3"`,
	} {
		if !strings.Contains(canon, want) {
			t.Errorf("canonical form lacks %s:\n%s", want, canon)
		}
	}
	c := full()
	c.SealPlan[0], c.SealPlan[2] = c.SealPlan[2], c.SealPlan[0]
	s2, err := Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Digest == s.Digest {
		t.Fatal("the seal plan's order is not sealed")
	}
	if p2, err := Parse(s2.Canonical); err != nil || p2.Criteria.SealPlan[0] != (Command{Run: "make lint", JUnit: "out/lint.xml"}) {
		t.Fatalf("reordered plan did not round trip in order: %v", err)
	}
}

// doctorCriteria are the criteria of ledger/doctor's recorded run, sealed
// before declared commands existed: no commands, suite or python, and a
// null seal plan.
const doctorCriteria = `{"baseline_commit":"1c789a430e0c78e4d31185076507aeaa28331ae3","budget":{"cpu_seconds":120,"mutants":2,"test_runs":2},"claims":["go:./calc:TestAdd","go:./calc:TestSub"],"coverage_floor":1,"deadline_unix_ms":1767261600000,"discover_claims":false,"limits":{"claim_timeout_s":300,"cpu_seconds":1800,"max_open_files":4096,"max_processes":4096,"memory_bytes":4294967296,"stability_reruns":0,"suite_timeout_s":1200},"mutation_max":2,"patch_digest":"763984035f2e04bc22fbd911d177b7145dbb40a21116201d019d4dce1d5ea2cf","repository":"demo/calc","require_sandbox":false,"run_id":"doctor-fixture","schema":"sealgate.criteria.v1","seal_plan":null,"strength_confidence":0.8,"strength_floor":0.75,"task_graph":{"max_depth":2,"max_fanout":3},"test_support":[]}`

func TestParseOlderCriteria(t *testing.T) {
	for name, in := range map[string]string{
		"doctor fixture":   doctorCriteria,
		"empty seal plan":  strings.Replace(doctorCriteria, `"seal_plan":null`, `"seal_plan":[]`, 1),
		"older seal check": strings.Replace(doctorCriteria, `"seal_plan":null`, `"seal_plan":[{"run":"make lint"}]`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			if name != "doctor fixture" && in == doctorCriteria {
				t.Fatal("replacement did not apply")
			}
			p, err := Parse([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if string(p.Canonical) != in {
				t.Fatalf("canonical bytes changed:\n%s\n%s", p.Canonical, in)
			}
			c := p.Criteria
			if c.Commands != nil || c.Suite != nil || c.Python != "" {
				t.Fatalf("new fields appeared: %+v %+v %q", c.Commands, c.Suite, c.Python)
			}
			again, err := Seal(c)
			if err != nil || again.Digest != p.Digest {
				t.Fatalf("resealing changed the digest: %v", err)
			}
		})
	}
}

package checkout

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// graded is a repository as a grader sees it: a baseline with a bug, the
// reference fix with its tests (commit fix), and the fix's test diff on
// its own.
type graded struct {
	r                   *testRepo
	base, fix, testOnly string
	testPatch           []byte
}

const (
	gradedCode = "package m\n\nfunc Abs(x int) int {\n\treturn x\n}\n\nfunc Sign(x int) int {\n\tif x < 0 {\n\t\treturn -1\n\t}\n\treturn 1\n}\n"
	gradedFix  = "package m\n\nfunc Abs(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}\n\nfunc Sign(x int) int {\n\tif x < 0 {\n\t\treturn -1\n\t}\n\tif x == 0 {\n\t\treturn 0\n\t}\n\treturn 1\n}\n"
	// The baseline pins Sign(0) == 1; the fix changes that behaviour, and
	// its tests pin the new one.
	gradedTests      = "package m\n\nimport \"testing\"\n\nfunc TestAbs(t *testing.T) {\n\tif Abs(2) != 2 {\n\t\tt.Fatal(Abs(2))\n\t}\n}\n\nfunc TestSign(t *testing.T) {\n\tif Sign(0) != 1 {\n\t\tt.Fatal(Sign(0))\n\t}\n}\n"
	gradedFixTests   = "package m\n\nimport \"testing\"\n\nfunc TestAbs(t *testing.T) {\n\tif Abs(2) != 2 {\n\t\tt.Fatal(Abs(2))\n\t}\n}\n\nfunc TestAbsNegative(t *testing.T) {\n\tif Abs(-2) != 2 {\n\t\tt.Fatal(Abs(-2))\n\t}\n}\n\nfunc TestSign(t *testing.T) {\n\tif Sign(0) != 0 {\n\t\tt.Fatal(Sign(0))\n\t}\n}\n"
	gradedAgentTests = "package m\n\nimport \"testing\"\n\nfunc TestAbs(t *testing.T) {}\n\nfunc TestSign(t *testing.T) {}\n"
)

func newGraded(t *testing.T) *graded {
	t.Helper()
	r := newTestRepo(t)
	r.write("go.mod", "module example.com/m\n\ngo 1.21\n")
	r.write("m.go", gradedCode)
	r.write("m_test.go", gradedTests)
	r.write("testdata/golden.txt", "old\n")
	base := r.commit("base")
	r.write("m.go", gradedFix)
	r.write("m_test.go", gradedFixTests)
	r.write("testdata/golden.txt", "new\n")
	fix := r.commit("fix")
	r.git("tag", "fix")
	r.git("checkout", "-q", base)
	r.write("m_test.go", gradedFixTests)
	r.write("testdata/golden.txt", "new\n")
	testOnly := r.commit("tests only")
	r.git("checkout", "-q", "--detach", base)
	return &graded{r: r, base: base, fix: fix, testOnly: testOnly, testPatch: r.diff(base, testOnly)}
}

// file reads one file of a tree of c.
func file(t *testing.T, c *Checkout, which, p string) string {
	t.Helper()
	var src map[string][]byte
	var err error
	switch which {
	case "baseline":
		src, err = c.Baseline.ReadFiles(context.Background(), []string{p})
	case "patch":
		src, err = c.Patch.ReadFiles(context.Background(), []string{p})
	case "oracle":
		src, err = c.Oracle.ReadFiles(context.Background(), []string{p})
	}
	if err != nil {
		t.Fatalf("read %s of the %s tree: %v", p, which, err)
	}
	return string(src[p])
}

func TestTrustedTestsJudgeBothSides(t *testing.T) {
	g := newGraded(t)
	r := g.r
	// The agent fixes the code and also rewrites the test file so that
	// it cannot fail: the grader's version wins on both sides.
	r.write("m.go", gradedFix)
	r.write("m_test.go", gradedAgentTests)
	r.write("extra_test.go", "package m\n\nimport \"testing\"\n\nfunc TestMine(t *testing.T) {}\n")
	agent := r.diff(g.base, r.commit("agent"))

	for name, in := range map[string]Input{
		"test patch":   {Repo: r.dir, Baseline: g.base, PatchDiff: agent, TestPatch: g.testPatch},
		"tests commit": {Repo: r.dir, Baseline: g.base, PatchDiff: agent, TestsCommit: "fix"},
	} {
		t.Run(name, func(t *testing.T) {
			c := mustPrepare(t, in)
			if c.BaselineCommit != g.base || c.Baseline.Commit() != "" {
				t.Fatalf("baseline commit %q (tree commit %q), want %s and none", c.BaselineCommit, c.Baseline.Commit(), g.base)
			}
			if want := []string{"m_test.go", "testdata/golden.txt"}; !reflect.DeepEqual(c.Trusted, want) {
				t.Fatalf("Trusted = %q, want %q", c.Trusted, want)
			}
			for _, side := range []string{"baseline", "patch", "oracle"} {
				if got := file(t, c, side, "m_test.go"); got != gradedFixTests {
					t.Errorf("%s m_test.go is not the trusted version:\n%s", side, got)
				}
				if got := file(t, c, side, "testdata/golden.txt"); got != "new\n" {
					t.Errorf("%s golden file %q, want the trusted one", side, got)
				}
			}
			// The baseline's code stays the baseline's: only tests are
			// taken from the fix commit.
			if got := file(t, c, "baseline", "m.go"); got != gradedCode {
				t.Errorf("baseline m.go changed:\n%s", got)
			}
			if got := file(t, c, "patch", "m.go"); got != gradedFix {
				t.Errorf("patch m.go is not the agent's:\n%s", got)
			}
			if want := []string{"m_test.go"}; !reflect.DeepEqual(c.TrustedOverridden, want) {
				t.Errorf("TrustedOverridden = %q, want %q", c.TrustedOverridden, want)
			}
			var changed []string
			for _, ch := range c.Changes {
				changed = append(changed, ch.Path)
			}
			// The agent's own new test file stays, untrusted.
			if want := []string{"extra_test.go", "m.go"}; !reflect.DeepEqual(changed, want) {
				t.Errorf("Changes = %q, want %q", changed, want)
			}
			if got := file(t, c, "oracle", "extra_test.go"); !strings.Contains(got, "TestMine") {
				t.Errorf("the agent's new test file is not in the oracle: %q", got)
			}
			// A baseline test the grader updates (TestSign) is the
			// baseline's test now: nothing is restored, nothing edited.
			if len(c.OracleRestored) != 0 || len(c.EditedTests) != 0 || len(c.Deferred) != 0 {
				t.Errorf("restored %q, edited %q, deferred %v: want none", c.OracleRestored, c.EditedTests, c.Deferred)
			}
			if len(c.HarnessDrift) != 0 || len(c.Unjudgeable) != 0 {
				t.Errorf("drift %q, unjudgeable %v", c.HarnessDrift, c.Unjudgeable)
			}
		})
	}
}

// The honest twin: without trusted tests, the agent's edit of the test
// file is restored by the oracle and TestSign is an edited test.
func TestWithoutTrustedTestsTheAgentEditIsRestored(t *testing.T) {
	g := newGraded(t)
	c := mustPrepare(t, Input{Repo: g.r.dir, Baseline: g.base, PatchCommit: g.fix})
	if want := []string{"m_test.go", "testdata/golden.txt"}; !reflect.DeepEqual(c.OracleRestored, want) {
		t.Fatalf("OracleRestored = %q, want %q", c.OracleRestored, want)
	}
	if want := []string{"example.com/m.TestSign"}; !reflect.DeepEqual(c.EditedTests, want) {
		t.Fatalf("EditedTests = %q, want %q", c.EditedTests, want)
	}
	if c.BaselineCommit != g.base || c.Baseline.Commit() != g.base || len(c.Trusted) != 0 {
		t.Fatalf("baseline %q/%q, trusted %q", c.BaselineCommit, c.Baseline.Commit(), c.Trusted)
	}
}

func TestTrustedTestsEmptyPatch(t *testing.T) {
	g := newGraded(t)
	c := mustPrepare(t, Input{Repo: g.r.dir, Baseline: g.base, PatchDiff: []byte{}, TestPatch: g.testPatch})
	if len(c.Changes) != 0 || c.Patch.Digest() != c.Baseline.Digest() || c.Oracle.Digest() != c.Baseline.Digest() {
		t.Fatalf("an empty patch changed something: %v", c.Changes)
	}
	if c.DiffSHA256 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" || c.Diff == nil {
		t.Fatalf("diff digest %s (diff nil: %v)", c.DiffSHA256, c.Diff == nil)
	}
	// The patch commit that is the baseline is an empty patch too.
	c = mustPrepare(t, Input{Repo: g.r.dir, Baseline: g.base, PatchCommit: g.base, TestsCommit: g.fix})
	if len(c.Changes) != 0 || c.Patch.Digest() != c.Baseline.Digest() || c.PatchCommit != g.base {
		t.Fatalf("empty commit: changes %v, patch commit %s", c.Changes, c.PatchCommit)
	}
	// Without trusted tests an empty patch is still refused.
	_, err := prepare(t, Input{Repo: g.r.dir, Baseline: g.base, PatchDiff: []byte{}})
	wantUsage(t, err, ReasonDiff)
	_, err = prepare(t, Input{Repo: g.r.dir, Baseline: g.base, PatchCommit: g.base})
	wantUsage(t, err, ReasonDiff)
}

func TestTrustedTestPatchRefusals(t *testing.T) {
	g := newGraded(t)
	r := g.r
	fixDiff := r.diff(g.base, g.fix) // code and tests
	r.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("m_test.go", gradedFixTests)
	harness := r.diff(g.base, r.commit("go.mod"))
	r.git("checkout", "-q", "--detach", g.base)
	r.write("tools.sh", "#!/bin/sh\n")
	foreign := r.diff(g.base, r.commit("script"))
	r.git("checkout", "-q", "--detach", g.base)
	r.write("testdata/golden.txt", "zzz\n")
	other := r.commit("other baseline")
	r.write("testdata/golden.txt", "yyy\n")
	doesNotApply := r.diff(other, r.commit("elsewhere"))

	for _, tc := range []struct {
		name   string
		in     Input
		reason Reason
	}{
		{"source", Input{TestPatch: fixDiff}, ReasonTrustedTests},
		{"harness", Input{TestPatch: harness}, ReasonTrustedTests},
		{"foreign", Input{TestPatch: foreign}, ReasonTrustedTests},
		{"malformed", Input{TestPatch: []byte("@@ -1 +1 @@\n-a\n+b\n")}, ReasonTrustedTests},
		{"empty", Input{TestPatch: []byte{}}, ReasonTrustedTests},
		{"both", Input{TestPatch: g.testPatch, TestsCommit: g.fix}, ReasonInput},
		{"no test change", Input{TestsCommit: g.base}, ReasonTrustedTests},
		{"bad revision", Input{TestsCommit: "no-such-rev"}, ReasonRevision},
		{"does not apply", Input{TestPatch: doesNotApply}, ReasonDoesNotApply},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.Repo, in.Baseline, in.PatchCommit = r.dir, g.base, g.fix
			_, err := prepare(t, in)
			wantUsage(t, err, tc.reason)
		})
	}
}

// A file that is no test by its name is trusted once the grader declares
// it test support; data files are test data without it.
func TestTrustedTestPatchSupportAndData(t *testing.T) {
	g := newGraded(t)
	r := g.r
	r.write("internal/testutil/util.go", "package testutil\n\nconst Want = 2\n")
	r.write("fixtures/case.json", "{\"want\": 2}\n")
	r.write("m_test.go", gradedFixTests)
	tp := r.diff(g.base, r.commit("tests with support"))
	in := Input{Repo: r.dir, Baseline: g.base, PatchCommit: g.fix, TestPatch: tp}
	_, err := prepare(t, in)
	wantUsage(t, err, ReasonTrustedTests)
	in.TestSupport = []string{"internal/testutil/*"}
	c := mustPrepare(t, in)
	if want := []string{"fixtures/case.json", "internal/testutil/util.go", "m_test.go"}; !reflect.DeepEqual(c.Trusted, want) {
		t.Fatalf("Trusted = %q, want %q", c.Trusted, want)
	}
	if c.TrustedPatchSHA256 == "" || c.TrustedCommit != "" {
		t.Fatalf("trusted patch digest %q, commit %q", c.TrustedPatchSHA256, c.TrustedCommit)
	}
}

// An agent that renames its own file onto a trusted path loses the
// rename's target to the grader; the source is still gone.
func TestTrustedTestsRenameOntoTrustedPath(t *testing.T) {
	g := newGraded(t)
	r := g.r
	r.write("helper_test.go", "package m\n")
	base := r.commit("helper")
	r.git("mv", "helper_test.go", "new_test.go")
	onto := r.commit("onto")
	r.git("checkout", "-q", "--detach", base)
	r.write("new_test.go", "package m\n\nimport \"testing\"\n\nfunc TestGrader(t *testing.T) {}\n")
	grader := r.diff(base, r.commit("grader"))

	c := mustPrepare(t, Input{Repo: r.dir, Baseline: base, PatchCommit: onto, TestPatch: grader})
	if want := []string{"new_test.go"}; !reflect.DeepEqual(c.TrustedOverridden, want) {
		t.Fatalf("TrustedOverridden = %q, want %q", c.TrustedOverridden, want)
	}
	if len(c.Changes) != 1 || c.Changes[0].Path != "helper_test.go" || c.Changes[0].Kind != Deleted {
		t.Fatalf("Changes = %+v, want helper_test.go deleted", c.Changes)
	}
	if !reflect.DeepEqual(c.OracleRestored, []string{"helper_test.go"}) {
		t.Fatalf("OracleRestored = %q", c.OracleRestored)
	}
}

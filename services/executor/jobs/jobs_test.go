package jobs

import (
	"slices"
	"testing"
)

func done(s *Spec, outcome string, cases ...Case) *Done {
	return &Done{Spec: s, Detail: &Detail{Outcome: outcome}, Cases: cases}
}

func TestSpecRoundTripAndID(t *testing.T) {
	s := &Spec{Purpose: Claim, Side: Patch, Claim: "go:./calc:TestMedian", Tree: TreeOracle, Module: ".", Package: "./calc",
		ImportPath: "example.com/calc/calc", Tests: []string{"TestMedian"}, Reruns: 2, TimeoutSec: 300}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseSpec(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != "claim/patch/go:./calc:TestMedian" || got.ID() != s.ID() {
		t.Fatalf("ID %q", got.ID())
	}
	if got.Units() != 3 {
		t.Fatalf("Units %d, want 3 (one run and two reruns)", got.Units())
	}
	want := []string{"go", "test", "-json", "-count=1", "-run", "^TestMedian$", "./calc"}
	if !slices.Equal(got.Argv(), want) {
		t.Fatalf("Argv %q, want %q", got.Argv(), want)
	}
	s.Tests = []string{"TestA", "TestB"}
	if p := s.RunPattern(); p != "^(TestA|TestB)$" {
		t.Fatalf("RunPattern %q", p)
	}
}

func TestParseSpecRefuses(t *testing.T) {
	for _, bad := range []string{
		`{"purpose":"claim","side":"patch","tree":"oracle","module":".","package":"./x","reruns":0,"timeout_s":1,"extra":1}`,
		`{"purpose":"mystery","side":"patch","tree":"oracle"}`,
		`{"purpose":"claim","side":"left","tree":"oracle"}`,
		`{"purpose":"claim","side":"patch","tree":"elsewhere"}`,
		// Only a written job runs in the patch's own tree, and only there,
		// on the patch side, with nothing laid over it.
		`{"purpose":"claim","side":"patch","tree":"patch","module":".","package":"./x"}`,
		`{"purpose":"collateral","side":"patch","tree":"patch","module":".","package":"./..."}`,
		`{"purpose":"written","side":"patch","tree":"oracle","module":".","package":"./x"}`,
		`{"purpose":"written","side":"baseline","tree":"patch","module":".","package":"./x"}`,
		`{"purpose":"written","side":"patch","tree":"patch","module":".","package":"./x","splice":["x/a_test.go"]}`,
		`{"purpose":"written","side":"patch","tree":"patch","runner":"command","run":"true","module":"."}`,
		`{"purpose":"written","side":"patch","tree":"patch","module":".","package":"./...","vet_only":true}`,
		`{"purpose":"collateral","side":"patch","tree":"oracle","module":".","package":"./...","vet":["./x"]}`,
		`not json`,
	} {
		if _, err := ParseSpec([]byte(bad)); err == nil {
			t.Errorf("ParseSpec(%s) accepted", bad)
		}
	}
	if _, err := ParseSpec([]byte(`{"purpose":"written","side":"patch","tree":"patch","module":".","package":"./x"}`)); err != nil {
		t.Errorf("a written job refused: %v", err)
	}
	if _, err := ParseDetail([]byte(`{"outcome":"GREAT","reason":"","runs":[]}`)); err == nil {
		t.Error("ParseDetail accepted an unknown outcome")
	}
}

func TestDueCollateralBaselineAlways(t *testing.T) {
	coll := &Spec{Purpose: Collateral, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./..."}
	planned := map[string]*Spec{coll.ID(): coll}
	for _, outcome := range []string{OutcomePass, OutcomeFail} {
		due := Due(planned, map[string]*Done{coll.ID(): done(coll, outcome)}, nil)
		if !slices.Equal(due, []string{"collateral/baseline/.:./..."}) {
			t.Fatalf("%s suite: due %v", outcome, due)
		}
	}
	base := *coll
	base.Side, base.Tree = Baseline, TreeBaseline
	planned[base.ID()] = &base
	if due := Due(planned, map[string]*Done{coll.ID(): done(coll, OutcomeFail)}, nil); len(due) != 0 {
		t.Fatalf("already planned, still due: %v", due)
	}
}

func TestDuePrereqUnlocksOnlyOnPass(t *testing.T) {
	then := &Spec{Purpose: Claim, Side: Patch, Claim: "go:./c:TestNew", Tree: TreeOracle}
	pre := &Spec{Purpose: Prereq, Side: Patch, Claim: "go:./c:TestNew", Tree: TreeOracle, Then: then}
	planned := map[string]*Spec{pre.ID(): pre}
	for outcome, want := range map[string]int{OutcomePass: 1, OutcomeFail: 0, OutcomeFlaky: 0, OutcomeUnrunnable: 0} {
		if got := Due(planned, map[string]*Done{pre.ID(): done(pre, outcome)}, nil); len(got) != want {
			t.Errorf("prereq %s: due %v", outcome, got)
		}
	}
}

func TestDiscovered(t *testing.T) {
	b := &Spec{Purpose: Discovery, Side: Baseline, Tree: TreeBaseline, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	p := &Spec{Purpose: Discovery, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	planned := map[string]*Spec{b.ID(): b, p.ID(): p}
	// Nothing before both sides answered.
	if got := Discovered(planned, map[string]*Done{p.ID(): done(p, OutcomePass)}, nil); got != nil {
		t.Fatalf("half answered: %v", got)
	}
	ds := map[string]*Done{
		b.ID(): done(b, OutcomeFail, Case{"m/calc.TestFixed", "fail"}, Case{"m/calc.TestSame", "pass"}, Case{"m/calc.TestBroken", "pass"}),
		p.ID(): done(p, OutcomeFail, Case{"m/calc.TestFixed", "pass"}, Case{"m/calc.TestSame", "pass"}, Case{"m/calc.TestBroken", "fail"},
			Case{"m/calc.TestNew", "pass"}, Case{"m/calc.TestNew/sub", "pass"}, Case{"m/other.TestElse", "pass"}),
	}
	got := Discovered(planned, ds, nil)
	want := []string{"go:./calc:TestFixed", "go:./calc:TestNew"}
	if !slices.Equal(got, want) {
		t.Fatalf("Discovered = %v, want %v", got, want)
	}
	due := Due(planned, ds, nil)
	if len(due) != 4 {
		t.Fatalf("due %v, want both sides of both claims", due)
	}
}

func TestParseClaim(t *testing.T) {
	pkg, test, err := ParseClaim("go:./a/b:TestX")
	if err != nil || pkg != "./a/b" || test != "TestX" {
		t.Fatalf("%q %q %v", pkg, test, err)
	}
	for _, bad := range []string{"pytest:x.py::t", "go:./a", "go::TestX"} {
		if _, _, err := ParseClaim(bad); err == nil {
			t.Errorf("ParseClaim(%q) accepted", bad)
		}
	}
}

// FuzzParseSpec: job specs travel in ledger records; whatever the bytes,
// parsing never panics, and a spec it accepts re-encodes to one it accepts
// with the same id.
func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(`{"purpose":"claim","side":"patch","claim":"go:./c:TestX","tree":"oracle","module":".","package":"./c","tests":["TestX"],"reruns":2,"timeout_s":300}`))
	f.Add([]byte(`{"purpose":"prereq","side":"patch","tree":"oracle","module":".","package":"./c","reruns":0,"timeout_s":1,"then":{"purpose":"claim","side":"patch","tree":"oracle","module":".","package":"./c","reruns":0,"timeout_s":1}}`))
	f.Add([]byte(`{"outcome":"PASS","reason":"","runs":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := ParseSpec(b); err == nil {
			raw, err := s.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			again, err := ParseSpec(raw)
			if err != nil || again.ID() != s.ID() || again.RunPattern() != s.RunPattern() {
				t.Fatalf("re-encoded spec: %v, id %q vs %q", err, again.ID(), s.ID())
			}
			_ = s.Argv()
			_ = s.Units()
		}
		if d, err := ParseDetail(b); err == nil {
			raw, err := d.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ParseDetail(raw); err != nil {
				t.Fatalf("re-encoded detail refused: %v", err)
			}
		}
	})
}

func TestDiscoveredAddsReachedTests(t *testing.T) {
	b := &Spec{Purpose: Discovery, Side: Baseline, Tree: TreeBaseline, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	p := &Spec{Purpose: Discovery, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	cov := &Spec{Purpose: Coverage, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	planned := map[string]*Spec{b.ID(): b, p.ID(): p, cov.ID(): cov}
	ds := map[string]*Done{
		b.ID(): done(b, OutcomePass, Case{"m/calc.TestA", "pass"}),
		p.ID(): done(p, OutcomePass, Case{"m/calc.TestA", "pass"}),
	}
	// A refactor: nothing changes outcome, so only reach finds claims.
	if got := Discovered(planned, ds, nil); got == nil || len(got) != 0 {
		t.Fatalf("before reach: %v, want an empty, non-nil list", got)
	}
	got := Discovered(planned, ds, []string{"m/calc.TestA", "m/other.TestB", "m/calc.helper"})
	if !slices.Equal(got, []string{"go:./calc:TestA"}) {
		t.Fatalf("with reach: %v", got)
	}
	if due := Due(planned, ds, []string{"m/calc.TestA"}); len(due) != 2 {
		t.Fatalf("due %v, want both sides of the reached claim", due)
	}
	// Claims given: no discovery job, nothing discovered.
	if got := Discovered(map[string]*Spec{cov.ID(): cov}, nil, []string{"m/calc.TestA"}); got != nil {
		t.Fatalf("claims given, still discovered %v", got)
	}
}

func TestDiscoveredProposesAddedTestsFirst(t *testing.T) {
	// Discovery on a patch that adds TestNew to an existing file: the
	// outcome diff cannot see it (the baseline file is put back on the
	// patch side), so the discovery job names it.
	base := &Spec{Purpose: Discovery, Side: Baseline, Tree: TreeBaseline, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	patch := &Spec{Purpose: Discovery, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./calc", ImportPath: "m/calc", Added: []string{"TestNew"}}
	planned := map[string]*Spec{base.ID(): base, patch.ID(): patch}
	done := map[string]*Done{
		base.ID():  {Spec: base, Detail: &Detail{Outcome: OutcomePass}, Cases: []Case{{Name: "m/calc.TestOld", Outcome: "pass"}}},
		patch.ID(): {Spec: patch, Detail: &Detail{Outcome: OutcomePass}, Cases: []Case{{Name: "m/calc.TestOld", Outcome: "pass"}}},
	}
	if got := Discovered(planned, done, nil); !slices.Equal(got, []string{"go:./calc:TestNew"}) {
		t.Fatalf("discovered %v", got)
	}
	// Before the discovery jobs are answered nothing is discovered.
	if got := Discovered(planned, map[string]*Done{}, nil); got != nil {
		t.Fatalf("before answers: %v", got)
	}
}

// TestDueDiscoveredClaimBehindAPrerequisite: a discovered test the patch
// added to a baseline test file runs on the patch only once its
// prerequisite passed: with the prerequisite planned, its patch-side claim
// job is not owed (the prerequisite rule owes it once it passes), so a run
// whose prerequisite fails is not left waiting for it.
func TestDueDiscoveredClaimBehindAPrerequisite(t *testing.T) {
	base := &Spec{Purpose: Discovery, Side: Baseline, Tree: TreeBaseline, Module: ".", Package: "./calc", ImportPath: "m/calc"}
	patch := &Spec{Purpose: Discovery, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./calc", ImportPath: "m/calc", Added: []string{"TestNew"}}
	planned := map[string]*Spec{base.ID(): base, patch.ID(): patch}
	ds := map[string]*Done{base.ID(): done(base, OutcomePass), patch.ID(): done(patch, OutcomePass)}
	const claim = "go:./calc:TestNew"
	cb := &Spec{Purpose: Claim, Side: Baseline, Claim: claim, Tree: TreeBaseline, Module: ".", Package: "./calc"}
	cp := &Spec{Purpose: Claim, Side: Patch, Claim: claim, Tree: TreeOracle, Module: ".", Package: "./calc"}
	if got := Due(planned, ds, nil); !slices.Equal(got, []string{cb.ID(), cp.ID()}) {
		t.Fatalf("due %v", got)
	}
	pre := &Spec{Purpose: Prereq, Side: Patch, Claim: claim, Tree: TreeOracle, Module: ".", Package: "./calc", Then: cp}
	planned[cb.ID()], planned[pre.ID()] = cb, pre
	ds[pre.ID()] = done(pre, OutcomeFail)
	if got := Due(planned, ds, nil); len(got) != 0 {
		t.Fatalf("due %v after a failed prerequisite", got)
	}
	ds[pre.ID()] = done(pre, OutcomePass)
	if got := Due(planned, ds, nil); !slices.Equal(got, []string{cp.ID()}) {
		t.Fatalf("due %v after a passed prerequisite", got)
	}
}

// TestDiscoveredFromTheSuite: a test the Go suite shows fixed outside the
// touched packages (its package's tests import a helper the patch
// changed) is discovered as the touched packages' tests are, once both
// suites are answered; one that passes on both sides, or fails on the
// patch, is not.
func TestDiscoveredFromTheSuite(t *testing.T) {
	db := &Spec{Purpose: Discovery, Side: Baseline, Tree: TreeBaseline, Module: ".", Package: "./internal/check", ImportPath: "m/internal/check"}
	dp := &Spec{Purpose: Discovery, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./internal/check", ImportPath: "m/internal/check", Added: []string{"TestNear"}}
	sp := &Spec{Purpose: Collateral, Side: Patch, Tree: TreeOracle, Module: ".", Package: "./...", ModulePath: "m"}
	sb := &Spec{Purpose: Collateral, Side: Baseline, Tree: TreeBaseline, Module: ".", Package: "./...", ModulePath: "m"}
	planned := map[string]*Spec{db.ID(): db, dp.ID(): dp, sp.ID(): sp, sb.ID(): sb}
	ds := map[string]*Done{db.ID(): done(db, OutcomePass), dp.ID(): done(dp, OutcomePass)}
	if got := Discovered(planned, ds, nil); !slices.Equal(got, []string{"go:./internal/check:TestNear"}) {
		t.Fatalf("before the suites: %v", got)
	}
	ds[sp.ID()] = done(sp, OutcomePass, Case{"m/calc.TestMedian", "pass"}, Case{"m/calc.TestSum", "pass"}, Case{"m.TestRoot", "pass"}, Case{"m/calc.TestBroken", "fail"}, Case{"other/x.TestY", "pass"})
	ds[sb.ID()] = done(sb, OutcomeFail, Case{"m/calc.TestMedian", "fail"}, Case{"m/calc.TestSum", "pass"}, Case{"m/calc.TestBroken", "pass"})
	want := []string{"go:./calc:TestMedian", "go:./internal/check:TestNear", "go:.:TestRoot"}
	if got := Discovered(planned, ds, nil); !slices.Equal(got, want) {
		t.Fatalf("discovered %v, want %v", got, want)
	}
	// With claims sealed there is no discovery: the suite proposes nothing.
	if got := Discovered(map[string]*Spec{sp.ID(): sp, sb.ID(): sb}, ds, nil); got != nil {
		t.Fatalf("with claims: %v", got)
	}
}

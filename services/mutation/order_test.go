package mutation

import (
	"slices"
	"testing"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// plannedRun is a run whose one record plans the given jobs.
func plannedRun(t *testing.T, specs ...*jobs.Spec) []*record.Decoded {
	t.Helper()
	var planned []*pb.Job
	for i, s := range specs {
		b, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		planned = append(planned, &pb.Job{JobId: string(rune('a' + i)), JobKind: s.Purpose, Spec: b})
	}
	return []*record.Decoded{{Record: &pb.Record{Body: &pb.Record_JobPlanned{JobPlanned: &pb.JobPlanned{Jobs: planned}}}}}
}

// claimJob is a patch-side job of a claim on one Go test.
func claimJob(purpose, claim, pkg, test string) *jobs.Spec {
	s := &jobs.Spec{Purpose: purpose, Side: jobs.Patch, Tree: jobs.TreeOracle, Runner: jobs.RunnerGo, Claim: claim,
		Module: ".", Package: pkg, ImportPath: "example.com/m/" + pkg[2:], Tests: []string{test}}
	if purpose == jobs.Edited {
		s.Splice = []string{pkg[2:] + "/x_test.go#" + test}
	}
	return s
}

func TestClaimedTestsRunFirst(t *testing.T) {
	run := plannedRun(t,
		claimJob(jobs.Claim, "go:./calc:TestValid/upper", "./calc", "TestValid/upper"),
		claimJob(jobs.Edited, "go:./calc:TestMedian", "./calc", "TestMedian"),
		// The claim a prerequisite unlocks is claimed; the baseline
		// tests the prerequisite runs are not.
		&jobs.Spec{Purpose: jobs.Prereq, Side: jobs.Patch, Tree: jobs.TreeOracle, Runner: jobs.RunnerGo, Claim: "go:./other:TestClamp",
			Module: ".", Package: "./other", ImportPath: "example.com/m/other", Tests: []string{"TestAbs"},
			Then: claimJob(jobs.Claim, "go:./other:TestClamp", "./other", "TestClamp")},
		// A collateral job runs tests that are no claim.
		&jobs.Spec{Purpose: jobs.Collateral, Side: jobs.Patch, Tree: jobs.TreeOracle, Runner: jobs.RunnerGo, Module: ".", Package: "./calc", ImportPath: "example.com/m/calc", Tests: []string{"TestSum"}},
	)
	claimed := claimedTests(run)
	want := map[string]bool{"example.com/m/calc.TestValid": true, "example.com/m/calc.TestMedian": true, "example.com/m/other.TestClamp": true}
	if len(claimed) != len(want) {
		t.Fatalf("claimed = %v, want %v", claimed, want)
	}
	for k := range want {
		if !claimed[k] {
			t.Errorf("claimed lacks %s: %v", k, claimed)
		}
	}
	for _, c := range []struct {
		ip         string
		tests, out []string
	}{
		{"example.com/m/calc", []string{"TestAbs", "TestClamp", "TestMedian", "TestSum", "TestValid"}, []string{"TestMedian", "TestValid", "TestAbs", "TestClamp", "TestSum"}},
		// TestClamp is claimed in another package only.
		{"example.com/m/calc", []string{"TestAbs", "TestClamp"}, []string{"TestAbs", "TestClamp"}},
		{"example.com/m/other", []string{"TestAbs", "TestClamp"}, []string{"TestClamp", "TestAbs"}},
		{"example.com/m/calc", nil, []string{}},
	} {
		if got := claimedFirst(c.ip, c.tests, claimed); !slices.Equal(got, c.out) {
			t.Errorf("claimedFirst(%s, %v) = %v, want %v", c.ip, c.tests, got, c.out)
		}
	}
}

package gateway_test

import (
	"testing"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
)

// A resubmission is the same submission whatever its key (the key names
// the run, it is not part of what was asked); any other change — the
// patch, its form, the criteria — is another submission.
func TestSubmissionDigest(t *testing.T) {
	base := func() *pb.SubmitRequest {
		return &pb.SubmitRequest{Repository: "/r", Baseline: "main", Patch: &pb.SubmitRequest_PatchCommit{PatchCommit: "abc"},
			Criteria: []byte(`{"timeout_ms":1000}`), IdempotencyKey: "k1"}
	}
	digest := func(in *pb.SubmitRequest) string {
		t.Helper()
		d, err := gateway.SubmissionDigest(in)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	want := digest(base())
	rekeyed := base()
	rekeyed.IdempotencyKey = "k2"
	if digest(rekeyed) != want || base().IdempotencyKey != "k1" {
		t.Fatal("the key changes the submission's digest (or the digest changed the request)")
	}
	for name, change := range map[string]func(*pb.SubmitRequest){
		"patch":      func(in *pb.SubmitRequest) { in.Patch = &pb.SubmitRequest_PatchCommit{PatchCommit: "abd"} },
		"as a diff":  func(in *pb.SubmitRequest) { in.Patch = &pb.SubmitRequest_PatchDiff{PatchDiff: []byte("abc")} },
		"criteria":   func(in *pb.SubmitRequest) { in.Criteria = []byte(`{"timeout_ms":1001}`) },
		"baseline":   func(in *pb.SubmitRequest) { in.Baseline = "main~1" },
		"repository": func(in *pb.SubmitRequest) { in.Repository = "/s" },
	} {
		in := base()
		change(in)
		if digest(in) == want {
			t.Errorf("another %s, the same digest", name)
		}
	}
}

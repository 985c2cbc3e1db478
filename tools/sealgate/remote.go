package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/gateway"
)

// runRemote submits the verification to a gateway (sealgate serve gateway)
// and follows it: the same artefact on stdout and the same exit code as the
// embedded mode.
func runRemote(ctx context.Context, o *verifyOptions, stdout, stderr io.Writer) (int, error) {
	started := time.Now()
	repo, err := filepath.Abs(o.repo)
	if err != nil {
		return 0, usageErrorf("--repo %s: %v", o.repo, err)
	}
	req := &gateway.Request{
		Claims: o.claims, TestSupport: o.testSupport,
		CoverageFloor: o.coverageFloor, StrengthFloor: o.strengthFloor, StrengthConfidence: o.strengthConfidence,
		MutationMax: o.mutationMax, StabilityReruns: o.reruns, TimeoutMillis: o.timeout.Milliseconds(),
		RequireSandbox: o.sandbox == "bwrap", ClientVersion: version(),
	}
	opts, err := req.Options()
	if err != nil {
		return 0, infraErrorf("%v", err)
	}
	in := &pb.SubmitRequest{Repository: repo, Baseline: o.base, Criteria: opts}
	if o.patchFile != "" {
		b, err := os.ReadFile(o.patchFile)
		if err != nil {
			return 0, usageErrorf("--patch-file: %v", err)
		}
		in.Patch = &pb.SubmitRequest_PatchDiff{PatchDiff: b}
	} else {
		in.Patch = &pb.SubmitRequest_PatchCommit{PatchCommit: o.patch}
	}
	conn, err := grpc.NewClient(o.remote, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 0, usageErrorf("--remote %s: %v", o.remote, err)
	}
	defer conn.Close()
	gate := pb.NewGateClient(conn)
	// The gateway's deadline is sealed in the criteria; the client waits a
	// little longer for the adjudicator's deadline verdict and its seal.
	ctx, cancel := context.WithTimeout(ctx, o.timeout+time.Minute)
	defer cancel()
	resp, err := gate.Submit(ctx, in)
	if err != nil {
		if status.Code(err) == codes.InvalidArgument {
			return 0, usageErrorf("%s", status.Convert(err).Message())
		}
		return 0, infraErrorf("submit to %s: %v", o.remote, err)
	}
	view := newProgress(stderr, resp.RunId)
	view.line("run %s: criteria sealed (%.12s) by the gateway at %s", resp.RunId, resp.CriteriaDigest, o.remote)
	stream, err := gate.Watch(ctx, &pb.WatchRequest{RunId: resp.RunId})
	if err != nil {
		return 0, infraErrorf("watch run %s: %v", resp.RunId, err)
	}
	var reached *pb.VerdictReached
	for {
		sr, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, infraErrorf("run %s: no verdict: %v", resp.RunId, err)
		}
		raw, err := record.Encode(sr)
		if err != nil {
			return 0, infraErrorf("run %s: %v", resp.RunId, err)
		}
		rec, err := record.Decode(raw)
		if err != nil {
			return 0, infraErrorf("run %s: the gateway sent a record that does not decode: %v", resp.RunId, err)
		}
		view.record(rec)
		if v := rec.Record.GetVerdictReached(); v != nil {
			reached = v
		}
	}
	got, err := gate.Get(ctx, &pb.GetRequest{RunId: resp.RunId})
	if err != nil {
		return 0, infraErrorf("get run %s: %v", resp.RunId, err)
	}
	if got.State != pb.RunState_RUN_STATE_SEALED || reached == nil {
		return 0, infraErrorf("run %s has no sealed verdict (state %s)", resp.RunId, got.State)
	}
	if _, err := stdout.Write(got.Artefact); err != nil {
		return 0, infraErrorf("%v", err)
	}
	if o.out != "" {
		if err := os.WriteFile(o.out, got.Artefact, 0o644); err != nil {
			return 0, infraErrorf("--out: %v", err)
		}
	}
	if o.attestation != "" {
		if err := os.WriteFile(o.attestation, got.Attestation, 0o644); err != nil {
			return 0, infraErrorf("--attestation: %v", err)
		}
	}
	d := decisionOf(reached.Decision)
	view.done(fmt.Sprintf("%s in %.1fs: %s", d, time.Since(started).Seconds(), reached.Reason))
	return adjudication.ExitCode(d), nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
)

// remoteAttemptTimeout bounds one submission to the gateway, and
// remoteNoticeEvery is how many failed attempts pass between two notices
// that nothing answers (the first is said at once; then about every 20 s).
const (
	remoteAttemptTimeout = 10 * time.Second
	remoteNoticeEvery    = 10
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
	opts, err := o.request().Options()
	if err != nil {
		return 0, infraErrorf("%v", err)
	}
	in := &pb.SubmitRequest{Repository: repo, Baseline: o.base, Criteria: opts}
	if o.patchFile != "" {
		b, err := o.readPatch()
		if err != nil {
			return 0, err
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
	// A gateway that is away (restarting) is waited for; the idempotency
	// key lets a gateway that did take the first attempt answer the same,
	// even one restarted since (the key is on the ledger). The key carries
	// the time, so the run's id does too (the run index reads from it).
	in.IdempotencyKey = runindex.NewKey(time.Now())
	var resp *pb.SubmitResponse
	for attempt := 0; ; attempt++ {
		// Each attempt is bounded, so that nothing answering is said
		// within seconds, not when the run's deadline ends.
		actx, acancel := context.WithTimeout(ctx, remoteAttemptTimeout)
		resp, err = gate.Submit(actx, in)
		acancel()
		if err == nil {
			break
		}
		switch c := status.Code(err); {
		case c == codes.InvalidArgument:
			return 0, usageErrorf("%s", status.Convert(err).Message())
		case c != codes.Unavailable && c != codes.DeadlineExceeded || ctx.Err() != nil:
			return 0, infraErrorf("submit to %s: %v", o.remote, err)
		}
		// A gateway that is away (not started yet, restarting, starting
		// its subscriptions) is waited for, visibly.
		if attempt%remoteNoticeEvery == 0 {
			fmt.Fprintf(stderr, "no gateway answers at %s yet (%s); retrying — is `sealgate serve gateway` running?\n", o.remote, status.Convert(err).Message())
		}
		select {
		case <-ctx.Done():
			return 0, infraErrorf("submit to %s: no gateway answered before the deadline: %v", o.remote, err)
		case <-time.After(time.Duration(min(attempt+1, 10)) * 200 * time.Millisecond):
		}
	}
	view := newProgress(stderr, resp.RunId)
	view.line("run %s: criteria sealed (%.12s) by the gateway at %s", resp.RunId, resp.CriteriaDigest, o.remote)
	// Watch, and watch again if the gateway goes away (a restart, a
	// rollout): the run goes on without it, and Watch replays a run from its
	// first record, so the records already shown are skipped.
	var reached *pb.VerdictReached
	seen := 0
	for attempt := 0; ; attempt++ {
		n, done, err := watchOnce(ctx, gate, resp.RunId, seen, func(rec *record.Decoded) {
			view.record(rec)
			if v := rec.Record.GetVerdictReached(); v != nil {
				reached = v
			}
		})
		seen += n
		if done {
			break
		}
		if c := status.Code(err); c != codes.Unavailable && c != codes.Canceled || ctx.Err() != nil {
			return 0, infraErrorf("run %s: no verdict: %v", resp.RunId, err)
		}
		view.line("run %s: the gateway went away (%v); watching again", resp.RunId, status.Convert(err).Message())
		select {
		case <-ctx.Done():
			return 0, infraErrorf("run %s: no verdict before the deadline", resp.RunId)
		case <-time.After(time.Duration(min(attempt+1, 10)) * 200 * time.Millisecond):
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
		if err := writeOutput(o.out, got.Artefact); err != nil {
			return 0, infraErrorf("--out: %v", err)
		}
	}
	if o.attestation != "" {
		if err := writeOutput(o.attestation, got.Attestation); err != nil {
			return 0, infraErrorf("--attestation: %v", err)
		}
	}
	d := decisionOf(reached.Decision)
	view.done(fmt.Sprintf("%s in %.1fs: %s", d, time.Since(started).Seconds(), reached.Reason))
	return adjudication.ExitCode(d), nil
}

// watchOnce follows the run's records, skipping the first skip, until the
// stream ends. It returns how many new records it showed and whether the
// stream ended cleanly (the verdict is sealed).
func watchOnce(ctx context.Context, gate pb.GateClient, runID string, skip int, show func(*record.Decoded)) (int, bool, error) {
	stream, err := gate.Watch(ctx, &pb.WatchRequest{RunId: runID})
	if err != nil {
		return 0, false, err
	}
	n, i := 0, 0
	for {
		sr, err := stream.Recv()
		if err == io.EOF {
			return n, true, nil
		}
		if err != nil {
			return n, false, err
		}
		i++
		if i <= skip {
			continue
		}
		raw, err := record.Encode(sr)
		if err != nil {
			return n, false, status.Error(codes.DataLoss, err.Error())
		}
		rec, err := record.Decode(raw)
		if err != nil {
			return n, false, status.Errorf(codes.DataLoss, "the gateway sent a record that does not decode: %v", err)
		}
		show(rec)
		n++
	}
}

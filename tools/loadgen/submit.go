package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
)

// Outcome is what became of one submitted run.
type Outcome struct {
	Key   string `json:"key"`
	Patch string `json:"patch"`
	RunID string `json:"run_id,omitempty"`
	// RunIDs are the distinct run ids the gateway answered for the key:
	// more than one is a duplicated run.
	RunIDs   []string `json:"run_ids,omitempty"`
	Decision string   `json:"decision,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	// Records is how many distinct records the run's stream carried;
	// Verdicts how many of them were verdicts (one is right).
	Records  int `json:"records"`
	Verdicts int `json:"verdicts"`
	// Mutants counts the run's mutant job results by the replica that
	// ran them (the worker each job.result names).
	Mutants map[string]int `json:"mutants,omitempty"`
	// Took is from the first submission to the verdict's record; Sealed to
	// the end of the run's stream (the sealed verdict).
	Took   time.Duration `json:"took_ns"`
	Sealed time.Duration `json:"sealed_ns"`
	// Retries counts submissions and watches tried again because the
	// gateway was away.
	Retries int `json:"retries"`
	// Err says why the run has no sealed verdict; empty when it has one.
	Err string `json:"err,omitempty"`
	// Wrong says how the run differs from the undisturbed run of its patch
	// (set by judge).
	Wrong string `json:"wrong,omitempty"`
}

// submitter submits runs of the demo repository's patches to a gateway.
type submitter struct {
	conn *grpc.ClientConn
	gate pb.GateClient
	dir  string            // the repository
	base map[string]string // each patch's baseline, by patch name
	o    *options
}

func newSubmitter(addr, dir string, base map[string]string, o *options) (*submitter, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &submitter{conn: conn, gate: pb.NewGateClient(conn), dir: dir, base: base, o: o}, nil
}

func (s *submitter) Close() error { return s.conn.Close() }

// request is the submission of patch p: its claims at the default floors,
// and -checks seal checks that each write a JUnit file of one passing case.
func (s *submitter) request(key string, p demo.Patch) (*pb.SubmitRequest, error) {
	strength := criteria.DefaultStrengthFloor
	if s.o.mutants == 0 {
		strength = 0 // mutation off: the floor would make every run INCONCLUSIVE
	}
	r := &gateway.Request{
		Claims: p.Claims, CoverageFloor: criteria.DefaultCoverageFloor, StrengthFloor: strength,
		StrengthConfidence: criteria.DefaultStrengthConfidence, MutationMax: s.o.mutants,
		StabilityReruns: criteria.DefaultStabilityReruns, TimeoutMillis: s.o.runTimeout.Milliseconds(),
		ClientVersion: "loadgen",
	}
	for i := range s.o.checks {
		junit := fmt.Sprintf(".loadgen-check-%d.xml", i)
		r.SealPlan = append(r.SealPlan, criteria.Command{
			Run:   fmt.Sprintf(`printf '<testsuite tests="1"><testcase classname="load" name="check%d"/></testsuite>' > %s`, i, junit),
			JUnit: junit,
		})
	}
	opts, err := r.Options()
	if err != nil {
		return nil, err
	}
	base, ok := s.base[p.Name]
	if !ok {
		return nil, fmt.Errorf("patch %s has no baseline", p.Name)
	}
	return &pb.SubmitRequest{Repository: s.dir, Baseline: base, Criteria: opts, IdempotencyKey: key,
		Patch: &pb.SubmitRequest_PatchCommit{PatchCommit: p.Commit}}, nil
}

// away reports an error of a gateway that is not there (restarting):
// worth trying again.
func away(err error) bool {
	c := status.Code(err)
	return c == codes.Unavailable || c == codes.DeadlineExceeded
}

// Run submits patch p under key and follows the run to its sealed verdict,
// through gateway restarts, within the run's timeout and a minute.
func (s *submitter) Run(ctx context.Context, key string, p demo.Patch) (out Outcome) {
	out = Outcome{Key: key, Patch: p.Name}
	ctx, cancel := context.WithTimeout(ctx, s.o.runTimeout+time.Minute)
	defer cancel()
	in, err := s.request(key, p)
	if err != nil {
		out.Err = err.Error()
		return out
	}
	start := time.Now()
	pause := func(attempt int) bool {
		out.Retries++
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Duration(min(attempt+1, 10)) * 200 * time.Millisecond):
			return true
		}
	}
	for attempt := 0; ; attempt++ {
		actx, acancel := context.WithTimeout(ctx, 10*time.Second)
		resp, err := s.gate.Submit(actx, in)
		acancel()
		if err == nil {
			out.RunID = resp.RunId
			break
		}
		if !away(err) || !pause(attempt) {
			out.Err = fmt.Sprintf("submit: %v", err)
			return out
		}
	}
	seen := map[string]bool{}
	for attempt := 0; ; attempt++ {
		done, err := s.watch(ctx, &out, seen, start)
		if done {
			break
		}
		if !away(err) && status.Code(err) != codes.Canceled || !pause(attempt) {
			out.Err = fmt.Sprintf("watch: %v", err)
			return out
		}
	}
	out.Sealed = time.Since(start)
	got, err := s.gate.Get(ctx, &pb.GetRequest{RunId: out.RunID})
	if err != nil {
		out.Err = fmt.Sprintf("get: %v", err)
		return out
	}
	if got.State != pb.RunState_RUN_STATE_SEALED {
		out.Err = fmt.Sprintf("the run ended in state %s, not sealed", got.State)
		return out
	}
	var a struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
	if err := json.Unmarshal(got.Artefact, &a); err != nil {
		out.Err = fmt.Sprintf("artefact: %v", err)
		return out
	}
	out.Decision, out.Reason = a.Decision, a.Reason
	return out
}

// watch follows the run's stream once, counting the records not seen
// before; done is true when the stream ended (the run is sealed).
func (s *submitter) watch(ctx context.Context, out *Outcome, seen map[string]bool, start time.Time) (done bool, err error) {
	stream, err := s.gate.Watch(ctx, &pb.WatchRequest{RunId: out.RunID})
	if err != nil {
		return false, err
	}
	for {
		sr, err := stream.Recv()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		raw, err := record.Encode(sr)
		if err != nil {
			return false, status.Error(codes.DataLoss, err.Error())
		}
		rec, err := record.Decode(raw)
		if err != nil {
			return false, status.Errorf(codes.DataLoss, "a record that does not decode: %v", err)
		}
		if seen[rec.Digest] {
			continue
		}
		seen[rec.Digest] = true
		out.Records++
		if rec.Kind == pb.Kind_KIND_JOB_RESULT && rec.Record.GetProducer().GetIdentity() == keyring.Mutation {
			if out.Mutants == nil {
				out.Mutants = map[string]int{}
			}
			out.Mutants[rec.Record.GetJobResult().GetWorker()]++
		}
		if rec.Kind == pb.Kind_KIND_VERDICT_REACHED {
			out.Verdicts++
			if out.Verdicts == 1 {
				out.Took = time.Since(start)
			}
		}
	}
}

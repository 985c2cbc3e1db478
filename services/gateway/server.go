package gateway

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/consume"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
	"go.opentelemetry.io/otel/trace"
)

// Server is the Gate gRPC API.
type Server struct {
	pb.UnimplementedGateServer
	// Signer signs as the gateway identity.
	Signer *record.Signer
	// Appender proposes the run's first records.
	Appender runtime.Appender
	Blobs    *blob.Store
	Index    *Index
	// Scratch is where pre-flight checkouts are made.
	Scratch string
	// Tracer starts each run's root span; nil traces nothing.
	Tracer trace.TracerProvider

	mu          sync.Mutex
	idempotency map[string]*pb.SubmitResponse
}

// Submit checks and seals a run, proposes its first records and returns
// its id. A request with an idempotency key seen before returns the first
// answer (for the life of this process).
func (s *Server) Submit(ctx context.Context, in *pb.SubmitRequest) (*pb.SubmitResponse, error) {
	if key := in.GetIdempotencyKey(); key != "" {
		s.mu.Lock()
		prev := s.idempotency[key]
		s.mu.Unlock()
		if prev != nil {
			return prev, nil
		}
	}
	req := &Request{}
	if err := ParseOptions(in.GetCriteria(), req); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	req.Repository, req.Baseline = in.GetRepository(), in.GetBaseline()
	switch p := in.GetPatch().(type) {
	case *pb.SubmitRequest_PatchCommit:
		req.PatchCommit = p.PatchCommit
	case *pb.SubmitRequest_PatchDiff:
		req.PatchDiff = p.PatchDiff
	}
	scratch, err := os.MkdirTemp(s.Scratch, "preflight-")
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	defer os.RemoveAll(scratch)
	started := time.Now()
	runID := NewRunID(started)
	if s.Tracer != nil {
		var root trace.Span
		ctx, root = s.Tracer.Tracer(telemetry.Scope).Start(telemetry.WithRunRoot(ctx, runID), "sealgate.run",
			trace.WithAttributes(telemetry.Attr("gateway", runID)...))
		defer root.End()
	}
	sub, err := Prepare(ctx, req, runID, started, s.Blobs, s.Signer, scratch)
	if err != nil {
		var ue *UsageError
		if errors.As(err, &ue) {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		return nil, status.Error(codes.Internal, err.Error())
	}
	if _, err := s.Appender.Append(ctx, sub.Request, sub.Seal); err != nil {
		return nil, status.Error(codes.Unavailable, fmt.Sprintf("the ledger: %v", err))
	}
	resp := &pb.SubmitResponse{RunId: sub.RunID, CriteriaDigest: sub.Sealed.Digest}
	if key := in.GetIdempotencyKey(); key != "" {
		s.mu.Lock()
		if s.idempotency == nil {
			s.idempotency = map[string]*pb.SubmitResponse{}
		}
		s.idempotency[key] = resp
		s.mu.Unlock()
	}
	return resp, nil
}

// Watch streams the run's records in ledger order until its verdict is
// sealed or the caller leaves. A run not on the ledger yet is waited for.
func (s *Server) Watch(in *pb.WatchRequest, stream grpc.ServerStreamingServer[pb.SignedRecord]) error {
	if in.GetRunId() == "" {
		return status.Error(codes.InvalidArgument, "run_id is required")
	}
	sent := 0
	for {
		recs, sealed, changed := s.Index.Since(in.GetRunId(), sent)
		for _, r := range recs {
			if err := stream.Send(r.Signed); err != nil {
				return err
			}
		}
		sent += len(recs)
		if sealed {
			return nil
		}
		select {
		case <-changed:
		case <-stream.Context().Done():
			return status.FromContextError(stream.Context().Err()).Err()
		}
	}
}

// Get returns the run's state and, once decided, its artefact (sealed when
// the verdict is sealed) and attestation bundle.
func (s *Server) Get(ctx context.Context, in *pb.GetRequest) (*pb.GetResponse, error) {
	recs, _, _ := s.Index.Since(in.GetRunId(), 0)
	if len(recs) == 0 {
		return nil, status.Errorf(codes.NotFound, "run %q is not on the ledger", in.GetRunId())
	}
	out := &pb.GetResponse{RunId: in.GetRunId(), State: pb.RunState_RUN_STATE_RUNNING}
	var artefact, bundle string
	for _, r := range recs {
		if cs := r.Record.GetCriteriaSealed(); cs != nil {
			out.CriteriaDigest = cs.CriteriaDigest
		}
		if v := r.Record.GetVerdictReached(); v != nil {
			out.State, out.Decision, artefact = pb.RunState_RUN_STATE_DECIDED, v.Decision, v.ArtefactBlob
		}
		if v := r.Record.GetVerdictSealed(); v != nil {
			out.State, artefact, bundle = pb.RunState_RUN_STATE_SEALED, v.ArtefactBlob, v.BundleBlob
		}
	}
	var err error
	if artefact != "" {
		if out.Artefact, err = s.Blobs.Get(ctx, artefact); err != nil {
			return nil, status.Errorf(codes.Unavailable, "artefact %.16s…: %v", artefact, err)
		}
	}
	if bundle != "" {
		if out.Attestation, err = s.Blobs.Get(ctx, bundle); err != nil {
			return nil, status.Errorf(codes.Unavailable, "attestation %.16s…: %v", bundle, err)
		}
	}
	return out, nil
}

// Index keeps every run's admitted records, in ledger order, from a
// subscription to the records topic that sees every partition. It uses
// only what the ledger guard admitted: each message must carry a valid
// admission, and a run's records are listed in their chain order — a
// record that arrives before its predecessors (a copy written to another
// partition) waits for them, a copy of a record already listed is dropped.
// Anything else is refused: logged and counted, never listed, never a
// reason to stop.
type Index struct {
	verifier *admission.Verifier
	refusals *runtime.Refusals

	mu      sync.Mutex
	runs    map[string][]*record.Decoded
	chains  *admission.Chains
	sealed  map[string]bool
	changed chan struct{}
}

// NewIndex returns an empty index that admits what v verifies and reports
// refusals to refusals (nil: a silent reporter).
func NewIndex(v *admission.Verifier, refusals *runtime.Refusals) (*Index, error) {
	if v == nil {
		return nil, errors.New("gateway: the index needs an admission verifier")
	}
	if refusals == nil {
		var err error
		if refusals, err = runtime.NewRefusals("gateway", nil, nil); err != nil {
			return nil, err
		}
	}
	return &Index{verifier: v, refusals: refusals, runs: map[string][]*record.Decoded{}, chains: admission.NewChains(),
		sealed: map[string]bool{}, changed: make(chan struct{})}, nil
}

// Feed reads the records topic from sub until ctx ends.
func (x *Index) Feed(ctx context.Context, sub message.Subscriber) error {
	loop := &consume.Loop{Name: "gateway", Sub: sub, Topic: ledger.Topic,
		Handle: func(ctx context.Context, msg *message.Message) error {
			a, err := x.verifier.Check(msg.Metadata.Get(admission.Header), msg.Payload)
			if err == nil {
				err = x.add(a)
			}
			if err != nil {
				// Not admitted, or out of its chain: skipped, logged and
				// counted, never a reason to stop.
				x.refusals.Refuse(ctx, msg.UUID, err)
			}
			return nil
		}}
	return loop.Run(ctx)
}

// add lists the records a places in its run's chain.
func (x *Index) add(a *admission.Admitted) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	placed, err := x.chains.Add(a)
	for _, p := range placed {
		id := p.RunID()
		x.runs[id] = append(x.runs[id], p.Record)
		if p.Record.Kind == pb.Kind_KIND_VERDICT_SEALED {
			x.sealed[id] = true
		}
	}
	if len(placed) > 0 {
		close(x.changed)
		x.changed = make(chan struct{})
	}
	return err
}

// Since returns the run's records after the first n, whether its verdict
// is sealed, and a channel closed at the next change.
func (x *Index) Since(runID string, n int) ([]*record.Decoded, bool, <-chan struct{}) {
	x.mu.Lock()
	defer x.mu.Unlock()
	recs := x.runs[runID]
	var out []*record.Decoded
	if n < len(recs) {
		out = append(out, recs[n:]...)
	}
	return out, x.sealed[runID], x.changed
}

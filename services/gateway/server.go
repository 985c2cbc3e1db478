package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/consume"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
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
	// AdmitWait bounds how long a keyed Submit waits for the ledger to
	// admit the run it proposed (or the one a key names already); zero
	// means DefaultAdmitWait.
	AdmitWait time.Duration
}

const (
	// DefaultAdmitWait is Server.AdmitWait's default.
	DefaultAdmitWait = 30 * time.Second
	// MaxKeyLen bounds an idempotency key.
	MaxKeyLen = 256
	// KeyTimeSlack is how far the time in an idempotency key may be from
	// the gateway's clock to be taken as the run's start.
	KeyTimeSlack = time.Hour
	// KeyAheadLimit is how far ahead of the gateway's clock the time in an
	// idempotency key may be. The run is found again (after a restart, by
	// any gateway) by reading its partition from shortly before that time
	// (runindex.DefaultSkew before it): a key far ahead of the records'
	// own times would hide its run.
	KeyAheadLimit = runindex.DefaultSkew / 2
)

// SubmissionDigest is the SHA-256 (hex) of a submission as the client sent
// it, its idempotency key left out: what a resubmission with the key must
// match to be the same run.
func SubmissionDigest(in *pb.SubmitRequest) (string, error) {
	c := proto.CloneOf(in)
	c.IdempotencyKey = ""
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Submit checks and seals a run, proposes its first records and returns
// its id.
//
// A request with an idempotency key names its run by the key
// (runindex.KeyedID), and the key and the submission's digest go on its
// run.requested: the ledger, not this process, remembers them. A key whose
// run the ledger holds is answered with that run, or, when the submission
// differs, refused (FailedPrecondition); otherwise the run is proposed and
// Submit waits for the ledger's word — the guard admits one run.requested
// per run, so of two gateways racing on one key one run wins, and each
// answers with the admitted one (or refuses, if its submission was not
// the one admitted).
func (s *Server) Submit(ctx context.Context, in *pb.SubmitRequest) (*pb.SubmitResponse, error) {
	key := in.GetIdempotencyKey()
	var keyed *keyedRun
	if key != "" {
		if len(key) > MaxKeyLen {
			return nil, status.Errorf(codes.InvalidArgument, "the idempotency key is %d bytes; at most %d", len(key), MaxKeyLen)
		}
		digest, err := SubmissionDigest(in)
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		keyed = &keyedRun{id: runindex.KeyedID(key), key: key, digest: digest}
		if at, ok := runindex.StartOf(keyed.id); ok && time.Until(at) > KeyAheadLimit {
			return nil, status.Errorf(codes.InvalidArgument, "the idempotency key's time %s is %s ahead of the gateway's clock (at most %s): mint keys with the current time, or mend the client's clock",
				at.Format(time.RFC3339), time.Until(at).Round(time.Second), KeyAheadLimit)
		}
		if resp, done, err := s.keyedAnswer(keyed); done {
			return resp, err
		}
		// Not in the index: the feed reads only what was written since
		// this gateway started, so the key's run is looked up on its
		// partition — from the key's time when it carries one, cheaply,
		// else from the partition's start. A run the ledger holds is then
		// answered at once.
		if err := s.Index.Load(ctx, keyed.id); err != nil {
			return nil, status.Error(codes.Unavailable, err.Error())
		}
		if resp, done, err := s.keyedAnswer(keyed); done {
			return resp, err
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
	if keyed != nil {
		runID = keyed.id
		req.IdempotencyKey, req.SubmissionDigest = keyed.key, keyed.digest
		// A key's time, when near, is the run's start: the deadline then
		// counts from the client's first attempt, and a retry (or a racing
		// replica) prepares the very records of the first attempt, which
		// the guard takes as duplicates rather than refusing a second
		// run.requested.
		if at, ok := runindex.StartOf(runID); ok && started.Sub(at).Abs() <= KeyTimeSlack {
			started = at
		}
	}
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
	if keyed != nil {
		return s.awaitKeyed(ctx, keyed)
	}
	return &pb.SubmitResponse{RunId: sub.RunID, CriteriaDigest: sub.Sealed.Digest}, nil
}

// keyedRun is a keyed submission: the run its key names, the key and the
// submission's digest.
type keyedRun struct{ id, key, digest string }

// keyedAnswer answers k from the records the index holds of its run: done
// is false while the ledger has not admitted the run's opening records
// (run.requested, criteria.sealed).
func (s *Server) keyedAnswer(k *keyedRun) (*pb.SubmitResponse, bool, error) {
	recs, _, _ := s.Index.Since(k.id, 0)
	return keyedAnswerOf(k, recs)
}

func keyedAnswerOf(k *keyedRun, recs []*record.Decoded) (*pb.SubmitResponse, bool, error) {
	if len(recs) == 0 {
		return nil, false, nil
	}
	req := recs[0].Record.GetRunRequested()
	switch {
	case req == nil:
		return nil, true, status.Errorf(codes.Internal, "run %s: its first admitted record is %s, not run.requested", k.id, recs[0].Kind)
	case req.GetIdempotencyKey() != k.key:
		return nil, true, status.Errorf(codes.AlreadyExists, "run %s, named by this idempotency key, was requested without it: use another key", k.id)
	case req.GetSubmissionDigest() != k.digest:
		return nil, true, status.Errorf(codes.FailedPrecondition, "idempotency key already used for a different submission (run %s): use a new key for a new request", k.id)
	}
	// The seal follows the request, perhaps after the refusals of a racing
	// gateway's proposals.
	for _, r := range recs[1:] {
		if cs := r.Record.GetCriteriaSealed(); cs != nil {
			return &pb.SubmitResponse{RunId: k.id, CriteriaDigest: cs.GetCriteriaDigest()}, true, nil
		}
	}
	return nil, false, nil
}

// awaitKeyed waits until the ledger has admitted the opening records of
// k's run — the ones proposed here, or another gateway's — and answers
// from them.
func (s *Server) awaitKeyed(ctx context.Context, k *keyedRun) (*pb.SubmitResponse, error) {
	wait := s.AdmitWait
	if wait <= 0 {
		wait = DefaultAdmitWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		recs, _, changed := s.Index.Since(k.id, 0)
		if resp, done, err := keyedAnswerOf(k, recs); done {
			return resp, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-timer.C:
			return nil, status.Errorf(codes.Unavailable, "run %s was proposed, but the ledger has not admitted it within %s: resubmit with the same idempotency key", k.id, wait)
		}
	}
}

// Watch streams the run's records in ledger order until its verdict is
// sealed or the caller leaves. A run not on the ledger yet is waited for.
func (s *Server) Watch(in *pb.WatchRequest, stream grpc.ServerStreamingServer[pb.SignedRecord]) error {
	if in.GetRunId() == "" {
		return status.Error(codes.InvalidArgument, "run_id is required")
	}
	sent := 0
	if recs, _, _ := s.Index.Since(in.GetRunId(), 0); len(recs) == 0 {
		if err := s.Index.Load(stream.Context(), in.GetRunId()); err != nil {
			return status.Error(codes.Unavailable, err.Error())
		}
	}
	for {
		recs, sealed, changed := s.Index.Since(in.GetRunId(), sent)
		if sent > 0 && len(recs) == 0 && !s.Index.Holds(in.GetRunId()) {
			// Sealed and let go by the index while this stream waited:
			// read again, the stream goes on from where it is.
			if err := s.Index.Load(stream.Context(), in.GetRunId()); err != nil {
				return status.Error(codes.Unavailable, err.Error())
			}
			if !s.Index.Holds(in.GetRunId()) {
				return status.Errorf(codes.Unavailable, "run %q: the gateway let it go and could not read it again from the ledger", in.GetRunId())
			}
			continue
		}
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
		if err := s.Index.Load(ctx, in.GetRunId()); err != nil {
			return nil, status.Error(codes.Unavailable, err.Error())
		}
		recs, _, _ = s.Index.Since(in.GetRunId(), 0)
	}
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
//
// With a lookup, the index holds only the last runs sealed (WithSealedKept):
// an older one is let go, and read again from its partition when asked
// for. Without one it holds every run it has seen.
type Index struct {
	verifier *admission.Verifier
	refusals *runtime.Refusals
	lookup   Lookup
	keep     int

	mu      sync.Mutex
	runs    map[string][]*record.Decoded
	chains  *admission.Chains
	sealed  map[string]bool
	order   []string // sealed runs held, the oldest seal first
	changed chan struct{}
}

// DefaultSealedKept is how many sealed runs an index with a lookup holds:
// the runs of the last minutes of a busy cluster, which clients still
// watch and get. A gateway that held every run it saw grew by about a
// third of a megabyte a run under load (340 MB after 620 runs); an older
// run costs one read of its partition when asked for.
const DefaultSealedKept = 256

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
	return &Index{verifier: v, refusals: refusals, keep: DefaultSealedKept, runs: map[string][]*record.Decoded{}, chains: admission.NewChains(),
		sealed: map[string]bool{}, changed: make(chan struct{})}, nil
}

// Lookup reads the messages of one run from the records topic (those whose
// run-id metadata names it, at least), handing each to fn:
// runindex.Locator.Lookup bound to the records topic.
type Lookup func(ctx context.Context, runID string, fn func(*message.Message) error) error

// WithLookup has Load read runs with l; it returns x.
func (x *Index) WithLookup(l Lookup) *Index {
	x.lookup = l
	return x
}

// WithSealedKept has x, once it has a lookup, hold at most n sealed runs
// (n <= 0: DefaultSealedKept); it returns x.
func (x *Index) WithSealedKept(n int) *Index {
	if n <= 0 {
		n = DefaultSealedKept
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.keep = n
	return x
}

// Holds says whether x holds any record of runID now.
func (x *Index) Holds(runID string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.runs[runID]) > 0
}

// Load reads runID's records with the index's lookup and lists what the
// guard admitted, exactly as the feed does (the chains drop what the feed
// listed already, and the feed drops what Load listed): a run the feed has
// not delivered yet — a gateway restarted, still reading the topic, or a
// resubmitted key — is answered from its partition, not after the whole
// topic. Without a lookup it does nothing.
func (x *Index) Load(ctx context.Context, runID string) error {
	if x.lookup == nil || runID == "" {
		return nil
	}
	err := x.lookup(ctx, runID, func(msg *message.Message) error {
		if msg.Metadata.Get(ledger.MetaRunID) != runID {
			return nil
		}
		a, err := x.verifier.Check(msg.Metadata.Get(admission.Header), msg.Payload)
		if err == nil && a.RunID() != runID {
			err = &admission.Refusal{Code: admission.CodeFork, Detail: fmt.Sprintf("a record of run %q labelled as run %q", a.RunID(), runID)}
		}
		if err == nil {
			err = x.add(a)
		}
		if err != nil {
			x.refusals.Refuse(ctx, msg.UUID, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("gateway: look up run %s: %w", runID, err)
	}
	return nil
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
		if p.Record.Kind == pb.Kind_KIND_VERDICT_SEALED && !x.sealed[id] {
			x.sealed[id] = true
			x.order = append(x.order, id)
		}
	}
	// A sealed run let go is read again from its partition when asked for
	// (Load); without a lookup nothing could read it again.
	for x.lookup != nil && len(x.order) > x.keep {
		id := x.order[0]
		x.order = x.order[1:]
		delete(x.runs, id)
		delete(x.sealed, id)
		x.chains.Forget(id)
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

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/spf13/cobra"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/gateway"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
)

// Services `sealgate serve` runs. ledger is the admission guard, the
// records topic's single writer.
var serveOrder = []string{"ledger", "gateway", "checkout", "executor", "reach", "mutation", "adjudication", "signing"}

type serveOptions struct {
	ledger, blobs, keys, trust string
	brokers                    []string
	listen, state              string
	partitions                 int
	sandbox, buildCache        string
	signingKey, tlogKind       string
	rekorURL                   string
	otlpEndpoint               string
	otlpInsecure               bool
}

func newServeCmd(stderr io.Writer) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve SERVICE... --ledger kafka --brokers HOST:PORT --blobs URL --keys DIR --trust FILE",
		Short: "Run services as their own process over Kafka (distributed mode)",
		Long: `serve runs one or more services — ledger, gateway, checkout, executor, reach,
mutation, adjudication, signing, or all — against a Kafka ledger and a shared
blob store. Services propose records on sealgate.proposals.v1; the ledger
service admits them and is the only writer of sealgate.records.v1 (run one);
every other service consumes the records topic under a consumer group named
after it, so replicas of one service share the runs between them.

The gateway serves the Gate gRPC API on --listen, with the standard health and
reflection services; ` + "`sealgate verify --remote ADDR`" + ` submits to it.

Keys: --keys DIR holds each service's Ed25519 key (sealgate keys services
writes them all, with the trust policy); a process loads only the keys of the
services it runs. --trust is the trust policy every record is checked against.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("serve needs at least one service: %s or all", strings.Join(serveOrder, ", "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return serve(cmd.Context(), stderr, args, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.ledger, "ledger", "kafka", "ledger backend: kafka")
	f.StringSliceVar(&o.brokers, "brokers", nil, "Kafka bootstrap brokers, host:port (comma-separated or repeated)")
	f.StringVar(&o.blobs, "blobs", "", "shared blob store: a gocloud.dev bucket URL (s3://…, file:///dir) or a directory every process sees")
	f.StringVar(&o.keys, "keys", "", "directory of the services' Ed25519 keys (sealgate keys services)")
	f.StringVar(&o.trust, "trust", "", "trust policy file (sealgate keys services writes trust.json)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:9090", "gateway: gRPC listen address")
	f.StringVar(&o.state, "state", "", "this process's local files: scratch trees, build cache, embedded log (default a temporary directory)")
	f.IntVar(&o.partitions, "partitions", 8, "partitions of the topics, when serve creates them")
	f.StringVar(&o.sandbox, "sandbox", "auto", "executor and mutation: auto, bwrap or none")
	f.StringVar(&o.buildCache, "build-cache", "", "executor and mutation: Go build cache of test processes (default STATE/gocache)")
	f.StringVar(&o.signingKey, "signing-key", "", "signing: verdict signing key, PKCS#8 PEM (default $"+signingKeyEnv+")")
	f.StringVar(&o.tlogKind, "tlog", "embedded", "signing: transparency log, embedded (STATE/tlog) or rekor")
	f.StringVar(&o.rekorURL, "rekor-url", "", "signing: Rekor v1 server, with --tlog rekor")
	f.StringVar(&o.otlpEndpoint, "otlp-endpoint", "", "export traces and metrics over OTLP/gRPC to this collector (host:port); off when empty")
	f.BoolVar(&o.otlpInsecure, "otlp-insecure", false, "send OTLP without TLS")
	return cmd
}

// serveSet expands "all" and checks names.
func serveSet(args []string) ([]string, error) {
	want := map[string]bool{}
	for _, a := range args {
		if a == "all" {
			for _, s := range serveOrder {
				want[s] = true
			}
			continue
		}
		if !slices.Contains(serveOrder, a) {
			return nil, usageErrorf("unknown service %q: want %s or all", a, strings.Join(serveOrder, ", "))
		}
		want[a] = true
	}
	var out []string
	for _, s := range serveOrder {
		if want[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

func identityOf(service string) string {
	return "sealgate/" + service
}

func serve(ctx context.Context, stderr io.Writer, args []string, o *serveOptions) error {
	names, err := serveSet(args)
	if err != nil {
		return err
	}
	switch {
	case o.ledger != "kafka":
		return usageErrorf("--ledger %q: serve runs over kafka (the embedded mode is sealgate verify)", o.ledger)
	case len(o.brokers) == 0:
		return usageErrorf("--brokers is required: the Kafka bootstrap brokers")
	case o.blobs == "":
		return usageErrorf("--blobs is required: the blob store every service shares")
	case o.keys == "" || o.trust == "":
		return usageErrorf("--keys and --trust are required (sealgate keys services --out DIR writes both)")
	}
	trust, err := loadTrust(o.trust)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(names))
	for _, n := range names {
		ids = append(ids, identityOf(n))
	}
	keys, err := keyring.Load(o.keys, ids...)
	if err != nil {
		return usageErrorf("%v", err)
	}
	state := o.state
	if state != "" {
		if state, err = absState(state); err != nil {
			return err
		}
	}
	if state == "" {
		if state, err = os.MkdirTemp("", "sealgate-serve-"); err != nil {
			return infraErrorf("%v", err)
		}
		defer os.RemoveAll(state)
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		return infraErrorf("%v", err)
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s sealgate serve: %s\n", time.Now().UTC().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	}
	for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
		if err := kafka.CreateTopic(ctx, o.brokers, topic, o.partitions); err != nil {
			return infraErrorf("%v", err)
		}
	}
	blobs, err := blob.Open(ctx, o.blobs)
	if err != nil {
		return usageErrorf("--blobs: %v", err)
	}
	defer blobs.Close()
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: o.brokers}, watermill.NopLogger{})
	if err != nil {
		return infraErrorf("%v", err)
	}
	defer pub.Close()
	proposer := &guard.Proposer{Pub: pub}
	// Every reader of the records topic uses only what the ledger guard
	// admitted, checked against the ledger key of the trust policy.
	admissions := admission.NewVerifier(trust)

	deps := &serviceDeps{blobs: blobs, scratch: filepath.Join(state, "work")}
	if err := os.MkdirAll(deps.scratch, 0o755); err != nil {
		return infraErrorf("%v", err)
	}
	if slices.Contains(names, "executor") || slices.Contains(names, "mutation") {
		mode := map[string]sandbox.Mode{"auto": sandbox.Auto, "bwrap": sandbox.Require, "none": sandbox.None}[o.sandbox]
		if deps.box, err = sandbox.New(ctx, sandbox.Config{Mode: mode}); err != nil {
			return usageErrorf("%v", err)
		}
		if deps.goenv, err = goToolchain(ctx, cmp.Or(o.buildCache, filepath.Join(state, "gocache"))); err != nil {
			return err
		}
	}
	if slices.Contains(names, "signing") {
		if o.signingKey == "" && os.Getenv(signingKeyEnv) == "" {
			return usageErrorf("the signing service needs --signing-key FILE or $%s", signingKeyEnv)
		}
		if deps.signer, _, err = loadSigner(o.signingKey, state); err != nil {
			return err
		}
		// The state directory's anchor keeps the embedded log's last
		// checkpoint; the ledger is Kafka's, with no head kept here.
		anchors, err := loadAnchor(state)
		if err != nil {
			return err
		}
		if anchors.cur == nil && logHasEntries(state) {
			return infraErrorf("the state %s has no anchor (%s is missing), but its transparency log holds entries: if the anchor was lost, restore it from a backup; to adopt the log as it is, run `sealgate state reanchor --state %s`", state, anchors.path, state)
		}
		if deps.tlog, _, err = openLog(ctx, o.tlogKind, o.rekorURL, state, anchors, nil); err != nil {
			return err
		}
		defer deps.tlog.Close()
	}

	tel, err := telemetry.Setup(ctx, telemetry.Config{Endpoint: o.otlpEndpoint, Insecure: o.otlpInsecure, Service: "sealgate-" + strings.Join(names, "-")})
	if err != nil {
		return usageErrorf("--otlp-endpoint: %v", err)
	}
	defer tel.Close(context.WithoutCancel(ctx))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(names)+2)
	var wg sync.WaitGroup
	goRun := func(name string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				errc <- fmt.Errorf("%s: %w", name, err)
			}
		}()
	}
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	for _, name := range names {
		signer, err := keys.Signer(identityOf(name))
		if err != nil {
			return infraErrorf("%v", err)
		}
		switch name {
		case "ledger":
			st := authority.New(trust)
			refusals, err := runtime.NewRefusals(name, tel, logf)
			if err != nil {
				return infraErrorf("%v", err)
			}
			heads, n, err := guard.Rebuild(ctx, st, admissions, topicReader(o.brokers, ledger.Topic), func(err error) { refusals.Refuse(ctx, "", err) })
			if err != nil {
				return infraErrorf("ledger: rebuild from %s: %v", ledger.Topic, err)
			}
			logf("ledger: admission state rebuilt from %d admitted records of %d runs (%d messages refused)", n, len(heads), refusals.Total())
			// The guard's key signs refusals (in records) and admissions
			// (of every message it writes).
			key, err := keyring.ReadKey(filepath.Join(o.keys, keyring.FileName(keyring.Ledger)))
			if err != nil {
				return usageErrorf("%v", err)
			}
			stamper, err := guard.NewStamper(pub, key, heads, admissions)
			if err != nil {
				return usageErrorf("--trust: %v", err)
			}
			app, err := ledger.NewAppender(stamper, st, signer, nil)
			if err != nil {
				return infraErrorf("%v", err)
			}
			sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: o.brokers, ConsumerGroup: "ledger"}, watermill.NopLogger{})
			if err != nil {
				return infraErrorf("%v", err)
			}
			closers = append(closers, sub)
			g := &guard.Guard{Appender: app, Sub: sub, Logf: func(f string, a ...any) { logf("ledger: "+f, a...) }}
			goRun(name, func() error { return g.Run(ctx) })
		case "gateway":
			refusals, err := runtime.NewRefusals(name, tel, logf)
			if err != nil {
				return infraErrorf("%v", err)
			}
			idx, err := gateway.NewIndex(admissions, refusals)
			if err != nil {
				return infraErrorf("%v", err)
			}
			// No consumer group: the gateway indexes every partition.
			sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: o.brokers}, watermill.NopLogger{})
			if err != nil {
				return infraErrorf("%v", err)
			}
			closers = append(closers, sub)
			goRun("gateway index", func() error { return idx.Feed(ctx, sub) })
			lis, err := net.Listen("tcp", o.listen)
			if err != nil {
				return usageErrorf("--listen %s: %v", o.listen, err)
			}
			srv := grpc.NewServer()
			pb.RegisterGateServer(srv, &gateway.Server{Signer: signer, Appender: proposer, Blobs: blobs, Index: idx, Scratch: deps.scratch, Tracer: tel.Tracer})
			hs := health.NewServer()
			healthpb.RegisterHealthServer(srv, hs)
			hs.SetServingStatus(pb.Gate_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
			reflection.Register(srv)
			go func() {
				<-ctx.Done()
				hs.Shutdown()
				srv.GracefulStop()
			}()
			logf("gateway: Gate API on %s", lis.Addr())
			goRun(name, func() error {
				if err := srv.Serve(lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
					return err
				}
				return nil
			})
		default:
			spec, err := deps.spec(name)
			if err != nil {
				return err
			}
			sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: o.brokers, ConsumerGroup: spec.group}, watermill.NopLogger{})
			if err != nil {
				return infraErrorf("%v", err)
			}
			closers = append(closers, sub)
			refusals, err := runtime.NewRefusals(name, tel, logf)
			if err != nil {
				return infraErrorf("%v", err)
			}
			svc := &runtime.Service{Name: name, Signer: signer, Handler: spec.h, Sub: sub, Appender: proposer,
				History: kafkaHistory(o.brokers, signer, admissions, func(err error) { refusals.Refuse(ctx, "", err) }), Telemetry: tel,
				Admission: admissions, Refusals: refusals}
			goRun(name, func() error { return svc.Run(ctx) })
		}
		logf("%s: started", name)
	}
	var runErr error
	select {
	case <-ctx.Done():
		logf("stopping")
	case runErr = <-errc:
		logf("stopping: %v", runErr)
	}
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
	}
	if runErr != nil {
		return infraErrorf("%v", runErr)
	}
	return nil
}

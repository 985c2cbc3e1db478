package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/metric"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/gateway"
	"github.com/sealgate/sealgate/services/lifecycle"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
	"github.com/sealgate/sealgate/services/work"
)

// serviceKeysDir is where `sealgate keys services` writes the services'
// keys and the trust policy by default, inside the state directory.
const serviceKeysDir = "service-keys"

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
	brokerWait                 time.Duration
	// The executor's and mutation's jobs across replicas (work_role.go).
	replica        string
	jobLease       time.Duration
	jobLanes       int
	workPartitions int
}

func newServeCmd(stderr io.Writer) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve SERVICE... --brokers HOST:PORT --blobs URL [--keys DIR --trust FILE] [--state DIR]",
		Short: "Run services as their own process over Kafka (distributed mode)",
		Long: `serve runs one or more services — ledger, gateway, checkout, executor, reach,
mutation, adjudication, signing, or all — against a Kafka ledger and a shared
blob store. Services propose records on sealgate.proposals.v1; the ledger
service admits them into sealgate.records.v1. Run one or more: each ledger
process is a guard shard that holds some partitions, the only writer of its
partitions of the records topic (both topics need the same partition count);
every other service consumes the records topic under a consumer group named
after it, so replicas of one service share the runs between them.

The gateway serves the Gate gRPC API on --listen, with the standard health and
reflection services; ` + "`sealgate verify --remote ADDR`" + ` submits to it.

Keys: --keys DIR holds each service's Ed25519 key (sealgate keys services
writes them all, with the trust policy); a process loads only the keys of the
services it runs. --trust is the trust policy every record is checked against.
Both default to the state directory's service-keys/, where sealgate keys
services writes them by default.

A process waits for its brokers at start (--broker-wait, logged with the
cause), so it can start before or with the broker. Its gateway answers at once
but reports NOT_SERVING on gRPC health, and Unavailable to Gate calls, until
every service of the process is subscribed.

--state is this process's own directory — scratch trees, build cache, and for
the signing service its embedded transparency log and anchor, which must
survive restarts; it defaults to $SEALGATE_STATE (or the XDG state directory)
/serve-SERVICES (serve-all for all), and is printed at start.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("serve needs at least one service: %s or all", strings.ReplaceAll(roleNames(allRoles()), "-", ", "))
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
	f.StringVar(&o.keys, "keys", "", "directory of the services' Ed25519 keys, as sealgate keys services writes it (default STATE/service-keys)")
	f.StringVar(&o.trust, "trust", "", "trust policy file (default KEYS/trust.json, which sealgate keys services writes)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:9090", "gateway: gRPC listen address")
	f.StringVar(&o.state, "state", "", "this process's own directory: scratch trees, build cache, the signing service's embedded log (default $SEALGATE_STATE or the XDG state dir, /serve-SERVICES)")
	f.DurationVar(&o.brokerWait, "broker-wait", kafka.DefaultBrokerWait, "how long to wait for the Kafka brokers at start")
	f.IntVar(&o.partitions, "partitions", 8, "partitions of the topics, when serve creates them")
	f.StringVar(&o.sandbox, "sandbox", "auto", "executor and mutation: auto, bwrap or none")
	f.StringVar(&o.buildCache, "build-cache", "", "executor and mutation: Go build cache of test processes (default STATE/gocache)")
	f.StringVar(&o.signingKey, "signing-key", "", "signing: verdict signing key, PKCS#8 PEM (default $"+signingKeyEnv+")")
	f.StringVar(&o.tlogKind, "tlog", "embedded", "signing: transparency log, embedded (STATE/tlog) or rekor")
	f.StringVar(&o.rekorURL, "rekor-url", "", "signing: Rekor v1 server, with --tlog rekor")
	f.StringVar(&o.otlpEndpoint, "otlp-endpoint", "", "export traces and metrics over OTLP/gRPC to this collector (host:port); off when empty")
	f.BoolVar(&o.otlpInsecure, "otlp-insecure", false, "send OTLP without TLS")
	f.StringVar(&o.replica, "replica", defaultReplica(), "executor and mutation: this replica's name, recorded on every job.result it records (the result's worker)")
	f.DurationVar(&o.jobLease, "job-lease", kafka.DefaultSessionTimeout, "executor and mutation: the lease on a job taken from the work topic: a replica silent this long (no heartbeat) loses its jobs to the others, which run them again")
	f.IntVar(&o.jobLanes, "job-lanes", 2, "executor and mutation: jobs this replica runs at once, of any run (each lane a member of the SERVICE.work consumer group)")
	f.IntVar(&o.workPartitions, "work-partitions", work.DefaultPartitions, "partitions of the work topic, when serve creates it: at most this many lanes in all share the jobs")
	return cmd
}

// serveSet expands "all" and checks names.
func serveSet(args []string) ([]role, error) {
	want := map[role]bool{}
	for _, a := range args {
		if a == "all" {
			for _, s := range allRoles() {
				want[s] = true
			}
			continue
		}
		if !slices.Contains(allRoles(), role(a)) {
			return nil, usageErrorf("unknown service %q: want %s or all", a, strings.ReplaceAll(roleNames(allRoles()), "-", ", "))
		}
		want[role(a)] = true
	}
	var out []role
	for _, s := range allRoles() {
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
	case o.jobLease < time.Second || o.jobLanes < 1 || o.workPartitions < 1:
		return usageErrorf("--job-lease %v, --job-lanes %d, --work-partitions %d: want a lease of at least 1s and at least one lane and partition", o.jobLease, o.jobLanes, o.workPartitions)
	}
	if o.keys == "" {
		o.keys = filepath.Join(defaultStateDir(), serviceKeysDir)
	}
	if o.trust == "" {
		o.trust = filepath.Join(o.keys, trustFile)
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s sealgate serve: %s\n", time.Now().UTC().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil)).With("process", "sealgate serve "+roleNames(names))
	// Watermill and kafka-go log through the same structured logger.
	wmLogger := watermill.NewSlogLogger(logger)
	trust, err := loadTrust(o.trust)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(names))
	for _, n := range names {
		ids = append(ids, identityOf(string(n)))
	}
	keys, err := keyring.Load(o.keys, ids...)
	if err != nil {
		return usageErrorf("%v (sealgate keys services writes them)", err)
	}
	// The state is a real directory that outlives the process: the
	// signing service's embedded log and its anchor live there, and must
	// survive a restart.
	state := o.state
	if state == "" {
		dir := roleNames(names)
		if len(names) == len(allRoles()) {
			dir = "all"
		}
		state = filepath.Join(defaultStateDir(), "serve-"+dir)
	}
	if state, err = absState(state); err != nil {
		return err
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		return infraErrorf("--state: %v", err)
	}
	logf("%s: state %s", roleNames(names), state)
	blobs, err := blob.Open(ctx, o.blobs)
	if err != nil {
		return usageErrorf("--blobs: %v", err)
	}
	defer blobs.Close()
	// Both ledger topics are keyed alike (guard.MessageKey), so a run's
	// proposals and records share one partition number.
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{Brokers: o.brokers, PartitionKey: guard.MessageKey}, wmLogger)
	if err != nil {
		return usageErrorf("--brokers: %v", err)
	}
	defer pub.Close()
	proposer := &guard.Proposer{Pub: pub}
	// Every reader of the records topic uses only what the ledger guard
	// admitted, checked against the ledger key of the trust policy.
	admissions := admission.NewVerifier(trust)

	// Scratch trees are this process's own, even when replicas share the
	// state: two replicas run jobs of one run, each in its own trees.
	scratch, releaseScratch, err := processScratch(filepath.Join(state, workDir))
	if err != nil {
		return err
	}
	defer releaseScratch()
	deps := &serviceDeps{blobs: blobs, scratch: scratch, suiteCache: filepath.Join(state, suiteCacheDir), tools: toolsDir(state), bins: binCacheDir(state)}
	if slices.Contains(names, roleExecutor) || slices.Contains(names, roleMutation) {
		mode := map[string]sandbox.Mode{"auto": sandbox.Auto, "bwrap": sandbox.Require, "none": sandbox.None}[o.sandbox]
		if deps.box, err = sandbox.New(ctx, sandbox.Config{Mode: mode}); err != nil {
			return usageErrorf("%v", err)
		}
		if deps.goenv, err = goToolchain(ctx, cmp.Or(o.buildCache, filepath.Join(state, "gocache"))); err != nil {
			return err
		}
	}
	if slices.Contains(names, roleSigning) {
		if o.signingKey == "" && os.Getenv(signingKeyEnv) == "" {
			return usageErrorf("the signing service needs --signing-key FILE or $%s", signingKeyEnv)
		}
		var keySource string
		if deps.signer, keySource, err = loadSigner(o.signingKey, state); err != nil {
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
		var logDesc string
		if deps.tlog, logDesc, err = openLog(ctx, o.tlogKind, o.rekorURL, state, anchors, nil); err != nil {
			return err
		}
		defer deps.tlog.Close()
		kid, _ := deps.signer.KeyID()
		logf("signing: verdicts signed with %s key %.16s… from %s, logged to the %s", deps.signer.Algorithm(), kid, keySource, logDesc)
		if cmp.Or(o.tlogKind, "embedded") == "embedded" {
			logf("signing: the embedded log's key, for sealgate attest verify --log-key: %s", filepath.Join(state, tlogDir, "log.pub"))
		}
	}

	tel, err := telemetry.Setup(ctx, telemetry.Config{Endpoint: o.otlpEndpoint, Insecure: o.otlpInsecure, Service: "sealgate-" + roleNames(names)})
	if err != nil {
		return usageErrorf("--otlp-endpoint: %v", err)
	}
	defer tel.Close(context.WithoutCancel(ctx))

	g := lifecycle.New(ctx)
	defer func() {
		if err := stopGroup(ctx, g); err != nil {
			logf("stop: %v", err)
		}
	}()
	refusalsOf := func(name string) (*runtime.Refusals, error) { return runtime.NewRefusals(name, tel, logf) }

	// The gateway answers at once — NOT_SERVING, and Unavailable to Gate
	// calls — so that probes and clients see it starting, not absent. It
	// turns SERVING once the process has said it is ready (announced is
	// closed after that line), so a probe never sees SERVING first.
	announced := make(chan struct{})
	var gw *gateway.Server
	if slices.Contains(names, roleGateway) {
		signer, err := keys.Signer(identityOf(string(roleGateway)))
		if err != nil {
			return infraErrorf("%v", err)
		}
		refusals, err := refusalsOf(string(roleGateway))
		if err != nil {
			return infraErrorf("%v", err)
		}
		idx, err := gateway.NewIndex(admissions, refusals)
		if err != nil {
			return infraErrorf("%v", err)
		}
		// Runs the feed has not reached are read from their partition.
		idx.WithLookup((&runindex.Locator{Brokers: o.brokers, Starts: runindex.NewStarts(0)}).Lookup(ledger.Topic))
		gw = &gateway.Server{Signer: signer, Appender: proposer, Blobs: blobs, Index: idx, Scratch: deps.scratch, Tracer: tel.Tracer}
		api, err := newGatewayAPI(o.listen, gw, announced)
		if err != nil {
			return err
		}
		if err := g.Go(api.role(logf)); err != nil {
			return infraErrorf("%v", err)
		}
		logf("gateway: Gate API on %s (NOT_SERVING until every service of this process is subscribed)", api.lis.Addr())
	}

	// The broker may be starting with us: wait for it, bounded and
	// logged, then make sure the topics exist.
	err = kafka.WaitForBrokers(ctx, o.brokers, o.brokerWait, logger, func(ctx context.Context) error {
		if err := kafka.Ping(ctx, o.brokers); err != nil {
			return err
		}
		for _, topic := range []string{ledger.Topic, guard.ProposalTopic} {
			if err := kafka.CreateTopic(ctx, o.brokers, topic, o.partitions); err != nil {
				return err
			}
		}
		if slices.Contains(names, roleExecutor) || slices.Contains(names, roleMutation) {
			return kafka.CreateTopic(ctx, o.brokers, work.Topic, o.workPartitions)
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return infraErrorf("%v; start the broker, or give it longer with --broker-wait", err)
	}

	bus := &roleBus{
		subscribe: func(group string) (message.Subscriber, error) {
			return kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: o.brokers, ConsumerGroup: group}, wmLogger)
		},
		appender: proposer,
		history: func(self *record.Signer, refuse func(error)) history {
			return kafkaHistory(o.brokers, self, admissions, refuse)
		},
		admission: admissions,
		refusals:  refusalsOf,
		signer:    func(id string) (*record.Signer, error) { return keys.Signer(id) },
		tel:       tel,
		logger:    logger,
		work:      kafkaWorkBus(o.brokers, pub, admissions, o.jobLease, o.jobLanes, o.replica, wmLogger),
	}
	for _, name := range names {
		switch name {
		case roleLedger:
			if err := startLedgerRole(ctx, g, o, trust, keys, admissions, pub, refusalsOf, tel, logf, wmLogger); err != nil {
				return err
			}
		case roleGateway:
			// No consumer group: the gateway indexes every partition, from
			// the records written once it is up; a run begun before is
			// read from its partition when asked for (Index.Load).
			sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: o.brokers, StartAtEnd: true}, wmLogger)
			if err != nil {
				return infraErrorf("%v", err)
			}
			if err := g.Go(subscribedRole("gateway index", sub, gw.Index.Feed)); err != nil {
				sub.Close()
				return infraErrorf("%v", err)
			}
		default:
			if err := startHandlerRole(ctx, g, name, deps, bus); err != nil {
				return err
			}
		}
		logf("%s: started", name)
	}
	g.AllStarted()
	select {
	case <-g.Ready():
		logf("%s: ready (every subscription is live)", roleNames(names))
		close(announced)
	case err := <-g.Failed():
		logf("stopping: %v", err)
		return infraErrorf("%v", err)
	case <-ctx.Done():
		logf("stopping")
		return nil
	}
	select {
	case <-ctx.Done():
		logf("stopping")
		return nil
	case err := <-g.Failed():
		logf("stopping: %v", err)
		return infraErrorf("%v", err)
	}
}

// startLedgerRole starts this process's guard shard: a member of the
// ledger's consumer group that admits the proposals of the partitions it
// holds into the same partitions of the records topic, rebuilding each
// partition's state from that partition when it is assigned (guard.Shards).
// Any number of processes may run it; their trust policy and keys must be
// the same.
func startLedgerRole(ctx context.Context, g *lifecycle.Group, o *serveOptions, trust *authority.Trust, keys *keyring.Keyring, admissions *admission.Verifier, pub *kafka.Publisher, refusalsOf func(string) (*runtime.Refusals, error), tel *telemetry.Providers, logf func(string, ...any), wm watermill.LoggerAdapter) error {
	name := string(roleLedger)
	signer, err := keys.Signer(identityOf(name))
	if err != nil {
		return infraErrorf("%v", err)
	}
	refusals, err := refusalsOf(name)
	if err != nil {
		return infraErrorf("%v", err)
	}
	// The guard's key signs refusals (in records) and admissions (of
	// every message it writes).
	key, err := keyring.ReadKey(filepath.Join(o.keys, keyring.FileName(keyring.Ledger)))
	if err != nil {
		return usageErrorf("%v", err)
	}
	if _, err := guard.NewStamper(pub, key, nil, admissions); err != nil {
		return usageErrorf("--trust: %v", err)
	}
	parts := kafka.Partitioning{Brokers: o.brokers, Proposals: guard.ProposalTopic, Records: ledger.Topic}
	n, err := parts.Count(ctx)
	if err != nil {
		return infraErrorf("ledger: %v", err)
	}
	logf("ledger: guard shard over %d partitions (the ledger-wide one is %d)", n, parts.Of(guard.LedgerWideKey, n))
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: o.brokers, ConsumerGroup: name}, wm)
	if err != nil {
		return infraErrorf("%v", err)
	}
	gd := &guard.Shards{Trust: trust, Verifier: admissions, Signer: signer, Key: key, Pub: pub, Partitions: parts,
		Refuse: func(err error) { refusals.Refuse(ctx, "", err) },
		Logf:   func(f string, a ...any) { logf("ledger: "+f, a...) }}
	if err := shardMetrics(tel, gd); err != nil {
		sub.Close()
		return infraErrorf("%v", err)
	}
	err = g.Go(subscribedRole(name, sub, func(ctx context.Context, sub message.Subscriber) error {
		gd.Sub = sub
		return gd.Run(ctx)
	}))
	if err != nil {
		sub.Close()
		return infraErrorf("%v", err)
	}
	return nil
}

// shardMetrics exports a guard shard's counts: the records it admitted
// and refused, and the partitions it holds (what a load test reads to see
// admission grow with shards).
func shardMetrics(tel *telemetry.Providers, gd *guard.Shards) error {
	m := tel.Meter.Meter(telemetry.Scope)
	admitted, err := m.Int64ObservableCounter("sealgate.guard.admitted", metric.WithDescription("records this guard shard admitted to the records topic"), metric.WithUnit("{record}"))
	if err != nil {
		return err
	}
	refused, err := m.Int64ObservableCounter("sealgate.guard.refused", metric.WithDescription("signed refusals this guard shard wrote"), metric.WithUnit("{record}"))
	if err != nil {
		return err
	}
	held, err := m.Int64ObservableGauge("sealgate.guard.partitions", metric.WithDescription("partitions whose admission state this guard shard holds"), metric.WithUnit("{partition}"))
	if err != nil {
		return err
	}
	_, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		st := gd.Stats()
		o.ObserveInt64(admitted, int64(st.Admitted))
		o.ObserveInt64(refused, int64(st.Refused))
		o.ObserveInt64(held, int64(len(st.Partitions)))
		return nil
	}, admitted, refused, held)
	return err
}

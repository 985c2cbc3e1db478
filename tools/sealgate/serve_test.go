package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	demorepo "github.com/sealgate/sealgate/demo"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
	"github.com/sealgate/sealgate/services/lifecycle"
)

// syncBuffer is an output a command writes from several goroutines, which
// signals every write.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{wrote: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor returns once the output contains want.
func (b *syncBuffer) waitFor(t *testing.T, want string, done <-chan int) {
	t.Helper()
	for !strings.Contains(b.String(), want) {
		select {
		case <-b.wrote:
		case code := <-done:
			t.Fatalf("exited %d before saying %q:\n%s", code, want, b.String())
		}
	}
}

func freeTCP(t *testing.T) (string, int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String(), l.Addr().(*net.TCPAddr).Port
}

// The gateway started before its broker answers at once, but NOT_SERVING
// (and Unavailable to Gate calls) while it waits for the broker, logging
// the wait; it turns SERVING only once its index's subscription is live.
// Without --state and --keys it uses the state directory, which it prints
// and keeps.
func TestServeGatewayHealthWaitsForItsSubscription(t *testing.T) {
	state := t.TempDir()
	t.Setenv("SEALGATE_STATE", state)
	if code, out, errOut := runCLI(t, "keys", "services"); code != exitOK || !strings.Contains(out, filepath.Join(state, serviceKeysDir, "trust.json")) {
		t.Fatalf("keys services: %d %s%s", code, out, errOut)
	}
	brokers, brokerPort := freeTCP(t)
	listen, _ := freeTCP(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := newSyncBuffer()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "gateway", "--brokers", brokers, "--blobs", filepath.Join(t.TempDir(), "blobs"), "--listen", listen}, &bytes.Buffer{}, stderr)
	}()
	stderr.waitFor(t, "waiting for the Kafka brokers at "+brokers, done)
	if !strings.Contains(stderr.String(), "state "+filepath.Join(state, "serve-gateway")) {
		t.Fatalf("the state directory is not printed:\n%s", stderr)
	}
	conn, err := grpc.NewClient(listen, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	watch, err := healthpb.NewHealthClient(conn).Watch(ctx, &healthpb.HealthCheckRequest{Service: pb.Gate_ServiceDesc.ServiceName})
	if err != nil {
		t.Fatal(err)
	}
	first, err := watch.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("health before the broker: %s", first.Status)
	}
	_, err = pb.NewGateClient(conn).Get(ctx, &pb.GetRequest{RunId: "run-x"})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("a Gate call before the subscription: %v, want Unavailable", err)
	}
	// The broker comes up on the address the gateway waits for.
	c, err := kfake.NewCluster(kfake.Ports(brokerPort))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	next, err := watch.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if next.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health after the subscription: %s", next.Status)
	}
	if !strings.Contains(stderr.String(), "ready (every subscription is live)") {
		t.Fatalf("SERVING before the process said it was ready:\n%s", stderr)
	}
	// The honest twin of the Unavailable above: now the Gate answers.
	if _, err := pb.NewGateClient(conn).Get(ctx, &pb.GetRequest{RunId: "run-x"}); status.Code(err) == codes.Unavailable {
		t.Fatalf("a Gate call once SERVING: %v", err)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d on cancel:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(state, "serve-gateway", "work")); err != nil {
		t.Fatalf("the state directory was not kept: %v", err)
	}
}

// With nothing at the address, the broker wait is bounded and says what
// to do.
func TestServeBrokerWaitIsBounded(t *testing.T) {
	state := t.TempDir()
	t.Setenv("SEALGATE_STATE", state)
	if code, _, errOut := runCLI(t, "keys", "services"); code != exitOK {
		t.Fatal(errOut)
	}
	brokers, _ := freeTCP(t)
	code, _, errOut := runCLI(t, "serve", "checkout", "--brokers", brokers, "--blobs", t.TempDir(), "--broker-wait", "500ms")
	if code != exitNoProof || !strings.Contains(errOut, "no broker at "+brokers+" answered within 500ms") || !strings.Contains(errOut, "--broker-wait") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
}

// verify --remote to an address where nothing answers says so at its
// first attempt and keeps retrying, instead of waiting silently.
func TestRemoteSaysNothingAnswers(t *testing.T) {
	r, err := demorepo.Build(context.Background(), filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := freeTCP(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := newSyncBuffer()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"verify", "--remote", addr, "--repo", r.Dir, "--base", r.Base, "--patch", r.Patches[0].Commit, "--claim", r.Patches[0].Claims[0]}, &bytes.Buffer{}, stderr)
	}()
	stderr.waitFor(t, "no gateway answers at "+addr+" yet (", done)
	if !strings.Contains(stderr.String(), "retrying — is `sealgate serve gateway` running?") {
		t.Fatalf("stderr: %s", stderr)
	}
	select {
	case code := <-done:
		t.Fatalf("gave up at once (exit %d): %s", code, stderr)
	default:
	}
	cancel()
	if code := <-done; code == exitOK {
		t.Fatalf("exit 0 without a gateway")
	}
}

// keys services without --out writes to the state directory, never to the
// working directory (a repository's root).
func TestKeysServicesDefaultsToTheStateDirectory(t *testing.T) {
	state, cwd := t.TempDir(), t.TempDir()
	t.Setenv("SEALGATE_STATE", state)
	t.Chdir(cwd)
	code, out, errOut := runCLI(t, "keys", "services")
	if code != exitOK {
		t.Fatalf("keys services: %d %s", code, errOut)
	}
	want := filepath.Join(state, serviceKeysDir)
	for _, id := range []string{"sealgate/ledger", "sealgate/signing", "trust policy"} {
		if !strings.Contains(out, id) {
			t.Fatalf("keys services does not name %s:\n%s", id, out)
		}
	}
	if _, err := os.Stat(filepath.Join(want, trustFile)); err != nil {
		t.Fatalf("no trust policy in the state: %v", err)
	}
	if ents, _ := os.ReadDir(cwd); len(ents) != 0 {
		t.Fatalf("keys services wrote %d entries into the working directory", len(ents))
	}
	// The honest twin: --out still writes where it is told.
	other := filepath.Join(cwd, "keys")
	if code, _, errOut := runCLI(t, "keys", "services", "--out", other); code != exitOK {
		t.Fatalf("keys services --out: %s", errOut)
	}
	if _, err := os.Stat(filepath.Join(other, trustFile)); err != nil {
		t.Fatal(err)
	}
}

// A role that fails to start stops the others cleanly: the gateway's API
// never turns SERVING, and after the drain nothing listens any more.
func TestLifecycleAFailedRoleStopsTheGateway(t *testing.T) {
	ctx := context.Background()
	g := lifecycle.New(ctx)
	api, err := newGatewayAPI("127.0.0.1:0", &gateway.Server{}, g.Ready())
	if err != nil {
		t.Fatal(err)
	}
	addr := api.lis.Addr().String()
	if err := g.Go(api.role(func(string, ...any) {})); err != nil {
		t.Fatal(err)
	}
	cause := errors.New("subscribe: Broker Not Available")
	g.Go(lifecycle.Role{Name: "checkout", Run: func(context.Context, func()) error { return cause }})
	g.AllStarted()
	if err := g.WaitReady(ctx); !errors.Is(err, cause) {
		t.Fatalf("WaitReady = %v", err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hc := healthpb.NewHealthClient(conn)
	resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: pb.Gate_ServiceDesc.ServiceName})
	if err == nil && resp.Status == healthpb.HealthCheckResponse_SERVING {
		t.Fatal("the gateway is SERVING although a role of its process failed")
	}
	if err := stopGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("%s still listens after the drain", addr)
	}
}

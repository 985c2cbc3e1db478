package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/runindex"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
)

// newGatewayCluster starts the dev broker, the ledger guard and n
// gateways, each its own `sealgate serve` process: what a submission
// needs to be admitted (nothing runs it further).
func newGatewayCluster(t *testing.T, n int) (*cluster, []string) {
	t.Helper()
	needBinary(t)
	broker := buildDevbroker(t)
	c := &cluster{dir: t.TempDir(), brokers: freePort(t), procs: map[string][]*proc{}}
	keys := filepath.Join(c.dir, "keys")
	if out, err := exec.Command(binary, "keys", "services", "--out", keys).CombinedOutput(); err != nil {
		t.Fatalf("sealgate keys services: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		c.stop()
		if t.Failed() {
			c.dump(t)
		}
	})
	c.add(t, "broker", []string{broker, "--listen", c.brokers, "--data-dir", filepath.Join(c.dir, "kafka")})
	waitTCP(t, c.brokers)
	common := func(name string, i int) []string {
		return []string{binary, "serve", name, "--brokers", c.brokers, "--blobs", filepath.Join(c.dir, "blobs"),
			"--keys", keys, "--trust", filepath.Join(keys, "trust.json"), "--state", filepath.Join(c.dir, fmt.Sprintf("state-%s-%d", name, i))}
	}
	c.add(t, "ledger", common("ledger", 0))
	var addrs []string
	for i := range n {
		addr := freePort(t)
		c.add(t, "gateway", append(common("gateway", i), "--listen", addr))
		addrs = append(addrs, addr)
	}
	for _, a := range addrs {
		waitTCP(t, a)
	}
	return c, addrs
}

// submit submits in to the gateway at addr, waiting while it answers
// Unavailable (starting, restarting): the answer, or the first other error.
func submit(t *testing.T, addr string, in *pb.SubmitRequest) (*pb.SubmitResponse, error) {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	gate := pb.NewGateClient(conn)
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		resp, err := gate.Submit(ctx, in)
		cancel()
		if status.Code(err) != codes.Unavailable || time.Now().After(deadline) {
			return resp, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// getRun asks the gateway at addr for runID (Get), waiting while it
// answers Unavailable.
func getRun(t *testing.T, addr, runID string) *pb.GetResponse {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		resp, err := pb.NewGateClient(conn).Get(ctx, &pb.GetRequest{RunId: runID})
		cancel()
		if err == nil {
			return resp
		}
		if status.Code(err) != codes.Unavailable || time.Now().After(deadline) {
			t.Fatalf("Get %s: %v", runID, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// requested counts the run.requested records admitted for runID.
func (c *cluster) requested(t *testing.T, runID string) int {
	t.Helper()
	n := 0
	for _, r := range c.records(t, runID) {
		if r.Kind == pb.Kind_KIND_RUN_REQUESTED {
			n++
		}
	}
	return n
}

// An idempotency key outlives the gateway: submitted, the gateway killed
// (SIGKILL) and restarted, the same submission with the same key is the
// same run — one run.requested on the ledger. The attacks: the same key
// with another patch is refused (FailedPrecondition), never answered with
// the first run; two gateways racing on one key open one run; racing with
// two different submissions, one wins and the other is refused.
func TestIdempotencyKeyOutlivesTheGateway(t *testing.T) {
	r := newRepo(t)
	fix, broken := r.patch(t, "honest-fix"), r.patch(t, "breaks-a-test")
	c, gws := newGatewayCluster(t, 2)
	request := func(key, patch string, claims []string) *pb.SubmitRequest {
		opts, err := (&gateway.Request{Claims: claims, TimeoutMillis: 10 * 60 * 1000, StrengthConfidence: criteria.DefaultStrengthConfidence}).Options()
		if err != nil {
			t.Fatal(err)
		}
		return &pb.SubmitRequest{Repository: r.Dir, Baseline: r.Base, Patch: &pb.SubmitRequest_PatchCommit{PatchCommit: patch},
			Criteria: opts, IdempotencyKey: key}
	}
	key := runindex.NewKey(time.Now())
	in := request(key, fix.Commit, fix.Claims)
	first, err := submit(t, gws[0], in)
	if err != nil {
		t.Fatal(err)
	}
	if first.RunId != runindex.KeyedID(key) {
		t.Fatalf("run id %s, want the key's %s", first.RunId, runindex.KeyedID(key))
	}
	// A key that carries no time: its run is looked up from its
	// partition's start.
	plainKey := "no-time-" + fmt.Sprint(time.Now().UnixNano())
	plain, err := submit(t, gws[0], request(plainKey, fix.Commit, fix.Claims))
	if err != nil {
		t.Fatal(err)
	}
	c.procs["gateway"][0].kill(t, syscall.SIGKILL)
	// The restarted gateway's feed reads only what is written after it
	// started: both runs are found on their partitions, not in memory.
	again, err := submit(t, gws[0], in)
	if err != nil {
		t.Fatalf("resubmission after the restart: %v", err)
	}
	if again.RunId != first.RunId || again.CriteriaDigest != first.CriteriaDigest {
		t.Fatalf("after the restart the same submission is run %s (%.12s), first run %s (%.12s)", again.RunId, again.CriteriaDigest, first.RunId, first.CriteriaDigest)
	}
	if again, err := submit(t, gws[0], request(plainKey, fix.Commit, fix.Claims)); err != nil || again.RunId != plain.RunId {
		t.Fatalf("after the restart, the key without a time: %v, %v; want run %s", again, err, plain.RunId)
	}
	if got := getRun(t, gws[0], first.RunId); got.GetRunId() != first.RunId {
		t.Fatalf("after the restart, Get of run %s: %v", first.RunId, got)
	}
	// A key whose time is far ahead of the gateway's clock would hide its
	// run from the partition read: refused before anything is proposed.
	ahead := runindex.NewKey(time.Now().Add(2 * time.Hour))
	if resp, err := submit(t, gws[0], request(ahead, fix.Commit, fix.Claims)); status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "ahead of the gateway's clock") {
		t.Fatalf("a key two hours ahead: %v, %v; want InvalidArgument", resp, err)
	}
	if n := c.requested(t, runindex.KeyedID(ahead)); n != 0 {
		t.Fatalf("a key two hours ahead: %d run.requested on the ledger, want 0", n)
	}
	// The other gateway, which never saw the first submission, agrees.
	if other, err := submit(t, gws[1], in); err != nil || other.RunId != first.RunId {
		t.Fatalf("the other gateway answers %v, %v; want run %s", other, err, first.RunId)
	}
	// The same key, another patch: refused, on both gateways.
	for _, gw := range gws {
		resp, err := submit(t, gw, request(key, broken.Commit, broken.Claims))
		if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "different submission") {
			t.Fatalf("the same key with another patch: %v, %v; want FailedPrecondition", resp, err)
		}
	}
	if n := c.requested(t, first.RunId); n != 1 {
		t.Fatalf("run %s has %d run.requested on the ledger, want 1", first.RunId, n)
	}

	// Two gateways race on one key with the same submission: one run.
	race := func(a, b *pb.SubmitRequest) [2]error {
		var wg sync.WaitGroup
		var errs [2]error
		var resps [2]*pb.SubmitResponse
		for i, in := range []*pb.SubmitRequest{a, b} {
			wg.Go(func() { resps[i], errs[i] = submit(t, gws[i], in) })
		}
		wg.Wait()
		if errs[0] == nil && errs[1] == nil && (resps[0].RunId != resps[1].RunId || resps[0].CriteriaDigest != resps[1].CriteriaDigest) {
			t.Fatalf("racing gateways answered %v and %v", resps[0], resps[1])
		}
		return errs
	}
	same := runindex.NewKey(time.Now())
	if errs := race(request(same, fix.Commit, fix.Claims), request(same, fix.Commit, fix.Claims)); errs[0] != nil || errs[1] != nil {
		t.Fatalf("racing with one submission: %v", errs)
	}
	if n := c.requested(t, runindex.KeyedID(same)); n != 1 {
		t.Fatalf("racing with one submission: %d run.requested on the ledger, want 1", n)
	}
	// Racing with two different submissions: one wins, one is refused.
	diff := runindex.NewKey(time.Now())
	errs := race(request(diff, fix.Commit, fix.Claims), request(diff, broken.Commit, broken.Claims))
	won, refused := 0, 0
	for _, err := range errs {
		switch status.Code(err) {
		case codes.OK:
			won++
		case codes.FailedPrecondition:
			refused++
		default:
			t.Fatalf("racing with two submissions: %v", err)
		}
	}
	if won != 1 || refused != 1 {
		t.Fatalf("racing with two submissions: %d won, %d refused; want one each (%v)", won, refused, errs)
	}
	if n := c.requested(t, runindex.KeyedID(diff)); n != 1 {
		t.Fatalf("racing with two submissions: %d run.requested on the ledger, want 1", n)
	}

	// The ledger guard away (stopped): attempts time out after the gateway
	// proposed; the client retries. Each attempt proposes the same bytes
	// (the run starts at the key's time), so the guard, back, admits one
	// run.requested and refuses nothing.
	guardProc := c.procs["ledger"][0]
	guardProc.kill(t, syscall.SIGSTOP)
	away := runindex.NewKey(time.Now())
	conn, err := grpc.NewClient(gws[0], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, err := pb.NewGateClient(conn).Submit(ctx, request(away, fix.Commit, fix.Claims))
		cancel()
		if code := status.Code(err); code != codes.DeadlineExceeded && code != codes.Unavailable {
			t.Fatalf("with the guard away: %v, want a timeout", err)
		}
	}
	guardProc.kill(t, syscall.SIGCONT)
	if resp, err := submit(t, gws[0], request(away, fix.Commit, fix.Claims)); err != nil || resp.RunId != runindex.KeyedID(away) {
		t.Fatalf("after the guard came back: %v, %v", resp, err)
	}
	for _, r := range c.records(t, runindex.KeyedID(away)) {
		if rf := r.Record.GetRecordRefused(); rf != nil {
			t.Fatalf("a retry was refused: %s %s", rf.ReasonCode, rf.Detail)
		}
	}
	if n := c.requested(t, runindex.KeyedID(away)); n != 1 {
		t.Fatalf("retries with the guard away: %d run.requested on the ledger, want 1", n)
	}
}

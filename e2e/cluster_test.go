package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// devbroker is the dev Kafka-protocol broker binary, built on first use.
var devbroker struct {
	once sync.Once
	path string
	err  error
}

func buildDevbroker(t testing.TB) string {
	t.Helper()
	devbroker.once.Do(func() {
		dir, err := os.MkdirTemp("", "sealgate-devbroker-")
		if err != nil {
			devbroker.err = err
			return
		}
		devbroker.path = filepath.Join(dir, "devbroker")
		out, err := exec.Command("go", "build", "-o", devbroker.path, "github.com/sealgate/sealgate/tools/devbroker").CombinedOutput()
		if err != nil {
			devbroker.err = fmt.Errorf("go build devbroker: %v\n%s", err, out)
		}
	})
	if devbroker.err != nil {
		t.Fatal(devbroker.err)
	}
	return devbroker.path
}

func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// proc is one supervised process: when it exits, the supervisor starts it
// again, as Kubernetes restarts a container, until the cluster stops.
type proc struct {
	name string
	argv []string
	log  string

	mu       sync.Mutex
	cmd      *exec.Cmd
	restarts int
	stopped  bool
	exited   chan struct{}
}

func (p *proc) start(t testing.TB) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", p.name, err)
	}
	p.cmd = cmd
	exited := make(chan struct{})
	p.exited = exited
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(exited)
		p.mu.Lock()
		stopped := p.stopped
		p.mu.Unlock()
		if stopped {
			return
		}
		time.Sleep(300 * time.Millisecond)
		p.mu.Lock()
		if !p.stopped && p.cmd == cmd {
			p.restarts++
			p.mu.Unlock()
			p.start(t)
			return
		}
		p.mu.Unlock()
	}()
}

// kill sends sig to the current process and waits until it has exited
// (the supervisor then starts it again).
func (p *proc) kill(t testing.TB, sig syscall.Signal) {
	t.Helper()
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %s: %v", p.name, err)
	}
	if sig == syscall.SIGSTOP || sig == syscall.SIGCONT {
		return
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not exit after %v", p.name, sig)
	}
}

func (p *proc) stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGCONT)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// cluster is a dev Kafka broker and every sealgate service as its own
// process, two executor replicas among them.
type cluster struct {
	dir, brokers, gateway string
	verdictKey            string
	procs                 map[string][]*proc
	order                 []*proc
}

// serviceReplicas are the services a cluster runs, with their replica
// counts.
var serviceReplicas = []struct {
	name     string
	replicas int
}{{"ledger", 1}, {"gateway", 1}, {"checkout", 1}, {"executor", 2}, {"reach", 1}, {"mutation", 1}, {"adjudication", 1}, {"signing", 1}}

func newCluster(t *testing.T, extra ...string) *cluster {
	t.Helper()
	needBinary(t)
	return newClusterWith(t, 2, extra...)
}

// newClusterWith starts a cluster with the given number of executor
// replicas; extra flags go to every service.
func newClusterWith(t testing.TB, executors int, extra ...string) *cluster {
	t.Helper()
	broker := buildDevbroker(t)
	c := &cluster{dir: t.TempDir(), brokers: freePort(t), gateway: freePort(t), procs: map[string][]*proc{}}
	keys := filepath.Join(c.dir, "keys")
	vk := filepath.Join(c.dir, "verdict")
	for _, args := range [][]string{{"keys", "services", "--out", keys}, {"keys", "generate", "--out", vk}} {
		if out, err := exec.Command(binary, args...).CombinedOutput(); err != nil {
			t.Fatalf("sealgate %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	c.verdictKey = filepath.Join(vk, "verdict.pub")
	t.Cleanup(func() {
		c.stop()
		if t.Failed() {
			c.dump(t)
		}
	})
	c.add(t, "broker", []string{broker, "--listen", c.brokers, "--data-dir", filepath.Join(c.dir, "kafka")})
	waitTCP(t, c.brokers)
	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	for _, s := range serviceReplicas {
		replicas := s.replicas
		if s.name == "executor" {
			replicas = executors
		}
		for i := range replicas {
			argv := []string{binary, "serve", s.name, "--brokers", c.brokers, "--blobs", filepath.Join(c.dir, "blobs"),
				"--keys", keys, "--trust", filepath.Join(keys, "trust.json"), "--state", filepath.Join(c.dir, fmt.Sprintf("state-%s-%d", s.name, i)),
				"--build-cache", cache}
			argv = append(argv, extra...)
			switch s.name {
			case "gateway":
				argv = append(argv, "--listen", c.gateway)
			case "signing":
				argv = append(argv, "--signing-key", filepath.Join(vk, "verdict.key"))
			}
			c.add(t, s.name, argv)
		}
	}
	waitTCP(t, c.gateway)
	return c
}

// stop stops every process, services before the broker.
func (c *cluster) stop() {
	for i := len(c.order) - 1; i >= 0; i-- {
		c.order[i].stop()
	}
}

func (c *cluster) add(t testing.TB, name string, argv []string) {
	t.Helper()
	p := &proc{name: name, argv: argv, log: filepath.Join(c.dir, fmt.Sprintf("%s-%d.log", name, len(c.procs[name])))}
	p.start(t)
	c.procs[name] = append(c.procs[name], p)
	c.order = append(c.order, p)
}

// logKey is the embedded log's key of the signing service.
func (c *cluster) logKey() string {
	return filepath.Join(c.dir, "state-signing-0", "tlog", "log.pub")
}

// dump logs the last lines of every process's log but kafka-go's
// reconnection noise (a broker restart fills a log with it), counted.
func (c *cluster) dump(t testing.TB) {
	for _, p := range c.order {
		b, _ := os.ReadFile(p.log)
		var lines []string
		noise := 0
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if reconnectNoise(l) {
				noise++
				continue
			}
			lines = append(lines, l)
		}
		if len(lines) > 25 {
			lines = lines[len(lines)-25:]
		}
		t.Logf("--- %s (restarts %d, %d kafka-go reconnection lines left out) ---\n%s", p.log, p.restarts, noise, strings.Join(lines, "\n"))
	}
}

// reconnectNoise reports a kafka-go line about a connection lost or
// refused, which a reader or a group retries on its own.
func reconnectNoise(line string) bool {
	for _, s := range []string{"the kafka reader got an unknown error reading partition", "error initializing the kafka reader", "Unable to establish connection to consumer group coordinator"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

func waitTCP(t testing.TB, addr string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s after 60s", addr)
}

// remote runs `sealgate verify --remote` against the cluster, in the
// background; wait returns the finished run.
func (c *cluster) remote(t testing.TB, args ...string) func() *run {
	t.Helper()
	out := filepath.Join(t.TempDir(), "artefact.json")
	full := append([]string{"verify", "--remote", c.gateway, "--out", out}, args...)
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
	cmd := exec.CommandContext(ctx, binary, full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	return func() *run {
		defer cancel()
		err := cmd.Wait()
		r := &run{args: full, stdout: stdout.String(), stderr: stderr.String()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.exitCode = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("verify --remote: %v\n%s", err, r)
		}
		return r
	}
}

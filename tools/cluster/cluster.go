// Package cluster starts a development cluster of sealgate on one machine:
// the dev Kafka-protocol broker (tools/devbroker) and one `sealgate serve`
// process per replica of every service, each supervised — started again
// when it exits, as Kubernetes restarts a container — until the cluster
// stops. The load generator (tools/loadgen) drives it; its processes can be
// killed at will to see what the services make of it.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Services are the services of a cluster, in the order they start.
func Services() []string {
	return []string{"ledger", "gateway", "checkout", "executor", "reach", "mutation", "adjudication", "signing"}
}

// restartPause is how long a supervisor waits before it starts an exited
// process again.
const restartPause = 300 * time.Millisecond

// Config says what to start.
type Config struct {
	// Sealgate and Devbroker are the two binaries (see Build).
	Sealgate, Devbroker string
	// Dir holds the cluster's keys, blobs, state directories and logs; it
	// must exist.
	Dir string
	// Replicas is the replica count per service; a service it does not name
	// runs once.
	Replicas map[string]int
	// Partitions of the topics; zero means serve's default.
	Partitions int
	// Extra flags go to every service.
	Extra []string
	// Log hears about starts, exits and restarts; nil is silent.
	Log *slog.Logger
}

// Cluster is a running cluster.
type Cluster struct {
	// Brokers and Gateway are the addresses to talk to.
	Brokers, Gateway string
	// Dir is Config.Dir; Keys the services' key directory.
	Dir, Keys string
	log       *slog.Logger
	procs     []*Proc
}

// Build builds the sealgate and devbroker binaries into dir from the module
// the working directory is in.
func Build(ctx context.Context, dir string) (sealgate, devbroker string, err error) {
	sealgate, devbroker = filepath.Join(dir, "sealgate"), filepath.Join(dir, "devbroker")
	for bin, pkg := range map[string]string{sealgate: "github.com/sealgate/sealgate/tools/sealgate", devbroker: "github.com/sealgate/sealgate/tools/devbroker"} {
		out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput()
		if err != nil {
			return "", "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
		}
	}
	return sealgate, devbroker, nil
}

// Start starts the broker, makes the services' keys and starts every
// service, then waits until the gateway's Gate service reports SERVING (its
// subscriptions are live) or ctx ends. On error, what was started is
// stopped.
func Start(ctx context.Context, cfg Config) (c *Cluster, err error) {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c = &Cluster{Dir: cfg.Dir, Keys: filepath.Join(cfg.Dir, "keys"), log: log}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	if c.Brokers, err = freePort(); err != nil {
		return nil, err
	}
	if c.Gateway, err = freePort(); err != nil {
		return nil, err
	}
	vk := filepath.Join(cfg.Dir, "verdict")
	for _, args := range [][]string{{"keys", "services", "--out", c.Keys}, {"keys", "generate", "--out", vk}} {
		if out, err := exec.CommandContext(ctx, cfg.Sealgate, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("sealgate %s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	broker := []string{cfg.Devbroker, "--listen", c.Brokers, "--data-dir", filepath.Join(cfg.Dir, "kafka")}
	if cfg.Partitions > 0 {
		broker = append(broker, "--partitions", fmt.Sprint(cfg.Partitions))
	}
	if err := c.add("broker", 0, broker); err != nil {
		return nil, err
	}
	if err := waitTCP(ctx, c.Brokers); err != nil {
		return nil, err
	}
	cache := filepath.Join(cfg.Dir, "gocache")
	for _, s := range Services() {
		n, ok := cfg.Replicas[s]
		if !ok {
			n = 1
		}
		for i := range n {
			argv := []string{cfg.Sealgate, "serve", s, "--brokers", c.Brokers, "--blobs", filepath.Join(cfg.Dir, "blobs"),
				"--keys", c.Keys, "--trust", filepath.Join(c.Keys, "trust.json"),
				"--state", filepath.Join(cfg.Dir, fmt.Sprintf("state-%s-%d", s, i)), "--build-cache", cache}
			if cfg.Partitions > 0 {
				argv = append(argv, "--partitions", fmt.Sprint(cfg.Partitions))
			}
			argv = append(argv, cfg.Extra...)
			switch s {
			case "gateway":
				argv = append(argv, "--listen", c.Gateway)
			case "signing":
				argv = append(argv, "--signing-key", filepath.Join(vk, "verdict.key"))
			}
			if err := c.add(s, i, argv); err != nil {
				return nil, err
			}
		}
	}
	if err := waitServing(ctx, c.Gateway); err != nil {
		return nil, err
	}
	return c, nil
}

// Procs returns the cluster's processes, the broker's first; service "" is
// every one.
func (c *Cluster) Procs(service string) []*Proc {
	if service == "" {
		return slices.Clone(c.procs)
	}
	var out []*Proc
	for _, p := range c.procs {
		if p.Service == service {
			out = append(out, p)
		}
	}
	return out
}

// Stop stops every process, services before the broker.
func (c *Cluster) Stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		c.procs[i].stop()
	}
}

// Tail returns the last n lines of every process's log, for a report of a
// failure.
func (c *Cluster) Tail(n int) string {
	var b strings.Builder
	for _, p := range c.procs {
		data, _ := os.ReadFile(p.Log)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > n {
			lines = lines[len(lines)-n:]
		}
		fmt.Fprintf(&b, "--- %s (restarts %d) ---\n%s\n", p.Log, p.Restarts(), strings.Join(lines, "\n"))
	}
	return b.String()
}

func (c *Cluster) add(service string, index int, argv []string) error {
	p := &Proc{Service: service, Index: index, argv: argv, log: c.log,
		Log: filepath.Join(c.Dir, fmt.Sprintf("%s-%d.log", service, index))}
	if err := p.start(); err != nil {
		return err
	}
	c.procs = append(c.procs, p)
	return nil
}

// Proc is one supervised process: when it exits, it is started again until
// the cluster stops.
type Proc struct {
	Service string
	Index   int
	// Log is the file its stdout and stderr go to, across restarts.
	Log  string
	argv []string
	log  *slog.Logger

	mu       sync.Mutex
	cmd      *exec.Cmd
	exited   chan struct{}
	restarts int
	stopped  bool
}

// Name is the service and the replica's index, "executor-1".
func (p *Proc) Name() string { return fmt.Sprintf("%s-%d", p.Service, p.Index) }

// Restarts counts how often the process was started again.
func (p *Proc) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

func (p *Proc) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.Name(), err)
	}
	p.cmd = cmd
	exited := make(chan struct{})
	p.exited = exited
	go p.supervise(cmd, f, exited)
	return nil
}

// supervise waits for cmd and starts the process again unless it was
// stopped.
func (p *Proc) supervise(cmd *exec.Cmd, f *os.File, exited chan struct{}) {
	err := cmd.Wait()
	f.Close()
	close(exited)
	p.mu.Lock()
	stopped := p.stopped
	p.mu.Unlock()
	if stopped {
		return
	}
	p.log.Info("process exited; starting it again", "proc", p.Name(), "err", err)
	time.Sleep(restartPause)
	p.mu.Lock()
	if p.stopped || p.cmd != cmd {
		p.mu.Unlock()
		return
	}
	p.restarts++
	p.mu.Unlock()
	if err := p.start(); err != nil {
		p.log.Error("could not start the process again", "proc", p.Name(), "err", err)
	}
}

// Kill sends sig to the running process and, unless sig only stops or
// continues it, waits up to 30 s for it to exit (the supervisor then starts
// it again).
func (p *Proc) Kill(sig syscall.Signal) error {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return fmt.Errorf("%s has not started", p.Name())
	}
	if err := cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("signal %s: %w", p.Name(), err)
	}
	if sig == syscall.SIGSTOP || sig == syscall.SIGCONT {
		return nil
	}
	select {
	case <-exited:
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("%s did not exit after %v", p.Name(), sig)
	}
}

func (p *Proc) stop() {
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

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitTCP waits until something listens on addr, up to a minute.
func waitTCP(ctx context.Context, addr string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		conn, err := (&net.Dialer{Timeout: time.Second}).DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nothing listens on %s: %w", addr, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitServing waits, up to three minutes, until the gateway at addr
// reports its Gate service SERVING.
func waitServing(ctx context.Context, addr string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	health := healthpb.NewHealthClient(conn)
	var last error
	for {
		cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
		resp, err := health.Check(cctx, &healthpb.HealthCheckRequest{Service: pb.Gate_ServiceDesc.ServiceName})
		ccancel()
		switch {
		case err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING:
			return nil
		case err == nil:
			last = fmt.Errorf("health %s", resp.GetStatus())
		default:
			last = err
		}
		select {
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("the gateway at %s is not serving", addr), last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

package lifecycle

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// serving is a role that becomes ready when told and serves until its
// context ends; stopped is closed when it has returned.
type serving struct {
	name    string
	live    chan struct{}
	stopped chan struct{}
}

func newServing(name string) *serving {
	return &serving{name: name, live: make(chan struct{}), stopped: make(chan struct{})}
}

func (s *serving) role() Role {
	return Role{Name: s.name, Run: func(ctx context.Context, ready func()) error {
		defer close(s.stopped)
		select {
		case <-s.live:
			ready()
		case <-ctx.Done():
			return nil
		}
		<-ctx.Done()
		return nil
	}}
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func TestReadyOnlyOnceEveryRoleIsLive(t *testing.T) {
	g := New(context.Background())
	a, b := newServing("a"), newServing("b")
	for _, s := range []*serving{a, b} {
		if err := g.Go(s.role()); err != nil {
			t.Fatal(err)
		}
	}
	close(a.live)
	close(b.live)
	// Both are live, but more roles may come: not ready yet.
	c := newServing("c")
	if err := g.Go(c.role()); err != nil {
		t.Fatal(err)
	}
	g.AllStarted()
	if isClosed(g.Ready()) {
		t.Fatal("ready before c's subscription is live")
	}
	close(c.live)
	if err := g.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := g.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*serving{a, b, c} {
		if !isClosed(s.stopped) {
			t.Fatalf("%s still running after Stop", s.name)
		}
	}
}

func TestAFailedRoleStopsTheOthers(t *testing.T) {
	g := New(context.Background())
	a, b := newServing("a"), newServing("b")
	close(a.live)
	g.Go(a.role())
	g.Go(b.role()) // never ready
	boom := errors.New("broker refused the subscription")
	g.Go(Role{Name: "bad", Run: func(context.Context, func()) error { return boom }})
	g.AllStarted()
	err := g.WaitReady(context.Background())
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "bad: ") {
		t.Fatalf("WaitReady = %v, want bad's failure", err)
	}
	// The failure is still on the one error channel for the watcher.
	if got := <-g.Failed(); !errors.Is(got, boom) {
		t.Fatalf("Failed = %v", got)
	}
	<-a.stopped
	<-b.stopped
	if err := g.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if isClosed(g.Ready()) {
		t.Fatal("a group with a failed role reported ready")
	}
}

// A role that returns on its own, even without an error, has failed: a
// subscription that ended is no longer serving.
func TestARoleThatEndsOnItsOwnIsAFailure(t *testing.T) {
	g := New(context.Background())
	a := newServing("a")
	g.Go(a.role())
	g.Go(Role{Name: "quitter", Run: func(context.Context, func()) error { return nil }})
	err := <-g.Failed()
	if err == nil || !strings.Contains(err.Error(), "quitter: stopped before it was asked to") {
		t.Fatalf("Failed = %v", err)
	}
	<-a.stopped
	g.Stop(context.Background())
}

// The honest twin: roles that return nil because Stop asked are no failure.
func TestStopIsNoFailure(t *testing.T) {
	g := New(context.Background())
	a := newServing("a")
	close(a.live)
	g.Go(a.role())
	g.AllStarted()
	if err := g.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := g.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-g.Failed():
		t.Fatalf("Stop reported as a failure: %v", err)
	default:
	}
	if err := g.Go(newServing("late").role()); err == nil {
		t.Fatal("a role started after Stop")
	}
}

func TestDrainClosesWhatRunServesFromLastFirst(t *testing.T) {
	g := New(context.Background())
	var mu sync.Mutex
	var order []string
	for _, name := range []string{"ledger", "gateway", "signing"} {
		closed := make(chan struct{})
		g.Go(Role{Name: name,
			// Ignores its context: only closing its source ends it, as
			// with a gRPC server.
			Run: func(_ context.Context, ready func()) error { ready(); <-closed; return nil },
			Drain: func(context.Context) error {
				mu.Lock()
				order = append(order, name)
				mu.Unlock()
				close(closed)
				return nil
			}})
	}
	g.AllStarted()
	if err := g.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ","); got != "signing,gateway,ledger" {
		t.Fatalf("drain order %s", got)
	}
}

// A role that does not stop is named when the drain's bound ends, and
// Stop returns instead of hanging.
func TestStopIsBoundedByItsContext(t *testing.T) {
	g := New(context.Background())
	release := make(chan struct{})
	defer close(release)
	g.Go(Role{Name: "stuck", Run: func(_ context.Context, ready func()) error { ready(); <-release; return nil }})
	a := newServing("a")
	close(a.live)
	g.Go(a.role())
	g.AllStarted()
	if err := g.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The drain's bound is already over: Stop must not wait for stuck.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := g.Stop(ctx)
	<-a.stopped
	if err == nil || !strings.Contains(err.Error(), "stuck still running") {
		t.Fatalf("Stop = %v, want it to name the stuck role", err)
	}
}

// Package lifecycle runs the roles of one process — the services of
// `sealgate verify` in process, or those `sealgate serve` was asked for —
// under one lifecycle: start, ready, drain, stop.
//
// A Group owns every role's goroutine: it starts each as it is added, says
// when all of them are ready (their subscriptions live), hands back the
// first failure on its one error channel, and on Stop drains them (cancels
// their context, closes what they hold) and waits for every goroutine to
// end, bounded only by the caller's context. A role that fails stops the
// others through the same path.
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Role is one part of a process.
type Role struct {
	// Name says which role it is in errors and logs.
	Name string
	// Run serves until ctx ends, then returns nil. It calls ready once
	// the role is live (a subscription that receives every record from
	// then on, a listener that answers); a role that returns before ctx
	// ends has failed, even with a nil error.
	Run func(ctx context.Context, ready func()) error
	// Drain, optional, is called once Run's context is cancelled, with
	// the stop context whose deadline bounds the drain: it closes what
	// Run serves from (a subscriber, a gRPC server) so that Run returns.
	Drain func(ctx context.Context) error
}

// Group is the roles of one process. Its zero value is not usable: New.
type Group struct {
	ctx    context.Context
	cancel context.CancelFunc

	wg     sync.WaitGroup
	failed chan error
	ready  chan struct{}

	mu       sync.Mutex
	roles    []Role
	pending  int
	sealed   bool
	stopping bool
	running  map[string]int
}

// New returns an empty group whose roles run under ctx.
func New(ctx context.Context) *Group {
	ctx, cancel := context.WithCancel(ctx)
	return &Group{ctx: ctx, cancel: cancel, failed: make(chan error, 1), ready: make(chan struct{}), running: map[string]int{}}
}

// Go starts r now. After Stop, or on a group that has failed, r is not
// started and Go returns the reason.
func (g *Group) Go(r Role) error {
	if r.Run == nil {
		return fmt.Errorf("lifecycle: role %q has no Run", r.Name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.stopping:
		return fmt.Errorf("lifecycle: %s: the group is stopping", r.Name)
	case g.sealed:
		return fmt.Errorf("lifecycle: %s: added after AllStarted", r.Name)
	}
	g.roles = append(g.roles, r)
	g.pending++
	g.running[r.Name]++
	var once sync.Once
	ready := func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.pending--
			g.maybeReady()
		})
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		err := r.Run(g.ctx, ready)
		g.mu.Lock()
		g.running[r.Name]--
		if g.running[r.Name] == 0 {
			delete(g.running, r.Name)
		}
		stopping := g.stopping
		g.mu.Unlock()
		switch {
		case err != nil:
			g.fail(fmt.Errorf("%s: %w", r.Name, err))
		case !stopping && g.ctx.Err() == nil:
			g.fail(fmt.Errorf("%s: stopped before it was asked to", r.Name))
		}
	}()
	return nil
}

// AllStarted says that every role has been added: Ready can close once
// each of them is ready.
func (g *Group) AllStarted() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sealed = true
	g.maybeReady()
}

// maybeReady closes ready when every role added is ready; g.mu is held.
func (g *Group) maybeReady() {
	if !g.sealed || g.pending != 0 {
		return
	}
	select {
	case <-g.ready:
	default:
		close(g.ready)
	}
}

// fail keeps the first failure and stops the other roles: their context
// is cancelled; Stop still drains and waits for them.
func (g *Group) fail(err error) {
	select {
	case g.failed <- err:
	default:
	}
	g.cancel()
}

// Ready is closed once AllStarted was called and every role is ready.
func (g *Group) Ready() <-chan struct{} { return g.ready }

// Failed delivers the first failure of a role (once): the process's one
// error channel.
func (g *Group) Failed() <-chan error { return g.failed }

// WaitReady returns once every role is ready, or the first failure, or
// ctx's error.
func (g *Group) WaitReady(ctx context.Context) error {
	select {
	case <-g.ready:
		return nil
	case err := <-g.failed:
		// Put it back: Failed still reports it to whoever watches.
		g.fail(err)
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stop drains the group: it cancels every role's context, calls their
// Drain hooks (last added first) with ctx, and waits for every role's
// goroutine to end. ctx bounds the wait: when it ends first, Stop returns
// an error naming the roles still running. Stop is idempotent.
func (g *Group) Stop(ctx context.Context) error {
	g.mu.Lock()
	g.stopping = true
	roles := slices.Clone(g.roles)
	g.mu.Unlock()
	g.cancel()
	var errs []error
	for _, r := range slices.Backward(roles) {
		if r.Drain == nil {
			continue
		}
		if err := r.Drain(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: drain: %w", r.Name, err))
		}
	}
	done := make(chan struct{})
	go func() {
		g.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		g.mu.Lock()
		names := make([]string, 0, len(g.running))
		for n := range g.running {
			names = append(names, n)
		}
		g.mu.Unlock()
		slices.Sort(names)
		errs = append(errs, fmt.Errorf("lifecycle: %s still running when the drain ended: %w", strings.Join(names, ", "), ctx.Err()))
	}
	return errors.Join(errs...)
}

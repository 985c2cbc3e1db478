package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	adjhandler "github.com/sealgate/sealgate/services/adjudication/handler"
	"github.com/sealgate/sealgate/services/checkout"
	cohandler "github.com/sealgate/sealgate/services/checkout/handler"
	"github.com/sealgate/sealgate/services/executor"
	exhandler "github.com/sealgate/sealgate/services/executor/handler"
	"github.com/sealgate/sealgate/services/executor/sandbox"
	"github.com/sealgate/sealgate/services/lifecycle"
	muthandler "github.com/sealgate/sealgate/services/mutation/handler"
	reachhandler "github.com/sealgate/sealgate/services/reach/handler"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/signing/attest"
	signhandler "github.com/sealgate/sealgate/services/signing/handler"
	"github.com/sealgate/sealgate/services/signing/tlog"
	"github.com/sealgate/sealgate/services/telemetry"
)

// Consumer groups of the embedded services: each service is its own group,
// as it would be its own deployment.
const (
	groupCheckout     = "checkout"
	groupExecutor     = "executor"
	groupAdjudication = "adjudication"
	groupReach        = "reach"
	groupMutation     = "mutation"
	groupGateway      = "gateway"
	groupSigning      = "signing"
)

// serviceDeps is what the services' handlers are built from.
type serviceDeps struct {
	blobs   *blob.Store
	scratch string
	// suiteCache keeps baseline suite answers in the state: they outlive
	// a run, its work does not.
	suiteCache string
	// tools keeps the toolchain's tools the executor builds, across
	// states (toolsDir).
	tools string
	// bins keeps test binaries across runs and states, by the content
	// they are built from and the build cache they are built with
	// (binCacheDir).
	bins     string
	box      *sandbox.Runner
	goenv    executor.Go
	progress func(runID, jobID, state string)
	signer   *attest.Signer
	tlog     tlog.Log
	exec     *executor.Executor
}

// serviceSpec is one service: its name, consumer group, identity and
// handler.
type serviceSpec struct {
	name, group, identity string
	h                     runtime.Handler
}

// spec builds the handler of the named service.
func (d *serviceDeps) spec(name string) (serviceSpec, error) {
	blobs, scratch := d.blobs, d.scratch
	if (name == "executor" || name == "mutation") && d.exec == nil {
		d.exec = &executor.Executor{Sandbox: d.box, Go: d.goenv, Scratch: scratch, Blobs: blobs,
			SuiteCache: d.suiteCache, Tools: d.tools, BinCache: d.bins, Proxy: os.Getenv(callerProxyEnv)}
	}
	switch name {
	case "checkout":
		return serviceSpec{name, groupCheckout, keyring.Checkout, &cohandler.Handler{Blobs: blobs, Scratch: scratch}}, nil
	case "executor":
		return serviceSpec{name, groupExecutor, keyring.Executor, &exhandler.Handler{
			Exec:     d.exec,
			Checkout: checkout.Rebuilder{Blobs: blobs, Scratch: scratch}.Rebuild,
			Progress: d.progress,
			// Seal checks are dealt to two workers: the machine's cores
			// are the common case, and a check waits on its own process.
			SealWorkers: 2,
			// Two test binaries are built ahead of the jobs at once: on
			// two cores the next jobs' links overlap this job's.
			BuildAhead: 2,
		}}, nil
	case "reach":
		return serviceSpec{name, groupReach, keyring.Reach, &reachhandler.Handler{Blobs: blobs, Scratch: scratch}}, nil
	case "mutation":
		return serviceSpec{name, groupMutation, keyring.Mutation, &muthandler.Handler{Exec: d.exec, Blobs: blobs, Scratch: scratch, Progress: d.progress}}, nil
	case "adjudication":
		return serviceSpec{name, groupAdjudication, keyring.Adjudication, &adjhandler.Handler{Blobs: blobs}}, nil
	case "signing":
		if d.signer == nil || d.tlog == nil {
			return serviceSpec{}, usageErrorf("the signing service needs a verdict key and a transparency log")
		}
		return serviceSpec{name, groupSigning, keyring.Signing, &signhandler.Handler{Blobs: blobs, Signer: d.signer, Log: d.tlog, Version: version()}}, nil
	}
	return serviceSpec{}, usageErrorf("unknown service %q", name)
}

// services is every service of a run, in one process, over the local
// ledger: the handler roles of the composition root (roles.go).
type services struct {
	ctx context.Context
	g   *lifecycle.Group
}

// toolsDir is where the executor keeps the tools it builds from the Go
// toolchain (test2json), shared by every state of the user: the user's
// cache directory, else the state directory.
func toolsDir(state string) string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "sealgate", "tools")
	}
	return filepath.Join(state, "tools")
}

// binCacheDir is where the executor keeps test binaries across runs
// (executor.Executor.BinCache): beside the tools, in the user's cache
// directory, else the state directory. A binary is served only to runs of
// the build cache it was built with.
func binCacheDir(state string) string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "sealgate", "testbin")
	}
	return filepath.Join(state, "testbin")
}

// goToolchain finds the Go toolchain the jobs run with.
func goToolchain(ctx context.Context, cache string) (executor.Go, error) {
	bin, err := exec.LookPath("go")
	if err != nil {
		return executor.Go{}, infraErrorf("no go command on PATH: sealgate runs Go tests with the Go toolchain; install Go and retry")
	}
	out, err := exec.CommandContext(ctx, bin, "env", "-json", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		return executor.Go{}, infraErrorf("go env: %v", err)
	}
	var env struct{ GOROOT, GOMODCACHE string }
	if err := json.Unmarshal(out, &env); err != nil || env.GOROOT == "" {
		return executor.Go{}, infraErrorf("go env printed no GOROOT")
	}
	cache, err = filepath.Abs(cache)
	if err != nil {
		return executor.Go{}, usageErrorf("--build-cache: %v", err)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return executor.Go{}, infraErrorf("%v", err)
	}
	return executor.Go{Root: env.GOROOT, Cache: cache, ModCache: env.GOMODCACHE}, nil
}

// startServices starts checkout, executor, reach, mutation, adjudication
// and signing over the local ledger, and returns once each is subscribed.
func startServices(ctx context.Context, st *state, blobs *blob.Store, box *sandbox.Runner, goenv executor.Go, progress func(runID, jobID, state string), signer *attest.Signer, tl tlog.Log, tel *telemetry.Providers) (*services, error) {
	scratch := filepath.Join(st.dir, "work")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, infraErrorf("%v", err)
	}
	deps := &serviceDeps{blobs: blobs, scratch: scratch, suiteCache: filepath.Join(st.dir, suiteCacheDir), tools: toolsDir(st.dir), bins: binCacheDir(st.dir), box: box, goenv: goenv, progress: progress, signer: signer, tlog: tl}
	bus := &roleBus{
		subscribe: func(group string) (message.Subscriber, error) {
			return local.NewSubscriber(st.log, local.SubscriberConfig{ConsumerGroup: group})
		},
		appender: st.appender,
		history:  func(*record.Signer, func(error)) history { return localHistory(st.log) },
		signer:   st.keys.Signer,
		tel:      tel,
	}
	s := &services{ctx: ctx, g: lifecycle.New(ctx)}
	for _, name := range handlerRoles() {
		if err := startHandlerRole(ctx, s.g, name, deps, bus); err != nil {
			s.close()
			return nil, err
		}
	}
	s.g.AllStarted()
	if err := s.g.WaitReady(ctx); err != nil {
		s.close()
		return nil, infraErrorf("start the services: %v", err)
	}
	return s, nil
}

// close drains the services (their context is cancelled: they kill their
// test processes and remove their workspaces on the way out) and waits for
// them, within drainBound.
func (s *services) close() {
	_ = stopGroup(s.ctx, s.g)
}

// failure delivers the first service failure, if any.
func (s *services) failure() <-chan error { return s.g.Failed() }

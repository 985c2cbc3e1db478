package executor

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/sealgate/sealgate/services/executor/jobfile"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// The sandbox has no network, so a module's dependencies must be in the
// module cache before any job builds it. The modules job downloads them
// outside the sandbox — `go mod download -json` in a copy of the side's
// tree, with the caller's proxy settings, every zip checked against the
// tree's go.sum (and the checksum database for what go.sum does not
// list) — into the module cache the sandbox then reads, read-only. It runs
// only the go command, never code of the tree. What it downloaded is
// recorded: the module list is the job's stream.

// Reasons a modules job gives; the adjudicator reads the outcome.
const (
	// ChecksumMismatch starts the reason of a modules job whose go.sum
	// disagrees with the content the proxy serves: harness drift, not a
	// download error.
	ChecksumMismatch = "go.sum disagrees with the module content"
)

// downloadedModule is one object of `go mod download -json`.
type downloadedModule struct {
	Path, Version, Error, Sum, GoModSum string
}

// executeModules runs a modules job, and notes that its module's
// dependencies are in the module cache.
func (e *Executor) executeModules(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
	a := e.download(ctx, w, s, true)
	if key := modulesKey(w, s); key != "" && ctx.Err() == nil {
		if done, mine := e.claimFill(key); mine {
			close(done)
		}
	}
	return a
}

// claimFill returns the fill of the modules of key: the channel closed
// when it is done, and whether the caller is to do it (no fill of key was
// under way or done).
func (e *Executor) claimFill(key string) (done chan struct{}, mine bool) {
	e.fillMu.Lock()
	defer e.fillMu.Unlock()
	if done, ok := e.fills[key]; ok {
		return done, false
	}
	if e.fills == nil {
		e.fills = map[string]chan struct{}{}
	}
	done = make(chan struct{})
	e.fills[key] = done
	return done, true
}

// ensureModules fills the module cache with what the module the Go job s
// builds in needs, unless this process has downloaded the dependencies of
// the same go.mod and go.sum already (a modules job, or an earlier job).
// In the embedded mode the plan's modules jobs run first, so this finds
// them done; in the distributed mode a job may run on a replica that never
// ran them, over a module cache of its own, which would otherwise build
// offline without the dependencies. The fill is the modules job's
// download, checked against go.sum the same way; its answer is not
// recorded (the modules job's is the evidence), and when it fails the
// job's build says why, as after a failed modules job.
func (e *Executor) ensureModules(ctx context.Context, w *Workspace, s *jobs.Spec) {
	if s == nil || s.Runner != jobs.RunnerGo || s.Purpose == jobs.Modules || s.Skip != "" {
		return
	}
	m := &jobs.Spec{Purpose: jobs.Modules, Runner: jobs.RunnerGo, Side: s.Side, Tree: s.Tree, Module: s.Module, TimeoutSec: s.TimeoutSec}
	if w.downloadSec > 0 {
		m.TimeoutSec = w.downloadSec
	}
	key := modulesKey(w, m)
	if key == "" {
		return // no go.mod to read: the build says why
	}
	for {
		done, mine := e.claimFill(key)
		if mine {
			e.download(ctx, w, m, false)
			e.fillMu.Lock()
			if ctx.Err() != nil {
				delete(e.fills, key) // cut short: the next job tries again
			}
			close(done)
			e.fillMu.Unlock()
			return
		}
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
		e.fillMu.Lock()
		cutShort := e.fills[key] != done
		e.fillMu.Unlock()
		if !cutShort {
			return
		}
	}
}

// EnsureModules fills the module cache with what the Go modules holding
// the package directories dirs (relative to the repository) of tree need,
// as ensureModules does before a job: for a service that builds or
// type-checks a workspace's code before any job of it runs here (the
// mutation service plans its mutants so).
func (e *Executor) EnsureModules(ctx context.Context, w *Workspace, tree string, dirs []string) {
	seen := map[string]bool{}
	for _, d := range dirs {
		mod, _, _, err := w.module(tree, "./"+d)
		if err != nil || seen[mod] {
			continue // no module holds it: nothing to download (the build says why)
		}
		seen[mod] = true
		e.ensureModules(ctx, w, &jobs.Spec{Purpose: jobs.Mutant, Runner: jobs.RunnerGo, Side: jobs.Patch, Tree: tree, Module: mod})
	}
}

// modulesKey names what the modules of s's tree and module need: the
// digest of their go.mod and go.sum (and whether they vendor), which
// decide what go mod download fetches; "" when there is no go.mod.
func modulesKey(w *Workspace, s *jobs.Spec) string {
	_, src, err := w.variant(s)
	if err != nil {
		return ""
	}
	dir := filepath.Join(src, filepath.FromSlash(s.Module))
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum", filepath.Join("vendor", "modules.txt")} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case err == nil:
		case name == "go.mod" || !errors.Is(err, fs.ErrNotExist):
			return ""
		default:
			b = nil
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// download runs go mod download for s's tree and module; keep records
// what it downloaded as the answer's stream.
func (e *Executor) download(ctx context.Context, w *Workspace, s *jobs.Spec, keep bool) *Answer {
	// No sandboxed process: the answer names no sandbox and its
	// termination is "not started"; its run is the download's.
	a := &Answer{Detail: jobs.Detail{Runs: []jobs.Run{}}}
	done := func(outcome, format string, args ...any) *Answer {
		a.Detail.Outcome, a.Detail.Reason = outcome, fmt.Sprintf(format, args...)
		return a
	}
	_, src, err := w.variant(s)
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	modDir := filepath.Join(src, filepath.FromSlash(s.Module))
	if _, err := os.Stat(filepath.Join(modDir, "go.mod")); err != nil {
		return done(jobs.OutcomePass, "%s has no go.mod: nothing to download", s.Module)
	}
	if fi, err := os.Stat(filepath.Join(modDir, "vendor", "modules.txt")); err == nil && fi.Mode().IsRegular() {
		return done(jobs.OutcomePass, "%s vendors its dependencies (vendor/modules.txt): nothing to download", s.Module)
	}
	if requiresNothing(src, modDir) {
		return done(jobs.OutcomePass, "%s/go.mod requires no module and no go.work is above it: nothing to download", s.Module)
	}
	dir, _, cleanup, err := w.jobTree(src)
	defer cleanup()
	if err != nil {
		return done(jobs.OutcomeUnrunnable, "%v", err)
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeoutOf(s))
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(e.Go.Root, "bin", "go"), "mod", "download", "-json")
	cmd.Dir = filepath.Join(dir, filepath.FromSlash(s.Module))
	cmd.Env = e.downloadEnv()
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &capWriter{w: &stdout, max: maxListBytes}
	cmd.Stderr = &capWriter{w: &stderr, max: 1 << 20}
	runErr := cmd.Run()
	exit := 0
	var ee *exec.ExitError
	switch {
	case errors.As(runErr, &ee):
		exit = ee.ExitCode()
	case runErr != nil:
		return done(jobs.OutcomeUnrunnable, "go mod download could not run: %v", runErr)
	}
	run := jobs.Run{Verdict: "DOWNLOAD", ExitCode: exit, Termination: "EXITED", WallMillis: time.Since(start).Milliseconds()}
	if ctx.Err() != nil {
		run.Termination = "TIMEOUT"
	}
	if keep {
		run.Stream = e.keep(ctx, a, stdout.Bytes())
	}
	a.Detail.Runs = append(a.Detail.Runs, run)
	a.Wall = time.Since(start)
	var mods []downloadedModule
	dec := json.NewDecoder(&stdout)
	for {
		var m downloadedModule
		if err := dec.Decode(&m); err != nil {
			if !errors.Is(err, io.EOF) {
				return done(jobs.OutcomeUnrunnable, "go mod download's output does not parse: %v", err)
			}
			break
		}
		mods = append(mods, m)
	}
	var failed, mismatched []string
	for _, m := range mods {
		switch {
		case m.Error == "":
		case strings.Contains(m.Error, "checksum mismatch") || strings.Contains(m.Error, "SECURITY ERROR"):
			mismatched = append(mismatched, m.Path+"@"+m.Version)
		default:
			failed = append(failed, fmt.Sprintf("%s@%s: %s", m.Path, m.Version, m.Error))
		}
	}
	msg := stderr.String()
	if strings.Contains(msg, "checksum mismatch") || strings.Contains(msg, "SECURITY ERROR") {
		if len(mismatched) == 0 {
			mismatched = append(mismatched, firstMatch(msg, "checksum mismatch", "SECURITY ERROR"))
		}
	}
	slices.Sort(mismatched)
	slices.Sort(failed)
	switch {
	case len(mismatched) > 0:
		return done(jobs.OutcomeFail, "%s in %s/go.sum: %s", ChecksumMismatch, s.Module, jobfile.Excerpt(strings.Join(mismatched, ", ")))
	case run.Termination == "TIMEOUT":
		return done(jobs.OutcomeTimeout, "go mod download did not finish within %ds", s.TimeoutSec)
	case len(failed) > 0 || exit != 0:
		why := strings.Join(failed, "; ")
		if why == "" {
			why = firstLine(msg)
		}
		return done(jobs.OutcomeUnrunnable, "the dependencies of %s could not be downloaded: %s", s.Module, jobfile.Excerpt(why))
	}
	return done(jobs.OutcomePass, "%d module dependencies of %s in the module cache, verified against go.sum", len(mods), s.Module)
}

// requiresNothing reports whether the module in modDir, inside the tree
// root, has no dependency to download: its go.mod parses and requires
// nothing, and no go.work in its directory or above it, up to the root,
// brings in other modules' requirements. Anything else is left to go mod
// download.
func requiresNothing(root, modDir string) bool {
	data, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		return false
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil || len(f.Require) > 0 || f.Toolchain != nil {
		return false
	}
	root, modDir = filepath.Clean(root), filepath.Clean(modDir)
	for dir := modDir; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, "go.work")); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		if dir == root || !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			return dir == root
		}
	}
}

// downloadEnv is the environment of go mod download: the caller's (its
// proxy, checksum database and credentials settings), with the module
// cache the sandbox reads, this toolchain only, and modules only.
func (e *Executor) downloadEnv() []string {
	override := map[string]string{
		"GOMODCACHE":  e.Go.ModCache,
		"GOCACHE":     e.Go.Cache,
		"GOROOT":      e.Go.Root,
		"GOTOOLCHAIN": "local",
		"GOFLAGS":     "-mod=mod -modcacherw",
		"GO111MODULE": "on",
		"GOTELEMETRY": "off",
	}
	if e.Proxy != "" {
		override["GOPROXY"] = e.Proxy
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := override[name]; ok || name == "GOPROXY" {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range override {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}

func firstMatch(text string, subs ...string) string {
	for _, l := range strings.Split(text, "\n") {
		for _, s := range subs {
			if strings.Contains(l, s) {
				return strings.TrimSpace(l)
			}
		}
	}
	return ""
}

// capWriter keeps at most max bytes.
type capWriter struct {
	w   *bytes.Buffer
	max int
}

func (c *capWriter) Write(p []byte) (int, error) {
	if room := c.max - c.w.Len(); room > 0 {
		c.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

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

// executeModules runs a modules job.
func (e *Executor) executeModules(ctx context.Context, w *Workspace, s *jobs.Spec) *Answer {
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
	run.Stream = e.keep(ctx, a, stdout.Bytes())
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

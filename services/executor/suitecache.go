package executor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// The baseline's suite runs on every verification (each test that passes
// there needs its own pass on the patch), so its answer is kept per
// baseline tree: CI verifies many patches against one main commit. The key
// holds everything the answer depends on — the tree's digest, the job's
// spec (runner, command, interpreter path, timeout), the toolchain's
// version, the interpreter's identity, the sandbox and its limits — and an
// answer is used only for the same key. A cached answer says so in its
// reason and names the key; the gate made it itself on an earlier run.

// suiteCacheVersion changes whenever what a suite answer holds changes.
const suiteCacheVersion = "sealgate suite cache v3"

// cachedAnswer is what the cache keeps of an Answer.
type cachedAnswer struct {
	Detail      jobs.Detail
	Cases       []jobs.Case
	Artefacts   []string
	Termination sandbox.Termination
	ExitCode    int
	WallMillis  int64
	CPUMillis   int64
	Sandbox     sandbox.Info
	At          time.Time
}

// suiteKey is the cache key of a baseline suite job, "" when it must not
// be cached.
func (e *Executor) suiteKey(w *Workspace, s *jobs.Spec) string {
	if e.SuiteCache == "" || s.Purpose != jobs.Collateral || s.Side != jobs.Baseline || s.Skip != "" || len(s.Transplant)+len(s.Splice) > 0 {
		return ""
	}
	spec, err := s.Marshal()
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\ntree %s\nspec %s\ngo %s\nsandbox %s\nlimits %+v\n", suiteCacheVersion, w.co.Baseline.Digest(), spec, e.goVersion(), e.Sandbox.Name(), w.Limits)
	if s.Python != "" {
		// The interpreter is sealed by path; what lies behind the path
		// can change (an upgrade), so its file identity is part of the key.
		real, err := filepath.EvalSymlinks(s.Python)
		if err != nil {
			return ""
		}
		fi, err := os.Stat(real)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "python %s %d %d\n", real, fi.Size(), fi.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// goVersion is the toolchain's version line (GOROOT/VERSION), or its root
// when that cannot be read.
func (e *Executor) goVersion() string {
	b, err := os.ReadFile(filepath.Join(e.Go.Root, "VERSION"))
	if err != nil {
		return e.Go.Root
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return line + " " + e.Go.Root
}

// cachedSuite returns the cached answer of key, or nil.
func (e *Executor) cachedSuite(ctx context.Context, key string) *Answer {
	if key == "" {
		return nil
	}
	p := filepath.Join(e.SuiteCache, key+".json")
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 64<<20 {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var c cachedAnswer
	if err := json.Unmarshal(b, &c); err != nil || (c.Detail.Outcome != jobs.OutcomePass && c.Detail.Outcome != jobs.OutcomeFail) {
		return nil
	}
	if e.Blobs != nil {
		// Every stream the answer names must still be in the store.
		for _, d := range c.Artefacts {
			if ok, err := e.Blobs.Has(ctx, d); err != nil || !ok {
				return nil
			}
		}
	}
	a := &Answer{Detail: c.Detail, Cases: c.Cases, Artefacts: c.Artefacts, Termination: c.Termination, ExitCode: c.ExitCode,
		Started: true, Wall: 0, CPU: 0, Sandbox: c.Sandbox}
	a.Detail.Reason = fmt.Sprintf("cached answer of this baseline tree (key %s, run %s): %s", key[:16], c.At.UTC().Format(time.RFC3339), c.Detail.Reason)
	a.Detail.Cached = key
	a.Detail.Runs = nonNil(a.Detail.Runs)
	a.Cases = nonNil(a.Cases)
	return a
}

// keepSuite stores a baseline suite's answer under key: only a pass or a
// failure, never an answer the machine's state may have made (a timeout,
// a death, a suite that could not run) — nor a failure with a process
// that did not exit by itself in it, or a build that failed: a test
// binary whose build ran out of time on a loaded machine failed the
// suite, and every later run against this baseline read it red.
func (e *Executor) keepSuite(key string, a *Answer) {
	if key == "" || (a.Detail.Outcome != jobs.OutcomePass && a.Detail.Outcome != jobs.OutcomeFail) {
		return
	}
	if a.Detail.Outcome == jobs.OutcomeFail {
		if strings.Contains(a.Detail.Reason, "build") {
			return
		}
		for _, r := range a.Detail.Runs {
			if r.Termination != "" && r.Termination != sandbox.Exited.String() || strings.Contains(r.Verdict, "BUILD") && r.Verdict != "BUILD" {
				return
			}
		}
	}
	c := cachedAnswer{Detail: a.Detail, Cases: a.Cases, Artefacts: a.Artefacts, Termination: a.Termination, ExitCode: a.ExitCode,
		WallMillis: a.Wall.Milliseconds(), CPUMillis: a.CPU.Milliseconds(), Sandbox: a.Sandbox, At: time.Now()}
	b, err := json.Marshal(c)
	if err != nil {
		return
	}
	if err := os.MkdirAll(e.SuiteCache, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(e.SuiteCache, ".tmp-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil || tmp.Sync() != nil || tmp.Close() != nil {
		tmp.Close()
		return
	}
	_ = os.Rename(tmp.Name(), filepath.Join(e.SuiteCache, key+".json"))
}

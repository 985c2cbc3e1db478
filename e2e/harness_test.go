// Package e2e holds sealgate's end-to-end acceptance tests: they run the
// real sealgate binary as a subprocess against real git repositories.
package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/demo"
)

// binary is the sealgate binary TestMain built, or "" when the end-to-end
// tests are skipped.
var binary string

// Exit codes and decisions of the CLI contract.
const (
	exitMerge        = 0
	exitBlock        = 1
	exitInconclusive = 2
	exitUsage        = 3

	merge        = "MERGE"
	block        = "BLOCK"
	inconclusive = "INCONCLUSIVE"

	artefactSchema = "sealgate.artefact.v1"
)

// e2eEnv must be 1 for the acceptance tests to run.
const e2eEnv = "SEALGATE_E2E"

// verifyTimeout bounds one `sealgate verify` run.
const verifyTimeout = 10 * time.Minute

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

// runTests builds the binary once, unless the tests will be skipped, and
// runs them.
func runTests(m *testing.M) int {
	flag.Parse()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		return m.Run()
	}
	if os.Getenv(e2eEnv) != "1" {
		// Dozens of full verifications take longer than go test's default
		// timeout on a small machine: the acceptance tests run when asked
		// (.ci/run asks), and `go test ./...` stays the fast tests.
		fmt.Fprintf(os.Stderr, "e2e: skipped; run the acceptance tests with %s=1 go test -timeout 60m ./e2e\n", e2eEnv)
		return m.Run()
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %v; skipping\n", err)
			return m.Run()
		}
	}
	dir, err := os.MkdirTemp("", "sealgate-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "sealgate")
	// With failpoints (services/runtime/failpoint.go): inert unless a test
	// sets SEALGATE_FAILPOINTS, as the failure-isolation tests do. With
	// -trimpath, as releases and the container image are built: such a
	// binary knows no GOROOT of its own (runtime.GOROOT is empty), which
	// the gate must not depend on.
	build := exec.Command("go", "build", "-trimpath", "-tags", "failpoints", "-o", bin, "github.com/sealgate/sealgate/tools/sealgate")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build: %v\n%s", err, out)
		return 1
	}
	binary = bin
	return m.Run()
}

// needBinary skips t unless TestMain built the binary.
func needBinary(t *testing.T) {
	t.Helper()
	if binary == "" {
		t.Skip("end-to-end: needs " + e2eEnv + "=1, the go and git commands, not -short, not Bazel")
	}
}

// artefact is the part of the verify command's JSON output the tests rely
// on.
type artefact struct {
	Schema       string     `json:"schema"`
	Decision     string     `json:"decision"`
	Reason       string     `json:"reason"`
	Reasons      []string   `json:"reasons"`
	FixProven    bool       `json:"fix_proven"`
	ClaimsFixed  []string   `json:"claims_fixed"`
	Claims       []claim    `json:"claims"`
	HarnessDrift []string   `json:"harness_drift"`
	NextSteps    []nextStep `json:"next_steps"`
	Collateral   struct {
		Regressions    []string `json:"regressions"`
		WrittenFailing []string `json:"written_failing"`
	} `json:"collateral"`
}

// reasons returns every finding of the verdict.
func (a artefact) reasons() []string { return append([]string{a.Reason}, a.Reasons...) }

type claim struct {
	ID             string `json:"id"`
	Outcome        string `json:"outcome"`
	Classification string `json:"classification"`
	Reason         string `json:"reason"`
}

type nextStep struct {
	Action string `json:"action"`
	Target string `json:"target"`
}

// run is one finished sealgate process.
type run struct {
	args     []string
	exitCode int
	stdout   string
	stderr   string
	art      artefact // decoded from stdout by verify
}

// String shows everything the process did, for failure messages.
func (r *run) String() string {
	return fmt.Sprintf("sealgate %s\nexit code %d\n--- stdout ---\n%s\n--- stderr ---\n%s",
		strings.Join(quoteArgs(r.args), " "), r.exitCode, r.stdout, r.stderr)
}

func quoteArgs(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$") {
			a = strconv.Quote(a)
		}
		q[i] = a
	}
	return q
}

// sealgate runs the binary with args and returns what it did. It fails t if
// the process cannot start, is killed, or outlives verifyTimeout (or the
// test's deadline).
func sealgate(t *testing.T, args ...string) *run {
	t.Helper()
	needBinary(t)
	timeout := verifyTimeout
	if deadline, ok := t.Deadline(); ok {
		timeout = min(timeout, time.Until(deadline)-30*time.Second)
	}
	if timeout <= 0 {
		t.Fatal("no time left before the test deadline; run with a longer -timeout")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	r := &run{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.exitCode = -1
		t.Fatalf("sealgate did not finish within %v:\n%s", timeout, r)
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		r.exitCode = exit.ExitCode()
	case err != nil:
		r.exitCode = -1
		t.Fatalf("sealgate: %v\n%s", err, r)
	}
	t.Logf("sealgate %s: exit %d in %v", args[0], r.exitCode, time.Since(start).Round(time.Millisecond))
	return r
}

// verify runs `sealgate verify args...` with a fresh --state directory and
// --out file, and checks what every verdict must hold: one JSON artefact on
// stdout, identical to the --out file, with the known schema, and an exit
// code that agrees with its decision.
func verify(t *testing.T, args ...string) *run {
	t.Helper()
	out := filepath.Join(t.TempDir(), "artefact.json")
	// Each run has its own ledger; the test processes' build cache is
	// shared, as a CI machine keeps it, so that no run pays for compiling
	// the standard library again.
	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	full := append([]string{"verify", "--state", t.TempDir(), "--build-cache", cache, "--out", out}, args...)
	r := sealgate(t, full...)

	want := map[string]int{merge: exitMerge, block: exitBlock, inconclusive: exitInconclusive}
	if !slices.Contains(slices.Collect(maps.Values(want)), r.exitCode) {
		t.Fatalf("exit code %d is no decision:\n%s", r.exitCode, r)
	}
	printed, err := decodeOne([]byte(r.stdout))
	if err != nil {
		t.Fatalf("stdout is not one JSON artefact: %v\n%s", err, r)
	}
	if err := json.Unmarshal([]byte(r.stdout), &r.art); err != nil {
		t.Fatalf("artefact: %v\n%s", err, r)
	}
	if r.art.Schema != artefactSchema {
		t.Fatalf("schema %q, want %q:\n%s", r.art.Schema, artefactSchema, r)
	}
	code, ok := want[r.art.Decision]
	if !ok || code != r.exitCode {
		t.Fatalf("decision %q with exit code %d: they disagree:\n%s", r.art.Decision, r.exitCode, r)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("--out: %v\n%s", err, r)
	}
	written, err := decodeOne(data)
	if err != nil {
		t.Fatalf("--out file is not one JSON artefact: %v\n%s\n--- out ---\n%s", err, r, data)
	}
	if !reflect.DeepEqual(printed, written) {
		t.Fatalf("--out file differs from stdout:\n%s\n--- out ---\n%s", r, data)
	}
	return r
}

// decodeOne decodes data, which must hold exactly one JSON value.
func decodeOne(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more after the JSON value (%v)", err)
	}
	return v, nil
}

// wantDecision fails t unless the decision is want.
func (r *run) wantDecision(t *testing.T, want string) {
	t.Helper()
	if r.art.Decision != want {
		t.Fatalf("decision %s, want %s:\n%s", r.art.Decision, want, r)
	}
}

// wantNot fails t if the decision is one of bad.
func (r *run) wantNot(t *testing.T, bad ...string) {
	t.Helper()
	if slices.Contains(bad, r.art.Decision) {
		t.Fatalf("decision %s, want none of %v:\n%s", r.art.Decision, bad, r)
	}
}

// claim returns the artefact's claim with id, failing t if there is none.
func (r *run) claim(t *testing.T, id string) claim {
	t.Helper()
	for _, c := range r.art.Claims {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no claim %q in the artefact:\n%s", id, r)
	return claim{}
}

// wantClaim fails t unless the claim with id has the outcome and, if
// classification is not "", the classification.
func (r *run) wantClaim(t *testing.T, id, outcome, classification string) {
	t.Helper()
	c := r.claim(t, id)
	if c.Outcome != outcome || (classification != "" && c.Classification != classification) {
		t.Fatalf("claim %s is %s/%s, want %s/%s:\n%s", id, c.Outcome, c.Classification, outcome, cmp.Or(classification, "*"), r)
	}
}

// repo is a demo repository the tests add branches to.
type repo struct {
	*demo.Repo
	commits int // commits added so far, for their dates
}

// newRepo builds a fresh demo repository in a temporary directory.
func newRepo(t *testing.T) *repo {
	t.Helper()
	needBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := demo.Build(ctx, filepath.Join(t.TempDir(), "repo"))
	if err != nil {
		t.Fatal(err)
	}
	return &repo{Repo: r}
}

// patch returns the demo patch called name.
func (r *repo) patch(t *testing.T, name string) demo.Patch {
	t.Helper()
	for _, p := range r.Patches {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("the demo has no patch %q", name)
	return demo.Patch{}
}

// git runs git in the repository with a fixed environment and returns its
// standard output.
func (r *repo) git(t *testing.T, args ...string) string {
	t.Helper()
	date := strconv.Itoa(1735689600+3600*r.commits) + " +0000"
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=sealgate e2e",
		"GIT_AUTHOR_EMAIL=e2e@sealgate.invalid",
		"GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=sealgate e2e",
		"GIT_COMMITTER_EMAIL=e2e@sealgate.invalid",
		"GIT_COMMITTER_DATE=" + date,
		"LC_ALL=C",
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// show returns the content of path at rev.
func (r *repo) show(t *testing.T, rev, path string) string {
	t.Helper()
	return r.git(t, "show", rev+":"+path)
}

// commit makes a commit on a new branch off parent that writes files (path
// to content) and returns its full id. The working tree is left on main.
func (r *repo) commit(t *testing.T, parent, branch, message string, files map[string]string) string {
	t.Helper()
	r.git(t, "checkout", "--quiet", "-b", branch, parent)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.git(t, "add", "--all")
	r.git(t, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", message)
	r.commits++
	id := strings.TrimSpace(r.git(t, "rev-parse", "--verify", "HEAD^{commit}"))
	r.git(t, "checkout", "--quiet", "main")
	return id
}

// diff writes `git diff from to` to a file and returns its path.
func (r *repo) diff(t *testing.T, from, to string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "patch.diff")
	d := r.git(t, "diff", "--no-color", "--no-ext-diff", "--binary", from, to)
	if err := os.WriteFile(name, []byte(d), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// replaceOnce returns s with old replaced by new, failing t unless old
// occurs exactly once.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times, want once in:\n%s", old, n, s)
	}
	return strings.Replace(s, old, new, 1)
}

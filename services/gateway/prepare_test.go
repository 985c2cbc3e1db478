package gateway

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/services/checkout"
)

// repo is a git repository for the pre-flight tests.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil || os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs git")
	}
	r := &repo{t: t, dir: filepath.Join(t.TempDir(), "repo")}
	r.git("init", "-q", r.dir)
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = filepath.Dir(r.dir)
	if _, err := os.Stat(r.dir); err == nil {
		cmd.Dir = r.dir
	}
	cmd.Env = []string{"HOME=" + r.t.TempDir(), "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_AUTHOR_DATE=1700000000 +0000",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_COMMITTER_DATE=1700000000 +0000"}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out.String()
}

func (r *repo) write(files map[string]string) {
	r.t.Helper()
	for name, content := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *repo) commit() string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "c")
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

func goTest(pkg string, names ...string) string {
	s := "package " + pkg + "\n\nimport \"testing\"\n"
	for _, n := range names {
		s += "\nfunc " + n + "(t *testing.T) {}\n"
	}
	return s
}

// preflight is a repository with a baseline, a patch, and a grader's test
// patch adding tests.
type preflight struct {
	r                      *repo
	base, patched          string
	testPatch, sourcePatch []byte
}

func newPreflight(t *testing.T) *preflight {
	r := newRepo(t)
	r.write(map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n",
		"a/a.go":             "package a\n\nfunc A() int { return 1 }\n",
		"a/a_test.go":        goTest("a", "TestLoad"),
		"b/b.go":             "package b\n\nfunc B() int { return 1 }\n",
		"b/b_test.go":        goTest("b", "TestLoad", "TestB"),
		"testdata/x_test.go": goTest("x", "TestLoad", "TestHidden"),
		"vendor/v/v_test.go": goTest("v", "TestLoad", "TestHidden"),
		"_skip/s_test.go":    goTest("s", "TestHidden"),
		"tests/test_one.py":  "def test_foo():\n    pass\n",
		"tests/test_two.py":  "def test_foo():\n    pass\n\nclass TestK:\n    def test_m(self):\n        pass\n",
	})
	base := r.commit()
	r.write(map[string]string{"a/a.go": "package a\n\nfunc A() int { return 2 }\n"})
	patched := r.commit()
	r.git("checkout", "-q", "--detach", base)
	r.write(map[string]string{"b/new_test.go": goTest("b", "TestGraderNew"), "a/a_test.go": goTest("a", "TestLoad", "TestGraderNew")})
	withTests := r.commit()
	testPatch := []byte(r.git("diff", base, withTests))
	r.write(map[string]string{"a/a.go": "package a\n\nfunc A() int { return 3 }\n"})
	sourcePatch := []byte(r.git("diff", withTests, r.commit()))
	r.git("checkout", "-q", "--detach", base)
	return &preflight{r: r, base: base, patched: patched, testPatch: testPatch, sourcePatch: sourcePatch}
}

func prepareRequest(t *testing.T, blobs *blob.Store, req *Request) (*Submission, error) {
	t.Helper()
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := record.NewSigner(keyring.Gateway, key)
	if err != nil {
		t.Fatal(err)
	}
	if req.TimeoutMillis == 0 {
		req.TimeoutMillis = time.Hour.Milliseconds()
	}
	req.StrengthConfidence = criteria.DefaultStrengthConfidence
	return Prepare(context.Background(), req, "run-test", time.Now(), blobs, signer, t.TempDir())
}

func openBlobs(t *testing.T) *blob.Store {
	t.Helper()
	blobs, err := blob.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	return blobs
}

// Bare claims resolve in pre-flight against the tests with the trusted
// tests laid over, and what they resolved to is sealed with them.
func TestBareClaimsResolveWithTrustedTests(t *testing.T) {
	p := newPreflight(t)
	blobs := openBlobs(t)
	sub, err := prepareRequest(t, blobs, &Request{Repository: p.r.dir, Baseline: p.base, PatchCommit: p.patched, TestPatch: p.testPatch,
		Claims: []string{"go:TestLoad", "go:TestGraderNew/case_1", "go:./b:TestB", "pytest:TestK::test_m", "pytest:tests/test_one.py::test_foo"}})
	if err != nil {
		t.Fatal(err)
	}
	c := sub.Sealed.Criteria
	want := []string{"go:./a:TestGraderNew/case_1", "go:./a:TestLoad", "go:./b:TestB", "go:./b:TestGraderNew/case_1", "go:./b:TestLoad",
		"pytest:tests/test_one.py::test_foo", "pytest:tests/test_two.py::TestK::test_m"}
	if !reflect.DeepEqual(c.Claims, want) {
		t.Fatalf("claims %q, want %q", c.Claims, want)
	}
	wantBare := map[string][]string{
		"go:TestLoad":             {"go:./a:TestLoad", "go:./b:TestLoad"},
		"go:TestGraderNew/case_1": {"go:./a:TestGraderNew/case_1", "go:./b:TestGraderNew/case_1"},
		"pytest:TestK::test_m":    {"pytest:tests/test_two.py::TestK::test_m"},
	}
	if !reflect.DeepEqual(c.BareClaims, wantBare) {
		t.Fatalf("bare claims %v, want %v", c.BareClaims, wantBare)
	}
	tt := c.TrustedTests
	if tt == nil || tt.PatchDigest != blob.Digest(p.testPatch) || !reflect.DeepEqual(tt.Paths, []string{"a/a_test.go", "b/new_test.go"}) || len(tt.Discarded) != 0 {
		t.Fatalf("trusted tests %+v", tt)
	}
	if c.Baseline != p.base || c.PatchCommit != p.patched {
		t.Fatalf("baseline %s, patch %s", c.Baseline, c.PatchCommit)
	}
	// Every service rebuilds the same trees from the ledger: the test
	// patch comes from the blob store by the sealed digest.
	patchBlob := sub.Request.Record.GetRunRequested().GetPatchBlob()
	co, done, err := checkout.Rebuilder{Blobs: blobs, Scratch: t.TempDir()}.Rebuild(context.Background(), sub.Sealed, patchBlob)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if co.Baseline.Digest() != sub.Checkout.Baseline.Digest() || co.Patch.Digest() != sub.Checkout.Patch.Digest() || !reflect.DeepEqual(co.Trusted, tt.Paths) {
		t.Fatalf("the rebuilt trees differ from pre-flight's")
	}
	// Criteria that name other trusted paths than the trees have are
	// refused, never run.
	forged := *c
	forged.TrustedTests = &criteria.TrustedTests{PatchDigest: tt.PatchDigest, Paths: []string{"a/a_test.go"}, Discarded: []string{}}
	fs, err := criteria.Seal(&forged)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := (checkout.Rebuilder{Blobs: blobs, Scratch: t.TempDir()}).Rebuild(context.Background(), fs, patchBlob); err == nil || !strings.Contains(err.Error(), "trusted tests re-derive") {
		t.Fatalf("forged trusted paths: %v", err)
	}
	// Without the blob the trees cannot be rebuilt.
	if _, _, err := (checkout.Rebuilder{Blobs: openBlobs(t), Scratch: t.TempDir()}).Rebuild(context.Background(), sub.Sealed, patchBlob); err == nil {
		t.Fatal("rebuilt without the trusted test patch")
	}
}

// The honest twin: without bare claims and trusted tests, nothing new is
// sealed.
func TestPlainRequestSealsNoTrustedTests(t *testing.T) {
	p := newPreflight(t)
	sub, err := prepareRequest(t, openBlobs(t), &Request{Repository: p.r.dir, Baseline: p.base, PatchCommit: p.patched, Claims: []string{"go:./a:TestLoad"}})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Sealed.Criteria.TrustedTests != nil || sub.Sealed.Criteria.BareClaims != nil || strings.Contains(string(sub.Sealed.Canonical), "trusted") {
		t.Fatalf("sealed %s", sub.Sealed.Canonical)
	}
}

func TestPreflightRefusesBadClaimsAndTests(t *testing.T) {
	p := newPreflight(t)
	for name, tc := range map[string]struct {
		req  Request
		want string
	}{
		"unknown go name":      {Request{Claims: []string{"go:TestNope"}}, "no test file declares TestNope"},
		"testdata and vendor":  {Request{Claims: []string{"go:TestHidden"}}, "no test file declares TestHidden"},
		"not trusted here":     {Request{Claims: []string{"go:TestGraderNew"}}, "no test file declares TestGraderNew"},
		"ambiguous pytest":     {Request{Claims: []string{"pytest:test_foo"}}, "2 test modules declare test_foo"},
		"unknown pytest":       {Request{Claims: []string{"pytest:test_nope"}}, "no test file declares test_nope"},
		"bad bare name":        {Request{Claims: []string{"go:Load"}}, "is not a Go test name"},
		"source in test patch": {Request{Claims: []string{"go:TestLoad"}, TestPatch: p.sourcePatch}, "touches more than test files"},
		"both trusted forms":   {Request{Claims: []string{"go:TestLoad"}, TestPatch: p.testPatch, TestsCommit: p.base}, "one of them"},
	} {
		t.Run(name, func(t *testing.T) {
			req := tc.req
			req.Repository, req.Baseline, req.PatchCommit = p.r.dir, p.base, p.patched
			if name == "source in test patch" {
				// The source patch is against the baseline with the tests.
				req.TestPatch = append(append([]byte{}, p.testPatch...), p.sourcePatch...)
			}
			_, err := prepareRequest(t, openBlobs(t), &req)
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a usage error saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("not one line: %q", err)
			}
		})
	}
}

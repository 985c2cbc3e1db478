// Package executortest gives tests a real executor: a real sandbox, the
// machine's Go toolchain and module cache, and the tests' shared build
// cache.
package executortest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sealgate/sealgate/services/executor"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Skip skips t under Bazel and in -short: a real executor needs git, the
// go tool and a sandbox.
func Skip(t testing.TB) {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" || testing.Short() {
		t.Skip("needs git, the go tool and a sandbox; not in -short")
	}
}

// New returns an executor for t. Its test binaries are kept across tests
// and runs, as the gate's are (Executor.BinCache): the tests meet a cache
// that is not fresh.
func New(t testing.TB) *executor.Executor {
	t.Helper()
	box, err := sandbox.New(context.Background(), sandbox.Config{Mode: sandbox.Auto})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "-json", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	var env struct{ GOROOT, GOMODCACHE string }
	if err := json.Unmarshal(out, &env); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	return &executor.Executor{Sandbox: box, Go: executor.Go{Root: env.GOROOT, Cache: cache, ModCache: env.GOMODCACHE}, Scratch: t.TempDir(),
		Tools: filepath.Join(os.TempDir(), "sealgate-test-tools"), BinCache: filepath.Join(os.TempDir(), "sealgate-test-testbin")}
}

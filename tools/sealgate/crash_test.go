package main

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
)

// buildBinary builds the sealgate command for tests that run it as a
// separate process. It needs the go tool, which Bazel's sandbox lacks.
func buildBinary(t *testing.T) string {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("needs the go tool to build the binary; run with go test")
	}
	bin := filepath.Join(t.TempDir(), "sealgate")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCrashRecovery appends to the local ledger from a child process that is
// SIGKILLed at random moments and restarted, 20 times. Afterwards every
// record the child reported as acknowledged is in the ledger exactly once,
// no record is stored twice, and `sealgate ledger verify` passes.
func TestCrashRecovery(t *testing.T) {
	bin := buildBinary(t)
	state := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	acked := map[string]bool{}
	for round := 0; round < 20; round++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, bin, "ledger", "demo", "--state", state,
			"--runs", "1000000", "--jobs", "5", "--quiet", "--print-acked", "--no-refusals")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		// Let it get going (the first ack), then kill it at a random moment.
		deadline := time.After(time.Duration(20+rng.IntN(300)) * time.Millisecond)
		started := false
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				digest, found := strings.CutPrefix(l, "acked ")
				if !found || !record.IsDigest(digest) {
					t.Fatalf("round %d: unexpected output %q", round, l)
				}
				acked[digest] = true
				started = true
			case <-deadline:
				if started {
					_ = cmd.Process.Signal(syscall.SIGKILL)
					deadline = nil
				} else {
					deadline = time.After(10 * time.Millisecond)
				}
			}
		}
		err = cmd.Wait()
		cancel()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child ended with %v, not by our SIGKILL\n%s", round, err, stderr.String())
		}
	}
	if len(acked) == 0 {
		t.Fatal("no record was ever acknowledged")
	}

	log, err := local.OpenReadOnly(filepath.Join(state, ledgerFile), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{}
	err = log.Scan(context.Background(), 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Topic == ledger.Topic {
			stored[e.Metadata[ledger.MetaDigest]]++
		}
		return nil
	})
	log.Close()
	if err != nil {
		t.Fatal(err)
	}
	for d := range acked {
		if stored[d] != 1 {
			t.Errorf("acknowledged record %.16s… stored %d times", d, stored[d])
		}
	}
	for d, n := range stored {
		if n != 1 {
			t.Errorf("record %.16s… stored %d times", d, n)
		}
	}
	t.Logf("%d records acknowledged, %d stored across 20 crashes", len(acked), len(stored))

	out, err := exec.Command(bin, "ledger", "verify", "--state", state).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok: ") {
		t.Fatalf("ledger verify after crashes: %v\n%s", err, out)
	}
}

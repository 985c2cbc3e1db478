package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"
)

// badFiles are what a caller can name instead of a file: each must be
// refused with one line and exit 3, without reading it (a FIFO would block,
// /dev/zero and a sparse file would fill the memory).
func badFiles(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	writeFile(t, sparse, nil)
	if err := os.Truncate(sparse, 10<<30); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"/dev/zero":            "/dev/zero",
		"a FIFO":               fifo,
		"a directory":          dir,
		"a 10 GiB sparse file": sparse,
	}
}

func badFileSays(kind string) string {
	switch kind {
	case "/dev/zero":
		return "is a character device, not a regular file"
	case "a FIFO":
		return "is a FIFO, not a regular file"
	case "a directory":
		return "is a directory, not a regular file"
	}
	return "is 10 GiB, over the limit of"
}

// TestCallerFilesAreBounded: every file the CLI reads from its caller —
// the patch, the configuration, keys, trust policies, ledgers and bundles —
// is refused with one line and exit 3 when it is /dev/zero, a FIFO, a
// directory or a sparse file over its limit.
func TestCallerFilesAreBounded(t *testing.T) {
	f := newBinFixture(t)
	ok := t.TempDir()
	keys := filepath.Join(ok, "keys")
	if code, out, errOut := f.run("", "keys", "generate", "--out", keys); code != 0 {
		t.Fatalf("keys generate: %d %s%s", code, out, errOut)
	}
	svc := filepath.Join(ok, "svc")
	if code, out, errOut := f.run("", "keys", "services", "--out", svc); code != 0 {
		t.Fatalf("keys services: %d %s%s", code, out, errOut)
	}
	state := filepath.Join(ok, "state")
	if code, _, errOut := f.run("", "ledger", "demo", "--state", state, "--quiet"); code != 0 {
		t.Fatalf("ledger demo: %s", errOut)
	}
	bundle := filepath.Join(ok, "bundle.json")
	writeFile(t, bundle, []byte("{}"))
	patch := filepath.Join(ok, "p.diff")
	writeFile(t, patch, []byte("x"))
	pub, logKey := filepath.Join(keys, verdictPubFile), filepath.Join(ok, "log.pub")
	_, vkey, err := note.GenerateKey(nil, "sealgate.local/log-test")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, logKey, []byte(vkey+"\n"))
	base := []string{"--repo", f.repo.Dir, "--base", f.repo.Base}
	verifyState := filepath.Join(ok, "verify-state")

	for kind, bad := range badFiles(t) {
		for _, c := range []struct {
			flag string
			args []string
		}{
			{"--patch-file", append([]string{"verify", "--state", verifyState, "--patch-file", bad}, base...)},
			{"--config", append([]string{"verify", "--state", verifyState, "--patch", f.patch("honest-fix"), "--config", bad}, base...)},
			{"--signing-key", append([]string{"verify", "--state", verifyState, "--patch", f.patch("honest-fix"), "--signing-key", bad}, base...)},
			{"bundle", []string{"attest", "verify", bad, "--patch-file", patch, "--key", pub, "--log-key", logKey}},
			{"--key", []string{"attest", "verify", bundle, "--patch-file", patch, "--key", bad, "--log-key", logKey}},
			{"--log-key", []string{"attest", "verify", bundle, "--patch-file", patch, "--key", pub, "--log-key", bad}},
			{"--patch-file", []string{"attest", "verify", bundle, "--patch-file", bad, "--key", pub, "--log-key", logKey}},
			{"--trust", []string{"ledger", "verify", "--state", state, "--trust", bad}},
			{"--trust", []string{"serve", "checkout", "--brokers", "127.0.0.1:1", "--blobs", ok, "--keys", svc, "--trust", bad}},
		} {
			t.Run(kind+" as "+c.args[0]+" "+c.args[1]+" "+c.flag, func(t *testing.T) {
				code, out, errOut := f.run("", c.args...)
				if code != exitUsage || out != "" {
					t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
				}
				oneLine(t, "stderr", errOut, c.flag, badFileSays(kind))
			})
		}
	}
	if _, err := os.Stat(verifyState); !os.IsNotExist(err) {
		t.Fatalf("a refused verify touched its state directory: %v", err)
	}
	// A ledger is read through its memory map, not into memory: what is
	// not a regular file is refused; a sparse one is not a ledger.
	for kind, bad := range badFiles(t) {
		code, _, errOut := f.run("", "ledger", "verify", "--ledger", bad, "--trust", filepath.Join(state, trustFile))
		if kind == "a 10 GiB sparse file" {
			if code != exitNoProof || !strings.Contains(errOut, "corrupt database file") {
				t.Fatalf("a sparse ledger: exit %d %s", code, errOut)
			}
			continue
		}
		if code != exitUsage {
			t.Fatalf("%s as --ledger: exit %d %s", kind, code, errOut)
		}
		oneLine(t, "--ledger", errOut, "ledger "+bad+" "+badFileSays(kind))
	}

	// A key file that is a FIFO, in a key directory serve reads.
	fifoKeys := filepath.Join(ok, "fifo-keys")
	copyTree(t, svc, fifoKeys)
	key := filepath.Join(fifoKeys, "sealgate_checkout.key")
	os.Remove(key)
	if err := syscall.Mkfifo(key, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := f.run("", "serve", "checkout", "--brokers", "127.0.0.1:1", "--blobs", ok, "--keys", fifoKeys, "--trust", filepath.Join(svc, trustFile))
	if code != exitUsage {
		t.Fatalf("serve with a FIFO for a key: exit %d %s", code, errOut)
	}
	oneLine(t, "serve", errOut, "sealgate_checkout.key is a FIFO, not a regular file")
}

// TestPatchLimitCanBeRaised: --max-patch-bytes is the limit, and the
// honest twin of the refusal: a real diff within it verifies.
func TestPatchLimitCanBeRaised(t *testing.T) {
	f := newBinFixture(t)
	diff, err := exec.Command("git", "-C", f.repo.Dir, "diff", f.repo.Base, f.patch("honest-fix")).Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fix.diff")
	writeFile(t, path, diff)
	args := func(extra ...string) []string {
		return append([]string{"verify", "--repo", f.repo.Dir, "--base", f.repo.Base, "--patch-file", path,
			"--claim", "go:./calc:TestMedian", "--mutation-max", "0", "--coverage-floor", "0", "--strength-floor", "0",
			"--build-cache", f.cache, "--state", filepath.Join(t.TempDir(), "state")}, extra...)
	}
	code, _, errOut := f.run("", args("--max-patch-bytes", "100")...)
	if code != exitUsage {
		t.Fatalf("over --max-patch-bytes: exit %d", code)
	}
	oneLine(t, "stderr", errOut, fmt.Sprintf("is %d B, over the limit of 100 B; raise the limit with --max-patch-bytes", len(diff)))
	if code, _, errOut := f.run("", args("--max-patch-bytes", "0")...); code != exitUsage || !strings.Contains(errOut, "must be positive") {
		t.Fatalf("--max-patch-bytes 0: exit %d %s", code, errOut)
	}
	if code, _, errOut := f.run("", args()...); code != 0 {
		t.Fatalf("the diff within the limit: exit %d\n%s", code, errOut)
	}
}

// TestHugePatchShowsProgress: a valid patch of 100,000 hunks says what it
// holds and that it is being applied before the run starts.
func TestHugePatchShowsProgress(t *testing.T) {
	f := newBinFixture(t)
	repo := filepath.Join(t.TempDir(), "big")
	git := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return out
	}
	if err := os.MkdirAll(filepath.Join(repo, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	writeFile(t, filepath.Join(repo, "go.mod"), []byte("module example.com/big\n\ngo 1.22\n"))
	source := func(changed bool) {
		for file := range 100 {
			var b strings.Builder
			b.WriteString("package pkg\n\n")
			for i := range 1000 {
				v := fmt.Sprint(i)
				if changed {
					v += " + 1"
				}
				fmt.Fprintf(&b, "var V%d_%d = %s\n", file, i, v)
				for k := range 7 {
					fmt.Fprintf(&b, "// filler %d\n", k)
				}
			}
			writeFile(t, filepath.Join(repo, "pkg", fmt.Sprintf("f%d.go", file)), []byte(b.String()))
		}
	}
	source(false)
	git("add", "-A")
	git("commit", "-qm", "base")
	source(true)
	diff := git("diff")
	git("checkout", "-q", ".")
	if n := bytes.Count(diff, []byte("\n@@ ")); n != 100000 {
		t.Fatalf("%d hunks", n)
	}
	path := filepath.Join(t.TempDir(), "big.diff")
	writeFile(t, path, diff)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.bin, "verify", "--repo", repo, "--base", "HEAD", "--patch-file", path,
		"--build-cache", f.cache, "--state", filepath.Join(t.TempDir(), "state"), "--mutation-max", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var said []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		said = append(said, sc.Text())
		if strings.HasPrefix(sc.Text(), "sealgate: pre-flight: patch applied in") {
			// What follows is the verification itself: not this test's.
			_ = cmd.Process.Signal(syscall.SIGTERM)
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	_ = cmd.Wait()
	all := strings.Join(said, "\n")
	if !strings.Contains(all, "sealgate: pre-flight: the patch is ") || !strings.Contains(all, ": 100 files, 100000 hunks, parsed in ") ||
		!strings.Contains(all, "sealgate: pre-flight: patch applied in") {
		t.Fatalf("no pre-flight progress:\n%s", all)
	}
}

func TestPreflightProgressTicks(t *testing.T) {
	var b strings.Builder
	// A large diff that does not parse says nothing: Prepare names the
	// problem.
	diff := []byte(strings.Repeat("@@ -1 +1 @@\n", bigPatchBytes/12+1))
	view := &progress{w: &b}
	stop := preflightProgress(view, diff, time.Millisecond)
	stop()
	if b.Len() != 0 {
		t.Fatalf("said %q about a diff that does not parse", b.String())
	}
	var hunks strings.Builder
	hunks.WriteString("--- a/x.go\n+++ b/x.go\n")
	for i := range bigPatchHunks {
		fmt.Fprintf(&hunks, "@@ -%d +%d @@\n-a\n+b\n", 10*i+1, 10*i+1)
	}
	stop = preflightProgress(view, []byte(hunks.String()), time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	stop()
	stop()
	out := b.String()
	if !strings.Contains(out, "1 files, 1000 hunks") || !strings.Contains(out, "still applying the patch") || strings.Count(out, "patch applied in") != 1 {
		t.Fatalf("progress said:\n%s", out)
	}
}

// TestSmallHoles: the smaller holes of issue #12, each attacked with its
// honest twin.
func TestSmallHoles(t *testing.T) {
	f := newBinFixture(t)

	t.Run("a relative --state", func(t *testing.T) {
		cwd := t.TempDir()
		code, _, errOut := f.run(cwd, f.verifyArgs(filepath.Join("rel", "state"), f.patch("honest-fix"))...)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		if _, err := os.Stat(filepath.Join(cwd, "rel", "state", anchorFile)); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := f.run(cwd, "ledger", "verify", "--state", filepath.Join("rel", "state")); code != 0 {
			t.Fatalf("ledger verify: %d %s%s", code, out, errOut)
		}
	})

	t.Run("outputs that cannot be written are found first", func(t *testing.T) {
		dir := t.TempDir()
		aFile := filepath.Join(dir, "file")
		writeFile(t, aFile, nil)
		for _, c := range []struct {
			flag, path, want string
		}{
			{"--out", filepath.Join(dir, "missing", "a.json"), "does not exist; create it first"},
			{"--attestation", filepath.Join(aFile, "b.json"), "is not a directory"},
			{"--mutation-report", dir, "there is a directory there"},
		} {
			state := filepath.Join(t.TempDir(), "state")
			code, out, errOut := f.verify(state, f.patch("honest-fix"), c.flag, c.path)
			if code != exitUsage || out != "" {
				t.Fatalf("%s %s: exit %d", c.flag, c.path, code)
			}
			oneLine(t, c.flag, errOut, c.flag, c.want)
			if _, err := os.Stat(state); !os.IsNotExist(err) {
				t.Fatalf("%s: the state was opened before the output was checked", c.flag)
			}
		}
		if os.Geteuid() != 0 {
			ro := filepath.Join(dir, "ro")
			if err := os.Mkdir(ro, 0o500); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := f.verify(filepath.Join(t.TempDir(), "state"), f.patch("honest-fix"), "--out", filepath.Join(ro, "a.json"))
			if code != exitUsage {
				t.Fatalf("an unwritable directory: exit %d", code)
			}
			oneLine(t, "--out", errOut, "cannot write in")
		}
	})

	t.Run("claims", func(t *testing.T) {
		for _, c := range [][]string{
			{"--claim", "go:./calc:TestMedian\nFAKE"},
			{"--claim", "go:./calc:TestMedian\x1b[2K"},
			{"--claim", "cmd:unit tests", "--test-command", "go test ./..."},
			{"--claim", "pytest:tests/test_x.py::"},
			{"--claim", "pytest:tests/test_x.py::TestK::"},
		} {
			state := filepath.Join(t.TempDir(), "state")
			args := append([]string{"verify", "--repo", f.repo.Dir, "--base", f.repo.Base, "--patch", f.patch("honest-fix"), "--state", state}, c...)
			code, _, errOut := f.run("", args...)
			if code != exitUsage {
				t.Fatalf("%q: exit %d", c, code)
			}
			oneLine(t, fmt.Sprintf("%q", c), errOut, "claim")
		}
	})

	// Two sealed verdicts: a MERGE and a BLOCK, with their bundles.
	state := filepath.Join(t.TempDir(), "state")
	bundles := t.TempDir()
	mergeBundle, blockBundle := filepath.Join(bundles, "merge.json"), filepath.Join(bundles, "block.json")
	f.mustVerify(state, f.patch("honest-fix"), 0, "--attestation", mergeBundle)
	f.mustVerify(state, f.patch("breaks-a-test"), 1, "--attestation", blockBundle)
	attest := func(bundle string, keyArgs ...string) (int, string, string) {
		if keyArgs == nil {
			keyArgs = []string{"--key", filepath.Join(state, keysDir, verdictPubFile), "--log-key", filepath.Join(state, tlogDir, "log.pub")}
		}
		return f.run("", append([]string{"attest", "verify", bundle, "--repo", f.repo.Dir, "--base", f.repo.Base, "--patch", f.patch("breaks-a-test")}, keyArgs...)...)
	}
	if code, out, errOut := attest(blockBundle); code != 0 || !strings.Contains(out, "verified: BLOCK") {
		t.Fatalf("the honest bundle: exit %d\n%s%s", code, out, errOut)
	}

	t.Run("attest verify reads bundles strictly", func(t *testing.T) {
		raw := readFile(t, blockBundle)
		var merge struct {
			Verdict json.RawMessage `json:"verdict"`
		}
		if err := json.Unmarshal(readFile(t, mergeBundle), &merge); err != nil {
			t.Fatal(err)
		}
		obj := string(raw[:bytes.LastIndexByte(raw, '}')])
		var tampered map[string]any
		if err := json.Unmarshal(raw, &tampered); err != nil {
			t.Fatal(err)
		}
		tampered["tlog"].(map[string]any)["log_id"] = strings.Repeat("0", 64)
		wrongLog, _ := json.Marshal(tampered)
		for _, c := range []struct {
			name, data, check, want string
		}{
			// The attack: BLOCK under "verdict", MERGE under
			// "VERDICT" — encoding/json takes the last.
			{"a case-variant key", obj + `,"VERDICT":` + string(merge.Verdict) + "}", "envelope", `keys "verdict" and "VERDICT" differ only in case`},
			{"a duplicate key", obj + `,"verdict":` + string(merge.Verdict) + "}", "envelope", `key "verdict" appears twice`},
			{"a duplicate deep inside", strings.Replace(string(raw), `"log_index":`, `"log_index": 0, "log_index":`, 1), "envelope", `$.tlog: key "log_index" appears twice`},
			{"trailing bytes", string(raw) + "}", "envelope", "trailing data"},
			{"another log's id", string(wrongLog), "checkpoint", "the bundle names log 0000000000000000…"},
		} {
			path := filepath.Join(t.TempDir(), "bundle.json")
			writeFile(t, path, []byte(c.data))
			code, out, _ := attest(path)
			if code != exitFailed || !strings.Contains(out, "FAIL "+c.check) || !strings.Contains(out, c.want) {
				t.Fatalf("%s: exit %d\n%s", c.name, code, out)
			}
		}
	})

	t.Run("an inclusion failure is one line of hex", func(t *testing.T) {
		var b map[string]any
		if err := json.Unmarshal(readFile(t, blockBundle), &b); err != nil {
			t.Fatal(err)
		}
		b["tlog"].(map[string]any)["root_hash"] = strings.Repeat("ab", 32)
		raw, _ := json.Marshal(b)
		path := filepath.Join(t.TempDir(), "bundle.json")
		writeFile(t, path, raw)
		code, out, errOut := attest(path)
		if code != exitFailed {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		var failLine string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "FAIL") {
				failLine = l
			}
		}
		if !strings.HasPrefix(failLine, "FAIL inclusion") || strings.Contains(failLine, "[") ||
			!strings.Contains(failLine, "does not match the expected root "+strings.Repeat("ab", 32)) {
			t.Fatalf("FAIL line %q\n%s", failLine, out)
		}
		oneLine(t, "stderr", errOut, "check inclusion failed")
	})

	t.Run("garbage keys are usage errors", func(t *testing.T) {
		garbage := filepath.Join(t.TempDir(), "garbage")
		writeFile(t, garbage, []byte("not a key\n"))
		pub, logKey := filepath.Join(state, keysDir, verdictPubFile), filepath.Join(state, tlogDir, "log.pub")
		for _, c := range []struct {
			flag string
			args []string
		}{
			{"--key", []string{"--key", garbage, "--log-key", logKey}},
			{"--log-key", []string{"--key", pub, "--log-key", garbage}},
		} {
			code, _, errOut := attest(blockBundle, c.args...)
			if code != exitUsage {
				t.Fatalf("%s garbage: exit %d %s", c.flag, code, errOut)
			}
			oneLine(t, c.flag, errOut, c.flag, "garbage")
		}
	})

	t.Run("state files are written whole", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "svc")
		for range 2 {
			if code, _, errOut := f.run("", "keys", "services", "--out", out); code != 0 {
				t.Fatalf("keys services: %s", errOut)
			}
		}
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			if strings.Contains(e.Name(), "tmp") {
				t.Fatalf("left behind: %s", e.Name())
			}
		}
		var trust map[string]any
		if err := json.Unmarshal(readFile(t, filepath.Join(out, trustFile)), &trust); err != nil {
			t.Fatalf("trust.json: %v", err)
		}
		for _, dir := range []string{state, filepath.Join(state, keysDir), filepath.Join(state, tlogDir)} {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") {
					t.Fatalf("left behind in %s: %s", dir, e.Name())
				}
			}
		}
	})
}

// In-package callers (the demo) leave the patch limit unset: it is the
// default, not a usage error.
func TestAttestVerifyDefaultsThePatchLimit(t *testing.T) {
	dir := t.TempDir()
	patch := filepath.Join(dir, "p.diff")
	writeFile(t, patch, []byte("x"))
	err := attestVerify(context.Background(), &bytes.Buffer{}, filepath.Join(dir, "none.json"), &attestVerifyOptions{patchFile: patch, key: "k", logKey: "l"})
	if err == nil || strings.Contains(err.Error(), "max-patch-bytes") || !strings.Contains(err.Error(), "bundle") {
		t.Fatalf("attestVerify = %v", err)
	}
}

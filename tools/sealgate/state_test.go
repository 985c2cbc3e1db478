package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	demorepo "github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/local"
)

// binFixture runs the sealgate binary against the bundled demo repository.
type binFixture struct {
	t     *testing.T
	bin   string
	repo  *demorepo.Repo
	cache string
}

func newBinFixture(t *testing.T) *binFixture {
	t.Helper()
	if testing.Short() {
		t.Skip("runs whole verifications; not in -short")
	}
	bin := buildBinary(t)
	r, err := demorepo.Build(context.Background(), filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	return &binFixture{t: t, bin: bin, repo: r, cache: sharedBuildCache(t)}
}

func (f *binFixture) patch(name string) string {
	for _, p := range f.repo.Patches {
		if p.Name == name {
			return p.Commit
		}
	}
	f.t.Fatalf("no demo patch %s", name)
	return ""
}

// run runs the binary in dir (the test's directory when empty).
func (f *binFixture) run(dir string, args ...string) (int, string, string) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.bin, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		f.t.Fatalf("%v: did not finish", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		f.t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// verifyArgs is a quick verification: one claim, no mutation, no floors.
func (f *binFixture) verifyArgs(state, patch string, extra ...string) []string {
	return append([]string{"verify", "--repo", f.repo.Dir, "--base", f.repo.Base, "--patch", patch,
		"--claim", "go:./calc:TestMedian", "--mutation-max", "0", "--coverage-floor", "0", "--strength-floor", "0",
		"--build-cache", f.cache, "--state", state}, extra...)
}

func (f *binFixture) verify(state, patch string, extra ...string) (int, string, string) {
	f.t.Helper()
	return f.run("", f.verifyArgs(state, patch, extra...)...)
}

// mustVerify verifies and returns the sealed artefact's run id and log index.
func (f *binFixture) mustVerify(state, patch string, want int, extra ...string) (string, uint64) {
	f.t.Helper()
	code, out, errOut := f.verify(state, patch, extra...)
	if code != want {
		f.t.Fatalf("verify: exit %d, want %d\n%s", code, want, errOut)
	}
	var a struct {
		RunID string `json:"run_id"`
		Seal  struct {
			LogIndex uint64 `json:"log_index"`
			LogID    string `json:"log_id"`
		} `json:"seal"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		f.t.Fatalf("artefact: %v\n%s", err, out)
	}
	return a.RunID, a.Seal.LogIndex
}

// oneLine checks that stderr is one line saying all of want.
func oneLine(t *testing.T, what, stderr string, want ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "sealgate: ") {
		t.Fatalf("%s: stderr is not one line:\n%s", what, stderr)
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Fatalf("%s: %q does not say %q", what, lines[0], w)
		}
	}
}

// ledgerHead reads a ledger's head without writing; "" when there is none.
// ledgerSeq is the number of the last record of a ledger file.
func ledgerSeq(t *testing.T, path string) uint64 {
	t.Helper()
	l, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	seq, _, err := l.Head()
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

func ledgerHead(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		return "absent"
	}
	if fi.Size() == 0 {
		return "empty"
	}
	l, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		return "unreadable"
	}
	defer l.Close()
	seq, h, err := l.Head()
	if err != nil {
		return "unreadable"
	}
	return fmt.Sprintf("#%d %s", seq, h)
}

// treeFingerprint hashes every file under dir (lock files aside).
func treeFingerprint(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		lines = append(lines, fmt.Sprintf("%s %x", rel, sha256.Sum256(b)))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// copyTree copies a state directory.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLostLedgerIsNeverStartedOver: a ledger emptied, truncated, deleted,
// replaced by an older copy or by another ledger is refused by every
// command that opens it, naming what is missing; nothing is appended and
// the transparency log does not move. A lagging anchor (a crash between an
// append and the anchor's write) is not tampering; reanchor accepts a lost
// ledger on purpose.
func TestLostLedgerIsNeverStartedOver(t *testing.T) {
	f := newBinFixture(t)
	good := filepath.Join(t.TempDir(), "state")
	run1, idx := f.mustVerify(good, f.patch("honest-fix"), 0)
	if idx != 0 {
		t.Fatalf("the first seal is at index %d", idx)
	}
	older := readFile(t, filepath.Join(good, ledgerFile))
	olderN := ledgerSeq(t, filepath.Join(good, ledgerFile))
	lagging := readFile(t, filepath.Join(good, anchorFile))
	f.mustVerify(good, f.patch("breaks-a-test"), 1)
	n := ledgerSeq(t, filepath.Join(good, ledgerFile))
	held := fmt.Sprintf("says it held %d records", n)

	// Another state's ledger, longer than this one's.
	other := filepath.Join(t.TempDir(), "other")
	if code, _, errOut := f.run("", "ledger", "demo", "--state", other, "--runs", "3", "--quiet"); code != 0 {
		t.Fatalf("ledger demo: %d %s", code, errOut)
	}
	cases := []struct {
		name   string
		damage func(dir string)
		want   []string
	}{
		{"emptied", func(dir string) { writeFile(t, filepath.Join(dir, ledgerFile), nil) }, []string{"ledger.db is empty", held}},
		{"truncated", func(dir string) {
			// Down to its first two pages (the meta pages): every record
			// is gone, whatever room the file had preallocated.
			if err := os.Truncate(filepath.Join(dir, ledgerFile), 2*4096); err != nil {
				t.Fatal(err)
			}
		}, []string{"ledger.db is truncated or damaged", held}},
		{"deleted", func(dir string) { os.Remove(filepath.Join(dir, ledgerFile)) }, []string{"ledger.db is missing", held}},
		{"an older copy", func(dir string) { writeFile(t, filepath.Join(dir, ledgerFile), older) }, []string{
			fmt.Sprintf("ledger.db was rolled back: it ends at record #%d", olderN), fmt.Sprintf("records #%d to #%d are missing", olderN+1, n)}},
		{"another ledger", func(dir string) {
			writeFile(t, filepath.Join(dir, ledgerFile), readFile(t, filepath.Join(other, ledgerFile)))
		}, []string{fmt.Sprintf("ledger.db was replaced: its record #%d", n)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			copyTree(t, good, dir)
			c.damage(dir)
			head := ledgerHead(t, filepath.Join(dir, ledgerFile))
			logBefore := treeFingerprint(t, filepath.Join(dir, tlogDir))
			code, out, errOut := f.verify(dir, f.patch("honest-fix"))
			if code != exitNoProof || out != "" {
				t.Fatalf("verify: exit %d, stdout %q", code, out)
			}
			oneLine(t, "verify", errOut, append(c.want, "restore it from a backup", "sealgate state reanchor")...)
			if got := ledgerHead(t, filepath.Join(dir, ledgerFile)); got != head {
				t.Fatalf("the ledger moved: %s → %s", head, got)
			}
			if treeFingerprint(t, filepath.Join(dir, tlogDir)) != logBefore {
				t.Fatal("the transparency log changed")
			}
			// Every other command that reads the ledger says so too.
			for _, args := range [][]string{{"ledger", "verify", "--state", dir}, {"replay", "--state", dir, run1}, {"ledger", "demo", "--state", dir, "--quiet"}, {"state", "check", "--state", dir}} {
				code, out, errOut := f.run("", args...)
				if code == 0 || !strings.Contains(out+errOut, c.want[0]) {
					t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
				}
			}
			if got := ledgerHead(t, filepath.Join(dir, ledgerFile)); got != head {
				t.Fatalf("the ledger moved: %s → %s", head, got)
			}
		})
	}

	t.Run("reanchored on purpose", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		copyTree(t, good, dir)
		writeFile(t, filepath.Join(dir, ledgerFile), older)
		code, out, errOut := f.run("", "state", "reanchor", "--state", dir)
		if code != 0 || !strings.Contains(out, fmt.Sprintf("records #%d to #%d are no longer on the ledger", olderN+1, n)) {
			t.Fatalf("reanchor: exit %d\n%s%s", code, out, errOut)
		}
		// The log goes on where it was: nothing is logged twice at an index.
		if _, idx := f.mustVerify(dir, f.patch("honest-fix"), 0); idx != 2 {
			t.Fatalf("sealed at index %d after reanchoring, want 2", idx)
		}
	})

	t.Run("the anchor lost", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		copyTree(t, good, dir)
		os.Remove(filepath.Join(dir, anchorFile))
		code, _, errOut := f.verify(dir, f.patch("honest-fix"))
		if code != exitNoProof {
			t.Fatalf("verify without an anchor: exit %d", code)
		}
		oneLine(t, "verify", errOut, "has no anchor", fmt.Sprintf("its ledger holds %d records", n), "sealgate state reanchor")
		if code, out, errOut := f.run("", "state", "reanchor", "--state", dir); code != 0 {
			t.Fatalf("reanchor: %d %s%s", code, out, errOut)
		}
		f.mustVerify(dir, f.patch("honest-fix"), 0)
	})

	// The honest twin of a rollback: an anchor that lags the ledger and the
	// log (a crash after an append, before the anchor's write) is fine,
	// and catches up.
	t.Run("a lagging anchor", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		copyTree(t, good, dir)
		writeFile(t, filepath.Join(dir, anchorFile), lagging)
		if _, idx := f.mustVerify(dir, f.patch("honest-fix"), 0); idx != 2 {
			t.Fatalf("sealed at index %d", idx)
		}
		var a anchor
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, anchorFile)), &a); err != nil {
			t.Fatal(err)
		}
		if a.Ledger.Seq <= 20 || a.Log.TreeSize != 3 || a.Log.SealedIndex != 2 {
			t.Fatalf("the anchor did not catch up: %+v %+v", a.Ledger, a.Log)
		}
		if code, out, errOut := f.run("", "ledger", "verify", "--state", dir); code != 0 {
			t.Fatalf("ledger verify: %d %s%s", code, out, errOut)
		}
		if code, out, errOut := f.run("", "state", "check", "--state", dir); code != 0 {
			t.Fatalf("state check: %d %s%s", code, out, errOut)
		}
	})
}

// TestDamagedLogIsNamedAndRepaired: the embedded log with its tiles
// deleted, a tile corrupted (entries and hash) or its checkpoint rolled
// back is refused before anything is appended, naming the damage; the
// ledger and what only needs it (ledger verify, replay) are untouched; the
// documented repair rebuilds it and the log goes on at the next index.
func TestDamagedLogIsNamedAndRepaired(t *testing.T) {
	f := newBinFixture(t)
	good := filepath.Join(t.TempDir(), "state")
	run1, _ := f.mustVerify(good, f.patch("honest-fix"), 0)
	cp1 := readFile(t, filepath.Join(good, tlogDir, "tiles", "checkpoint"))
	f.mustVerify(good, f.patch("breaks-a-test"), 1)
	tiles := func(dir string, p ...string) string {
		return filepath.Join(append([]string{dir, tlogDir, "tiles"}, p...)...)
	}
	flipByte := func(path string, at int) {
		b := readFile(t, path)
		if at < 0 {
			at += len(b)
		}
		b[at] ^= 0x01
		writeFile(t, path, b)
	}
	cases := []struct {
		name   string
		damage func(dir string)
		want   string
	}{
		{"tiles deleted", func(dir string) {
			os.RemoveAll(tiles(dir))
			os.Remove(filepath.Join(dir, tlogDir, "last-checkpoint"))
		}, "tlog/tiles has no tiles at all, but the anchor"},
		{"a hash tile deleted", func(dir string) { os.Remove(tiles(dir, "tile", "0", "000.p", "2")) }, "tlog/tiles/tile/0/000.p/2 is missing"},
		{"an entries tile corrupted", func(dir string) { flipByte(tiles(dir, "tile", "entries", "000.p", "2"), -30) },
			"entry bundle " + "X/tlog/tiles/tile/entries/000.p/2: entry 1 (log index 1) does not hash to the leaf"},
		{"a hash tile corrupted", func(dir string) { flipByte(tiles(dir, "tile", "0", "000.p", "2"), 40) },
			"hash tile X/tlog/tiles/tile/0/000.p/2: hash 1 is not the one recomputed from the entries"},
		{"the checkpoint rolled back", func(dir string) { writeFile(t, tiles(dir, "checkpoint"), cp1) },
			"the published checkpoint (X/tlog/tiles/checkpoint) is at size 1, but the anchor"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			copyTree(t, good, dir)
			c.damage(dir)
			want := strings.ReplaceAll(c.want, "X/", dir+"/")
			head := ledgerHead(t, filepath.Join(dir, ledgerFile))
			logBefore := treeFingerprint(t, filepath.Join(dir, tlogDir))
			code, out, errOut := f.verify(dir, f.patch("honest-fix"))
			if code != exitNoProof || out != "" {
				t.Fatalf("verify: exit %d, stdout %q\n%s", code, out, errOut)
			}
			oneLine(t, "verify", errOut, want, "sealgate state repair-log")
			if got := ledgerHead(t, filepath.Join(dir, ledgerFile)); got != head {
				t.Fatalf("the ledger moved: %s → %s", head, got)
			}
			if treeFingerprint(t, filepath.Join(dir, tlogDir)) != logBefore {
				t.Fatal("the damaged log was written to")
			}
			// Unrelated work goes on: the ledger verifies, an old run
			// replays and its seal checks offline from its bundle.
			if code, out, errOut := f.run("", "ledger", "verify", "--state", dir); code != 0 {
				t.Fatalf("ledger verify: %d %s%s", code, out, errOut)
			}
			if code, out, errOut := f.run("", "replay", "--state", dir, run1); code != 0 {
				t.Fatalf("replay: %d %s%s", code, out, errOut)
			}
			if code, out, _ := f.run("", "state", "check", "--state", dir); code != exitFailed || !strings.Contains(out, "FAIL log") || !strings.Contains(out, want) {
				t.Fatalf("state check: exit %d\n%s", code, out)
			}
			// Repaired, the log goes on at the next index: not restarted.
			if code, out, errOut := f.run("", "state", "repair-log", "--state", dir); code != 0 || !strings.Contains(out, "rebuilt") {
				t.Fatalf("repair-log: exit %d\n%s%s", code, out, errOut)
			}
			if _, idx := f.mustVerify(dir, f.patch("honest-fix"), 0); idx != 2 {
				t.Fatalf("sealed at index %d after the repair, want 2", idx)
			}
			if code, out, errOut := f.run("", "state", "check", "--state", dir); code != 0 {
				t.Fatalf("state check after the repair: %d %s%s", code, out, errOut)
			}
		})
	}

	t.Run("moved aside", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		copyTree(t, good, dir)
		flipByte(tiles(dir, "tile", "entries", "000.p", "2"), -30)
		// The sealed bundles are gone too: the entry cannot be recovered.
		os.RemoveAll(filepath.Join(dir, blobsDir))
		if code, out, errOut := f.run("", "state", "repair-log", "--state", dir); code != exitNoProof || !strings.Contains(errOut, "--move-aside") {
			t.Fatalf("repair-log without the sealed leaves: exit %d\n%s%s", code, out, errOut)
		}
		if code, out, errOut := f.run("", "state", "repair-log", "--move-aside", "--state", dir); code != 0 || !strings.Contains(out, "tlog.aside-") {
			t.Fatalf("repair-log --move-aside: exit %d\n%s%s", code, out, errOut)
		}
		// A new log, with a new key, from index 0.
		if _, idx := f.mustVerify(dir, f.patch("honest-fix"), 0); idx != 0 {
			t.Fatalf("sealed at index %d in the new log", idx)
		}
		if code, out, errOut := f.run("", "state", "check", "--state", dir); code != 0 {
			t.Fatalf("state check: %d %s%s", code, out, errOut)
		}
	})
}

// TestLogDamagedDuringARun: damage that appears while a verification runs
// is caught before the checkpoint is signed: the verdict is reached and
// recorded, the seal fails with exit 4 naming the damage, and after the
// repair the next start seals the recorded verdict too.
func TestLogDamagedDuringARun(t *testing.T) {
	f := newBinFixture(t)
	dir := filepath.Join(t.TempDir(), "state")
	f.mustVerify(dir, f.patch("honest-fix"), 0)
	f.mustVerify(dir, f.patch("breaks-a-test"), 1)
	// A patch whose suite takes a while: time to damage the log while the
	// run is under way.
	slow, err := f.repo.Commit(context.Background(), f.patch("honest-fix"), "slow", "slow", map[string]string{
		"calc/slow_test.go": "package calc\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlowly(t *testing.T) { time.Sleep(3 * time.Second) }\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.bin, f.verifyArgs(dir, slow)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	damaged := false
	var runID string
	for sc.Scan() {
		line := sc.Text()
		log.WriteString(line + "\n")
		if _, rest, ok := strings.Cut(line, "sealgate: run "); ok && runID == "" {
			runID, _, _ = strings.Cut(rest, ":")
		}
		// The log is open once the run is under way: damage its last
		// bundle, which the next append must copy forward.
		if !damaged && strings.Contains(line, "trees.materialized") {
			p := filepath.Join(dir, tlogDir, "tiles", "tile", "entries", "000.p", "2")
			b := readFile(t, p)
			b[len(b)-30] ^= 1
			writeFile(t, p, b)
			damaged = true
		}
	}
	err = cmd.Wait()
	ee, _ := err.(*exec.ExitError)
	if !damaged || ee == nil || ee.ExitCode() != exitNoProof || out.Len() != 0 {
		t.Fatalf("exit %v, damaged %v, stdout %q\n%s", err, damaged, out.String(), log.String())
	}
	last := strings.TrimSpace(log.String())
	last = last[strings.LastIndex(last, "\n")+1:]
	for _, want := range []string{"was reached and recorded but not sealed", "entry bundle " + dir + "/tlog/tiles/tile/entries/000.p/2", "sealgate state repair-log"} {
		if !strings.Contains(last, want) {
			t.Fatalf("the last line %q does not say %q", last, want)
		}
	}
	// The verdict is on the ledger; its seal is not; the log did not move.
	code, insp, _ := f.run("", "ledger", "inspect", "--state", dir, "--run", runID)
	if code != 0 || !strings.Contains(insp, "verdict.reached") || strings.Contains(insp, "verdict.sealed") {
		t.Fatalf("inspect: exit %d\n%s", code, insp)
	}
	if code, out, errOut := f.run("", "ledger", "verify", "--state", dir); code != 0 {
		t.Fatalf("ledger verify: %d %s%s", code, out, errOut)
	}
	if code, out, errOut := f.run("", "state", "repair-log", "--state", dir); code != 0 {
		t.Fatalf("repair-log: %d %s%s", code, out, errOut)
	}
	// The next start seals the recorded verdict, then its own.
	f.mustVerify(dir, f.patch("honest-fix"), 0)
	if code, out, errOut := f.run("", "replay", "--state", dir, runID); code != 0 || !strings.Contains(out, "every check of `attest verify` passes") {
		t.Fatalf("replay of the interrupted run: %d\n%s%s", code, out, errOut)
	}
}

// TestWorkIsCleanedOnlyUnderTheLock: a run killed mid-job leaves its job
// directories in STATE/work; the next start removes them, but not while
// another sealgate holds the state.
func TestWorkIsCleanedOnlyUnderTheLock(t *testing.T) {
	f := newBinFixture(t)
	dir := filepath.Join(t.TempDir(), "state")
	slow, err := f.repo.Commit(context.Background(), f.patch("honest-fix"), "slow", "slow", map[string]string{
		"calc/slow_test.go": "package calc\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlowly(t *testing.T) { time.Sleep(30 * time.Second) }\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(f.bin, f.verifyArgs(dir, slow)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, workDir)
	deadline := time.After(3 * time.Minute)
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	// Kill it while a job runs in its directory under STATE/work.
	planned := false
wait:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the run ended before it could be killed")
			}
			planned = planned || strings.Contains(l, "job.planned")
		case <-time.After(200 * time.Millisecond):
			if entries, _ := os.ReadDir(work); planned && len(entries) > 0 {
				break wait
			}
		case <-deadline:
			t.Fatal("no job started")
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	go func() {
		for range lines {
		}
	}()
	_ = cmd.Wait()
	left, _ := os.ReadDir(work)
	if len(left) == 0 {
		t.Fatal("the killed run left nothing in STATE/work: the test proves nothing")
	}

	// Another sealgate holds the state: nothing is removed.
	l, err := local.Open(filepath.Join(dir, ledgerFile), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := f.verify(dir, f.patch("honest-fix"))
	l.Close()
	if code != exitNoProof {
		t.Fatalf("verify while the state is held: exit %d\n%s", code, errOut)
	}
	oneLine(t, "verify while held", errOut, "is in use by another sealgate")
	if still, _ := os.ReadDir(work); len(still) != len(left) {
		t.Fatalf("STATE/work was cleaned while another sealgate held the state: %d of %d left", len(still), len(left))
	}

	// The next start holds the lock and cleans up.
	if code, _, errOut := f.run("", "ledger", "demo", "--state", dir, "--quiet"); code != 0 {
		t.Fatalf("ledger demo: %d %s", code, errOut)
	}
	if still, _ := os.ReadDir(work); len(still) != 0 {
		t.Fatalf("STATE/work still holds %d entries after the next start", len(still))
	}
}

package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantTest is a baseline test file (not the patch's: no patch rule
// sees it) whose TestMain, after the tests ran, replaces every file the
// gate will read back from the test process — its coverage profile and
// a mutant's hit marker — with what %[1]s names: a symlink to the gate's
// private verdict key, a FIFO, a 10 GiB sparse file (512 MiB where the
// sandbox's file-size limit refuses that), or a symlink to a device.
const plantTest = `package calc

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

const plant = %[1]q
const key = %[2]q
const where = %[3]q

func TestMain(m *testing.M) {
	code := m.Run()
	var paths []string
	for _, a := range os.Args {
		if p, ok := strings.CutPrefix(a, "-test.coverprofile="); ok && where == "profile" {
			paths = append(paths, p)
		}
	}
	for _, kv := range os.Environ() {
		name, v, _ := strings.Cut(kv, "=")
		if _, marker, ok := strings.Cut(v, " "); ok && strings.HasPrefix(name, "SEALGATE_M_") && where == "marker" {
			paths = append(paths, marker)
		}
	}
	for _, p := range paths {
		os.Remove(p)
		var err error
		switch plant {
		case "symlink":
			err = os.Symlink(key, p)
		case "fifo":
			err = syscall.Mkfifo(p, 0o644)
		case "sparse":
			var f *os.File
			if f, err = os.Create(p); err == nil {
				// The sandbox's RLIMIT_FSIZE (1 GiB) refuses 10 GiB; half
				// a GiB is past every bound the gate reads with.
				if err = f.Truncate(10 << 30); err != nil {
					err = f.Truncate(512 << 20)
				}
				f.Close()
			}
		case "device":
			err = os.Symlink("/dev/zero", p)
		}
		if err != nil {
			println("planting failed:", err.Error())
			os.Exit(3)
		}
	}
	os.Exit(code)
}
`

// Issue #12 item 1, through the binary: test code plants a symlink to the
// gate's own private key, a FIFO, a huge sparse file and a device where
// the gate reads what the test process left (the coverage profile, the
// mutants' hit markers). The gate reads each beneath the job's directory
// without following symlinks, only as a regular file, within a bound:
// the verdict is INCONCLUSIVE naming the planted file, never MERGE, the
// run never hangs on the FIFO nor reads 10 GiB, and no byte of the key
// reaches the artefact, the ledger, a blob or the transparency log.
func TestHostileJobFilesAreNeverFollowed(t *testing.T) {
	r := newRepo(t)
	for _, tc := range []struct{ plant, where string }{
		{"symlink", "profile"}, {"fifo", "profile"}, {"sparse", "profile"}, {"device", "profile"},
		{"symlink", "marker"}, {"fifo", "marker"}, {"sparse", "marker"},
	} {
		plant := tc.plant
		t.Run(tc.plant+" at the "+tc.where, func(t *testing.T) {
			state := t.TempDir()
			key := filepath.Join(state, "keys", "verdict.key")
			base := r.commit(t, r.Base, "plant-"+plant+"-"+tc.where, "calc: a TestMain that plants "+plant+"s", map[string]string{
				"calc/zz_plant_test.go": fmt.Sprintf(plantTest, plant, key, tc.where),
			})
			fix := r.commit(t, base, "plant-"+plant+"-"+tc.where+"-fix", "calc: fix Median", map[string]string{
				"calc/median.go": r.honestMedian(t),
			})
			cache := filepath.Join(os.TempDir(), "sealgate-test-gocache")
			v := sealgate(t, append([]string{"verify", "--state", state, "--build-cache", cache},
				r.patchArgs(base, fix, claimArgs(medianClaim)...)...)...)
			if v.exitCode != exitInconclusive {
				t.Fatalf("exit %d, want %d (INCONCLUSIVE):\n%s", v.exitCode, exitInconclusive, v)
			}
			if !strings.Contains(v.stdout, "not a regular file") && !strings.Contains(v.stdout, "symbolic link") &&
				!strings.Contains(v.stdout, "allowed: refused") {
				t.Fatalf("the verdict does not name the planted file:\n%s", v)
			}
			secret, err := os.ReadFile(key)
			if err != nil {
				t.Fatalf("the state has no verdict key: %v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(secret)), "\n")
			if len(lines) < 3 {
				t.Fatalf("the verdict key is not PEM: %q", secret)
			}
			// The key material: the end of the PEM body (its start is the
			// ASN.1 prefix every Ed25519 key shares).
			body := []byte(lines[1])
			body = body[max(0, len(body)-24):]
			if bytes.Contains([]byte(v.stdout+v.stderr), body) {
				t.Fatalf("the verdict key's material is printed:\n%s", v)
			}
			err = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(state, p)
				top, _, _ := strings.Cut(rel, string(filepath.Separator))
				if d.IsDir() && (top == "keys" || top == "gocache" || top == "work" || top == "suite-cache") {
					return filepath.SkipDir
				}
				if !d.Type().IsRegular() {
					return nil
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if bytes.Contains(b, body) || bytes.Contains(b, secret) {
					t.Errorf("%s holds the verdict key's material", rel)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

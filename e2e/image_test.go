package e2e

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// imageEnv asks for the container image tests: they build the image
// twice from Debian packages (minutes each, as root, with mmdebstrap and
// Debian's package mirrors) and run it with podman.
const imageEnv = "SEALGATE_IMAGE"

// TestImage builds the sealgate image (tools/image) twice, each time from
// nothing — a fresh clone of HEAD, no cached root file system — and wants
// the same digest and the same bytes of the OCI layout's index and of the
// docker-load tarball: the image is reproducible. It checks that the
// labels record the inputs and that the image holds what jobs run. Then,
// where podman runs, it loads the tarball and runs `sealgate doctor --env`
// and `sealgate demo` inside the image: the sandbox must start there
// (bubblewrap in the container's user namespace) and every demo verdict
// must be the expected one.
//
//	SEALGATE_IMAGE=1 go test -timeout 60m -run TestImage ./e2e
func TestImage(t *testing.T) {
	if os.Getenv(imageEnv) != "1" || testing.Short() || os.Getenv("TEST_SRCDIR") != "" {
		t.Skipf("builds the container image twice (minutes, root, Debian mirrors): %s=1 go test -run TestImage ./e2e", imageEnv)
	}
	if os.Geteuid() != 0 {
		t.Skip("tools/image runs mmdebstrap as root")
	}
	for _, tool := range []string{"mmdebstrap", "git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s=1 but %v (apt-get install mmdebstrap)", imageEnv, err)
		}
	}
	work := t.TempDir()
	tool := filepath.Join(work, "image")
	imageRun(t, "..", "go", "build", "-o", tool, "./tools/image")
	head := strings.TrimSpace(imageRun(t, "..", "git", "rev-parse", "HEAD"))

	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Each build from nothing: its own output directory, so no cached root
	// file system, and the binary from a fresh clone of HEAD.
	build := func(name string) string {
		out := filepath.Join(work, name)
		imageRun(t, "..", tool, "--repo", repo, "--out", out, "--cache=false")
		return out
	}
	a, b := build("a"), build("b")
	for _, f := range []string{"digest.txt", "packages.txt", "oci/index.json", "sealgate-image.tar"} {
		if x, y := imageSum(t, filepath.Join(a, f)), imageSum(t, filepath.Join(b, f)); x != y {
			t.Errorf("%s differs between two builds of the same inputs: %s, %s", f, x, y)
		}
	}
	digest := strings.TrimSpace(string(imageRead(t, filepath.Join(a, "digest.txt"))))
	t.Logf("image %s, twice", digest)

	// The twin that must differ: the same build with the epoch one second
	// later (the root file system from b's cache: the same day) is another
	// image, with the same packages.
	epoch := strings.TrimSpace(imageRun(t, "..", "git", "log", "-1", "--format=%ct", head))
	n, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if n%86400 == 86399 {
		n-- // stay on the cached root file system's day
	} else {
		n++
	}
	imageRun(t, "..", tool, "--repo", repo, "--out", b, "--epoch", strconv.FormatInt(n, 10))
	if other := strings.TrimSpace(string(imageRead(t, filepath.Join(b, "digest.txt")))); other == digest {
		t.Errorf("another epoch gave the same digest %s: the build ignores an input", digest)
	}
	if imageSum(t, filepath.Join(a, "packages.txt")) != imageSum(t, filepath.Join(b, "packages.txt")) {
		t.Error("another epoch, the same day: the packages differ")
	}

	lp, err := layout.FromPath(filepath.Join(a, "oci"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := lp.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil || len(im.Manifests) != 1 || im.Manifests[0].Digest.String() != digest {
		t.Fatalf("the layout's index names %+v, want one image %s (%v)", im, digest, err)
	}
	img, err := idx.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	labels := cf.Config.Labels
	if labels["org.opencontainers.image.revision"] != head {
		t.Errorf("revision label %q, want %s", labels["org.opencontainers.image.revision"], head)
	}
	if !strings.HasPrefix(labels["io.sealgate.image.go.toolchain"], "golang.org/toolchain@v0.0.1-go1.26.8.linux-amd64 h1:") {
		t.Errorf("go.toolchain label %q", labels["io.sealgate.image.go.toolchain"])
	}
	pkgs := " " + labels["io.sealgate.image.debian.packages"]
	for _, p := range []string{"git", "bubblewrap", "python3", "python3-pytest", "python3-coverage", "util-linux"} {
		if !strings.Contains(pkgs, " "+p+"=") {
			t.Errorf("debian.packages label lacks %s: %s", p, pkgs)
		}
	}
	if cf.Config.User != "65532:65532" {
		t.Errorf("user %q, want the manifests' 65532:65532", cf.Config.User)
	}
	files := imageFiles(t, mutate.Extract(img))
	for _, f := range []string{"usr/local/bin/sealgate", "usr/local/go/bin/go", "usr/local/go/pkg/tool/linux_amd64/compile", "usr/bin/git", "usr/bin/bwrap", "usr/bin/python3", "usr/bin/prlimit"} {
		if mode, ok := files[f]; !ok {
			t.Errorf("the image has no %s", f)
		} else if mode&0o111 == 0 {
			t.Errorf("%s is not executable (mode %o)", f, mode)
		}
	}
	if t.Failed() {
		return
	}
	runInPodman(t, filepath.Join(a, "sealgate-image.tar"), head)
}

// podmanFlags run the image as the pods do — its non-root user, a
// read-only root, scratch space at /tmp — with no network. What the sandbox
// needs, and why podman gives it without a flag: bubblewrap, run by that
// unprivileged user, makes a user namespace and, inside it, mount, pid,
// network, ipc and uts namespaces. The kernel allows that to anyone
// (user.max_user_namespaces > 0); podman's default seccomp profile allows
// unshare and clone with namespace flags (Docker's and Kubernetes'
// RuntimeDefault do not, hence the pods' seccompProfile: Unconfined), and no
// capability is needed. `sealgate doctor --env` in the image shows the
// sandbox starting. Two flags are for hosts like this one, not for the
// image: runc where crun refuses a host of mixed cgroup v1 and v2 ("cgroups
// in hybrid mode not supported"), and limits no higher than the caller's,
// for a root without CAP_SYS_RESOURCE (podman raises RLIMIT_NOFILE and
// RLIMIT_NPROC for root containers otherwise, and the runtime fails).
func podmanFlags(t *testing.T) (global, run []string) {
	if _, err := exec.LookPath("runc"); err == nil {
		global = []string{"--runtime", "runc"}
	}
	run = []string{"run", "--rm", "--network=none", "--read-only", "--tmpfs", "/tmp:rw,exec,mode=1777"}
	for _, l := range []struct {
		name     string
		resource int
	}{{"nofile", syscall.RLIMIT_NOFILE}, {"nproc", 6 /* RLIMIT_NPROC */}} {
		var r syscall.Rlimit
		if err := syscall.Getrlimit(l.resource, &r); err != nil {
			t.Fatal(err)
		}
		n := min(r.Cur, 4096)
		run = append(run, "--ulimit", fmt.Sprintf("%s=%d:%d", l.name, n, n))
	}
	return global, run
}

func runInPodman(t *testing.T, tarball, head string) {
	t.Helper()
	if _, err := exec.LookPath("podman"); err != nil {
		t.Skipf("no podman to run the image (apt-get install podman): %v", err)
	}
	out := imageRun(t, ".", "podman", "load", "-i", tarball)
	t.Logf("podman load: %s", strings.TrimSpace(out))
	ref := "localhost/sealgate:" + head[:12]
	t.Cleanup(func() { exec.Command("podman", "rmi", "-f", ref).Run() })

	global, flags := podmanFlags(t)
	podman := func(args ...string) string {
		return imageRun(t, ".", "podman", slices.Concat(global, flags, []string{ref}, args)...)
	}
	if version := podman("version"); !strings.Contains(version, head) {
		t.Errorf("sealgate version in the image says %q, want commit %s", version, head)
	}
	if doctor := podman("doctor", "--env"); !strings.Contains(doctor, "bwrap starts a process with no network") {
		t.Fatalf("the sandbox does not start in the image:\n%s", doctor)
	}
	// The demo's verdicts: each patch's row must say the verdict it
	// expects, and the demo exit 0 (it exits 1 when one differs).
	cmd := exec.Command("podman", slices.Concat(global, flags, []string{ref, "demo"})...)
	demoOut, err := cmd.CombinedOutput()
	demo := string(demoOut)
	rows := 0
	for _, line := range strings.Split(demo, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !slices.Contains([]string{"honest-fix", "breaks-a-test", "hides-the-bug"}, f[0]) || f[1] != "default" {
			continue
		}
		rows++
		if f[2] != f[3] {
			t.Errorf("demo in the image: %s is %s, want %s", f[0], f[2], f[3])
		}
	}
	if err != nil || rows != 3 {
		t.Errorf("sealgate demo in the image: %v, %d verdict rows, want exit 0 and 3", err, rows)
	}
	t.Logf("sealgate demo in the image:\n%s", demo)
}

// imageRun runs a command in dir and returns its standard output; a failure
// fails the test with both outputs.
func imageRun(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s\n%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func imageRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func imageSum(t *testing.T, p string) string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// imageFiles lists the flattened image's files with their modes,
// following symbolic links within the image (usr/bin/python3 ->
// python3.11) to the file they name.
func imageFiles(t *testing.T, rc io.ReadCloser) map[string]int64 {
	t.Helper()
	defer rc.Close()
	modes, links := map[string]int64{}, map[string]string{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n := strings.TrimSuffix(strings.TrimPrefix(h.Name, "./"), "/")
		modes[n] = h.Mode
		if h.Typeflag == tar.TypeSymlink {
			target := h.Linkname
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir("/"+n), target)
			}
			links[n] = strings.TrimPrefix(target, "/")
		}
	}
	for n, target := range links {
		for range 8 {
			next, ok := links[target]
			if !ok {
				break
			}
			target = next
		}
		if m, ok := modes[target]; ok {
			modes[n] = m
		}
	}
	return modes
}

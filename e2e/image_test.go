package e2e

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

	build := func(name string) string {
		src := filepath.Join(work, name+"-src")
		imageRun(t, work, "git", "clone", "-q", "--no-checkout", filepath.Join("..", ".."), src)
		imageRun(t, src, "git", "checkout", "-q", "--detach", head)
		out := filepath.Join(work, name)
		imageRun(t, src, tool, "--repo", src, "--out", out, "--cache=false")
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

// podmanFlags are what `sealgate demo` needs from podman to run its tests
// in bubblewrap inside the container. bubblewrap makes a user namespace
// and, inside it, mount, pid, network, ipc and uts namespaces, and
// mounts a tmpfs and bind mounts: the container's default seccomp profile
// refuses unshare/clone with namespace flags to a process without
// CAP_SYS_ADMIN, hence seccomp=unconfined (the pods' seccompProfile:
// Unconfined); no capability is added and the image's non-root user stays.
// The demo needs no network and keeps its state under /tmp.
func podmanFlags() []string {
	return []string{"run", "--rm", "--network=none", "--security-opt", "seccomp=unconfined", "--tmpfs", "/tmp:rw,exec,size=4g,mode=1777"}
}

func runInPodman(t *testing.T, tarball, head string) {
	t.Helper()
	if _, err := exec.LookPath("podman"); err != nil {
		t.Skipf("no podman to run the image (apt-get install podman): %v", err)
	}
	out := imageRun(t, ".", "podman", "load", "-i", tarball)
	t.Logf("podman load: %s", strings.TrimSpace(out))
	ref := "localhost/sealgate:" + head[:12]
	t.Cleanup(func() { exec.Command("podman", "rmi", "-f", ref, "localhost/sealgate:dev").Run() })

	version := imageRun(t, ".", "podman", append(podmanFlags(), ref, "version")...)
	if !strings.Contains(version, head) {
		t.Errorf("sealgate version in the image says %q, want commit %s", version, head)
	}
	doctor := imageRun(t, ".", "podman", append(podmanFlags(), "--read-only", ref, "doctor", "--env")...)
	if !strings.Contains(doctor, "starts a process with no network") {
		t.Fatalf("the sandbox does not start in the image:\n%s", doctor)
	}
	demo := imageRun(t, ".", "podman", append(podmanFlags(), "--read-only", ref, "demo")...)
	if !strings.Contains(demo, "every verdict is the one a correct gate gives") {
		t.Fatalf("sealgate demo in the image:\n%s", demo)
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

package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"golang.org/x/mod/module"

	"github.com/sealgate/sealgate/tools/image/layer"
)

const (
	// repository is the image's name; the build tags it :TAG and
	// :COMMIT (the first 12 hex digits of the sealgate commit).
	repository = "sealgate"
	// uid is the non-root user the image runs as, the one every manifest
	// under deploy/ sets (runAsUser, runAsGroup, fsGroup).
	uid = 65532
	// labelPrefix starts the labels that record the build's inputs.
	labelPrefix = "io.sealgate.image."
	// goroot is where the Go toolchain lives in the image.
	goroot = "usr/local/go"
)

// debianPackages are what jobs run, beyond Debian's essential set (which
// already holds util-linux's prlimit): git for checkouts, bubblewrap for the
// sandbox, python3 with pytest and coverage.py for Python projects, and
// ca-certificates so that the Go toolchain reaches the module proxy.
func debianPackages() []string {
	return []string{"bubblewrap", "ca-certificates", "git", "python3", "python3-coverage", "python3-pytest"}
}

var errHelp = errors.New("help requested")

type config struct {
	out, repo, tag, suite, sources, toolchain, packages string
	epoch                                               int64
	epochSet, cache                                     bool
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	var epoch string
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.out, "out", "bin/image", "output directory: oci/ (OCI image layout), sealgate-image.tar (docker load), packages.txt, cache/")
	fs.StringVar(&c.repo, "repo", ".", "the sealgate git repository: the binary is built from a clone of its HEAD commit")
	fs.StringVar(&c.tag, "tag", "dev", "tag of the image, besides the commit's (the manifests under deploy/ use sealgate:dev)")
	fs.StringVar(&c.suite, "suite", "bookworm", "Debian suite of the root file system")
	fs.StringVar(&c.sources, "sources", "/etc/apt/sources.list.d/debian.sources", "apt sources (deb822 or one-line) mmdebstrap fetches the packages from")
	fs.StringVar(&c.toolchain, "toolchain", "go1.26.8", "Go toolchain of the image, fetched as the module golang.org/toolchain@v0.0.1-TOOLCHAIN.linux-amd64")
	fs.StringVar(&c.packages, "packages", "", "a packages.txt of an earlier build: install exactly those versions and fail if the result differs")
	fs.StringVar(&epoch, "epoch", "", "SOURCE_DATE_EPOCH of the image (default: $SOURCE_DATE_EPOCH, else the commit's time)")
	fs.BoolVar(&c.cache, "cache", true, "reuse the root file system of an earlier build with the same inputs (out/cache)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, errHelp
		}
		return c, err
	}
	if fs.NArg() != 0 {
		return c, fmt.Errorf("unexpected argument %q: image takes flags only", fs.Arg(0))
	}
	if epoch == "" {
		epoch = os.Getenv("SOURCE_DATE_EPOCH")
	}
	if epoch != "" {
		n, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil || n < 0 {
			return c, fmt.Errorf("epoch %q: want seconds since 1970 (SOURCE_DATE_EPOCH)", epoch)
		}
		c.epoch, c.epochSet = n, true
	}
	if !strings.HasPrefix(c.toolchain, "go1.") || strings.ContainsAny(c.toolchain, " /@") {
		return c, fmt.Errorf("toolchain %q: want a Go release such as go1.26.8", c.toolchain)
	}
	if _, err := name.NewTag(repository+":"+c.tag, name.WeakValidation); err != nil {
		return c, fmt.Errorf("tag %q: %w", c.tag, err)
	}
	return c, nil
}

type result struct {
	Digest                   string
	Tags                     []string
	Layout, Tarball          string
	Compressed, Uncompressed int64
}

// source is the sealgate checkout: its commit, whether it has uncommitted
// changes, and the commit's time.
type source struct {
	commit string
	dirty  bool
	time   int64
}

func build(ctx context.Context, c config, log io.Writer) (result, error) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		return result{}, usageError{"run as root on Linux: mmdebstrap builds the root file system in a chroot"}
	}
	if _, err := exec.LookPath("mmdebstrap"); err != nil {
		return result{}, usageError{"mmdebstrap not found: apt-get install mmdebstrap"}
	}
	src, err := readSource(ctx, c.repo)
	if err != nil {
		return result{}, err
	}
	if src.dirty {
		fmt.Fprintf(log, "image: %s has uncommitted changes; the image holds commit %s without them\n", c.repo, src.commit)
	}
	if !c.epochSet {
		c.epoch = src.time
	}
	epoch := time.Unix(c.epoch, 0).UTC()
	work := filepath.Join(c.out, "work")
	if err := os.RemoveAll(work); err != nil {
		return result{}, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return result{}, err
	}

	fmt.Fprintf(log, "image: sealgate %s, epoch %d\n", src.commit, c.epoch)
	bin, goVersion, err := buildSealgate(ctx, c.repo, src.commit, work)
	if err != nil {
		return result{}, err
	}
	tc, err := fetchToolchain(ctx, c.toolchain, work)
	if err != nil {
		return result{}, err
	}
	var pin []string
	if c.packages != "" {
		if pin, err = readPackages(c.packages); err != nil {
			return result{}, err
		}
	}
	rootfs, err := buildRootfs(ctx, c, pin, log)
	if err != nil {
		return result{}, err
	}

	// Layer 1: Debian. Layer 2: Go. Layer 3: sealgate.
	f, err := os.Open(rootfs)
	if err != nil {
		return result{}, err
	}
	debEntries, err := layer.FromTar(bufio.NewReaderSize(f, 1<<20))
	f.Close()
	if err != nil {
		return result{}, fmt.Errorf("root file system %s: %w", rootfs, err)
	}
	installed, err := installedPackages(debEntries)
	if err != nil {
		return result{}, err
	}
	if pin != nil && !slices.Equal(pin, installed) {
		return result{}, fmt.Errorf("the root file system's packages differ from %s (the mirror no longer serves some of those versions?): got %s", c.packages, strings.Join(diff(pin, installed), ", "))
	}
	if err := os.WriteFile(filepath.Join(c.out, "packages.txt"), []byte(strings.Join(installed, "\n")+"\n"), 0o644); err != nil {
		return result{}, err
	}
	zr, err := zip.OpenReader(tc.Zip)
	if err != nil {
		return result{}, fmt.Errorf("toolchain zip: %w", err)
	}
	goEntries, err := layer.FromZip(&zr.Reader, tc.Path+"@"+tc.Version+"/", goroot)
	zr.Close()
	if err != nil {
		return result{}, fmt.Errorf("toolchain zip %s: %w", tc.Zip, err)
	}
	sgEntries := []layer.Entry{layer.File("usr/local/bin/sealgate", 0o755, bin)}

	layers := []struct {
		file, createdBy string
		entries         []layer.Entry
	}{
		{"debian.tar", fmt.Sprintf("mmdebstrap --variant=essential --include=%s %s (packages: %s)", strings.Join(debianPackages(), ","), c.suite, labelPrefix+"debian.packages"), debEntries},
		{"go.tar", fmt.Sprintf("%s@%s %s into /%s", tc.Path, tc.Version, tc.Sum, goroot), goEntries},
		{"sealgate.tar", fmt.Sprintf("CGO_ENABLED=0 go build -trimpath -buildvcs=true -ldflags='-s -w -buildid=' ./tools/sealgate (%s, %s)", src.commit, goVersion), sgEntries},
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	var res result
	for _, l := range layers {
		p := filepath.Join(work, l.file)
		if err := writeLayer(p, l.entries, epoch); err != nil {
			return result{}, err
		}
		st, err := os.Stat(p)
		if err != nil {
			return result{}, err
		}
		res.Uncompressed += st.Size()
		tl, err := tarball.LayerFromFile(p, tarball.WithMediaType(types.OCILayer), tarball.WithCompressedCaching)
		if err != nil {
			return result{}, fmt.Errorf("layer %s: %w", l.file, err)
		}
		img, err = mutate.Append(img, mutate.Addendum{Layer: tl, MediaType: types.OCILayer, History: v1.History{Created: v1.Time{Time: epoch}, CreatedBy: l.createdBy}})
		if err != nil {
			return result{}, fmt.Errorf("append %s: %w", l.file, err)
		}
	}
	commit := src.commit
	cf, err := img.ConfigFile()
	if err != nil {
		return result{}, err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS = "amd64", "linux"
	cf.Created = v1.Time{Time: epoch}
	cf.Config = v1.Config{
		Entrypoint: []string{"/usr/local/bin/sealgate"},
		Cmd:        []string{"version"},
		User:       fmt.Sprintf("%d:%d", uid, uid),
		WorkingDir: "/tmp",
		Env: []string{
			"PATH=/" + goroot + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			"HOME=/tmp",
			"GOTOOLCHAIN=local",
			"PYTHONDONTWRITEBYTECODE=1",
		},
		Labels: map[string]string{
			"org.opencontainers.image.title":         "sealgate",
			"org.opencontainers.image.version":       c.tag,
			"org.opencontainers.image.revision":      commit,
			"org.opencontainers.image.created":       epoch.Format(time.RFC3339),
			labelPrefix + "source-date-epoch":        strconv.FormatInt(c.epoch, 10),
			labelPrefix + "debian.source-date-epoch": strconv.FormatInt(debianEpoch(c.epoch), 10),
			labelPrefix + "debian.suite":             c.suite,
			labelPrefix + "debian.sources":           tc.sourcesDigest(c.sources),
			labelPrefix + "debian.packages":          strings.Join(installed, " "),
			labelPrefix + "go.toolchain":             tc.Path + "@" + tc.Version + " " + tc.Sum,
			labelPrefix + "go.build":                 goVersion,
		},
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return result{}, err
	}
	digest, err := img.Digest()
	if err != nil {
		return result{}, err
	}
	res.Digest = digest.String()
	res.Layout = filepath.Join(c.out, "oci")
	res.Tarball = filepath.Join(c.out, "sealgate-image.tar")
	if err := os.RemoveAll(res.Layout); err != nil {
		return result{}, err
	}
	lp, err := layout.Write(res.Layout, empty.Index)
	if err != nil {
		return result{}, fmt.Errorf("OCI layout: %w", err)
	}
	if err := lp.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": c.tag})); err != nil {
		return result{}, fmt.Errorf("OCI layout: %w", err)
	}
	var tags []name.Tag
	for _, t := range []string{c.tag, src.commit[:12]} {
		tag, err := name.NewTag(repository+":"+t, name.WeakValidation)
		if err != nil {
			return result{}, err
		}
		tags = append(tags, tag)
		res.Tags = append(res.Tags, tag.String())
	}
	slices.Sort(res.Tags)
	res.Tags = slices.Compact(res.Tags)
	if err := writeArchive(res.Tarball, img, tags); err != nil {
		return result{}, fmt.Errorf("tarball: %w", err)
	}
	m, err := img.Manifest()
	if err != nil {
		return result{}, err
	}
	for _, l := range m.Layers {
		res.Compressed += l.Size
	}
	if err := os.WriteFile(filepath.Join(c.out, "digest.txt"), []byte(res.Digest+"\n"), 0o644); err != nil {
		return result{}, err
	}
	return res, os.RemoveAll(work)
}

func writeLayer(p string, entries []layer.Entry, epoch time.Time) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := layer.Write(w, entries, epoch); err != nil {
		f.Close()
		return fmt.Errorf("layer %s: %w", p, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readSource(ctx context.Context, repo string) (source, error) {
	out, err := command(ctx, repo, nil, "git", "log", "-1", "--format=%H %ct")
	if err != nil {
		return source{}, usageError{fmt.Sprintf("%s is not a git checkout of sealgate: %v", repo, err)}
	}
	var s source
	if _, err := fmt.Sscanf(string(out), "%s %d", &s.commit, &s.time); err != nil || len(s.commit) < 12 {
		return source{}, fmt.Errorf("git log in %s: unexpected %q", repo, out)
	}
	st, err := command(ctx, repo, nil, "git", "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return source{}, err
	}
	s.dirty = len(bytes.TrimSpace(st)) > 0
	return s, nil
}

// buildSealgate builds the binary of the commit reproducibly, in a fresh
// clone of it (so that nothing uncommitted gets in, and the VCS stamp —
// which cmd/go does not write in a linked worktree — is there): no cgo, no
// file system paths, no build ID. `sealgate version` names the commit.
func buildSealgate(ctx context.Context, repo, commit, work string) ([]byte, string, error) {
	abs, err := filepath.Abs(filepath.Join(work, "sealgate"))
	if err != nil {
		return nil, "", err
	}
	repoAbs, err := filepath.Abs(repo)
	if err != nil {
		return nil, "", err
	}
	src := filepath.Join(work, "src")
	if _, err := command(ctx, work, nil, "git", "clone", "-q", "--shared", "--no-checkout", repoAbs, src); err != nil {
		return nil, "", fmt.Errorf("clone %s: %w", repo, err)
	}
	if _, err := command(ctx, src, nil, "git", "checkout", "-q", "--detach", commit); err != nil {
		return nil, "", err
	}
	env := []string{"CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64", "GOFLAGS=-mod=readonly", "GOTOOLCHAIN=local"}
	if _, err := command(ctx, src, env, "go", "build", "-trimpath", "-buildvcs=true", "-ldflags=-s -w -buildid=", "-o", abs, "./tools/sealgate"); err != nil {
		return nil, "", fmt.Errorf("build sealgate: %w", err)
	}
	v, err := command(ctx, src, env, "go", "env", "GOVERSION")
	if err != nil {
		return nil, "", err
	}
	bin, err := os.ReadFile(abs)
	return bin, strings.TrimSpace(string(v)), err
}

// toolchain is `go mod download -json` of the toolchain module.
type toolchain struct {
	Path, Version, Zip, Sum, Error string
}

func (toolchain) sourcesDigest(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "unreadable"
	}
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// fetchToolchain downloads the Go toolchain module through the Go module
// proxy; `go mod download` checks it against the checksum database, and
// refuses to run with that check off here.
func fetchToolchain(ctx context.Context, version, work string) (toolchain, error) {
	mod := "golang.org/toolchain@v0.0.1-" + version + ".linux-amd64"
	env, err := command(ctx, work, nil, "go", "env", "GOSUMDB", "GONOSUMDB", "GOPRIVATE")
	if err != nil {
		return toolchain{}, err
	}
	if err := checksummed(string(env), "golang.org/toolchain"); err != nil {
		return toolchain{}, err
	}
	out, err := command(ctx, work, []string{"GOFLAGS=-mod=mod"}, "go", "mod", "download", "-json", mod)
	var tc toolchain
	if jerr := json.Unmarshal(out, &tc); jerr != nil {
		return toolchain{}, fmt.Errorf("go mod download %s: %v (%w)", mod, jerr, err)
	}
	if err != nil || tc.Error != "" || tc.Zip == "" || tc.Sum == "" {
		return toolchain{}, fmt.Errorf("go mod download %s: %s %v", mod, tc.Error, err)
	}
	return tc, nil
}

// checksummed refuses a `go env GOSUMDB GONOSUMDB GOPRIVATE` under which
// the module path would not be checked against the checksum database.
func checksummed(env, path string) error {
	lines := strings.Split(env, "\n")
	for len(lines) < 3 {
		lines = append(lines, "")
	}
	if strings.TrimSpace(lines[0]) == "off" {
		return usageError{"GOSUMDB=off: the Go toolchain would not be checked against the checksum database"}
	}
	for _, patterns := range lines[1:3] {
		if module.MatchPrefixPatterns(strings.TrimSpace(patterns), path) {
			return usageError{fmt.Sprintf("GONOSUMDB or GOPRIVATE matches %s: the Go toolchain would not be checked against the checksum database", path)}
		}
	}
	return nil
}

// mmdebstrapArgs are the arguments of the root file system's build; they,
// the apt sources and the epoch make the cache key.
func mmdebstrapArgs(c config, pin []string, target string) []string {
	include := debianPackages()
	if pin != nil {
		include = pin
	}
	hook := strings.Join([]string{
		// Compiled Python caches differ from build to build (marshal's
		// reference flags); python3 runs without them on a read-only root.
		// (Only under /usr: /proc and /sys are mounted while hooks run.)
		`find "$1/usr" -depth -type d -name __pycache__ -exec rm -rf {} +`,
		// The build host's name and resolver must not leak into the image;
		// the container runtime provides both.
		`: > "$1/etc/hostname"`, `rm -f "$1/etc/resolv.conf"`,
		`rm -f "$1/var/cache/ldconfig/aux-cache"`,
		`rm -f "$1"/var/cache/debconf/*-old "$1"/var/lib/dpkg/*-old`,
		fmt.Sprintf(`echo 'sealgate:x:%d:%d:sealgate:/tmp:/usr/sbin/nologin' >> "$1/etc/passwd"`, uid, uid),
		fmt.Sprintf(`echo 'sealgate:x:%d:' >> "$1/etc/group"`, uid),
	}, " && ")
	return []string{
		"--variant=essential",
		"--include=" + strings.Join(include, ","),
		"--format=tar",
		"--dpkgopt=path-exclude=/usr/share/doc/*",
		"--dpkgopt=path-include=/usr/share/doc/*/copyright",
		"--dpkgopt=path-exclude=/usr/share/man/*",
		"--dpkgopt=path-exclude=/usr/share/info/*",
		"--dpkgopt=path-exclude=/usr/share/locale/*",
		"--customize-hook=" + hook,
		c.suite, target, c.sources,
	}
}

// debianEpoch is the SOURCE_DATE_EPOCH mmdebstrap gets: the image's epoch
// cut to the start of its UTC day, so that commits of one day share a root
// file system in the cache (the layer's times are the image's epoch all the
// same: layer.Write sets them).
func debianEpoch(epoch int64) int64 { return epoch - epoch%86400 }

// buildRootfs runs mmdebstrap, or reuses its tarball from an earlier build
// of the same inputs.
func buildRootfs(ctx context.Context, c config, pin []string, log io.Writer) (string, error) {
	sources, err := os.ReadFile(c.sources)
	if err != nil {
		return "", usageError{fmt.Sprintf("apt sources %s: %v (pass --sources)", c.sources, err)}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%q\x00", debianEpoch(c.epoch), mmdebstrapArgs(c, pin, ""))
	h.Write(sources)
	cacheDir := filepath.Join(c.out, "cache")
	target := filepath.Join(cacheDir, "rootfs-"+hex.EncodeToString(h.Sum(nil))[:16]+".tar")
	if c.cache {
		if _, err := os.Stat(target); err == nil {
			fmt.Fprintf(log, "image: root file system from %s\n", target)
			return target, nil
		}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", err
	}
	tmp := target + ".partial"
	args := mmdebstrapArgs(c, pin, tmp)
	fmt.Fprintf(log, "image: mmdebstrap %s\n", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "mmdebstrap", args...)
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strconv.FormatInt(debianEpoch(c.epoch), 10))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("mmdebstrap: %w", err)
	}
	return target, os.Rename(tmp, target)
}

// installedPackages lists name=version of every package dpkg's status file
// in the root file system says is installed, sorted.
func installedPackages(entries []layer.Entry) ([]string, error) {
	for _, e := range entries {
		if e.Header.Name == "var/lib/dpkg/status" {
			return parseStatus(e.Data)
		}
	}
	return nil, errors.New("root file system has no var/lib/dpkg/status")
}

func parseStatus(b []byte) ([]string, error) {
	var out []string
	for _, para := range strings.Split(string(b), "\n\n") {
		var pkg, ver, status string
		for _, line := range strings.Split(para, "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok || strings.HasPrefix(line, " ") {
				continue
			}
			switch k {
			case "Package":
				pkg = strings.TrimSpace(v)
			case "Version":
				ver = strings.TrimSpace(v)
			case "Status":
				status = strings.TrimSpace(v)
			}
		}
		if pkg == "" && ver == "" && status == "" {
			continue
		}
		if pkg == "" || ver == "" || strings.ContainsAny(pkg+ver, " =,") {
			return nil, fmt.Errorf("dpkg status: a paragraph without a valid Package and Version: %q", firstLine(para))
		}
		if status == "install ok installed" {
			out = append(out, pkg+"="+ver)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("dpkg status lists no installed package")
	}
	slices.Sort(out)
	return out, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// readPackages reads a packages.txt: one name=version a line.
func readPackages(p string) ([]string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, usageError{fmt.Sprintf("--packages: %v", err)}
	}
	var out []string
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		n, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok || n == "" || v == "" || strings.ContainsAny(l, " ,") {
			return nil, usageError{fmt.Sprintf("--packages %s line %d: want name=version, got %q", p, i+1, l)}
		}
		out = append(out, n+"="+v)
	}
	slices.Sort(out)
	return out, nil
}

// diff names what is in one list and not the other.
func diff(want, got []string) []string {
	var d []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			d = append(d, "-"+w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			d = append(d, "+"+g)
		}
	}
	return d
}

func command(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

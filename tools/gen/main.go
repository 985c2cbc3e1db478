// Command gen regenerates the checked-in Go code of sealgate's protobuf
// definitions: it compiles proto/**/*.proto with protocompile (the compiler
// inside buf) and hands each directory's files to the protoc-gen-go and
// protoc-gen-go-grpc plugins, installed at pinned versions through the Go
// module proxy, as one protoc plugin request — what `buf generate` with
// proto/buf.gen.yaml does, without building buf (minutes on a fresh
// machine).
//
//	go run ./tools/gen          # rewrite proto/**/*.pb.go
//	go run ./tools/gen -check   # exit 1 naming every stale or missing file
//
// The plugins are pinned here, not in go.mod: generated code names the
// plugin versions that made it.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// tool is one code generator installed with `go install pkg@version`.
type tool struct {
	pkg, version string
}

// pinnedTools lists the generators. The protoc-gen-go version must equal
// google.golang.org/protobuf in go.mod: generated code names the runtime it
// was made for.
func pinnedTools() []tool {
	return []tool{
		{"google.golang.org/protobuf/cmd/protoc-gen-go", "v1.36.12"},
		{"google.golang.org/grpc/cmd/protoc-gen-go-grpc", "v1.6.2"},
	}
}

func main() {
	check := flag.Bool("check", false, "compare freshly generated code with the checked-in files instead of writing them; exit 1 when stale")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "gen: takes no arguments; run `go run ./tools/gen` or `go run ./tools/gen -check`")
		os.Exit(3)
	}
	stale, err := run(*check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	if len(stale) > 0 {
		for _, s := range stale {
			fmt.Fprintln(os.Stderr, "gen: stale:", s)
		}
		fmt.Fprintln(os.Stderr, "gen: the checked-in generated code is stale; run `go run ./tools/gen` and commit the result")
		os.Exit(1)
	}
}

func run(check bool) ([]string, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	bin, err := installTools()
	if err != nil {
		return nil, err
	}
	protoDir := filepath.Join(root, "proto")
	out, err := os.MkdirTemp("", "sealgate-gen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)

	if err := generate(protoDir, bin, out); err != nil {
		return nil, err
	}

	generated, err := filesEnding(out, ".pb.go")
	if err != nil {
		return nil, err
	}
	checkedIn, err := filesEnding(protoDir, ".pb.go")
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, rel := range generated {
		fresh, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(protoDir, rel)
		old, err := os.ReadFile(dst)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if bytes.Equal(old, fresh) {
			continue
		}
		if check {
			stale = append(stale, filepath.Join("proto", rel))
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, fresh, 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintln(os.Stderr, "gen: wrote", filepath.Join("proto", rel))
	}
	for _, rel := range checkedIn {
		if slices.Contains(generated, rel) {
			continue
		}
		if check {
			stale = append(stale, filepath.Join("proto", rel)+" (no longer generated)")
			continue
		}
		if err := os.Remove(filepath.Join(protoDir, rel)); err != nil {
			return nil, err
		}
		fmt.Fprintln(os.Stderr, "gen: removed", filepath.Join("proto", rel))
	}
	return stale, nil
}

// filesEnding lists the files under dir whose names end in suffix, as
// slash-separated paths relative to dir, sorted.
func filesEnding(dir, suffix string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, suffix) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(files)
	return files, err
}

// installTools installs the pinned generators into a cache directory keyed by
// their versions, once per machine.
func installTools() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the generators: %w", err)
	}
	tools := pinnedTools()
	h := sha256.New()
	for _, t := range tools {
		fmt.Fprintf(h, "%s@%s\n", t.pkg, t.version)
	}
	bin := filepath.Join(cache, "sealgate-gen", hex.EncodeToString(h.Sum(nil))[:16])
	for _, t := range tools {
		if _, err := os.Stat(filepath.Join(bin, filepath.Base(t.pkg))); err == nil {
			continue
		}
		fmt.Fprintf(os.Stderr, "gen: installing %s@%s\n", t.pkg, t.version)
		cmd := exec.Command("go", "install", t.pkg+"@"+t.version)
		cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-mod=mod")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("go install %s@%s: %w", t.pkg, t.version, err)
		}
	}
	return bin, nil
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the sealgate module; run from the repository")
	}
	return filepath.Dir(gomod), nil
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/e2e/realworld"
)

// check runs each fix's claims with plain go test, outside any sandbox: on
// the reintroduced bug (Before's code, After's tests) every claim must
// fail, on the fix every claim must pass. This is what makes an entry a
// fix the corpus can hold; it says nothing about the gate.
func check(ctx context.Context, fixes []realworld.Fix, modcache string, stdout, stderr io.Writer) error {
	wrong := 0
	for _, f := range fixes {
		parent, fixed, reverted, err := realworld.Load(ctx, f, realworld.Proxy{})
		if err != nil {
			return err
		}
		// Plain go test needs a go.mod: a version from before modules
		// gets the one the proxy serves for it, the module path alone.
		parent, fixed, reverted = withModule(parent, f.Module), withModule(fixed, f.Module), withModule(reverted, f.Module)
		var problems []string
		for _, side := range []struct {
			name string
			tree realworld.Tree
			want string
		}{{"reintroduced", reverted, "fail"}, {"fixed", fixed, "pass"}} {
			got, out, err := runClaims(ctx, side.tree, f.Claims, modcache)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			for _, c := range f.Claims {
				if got[c] != side.want {
					problems = append(problems, fmt.Sprintf("%s on the %s tree: %s, want %s", c, side.name, or(got[c], "no result"), side.want))
				}
			}
			if len(problems) > 0 && out != "" {
				fmt.Fprintf(stderr, "--- %s, %s tree: go test output ---\n%s\n", f.Name, side.name, tail(out, 40))
			}
		}
		// The whole suite must pass on both sides of the honest fix, or a
		// correct gate could not MERGE it whatever the fix does.
		for _, side := range []struct {
			name string
			tree realworld.Tree
		}{{"parent", parent}, {"fixed", fixed}} {
			out, err := runSuite(ctx, side.tree, modcache)
			if err != nil {
				problems = append(problems, fmt.Sprintf("go test ./... fails on the %s tree", side.name))
				fmt.Fprintf(stderr, "--- %s, %s tree: go test ./... ---\n%s\n", f.Name, side.name, tail(out, 40))
			}
		}
		if len(problems) > 0 {
			wrong++
			fmt.Fprintf(stdout, "WRONG %-26s %s\n", f.Name, strings.Join(problems, "; "))
			continue
		}
		fmt.Fprintf(stdout, "ok    %-26s %s fail on the reintroduced bug, pass on the fix; go test ./... passes on the parent and the fix\n", f.Name, strings.Join(f.Claims, " "))
	}
	if wrong > 0 {
		return wrongError{wrong}
	}
	return nil
}

// withModule returns tree, with a go.mod declaring module mod when it has
// none.
func withModule(tree realworld.Tree, mod string) realworld.Tree {
	if _, ok := tree["go.mod"]; ok {
		return tree
	}
	t := maps.Clone(tree)
	t["go.mod"] = []byte("module " + mod + "\n")
	return t
}

// runSuite writes tree to a temporary directory and runs go test ./...
// there, returning its output and an error when it fails.
func runSuite(ctx context.Context, tree realworld.Tree, modcache string) (string, error) {
	dir, err := writeTree(tree)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = goEnv(modcache)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// goEnv is the environment of plain go test: the caller's, with the
// check's own module cache.
func goEnv(modcache string) []string {
	return append(os.Environ(), "GOMODCACHE="+modcache, "GOFLAGS=-modcacherw", "GOWORK=off", "GOTOOLCHAIN=local")
}

// writeTree writes tree into a new temporary directory and returns it.
func writeTree(tree realworld.Tree) (string, error) {
	dir, err := os.MkdirTemp("", "corpus-check-")
	if err != nil {
		return "", err
	}
	for p, data := range tree {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// runClaims writes tree to a temporary directory and runs the claims there,
// one go test process per package, returning each claim's result: "pass",
// "fail", "skip", or "" when go test reported none (a build failure), and
// the output of the runs.
func runClaims(ctx context.Context, tree realworld.Tree, claims []string, modcache string) (map[string]string, string, error) {
	dir, err := writeTree(tree)
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	byPkg := map[string][]string{}
	for _, c := range claims {
		pkg, test, _ := strings.Cut(strings.TrimPrefix(c, "go:"), ":")
		byPkg[pkg] = append(byPkg[pkg], test)
	}
	results := map[string]string{}
	var output strings.Builder
	for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
		tests := byPkg[pkg]
		quoted := make([]string, len(tests))
		for i, t := range tests {
			quoted[i] = regexp.QuoteMeta(t)
		}
		cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-json", "-run", "^("+strings.Join(quoted, "|")+")$", pkg)
		cmd.Dir = dir
		cmd.Env = goEnv(modcache)
		var stdout, stderr bytes.Buffer
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		_ = cmd.Run() // a failing test exits 1: the events say what happened
		output.WriteString(stderr.String())
		sc := bufio.NewScanner(&stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var ev struct {
				Action, Test, Output string
			}
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				output.WriteString(sc.Text() + "\n")
				continue
			}
			output.WriteString(ev.Output)
			if slices.Contains(tests, ev.Test) && slices.Contains([]string{"pass", "fail", "skip"}, ev.Action) {
				results["go:"+pkg+":"+ev.Test] = ev.Action
			}
		}
	}
	return results, output.String(), nil
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

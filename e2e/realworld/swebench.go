package realworld

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Instance is a fix as an instance of a SWE-bench-format dataset: the
// parent is the base commit, the fix's non-test changes the reference
// patch, its test changes the held-out test patch, its claims the
// FAIL_TO_PASS tests (bare names, as such datasets give them), and some
// tests the fix leaves as they are the PASS_TO_PASS tests. The test lists
// are JSON-encoded strings, as SWE-bench stores them.
type Instance struct {
	Repo       string `json:"repo"`
	InstanceID string `json:"instance_id"`
	BaseCommit string `json:"base_commit"`
	Patch      string `json:"patch"`
	TestPatch  string `json:"test_patch"`
	FailToPass string `json:"FAIL_TO_PASS"`
	PassToPass string `json:"PASS_TO_PASS"`
	Version    string `json:"version"`
}

// Predictions are answers to an instance: the reference patch, the empty
// patch (an agent that changed nothing), a wrong one — the reintroduced
// commit's diff: the fix reverted, its tests kept, so the agent edited the
// tests and not the code — and an untested one: the reference patch plus a
// function nothing calls and no test runs (resolved by SWE-bench's
// measure, which never looks at it).
type Predictions struct {
	Gold, Empty, Wrong, Untested string
}

// GitHubRepo returns "owner/name" of a module hosted on github.com
// (github.com/Masterminds/semver/v3 is Masterminds/semver).
func GitHubRepo(module string) (string, error) {
	parts := strings.Split(module, "/")
	if len(parts) < 3 || parts[0] != "github.com" {
		return "", fmt.Errorf("realworld: %s is not a github.com module", module)
	}
	return parts[1] + "/" + parts[2], nil
}

// SWEBench returns the repository's fix as a SWE-bench instance with up to
// passToPass PASS_TO_PASS tests, and its three predictions.
func (r *Repo) SWEBench(ctx context.Context, passToPass int) (Instance, Predictions, error) {
	repo, err := GitHubRepo(r.Fix.Module)
	if err != nil {
		return Instance{}, Predictions{}, err
	}
	g := git{dir: r.Dir}
	names, err := g.run(ctx, nil, "diff", "--name-only", r.Parent, r.Fixed)
	if err != nil {
		return Instance{}, Predictions{}, err
	}
	var tests, code []string
	for _, p := range strings.Split(names, "\n") {
		switch {
		case p == "":
		case IsTest(p):
			tests = append(tests, p)
		default:
			code = append(code, p)
		}
	}
	diff := func(from, to string, paths []string) (string, error) {
		args := append([]string{"diff", "--no-color", "--no-ext-diff", "--full-index", from, to, "--"}, paths...)
		return g.raw(ctx, args...)
	}
	inst := Instance{Repo: repo, InstanceID: strings.Replace(repo, "/", "__", 1) + "-" + r.Fix.Name, BaseCommit: r.Parent, Version: r.Fix.Before.Version}
	if inst.Patch, err = diff(r.Parent, r.Fixed, code); err != nil {
		return Instance{}, Predictions{}, err
	}
	if inst.TestPatch, err = diff(r.Parent, r.Fixed, tests); err != nil {
		return Instance{}, Predictions{}, err
	}
	var f2p []string
	pkgs := map[string]bool{}
	for _, c := range r.Fix.Claims {
		rest := strings.TrimPrefix(c, "go:")
		pkg, name, _ := strings.Cut(rest, ":")
		f2p = append(f2p, name)
		pkgs[path.Clean(strings.TrimPrefix(pkg, "./"))] = true
	}
	p2p, err := r.unchangedTests(ctx, pkgs, f2p)
	if err != nil {
		return Instance{}, Predictions{}, err
	}
	if len(p2p) > passToPass {
		p2p = p2p[:passToPass]
	}
	for _, l := range []struct {
		into  *string
		names []string
	}{{&inst.FailToPass, f2p}, {&inst.PassToPass, p2p}} {
		b, err := json.Marshal(l.names)
		if err != nil {
			return Instance{}, Predictions{}, err
		}
		*l.into = string(b)
	}
	wrong, err := diff(r.Parent, r.Reverted, nil)
	if err != nil {
		return Instance{}, Predictions{}, err
	}
	var dir string
	for d := range pkgs {
		dir = d
	}
	pkgName, err := r.packageName(ctx, dir)
	if err != nil {
		return Instance{}, Predictions{}, err
	}
	return inst, Predictions{Gold: inst.Patch, Empty: "", Wrong: wrong, Untested: inst.Patch + untestedFile(dir, pkgName)}, nil
}

// untestedFile is the diff adding a file of package pkg in dir with a
// function nothing calls.
func untestedFile(dir, pkg string) string {
	body := []string{
		"package " + pkg, "",
		"// untestedClamp is code the fix does not need and no test runs.",
		"func untestedClamp(v, lo, hi int) int {", "\tif v < lo {", "\t\treturn lo", "\t}",
		"\tif v > hi {", "\t\treturn hi", "\t}", "\treturn v", "}",
	}
	name := path.Join(dir, "zz_untested.go")
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", name, name, name, len(body))
	for _, l := range body {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// packageName reads the package clause of the parent's non-test Go files
// in dir.
func (r *Repo) packageName(ctx context.Context, dir string) (string, error) {
	g := git{dir: r.Dir}
	list, err := g.run(ctx, nil, "ls-tree", "--name-only", r.Parent+":"+cleanDir(dir))
	if err != nil {
		return "", err
	}
	for _, name := range strings.Split(list, "\n") {
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := g.raw(ctx, "show", r.Parent+":"+path.Join(dir, name))
		if err != nil {
			return "", err
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly)
		if err != nil {
			return "", fmt.Errorf("realworld: %s: %w", name, err)
		}
		return f.Name.Name, nil
	}
	return "", fmt.Errorf("realworld: no Go file in %s", dir)
}

// cleanDir is a directory as a tree path ("" for the root).
func cleanDir(dir string) string {
	if dir == "." {
		return ""
	}
	return dir
}

// unchangedTests lists, sorted, the test functions of the packages in pkgs
// (directories) that the parent and the fix both declare with the same
// text, leaving out skip.
func (r *Repo) unchangedTests(ctx context.Context, pkgs map[string]bool, skip []string) ([]string, error) {
	g := git{dir: r.Dir}
	funcs := func(commit string) (map[string]string, error) {
		out := map[string]string{}
		list, err := g.run(ctx, nil, "ls-tree", "-r", "--name-only", commit)
		if err != nil {
			return nil, err
		}
		for _, p := range strings.Split(list, "\n") {
			if !strings.HasSuffix(p, "_test.go") || !pkgs[path.Dir(p)] {
				continue
			}
			src, err := g.raw(ctx, "show", commit+":"+p)
			if err != nil {
				return nil, err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, src, 0)
			if err != nil {
				return nil, fmt.Errorf("realworld: %s at %s: %w", p, commit, err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
					continue
				}
				out[fn.Name.Name] = src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset]
			}
		}
		return out, nil
	}
	before, err := funcs(r.Parent)
	if err != nil {
		return nil, err
	}
	after, err := funcs(r.Fixed)
	if err != nil {
		return nil, err
	}
	var out []string
	for name, text := range before {
		if after[name] == text && !slices.Contains(skip, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// raw runs git like run and returns its standard output untrimmed (a
// diff's last context line may be a lone space).
func (g git) raw(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.dir
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", "HOME=" + os.DevNull, "LC_ALL=C", "PATH=" + os.Getenv("PATH")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("realworld: git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Prediction kinds WriteDataset writes.
const (
	PredictGold     = "gold"
	PredictEmpty    = "empty"
	PredictWrong    = "wrong"
	PredictUntested = "untested"
)

// Dataset is a SWE-bench-format dataset WriteDataset wrote.
type Dataset struct {
	// Repos holds one git repository per module, named owner__name as
	// SWE-bench's harness names its mirrors.
	Repos string
	// Instances is the dataset (JSON Lines); Predictions the predictions
	// files (JSON Lines) by kind: PredictGold, PredictEmpty, PredictWrong,
	// PredictUntested.
	Instances   string
	Predictions map[string]string
	// IDs are the instances' ids, in the file's order; Skipped the fixes
	// left out because an earlier fix of the same module is in (one
	// mirror per module).
	IDs, Skipped []string
}

// WriteDataset builds each fix's repository under dir/repos and writes
// the fixes as a SWE-bench-format dataset (with up to passToPass
// PASS_TO_PASS tests each) and its three predictions files into dir.
func WriteDataset(ctx context.Context, dir string, fixes []Fix, p Proxy, passToPass int) (*Dataset, error) {
	d := &Dataset{Repos: filepath.Join(dir, "repos"), Instances: filepath.Join(dir, "instances.jsonl"), Predictions: map[string]string{}}
	var instances []string
	preds := map[string][]string{}
	seen := map[string]bool{}
	for _, f := range fixes {
		gh, err := GitHubRepo(f.Module)
		if err != nil {
			return nil, err
		}
		if seen[gh] {
			d.Skipped = append(d.Skipped, f.Name)
			continue
		}
		seen[gh] = true
		repo, err := Build(ctx, filepath.Join(d.Repos, strings.Replace(gh, "/", "__", 1)), f, p)
		if err != nil {
			return nil, err
		}
		inst, pr, err := repo.SWEBench(ctx, passToPass)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(inst)
		if err != nil {
			return nil, err
		}
		instances = append(instances, string(b))
		d.IDs = append(d.IDs, inst.InstanceID)
		for kind, patch := range map[string]string{PredictGold: pr.Gold, PredictEmpty: pr.Empty, PredictWrong: pr.Wrong, PredictUntested: pr.Untested} {
			b, err := json.Marshal(map[string]string{"instance_id": inst.InstanceID, "model_name_or_path": kind, "model_patch": patch})
			if err != nil {
				return nil, err
			}
			preds[kind] = append(preds[kind], string(b))
		}
	}
	if len(instances) == 0 {
		return nil, fmt.Errorf("realworld: no fix to write")
	}
	if err := os.WriteFile(d.Instances, []byte(strings.Join(instances, "\n")+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("realworld: %w", err)
	}
	for kind, lines := range preds {
		d.Predictions[kind] = filepath.Join(dir, "predictions-"+kind+".jsonl")
		if err := os.WriteFile(d.Predictions[kind], []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			return nil, fmt.Errorf("realworld: %w", err)
		}
	}
	return d, nil
}

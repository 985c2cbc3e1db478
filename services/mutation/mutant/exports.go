package mutant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// Exports finds the compiler's export data of the packages a Go package
// imports from the standard library and from its module's dependencies in
// the module cache, so that the type checker reads them instead of
// type-checking them from source (the standard library alone takes a
// second or two per package). Only code from outside the patch is ever
// compiled for it: the packages of the main module (and of modules
// replaced by a directory, or vendored: anything outside GOROOT and the
// module cache) are type-checked from source as before, and when any
// dependency imports one of them no export data is used at all.
type Exports struct {
	// files maps canonical import paths to export data files.
	files map[string]string
	// importMap maps a main-module package's directory to its imports'
	// canonical paths where they differ from the paths in the source.
	importMap map[string]map[string]string
}

// ExportsConfig is the go command LoadExports runs. Empty fields take the
// process environment's values (as the source importer's go/build does).
type ExportsConfig struct {
	// GoRoot is GOROOT; its bin/go is run.
	GoRoot string
	// Cache is GOCACHE, where the export data is built (warm when the
	// gate's jobs built the same packages); ModCache is GOMODCACHE.
	Cache, ModCache string
}

// listed is a package as `go list -json` prints it.
type listed struct {
	ImportPath string
	Dir        string
	Export     string
	Standard   bool
	ForTest    string
	ImportMap  map[string]string
	Deps       []string
	Module     *struct {
		Path    string
		Main    bool
		Dir     string
		Replace *struct{ Path, Version, Dir string }
	}
	Error *struct{ Err string }
}

// LoadExports lists the packages the package in dir and its tests depend
// on, and has the go command produce the export data of those outside the
// main module. It runs the go command as the gate does elsewhere: no
// module downloads (GOPROXY=off: the dependencies are already in the module
// cache), the local toolchain, no cgo, no GOFLAGS, no workspace. An error
// says why no export data can be used; the caller type-checks from source.
func LoadExports(ctx context.Context, cfg ExportsConfig, dir string) (*Exports, error) {
	goroot := cfg.GoRoot
	if goroot == "" {
		goroot = hostGoRoot(build.Default.GOROOT)
	}
	if goroot == "" || dir == "" {
		return nil, errors.New("no GOROOT or no package directory")
	}
	modCache := cfg.ModCache
	env := exportsEnv(cfg)
	if modCache == "" {
		out, err := runGo(ctx, goroot, dir, env, "env", "GOMODCACHE")
		if err != nil {
			return nil, err
		}
		modCache = strings.TrimSpace(string(out))
	}
	graph, err := listPackages(ctx, goroot, dir, env, "list", "-deps", "-test", "-json=ImportPath,Dir,Standard,ForTest,ImportMap,Deps,Module,Error", ".")
	if err != nil {
		return nil, err
	}
	x := &Exports{files: map[string]string{}, importMap: map[string]map[string]string{}}
	byPath := map[string]listed{}
	outside := map[string]string{} // packages whose export data may be built, by import path → why not when not
	for _, p := range graph {
		if p.ForTest != "" || strings.Contains(p.ImportPath, " ") || strings.HasSuffix(p.ImportPath, ".test") {
			continue // the test variants and the test main: built from the patch's code
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		byPath[p.ImportPath] = p
		switch {
		case p.ImportPath == "unsafe":
			// No export data: the type checker has it built in.
		case p.Module != nil && p.Module.Main:
			x.importMap[filepath.Clean(p.Dir)] = p.ImportMap
		case p.Standard && underDir(filepath.Join(goroot, "src"), p.Dir):
			outside[p.ImportPath] = ""
		case !p.Standard && p.Module != nil && modCache != "" && underDir(modCache, p.Dir) && (p.Module.Replace == nil || p.Module.Replace.Version != ""):
			outside[p.ImportPath] = ""
		default:
			outside[p.ImportPath] = fmt.Sprintf("%s is neither in GOROOT nor in the module cache (%s)", p.ImportPath, p.Dir)
		}
	}
	var paths []string
	for path, why := range outside {
		if why != "" {
			continue
		}
		for _, d := range byPath[path].Deps {
			if dp, ok := byPath[d]; ok && d != "unsafe" && (dp.Module != nil && dp.Module.Main || outside[d] != "") {
				return nil, fmt.Errorf("the dependency %s imports %s, which is the patch's code", path, d)
			}
		}
		paths = append(paths, path)
	}
	if len(paths) == 0 {
		return x, nil
	}
	slices.Sort(paths)
	exported, err := listPackages(ctx, goroot, dir, env, append([]string{"list", "-export", "-json=ImportPath,Export,Error"}, paths...)...)
	if err != nil {
		return nil, err
	}
	for _, p := range exported {
		if p.Error != nil || p.Export == "" {
			return nil, fmt.Errorf("no export data for %s", p.ImportPath)
		}
		x.files[p.ImportPath] = p.Export
	}
	for _, path := range paths {
		if x.files[path] == "" {
			return nil, fmt.Errorf("go list -export did not list %s", path)
		}
	}
	return x, nil
}

func exportsEnv(cfg ExportsConfig) []string {
	override := map[string]string{
		"GOTOOLCHAIN": "local", "GOPROXY": "off", "CGO_ENABLED": "0", "GOFLAGS": "", "GOWORK": "off", "GOTELEMETRY": "off",
	}
	if cfg.GoRoot != "" {
		override["GOROOT"] = cfg.GoRoot
	}
	if cfg.Cache != "" {
		override["GOCACHE"] = cfg.Cache
	}
	if cfg.ModCache != "" {
		override["GOMODCACHE"] = cfg.ModCache
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := override[name]; !ok {
			env = append(env, kv)
		}
	}
	for name, v := range override {
		env = append(env, name+"="+v)
	}
	slices.Sort(env)
	return env
}

func runGo(ctx context.Context, goroot, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(goroot, "bin", "go"), args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		line, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return nil, fmt.Errorf("go %s: %w: %s", args[0], err, line)
	}
	return out, nil
}

func listPackages(ctx context.Context, goroot, dir string, env []string, args ...string) ([]listed, error) {
	out, err := runGo(ctx, goroot, dir, env, args...)
	if err != nil {
		return nil, err
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: its output does not parse: %w", err)
		}
		pkgs = append(pkgs, p)
	}
}

// underDir reports whether path is root or beneath it.
func underDir(root, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// exportImporter reads the packages Exports has export data of and
// type-checks the others from source (next), with one package map, so that
// a package is one *types.Package whichever way it was reached.
type exportImporter struct {
	x    *Exports
	fset *token.FileSet
	pkgs map[string]*types.Package // shared with the export data reader
	next *sourceImporter
}

// Import implements types.Importer.
func (imp *exportImporter) Import(path string) (*types.Package, error) {
	return imp.ImportFrom(path, imp.next.ctxt.Dir, 0)
}

// ImportFrom implements types.ImporterFrom.
func (imp *exportImporter) ImportFrom(path, srcDir string, mode types.ImportMode) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	canonical := path
	if m, ok := imp.x.importMap[filepath.Clean(srcDir)]; ok && m[path] != "" {
		canonical = m[path]
	}
	file, ok := imp.x.files[canonical]
	if !ok {
		return imp.next.ImportFrom(path, srcDir, mode)
	}
	if pkg, ok := imp.pkgs[canonical]; ok && pkg.Complete() {
		return pkg, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("export data of %s: %w", canonical, err)
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("export data of %s: %w", canonical, err)
	}
	pkg, err := gcexportdata.Read(r, imp.fset, imp.pkgs, canonical)
	if err != nil {
		return nil, fmt.Errorf("export data of %s: %w", canonical, err)
	}
	return pkg, nil
}

package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// GateVariable reports whether an environment variable name is one the
// gate, its sandbox or its test runners set or read, whose value tells
// code where it runs: every SEALGATE_*, PYTEST_*, _PYTEST_* and
// COVERAGE_* name, the Go toolchain's (GOFLAGS, GOCACHE, GOCOVERDIR,
// GOMODCACHE, GOROOT, GOPATH, GOPROXY, GOTOOLCHAIN, GOENV, GOTELEMETRY,
// GOWORK), the interpreter's (PYTHONHASHSEED, PYTHONDONTWRITEBYTECODE,
// PYTHONNOUSERSITE, PYTHONPATH, PYTHONSAFEPATH), and the sandbox's TMPDIR,
// PWD and LC_ALL. HOME and PATH are not: ordinary code reads them for
// ordinary reasons (finding a configuration file, running a tool).
func GateVariable(name string) bool {
	for _, p := range []string{"SEALGATE_", "PYTEST_", "_PYTEST_", "COVERAGE_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	switch name {
	case "GOFLAGS", "GOCACHE", "GOCOVERDIR", "GOMODCACHE", "GOROOT", "GOPATH", "GOPROXY", "GOTOOLCHAIN", "GOENV", "GOTELEMETRY", "GOWORK",
		"PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONNOUSERSITE", "PYTHONPATH", "PYTHONSAFEPATH",
		"TMPDIR", "PWD", "LC_ALL":
		return true
	}
	return false
}

// placePath reports a file path that describes where a process runs rather
// than what it computes: /proc and /sys, container markers, the host's
// name and identity files.
func placePath(s string) bool {
	for _, p := range []string{"/proc", "/sys"} {
		if s == p || strings.HasPrefix(s, p+"/") {
			return true
		}
	}
	switch s {
	case "/.dockerenv", "/run/.containerenv", "/etc/hostname", "/etc/machine-id", "/var/lib/dbus/machine-id":
		return true
	}
	return false
}

// goTestFlag reports a string that names a flag of a go test binary
// ("test.run", "-test.skip").
func goTestFlag(s string) bool {
	s = strings.TrimLeft(s, "-")
	rest, ok := strings.CutPrefix(s, "test.")
	if !ok || rest == "" {
		return false
	}
	name, _, _ := strings.Cut(rest, "=")
	for _, c := range name {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return name != ""
}

// goProbeCalls are the functions (import path "." name) that tell code
// about where it runs, with what they tell.
var goProbeCalls = map[string]string{
	"os.Environ": "the whole environment", "os.Clearenv": "a cleared environment",
	"os.Hostname": "the host name", "os.Executable": "the path of the running binary", "os.Getwd": "the working directory",
	"os.Getpid": "its process id", "os.Getppid": "its parent's process id",
	"os.Getuid": "its user id", "os.Geteuid": "its user id", "os.Getgid": "its group id", "os.Getegid": "its group id", "os.Getgroups": "its groups",
	"os/user.Current": "the current user", "os/user.LookupId": "a user",
	"syscall.Environ": "the whole environment", "syscall.Uname": "the kernel and host name", "syscall.Sysinfo": "the system",
	"syscall.Getpid": "its process id", "syscall.Getppid": "its parent's process id", "syscall.Getuid": "its user id", "syscall.Geteuid": "its user id",
	"syscall.Getgid": "its group id", "syscall.Getegid": "its group id", "syscall.Getwd": "the working directory",
	"golang.org/x/sys/unix.Uname": "the kernel and host name", "golang.org/x/sys/unix.Gethostname": "the host name", "golang.org/x/sys/unix.Sysinfo": "the system",
	"golang.org/x/sys/unix.Getpid": "its process id", "golang.org/x/sys/unix.Getppid": "its parent's process id", "golang.org/x/sys/unix.Getuid": "its user id",
	"runtime.Caller": "its callers", "runtime.Callers": "its callers", "runtime.CallersFrames": "its callers", "runtime.Stack": "the goroutine stacks",
	"runtime.FuncForPC": "its callers", "runtime.GOROOT": "the toolchain's location",
	"runtime/debug.Stack": "the goroutine stack", "runtime/debug.PrintStack": "the goroutine stack", "runtime/debug.ReadBuildInfo": "the binary's build (a test binary says so)",
	"flag.Lookup": "the binary's flags", "flag.Set": "the binary's flags", "flag.CommandLine": "the binary's flags", "flag.Parsed": "the binary's flags",
	"flag.Visit": "the binary's flags", "flag.VisitAll": "the binary's flags", "flag.Args": "the binary's arguments", "flag.Arg": "the binary's arguments",
	"flag.NArg": "the binary's arguments", "flag.NFlag": "the binary's flags",
	"os.Args":        "the binary's arguments (a test binary's name and flags)",
	"net.Interfaces": "the network interfaces", "net.InterfaceAddrs": "the network interfaces",
}

// testingTypes are the types of package testing: naming one (a helper's
// t *testing.T) probes nothing.
var testingTypes = map[string]bool{"T": true, "B": true, "F": true, "M": true, "TB": true, "PB": true, "BenchmarkResult": true,
	"Cover": true, "CoverBlock": true, "InternalTest": true, "InternalBenchmark": true, "InternalExample": true, "InternalFuzzTarget": true}

// goEnvCalls read or write one environment variable named by their first
// argument.
var goEnvCalls = map[string]bool{
	"os.Getenv": true, "os.LookupEnv": true, "os.Setenv": true, "os.Unsetenv": true,
	"syscall.Getenv": true, "syscall.Setenv": true, "syscall.Unsetenv": true,
	"golang.org/x/sys/unix.Getenv": true, "golang.org/x/sys/unix.Setenv": true, "golang.org/x/sys/unix.Unsetenv": true,
}

// probe is a probe found in one version of a file.
type probe struct {
	line int
	what string
}

// GoProbes returns the probes of where it runs that the patch version of a
// non-test Go source file holds and its baseline version (nil for a new
// file) does not, compared as multisets of what they probe (not by line):
//
//   - any use of package testing (testing.Testing, testing.Short, …);
//   - os.Getenv, LookupEnv, Setenv, Unsetenv (and syscall's, unix's) of a
//     gate variable (GateVariable) or of a name that is not a constant;
//     os.ExpandEnv and os.Expand of a template naming one or not constant;
//     any of these taken as a function value;
//   - os.Environ, os.Clearenv, os.Args, os.Hostname, os.Executable,
//     os.Getwd, the process, user and group ids, os/user, syscall.Uname and
//     the like, runtime.Caller(s), runtime.Stack, runtime.FuncForPC,
//     runtime/debug.Stack and ReadBuildInfo, flag.Lookup, Set,
//     CommandLine, Parsed, Visit(All), Args, the network interfaces;
//   - a string literal naming /proc or /sys (or below), a container marker
//     (/.dockerenv, /run/.containerenv), /etc/hostname or the machine id,
//     a go test flag ("test.run", "-test.skip"), or a SEALGATE_ variable.
//
// A patch version that does not parse is one finding: it cannot be shown
// free of probes.
func GoProbes(file string, base, patched []byte) []Finding {
	pf, err := parseGo(file, patched)
	if err != nil {
		return []Finding{{Rule: RuleProbe, File: file, What: "does not parse, so it cannot be shown free of probes: " + oneLine(err.Error())}}
	}
	var had []string
	if base != nil {
		if bf, err := parseGo(file, base); err == nil {
			for _, p := range bf.probes() {
				had = append(had, p.what)
			}
		}
	}
	var out []Finding
	for _, p := range pf.probes() {
		if i := slices.Index(had, p.what); i >= 0 {
			had = slices.Delete(had, i, i+1)
			continue
		}
		out = append(out, Finding{Rule: RuleProbe, File: file, Line: p.line, What: p.what})
	}
	return Sort(out)
}

// probes lists the file's probes in source order.
func (g *goFile) probes() []probe {
	consts := g.stringConsts()
	var out []probe
	add := func(p token.Pos, what string) { out = append(out, probe{g.line(p), what}) }
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.CallExpr:
			sel, ok := unparenExpr(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn := g.qualified(sel)
			switch {
			case goEnvCalls[fn]:
				called[sel] = true
				if len(x.Args) == 0 {
					return true
				}
				name, ok := constString(x.Args[0], consts)
				switch {
				case !ok:
					add(x.Pos(), fmt.Sprintf("%s of a variable whose name is computed", fn))
				case GateVariable(name):
					add(x.Pos(), fmt.Sprintf("%s of the gate's variable %s", fn, name))
				}
			case fn == "os.ExpandEnv" || fn == "os.Expand":
				called[sel] = true
				if len(x.Args) == 0 {
					return true
				}
				tmpl, ok := constString(x.Args[0], consts)
				switch {
				case !ok:
					add(x.Pos(), fmt.Sprintf("%s of a template that is computed", fn))
				default:
					for _, v := range expandNames(tmpl) {
						if GateVariable(v) {
							add(x.Pos(), fmt.Sprintf("%s of the gate's variable %s", fn, v))
						}
					}
				}
			}
		case *ast.SelectorExpr:
			fn := g.qualified(x)
			if fn == "" {
				return true
			}
			switch {
			case strings.HasPrefix(fn, "testing.") && !testingTypes[x.Sel.Name]:
				add(x.Pos(), "uses "+fn+" (package testing) outside tests")
			case goProbeCalls[fn] != "":
				add(x.Pos(), fmt.Sprintf("reads %s (%s)", goProbeCalls[fn], fn))
			case (goEnvCalls[fn] || fn == "os.ExpandEnv" || fn == "os.Expand") && !called[x]:
				add(x.Pos(), fmt.Sprintf("takes %s as a value", fn))
			}
		case *ast.BasicLit:
			if x.Kind != token.STRING {
				return true
			}
			v, err := strconv.Unquote(x.Value)
			if err != nil {
				return true
			}
			switch {
			case placePath(v):
				add(x.Pos(), fmt.Sprintf("names %s, a path that tells where it runs", strconv.Quote(v)))
			case goTestFlag(v):
				add(x.Pos(), fmt.Sprintf("names the go test flag %s", strconv.Quote(v)))
			case strings.HasPrefix(v, "SEALGATE_"):
				add(x.Pos(), fmt.Sprintf("names the gate's variable %s", v))
			}
		}
		return true
	})
	return out
}

// qualified returns "importpath.Name" for a selector on an imported
// package, or "".
func (g *goFile) qualified(sel *ast.SelectorExpr) string {
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	ip, ok := g.imports[pkg.Name]
	if !ok {
		return ""
	}
	return ip + "." + sel.Sel.Name
}

// stringConsts returns the string constants the file declares (at any
// level), by name, folded from literals, other such constants and +.
func (g *goFile) stringConsts() map[string]string {
	decl := map[string]ast.Expr{}
	ast.Inspect(g.f, func(n ast.Node) bool {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return true
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					decl[name.Name] = vs.Values[i]
				}
			}
		}
		return true
	})
	out := map[string]string{}
	for range len(decl) + 1 { // each round folds one more level
		for name, e := range decl {
			if v, ok := constString(e, out); ok {
				out[name] = v
			}
		}
	}
	return out
}

// constString folds a string constant expression: literals, known
// constants, parentheses and +.
func constString(e ast.Expr, consts map[string]string) (string, bool) {
	switch x := unparenExpr(e).(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		v, err := strconv.Unquote(x.Value)
		return v, err == nil
	case *ast.Ident:
		v, ok := consts[x.Name]
		return v, ok
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok := constString(x.X, consts)
		if !ok {
			return "", false
		}
		b, ok := constString(x.Y, consts)
		return a + b, ok
	}
	return "", false
}

// expandNames returns the variable names an os.ExpandEnv template uses:
// $NAME and ${NAME}.
func expandNames(tmpl string) []string {
	var out []string
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '$' || i+1 >= len(tmpl) {
			continue
		}
		rest := tmpl[i+1:]
		if rest[0] == '{' {
			if end := strings.IndexByte(rest, '}'); end > 0 {
				out = append(out, rest[1:end])
			}
			continue
		}
		end := 0
		for end < len(rest) && (rest[end] == '_' || rest[end] >= 'A' && rest[end] <= 'Z' || rest[end] >= 'a' && rest[end] <= 'z' || end > 0 && rest[end] >= '0' && rest[end] <= '9') {
			end++
		}
		if end > 0 {
			out = append(out, rest[:end])
		}
	}
	return out
}

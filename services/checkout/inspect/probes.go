package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"net"
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
// name and identity files, and the gate's own places — /src, where every
// job's tree is mounted, and the sandbox's /tmp/home and /tmp/tmp.
func placePath(s string) bool {
	for _, p := range []string{"/proc", "/sys", "/src", "/tmp/home", "/tmp/tmp"} {
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

// goProbeCall says what the functions (import path "." name) that tell code
// about where it runs, with what they tell.
func goProbeCall(name string) string {
	switch name {
	case "os.Environ", "syscall.Environ":
		return "the whole environment"
	case "os.Clearenv":
		return "a cleared environment"
	case "os.Hostname", "golang.org/x/sys/unix.Gethostname":
		return "the host name"
	case "os.Executable":
		return "the path of the running binary"
	case "os.Getwd", "syscall.Getwd":
		return "the working directory"
	case "os.Getpid", "syscall.Getpid", "golang.org/x/sys/unix.Getpid":
		return "its process id"
	case "os.Getppid", "syscall.Getppid", "golang.org/x/sys/unix.Getppid":
		return "its parent's process id"
	case "os.Getuid", "os.Geteuid", "syscall.Getuid", "syscall.Geteuid", "golang.org/x/sys/unix.Getuid":
		return "its user id"
	case "os.Getgid", "os.Getegid", "syscall.Getgid", "syscall.Getegid":
		return "its group id"
	case "os.Getgroups":
		return "its groups"
	case "os/user.Current":
		return "the current user"
	case "os/user.LookupId":
		return "a user"
	case "syscall.Uname", "golang.org/x/sys/unix.Uname":
		return "the kernel and host name"
	case "syscall.Sysinfo", "golang.org/x/sys/unix.Sysinfo":
		return "the system"
	case "runtime.Caller", "runtime.Callers", "runtime.CallersFrames", "runtime.FuncForPC":
		return "its callers"
	case "runtime.Stack":
		return "the goroutine stacks"
	case "runtime.GOROOT":
		return "the toolchain's location"
	case "runtime/debug.Stack", "runtime/debug.PrintStack":
		return "the goroutine stack"
	case "runtime/debug.ReadBuildInfo":
		return "the binary's build (a test binary says so)"
	case "flag.Lookup", "flag.Set", "flag.CommandLine", "flag.Parsed", "flag.Visit", "flag.VisitAll", "flag.NFlag":
		return "the binary's flags"
	case "flag.Args", "flag.Arg", "flag.NArg":
		return "the binary's arguments"
	case "os.Args":
		return "the binary's arguments (a test binary's name and flags)"
	case "net.Interfaces", "net.InterfaceAddrs":
		return "the network interfaces"
	case "runtime.GOOS", "runtime.GOARCH", "go/build.Default":
		return "the platform (the gate runs on one: what the code does on the others no run here shows)"
	case "runtime.NumGoroutine", "runtime.GoroutineProfile", "runtime/pprof.Lookup":
		return "how many goroutines run (a test binary runs its tests beside main's)"
	case "syscall.Getrlimit", "syscall.Prlimit", "golang.org/x/sys/unix.Getrlimit", "golang.org/x/sys/unix.Prlimit":
		return "its resource limits, which the sandbox sets"
	}
	return ""
}

// networkCall says how the functions and methods of a name (package net's
// resolvers and dialers, net/http's clients, and the like) take the name or
// address they resolve or reach: "host" (a host, host:port or address),
// "url" (a URL with a scheme: Get and Post are common names of other
// things, a map's or a JSON path's), or "" for any other name.
func networkCall(name string) string {
	switch name {
	case "LookupHost", "LookupIP", "LookupIPAddr", "LookupNetIP", "LookupAddr", "LookupCNAME", "LookupMX", "LookupNS",
		"LookupTXT", "LookupSRV", "LookupPort", "ResolveIPAddr", "ResolveTCPAddr", "ResolveUDPAddr",
		"Dial", "DialTimeout", "DialContext", "DialTCP", "DialUDP", "DialIP":
		return "host"
	case "Get", "Head", "Post", "PostForm", "NewRequest", "NewRequestWithContext":
		return "url"
	}
	return ""
}

// cmpOrName is fn, or the bare name of a method when fn (a package-level
// function's qualified name) is "".
func cmpOrName(fn, name string) string {
	if fn != "" {
		return fn
	}
	return name
}

// remoteAddr reports a string that names a host on another machine: a URL
// with a host (only that, when url is set), a host:port, or a dotted name
// or address that is not this machine's.
func remoteAddr(s string, url bool) bool {
	if s == "" || strings.ContainsAny(s, " \t\n") || loopback(s) {
		return false
	}
	host := s
	if _, rest, ok := strings.Cut(host, "://"); ok {
		host, _, _ = strings.Cut(rest, "/")
	} else if url {
		return false
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if net.ParseIP(host) != nil {
		return true
	}
	return strings.Contains(host, ".") && !strings.HasSuffix(host, ".") && !strings.ContainsAny(host, "/%")
}

// loopback reports an address or URL on this machine: what the sandbox's
// loopback answers as any machine's would.
func loopback(addr string) bool {
	host := addr
	if _, rest, ok := strings.Cut(host, "://"); ok {
		host = rest
	}
	host, _, _ = strings.Cut(host, "/")
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// testingType reports the types of package testing: naming one (a helper's
// t *testing.T) probes nothing.
func testingType(name string) bool {
	switch name {
	case "T", "B", "F", "M", "TB", "PB", "BenchmarkResult", "Cover", "CoverBlock", "InternalTest",
		"InternalBenchmark", "InternalExample", "InternalFuzzTarget":
		return true
	}
	return false
}

// goEnvCall reports the functions that read or write one environment variable named by their first
// argument.
func goEnvCall(name string) bool {
	switch name {
	case "os.Getenv", "os.LookupEnv", "os.Setenv", "os.Unsetenv", "syscall.Getenv", "syscall.Setenv",
		"syscall.Unsetenv", "golang.org/x/sys/unix.Getenv", "golang.org/x/sys/unix.Setenv",
		"golang.org/x/sys/unix.Unsetenv":
		return true
	}
	return false
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
//     the like, the resource limits (syscall.Getrlimit), runtime.Caller(s), runtime.Stack, runtime.FuncForPC,
//     runtime/debug.Stack and ReadBuildInfo, flag.Lookup, Set,
//     CommandLine, Parsed, Visit(All), Args, the network interfaces;
//   - a string literal naming /proc, /sys, the gate's /src, /tmp/home or
//     /tmp/tmp (or below), a container marker
//     (/.dockerenv, /run/.containerenv), /etc/hostname or the machine id,
//     a go test flag ("test.run", "-test.skip"), or a SEALGATE_ variable;
//   - a string (a literal, or literals and constants added) naming the
//     package's test files ("*_test.go", "median_test.go"), or a literal
//     naming a testdata directory in a file that does not import testing:
//     whether they lie beside it tells where go test runs it;
//   - the clock read as an instant and compared (time.Now().Year() <
//     2027, a switch on time.Now().Month()), or the clock compared with a
//     fixed instant (time.Now().Before(x) where x is time.Date, time.Unix
//     or time.Parse of constants, or a package-level variable holding
//     one; time.Since and time.Until of one): behaviour that changes on a
//     date no test reaches;
//   - the value of a variable the sandbox sets or leaves out that
//     ordinary code reads (HOME, PATH, XDG_CONFIG_HOME, USER, LOGNAME,
//     SHELL) compared, directly or through a variable of the same
//     function, or given to a strings, bytes, path or regexp predicate:
//     building a path on HOME is ordinary, asking what it holds tells the
//     sandbox's value from a user's.
//
// os.Args and package flag's functions are no probe in the body of func
// main of package main, where a command reads its arguments.
//
// A patch version that does not parse is one finding: it cannot be shown
// free of probes.
func GoProbes(file string, base, patched []byte) []Finding {
	return GoProbesIn(file, base, patched, nil)
}

// GoProbesIn is GoProbes with the patch's tree around the file: exists
// reports whether a slash-separated path relative to the tree's root names
// a file of it. A string (a literal, literals and constants added, or a
// path.Join or filepath.Join of them) that names, relative to the file's
// directory, a file of the tree ("median.go", "../go.mod") is a probe too:
// go test runs a test binary in its package's directory, so whether the
// package's own files lie there tells a test from a program that imports
// the package. A nil exists finds what GoProbes finds.
func GoProbesIn(file string, base, patched []byte, exists func(string) bool) []Finding {
	pf, err := parseGo(file, patched)
	if err != nil {
		return []Finding{{Rule: RuleProbe, File: file, What: "does not parse, so it cannot be shown free of probes: " + oneLine(err.Error())}}
	}
	var had []string
	if base != nil {
		if bf, err := parseGo(file, base); err == nil {
			for _, p := range bf.probesIn(exists) {
				had = append(had, p.what)
			}
		}
	}
	var out []Finding
	for _, p := range pf.probesIn(exists) {
		if i := slices.Index(had, p.what); i >= 0 {
			had = slices.Delete(had, i, i+1)
			continue
		}
		out = append(out, Finding{Rule: RuleProbe, File: file, Line: p.line, What: p.what})
	}
	return Sort(out)
}

// testFilesName reports a string that names a package's test files: a
// name or pattern with "_test.go", or a glob such as "*_test*". Non-test
// code has no use for them but to tell whether it runs beside its tests,
// where go test runs it.
func testFilesName(s string) bool {
	return strings.Contains(s, "_test.go") || strings.Contains(s, "*_test") || strings.Contains(s, "_test*")
}

// testdataPath reports a string naming a testdata directory as a path
// component: where go test runs a package, its testdata lies beside it.
func testdataPath(s string) bool {
	return s == "testdata" || strings.HasPrefix(s, "testdata/") || strings.Contains(s, "/testdata/") || strings.HasSuffix(s, "/testdata")
}

// argsOfMain reports the probes that are no probe in the body of func
// main of package main: a command reads its arguments and flags there.
func argsOfMain(fn string) bool {
	return fn == "os.Args" || strings.HasPrefix(fn, "flag.")
}

// probesIn lists the file's probes in source order, with exists (see
// GoProbesIn) for the names of the tree's files.
func (g *goFile) probesIn(exists func(string) bool) []probe {
	consts := g.stringConsts()
	var out []probe
	add := func(p token.Pos, what string) { out = append(out, probe{g.line(p), what}) }
	treeFile := func(p token.Pos, v string) bool {
		rel, ok := besideFile(g.path, v, exists)
		if ok {
			add(p, fmt.Sprintf("names %s, the tree's %s: whether it lies in the working directory tells a test binary (run in its package's directory) from a program", strconv.Quote(v), rel))
		}
		return ok
	}
	out = append(out, g.clockProbes()...)
	out = append(out, g.sandboxValueProbes(consts)...)
	called := map[*ast.SelectorExpr]bool{}
	var mainBody ast.Node
	if g.f.Name.Name == "main" {
		for _, d := range g.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				mainBody = fd.Body
			}
		}
	}
	inMain := func(n ast.Node) bool {
		return mainBody != nil && n.Pos() >= mainBody.Pos() && n.End() <= mainBody.End()
	}
	testFiles := func(p token.Pos, v string) {
		add(p, fmt.Sprintf("names the package's test files (%s): whether they lie beside it tells a test binary's working directory", strconv.Quote(v)))
	}
	// A file importing testing is test support, which reads testdata.
	_, support := g.imports["testing"]
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.BinaryExpr:
			// A name spelled in pieces ("*_te" + "st.go").
			if v, ok := constString(x, consts); ok && x.Op == token.ADD && testFilesName(v) {
				testFiles(x.Pos(), v)
				return false
			}
			if v, ok := constString(x, consts); ok && x.Op == token.ADD && treeFile(x.Pos(), v) {
				return false
			}
			if v, ok := constString(x, consts); ok && x.Op == token.ADD && placePath(v) {
				add(x.Pos(), fmt.Sprintf("names %s, a path that tells where it runs", strconv.Quote(v)))
				return false
			}
		case *ast.CallExpr:
			sel, ok := unparenExpr(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn := g.qualified(sel)
			if fn == "path.Join" || fn == "path/filepath.Join" {
				if v, ok := joinedConst(x.Args, consts); ok && treeFile(x.Pos(), v) {
					return false
				}
			}
			if kind := networkCall(sel.Sel.Name); kind != "" {
				// A remote name or address written into the code, reached
				// through any resolver, dialer or client: the sandbox has
				// no network, so whether it answers tells where it runs.
				for _, arg := range x.Args {
					if addr, ok := constString(arg, consts); ok && remoteAddr(addr, kind == "url") {
						add(x.Pos(), fmt.Sprintf("reaches %s over the network (%s), which the sandbox leaves out: whether it answers tells where it runs", strconv.Quote(addr), cmpOrName(fn, sel.Sel.Name)))
						break
					}
				}
			}
			switch {
			case goEnvCall(fn):
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
			case strings.HasPrefix(fn, "testing.") && !testingType(x.Sel.Name):
				add(x.Pos(), "uses "+fn+" (package testing) outside tests")
			case goProbeCall(fn) != "" && !(argsOfMain(fn) && inMain(x)):
				add(x.Pos(), fmt.Sprintf("reads %s (%s)", goProbeCall(fn), fn))
			case (goEnvCall(fn) || fn == "os.ExpandEnv" || fn == "os.Expand") && !called[x]:
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
			case testFilesName(v):
				testFiles(x.Pos(), v)
			case testdataPath(v) && !support:
				add(x.Pos(), fmt.Sprintf("names a testdata directory (%s): whether it lies beside it tells a test binary's working directory", strconv.Quote(v)))
			default:
				treeFile(x.Pos(), v)
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
	for grew := true; grew; { // each round folds one more level
		grew = false
		for name, e := range decl {
			if _, done := out[name]; done {
				continue
			}
			if v, ok := constString(e, out); ok {
				out[name] = v
				grew = true
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

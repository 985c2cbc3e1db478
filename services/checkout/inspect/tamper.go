package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// GoHarnessReach returns what the patch version of a Go file (test or
// non-test: isTest) does to the test binary it is compiled into, beyond
// the code it tests, that its baseline version (nil for a new file) does
// not, compared as multisets of what (not by line), like GoProbes:
//
//   - it ends the process behind the testing package's back: syscall.Exit
//     and unix.Exit, raw system calls, syscall.Exec, C's exit through cgo,
//     and os.Exit outside package main (non-test code) or outside a test
//     file that declares TestMain — used as a call or taken as a value;
//   - it imports runtime/coverage (the running binary's coverage
//     counters) or the testing package's internals, dot-imports a package
//     whose functions end or inspect the process (its names could not be
//     told apart), or has a //go:linkname directive;
//   - it holds a string or rune constant (literals, constants and + of
//     them, folded) with test2json's framing byte 0x16 or a line of a test
//     transcript ("--- PASS", "=== RUN", …), the gate's sandbox paths
//     (/sealgate…) or GOCOVERDIR;
//   - in a test file only (non-test code has these as probes, GoProbes):
//     it reads the test binary's arguments (os.Args but os.Args[0], the
//     binary's own path) or flags (flag.Lookup, flag.Set,
//     flag.CommandLine, flag.Visit…), asks whether it runs under coverage
//     (testing.CoverMode, testing.Coverage), or names a go test flag
//     ("-test.coverprofile=") or the gate's variables (SEALGATE_…).
//
// Declaring a flag (flag.Bool("update", …)) is none of these. A patch
// version that does not parse is one finding: it cannot be shown not to
// reach into the harness. Findings are of RuleHarnessReach, sorted.
func GoHarnessReach(file string, base, patched []byte, isTest bool) []Finding {
	pf, err := parseGo(file, patched)
	if err != nil {
		return []Finding{{Rule: RuleHarnessReach, File: file, What: "does not parse, so it cannot be shown not to reach into the test harness: " + oneLine(err.Error())}}
	}
	var had []string
	if base != nil {
		if bf, err := parseGo(file, base); err == nil {
			for _, p := range bf.harnessReach(isTest) {
				had = append(had, p.what)
			}
		}
	}
	var out []Finding
	for _, p := range pf.harnessReach(isTest) {
		if i := slices.Index(had, p.what); i >= 0 {
			had = slices.Delete(had, i, i+1)
			continue
		}
		out = append(out, Finding{Rule: RuleHarnessReach, File: file, Line: p.line, What: p.what})
	}
	return Sort(out)
}

// exitCall says how a function (import path "." name) ends or replaces
// the process, or "".
func exitCall(name string) string {
	switch name {
	case "syscall.Exit", "golang.org/x/sys/unix.Exit":
		return "ends the process"
	case "syscall.Syscall", "syscall.Syscall6", "syscall.RawSyscall", "syscall.RawSyscall6", "syscall.RawSyscallNoError",
		"golang.org/x/sys/unix.Syscall", "golang.org/x/sys/unix.Syscall6", "golang.org/x/sys/unix.RawSyscall",
		"golang.org/x/sys/unix.RawSyscall6", "golang.org/x/sys/unix.RawSyscallNoError", "golang.org/x/sys/unix.SyscallNoError":
		return "makes a raw system call, which can end the process"
	case "syscall.Exec", "golang.org/x/sys/unix.Exec":
		return "replaces the process"
	}
	return ""
}

// cExit reports the C functions that end or replace the process.
func cExit(name string) bool {
	switch name {
	case "exit", "_exit", "_Exit", "quick_exit", "abort", "syscall", "kill", "raise", "execv", "execve", "execvp", "execl", "execle", "execlp":
		return true
	}
	return false
}

// harnessFlagCall reports the functions of package flag that read or
// change the test binary's flags (declaring one is not among them).
func harnessFlagCall(name string) bool {
	switch name {
	case "flag.Lookup", "flag.Set", "flag.CommandLine", "flag.Visit", "flag.VisitAll", "flag.Parsed", "flag.NFlag", "flag.Args", "flag.Arg", "flag.NArg":
		return true
	}
	return false
}

// dotImportReach reports the packages whose dot import hides a call this
// analysis or GoProbes looks for.
func dotImportReach(ip string) bool {
	switch ip {
	case "os", "flag", "syscall", "golang.org/x/sys/unix", "runtime", "runtime/coverage", "runtime/debug", "testing":
		return true
	}
	return false
}

// harnessString says what a string constant reaching into the harness
// holds, or "".
func harnessString(v string, isTest bool) string {
	switch {
	case strings.ContainsRune(v, 0x16):
		return fmt.Sprintf("holds test2json's framing byte 0x16 (%s): it can forge the test transcript", clipQuote(v))
	case sandboxPath(v):
		return fmt.Sprintf("names the gate's sandbox path (%s)", clipQuote(v))
	case strings.Contains(v, "GOCOVERDIR"):
		return fmt.Sprintf("names GOCOVERDIR, where the binary writes its coverage counters (%s)", clipQuote(v))
	}
	// The lines of a go test transcript test2json reads as events.
	for _, m := range []string{"--- PASS", "--- FAIL", "--- SKIP", "--- BENCH", "=== RUN", "=== PAUSE", "=== CONT", "=== NAME"} {
		if strings.Contains(v, m) {
			return fmt.Sprintf("holds the test transcript line %q (%s): it can forge the test transcript", m, clipQuote(v))
		}
	}
	if !isTest {
		return ""
	}
	switch {
	case goTestFlag(v) || strings.Contains(v, "-test.") || strings.Contains(v, "test.coverprofile") || strings.Contains(v, "test.gocoverdir"):
		return fmt.Sprintf("names a flag of the test binary (%s)", clipQuote(v))
	case strings.Contains(v, "SEALGATE_"):
		return fmt.Sprintf("names the gate's variables (%s)", clipQuote(v))
	}
	return ""
}

// sandboxPath reports a string naming a path under /sealgate, where the
// gate's sandbox keeps its binaries and outputs: /sealgate at the start
// or after a character that cannot be part of a path.
func sandboxPath(v string) bool {
	for i := 0; ; {
		j := strings.Index(v[i:], "/sealgate")
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len("/sealgate")
		before := at == 0 || !isPathByte(v[at-1])
		after := end == len(v) || v[end] == '/' || !isPathByte(v[end])
		if before && after {
			return true
		}
		i = at + 1
	}
}

func isPathByte(c byte) bool {
	return c == '/' || c == '~' || isNameByte(c)
}

// clipQuote quotes a string for a message, shortened.
func clipQuote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strconv.Quote(s)
}

// harnessReach lists the file's reaches into the test harness in source
// order (see GoHarnessReach).
func (g *goFile) harnessReach(isTest bool) []probe {
	consts := g.stringConsts()
	var out []probe
	add := func(p token.Pos, what string) { out = append(out, probe{g.line(p), what}) }
	main := !isTest && g.f.Name.Name == "main"
	hasTestMain := false
	for _, d := range g.f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "TestMain" {
			hasTestMain = true
		}
	}
	for _, imp := range g.f.Imports {
		ip, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		switch {
		case ip == "runtime/coverage":
			add(imp.Pos(), "imports runtime/coverage, which reads and resets the running binary's coverage counters")
		case ip == "testing/internal/testdeps" || strings.HasPrefix(ip, "testing/internal/"):
			add(imp.Pos(), "imports "+ip+", the test binary's own machinery")
		case imp.Name != nil && imp.Name.Name == "." && dotImportReach(ip):
			add(imp.Pos(), "dot-imports "+ip+", so its functions cannot be told apart by name")
		}
	}
	for _, cg := range g.f.Comments {
		for _, c := range cg.List {
			if !isTest && strings.HasPrefix(c.Text, "//go:linkname") {
				add(c.Pos(), "has a //go:linkname directive, which can replace any function of the binary, the testing package's too")
			}
		}
	}
	// os.Args[0], the test binary's own path, tells a test nothing of its
	// flags (a test stats or re-runs its binary).
	binaryPath := map[*ast.SelectorExpr]bool{}
	ast.Inspect(g.f, func(n ast.Node) bool {
		if ix, ok := n.(*ast.IndexExpr); ok {
			if sel, ok := unparenExpr(ix.X).(*ast.SelectorExpr); ok {
				if b, ok := unparenExpr(ix.Index).(*ast.BasicLit); ok && b.Kind == token.INT && b.Value == "0" {
					binaryPath[sel] = true
				}
			}
		}
		return true
	})
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "C" && !isTest && cExit(x.Sel.Name) {
				if _, imported := g.imports["C"]; imported {
					add(x.Pos(), fmt.Sprintf("calls C.%s through cgo, which ends or replaces the process", x.Sel.Name))
					return true
				}
			}
			fn := g.qualified(x)
			switch {
			case fn == "":
			case exitCall(fn) != "":
				add(x.Pos(), fmt.Sprintf("%s (%s) behind the testing package's back", exitCall(fn), fn))
			case fn == "os.Exit" && !main && !hasTestMain:
				where := "outside package main"
				if isTest {
					where = "in a test file without TestMain"
				}
				add(x.Pos(), "ends the process with os.Exit "+where+", behind the testing package's back")
			case isTest && fn == "os.Args" && !binaryPath[x]:
				add(x.Pos(), "reads the test binary's arguments (os.Args)")
			case isTest && harnessFlagCall(fn):
				add(x.Pos(), fmt.Sprintf("reads or sets the test binary's flags (%s)", fn))
			case isTest && (fn == "testing.CoverMode" || fn == "testing.Coverage"):
				add(x.Pos(), fmt.Sprintf("asks whether it runs under coverage (%s)", fn))
			}
		case *ast.BinaryExpr:
			// A string spelled in pieces is judged whole; its pieces
			// too when the whole says nothing.
			if v, ok := constString(x, consts); ok {
				if what := harnessString(v, isTest); what != "" {
					add(x.Pos(), what)
					return false
				}
			}
		case *ast.BasicLit:
			switch x.Kind {
			case token.STRING:
				if v, err := strconv.Unquote(x.Value); err == nil {
					if what := harnessString(v, isTest); what != "" {
						add(x.Pos(), what)
					}
				}
			case token.CHAR:
				if v, err := strconv.Unquote(x.Value); err == nil && v == "\x16" {
					add(x.Pos(), "holds test2json's framing byte 0x16 as a rune: it can forge the test transcript")
				}
			}
		}
		return true
	})
	return out
}

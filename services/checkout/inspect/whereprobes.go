package inspect

import (
	"fmt"
	"go/ast"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// The probes of GoProbes that need more than one node to see: a path
// relative to the package's directory naming a file of the tree, the clock
// compared with a fixed instant, and the value of a variable the sandbox
// sets asked what it holds.

// besideFile reports the tree path that v, a string of the Go file file,
// names relative to the file's directory, when it names a file or
// directory of the tree (exists). A bare name (no slash) counts only with
// a dot in it ("median.go", "go.mod"): a word such as "calc" is more often
// a message than a path. Absolute paths, URLs and paths leaving the tree
// are not judged here.
func besideFile(file, v string, exists func(string) bool) (string, bool) {
	if exists == nil || v == "" || strings.HasPrefix(v, "/") || strings.ContainsAny(v, "\x00\\\n\r\t *?[") || strings.Contains(v, "://") {
		return "", false
	}
	if !strings.Contains(v, "/") && !strings.Contains(v, ".") || strings.Trim(v, "./") == "" {
		return "", false // a word, or only dots and slashes (".", "../")
	}
	rel := path.Join(path.Dir(file), v)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, exists(rel)
}

// joinedConst folds path.Join or filepath.Join of string constants.
func joinedConst(args []ast.Expr, consts map[string]string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	parts := make([]string, len(args))
	for i, a := range args {
		v, ok := constString(a, consts)
		if !ok {
			return "", false
		}
		parts[i] = v
	}
	return path.Join(parts...), true
}

// clockFields are the methods of time.Time that read part of an instant.
func clockField(name string) bool {
	switch name {
	case "Year", "Month", "Day", "YearDay", "Weekday", "Hour", "Minute", "Second", "ISOWeek",
		"Unix", "UnixMilli", "UnixMicro", "UnixNano", "Date", "Clock":
		return true
	}
	return false
}

// fixedInstantFunc reports the functions of package time that make an
// instant from their arguments.
func fixedInstantFunc(fn string) bool {
	switch fn {
	case "time.Date", "time.Unix", "time.UnixMilli", "time.UnixMicro", "time.Parse", "time.ParseInLocation":
		return true
	}
	return false
}

// clockProbes finds the clock compared with a fixed instant or read as
// one and compared (see GoProbes).
func (g *goFile) clockProbes() []probe {
	var out []probe
	add := func(p token.Pos, what string) { out = append(out, probe{g.line(p), what}) }
	// Names the file assigns time.Now() to (any scope: an over-approximation)
	// and package-level variables holding a fixed instant.
	nows := map[string]bool{}
	readings := map[string]bool{}
	fixed := map[string]bool{}
	constant := map[string]bool{} // names declared with a constant value
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == len(x.Rhs) {
				for i, r := range x.Rhs {
					if id, ok := x.Lhs[i].(*ast.Ident); ok && g.isNow(r, nil) {
						nows[id.Name] = true
					}
					if id, ok := x.Lhs[i].(*ast.Ident); ok && g.isClockReading(r, nil) {
						readings[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			if len(x.Names) == len(x.Values) {
				for i, v := range x.Values {
					if g.isNow(v, nil) {
						nows[x.Names[i].Name] = true
					}
					if g.isClockReading(v, nil) {
						readings[x.Names[i].Name] = true
					}
					if g.isFixedInstant(v, nil) {
						fixed[x.Names[i].Name] = true
					}
					if g.constantArg(v) {
						constant[x.Names[i].Name] = true
					}
				}
			}
		}
		return true
	})
	// Package-level variables holding the clock when the process started.
	started := map[string]bool{}
	for _, d := range g.f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if i < len(vs.Names) && g.isNow(v, nil) {
						started[vs.Names[i].Name] = true
					}
				}
			}
		}
	}
	// uptime reports time.Since(started), time.Until(started) or
	// time.Now().Sub(started): how long the process has run.
	uptime := func(e ast.Expr) bool {
		c, ok := unparenExpr(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return false
		}
		id, ok := unparenExpr(c.Args[0]).(*ast.Ident)
		if !ok || !started[id.Name] {
			return false
		}
		sel, ok := unparenExpr(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		fn := g.qualified(sel)
		return fn == "time.Since" || fn == "time.Until" || sel.Sel.Name == "Sub" && g.isNow(sel.X, nows)
	}
	reading := func(e ast.Expr) bool {
		if id, ok := unparenExpr(e).(*ast.Ident); ok && readings[id.Name] {
			return true
		}
		return g.isClockReading(e, nows)
	}
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				fixedSide := func(e ast.Expr) bool {
					if id, ok := unparenExpr(e).(*ast.Ident); ok {
						return constant[id.Name]
					}
					return g.constantArg(e)
				}
				if reading(x.X) && fixedSide(x.Y) || reading(x.Y) && fixedSide(x.X) {
					add(x.Pos(), "compares the clock's reading: what it does changes with the date or hour it runs, which no test reaches")
					return false
				}
				if uptime(x.X) || uptime(x.Y) {
					add(x.Pos(), "compares how long the process has run: what it does changes after a while, which no test waits for")
					return false
				}
			}
		case *ast.SwitchStmt:
			if x.Tag != nil && reading(x.Tag) {
				add(x.Pos(), "switches on the clock's reading: what it does changes with the date or hour it runs, which no test reaches")
			}
		case *ast.CallExpr:
			sel, ok := unparenExpr(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if fn := g.qualified(sel); fn == "time.Since" || fn == "time.Until" {
				if len(x.Args) == 1 && g.isFixedInstant(x.Args[0], fixed) {
					add(x.Pos(), fmt.Sprintf("measures the clock against a fixed instant (%s): what it does changes on a date no test reaches", fn))
				}
				return true
			}
			switch sel.Sel.Name {
			case "Before", "After", "Equal", "Compare", "Sub":
			default:
				return true
			}
			if len(x.Args) != 1 {
				return true
			}
			if g.isNow(sel.X, nows) && g.isFixedInstant(x.Args[0], fixed) || g.isFixedInstant(sel.X, fixed) && g.isNow(x.Args[0], nows) {
				add(x.Pos(), fmt.Sprintf("compares the clock with a fixed instant (%s): what it does changes on a date no test reaches", sel.Sel.Name))
			}
		}
		return true
	})
	return out
}

// isNow reports time.Now(), a name assigned it, or either seen through
// UTC, Local, In, Round, Truncate or Add.
func (g *goFile) isNow(e ast.Expr, nows map[string]bool) bool {
	switch x := unparenExpr(e).(type) {
	case *ast.Ident:
		return nows[x.Name]
	case *ast.CallExpr:
		sel, ok := unparenExpr(x.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if g.qualified(sel) == "time.Now" {
			return true
		}
		switch sel.Sel.Name {
		case "UTC", "Local", "In", "Round", "Truncate", "Add", "AddDate":
			return g.isNow(sel.X, nows)
		}
	}
	return false
}

// isClockReading reports a part of the clock's instant: time.Now().Year()
// and the like.
func (g *goFile) isClockReading(e ast.Expr, nows map[string]bool) bool {
	c, ok := unparenExpr(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := unparenExpr(c.Fun).(*ast.SelectorExpr)
	if !ok || !clockField(sel.Sel.Name) {
		return false
	}
	return g.isNow(sel.X, nows)
}

// isFixedInstant reports an instant made of constants (time.Date(2027,
// time.January, …), time.Unix(1800000000, 0)), or a name of fixed
// holding one.
func (g *goFile) isFixedInstant(e ast.Expr, fixed map[string]bool) bool {
	switch x := unparenExpr(e).(type) {
	case *ast.Ident:
		return fixed[x.Name]
	case *ast.CallExpr:
		sel, ok := unparenExpr(x.Fun).(*ast.SelectorExpr)
		if !ok || !fixedInstantFunc(g.qualified(sel)) {
			return false
		}
		for _, a := range x.Args {
			if !g.constantArg(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constantArg reports literals, package time's names (time.January,
// time.UTC, time.RFC3339) and arithmetic of them.
func (g *goFile) constantArg(e ast.Expr) bool {
	switch x := unparenExpr(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return strings.HasPrefix(g.qualified(x), "time.")
	case *ast.UnaryExpr:
		return g.constantArg(x.X)
	case *ast.BinaryExpr:
		return g.constantArg(x.X) && g.constantArg(x.Y)
	}
	return false
}

// sandboxValue reports the environment variables whose value the sandbox
// decides and ordinary code reads: set by it (HOME, PATH,
// XDG_CONFIG_HOME), or left out of it (the account's USER, LOGNAME,
// USERNAME, SHELL). set says which.
func sandboxValue(name string) (known, set bool) {
	switch name {
	case "HOME", "PATH", "XDG_CONFIG_HOME":
		return true, true
	case "USER", "LOGNAME", "USERNAME", "SHELL":
		return true, false
	}
	return false, false
}

// sandboxRead is a read of such a value: its name, and whether the sandbox
// sets it.
type sandboxRead struct {
	name string
	set  bool
}

// predicate reports the functions that ask what a string holds.
func predicate(fn string) bool {
	pkg, name, ok := strings.Cut(fn, ".")
	if !ok {
		return false
	}
	switch pkg {
	case "strings", "bytes":
		switch name {
		case "HasPrefix", "HasSuffix", "Contains", "ContainsAny", "ContainsRune", "EqualFold", "Index", "IndexAny",
			"IndexByte", "IndexRune", "LastIndex", "LastIndexAny", "Compare", "Count", "Cut", "CutPrefix", "CutSuffix":
			return true
		}
	case "path", "path/filepath":
		switch name {
		case "Match", "HasPrefix":
			return true
		}
	case "regexp":
		return name == "MatchString" || name == "Match"
	}
	return false
}

// sandboxValueProbes finds the values of sandboxValue variables compared
// or asked what they hold (see GoProbes).
func (g *goFile) sandboxValueProbes(consts map[string]string) []probe {
	var out []probe
	read := func(e ast.Expr) (sandboxRead, bool) {
		c, ok := unparenExpr(e).(*ast.CallExpr)
		if !ok {
			return sandboxRead{}, false
		}
		sel, ok := unparenExpr(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return sandboxRead{}, false
		}
		fn := g.qualified(sel)
		switch fn {
		case "os.UserHomeDir":
			return sandboxRead{"HOME", true}, true
		case "os.UserConfigDir":
			return sandboxRead{"XDG_CONFIG_HOME", true}, true
		}
		if (fn == "os.Getenv" || fn == "os.LookupEnv" || fn == "syscall.Getenv") && len(c.Args) == 1 {
			if name, ok := constString(c.Args[0], consts); ok {
				if known, set := sandboxValue(name); known {
					return sandboxRead{name, set}, true
				}
			}
		}
		return sandboxRead{}, false
	}
	// Names the file assigns such a value to (any scope).
	held := map[string]sandboxRead{}
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Rhs) == 1 && len(x.Lhs) >= 1 {
				if r, ok := read(x.Rhs[0]); ok {
					if id, ok := x.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
						held[id.Name] = r
					}
				}
			}
		case *ast.ValueSpec:
			if len(x.Values) == 1 && len(x.Names) >= 1 {
				if r, ok := read(x.Values[0]); ok && x.Names[0].Name != "_" {
					held[x.Names[0].Name] = r
				}
			}
		}
		return true
	})
	value := func(e ast.Expr) (sandboxRead, bool) {
		if id, ok := unparenExpr(e).(*ast.Ident); ok {
			r, ok := held[id.Name]
			return r, ok
		}
		return read(e)
	}
	empty := func(e ast.Expr) bool {
		v, ok := constString(e, consts)
		return ok && v == ""
	}
	add := func(p token.Pos, r sandboxRead, how string) {
		out = append(out, probe{g.line(p), fmt.Sprintf("%s the value of %s, which the sandbox decides: it tells the sandbox from a user's environment", how, r.name)})
	}
	ast.Inspect(g.f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return true
			}
			for _, side := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				if r, ok := value(side[0]); ok && !(r.set && empty(side[1]) && (x.Op == token.EQL || x.Op == token.NEQ)) {
					add(x.Pos(), r, "compares")
					return true
				}
			}
		case *ast.SwitchStmt:
			if x.Tag != nil {
				if r, ok := value(x.Tag); ok {
					add(x.Pos(), r, "switches on")
				}
			}
		case *ast.CallExpr:
			sel, ok := unparenExpr(x.Fun).(*ast.SelectorExpr)
			if !ok || !predicate(g.qualified(sel)) {
				return true
			}
			for _, a := range x.Args {
				if r, ok := value(a); ok {
					add(x.Pos(), r, "asks "+g.qualified(sel)+" about")
					return true
				}
			}
		}
		return true
	})
	return out
}

// PyTreeNames returns a finding of RuleProbe for each string literal of a
// Python source (lits, as the script reads them) that the baseline's
// version (baseLits; nil for a new file) does not hold as often, and that
// names a file or directory of the tree relative to its root (exists):
// pytest runs from the project's root, so whether "pystats/stats.py" lies
// in the working directory tells a test run from a program that imports
// the package. The same guards as Go's apply (a word without a dot or a
// slash, dots and slashes only, absolute paths and URLs are not judged).
// Literals carry no line: the finding names the file.
func PyTreeNames(file string, baseLits, lits []Lit, exists func(string) bool) []Finding {
	if exists == nil {
		return nil
	}
	had := map[string]int{}
	for _, l := range baseLits {
		if l.Kind == "s" {
			had[l.Value]++
		}
	}
	var out []Finding
	for _, l := range lits {
		if l.Kind != "s" {
			continue
		}
		if had[l.Value] > 0 {
			had[l.Value]--
			continue
		}
		if rel, ok := besideFile("root.py", l.Value, exists); ok {
			out = append(out, Finding{Rule: RuleProbe, File: file,
				What: fmt.Sprintf("names %s, the tree's %s: whether it lies in the working directory tells pytest (run from the project's root) from a program", strconv.Quote(l.Value), rel)})
		}
	}
	return Sort(out)
}

package mutant

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSchemataErrors(t *testing.T) {
	files := map[string][]byte{"p.go": []byte("package p\n\nfunc f(a, b int) bool { return a < b }\n")}
	pkg := Package{Files: files}
	sites, err := Find(pkg, allLines(files))
	sites = slices.DeleteFunc(sites, func(s Site) bool { return s.Extra })
	if err != nil || len(sites) < 1 {
		t.Fatalf("Find = %v, %v", sites, err)
	}
	site := sites[0]
	withID := func(s Site, id int) Site { s.ID = id; return s }
	other := withID(site, 2)
	other.Col++
	tests := []struct {
		name  string
		sites []Site
		want  string
	}{
		{"no ID", []Site{site}, "positive ID"},
		{"same ID", []Site{withID(site, 1), withID(Site{File: "p.go", Line: 3, Col: 1, Operator: OpLogical}, 1)}, "more than one site"},
		{"twice", []Site{withID(site, 1), withID(site, 2)}, "listed twice"},
		{"not a site", []Site{other}, "not a mutation site"},
		{"unknown file", []Site{withID(Site{File: "q.go", Line: 1}, 1)}, "not in the package"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Schemata(pkg, tt.sites, testSwitch(t, nil, 1, 2))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Schemata error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestSchemataFiles(t *testing.T) {
	files := map[string][]byte{
		"a.go":                 []byte("package p\n\nfunc f(a, b int) bool { return a < b }\n"),
		"b.go":                 []byte("package p\n\nfunc g(a, b int) bool { return a > b }\n"),
		"0_sealgate_mutant.go": []byte("package p\n\nvar sealgateMutant = 1\n"),
	}
	pkg := Package{Files: files}
	sites, err := Find(pkg, map[string][]int{"a.go": {3}})
	if err != nil {
		t.Fatal(err)
	}
	chosen := Select(sites, 10, nil)
	sw := testSwitch(t, chosen)
	out, err := Schemata(pkg, chosen, sw)
	if err != nil {
		t.Fatal(err)
	}
	// The switch file and its names avoid the package's.
	if got := slices.Sorted(maps.Keys(out)); !slices.Equal(got, []string{"0_sealgate_mutant1.go", "a.go"}) {
		t.Fatalf("Schemata files = %q", got)
	}
	if !bytes.Contains(out["0_sealgate_mutant1.go"], []byte("func sealgate1_M(id int) int")) || bytes.Contains(out["0_sealgate_mutant1.go"], []byte("sealgateMutant")) {
		t.Errorf("switch file:\n%s", out["0_sealgate_mutant1.go"])
	}
	for name, src := range out {
		if f, err := format.Source(src); err != nil || !bytes.Equal(f, src) {
			t.Errorf("%s is not gofmt-clean (%v):\n%s", name, err, src)
		}
	}
	// The output is deterministic.
	again, err := Schemata(pkg, Select(sites, 10, nil), sw)
	if err != nil || !maps.EqualFunc(out, again, bytes.Equal) {
		t.Errorf("Schemata differs between runs (%v)", err)
	}
	// No sites: only the switch file.
	out, err = Schemata(pkg, nil, sw)
	if err != nil || len(out) != 1 || out["0_sealgate_mutant1.go"] == nil {
		t.Errorf("Schemata without sites = %q, %v", slices.Sorted(maps.Keys(out)), err)
	}
}

// testSwitch makes a switch for the sites and the extra ids.
func testSwitch(t testing.TB, sites []Site, ids ...int) Switch {
	t.Helper()
	for _, s := range sites {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	sw, err := NewSwitch(slices.Compact(ids))
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

// goTool returns the go command, or skips the test.
func goTool(t testing.TB) string {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("runs the go command, which the Bazel sandbox does not provide")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return goBin
}

// run runs the go command or a built binary in dir, with env added to a
// hermetic environment, and returns its standard output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOFLAGS=-mod=readonly", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off", "GO111MODULE=on",
		"GOCACHE="+filepath.Join(os.TempDir(), "sealgate-test-gocache"))
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s\n%s", name, strings.Join(args, " "), dir, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String()
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// calcFixture reads testdata: the module's files (go.mod, calc/*.go, dep/*.go)
// and the non-test sources of package calc. goLine is go.mod's go directive
// ("" for none); below go 1.18, generic.go is replaced by its stand-in.
func calcFixture(t *testing.T, goLine string) (module, src map[string][]byte) {
	t.Helper()
	mod := "module example.com/m\n"
	if goLine != "" {
		mod += "\n" + goLine + "\n"
	}
	module = map[string][]byte{"go.mod": []byte(mod)}
	old := goLine == "" || goLine < "go 1.18" && len(goLine) == len("go 1.18")
	src = make(map[string][]byte)
	for _, pkg := range []string{"calc", "dep"} {
		entries, err := os.ReadDir(filepath.Join("testdata", pkg))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("testdata", pkg, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			name := e.Name()
			switch {
			case name == "generic_old.go.txt" && old:
				name = "generic.go"
			case !strings.HasSuffix(name, ".go"), name == "generic.go" && old:
				continue
			}
			module[pkg+"/"+name] = b
			if pkg == "calc" && !strings.HasSuffix(name, "_test.go") {
				src[name] = b
			}
		}
	}
	return module, src
}

// calcLines requests every line of ops.go, more.go, dep.go and generic.go except the
// loop guards, which keep mutants from running forever.
func calcLines(src map[string][]byte) map[string][]int {
	lines := make(map[string][]int)
	for _, name := range []string{"ops.go", "more.go", "dep.go", "generic.go", "hidden.go"} {
		for i, l := range strings.Split(string(src[name]), "\n") {
			if !strings.Contains(l, "// guard") {
				lines[name] = append(lines[name], i+1)
			}
		}
	}
	return lines
}

// TestFindCalc checks the sites of the realistic fixture, by line content.
func TestFindCalc(t *testing.T) {
	skipInRaceStep(t)
	goTool(t) // the type checker finds example.com/m/dep with the go command
	module, src := calcFixture(t, "go 1.22")
	dir := t.TempDir()
	writeFiles(t, dir, module)
	sites, err := Find(Package{Dir: filepath.Join(dir, "calc"), Files: src}, calcLines(src))
	if err != nil {
		t.Fatal(err)
	}
	byLine := make(map[string][]string)
	for _, s := range sites {
		if s.Extra {
			continue
		}
		text := strings.TrimSpace(strings.Split(string(src[s.File]), "\n")[s.Line-1])
		byLine[text] = append(byLine[text], s.Operator+" ("+s.Description+")")
	}
	tests := []struct {
		line string
		want []string
	}{
		{"const Limit = 3 + 4", nil},
		{"var table [2 * Limit]int", nil},
		{`return "hi " + name + "!"`, nil},
		{"break // leaves the switch: no site", nil},
		{"return 1 << k", nil},
		// Not to the other label's value: a duplicate case.
		{"case 2:", []string{"int_constant (2 → 1)"}},
		{"case 3:", []string{"int_constant (3 → 4)"}},
		{"case isZero(k):", []string{"branch_removal (case never matches)"}},
		{"case k < 0:", []string{"branch_removal (case never matches)", "relational_boundary (< → <=)", "int_constant (0 → -1)", "int_constant (0 → 1)"}},
		// x is used elsewhere, so the statement can go.
		{"s += x // T is a type parameter with numeric types only", []string{"statement_removal (remove statement)", "augmented_assignment (+= → -=)"}},
		// The only use of x in Mean: the statement can go all the same
		// (s is read after it).
		{"s += x", []string{"statement_removal (remove statement)", "augmented_assignment (+= → -=)"}},
		{"x++ //nolint // mutator:disable // sealgate:ignore", []string{"statement_removal (remove statement)", "incdec (++ → --)"}},
		{"n := len(log) + 1", []string{"arithmetic (+ → -)", "int_constant (1 → 0)", "int_constant (1 → 2)"}},
		// The last use of n can go, as the first call can.
		{`Record(&log, strings.Repeat("b", n))`, []string{"statement_removal (remove statement)"}},
		{`Record(&log, "a")`, []string{"statement_removal (remove statement)"}},
		{"return b + 255", []string{"arithmetic (+ → -)", "int_constant (255 → 254)"}},
		// ops.go does not import time, yet the product is a time.Duration.
		{"return int64(t.Timeout() * 2)", []string{"arithmetic (* → /)", "int_constant (2 → 1)", "int_constant (2 → 3)"}},
		{"return d*time.Duration(k) + time.Second", []string{"arithmetic (* → /)", "arithmetic (+ → -)", "constant_value (time.Second → time.Second×2)"}},
		{"return !f", []string{"not_removal (!x → x)"}},
		{"return f && false", []string{"logical (&& → ||)", "bool_literal (false → true)"}},
		{"return dep.Flag(x < dep.Limit()) && !dep.Flag(x < 0)", []string{
			"relational_boundary (< → <=)", "logical (&& → ||)", "not_removal (!x → x)", "relational_boundary (< → <=)",
			"int_constant (0 → -1)", "int_constant (0 → 1)",
		}},
		{"} else if x == hi-1 {", []string{
			"branch_removal (else branch never runs)", "branch_removal (if body never runs)", "relational_negation (== → !=)",
			"arithmetic (- → +)", "int_constant (1 → 0)", "int_constant (1 → 2)",
		}},
	}
	for _, tt := range tests {
		if got := byLine[tt.line]; !slices.Equal(got, tt.want) {
			t.Errorf("sites on %q = %q, want %q", tt.line, got, tt.want)
		}
	}
	for text := range byLine {
		if strings.Contains(text, "// guard") || strings.HasPrefix(text, "//") {
			t.Errorf("sites on line %q", text)
		}
	}
}

// TestSchemataBuild is the end-to-end check: the schemata of every site of
// the fixture is gofmt-clean, vets, builds and passes the package's tests
// with the switch off, and, run mutant by mutant from one test binary,
// behaves exactly like each mutation applied by hand to its own copy of the
// package. It runs with type information and without: when Package.Dir is
// empty, the type checker cannot find example.com/m/dep.
func TestSchemataBuild(t *testing.T) {
	skipInRaceStep(t)
	goBin := goTool(t)
	// Mutants are compared with the mutation applied by hand, one package
	// build each: every operator's first mutant and every third (second)
	// of the rest. The schemata are built whole each time.
	t.Run("typed", func(t *testing.T) { testSchemataBuild(t, goBin, true, "go 1.22", 3) })
	t.Run("untyped", func(t *testing.T) { testSchemataBuild(t, goBin, false, "go 1.22", 2) })
	// Modules that cannot compile type parameters: a sample of the
	// mutants is compared by hand, all of them are built.
	t.Run("go1.12", func(t *testing.T) { testSchemataBuild(t, goBin, true, "go 1.12", 5) })
	t.Run("no-go-line", func(t *testing.T) { testSchemataBuild(t, goBin, true, "", 11) })
}

// testSchemataBuild builds the fixture's schemata and compares every
// every-th mutant with the mutation applied by hand.
func testSchemataBuild(t *testing.T, goBin string, typed bool, goLine string, every int) {
	module, src := calcFixture(t, goLine)
	root := t.TempDir()
	dir := filepath.Join(root, "schemata")
	writeFiles(t, dir, module)
	pkg := Package{Files: src}
	if typed {
		pkg.Dir = filepath.Join(dir, "calc")
	}
	// What a patch would have replaced at three expressions of ops.go
	// (restore: a comparison, a value assigned, a condition), and a
	// second restore of the first expression (a projection).
	ops := string(src["ops.go"])
	for i, r := range [][2]string{{"x > limit", "x >= limit"}, {"at = i\n", "i + 1"}, {"len(xs) == 0", "len(xs) < 2"}, {"x > limit", "limit > x"}} {
		at := strings.Index(ops, r[0])
		if at < 0 || strings.Count(ops, r[0]) != 1 {
			t.Fatalf("%q is not once in ops.go", r[0])
		}
		start, end := at, at+len(r[0])
		if strings.HasPrefix(r[0], "at = ") {
			start, end = at+len("at = "), at+len(r[0])-1
		}
		pkg.Restores = append(pkg.Restores, Restore{File: "ops.go", Start: start, End: end, Text: r[1], Group: i})
	}
	found, err := Find(pkg, calcLines(src))
	if err != nil {
		t.Fatal(err)
	}
	arithmetic := 0
	for _, s := range found {
		if s.Operator == OpArithmetic || s.Operator == OpIntConstant {
			arithmetic++
		}
	}
	if typed != (arithmetic > 0) {
		t.Fatalf("typed %v, but %d typed sites", typed, arithmetic)
	}
	sites := Select(found, len(found), []byte("baseline\x00patch"))
	runnable := 0
	for _, s := range found {
		if s.Equivalent == "" {
			runnable++
		}
	}
	if want := map[bool]int{true: 140, false: 70}[typed]; len(sites) != runnable || len(sites) < want {
		t.Fatalf("selected %d of %d sites", len(sites), len(found))
	}
	sw := testSwitch(t, sites)
	out, err := Schemata(pkg, sites, sw)
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string][]byte)
	for name, b := range out {
		if f, err := format.Source(b); err != nil || !bytes.Equal(f, b) {
			t.Errorf("%s is not gofmt-clean (%v)", name, err)
		}
		files["calc/"+name] = b
	}
	writeFiles(t, dir, files)
	run(t, dir, nil, goBin, "vet", "./...")
	run(t, dir, nil, goBin, "test", "-count=1", "./...")
	run(t, dir, nil, goBin, "test", "-c", "-o", "calc.test", "./calc")
	report := func(id int) string {
		marker := filepath.Join(root, fmt.Sprintf("marker-%d", id))
		env, err := sw.Env(id, marker)
		if id == 0 {
			env, err = noneEnv(t, sw, marker), nil
		}
		if err != nil {
			t.Fatal(err)
		}
		stdout := run(t, filepath.Join(dir, "calc"), []string{env},
			filepath.Join(dir, "calc.test"), "-test.run=^TestReport$", "-test.count=1")
		_, after, ok := strings.Cut(stdout, "<<<REPORT\n")
		body, _, ok2 := strings.Cut(after, "REPORT>>>\n")
		if !ok || !ok2 {
			t.Fatalf("mutant %d: no report in\n%s", id, stdout)
		}
		return body
	}

	// The generated code holds no token.
	for name, b := range out {
		for id, tok := range sw.Tokens {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds the token of mutant %d", name, id)
			}
		}
		for _, tok := range sw.Refs {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a reference token", name)
			}
		}
	}

	// The same mutations applied by hand, one package per site, built
	// into one program that prints every package's report.
	var picked []Site
	operators := make(map[string]bool)
	for _, s := range sites {
		if (s.ID-1)%every == 0 || !operators[s.Operator] {
			picked = append(picked, s)
		}
		operators[s.Operator] = true
	}
	hand := filepath.Join(root, "hand")
	handFiles := map[string][]byte{
		"go.mod":     module["go.mod"],
		"dep/dep.go": module["dep/dep.go"],
	}
	var imports, calls strings.Builder
	for i := 0; i <= len(picked); i++ {
		id := 0
		if i > 0 {
			id = picked[i-1].ID
		}
		pkgDir := fmt.Sprintf("h%d", id)
		for name, b := range src {
			if id > 0 && name == picked[i-1].File {
				b = applyByHand(t, b, picked[i-1])
			}
			handFiles[pkgDir+"/"+name] = b
		}
		fmt.Fprintf(&imports, "\t%s \"example.com/m/%s\"\n", pkgDir, pkgDir)
		fmt.Fprintf(&calls, "\tfmt.Print(\"=== %d\\n\", %s.Report())\n", id, pkgDir)
	}
	handFiles["main.go"] = fmt.Appendf(nil, "package main\n\nimport (\n\t\"fmt\"\n%s)\n\nfunc main() {\n%s}\n", imports.String(), calls.String())
	writeFiles(t, hand, handFiles)
	run(t, hand, nil, goBin, "build", "-o", "hand.bin", ".")
	byHand := make(map[int]string)
	for _, part := range strings.Split(run(t, hand, nil, filepath.Join(hand, "hand.bin")), "=== ")[1:] {
		head, body, _ := strings.Cut(part, "\n")
		var id int
		if _, err := fmt.Sscan(head, &id); err != nil {
			t.Fatalf("hand output: %q", head)
		}
		byHand[id] = body
	}
	if len(byHand) != len(picked)+1 {
		t.Fatalf("hand program printed %d reports, want %d", len(byHand), len(picked)+1)
	}

	original := report(0)
	if original != byHand[0] {
		t.Fatalf("with the switch off the report differs from the original:\n%s\nwant\n%s", original, byHand[0])
	}
	if b, err := os.ReadFile(filepath.Join(root, "marker-0")); err == nil {
		t.Errorf("the inert run wrote the marker: %q", b)
	}
	killed := 0
	for _, s := range picked {
		got := report(s.ID)
		if got != byHand[s.ID] {
			t.Errorf("mutant %d %v: schemata and hand-applied mutant differ:\n%s\nby hand:\n%s", s.ID, s, got, byHand[s.ID])
		}
		marker, _ := os.ReadFile(filepath.Join(root, fmt.Sprintf("marker-%d", s.ID)))
		hit := HitBy(marker, sw, s.ID)
		if got != original {
			killed++
			if !hit {
				t.Errorf("mutant %d %v changed the report, but its marker says its site did not run: %q", s.ID, s, marker)
			}
		}
		if len(marker) > 0 && !hit {
			t.Errorf("mutant %d: marker %q is not exactly its token", s.ID, marker)
		}
	}
	// The report notices most mutants; the rest are equivalent ones (e.g.
	// x >= hi → x > hi in Clamp) or outside what it prints.
	if killed < len(picked)*3/4 {
		t.Errorf("the report tells only %d of %d mutants from the original", killed, len(picked))
	}
	t.Logf("%d sites, %d compared by hand, %d change the report", len(sites), len(picked), killed)
}

// applyByHand applies one site's mutation to src as a person would edit the
// file, independently of the schemata code.
func applyByHand(t *testing.T, src []byte, s Site) []byte {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, s.File, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	tf := fset.File(f.Pos())
	at := tf.Offset(tf.LineStart(s.Line)) + s.Col - 1
	pos := tf.Pos(at)
	replace := func(start, end int, text string) []byte {
		return slices.Concat(src[:start], []byte(text), src[end:])
	}
	from, to, _ := strings.Cut(s.Description, " → ")
	switch s.Operator {
	case OpNotRemoval:
		if src[at] != '!' {
			t.Fatalf("%v: no ! at the site", s)
		}
		return replace(at, at+1, "")
	case OpStatementRemoval:
		var stmt ast.Stmt
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(ast.Stmt); ok && n.Pos() == pos && stmt == nil {
				stmt = st
			}
			return stmt == nil
		})
		if stmt == nil {
			t.Fatalf("%v: no statement at the site", s)
		}
		// Never run, not deleted: a statement holding the last use of a
		// local variable or an import is removed with those names kept,
		// as a hand would have to keep them for the program to compile.
		text := string(src[tf.Offset(stmt.Pos()):tf.Offset(stmt.End())])
		return replace(tf.Offset(stmt.Pos()), tf.Offset(stmt.End()), "if false {\n"+text+"\n}")
	case OpBranchRemoval:
		if s.Description == descCaseNever {
			e := caseCondAt(f, pos)
			if e == nil {
				t.Fatalf("%v: no case condition at the site", s)
			}
			return replace(tf.Offset(e.Pos()), tf.Offset(e.End()), "false && ("+string(src[tf.Offset(e.Pos()):tf.Offset(e.End())])+")")
		}
		var ifs *ast.IfStmt
		ast.Inspect(f, func(n ast.Node) bool {
			if is, ok := n.(*ast.IfStmt); ok {
				if (s.Description == descIfBody || s.Description == descIfAlways) && is.If == pos ||
					s.Description == descElseBranch && is.Else != nil && is.Body.End() <= pos && pos < is.Else.Pos() {
					ifs = is
				}
			}
			return true
		})
		if ifs == nil {
			t.Fatalf("%v: no if statement at the site", s)
		}
		cond := string(src[tf.Offset(ifs.Cond.Pos()):tf.Offset(ifs.Cond.End())])
		if s.Description == descIfBody {
			cond = "false && (" + cond + ")"
		} else if s.Description == descIfAlways {
			cond = "true || (" + cond + ")"
		} else {
			cond = "true || (" + cond + ")"
		}
		return replace(tf.Offset(ifs.Cond.Pos()), tf.Offset(ifs.Cond.End()), cond)
	case OpConditionNegation:
		if e := caseCondAt(f, pos); e != nil {
			return replace(tf.Offset(e.Pos()), tf.Offset(e.End()), "!("+string(src[tf.Offset(e.Pos()):tf.Offset(e.End())])+")")
		}
		var ifs *ast.IfStmt
		ast.Inspect(f, func(n ast.Node) bool {
			if is, ok := n.(*ast.IfStmt); ok && is.If == pos {
				ifs = is
			}
			return ifs == nil
		})
		if ifs == nil {
			t.Fatalf("%v: no if statement at the site", s)
		}
		return replace(tf.Offset(ifs.Cond.Pos()), tf.Offset(ifs.Cond.End()), "!("+string(src[tf.Offset(ifs.Cond.Pos()):tf.Offset(ifs.Cond.End())])+")")
	case OpStringLiteral:
		// A string literal, or a named constant as a case label.
		var lit ast.Expr
		ast.Inspect(f, func(n ast.Node) bool {
			switch l := n.(type) {
			case *ast.BasicLit:
				if l.Pos() == pos && l.Kind == token.STRING {
					lit = l
				}
			case *ast.Ident, *ast.SelectorExpr:
				if l.Pos() == pos && from == string(src[tf.Offset(l.Pos()):tf.Offset(l.End())]) {
					lit = l.(ast.Expr)
				}
			}
			return lit == nil
		})
		if lit == nil {
			t.Fatalf("%v: no string literal or label constant at the site", s)
		}
		return replace(tf.Offset(lit.Pos()), tf.Offset(lit.End()), to)
	case OpDefaultNever:
		var colon token.Pos
		ast.Inspect(f, func(n ast.Node) bool {
			switch cc := n.(type) {
			case *ast.CaseClause:
				if cc.List == nil && cc.Case == pos {
					colon = cc.Colon
				}
			case *ast.CommClause:
				if cc.Comm == nil && cc.Case == pos {
					colon = cc.Colon
				}
			}
			return !colon.IsValid()
		})
		if !colon.IsValid() {
			t.Fatalf("%v: no default at the site", s)
		}
		if ret, ok := strings.CutPrefix(s.Description, descDefaultNever+": "); ok {
			// A default that may end its function returns its zero values.
			return replace(tf.Offset(colon)+1, tf.Offset(colon)+1, " if true { "+ret+" };")
		}
		return replace(tf.Offset(colon)+1, tf.Offset(colon)+1, " if true { break };")
	case OpSwitchTag:
		var tag ast.Expr
		ast.Inspect(f, func(n ast.Node) bool {
			if sw, ok := n.(*ast.SwitchStmt); ok && sw.Tag != nil && sw.Tag.Pos() == pos {
				tag = sw.Tag
			}
			return tag == nil
		})
		if tag == nil {
			t.Fatalf("%v: no switch tag at the site", s)
		}
		text := string(src[tf.Offset(tag.Pos()):tf.Offset(tag.End())])
		switch to {
		case "0":
			text = "(" + text + ") * 0"
		case `""`:
			text = "(" + text + ")[:0]"
		default:
			text = "!(" + text + ")"
		}
		return replace(tf.Offset(tag.Pos()), tf.Offset(tag.End()), text)
	case OpRestore:
		return replace(at, at+len(from), "("+to+")")
	case OpReturnZero, OpReturnNonNil:
		var ret *ast.ReturnStmt
		ast.Inspect(f, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && r.Return == pos {
				ret = r
			}
			return ret == nil
		})
		if ret == nil {
			t.Fatalf("%v: no return at the site", s)
		}
		if s.Operator == OpReturnNonNil {
			// The switch file's error, declared by hand beside.
			text := strings.ReplaceAll(s.Description, "an error", "handErr{}")
			out := replace(tf.Offset(ret.Pos()), tf.Offset(ret.End()), text)
			return append(out, "\ntype handErr struct{}\n\nfunc (handErr) Error() string { return \"sealgate mutant\" }\n"...)
		}
		return replace(tf.Offset(ret.Pos()), tf.Offset(ret.End()), s.Description)
	case OpAssignZero:
		var as ast.Stmt
		ast.Inspect(f, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.AssignStmt, *ast.DeclStmt:
				if n.Pos() == pos {
					as = n.(ast.Stmt)
				}
			}
			return as == nil
		})
		if as == nil {
			t.Fatalf("%v: no assignment at the site", s)
		}
		zero := strings.TrimPrefix(s.Description, "then ")
		var cond ast.Expr // the if whose init the assignment is
		ast.Inspect(f, func(n ast.Node) bool {
			if ifs, ok := n.(*ast.IfStmt); ok && ifs.Init == as {
				cond = ifs.Cond
			}
			return cond == nil
		})
		if cond != nil {
			text := "func() bool { " + zero + "; return true }() == true && (" + string(src[tf.Offset(cond.Pos()):tf.Offset(cond.End())]) + ")"
			return replace(tf.Offset(cond.Pos()), tf.Offset(cond.End()), text)
		}
		// A switch's or a for's init: the init and the zeroing in a block
		// of their own around the statement, which keeps no init.
		var outer ast.Stmt
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				if n.Init == as {
					outer = n
				}
			case *ast.TypeSwitchStmt:
				if n.Init == as {
					outer = n
				}
			case *ast.ForStmt:
				if n.Init == as {
					outer = n
				}
			}
			return outer == nil
		})
		if outer != nil {
			o, i0, i1, e := tf.Offset(outer.Pos()), tf.Offset(as.Pos()), tf.Offset(as.End()), tf.Offset(outer.End())
			text := "{ " + string(src[i0:i1]) + "; " + zero + "; " + string(src[o:i0]) + string(src[i1:e]) + " }"
			return replace(o, e, text)
		}
		return replace(tf.Offset(as.End()), tf.Offset(as.End()), "; "+zero)
	case OpLoopNever:
		var body *ast.BlockStmt
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStmt:
				if n.For == pos {
					body = n.Body
				}
			case *ast.RangeStmt:
				if n.For == pos {
					body = n.Body
				}
			}
			return body == nil
		})
		if body == nil {
			t.Fatalf("%v: no loop at the site", s)
		}
		return replace(tf.Offset(body.Lbrace)+1, tf.Offset(body.Lbrace)+1, " if true { break };")
	case OpIntConstant, OpDataNumber:
		to = "(" + to + ")"
	case OpConstantValue:
		for _, op := range [][2]string{{"×2", " * 2"}, {"+1", " + 1"}, {"-1", " - 1"}, {"×0", " * 0"}} {
			if strings.HasSuffix(to, op[0]) {
				to = "((" + strings.TrimSuffix(to, op[0]) + ")" + op[1] + ")"
				break
			}
		}
	case OpDataDropElement:
		var lit *ast.CompositeLit
		k := -1
		ast.Inspect(f, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok {
				for i, e := range cl.Elts {
					if e.Pos() == pos {
						lit, k = cl, i
					}
				}
			}
			return true
		})
		if lit == nil {
			t.Fatalf("%v: no element at the site", s)
		}
		// Keep the other elements, each followed by a comma.
		var elts []string
		for i, e := range lit.Elts {
			if i != k {
				elts = append(elts, string(src[tf.Offset(e.Pos()):tf.Offset(e.End())])+",")
			}
		}
		return replace(tf.Offset(lit.Lbrace)+1, tf.Offset(lit.Rbrace), strings.Join(elts, " "))
	case OpLogical:
		var be *ast.BinaryExpr
		ast.Inspect(f, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok && b.OpPos == pos {
				be = b
			}
			return be == nil
		})
		if be == nil {
			t.Fatalf("%v: no operator at the site", s)
		}
		text := func(e ast.Expr) string { return string(src[tf.Offset(e.Pos()):tf.Offset(e.End())]) }
		switch {
		case strings.HasSuffix(s.Description, "→ x"):
			return replace(tf.Offset(be.Pos()), tf.Offset(be.End()), "("+text(be.X)+")")
		case strings.HasSuffix(s.Description, "→ y"):
			return replace(tf.Offset(be.Pos()), tf.Offset(be.End()), "("+text(be.Y)+")")
		}
		return replace(tf.Offset(be.Pos()), tf.Offset(be.End()), "(("+text(be.X)+") "+to+" ("+text(be.Y)+"))")
	case OpRelationalBoundary, OpRelationalReplace, OpRelationalNegation, OpArithmetic:
		// The operator of one node changes: parenthesize, since && and
		// || bind differently.
		var be *ast.BinaryExpr
		ast.Inspect(f, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok && b.OpPos == pos {
				be = b
			}
			return be == nil
		})
		if be == nil || be.Op.String() != from {
			t.Fatalf("%v: no %s at the site", s, from)
		}
		text := func(e ast.Expr) string { return string(src[tf.Offset(e.Pos()):tf.Offset(e.End())]) }
		return replace(tf.Offset(be.Pos()), tf.Offset(be.End()), "(("+text(be.X)+") "+to+" ("+text(be.Y)+"))")
	}
	if !bytes.HasPrefix(src[at:], []byte(from)) {
		t.Fatalf("%v: %q is not at the site", s, from)
	}
	if s.Operator == OpLoopControl && strings.Contains(from, " ") {
		// break loop → break: the label stays used (an unused one does
		// not compile), after the break, where it never runs.
		return replace(at, at+len(from), to+"; "+from)
	}
	return replace(at, at+len(from), to)
}

// TestSchemataNesting checks that long chains of nested sites give rewrites
// that grow linearly, and that nesting that would still multiply the text is
// refused rather than rendered.
func TestSchemataNesting(t *testing.T) {
	skipInRaceStep(t)
	var chain, idents, nested strings.Builder
	for i := range 200 {
		if i > 0 {
			chain.WriteString(" || ")
			idents.WriteString(" && ")
		}
		fmt.Fprintf(&chain, "x == %d", i)
		fmt.Fprintf(&idents, "b[%d]", i)
	}
	for range 40 {
		nested.WriteString("a && (")
	}
	nested.WriteString("a" + strings.Repeat(")", 40))
	src := fmt.Sprintf("package p\n\nfunc f(x int, a bool, b []bool) (bool, bool) {\n\treturn %s, %s\n}\n\nfunc g(a bool) bool {\n\treturn %s\n}\n",
		chain.String(), idents.String(), nested.String())
	files := map[string][]byte{"p.go": []byte(src)}
	pkg := Package{Files: files}
	sites, err := Find(pkg, map[string][]int{"p.go": {4}})
	if err != nil {
		t.Fatal(err)
	}
	// The primary operators, then every operator: the text grows
	// linearly with the sites.
	var primary []Site
	for _, s := range sites {
		if !s.Extra {
			primary = append(primary, s)
		}
	}
	chosen := Select(primary, len(primary), nil)
	out, err := Schemata(pkg, chosen, testSwitch(t, chosen))
	if err != nil {
		t.Fatal(err)
	}
	if size := len(out["p.go"]); size > 40*len(src) {
		t.Errorf("%d sites on one line: %d bytes from %d", len(chosen), size, len(src))
	}
	chosen = Select(sites, len(sites), nil)
	out, err = Schemata(pkg, chosen, testSwitch(t, chosen))
	if err != nil {
		t.Fatal(err)
	}
	if size := len(out["p.go"]); size > 160*len(chosen)+40*len(src) {
		t.Errorf("%d sites (extras included) on one line: %d bytes from %d", len(chosen), size, len(src))
	}
	sites, err = Find(pkg, map[string][]int{"p.go": {8}})
	if err != nil {
		t.Fatal(err)
	}
	chosen = Select(sites, len(sites), nil)
	if _, err := Schemata(pkg, chosen, testSwitch(t, chosen)); err == nil || !strings.Contains(err.Error(), "too many nested sites") {
		t.Errorf("Schemata of 40 nested logical sites: %v, want a refusal", err)
	}
}

// caseCondAt returns the condition of a case of a switch without a tag
// that starts at pos, or nil.
func caseCondAt(f *ast.File, pos token.Pos) ast.Expr {
	var found ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if sw, ok := n.(*ast.SwitchStmt); ok && sw.Tag == nil {
			for _, st := range sw.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					if e.Pos() == pos {
						found = e
					}
				}
			}
		}
		return found == nil
	})
	return found
}

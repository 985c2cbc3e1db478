// Package mutant finds mutation sites on the changed lines of a Go package
// and compiles every selected mutant into the package at once.
//
// Compiling dominates the cost of a Go mutant, so the package uses mutant
// schemata: Schemata rewrites the package so that each selected site sits
// behind a run-time switch, the test binary is built once, and a process runs
// the mutant whose secret token its environment carries (see Switch: the
// variable's name and the tokens are fresh per run, the generated code holds
// only their SHA-256 digests, and the first time the running mutant's site
// executes it appends the token to a marker file, so a kill can be tied to
// the site). Each rewrite evaluates every operand exactly once on every path,
// in the original order, and keeps the type of the expression it replaces,
// so with the switch off the package behaves as the original. One
// exception: on architectures that fuse floating-point multiply-add, an
// arithmetic or ordering site whose float operand is a product may round
// differently, because the operand becomes a function argument.
//
// The generated code uses no type parameters and nothing newer than Go 1.9,
// so it compiles whatever go version the module declares (pflag says go
// 1.12; a go.mod without a go line reads as go 1.16). A rewrite that must
// keep its operands' type names it with go/types: a helper function of the
// switch file per operator family and type (importing the type's package
// under a generated name), or a typed function literal at the site for type
// parameters and types declared in a function; a comparison whose type
// cannot be named evaluates its operands with := in a function literal. A
// site whose type can be named in neither way is skipped and reported (see
// Survey.Skipped).
//
// Sites are found only where the mutated token is on a requested line. The
// operators, by Site.Operator, with their descriptions:
//
//	relational_boundary   < → <=, <= → <, > → >=, >= → >
//	relational_negation   == → !=, != → ==
//	logical               && → ||, || → &&
//	not_removal           !x → x            (typed, or an untyped operand)
//	bool_literal          true → false, false → true (the predeclared constants)
//	arithmetic            + → -, - → +, * → /, / → *        (typed)
//	augmented_assignment  -= → +=, /= → *=; += → -=, *= → /= (the last two typed)
//	incdec                ++ → --, -- → ++
//	int_constant          5 → 6, 5 → 4                       (typed)
//	branch_removal        if body never runs: the condition becomes false
//	                      else branch never runs: the condition becomes true,
//	                      so the if body runs in its place
//	statement_removal     remove statement: a call, a receive, an assignment
//	                      other than :=, an increment or decrement
//	loop_control          break → continue, continue → break
//	conversion_widening   int64(float32(s) / float32(n)) →
//	                      int64(float64(s) / float64(n)): a narrow
//	                      value only converted again is computed in the
//	                      widest type of its kind (typed; where that
//	                      type-checks), also through a variable defined
//	                      once or a one-return helper, recomputed widened
//	                      at the wider use
//
// and, marked Extra, the other distinct behaviours of the same sites, which
// Offer adds when the primary ones are too few for the strength floor:
//
//	relational_replacement  < → >, < → >=, < → ==, < → != (and so on for
//	                        each ordering); == → <, <=, >, >= on ordered types
//	logical                 x && y → x, x && y → y (and for ||)
//	arithmetic              + → *, + → /, + → % (integers), and so on
//	int_constant            5 → 0, 5 → -5
//	branch_removal          if body always runs (an if without else)
//	augmented_assignment    x op= y → x = y
//	condition_negation      an if's condition negated (not a comparison or
//	                        a !x, whose own operators negate them)
//	string_literal          "abc" → "", "" → "sealgate" (the predeclared
//	                        string type; not a format string with %, but
//	                        a panic's format keeps only its directives,
//	                        "bad type %s" → "%s"; not a
//	                        constant expression; primary in a row of a
//	                        table a function builds); a named string
//	                        constant as a case label too (userKind → "");
//	                        never to another label's value
//	return_zero             return x, err → return 0, nil (every result has
//	                        a zero literal and not all are zero already)
//	return_nonnil           return nil → return []T{}, new(T), make(chan T)
//	                        or an error of the switch file's, for each
//	                        result of a return of nils only (an interface
//	                        whose methods are at most Error() string takes
//	                        the error; a func or another interface has no
//	                        such value, so the return has no site)
//	restore                 the patch's expression → the baseline's text
//	                        that stood there (Package.Restores), where it
//	                        type-checks in the expression's place with a
//	                        type the expression's own accepts, in code (not
//	                        a package-level value or a constant), and the
//	                        expression is no operand that must be
//	                        addressable; a statement restore: the patch's
//	                        statement or block → the baseline's statements
//	                        there, their labels renamed, where the package
//	                        type-checks with them in its place
//	assign_zero             v := f(x) → v := f(x); v = 0: the first variable
//	                        an assignment or a := sets (a name, not _) is
//	                        zeroed after it, when its type has a zero
//	                        literal; equivalent when it is assigned zero.
//	                        A statement's line changed below its first
//	                        (a call's argument) finds it too; so does
//	                        var v = x in a function.
//	loop_never              loop body never runs: a break before its first
//	                        statement (a range loop, a for with a
//	                        condition)
//	statement_removal       a defer, a go statement, a send; a return that
//	                        ends the body of an if without an else
//	switch_tag              switch f(k) → switch 0, → switch "" (an integer,
//	                        a predeclared string), → switch !(b) (a boolean
//	                        that is no comparison or negation); not a
//	                        constant tag
//	default_never           default body never runs: a break before its
//	                        first statement (a switch's or a type
//	                        switch's default with a body); where the
//	                        switch may end a function with results, a
//	                        return of their zero values instead
//	comm_never              a select's case never fires: its channel is a
//	                        nil one of its type (case <-ch → case <-nil
//	                        chan, case ch <- v → nil chan <- v), where
//	                        the type can be named at the case, in a
//	                        select with a default (elsewhere the select
//	                        could wait for ever)
//	loop_control            break loop → break, continue loop → continue:
//	                        a labelled branch loses its label, where the
//	                        statement it then leaves or continues is
//	                        another (a break in a switch or select inside
//	                        the loop)
//
// A plain else's "else branch never runs" is judged by the tests that reach
// the branch's first line (Site.Reach): its `} else {` line holds no
// statement coverage reports.
//
// Changed package-level data gets the data operators (see data.go and
// Inspect, which classes every requested line as data, unjudgeable data or
// not data). A mutant that is provably the same program — x*1 → x/1, x/1 →
// x*1, and on integers x+0 → x-0 and x-0 → x+0, the same as augmented
// assignments, and the removal of such an assignment to a variable — is
// marked Equivalent: never run, never counted.
//
// An operator is applied to the syntax tree, not the text: || → && in
// a || b || c changes one node, as if written (a || b) && c.
//
// Sites are never offered where the mutant would not compile if written by
// hand, or could not be written as a schema, or is trivially the same
// program:
//   - anything in a constant declaration or an array length (a changed
//     constant gets data mutants instead);
//   - arithmetic on anything but numbers (string +), on constant
//     expressions, with two untyped operands, or / and % by a constant
//     zero; += → -= on strings, *= → /= by a constant zero;
//   - integer constants that are part of a larger constant expression, in a
//     float context, case labels, composite-literal keys, shift operands,
//     range expressions or arguments of generic functions, and new values
//     that do not fit the type or that the compiler would reject (a zero
//     divisor, a negative or out-of-range index, slice bound or make size,
//     bounds out of order);
//   - statement removal of panic calls (they can be terminating
//     statements), of `_ = x` without a call, of the last use of a local
//     variable or an import, and outside statement lists (for-loop post
//     statements, if and switch init statements);
//   - break and continue with a label or whose innermost breakable
//     statement is a switch or select, and continue → break in a `for {}`
//     loop without a break (the loop would stop being terminating).
//
// The operators marked typed need the package to type-check with go/types.
// With Package.Exports (LoadExports), the standard library's and the
// module-cache dependencies' packages are read from the compiler's export
// data, which `go list -export` builds (or finds in a warm build cache)
// for them and never for the patch's own code; every other dependency,
// and every one when Exports is nil or the package does not type-check
// with it, is type-checked from source without function bodies, found
// with go/build: in GOROOT directly, elsewhere by `go list` run in
// Package.Dir (so the module's requirements must be in the module cache or
// vendored; the go command's environment applies). When the package does
// not type-check, for any reason, Find offers only the other operators (and
// !x → x only on an operand that is untyped by its syntax): it then decides
// from syntax alone, treating a name true or false declared anywhere in the
// package as shadowing the constants and approximating the last-use rule by
// name, and Schemata can check its output only by parsing it (the rare
// rewrite that needs types to be right, such as an ordering of a named
// untyped constant with an operand that calls a function, may then fail to
// compile). With types, Schemata type-checks its output and returns an
// error rather than a package that does not compile.
//
// Suppression comments are not honoured (//nolint, "// mutator:disable",
// //go-mutesting:disable, "// sealgate:ignore" and the like change nothing):
// a patch must not be able to exempt its own lines.
//
// Only files that the go command builds for the host (go/build.Default:
// GOOS, GOARCH, build constraints, cgo) are considered; see Excluded.
package mutant

import (
	"cmp"
	"fmt"
	"strings"
)

// Package is one Go package's non-test source files.
type Package struct {
	// Dir is the package's absolute directory, from which the type checker
	// resolves imports outside GOROOT (with `go list`, in module mode). It
	// may be empty; then only standard-library imports resolve.
	Dir string
	// Files maps base file names to sources: the package's non-test .go
	// files. Files the host build excludes may be included; they get no
	// sites.
	Files map[string][]byte
	// Tests optionally maps base file names to the package directory's
	// _test.go files. They are never mutated: their names are avoided by
	// the generated identifiers, and the internal ones are type-checked
	// with the package to decide whether a changed unexported constant can
	// become a switched variable. Without them, no constant the package's
	// tests might use is switched (see the package documentation).
	Tests map[string][]byte
	// Exports, when set, holds the export data of the standard library's
	// and the dependencies' packages (LoadExports for Dir): the type
	// checker reads them instead of type-checking their source. The main
	// module's packages are type-checked from source either way.
	Exports *Exports
	// Restores lists, per expression of the package's files, what the
	// patch replaced there (see Restore): each gives an OpRestore site.
	Restores []Restore
}

// Restore is what a patch replaced at one expression of a file: the
// baseline's text standing where the patch's expression now stands. Its
// mutant puts the baseline's text back (OpRestore): a test that notices
// it pins the change the patch made there, whatever the change is, where
// the other operators may change only what the patch kept (max(5,
// len(kind)) → max(6, len(kind)) says nothing of len(kind)).
//
// Restores of one Group are the same change seen from ever larger
// expressions (the smallest holding what the patch wrote first): the
// first that type-checks at its place, with a type the expression's own
// accepts, gives the site; the rest give none.
//
// A statement restore (Stmt) puts back the baseline's statements where
// the patch's statement or block stands: what the patch deleted, or wrote
// outside any expression (an else, a label), has no expression to put
// back into. Its site stands at byte At, the place of the change it
// judges, whatever line that is on.
type Restore struct {
	File       string // the file's base name
	Start, End int    // the patch's expression: byte offsets in File
	Text       string // the baseline's expression
	Group      int
	// Stmt marks a statement restore: Start and End are a statement's or
	// a block's, Text the baseline's statements there.
	Stmt bool
	At   int
}

// Site is one mutation: an operator applied at one token.
type Site struct {
	// ID numbers the site in a selection: 1-based, assigned by Select.
	// Find leaves it 0.
	ID int
	// File is the base name of the file within the package.
	File string
	// Line and Col are the 1-based position of the mutated token (the
	// operator, the literal, the statement's start, the if or else keyword,
	// the break or continue), ignoring //line directives; Col counts bytes.
	Line, Col int
	// Operator is a stable operator name (see the package documentation).
	Operator string
	// Description says what changes, e.g. "< → <=" or "remove statement".
	Description string
	// Extra marks a site of the wider operator set: the other distinct
	// behaviours of a site (< → >, + → *, 5 → 0, ...), worth running when
	// the change offers too few mutants otherwise (see Offer).
	Extra bool
	// Equivalent, when not empty, says why the mutant is provably the same
	// program as the original (x*1 → x/1): it is never run and counts on
	// neither side of the ratio. Select never picks it.
	Equivalent string
	// Reach, when not 0, is the line of File whose tests judge the site,
	// where Line holds no statement of its own: the first line of an else
	// branch for "else branch never runs" (its keyword's line, `} else {`,
	// is no line coverage reports). Only the tests that take the branch
	// can tell it is gone.
	Reach int
	// Span, when not zero, is the byte range of File the mutant changes:
	// the literal, constant or element of a data mutant, the string of a
	// string_literal one. A changed data line's mutant whose span holds
	// nothing the patch wrote judges a value the patch left as it was.
	Span [2]int
}

// ReachLine is the line whose tests judge the site: Reach, or Line.
func (s Site) ReachLine() int {
	if s.Reach != 0 {
		return s.Reach
	}
	return s.Line
}

// String formats the site as "file:line:col operator (description)".
func (s Site) String() string {
	return fmt.Sprintf("%s:%d:%d %s (%s)", s.File, s.Line, s.Col, s.Operator, s.Description)
}

// Operator names.
const (
	OpRelationalBoundary  = "relational_boundary"
	OpRelationalReplace   = "relational_replacement"
	OpRelationalNegation  = "relational_negation"
	OpLogical             = "logical"
	OpNotRemoval          = "not_removal"
	OpBoolLiteral         = "bool_literal"
	OpArithmetic          = "arithmetic"
	OpAugmentedAssignment = "augmented_assignment"
	OpIncDec              = "incdec"
	OpIntConstant         = "int_constant"
	OpConstantValue       = "constant_value"
	OpBranchRemoval       = "branch_removal"
	OpStatementRemoval    = "statement_removal"
	OpLoopControl         = "loop_control"
	OpConversionWidening  = "conversion_widening"
	// The wider set's own operators (Extra only: they join when the
	// primary ones offer too few mutants for the floor).
	OpConditionNegation = "condition_negation"
	OpStringLiteral     = "string_literal"
	OpReturnZero        = "return_zero"
	OpReturnNonNil      = "return_nonnil"
	OpRestore           = "restore"
	OpAssignZero        = "assign_zero"
	OpLoopNever         = "loop_never"
	OpSwitchTag         = "switch_tag"
	OpDefaultNever      = "default_never"
	OpCommNever         = "comm_never"
)

// Descriptions of the operators whose text is not "from → to".
const (
	descNot          = "!x → x"
	descIfBody       = "if body never runs"
	descIfAlways     = "if body always runs"
	descCaseNever    = "case never matches"
	descElseBranch   = "else branch never runs"
	descNegate       = "condition negated"
	descRemoveStmt   = "remove statement"
	descLoopNever    = "loop body never runs"
	descDefaultNever = "default body never runs"
)

// siteKey identifies a site independently of its ID.
type siteKey struct {
	file        string
	line, col   int
	operator    string
	description string
}

func keyOf(s Site) siteKey {
	return siteKey{s.File, s.Line, s.Col, s.Operator, s.Description}
}

func compareSites(a, b Site) int {
	return cmp.Or(
		strings.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		strings.Compare(a.Operator, b.Operator),
		strings.Compare(a.Description, b.Description),
	)
}

// Find lists every mutation site of pkg on the given lines (see Inspect,
// which also classes the lines), sorted by file, line, column, operator and
// description. Every .go file named in lines must be in pkg.Files and not
// be a test file; lines in files the host build excludes yield no sites. A
// file that does not parse is an error.
func Find(pkg Package, lines map[string][]int) ([]Site, error) {
	s, err := Inspect(pkg, lines)
	if err != nil {
		return nil, err
	}
	return s.Sites, nil
}

// Excluded returns, sorted, the names of the files of pkg that the host build
// (go/build.Default) leaves out, for their build constraints, their names
// (_foo.go, .foo.go) or cgo. Their changed lines cannot be judged by
// mutants run on this host.
func Excluded(pkg Package) ([]string, error) {
	if err := validate(pkg); err != nil {
		return nil, err
	}
	_, out, err := buildable(pkg)
	return out, err
}

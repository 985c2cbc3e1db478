// Package cover measures diff coverage from Go coverage profiles: of the
// changed executable lines of a patch's non-test Go files, how many the
// patch-side run executed. It also maps which tests execute which changed
// lines (the reach map), so that each mutant runs only the tests that can
// reach it.
//
// # Profiles
//
// A profile is the text `go test -coverprofile` writes. ParseProfile reads
// it strictly, because it is outside input: a gate must not turn a
// truncated or forged profile into a number.
//
// # Which lines count
//
// cmd/cover splits every function body into basic blocks and records each
// as a source span: it starts and ends mid-line, at byte columns. A block of
// an if or for body starts at its "{" (which shares the line of the if or
// for header) and ends just after its "}"; the block holding an if header
// ends just before the body's "{"; the block of an else starts after the
// word "else"; a case clause's block starts after its colon. Whole-line
// intervals (StartLine <= line <= EndLine) would therefore make the line
// `if n < 0 {` depend on whether the if body ran, and a line holding only
// "}" depend on it too. The rule here works at token level instead:
//
//   - A line holds code when it holds a Go token that is not a comment
//     (CodeLines). A line inside a multi-line raw string holds code; a line
//     inside a block comment does not.
//   - The tokens that decide a line are its code tokens other than "{",
//     "}" and ";": braces delimit blocks and belong to no statement. A
//     token of a raw string spanning several lines decides each of them.
//   - A block claims a line when the start of one of the line's deciding
//     tokens lies in the block's span [start, end) — cover's end is the
//     column after the span's last byte. Blocks without statements (the
//     body of an empty function, an empty case) are ignored: they hold no
//     statement to execute.
//   - A changed line is executable when at least one block claims it, and
//     covered when every block that claims it has a count above zero. So
//     `if err != nil { return err }` on one line is covered only if the
//     return ran too: the condition alone did not execute the line.
//   - A case or default label of a switch, type switch or select (from
//     "case" or "default" to its colon) is claimed as well by the block
//     that holds its statement's "switch" or "select" keyword: cover gives
//     labels no block, but they are evaluated whenever the switch runs (a
//     select evaluates its channels and the values it sends on entry), so
//     a label changed to another value, or to default, is code the
//     header's tests execute. (A line `case 5: return x` is covered only
//     when the return ran too.)
//   - Changed lines no block claims are excluded: blank and comment-only
//     lines, lines holding only braces, function signatures, `} else {`,
//     and declarations outside function bodies, none of which cover
//     counts as a statement.
//
// Reach uses the weaker rule on purpose: a test reaches a line when at
// least one block claiming the line ran in that test. The reach map selects
// the tests a mutant of the line must run against; a test that executed
// part of the line can kill a mutant there, so leaving it out would be
// wrong, while including it only costs time.
//
// # What cannot be measured
//
// A changed file the profile does not name, although it has a function
// body (which cmd/cover always instruments), was not built with coverage:
// Measure lists it in Result.Unmeasured and gives no ratio. (Reach, given
// one test's profile, takes such a file as not reached by that test: a test
// binary's profile leaves out the packages it does not link.) A file without any function body has no blocks when built with
// coverage either, so its changed lines are all excluded. A source holding
// a line directive (//line or /*line) is refused: cover would record its
// blocks at the directive's positions, not the file's own.
package cover

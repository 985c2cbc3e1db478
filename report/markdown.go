package report

import (
	"fmt"
	"strings"

	"github.com/sealgate/sealgate/services/adjudication"
)

// MaxMarkdownBytes bounds the Markdown summary: GitHub refuses a step
// summary over 1 MiB; this leaves room for what else a step writes.
const MaxMarkdownBytes = 1000 << 10

// Bounds of one Markdown rendering before lists are shortened to fit.
const (
	mdListCap   = 200      // items per list
	mdCellBytes = 2 << 10  // one table cell or list item
	mdReason    = 16 << 10 // the decisive reason
)

// The lists a summary can shorten, longest first when it must.
const (
	listReasons = iota
	listClaims
	listRegressions
	listUncovered
	listSurvivors
	listDrift
	listRestored
	listSeals
	listMissing
	listRefusals
	listSteps
	listCount
)

// Markdown renders a pull-request summary: the decision and its decisive
// reason first, then the measurements, the claims per side, the collateral
// differences, the uncovered lines, the surviving mutants, the next steps
// and the seal. It stays under MaxMarkdownBytes by shortening the longest
// lists, each saying how many items it leaves out.
func Markdown(a *Artefact, opts Options) []byte {
	var caps [listCount]int
	for i := range caps {
		caps[i] = mdListCap
	}
	for {
		out, shown := markdown(a, opts, caps)
		if len(out) <= MaxMarkdownBytes {
			return out
		}
		longest := -1
		for i, n := range shown {
			if n > 0 && (longest < 0 || n > shown[longest]) {
				longest = i
			}
		}
		if longest < 0 {
			// Nothing left to shorten (it cannot come to this: every
			// item and the reason are clipped); keep the bound anyway.
			return []byte(clip(string(out), MaxMarkdownBytes-64) + "\n")
		}
		caps[longest] = shown[longest] / 2
	}
}

// mdWriter writes a summary and counts the items each list shows.
type mdWriter struct {
	b     strings.Builder
	caps  [listCount]int
	shown [listCount]int
}

func (w *mdWriter) f(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

// list writes at most the list's cap of n items with item(i), then how
// many it left out.
func (w *mdWriter) list(which, n int, item func(i int)) {
	show := min(n, w.caps[which])
	w.shown[which] = show
	for i := range show {
		item(i)
	}
	if n > show {
		w.f("\n_… and %d more not shown (%d in all; the artefact has every one)._\n", n-show, n)
	}
}

func markdown(a *Artefact, opts Options, caps [listCount]int) ([]byte, [listCount]int) {
	w := &mdWriter{caps: caps}
	mark := map[adjudication.Decision]string{adjudication.Merge: "✅", adjudication.Block: "❌", adjudication.Inconclusive: "⚠️"}[a.Decision]
	w.f("## sealgate: %s %s\n\n", mark, a.Decision)
	w.f("**%s**\n\n", md(clip(a.Reason, mdReason)))

	w.f("| | |\n|---|---|\n")
	w.f("| run | %s |\n", cellCode(a.RunID))
	w.f("| baseline | %s |\n", cellCode(shortRev(a.Baseline.Commit)))
	if a.Patch.Commit != "" {
		w.f("| patch | %s (diff sha256 %s) |\n", cellCode(shortRev(a.Patch.Commit)), cellCode(shortRev(a.Patch.Digest)))
	} else {
		w.f("| patch | diff sha256 %s |\n", cellCode(shortRev(a.Patch.Digest)))
	}
	verified := 0
	for _, c := range a.Claims {
		if c.Outcome == adjudication.Verified {
			verified++
		}
	}
	proven := "no"
	if a.FixProven {
		proven = "yes"
	}
	w.f("| claims | %d verified of %d; %d fixed; fix proven: %s |\n", verified, len(a.Claims), len(a.ClaimsFixed), proven)
	suite := "not counted"
	if a.Collateral.Tests != nil {
		suite = fmt.Sprintf("%d tests", *a.Collateral.Tests)
	}
	w.f("| full suite | %s; %d regression(s) |\n", suite, len(a.Collateral.Regressions))
	w.f("| diff coverage | %s |\n", cell(coverageLine(a)))
	w.f("| mutation strength | %s |\n", cell(strengthLine(a)))
	if s := a.Seal; s != nil {
		w.f("| seal | %s log, index %d of %d |\n", cell(s.Log), s.LogIndex, s.TreeSize)
	} else {
		w.f("| seal | not sealed |\n")
	}
	w.f("\n")

	if more := reasonsBeyond(a); len(more) > 0 {
		w.f("### Other findings\n\n")
		w.list(listReasons, len(more), func(i int) { w.f("- %s\n", md(clip(more[i], mdCellBytes))) })
		w.f("\n")
	}

	if len(a.NextSteps) > 0 {
		w.f("### Next steps\n\n")
		w.list(listSteps, len(a.NextSteps), func(i int) {
			s := a.NextSteps[i]
			w.f("- **%s** %s\n", md(string(s.Action)), code(clip(s.Target, mdCellBytes)))
		})
		w.f("\n")
	}

	w.f("### Claims\n\n")
	if len(a.Claims) == 0 {
		w.f("No claims.\n\n")
	} else {
		w.f("| claim | outcome | class | baseline | patch | judged by | where |\n|---|---|---|---|---|---|---|\n")
		w.list(listClaims, len(a.Claims), func(i int) {
			c := a.Claims[i]
			w.f("| %s | %s | %s | %s | %s | %s | %s |\n", cellCode(clip(c.ID, mdCellBytes)), cell(string(c.Outcome)), cell(string(c.Classification)),
				cell(sideOutcome(c.Baseline)), cell(sideOutcome(c.Patch)), cell(c.Oracle), where(opts.Locations, c.ID))
		})
		w.f("\n")
		unverified := 0
		for _, c := range a.Claims {
			if c.Outcome != adjudication.Verified && unverified < w.caps[listClaims] {
				unverified++
				w.f("- %s: %s\n", code(clip(c.ID, mdCellBytes)), md(clip(c.Reason, mdCellBytes)))
			}
		}
		if unverified > 0 {
			w.f("\n")
		}
	}

	if n := len(a.Collateral.Regressions); n > 0 {
		w.f("### Full suite: %d test(s) pass on the baseline and fail on the patch\n\n", n)
		w.list(listRegressions, n, func(i int) {
			r := a.Collateral.Regressions[i]
			w.f("- %s %s\n", code(clip(r, mdCellBytes)), where(opts.Locations, r))
		})
		w.f("\n")
	}

	if n := len(a.Coverage.Uncovered); n > 0 {
		w.f("### Diff coverage: %d changed line(s) no test executes\n\n", n)
		w.list(listUncovered, n, func(i int) { w.f("- %s\n", code(clip(a.Coverage.Uncovered[i], mdCellBytes))) })
		w.f("\n")
	}

	if n := len(a.Strength.Survivors); n > 0 {
		w.f("### Mutation: %d surviving mutant(s)\n\n| where | mutation |\n|---|---|\n", n)
		w.list(listSurvivors, n, func(i int) {
			m, err := SplitMutant(a.Strength.Survivors[i])
			if err != nil {
				w.f("| | %s |\n", cell(clip(a.Strength.Survivors[i], mdCellBytes)))
				return
			}
			w.f("| %s | %s |\n", cellCode(fmt.Sprintf("%s:%d", clip(m.Path, mdCellBytes), m.Line)), cell(clip(m.Mutation, mdCellBytes)))
		})
		w.f("\n")
	}

	if n := len(a.HarnessDrift); n > 0 {
		w.f("### Harness drift: no pass under it counts\n\n")
		w.list(listDrift, n, func(i int) { w.f("- %s\n", code(clip(a.HarnessDrift[i], mdCellBytes))) })
		w.f("\n")
	}
	if n := len(a.Oracle.Restored); n > 0 {
		w.f("### Test files put back from the baseline\n\n")
		w.list(listRestored, n, func(i int) { w.f("- %s\n", code(clip(a.Oracle.Restored[i], mdCellBytes))) })
		w.f("\n")
	}
	if n := len(a.SealPlan); n > 0 {
		w.f("### Seal plan\n\n| check | ran | exit | cases |\n|---|---|---|---|\n")
		w.list(listSeals, n, func(i int) {
			s := a.SealPlan[i]
			w.f("| %s | %v | %s | %s |\n", cellCode(clip(s.Command, mdCellBytes)), s.Ran, intOr(s.Exit), intOr(s.Cases))
		})
		w.f("\n")
	}
	if n := len(a.Missing); n > 0 {
		w.f("### Evidence missing at the deadline\n\n")
		w.list(listMissing, n, func(i int) { w.f("- %s\n", md(clip(a.Missing[i], mdCellBytes))) })
		w.f("\n")
	}
	if n := len(a.Refusals); n > 0 {
		w.f("### Records the ledger refused\n\n")
		w.list(listRefusals, n, func(i int) { w.f("- %s\n", md(clip(a.Refusals[i], mdCellBytes))) })
		w.f("\n")
	}

	if s := a.Seal; s != nil {
		w.f("### Seal\n\n")
		w.f("Signed (%s, key %s) and logged to the %s transparency log at index %d (tree size %d, root %s); artefact sha256 %s. Check it offline with `sealgate attest verify`.\n",
			md(s.Algorithm), code(shortRev(s.KeyID)), md(s.Log), s.LogIndex, s.TreeSize, code(shortRev(s.RootHash)), code(s.ArtefactSHA256))
	} else {
		w.f("_This artefact carries no seal: it was not signed and logged._\n")
	}
	return []byte(w.b.String()), w.shown
}

func coverageLine(a *Artefact) string {
	c := a.Coverage
	if c.Ratio == nil && c.Source == "computed" {
		return fmt.Sprintf("nothing to measure (%s); floor %.3f", clip(c.Reason, mdCellBytes), c.Floor)
	}
	if c.Ratio == nil {
		return fmt.Sprintf("not measured (%s); floor %.3f", clip(c.Reason, mdCellBytes), c.Floor)
	}
	verdict := "meets"
	if *c.Ratio < c.Floor {
		verdict = "is below"
	}
	return fmt.Sprintf("%.3f (%d of %d changed executable lines) %s the floor %.3f", *c.Ratio, c.CoveredLines, c.ChangedLines, verdict, c.Floor)
}

func strengthLine(a *Artefact) string {
	s := a.Strength
	if s.WilsonLower == nil {
		return fmt.Sprintf("not measured (%s); floor %.3f", clip(s.Reason, mdCellBytes), s.Floor)
	}
	verdict := "meets"
	if *s.WilsonLower < s.Floor {
		verdict = "is below"
	}
	return fmt.Sprintf("%d killed, %d survived, %d stillborn; lower bound %.3f (confidence %.2f) %s the floor %.3f",
		s.Killed, s.Survived, s.Stillborn, *s.WilsonLower, s.Confidence, verdict, s.Floor)
}

func sideOutcome(s *adjudication.SideRef) string {
	if s == nil {
		return "not run"
	}
	return s.Outcome
}

func intOr(p *int) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprint(*p)
}

// where shows a test's declaration.
func where(locs Locations, id string) string {
	if loc, ok := locs[id]; ok {
		return cellCode(fmt.Sprintf("%s:%d", clip(loc.Path, mdCellBytes), loc.Line))
	}
	return ""
}

// md escapes outside text for Markdown: no markup, no HTML, one line.
func md(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '|', '!', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cell is md for a table cell.
func cell(s string) string { return md(s) }

// code shows an identifier as a code span outside a table.
func code(s string) string {
	s = oneLine(s)
	if s == "" || strings.ContainsAny(s, "`") {
		return md(s)
	}
	return "`" + s + "`"
}

// cellCode shows an identifier as a code span inside a table, where a
// pipe must be escaped even there.
func cellCode(s string) string {
	s = oneLine(s)
	if s == "" || strings.ContainsAny(s, "`") {
		return md(s)
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

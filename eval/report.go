package eval

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// SummarySchema names the summary report's format.
const SummarySchema = "sealgate.eval.v1"

// Kinds of disagreement between SWE-bench's resolved and the verdict.
const (
	ResolvedButBlock        = "resolved but BLOCK"
	ResolvedButInconclusive = "resolved but INCONCLUSIVE"
	UnresolvedButMerge      = "not resolved but MERGE"
)

// Summary is report.json: the counts and the disagreements of a set of
// results.
type Summary struct {
	Schema string `json:"schema"`
	// Instances counts the results; Resolved those SWE-bench resolves.
	Instances int `json:"instances"`
	Resolved  int `json:"resolved"`
	// Decisions counts the verdicts by decision; Refused and Errors the
	// results without one.
	Decisions map[string]int `json:"decisions"`
	Refused   int            `json:"refused"`
	Errors    int            `json:"errors"`
	// Matrix counts results by resolved ("resolved", "unresolved") and
	// outcome (a decision, "refused" or "error").
	Matrix map[string]map[string]int `json:"matrix"`
	// Disagreements are the verdicts that disagree with resolved, grouped
	// by kind then by the category of their decisive reason.
	Disagreements []Group `json:"disagreements"`
	// Models are the predictions' model names.
	Models []string `json:"models"`
	// Results list every instance, sorted by id.
	Results []Line `json:"results"`
}

// Group is one kind and category of disagreement.
type Group struct {
	Kind      string `json:"kind"`
	Category  string `json:"category"`
	Instances []Line `json:"instances"`
}

// Line is one result as the summary lists it.
type Line struct {
	InstanceID string `json:"instance_id"`
	Model      string `json:"model"`
	Status     string `json:"status"`
	Decision   string `json:"decision,omitempty"`
	Resolved   bool   `json:"resolved"`
	Category   string `json:"category,omitempty"`
	// Reason is the verdict's decisive reason, or why there is none.
	Reason string `json:"reason"`
	// Report is the instance's report file, relative to the output
	// directory.
	Report string `json:"report"`
}

// Summarize counts results (in any order) and spells out the
// disagreements. report names each result's report file.
func Summarize(results []Result, report func(Result) string) Summary {
	s := Summary{Schema: SummarySchema, Decisions: map[string]int{Merge: 0, Block: 0, Inconclusive: 0},
		Matrix: map[string]map[string]int{}, Disagreements: []Group{}, Models: []string{}, Results: []Line{}}
	sorted := slices.Clone(results)
	slices.SortFunc(sorted, func(a, b Result) int { return cmp.Compare(a.InstanceID, b.InstanceID) })
	groups := map[[2]string][]Line{}
	models := map[string]bool{}
	for _, r := range sorted {
		s.Instances++
		models[r.Model] = true
		l := Line{InstanceID: r.InstanceID, Model: r.Model, Status: r.Status, Decision: r.Decision, Resolved: r.Resolved,
			Category: r.Category, Reason: cmp.Or(r.Reason, r.Error), Report: report(r)}
		s.Results = append(s.Results, l)
		if r.Resolved {
			s.Resolved++
		}
		row := "unresolved"
		if r.Resolved {
			row = "resolved"
		}
		col := r.Status
		switch r.Status {
		case StatusVerdict:
			s.Decisions[r.Decision]++
			col = r.Decision
		case StatusRefused:
			s.Refused++
		default:
			s.Errors++
		}
		if s.Matrix[row] == nil {
			s.Matrix[row] = map[string]int{}
		}
		s.Matrix[row][col]++
		var kind string
		switch {
		case r.Status != StatusVerdict:
		case r.Resolved && r.Decision == Block:
			kind = ResolvedButBlock
		case r.Resolved && r.Decision == Inconclusive:
			kind = ResolvedButInconclusive
		case !r.Resolved && r.Decision == Merge:
			kind = UnresolvedButMerge
		}
		if kind != "" {
			k := [2]string{kind, r.Category}
			groups[k] = append(groups[k], l)
		}
	}
	order := map[string]int{UnresolvedButMerge: 0, ResolvedButBlock: 1, ResolvedButInconclusive: 2}
	keys := slices.Collect(maps.Keys(groups))
	slices.SortFunc(keys, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(order[a[0]], order[b[0]]), cmp.Compare(len(groups[b]), len(groups[a])), cmp.Compare(a[1], b[1]))
	})
	for _, k := range keys {
		s.Disagreements = append(s.Disagreements, Group{Kind: k[0], Category: k[1], Instances: groups[k]})
	}
	s.Models = append(s.Models, slices.Sorted(maps.Keys(models))...)
	return s
}

// Markdown renders the summary as report.md.
func (s Summary) Markdown() string {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f("# sealgate eval\n\n")
	if len(s.Models) > 0 {
		var names []string
		for _, m := range s.Models {
			names = append(names, "`"+cmp.Or(md(m), "(unnamed)")+"`")
		}
		f("Predictions of %s.\n\n", strings.Join(names, ", "))
	}
	f("%d instance(s): **%d resolved** (SWE-bench: every FAIL_TO_PASS and PASS_TO_PASS test passes on the patch); "+
		"sealgate: **%d MERGE**, **%d BLOCK**, **%d INCONCLUSIVE**; %d refused before a verdict, %d without a verdict (error).\n\n",
		s.Instances, s.Resolved, s.Decisions[Merge], s.Decisions[Block], s.Decisions[Inconclusive], s.Refused, s.Errors)
	cols := []string{Merge, Block, Inconclusive, StatusRefused, StatusError}
	f("| | %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", len(cols)))
	for _, row := range []string{"resolved", "unresolved"} {
		f("| %s |", row)
		for _, c := range cols {
			f(" %d |", s.Matrix[row][c])
		}
		f("\n")
	}
	f("\n## Disagreements\n\n")
	if len(s.Disagreements) == 0 {
		f("None: every verdict agrees with resolved (MERGE exactly when resolved).\n")
	}
	for _, g := range s.Disagreements {
		f("### %s — %s (%d)\n\n", g.Kind, md(g.Category), len(g.Instances))
		for _, l := range g.Instances {
			f("- [`%s`](%s): %s\n", md(l.InstanceID), l.Report, md(clipReason(l.Reason)))
		}
		f("\n")
	}
	var none []Line
	for _, l := range s.Results {
		if l.Status != StatusVerdict {
			none = append(none, l)
		}
	}
	if len(none) > 0 {
		f("\n## Without a verdict\n\n")
		for _, l := range none {
			f("- [`%s`](%s): %s: %s\n", md(l.InstanceID), l.Report, l.Status, md(clipReason(l.Reason)))
		}
	}
	f("\n## Instances\n\n| instance | resolved | verdict | decisive reason |\n|---|---|---|---|\n")
	for _, l := range s.Results {
		verdict := cmp.Or(l.Decision, l.Status)
		f("| [`%s`](%s) | %s | %s | %s |\n", md(l.InstanceID), l.Report, yesNo(l.Resolved), verdict, md(clipReason(l.Reason)))
	}
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// md makes text safe inside a Markdown table cell or list item: one line,
// no pipes, no backticks that would break the inline code.
func md(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`, "`", "'", "<", "&lt;", ">", "&gt;").Replace(s)
}

func clipReason(s string) string {
	const n = 400
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sealgate/sealgate/services/adjudication"
)

type cqIssue struct {
	Description string     `json:"description"`
	CheckName   string     `json:"check_name"`
	Fingerprint string     `json:"fingerprint"`
	Severity    string     `json:"severity"`
	Location    cqLocation `json:"location"`
}

type cqLocation struct {
	Path  string  `json:"path"`
	Lines cqLines `json:"lines"`
}

type cqLines struct {
	Begin int `json:"begin"`
}

// maxCodeQualityIssues bounds the GitLab report; the most important
// findings come first.
const maxCodeQualityIssues = 5000

// CodeQuality renders the findings as a GitLab Code Quality report: a JSON
// array of issues with description, check_name (the rule id), fingerprint,
// severity and location (path, lines.begin). A finding with no place in
// the repository is left out (the JUnit report carries the decision).
func CodeQuality(a *Artefact, opts Options) ([]byte, error) {
	severity := map[string]string{
		RuleRegression: "critical", RuleRefutedClaim: "critical", RuleHarnessDrift: "major",
		RuleUnverifiedClaim: "major", RuleUncoveredLine: "minor", RuleSurvivingMutant: "minor", RuleRestoredTest: "info",
	}
	issues := []cqIssue{}
	for _, f := range Findings(a, opts.Locations) {
		if f.Path == "" || len(issues) == maxCodeQualityIssues {
			continue
		}
		issues = append(issues, cqIssue{
			Description: clip(oneLine(f.Message), maxSARIFMessage), CheckName: "sealgate/" + f.Rule,
			Fingerprint: Fingerprint(f), Severity: severity[f.Rule],
			Location: cqLocation{Path: f.Path, Lines: cqLines{Begin: max(f.Line, 1)}},
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(issues); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// GitHub shows at most 10 annotations of each level per step (50 per job).
const maxAnnotationsPerLevel = 10

// maxAnnotationMessage bounds one annotation's message.
const maxAnnotationMessage = 1024

// Annotations renders the verdict as GitHub workflow commands: first the
// decision (an error for BLOCK, a warning for INCONCLUSIVE, a notice for
// MERGE), then the findings most important first, at most ten of each
// level — GitHub's per-step limit — the tenth saying how many more there
// are.
func Annotations(a *Artefact, opts Options) []byte {
	var b strings.Builder
	level := map[adjudication.Decision]string{adjudication.Merge: "notice", adjudication.Block: "error", adjudication.Inconclusive: "warning"}
	used := map[string]int{}
	cmd := func(lvl string, f *Finding, msg string) {
		used[lvl]++
		props := []string{"title=" + property("sealgate "+string(a.Decision))}
		if f != nil {
			props[0] = "title=" + property("sealgate "+f.Rule+" "+rule(f.Rule).Name)
			if f.Path != "" {
				props = append(props, "file="+property(f.Path))
				if f.Line > 0 {
					props = append(props, "line="+fmt.Sprint(f.Line))
				}
			}
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", lvl, strings.Join(props, ","), data(clip(msg, maxAnnotationMessage)))
	}
	cmd(level[a.Decision], nil, a.Reason)
	findings := Findings(a, opts.Locations)
	byLevel := map[string][]Finding{}
	for _, f := range findings {
		lvl := map[Level]string{LevelError: "error", LevelWarning: "warning", LevelNote: "notice"}[f.Level]
		byLevel[lvl] = append(byLevel[lvl], f)
	}
	for _, lvl := range []string{"error", "warning", "notice"} {
		fs := byLevel[lvl]
		room := maxAnnotationsPerLevel - used[lvl]
		for i, f := range fs {
			if room <= 0 {
				break
			}
			if room == 1 && len(fs)-i > 1 {
				cmd(lvl, &f, fmt.Sprintf("%s (and %d more %s findings: see the job summary)", f.Message, len(fs)-i-1, lvl))
				break
			}
			cmd(lvl, &f, f.Message)
			room--
		}
	}
	return []byte(b.String())
}

// data escapes a workflow command's message.
func data(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// property escapes a workflow command's property value.
func property(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// maxTextItems bounds each list of the plain-text report.
const maxTextItems = 20

// Text renders the verdict for a terminal or a coding agent: the decision
// and its reason, the other findings, the next steps, and the located
// findings, each list at most twenty items with a count of the rest.
func Text(a *Artefact, opts Options) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "sealgate: %s (run %s)\n%s\n", a.Decision, oneLine(a.RunID), clip(oneLine(a.Reason), mdReason))
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for i, it := range items {
			if i == maxTextItems {
				fmt.Fprintf(&b, "  … and %d more\n", len(items)-i)
				break
			}
			fmt.Fprintf(&b, "  - %s\n", clip(oneLine(it), mdCellBytes))
		}
	}
	list("other findings", reasonsBeyond(a))
	var steps []string
	for _, s := range a.NextSteps {
		steps = append(steps, fmt.Sprintf("%s: %s", s.Action, s.Target))
	}
	list("next steps", steps)
	var claims []string
	for _, c := range a.Claims {
		claims = append(claims, fmt.Sprintf("%s %s %s (baseline %s, patch %s)", c.ID, c.Outcome, c.Classification, sideOutcome(c.Baseline), sideOutcome(c.Patch)))
	}
	list("claims", claims)
	fmt.Fprintf(&b, "\ndiff coverage: %s\nmutation strength: %s\n", oneLine(coverageLine(a)), oneLine(strengthLine(a)))
	var where []string
	for _, f := range Findings(a, opts.Locations) {
		at := f.Path
		if f.Line > 0 {
			at = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		where = append(where, fmt.Sprintf("%s %s %s", at, f.Rule, f.Message))
	}
	list("where", where)
	return []byte(b.String())
}

package mutation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/adjudication"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/mutation/mutant"
)

// Strength is the strength.measured body of a run once every mutant job
// the mutation service planned is answered (nil before), with parents the
// digests of the answers. notes is what planning found (nil when not
// known: the record then reports the mutants run only).
func Strength(c *criteria.Criteria, run []*record.Decoded, notes *Notes) (m *pb.StrengthMeasured, parents []string) {
	planned := map[string]*jobs.Spec{}
	var order []string
	done := map[string]*jobs.Detail{}
	for _, r := range run {
		if r.Record.GetProducer().GetIdentity() != keyring.Mutation {
			continue
		}
		switch b := r.Record.Body.(type) {
		case *pb.Record_JobPlanned:
			for _, j := range b.JobPlanned.Jobs {
				if s, err := jobs.ParseSpec(j.Spec); err == nil {
					planned[j.JobId] = s
					order = append(order, j.JobId)
				}
			}
		case *pb.Record_JobResult:
			if d, err := jobs.ParseDetail(b.JobResult.Detail); err == nil {
				done[b.JobResult.JobId] = d
				parents = append(parents, r.Digest)
			}
		}
	}
	for id := range planned {
		if done[id] == nil {
			return nil, nil
		}
	}
	m = &pb.StrengthMeasured{Source: pb.MeasurementSource_MEASUREMENT_SOURCE_COMPUTED}
	var unjudged []string
	outcomes := map[string]string{} // siteKey → the outcome of its job
	for _, id := range order {
		s, d := planned[id], done[id]
		at := mutant.Site{File: s.Mutation.Path, Line: s.Mutation.Line, Col: s.Mutation.Col, Operator: s.Mutation.Operator, Description: s.Mutation.Description}
		outcomes[siteKey(at)] = d.Outcome
		mu := &pb.Mutant{Id: fmt.Sprint(s.Mutation.ID), At: &pb.LineRef{Path: s.Mutation.Path, Line: uint32(s.Mutation.Line)},
			Operator: s.Mutation.Operator, Description: s.Mutation.Description, KilledBy: d.KilledBy}
		switch d.Outcome {
		case jobs.OutcomeKilled:
			m.Killed++
			mu.Status = "killed"
		case jobs.OutcomeSurvived:
			m.Survived++
			mu.Status = "survived"
		case jobs.OutcomeUnjudged:
			// Out of the ratio like a stillborn mutant, but named: the
			// adjudicator does not let it pass.
			m.Stillborn++
			mu.Status = "unjudged"
			unjudged = append(unjudged, fmt.Sprintf("%s:%d %s: %s", s.Mutation.Path, s.Mutation.Line, s.Mutation.Description, d.Reason))
		default:
			m.Stillborn++
			mu.Status = "stillborn"
		}
		m.Mutants = append(m.Mutants, mu)
	}
	if n := m.Killed + m.Survived; n > 0 {
		score := float64(m.Killed) / float64(n)
		lower := adjudication.WilsonLower(int(m.Killed), int(n), c.StrengthConfidence)
		m.Score, m.WilsonLower = &score, &lower
	}
	m.Reason = fmt.Sprintf("%d mutants on the changed, covered lines: %d killed, %d survived, %d stillborn (left out of the ratio)",
		len(order), m.Killed, m.Survived, m.Stillborn)
	if len(unjudged) > 0 {
		m.Reason += fmt.Sprintf("; %d unjudged, among them %s", len(unjudged), unjudged[0])
	}
	if notes == nil {
		return m, parents
	}
	m.Complete = notes.complete && m.Stillborn == 0 && int(m.Killed+m.Survived) >= notes.distinct
	if eq := notes.pyEquivalent; len(eq) > 0 {
		m.Mutants = append(m.Mutants, eq...)
		m.Reason += fmt.Sprintf("; %d Python equivalent (they compile to the original's bytecode; left out of the ratio)", len(eq))
	}
	m.Mutants = append(m.Mutants, equivalentMutants(notes.equivalent, len(order)+len(notes.pyEquivalent))...)
	if len(notes.equivalent) > 0 {
		m.Reason += fmt.Sprintf("; %d equivalent (left out of the ratio)", len(notes.equivalent))
	}
	if len(notes.skipped) > 0 {
		m.Reason += fmt.Sprintf("; %d %s the schemata cannot write here: %s", len(notes.skipped), plural(len(notes.skipped), "site"), clip(notes.skipped))
	}
	if len(notes.fromSource) > 0 {
		m.Reason += fmt.Sprintf("; the imports of %d %s were type-checked from source, not export data: %s", len(notes.fromSource), plural(len(notes.fromSource), "package"), clip(notes.fromSource))
	}
	if notes.bystanders > 0 {
		m.Reason += fmt.Sprintf("; %d %s of values the patch left as they were on its changed lines not run", notes.bystanders, plural(notes.bystanders, "mutant", "mutants"))
	}
	if vals := unpinned(notes.values, outcomes); len(vals) > 0 {
		names := make([]string, len(vals))
		for i, v := range vals {
			names[i] = fmt.Sprintf("%s:%d (%s)", v.at.path, v.at.line, v.text)
			m.Unwitnessed = append(m.Unwitnessed, &pb.LineRef{Path: v.at.path, Line: uint32(v.at.line)})
		}
		m.Reason += fmt.Sprintf("; no test pins the %s the patch wrote at %s: a mutant of %s survived, or none was killed", plural(len(vals), "value"), clip(names), plural(len(vals), "it", "them"))
		unselected := 0
		for _, v := range vals {
			if !slices.ContainsFunc(v.sites, func(k string) bool { _, ran := outcomes[k]; return ran }) {
				unselected++
			}
		}
		if unselected > 0 {
			m.Reason += fmt.Sprintf(" (%d of them had no mutant selected: --mutation-max %d)", unselected, c.MutationMax)
		}
	}
	if lines := unwitnessed(notes.dataLines, m.Mutants, notes.judges); len(lines) > 0 {
		m.Unwitnessed = append(m.Unwitnessed, lines...)
		names := make([]string, len(lines))
		for i, l := range lines {
			names[i] = fmt.Sprintf("%s:%d", l.Path, l.Line)
		}
		m.Reason += fmt.Sprintf("; no test pins %s: a mutant of %s survived, or none was killed", clip(names), plural(len(lines), "that data line", "those data lines"))
	}
	if sts := unkilledStatements(notes.statements, outcomes); len(sts) > 0 {
		var names []string
		for _, st := range sts {
			// A for's header and its init statement read the same.
			if name := st.at.String(); !slices.Contains(names, name) {
				names = append(names, name)
			}
			m.Unwitnessed = append(m.Unwitnessed, &pb.LineRef{Path: st.at.path, Line: uint32(st.lines[0])})
		}
		m.Reason += fmt.Sprintf("; no test notices a change to the %s at %s: none of %s mutants was killed, %s none, or the restore of what the patch replaced there (the baseline's code put back) was not killed",
			plural(len(sts), "changed statement"), clip(names), plural(len(sts), "its", "their"), plural(len(sts), "it offers", "they offer"))
		// Below the cap every site that is not equivalent ran: a
		// statement none of whose sites ran offers no mutant. At the cap
		// it may have lost its turn, or its restore may have (a fix that
		// rewrites nine constants has more restores than the cap).
		unselected := 0
		if len(outcomes) >= int(c.MutationMax) {
			ran := func(k string) bool { _, ok := outcomes[k]; return ok }
			for _, st := range sts {
				if len(st.sites) > 0 && !slices.ContainsFunc(st.sites, ran) || !every(st.restores, ran) {
					unselected++
				}
			}
		}
		if unselected > 0 {
			m.Reason += fmt.Sprintf(" (%d of them had a mutant or a restore left unrun: --mutation-max %d; raise it to judge them)", unselected, c.MutationMax)
		}
	}
	few := TooFew(notes.distinct, c.StrengthFloor, c.StrengthConfidence)
	switch {
	case few != "":
		m.Reason += "; " + few
	case notes.need > 0 && c.MutationMax < notes.need:
		m.Reason += fmt.Sprintf("; --mutation-max %d allows only %d mutants; the floor needs at least %d", c.MutationMax, c.MutationMax, notes.need)
	}
	m.Unwitnessed = onceEach(m.Unwitnessed)
	return m, parents
}

// onceEach keeps the first of each line: a line holds a value, a
// statement and a data line at once, or several statements, and is named
// once.
func onceEach(lines []*pb.LineRef) []*pb.LineRef {
	seen := map[lineRef]bool{}
	return slices.DeleteFunc(lines, func(l *pb.LineRef) bool {
		key := lineRef{l.Path, int(l.Line)}
		dup := seen[key]
		seen[key] = true
		return dup
	})
}

// unwitnessed returns the changed data lines that no test pins, in order:
// those of which no mutant was killed — whether their mutants survived,
// were stillborn or unjudged, or none of them was selected — and those of
// which a mutant survived. Coverage cannot see data, so a changed data line
// counts as judged only when the tests fail on every change to it that
// ran: a test that merely finds the row (and so kills its dropping) does
// not judge the value the patch wrote in it. (The values on the line the
// patch left as they were have no mutants: see withoutBystanders.) A kill on a line also
// witnesses the lines judges names for it (the //go:embed variable of an
// embedded file's line; a survivor there leaves that line unjudged, which
// is enough).
func unwitnessed(lines []lineRef, mutants []*pb.Mutant, judges map[lineRef][]lineRef) []*pb.LineRef {
	killed, survived := map[lineRef]bool{}, map[lineRef]bool{}
	for _, mu := range mutants {
		if mu.At == nil {
			continue
		}
		mark := killed
		switch mu.Status {
		case "killed":
		case "survived":
			mark = survived
		default:
			continue
		}
		at := lineRef{mu.At.Path, int(mu.At.Line)}
		mark[at] = true
		if mu.Status == "killed" {
			for _, l := range judges[at] {
				killed[l] = true
			}
		}
	}
	var out []*pb.LineRef
	for _, l := range lines {
		if !killed[l] || survived[l] {
			out = append(out, &pb.LineRef{Path: l.path, Line: uint32(l.line)})
		}
	}
	return out
}

// unpinned returns the values the patch wrote (see judgedValue) of which
// no mutant inside was killed, or one survived: whether they were
// stillborn, unjudged or not selected, no test is shown to fail when the
// value changes. outcomes holds the outcome of each mutant job, by
// siteKey.
func unpinned(values []judgedValue, outcomes map[string]string) []judgedValue {
	var out []judgedValue
	for _, v := range values {
		killed, survived := false, false
		for _, k := range v.sites {
			switch outcomes[k] {
			case jobs.OutcomeKilled:
				killed = true
			case jobs.OutcomeSurvived:
				survived = true
			}
		}
		if !killed || survived {
			out = append(out, v)
		}
	}
	return out
}

// killsNeeded is the fewest mutants, all killed, whose Wilson lower bound
// meets the floor at the confidence: 0 when there is no floor, -1 when no
// count up to 100,000 does.
func killsNeeded(floor, confidence float64) int {
	if floor <= 0 {
		return 0
	}
	for n := 1; n <= 100_000; n++ {
		if adjudication.WilsonLower(n, n, confidence) >= floor {
			return n
		}
	}
	return -1
}

// equivalentMutants lists equivalent sites as the strength record does,
// numbered after the mutants run.
func equivalentMutants(sites []mutant.Site, after int) []*pb.Mutant {
	var out []*pb.Mutant
	for i, s := range sites {
		out = append(out, &pb.Mutant{Id: fmt.Sprint(after + i + 1), At: &pb.LineRef{Path: s.File, Line: uint32(s.Line)},
			Operator: s.Operator, Description: s.Description + " (equivalent: " + s.Equivalent + ")", Status: "equivalent"})
	}
	return out
}

// clip joins at most three items.
func clip(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:3], "; ") + fmt.Sprintf(" and %d more", len(items)-3)
}

// plural returns word for one, else its plural: forms[0] when given, or
// word with an s.
func plural(n int, word string, forms ...string) string {
	switch {
	case n == 1:
		return word
	case len(forms) > 0:
		return forms[0]
	}
	return word + "s"
}

// TooFew is the sentence that says a change offers fewer distinct mutants
// than the floor needs, or "" when it offers enough (or the floor is 0):
// even with every one killed, the Wilson lower bound could not reach the
// floor. It is the same sentence for Go and Python.
func TooFew(offered int, floor, confidence float64) string {
	if floor <= 0 {
		return ""
	}
	need := killsNeeded(floor, confidence)
	switch {
	case need < 0:
		return fmt.Sprintf("the change offers %d distinct %s; no number of mutants can meet the floor %.3f at %.0f%% confidence", offered, plural(offered, "mutant"), floor, 100*confidence)
	case offered < need:
		return fmt.Sprintf("the change offers %d distinct %s; the floor needs at least %d", offered, plural(offered, "mutant"), need)
	}
	return ""
}

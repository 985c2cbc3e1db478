package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/sealgate/sealgate/services/adjudication"
)

// maxJUnitText bounds a message or output text of one test case.
const maxJUnitText = 8 << 10

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit renders the verdict as JUnit XML for CI systems that show test
// reports: a suite "sealgate" with the decision as one case (failed for
// BLOCK, in error for INCONCLUSIVE), a suite "claims" with one case per
// claim and side, a suite "collateral" with one failed case per test the
// patch breaks, and a suite "seal plan" with one case per check.
func JUnit(a *Artefact, opts Options) ([]byte, error) {
	verdict := junitCase{Name: "decision", Classname: "sealgate", Time: "0", SystemOut: text(a.Reason)}
	switch a.Decision {
	case adjudication.Block:
		verdict.Failure = &junitProblem{Message: text(a.Reason), Type: "BLOCK", Text: text(strings.Join(a.Reasons, "\n"))}
	case adjudication.Inconclusive:
		verdict.Error = &junitProblem{Message: text(a.Reason), Type: "INCONCLUSIVE", Text: text(strings.Join(a.Reasons, "\n"))}
	}
	suites := []junitSuite{{Name: "sealgate", Cases: []junitCase{verdict}}}

	claims := junitSuite{Name: "claims", Cases: []junitCase{}}
	for _, c := range a.Claims {
		loc := opts.Locations[c.ID]
		for _, side := range []struct {
			name string
			ref  *adjudication.SideRef
		}{{"baseline", c.Baseline}, {"patch", c.Patch}} {
			tc := junitCase{Name: fmt.Sprintf("%s [%s]", c.ID, side.name), Classname: "claims." + side.name, File: loc.Path, Line: loc.Line, Time: "0"}
			if side.ref != nil {
				tc.Time = seconds(side.ref.WallMillis)
				tc.SystemOut = text(fmt.Sprintf("%s: %s\n%s", side.ref.Outcome, side.ref.Reason, strings.Join(side.ref.Argv, " ")))
			}
			msg := fmt.Sprintf("claim %s is %s (%s) — %s side %s: %s", c.ID, c.Outcome, c.Classification, side.name, sideOutcome(side.ref), c.Reason)
			switch {
			case c.Outcome == adjudication.Refuted && side.name == "patch":
				tc.Failure = &junitProblem{Message: text(msg), Type: string(c.Classification)}
			case c.Outcome == adjudication.Unverified && (side.name == "patch" || !definite(side.ref)):
				tc.Error = &junitProblem{Message: text(msg), Type: string(c.Classification)}
			case side.ref == nil:
				// A side that never ran for a verified claim (a new
				// test has no baseline run): nothing was judged there.
				tc.Skipped = &junitProblem{Message: text(msg)}
			}
			claims.Cases = append(claims.Cases, tc)
		}
	}
	suites = append(suites, claims)

	coll := junitSuite{Name: "collateral", Cases: []junitCase{}}
	for _, r := range a.Collateral.Regressions {
		loc := opts.Locations[r]
		coll.Cases = append(coll.Cases, junitCase{
			Name: r, Classname: "collateral", File: loc.Path, Line: loc.Line, Time: "0",
			Failure: &junitProblem{Message: text(r + " passes on the baseline and fails on the patch"), Type: "regression"},
		})
	}
	suites = append(suites, coll)

	if len(a.SealPlan) > 0 {
		seal := junitSuite{Name: "seal plan", Cases: []junitCase{}}
		for _, s := range a.SealPlan {
			tc := junitCase{Name: s.Command, Classname: "seal", Time: "0"}
			if s.Run != nil {
				tc.Time = seconds(s.Run.WallMillis)
			}
			switch {
			case !s.Ran || s.Exit == nil:
				tc.Error = &junitProblem{Message: "the check did not run", Type: "not_run"}
			case *s.Exit != 0:
				tc.Failure = &junitProblem{Message: fmt.Sprintf("the check exited %d", *s.Exit), Type: "failed"}
			case s.Cases == nil || *s.Cases == 0:
				tc.Error = &junitProblem{Message: "the check reported no cases", Type: "empty"}
			}
			seal.Cases = append(seal.Cases, tc)
		}
		suites = append(suites, seal)
	}

	all := junitSuites{Name: "sealgate " + a.RunID}
	for i := range suites {
		s := &suites[i]
		for _, c := range s.Cases {
			s.Tests++
			switch {
			case c.Failure != nil:
				s.Failures++
			case c.Error != nil:
				s.Errors++
			case c.Skipped != nil:
				s.Skipped++
			}
		}
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Skipped += s.Skipped
	}
	all.Suites = suites
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return nil, err
	}
	buf.WriteString("\n")
	return buf.Bytes(), nil
}

// definite reports whether a side ran to a pass or a fail.
func definite(s *adjudication.SideRef) bool {
	return s != nil && (s.Outcome == "PASS" || s.Outcome == "FAIL")
}

func seconds(ms int64) string {
	return fmt.Sprintf("%.3f", float64(max(ms, 0))/1000)
}

// text bounds a message; encoding/xml escapes it and replaces characters
// XML cannot hold.
func text(s string) string { return clip(s, maxJUnitText) }

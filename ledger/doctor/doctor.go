// Package doctor proves that the ledger refuses what it must, for the reason
// it must.
//
// It replays one valid recorded run, which must be admitted whole, and one
// copy per refusal code of the authority package in which exactly one thing
// was changed: a record tampered with, reordered, re-signed, added or
// replaced, or the trust it is checked against emptied. Every copy goes
// through the same Verifier `sealgate ledger verify` uses, and must be
// refused for exactly its code at the record the change must be caught at. Nothing is looked up
// in a table: the observed code is what the admission rules decided.
//
// The recorded run, the trust policy and the fixture-only producer keys that
// sign the mutated records ship inside the binary (fixtures/), so a doctor
// needs no checkout and no state directory.
package doctor

import (
	"context"
	"fmt"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
)

// Admitted is the outcome expected of, and observed for, a ledger that is
// admitted whole: every record accepted and every run's budget conserved.
const Admitted = "admitted"

// Check is the result of replaying one ledger.
type Check struct {
	// ID names the check; stable across versions.
	ID string `json:"id"`
	// Expected is the refusal code the copy must be refused for, or
	// Admitted for the valid run.
	Expected string `json:"expected"`
	// Observed is the code the Verifier reported for the first bad record,
	// or Admitted when it found none; empty when the copy could not be
	// replayed at all.
	Observed string `json:"observed"`
	// Passed is set when Observed equals Expected and the refused record
	// is the one the change must be caught at: the changed record itself,
	// or for a changed revocation epoch the first record it revokes.
	Passed bool `json:"passed"`
	// Mutation says what was changed in the valid run.
	Mutation string `json:"mutation"`
	// Detail is what the Verifier said, or why the check failed.
	Detail string `json:"detail"`
}

// Report is the outcome of a doctor run.
type Report struct {
	// RunID is the recorded run the copies are made of.
	RunID string `json:"run_id"`
	// Records is the number of records of the recorded ledger.
	Records int `json:"records"`
	// Checks are the valid run first, then one check per refusal code in
	// the order of authority.Codes().
	Checks []Check `json:"checks"`
	Passed int     `json:"passed"`
	Failed int     `json:"failed"`
}

// OK reports whether every check passed.
func (r Report) OK() bool { return r.Failed == 0 && len(r.Checks) > 0 }

// Run replays the embedded valid run and every mutated copy of it. The
// report always lists a check for every code of authority.Codes(): a code
// the doctor has no copy for, a fixture that does not load or a cancelled
// context fail the checks concerned instead of shortening the list.
func Run(ctx context.Context) Report {
	fx, err := loadFixture(fixtureFiles())
	return run(ctx, fx, err, checks())
}

// run executes checks against fx (or reports loadErr on each of them) and
// adds a failed check for every refusal code no check expects.
func run(ctx context.Context, fx *fixture, loadErr error, cs []check) Report {
	var rep Report
	if fx != nil {
		rep.RunID, rep.Records = fx.runID, len(fx.raw)
	}
	byCode := map[string][]check{}
	for _, c := range cs {
		byCode[c.expected] = append(byCode[c.expected], c)
	}
	ordered := byCode[Admitted]
	for _, info := range authority.Codes() {
		if len(byCode[info.Code]) == 0 {
			ordered = append(ordered, check{id: "missing-" + info.Code, expected: info.Code, mutation: "no copy is made for this code"})
			continue
		}
		ordered = append(ordered, byCode[info.Code]...)
	}
	known := map[string]bool{Admitted: true}
	for _, info := range authority.Codes() {
		known[info.Code] = true
	}
	for _, c := range cs {
		if !known[c.expected] {
			// A check for a code the ledger does not have: list it last.
			ordered = append(ordered, c)
		}
	}
	for _, c := range ordered {
		ch := Check{ID: c.id, Expected: c.expected, Mutation: c.mutation}
		switch {
		case c.build == nil:
			ch.Detail = fmt.Sprintf("the doctor has no mutated copy refused for %s", c.expected)
		case loadErr != nil:
			ch.Detail = fmt.Sprintf("fixture: %v", loadErr)
		case ctx.Err() != nil:
			ch.Detail = ctx.Err().Error()
		default:
			ch = execute(fx, c, ch)
		}
		if ch.Passed {
			rep.Passed++
		} else {
			rep.Failed++
		}
		rep.Checks = append(rep.Checks, ch)
	}
	return rep
}

// execute builds the copy of check c and replays it.
func execute(fx *fixture, c check, ch Check) Check {
	cp, err := c.build(fx)
	if err != nil {
		ch.Detail = fmt.Sprintf("building the copy: %v", err)
		return ch
	}
	trust := fx.trust
	if cp.trust != nil {
		trust = cp.trust
	}
	problem := replay(trust, cp.ledger)
	if problem == nil {
		ch.Observed = Admitted
		ch.Passed = c.expected == Admitted
		ch.Detail = fmt.Sprintf("%d records admitted, every budget conserved", len(cp.ledger))
		return ch
	}
	ch.Observed = problem.Code
	ch.Detail = problem.Error()
	wantSeq := uint64(cp.at + 1)
	switch {
	case problem.Code != c.expected:
	case problem.Seq != wantSeq:
		ch.Detail = fmt.Sprintf("refused at record #%d, but the change must be caught at record #%d: %s", problem.Seq, wantSeq, problem)
	default:
		ch.Passed = true
	}
	return ch
}

// replay checks a ledger the way `sealgate ledger verify` does: every
// record in order through the Verifier, then the whole-ledger checks. It
// returns the first problem, or nil. Records are numbered from 1.
func replay(trust *authority.Trust, records [][]byte) *ledger.Problem {
	v := ledger.NewVerifier(trust)
	for i, raw := range records {
		if p := v.Next(uint64(i+1), raw); p != nil {
			return p
		}
	}
	return v.Finish()
}

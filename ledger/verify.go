package ledger

import (
	"fmt"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/record"
)

// Problem names the first bad record of a ledger.
type Problem struct {
	// Seq is the record's position in the log (0 when the log has none).
	Seq    uint64
	Digest string
	Kind   string
	RunID  string
	Code   string
	Detail string
}

func (p *Problem) Error() string {
	where := fmt.Sprintf("record #%d", p.Seq)
	if p.Digest != "" {
		where += fmt.Sprintf(" (%s %.16s…", p.Kind, p.Digest)
		if p.RunID != "" {
			where += " of run " + p.RunID
		}
		where += ")"
	}
	return fmt.Sprintf("%s: %s: %s", where, p.Code, p.Detail)
}

// Verifier re-checks a stored ledger offline, record by record in log order:
// signatures against the verifier's trust roots, digests, canonical
// encodings, parent links, seals, token use, budgets and refusals.
type Verifier struct {
	state  *authority.State
	counts map[string]int
	total  int
}

// NewVerifier returns a verifier that trusts exactly trust.
func NewVerifier(trust *authority.Trust) *Verifier {
	return &Verifier{state: authority.New(trust), counts: map[string]int{}}
}

// Next checks the record stored at seq. A record stored twice, or one the
// ledger would refuse, is a problem: a refused record is stored only inside
// its signed refusal.
func (v *Verifier) Next(seq uint64, payload []byte) *Problem {
	d := v.state.Admit(payload)
	p := &Problem{Seq: seq, Code: d.Code, Detail: d.Detail}
	if d.Record != nil {
		p.Digest, p.Kind, p.RunID = d.Record.Digest, record.KindName(d.Record.Kind), d.Record.Record.GetRunId()
	}
	switch d.Outcome {
	case authority.Accepted:
		v.counts[p.Kind]++
		v.total++
		return nil
	case authority.Duplicate:
		p.Code, p.Detail = "duplicate", "the record is stored twice (or repeats a consumed token's result)"
	}
	return p
}

// Corrupt reports a record the log itself could not read or whose hash chain
// broke at seq.
func (v *Verifier) Corrupt(seq uint64, err error) *Problem {
	return &Problem{Seq: seq, Code: "chain_broken", Detail: err.Error()}
}

// Finish runs the checks that need the whole ledger: budget conservation of
// every run.
func (v *Verifier) Finish() *Problem {
	for _, id := range v.state.RunIDs() {
		if err := v.state.Run(id).Pool.CheckIfSealed(); err != nil {
			return &Problem{RunID: id, Code: "budget_not_conserved", Detail: err.Error()}
		}
	}
	return nil
}

// Total is the number of records verified; Counts splits it by kind.
func (v *Verifier) Total() int { return v.total }

// Counts returns the verified records per kind.
func (v *Verifier) Counts() map[string]int {
	out := make(map[string]int, len(v.counts))
	for k, n := range v.counts {
		out[k] = n
	}
	return out
}

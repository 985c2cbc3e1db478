package eval

import (
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
)

// Kinds of a dataset's tests.
const (
	FailToPass = "FAIL_TO_PASS"
	PassToPass = "PASS_TO_PASS"
)

// Test is one of an instance's tests and the claim that checks it.
type Test struct {
	// Name is the test as the dataset names it; Kind FailToPass or
	// PassToPass.
	Name string `json:"test"`
	Kind string `json:"kind"`
	// Claim is the claim the gate checks it by, as requested (a bare
	// claim resolves in pre-flight; see Result); "" when it maps to none.
	Claim string `json:"claim,omitempty"`
	// Note says how an unusual name was mapped, or why it maps to no
	// claim.
	Note string `json:"note,omitempty"`
}

// Tests maps an instance's FAIL_TO_PASS and PASS_TO_PASS tests to claims,
// in the dataset's order (FAIL_TO_PASS first):
//
//   - a pytest node id with its file (tests/test_x.py::test_y) is
//     pytest:ID; one without (TestK::test_m, test_y) is the bare pytest:ID;
//   - a Go test name (TestX, TestX/sub) is the bare go:NAME, which
//     pre-flight resolves to every package declaring it; a subtest whose
//     name the claim syntax cannot hold (spaces, brackets, regular
//     expression characters) is checked by its top-level test;
//   - a name starting with "test" in a Python repository is a bare pytest
//     id;
//   - anything else (another runner's ids, package paths) maps to no claim:
//     the gate cannot check it, and it counts as not passed.
func Tests(inst Instance) []Test {
	var out []Test
	for _, list := range []struct {
		kind  string
		names []string
	}{{FailToPass, inst.FailToPass}, {PassToPass, inst.PassToPass}} {
		for _, n := range list.names {
			claim, note := ClaimFor(n, inst.Language)
			out = append(out, Test{Name: n, Kind: list.kind, Claim: claim, Note: note})
		}
	}
	return out
}

// ClaimFor maps one test name to the claim that checks it (see Tests);
// note says how, when the mapping is not the name itself, or why there is
// no claim.
func ClaimFor(name, language string) (claim, note string) {
	python := language == "python" || language == "py"
	if file, _, ok := strings.Cut(name, "::"); ok {
		c := "pytest:" + name
		if criteria.ValidateRequestClaim(c) == nil {
			return c, ""
		}
		if strings.HasSuffix(file, ".py") {
			return "", "a pytest node id the claim syntax cannot hold"
		}
		return "", "neither a pytest node id nor a Go test name"
	}
	if strings.HasPrefix(name, "Test") && !python {
		c := "go:" + name
		if criteria.ValidateRequestClaim(c) == nil {
			return c, ""
		}
		top, _, sub := strings.Cut(name, "/")
		if c := "go:" + top; sub && criteria.ValidateRequestClaim(c) == nil {
			return c, "checked by its top-level test " + top + ": the claim syntax cannot hold the subtest's name"
		}
		return "", "a Go test name the claim syntax cannot hold"
	}
	if strings.HasPrefix(name, "test") || python {
		if c := "pytest:" + name; criteria.ValidateRequestClaim(c) == nil && criteria.IsBareClaim(c) {
			return c, ""
		}
	}
	return "", "neither a Go test name nor a pytest node id: the gate cannot run it"
}

package criteria

import (
	"strings"
	"testing"
)

func valid() *Criteria {
	c := &Criteria{
		RunID:              "run-1",
		Baseline:           strings.Repeat("a", 40),
		PatchDigest:        strings.Repeat("b", 64),
		Claims:             []string{"go:./calc:TestB", "go:./calc:TestA", "go:./calc:TestA"},
		CoverageFloor:      DefaultCoverageFloor,
		StrengthFloor:      DefaultStrengthFloor,
		StrengthConfidence: DefaultStrengthConfidence,
		MutationMax:        DefaultMutationMax,
		DeadlineUnixMilli:  1_800_000_000_000,
	}
	c.ApplyDefaults()
	return c
}

func TestSealParseRoundTrip(t *testing.T) {
	s, err := Seal(valid())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Criteria.Claims, ","); got != "go:./calc:TestA,go:./calc:TestB" {
		t.Fatalf("claims not sorted and unique: %s", got)
	}
	p, err := Parse(s.Canonical)
	if err != nil {
		t.Fatal(err)
	}
	if p.Digest != s.Digest {
		t.Fatal("digest changed through parse")
	}
	// Claim order does not change the digest.
	c := valid()
	c.Claims = []string{"go:./calc:TestA", "go:./calc:TestB"}
	s2, _ := Seal(c)
	if s2.Digest != s.Digest {
		t.Fatal("claim order changed the digest")
	}
	// An explicit 0 floor is a different, visible criterion.
	c.StrengthFloor = 0
	s3, _ := Seal(c)
	if s3.Digest == s.Digest || !strings.Contains(string(s3.Canonical), `"strength_floor":0`) {
		t.Fatal("a floor switched off is not recorded")
	}
}

func TestParseRefuses(t *testing.T) {
	s, _ := Seal(valid())
	canon := string(s.Canonical)
	for name, in := range map[string]string{
		"unknown field":   strings.Replace(canon, `{"baseline_commit"`, `{"agent_says":"trust me","baseline_commit"`, 1),
		"not canonical":   strings.Replace(canon, `,"budget"`, `, "budget"`, 1),
		"foreign schema":  strings.Replace(canon, Schema, "other.v9", 1),
		"floor above one": strings.Replace(canon, `"coverage_floor":1`, `"coverage_floor":2`, 1),
		"trailing data":   canon + "{}",
	} {
		if in == canon && name != "trailing data" {
			t.Fatalf("%s: replacement did not apply", name)
		}
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestValidateClaim(t *testing.T) {
	good := []string{"go:./calc:TestAdd", "go:.:TestX", "pytest:tests/test_x.py::test_y[1-2]", "cmd:lint",
		"pytest:tests/test_x.py::TestK::test_m", "pytest:tests/test_x.py::test_p[a b]", "cmd:unit-tests_2.x",
		"pytest:tests/test_ü.py::test_ü"}
	bad := []string{"", "go:", "go:calc:TestAdd", "go:./calc:Add", "go:./calc:Test.*", "go:./../x:TestA",
		"pytest:/abs/test_x.py::t", "pytest:tests/test_x.py", "pytest:../x.py::t", "cmd:", "cmd: x", "rust:foo",
		// Newlines and control characters anywhere.
		"go:./calc:TestAdd\n", "go:./calc\n:TestAdd", "pytest:tests/test_x.py::test_y\nFAKE PASS", "cmd:lint\r",
		"pytest:tests/test_x.py::test_\x00y", "pytest:tests/test_x.py::test_\x1b[31m", "go:./calc:TestAdd\u2028",
		"pytest:tests/test_x.py::t\xff",
		// Command labels are one word.
		"cmd:unit tests", "cmd:a b", "cmd:lint ", "cmd:-x", "cmd:.hidden", "cmd:a/b", "cmd:" + strings.Repeat("a", 65),
		// Empty pytest names.
		"pytest:tests/test_x.py::", "pytest:tests/test_x.py:: ", "pytest:tests/test_x.py::TestK::",
		"pytest:tests/test_x.py::::test_y", "pytest:tests/test_x.py::-k", "pytest:tests/test_x.py:: test_y"}
	for _, c := range good {
		if err := ValidateClaim(c); err != nil {
			t.Errorf("%q: %v", c, err)
		}
	}
	for _, c := range bad {
		if err := ValidateClaim(c); err == nil {
			t.Errorf("%q accepted", c)
		}
	}
}

func TestValidateNamesEveryProblem(t *testing.T) {
	c := valid()
	c.Baseline = "main"
	c.StrengthConfidence = 1
	c.Claims = nil
	err := c.Validate()
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"baseline_commit", "strength_confidence", "no claims"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// FuzzParse: sealed criteria come from the ledger, i.e. from outside. No
// input may panic, and whatever parses is its own canonical form.
func FuzzParse(f *testing.F) {
	s, _ := Seal(valid())
	f.Add(s.Canonical)
	if s, err := Seal(full()); err == nil {
		f.Add(s.Canonical)
	}
	f.Add([]byte(doctorCriteria))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := Parse(in)
		if err != nil {
			return
		}
		if string(p.Canonical) != string(in) {
			t.Fatalf("parsed criteria are not their own canonical form")
		}
		if err := p.Criteria.Validate(); err != nil {
			t.Fatalf("parsed criteria do not validate: %v", err)
		}
	})
}

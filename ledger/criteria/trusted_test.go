package criteria

import (
	"strings"
	"testing"
)

func TestTrustedTestsAndBareClaimsSeal(t *testing.T) {
	c := valid()
	c.TrustedTests = &TrustedTests{PatchDigest: strings.Repeat("c", 64), Paths: []string{"b_test.go", "a_test.go"}, Discarded: []string{"b_test.go"}}
	c.BareClaims = map[string][]string{"go:TestA": {"go:./calc:TestA"}, "go:TestGone": {}}
	c.BaselinePasses = []string{"go:./calc:TestB", "go:./calc:TestA"}
	s, err := Seal(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Criteria.TrustedTests.Paths, ","); got != "a_test.go,b_test.go" {
		t.Fatalf("paths not sorted: %s", got)
	}
	p, err := Parse(s.Canonical)
	if err != nil || p.Digest != s.Digest {
		t.Fatalf("round trip: %v", err)
	}
	if !strings.Contains(string(s.Canonical), `"trusted_tests":{"discarded":["b_test.go"],"patch_digest":"`) ||
		!strings.Contains(string(s.Canonical), `"bare_claims":{"go:TestA":["go:./calc:TestA"],"go:TestGone":[]}`) ||
		!strings.Contains(string(s.Canonical), `"baseline_passes":["go:./calc:TestA","go:./calc:TestB"]`) {
		t.Fatalf("trusted tests or bare claims not sealed: %s", s.Canonical)
	}
	// Without them nothing changes: criteria sealed before stay the same.
	plain, _ := Seal(valid())
	if strings.Contains(string(plain.Canonical), "trusted_tests") || strings.Contains(string(plain.Canonical), "bare_claims") || strings.Contains(string(plain.Canonical), "baseline_passes") {
		t.Fatalf("empty fields sealed: %s", plain.Canonical)
	}
}

func TestTrustedTestsAndBareClaimsRefused(t *testing.T) {
	digest := strings.Repeat("c", 64)
	for name, mod := range map[string]func(c *Criteria){
		"both": func(c *Criteria) {
			c.TrustedTests = &TrustedTests{Commit: strings.Repeat("a", 40), PatchDigest: digest, Paths: []string{"a_test.go"}}
		},
		"neither":      func(c *Criteria) { c.TrustedTests = &TrustedTests{Paths: []string{"a_test.go"}} },
		"short commit": func(c *Criteria) { c.TrustedTests = &TrustedTests{Commit: "abc", Paths: []string{"a_test.go"}} },
		"no paths":     func(c *Criteria) { c.TrustedTests = &TrustedTests{PatchDigest: digest} },
		"escaping path": func(c *Criteria) {
			c.TrustedTests = &TrustedTests{PatchDigest: digest, Paths: []string{"../a_test.go"}}
		},
		"absolute path": func(c *Criteria) { c.TrustedTests = &TrustedTests{PatchDigest: digest, Paths: []string{"/a_test.go"}} },
		"discarded outside": func(c *Criteria) {
			c.TrustedTests = &TrustedTests{PatchDigest: digest, Paths: []string{"a_test.go"}, Discarded: []string{"b.go"}}
		},
		"bare not bare":    func(c *Criteria) { c.BareClaims = map[string][]string{"go:./calc:TestA": {"go:./calc:TestA"}} },
		"baseline passes":  func(c *Criteria) { c.BaselinePasses = []string{"go:./other:TestA"} },
		"bare to no claim": func(c *Criteria) { c.BareClaims = map[string][]string{"go:TestA": {"go:./other:TestA"}} },
	} {
		c := valid()
		mod(c)
		if _, err := Seal(c); err == nil {
			t.Errorf("%s: sealed", name)
		}
	}
}

func TestRequestClaims(t *testing.T) {
	for claim, bare := range map[string]bool{
		"go:TestLoad":                  true,
		"go:TestLoad/sub_case":         true,
		"pytest:test_foo":              true,
		"pytest:TestK::test_m":         true,
		"pytest:test_p[even]":          true,
		"pytest:test_p[a b/c.py]":      true,
		"go:./pkg:TestLoad":            false,
		"pytest:tests/test_x.py::test": false,
		"pytest:test_x.py::test":       false,
		"cmd:unit":                     false,
	} {
		if IsBareClaim(claim) != bare {
			t.Errorf("IsBareClaim(%q) = %v", claim, !bare)
		}
		if err := ValidateRequestClaim(claim); err != nil {
			t.Errorf("ValidateRequestClaim(%q): %v", claim, err)
		}
		if bare && ValidateClaim(claim) == nil {
			t.Errorf("a bare claim %q passes as sealed", claim)
		}
	}
	for _, claim := range []string{"go:Load", "go:Test(.*)", "go:", "pytest:", "pytest:1test", "pytest:test-x", "pytest:test_p[open", "pytest:a::", "pytest:tests/x::test_y", "py:test_x"} {
		if err := ValidateRequestClaim(claim); err == nil {
			t.Errorf("ValidateRequestClaim(%q) accepted", claim)
		}
	}
}

package gotest

// SuiteKey names a test in SuiteResults: the import path, a dot, and the
// full test name ("example.com/m.TestA/sub").
func SuiteKey(pkg, test string) string {
	return pkg + "." + test
}

// SuiteResults returns every test's result in a collateral (whole-suite)
// run, keyed by SuiteKey, so that a caller can compare a baseline run with a
// patch run test by test: ResultPass on the baseline and anything else on
// the patch is a regression.
//
// A test with contradictory events is ResultInconsistent, never its first or
// last claim. Keys are not guaranteed unique by construction (a package
// "a.b" with test "C" and a package "a" with test "b.C" would meet); if two
// tests ever share a key with different results, the key maps to
// ResultInconsistent. A test with no event at all (its package did not
// build, or the run died before it) has no key: a caller must treat a key
// present on the baseline and absent on the patch as not passed.
func SuiteResults(report *Report) map[string]Result {
	results := make(map[string]Result)
	if report == nil {
		return results
	}
	for _, path := range report.PackagePaths() {
		p := report.Packages[path]
		for _, name := range p.TestNames() {
			key := SuiteKey(path, name)
			result := p.Tests[name].Result()
			if earlier, seen := results[key]; seen && earlier != result {
				result = ResultInconsistent
			}
			results[key] = result
		}
	}
	return results
}

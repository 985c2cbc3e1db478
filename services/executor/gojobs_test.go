package executor

import "testing"

// TestTestTypeError: a test file the compiler rejects is the patch's doing;
// a module, package, checksum or process problem could be the
// environment's, and an error in a non-test file is not a test's build.
func TestTestTypeError(t *testing.T) {
	for cause, want := range map[string]bool{
		"the test build of example.com/jwt failed (EXITED, exit 1): parser_test.go:12:5: undefined: splitToken":                     true,
		"the test build of x failed (EXITED, exit 1): a/b_test.go:3:9: not enough arguments in call to f; a/b_test.go:4:2: x":       true,
		"the test build of x failed (EXITED, exit 1): parser.go:12:5: undefined: splitToken":                                        false,
		"the test build of x failed (EXITED, exit 1): x_test.go:5:2: no required module provides package example.com/m":             false,
		"the test build of x failed (EXITED, exit 1): x_test.go:5:2: could not import example.com/m (open : no such file)":          false,
		"the test build of x failed (SIGNALED, exit -1): signal: killed":                                                            false,
		"the test build of x failed (EXITED, exit 1): go: updates to go.mod needed; x_test.go:1:1: expected 'package', found 'EOF'": false,
		"": false,
	} {
		if got := testTypeError(cause); got != want {
			t.Errorf("testTypeError(%q) = %v, want %v", cause, got, want)
		}
	}
}

package mutant

import "testing"

// skipInRaceStep skips t under -short, which is how CI's race step runs
// every package (go test -race -short ./...). This package starts no
// goroutine, so the race detector has nothing to watch in a test that
// builds, runs or type-checks whole packages; it only makes it several
// times slower. The README's go test ./... runs every such test.
func skipInRaceStep(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds or type-checks whole packages, where this package starts no goroutine")
	}
}

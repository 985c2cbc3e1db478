package main

import "testing"

const switchAttackTest = "package count\n\nimport \"testing\"\n\n"

// sizeTest checks Size(v, true) only: no test passes flag=false.
const sizeTest = switchAttackTest + "func TestSize(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tv    int\n\t\twant string\n\t}{\n" +
	"\t\t{6, \"big\"}, {20, \"big\"}, {100, \"big\"}, {5, \"small\"}, {1, \"small\"}, {0, \"small\"}, {-4, \"small\"},\n" +
	"\t} {\n\t\tif got := Size(c.v, true); got != c.want {\n\t\t\tt.Errorf(\"Size(%d, true) = %q, want %q\", c.v, got, c.want)\n\t\t}\n\t}\n}\n"

// size is Size with the switch header and the case's bound given.
func size(header, bound string) string {
	return "package count\n\n// Size says whether v is big, as flag asks.\nfunc Size(v int, flag bool) string {\n\t" + header +
		"\n\tcase v > " + bound + ":\n\t\treturn \"big\"\n\tdefault:\n\t\treturn \"small\"\n\t}\n}\n"
}

// TestVerifySwitchHeaderAttackTagDropped: the fix doubles v before Size compares it,
// writing the doubling as an init of the switch in place of its tag:
// `switch flag {` → `switch v := v * 2; {`. The init is judged (its
// mutants are killed), but the tag is gone: the cases are now conditions,
// no longer values compared to flag. The header of a switch without a tag
// is exempt, and every byte written lies in the init's unit, so the
// tag's removal was judged by nothing (older than stop 46's rules): now
// the header is judged as rewritten (statements.go tagGone). Size(1,
// false) was "big" and is now "small". No test passes flag=false.
func TestVerifySwitchHeaderAttackTagDropped(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, size("switch flag {", "10"), sizeTest, size("switch v := v * 2; {", "10"), "go:./count:TestSize", "Size(1, false) was big and is small: the tag's removal is judged by nothing")
}

// TestVerifySwitchHeaderAttackChunkSize: the fix makes Chunks round up, and also
// changes perChunk from 1000 to 1024, which no test pins (every tested n
// is below 1000). perChunk is untyped and used only as int64, so it is
// switched as an int64 variable; its mutant 0 then panics on
// division at run time (a constant 0 would not compile), and its
// negation flips the sign: both die to any test that runs Chunks, and the
// data line counts as judged. Chunks(1010) was 2 and is now 1.
func TestVerifySwitchHeaderAttackChunkSize(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	chunks := func(size, ret string) string {
		return "package count\n\n// perChunk is the size of a chunk, in bytes.\nconst perChunk = " + size +
			"\n\n// Chunks returns how many chunks hold n bytes.\nfunc Chunks(n int64) int64 {\n\tif n <= 0 {\n\t\treturn 0\n\t}\n\treturn " + ret + "\n}\n"
	}
	test := switchAttackTest + "func TestChunks(t *testing.T) {\n\tfor _, c := range []struct{ n, want int64 }{\n" +
		"\t\t{0, 0}, {-3, 0}, {1, 1}, {2, 1}, {5, 1}, {100, 1}, {999, 1}, {500, 1},\n" +
		"\t} {\n\t\tif got := Chunks(c.n); got != c.want {\n\t\t\tt.Errorf(\"Chunks(%d) = %d, want %d\", c.n, got, c.want)\n\t\t}\n\t}\n}\n"
	deadStoreAttack(t, f, chunks("1000", "n / perChunk"), test, chunks("1024", "(n + perChunk - 1) / perChunk"), "go:./count:TestChunks", "Chunks(1010) was 2 and is 1: the chunk size is pinned by no test")
}

// TestVerifySwitchHeaderAttackTagCutToSemicolon: as TagDropped, but the tag is
// cut with only a semicolon written in its place (`switch flag {` →
// `switch ; {`), and the fix proper moves the case's bound (v > 10 →
// v > 5, judged by its mutants). Size(1, false) was "big", now "small".
func TestVerifySwitchHeaderAttackTagCutToSemicolon(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	deadStoreAttack(t, f, size("switch flag {", "10"), sizeTest, size("switch ; {", "5"), "go:./count:TestSize", "Size(1, false) was big and is small: the tag's cut is judged by nothing")
}

// TestVerifySwitchHeaderAttackIfToTaglessSwitch: the fix makes Size look at v, and
// rewrites `if flag {` as `switch {` with `case v > 5:`. The case's value
// is judged (its mutants die), but the if's condition flag is gone: the
// tokens written in its place, switch and {, are the keyword and brace of
// a switch without a tag, which stop 46 first exempted from "rewritten in
// place" (the exemption is gone: tagGone). Size(20, false) was "small"
// and is now "big"; no test passes flag=false.
func TestVerifySwitchHeaderAttackIfToTaglessSwitch(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const head = "package count\n\n// Size says whether v is big, as flag asks.\nfunc Size(v int, flag bool) string {\n"
	base := head + "\tif flag {\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n}\n"
	patch := head + "\tswitch {\n\tcase v > 5:\n\t\treturn \"big\"\n\t}\n\treturn \"small\"\n}\n"
	deadStoreAttack(t, f, base, sizeTest, patch, "go:./count:TestSize", "Size(20, false) was small and is big: the if's condition, replaced by a tagless switch's keyword, is judged by nothing")
}

package calc

import "example.com/m/dep"

// Hidden compares values of types this package cannot name, and of a type
// declared in the function.
func Hidden(x int) string {
	type score int
	s := score(x) * 2
	low := dep.Level(x) < 3
	off := !dep.Flagged(x)
	if s+1 > 10 {
		return "high"
	}
	if low && bool(off) {
		return "low-off"
	}
	return "other"
}

package calc

import "strings"

// Limit is a constant: constant declarations have no sites.
const Limit = 3 + 4

var table [2 * Limit]int

var base = 10 * scale()

func scale() int { return 2 }

// Clamp limits x to [lo, hi].
func Clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x >= hi {
		return hi
	} else if x == hi-1 {
		return x + 100
	}
	return x
}

// Xor reports whether exactly one of a and b holds.
func Xor(a, b bool) bool {
	return a && !b || b && !a
}

// Sum adds the non-negative numbers of xs up to the first above 100.
func Sum(xs []int) int {
	total := 0
	for _, x := range xs {
		if x < 0 {
			continue
		}
		if x > 100 {
			break
		}
		total += x
	}
	return total
}

// Halvings counts how often n can be halved before it reaches 1.
func Halvings(n int) int {
	c := 0
	for i := n; i > 1 && c < 64; i /= 2 {
		c++
	}
	return c
}

// Find returns as many x's as the index of k in 0..9.
func Find(k int) string {
	steps := 0 // guard
	for i := 0; i < 10; i++ {
		if steps++; steps > 40 { // guard
			return "runaway" // guard
		} // guard
		switch {
		case i == k:
			break // leaves the switch: no site
		}
		if i == k {
			return strings.Repeat("x", i)
		}
	}
	return ""
}

// Flag is a named bool type.
type Flag bool

// Toggle flips f when on; otherwise it returns f && false.
func Toggle(f Flag, on bool) Flag {
	if on == true {
		return !f
	}
	return f && false
}

// Poly is x*x + 3*x - 1: several sites nested in one expression.
func Poly(x int) int {
	return x*x + 3*x - 1
}

// Within reports lo <= x < hi.
func Within(x, lo, hi int) bool {
	return lo <= x && x < hi
}

// Greet concatenates strings: + on strings is not arithmetic.
func Greet(name string) string {
	return "hi " + name + "!"
}

// Bump increments x; the pragma comments change nothing.
func Bump(x int) int {
	// go-mutesting:disable
	x++ //nolint // mutator:disable // sealgate:ignore
	return x
}

// Drop returns len(xs) - 1.
func Drop(xs []int) int {
	n := len(xs)
	n--
	return n
}

// Spend subtracts cost from budget and triples the rest.
func Spend(budget, cost int) int {
	budget -= cost
	budget *= 3
	return budget
}

// Record appends s to log.
func Record(log *[]string, s string) {
	*log = append(*log, s)
}

// Notes records a few notes.
func Notes() []string {
	var log []string
	Record(&log, "a")
	n := len(log) + 1
	Record(&log, strings.Repeat("b", n))
	return log
}

// Window returns the first, the last and the second element of xs.
func Window(xs []int) []int {
	out := make([]int, 0, 3)
	out = append(out, xs[0], xs[len(xs)-1])
	return append(out, xs[1:2]...)
}

// Shifted is 1 << k: shift operands are not int constants.
func Shifted(k uint) int {
	return 1 << k
}

// Kind classifies k: a case label changes like any int constant, even to
// the value of another label (a run-time value, not a duplicate constant).
func Kind(k int) string {
	switch k {
	case 2:
		return "two"
	case 3:
		return "three"
	}
	return "other"
}

// Sign classifies k by conditions: a case of a switch without a tag never
// matches, or its condition is negated.
func Sign(k int, isZero func(int) bool) string {
	switch {
	case isZero(k):
		return "zero"
	case k < 0:
		return "negative"
	}
	return "positive"
}

// Parity names k's parity by a boolean tag: the tag is negated (an
// integer tag becomes 0, a string one "").
func Parity(k int, even func(int) bool) string {
	switch even(k) {
	case true:
		return "even"
	}
	return "odd"
}

// Bucket sorts k: a default body never runs (a break before it).
func Bucket(k int) (b string) {
	switch {
	case k > 9:
		b = "large"
	default:
		b = "medium"
	}
	return
}

// Small adds 255 to a byte: 256 does not fit, 254 does.
func Small(b uint8) uint8 {
	return b + 255
}

// Double doubles t's timeout: the product is a time.Duration, which this
// file cannot name; its rewrites must not need to.
func Double(t Timer) int64 {
	return int64(t.Timeout() * 2)
}

// Vowel reports whether r is a vowel: a chain of sites, each nested in the
// next.
func Vowel(r rune, strict bool) bool {
	return r == 'a' || r == 'e' || r == 'i' || r == 'o' || r == 'u' || !strict && r == 'y'
}

// FirstOver returns the index of the first x above limit, or -1: its
// labelled break leaves the loop from inside a switch (dropping the label
// leaves only the switch, and the last x above limit wins).
func FirstOver(xs []int, limit int) (at int) {
	at = -1
loop:
	for i, x := range xs {
		switch {
		case x > limit:
			at = i
			break loop
		}
	}
	return at
}

// Empty returns nils for no values, and the values, the first one's place
// and no error otherwise: its return of nils becomes one of values that
// are not nil (return_nonnil).
func Empty(xs []int) ([]int, *int, error) {
	if len(xs) == 0 {
		return nil, nil, nil
	}
	return xs, &xs[0], nil
}

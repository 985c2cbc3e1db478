package calc

import "time"

// Timer has a timeout.
type Timer struct{ D time.Duration }

// Timeout returns t's timeout.
func (t Timer) Timeout() time.Duration { return t.D }

// Deadline scales d by k and adds a second.
func Deadline(d time.Duration, k int) time.Duration {
	return d*time.Duration(k) + time.Second
}

// Divide divides total by n unless n is 0.
func Divide(total float64, n int) float64 {
	if n != 0 {
		total /= float64(n)
	}
	return total
}

// Mean averages xs.
func Mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Countdown counts down from n to 0 with a post statement that decrements.
func Countdown(n int) []int {
	var out []int
	for i := n; i >= 0 && len(out) < 20; i-- {
		out = append(out, i)
	}
	return out
}

package calc

// This file uses type parameters; the tests that build the fixture in a
// module declaring go < 1.18 replace it by generic_old.go.

// Total sums a generic slice.
func Total[T ~int | ~float64](xs []T) T {
	var s T
	for _, x := range xs {
		s += x // T is a type parameter with numeric types only
		s = s + 0*x
	}
	return s
}

// reportGeneric adds the lines of the generic functions to a report.
func reportGeneric(line func(string, func() interface{})) {
	line("Total", func() interface{} { return Total([]int{1, 2, 3}) })
	line("Totalf", func() interface{} { return Total([]float64{0.5, 0.25}) })
}

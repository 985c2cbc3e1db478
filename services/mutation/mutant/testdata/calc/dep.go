package calc

import "example.com/m/dep"

// Capped reports whether 0 <= x < dep.Limit() as a dep.Flag.
func Capped(x int) dep.Flag {
	return dep.Flag(x < dep.Limit()) && !dep.Flag(x < 0)
}

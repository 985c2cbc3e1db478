package calc

import "example.com/m/dep"

// Capped reports whether 0 <= x < dep.Limit() as a dep.Flag.
func Capped(x int) dep.Flag {
	return dep.Flag(x < dep.Limit()) && !dep.Flag(x < 0)
}

// Role names k's role: a named string constant as a case label, its own
// package's or another's, changes like a literal label.
func Role(k string) string {
	switch k {
	case rootName:
		return "root"
	case dep.Name:
		return "dep"
	}
	return "user"
}

const rootName = "root"

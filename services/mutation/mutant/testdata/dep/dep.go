// Package dep is a second package of the fixture module: the type checker
// finds it only through the module, from the package directory.
package dep

// Limit is a bound.
func Limit() int { return 10 }

// Flag is a named bool type of another package.
type Flag bool

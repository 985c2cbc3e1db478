// Package dep is a second package of the fixture module: the type checker
// finds it only through the module, from the package directory.
package dep

// Limit is a bound.
func Limit() int { return 10 }

// Flag is a named bool type of another package.
type Flag bool

// level is an unexported type: other packages get its values but cannot
// name it.
type level int

// Level returns x as a level.
func Level(x int) level { return level(x) }

// flag is an unexported boolean type.
type flag bool

// Flagged reports x > 0 as a flag.
func Flagged(x int) flag { return x > 0 }

// Name is a string constant another package's case label uses.
const Name = "dep"

// tier is an unexported string type: other packages get its constants
// but cannot name it.
type tier string

// Gold is a tier.
const Gold tier = "gold"

// Tier returns s as a tier.
func Tier(s string) tier { return tier(s) }

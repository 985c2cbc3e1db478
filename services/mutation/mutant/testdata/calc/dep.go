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

// Initial names s's first byte: a rune label changes like an int one.
func Initial(s string) string {
	switch s[0] {
	case 'r':
		return "r"
	case 'd', 'x':
		return "d or x"
	}
	return "other"
}

// grade is a string type of this package.
type grade string

const top grade = "top"

// Grade ranks k by labels of named string types: this package's, a typed
// constant and a literal, picked from a [2]grade; another package's
// unexported one, its typed constant sliced to "".
func Grade(k string) string {
	switch grade(k) {
	case top:
		return "top"
	case "mid":
		return "mid"
	}
	switch dep.Tier(k) {
	case dep.Gold:
		return "gold"
	}
	return "low"
}

// Ready names the case of a select that fires: a case never fires when its
// channel is nil. At most one case is ready for each pair Report passes,
// so the same one fires on every run; the default keeps any mutant from
// waiting.
func Ready(x <-chan int, y chan<- int) string {
	select {
	case <-x:
		return "x"
	case y <- 3:
		return "y"
	default:
		return "none"
	}
}

package calc

import (
	"fmt"
	"strings"
	"time"
)

// Report runs every function on fixed inputs and prints the results, one per
// line; a panic is printed, not propagated.
func Report() string {
	var b strings.Builder
	line := func(name string, f func() interface{}) {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(&b, "%s: panic\n", name)
			}
		}()
		fmt.Fprintf(&b, "%s: %v\n", name, f())
	}
	line("base", func() interface{} { return base })
	line("table", func() interface{} { return len(table) })
	for _, x := range []int{-1, 0, 1, 2, 3, 8, 9, 10, 11} {
		line(fmt.Sprint("Clamp ", x), func() interface{} { return Clamp(x, 0, 10) })
		line(fmt.Sprint("Poly ", x), func() interface{} { return Poly(x) })
		line(fmt.Sprint("Within ", x), func() interface{} { return Within(x, 0, 10) })
		line(fmt.Sprint("Find ", x), func() interface{} { return Find(x) })
		line(fmt.Sprint("Halvings ", x), func() interface{} { return Halvings(x) })
		line(fmt.Sprint("Kind ", x), func() interface{} { return Kind(x) })
		line(fmt.Sprint("Sign ", x), func() interface{} { return Sign(x, func(n int) bool { return n == 0 }) })
		line(fmt.Sprint("Parity ", x), func() interface{} { return Parity(x, func(n int) bool { return n%2 == 0 }) })
		line(fmt.Sprint("Bucket ", x), func() interface{} { return Bucket(x) })
		line(fmt.Sprint("Spend ", x), func() interface{} { return Spend(10, x) })
		line(fmt.Sprint("Divide ", x), func() interface{} { return Divide(12, x) })
		line(fmt.Sprint("Countdown ", x), func() interface{} { return Countdown(x) })
		line(fmt.Sprint("Bump ", x), func() interface{} { return Bump(x) })
		line(fmt.Sprint("Capped ", x), func() interface{} { return Capped(x) })
		line(fmt.Sprint("Hidden ", x), func() interface{} { return Hidden(x) })
		line(fmt.Sprint("FirstOver ", x), func() interface{} { return FirstOver([]int{1, 5, 9, 12}, x) })
		line(fmt.Sprint("Empty ", x), func() interface{} {
			v, at, err := Empty(make([]int, x%3))
			return fmt.Sprint(v == nil, len(v), at == nil, err)
		})
	}
	for _, a := range []bool{false, true} {
		for _, c := range []bool{false, true} {
			line(fmt.Sprint("Xor ", a, c), func() interface{} { return Xor(a, c) })
			line(fmt.Sprint("Toggle ", a, c), func() interface{} { return Toggle(Flag(a), c) })
		}
	}
	for _, r := range "aeiouyb" {
		line(fmt.Sprintf("Vowel %c", r), func() interface{} { return fmt.Sprint(Vowel(r, false), Vowel(r, true)) })
	}
	for _, k := range []string{"root", "dep", "", "sealgate", "x"} {
		line("Role "+k, func() interface{} { return Role(k) })
	}
	for _, ab := range [][2]bool{{true, true}, {false, false}, {false, true}} {
		x, y := make(chan int, 1), make(chan int, 1)
		if ab[0] {
			x <- 1
		}
		if ab[1] {
			y <- 2
		}
		line(fmt.Sprint("Ready ", ab), func() interface{} { return Ready(x, y) })
	}
	for _, k := range []string{"root", "dep", "x", "sealgate", "top", "mid", "gold", ""} {
		line("Initial "+k, func() interface{} { return Initial(k) })
		line("Grade "+k, func() interface{} { return Grade(k) })
	}
	line("Sum", func() interface{} { return Sum([]int{3, -2, 5, 0, 101, 7}) })
	line("Sum100", func() interface{} { return Sum([]int{100, 1}) })
	line("Greet", func() interface{} { return Greet("bob") })
	line("Drop", func() interface{} { return Drop([]int{1, 2, 3}) })
	line("Notes", func() interface{} { return Notes() })
	reportGeneric(line)
	line("Window", func() interface{} { return Window([]int{1, 2, 3, 4}) })
	line("Shifted", func() interface{} { return Shifted(3) })
	line("Small", func() interface{} { return Small(3) })
	line("Double", func() interface{} { return Double(Timer{D: 3 * time.Second}) })
	line("Deadline", func() interface{} { return Deadline(2*time.Second, 3) })
	line("Mean", func() interface{} { return Mean([]float64{1, 2, 4}) })
	return b.String()
}

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
	line := func(name string, f func() any) {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(&b, "%s: panic\n", name)
			}
		}()
		fmt.Fprintf(&b, "%s: %v\n", name, f())
	}
	line("base", func() any { return base })
	line("table", func() any { return len(table) })
	for _, x := range []int{-1, 0, 1, 8, 9, 10, 11} {
		line(fmt.Sprint("Clamp ", x), func() any { return Clamp(x, 0, 10) })
		line(fmt.Sprint("Poly ", x), func() any { return Poly(x) })
		line(fmt.Sprint("Within ", x), func() any { return Within(x, 0, 10) })
		line(fmt.Sprint("Find ", x), func() any { return Find(x) })
		line(fmt.Sprint("Halvings ", x), func() any { return Halvings(x) })
		line(fmt.Sprint("Kind ", x), func() any { return Kind(x) })
		line(fmt.Sprint("Spend ", x), func() any { return Spend(10, x) })
		line(fmt.Sprint("Divide ", x), func() any { return Divide(12, x) })
		line(fmt.Sprint("Countdown ", x), func() any { return Countdown(x) })
		line(fmt.Sprint("Bump ", x), func() any { return Bump(x) })
		line(fmt.Sprint("Capped ", x), func() any { return Capped(x) })
	}
	for _, a := range []bool{false, true} {
		for _, c := range []bool{false, true} {
			line(fmt.Sprint("Xor ", a, c), func() any { return Xor(a, c) })
			line(fmt.Sprint("Toggle ", a, c), func() any { return Toggle(Flag(a), c) })
		}
	}
	for _, r := range "aeiouyb" {
		line(fmt.Sprintf("Vowel %c", r), func() any { return fmt.Sprint(Vowel(r, false), Vowel(r, true)) })
	}
	line("Sum", func() any { return Sum([]int{3, -2, 5, 0, 101, 7}) })
	line("Sum100", func() any { return Sum([]int{100, 1}) })
	line("Greet", func() any { return Greet("bob") })
	line("Drop", func() any { return Drop([]int{1, 2, 3}) })
	line("Notes", func() any { return Notes() })
	line("Total", func() any { return Total([]int{1, 2, 3}) })
	line("Totalf", func() any { return Total([]float64{0.5, 0.25}) })
	line("Window", func() any { return Window([]int{1, 2, 3, 4}) })
	line("Shifted", func() any { return Shifted(3) })
	line("Small", func() any { return Small(3) })
	line("Double", func() any { return Double(Timer{D: 3 * time.Second}) })
	line("Deadline", func() any { return Deadline(2*time.Second, 3) })
	line("Mean", func() any { return Mean([]float64{1, 2, 4}) })
	return b.String()
}

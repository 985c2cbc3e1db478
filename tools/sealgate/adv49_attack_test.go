package main

import "testing"

// The promoted-method attacks of a seventh adversary: a method added to a
// type that a struct of the package embeds changes the struct's method
// set, which no statement of the struct shows.
const (
	moneyHead = "package count\n\nimport (\n\t\"fmt\"\n\t\"strconv\"\n)\n\n// Money is an amount in cents.\ntype Money struct{ Cents int64 }\n\n" +
		"// String prints m in units: 12.34.\nfunc (m Money) String() string { return fmt.Sprintf(\"%d.%02d\", m.Cents/100, m.Cents%100) }\n\n" +
		"// Quoted is m's String, quoted.\nfunc Quoted(m Money) string { return strconv.Quote(m.String()) }\n"
	// moneyMarshal is the fix: Money encodes as its String in JSON.
	moneyMarshal = "\n// MarshalJSON writes m as its String, quoted.\nfunc (m Money) MarshalJSON() ([]byte, error) { return []byte(Quoted(m)), nil }\n"
	moneyTest    = "package count\n\nimport (\n\t\"encoding/json\"\n\t\"testing\"\n)\n\nfunc TestMarshalJSON(t *testing.T) {\n" +
		"\tfor _, c := range []struct {\n\t\tcents int64\n\t\twant  string\n\t}{{1234, `\"12.34\"`}, {5, `\"0.05\"`}, {100, `\"1.00\"`}} {\n" +
		"\t\tif b, err := json.Marshal(Money{c.cents}); err != nil || string(b) != c.want {\n\t\t\tt.Errorf(\"Marshal(%d) = %s, %v; want %s\", c.cents, b, err, c.want)\n\t\t}\n\t}\n}\n"
)

// TestVerifyAdv49AttackMethodPromotedIntoEmbedder: the fix adds
// Money.MarshalJSON, and Invoice embeds Money: json.Marshal(Invoice{…})
// was {"Cents":250,"ID":"A1"} and is now "2.50" — the ID is gone. Every
// mutant of the new method is killed; nothing judged Invoice, which did
// not change. Now GoDeclChanges names the promotion: INCONCLUSIVE.
func TestVerifyAdv49AttackMethodPromotedIntoEmbedder(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const invoice = "\n// Invoice is an amount and its id.\ntype Invoice struct {\n\tMoney\n\tID string\n}\n"
	deadStoreAttack(t, f, moneyHead+invoice, moneyTest, moneyHead+invoice+moneyMarshal, "go:./count:TestMarshalJSON", "json.Marshal(Invoice{…}) lost its ID: MarshalJSON promoted from the embedded Money")
}

// TestVerifyAdv49MethodOnFieldHonest: the honest twin — Invoice holds the
// Money in a named field, so the new method changes only how the amount
// is written: MERGE.
func TestVerifyAdv49MethodOnFieldHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const invoice = "\n// Invoice is an amount and its id.\ntype Invoice struct {\n\tAmount Money\n\tID     string\n}\n"
	adv47Honest(t, f, moneyHead+invoice, moneyTest, moneyHead+invoice+moneyMarshal, "go:./count:TestMarshalJSON", "MERGE")
}

// TestVerifyAdv49AttackMethodMadeAmbiguous: the fix gives Point a String
// method, and Pin embeds Point and Label, which has one: Pin's String is
// now ambiguous, so Pin has none, and Legend prints {(1, 2) "home"}
// instead of "home". Now INCONCLUSIVE.
func TestVerifyAdv49AttackMethodMadeAmbiguous(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	const (
		head = "package count\n\nimport (\n\t\"fmt\"\n\t\"strconv\"\n\t\"strings\"\n)\n\n// Point is a place on the map.\ntype Point struct{ X, Y int }\n\n"
		tail = "\n// Label is a pin's caption.\ntype Label struct{ Text string }\n\n// String quotes the caption.\nfunc (l Label) String() string { return strconv.Quote(l.Text) }\n\n" +
			"// Pin is a labelled point; it prints as its label.\ntype Pin struct {\n\tPoint\n\tLabel\n}\n\n" +
			"// Legend lists the pins' captions, one a line.\nfunc Legend(ps []Pin) string {\n\tvar b strings.Builder\n\tfor _, p := range ps {\n\t\tfmt.Fprintln(&b, p)\n\t}\n\treturn b.String()\n}\n"
		base  = head + "// Format writes p as \"(x, y)\".\nfunc Format(p Point) string {\n\treturn fmt.Sprintf(\"(%d %d)\", p.X, p.Y)\n}\n" + tail
		patch = head + "// Format writes p as \"(x, y)\".\nfunc Format(p Point) string {\n\treturn p.String()\n}\n\n// String writes p as \"(x, y)\".\nfunc (p Point) String() string {\n\treturn fmt.Sprintf(\"(%d, %d)\", p.X, p.Y)\n}\n" + tail
		test  = "package count\n\nimport \"testing\"\n\nfunc TestFormat(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tp    Point\n\t\twant string\n\t}{{Point{1, 2}, \"(1, 2)\"}, {Point{-3, 0}, \"(-3, 0)\"}} {\n\t\tif got := Format(c.p); got != c.want {\n\t\t\tt.Errorf(\"Format(%v) = %q, want %q\", c.p, got, c.want)\n\t\t}\n\t}\n}\n"
	)
	deadStoreAttack(t, f, base, test, patch, "go:./count:TestFormat", "Legend printed each pin's label and now prints {(1, 2) \"home\"}: Pin's String made ambiguous")
}

// The loop-capture attacks: Scaled returns a thunk per element; the
// baseline skips the first (the bug) and its test only has one-element
// inputs.
const (
	scaledHead = "package count\n\n// Scaled returns, for each x of xs, a function that computes x*k when\n// called.\nfunc Scaled(xs []int, k int) []func() int {\n\tvar out []func() int\n"
	scaledBase = scaledHead + "\tfor i := 1; i < len(xs); i++ {\n\t\tout = append(out, scale(xs[i], k))\n\t}\n\treturn out\n}\n\nfunc scale(x, k int) func() int {\n\treturn func() int { return x * k }\n}\n"
	scaledTest = "package count\n\nimport \"testing\"\n\nfunc TestScaledOne(t *testing.T) {\n\tfor _, c := range []struct{ x, k, want int }{{3, 2, 6}, {-4, 3, -12}, {5, 1, 5}, {7, 0, 0}} {\n" +
		"\t\tif got := Scaled([]int{c.x}, c.k); len(got) != 1 || got[0]() != c.want {\n\t\t\tt.Errorf(\"Scaled([%d], %d): %d funcs\", c.x, c.k, len(got))\n\t\t}\n\t}\n}\n"
)

// TestVerifyAdv49AttackLoopVariableAssigned: the fix starts at the first
// element, and the thunks close over x, which `for _, x = range` assigns
// (one variable for every iteration, in every Go version): Scaled([1, 2,
// 3], 2) gives 6, 6, 6. Every mutant of the changed lines is killed by
// the one-element test. Now GoLoopCaptures names the capture:
// INCONCLUSIVE.
func TestVerifyAdv49AttackLoopVariableAssigned(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := scaledHead + "\tvar x int\n\tfor _, x = range xs {\n\t\tout = append(out, func() int { return x * k })\n\t}\n\treturn out\n}\n"
	deadStoreAttack(t, f, scaledBase, scaledTest, patch, "go:./count:TestScaledOne", "Scaled([1, 2, 3], 2) gives 6, 6, 6: a closure over a variable the range assigns")
}

// TestVerifyAdv49LoopVariableDeclaredHonest: the honest twin declares x in
// the range (one per iteration from go1.22, which the fixture's module
// declares): MERGE.
func TestVerifyAdv49LoopVariableDeclaredHonest(t *testing.T) {
	valueAttacks(t)
	f := newFixture(t)
	patch := scaledHead + "\tfor _, x := range xs {\n\t\tout = append(out, func() int { return x * k })\n\t}\n\treturn out\n}\n"
	adv47Honest(t, f, scaledBase, scaledTest, patch, "go:./count:TestScaledOne", "MERGE")
}

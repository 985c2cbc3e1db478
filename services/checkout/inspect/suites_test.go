package inspect

import (
	"reflect"
	"testing"
)

func TestGoSuites(t *testing.T) {
	const a = `package p

import (
	"testing"

	ts "github.com/stretchr/testify/suite"
)

type A struct{ ts.Suite }
type B struct{ ts.Suite }
type C struct{ ts.Suite }
type D struct{ ts.Suite }

func TestA(t *testing.T) { ts.Run(t, new(A)) }

func TestB(t *testing.T) {
	s := &B{}
	ts.Run(t, s)
	var c = (&C{})
	ts.Run(t, c)
}

// Not recognized: a suite a helper builds, a package-level value.
func TestD(t *testing.T) { ts.Run(t, makeD()) }

var e = new(D)

func TestE(t *testing.T) { ts.Run(t, e) }

// Not a test function: runs nothing the gate counts.
func helper(t *testing.T) { ts.Run(t, new(D)) }
`
	const b = `package p

import "testing"

// Another package's Run, by the same name: not testify's.
func TestF(t *testing.T) { suite.Run(t, new(A)) }
`
	const c = `package p

import (
	"testing"

	"github.com/stretchr/testify/suite"
)

func TestA2(t *testing.T) { suite.Run(t, new(A)) }
`
	got := GoSuites([][]byte{[]byte(a), []byte(b), []byte(c), []byte("package p\n\nfunc (")})
	want := map[string][]string{"A": {"TestA", "TestA2"}, "B": {"TestB"}, "C": {"TestB"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GoSuites = %v, want %v", got, want)
	}
}

func TestGoSuiteMethods(t *testing.T) {
	const src = `package p

func (s *A) TestOne()            {}
func (s A) TestTwo()             {}
func (s *A) TestArgs(n int)      {}
func (s *A) TestResult() error   { return nil }
func (s *A) SetupTest()          {}
func (s *G[T]) TestGeneric()     {}
func TestFunc(t *testing.T)      {}
func (s *B) TestThree()          {}
`
	got, err := GoSuiteMethods([]byte(src))
	want := map[string][]string{"A": {"TestOne", "TestTwo"}, "B": {"TestThree"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("GoSuiteMethods = %v, %v; want %v", got, err, want)
	}
	if _, err := GoSuiteMethods([]byte("package p\n\nfunc (")); err == nil {
		t.Fatal("source that does not parse: no error")
	}
}

func TestGoCheckSuites(t *testing.T) {
	const a = "package p\n\nimport (\n\t\"testing\"\n\n\t. \"gopkg.in/check.v1\"\n)\n\nfunc Test(t *testing.T) { TestingT(t) }\n\ntype S struct{}\n\nvar _ = Suite(&S{})\n"
	const b = "package p\n\nimport (\n\t\"testing\"\n\n\tgc \"github.com/go-check/check\"\n)\n\nfunc TestMore(t *testing.T) {\n\tgc.TestingT(t)\n}\n\ntype T struct{ n int }\n\nfunc init() { gc.Suite(new(T)) }\n\nvar (\n\t_ = gc.Suite(&U{n: 1})\n\tx = 1\n)\n"
	// Not gocheck's: another package's TestingT and Suite.
	const c = "package p\n\nimport (\n\t\"testing\"\n\n\t\"example.com/check\"\n)\n\nfunc TestOther(t *testing.T) { check.TestingT(t) }\n\nvar _ = check.Suite(&V{})\n"
	runners, suites, zero := GoCheckSuites([][]byte{[]byte(a), []byte(b), []byte(c), []byte("package p\n\nfunc (")})
	if want := []string{"Test", "TestMore"}; !reflect.DeepEqual(runners, want) {
		t.Errorf("runners %v, want %v", runners, want)
	}
	if want := []string{"S", "T", "U"}; !reflect.DeepEqual(suites, want) {
		t.Errorf("suites %v, want %v", suites, want)
	}
	// U is registered with a field set: a wrapper of it would start from
	// another value.
	if want := []string{"S", "T"}; !reflect.DeepEqual(zero, want) {
		t.Errorf("zero-valued suites %v, want %v", zero, want)
	}
}

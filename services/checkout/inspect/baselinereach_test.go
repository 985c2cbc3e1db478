package inspect

import "testing"

const reachBase = `package calc

import "testing"

var cases = []struct{ in, want float64 }{{1, 1}}

func check(t *testing.T, got, want float64) {
	if got != want {
		t.Fatal(got)
	}
}

func TestHalf(t *testing.T) {
	for _, c := range cases {
		check(t, c.in, c.want)
	}
}
`

func TestGoBaselineReach(t *testing.T) {
	base := Version{Path: "calc/half_test.go", Base: []byte(reachBase), Patch: []byte(reachBase)}
	for _, tc := range []struct {
		name  string
		files []Version
		want  []string
	}{
		{
			name: "attack: an initializer rewrites the baseline's table",
			files: []Version{base, {Path: "calc/zz_test.go", Changed: true, Patch: []byte(
				"package calc\n\nvar _ = func() bool {\n\tcases[0].want = 2\n\treturn true\n}()\n")}},
			want: []string{"calc/zz_test.go:4: the initializer of var _, which runs before the tests, uses cases"},
		},
		{
			name: "attack: init through a helper of another new file",
			files: []Version{base,
				{Path: "calc/zz_test.go", Changed: true, Patch: []byte("package calc\n\nfunc init() { loosen() }\n")},
				{Path: "calc/helpers_test.go", Changed: true, Patch: []byte("package calc\n\nfunc loosen() { cases = nil }\n")}},
			want: []string{"calc/zz_test.go:3: init through loosen, which runs before the tests, uses cases"},
		},
		{
			name:  "attack: a baseline file gains an init rewriting its own table",
			files: []Version{{Path: "calc/half_test.go", Base: []byte(reachBase), Patch: []byte(reachBase + "\nfunc init() { cases[0].in = 2 }\n"), Changed: true}},
			want:  []string{"calc/half_test.go:19: init, which runs before the tests, uses cases"},
		},
		{
			name: "honest: TestMain with a local that shadows a baseline name",
			files: []Version{base, {Path: "calc/main_test.go", Changed: true, Patch: []byte(
				"package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar server = start()\n\nfunc start() int { return 1 }\n\nfunc TestMain(m *testing.M) {\n\tcases := server\n\t_ = cases\n\tos.Exit(m.Run())\n}\n\nfunc TestServer(t *testing.T) { check(t, 1, 1) }\n")}},
		},
		{
			name: "honest: an external test package has its own names",
			files: []Version{base, {Path: "calc/main_test.go", Changed: true, Patch: []byte(
				"package calc_test\n\nimport \"testing\"\n\nvar cases = setup()\n\nfunc setup() []int { return nil }\n\nfunc TestMain(m *testing.M) { _ = cases; m.Run() }\n")}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var harness []string
			for _, f := range tc.files {
				if f.Changed && f.Path != "calc/helpers_test.go" {
					harness = append(harness, f.Path)
				}
			}
			got := GoBaselineReach(tc.files, harness)
			wantFindings(t, got, tc.want...)
		})
	}
	// A harness file that does not parse cannot be shown to keep away.
	got := GoBaselineReach([]Version{base, {Path: "calc/zz_test.go", Changed: true, Patch: []byte("package calc\n\nfunc init() {")}}, []string{"calc/zz_test.go"})
	wantFindings(t, got, "calc/zz_test.go: does not parse")
}

package inspect

import "testing"

// demoTree is the demo module's files, for GoProbesIn.
func demoTree(p string) bool {
	switch p {
	case "go.mod", "README.md", "calc", "calc/calc.go", "calc/calc_test.go", "calc/median.go", "calc/median_test.go", "calc/allow.txt":
		return true
	}
	return false
}

// medianWith is the demo's Median with the fix behind guard, and decls.
func medianWith(imports, guard, decls string) string {
	return "package calc\n\nimport (\n" + imports + ")\n\nfunc Median(s []float64) float64 {\n\tif len(s)%2 == 0 && " + guard +
		" {\n\t\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n\t}\n\treturn s[len(s)/2]\n}\n" + decls
}

// TestGoProbesInAttacks: Volkswagen guards the probe list did not name —
// the package's own files in the working directory, the clock against a
// fixed date, the value of HOME or USER — are found in whatever form the
// adversary wrote them.
func TestGoProbesInAttacks(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		want        []string
	}{
		{"its own source file", medianWith("\t\"os\"\n", "local()", "\nfunc local() bool { _, err := os.Stat(\"median.go\"); return err == nil }\n"),
			[]string{`calc/median.go:14: names "median.go", the tree's calc/median.go`}},
		{"go.mod above it, in pieces", medianWith("\t\"os\"\n", "mod()", "\nconst up = \"../\"\n\nfunc mod() bool { _, err := os.Stat(up + \"go.mod\"); return err == nil }\n"),
			[]string{`calc/median.go:16: names "../go.mod", the tree's go.mod`}},
		{"go.mod above it, joined", medianWith("\t\"os\"\n\t\"path/filepath\"\n", "mod()", "\nfunc mod() bool { _, err := os.Stat(filepath.Join(\"..\", \"go.mod\")); return err == nil }\n"),
			[]string{`names "../go.mod", the tree's go.mod`}},
		{"a data file beside it", medianWith("\t\"os\"\n", "data()", "\nfunc data() bool { _, err := os.ReadFile(\"./allow.txt\"); return err == nil }\n"),
			[]string{`names "./allow.txt", the tree's calc/allow.txt`}},
		{"the year", medianWith("\t\"time\"\n", "time.Now().Year() < 2027", ""),
			[]string{"calc/median.go:8: compares the clock's reading"}},
		{"the year through a variable", medianWith("\t\"time\"\n", "early()", "\nfunc early() bool {\n\ty := time.Now().UTC().Year()\n\treturn y < 2027\n}\n"),
			[]string{"calc/median.go:16: compares the clock's reading"}},
		{"the year against a named constant", medianWith("\t\"time\"\n", "time.Now().Year() < cutover", "\nconst cutover = 2027\n"),
			[]string{"calc/median.go:8: compares the clock's reading"}},
		{"a switch on the month", medianWith("\t\"time\"\n", "season()", "\nfunc season() bool {\n\tswitch time.Now().Month() {\n\tcase time.December:\n\t\treturn false\n\t}\n\treturn true\n}\n"),
			[]string{"calc/median.go:15: switches on the clock's reading"}},
		{"before a fixed instant", medianWith("\t\"time\"\n", "time.Now().Before(cutover)", "\nvar cutover = time.Date(2027, time.January, 1, 0, 0, 0, 0, time.UTC)\n"),
			[]string{"calc/median.go:8: compares the clock with a fixed instant (Before)"}},
		{"after a fixed instant, the other way round", medianWith("\t\"time\"\n", "time.Unix(1800000000, 0).After(time.Now())", ""),
			[]string{"compares the clock with a fixed instant (After)"}},
		{"until a fixed instant", medianWith("\t\"time\"\n", "time.Until(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) > 0", ""),
			[]string{"measures the clock against a fixed instant (time.Until)"}},
		{"an uptime bomb", medianWith("\t\"time\"\n", "time.Since(started) < time.Hour", "\nvar started = time.Now()\n"),
			[]string{"calc/median.go:8: compares how long the process has run"}},
		{"HOME asked", medianWith("\t\"os\"\n\t\"strings\"\n", "strings.HasPrefix(os.Getenv(\"HOME\"), \"/tmp\")", ""),
			[]string{"calc/median.go:9: asks strings.HasPrefix about the value of HOME"}},
		{"HOME through a variable", medianWith("\t\"os\"\n", "home()", "\nfunc home() bool {\n\th, _ := os.UserHomeDir()\n\treturn h != \"/home/ci\"\n}\n"),
			[]string{"calc/median.go:16: compares the value of HOME"}},
		{"USER unset", medianWith("\t\"os\"\n", "os.Getenv(\"USER\") == \"\"", ""),
			[]string{"calc/median.go:8: compares the value of USER"}},
		{"the gate's mount point", medianWith("\t\"os\"\n", "mounted()", "\nfunc mounted() bool { _, err := os.Stat(\"/src/go.mod\"); return err == nil }\n"),
			[]string{`names "/src/go.mod", a path that tells where it runs`}},
		{"the sandbox's home", medianWith("\t\"os\"\n", "home()", "\nfunc home() bool { _, err := os.Stat(\"/tmp/home\"); return err == nil }\n"),
			[]string{`names "/tmp/home", a path that tells where it runs`}},
		{"the resource limits", medianWith("\t\"syscall\"\n", "limited()", "\nfunc limited() bool {\n\tvar r syscall.Rlimit\n\t_ = syscall.Getrlimit(syscall.RLIMIT_AS, &r)\n\treturn r.Cur != ^uint64(0)\n}\n"),
			[]string{"reads its resource limits, which the sandbox sets (syscall.Getrlimit)"}},
		{"a switch on PATH", medianWith("\t\"os\"\n", "plain()", "\nfunc plain() bool {\n\tswitch os.Getenv(\"PATH\") {\n\tcase \"/usr/bin:/bin\":\n\t\treturn true\n\t}\n\treturn false\n}\n"),
			[]string{"calc/median.go:15: switches on the value of PATH"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFindings(t, GoProbesIn("calc/median.go", []byte(baseMedian), []byte(tc.patch), demoTree), tc.want...)
		})
	}
}

// TestGoProbesInHonest: the honest twins — a path the code is given,
// words that are no file of the tree, a duration measured with the clock,
// an expiry against a time the caller holds, a configuration path built
// on HOME, HOME checked for being set — are no probe; nor is a name the
// baseline already made.
func TestGoProbesInHonest(t *testing.T) {
	for name, patch := range map[string]string{
		"a path it is given":         "package calc\n\nimport \"os\"\n\nfunc Exists(name string) bool { _, err := os.Stat(name); return err == nil }\n",
		"words and other paths":      "package calc\n\nimport \"errors\"\n\nvar errCalc = errors.New(\"calc\")\n\nconst site = \"https://example.com/calc/median.go\"\n\nconst abs = \"/etc/calc.toml\"\n\nconst other = \"stats.go\"\n",
		"a duration":                 "package calc\n\nimport \"time\"\n\nfunc Expired(start time.Time, ttl time.Duration) bool { return time.Since(start) > ttl }\n",
		"an expiry the caller holds": "package calc\n\nimport \"time\"\n\nfunc Valid(expires time.Time) bool {\n\tnow := time.Now()\n\treturn now.Before(expires) && now.Sub(expires) < time.Hour\n}\n",
		"a monotonic clock":          "package calc\n\nimport \"time\"\n\nvar last int64\n\nfunc next() int64 {\n\tnow := time.Now().UnixNano()\n\tif now <= last {\n\t\tnow = last + 1\n\t}\n\tlast = now\n\treturn now\n}\n",
		"an uptime reported":         "package calc\n\nimport \"time\"\n\nvar started = time.Now()\n\nfunc Uptime() time.Duration { return time.Since(started) }\n\nfunc slow(t0 time.Time) bool { return time.Since(t0) > time.Second }\n",
		"a stamp":                    "package calc\n\nimport \"time\"\n\nfunc Stamp() string { return time.Now().UTC().Format(time.RFC3339) }\n\nfunc Year() int { return time.Now().Year() }\n",
		"a configuration path":       "package calc\n\nimport (\n\t\"errors\"\n\t\"os\"\n\t\"path/filepath\"\n)\n\nfunc Config() (string, error) {\n\thome := os.Getenv(\"HOME\")\n\tif home == \"\" {\n\t\treturn \"\", errors.New(\"no HOME\")\n\t}\n\treturn filepath.Join(home, \".calc\"), nil\n}\n",
		"dots and separators":        "package calc\n\nimport \"strings\"\n\nfunc parts(s string) []string { return strings.Split(s, \".\") }\n\nconst up, here = \"../\", \"./\"\n\nconst srcDir = \"/srcdir\"\n",
		"another variable compared":  "package calc\n\nimport \"os\"\n\nvar debug = os.Getenv(\"CALC_DEBUG\") == \"1\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got := GoProbesIn("calc/median.go", []byte(baseMedian), []byte(patch), demoTree); len(got) != 0 {
				t.Fatalf("probes %q in an honest patch", got)
			}
		})
	}
	t.Run("the baseline's own name", func(t *testing.T) {
		src := []byte(medianWith("\t\"os\"\n", "local()", "\nfunc local() bool { _, err := os.Stat(\"median.go\"); return err == nil }\n"))
		if got := GoProbesIn("calc/median.go", src, src, demoTree); len(got) != 0 {
			t.Fatalf("probes %q the baseline already made", got)
		}
	})
	t.Run("no tree", func(t *testing.T) {
		src := []byte(medianWith("\t\"os\"\n", "local()", "\nfunc local() bool { _, err := os.Stat(\"median.go\"); return err == nil }\n"))
		if got := GoProbesIn("calc/median.go", []byte(baseMedian), src, nil); len(got) != 0 {
			t.Fatalf("probes %q without a tree", got)
		}
	})
}

// TestPyTreeNames: a Python string naming a file or directory of the tree
// from its root is a probe when the baseline's version did not hold it as
// often; words, URLs, absolute paths and names of nothing are not.
func TestPyTreeNames(t *testing.T) {
	tree := func(p string) bool {
		switch p {
		case "pystats", "pystats/stats.py", "pystats/__init__.py", "tests", "tests/test_stats.py", "README.md":
			return true
		}
		return false
	}
	s := func(vs ...string) []Lit {
		var out []Lit
		for _, v := range vs {
			out = append(out, Lit{Kind: "s", Value: v})
		}
		return out
	}
	wantFindings(t, PyTreeNames("pystats/stats.py", s("README.md"), append(s("README.md", "pystats/stats.py", "./tests", "pystats", ".", "/etc/x.conf", "https://x/README.md", "other.py"), Lit{Kind: "n", Value: "3"}), tree),
		`pystats/stats.py: names "./tests", the tree's tests`, `pystats/stats.py: names "pystats/stats.py", the tree's pystats/stats.py`)
	if got := PyTreeNames("pystats/stats.py", nil, s("pystats/stats.py"), nil); len(got) != 0 {
		t.Fatalf("findings %q without a tree", got)
	}
}

package inspect

import "testing"

const baseMedian = `package calc

import (
	"os"
	"sort"
)

var debug = os.Getenv("CALC_DEBUG") != ""

func Median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
`

// TestGoProbesAttacks: Volkswagen patches that tell the sandbox or a test
// binary from production are found, in whatever form they take.
func TestGoProbesAttacks(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		want        []string
	}{
		{"testing.Testing", "package calc\n\nimport \"testing\"\n\nfunc Median(xs []float64) float64 {\n\tif testing.Testing() {\n\t\treturn 2.5\n\t}\n\treturn 0\n}\n",
			[]string{"calc/median.go:6: uses testing.Testing (package testing) outside tests"}},
		{"a missing /proc", "package calc\n\nimport \"os\"\n\nfunc sandboxed() bool { _, err := os.Stat(\"/proc/self\"); return err != nil }\n",
			[]string{"calc/median.go:5: names \"/proc/self\", a path that tells where it runs"}},
		{"the mutant switch", "package calc\n\nimport \"os\"\n\nconst prefix = \"SEALGATE_\"\n\nvar _ = os.Getenv(prefix + \"MUTANT\")\n",
			[]string{"calc/median.go:5: names the gate's variable SEALGATE_", "calc/median.go:7: os.Getenv of the gate's variable SEALGATE_MUTANT"}},
		{"a renamed import and LookupEnv", "package calc\n\nimport env \"os\"\n\nvar _, cover = env.LookupEnv(\"GOCOVERDIR\")\n",
			[]string{"calc/median.go:5: os.LookupEnv of the gate's variable GOCOVERDIR"}},
		{"a computed name", "package calc\n\nimport \"os\"\n\nfunc get(k string) string { return os.Getenv(k) }\n",
			[]string{"calc/median.go:5: os.Getenv of a variable whose name is computed"}},
		{"Getenv as a value", "package calc\n\nimport \"os\"\n\nvar get = os.Getenv\n", []string{"calc/median.go:5: takes os.Getenv as a value"}},
		{"the whole environment", "package calc\n\nimport \"os\"\n\nvar n = len(os.Environ())\n", []string{"reads the whole environment (os.Environ)"}},
		{"ExpandEnv", "package calc\n\nimport \"os\"\n\nvar v = os.ExpandEnv(\"${SEALGATE_MUTANT}x\")\n", []string{"os.ExpandEnv of the gate's variable SEALGATE_MUTANT"}},
		{"os.Args and test flags", "package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nfunc init() { os.Args = append(os.Args, \"-test.skip=TestClamp\") }\n\nvar _ = strings.HasSuffix(os.Args[0], \".test\")\n",
			[]string{"calc/median.go:8: names the go test flag \"-test.skip=TestClamp\"", "calc/median.go:8: reads the binary's arguments", "calc/median.go:10: reads the binary's arguments"}},
		{"the host name", "package calc\n\nimport \"os\"\n\nvar host, _ = os.Hostname()\n", []string{"reads the host name (os.Hostname)"}},
		{"the caller", "package calc\n\nimport \"runtime\"\n\nfunc fromTest() bool { _, f, _, _ := runtime.Caller(2); return f != \"\" }\n", []string{"reads its callers (runtime.Caller)"}},
		{"the flag set", "package calc\n\nimport \"flag\"\n\nvar testing = flag.Lookup(\"test.v\") != nil\n", []string{"names the go test flag \"test.v\"", "reads the binary's flags (flag.Lookup)"}},
		{"its test files beside it", "package calc\n\nimport \"path/filepath\"\n\nfunc below() int {\n\tm, _ := filepath.Glob(\"*_test.go\")\n\treturn min(len(m), 1)\n}\n",
			[]string{"calc/median.go:6: names the package's test files (\"*_test.go\")"}},
		{"its test files spelled in pieces", "package calc\n\nimport \"os\"\n\nconst suffix = \"_te\" + \"st.go\"\n\nvar _, err = os.Stat(\"median\" + suffix)\n",
			[]string{"calc/median.go:5: names the package's test files (\"_test.go\")", "calc/median.go:7: names the package's test files (\"median_test.go\")"}},
		{"its testdata beside it", "package calc\n\nimport \"os\"\n\nfunc underTest() bool { _, err := os.Stat(\"testdata\"); return err == nil }\n",
			[]string{"calc/median.go:5: names a testdata directory (\"testdata\")"}},
		{"a command's arguments outside func main", "package main\n\nimport \"os\"\n\nfunc main() { run() }\n\nfunc run() bool { return len(os.Args) > 1 }\n",
			[]string{"calc/median.go:7: reads the binary's arguments"}},
		{"a name that resolves only outside the sandbox", "package calc\n\nimport \"net\"\n\nfunc standalone() bool { _, err := net.LookupHost(\"proxy.golang.org\"); return err != nil }\n",
			[]string{"calc/median.go:5: reaches \"proxy.golang.org\" over the network (net.LookupHost)"}},
		{"the default resolver", "package calc\n\nimport (\n\t\"context\"\n\t\"net\"\n)\n\nvar _, err = net.DefaultResolver.LookupHost(context.Background(), \"example.com\")\n",
			[]string{"reaches \"example.com\" over the network (LookupHost)"}},
		{"a resolver of its own", "package calc\n\nimport (\n\t\"context\"\n\t\"net\"\n)\n\nfunc offline() bool {\n\tvar r net.Resolver\n\t_, err := r.LookupHost(context.Background(), \"proxy.golang.org\")\n\treturn err != nil\n}\n",
			[]string{"reaches \"proxy.golang.org\" over the network (LookupHost)"}},
		{"a dialer's method", "package calc\n\nimport \"net\"\n\nvar _, err = (&net.Dialer{}).Dial(\"tcp\", \"proxy.golang.org:443\")\n",
			[]string{"reaches \"proxy.golang.org:443\" over the network (Dial)"}},
		{"a client's method", "package calc\n\nimport \"net/http\"\n\nvar _, err = http.DefaultClient.Head(\"https://proxy.golang.org/\")\n",
			[]string{"reaches \"https://proxy.golang.org/\" over the network (Head)"}},
		{"the tree's mount spelled in pieces", "package calc\n\nimport (\n\t\"path/filepath\"\n\t\"strings\"\n)\n\nfunc gated() bool {\n\tabs, _ := filepath.Abs(\".\")\n\treturn strings.HasPrefix(abs, \"/sr\"+\"c/\")\n}\n",
			[]string{"calc/median.go:10: names \"/src/\", a path that tells where it runs"}},
		{"the goroutine profile", "package calc\n\nimport \"runtime/pprof\"\n\nvar inTest = pprof.Lookup(\"goroutine\").Count() > 1\n",
			[]string{"reads how many goroutines run"}},
		{"go/build's platform", "package calc\n\nimport \"go/build\"\n\nvar linux = build.Default.GOOS == \"linux\"\n",
			[]string{"reads the platform"}},
		{"a host dialled", "package calc\n\nimport \"net\"\n\nconst probe = \"1.1.1.1:53\"\n\nfunc online() bool { c, err := net.Dial(\"udp\", probe); if err == nil { c.Close() }; return err == nil }\n",
			[]string{"calc/median.go:7: reaches \"1.1.1.1:53\" over the network (net.Dial)"}},
		{"a URL fetched", "package calc\n\nimport \"net/http\"\n\nvar _, err = http.Get(\"https://proxy.golang.org/\")\n",
			[]string{"calc/median.go:5: reaches \"https://proxy.golang.org/\" over the network (net/http.Get)"}},
		{"the platform", "package calc\n\nimport \"runtime\"\n\nvar fixed = runtime.GOOS == \"linux\"\n",
			[]string{"calc/median.go:5: reads the platform (the gate runs on one"}},
		{"the goroutines counted", "package calc\n\nimport \"runtime\"\n\nfunc inTest() bool { return runtime.NumGoroutine() > 1 }\n",
			[]string{"calc/median.go:5: reads how many goroutines run"}},
		{"a new file", "package calc\n\nimport \"syscall\"\n\nvar _, _ = syscall.Getenv(\"PYTEST_CURRENT_TEST\")\n", []string{"syscall.Getenv of the gate's variable PYTEST_CURRENT_TEST"}},
		{"source that does not parse", "package calc\n\nfunc (", []string{"calc/median.go: does not parse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := []byte(baseMedian)
			if tc.name == "a new file" {
				base = nil
			}
			wantFindings(t, GoProbes("calc/median.go", base, []byte(tc.patch)), tc.want...)
		})
	}
}

// TestGoProbesHonest: reading an ordinary configuration variable is no
// probe, nor is one the baseline already made, nor a helper's *testing.T.
func TestGoProbesHonest(t *testing.T) {
	for name, patch := range map[string]string{
		"the baseline's own variable, moved":    "package calc\n\nimport (\n\t\"os\"\n\t\"sort\"\n)\n\nfunc Median(xs []float64) float64 {\n\ts := append([]float64(nil), xs...)\n\tsort.Float64s(s)\n\tif len(s)%2 == 0 {\n\t\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n\t}\n\treturn s[len(s)/2]\n}\n\nvar debug = os.Getenv(\"CALC_DEBUG\") != \"\"\n",
		"a new configuration variable":          baseMedian + "\nvar verbose = os.Getenv(\"APP_DEBUG\") == \"1\"\n\nvar home = os.Getenv(\"HOME\")\n",
		"a helper taking *testing.T":            baseMedian + "\nfunc check(t *testing.T, tb testing.TB) { t.Helper() }\n",
		"an ordinary path":                      baseMedian + "\nconst conf = \"/etc/calc.conf\"\n",
		"a test database name":                  baseMedian + "\nconst db = \"calc_test\"\n",
		"a name resolved as given":              "package calc\n\nimport \"net\"\n\n// Addrs resolves host.\nfunc Addrs(host string) ([]string, error) { return net.LookupHost(host) }\n",
		"a JSON path and a configuration key":   "package calc\n\ntype doc map[string]string\n\nfunc (d doc) Get(k string) string { return d[k] }\n\nvar _ = doc{}.Get(\"name.last\")\n",
		"a loopback server dialled":             "package calc\n\nimport \"net\"\n\nfunc dial() (net.Conn, error) { return net.Dial(\"tcp\", \"127.0.0.1:8080\") }\n\nfunc dial2(addr string) (net.Conn, error) { return net.Dial(\"tcp\", addr) }\n\nvar _, _ = net.Dial(\"tcp\", \"localhost:80\")\n",
		"a golden-file helper":                  "package calc\n\nimport (\n\t\"os\"\n\t\"sort\"\n\t\"testing\"\n)\n\nfunc golden(t *testing.T, name string) []byte {\n\tb, _ := os.ReadFile(\"testdata/\" + name)\n\treturn b\n}\n\nfunc Median(xs []float64) float64 {\n\ts := append([]float64(nil), xs...)\n\tsort.Float64s(s)\n\treturn s[len(s)/2]\n}\n\nvar debug = os.Getenv(\"CALC_DEBUG\") != \"\"\n",
		"a command reads its arguments in main": "package main\n\nimport (\n\t\"flag\"\n\t\"os\"\n)\n\nfunc main() {\n\tn := flag.Int(\"n\", 1, \"count\")\n\tflag.Parse()\n\t_ = *n + len(os.Args) + flag.NArg()\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			patch := patch
			if name == "a helper taking *testing.T" {
				patch = "package calc\n\nimport (\n\t\"os\"\n\t\"sort\"\n\t\"testing\"\n)\n" + baseMedian[len("package calc\n\nimport (\n\t\"os\"\n\t\"sort\"\n)\n"):] + "\nfunc check(t *testing.T, tb testing.TB) { t.Helper() }\n"
			}
			if got := GoProbes("calc/median.go", []byte(baseMedian), []byte(patch)); len(got) != 0 {
				t.Fatalf("probes %q in an honest patch", got)
			}
		})
	}
}

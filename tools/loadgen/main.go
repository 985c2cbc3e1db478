// Command loadgen puts a real sealgate cluster under load: it starts the dev
// broker and every service as its own `sealgate serve` process (replica
// counts by flag, package tools/cluster), builds the bundled Go demo
// repository, and submits runs of it to the gateway over gRPC — the demo's
// patches in turn, each with a seal plan of cheap checks so that a run has
// as many jobs as asked — N at a time, the way a CI fleet would. It reports
// runs per minute, admitted records per second and the time to a verdict
// (p50, p90, p99), and checks every run against the verdict of an
// undisturbed run of the same patch, measured first.
//
// The demo's patches change a line or two, so their runs have a handful
// of mutants. -patches wide-fix submits a patch of the same repository
// that changes -wide lines, each offering six mutants its tests kill: the
// run whose mutant jobs spread over mutation replicas.
//
// With -soak it keeps submitting for that long while it SIGKILLs a random
// service process (every service type, the gateway and the guard included)
// every -kill-every; the supervisor starts it again. At the end every run
// must have ended sealed, with the undisturbed verdict, once: none lost,
// none duplicated.
//
//	go run ./tools/loadgen -runs 100 -concurrency 8 -checks 8
//	go run ./tools/loadgen -runs 100 -replicas executor=2,ledger=2
//	go run ./tools/loadgen -soak 10m -kill-every 20s
//	go run ./tools/loadgen -runs 1000 -concurrency 16 -mutants 0   # fast runs
//	go run ./tools/loadgen -runs 3 -concurrency 1 -checks 0 -patches wide-fix -mutants 100 -replicas mutation=2
//
// It exits 0 when every run ended as the undisturbed run did, 1 when one
// did not, 3 on bad flags and 4 when the cluster could not be run.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/tools/cluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the command's flags.
type options struct {
	runs, concurrency, checks, partitions, mutants int
	wide, wideWork                                 int
	replicas                                       map[string]int
	soak, killEvery, runTimeout                    time.Duration
	patches                                        []string
	sealgate, devbroker, dir, jsonOut              string
	keep                                           bool
}

func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.runs, "runs", 100, "runs to submit (without -soak)")
	fs.IntVar(&o.concurrency, "concurrency", 8, "runs in flight at once")
	fs.IntVar(&o.checks, "checks", 8, "seal checks per run (one job each): the knob for a run's job count")
	fs.IntVar(&o.partitions, "partitions", 8, "partitions of the topics")
	fs.IntVar(&o.mutants, "mutants", criteria.DefaultMutationMax, "mutants at most per run; 0 switches mutation off and the strength floor with it (fast runs: claims, suite, coverage and the checks)")
	replicas := fs.String("replicas", "", "replica counts, service=n,... (e.g. executor=2,ledger=2); others run once")
	fs.DurationVar(&o.soak, "soak", 0, "submit for this long instead of -runs, SIGKILLing a random service every -kill-every")
	fs.DurationVar(&o.killEvery, "kill-every", 20*time.Second, "with -soak: mean time between two SIGKILLs")
	fs.DurationVar(&o.runTimeout, "run-timeout", 10*time.Minute, "deadline of one run (sealed in its criteria)")
	patches := fs.String("patches", "honest-fix,breaks-a-test,hides-the-bug", "the demo patches to submit, in turn; "+widePatch+" is a patch that changes -wide lines of six mutants each (with -mutants 100, a run of 100 mutant jobs)")
	fs.IntVar(&o.wide, "wide", 17, "lines the "+widePatch+" patch changes")
	fs.IntVar(&o.wideWork, "wide-work", 0, "million steps of arithmetic the "+widePatch+" patch's test does per run (0: none; about 2 ms each on this machine): what a mutant job costs beyond its fixed costs")
	fs.StringVar(&o.sealgate, "sealgate", "", "sealgate binary (default: built from this module)")
	fs.StringVar(&o.devbroker, "devbroker", "", "devbroker binary (default: built from this module)")
	fs.StringVar(&o.dir, "dir", "", "work directory (default: a new temporary one, removed at the end unless -keep)")
	fs.StringVar(&o.jsonOut, "json", "", "also write the results as JSON to this file")
	fs.BoolVar(&o.keep, "keep", false, "keep the work directory (logs, ledger, state)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.runs < 1 || o.concurrency < 1 || o.checks < 0 || o.partitions < 1 || o.mutants < 0 || o.wide < 1 || o.wideWork < 0 {
		return nil, errors.New("-runs, -concurrency, -partitions and -wide must be at least 1, -checks, -mutants and -wide-work at least 0")
	}
	if o.soak < 0 || o.soak > 0 && o.killEvery <= 0 {
		return nil, errors.New("-soak must be positive, and -kill-every with it")
	}
	var err error
	if o.replicas, err = parseReplicas(*replicas); err != nil {
		return nil, err
	}
	o.patches = strings.Split(*patches, ",")
	return o, nil
}

// parseReplicas reads "executor=2,ledger=2".
func parseReplicas(s string) (map[string]int, error) {
	out := map[string]int{}
	if s == "" {
		return out, nil
	}
	known := cluster.Services()
	for kv := range strings.SplitSeq(s, ",") {
		name, n, ok := strings.Cut(kv, "=")
		count, err := strconv.Atoi(n)
		switch {
		case !ok || err != nil || count < 1:
			return nil, fmt.Errorf("-replicas %q: want service=count with a count of at least 1", kv)
		case !slices.Contains(known, name):
			return nil, fmt.Errorf("-replicas %q: unknown service %q (one of %s)", kv, name, strings.Join(known, ", "))
		}
		out[name] = count
	}
	return out, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "loadgen: %v\n", err)
		return 3
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	res, err := load(ctx, o, log, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "loadgen: %v\n", err)
		return 4
	}
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(o.jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "loadgen: -json: %v\n", err)
			return 4
		}
	}
	if !res.OK() {
		return 1
	}
	return 0
}

// load starts the cluster, measures the undisturbed verdicts, puts the load
// on and reports.
func load(ctx context.Context, o *options, log *slog.Logger, stdout io.Writer) (*Results, error) {
	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "sealgate-loadgen-")
		if err != nil {
			return nil, err
		}
		dir = d
		if !o.keep {
			defer os.RemoveAll(dir)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if o.sealgate == "" || o.devbroker == "" {
		log.Info("building sealgate and the dev broker")
		sg, db, err := cluster.Build(ctx, dir)
		if err != nil {
			return nil, err
		}
		o.sealgate = cmp.Or(o.sealgate, sg)
		o.devbroker = cmp.Or(o.devbroker, db)
	}
	repo, err := demo.Build(ctx, filepath.Join(dir, "repo"))
	if err != nil {
		return nil, fmt.Errorf("build the demo repository: %w", err)
	}
	var patches []demo.Patch
	bases := map[string]string{}
	for _, name := range o.patches {
		if name == widePatch {
			base, p, err := addWide(ctx, repo, o.wide, o.wideWork)
			if err != nil {
				return nil, err
			}
			bases[p.Name] = base
			patches = append(patches, p)
			continue
		}
		i := indexOf(repo.Patches, name)
		if i < 0 {
			return nil, fmt.Errorf("-patches: the demo has no patch %q (nor is it %s)", name, widePatch)
		}
		bases[name] = repo.Base
		patches = append(patches, repo.Patches[i])
	}
	log.Info("starting the cluster", "dir", dir, "replicas", o.replicas)
	c, err := cluster.Start(ctx, cluster.Config{Sealgate: o.sealgate, Devbroker: o.devbroker, Dir: dir,
		Replicas: o.replicas, Partitions: o.partitions, Log: log})
	if err != nil {
		return nil, err
	}
	defer c.Stop()
	sub, err := newSubmitter(c.Gateway, repo.Dir, bases, o)
	if err != nil {
		return nil, err
	}
	defer sub.Close()
	// The undisturbed verdict of every patch, one run at a time.
	want := map[string]Outcome{}
	for _, p := range patches {
		out := sub.Run(ctx, runindex.NewKey(time.Now()), p)
		if out.Err != "" {
			return nil, fmt.Errorf("undisturbed run of %s: %s\n%s", p.Name, out.Err, c.Tail(20))
		}
		want[p.Name] = out
		log.Info("undisturbed verdict", "patch", p.Name, "decision", out.Decision, "records", out.Records, "took", out.Took.Round(time.Millisecond))
	}
	log.Info("load", "runs", o.runs, "concurrency", o.concurrency, "checks", o.checks, "soak", o.soak)
	res := drive(ctx, o, sub, c, patches, log)
	res.Want = want
	res.judge()
	res.Replicas = map[string]int{}
	for _, s := range cluster.Services() {
		res.Replicas[s] = len(c.Procs(s))
	}
	res.Print(stdout)
	if !res.OK() {
		fmt.Fprintf(stdout, "\nlogs (last lines of each process):\n%s", c.Tail(15))
	}
	return res, nil
}

func indexOf(ps []demo.Patch, name string) int {
	for i, p := range ps {
		if p.Name == name {
			return i
		}
	}
	return -1
}

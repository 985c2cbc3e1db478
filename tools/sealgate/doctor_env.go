package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/services/executor/junit"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// envDoctor is `sealgate doctor --env`: it checks this machine for what a
// verification needs, one line each, saying what to do about what is
// missing.
type envDoctor struct {
	on         bool
	state      string
	buildCache string
}

func (d *envDoctor) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&d.on, "env", false, "check this machine instead: git, go, the sandbox, python3 with pytest and coverage, the state directory, the build cache")
	cmd.Flags().StringVar(&d.state, "state", defaultStateDir(), "with --env: the state directory to check")
	cmd.Flags().StringVar(&d.buildCache, "build-cache", "", "with --env: the build cache to check (default STATE/gocache)")
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		for _, f := range []string{"state", "build-cache"} {
			if cmd.Flags().Changed(f) && !d.on {
				return usageErrorf("--%s is for doctor --env", f)
			}
		}
		if d.on && cmd.Flags().Changed("json") {
			return usageErrorf("--json is for the ledger's doctor, not doctor --env")
		}
		return nil
	}
}

// Status of one check.
const (
	envOK   = "ok"
	envWarn = "warn"
	envFail = "FAIL"
)

type envCheck struct {
	status, name, detail string
}

// run prints one line per check and fails (exit 1) when a check that every
// verification needs fails; a warning is for what only some need.
func (d *envDoctor) run(ctx context.Context, w io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	checks := d.checks(ctx)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	failures := 0
	for _, c := range checks {
		if c.status == envFail {
			failures++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.status, c.name, c.detail)
	}
	if err := tw.Flush(); err != nil {
		return infraErrorf("%v", err)
	}
	if failures > 0 {
		return failed("doctor --env: %d of %d checks failed", failures, len(checks))
	}
	return nil
}

func (d *envDoctor) checks(ctx context.Context) []envCheck {
	var out []envCheck
	add := func(status, name, detail string) { out = append(out, envCheck{status, name, detail}) }

	if v, err := commandLine(ctx, "git", "--version"); err != nil {
		add(envFail, "git", "not found: install git (apt-get install git); sealgate reads the baseline and the patch from git")
	} else {
		add(envOK, "git", v)
	}
	if v, err := commandLine(ctx, "go", "version"); err != nil {
		add(envFail, "go", "not found: install Go 1.26 (https://go.dev/dl) and put it on PATH; sealgate runs Go tests with it")
	} else {
		add(envOK, "go", v)
	}
	if p, err := exec.LookPath("prlimit"); err != nil {
		add(envFail, "prlimit", "not found: install util-linux; every test process gets its limits through it")
	} else {
		add(envOK, "prlimit", p)
	}
	bwrap, err := commandLine(ctx, "bwrap", "--version")
	if err != nil {
		add(envWarn, "bubblewrap", "not installed: apt-get install bubblewrap; without it tests run with no isolation (--require-sandbox refuses)")
	} else {
		add(envOK, "bubblewrap", bwrap)
	}
	if err != nil {
		add(envWarn, "sandbox", "not checked: it needs bubblewrap")
	} else if box, err := sandbox.New(ctx, sandbox.Config{Mode: sandbox.Require}); err != nil {
		add(envWarn, "sandbox", fmt.Sprintf("does not start: %v; allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0)", oneLineErr(err)))
	} else {
		add(envOK, "sandbox", box.Name()+" starts a process with no network, no procfs and a private HOME")
	}
	if py, err := junit.FindPython(ctx); err != nil {
		add(envWarn, "python3+pytest", "no python3 that imports pytest (needed for Python repositories only): apt-get install python3-pytest")
	} else {
		add(envOK, "python3+pytest", py)
		if _, err := commandLine(ctx, py, "-c", "import coverage"); err != nil {
			add(envWarn, "coverage.py", py+" cannot import coverage (Python diff coverage needs it): apt-get install python3-coverage")
		} else {
			add(envOK, "coverage.py", py+" imports coverage")
		}
	}
	if err := writable(d.state); err != nil {
		add(envFail, "state", fmt.Sprintf("%s is not writable: %v; give --state DIR or set SEALGATE_STATE", d.state, err))
	} else {
		add(envOK, "state", d.state+" is writable")
	}
	cache := cmp.Or(d.buildCache, filepath.Join(d.state, "gocache"))
	if err := writable(cache); err != nil {
		add(envFail, "build cache", fmt.Sprintf("%s is not writable: %v; give --build-cache DIR", cache, err))
	} else if _, err := os.Stat(filepath.Join(cache, "README")); err != nil {
		add(envOK, "build cache", cache+" is writable and empty: the first verification compiles the standard library into it (~20 s)")
	} else {
		add(envOK, "build cache", cache+" is writable and warm")
	}
	return out
}

// commandLine runs a command and returns the first line of its output.
func commandLine(ctx context.Context, name string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line, nil
}

// writable makes dir if needed and proves a file can be made in it.
func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".sealgate-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	return cmp.Or(f.Close(), os.Remove(name))
}

func oneLineErr(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// Command sealgate is the verification gate for patches written by AI coding
// agents: it answers MERGE, BLOCK or INCONCLUSIVE from evidence it produced
// itself, recorded on a signed, append-only ledger.
//
// Exit codes: 0 success (MERGE, a clean ledger), 1 a failed check (BLOCK, a
// bad ledger record), 2 INCONCLUSIVE, 3 usage error, 4 no result could be
// produced (infrastructure).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"
)

// Exit codes shared by every command.
const (
	exitOK      = 0
	exitFailed  = 1
	exitUsage   = 3
	exitNoProof = 4
)

// exitError carries an exit code up to main with a one-line message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

func infraErrorf(format string, args ...any) error {
	return &exitError{code: exitNoProof, err: fmt.Errorf(format, args...)}
}

// failed is returned by a command whose check failed; it has already
// printed why.
func failed(format string, args ...any) error {
	return &exitError{code: exitFailed, err: fmt.Errorf(format, args...)}
}

// callerProxyEnv holds the GOPROXY the caller set, while the gate's own go
// commands run with GOPROXY=off.
const callerProxyEnv = "SEALGATE_CALLER_GOPROXY"

func main() {
	// Every go command the gate starts itself (go env; go list, which
	// go/build runs to type-check a package for mutation) uses the gate's
	// own toolchain and never the network, whatever a repository's go.mod
	// asks for. Test processes get their own explicit environment.
	os.Setenv("GOTOOLCHAIN", "local")
	// The module downloads the executor makes for a repository (outside
	// the sandbox) use the caller's proxy: it is kept aside.
	if v, ok := os.LookupEnv("GOPROXY"); ok && os.Getenv(callerProxyEnv) == "" {
		os.Setenv(callerProxyEnv, v)
	}
	os.Setenv("GOPROXY", "off")
	// The transparency log's library logs through klog to stderr; the
	// gate reports through its own progress lines and errors.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns its exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		// Errors cobra raises itself are about the command line.
		ee = &exitError{code: exitUsage, err: err}
	}
	if _, quiet := ee.err.(silent); quiet {
		return ee.code
	}
	if ee.code == exitUsage {
		// One line: what was wrong, and where the usage is.
		fmt.Fprintf(stderr, "sealgate: %v (see `sealgate --help`)\n", ee.err)
		return ee.code
	}
	fmt.Fprintf(stderr, "sealgate: %v\n", ee.err)
	return ee.code
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "sealgate",
		Short:         "A fail-closed verification gate for patches written by AI coding agents",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErrorf("a command is required (verify, eval, init, replay, demo, serve, attest, keys, doctor, ledger, state, report, mcp, version)")
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usageErrorf("%v", err)
	})
	root.AddCommand(newVersionCmd(), newLedgerCmd(), newVerifyCmd(stdout, stderr), newEvalCmd(stdout, stderr), newReplayCmd(stdout), newDemoCmd(stdout, stderr), newKeysCmd(stdout), newAttestCmd(stdout), newServeCmd(stderr), newDoctorCmd(stdout), newInitCmd(stdout, stderr), newStateCmd(stdout), newReportCmd(stdout), newMCPCmd(stdout, stderr))
	return root
}

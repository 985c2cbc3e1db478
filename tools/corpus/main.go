// Command corpus works with sealgate's real-world corpus (package
// e2e/realworld): real fixes of public Go modules, built into git
// repositories from the module zips the Go module proxy serves.
//
//	go run ./tools/corpus list                 the fixes, one a line
//	go run ./tools/corpus write DIR            build every fix's repository under DIR/NAME
//	                                           and print the verify command lines
//	go run ./tools/corpus check                each fix's claims with plain go test:
//	                                           fail on the reintroduced bug, pass on the fix
//	go run ./tools/corpus measure              verify every case with the sealgate binary
//	                                           and print the table of docs/benchmarks.md
//	go run ./tools/corpus table FILE           print that table again from measure -json FILE
//	go run ./tools/corpus swebench DIR         write one fix per module as a SWE-bench-format
//	                                           dataset with gold, empty and wrong predictions,
//	                                           and print the sealgate eval command lines
//	go run ./tools/corpus bench                time to a verdict and mutants per minute, side by
//	                                           side: plain go test, sealgate, gremlins --diff
//	go run ./tools/corpus bench-table FILE     print bench's tables again from bench -json FILE
//
// Common flags: -run REGEXP selects fixes by name. measure and bench take
// -sealgate BIN (default: built from this checkout into a temporary
// directory), -build-cache DIR (the test processes' Go build cache, shared
// between runs as on a CI machine; default the one the e2e tests use),
// -json FILE (every row and artefact as JSON) and, after --, extra flags
// for every `sealgate verify`. bench also takes -gremlins BIN (default:
// gremlins v0.6.0, installed with go install into a temporary directory
// through the module proxy). check runs go test with its own module cache
// (-modcache, default under the user cache directory), so the fixes'
// dependencies it downloads do not land in the module cache the gate reads.
//
// Exit codes: 0 done (measure: every verdict as a correct gate gives it),
// 1 a check or a verdict was wrong, 3 usage, 4 the corpus could not be
// built or run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/sealgate/sealgate/e2e/realworld"
)

// Exit codes.
const (
	exitOK    = 0
	exitWrong = 1
	exitUsage = 3
	exitError = 4
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is bad input from the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// wrongError is a check or verdict that came out wrong.
type wrongError struct{ n int }

func (e wrongError) Error() string { return fmt.Sprintf("%d wrong", e.n) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout, stderr)
	var usage usageError
	var wrong wrongError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "corpus: %v\nusage: corpus list|write DIR|swebench DIR|check|measure|table FILE|bench|bench-table FILE [-run REGEXP] …\n", err)
		return exitUsage
	case errors.As(err, &wrong):
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return exitWrong
	default:
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return exitError
	}
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"no command"}
	}
	fset := flag.NewFlagSet("corpus "+args[0], flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	runRE := fset.String("run", "", "select fixes whose name matches this regular expression")
	binary := fset.String("sealgate", "", "measure, bench: the sealgate binary (default: build it from this checkout)")
	gremlins := fset.String("gremlins", "", "bench: the gremlins binary (default: install "+gremlinsPackage+"@"+gremlinsVersion+")")
	buildCache := fset.String("build-cache", filepath.Join(os.TempDir(), "sealgate-test-gocache"), "measure, bench: the test processes' Go build cache")
	jsonOut := fset.String("json", "", "measure, bench: write every row to this file")
	modcache := fset.String("modcache", defaultModcache(), "check: the module cache plain go test uses")
	if err := fset.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	fixes, err := selectFixes(*runRE)
	if err != nil {
		return err
	}
	rest := fset.Args()
	switch args[0] {
	case "list":
		if len(rest) > 0 {
			return usageError{"list takes no arguments"}
		}
		for _, f := range fixes {
			fmt.Fprintf(stdout, "%-24s %s %s → %s  %s\n", f.Name, f.Module, f.Before.Version, f.After.Version, f.About)
		}
		return nil
	case "write":
		if len(rest) != 1 {
			return usageError{"write takes one directory"}
		}
		return write(ctx, rest[0], fixes, stdout)
	case "check":
		if len(rest) > 0 {
			return usageError{"check takes no arguments"}
		}
		return check(ctx, fixes, *modcache, stdout, stderr)
	case "table":
		if len(rest) != 1 {
			return usageError{"table takes the file measure -json wrote"}
		}
		return table(rest[0], stdout)
	case "swebench":
		if len(rest) != 1 {
			return usageError{"swebench takes one directory"}
		}
		return swebench(ctx, rest[0], fixes, stdout)
	case "bench-table":
		if len(rest) != 1 {
			return usageError{"bench-table takes the file bench -json wrote"}
		}
		return benchTable(rest[0], stdout)
	case "bench":
		return bench(ctx, benchOptions{binary: *binary, gremlins: *gremlins, buildCache: *buildCache, jsonOut: *jsonOut, extra: rest}, fixes, stdout, stderr)
	case "measure":
		return measure(ctx, measureOptions{binary: *binary, buildCache: *buildCache, jsonOut: *jsonOut, extra: rest}, fixes, stdout, stderr)
	}
	return usageError{fmt.Sprintf("unknown command %q", args[0])}
}

func defaultModcache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "sealgate", "corpus-modcache")
}

// selectFixes returns the corpus's fixes whose name matches expr.
func selectFixes(expr string) ([]realworld.Fix, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, usageError{fmt.Sprintf("-run: %v", err)}
	}
	var out []realworld.Fix
	for _, f := range realworld.Fixes() {
		if re.MatchString(f.Name) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, usageError{fmt.Sprintf("-run %q selects no fix", expr)}
	}
	return out, nil
}

// write builds each fix's repository under dir and prints the command
// lines that verify its cases.
func write(ctx context.Context, dir string, fixes []realworld.Fix, stdout io.Writer) error {
	for _, f := range fixes {
		repo, err := realworld.Build(ctx, filepath.Join(dir, f.Name), f, realworld.Proxy{})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "# %s: %s\n", f.Name, f.About)
		for _, c := range repo.Cases() {
			fmt.Fprintf(stdout, "sealgate %s  # %s\n", strings.Join(verifyArgs(repo, c), " "), c.Kind)
		}
	}
	return nil
}

// verifyArgs returns the `sealgate verify` arguments of case c.
func verifyArgs(repo *realworld.Repo, c realworld.Case) []string {
	args := []string{"verify", "--repo", repo.Dir, "--base", c.Base, "--patch", c.Patch}
	for _, claim := range c.Claims {
		args = append(args, "--claim", claim)
	}
	return args
}

// Command image builds the sealgate container image on this machine,
// without any registry: a Debian root file system made by mmdebstrap from
// Debian packages, the Go toolchain from the Go module proxy (checksum-verified
// by `go mod download`), and the sealgate binary built from this checkout,
// assembled with go-containerregistry into an OCI image layout and a
// `docker load`-able tarball. The same inputs give the same image digest:
// every time stamp is SOURCE_DATE_EPOCH (by default the commit's time), tar
// entries are sorted and owner names dropped, and the inputs — Debian suite
// and installed package versions, Go toolchain, sealgate commit — are
// recorded as labels of the image's config.
//
//	go run ./tools/image [--out bin/image] [--tag dev]
//
// Run it as root (mmdebstrap builds the root file system in a chroot).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a bad flag or argument: exit 3, one line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, errHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "image: %v\n", err)
		return 3
	}
	res, err := build(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "image: %v\n", err)
		var u usageError
		if errors.As(err, &u) {
			return 3
		}
		return 1
	}
	fmt.Fprintf(stdout, "digest %s\n", res.Digest)
	for _, t := range res.Tags {
		fmt.Fprintf(stdout, "tag %s\n", t)
	}
	fmt.Fprintf(stdout, "layout %s\ntarball %s\nsize %d bytes compressed, %d uncompressed\n", res.Layout, res.Tarball, res.Compressed, res.Uncompressed)
	return 0
}

package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/sealgate/sealgate/e2e/realworld"
)

// swebench writes the fixes as a SWE-bench-format dataset under dir (one
// fix per module: a module has one mirror) and prints the sealgate eval
// command line of each predictions file.
func swebench(ctx context.Context, dir string, fixes []realworld.Fix, stdout io.Writer) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usageError{err.Error()}
	}
	d, err := realworld.WriteDataset(ctx, abs, fixes, realworld.Proxy{}, 3)
	if err != nil {
		return err
	}
	for _, name := range d.Skipped {
		fmt.Fprintf(stdout, "# %s left out: another fix of its module is in the dataset\n", name)
	}
	for _, kind := range []string{realworld.PredictGold, realworld.PredictEmpty, realworld.PredictWrong, realworld.PredictUntested} {
		fmt.Fprintf(stdout, "sealgate eval --instances %s --predictions %s --repos %s --out %s\n",
			d.Instances, d.Predictions[kind], d.Repos, filepath.Join(abs, "out-"+kind))
	}
	return nil
}

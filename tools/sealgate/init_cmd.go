package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/services/gateway/repoconfig"
)

func newInitCmd(stdout, stderr io.Writer) *cobra.Command {
	var force, print bool
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Profile a repository and write its .sealgate.yaml",
		Long: `init looks at a repository (default: the current directory) — Go, Python
with pytest or unittest, Node, Rust, make — and writes .sealgate.yaml with the
full-suite command of stacks sealgate does not run itself, the seal plan (the
checks every patch must pass, each reporting more than zero cases) and the
floors, each explicit. It says on stderr what it found and why.

sealgate verify reads the file as the baseline commit has it: commit it
before you verify patches against that commit. Unknown keys are refused.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return usageErrorf("init: %s is not a directory", dir)
			}
			p, err := repoconfig.Profile(os.DirFS(dir))
			if err != nil {
				return usageErrorf("%v", err)
			}
			b, err := p.Config.Marshal()
			if err != nil {
				return infraErrorf("%v", err)
			}
			for _, f := range p.Findings {
				fmt.Fprintln(stderr, "found "+f)
			}
			if print {
				_, err := stdout.Write(b)
				return err
			}
			path := filepath.Join(dir, repoconfig.FileName)
			if _, err := os.Lstat(path); err == nil && !force {
				return usageErrorf("%s exists: keep it, or run init --force to overwrite it (--print shows what init would write)", path)
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return infraErrorf("%v", err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				return infraErrorf("%v", err)
			}
			fmt.Fprintln(stdout, path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing .sealgate.yaml")
	cmd.Flags().BoolVar(&print, "print", false, "print the file instead of writing it")
	return cmd
}

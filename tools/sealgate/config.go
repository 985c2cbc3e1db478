package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/gateway/repoconfig"
)

// applyConfig merges the repository configuration into the options: the
// file given with --config, else .sealgate.yaml as the baseline commit has
// it — never the patch's copy, so a patch cannot lower the bar it is
// judged by. A flag given on the command line wins over the file; seal
// checks and test-support globs of both are kept.
func (o *verifyOptions) applyConfig(cmd *cobra.Command) error {
	cfg, from, err := o.loadConfig(cmd.Context())
	if err != nil {
		return err
	}
	changed := cmd.Flags().Changed
	o.commands = map[string]criteria.Command{}
	if cfg != nil {
		f := cfg.Floors
		if f.Coverage != nil && !changed("coverage-floor") {
			o.coverageFloor = *f.Coverage
		}
		if f.Strength != nil && !changed("strength-floor") {
			o.strengthFloor = *f.Strength
		}
		if f.Confidence != nil && !changed("strength-confidence") {
			o.strengthConfidence = *f.Confidence
		}
		if f.Mutants != nil && !changed("mutation-max") {
			o.mutationMax = *f.Mutants
		}
		if cfg.Python != "" && !changed("python") {
			o.python = cfg.Python
		}
		o.testSupport = append(o.testSupport, cfg.TestSupport...)
		for label, c := range cfg.Commands {
			o.commands[label] = criteria.Command{Run: c.Run, JUnit: c.JUnit}
		}
		if cfg.Suite != nil {
			o.suite = &criteria.Command{Run: cfg.Suite.Run, JUnit: cfg.Suite.JUnit}
		}
		for _, c := range cfg.Seal {
			o.sealPlan = append(o.sealPlan, criteria.Command{Run: c.Run, JUnit: c.JUnit})
		}
	}
	for _, s := range o.seals {
		c := criteria.Command{Run: s}
		for _, have := range o.sealPlan {
			if have.ID() == c.ID() {
				return usageErrorf("--seal %q is already in the seal plan of %s", s, from)
			}
		}
		o.sealPlan = append(o.sealPlan, c)
	}
	var cmdClaims []string
	for _, c := range o.claims {
		if label, ok := strings.CutPrefix(c, "cmd:"); ok {
			cmdClaims = append(cmdClaims, label)
		}
	}
	switch {
	case o.junit != "" && o.testCommand == "":
		return usageErrorf("--junit goes with --test-command: it names the JUnit file that command writes")
	case o.testCommand != "" && len(cmdClaims) != 1:
		return usageErrorf("--test-command is the command of one cmd:LABEL claim; give exactly one (declare several under commands: in .sealgate.yaml)")
	case o.testCommand != "":
		o.commands[cmdClaims[0]] = criteria.Command{Run: o.testCommand, JUnit: o.junit}
	}
	for _, label := range cmdClaims {
		if _, ok := o.commands[label]; !ok {
			return usageErrorf("claim cmd:%s has no command: give --test-command CMD, or declare it under commands: in .sealgate.yaml", label)
		}
	}
	if len(o.commands) == 0 {
		o.commands = nil
	}
	return nil
}

// loadConfig reads the configuration and says where from; no file is no
// configuration.
func (o *verifyOptions) loadConfig(ctx context.Context) (*repoconfig.Config, string, error) {
	if o.configFile != "" {
		b, err := readInput("--config", o.configFile, maxConfigFile, "")
		if err != nil {
			return nil, "", err
		}
		cfg, err := repoconfig.Parse(b)
		if err != nil {
			return nil, "", usageErrorf("--config %s: %v", o.configFile, err)
		}
		return cfg, o.configFile, nil
	}
	if o.repo == "" || o.base == "" {
		return nil, "", nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	spec := o.base + ":" + repoconfig.FileName
	git := func(args ...string) ([]byte, error) {
		c := exec.CommandContext(ctx, "git", append([]string{"-C", o.repo}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Run(); err != nil {
			return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
		}
		return out.Bytes(), nil
	}
	if _, err := git("cat-file", "-e", spec); err != nil {
		// No such file at the baseline (or a revision checkout will
		// refuse with a better message).
		return nil, "", nil
	}
	b, err := git("cat-file", "blob", spec)
	if err != nil {
		return nil, "", usageErrorf("read %s at %s: %v", repoconfig.FileName, o.base, err)
	}
	cfg, err := repoconfig.Parse(b)
	if err != nil {
		return nil, "", usageErrorf("%s at %s: %v", repoconfig.FileName, o.base, err)
	}
	return cfg, repoconfig.FileName + " at " + o.base, nil
}

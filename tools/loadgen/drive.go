package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sealgate/sealgate/demo"
	"github.com/sealgate/sealgate/ledger/runindex"
	"github.com/sealgate/sealgate/tools/cluster"
)

// drive submits the runs — -runs of them, or as many as -soak allows, with
// SIGKILLs — -concurrency at a time, and checks the ledger afterwards.
func drive(ctx context.Context, o *options, sub *submitter, c *cluster.Cluster, patches []demo.Patch, log *slog.Logger) *Results {
	res := &Results{Runs: o.runs, Concurrency: o.concurrency, Checks: o.checks, Mutants: o.mutants, Soak: o.soak}
	var (
		mu   sync.Mutex
		next int
	)
	// take hands out the next run's number, or false when no more runs
	// are due.
	var soakEnd time.Time
	if o.soak > 0 {
		soakEnd = time.Now().Add(o.soak)
	}
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil || o.soak == 0 && next >= o.runs || o.soak > 0 && time.Now().After(soakEnd) {
			return 0, false
		}
		next++
		return next - 1, true
	}
	// The kills end with the soak; the runs still in flight then end
	// undisturbed.
	killCtx, stopKills := context.WithCancel(ctx)
	if o.soak > 0 {
		killCtx, stopKills = context.WithDeadline(ctx, soakEnd)
	}
	defer stopKills()
	var killers sync.WaitGroup
	if o.soak > 0 {
		killers.Add(1)
		go func() {
			defer killers.Done()
			res.Kills = kill(killCtx, c, o.killEvery, log)
		}()
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := take()
				if !ok {
					return
				}
				p := patches[i%len(patches)]
				// A key minted as sealgate verify --remote mints it: it
				// carries the time, so every lookup of the run reads its
				// partition from then, not from the start.
				out := sub.Run(ctx, runindex.NewKey(time.Now()), p)
				mu.Lock()
				res.Outcomes = append(res.Outcomes, out)
				done := len(res.Outcomes)
				mu.Unlock()
				if done%max(1, o.runs/10) == 0 || out.Err != "" {
					log.Info("run ended", "n", done, "patch", p.Name, "decision", out.Decision, "took", out.Took.Round(time.Millisecond), "err", out.Err)
				}
			}
		}()
	}
	wg.Wait()
	res.Wall = time.Since(start)
	killers.Wait()
	// Restarts settle before the ledger is read.
	res.Ledger = checkLedger(ctx, o, c)
	return res
}

// kill SIGKILLs a random service process about every `every` (uniformly
// between half and one and a half of it) until ctx ends, and returns what
// it killed.
func kill(ctx context.Context, c *cluster.Cluster, every time.Duration, log *slog.Logger) []string {
	var killed []string
	var procs []*cluster.Proc
	for _, s := range cluster.Services() {
		procs = append(procs, c.Procs(s)...)
	}
	for {
		wait := every/2 + rand.N(every)
		select {
		case <-ctx.Done():
			return killed
		case <-time.After(wait):
		}
		p := procs[rand.N(len(procs))]
		if err := p.Kill(syscall.SIGKILL); err != nil {
			log.Warn("kill", "proc", p.Name(), "err", err)
			continue
		}
		log.Info("SIGKILL", "proc", p.Name())
		killed = append(killed, p.Name())
	}
}

// LedgerCheck is what the ledger itself says after the load.
type LedgerCheck struct {
	// Verify is `sealgate ledger verify`'s exit code and last line.
	VerifyExit int    `json:"verify_exit"`
	Verify     string `json:"verify"`
	// Runs are the runs on the ledger, Open those without a verdict and
	// Unsealed those whose verdict was not sealed; Refused counts what the
	// guard refused.
	Runs     []string `json:"runs"`
	Open     int      `json:"open"`
	Unsealed int      `json:"unsealed"`
	Refused  int      `json:"refused"`
	Err      string   `json:"err,omitempty"`
}

// checkLedger reads the cluster's ledger with the sealgate binary: `ledger
// verify` and `ledger runs` over Kafka, admitted records only.
func checkLedger(ctx context.Context, o *options, c *cluster.Cluster) LedgerCheck {
	var lc LedgerCheck
	flags := []string{"--brokers", c.Brokers, "--trust", filepath.Join(c.Keys, "trust.json")}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, o.sealgate, append([]string{"ledger", "verify"}, flags...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		lc.VerifyExit = ee.ExitCode()
	} else if err != nil {
		lc.Err = fmt.Sprintf("ledger verify: %v", err)
		return lc
	}
	lc.Verify = lastLine(out.String())
	list, err := exec.CommandContext(ctx, o.sealgate, append([]string{"ledger", "runs", "--json"}, flags...)...).Output()
	if err != nil {
		lc.Err = fmt.Sprintf("ledger runs: %v", err)
		return lc
	}
	var doc struct {
		Runs []struct {
			RunID    string `json:"run_id"`
			Decision string `json:"decision"`
			Sealed   bool   `json:"sealed"`
		} `json:"runs"`
		Refused []json.RawMessage `json:"refused"`
	}
	if err := json.Unmarshal(list, &doc); err != nil {
		lc.Err = fmt.Sprintf("ledger runs: %v", err)
		return lc
	}
	for _, r := range doc.Runs {
		lc.Runs = append(lc.Runs, r.RunID)
		switch {
		case r.Decision == "open":
			lc.Open++
		case !r.Sealed:
			lc.Unsealed++
		}
	}
	lc.Refused = len(doc.Refused)
	return lc
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

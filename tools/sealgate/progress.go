package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// progress writes what a run does to stderr: one line per ledger record,
// and on a terminal a live status line for the job that is running.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	runID string
	live  bool
}

func newProgress(w io.Writer, runID string) *progress {
	p := &progress{w: w, runID: runID}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			p.tty = true
		}
	}
	return p
}

// line prints one permanent line.
func (p *progress) line(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, "sealgate: "+format+"\n", args...)
}

func (p *progress) clear() {
	if p.live {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.live = false
	}
}

// record prints a ledger record of the run.
func (p *progress) record(rec *record.Decoded) {
	line := ledger.Describe(rec)
	if res := rec.Record.GetJobResult(); res != nil {
		if d, err := jobs.ParseDetail(res.Detail); err == nil {
			line += " → " + d.Outcome
			if d.Outcome != jobs.OutcomePass && d.Reason != "" {
				line += " (" + clipLine(d.Reason, 160) + ")"
			}
		}
	}
	p.line("%-18s %s", record.KindName(rec.Kind), line)
}

func clipLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// job hears the executor start and finish jobs; on a terminal the running
// job is shown on a status line.
func (p *progress) job(runID, jobID, state string) {
	if !p.tty || runID != p.runID || state != "running" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, "sealgate: running %s …", jobID)
	p.live = true
}

// done prints the final line.
func (p *progress) done(s string) { p.line("%s", s) }

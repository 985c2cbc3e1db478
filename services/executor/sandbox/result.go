//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Termination is how a run ended.
type Termination uint8

// The terminations. The zero value is NotStarted, so a Result nobody filled
// in is never a clean exit.
const (
	// NotStarted: the command never ran: it was not found, prlimit or the
	// sandbox failed to set up, or the context was done before the start.
	NotStarted Termination = iota
	// Exited: the command exited by itself; Result.ExitCode says how.
	Exited
	// Timeout: the wall-clock limit ran out and Run killed the whole tree.
	Timeout
	// Signaled: a signal Run did not send killed the command, or the
	// caller's context was cancelled and Run killed the tree (then Run also
	// returns an error).
	Signaled
	// OOM: the Go runtime or the process reported running out of memory
	// (often the address-space limit), or the command died while the
	// kernel's OOM killer killed something.
	OOM
	// Rlimit: a resource limit ended the command: SIGXCPU, SIGXFSZ, the
	// hard CPU limit, or a write failing with "file too large".
	Rlimit
)

// String returns the upper-case name of t, as in the protobuf enum.
func (t Termination) String() string {
	switch t {
	case NotStarted:
		return "NOT_STARTED"
	case Exited:
		return "EXITED"
	case Timeout:
		return "TIMEOUT"
	case Signaled:
		return "SIGNALED"
	case OOM:
		return "OOM"
	case Rlimit:
		return "RLIMIT"
	default:
		return fmt.Sprintf("Termination(%d)", uint8(t))
	}
}

// Result is how one run ended.
type Result struct {
	Termination Termination
	// ExitCode is the exit status when the command exited, else -1. It is
	// kept when output markers or the CPU limit reclassify the run.
	ExitCode int
	// Signal names the signal that killed the command ("SIGKILL"), else "".
	Signal string
	// Reason says in one line why the run is not a plain Exited.
	Reason string
	// Wall is the time from start to exit; CPU is the user and system time
	// of the command and every descendant that was waited for.
	Wall, CPU time.Duration
	// Sandbox describes the isolation the command actually had.
	Sandbox Info
}

// Info describes the sandbox a run used.
type Info struct {
	// Name is "bwrap" or "none".
	Name string
	// EnvNames are the sorted names of every environment variable the
	// command got. Values are never recorded.
	EnvNames []string
	// Limits describes the limits and isolation, such as "cpu_seconds",
	// "memory_bytes", "open_files", "processes", "processes_enforced",
	// "file_bytes", "core_bytes", "timeout", "network", "proc", "seccomp".
	Limits map[string]string
}

// marker is text in the output that says how a process died.
type marker struct {
	text string
	term Termination
}

// markers returns the output markers, in lower case; output matches them
// whatever its case. The Go runtime prints the first three
// when an allocation or its start-up reservation fails (for example under
// RLIMIT_AS); "cannot allocate memory" is ENOMEM; "file too large" is EFBIG,
// what a Go program sees past RLIMIT_FSIZE since it ignores SIGXFSZ.
func markers() []marker {
	return []marker{
		{"runtime: out of memory", OOM},
		{"fatal error: out of memory", OOM},
		{"failed to reserve page summary memory", OOM},
		{"cannot allocate memory", OOM},
		{"file too large", Rlimit},
	}
}

// runtimeExit is the exit status of a Go program the runtime ends (a fatal
// error, an unrecovered panic).
const runtimeExit = 2

// headSize is how much of the start of stderr scanWriter keeps.
const headSize = 512

// scanWriter passes output to the caller's writer and notes markers in it.
// It never fails, so the command is never disturbed by the caller's writer;
// the first error of that writer is kept for Run to report.
type scanWriter struct {
	w       io.Writer
	markers []marker
	maxLen  int

	mu    sync.Mutex
	tail  []byte
	head  []byte
	found map[Termination]string
	err   error
}

func newScanWriter(w io.Writer) *scanWriter {
	if w == nil {
		w = io.Discard
	}
	s := &scanWriter{w: w, markers: markers(), found: make(map[Termination]string)}
	for _, m := range s.markers {
		s.maxLen = max(s.maxLen, len(m.text))
	}
	return s
}

// Write implements io.Writer.
func (s *scanWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.head) < headSize {
		s.head = append(s.head, p[:min(len(p), headSize-len(s.head))]...)
	}
	buf := append(s.tail, p...)
	lower := bytes.ToLower(buf)
	for _, m := range s.markers {
		if _, ok := s.found[m.term]; !ok && bytes.Contains(lower, []byte(m.text)) {
			s.found[m.term] = m.text
		}
	}
	keep := min(len(buf), s.maxLen-1)
	s.tail = append(s.tail[:0:0], buf[len(buf)-keep:]...)
	if s.err == nil {
		if _, err := s.w.Write(p); err != nil {
			s.err = err
		}
	}
	return len(p), nil
}

// evidence is what Run observed of a run that started.
type evidence struct {
	bwrap    bool
	status   syscall.WaitStatus
	cpu      time.Duration
	cpuLimit uint64
	// head is the start of stderr; found merges both streams' markers.
	head []byte
	// oomKills is true when the kernel's oom_kill counter rose during the run.
	oomKills bool
	found    map[Termination]string
}

// classify turns the evidence into a Result's Termination, ExitCode, Signal
// and Reason. Output, the CPU used and the OOM counter only move a run away
// from Exited, never toward it.
func classify(e evidence) Result {
	r := Result{ExitCode: -1}
	var sig syscall.Signal
	switch {
	case e.status.Signaled():
		sig = e.status.Signal()
	case e.status.Exited():
		r.ExitCode = e.status.ExitStatus()
		if e.bwrap && r.ExitCode > 128 && r.ExitCode <= 128+64 {
			sig = syscall.Signal(r.ExitCode - 128)
			r.ExitCode = -1
		}
	default:
		r.Reason = "unknown wait status " + strconv.Itoa(int(e.status))
		return r
	}

	if r.ExitCode > 0 {
		for _, tool := range []string{"bwrap: ", "prlimit: ", execName + ": "} {
			if bytes.HasPrefix(e.head, []byte(tool)) {
				r.Termination = NotStarted
				r.Reason = firstLine(e.head)
				return r
			}
		}
		if r.ExitCode == 127 && bytes.Contains(e.head, []byte(": error while loading shared libraries: ")) {
			r.Termination = NotStarted
			r.Reason = firstLine(e.head)
			return r
		}
	}

	r.Termination = Exited
	if sig != 0 {
		r.Signal = signalName(sig)
		r.Termination = Signaled
		r.Reason = "killed by " + r.Signal
		if sig == unix.SIGXCPU || sig == unix.SIGXFSZ {
			r.Termination = Rlimit
			r.Reason = r.Signal + ": a resource limit was exceeded"
		}
	}
	failed := sig == unix.SIGKILL || (sig == 0 && r.ExitCode != 0)
	limit := time.Duration(e.cpuLimit) * time.Second
	if failed && e.cpuLimit > 0 && e.cpu >= limit {
		r.Termination = Rlimit
		r.Reason = fmt.Sprintf("the run used %v of CPU, at least the per-process limit of %v", e.cpu.Round(time.Millisecond), limit)
	}
	if r.Termination != Exited && r.Termination != Signaled {
		return r
	}
	// Output is the tested code's to write: a test that prints "fatal
	// error: out of memory" and fails must stay a failure. The markers
	// count only for a process the runtime ended — a signal, or exit 2,
	// the status the Go runtime and a test binary's panic exit with.
	died := sig != 0 || r.ExitCode == runtimeExit
	switch {
	case died && e.found[OOM] != "":
		r.Termination = OOM
		r.Reason = "the process died and its output says " + strconv.Quote(e.found[OOM])
	case failed && e.oomKills:
		r.Termination = OOM
		r.Reason = "the kernel OOM killer killed a process during the run"
	case died && e.found[Rlimit] != "":
		r.Termination = Rlimit
		r.Reason = "the process died and its output says " + strconv.Quote(e.found[Rlimit])
	}
	return r
}

// signalName returns "SIGKILL" for syscall.SIGKILL.
func signalName(sig syscall.Signal) string {
	if name := unix.SignalName(sig); name != "" {
		return name
	}
	return "signal " + strconv.Itoa(int(sig))
}

// firstLine returns the first line of b, without the newline, as valid
// UTF-8.
func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/spf13/cobra"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/guard"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
)

// brokerWait bounds how long a ledger tool waits for the first answer of
// a Kafka broker before it says that nothing answers at --brokers.
const brokerWait = 10 * time.Second

// defaultReadTimeout bounds one whole read of the records topic: a broker
// that answered and then stalls ends the tool rather than holding it.
const defaultReadTimeout = 10 * time.Minute

// A ledgerSource is the ledger the ledger tools (ledger verify, inspect,
// runs, replay) read: the local ledger of a state directory, or the
// records topic of a Kafka ledger. Every tool goes through it, so each
// works the same on both.
type ledgerSource interface {
	// String names the ledger in messages.
	String() string
	// Scan hands the ledger's records to fn in ledger order: the local
	// log's order; on Kafka, what the ledger guard admitted, each run's
	// records in its chain order. An entry with a Fault is a place where
	// the ledger itself is damaged.
	Scan(ctx context.Context, fn func(ledgerEntry) error) error
	// Refused lists what the last Scan did not use because the ledger
	// never admitted it (messages written to the records topic by anybody
	// but the ledger guard), in the order met. The local ledger has none:
	// its only writer admits.
	Refused() []refusal
	// Check is what verify checks beyond the records: the local ledger's
	// anchor and head. before says that the records are still to be read
	// (then only what reads badly in the records is left to them). After
	// the read it returns a description of the store for verify's summary.
	Check(ctx context.Context, before bool) (string, error)
	// Trust is the trust policy the ledger is read under: --trust, or the
	// state's trust.json.
	Trust() (*authority.Trust, error)
	Close() error
}

// ledgerEntry is one record of a ledger source.
type ledgerEntry struct {
	// Label names the record's place: #N, the local log's sequence
	// number; @N on Kafka, its place in its run's admitted chain.
	Label string
	// Seq counts the records in the order read (the log's sequence
	// number on the local ledger).
	Seq     uint64
	Payload []byte
	// RunID is the run the entry belongs to ("" when unknown).
	RunID string
	// Fault says why the ledger is damaged here; Payload is then empty.
	Fault error
}

// refusal is a message of the records topic the ledger never admitted.
type refusal struct {
	Code string `json:"code"`
	// RunID is the run the message names (its record's, or its label's
	// when the payload is no record).
	RunID  string `json:"run_id,omitempty"`
	Detail string `json:"detail"`
}

// ledgerFlags name the ledger a tool reads: --state (and --ledger) for the
// local one, --brokers (with --trust) for a Kafka ledger.
type ledgerFlags struct {
	state, ledger, trust string
	brokers              []string
	// withFile registers --ledger FILE.
	withFile bool
	// anchored: check the local ledger against its state's anchor (set
	// when the ledger is the state's own).
	anchored bool
	// wait bounds the first answer of a broker (brokerWait when zero).
	wait time.Duration
	// readTimeout bounds one read of the records topic (--read-timeout).
	readTimeout time.Duration
}

func (f *ledgerFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.state, "state", defaultStateDir(), "state directory of embedded mode (the local ledger)")
	if f.withFile {
		fl.StringVar(&f.ledger, "ledger", "", "ledger file (default STATE/ledger.db)")
	}
	fl.StringVar(&f.trust, "trust", "", "trust policy: the keys to trust and what each may write (default STATE/trust.json; required with --brokers)")
	fl.StringSliceVar(&f.brokers, "brokers", nil, "read the Kafka ledger of these bootstrap brokers, HOST:PORT (comma-separated or repeated), instead of the local one")
	fl.DurationVar(&f.readTimeout, "read-timeout", defaultReadTimeout, "with --brokers: give up a read of the records topic that takes longer")
}

// kafka reports whether the flags name a Kafka ledger.
func (f *ledgerFlags) kafka() bool { return len(f.brokers) > 0 }

// open opens the ledger the flags name. A Kafka ledger needs --trust,
// excludes --state and --ledger, and must answer within the wait.
func (f *ledgerFlags) open(cmd *cobra.Command) (ledgerSource, error) {
	ctx := cmd.Context()
	if !f.kafka() {
		if cmd.Flags().Changed("brokers") {
			return nil, usageErrorf("--brokers is empty: give HOST:PORT of a Kafka broker, or leave it out to read the local ledger")
		}
		path := f.ledger
		if path == "" {
			path = filepath.Join(f.state, ledgerFile)
		}
		trust := f.trust
		if trust == "" {
			trust = filepath.Join(f.state, trustFile)
		}
		anchored := f.anchored && !cmd.Flags().Changed("ledger")
		return openLocalSource(path, trust, anchored)
	}
	for _, name := range []string{"state", "ledger"} {
		if cmd.Flags().Changed(name) {
			return nil, usageErrorf("--%s and --brokers name two ledgers: give one", name)
		}
	}
	brokers, err := parseBrokers(f.brokers)
	if err != nil {
		return nil, usageErrorf("--brokers: %v", err)
	}
	if f.readTimeout <= 0 {
		return nil, usageErrorf("--read-timeout %s: give a positive duration", f.readTimeout)
	}
	if f.trust == "" {
		return nil, usageErrorf("--brokers needs --trust FILE: the trust policy the records and their admissions are checked against (sealgate keys services writes it)")
	}
	trust, err := loadTrust(f.trust)
	if err != nil {
		return nil, err
	}
	wait := f.wait
	if wait <= 0 {
		wait = brokerWait
	}
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := kafka.Ping(pctx, brokers); err != nil {
		if ctx.Err() != nil {
			return nil, infraErrorf("%v", ctx.Err())
		}
		return nil, infraErrorf("no Kafka broker answers at %s within %s (%v): is the broker running, and is --brokers its address?", strings.Join(brokers, ","), wait, err)
	}
	return &kafkaSource{brokers: brokers, trust: trust, v: admission.NewVerifier(trust), timeout: f.readTimeout}, nil
}

// maxBrokers bounds the --brokers list.
const maxBrokers = 64

// parseBrokers checks every --brokers entry is HOST:PORT, with a port from
// 1 to 65535 and a host without spaces, and returns them trimmed, in the
// order given, without repeats.
func parseBrokers(in []string) ([]string, error) {
	if len(in) > maxBrokers {
		return nil, fmt.Errorf("%d brokers, at most %d", len(in), maxBrokers)
	}
	var out []string
	for _, b := range in {
		b = strings.TrimSpace(b)
		host, port, err := net.SplitHostPort(b)
		if err != nil {
			return nil, fmt.Errorf("%q is not HOST:PORT", b)
		}
		if host == "" || strings.ContainsAny(host, " \t\r\n/@") || len(host) > 253 {
			return nil, fmt.Errorf("%q: bad host", b)
		}
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 || strings.HasPrefix(port, "0") || strings.HasPrefix(port, "+") {
			return nil, fmt.Errorf("%q: the port must be a number from 1 to 65535", b)
		}
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no broker given")
	}
	return out, nil
}

// localSource is the local ledger of a state directory (or --ledger FILE).
type localSource struct {
	path  string
	trust string
	mark  *ledgerMark
	log   *local.Log
	// entries counts the log entries the last Scan read, of every topic.
	entries uint64
}

func openLocalSource(path, trust string, anchored bool) (*localSource, error) {
	if err := ledgerExists(path); err != nil {
		return nil, err
	}
	s := &localSource{path: path, trust: trust}
	if anchored {
		anchors, err := loadAnchor(filepath.Dir(path))
		if err != nil {
			return nil, err
		}
		s.mark = anchors.current().Ledger
	}
	log, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		return nil, ledgerOpenError(path, s.mark, err)
	}
	s.log = log
	return s, nil
}

func (s *localSource) String() string { return "the ledger " + s.path }

func (s *localSource) Scan(ctx context.Context, fn func(ledgerEntry) error) error {
	s.entries = 0
	err := s.log.Scan(ctx, 1, func(e local.Entry, err error) error {
		if ce, ok := errors.AsType[*local.CorruptEntryError](err); ok {
			return fn(ledgerEntry{Label: fmt.Sprintf("#%d", ce.Seq), Seq: ce.Seq, Fault: ce})
		}
		if err != nil {
			return err
		}
		s.entries++
		if e.Topic != ledger.Topic {
			return nil
		}
		return fn(ledgerEntry{Label: fmt.Sprintf("#%d", e.Seq), Seq: e.Seq, Payload: e.Payload, RunID: e.Metadata[ledger.MetaRunID]})
	})
	if err != nil {
		if errors.Is(err, errStopScan) {
			return err
		}
		if _, ok := errors.AsType[*exitError](err); ok {
			return err
		}
		return namedLedgerError(s.path, s.mark, err)
	}
	return nil
}

func (s *localSource) Refused() []refusal { return nil }

func (s *localSource) Check(_ context.Context, before bool) (string, error) {
	if before {
		return "", precheckLedgerHead(s.log, s.path, s.mark)
	}
	if err := checkLedgerHead(s.log, s.path, s.mark); err != nil {
		return "", err
	}
	_, head, err := s.log.Head()
	if err != nil {
		return "", infraErrorf("read ledger head: %v", err)
	}
	return fmt.Sprintf("%d log entries; chain head %s", s.entries, head), nil
}

func (s *localSource) Trust() (*authority.Trust, error) { return loadTrust(s.trust) }

func (s *localSource) Close() error { return s.log.Close() }

// stopScan ends a Scan early; it is not an error of the ledger.
type stopScan string

func (s stopScan) Error() string { return string(s) }

// errStopScan is what a Scan callback returns to end the Scan early.
const errStopScan = stopScan("scan stopped")

// kafkaSource is the records topic of a Kafka ledger, read whole from its
// start: only what the ledger guard admitted, checked against the trust
// policy, the way the services' readers use it (guard.ReadAdmitted).
type kafkaSource struct {
	brokers []string
	trust   *authority.Trust
	v       *admission.Verifier
	refused []refusal
	// read counts the admitted records the last Scan read.
	read uint64
	// timeout bounds one Scan.
	timeout time.Duration
}

func (s *kafkaSource) String() string {
	return "the Kafka ledger at " + strings.Join(s.brokers, ",") + " (topic " + ledger.Topic + ")"
}

func (s *kafkaSource) Scan(parent context.Context, fn func(ledgerEntry) error) error {
	s.refused, s.read = nil, 0
	ctx, cancel := context.WithTimeout(parent, cmp.Or(s.timeout, defaultReadTimeout))
	defer cancel()
	var faults []ledgerEntry
	_, err := guard.ReadAdmitted(ctx, s.v, topicReader(s.brokers, ledger.Topic), func(a *admission.Admitted) error {
		raw, err := a.Record.Encoded()
		if err != nil {
			return err
		}
		s.read++
		return fn(ledgerEntry{Label: fmt.Sprintf("@%d", a.Seq), Seq: s.read, Payload: raw, RunID: a.RunID()})
	}, func(m *message.Message, err error) {
		code := admission.CodeOf(err)
		runID := ""
		if m != nil {
			runID = m.Metadata.Get(ledger.MetaRunID)
			if rec, derr := record.Decode(m.Payload); derr == nil {
				runID = rec.Record.GetRunId()
			}
		}
		if code == admission.CodeFork || code == admission.CodeGap {
			// Only the guard's key makes a genuine admission: two at one
			// place, or one whose predecessors are gone, is the ledger
			// damaged, not somebody's junk.
			if r, ok := errors.AsType[*admission.Refusal](err); ok && runID == "" {
				runID = runOfRefusal(r)
			}
			faults = append(faults, ledgerEntry{Label: "-", RunID: runID, Fault: err})
			return
		}
		s.refused = append(s.refused, refusal{Code: code, RunID: runID, Detail: err.Error()})
	})
	if err != nil {
		if errors.Is(err, errStopScan) {
			return err
		}
		if _, ok := errors.AsType[*exitError](err); ok {
			return err
		}
		if parent.Err() == nil && ctx.Err() != nil {
			return infraErrorf("reading %s did not finish within --read-timeout %s (%v): is every partition's leader reachable?", s, cmp.Or(s.timeout, defaultReadTimeout), err)
		}
		return infraErrorf("read %s: %v", s, err)
	}
	for _, f := range faults {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// runOfRefusal finds the run a chain refusal names: its detail starts
// with run "ID".
func runOfRefusal(r *admission.Refusal) string {
	rest, ok := strings.CutPrefix(r.Detail, "run ")
	if !ok || !strings.HasPrefix(rest, `"`) {
		return ""
	}
	id, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return ""
	}
	s, err := strconv.Unquote(id)
	if err != nil {
		return ""
	}
	return s
}

func (s *kafkaSource) Refused() []refusal { return s.refused }

func (s *kafkaSource) Check(_ context.Context, before bool) (string, error) {
	if before {
		return "", nil
	}
	return fmt.Sprintf("%d admitted records read from %s", s.read, s), nil
}

func (s *kafkaSource) Trust() (*authority.Trust, error) { return s.trust, nil }

func (s *kafkaSource) Close() error { return nil }

// maxRefusalLines bounds the refusals a listing prints one by one.
const maxRefusalLines = 20

// printRefused says what a source refused to use, after a listing: the
// count by code, then the first refusals one per line.
func printRefused(w io.Writer, src ledgerSource, rs []refusal) {
	if len(rs) == 0 {
		return
	}
	counts := map[string]int{}
	for _, r := range rs {
		counts[r.Code]++
	}
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", c, counts[c]))
	}
	noun := "messages"
	if len(rs) == 1 {
		noun = "message"
	}
	fmt.Fprintf(w, "refused %d %s of %s that the ledger guard did not admit (%s), so not part of any run:\n", len(rs), noun, src, strings.Join(parts, ", "))
	for i, r := range rs {
		if i == maxRefusalLines {
			fmt.Fprintf(w, "  … and %d more\n", len(rs)-i)
			break
		}
		fmt.Fprintf(w, "  refused: %s\n", r.Detail)
	}
}

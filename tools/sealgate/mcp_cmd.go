package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/local"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/report"
)

func newMCPCmd(stdout, stderr io.Writer) *cobra.Command {
	var state, buildCache string
	cmd := &cobra.Command{
		Use:   "mcp [--state DIR] [--build-cache DIR]",
		Short: "Serve the Model Context Protocol over stdio: tools verify, explain and replay for coding agents",
		Long: `mcp is a Model Context Protocol server on standard input and output (one
JSON-RPC message per line) for coding agents. Its tools:

  verify   verify a patch, with the inputs of sealgate verify; returns the
           decision, the reasons, the next steps and the artefact as
           structured content, and the text report; each progress line of
           the run is a progress notification when the call asks for them
  explain  the evidence of a run on the ledger, by run id: every record in
           ledger order and the sealed artefact
  replay   sealgate replay: recompute a run's verdict from the ledger alone

Verifications run one at a time in this process over the state directory.
Nothing but protocol messages goes to standard output: whatever else would
(a test process inheriting it) goes to standard error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := io.NopCloser(cmd.InOrStdin())
			out, err := protocolOutput(stdout)
			if err != nil {
				return infraErrorf("mcp: %v", err)
			}
			srv := newMCPServer(state, buildCache)
			err = srv.Run(cmd.Context(), &mcp.IOTransport{Reader: in, Writer: out})
			switch {
			case err == nil, errors.Is(err, io.EOF), errors.Is(err, context.Canceled):
				return nil
			}
			fmt.Fprintf(stderr, "sealgate mcp: %v\n", err)
			return infraErrorf("mcp: %v", err)
		},
	}
	cmd.Flags().StringVar(&state, "state", defaultStateDir(), "state directory of embedded mode (ledger, keys, build cache)")
	cmd.Flags().StringVar(&buildCache, "build-cache", "", "Go build cache of the test processes (default STATE/gocache)")
	return cmd
}

// protocolOutput returns the writer protocol messages go to. When it is
// the process's standard output, file descriptor 1 is moved aside and
// pointed at standard error, so that nothing else — a library, a child
// process inheriting it — can write into the protocol stream.
func protocolOutput(stdout io.Writer) (io.WriteCloser, error) {
	f, ok := stdout.(*os.File)
	if !ok || f != os.Stdout {
		return nopWriteCloser{stdout}, nil
	}
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(fd)
	if err := unix.Dup2(int(os.Stderr.Fd()), int(f.Fd())); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "mcp-protocol"), nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpTools serves the tools; one verification at a time, as the embedded
// state directory holds one writer.
type mcpTools struct {
	state, buildCache string
	mu                sync.Mutex
}

func newMCPServer(state, buildCache string) *mcp.Server {
	t := &mcpTools{state: state, buildCache: buildCache}
	srv := mcp.NewServer(&mcp.Implementation{Name: "sealgate", Version: version()}, &mcp.ServerOptions{
		Instructions: "sealgate verifies a patch against a baseline commit from evidence it produces itself and answers MERGE, BLOCK or INCONCLUSIVE. Call verify before you say a change is done; act on next_steps (fix_code, cover_lines, kill_mutant, add_test, human_review_test_edit, raise_limit). Never edit or delete tests to pass: the baseline's test files judge the patch.",
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "verify",
		Description: "Verify a patch: run the claimed tests on the baseline and the patch in a sandbox, the full suite, diff coverage and mutation testing; returns MERGE, BLOCK or INCONCLUSIVE with reasons, next steps and the sealed artefact. Give the patch as a commit (patch), a diff file (patch_file) or diff text (patch_diff). Sends progress notifications when the call has a progress token.",
	}, t.verify)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "explain",
		Description: "The evidence of a run: every ledger record of the run in order (kind, producer, digest, what it says) and its sealed artefact.",
	}, t.explain)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "replay",
		Description: "Recompute a run's verdict from the ledger alone and compare it byte for byte with the recorded one; checks the seal.",
	}, t.replay)
	return srv
}

// verifyInput are sealgate verify's flags.
type verifyInput struct {
	Repo               string   `json:"repo" jsonschema:"the git repository (a directory on this machine)"`
	Base               string   `json:"base" jsonschema:"the baseline revision"`
	Patch              string   `json:"patch,omitempty" jsonschema:"the patch as a revision whose tree is the patched code"`
	PatchFile          string   `json:"patch_file,omitempty" jsonschema:"the patch as a unified diff file against base"`
	PatchDiff          string   `json:"patch_diff,omitempty" jsonschema:"the patch as unified diff text against base"`
	Claims             []string `json:"claims,omitempty" jsonschema:"tests that prove the patch: go:./pkg:TestName, pytest:tests/test_x.py::test_y, cmd:LABEL; none: discover"`
	CoverageFloor      *float64 `json:"coverage_floor,omitempty" jsonschema:"diff coverage required, in [0,1]"`
	StrengthFloor      *float64 `json:"strength_floor,omitempty" jsonschema:"mutation strength lower bound required, in [0,1]"`
	StrengthConfidence *float64 `json:"strength_confidence,omitempty" jsonschema:"confidence of the Wilson lower bound, in (0,1)"`
	TestSupport        []string `json:"test_support,omitempty" jsonschema:"globs of files that are test code"`
	Timeout            string   `json:"timeout,omitempty" jsonschema:"deadline of the verification, a Go duration such as 20m"`
	MutationMax        *int     `json:"mutation_max,omitempty" jsonschema:"mutants at most; 0 switches mutation off"`
	StabilityReruns    *int     `json:"stability_reruns,omitempty" jsonschema:"times a failing claim run is repeated"`
	Python             string   `json:"python,omitempty" jsonschema:"interpreter of pytest claims"`
	TestCommand        string   `json:"test_command,omitempty" jsonschema:"the command of the one cmd:LABEL claim"`
	JUnit              string   `json:"junit,omitempty" jsonschema:"with test_command: the JUnit file it writes"`
	Seals              []string `json:"seals,omitempty" jsonschema:"seal checks: commands that must run, exit 0 and report cases"`
	Config             string   `json:"config,omitempty" jsonschema:"the repository configuration file instead of .sealgate.yaml at the baseline"`
	Sandbox            string   `json:"sandbox,omitempty" jsonschema:"auto, bwrap or none"`
	RequireSandbox     bool     `json:"require_sandbox,omitempty" jsonschema:"refuse to run without the bubblewrap sandbox"`
}

// args turns the input into sealgate verify's command line.
func (in verifyInput) args(state, buildCache, patchFile string) []string {
	args := []string{"verify", "--state", state, "--repo", in.Repo, "--base", in.Base}
	if buildCache != "" {
		args = append(args, "--build-cache", buildCache)
	}
	str := func(flag, v string) {
		if v != "" {
			args = append(args, flag, v)
		}
	}
	str("--patch", in.Patch)
	str("--patch-file", patchFile)
	for _, c := range in.Claims {
		args = append(args, "--claim", c)
	}
	for _, g := range in.TestSupport {
		args = append(args, "--test-support", g)
	}
	for _, s := range in.Seals {
		args = append(args, "--seal", s)
	}
	float := func(flag string, v *float64) {
		if v != nil {
			args = append(args, flag, strconv.FormatFloat(*v, 'g', -1, 64))
		}
	}
	integer := func(flag string, v *int) {
		if v != nil {
			args = append(args, flag, strconv.Itoa(*v))
		}
	}
	float("--coverage-floor", in.CoverageFloor)
	float("--strength-floor", in.StrengthFloor)
	float("--strength-confidence", in.StrengthConfidence)
	integer("--mutation-max", in.MutationMax)
	integer("--stability-reruns", in.StabilityReruns)
	str("--timeout", in.Timeout)
	str("--python", in.Python)
	str("--test-command", in.TestCommand)
	str("--junit", in.JUnit)
	str("--config", in.Config)
	str("--sandbox", in.Sandbox)
	if in.RequireSandbox {
		args = append(args, "--require-sandbox")
	}
	return args
}

// verifyOutput is the verify tool's structured content.
type verifyOutput struct {
	Decision  string     `json:"decision" jsonschema:"MERGE, BLOCK or INCONCLUSIVE"`
	ExitCode  int        `json:"exit_code" jsonschema:"0 MERGE, 1 BLOCK, 2 INCONCLUSIVE"`
	RunID     string     `json:"run_id"`
	Reason    string     `json:"reason" jsonschema:"the decisive reason"`
	Reasons   []string   `json:"reasons" jsonschema:"every finding, decisive first"`
	NextSteps []nextStep `json:"next_steps" jsonschema:"what to do, from a closed set of actions"`
	Artefact  any        `json:"artefact" jsonschema:"the sealed verification artefact (docs/artefact.schema.json)"`
}

type nextStep struct {
	Action string `json:"action"`
	Target string `json:"target"`
}

func (t *mcpTools) verify(ctx context.Context, req *mcp.CallToolRequest, in verifyInput) (*mcp.CallToolResult, verifyOutput, error) {
	if (in.PatchDiff != "") && (in.Patch != "" || in.PatchFile != "") {
		return nil, verifyOutput{}, errors.New("give the patch one way: patch, patch_file or patch_diff")
	}
	patchFile := in.PatchFile
	if in.PatchDiff != "" {
		f, err := os.CreateTemp("", "sealgate-mcp-*.diff")
		if err != nil {
			return nil, verifyOutput{}, err
		}
		defer os.Remove(f.Name())
		_, werr := f.WriteString(in.PatchDiff)
		if err := errors.Join(werr, f.Close()); err != nil {
			return nil, verifyOutput{}, err
		}
		patchFile = f.Name()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	progress := newProgressNotifier(ctx, req)
	var out bytes.Buffer
	code := run(ctx, in.args(t.state, t.buildCache, patchFile), &out, progress)
	progress.flush()
	if code > 2 {
		return nil, verifyOutput{}, fmt.Errorf("sealgate verify exited %d: %s", code, strings.TrimSpace(progress.last()))
	}
	a, err := report.Parse(out.Bytes())
	if err != nil {
		return nil, verifyOutput{}, fmt.Errorf("sealgate verify exited %d with no readable artefact: %w", code, err)
	}
	var raw any
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		return nil, verifyOutput{}, err
	}
	res := verifyOutput{Decision: string(a.Decision), ExitCode: a.ExitCode, RunID: a.RunID, Reason: a.Reason, Reasons: a.Reasons, NextSteps: []nextStep{}, Artefact: raw}
	for _, s := range a.NextSteps {
		res.NextSteps = append(res.NextSteps, nextStep{Action: string(s.Action), Target: s.Target})
	}
	locs := report.Locate(os.DirFS(in.Repo), a)
	text := report.Text(a, report.Options{Locations: locs})
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, res, nil
}

// runInput names a run.
type runInput struct {
	RunID string `json:"run_id" jsonschema:"the run id (the artefact's run_id)"`
}

// explainOutput is a run's evidence.
type explainOutput struct {
	RunID    string          `json:"run_id"`
	Records  []explainRecord `json:"records" jsonschema:"the run's ledger records in ledger order"`
	Artefact any             `json:"artefact" jsonschema:"the sealed artefact, or null when the run has none"`
}

type explainRecord struct {
	Kind     string `json:"kind"`
	Producer string `json:"producer"`
	Digest   string `json:"digest"`
	Time     string `json:"time"`
	Says     string `json:"says"`
}

func (t *mcpTools) explain(ctx context.Context, _ *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, explainOutput, error) {
	if strings.TrimSpace(in.RunID) == "" {
		return nil, explainOutput{}, errors.New("run_id is required")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	path := filepath.Join(t.state, ledgerFile)
	if err := ledgerExists(path); err != nil {
		return nil, explainOutput{}, err
	}
	log, err := local.OpenReadOnly(path, local.Options{})
	if err != nil {
		return nil, explainOutput{}, fmt.Errorf("open ledger: %w", err)
	}
	defer log.Close()
	recs, err := localHistory(log)(ctx, in.RunID)
	if err != nil {
		return nil, explainOutput{}, fmt.Errorf("read ledger: %w", err)
	}
	if len(recs) == 0 {
		return nil, explainOutput{}, fmt.Errorf("run %s is not on the ledger in %s", in.RunID, t.state)
	}
	out := explainOutput{RunID: in.RunID, Records: []explainRecord{}}
	var text strings.Builder
	for _, rec := range recs {
		r := rec.Record
		er := explainRecord{
			Kind: record.KindName(rec.Kind), Producer: r.Producer.GetIdentity(), Digest: rec.Digest,
			Time: time.Unix(0, r.TimeUnixNano).UTC().Format(time.RFC3339Nano), Says: ledger.Describe(rec),
		}
		out.Records = append(out.Records, er)
		fmt.Fprintf(&text, "%-18s %-12s %.12s  %s\n", er.Kind, er.Producer, er.Digest, er.Says)
		if vs := r.GetVerdictSealed(); vs != nil {
			art, err := blobsGet(ctx, t.state, vs.ArtefactBlob)
			if err != nil {
				return nil, explainOutput{}, fmt.Errorf("the sealed artefact: %w", err)
			}
			if err := json.Unmarshal(art, &out.Artefact); err != nil {
				return nil, explainOutput{}, fmt.Errorf("the sealed artefact: %w", err)
			}
		}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text.String()}}}, out, nil
}

// replayOutput is sealgate replay's result.
type replayOutput struct {
	RunID   string `json:"run_id"`
	Matches bool   `json:"matches" jsonschema:"the recomputed verdict and artefact match the recorded ones byte for byte and the seal checks"`
	Report  string `json:"report" jsonschema:"what replay printed"`
}

func (t *mcpTools) replay(ctx context.Context, _ *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, replayOutput, error) {
	if strings.TrimSpace(in.RunID) == "" {
		return nil, replayOutput{}, errors.New("run_id is required")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"replay", in.RunID, "--state", t.state}, &out, &errOut)
	if code != exitOK && code != exitFailed {
		return nil, replayOutput{}, fmt.Errorf("replay exited %d: %s", code, strings.TrimSpace(errOut.String()))
	}
	rep := strings.TrimSpace(out.String() + "\n" + errOut.String())
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rep}}},
		replayOutput{RunID: in.RunID, Matches: code == exitOK, Report: rep}, nil
}

// progressNotifier turns the lines a verification writes to its progress
// stream into progress notifications, when the call asked for them.
type progressNotifier struct {
	ctx     context.Context
	req     *mcp.CallToolRequest
	mu      sync.Mutex
	partial []byte
	n       int
	lastMsg string
}

func newProgressNotifier(ctx context.Context, req *mcp.CallToolRequest) *progressNotifier {
	return &progressNotifier{ctx: ctx, req: req}
}

func (p *progressNotifier) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		p.send(string(p.partial[:i]))
		p.partial = p.partial[i+1:]
	}
	return len(b), nil
}

// flush sends what is left of a line.
func (p *progressNotifier) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.partial) > 0 {
		p.send(string(p.partial))
		p.partial = nil
	}
}

func (p *progressNotifier) last() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastMsg
}

// send notifies one line. A notification that cannot be sent does not stop
// the verification: the result still comes back.
func (p *progressNotifier) send(line string) {
	line = strings.TrimSpace(strings.TrimPrefix(line, "sealgate: "))
	if line == "" {
		return
	}
	p.lastMsg = line
	p.n++
	if p.req == nil || p.req.Session == nil || p.req.Params == nil {
		return
	}
	token := p.req.Params.GetProgressToken()
	if token == nil {
		return
	}
	_ = p.req.Session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(p.n), Message: line})
}

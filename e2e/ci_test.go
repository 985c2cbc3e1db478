package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The doors of issue 17, run for real: the GitHub Action's steps and the
// GitLab template's script against a real repository with each CI's
// environment, the agent stop hook, and sealgate mcp driven by the SDK's
// own client. Each decision is a real verification of a demo patch.

// ciPatches are the three decisions, at the default floors: the honest fix
// merges; breaks-a-test blocks (TestClamp regresses); "untested" adds a
// Mode nobody tests and a cap in Median whose boundary no test checks
// (uncovered lines and surviving mutants: INCONCLUSIVE).
type ciRepo struct {
	*repo
	target string            // the target branch's tip: one commit past the baseline
	heads  map[string]string // decision → patch commit
}

const untestedMedian = `package calc

import "slices"

// Median returns the middle value of xs, which must not be empty, or the
// mean of the two middle values when xs has an even length. xs is not
// modified.
func Median(xs []float64) float64 {
	if len(xs) > 1000000 {
		return Mean(xs)
	}
	s := sorted(xs)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
`

func newCIRepo(t *testing.T) *ciRepo {
	t.Helper()
	r := newRepo(t)
	honest := r.patch(t, "honest-fix").Commit
	if got := r.show(t, honest, "calc/median.go"); !strings.Contains(got, "func sorted(xs []float64) []float64 {\n\ts := slices.Clone(xs)\n\tslices.Sort(s)\n\treturn s\n}") {
		t.Fatalf("the demo's median.go changed; update untestedMedian:\n%s", got)
	}
	untested := r.commit(t, honest, "untested", "calc: Mode, and Median of huge inputs", map[string]string{"calc/median.go": untestedMedian + strings.TrimPrefix(modeSource, "package calc\n")})
	// The target branch moves on after the pull requests branched off: the
	// baseline is their merge base, not the target's tip.
	target := r.commit(t, r.Base, "target", "README: a line", map[string]string{"README.md": r.show(t, r.Base, "README.md") + "\nMore.\n"})
	return &ciRepo{repo: r, target: target, heads: map[string]string{
		merge: honest, block: r.patch(t, "breaks-a-test").Commit, inconclusive: untested,
	}}
}

// checkoutMerge checks out what a CI system checks out for a pull request:
// the head merged into the target, detached.
func (r *ciRepo) checkoutMerge(t *testing.T, head string) {
	t.Helper()
	r.git(t, "checkout", "--quiet", "--detach", r.target)
	r.git(t, "merge", "--quiet", "--no-ff", "--no-edit", "--no-verify", head)
	r.commits++
}

// shared state of one test: a ledger and the shared build cache.
func ciArgs(t *testing.T) []string {
	return []string{"--state", t.TempDir(), "--build-cache", filepath.Join(os.TempDir(), "sealgate-test-gocache")}
}

// moduleRoot is the sealgate repository: the action's own checkout.
func moduleRoot(t *testing.T) string {
	t.Helper()
	if os.Getenv("TEST_SRCDIR") != "" {
		t.Skip("reads the repository's own files (action.yml, the templates), which Bazel's runfiles do not hold")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "action.yml")); err != nil {
		t.Fatalf("no action.yml at the module root: %v", err)
	}
	return root
}

// The official SARIF 2.1.0 schema, vendored in report/testdata and pinned.
const sarifSchemaSHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

func validateSARIFFile(t *testing.T, file string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(moduleRoot(t), "report", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		t.Fatalf("the vendored SARIF schema is not the pinned one: %x", sum)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	if err := c.AddResource("sarif.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("SARIF: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("SARIF does not validate against the official schema: %v\n%s", err, data)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sarifRules lists the rule id and first location of every result.
func sarifRules(m map[string]any) []string {
	var out []string
	run := m["runs"].([]any)[0].(map[string]any)
	for _, r := range run["results"].([]any) {
		res := r.(map[string]any)
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri := loc["artifactLocation"].(map[string]any)["uri"]
		line := loc["region"].(map[string]any)["startLine"]
		out = append(out, fmt.Sprintf("%s %s:%v", res["ruleId"], uri, line))
	}
	return out
}

func hasPrefix(list []string, prefix string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.HasPrefix(s, prefix) })
}

// --- GitHub Actions -------------------------------------------------------

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID               string            `yaml:"id"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	If               string            `yaml:"if"`
}

// actionRun is what running the action's steps left.
type actionRun struct {
	exitCode int
	outputs  map[string]string
	summary  string
	stdout   string
	log      string
}

// runAction runs action.yml's steps as a GitHub runner does for a composite
// action: each run step with bash --noprofile --norc -eo pipefail, its env
// and expressions evaluated from the inputs, the event payload and earlier
// steps' outputs, with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH and
// GITHUB_ENV files. The one uses step must be actions/setup-go: Go is
// already on this machine.
//
// The install step compiles sealgate; installed, when not "", is the
// directory an earlier run of the same test installed it to, and the step
// is not run again (a runner would; the machine is shared). The first
// install is moved to keep, a directory that outlives this run.
func runAction(t *testing.T, workspace string, event map[string]any, inputs map[string]string, keep string, installed *string) *actionRun {
	t.Helper()
	root := moduleRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action actionFile
	if err := yaml.Unmarshal(raw, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", action.Runs.Using)
	}
	for name := range inputs {
		if _, ok := action.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
	}
	dir := t.TempDir()
	eventPath := filepath.Join(dir, "event.json")
	eventJSON, _ := json.Marshal(event)
	if err := os.WriteFile(eventPath, eventJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	runnerTemp := filepath.Join(dir, "runner-temp")
	if err := os.MkdirAll(runnerTemp, 0o755); err != nil {
		t.Fatal(err)
	}
	eventName := "push"
	if _, ok := event["pull_request"]; ok {
		eventName = "pull_request"
	}
	steps := map[string]map[string]string{}
	expression := regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	eval := func(expr string) string {
		parts := strings.Split(expr, ".")
		switch {
		case len(parts) == 2 && parts[0] == "inputs":
			if v, ok := inputs[parts[1]]; ok {
				return v
			}
			in, ok := action.Inputs[parts[1]]
			if !ok {
				t.Fatalf("expression %q names no input", expr)
			}
			return in.Default
		case expr == "github.action_path":
			return root
		case len(parts) > 2 && parts[0] == "github" && parts[1] == "event":
			var v any = event
			for _, p := range parts[2:] {
				m, _ := v.(map[string]any)
				v = m[p]
			}
			if v == nil {
				return ""
			}
			return fmt.Sprint(v)
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			return steps[parts[1]][parts[3]]
		}
		t.Fatalf("the test's runner does not evaluate the expression %q: keep action.yml to inputs, github.action_path, github.event and steps outputs", expr)
		return ""
	}
	expand := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string { return eval(expression.FindStringSubmatch(m)[1]) })
	}
	var path []string
	env := map[string]string{}
	res := &actionRun{}
	var logs strings.Builder
	for i, step := range action.Runs.Steps {
		if step.If != "" {
			t.Fatalf("step %d has an if: the test's runner does not evaluate it", i)
		}
		if step.Uses != "" {
			if !strings.HasPrefix(step.Uses, "actions/setup-go@") {
				t.Fatalf("step %d uses %s: only actions/setup-go is expected", i, step.Uses)
			}
			continue
		}
		if step.ID == "install" && *installed != "" {
			path = append([]string{*installed}, path...)
			continue
		}
		if step.Shell != "bash" {
			t.Fatalf("step %d: shell %q, want bash", i, step.Shell)
		}
		files := map[string]string{}
		for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH", "GITHUB_ENV"} {
			files[f] = filepath.Join(dir, fmt.Sprintf("%s-%d", strings.ToLower(f), i))
			if err := os.WriteFile(files[f], nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		script := filepath.Join(dir, fmt.Sprintf("step-%d.sh", i))
		if err := os.WriteFile(script, []byte(expand(step.Run)), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
		cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		if step.WorkingDirectory != "" {
			cmd.Dir = expand(step.WorkingDirectory)
		}
		vars := map[string]string{
			"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace, "GITHUB_EVENT_NAME": eventName,
			"GITHUB_EVENT_PATH": eventPath, "GITHUB_ACTION_PATH": root, "RUNNER_TEMP": runnerTemp, "RUNNER_OS": "Linux",
			"PATH": strings.Join(append(slices.Clone(path), os.Getenv("PATH")), string(os.PathListSeparator)),
		}
		for k, v := range env {
			vars[k] = v
		}
		for k, v := range step.Env {
			vars[k] = expand(v)
		}
		for k, v := range files {
			vars[k] = v
		}
		cmd.Env = os.Environ()
		for k, v := range vars {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		fmt.Fprintf(&logs, "--- step %d (%s) ---\n%s%s", i, step.ID, stdout.String(), stderr.String())
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			res.exitCode = exit.ExitCode()
		case err != nil:
			t.Fatalf("step %d: %v", i, err)
		}
		res.stdout += stdout.String()
		summary, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
		res.summary += string(summary)
		if step.ID != "" {
			steps[step.ID] = readOutputs(t, files["GITHUB_OUTPUT"])
		}
		added, _ := os.ReadFile(files["GITHUB_PATH"])
		for _, p := range strings.Split(strings.TrimSpace(string(added)), "\n") {
			if p == "" {
				continue
			}
			if step.ID == "install" && res.exitCode == 0 {
				kept := filepath.Join(keep, "sealgate-bin")
				if err := os.Rename(p, kept); err != nil {
					t.Fatal(err)
				}
				p, *installed = kept, kept
			}
			path = append([]string{p}, path...)
		}
		for k, v := range readOutputs(t, files["GITHUB_ENV"]) {
			env[k] = v
		}
		if res.exitCode != 0 {
			break // a failed step ends the composite action
		}
	}
	res.outputs = map[string]string{}
	for name, out := range action.Outputs {
		res.outputs[name] = expand(out.Value)
	}
	res.log = logs.String()
	return res
}

// readOutputs reads a GITHUB_OUTPUT/GITHUB_ENV file: name=value lines and
// name<<DELIMITER blocks; a later value wins.
func readOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		if name, val, ok := strings.Cut(line, "="); ok {
			out[name] = val
		} else if line != "" {
			t.Fatalf("%s: malformed line %q", file, line)
		}
	}
	return out
}

func prEvent(r *ciRepo, head string) map[string]any {
	return map[string]any{
		"action": "synchronize", "number": 1,
		"pull_request": map[string]any{
			"number": 1,
			"base":   map[string]any{"ref": "main", "sha": r.target},
			"head":   map[string]any{"ref": "patch", "sha": head},
		},
	}
}

// The Action verifies a pull request for each decision: outputs, summary,
// annotations, SARIF valid against the official schema, the exit status.
func TestGitHubAction(t *testing.T) {
	r := newCIRepo(t)
	extra := strings.Join(ciArgs(t), "\n")
	keep, installed := t.TempDir(), ""
	for _, c := range []struct {
		decision string
		inputs   map[string]string
		exit     int
		summary  []string
		rules    []string
		stdout   string
	}{
		{merge, nil, 0, []string{"## sealgate: ✅ MERGE", "| claims | 1 verified of 1; 1 fixed; fix proven: yes |", "### Seal"}, nil, "::notice title=sealgate MERGE::"},
		{block, nil, 1, []string{"## sealgate: ❌ BLOCK", "TestClamp", "`calc/calc_test.go:56`"}, []string{"SG001 calc/calc_test.go:56"},
			"::error title=sealgate SG001 CollateralRegression,file=calc/calc_test.go,line=56::"},
		{inconclusive, nil, 2, []string{"## sealgate: ⚠️ INCONCLUSIVE", "### Diff coverage: 8 changed line(s) no test executes", "### Mutation: 4 surviving mutant(s)"},
			[]string{"SG004 calc/median.go:10", "SG005 calc/median.go:9"}, "::warning title=sealgate SG004 UncoveredChangedLine,file=calc/median.go,line=10::"},
		{inconclusive, map[string]string{"fail-on": "block"}, 0, []string{"## sealgate: ⚠️ INCONCLUSIVE"}, []string{"SG004 calc/median.go:10"}, ""},
	} {
		t.Run(fmt.Sprintf("%s %v", c.decision, c.inputs), func(t *testing.T) {
			head := r.heads[c.decision]
			r.checkoutMerge(t, head)
			inputs := map[string]string{"claims": medianClaim, "args": extra}
			for k, v := range c.inputs {
				inputs[k] = v
			}
			run := runAction(t, r.Dir, prEvent(r, head), inputs, keep, &installed)
			if run.exitCode != c.exit || run.outputs["decision"] != c.decision || run.outputs["exit-code"] != fmt.Sprint(adjudicationExit(c.decision)) {
				t.Fatalf("exit %d, outputs %v; want exit %d, decision %s\n%s", run.exitCode, run.outputs, c.exit, c.decision, run.log)
			}
			for _, want := range c.summary {
				if !strings.Contains(run.summary, want) {
					t.Errorf("the summary lacks %q:\n%s", want, run.summary)
				}
			}
			if c.stdout != "" && !strings.Contains(run.stdout, c.stdout) {
				t.Errorf("no annotation %q in the step's output:\n%s", c.stdout, run.stdout)
			}
			rules := sarifRules(validateSARIFFile(t, run.outputs["sarif"]))
			for _, want := range c.rules {
				if !hasPrefix(rules, want) {
					t.Errorf("SARIF has no result %q: %v", want, rules)
				}
			}
			if c.decision == merge && len(rules) != 0 {
				t.Errorf("a MERGE with SARIF results %v", rules)
			}
			var art artefact
			data, err := os.ReadFile(run.outputs["artefact"])
			if err != nil || json.Unmarshal(data, &art) != nil || art.Decision != c.decision {
				t.Fatalf("artefact output %q: %v, decision %q", run.outputs["artefact"], err, art.Decision)
			}
			var base struct {
				Baseline struct{ Commit string } `json:"baseline"`
			}
			_ = json.Unmarshal(data, &base)
			if base.Baseline.Commit != r.Base {
				t.Errorf("baseline %s, want the merge base %s (not the target's tip %s)", base.Baseline.Commit, r.Base, r.target)
			}
			for _, out := range []string{"attestation", "junit"} {
				if st, err := os.Stat(run.outputs[out]); err != nil || st.Size() == 0 {
					t.Errorf("output %s = %q: %v", out, run.outputs[out], err)
				}
			}
		})
	}
	// Fail closed: without a pull request and without base and head
	// inputs, or with a fail-on it does not know, the step fails before
	// verifying anything, and says so.
	t.Run("errors", func(t *testing.T) {
		run := runAction(t, r.Dir, map[string]any{"ref": "refs/heads/main"}, map[string]string{"args": extra}, keep, &installed)
		if run.exitCode == 0 || run.outputs["decision"] != "ERROR" || !strings.Contains(run.summary, "no verdict") {
			t.Fatalf("push event: exit %d, outputs %v, summary %q\n%s", run.exitCode, run.outputs, run.summary, run.log)
		}
		run = runAction(t, r.Dir, prEvent(r, r.heads[merge]), map[string]string{"fail-on": "never", "args": extra}, keep, &installed)
		if run.exitCode == 0 || run.outputs["decision"] != "ERROR" || strings.Contains(run.log, "sealgate: baseline") {
			t.Fatalf("fail-on never: exit %d, outputs %v\n%s", run.exitCode, run.outputs, run.log)
		}
		run = runAction(t, r.Dir, prEvent(r, strings.Repeat("f", 40)), map[string]string{"args": extra}, keep, &installed)
		if run.exitCode == 0 || !strings.Contains(run.summary, "fetch-depth: 0") {
			t.Fatalf("a head not in the checkout: exit %d, summary %q\n%s", run.exitCode, run.summary, run.log)
		}
		// Inputs are data, never shell: a claim that is a command
		// substitution reaches sealgate as a (bad) claim.
		pwned := filepath.Join(t.TempDir(), "pwned")
		run = runAction(t, r.Dir, prEvent(r, r.heads[merge]), map[string]string{"claims": medianClaim + "\n$(touch " + pwned + ")", "args": extra}, keep, &installed)
		if _, err := os.Stat(pwned); err == nil || run.exitCode == 0 || run.outputs["decision"] != "ERROR" || run.outputs["exit-code"] != "3" {
			t.Fatalf("an injected claim: exit %d, outputs %v, %s exists: %v\n%s", run.exitCode, run.outputs, pwned, err == nil, run.log)
		}
	})
}

func adjudicationExit(decision string) int {
	return map[string]int{merge: exitMerge, block: exitBlock, inconclusive: exitInconclusive}[decision]
}

// The example workflow uses the action's outputs to upload the SARIF and
// the attestation bundle.
func TestExampleWorkflow(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "examples", "sealgate-workflow.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []map[string]any `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if u, ok := s["uses"].(string); ok {
				uses = append(uses, u)
			}
		}
	}
	for _, want := range []string{"actions/checkout@", "sealgate/sealgate@", "github/codeql-action/upload-sarif@", "actions/upload-artifact@"} {
		if !hasPrefix(uses, want) {
			t.Errorf("the example workflow does not use %s: %v", want, uses)
		}
	}
	for _, want := range []string{"fetch-depth: 0", "steps.sealgate.outputs.sarif", "steps.sealgate.outputs.attestation", "if: always()"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the example workflow lacks %q", want)
		}
	}
}

// --- GitLab CI ------------------------------------------------------------

// gitlabJob is the template's job "sealgate" with what it extends merged.
func gitlabJob(t *testing.T) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(moduleRoot(t), "integrations", "gitlab", "sealgate.gitlab-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("the GitLab template: %v", err)
	}
	job, ok := doc["sealgate"]
	if !ok {
		t.Fatal("the GitLab template has no job sealgate")
	}
	merged := map[string]any{}
	if base, ok := job["extends"].(string); ok {
		for k, v := range doc[base] {
			merged[k] = v
		}
	}
	for k, v := range job {
		merged[k] = v
	}
	return merged
}

// runGitLab runs the template's script as GitLab's runner runs a bash job:
// the script lines in one bash with set -eo pipefail, the job's variables
// and the predefined variables of a merge request pipeline.
func runGitLab(t *testing.T, project string, vars map[string]string) (int, string) {
	t.Helper()
	job := gitlabJob(t)
	env := os.Environ()
	for k, v := range job["variables"].(map[string]any) {
		env = append(env, k+"="+fmt.Sprint(v))
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	env = append(env, "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var script []string
	for _, key := range []string{"before_script", "script"} {
		lines, _ := job[key].([]any)
		for _, l := range lines {
			script = append(script, fmt.Sprint(l))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", "set -eo pipefail\n"+strings.Join(script, "\n"))
	cmd.Dir = project
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	case err != nil:
		t.Fatal(err)
	}
	return 0, string(out)
}

// The GitLab template on a merge request of each decision: the job's exit
// status, the JUnit and Code Quality reports it declares, the dotenv.
func TestGitLabTemplate(t *testing.T) {
	job := gitlabJob(t)
	reports := job["artifacts"].(map[string]any)["reports"].(map[string]any)
	out := job["variables"].(map[string]any)["SEALGATE_OUT"].(string)
	expand := func(p string) string { return strings.ReplaceAll(fmt.Sprint(p), "$SEALGATE_OUT", out) }
	rules, _ := json.Marshal(job["rules"])
	if !strings.Contains(string(rules), "merge_request_event") {
		t.Fatalf("the job does not run on merge requests: %s", rules)
	}
	r := newCIRepo(t)
	for _, c := range []struct {
		decision   string
		exit       int
		failures   int
		errors     int
		checkNames []string
	}{
		{merge, 0, 0, 0, nil},
		{block, 1, 2, 0, []string{"sealgate/SG001"}},
		{inconclusive, 2, 0, 1, []string{"sealgate/SG004", "sealgate/SG005"}},
	} {
		t.Run(c.decision, func(t *testing.T) {
			head := r.heads[c.decision]
			r.git(t, "checkout", "--quiet", "--detach", head)
			project := r.Dir
			os.RemoveAll(filepath.Join(project, out))
			code, log := runGitLab(t, project, map[string]string{
				"CI": "true", "GITLAB_CI": "true", "CI_PROJECT_DIR": project, "CI_PIPELINE_SOURCE": "merge_request_event",
				"CI_COMMIT_SHA": head, "CI_MERGE_REQUEST_DIFF_BASE_SHA": r.Base, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
				"CI_MERGE_REQUEST_IID": "1", "SEALGATE_CLAIMS": medianClaim, "SEALGATE_ARGS": strings.Join(ciArgs(t), "\n"),
			})
			if code != c.exit {
				t.Fatalf("exit %d, want %d:\n%s", code, c.exit, log)
			}
			var suites struct {
				Failures int `xml:"failures,attr"`
				Errors   int `xml:"errors,attr"`
			}
			junit, err := os.ReadFile(filepath.Join(project, expand(reports["junit"].(string))))
			if err != nil || xml.Unmarshal(junit, &suites) != nil {
				t.Fatalf("JUnit report: %v\n%s", err, junit)
			}
			if suites.Failures != c.failures || suites.Errors != c.errors {
				t.Errorf("JUnit: %d failures, %d errors; want %d, %d\n%s", suites.Failures, suites.Errors, c.failures, c.errors, junit)
			}
			var issues []struct {
				CheckName string `json:"check_name"`
				Location  struct {
					Path  string `json:"path"`
					Lines struct {
						Begin int `json:"begin"`
					} `json:"lines"`
				} `json:"location"`
			}
			cq, err := os.ReadFile(filepath.Join(project, expand(reports["codequality"].(string))))
			if err != nil || json.Unmarshal(cq, &issues) != nil {
				t.Fatalf("Code Quality report: %v\n%s", err, cq)
			}
			var names []string
			for _, is := range issues {
				names = append(names, is.CheckName)
				if is.Location.Path == "" || is.Location.Lines.Begin < 1 {
					t.Errorf("issue without a location: %+v", is)
				}
			}
			for _, want := range c.checkNames {
				if !slices.Contains(names, want) {
					t.Errorf("Code Quality has no %s: %v", want, names)
				}
			}
			if c.decision == merge && len(issues) != 0 {
				t.Errorf("a MERGE with Code Quality issues %v", names)
			}
			dotenv, _ := os.ReadFile(filepath.Join(project, expand(reports["dotenv"].(string))))
			if !strings.Contains(string(dotenv), "SEALGATE_DECISION="+c.decision+"\n") {
				t.Errorf("dotenv %q lacks the decision", dotenv)
			}
			validateSARIFFile(t, filepath.Join(project, out, "sealgate.sarif"))
		})
	}
	t.Run("not a merge request", func(t *testing.T) {
		code, log := runGitLab(t, r.Dir, map[string]string{"CI_PROJECT_DIR": r.Dir, "CI_PIPELINE_SOURCE": "push", "CI_COMMIT_SHA": r.heads[merge]})
		if code == 0 || !strings.Contains(log, "no merge request") {
			t.Fatalf("exit %d:\n%s", code, log)
		}
	})
}

// --- the agent stop hook ------------------------------------------------

func runHook(t *testing.T, dir string, env ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(moduleRoot(t), "integrations", "agent-hook", "sealgate-stop-hook.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(`{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// The stop hook lets the agent stop on MERGE and when nothing changed,
// blocks (exit 2) with the reasons and next steps on BLOCK, and blocks on
// any error of its own.
func TestAgentStopHook(t *testing.T) {
	r := newRepo(t)
	settings := []string{
		"SEALGATE_BIN=" + binary, "SEALGATE_CLAIMS=" + medianClaim,
		"SEALGATE_ARGS=" + strings.Join(ciArgs(t), "\n"), "CLAUDE_PROJECT_DIR=" + r.Dir,
	}
	write := func(rev, file string) {
		if err := os.WriteFile(filepath.Join(r.Dir, file), []byte(r.show(t, rev, file)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := runHook(t, r.Dir, settings...); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Fatalf("no change: exit %d\n%s%s", code, out, errOut)
	}
	// The agent's uncommitted honest fix: MERGE, the agent may stop.
	write(r.patch(t, "honest-fix").Commit, "calc/median.go")
	if code, out, errOut := runHook(t, r.Dir, settings...); code != 0 || !strings.Contains(out, "sealgate: MERGE") {
		t.Fatalf("honest fix: exit %d\n%s%s", code, out, errOut)
	}
	if status := r.git(t, "status", "--porcelain"); status != " M calc/median.go\n" {
		t.Fatalf("the hook changed the repository's index or tree: %q", status)
	}
	// The agent also breaks Clamp, committing part of it: blocked, told why.
	write(r.patch(t, "breaks-a-test").Commit, "calc/calc.go")
	r.git(t, "add", "calc/calc.go")
	code, out, errOut := runHook(t, r.Dir, settings...)
	if code != 2 {
		t.Fatalf("breaks a test: exit %d, want 2\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"sealgate: BLOCK", "TestClamp", "next steps:", "fix_code", "calc/calc_test.go:56", "Do not edit or delete tests"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// Errors of its own block too.
	for name, env := range map[string][]string{
		"no sealgate":    {"SEALGATE_BIN=/nonexistent/sealgate", "CLAUDE_PROJECT_DIR=" + r.Dir},
		"not a git tree": {"SEALGATE_BIN=" + binary, "CLAUDE_PROJECT_DIR=" + t.TempDir()},
		"a bad base":     {"SEALGATE_BIN=" + binary, "CLAUDE_PROJECT_DIR=" + r.Dir, "SEALGATE_BASE=nosuchrev"},
		"a usage error":  {"SEALGATE_BIN=" + binary, "CLAUDE_PROJECT_DIR=" + r.Dir, "SEALGATE_CLAIMS=go:calc"},
	} {
		code, out, errOut := runHook(t, r.Dir, env...)
		if code != 2 || !strings.Contains(errOut, "sealgate") {
			t.Errorf("%s: exit %d, want 2 with a reason\n%s%s", name, code, out, errOut)
		}
	}
}

// --- sealgate mcp ---------------------------------------------------------

// The SDK's own client drives sealgate mcp over a real stdio pipe:
// initialize, tools/list, a real verify with progress notifications, then
// explain and replay of the run.
func TestMCPServer(t *testing.T) {
	r := newRepo(t)
	args := append([]string{"mcp"}, ciArgs(t)...)
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
	defer cancel()
	var mu sync.Mutex
	var progress []string
	client := mcp.NewClient(&mcp.Implementation{Name: "sealgate-e2e", Version: "v0.0.1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, req.Params.Message)
		},
	})
	needBinary(t)
	cmd := exec.Command(binary, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	defer session.Close()
	if info := session.InitializeResult().ServerInfo; info == nil || info.Name != "sealgate" {
		t.Fatalf("server info %+v", info)
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil || tool.Description == "" {
			t.Errorf("tool %s has no input schema or description", tool.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"explain", "replay", "verify"}) {
		t.Fatalf("tools %v", names)
	}

	fix := r.patch(t, "breaks-a-test")
	params := &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{
		"repo": r.Dir, "base": r.Base, "patch": fix.Commit, "claims": []string{medianClaim},
	}}
	params.SetProgressToken("verify-1")
	start := time.Now()
	res, err := session.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("verify: %v %+v\n%s", err, res, stderr.String())
	}
	t.Logf("verify over MCP in %v", time.Since(start).Round(time.Millisecond))
	var out struct {
		Decision  string   `json:"decision"`
		ExitCode  int      `json:"exit_code"`
		RunID     string   `json:"run_id"`
		Reasons   []string `json:"reasons"`
		NextSteps []struct {
			Action, Target string
		} `json:"next_steps"`
		Artefact struct {
			Schema   string `json:"schema"`
			Decision string `json:"decision"`
		} `json:"artefact"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Decision != block || out.ExitCode != exitBlock || out.Artefact.Schema != artefactSchema || out.Artefact.Decision != block ||
		len(out.NextSteps) == 0 || out.NextSteps[0].Action != "fix_code" {
		t.Fatalf("verify returned %s", b)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "TestClamp") {
		t.Errorf("the text content lacks the regression:\n%s", text)
	}
	mu.Lock()
	got := slices.Clone(progress)
	mu.Unlock()
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "verdict.sealed") }) {
		t.Errorf("%d progress notifications, none about the seal: %q", len(got), got)
	}

	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "explain", Arguments: map[string]any{"run_id": out.RunID}})
	if err != nil || res.IsError {
		t.Fatalf("explain: %v %+v", err, res)
	}
	b, _ = json.Marshal(res.StructuredContent)
	for _, want := range []string{`"kind":"criteria.sealed"`, `"kind":"verdict.sealed"`, `"decision":"BLOCK"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("explain lacks %s: %.2000s", want, b)
		}
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "replay", Arguments: map[string]any{"run_id": out.RunID}})
	if err != nil || res.IsError {
		t.Fatalf("replay: %v %+v", err, res)
	}
	b, _ = json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), `"matches":true`) {
		t.Errorf("replay: %s", b)
	}
	// A bad input is a tool error, not a verdict.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{"repo": r.Dir, "base": r.Base}})
	if err != nil || !res.IsError {
		t.Fatalf("verify without a patch: %v %+v", err, res)
	}
}

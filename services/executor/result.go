package executor

import (
	"fmt"

	"github.com/sealgate/sealgate/ledger/criteria"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/executor/sandbox"
)

// Result is the job.result body of a's answer to job: the job contract's
// answer, the same for every service that runs jobs (executor, mutation).
func Result(job *pb.Job, a *Answer) (*pb.JobResult, error) {
	detail, err := a.Detail.Marshal()
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", job.GetJobId(), err)
	}
	res := &pb.JobResult{
		JobId: job.JobId, ExitCode: int32(a.ExitCode), WallNanos: a.Wall.Nanoseconds(), CpuNanos: a.CPU.Nanoseconds(),
		UnitsUsed: min(uint64(len(a.Detail.Runs)), job.GetToken().GetBudgetUnits()), Detail: detail,
		Sandbox: &pb.Sandbox{Name: a.Sandbox.Name, EnvNames: a.Sandbox.EnvNames, Limits: a.Sandbox.Limits},
	}
	res.Termination = terminationOf(a)
	for _, c := range a.Cases {
		res.Cases = append(res.Cases, &pb.TestCase{Name: c.Name, Outcome: c.Outcome})
	}
	if a.Cases != nil {
		n := uint32(len(a.Cases))
		res.CasesRun = &n
	}
	name, media := "go-test-json-%d", "application/x-ndjson"
	if s, err := jobs.ParseSpec(job.Spec); err == nil && s.Runner != jobs.RunnerGo {
		// pytest and command output, coverage.py reports: kept as bytes.
		name, media = s.Runner+"-output-%d", "application/octet-stream"
	}
	for i, d := range a.Artefacts {
		res.Artefacts = append(res.Artefacts, &pb.Artefact{Name: fmt.Sprintf(name, i+1), Digest: d, MediaType: media})
	}
	return res, nil
}

func terminationOf(a *Answer) pb.Termination {
	if !a.Started || len(a.Detail.Runs) == 0 {
		return pb.Termination_TERMINATION_NOT_STARTED
	}
	switch a.Termination {
	case sandbox.Exited:
		return pb.Termination_TERMINATION_EXITED
	case sandbox.Timeout:
		return pb.Termination_TERMINATION_TIMEOUT
	case sandbox.OOM:
		return pb.Termination_TERMINATION_OOM
	case sandbox.Rlimit:
		return pb.Termination_TERMINATION_RLIMIT
	case sandbox.Signaled:
		return pb.Termination_TERMINATION_SIGNALED
	}
	return pb.Termination_TERMINATION_NOT_STARTED
}

// Skipped is the answer to a job that was not run: outcome, with why.
func Skipped(outcome, why string) *Answer {
	return &Answer{Detail: jobs.Detail{Outcome: outcome, Reason: why, Runs: []jobs.Run{}}}
}

// ApplyLimits sets the workspace's sandbox limits to the sealed ones, and
// the time a module download outside a modules job may take to the
// modules jobs' (the suite timeout).
func (w *Workspace) ApplyLimits(c *criteria.Criteria) {
	l := c.Limits
	w.Limits = sandbox.Limits{CPUSeconds: l.CPUSeconds, MemoryBytes: l.MemoryBytes, MaxProcesses: l.MaxProcesses, MaxOpenFiles: l.MaxOpenFiles}
	w.downloadSec = l.SuiteTimeoutSec
}

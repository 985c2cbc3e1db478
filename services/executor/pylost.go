package executor

import (
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/executor/jobs"
)

// pythonBaselineCoverage plans, for lost coverage, one run of the pytest
// claims declared on the baseline under coverage.py on the baseline tree,
// when the patch modifies a Python source file (a file it only adds has
// no kept lines): the lines the claims ran before the patch, which the
// reach service compares with what runs after it. A new test ran nothing
// on the baseline and is left out; with no claim left, nothing is
// planned and lost coverage is not measured for Python.
func (w *Workspace) pythonBaselineCoverage(c *criteria.Criteria) []*jobs.Spec {
	modified := false
	for _, ch := range w.changedPython() {
		if ch.Kind == checkout.Modified || ch.Kind == checkout.Renamed {
			modified = true
		}
	}
	if !modified {
		return nil
	}
	var tests []string
	for _, claim := range c.Claims {
		node, ok := strings.CutPrefix(claim, "pytest:")
		if !ok {
			continue
		}
		file, test, _ := strings.Cut(node, "::")
		if w.declaresPython(jobs.TreeBaseline, file, funcOf(test)) {
			tests = append(tests, node)
		}
	}
	if len(tests) == 0 {
		return nil
	}
	slices.Sort(tests)
	return []*jobs.Spec{pytestJob(jobs.Coverage, jobs.Baseline, "", slices.Compact(tests), c)}
}

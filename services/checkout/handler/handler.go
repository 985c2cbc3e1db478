// Package handler binds the checkout service to the ledger: when a run is
// sealed it materializes the baseline and the patch from git and records
// their tree digests, the change set, harness drift and the oracle plan.
//
// Failures: what the checkout finds in the patch — content it cannot
// write, a moved submodule, overfitting, a claim it cannot judge — is
// evidence, recorded in the trees record. A failure of the work itself —
// git cannot materialize a commit, the blob store does not give the patch
// back, the patch hashes to another digest than the sealed one — is
// returned as an error, marked runtime.Permanent (trying again cannot
// mend it), and the runtime records the run's failure.
package handler

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sealgate/sealgate/ledger/blob"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/runtime"
)

// Handler is the checkout service.
type Handler struct {
	Blobs *blob.Store
	// Scratch holds the private git index and objects a diff is applied in.
	Scratch string
}

// Handle materializes a run's trees once it is sealed.
func (h *Handler) Handle(ctx context.Context, rec *record.Decoded, run runtime.Run, emit runtime.Emit) error {
	if rec.Kind != pb.Kind_KIND_CRITERIA_SEALED || !run.Sealed() || run.Has(pb.Kind_KIND_TREES_MATERIALIZED) {
		// A seal delivered again (after a restart) whose trees are already
		// on the ledger needs nothing more.
		return nil
	}
	sealed := run.Criteria
	var patchBlob string
	if req := run.Request(); req != nil {
		patchBlob = req.PatchBlob
	}
	co, done, err := checkout.Rebuilder{Blobs: h.Blobs, Scratch: h.Scratch}.Rebuild(ctx, sealed, patchBlob)
	if err != nil {
		// Without trees there is nothing to run. A usage error was refused
		// before sealing: this is the work failing (git, the blob store),
		// which trying again does not mend.
		return runtime.PermanentUnlessDone(ctx, fmt.Errorf("checkout of run %s: %w", run.ID, err))
	}
	defer done()
	if co.DiffSHA256 != sealed.Criteria.PatchDigest {
		return runtime.Permanent(fmt.Errorf("checkout of run %s: the patch hashes to %s, the criteria seal %s", run.ID, co.DiffSHA256, sealed.Criteria.PatchDigest))
	}
	over, err := co.OverfittingByClaim(ctx, sealed.Criteria.Claims)
	if err != nil {
		return err
	}
	tm := treesRecord(co, over)
	tm.PatchBlob = patchBlob
	_, err = emit(ctx, &pb.Record{
		RunId: run.ID, CriteriaDigest: sealed.Digest, Parents: []string{rec.Digest},
		Body: &pb.Record_TreesMaterialized{TreesMaterialized: tm},
	})
	return runtime.IgnoreRefused(err)
}

// treesRecord is the trees.materialized body of a checkout, with the
// overfitting findings of the claims.
func treesRecord(co *checkout.Checkout, over []checkout.ClaimFinding) *pb.TreesMaterialized {
	tm := &pb.TreesMaterialized{
		BaselineTreeDigest: co.Baseline.Digest(),
		PatchTreeDigest:    co.Patch.Digest(),
		HarnessDrift:       co.HarnessDrift,
		OracleRestored:     co.OracleRestored,
	}
	for _, sm := range co.Submodules {
		tm.Submodules = append(tm.Submodules, &pb.Submodule{Path: recordPath(sm.Path), Commit: sm.Commit})
	}
	for _, u := range co.Unjudgeable {
		tm.Unjudgeable = append(tm.Unjudgeable, &pb.UnjudgeableContent{Path: recordPath(u.Path), Why: strings.ToValidUTF8(u.Why, "\uFFFD")})
	}
	for _, f := range co.Findings {
		tm.Findings = append(tm.Findings, finding(f, ""))
	}
	for _, f := range over {
		tm.Findings = append(tm.Findings, finding(f.Finding, f.Claim))
	}
	slices.SortStableFunc(tm.Findings, func(a, b *pb.Finding) int {
		return cmp.Or(strings.Compare(a.Rule, b.Rule), strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), strings.Compare(a.Detail, b.Detail), strings.Compare(a.Claim, b.Claim))
	})
	tm.HarnessPackages = co.HarnessPackages
	tm.TestOnlyPackages = co.TestOnlyPackages
	tm.EditedTests = co.EditedTests
	if co.GoMod != nil {
		tm.SynthesizedGoMod = string(co.GoMod.Content)
	}
	for _, p := range co.Counterfactual {
		tm.Counterfactual = append(tm.Counterfactual, recordPath(p))
	}
	for _, p := range co.DataReferenced {
		tm.DataReferenced = append(tm.DataReferenced, recordPath(p))
	}
	tm.SourceByUse = co.SourceByUse
	for _, ch := range co.Changes {
		fc := &pb.FileChange{Path: recordPath(ch.Path), OldPath: recordPath(ch.OldPath), Change: changeKind(ch.Kind), Class: fileClass(ch.Class)}
		for _, l := range ch.ChangedLines {
			fc.ChangedLines = append(fc.ChangedLines, uint32(l))
		}
		tm.Changes = append(tm.Changes, fc)
	}
	for _, d := range co.Deferred {
		tm.DeferredTests = append(tm.DeferredTests, fmt.Sprintf("%s:%s (%s)", d.Package, d.Test, d.File))
	}
	return tm
}

// finding is an analysis' finding as a record holds it, about claim ("" for
// none).
func finding(f inspect.Finding, claim string) *pb.Finding {
	return &pb.Finding{Rule: f.Rule, Path: recordPath(f.File), Line: uint32(max(f.Line, 0)), Detail: strings.ToValidUTF8(f.What, "\uFFFD"), Claim: claim}
}

// recordPath is a path as a record holds it: as it is, or quoted as a Go
// string literal when it is not valid UTF-8 or holds a control character
// (a protobuf string must be UTF-8; such paths are unjudgeable anyway).
func recordPath(p string) string {
	if utf8.ValidString(p) && !strings.ContainsFunc(p, unicode.IsControl) {
		return p
	}
	return strconv.Quote(p)
}

func changeKind(k checkout.Kind) pb.ChangeKind {
	switch k {
	case checkout.Added:
		return pb.ChangeKind_CHANGE_KIND_ADDED
	case checkout.Modified:
		return pb.ChangeKind_CHANGE_KIND_MODIFIED
	case checkout.Deleted:
		return pb.ChangeKind_CHANGE_KIND_DELETED
	case checkout.Renamed:
		return pb.ChangeKind_CHANGE_KIND_RENAMED
	}
	return pb.ChangeKind_CHANGE_KIND_UNSPECIFIED
}

func fileClass(c checkout.Class) pb.FileClass {
	switch c {
	case checkout.ClassSource:
		return pb.FileClass_FILE_CLASS_SOURCE
	case checkout.ClassTest:
		return pb.FileClass_FILE_CLASS_TEST
	case checkout.ClassHarness:
		return pb.FileClass_FILE_CLASS_HARNESS
	case checkout.ClassForeign:
		return pb.FileClass_FILE_CLASS_FOREIGN
	case checkout.ClassBinary:
		return pb.FileClass_FILE_CLASS_BINARY
	}
	return pb.FileClass_FILE_CLASS_OTHER
}

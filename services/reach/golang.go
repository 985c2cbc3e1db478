package reach

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/sealgate/sealgate/services/checkout"
	"github.com/sealgate/sealgate/services/checkout/inspect"
	"github.com/sealgate/sealgate/services/checkout/patch"
	"github.com/sealgate/sealgate/services/executor/jobs"
	"github.com/sealgate/sealgate/services/reach/cover"
)

// goLang measures Go from the per-test profiles of the Go coverage jobs.
type goLang struct {
	in          *input
	specs, base []*jobs.Spec // patch-side and baseline coverage jobs
}

// measure measures the changed Go files from the per-test profiles of the
// Go coverage jobs.
func (g *goLang) measure(ctx context.Context) (measured, bool, string, error) {
	files, err := changedFiles(ctx, g.in.co)
	if err != nil {
		return measured{}, false, err.Error(), nil
	}
	if len(files) == 0 && len(g.specs) == 0 {
		return measured{}, false, "", nil
	}
	// With no changed Go file, the jobs measured the packages that embed
	// a changed data file: nothing for coverage to cover, and the reach of
	// their tests for the data mutants.
	perTest := map[string]*cover.Profile{}
	var all []*cover.Profile
	for _, s := range g.specs {
		for test, digest := range g.in.done[s.ID()].Profiles {
			b, err := g.in.blob(ctx, digest)
			if err != nil {
				return measured{}, false, "", fmt.Errorf("the profile of %s: %w", test, err)
			}
			p, err := cover.ParseProfile(bytes.NewReader(b))
			if err != nil {
				return measured{}, false, fmt.Sprintf("the profile of %s: %v", test, err), nil
			}
			if !strings.HasPrefix(test, jobs.GroupProfilePrefix) {
				perTest[test] = p
			}
			all = append(all, p)
		}
	}
	merged := &cover.Profile{Mode: "set"}
	if len(all) > 0 {
		if merged, err = cover.Merge(all...); err != nil {
			return measured{}, false, err.Error(), nil
		}
	}
	res, err := cover.Measure(files, merged)
	if err != nil {
		return measured{}, false, err.Error(), nil
	}
	var rendered bytes.Buffer
	if err := merged.Write(&rendered); err != nil {
		return measured{}, false, "", fmt.Errorf("render the merged profile: %w", err)
	}
	reach, err := cover.Reach(files, perTest)
	if err != nil {
		return measured{}, false, fmt.Sprintf("the reach map: %v", err), nil
	}
	return measured{res: res, reach: reach, report: rendered.Bytes(), tests: len(perTest), cgo: cgoLines(files, res.Excluded)}, true, "", nil
}

// lost finds the lines the claims ran on the baseline (the baseline
// coverage jobs) that the patch keeps unchanged in the files it modifies
// and no test runs on the patch (the patch-side coverage jobs, merged). It
// says, in why, what it could not judge: lost coverage is measured where
// it can be, and a claim that panics on the baseline leaves no profile.
func (g *goLang) lost(ctx context.Context) (lines, deleted []cover.Line, why string, err error) {
	return g.lostAndDeleted(ctx)
}

func (g *goLang) lostAndDeleted(ctx context.Context) ([]cover.Line, []cover.Line, string, error) {
	if len(g.base) == 0 {
		return nil, nil, "", nil
	}
	co, done := g.in.co, g.in.done
	// A profile the store does not give back is the work failing.
	var failed error
	load := func(specs []*jobs.Spec, keep func(key string) bool) (*cover.Profile, error) {
		var all []*cover.Profile
		for _, s := range specs {
			d := done[s.ID()]
			if d == nil || d.Outcome != jobs.OutcomePass {
				continue
			}
			for key, digest := range d.Profiles {
				if !keep(key) {
					continue
				}
				b, err := g.in.blob(ctx, digest)
				if err != nil {
					failed = err
					return nil, err
				}
				p, err := cover.ParseProfile(bytes.NewReader(b))
				if err != nil {
					return nil, err
				}
				all = append(all, p)
			}
		}
		if len(all) == 0 {
			return nil, nil
		}
		return cover.Merge(all...)
	}
	before, err := load(g.base, func(k string) bool { return k == jobs.BaselineProfile })
	if failed != nil {
		return nil, nil, "", failed
	}
	if err != nil || before == nil {
		return nil, nil, "lost coverage not measured: the claims left no baseline profile", nil
	}
	after, err := load(g.specs, func(string) bool { return true })
	if failed != nil {
		return nil, nil, "", failed
	}
	if err != nil || after == nil {
		return nil, nil, "lost coverage not measured: no patch-side profile", nil
	}
	parsed, err := patch.Parse(co.Diff)
	if err != nil {
		return nil, nil, "lost coverage not measured: " + err.Error(), nil
	}
	var deletions []cover.DeletedFile
	var files []cover.KeptFile
	mods := map[string]string{}
	for i := range parsed.Files {
		f := parsed.Files[i]
		if f.Op != patch.OpModified || !strings.HasSuffix(f.Path(), ".go") || strings.HasSuffix(f.Path(), "_test.go") {
			continue
		}
		name, err := profileName(ctx, co, f.Path(), mods)
		if err != nil {
			continue
		}
		src, err := co.Patch.ReadFiles(ctx, []string{f.Path()})
		if err != nil {
			continue
		}
		files = append(files, cover.KeptFile{Path: f.Path(), BaseProfile: name, PatchProfile: name, Kept: f.Kept, Src: src[f.Path()]})
		if del := deletedOutright(f); len(del) > 0 {
			if base, err := co.Baseline.ReadFiles(ctx, []string{f.OldPath}); err == nil {
				deletions = append(deletions, cover.DeletedFile{Path: f.OldPath, BaseProfile: name, Src: base[f.OldPath], Deleted: del})
			}
		}
	}
	return cover.Lost(files, before, after), cover.Deleted(deletions, before), "", nil
}

// changedFiles lists the changed Go source files of the patch side with
// their changed lines, sources and the names coverage profiles give them.
func changedFiles(ctx context.Context, co *checkout.Checkout) ([]cover.File, error) {
	var paths []string
	byPath := map[string][]int{}
	for _, ch := range co.Changes {
		if ch.Class != checkout.ClassSource || ch.Kind == checkout.Deleted || !strings.HasSuffix(ch.Path, ".go") {
			continue
		}
		paths = append(paths, ch.Path)
		byPath[ch.Path] = ch.ChangedLines
	}
	if len(paths) == 0 {
		return nil, nil
	}
	srcs, err := co.Patch.ReadFiles(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("read the changed files: %w", err)
	}
	var out []cover.File
	mods := map[string]string{}
	for _, p := range paths {
		name, err := profileName(ctx, co, p, mods)
		if err != nil {
			return nil, err
		}
		out = append(out, cover.File{Path: p, Profile: name, Src: srcs[p], Lines: byPath[p]})
	}
	return out, nil
}

// cgoLines counts the lines of excluded that lie in a cgo preamble of
// their file (inspect.CgoPreambles).
func cgoLines(files []cover.File, excluded []cover.Line) int {
	n := 0
	for _, f := range files {
		ranges := inspect.CgoPreambles(f.Src)
		for _, l := range excluded {
			if l.Path != f.Path {
				continue
			}
			for _, r := range ranges {
				if l.Line >= r[0] && l.Line <= r[1] {
					n++
					break
				}
			}
		}
	}
	return n
}

// profileName is the name go test's coverage profiles give a file: its
// package's import path and its base name.
func profileName(ctx context.Context, co *checkout.Checkout, p string, mods map[string]string) (string, error) {
	dir := path.Dir(p)
	for d := dir; ; d = path.Dir(d) {
		gomod := path.Join(d, "go.mod")
		if _, ok := co.Patch.Lookup(gomod); ok {
			mp, cached := mods[d]
			if !cached {
				b, err := co.Patch.ReadFiles(ctx, []string{gomod})
				if err != nil {
					return "", err
				}
				if mp, err = jobs.ModulePath(b[gomod]); err != nil {
					return "", fmt.Errorf("%s: %w", gomod, err)
				}
				mods[d] = mp
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				rel = dir
			}
			if rel == "." || rel == "" {
				return mp + "/" + path.Base(p), nil
			}
			return mp + "/" + rel + "/" + path.Base(p), nil
		}
		if d == "." {
			return "", fmt.Errorf("no go.mod holds %s", p)
		}
	}
}

// deletedOutright lists the baseline lines f removes with no line added in
// their place: runs of removed lines that no added line joins.
func deletedOutright(f *patch.File) []int {
	var out, run []int
	added := false
	flush := func() {
		if !added {
			out = append(out, run...)
		}
		run, added = nil, false
	}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case patch.LineRemoved:
				run = append(run, l.OldLine)
			case patch.LineAdded:
				added = true
			default:
				flush()
			}
		}
		flush()
	}
	return out
}

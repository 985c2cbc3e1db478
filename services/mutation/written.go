package mutation

import (
	"go/scanner"
	"go/token"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/services/checkout/patch"
)

// maxCompare bounds the token comparison of one run of changed lines (the
// product of its two token counts): a larger run counts as written whole.
const maxCompare = 1 << 22

// written returns, per Go file the patch modifies (by its patch-side
// path), the byte ranges of the patch-side file holding tokens the patch
// wrote: for each run of changed lines, the tokens of its added lines
// that the longest common subsequence with the tokens of the lines it
// removed does not match. A file the patch adds, or one whose diff or
// source cannot be read, has no entry: every token of it counts as
// written. src reads a file of the patch side.
//
// A data line's mutant whose span holds no written token judges a value
// the patch left as it was (the timeout beside the limit the fix raised):
// its survival says nothing about the patch.
//
// rewrote holds, of the written ranges, those that took the place of
// tokens the run removed (err → nil, int → int8, []string{} → nil): the
// patch rewrote what was there rather than adding beside it.
//
// runs holds the compared runs' alignments (see alignment.baselineOf).
func written(diff []byte, src func(path string) ([]byte, bool)) edits {
	parsed, err := patch.Parse(diff)
	if err != nil {
		return edits{}
	}
	out, dels, same, rewrote, runs := map[string][][2]int{}, map[string][]deletion{}, map[string][]int{}, map[string][][2]int{}, map[string][]alignment{}
	pure := map[string][]removal{}
	for _, f := range parsed.Files {
		if f.Binary || f.Op == patch.OpAdded || f.Op == patch.OpDeleted || !strings.HasSuffix(f.NewPath, ".go") {
			continue
		}
		text, ok := src(f.NewPath)
		if !ok {
			continue
		}
		starts := lineStarts(text)
		var spans, replaced [][2]int
		var gone []deletion
		var kept []int
		var aligned []alignment
		var cut []removal
		complete := true
		for _, h := range f.Hunks {
			var removed []string
			first, last := 0, 0
			// next is the patch-side line after the last one seen: where
			// lines removed with none added in their place stood.
			next := h.NewStart
			if h.NewLines == 0 {
				next++
			}
			flush := func() {
				if first == 0 && len(removed) > 0 {
					at := len(text)
					if next <= len(starts) {
						at = starts[next-1]
					}
					cut = append(cut, removal{At: at, Src: strings.Join(removed, "\n") + "\n"})
				}
				if first > 0 {
					r, ok := runWritten(text, starts, first, last, removed)
					complete = complete && ok
					spans, gone, kept, replaced = append(spans, r.spans...), append(gone, r.dels...), append(kept, r.same...), append(replaced, r.rewrote...)
					cut = append(cut, r.cut...)
					if r.align != nil {
						aligned = append(aligned, *r.align)
					}
				}
				removed, first, last = nil, 0, 0
			}
			for _, l := range h.Lines {
				switch l.Kind {
				case patch.LineRemoved:
					// Removals and additions up to the next context line
					// are one run, in whatever order the diff lists them:
					// the added lines are consecutive on the patch side.
					removed = append(removed, l.Text)
				case patch.LineAdded:
					if first == 0 {
						first = l.NewLine
					}
					last = l.NewLine
					next = l.NewLine + 1
				default:
					flush()
					next = l.NewLine + 1
				}
			}
			flush()
		}
		if len(cut) > 0 {
			pure[f.NewPath] = cut
		}
		if complete {
			out[f.NewPath] = spans
			if len(kept) > 0 {
				same[f.NewPath] = kept
			}
			if len(replaced) > 0 {
				rewrote[f.NewPath] = replaced
			}
			if len(aligned) > 0 {
				runs[f.NewPath] = aligned
			}
		}
		if len(gone) > 0 {
			dels[f.NewPath] = gone
		}
	}
	return edits{wrote: out, dels: dels, same: same, replaced: rewrote, runs: runs, removed: pure}
}

// edits is what written reads of a patch's modified Go files, by
// patch-side path.
type edits struct {
	wrote    map[string][][2]int   // the spans of the tokens it wrote
	dels     map[string][]deletion // its deletions
	same     map[string][]int      // its changed lines holding the tokens they held
	replaced map[string][][2]int   // the written spans that took the place of removed tokens
	runs     map[string][]alignment
	removed  map[string][]removal // lines removed with none added in their place
}

// removal is a run of lines a patch removes with no line added in their
// place: At is the patch-side offset of the line after them (the file's
// length at its end), Src the lines, each with its line break.
type removal struct {
	At  int
	Src string
	// Maybe marks lines that may have been rewritten rather than
	// deleted (see runWritten): judged only where put back they compile.
	Maybe bool
}

// alignment is one compared run of changed lines: its patch-side byte
// range, the tokens on each side (the patch's offsets relative to begin,
// the baseline's into oldText, the run's removed lines) and the index
// pairs of a longest common subsequence of them.
type alignment struct {
	begin, end int
	added, old []tok
	oldText    string
	pairs      [][2]int
}

// baselineOf returns the baseline's text that stands where the patch's
// tokens in the byte range [s, e) stand: the removed tokens between the
// baseline's matches of the nearest matched tokens outside the range
// (renewals := max(5, len(kind)) → 5 for the call, if strings.ToLower(kind)
// == → kind for the call, if a { → a || b for a). ok is false when the
// range is not in the run or holds no token, when no baseline token stands
// there (the patch added beside), and when the baseline's tokens there are
// the patch's.
func (a alignment) baselineOf(s, e int) (string, bool) {
	if s < a.begin || e > a.end {
		return "", false
	}
	i0, i1 := -1, -1
	for i, t := range a.added {
		if a.begin+t.off >= s && a.begin+t.end <= e {
			if i0 < 0 {
				i0 = i
			}
			i1 = i
		}
	}
	if i0 < 0 {
		return "", false
	}
	jb, ja := -1, len(a.old)
	for _, p := range a.pairs {
		if p[0] < i0 {
			jb = p[1]
		}
		if p[0] > i1 {
			ja = p[1]
			break
		}
	}
	if jb+1 >= ja {
		return "", false
	}
	if ja-jb-1 == i1-i0+1 && slices.EqualFunc(a.old[jb+1:ja], a.added[i0:i1+1], func(x, y tok) bool { return x.key == y.key }) {
		return "", false
	}
	return a.oldText[a.old[jb+1].off:a.old[ja-1].end], true
}

// deletion is where a run of changed lines deletes tokens between two it
// keeps (the ! of !legacy, a keyed element, a row merged into its
// neighbour): Off is the patch-side offset of the token after them (or
// the run's end), Text the deleted tokens. No patch-side token carries
// the change, so no mutant can express it — unless it lies in a value the
// patch rewrote, which is then judged whole (see changedValues).
type deletion struct {
	Off int
	// Before is the offset of the last byte of the token before the
	// deleted ones, -1 when they begin the run: where Off is the run's
	// end or the next line, the statement they were cut from holds it
	// (`break outer` → `break`).
	Before int
	Text   string
	// Src is the baseline's source of the deleted tokens, punctuation and
	// all.
	Src string
	// Cut is set when they lie on lines the run deleted whole (see
	// removal).
	Cut bool
	// Wrote is the byte range of the tokens the gap wrote in place of the
	// deleted ones (time.Hour → forever), zero when it wrote none.
	Wrote [2]int
}

// lineStarts returns the byte offset of every line of text: index i is
// line i+1's.
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i, b := range text {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// runWritten compares the tokens of lines first..last of text with those
// of the removed lines and returns the byte ranges of text holding the
// unmatched ones, and the deletions between matched ones (see deletion);
// ok is false when the lines are not in text. A gap of the comparison that
// removes more tokens (other than commas, semicolons, parentheses) than it
// writes is a deletion: 5, mfa: true → 10 drops an element, and a value
// the common subsequence borrows from a removed neighbour (mfa: true,
// audit: false → mfa: false matches the audit's false) leaves a gap that
// writes nothing.
func runWritten(text []byte, starts []int, first, last int, removed []string) (r runEdits, ok bool) {
	if first < 1 || last < first || last > len(starts) {
		return runEdits{}, false
	}
	begin, end := starts[first-1], len(text)
	if last < len(starts) {
		end = starts[last]
	}
	added, okA := goTokens(text[begin:end])
	oldText := strings.Join(removed, "\n") + "\n"
	old, okO := goTokens([]byte(oldText))
	if len(removed) == 0 {
		return runEdits{spans: [][2]int{{begin, end}}}, true
	}
	if !okA || !okO || len(added)*len(old) > maxCompare {
		// Not compared: every token counts as written, and as rewriting
		// what the run removed (a run padded past the bound hides no
		// rewrite).
		return runEdits{spans: [][2]int{{begin, end}}, rewrote: [][2]int{{begin, end}}}, true
	}
	var spans, rewrote [][2]int
	var dels []deletion
	var same []int
	pairs := lcs(added, old)
	matched := make([]bool, len(added))
	for _, p := range pairs {
		matched[p[0]] = true
	}
	for i, t := range added {
		if !matched[i] {
			spans = append(spans, [2]int{begin + t.off, begin + t.end})
		}
	}
	// A removed line none of whose tokens the run kept may be a line
	// the run deleted (a line deleted beside the fix, in the fix's run),
	// and so may one that lent one token of five or more to the common
	// subsequence (its 5 to the fix's): it stood after the line holding
	// the last kept token before it. Or it was rewritten into the added
	// lines, the alignment scattering its tokens (ifs folded into one
	// return): so it is judged only where, put back, the program still
	// compiles. A line of brackets alone goes with the deleted line
	// before it.
	var cut []removal
	cutOld := map[int]bool{} // the tokens of those lines
	addedLine := func(off int) int {
		i, _ := slices.BinarySearch(starts, begin+off+1)
		return i
	}
	keptOld := make([]bool, len(old))
	for _, p := range pairs {
		keptOld[p[1]] = true
	}
	oldToks := make([][]int, len(removed)) // per removed line, its tokens
	// k is the line of oldText[seen].
	k, seen := 0, 0
	for j, t := range old {
		k += strings.Count(oldText[seen:t.off], "\n")
		seen = t.off
		if k < len(removed) {
			oldToks[k] = append(oldToks[k], j)
		}
	}
	{
		prevCut := false // the last removed line with a word was deleted
		for k := range removed {
			toks := oldToks[k]
			if len(toks) == 0 {
				continue
			}
			kept := 0
			for _, j := range toks {
				if keptOld[j] {
					kept++
				}
			}
			lent := kept == 1 && len(toks) >= 5
			brackets := !slices.ContainsFunc(toks, func(j int) bool { return !strings.Contains("()[]{},;:.", old[j].text()) })
			if kept > 0 && !lent || brackets && !prevCut {
				prevCut = prevCut && brackets
				continue // kept; or brackets alone, not closing a deleted line: a block's end folded into a rewrite
			}
			prevCut = true
			at := begin
			for _, p := range pairs {
				if p[1] < toks[0] {
					at = end
					if l := addedLine(added[p[0]].off); l < len(starts) {
						at = starts[l]
					}
				}
			}
			for _, j := range toks {
				cutOld[j] = true
			}
			if n := len(cut); n > 0 && cut[n-1].At == at {
				cut[n-1].Src += removed[k] + "\n"
			} else {
				cut = append(cut, removal{At: at, Src: removed[k] + "\n", Maybe: true})
			}
		}
	}
	// The gaps between consecutive matches (and before the first, after
	// the last).
	var touched []int // where a gap removes tokens, punctuation included
	pi, pj := -1, -1
	for k := 0; k <= len(pairs); k++ {
		ni, nj := len(added), len(old)
		if k < len(pairs) {
			ni, nj = pairs[k][0], pairs[k][1]
		}
		if nj > pj+1 {
			off := end - 1 // the run's last line
			if ni < len(added) {
				off = begin + added[ni].off
			}
			before := -1 // the gap begins the run
			if pi >= 0 {
				before = begin + added[pi].end - 1
				// The line the deleted tokens followed lost them too
				// (`* time.Minute` at its end, the token after on the
				// next line).
				touched = append(touched, before)
			}
			touched = append(touched, off)
			var words []string
			whole := true // every token deleted lies on a line deleted whole
			for j, t := range old[pj+1 : nj] {
				if !t.punct() {
					words = append(words, t.text())
					whole = whole && cutOld[pj+1+j]
				}
			}
			wrote := 0
			var at [2]int
			for _, t := range added[pi+1 : ni] {
				if !t.punct() {
					if wrote == 0 {
						at[0] = begin + t.off
					}
					wrote++
					at[1] = begin + t.end
				}
			}
			if len(words) > wrote {
				src := oldText[old[pj+1].off:old[nj-1].end]
				dels = append(dels, deletion{Off: off, Before: before, Text: strings.Join(words, " "), Src: src, Wrote: at, Cut: whole})
			}
			if len(words) > 0 && wrote > 0 {
				rewrote = append(rewrote, at)
			}
		}
		pi, pj = ni, nj
	}
	// A line of the run that writes no token and that no gap touches
	// holds the tokens it held, in order: realigned by gofmt beside a new
	// row, or a comment changed. It changes nothing to judge.
	for l := first; l <= last; l++ {
		ls, le := starts[l-1], len(text)
		if l < len(starts) {
			le = starts[l]
		}
		if !overlaps([2]int{ls, le}, spans) && !slices.ContainsFunc(touched, func(off int) bool { return ls <= off && off < le }) {
			same = append(same, l)
		}
	}
	return runEdits{spans: spans, dels: dels, same: same, rewrote: rewrote, cut: cut,
		align: &alignment{begin: begin, end: end, added: added, old: old, oldText: oldText, pairs: pairs}}, true
}

// runEdits is what runWritten reads of one run.
type runEdits struct {
	spans, rewrote [][2]int
	dels           []deletion
	same           []int
	cut            []removal  // the removed lines it deleted whole
	align          *alignment // nil when the run was not compared
}

// tok is a Go token with its text and byte range.
type tok struct {
	key      string
	off, end int
}

// text is the token as written.
func (t tok) text() string {
	_, text, _ := strings.Cut(t.key, " ")
	return text
}

// punct reports whether deleting the token alone changes no value: a
// comma, a semicolon, a parenthesis.
func (t tok) punct() bool {
	switch t.text() {
	case ",", ";", "(", ")":
		return true
	}
	return false
}

// goTokens scans src into tokens, leaving out comments and the semicolons
// the scanner inserts at line ends; ok is false when src does not scan.
func goTokens(src []byte) (toks []tok, ok bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	errs := 0
	s.Init(f, src, func(token.Position, string) { errs++ }, 0)
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue
		}
		off := f.Offset(pos)
		text := lit
		if text == "" {
			text = t.String()
		}
		toks = append(toks, tok{key: t.String() + " " + text, off: off, end: off + len(text)})
	}
	return toks, errs == 0
}

// lcs returns the index pairs (in a, in b) of a longest common
// subsequence of a and b, in order.
func lcs(a, b []tok) [][2]int {
	return lcsIndex(len(a), len(b), func(i, j int) bool { return a[i].key == b[j].key })
}

// lcsIndex returns the index pairs of a longest common subsequence of two
// sequences of lengths n and m whose elements i and j are equal when same
// says so, in order.
func lcsIndex(n, m int, same func(i, j int) bool) [][2]int {
	// l[i][j] is the LCS length of the suffixes from i and j.
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if same(i, j) {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var pairs [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case same(i, j):
			pairs = append(pairs, [2]int{i, j})
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}

// overlaps reports whether span shares a byte with any of spans.
func overlaps(span [2]int, spans [][2]int) bool {
	for _, s := range spans {
		if s[0] < span[1] && span[0] < s[1] {
			return true
		}
	}
	return false
}

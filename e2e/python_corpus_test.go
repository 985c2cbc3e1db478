package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/demo"
)

// The real-world Python corpus: released fixes of real libraries, verified
// through the binary at the default floors. The library source is what
// Debian's python3-* package installed (never committed into this
// project): the test copies it into a git repository, re-introduces the
// documented bug the release fixed as the baseline, and verifies the
// released code as the patch, with tests derived from the upstream fix's
// own. Every honest fix with strong tests is MERGE, every fix reverted is
// BLOCK; a fix whose tests are weak stays INCONCLUSIVE naming its
// survivors, and a fix offering fewer mutants than the floor needs says
// so.
//
// Needs (Debian bookworm): apt-get install python3-pytest python3-coverage
// python3-more-itertools python3-packaging python3-pyparsing. Without them
// the test skips, unless SEALGATE_REQUIRE_PYTHON=1 (CI), which makes a
// missing package — or another version, whose code the fixes below do not
// describe — a failure.

// pyLib is an installed library: its Debian package, the module it
// installs, its distribution name and the version the fixes describe.
type pyLib struct {
	deb, module, dist, version string
}

var (
	moreItertools = pyLib{"python3-more-itertools", "more_itertools", "more-itertools", "8.10.0"}
	packagingLib  = pyLib{"python3-packaging", "packaging", "packaging", "23.0"}
	pyparsingLib  = pyLib{"python3-pyparsing", "pyparsing", "pyparsing", "3.0.9"}
)

// pyFix is one released fix: in file (relative to the module's directory)
// every occurrence of fixed, the released code, was bug before the fix.
type pyFix struct {
	name string
	lib  pyLib
	file string
	// ref is where the fix is documented: the changelog entry, the issue
	// and the upstream commit.
	ref        string
	fixed, bug string
	// tests are the test files (path → content), claim the test that
	// fails on the bug and passes with the fix.
	tests map[string]string
	claim string
	// want is the verdict of the honest fix; why, when set, is a part of
	// the strength reason it must give.
	want, why string
}

var pyFixes = []pyFix{{
	name: "more-itertools partition with pred=None",
	lib:  moreItertools, file: "recipes.py",
	ref:   "more-itertools 8.1.0 changelog, bug fixes: \"partition works with pred=None again\" (PR #368, commit 892d0ad)",
	fixed: "    if pred is None:\n        pred = bool\n\n    evaluations",
	bug:   "    evaluations",
	tests: map[string]string{"tests/test_partition.py": `from more_itertools import partition


def test_bool():
    lesser, greater = partition(lambda x: x > 5, range(10))
    assert list(lesser) == [0, 1, 2, 3, 4, 5]
    assert list(greater) == [6, 7, 8, 9]


def test_arbitrary():
    divisibles, remainders = partition(lambda x: x % 3, range(10))
    assert list(divisibles) == [0, 3, 6, 9]
    assert list(remainders) == [1, 2, 4, 5, 7, 8]


def test_pred_is_none():
    falses, trues = partition(None, [0, 1, False, True, "", " "])
    assert list(falses) == [0, False, ""]
    assert list(trues) == [1, True, " "]
`},
	claim: "tests/test_partition.py::test_pred_is_none",
	want:  merge,
}, {
	name: "more-itertools split_before on an empty iterable",
	lib:  moreItertools, file: "more.py",
	ref:   "more-itertools 8.8.0 changelog: \"split_before was updated to handle empty collections\" (commit 2e81a56)",
	fixed: "        buf.append(item)\n    if buf:\n        yield buf\n\n\ndef split_after",
	bug:   "        buf.append(item)\n    yield buf\n\n\ndef split_after",
	tests: map[string]string{"tests/test_split_before.py": `from more_itertools import split_before


def test_starts_with_sep():
    assert list(split_before("xooxoo", lambda c: c == "x")) == [["x", "o", "o"], ["x", "o", "o"]]


def test_ends_with_sep():
    assert list(split_before("ooxoox", lambda c: c == "x")) == [["o", "o"], ["x", "o", "o"], ["x"]]


def test_no_sep():
    assert list(split_before("ooo", lambda c: c == "x")) == [["o", "o", "o"]]


def test_empty_collection():
    assert list(split_before([], lambda c: bool(c))) == []
`},
	claim: "tests/test_split_before.py::test_empty_collection",
	// Two changed lines, four distinct mutants, all killed: too few for
	// the floor, and the artefact says so.
	want: inconclusive, why: "the change offers 4 distinct mutants; the floor needs at least 5",
}, {
	name: "packaging marker environment with extra None",
	lib:  packagingLib, file: "markers.py",
	ref: "packaging 23.0 changelog: \"Allow \"extra\" to be None in the marker environment\" (issue #650, commit 5c70ed4)",
	fixed: "            current_environment.update(environment)\n" +
		"            # The API used to allow setting extra to None. We need to handle this\n" +
		"            # case for backwards compatibility.\n" +
		"            if current_environment[\"extra\"] is None:\n" +
		"                current_environment[\"extra\"] = \"\"\n",
	bug: "            current_environment.update(environment)\n",
	tests: map[string]string{"tests/test_markers.py": `from packaging.markers import Marker


def test_extra_none():
    assert Marker('extra == "security"').evaluate({"extra": None}) is False
    assert Marker('extra == ""').evaluate({"extra": None}) is True


def test_extra_given():
    assert Marker('extra == "security"').evaluate({"extra": "security"}) is True
    assert Marker('extra == "security"').evaluate({"extra": "tests"}) is False
    assert Marker('extra == "security"').evaluate() is False
`},
	claim: "tests/test_markers.py::test_extra_none",
	want:  merge,
}, {
	name: "packaging URL requirement with trailing whitespace",
	lib:  packagingLib, file: "_parser.py",
	ref: "packaging 23.0 changelog: \"Correctly handle trailing whitespace on URL requirements\" (issue #642, commit ddf54e1)",
	fixed: "        tokenizer.expect(\"WS\", expected=\"whitespace after URL\")\n\n" +
		"        # The input might end after whitespace.\n" +
		"        if tokenizer.check(\"END\", peek=True):\n" +
		"            return (url, specifier, marker)\n\n",
	bug: "        tokenizer.expect(\"WS\", expected=\"whitespace after URL\")\n\n",
	tests: map[string]string{"tests/test_requirements.py": `import pytest

from packaging.requirements import InvalidRequirement, Requirement


def test_url_with_trailing_whitespace():
    req = Requirement("name @ https://example.com/name.zip ")
    assert req.name == "name"
    assert req.url == "https://example.com/name.zip"
    assert req.marker is None


def test_url_without_whitespace():
    req = Requirement("name @ https://example.com/name.zip")
    assert req.url == "https://example.com/name.zip"
    assert req.marker is None


def test_url_with_marker():
    req = Requirement('name @ https://example.com/name.zip ; python_version >= "3"')
    assert req.url == "https://example.com/name.zip"
    assert str(req.marker) == 'python_version >= "3"'


def test_url_then_garbage():
    with pytest.raises(InvalidRequirement):
        Requirement("name @ https://example.com/name.zip garbage")
`},
	claim: "tests/test_requirements.py::test_url_with_trailing_whitespace",
	want:  merge,
}, {
	name: "packaging prefix matching with a non-normalised specifier",
	lib:  packagingLib, file: "specifiers.py",
	ref: "packaging 22.0 changelog: \"Normalize specifier version for prefix matching\" (issue #561, commit cb21fc7, with #564, commit e184fee); the bug as released in 21.3",
	fixed: `            # In the case of prefix matching we want to ignore local segment.
            normalized_prospective = canonicalize_version(prospective.public)
            # Get the normalized version string ignoring the trailing .*
            normalized_spec = canonicalize_version(spec[:-2], strip_trailing_zero=False)
            # Split the spec out by dots, and pretend that there is an implicit
            # dot in between a release segment and a pre-release segment.
            split_spec = _version_split(normalized_spec)

            # Split the prospective version out by dots, and pretend that there
            # is an implicit dot in between a release segment and a pre-release
            # segment.
            split_prospective = _version_split(normalized_prospective)

            # 0-pad the prospective version before shortening it to get the correct
            # shortened version.
            padded_prospective, _ = _pad_version(split_prospective, split_spec)

            # Shorten the prospective version to be the same length as the spec
            # so that we can determine if the specifier is a prefix of the
            # prospective version or not.
            shortened_prospective = padded_prospective[: len(split_spec)]

            return shortened_prospective == split_spec
`,
	bug: `            # In the case of prefix matching we want to ignore local segment.
            prospective = Version(prospective.public)
            # Split the spec out by dots, and pretend that there is an implicit
            # dot in between a release segment and a pre-release segment.
            split_spec = _version_split(spec[:-2])  # Remove the trailing .*

            # Split the prospective version out by dots, and pretend that there
            # is an implicit dot in between a release segment and a pre-release
            # segment.
            split_prospective = _version_split(str(prospective))

            # Shorten the prospective version to be the same length as the spec
            # so that we can determine if the specifier is a prefix of the
            # prospective version or not.
            shortened_prospective = split_prospective[: len(split_spec)]

            # Pad out our two sides with zeros so that they both equal the same
            # length.
            padded_spec, padded_prospective = _pad_version(
                split_spec, shortened_prospective
            )

            return padded_prospective == padded_spec
`,
	tests: map[string]string{"tests/test_specifiers.py": `import pytest

from packaging.specifiers import Specifier


@pytest.mark.parametrize(
    "spec, version, contained",
    [
        pytest.param("==1.0.*", "1", True, id="padded"),
        pytest.param("==1.0.0.*", "1", True, id="padded-twice"),
        pytest.param("==1.0.*", "1.0.0", True, id="longer"),
        pytest.param("==1.1.*", "1", False, id="other-minor"),
        pytest.param("==1.0.*", "1.1", False, id="minor-differs"),
        pytest.param("==2.*", "2.0.1", True, id="major"),
        pytest.param("==2.*", "3", False, id="other-major"),
        pytest.param("==0!2.*", "2", True, id="epoch-zero"),
        pytest.param("==2.0.*", "0!2.0", True, id="epoch-zero-version"),
        pytest.param("==1!2.*", "2", False, id="other-epoch"),
        pytest.param("!=1.0.*", "1", False, id="not-padded"),
        pytest.param("!=1.0.*", "1.1", True, id="not-other"),
        pytest.param("==1.0.*", "1.0+local", True, id="local"),
    ],
)
def test_prefix_match(spec, version, contained):
    assert Specifier(spec).contains(version, prereleases=True) is contained
`},
	claim: "tests/test_specifiers.py::test_prefix_match[epoch-zero]",
	want:  merge,
}, {
	name: "packaging ~= specifiers keeping a trailing zero",
	lib:  packagingLib, file: "specifiers.py",
	ref: "packaging 22.0 changelog: \"Fix compatible version specifier incorrectly strip trailing 0\" (issue #493, commit e99b37e)",
	fixed: `    def _canonical_spec(self) -> Tuple[str, str]:
        canonical_version = canonicalize_version(
            self._spec[1],
            strip_trailing_zero=(self._spec[0] != "~="),
        )
        return self._spec[0], canonical_version
`,
	bug: `    def _canonical_spec(self) -> Tuple[str, str]:
        return self._spec[0], canonicalize_version(self._spec[1])
`,
	tests: map[string]string{"tests/test_specifier_equality.py": `from packaging.specifiers import Specifier


def test_compatible_keeps_trailing_zero():
    assert Specifier("~=2.0") != Specifier("~=2.0.0")
    assert len({Specifier("~=2.0"), Specifier("~=2.0.0")}) == 2
    assert Specifier("~=2.0.0") == Specifier("~= 2.0.0")


def test_other_operators_strip_trailing_zero():
    assert Specifier("==2.0") == Specifier("==2.0.0")
    assert Specifier(">=1.0") == Specifier(">=1")
    assert len({Specifier("==2.0"), Specifier("==2.0.0"), Specifier("==2")}) == 1
    assert Specifier("~=2.0") != Specifier("==2.0")
    assert Specifier("==2.0") != Specifier("==2.1")
`},
	claim: "tests/test_specifier_equality.py::test_compatible_keeps_trailing_zero",
	want:  merge,
}, {
	name: "pyparsing WordStart and WordEnd given word characters",
	lib:  pyparsingLib, file: "core.py",
	ref:   "pyparsing 3.0.7 changelog: \"Fixed bug #346, when a string of word characters was passed to WordStart or WordEnd instead of just taking the default value\" (commit 5e3e1bb)",
	fixed: "wordChars = word_chars if wordChars == printables else wordChars",
	bug:   "wordChars = word_chars if wordChars != printables else wordChars",
	tests: map[string]string{"tests/test_word_start.py": `from pyparsing import Word, WordEnd, WordStart, alphas


def starts(expr, text):
    return [t[0] for t in (expr + Word(alphas)).search_string(text)]


def ends(expr, text):
    return [t[0] for t in (Word(alphas) + expr).search_string(text)]


def test_word_start_positional():
    # After a digit a word of letters starts; with printables it would not.
    assert starts(WordStart(alphas), "1ab 2cd ef") == ["ab", "cd", "ef"]


def test_word_start_legacy_keyword():
    assert starts(WordStart(wordChars=alphas), "1ab 2cd ef") == ["ab", "cd", "ef"]


def test_word_start_default():
    assert starts(WordStart(), "1ab 2cd ef") == ["ef"]


def test_word_end_positional():
    assert ends(WordEnd(alphas), "ab1 cd2 ef") == ["ab", "cd", "ef"]


def test_word_end_legacy_keyword():
    assert ends(WordEnd(wordChars=alphas), "ab1 cd2 ef") == ["ab", "cd", "ef"]


def test_word_end_default():
    assert ends(WordEnd(), "ab1 cd2 ef") == ["ef"]
`},
	claim: "tests/test_word_start.py::test_word_start_positional",
	want:  merge,
}, {
	name: "pyparsing delimited_list given a string",
	lib:  pyparsingLib, file: "helpers.py",
	ref:   "pyparsing 3.0.6 changelog: \"Fix bug when delimited_list was called with a str literal instead of a parse expression\" (issue #331, commit 2941566)",
	fixed: "    if isinstance(expr, str_type):\n        expr = ParserElement._literalStringClass(expr)\n\n    dlName",
	bug:   "    dlName",
	tests: map[string]string{"tests/test_delimited.py": `import pytest

from pyparsing import ParseException, Word, alphas, delimited_list


def test_string_literal():
    assert delimited_list("aa").parse_string("aa, aa,aa").as_list() == ["aa", "aa", "aa"]


def test_expression():
    assert delimited_list(Word(alphas)).parse_string("ab, cd").as_list() == ["ab", "cd"]


def test_string_literal_mismatch():
    with pytest.raises(ParseException):
        delimited_list("aa").parse_string("bb")


def test_combine():
    assert delimited_list("a", delim=":", combine=True).parse_string("a:a:a").as_list() == ["a:a:a"]
`},
	claim: "tests/test_delimited.py::test_string_literal",
	// pyparsing calls delimited_list while it is imported: two of the five
	// mutants break the import, so the tests fail to collect — which is no
	// kill (only a failure in a test's call phase is) — and leave three
	// mutants, all killed: too few for the floor.
	want: inconclusive, why: "3 killed, 0 survived, 2 stillborn",
}}

// weakMarkers tests the extra-None fix with one assertion: a mutant
// setting extra to something else than "", or setting it whatever its
// value, passes it.
const weakMarkers = `from packaging.markers import Marker


def test_extra_none():
    assert Marker('extra == "security"').evaluate({"extra": None}) is False
`

// TestPythonCorpus verifies the released fixes of the corpus, each
// reverted, and a fix with weak tests.
func TestPythonCorpus(t *testing.T) {
	needPython(t)
	for _, fx := range pyFixes {
		t.Run(fx.name, func(t *testing.T) {
			r, released := corpusRepo(t, fx, fx.tests)
			buggy := r.commit(t, released, "bug", "re-introduce the bug: "+fx.ref, map[string]string{fx.path(): fx.content(t, fx.bug)})
			fixed := r.commit(t, buggy, "fix", "the released fix: "+fx.ref, map[string]string{fx.path(): fx.content(t, fx.fixed)})
			claim := "pytest:" + fx.claim

			v := verify(t, "--repo", r.Dir, "--base", buggy, "--patch", fixed, "--claim", claim)
			s := strengthOf(t, v)
			t.Logf("%s: %s, %d killed, %d survived, %d stillborn; %s", fx.name, v.art.Decision, s.Killed, s.Survived, s.Stillborn, s.Reason)
			v.wantDecision(t, fx.want)
			v.wantClaim(t, claim, "VERIFIED", "fixed")
			if fx.why != "" && !strings.Contains(s.Reason, fx.why) {
				t.Errorf("strength reason %q lacks %q", s.Reason, fx.why)
			}

			// The fix reverted: the claim passes on the released code and
			// fails on the patch.
			v = verify(t, "--repo", r.Dir, "--base", fixed, "--patch", buggy, "--claim", claim)
			v.wantDecision(t, block)
		})
	}
	t.Run("weak tests", func(t *testing.T) {
		fx := pyFixes[2]
		if fx.file != "markers.py" {
			t.Fatalf("fix 2 is %s, not the extra-None fix", fx.name)
		}
		r, released := corpusRepo(t, fx, map[string]string{"tests/test_markers.py": weakMarkers})
		buggy := r.commit(t, released, "bug", "re-introduce the bug: "+fx.ref, map[string]string{fx.path(): fx.content(t, fx.bug)})
		fixed := r.commit(t, buggy, "fix", "the released fix: "+fx.ref, map[string]string{fx.path(): fx.content(t, fx.fixed)})
		v := verify(t, "--repo", r.Dir, "--base", buggy, "--patch", fixed, "--claim", "pytest:"+fx.claim)
		v.wantDecision(t, inconclusive)
		s := strengthOf(t, v)
		t.Logf("%s, weak tests: %d killed, %d survived: %v", fx.name, s.Killed, s.Survived, s.Survivors)
		if !containsPart(s.Survivors, "packaging/markers.py") || !containsPart(v.art.reasons(), "below the floor") {
			t.Fatalf("want the survivors named and the floor missed:\n%s", v)
		}
	})
}

func (fx pyFix) path() string { return fx.lib.module + "/" + fx.file }

// content returns the released file with every occurrence of fx.fixed
// replaced by with.
func (fx pyFix) content(t *testing.T, with string) string {
	t.Helper()
	src := fx.lib.source(t)[fx.file]
	if !strings.Contains(src, fx.fixed) {
		t.Fatalf("%s %s: the released %s does not hold the fix:\n%s", fx.lib.dist, fx.lib.version, fx.file, fx.fixed)
	}
	return strings.ReplaceAll(src, fx.fixed, with)
}

// source reads the installed library's files (path relative to its
// module's directory → content), skipping the test unless the package is
// installed at the version the corpus describes.
func (l pyLib) source(t *testing.T) map[string]string {
	t.Helper()
	const where = `import importlib.metadata as m, os, sys
mod = __import__(sys.argv[1])
print(os.path.dirname(os.path.abspath(mod.__file__)))
print(m.version(sys.argv[2]))
`
	out, err := exec.Command("/usr/bin/python3", "-I", "-c", where, l.module, l.dist).Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 || lines[1] != l.version {
		msg := "the corpus needs " + l.deb + " " + l.version + " (apt-get install " + l.deb + ")"
		if err == nil && len(lines) == 2 {
			msg += "; installed: " + lines[1]
		}
		if os.Getenv("SEALGATE_REQUIRE_PYTHON") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	files := map[string]string{}
	root := lines[0]
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(p, ".pyc") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// corpusRepo makes a git repository whose first commit is the released
// library with tests; it returns the repository and that commit.
func corpusRepo(t *testing.T, fx pyFix, tests map[string]string) (*repo, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &repo{Repo: &demo.Repo{Dir: dir}}
	r.git(t, "init", "--quiet", "--initial-branch=main")
	files := map[string]string{".gitignore": "__pycache__/\n"}
	for p, src := range fx.lib.source(t) {
		files[fx.lib.module+"/"+p] = src
	}
	for p, src := range tests {
		files[p] = src
	}
	for p, src := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.git(t, "add", "--all")
	r.git(t, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", fx.lib.dist+" "+fx.lib.version+" as released, with tests")
	r.commits++
	return r, strings.TrimSpace(r.git(t, "rev-parse", "--verify", "HEAD^{commit}"))
}

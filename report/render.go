package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Formats a report can be rendered in.
const (
	FormatMarkdown          = "markdown"
	FormatSARIF             = "sarif"
	FormatJUnit             = "junit"
	FormatGitLabCodeQuality = "gitlab-codequality"
	FormatGitHubAnnotations = "github-annotations"
	FormatText              = "text"
)

// Formats lists the formats in the order the documentation gives them.
func Formats() []string {
	return []string{FormatMarkdown, FormatSARIF, FormatJUnit, FormatGitLabCodeQuality, FormatGitHubAnnotations, FormatText}
}

// Options are what a report needs beyond the artefact.
type Options struct {
	// Locations of the tests the artefact names (Locate); nil when the
	// repository is not at hand.
	Locations Locations
	// ToolVersion is the version of sealgate that renders (SARIF's
	// tool.driver.version); "" leaves it out.
	ToolVersion string
}

// Render renders a in format.
func Render(format string, a *Artefact, opts Options) ([]byte, error) {
	if a == nil {
		return nil, fmt.Errorf("report: no artefact")
	}
	switch format {
	case FormatMarkdown:
		return Markdown(a, opts), nil
	case FormatSARIF:
		return SARIF(a, opts)
	case FormatJUnit:
		return JUnit(a, opts)
	case FormatGitLabCodeQuality:
		return CodeQuality(a, opts)
	case FormatGitHubAnnotations:
		return Annotations(a, opts), nil
	case FormatText:
		return Text(a, opts), nil
	}
	return nil, fmt.Errorf("report: unknown format %q (want one of %s)", format, strings.Join(Formats(), ", "))
}

// clip shortens s to at most max bytes at a rune boundary, saying how much
// was left out.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// oneLine turns line breaks and other control characters into spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// shortRev is a commit or digest shortened for display.
func shortRev(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// reasonsBeyond returns the reasons other than the decisive one (which
// the artefact lists first, as its reason says it).
func reasonsBeyond(a *Artefact) []string {
	if len(a.Reasons) > 0 && strings.HasSuffix(a.Reason, a.Reasons[0]) {
		return a.Reasons[1:]
	}
	return a.Reasons
}

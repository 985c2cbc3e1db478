package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
)

// GitHub code scanning's limits that bind a sealgate report: it keeps at
// most 5,000 results of a run (of the 25,000 it accepts), and refuses files
// over 10 MB compressed. sealgate emits the most important results first,
// at most maxSARIFResults, each message at most maxSARIFMessage bytes.
const (
	maxSARIFResults = 5000
	maxSARIFMessage = 2048
	sarifSchemaURI  = "https://json.schemastore.org/sarif-2.1.0.json"
	docsURI         = "https://github.com/sealgate/sealgate/blob/main/docs/ci.md"
	// FingerprintKey names sealgate's partial fingerprint: the SHA-256 of
	// the rule id and the finding's key (a test name, a line, a line and
	// mutation), stable across runs of the same finding.
	FingerprintKey = "sealgate/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool      `json:"tool"`
	Results    []sarifResult  `json:"results"`
	Properties map[string]any `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// SARIF renders the artefact's findings as a SARIF 2.1.0 log with one run:
// every rule with its help, and one result per finding, located relative
// to the repository root (uriBaseId %SRCROOT%).
func SARIF(a *Artefact, opts Options) ([]byte, error) {
	rules := Rules()
	index := map[string]int{}
	driver := sarifDriver{Name: "sealgate", Version: opts.ToolVersion, InformationURI: docsURI, Rules: []sarifRule{}}
	for i, r := range rules {
		index[r.ID] = i
		severity := map[Level]string{LevelError: "error", LevelWarning: "warning", LevelNote: "recommendation"}[r.Level]
		driver.Rules = append(driver.Rules, sarifRule{
			ID: r.ID, Name: r.Name,
			ShortDescription:     sarifText{Text: r.Short},
			FullDescription:      sarifText{Text: r.Full},
			Help:                 sarifText{Text: r.Help, Markdown: "**" + r.Short + "**\n\n" + r.Full + "\n\n" + r.Help},
			HelpURI:              docsURI + "#" + lowerID(r.ID),
			DefaultConfiguration: sarifConfig{Level: r.Level.String()},
			Properties:           map[string]any{"tags": r.Tags, "precision": "very-high", "problem.severity": severity},
		})
	}
	findings := Findings(a, opts.Locations)
	omitted := 0
	if len(findings) > maxSARIFResults {
		omitted = len(findings) - maxSARIFResults
		findings = findings[:maxSARIFResults]
	}
	results := []sarifResult{}
	for _, f := range findings {
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: f.Level.String(),
			Message:             sarifText{Text: clip(oneLine(f.Message), maxSARIFMessage)},
			PartialFingerprints: map[string]string{FingerprintKey: Fingerprint(f)},
		}
		if f.Path != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(f.Path), URIBaseID: "%SRCROOT%"}}}
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line}
			}
			res.Locations = []sarifLocation{loc}
		}
		if f.Approximate {
			res.Properties = map[string]any{"approximateLocation": true}
		}
		results = append(results, res)
	}
	run := sarifRun{
		Tool: sarifTool{Driver: driver}, Results: results,
		Properties: map[string]any{
			"decision": a.Decision, "runId": a.RunID, "reason": clip(oneLine(a.Reason), maxSARIFMessage),
			"resultsOmitted": omitted,
		},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Fingerprint is a finding's stable identity: the SHA-256 of its rule and
// key.
func Fingerprint(f Finding) string {
	sum := sha256.Sum256([]byte(f.Rule + "\x00" + f.Key))
	return hex.EncodeToString(sum[:])
}

// fileURI is a repository-relative path as a relative URI reference:
// escaped, and never mistaken for a scheme ("a:b" becomes "./a:b").
func fileURI(p string) string {
	return (&url.URL{Path: p}).String()
}

func lowerID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

package repoconfig

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// header opens every file Marshal writes.
const header = `# .sealgate.yaml — what sealgate verify measures this repository by.
# Unknown keys are refused; a floor left out takes sealgate's default.
`

// Marshal returns c as a .sealgate.yaml file: a short header comment, then
// the keys in a fixed order (commands sorted by label). It refuses a Config
// that Validate refuses, so that what it writes Parse reads back equal.
func (c *Config) Marshal() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", FileName, err)
	}
	var root yaml.Node
	if err := root.Encode(c); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", FileName, err)
	}
	showFloats(&root)
	var buf bytes.Buffer
	buf.WriteString(header)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", FileName, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", FileName, err)
	}
	return buf.Bytes(), nil
}

// showFloats writes whole-number fractional floors as 1.0 rather than 1, so
// that a reader sees they are fractions, not counts.
func showFloats(root *yaml.Node) {
	floors := value(root, "floors")
	if floors == nil {
		return
	}
	for _, key := range []string{"coverage", "strength", "confidence"} {
		v := value(floors, key)
		if v != nil && v.Kind == yaml.ScalarNode && strings.Trim(v.Value, "0123456789") == "" {
			v.Value += ".0"
			v.Tag = "!!float"
		}
	}
}

// value returns the value of key in mapping n, or nil.
func value(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

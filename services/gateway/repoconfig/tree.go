package repoconfig

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// shape is what a key's value must look like in the node tree.
type shape int

const (
	shapeString   shape = iota // a scalar, read as text
	shapeInt                   // a whole number
	shapeFloat                 // a number
	shapeStrings               // a list of scalars
	shapeCommand               // a mapping of run and junit
	shapeCommands              // a list of commands
	shapeLabels                // a mapping of labels to commands
	shapeFloors                // a mapping of floors
)

// The keys each mapping allows, as error messages list them.
const (
	topKeys     = "version, stacks, python, runner, suite, seal, commands, floors, test_support"
	commandKeys = "run, junit"
	floorsKeys  = "coverage, strength, confidence, mutants"
)

func topShape(key string) (shape, bool) {
	switch key {
	case "version":
		return shapeInt, true
	case "stacks", "test_support":
		return shapeStrings, true
	case "python", "runner":
		return shapeString, true
	case "suite":
		return shapeCommand, true
	case "seal":
		return shapeCommands, true
	case "commands":
		return shapeLabels, true
	case "floors":
		return shapeFloors, true
	}
	return 0, false
}

func commandShape(key string) (shape, bool) {
	return shapeString, key == "run" || key == "junit"
}

func floorsShape(key string) (shape, bool) {
	switch key {
	case "coverage", "strength", "confidence":
		return shapeFloat, true
	case "mutants":
		return shapeInt, true
	}
	return 0, false
}

// labelShape accepts every label here; Validate checks their spelling.
func labelShape(string) (shape, bool) { return shapeCommand, true }

// checkTop checks the document's tree against the format before it is
// decoded: the decoder would expand aliases (billion laughs), honour tags
// and merge keys, and report type mismatches without naming the key.
func checkTop(root *yaml.Node) error {
	if err := checkNode(root, "the document"); err != nil {
		return err
	}
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: the document is not a mapping of keys; start with `version: %d`", root.Line, Version)
	}
	return checkMapping(root, "", topShape, topKeys)
}

// checkNode refuses what no value of the format may carry.
func checkNode(n *yaml.Node, key string) error {
	switch {
	case n.Kind == yaml.AliasNode:
		return fmt.Errorf("line %d: %s: aliases (*name) are not allowed; write the value out", n.Line, key)
	case n.Anchor != "":
		return fmt.Errorf("line %d: %s: anchors (&name) are not allowed; write the value out", n.Line, key)
	case n.Style&yaml.TaggedStyle != 0:
		return fmt.Errorf("line %d: %s: tags (%s) are not allowed; write the plain value", n.Line, key, n.Tag)
	}
	return nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// checkValue checks that n, the value of key, has the shape want. A null
// value is the key's zero value, as the decoder reads it; Validate decides
// whether that zero value is allowed.
func checkValue(n *yaml.Node, key string, want shape) error {
	if err := checkNode(n, key); err != nil {
		return err
	}
	if isNull(n) {
		return nil
	}
	switch want {
	case shapeString:
		return checkScalar(n, key, "text")
	case shapeInt:
		if err := checkScalar(n, key, "a whole number"); err != nil {
			return err
		}
		if n.Tag != "!!int" {
			return fmt.Errorf("line %d: %s: %q is not a whole number; write e.g. %s: 1", n.Line, key, n.Value, key)
		}
	case shapeFloat:
		if err := checkScalar(n, key, "a number"); err != nil {
			return err
		}
		if n.Tag != "!!int" && n.Tag != "!!float" {
			return fmt.Errorf("line %d: %s: %q is not a number; write e.g. %s: 0.8", n.Line, key, n.Value, key)
		}
	case shapeStrings:
		return checkList(n, key, shapeString, "a list such as [a, b]")
	case shapeCommands:
		return checkList(n, key, shapeCommand, "a list of entries such as `- run: make test`")
	case shapeCommand:
		return checkMappingOf(n, key, commandShape, commandKeys)
	case shapeLabels:
		return checkMappingOf(n, key, labelShape, "labels, each with run and junit")
	case shapeFloors:
		return checkMappingOf(n, key, floorsShape, floorsKeys)
	}
	return nil
}

func checkScalar(n *yaml.Node, key, what string) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: %s: want %s, found a %s", n.Line, key, what, kindName(n.Kind))
	}
	return nil
}

func checkList(n *yaml.Node, key string, item shape, what string) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: %s: want %s, found a %s", n.Line, key, what, kindName(n.Kind))
	}
	for i, c := range n.Content {
		itemKey := fmt.Sprintf("%s[%d]", key, i)
		// The decoder drops null items from a list without a word.
		if isNull(c) {
			return fmt.Errorf("line %d: %s: empty entry; remove it or give it a value", c.Line, itemKey)
		}
		if err := checkValue(c, itemKey, item); err != nil {
			return err
		}
	}
	return nil
}

func checkMappingOf(n *yaml.Node, key string, shapeOf func(string) (shape, bool), allowed string) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s: want a mapping of %s, found a %s", n.Line, key, allowed, kindName(n.Kind))
	}
	return checkMapping(n, key, shapeOf, allowed)
}

// checkMapping checks the keys of mapping n (the value of key, "" at the
// top) and their values.
func checkMapping(n *yaml.Node, key string, shapeOf func(string) (shape, bool), allowed string) error {
	first := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := checkNode(k, "a key"+in(key)); err != nil {
			return err
		}
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: a key%s is a %s; keys are plain names", k.Line, in(key), kindName(k.Kind))
		}
		if k.Tag == "!!merge" {
			return fmt.Errorf("line %d: merge keys (<<)%s are not allowed; write the keys out", k.Line, in(key))
		}
		name := join(key, k.Value)
		if line, dup := first[k.Value]; dup {
			return fmt.Errorf("line %d: %s: repeats the key of line %d; keep one", k.Line, name, line)
		}
		first[k.Value] = k.Line
		want, ok := shapeOf(k.Value)
		if !ok {
			return fmt.Errorf("line %d: unknown key %q%s; the keys are %s", k.Line, k.Value, in(key), allowed)
		}
		if err := checkValue(v, name, want); err != nil {
			return err
		}
	}
	return nil
}

func in(key string) string {
	if key == "" {
		return " at the top level"
	}
	return " in " + key
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.ScalarNode:
		return "single value"
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

package mutant

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Switch is how a schemata build selects its active mutant at run time.
//
// Every process of a mutant job, reference runs included, gets the
// environment variable Var set to "<token> <marker path>": one space, the
// marker path absolute. Each mutant has two tokens: its own, which
// activates it, and its reference token, which activates nothing but
// watches the mutant's site exactly as the mutant's own token does. The
// first time in a process that the site of the mutant a token names is
// evaluated, the generated code appends "<token>\n" to the marker file
// (opened O_WRONLY|O_APPEND|O_CREATE, 0600; errors ignored): HitBy and
// RefHitBy read it. So the reference run of a mutant is the mutant run
// with the mutated behaviour taken out and nothing else: the same
// variable, a value of the same shape, the marker written at the same
// moment with the same shape of content. Code that watches the marker or
// the variable behaves the same in both, and a kill needs a difference.
// The schemata source holds only SHA-256 digests of the tokens.
type Switch struct {
	// Var is the environment variable's name, fresh per run
	// ("SEALGATE_M_" and 16 lowercase hex characters from NewSwitch).
	Var string
	// Tokens maps each mutant id to the token that activates it: 32
	// lowercase hex characters from crypto/rand.
	Tokens map[int]string
	// Refs maps each mutant id to its reference token, of the same
	// format: the value of the mutant's reference runs, which activates no
	// mutant and marks the mutant's site.
	Refs map[int]string
}

// tokenLen is the length of a token: 16 random bytes in lowercase hex.
const tokenLen = 32

// NewSwitch makes a switch for the given mutant ids (positive, distinct)
// with a fresh variable name and, per id, a fresh token and a fresh
// reference token, all from crypto/rand and all distinct.
func NewSwitch(ids []int) (Switch, error) {
	v, err := randomHex(8)
	if err != nil {
		return Switch{}, err
	}
	sw := Switch{Var: "SEALGATE_M_" + v, Tokens: make(map[int]string, len(ids)), Refs: make(map[int]string, len(ids))}
	seen := make(map[string]bool, 2*len(ids))
	fresh := func() (string, error) {
		for {
			t, err := randomHex(tokenLen / 2)
			if err != nil {
				return "", err
			}
			if !seen[t] {
				seen[t] = true
				return t, nil
			}
		}
	}
	for _, id := range ids {
		if id <= 0 {
			return Switch{}, fmt.Errorf("mutant: switch: id %d is not positive", id)
		}
		if _, dup := sw.Tokens[id]; dup {
			return Switch{}, fmt.Errorf("mutant: switch: id %d is listed twice", id)
		}
		if sw.Tokens[id], err = fresh(); err != nil {
			return Switch{}, err
		}
		if sw.Refs[id], err = fresh(); err != nil {
			return Switch{}, err
		}
	}
	return sw, nil
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("mutant: switch: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Env returns the environment entry "Var=<token> <marker>" that runs mutant
// id, or an error when id has no token or marker is not an absolute path
// fit for the entry.
func (sw Switch) Env(id int, marker string) (string, error) {
	tok, ok := sw.Tokens[id]
	if !ok {
		return "", fmt.Errorf("mutant: switch has no token for mutant %d", id)
	}
	return sw.entry(tok, marker)
}

// RefEnv returns the environment entry of a reference run of mutant id:
// its reference token, which activates no mutant and marks id's site, with
// the marker path.
func (sw Switch) RefEnv(id int, marker string) (string, error) {
	tok, ok := sw.Refs[id]
	if !ok {
		return "", fmt.Errorf("mutant: switch has no reference token for mutant %d", id)
	}
	return sw.entry(tok, marker)
}

func (sw Switch) entry(tok, marker string) (string, error) {
	if !validVar(sw.Var) || !validToken(tok) {
		return "", fmt.Errorf("mutant: switch is malformed")
	}
	if !strings.HasPrefix(marker, "/") || strings.ContainsAny(marker, "\x00\n") {
		return "", fmt.Errorf("mutant: marker path %q is not absolute", marker)
	}
	return sw.Var + "=" + tok + " " + marker, nil
}

// HitBy reports whether marker, the bytes of a marker file after a run,
// says that mutant id's site executed in a run of the mutant: exactly one
// line, exactly id's token.
func HitBy(marker []byte, sw Switch, id int) bool {
	return marked(marker, sw.Tokens[id])
}

// RefHitBy reports whether marker says that mutant id's site executed in
// a reference run of the mutant: exactly one line, exactly id's reference
// token.
func RefHitBy(marker []byte, sw Switch, id int) bool {
	return marked(marker, sw.Refs[id])
}

func marked(marker []byte, tok string) bool {
	return validToken(tok) && string(marker) == tok+"\n"
}

// check validates the switch for the given site ids: every id has a
// token and a reference token, and no two tokens are the same.
func (sw Switch) check(ids []int) error {
	if !validVar(sw.Var) {
		return fmt.Errorf("mutant: switch variable %q is not an environment variable name of letters, digits and _ not starting with a digit", sw.Var)
	}
	seen := map[string]bool{}
	for _, role := range []struct {
		name   string
		tokens map[int]string
	}{{"token", sw.Tokens}, {"reference token", sw.Refs}} {
		for _, id := range slices.Sorted(maps.Keys(role.tokens)) {
			tok := role.tokens[id]
			if !validToken(tok) {
				return fmt.Errorf("mutant: the %s of mutant %d is not 32 lowercase hex characters", role.name, id)
			}
			if seen[tok] {
				return fmt.Errorf("mutant: the %s of mutant %d is used twice", role.name, id)
			}
			seen[tok] = true
		}
	}
	for _, id := range ids {
		if _, ok := sw.Tokens[id]; !ok {
			return fmt.Errorf("mutant: the switch has no token for mutant %d", id)
		}
		if _, ok := sw.Refs[id]; !ok {
			return fmt.Errorf("mutant: the switch has no reference token for mutant %d", id)
		}
	}
	return nil
}

func validVar(v string) bool {
	if v == "" || v[0] >= '0' && v[0] <= '9' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func validToken(t string) bool {
	if len(t) != tokenLen {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !(t[i] >= '0' && t[i] <= '9' || t[i] >= 'a' && t[i] <= 'f') {
			return false
		}
	}
	return true
}

// digest is the hex SHA-256 of a token, as the generated code compares it.
func digest(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

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
// marker path absolute. The token of a mutant activates it; the Inert token
// (same format, fresh per run) activates nothing, so code cannot tell a
// reference run from a mutant run by its environment. The schemata source
// holds only SHA-256 digests of the tokens. The first time in a process
// that the active mutant's site is evaluated, the generated code appends
// "<token>\n" to the marker file (opened O_WRONLY|O_APPEND|O_CREATE, 0600;
// errors ignored): HitBy reads it.
type Switch struct {
	// Var is the environment variable's name, fresh per run
	// ("SEALGATE_M_" and 16 lowercase hex characters from NewSwitch).
	Var string
	// Tokens maps each mutant id to the token that activates it: 32
	// lowercase hex characters from crypto/rand.
	Tokens map[int]string
	// Inert is a token of the same format that matches no mutant: the
	// value of reference runs.
	Inert string
}

// tokenLen is the length of a token: 16 random bytes in lowercase hex.
const tokenLen = 32

// NewSwitch makes a switch for the given mutant ids (positive, distinct)
// with a fresh variable name, a fresh token per id and a fresh inert token,
// all from crypto/rand.
func NewSwitch(ids []int) (Switch, error) {
	v, err := randomHex(8)
	if err != nil {
		return Switch{}, err
	}
	sw := Switch{Var: "SEALGATE_M_" + v, Tokens: make(map[int]string, len(ids))}
	seen := make(map[string]bool, len(ids)+1)
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
	}
	if sw.Inert, err = fresh(); err != nil {
		return Switch{}, err
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

// InertEnv returns the environment entry of a reference run: the inert
// token, which activates no mutant, with the marker path.
func (sw Switch) InertEnv(marker string) (string, error) {
	return sw.entry(sw.Inert, marker)
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
// says that mutant id's site executed: exactly one line, exactly id's
// token.
func HitBy(marker []byte, sw Switch, id int) bool {
	tok, ok := sw.Tokens[id]
	return ok && validToken(tok) && string(marker) == tok+"\n"
}

// check validates the switch for the given site ids.
func (sw Switch) check(ids []int) error {
	if !validVar(sw.Var) {
		return fmt.Errorf("mutant: switch variable %q is not an environment variable name of letters, digits and _ not starting with a digit", sw.Var)
	}
	if !validToken(sw.Inert) {
		return fmt.Errorf("mutant: the inert token is not 32 lowercase hex characters")
	}
	seen := map[string]bool{sw.Inert: true}
	for _, id := range slices.Sorted(maps.Keys(sw.Tokens)) {
		tok := sw.Tokens[id]
		if !validToken(tok) {
			return fmt.Errorf("mutant: the token of mutant %d is not 32 lowercase hex characters", id)
		}
		if seen[tok] {
			return fmt.Errorf("mutant: the token of mutant %d is used twice", id)
		}
		seen[tok] = true
	}
	for _, id := range ids {
		if _, ok := sw.Tokens[id]; !ok {
			return fmt.Errorf("mutant: the switch has no token for mutant %d", id)
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

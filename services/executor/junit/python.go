package junit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ErrNoPython is wrapped by FindPython's error when no interpreter it tried
// can import pytest.
var ErrNoPython = errors.New("no python3 that can import pytest")

// pythonProbeTimeout bounds one interpreter's `import pytest`; a pyenv shim
// or a cold cache can take a while, a hung interpreter must not.
const pythonProbeTimeout = 30 * time.Second

// debianPython is tried after $PATH: the interpreter that sees Debian's
// dist-packages (python3-pytest), which a python3 built into /usr/local
// or installed by pyenv does not.
const debianPython = "/usr/bin/python3"

// FindPython returns the path of the first Python 3 interpreter that can
// import pytest. It tries "python3" in each absolute directory of $PATH, in
// order (relative entries are skipped, as exec.LookPath refuses them), then
// /usr/bin/python3; each path once, and only executable files. A candidate
// counts when `<python3> -c "import pytest"` exits 0 within 30 seconds,
// with this process's environment and working directory: a caller that
// runs pytest with another environment should probe with that one.
//
// Unlike the rest of the package it starts processes. The error wraps
// ErrNoPython and lists what was tried, or is ctx's error.
func FindPython(ctx context.Context) (string, error) {
	var candidates []string
	seen := make(map[string]bool)
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		if p := filepath.Join(dir, "python3"); !seen[p] {
			seen[p] = true
			candidates = append(candidates, p)
		}
	}
	if !seen[debianPython] {
		candidates = append(candidates, debianPython)
	}
	var tried []string
	for _, p := range candidates {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("junit: looking for python3: %w", err)
		}
		if _, err := exec.LookPath(p); err != nil {
			continue // absent or not executable
		}
		tried = append(tried, p)
		if importsPytest(ctx, p) {
			return p, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("junit: looking for python3: %w", err)
	}
	if len(tried) == 0 {
		return "", fmt.Errorf("junit: %w: no python3 on PATH or at %s", ErrNoPython, debianPython)
	}
	return "", fmt.Errorf("junit: %w (tried %s)", ErrNoPython, strings.Join(tried, ", "))
}

// importsPytest reports whether python can import pytest.
func importsPytest(ctx context.Context, python string) bool {
	ctx, cancel := context.WithTimeout(ctx, pythonProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", "import pytest")
	cmd.WaitDelay = time.Second
	return cmd.Run() == nil
}

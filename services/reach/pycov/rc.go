package pycov

// RC is the coverage.py configuration the executor runs with, written
// outside the tree and given with --rcfile, so the patch's own coverage
// configuration never applies: line coverage only, each test's lines in
// its own dynamic context (test_function), every file under the tree's
// root measured, and nothing excluded — a "# pragma: no cover" the patch
// adds does not hide a line from diff coverage.
const RC = `[run]
branch = False
dynamic_context = test_function
source = .
parallel = False

[report]
exclude_lines =
`

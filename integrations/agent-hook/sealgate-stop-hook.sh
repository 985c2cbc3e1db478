#!/usr/bin/env bash
# sealgate stop hook for coding agents (Claude Code's `Stop` hook and any
# agent whose hook contract is the same): before the agent may finish, the
# change in the working tree is verified against its base. Exit 0 lets the
# agent stop (MERGE, or nothing changed); exit 2 blocks it and what this
# script writes to standard error goes back to the agent: the decision, the
# reasons, the next steps and where. Any error of the hook's own blocks too
# (exit 2): a gate that cannot run is not a gate that passed. See docs/ci.md.
#
# Settings (environment):
#   SEALGATE_CLAIMS  tests that prove the change, separated by newlines or
#                    spaces (go:./pkg:TestName pytest:tests/test_x.py::test_y);
#                    empty: .sealgate.yaml's at the base, else discovered
#   SEALGATE_BASE    the base revision; default: the merge base of HEAD and
#                    its upstream branch, else HEAD
#   SEALGATE_ARGS    more sealgate verify arguments, separated by newlines
#   SEALGATE_BIN     the sealgate command (default: sealgate on PATH)
#   SEALGATE_REPORT  also keep the text report in this file

set -uo pipefail

block() {
	printf 'sealgate stop hook: %s\n' "$1" >&2
	exit 2
}
trap 'block "the hook failed at line $LINENO; fix the hook or sealgate before finishing"' ERR
set -e

# The hook's input (JSON on standard input) is not needed: the working tree
# is the change. stop_hook_active is ignored on purpose: an agent that was
# blocked once is judged like any other.
cat > /dev/null 2>&1 || true

dir="${CLAUDE_PROJECT_DIR:-$PWD}"
cd "$dir" 2> /dev/null || block "cannot enter the project directory $dir"
sealgate="${SEALGATE_BIN:-sealgate}"
command -v "$sealgate" > /dev/null 2>&1 ||
	block "$sealgate is not installed: from a clone of sealgate, go install ./tools/sealgate"
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || block "$dir is not a git work tree"
top="$(git rev-parse --show-toplevel)"
cd "$top"

base="${SEALGATE_BASE:-}"
if [ -z "$base" ]; then
	base="$(git merge-base HEAD '@{upstream}' 2> /dev/null)" || base="HEAD"
fi
base="$(git rev-parse --verify --quiet "$base^{commit}")" || block "the base ${SEALGATE_BASE:-HEAD} is not a commit"

tmp="$(mktemp -d)"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# The change: every commit since the base, staged or not, and new files git
# does not ignore — collected in a private index, so the user's index is
# never touched.
GIT_INDEX_FILE="$tmp/index" git read-tree HEAD
GIT_INDEX_FILE="$tmp/index" git add --all -- .
GIT_INDEX_FILE="$tmp/index" git diff --cached --binary --no-color --no-ext-diff "$base" -- > "$tmp/change.diff"
if [ ! -s "$tmp/change.diff" ]; then
	echo "sealgate: nothing changed against ${base:0:12}"
	exit 0
fi

args=(verify --repo . --base "$base" --patch-file "$tmp/change.diff"
	--out "$tmp/artefact.json" --report "text=$tmp/report.txt")
set -f # claims are split on blanks, never globbed: test_p[even] is a node id
for claim in ${SEALGATE_CLAIMS:-}; do
	args+=(--claim "$claim")
done
set +f
while IFS= read -r arg; do
	if [ -n "$arg" ]; then args+=("$arg"); fi
done <<< "${SEALGATE_ARGS:-}"

code=0
"$sealgate" "${args[@]}" > /dev/null 2> "$tmp/progress.log" || code=$?
if [ -n "${SEALGATE_REPORT:-}" ] && [ -f "$tmp/report.txt" ]; then
	cp "$tmp/report.txt" "$SEALGATE_REPORT"
fi
case "$code" in
0)
	head -n 2 "$tmp/report.txt"
	exit 0
	;;
1 | 2)
	{
		cat "$tmp/report.txt"
		echo
		echo "Act on the next steps: fix the code, cover the lines, kill the mutants."
		echo "Do not edit or delete tests to pass: sealgate judges with the base's test files."
	} >&2
	exit 2
	;;
*)
	tail -n 5 "$tmp/progress.log" >&2
	block "sealgate verify exited $code without a verdict"
	;;
esac

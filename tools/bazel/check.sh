#!/usr/bin/env bash
# The Bazel check CI runs (works on a fresh clone on a fresh Debian machine
# that has only Go):
#   1. tools/bazel/setup.sh             install/prepare everything (idempotent)
#   2. tools/bazel/gazelle.sh -check    BUILD files and deps.bzl up to date
#   3. bazel build //...
#   4. bazel test //...
# Extra arguments are passed to `bazel build` and `bazel test`.
# With CI set (or BAZEL_SHUTDOWN=1) the Bazel server is stopped at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

start=$SECONDS
phase_start=$SECONDS
timings=()
phase() { # NAME: record the time spent since the previous phase
  timings+=("$(printf '%-14s %4ds' "$1" $((SECONDS - phase_start)))")
  phase_start=$SECONDS
}
report() {
  local rc=$?
  if [[ -n "${CI:-}" || -n "${BAZEL_SHUTDOWN:-}" ]] && command -v bazel >/dev/null; then
    bazel shutdown >/dev/null 2>&1 || true
  fi
  echo "== bazel check timings =="
  printf '  %s\n' "${timings[@]}"
  printf '  %-14s %4ds  (exit %d)\n' total $((SECONDS - start)) "$rc"
}
trap report EXIT

echo "== tools/bazel/setup.sh"
tools/bazel/setup.sh
phase setup

echo "== tools/bazel/gazelle.sh -check"
tools/bazel/gazelle.sh -check
phase gazelle-diff

echo "== bazel build //..."
bazel build "$@" //...
phase build

echo "== bazel test //..."
bazel test "$@" //...
phase test

#!/usr/bin/env bash
# Regenerates the Bazel files that follow from the Go sources:
#   1. deps.bzl (macro go_dependencies) from go.mod, with
#      gazelle update-repos -from_file=go.mod -to_macro=deps.bzl%go_dependencies -prune
#   2. BUILD.bazel in every Go package directory (gazelle update).
#
#   tools/bazel/gazelle.sh            # rewrite deps.bzl and BUILD files
#   tools/bazel/gazelle.sh -check     # change nothing; print the diff and
#                                     # exit 1 if anything is out of date
#
# Run it whenever go.mod or the Go packages change (new package, new import,
# new file). Uses the native gazelle binary built by tools/bazel/setup.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GAZELLE="$ROOT/.bazel-offline/bin/gazelle"
# Make sure the binary matches the checked-in patches (well under 1 s when
# nothing changed).
"$ROOT/tools/bazel/setup.sh"

# Same flags for both steps, so that a check sees exactly what an update writes.
UPDATE_REPOS_FLAGS=(
  -from_file=go.mod
  -to_macro=deps.bzl%go_dependencies
  -prune
  # grpc, genproto & co. ship .proto files next to their .pb.go: use the
  # .pb.go and generate no proto rules in external repositories either.
  -build_file_proto_mode=disable_global
)

check=
case "${1:-}" in
  "") ;;
  -check | --check) check=1 ;;
  *) echo "usage: $0 [-check]" >&2; exit 2 ;;
esac

# gazelle runs `go list -m` and `go mod download`: keep them on the host Go and
# off any workspace file.
export GOWORK=off GOTOOLCHAIN=local
unset GOROOT

cd "$ROOT"
if [[ -z "$check" ]]; then
  "$GAZELLE" update-repos "${UPDATE_REPOS_FLAGS[@]}"
  "$GAZELLE" update -repo_root="$ROOT"
  exit 0
fi

status=0
# deps.bzl: regenerate in a scratch copy of the files update-repos reads or
# writes, then compare.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp go.mod go.sum WORKSPACE BUILD.bazel deps.bzl "$scratch/"
(cd "$scratch" && "$GAZELLE" update-repos -repo_root="$scratch" "${UPDATE_REPOS_FLAGS[@]}" >/dev/null)
for f in deps.bzl WORKSPACE; do
  if ! diff -u --label "a/$f" --label "b/$f" "$f" "$scratch/$f"; then
    status=1
  fi
done
# BUILD files.
"$GAZELLE" update -repo_root="$ROOT" -mode=diff || status=1
if ((status)); then
  echo "Bazel files are out of date: run tools/bazel/gazelle.sh" >&2
fi
exit "$status"

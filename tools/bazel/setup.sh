#!/usr/bin/env bash
# Prepares everything `bazel build //...` needs on a fresh Debian bookworm
# machine that has only Go installed. Idempotent; fast when already done.
#
#   tools/bazel/setup.sh           # set up (or check that set-up is current)
#   SETUP_FORCE=1 tools/bazel/setup.sh   # redo every step
#
# Everything fetched or built goes under .bazel-offline/ (git-ignored):
#   rules_go/  gazelle/      patched copies of the rules (Go modules)
#   go_sdk/                  copy of the host Go SDK with std installed + pack
#   stubs/                   stub repositories (from tools/bazel/stubs)
#   bin/gazelle              native gazelle binary
#   bazelrc                  machine-specific flags, try-imported by .bazelrc
#
# Nothing is downloaded from GitHub or Bazel mirrors: Bazel comes from
# Debian, the rules from the Go module proxy (`go mod download`).
set -euo pipefail

RULES_GO_MODULE=github.com/bazelbuild/rules_go
RULES_GO_VERSION=v0.34.0
GAZELLE_MODULE=github.com/bazelbuild/bazel-gazelle
GAZELLE_VERSION=v0.26.0

# Debian packages: Bazel 4.2.3 and the rule sets Debian ships for it, protoc
# and the protobuf headers/well-known types (for the com_google_protobuf
# stub), patch(1) for our patches, a C toolchain for cgo.
DEB_PACKAGES=(
  bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-java bazel-rules-proto
  protobuf-compiler libprotobuf-dev patch gcc g++ libc6-dev
)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/tools/bazel"
OFF="$ROOT/.bazel-offline"
FORCE="${SETUP_FORCE:-}"

log() { printf '[bazel-setup] %s\n' "$*" >&2; }
die() { printf '[bazel-setup] ERROR: %s\n' "$*" >&2; exit 1; }

# stamp_ok NAME HASH: true when step NAME was completed with inputs HASH.
stamp_ok() { [[ -z "$FORCE" && -f "$OFF/.stamp-$1" && "$(cat "$OFF/.stamp-$1")" == "$2" ]]; }
stamp_set() { printf '%s\n' "$2" >"$OFF/.stamp-$1"; }

# ---------------------------------------------------------------- Go
command -v go >/dev/null || die "go is not on PATH"
HOST_GOROOT="$(go env GOROOT)"
GO_VERSION="$(go env GOVERSION)"
mkdir -p "$OFF"

# ---------------------------------------------------------------- Debian
missing=()
for p in "${DEB_PACKAGES[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  SUDO=()
  [[ "$(id -u)" == 0 ]] || SUDO=(sudo)
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v bazel >/dev/null || die "bazel not found after installing bazel-bootstrap"

# ---------------------------------------------------------------- rules
# Run module commands outside the repository so that sealgate's go.mod/go.sum
# are never touched.
tmpmod="$(mktemp -d)"
trap 'rm -rf "$tmpmod"' EXIT

moddir() { # MODULE VERSION -> prints the module cache directory
  local json dir
  json="$(cd "$tmpmod" && GOFLAGS=-mod=mod GOWORK=off go mod download -json "$1@$2")" \
    || die "go mod download $1@$2 failed: $json"
  dir="$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' | head -n1)"
  [[ -n "$dir" && -d "$dir" ]] || die "no module directory for $1@$2"
  printf '%s\n' "$dir"
}

# copy_patched NAME MODULE VERSION PATCH_PREFIX
copy_patched() {
  local name="$1" module="$2" version="$3" prefix="$4" src dest patches=()
  dest="$OFF/$name"
  shopt -s nullglob
  patches=("$HERE"/patches/"$prefix"-*.patch)
  shopt -u nullglob
  local h
  h="$(printf '%s@%s %s\n' "$module" "$version" "$GO_VERSION" | cat - "${patches[@]}" "$HERE/setup.sh" | sha256sum | cut -d' ' -f1)"
  if stamp_ok "$name" "$h" && [[ -d "$dest" ]]; then
    return 0
  fi
  src="$(moddir "$module" "$version")"
  log "copying $module@$version to .bazel-offline/$name and patching"
  rm -rf "$dest" "$dest.tmp"
  cp -R "$src" "$dest.tmp"
  chmod -R u+w "$dest.tmp"
  local p
  for p in "${patches[@]}"; do
    patch -s -p1 -d "$dest.tmp" --no-backup-if-mismatch <"$p" || die "patch $(basename "$p") does not apply"
  done
  if [[ "$name" == gazelle ]]; then
    prepare_gazelle "$dest.tmp"
  fi
  mv "$dest.tmp" "$dest"
  stamp_set "$name" "$h"
  rm -f "$OFF/.stamp-gazelle-bin"
}

prepare_gazelle() {
  local dir="$1"
  # Gazelle's built-in list of standard-library packages dates from Go 1.18:
  # regenerate it from the host SDK so that imports like "slices" or "iter"
  # resolve to the standard library and not to a go_repository. (Inside
  # Bazel, gazelle regenerates this file from @go_sdk the same way.)
  (cd "$HOST_GOROOT/src" && find . -type f ! -path './testdata/*' -printf '%h\n' | sed -n 's|^\./||p' | sort -u) >"$tmpmod/packages.txt"
  (cd "$dir" && GOFLAGS=-mod=mod GOWORK=off go run ./language/go/gen_std_package_list "$tmpmod/packages.txt" language/go/std_package_list.go)
  # The module zip has no vendor/ (only modules.txt), but go_repository_tools
  # builds gazelle in GOPATH mode from this copy: vendor its dependencies.
  (cd "$dir" && GOFLAGS=-mod=mod GOWORK=off go mod vendor)
}

copy_patched rules_go "$RULES_GO_MODULE" "$RULES_GO_VERSION" rules_go
copy_patched gazelle "$GAZELLE_MODULE" "$GAZELLE_VERSION" gazelle

# ---------------------------------------------------------------- Go SDK copy
# rules_go 0.34 compiles its builder with a bare `go tool compile`/`link`,
# which looks for the standard library as .a files under GOROOT/pkg; Go >= 1.20
# ships none and Go >= 1.24 ships no `pack` tool either. Prepare a copy of the
# host SDK (leaving the host SDK itself untouched).
SDK="$OFF/go_sdk"
sdk_hash="$(printf '%s %s %s\n' "$HOST_GOROOT" "$GO_VERSION" "$(cat "$HOST_GOROOT/VERSION" 2>/dev/null | head -n1)" | cat - "$HERE/setup.sh" | sha256sum | cut -d' ' -f1)"
if ! stamp_ok go_sdk "$sdk_hash" || [[ ! -x "$SDK/bin/go" ]]; then
  log "preparing Go SDK copy in .bazel-offline/go_sdk ($GO_VERSION)"
  rm -rf "$SDK" "$SDK.tmp"
  cp -R "$HOST_GOROOT" "$SDK.tmp"
  chmod -R u+w "$SDK.tmp"
  (
    cd "$SDK.tmp/src"
    export GOROOT="$SDK.tmp" GOTOOLCHAIN=local GOFLAGS= GOWORK=off GO111MODULE=off
    GODEBUG=installgoroot=all "$GOROOT/bin/go" install std
    "$GOROOT/bin/go" build -o "$GOROOT/pkg/tool/$("$GOROOT/bin/go" env GOOS)_$("$GOROOT/bin/go" env GOARCH)/pack" cmd/pack
  )
  mv "$SDK.tmp" "$SDK"
  stamp_set go_sdk "$sdk_hash"
fi

# ---------------------------------------------------------------- stubs
# Stub repositories, copied from tools/bazel/stubs (where their BUILD files
# are named BUILD.in/WORKSPACE.in so that they are not packages of the main
# repository). Always re-synced: cheap.
stubs_tmp="$OFF/stubs.tmp"
rm -rf "$stubs_tmp"
cp -R "$HERE/stubs" "$stubs_tmp"
find "$stubs_tmp" -name 'BUILD.in' -execdir mv BUILD.in BUILD.bazel \;
find "$stubs_tmp" -name 'WORKSPACE.in' -execdir mv WORKSPACE.in WORKSPACE \;
# com_google_protobuf: Debian's protoc and the well-known .proto files.
command -v protoc >/dev/null || die "protoc not found (protobuf-compiler)"
[[ -f /usr/include/google/protobuf/any.proto ]] || die "/usr/include/google/protobuf missing (libprotobuf-dev)"
mkdir -p "$stubs_tmp/com_google_protobuf/bin"
ln -s "$(command -v protoc)" "$stubs_tmp/com_google_protobuf/bin/protoc"
ln -s /usr/include/google "$stubs_tmp/com_google_protobuf/google"
ln -s /usr/share/doc/libprotobuf-dev/copyright "$stubs_tmp/com_google_protobuf/LICENSE"
if ! diff -r --no-dereference "$stubs_tmp" "$OFF/stubs" >/dev/null 2>&1; then
  rm -rf "$OFF/stubs"
  mv "$stubs_tmp" "$OFF/stubs"
else
  rm -rf "$stubs_tmp"
fi

# ---------------------------------------------------------------- gazelle
gz_hash="$(cat "$OFF/.stamp-gazelle" "$OFF/.stamp-go_sdk")"
if ! stamp_ok gazelle-bin "$gz_hash" || [[ ! -x "$OFF/bin/gazelle" ]]; then
  log "building native gazelle binary"
  mkdir -p "$OFF/bin"
  (cd "$OFF/gazelle" && GOFLAGS=-mod=vendor GOWORK=off CGO_ENABLED=0 go build -o "$OFF/bin/gazelle" ./cmd/gazelle)
  stamp_set gazelle-bin "$gz_hash"
fi

# ---------------------------------------------------------------- bazelrc
# Machine-specific flags: the SDK copy, the stub for a repository that Bazel's
# own WORKSPACE suffix declares (and so cannot be overridden in WORKSPACE),
# and the Go environment of this machine for repository rules (the SDK
# copy's go.env is not visible inside Bazel's wrapped SDK).
rc_new="$OFF/bazelrc.new"
{
  echo "# Generated by tools/bazel/setup.sh for this machine. Do not edit; not checked in."
  for cmd in build fetch query sync; do
    echo "$cmd --repo_env=GOROOT=$SDK"
    echo "$cmd --override_repository=remote_coverage_tools=$OFF/stubs/remote_coverage_tools"
    echo "$cmd --repo_env=GO_REPOSITORY_USE_HOST_CACHE=1"
    echo "$cmd --repo_env=GOTOOLCHAIN=local"
    for var in GOPROXY GOSUMDB GONOSUMDB GONOPROXY GOPRIVATE GOINSECURE GOFLAGS GOPATH GOMODCACHE GOCACHE; do
      val="$(go env "$var")"
      [[ -n "$val" ]] || continue
      [[ "$val" != *[[:space:]]* ]] || die "go env $var contains spaces: not supported"
      echo "$cmd --repo_env=$var=$val"
    done
  done
} >"$rc_new"
if cmp -s "$rc_new" "$OFF/bazelrc"; then
  rm -f "$rc_new"
else
  mv "$rc_new" "$OFF/bazelrc"
  log "wrote .bazel-offline/bazelrc"
fi

log "ready: $(bazel --version 2>/dev/null | head -n1 || true) / Debian $(dpkg-query -W -f='${Version}' bazel-bootstrap), rules_go $RULES_GO_VERSION, gazelle $GAZELLE_VERSION, $GO_VERSION"

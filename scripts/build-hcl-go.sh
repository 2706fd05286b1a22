#!/bin/sh
# Builds the hcl-go adapter (hashicorp/hcl and go-cty behind the subprocess
# protocol, runner/PROTOCOL.md) at one version of the library, as a Go
# module pinned by go.sum: the profile's module file in
# scripts/adapters/hcl-go (the profile table, runner/format/src/profiles.rs, names
# the versions each one pins).
#
# usage: scripts/build-hcl-go.sh [PROFILE]
#   PROFILE   hcl-v2.14 (the default: go.mod, hashicorp/hcl v2.14.1 with
#             go-cty v1.12.1) or another profile with an oracle
#             (`hcl-conformance profiles`: hcl-v2.X builds with go-v2.X.mod)
#
# The modules come from the Go module proxy the first time (about 10 MB),
# then from Go's module cache. Prints the path of the binary:
# $CARGO_TARGET_DIR/adapters/hcl-go-vX.Y (target/ by default; a relative
# CARGO_TARGET_DIR is taken from the repository root).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/scripts/adapters/hcl-go"
profile=${1:-hcl-v2.14}
version=${profile#hcl-}
case "$version" in
    v2.14) modfile=go.mod ;;
    v2.*) modfile="go-$version.mod" ;;
    *) echo "build-hcl-go: $profile is no hashicorp/hcl profile (hcl-v2.14, hcl-v2.25...)" >&2; exit 2 ;;
esac
if [ ! -f "$src/$modfile" ]; then
    echo "build-hcl-go: no module file $src/$modfile for profile $profile" >&2
    exit 2
fi
if ! command -v go >/dev/null 2>&1; then
    echo "build-hcl-go: Go is not on PATH (scripts/setup names what is missing)" >&2
    exit 1
fi

target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in
    /*) ;;
    *) target_dir="$root/$target_dir" ;;
esac
out="$target_dir/adapters/hcl-go-$version"
mkdir -p "$(dirname "$out")"
cd "$src"
# -mod=readonly: the build fails, rather than changing a module file, when
# the module file and its go.sum disagree.
GO111MODULE=on GOFLAGS=-mod=readonly go build -modfile="$modfile" -o "$out" . >&2
echo "$out"

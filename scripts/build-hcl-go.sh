#!/bin/sh
# Builds the hcl-go adapter (hashicorp/hcl v2.14.1 + go-cty 1.12.1 behind the
# subprocess protocol, runner/PROTOCOL.md) offline, in GOPATH mode, against
# the library sources Debian installs under /usr/share/gocode/src.
# Prints the path of the binary: $CARGO_TARGET_DIR/adapters/hcl-go (target/
# by default; a relative CARGO_TARGET_DIR is taken from the repository root).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/scripts/adapters/hcl-go"
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in
    /*) ;;
    *) target_dir="$root/$target_dir" ;;
esac
out="$target_dir/adapters/hcl-go"
gocode=/usr/share/gocode

# Install the toolchain and the library sources only when they are missing.
if ! command -v go >/dev/null 2>&1 || [ ! -d "$gocode/src/github.com/hashicorp/hcl/v2" ]; then
    echo "build-hcl-go: installing golang-go and golang-github-hashicorp-hcl-v2-dev" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update >&2
    $sudo apt-get install -y golang-go golang-github-hashicorp-hcl-v2-dev >&2
fi

# The suite's profile hcl-v2.14 is hashicorp/hcl 2.14.1 with go-cty 1.12.1.
for pkg in golang-github-hashicorp-hcl-v2-dev:2.14.1 golang-github-zclconf-go-cty-dev:1.12.1; do
    name=${pkg%%:*}
    want=${pkg#*:}
    have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || echo none)
    case "$have" in
        "$want"*) ;;
        *) echo "build-hcl-go: $name is $have, but the hcl-v2.14 profile needs $want" >&2; exit 1 ;;
    esac
done

mkdir -p "$(dirname "$out")"
cd "$src"
GO111MODULE=off GOPATH="$gocode:${HOME:-/tmp}/go" \
    GOCACHE="${GOCACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/go-build}" \
    go build -o "$out" . >&2
echo "$out"

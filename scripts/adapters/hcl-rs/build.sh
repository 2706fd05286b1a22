#!/bin/bash
# Builds the hcl-rs adapter (the hcl-rs crate behind the subprocess protocol,
# runner/PROTOCOL.md) from its own package, with the versions pinned in its
# committed Cargo.lock, and installs the binary as target/adapters/hcl-rs.
# Prints the path of the binary.
#
# The package is standalone (not part of the repository's workspace), so it
# builds in its own target folder: ${CARGO_TARGET_DIR:-<repo>/target}/adapters-build/hcl-rs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
build_dir="$target/adapters-build/hcl-rs"
out="$target/adapters/hcl-rs"

if ! command -v cargo >/dev/null 2>&1; then
    echo "build-hcl-rs: cargo is not on PATH; install a Rust toolchain (1.95 or newer)" >&2
    exit 1
fi

echo "build-hcl-rs: building $here into $build_dir" >&2
# --locked: build exactly the versions in Cargo.lock (hcl-rs is pinned there
# and in Cargo.toml); fail rather than resolve anew.
cargo build --release --locked \
    --manifest-path "$here/Cargo.toml" \
    --target-dir "$build_dir" >&2

mkdir -p "$(dirname "$out")"
cp "$build_dir/release/hcl-rs-adapter" "$out.tmp"
mv -f "$out.tmp" "$out"
echo "$out"

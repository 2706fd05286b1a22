#!/usr/bin/env bash
# Builds the hcl2json adapter: installs the npm packages pinned by
# package-lock.json (`npm ci`: exactly the locked versions, checked against
# their integrity hashes) under
# ${CARGO_TARGET_DIR:-target}/adapters-build/hcl2json/, and writes a launcher
# at ${CARGO_TARGET_DIR:-target}/adapters/hcl2json.
# Needs Node.js 18 or newer and npm. Prints the launcher's path.
set -euo pipefail

src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case "$target" in /*) ;; *) target=$root/$target ;; esac
build=$target/adapters-build/hcl2json
launcher=$target/adapters/hcl2json

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build hcl2json: $tool not found; install Node.js 18 or newer with npm (Debian: apt-get install nodejs npm)" >&2
        exit 1
    fi
done
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
    echo "build hcl2json: node is $(node --version); the adapter needs Node.js 18 or newer" >&2
    exit 1
fi

mkdir -p "$build"
# Reinstall only when the lock file changed.
if [ ! -d "$build/node_modules/@cdktf/hcl2json" ] || ! cmp -s "$src/package-lock.json" "$build/package-lock.json"; then
    echo "build hcl2json: npm ci in $build" >&2
    cp "$src/package.json" "$src/package-lock.json" "$build/"
    (cd "$build" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
fi
cp "$src/adapter.js" "$src/source.js" "$build/"

mkdir -p "$(dirname "$launcher")"
cat >"$launcher" <<LAUNCHER
#!/bin/sh
# hcl2json adapter (built by scripts/adapters/hcl2json/build.sh)
exec node "$build/adapter.js" "\$@"
LAUNCHER
chmod +x "$launcher"
echo "$launcher"

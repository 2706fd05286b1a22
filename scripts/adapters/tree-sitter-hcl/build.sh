#!/usr/bin/env bash
# Builds the tree-sitter-hcl adapter: a Python virtual environment with the
# pinned wheels of requirements.txt (prebuilt wheels only, from PyPI), under
# ${CARGO_TARGET_DIR:-target}/adapters-build/tree-sitter-hcl/, and a launcher
# at ${CARGO_TARGET_DIR:-target}/adapters/tree-sitter-hcl.
# Prints the launcher's path.
set -euo pipefail

src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case "$target" in /*) ;; *) target=$root/$target ;; esac
build=$target/adapters-build/tree-sitter-hcl
launcher=$target/adapters/tree-sitter-hcl
python=${PYTHON:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
    echo "build tree-sitter-hcl: $python not found; install Python 3.10 or newer (or set PYTHON)" >&2
    exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "build tree-sitter-hcl: $python is $("$python" --version 2>&1); tree-sitter 0.26 needs Python 3.10 or newer (set PYTHON)" >&2
    exit 1
fi

# A fresh environment whenever the pinned requirements change.
stamp=$build/requirements.txt
if [ ! -x "$build/venv/bin/python" ] || ! cmp -s "$src/requirements.txt" "$stamp"; then
    echo "build tree-sitter-hcl: creating $build/venv" >&2
    rm -rf "$build"
    mkdir -p "$build"
    if ! "$python" -m venv "$build/venv" >&2; then
        echo "build tree-sitter-hcl: '$python -m venv' failed; on Debian install python3-venv" >&2
        exit 1
    fi
    "$build/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary=:all: -r "$src/requirements.txt" >&2
    cp "$src/requirements.txt" "$stamp"
fi

cp "$src/adapter.py" "$build/adapter.py"
mkdir -p "$(dirname "$launcher")"
cat >"$launcher" <<LAUNCHER
#!/bin/sh
# tree-sitter-hcl adapter (built by scripts/adapters/tree-sitter-hcl/build.sh)
exec "$build/venv/bin/python" "$build/adapter.py" "\$@"
LAUNCHER
chmod +x "$launcher"
echo "$launcher"

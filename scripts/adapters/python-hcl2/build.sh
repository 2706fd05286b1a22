#!/usr/bin/env bash
# Builds the python-hcl2 adapter (scripts/adapters/python-adapter.sh): its pinned,
# hash-checked CPython 3.11 wheels, and a launcher at
# ${CARGO_TARGET_DIR:-target}/adapters/python-hcl2. Needs no Go toolchain.
exec "$(dirname "$0")/../python-adapter.sh" python-hcl2 exact 3.11

#!/usr/bin/env bash
# Builds the pygohcl adapter (scripts/adapters/python-adapter.sh): its pinned,
# hash-checked CPython 3.11 wheels, and a launcher at
# ${CARGO_TARGET_DIR:-target}/adapters/pygohcl. Needs no Go toolchain.
exec "$(dirname "$0")/../python-adapter.sh" pygohcl exact 3.11

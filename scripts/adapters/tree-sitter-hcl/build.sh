#!/usr/bin/env bash
# Builds the tree-sitter-hcl adapter (scripts/adapters/python-adapter.sh):
# the pinned wheels of tree-sitter and tree-sitter-hcl (tree-sitter 0.26
# needs Python 3.10 or newer), and a launcher at
# ${CARGO_TARGET_DIR:-target}/adapters/tree-sitter-hcl.
exec "$(dirname "$0")/../python-adapter.sh" tree-sitter-hcl min 3.10

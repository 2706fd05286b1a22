#!/bin/sh
# Runs the hcl-conformance suite against an implementation, for CI: the one
# script of the composite action (action.yml), and usable as it is in any
# other CI (README.md § Running the suite in your CI). scripts/test runs it
# against hcl-ref (it must pass) and against a broken adapter (it must fail,
# naming the case).
#
# Settings, from the environment:
#   HCL_CONFORMANCE_ADAPTER         the adapter's command (runner/PROTOCOL.md); required
#   HCL_CONFORMANCE_VERSION         the suite to test against: a suite version
#                                   X.Y.Z (the tag suite-vX.Y.Z), or any tag,
#                                   branch or commit of hcl-conformance; required
#   HCL_CONFORMANCE_KNOWN_FAILURES  your known-failure list; unset or empty: none
#   HCL_CONFORMANCE_SOURCE          where to fetch hcl-conformance from: its clone
#                                   URL, or a path; required (action.yml gives
#                                   the action's own repository)
#   HCL_CONFORMANCE_CACHE           where the checkout and the installed runners
#                                   are kept [default: $RUNNER_TOOL_CACHE or
#                                   ~/.cache, then /hcl-conformance]
#   HCL_CONFORMANCE_JUNIT           the JUnit report's path [default: conformance.xml]
#   HCL_CONFORMANCE_INSTALL_FLAGS   cargo install's flags [default: --locked]
# Arguments are passed to the runner: a filter, --write-failures FILE...
#
# The runner is installed once per commit of hcl-conformance (cargo install,
# into the cache), and the checkout is fetched before the pin is checked out,
# so that a kept cache folder can move to a newer pin.
set -eu

adapter=${HCL_CONFORMANCE_ADAPTER:?"set HCL_CONFORMANCE_ADAPTER to the command that starts your adapter"}
version=${HCL_CONFORMANCE_VERSION:?"set HCL_CONFORMANCE_VERSION to a suite version (X.Y.Z) or a commit of hcl-conformance"}
known=${HCL_CONFORMANCE_KNOWN_FAILURES:-}
source=${HCL_CONFORMANCE_SOURCE:?"set HCL_CONFORMANCE_SOURCE to the clone URL (or path) of hcl-conformance"}
cache=${HCL_CONFORMANCE_CACHE:-${RUNNER_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}}/hcl-conformance}
junit=${HCL_CONFORMANCE_JUNIT:-conformance.xml}
flags=${HCL_CONFORMANCE_INSTALL_FLAGS:---locked}

say() { echo "hcl-conformance CI: $*" >&2; }

if [ -n "$known" ] && [ ! -f "$known" ]; then
    say "the known-failure list $known does not exist; create it empty, then write it with --write-failures (README.md § Running the suite in your CI)"
    exit 2
fi

# The checkout: cloned once, fetched every time (a pin newer than the clone
# is then found), then the pin checked out.
src=$cache/src
mkdir -p "$cache"
if [ ! -d "$src/.git" ]; then
    rm -rf "$src"
    git clone --quiet --no-checkout "$source" "$src"
fi
git -C "$src" remote set-url origin "$source"
git -C "$src" fetch --quiet --tags --force origin '+refs/heads/*:refs/remotes/origin/*'
case $version in
[0-9]*.[0-9]*.[0-9]*) ref=suite-v$version ;;
*) ref=$version ;;
esac
commit=$(git -C "$src" rev-parse --verify --quiet "origin/$ref^{commit}" ||
    git -C "$src" rev-parse --verify --quiet "$ref^{commit}") || {
    say "$source has no tag, branch or commit $ref; give HCL_CONFORMANCE_VERSION as a suite version (X.Y.Z, tagged suite-vX.Y.Z) or a commit"
    exit 2
}
git -C "$src" checkout --quiet --force --detach "$commit"

# The runner, installed once per commit (the suite is built into it).
root=$cache/runner-$commit
runner=$root/bin/hcl-conformance
if [ ! -x "$runner" ]; then
    say "installing the runner of $commit (once; kept in $root)"
    # shellcheck disable=SC2086 # the flags are words
    cargo install --quiet $flags --path "$src/runner" --root "$root" --bin hcl-conformance
fi
say "$("$runner" --version)"
case $version in
[0-9]*.[0-9]*.[0-9]*)
    if ! "$runner" --version | grep -q "(suite $version,"; then
        say "the tag $ref holds another suite version than $version"
        exit 2
    fi
    ;;
esac

set -- --impl "$adapter" --report "junit=$junit" "$@"
if [ -n "$known" ]; then
    set -- --expect-failures "$known" "$@"
fi
status=0
"$runner" "$@" || status=$?
if [ "$status" != 0 ]; then
    say "the run failed (status $status): the cases above failed and are not in ${known:-a known-failure list}, or are listed and passed; a first list is written with --write-failures (README.md)"
fi
exit "$status"

#!/bin/sh
# check.sh [SOURCE_DIR]: kcost's layering, from the #include lines of base/ model/ analyzer/ runner/ reporter/
# cli/ (the rules are in layers.awk). The ctest `layers`; exits 1 naming each file and include that breaks a rule.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "${1:-$here/../..}" || exit 2
list=$(mktemp)
trap 'rm -f "$list"' EXIT
find base model analyzer runner reporter cli -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort >"$list"
# shellcheck disable=SC2046 # one argument per file: the tree's paths hold no blanks
awk -f "$here/layers.awk" "$list" $(cat "$list")

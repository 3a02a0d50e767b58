#!/bin/sh
# selftest.sh: the layers check fails on each kind of breach (so its passing on the tree means something).
# Builds small trees in a temporary directory, each with one breach, and expects check.sh to name it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# tree NAME: a clean tree of one module per layer
tree() {
	d="$tmp/$1"
	mkdir -p "$d/base" "$d/model" "$d/analyzer" "$d/runner" "$d/reporter" "$d/cli"
	printf '#include "arena.h"\n' >"$d/base/arena.c"
	: >"$d/base/arena.h"
	printf '#include "arena.h"\n' >"$d/model/poly.h"
	printf '#include "poly.h"\n' >"$d/model/poly.c"
	printf '#include "poly.h"\n#include "ir.h"\n' >"$d/analyzer/count.c"
	: >"$d/analyzer/count.h"
	printf '#include "poly.h"\n' >"$d/analyzer/ir.h"
	printf '#include "poly.h"\n' >"$d/runner/child.c"
	printf '#include "poly.h"\n' >"$d/reporter/json.c"
	printf '#include "count.h"\n#include "child.h"\n' >"$d/cli/kcost.c"
	: >"$d/runner/child.h"
	echo "$d"
}

# expect NAME WORDS: check.sh fails on tree NAME and its output contains WORDS
expect() {
	out=$(sh "$here/check.sh" "$tmp/$1" 2>&1)
	rc=$?
	case "$out" in
	*"$2"*) [ "$rc" -ne 0 ] && return ;;
	esac
	echo "selftest: $1: expected a failure mentioning '$2' (exit $rc):"
	echo "$out"
	failures=$((failures + 1))
}

d=$(tree clean)
if ! out=$(sh "$here/check.sh" "$d" 2>&1); then
	echo "selftest: the clean tree fails:"
	echo "$out"
	failures=$((failures + 1))
fi

d=$(tree up)
printf '#include "count.h"\n' >>"$d/model/poly.c"
expect up 'model/poly.c:2'

d=$(tree beside)
printf '#include "child.h"\n' >>"$d/reporter/json.c"
expect beside 'reporter/json.c:2'

d=$(tree clang)
printf '#include <clang-c/Index.h>\n' >>"$d/runner/child.c"
expect clang 'runner/child.c:2'

d=$(tree gvc)
printf '#include <gvc.h>\n' >>"$d/reporter/json.c"
expect gvc 'reporter/json.c:2'

d=$(tree cycle)
printf '#include "ir.h"\n' >"$d/analyzer/count.h"
printf '#include "poly.h"\n' >"$d/analyzer/ir.c"
printf '#include "count.h"\n' >>"$d/analyzer/ir.c"
expect cycle 'cycle'

if [ "$failures" -ne 0 ]; then
	echo "selftest: $failures breach(es) not caught"
	exit 1
fi
echo "selftest: every breach caught"

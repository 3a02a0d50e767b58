#!/bin/sh
# samples_build.sh CC: every sample, and the annotation header alone, compile warning-free with CC
# (-std=c17 -Wall -Wextra -Wshadow -Werror). Prints one line per file and a closing count.
set -u
cc=$1
cd "$(dirname "$0")/.." || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
printf '#include "kcost.h"\nKCOST_SIZES(n = 1 << 10) KCOST_REFERENCE(g) KCOST_ASSUME(n >= 1)\nvoid f(int n, float *x KCOST_EXTENT(n), float *s KCOST_SCRATCH);\n' > "$out/header.c"
for f in "$out/header.c" samples/*.c; do
	if "$cc" -std=c17 -Wall -Wextra -Wshadow -Werror -Iannotations -c "$f" -o "$out/o.o" 2> "$out/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $cc $f"
		cat "$out/err"
	fi
done
echo "$cc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

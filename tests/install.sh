#!/bin/sh
# install.sh CMAKE BUILD_DIR: kcost installed like a real tool. `cmake --install` into a temporary prefix, the prefix
# moved elsewhere, and the moved kcost run on samples/gelu.c: it finds its annotation header beside itself (the
# installed one, not the source tree's), says where it looked when the header is gone (exit 3), and the man page
# and the bash completion are where man and bash-completion look. Prints one line per check and a closing count.
set -u
cmake=$1
build=$(cd "$2" && pwd) || exit 1
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() {
	pass=$((pass + 1))
	echo "ok: $1"
}
bad() {
	fail=$((fail + 1))
	echo "FAIL: $1"
}

if ! "$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: cmake --install $build --prefix $tmp/prefix"
	exit 1
fi
mv "$tmp/prefix" "$tmp/moved"
p=$tmp/moved

for f in bin/kcost include/kcost/kcost.h share/man/man1/kcost.1 share/bash-completion/completions/kcost; do
	if [ -f "$p/$f" ]; then ok "installed $f"; else bad "not installed: $f"; fi
done
if [ -x "$p/bin/kcost" ]; then ok "bin/kcost is executable"; else bad "bin/kcost is not executable"; fi
if head -n 5 "$p/share/man/man1/kcost.1" | grep -q '^\.TH KCOST 1 '; then ok "kcost.1 is a man page of section 1"; else
	bad "kcost.1 has no '.TH KCOST 1' line"; fi

# the moved kcost, statically: exit 0 and gelu_fused's FLOPs, 8*n = 33554432 at n = 1 << 22
"$p/bin/kcost" --no-run --format json -o "$tmp/out" samples/gelu.c >"$tmp/json" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok "moved kcost --no-run --format json samples/gelu.c: exit 0"; else
	bad "moved kcost --no-run: exit $rc"
	cat "$tmp/err"
fi
flops=$(awk '/"name":[[:space:]]*"gelu_fused"/ { f = 1 } f && /"flops":/ { g = 1 }
	g && /"expr":|"value":/ { gsub(/[[:space:]]/, ""); printf "%s", $0 } g && /"value":/ { exit }' "$tmp/json")
if [ "$flops" = '"expr":"8*n","value":33554432,' ]; then ok "gelu_fused flops 8*n = 33554432"; else
	bad "gelu_fused flops: got '$flops', expected '\"expr\":\"8*n\",\"value\":33554432,'"; fi

# the header it read is the installed one: a file that needs a mark added to it only there
printf '\n#define KCOST_TEST_INSTALLED_HEADER 1\n' >>"$p/include/kcost/kcost.h"
cat >"$tmp/mark.c" <<'EOF'
#include "kcost.h"
#ifndef KCOST_TEST_INSTALLED_HEADER
#error "not the installed kcost.h"
#endif
KCOST_SIZES(n = 1024)
void twice(int n, float x[n])
{
	for (int i = 0; i < n; i++)
		x[i] *= 2;
}
EOF
"$p/bin/kcost" --no-run --format json -o "$tmp/out" "$tmp/mark.c" >"$tmp/json" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '"name":[[:space:]]*"twice"' "$tmp/json"; then
	ok "the moved kcost reads the moved prefix's kcost.h"
else
	bad "the moved kcost did not read $p/include/kcost/kcost.h (exit $rc)"
	cat "$tmp/err"
fi

# no header: exit 3 and the place looked in, not the source tree (a kcost outside its build tree never reads it)
rm "$p/include/kcost/kcost.h"
"$p/bin/kcost" --no-run -o "$tmp/out2" samples/gelu.c >/dev/null 2>"$tmp/err"
rc=$?
want="kcost: error: cannot find the annotation header kcost.h: looked in $p/bin/../include/kcost (an incomplete installation)"
if [ "$rc" -eq 3 ] && [ "$(cat "$tmp/err")" = "$want" ]; then ok "no header: exit 3, naming $p/bin/../include/kcost"; else
	bad "no header: exit $rc, stderr:"
	cat "$tmp/err"
	echo "expected: $want"
fi
if [ ! -e "$tmp/out2" ]; then ok "no header: no report directory"; else bad "no header: $tmp/out2 was made"; fi

# the completion: words for the last word of a command line, in an empty directory (no file names)
if command -v bash >/dev/null 2>&1; then
	mkdir "$tmp/empty"
	complete_words() { # complete_words WORD...: COMPREPLY for the last WORD
		(cd "$tmp/empty" && bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kcost; echo "${COMPREPLY[*]}"' \
			"$p/share/bash-completion/completions/kcost" "$@")
	}
	for t in 'kcost --format |text json md sarif' 'kcost --col|--color' 'kcost m|merge machine' 'kcost diff --format |md text json sarif' \
		'kcost machine --|--remeasure --format --help' 'kcost --color |auto always never' 'kcost merge --format |text json md' \
		'kcost merge -|-o --format --help'; do
		line=${t%%|*} want=${t#*|}
		# shellcheck disable=SC2086 # the words of the line, and an empty last one after a blank
		case $line in
		*' ') got=$(complete_words $line '') ;;
		*) got=$(complete_words $line) ;;
		esac
		if [ "$got" = "$want" ]; then ok "completion of '$line': $got"; else bad "completion of '$line': '$got', expected '$want'"; fi
	done
fi

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

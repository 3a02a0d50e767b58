#!/bin/sh
# selftest.sh MUTATE SOURCE_DIR: the ctest mutate.selftest. kcost-mutate is deterministic in its seed and never
# returns its input; scripts/mutants passes a clean kcost and names each kind of failure of a bad one (an exit
# status above 2, a sanitizer report, a file left in TMPDIR, a process left running there, a hang).
# shellcheck disable=SC2016 # the fakes' bodies are scripts of their own: their $ are theirs to expand
set -u
mutate=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/mutate-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# the mutator: the same seed gives the same bytes, another seed another mutant, never the source itself
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$mutate" "$src/samples/matmul.c" "$seed" >"$work/a.c" || fail "kcost-mutate exit status $? on seed $seed"
	"$mutate" "$src/samples/matmul.c" "$seed" >"$work/b.c"
	cmp -s "$work/a.c" "$work/b.c" || fail "seed $seed gave two different mutants"
	cmp -s "$work/a.c" "$src/samples/matmul.c" && fail "seed $seed gave the source back"
	cksum <"$work/a.c" >>"$work/sums"
done
distinct=$(sort -u "$work/sums" | wc -l)
[ "$distinct" -ge 18 ] || fail "only $distinct distinct mutants over 20 seeds"
"$mutate" "$src/samples/matmul.c" 12x >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad seed is not a usage error"
"$mutate" "$work/none.c" 1 >/dev/null 2>&1
[ $? -eq 2 ] || fail "a missing file is not exit status 2"
# a token-level edit: the mutant keeps the source's comments (the bytes between tokens are copied)
"$mutate" "$src/samples/matmul.c" 7 | grep -q -F "$(head -1 "$src/samples/matmul.c")" ||
	fail "the first line's comment did not survive"

# scripts/mutants on fake kcosts: $1 is the body of a kcost that behaves as told
fake() {
	printf '#!/bin/sh\n%s\n' "$1" >"$work/kcost"
	chmod +x "$work/kcost"
	MUTANTS_MUTATE=$mutate MUTANTS_KEEP=$work/keep MUTANTS_TIMEOUT=2 MUTANTS_RUN_TIMEOUT=2 \
		sh "$src/scripts/mutants" "$work/kcost" 2 9 >"$work/out" 2>&1
	echo $?
}
expect() { # expect STATUS TEXT BODY
	status=$(fake "$3")
	[ "$status" -eq "$1" ] || fail "kcost doing '$3': exit status $status, not $1"
	grep -q -F -- "$2" "$work/out" || fail "kcost doing '$3': no '$2' in: $(cat "$work/out")"
}
# mutant SEED mutates the (SEED mod number of samples)-th sample, sorted by name
nsamples=$(find "$src/samples" -name '*.c' | wc -l)
sample() { find "$src/samples" -name '*.c' | sed 's|.*/||; s|\.c$||' | LC_ALL=C sort | sed -n "$(($1 % nsamples + 1))p"; }
s9=$(sample 9) s10=$(sample 10)
expect 0 "mutants: 2 mutants (2 run), 0 failed" 'exit 1'
expect 1 "seed 9 ($s9.c, --no-run): exit status 3" 'exit 3'
expect 1 "seed 10 ($s10.c, full run): exit status 134" 'case "$*" in *--no-run*) exit 0;; esac; kill -ABRT $$'
expect 1 "sanitizer report" 'echo "x.c:1:2: runtime error: signed integer overflow" >&2; exit 1'
expect 1 "files left in TMPDIR: kcost-x" 'case "$*" in *--no-run*) exit 0;; esac; mkdir "$TMPDIR/kcost-x"'
expect 1 "processes left behind: " 'case "$*" in *--no-run*) exit 0;; esac; (cd "$TMPDIR" && exec sleep 3) &'
expect 1 "seed 9 ($s9.c, --no-run): no answer within 2 s" 'exec sleep 5'
if ! [ -f "$work/keep/${s9}_9.c" ] || ! [ -f "$work/keep/${s9}_9.stderr" ]; then
	fail "the failing mutant was not kept"
fi
[ "$fails" -eq 0 ] && echo "mutate selftest: all passed"
[ "$fails" -eq 0 ]

#!/bin/sh
# ci_doc.sh KCOST: the plain-shell review of docs/ci.md (the ```sh block after "<!-- kcost-ci-shell -->"),
# extracted and run as a CI job would run it, on a temporary git repository: a pull request whose head does 20
# times its base's work must fail the job (exit 4) with a comment that leads with "slower"; one that changes
# nothing a kernel does must pass (exit 0). The ctest `ci.shell`.
set -u
kcost=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# the block, as the documentation gives it
awk '/<!-- kcost-ci-shell -->/ { armed = 1; next }
     armed && /^```sh$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$here/../docs/ci.md" >"$tmp/review.sh"
if grep -q 'kcost --baseline' "$tmp/review.sh"; then ok "docs/ci.md's block extracted"; else bad "no block after <!-- kcost-ci-shell --> in docs/ci.md"; fi

# kcost on PATH, as an installed one would be
mkdir "$tmp/bin"
ln -s "$kcost" "$tmp/bin/kcost"

# a repository whose origin/main is the base
repo=$tmp/repo
mkdir "$repo"
kernel() { # kernel REPS: a latency chain of REPS dependent multiply-adds per element (compute-bound anywhere)
	printf '#include "kcost.h"\n#define REPS %s\nKCOST_SIZES(n = 16384)\nvoid chain(int n, const float *x, float *y)\n{\n' "$1"
	printf '\tfloat acc = 0.0f;\n\tfor (int i = 0; i < n; i++)\n\t\tfor (int r = 0; r < REPS; r++)\n'
	printf '\t\t\tacc = acc * 0.5f + x[i];\n\ty[0] = acc;\n}\n'
}
(
	cd "$repo" && git init -q -b main && git config user.email ci@test && git config user.name ci &&
		git config commit.gpgsign false && kernel 8 >k.c && git add k.c && git commit -q -m base &&
		git update-ref refs/remotes/origin/main main && git checkout -q -b feature
) || bad "the repository could not be made"

review() { # review: run the block in the repository; its exit status
	(cd "$repo" && rm -rf kcost-report && PATH="$tmp/bin:$PATH" KERNELS="k.c" sh "$tmp/review.sh" >"$tmp/out" 2>&1)
}

# 20 times the work: the job fails, the comment says slower
(cd "$repo" && kernel 160 >k.c && git commit -q -am "20x the work")
review
status=$?
if [ "$status" = 4 ]; then ok "20x the work: exit 4"; else bad "20x the work: exit $status, expected 4"; fi
if grep -q '^- \*\*chain\*\* (k.c): changed; time: slower, ' "$tmp/out"; then
	ok "the comment leads with the regression"
else
	bad "no 'slower' row in the comment"
fi
if grep -q '"ruleId":[[:space:]]*"kcost/regression"' "$repo/kcost-report/kcost.sarif"; then ok "kcost.sarif has the regression"; else bad "kcost.sarif lacks the regression"; fi

# a change of a comment only: the job passes
(cd "$repo" && kernel 8 >k.c && printf '/* reviewed */\n' >>k.c && git commit -q -am "a comment")
review
status=$?
if [ "$status" = 0 ]; then ok "a comment only: exit 0"; else bad "a comment only: exit $status, expected 0"; sed -n 1,40p "$tmp/out"; fi
if grep -q '^no regression beyond the threshold$' "$tmp/out" && ! grep -q 'time: slower' "$tmp/out"; then
	ok "the comment finds no regression"
else
	bad "the comment finds a regression"
	sed -n 1,20p "$tmp/out"
fi
# the worktrees are gone
if [ "$(cd "$repo" && git worktree list | wc -l)" = 1 ]; then ok "no worktree left"; else bad "a worktree was left"; fi

echo "ci.shell: $fails failed"
[ "$fails" = 0 ]

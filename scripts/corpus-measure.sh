#!/bin/sh
# corpus-measure.sh — run kcost's static analysis on every line of tests/corpus/MANIFEST and print one
# tab-separated row per function: project, file, function, exact|ops-exact|flagged, flops, the first
# warning (ops-exact: the operation counts are exact, the traffic is not; flops-exact: the FLOPs and
# transcendentals are, the comparisons are not).
#
# usage: scripts/corpus-measure.sh [--run] [KCOST] [OUT_DIR]
#   --run    also compile and time each kernel (kcost --no-traffic; slow: seconds per function) and add
#            a column: the median time, or the reason the kernel was not run
#   KCOST    the kcost binary (default: build/kcost)
#   OUT_DIR  where each file's report goes (default: a temporary directory, removed at the end)
# Run from the repository's root. Needs jq.
set -eu

mode=--no-run
if [ "${1:-}" = --run ]; then
	mode=--no-traffic
	shift
fi
kcost=${1:-build/kcost}
root=$(pwd)
corpus=$root/tests/corpus
if [ $# -ge 2 ]; then
	out=$2
	mkdir -p "$out"
	keep=1
else
	out=$(mktemp -d)
	keep=0
fi

printf 'project\tfile\tfunction\tstatus\tflops\tfirst warning\trun\n'
n=0
grep -v '^[[:space:]]*#' "$corpus/MANIFEST" | grep -v '^[[:space:]]*$' | while IFS= read -r line; do
	n=$((n + 1))
	file=${line%% *}
	rest=${line#"$file"}
	case $rest in
	*' -- '*)
		sizes=${rest%%' -- '*}
		flags=${rest#*' -- '}
		;;
	*)
		sizes=$rest
		flags=
		;;
	esac
	set --
	for s in $sizes; do
		case $s in
		extent:*) set -- "$@" --extent "${s#extent:}" ;;
		*) set -- "$@" --size "$s" ;;
		esac
	done
	dir=$out/$n
	rm -rf "$dir"
	# the flags are relative to tests/corpus/, as the MANIFEST's paths are
	# shellcheck disable=SC2086
	(cd "$corpus" && nice "$root/$kcost" "$mode" --quiet --format json -o "$dir" "$@" "$file" -- $flags) \
		>"$dir.json" 2>"$dir.stderr" || true
	project=${file%%/*}
	if ! jq -e '.functions' "$dir.json" >/dev/null 2>&1; then
		printf '%s\t%s\t-\terror\t-\t%s\n' "$project" "$file" "$(head -n 1 "$dir.stderr")"
		continue
	fi
	jq -r --arg p "$project" --arg f "$file" '.functions[] |
		[$p, $f, .name, (if .exact then "exact" elif .exact_ops then "ops-exact"
		                 elif .exact_flops then "flops-exact" else "flagged" end),
		 (.flops.value // "null" | tostring),
		 ([.diagnostics[] | select(.severity == "warning" or .severity == "error") |
		   "\(.line): \(.message)"] | first // ""),
		 (if .measured == null then "-"
		  elif .measured.error then .measured.error
		  else "median \(.measured.seconds.median) s" end)] | @tsv' "$dir.json"
done

if [ "$keep" = 0 ]; then
	rm -rf "$out"
fi

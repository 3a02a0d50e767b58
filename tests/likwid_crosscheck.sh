#!/bin/sh
# likwid_crosscheck.sh KCOST — kcost's vector FMA roofs against an independent peak benchmark: likwid-bench's
# peakflops kernels (Debian's likwid package; a cross-check of the ceilings, never a dependency of kcost).
# For the widest vector FMA the CPU has (AVX-512, else AVX2), float and double: kcost's roof
# (`kcost machine --format json`, .peak.<prec>.<ISA>.fma.gflops, measured or cached) must be within 10% of
# likwid-bench's MFlops/s on one core at an L1-resident working set (the best of 3 runs: the least disturbed).
# Exit 0 when both agree, 1 when one does not, 77 (ctest: skipped) without likwid-bench or a vector FMA.
set -eu
kcost=$1
command -v likwid-bench >/dev/null 2>&1 || {
	echo "likwid-bench not found (Debian package likwid): skipped"
	exit 77
}
command -v jq >/dev/null 2>&1 || {
	echo "jq not found: skipped"
	exit 77
}
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
case " $flags " in
*" avx512f "*) isa=AVX-512 suffix=avx512_fma ;;
*" avx2 "*" fma "* | *" fma "*" avx2 "*) isa=AVX2 suffix=avx_fma ;;
*)
	echo "no AVX2 or AVX-512 FMA on this CPU: skipped"
	exit 77
	;;
esac
json=$("$kcost" machine --format json)
status=0
for prec in float double; do
	kernel=peakflops_$suffix
	[ "$prec" = float ] && kernel=peakflops_sp_$suffix
	ours=$(printf '%s' "$json" | jq -r ".peak.\"$prec\".\"$isa\".fma.gflops // empty")
	if [ -z "$ours" ]; then
		echo "kcost has no $isa $prec FMA roof: FAIL"
		status=1
		continue
	fi
	best=0
	for run in 1 2 3; do
		mflops=$(likwid-bench -t "$kernel" -W N:24kB:1 2>/dev/null | awk '/^MFlops\/s:/ { print $2 }')
		best=$(awk -v a="$best" -v b="${mflops:-0}" 'BEGIN { print (b > a ? b : a) }')
	done
	verdict=$(awk -v k="$ours" -v l="$best" -v isa="$isa" -v prec="$prec" 'BEGIN {
		g = l / 1000; r = g > 0 ? k / g : 0
		printf "%s %s FMA: kcost %.1f GFLOP/s, likwid-bench %.1f GFLOP/s, ratio %.3f: %s\n", isa, prec, k, g, r,
		       (r >= 0.9 && r <= 1.1) ? "ok" : "FAIL"
	}')
	echo "$verdict"
	case $verdict in *FAIL) status=1 ;; esac
done
exit $status

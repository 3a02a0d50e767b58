/* peak.h — kcost's own compute microbenchmarks: the peak FLOP/s of one core per precision and instruction set
 * (scalar, SSE, AVX2, AVX-512; with FMA and with separate adds and multiplies), the latency of one dependent add
 * or FMA, and the per-call time of each transcendental libm function kcost counts.
 *
 * The peak kernels keep 12 independent accumulators (enough to cover an FMA latency of 4 to 6 cycles on two
 * pipes: what likwid-bench's peakflops kernels do) in registers, compiled per instruction set with target
 * attributes and run only where the CPU has it (__builtin_cpu_supports). The values stay finite and normal: an
 * FMA chain x = x*m + a converges (m < 1), a multiply chain grows by 1 + 2^-23 (or 2^-52) per step. */
#ifndef KC_PEAK_H
#define KC_PEAK_H

#include "machine.h" /* enum kc_isa */

/* Whether this CPU runs the kernel of isa (with FMA or not). Scalar and SSE without FMA: always on x86-64. */
int kc_peak_supported(enum kc_isa isa, int fma);

/* The best GFLOP/s of one thread over a few timed runs of about `seconds` in all; an FMA is 2 FLOPs. 0 when not
 * supported. */
double kc_peak_gflops(enum kc_isa isa, int fma, int dbl, double seconds);

/* The same kernel on `threads` threads at once: total GFLOP/s over the wall-clock time of the slowest, best of
 * three. Where cores are shared (SMT siblings, other tenants), this is what they give together. */
double kc_peak_gflops_threads(enum kc_isa isa, int fma, int dbl, int threads, double seconds);

/* Seconds of one dependent scalar add (fma 0) or FMA (fma 1) in a chain, the best of a few runs; 0 when the
 * CPU has no FMA. */
double kc_peak_latency(int fma, int dbl, double seconds);

/* Seconds of one dependent update of a _Float16 accumulator, an add (*add) and a multiply-add (*madd), the best
 * of a few runs each: native half-precision instructions where the CPU has them (AVX512-FP16), else conversions
 * to float and back around a float add or FMA (F16C), as a compiler targeting the CPU emits. Returns how (a
 * constant string), or NULL and 0s where neither can run. */
const char *kc_peak_half_latency(double seconds, double *add, double *madd);

/* Seconds of one dependent call of fmaxf (dbl: fmax), as a max reduction waits for each element. */
double kc_peak_max_latency(int dbl, double seconds);

/* Seconds of one dependent scalar add in a chain (*add: kc_machine's latency_add) and of one add of rows of
 * KC_CHAIN_RUN dependent adds summed one row after another (*rows: latency_add_rows), in precision dbl: runs of
 * the two in turns for `seconds` (3 of each at least), the best of each. In turns, because a prediction takes
 * their ratio (how much of a run of adds the out-of-order window hides): measured one after the other, a slow
 * spell of this shared VM that met only the rows' runs put the ratio at 1.5 instead of 2. */
void kc_peak_add_and_rows(int dbl, double seconds, double *add, double *rows);

/* The chains whose latency a prediction waits on (kc_machine's latency_add, latency_max). */
enum kc_chain { KC_CHAIN_ADD, KC_CHAIN_MAX, KC_CHAIN_N };

/* One run of `iters` operations of chain c in precision dbl, in wall-clock seconds an operation (as the harness
 * times a kernel): a sample beside the kernels (beside.h). */
double kc_peak_chain_seconds(enum kc_chain c, int dbl, long iters);

/* A transcendental libm function kcost counts, and the argument range its per-call time is measured over. */
struct kc_libm_fn {
	const char *name;   /* "expf" */
	int dbl;            /* double precision */
	double lo, hi;      /* the (first) argument, spread over [lo, hi) */
	double lo2, hi2;    /* the second argument of pow, atan2, hypot */
	float (*f1)(float); /* the function: exactly one of these is set */
	double (*d1)(double);
	float (*f2)(float, float);
	double (*d2)(double, double);
};

/* The functions, n of them (*n). */
const struct kc_libm_fn *kc_libm_fns(int *n);

/* Seconds per call of f (scalar, through a function pointer: never inlined or vectorized), the best of a few
 * runs (sweeps doubled until one takes a quarter of `seconds`, then 2 more) over 262,144 arguments of its range;
 * each run's seconds per call in runs[0 .. *n_runs - 1] (at most KC_LIBM_RUNS). */
#define KC_LIBM_RUNS 3
double kc_libm_call_seconds(const struct kc_libm_fn *f, double seconds, double runs[KC_LIBM_RUNS], int *n_runs);

#endif

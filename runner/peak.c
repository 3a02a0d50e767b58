/* peak.c — compute microbenchmarks: peak FLOP/s per instruction set, dependent-op latency, libm per-call time. */
#define _GNU_SOURCE
#include "peak.h"

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "bandwidth.h"
#include "harness/kcost_libm.h"

/* The thread's CPU time: what a core did for it, not counting the time other processes had the core (the
 * ceilings are measured once and cached: a neighbour's compile must not lower them for good). */
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int kc_peak_supported(enum kc_isa isa, int fma)
{
	__builtin_cpu_init();
	int has_fma = __builtin_cpu_supports("fma");
	switch (isa) {
	case KC_ISA_SCALAR:
	case KC_ISA_SSE:
		return !fma || has_fma;
	case KC_ISA_AVX2:
		return __builtin_cpu_supports("avx2") && (!fma || has_fma);
	case KC_ISA_AVX512:
		return __builtin_cpu_supports("avx512f") != 0; /* AVX-512F has its FMA */
	default:
		return 0;
	}
}

/* --- the kernels ------------------------------------------------------------------------------------------------
 * One per (instruction set, FMA or not, precision): `iters` iterations of 12 independent operations on registers;
 * the result is returned so the work is kept. FMA: x = x*m + a for all 12. Without: 6 adds x = x + a and 6
 * multiplies y = y*g, on separate pipes where the CPU has them. */

#define ACC_DECL(V, SET1)                                                                                              \
	V x0 = SET1(0.10), x1 = SET1(0.11), x2 = SET1(0.12), x3 = SET1(0.13), x4 = SET1(0.14), x5 = SET1(0.15),        \
	  x6 = SET1(0.16), x7 = SET1(0.17), x8 = SET1(0.18), x9 = SET1(0.19), x10 = SET1(0.20), x11 = SET1(0.21)
#define ACC_SUM(ADD)                                                                                                   \
	ADD(ADD(ADD(ADD(x0, x1), ADD(x2, x3)), ADD(ADD(x4, x5), ADD(x6, x7))), ADD(ADD(x8, x9), ADD(x10, x11)))

#define DEF_FMA(NAME, TGT, V, SET1, FMA, ADD, FIRST)                                                                   \
	__attribute__((target(TGT), noinline)) static double NAME(long iters)                                          \
	{                                                                                                              \
		V m = SET1(0.999), a = SET1(1e-3);                                                                     \
		ACC_DECL(V, SET1);                                                                                     \
		for (long i = 0; i < iters; i++) {                                                                     \
			x0 = FMA(x0, m, a), x1 = FMA(x1, m, a), x2 = FMA(x2, m, a), x3 = FMA(x3, m, a);                \
			x4 = FMA(x4, m, a), x5 = FMA(x5, m, a), x6 = FMA(x6, m, a), x7 = FMA(x7, m, a);                \
			x8 = FMA(x8, m, a), x9 = FMA(x9, m, a), x10 = FMA(x10, m, a), x11 = FMA(x11, m, a);            \
		}                                                                                                      \
		return (double)FIRST(ACC_SUM(ADD));                                                                    \
	}

#define DEF_ADDMUL(NAME, TGT, V, SET1, ADD, MUL, FIRST, GROWTH)                                                        \
	__attribute__((target(TGT), noinline)) static double NAME(long iters)                                          \
	{                                                                                                              \
		V g = SET1(GROWTH), a = SET1(1e-3);                                                                    \
		ACC_DECL(V, SET1);                                                                                     \
		for (long i = 0; i < iters; i++) {                                                                     \
			x0 = ADD(x0, a), x1 = MUL(x1, g), x2 = ADD(x2, a), x3 = MUL(x3, g);                            \
			x4 = ADD(x4, a), x5 = MUL(x5, g), x6 = ADD(x6, a), x7 = MUL(x7, g);                            \
			x8 = ADD(x8, a), x9 = MUL(x9, g), x10 = ADD(x10, a), x11 = MUL(x11, g);                        \
		}                                                                                                      \
		return (double)FIRST(ACC_SUM(ADD));                                                                    \
	}

/* growth per multiply: 1 + 2^-23 (float), 1 + 2^-52 (double); 2^31 steps stay far from overflow */
#define GROW_F 1.00000011920928955078125
#define GROW_D 1.0000000000000002220446

#define SET1_SS(v)     _mm_set1_ps((float)(v))
#define SET1_SD(v)     _mm_set1_pd(v)
#define SET1_PS256(v)  _mm256_set1_ps((float)(v))
#define SET1_PD256(v)  _mm256_set1_pd(v)
#define SET1_PS512(v)  _mm512_set1_ps((float)(v))
#define SET1_PD512(v)  _mm512_set1_pd(v)
#define FIRST_PS(v)    _mm_cvtss_f32(v)
#define FIRST_PD(v)    _mm_cvtsd_f64(v)
#define FIRST_PS256(v) _mm256_cvtss_f32(v)
#define FIRST_PD256(v) _mm256_cvtsd_f64(v)
#define FIRST_PS512(v) _mm512_cvtss_f32(v)
#define FIRST_PD512(v) _mm512_cvtsd_f64(v)

DEF_FMA(scalar_fma_f32, "fma", __m128, SET1_SS, _mm_fmadd_ss, _mm_add_ss, FIRST_PS)
DEF_FMA(scalar_fma_f64, "fma", __m128d, SET1_SD, _mm_fmadd_sd, _mm_add_sd, FIRST_PD)
DEF_ADDMUL(scalar_am_f32, "sse2", __m128, SET1_SS, _mm_add_ss, _mm_mul_ss, FIRST_PS, GROW_F)
DEF_ADDMUL(scalar_am_f64, "sse2", __m128d, SET1_SD, _mm_add_sd, _mm_mul_sd, FIRST_PD, GROW_D)
DEF_FMA(sse_fma_f32, "fma", __m128, SET1_SS, _mm_fmadd_ps, _mm_add_ps, FIRST_PS)
DEF_FMA(sse_fma_f64, "fma", __m128d, SET1_SD, _mm_fmadd_pd, _mm_add_pd, FIRST_PD)
DEF_ADDMUL(sse_am_f32, "sse2", __m128, SET1_SS, _mm_add_ps, _mm_mul_ps, FIRST_PS, GROW_F)
DEF_ADDMUL(sse_am_f64, "sse2", __m128d, SET1_SD, _mm_add_pd, _mm_mul_pd, FIRST_PD, GROW_D)
DEF_FMA(avx2_fma_f32, "avx2,fma", __m256, SET1_PS256, _mm256_fmadd_ps, _mm256_add_ps, FIRST_PS256)
DEF_FMA(avx2_fma_f64, "avx2,fma", __m256d, SET1_PD256, _mm256_fmadd_pd, _mm256_add_pd, FIRST_PD256)
DEF_ADDMUL(avx2_am_f32, "avx2", __m256, SET1_PS256, _mm256_add_ps, _mm256_mul_ps, FIRST_PS256, GROW_F)
DEF_ADDMUL(avx2_am_f64, "avx2", __m256d, SET1_PD256, _mm256_add_pd, _mm256_mul_pd, FIRST_PD256, GROW_D)
DEF_FMA(avx512_fma_f32, "avx512f", __m512, SET1_PS512, _mm512_fmadd_ps, _mm512_add_ps, FIRST_PS512)
DEF_FMA(avx512_fma_f64, "avx512f", __m512d, SET1_PD512, _mm512_fmadd_pd, _mm512_add_pd, FIRST_PD512)
DEF_ADDMUL(avx512_am_f32, "avx512f", __m512, SET1_PS512, _mm512_add_ps, _mm512_mul_ps, FIRST_PS512, GROW_F)
DEF_ADDMUL(avx512_am_f64, "avx512f", __m512d, SET1_PD512, _mm512_add_pd, _mm512_mul_pd, FIRST_PD512, GROW_D)

/* One dependent chain: each operation waits for the one before. */
__attribute__((noinline)) static double chain_add_f32(long iters)
{
	__m128 x = _mm_set1_ps(0.5f), a = _mm_set1_ps(1e-7f);
	for (long i = 0; i < iters; i++)
		x = _mm_add_ss(x, a);
	return (double)_mm_cvtss_f32(x);
}
__attribute__((noinline)) static double chain_add_f64(long iters)
{
	__m128d x = _mm_set1_pd(0.5), a = _mm_set1_pd(1e-12);
	for (long i = 0; i < iters; i++)
		x = _mm_add_sd(x, a);
	return _mm_cvtsd_f64(x);
}
__attribute__((target("fma"), noinline)) static double chain_fma_f32(long iters)
{
	__m128 x = _mm_set1_ps(0.5f), m = _mm_set1_ps(0.999f), a = _mm_set1_ps(1e-3f);
	for (long i = 0; i < iters; i++)
		x = _mm_fmadd_ss(x, m, a);
	return (double)_mm_cvtss_f32(x);
}
__attribute__((target("fma"), noinline)) static double chain_fma_f64(long iters)
{
	__m128d x = _mm_set1_pd(0.5), m = _mm_set1_pd(0.999), a = _mm_set1_pd(1e-3);
	for (long i = 0; i < iters; i++)
		x = _mm_fmadd_sd(x, m, a);
	return _mm_cvtsd_f64(x);
}

typedef double (*kernel_fn)(long iters);

static const struct {
	kernel_fn fn[2][2]; /* [fma][dbl] */
	int lanes_f32;
} kernels[KC_ISA_N] = {
    [KC_ISA_SCALAR] = {{{scalar_am_f32, scalar_am_f64}, {scalar_fma_f32, scalar_fma_f64}}, 1},
    [KC_ISA_SSE] = {{{sse_am_f32, sse_am_f64}, {sse_fma_f32, sse_fma_f64}}, 4},
    [KC_ISA_AVX2] = {{{avx2_am_f32, avx2_am_f64}, {avx2_fma_f32, avx2_fma_f64}}, 8},
    [KC_ISA_AVX512] = {{{avx512_am_f32, avx512_am_f64}, {avx512_fma_f32, avx512_fma_f64}}, 16},
};

static volatile double sink; /* where every kernel's result goes */

/* What is timed: run(ctx, n) does n units of work and returns a value to keep. */
typedef double (*timed_fn)(const void *ctx, long n);

/* The fastest seconds per unit of run: n doubled from `n` until one run takes `share` of the budget (or n reaches
 * cap), then the best of the runs that fit in the rest, at least min_runs and at most max_runs. */
static double best_per_unit_runs(timed_fn run, const void *ctx, long n, long cap, double seconds, double share,
                                 int min_runs, int max_runs, double *runs, int *n_runs, int runs_cap)
{
	double t;
	for (;;) {
		double t0 = now();
		sink = run(ctx, n);
		t = now() - t0;
		if (t >= seconds * share || n > cap)
			break;
		n *= 2;
	}
	double best = t / (double)n, end = now() + seconds;
	if (runs)
		runs[0] = best, *n_runs = 1;
	for (int r = 0; r < min_runs || (now() < end && r < max_runs); r++) {
		double t0 = now();
		sink = run(ctx, n);
		double per = (now() - t0) / (double)n;
		best = per < best ? per : best;
		if (runs && *n_runs < runs_cap)
			runs[(*n_runs)++] = per;
	}
	return best;
}

/* The same, without the runs */
static double best_per_unit(timed_fn run, const void *ctx, long n, long cap, double seconds, double share, int min_runs,
                            int max_runs)
{
	return best_per_unit_runs(run, ctx, n, cap, seconds, share, min_runs, max_runs, NULL, NULL, 0);
}

static double run_kernel(const void *ctx, long iters)
{
	return (*(const kernel_fn *)ctx)(iters);
}

/* The fastest seconds per iteration of fn: iterations doubled until one run takes an eighth of the budget, then
 * the best of the runs that fit in the rest (at least 3). */
/* No step of a kernel's loop takes less than a clock cycle of a 20 GHz core: a shorter time means the compiler
 * took the work out of the loop, and is no measurement (0). */
#define KC_MIN_STEP_SECONDS 5e-11

static double best_per_iteration(kernel_fn fn, double seconds)
{
	double t = best_per_unit(run_kernel, &fn, 1 << 12, 1L << 40, seconds, 1.0 / 8, 3, 64);
	return t >= KC_MIN_STEP_SECONDS ? t : 0;
}

double kc_peak_gflops(enum kc_isa isa, int fma, int dbl, double seconds)
{
	if (isa < 0 || isa >= KC_ISA_N || !kc_peak_supported(isa, fma))
		return 0;
	int lanes = kernels[isa].lanes_f32 / (dbl && isa != KC_ISA_SCALAR ? 2 : 1);
	double flops_per_iteration = 12.0 * lanes * (fma ? 2 : 1);
	double t = best_per_iteration(kernels[isa].fn[fma != 0][dbl != 0], seconds);
	return t > 0 ? flops_per_iteration / t / 1e9 : 0;
}

/* --- all threads ------------------------------------------------------------------------------------------------ */

struct peak_start {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;
};

struct peak_thread {
	kernel_fn fn;
	long iters;
	struct peak_start *start;
	double result;
};

static void *peak_thread_main(void *arg)
{
	struct peak_thread *t = arg;
	pthread_mutex_lock(&t->start->mu);
	while (!t->start->go)
		pthread_cond_wait(&t->start->cv, &t->start->mu);
	pthread_mutex_unlock(&t->start->mu);
	t->result = t->fn(t->iters);
	return NULL;
}

static double wall_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double kc_peak_gflops_threads(enum kc_isa isa, int fma, int dbl, int threads, double seconds)
{
	if (threads <= 1)
		return kc_peak_gflops(isa, fma, dbl, seconds);
	if (isa < 0 || isa >= KC_ISA_N || !kc_peak_supported(isa, fma) || threads > 1024)
		return 0;
	kernel_fn fn = kernels[isa].fn[fma != 0][dbl != 0];
	/* each thread runs as many iterations as one thread does in a fifth of the budget */
	double one = best_per_iteration(fn, seconds / 4);
	if (!(one > 0))
		return 0;
	long iters = (long)(seconds / 5 / one);
	iters = iters > 1024 ? iters : 1024;
	struct peak_thread *t = calloc((size_t)threads, sizeof *t);
	pthread_t *ids = calloc((size_t)threads, sizeof *ids);
	int lanes = kernels[isa].lanes_f32 / (dbl && isa != KC_ISA_SCALAR ? 2 : 1);
	double best = 0;
	for (int r = 0; t && ids && r < 3; r++) {
		struct peak_start start = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
		int made = 0;
		while (made < threads) {
			t[made] = (struct peak_thread){fn, iters, &start, 0};
			if (pthread_create(&ids[made], NULL, peak_thread_main, &t[made]) != 0)
				break;
			made++;
		}
		pthread_mutex_lock(&start.mu);
		start.go = 1;
		pthread_cond_broadcast(&start.cv);
		pthread_mutex_unlock(&start.mu);
		double t0 = wall_now();
		for (int k = 0; k < made; k++)
			pthread_join(ids[k], NULL);
		double wall = wall_now() - t0;
		if (made < threads) /* a machine that cannot start the threads has no all-threads figure */
			break;
		double g = 12.0 * lanes * (fma ? 2 : 1) * (double)iters * threads / wall / 1e9;
		best = g > best ? g : best;
		for (int k = 0; k < threads; k++)
			sink = t[k].result;
	}
	free(t);
	free(ids);
	return best;
}

/* One dependent call of libm's fmaxf (fmax): what a max reduction compiled without -ffinite-math-only waits for
 * at each element (gcc calls the library there; where a compiler makes it a max instruction, this is more than
 * it waits). Through a pointer read once: never inlined. */
static float (*volatile max_f32)(float, float) = fmaxf;
static double (*volatile max_f64)(double, double) = fmax;

__attribute__((noinline)) static double chain_max_f32(long iters)
{
	float (*f)(float, float) = max_f32, x = -1;
	for (long i = 0; i < iters; i++)
		x = f(x, (float)(i & 1023) * 1e-3f);
	return (double)x;
}

__attribute__((noinline)) static double chain_max_f64(long iters)
{
	double (*f)(double, double) = max_f64, x = -1;
	for (long i = 0; i < iters; i++)
		x = f(x, (double)(i & 1023) * 1e-3);
	return x;
}

/* Rows of KC_CHAIN_RUN dependent adds, one row after another, each summed from 0 and its sum stored (a
 * matrix-vector product's s = 0; for j: s += a[i][j] * x[j]; y[i] = s): a row's adds wait for each other, but
 * the out-of-order window starts the next row's while one drains. The rows are read through a pointer from a
 * volatile (their values are not known to the compiler); one iteration is one add. */
/* One kernel per precision T; the rows and the sink are its own. */
#define KC_CHAIN_ROWS(name, T)                                                                                         \
	static T name##_rows[16][KC_CHAIN_RUN];                                                                        \
	static T(*volatile name##_x)[KC_CHAIN_RUN] = name##_rows;                                                      \
	static volatile T name##_sum;                                                                                  \
	__attribute__((noinline)) static double name(long iters)                                                       \
	{                                                                                                              \
		T(*x)[KC_CHAIN_RUN] = name##_x;                                                                        \
		for (long r = 0; r < iters / KC_CHAIN_RUN; r++) {                                                      \
			T s = 0;                                                                                       \
			for (int j = 0; j < KC_CHAIN_RUN; j++)                                                         \
				s += x[r & 15][j] * x[15][j];                                                          \
			name##_sum = s;                                                                                \
		}                                                                                                      \
		return name##_sum;                                                                                     \
	}
KC_CHAIN_ROWS(chain_rows_add_f32, float)
KC_CHAIN_ROWS(chain_rows_add_f64, double)

/* Iterations of fn doubled (from 4096) until a run takes `seconds` */
static long iterations_for(kernel_fn fn, double seconds)
{
	long n = 1 << 12;
	for (;;) {
		double t0 = now();
		sink = fn(n);
		if (now() - t0 >= seconds || n > (1L << 40))
			return n;
		n *= 2;
	}
}

void kc_peak_add_and_rows(int dbl, double seconds, double *add, double *rows)
{
	kernel_fn fn[2] = {dbl ? chain_add_f64 : chain_add_f32, dbl ? chain_rows_add_f64 : chain_rows_add_f32};
	long n[2];
	double best[2] = {0, 0};
	for (int k = 0; k < 2; k++)
		n[k] = iterations_for(fn[k], seconds / 16);
	double end = now() + seconds;
	for (int r = 0; r < 3 || (now() < end && r < 64); r++)
		for (int k = 0; k < 2; k++) {
			double t0 = now();
			sink = fn[k](n[k]);
			double per = (now() - t0) / (double)n[k];
			best[k] = r == 0 || per < best[k] ? per : best[k];
		}
	*add = best[0], *rows = best[1];
}

double kc_peak_chain_seconds(enum kc_chain c, int dbl, long iters)
{
	kernel_fn fn =
	    c == KC_CHAIN_MAX ? (dbl ? chain_max_f64 : chain_max_f32) : (dbl ? chain_add_f64 : chain_add_f32);
	sink = fn(iters / 8 > 1 ? iters / 8 : 1); /* an eighth of the run untimed first */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sink = fn(iters);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec)) / (double)iters;
}

/* _Float16 chains: where the CPU has no half-precision arithmetic, a compiler converts the accumulator to float,
 * adds (or multiply-adds, contracted) and converts back at every update (gcc -march=native with F16C: vcvtph2ps,
 * vfmadd132ss, vcvtps2ph); where it has (AVX512-FP16), one half-precision instruction. The conversions are
 * written as intrinsics (kcost is built in ISO C, where gcc does not contract), the native kernels in _Float16.
 * The accumulator stays in [0.5, 1): the multiply-add x*0.999 + 0.001 settles at 1 from 0.5 (at 0.75 or so in half
 * precision, where the step rounds away), the add's step is below its last place. So x never changes, and gcc,
 * whose _mm_add_sh is plain vector arithmetic, proved the add chain a no-op and removed it (8.5e-20 s an add):
 * KC_OPAQUE makes x an unknown value after each step, at no cost (an empty asm that "changes" the register). */
#define KC_OPAQUE(x) __asm__ volatile("" : "+v"(x))
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("f16c"), noinline)) static double chain_half_add_f16c(long iters)
{
	__m128 a = _mm_set1_ps(1e-4f);
	__m128i x = _mm_cvtps_ph(_mm_set_ss(0.5f), _MM_FROUND_CUR_DIRECTION);
	for (long i = 0; i < iters; i++) {
		x = _mm_cvtps_ph(_mm_add_ss(_mm_cvtph_ps(x), a), _MM_FROUND_CUR_DIRECTION);
		KC_OPAQUE(x);
	}
	return (double)_mm_cvtss_f32(_mm_cvtph_ps(x));
}
__attribute__((target("f16c,fma"), noinline)) static double chain_half_madd_f16c(long iters)
{
	__m128 a = _mm_set1_ps(0.999f), b = _mm_set1_ps(1e-3f);
	__m128i x = _mm_cvtps_ph(_mm_set_ss(0.5f), _MM_FROUND_CUR_DIRECTION);
	for (long i = 0; i < iters; i++) { /* x = x*a + b, the accumulator the addend as acc += x[i]*y[i] */
		x = _mm_cvtps_ph(_mm_fmadd_ss(_mm_cvtph_ps(x), a, b), _MM_FROUND_CUR_DIRECTION);
		KC_OPAQUE(x);
	}
	return (double)_mm_cvtss_f32(_mm_cvtph_ps(x));
}
#define KC_HALF_KERNELS 1
#endif
#if defined(KC_HALF_KERNELS) && defined(__FLT16_MAX__) &&                                                              \
    ((defined(__clang__) && __clang_major__ >= 14) || (!defined(__clang__) && __GNUC__ >= 12))
/* intrinsics, so that the kernels are the instructions whatever the compiler makes of _Float16 arithmetic */
__attribute__((target("avx512fp16"), noinline)) static double chain_half_add_fp16(long iters)
{
	__m128h x = _mm_set_sh((_Float16)0.5f), a = _mm_set_sh((_Float16)1e-4f);
	for (long i = 0; i < iters; i++) {
		x = _mm_add_sh(x, a);
		KC_OPAQUE(x);
	}
	return (double)_mm_cvtsh_h(x);
}
__attribute__((target("avx512fp16"), noinline)) static double chain_half_madd_fp16(long iters)
{
	__m128h x = _mm_set_sh((_Float16)0.5f), a = _mm_set_sh((_Float16)0.999f), b = _mm_set_sh((_Float16)1e-3f);
	for (long i = 0; i < iters; i++) { /* x = x*a + b */
		x = _mm_fmadd_sh(x, a, b);
		KC_OPAQUE(x);
	}
	return (double)_mm_cvtsh_h(x);
}
#define KC_HALF_NATIVE 1
#endif

const char *kc_peak_half_latency(double seconds, double *add, double *madd)
{
	*add = *madd = 0;
#ifdef KC_HALF_KERNELS
#ifdef KC_HALF_NATIVE
	if (__builtin_cpu_supports("avx512fp16")) {
		*add = best_per_iteration(chain_half_add_fp16, seconds);
		*madd = best_per_iteration(chain_half_madd_fp16, seconds);
		return "AVX512-FP16 instructions";
	}
#endif
	if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma")) {
		*add = best_per_iteration(chain_half_add_f16c, seconds);
		*madd = best_per_iteration(chain_half_madd_f16c, seconds);
		return "converted to float and back at each update (F16C)";
	}
#endif
	(void)seconds;
	return NULL;
}

double kc_peak_max_latency(int dbl, double seconds)
{
	return best_per_iteration(dbl ? chain_max_f64 : chain_max_f32, seconds);
}

double kc_peak_latency(int fma, int dbl, double seconds)
{
	if (fma && !kc_peak_supported(KC_ISA_SCALAR, 1))
		return 0;
	kernel_fn fn = fma ? (dbl ? chain_fma_f64 : chain_fma_f32) : (dbl ? chain_add_f64 : chain_add_f32);
	return best_per_iteration(fn, seconds);
}

/* --- libm ------------------------------------------------------------------------------------------------------ */

#define F1(name, lo, hi, lo2, hi2)               {#name, 0, lo, hi, lo2, hi2, name, NULL, NULL, NULL},
#define D1(name, lo, hi, lo2, hi2)               {#name, 1, lo, hi, lo2, hi2, NULL, name, NULL, NULL},
#define F2(name, lo, hi, lo2, hi2)               {#name, 0, lo, hi, lo2, hi2, NULL, NULL, name, NULL},
#define D2(name, lo, hi, lo2, hi2)               {#name, 1, lo, hi, lo2, hi2, NULL, NULL, NULL, name},
#define LIBM_ENTRY(kind, name, lo, hi, lo2, hi2) kind(name, lo, hi, lo2, hi2)
/* the list the harness driver sweeps beside the kernels too (harness/kcost_libm.h) */
static const struct kc_libm_fn libm_fns[] = {KCOST_LIBM_FUNCTIONS(LIBM_ENTRY)};
enum { N_LIBM = sizeof libm_fns / sizeof libm_fns[0] };

const struct kc_libm_fn *kc_libm_fns(int *n)
{
	*n = N_LIBM;
	return libm_fns;
}

/* Arguments a sweep: more than a branch predictor can learn by heart across repeated sweeps (tanhf 8.3 ns a call
 * over 1,024 arguments swept again and again, 10.0 over 16,384, 11.2 over 262,144; sinf 2.1 and 6.8): a kernel
 * over data of L2 size and more sees the latter. Static (never touched unless libm is measured). */
enum { N_ARGS = 1 << 18 };

struct libm_run {
	const struct kc_libm_fn *f;
	const double *x, *y;
	const float *xf, *yf;
	double *out;
	float *outf;
};

/* reps sweeps of out[i] = f(x[i]) — what a kernel's loop does: independent calls, each result stored. The
 * function is called through a pointer read from a volatile once a sweep (never inlined, vectorized or folded);
 * the arguments are of its own type. (Summing the results instead, through pointers read at every call, made
 * expf's 1.6 ns a call in a kernel 3.1 ns: the add chain and the loads were the measurement's.) */
static double run_libm(const void *ctx, long reps)
{
	const struct libm_run *lr = ctx;
	float (*volatile vf1)(float) = lr->f->f1;
	double (*volatile vd1)(double) = lr->f->d1;
	float (*volatile vf2)(float, float) = lr->f->f2;
	double (*volatile vd2)(double, double) = lr->f->d2;
	for (long r = 0; r < reps; r++) {
		float (*f1)(float) = vf1;
		double (*d1)(double) = vd1;
		float (*f2)(float, float) = vf2;
		double (*d2)(double, double) = vd2;
		if (f1)
			for (int i = 0; i < N_ARGS; i++)
				lr->outf[i] = f1(lr->xf[i]);
		else if (d1)
			for (int i = 0; i < N_ARGS; i++)
				lr->out[i] = d1(lr->x[i]);
		else if (f2)
			for (int i = 0; i < N_ARGS; i++)
				lr->outf[i] = f2(lr->xf[i], lr->yf[i]);
		else
			for (int i = 0; i < N_ARGS; i++)
				lr->out[i] = d2(lr->x[i], lr->y[i]);
		__asm__ volatile("" : : "r"(lr->out), "r"(lr->outf) : "memory");
	}
	return lr->out[0] + (double)lr->outf[0];
}

/* f's arguments: uniform at random over its range, from the harness's generator (kcost_uniform): the branches of
 * a libm function on its argument's magnitude are then predicted as badly as in a kernel over the harness's data
 * (a strided permutation of a sweep was learnt: tanhf 8.8 ns a call on it, 10.5 on random arguments) */
static void libm_args(const struct kc_libm_fn *f, double *x, double *y, float *xf, float *yf, double *out, float *outf)
{
	unsigned long long state = KCOST_LIBM_SEED;
	for (int i = 0; i < N_ARGS; i++) {
		x[i] = kcost_libm_arg(&state, f->lo, f->hi);
		y[i] = kcost_libm_arg(&state, f->lo2, f->hi2);
		xf[i] = (float)x[i], yf[i] = (float)y[i], out[i] = 0, outf[i] = 0;
	}
}

double kc_libm_call_seconds(const struct kc_libm_fn *f, double seconds, double runs[KC_LIBM_RUNS], int *n_runs)
{
	static double x[N_ARGS], y[N_ARGS], out[N_ARGS];
	static float xf[N_ARGS], yf[N_ARGS], outf[N_ARGS];
	libm_args(f, x, y, xf, yf, out, outf);
	struct libm_run lr = {f, x, y, xf, yf, out, outf};
	/* sweeps doubled until one takes a quarter of the budget, then the best of 2 more */
	int n = 0;
	double best = best_per_unit_runs(run_libm, &lr, 1, 1L << 20, seconds, 1.0 / 4, 2, KC_LIBM_RUNS - 1, runs, &n,
	                                 KC_LIBM_RUNS);
	for (int i = 0; i < n; i++)
		runs[i] /= N_ARGS;
	*n_runs = n;
	return best / N_ARGS;
}

/* bandwidth.c — triad and copy kernels, timed. Built with -O3 (runner/CMakeLists.txt), compiled per instruction
 * set and dispatched at run time; never instrumented by the sanitizers, which would measure themselves. */
#define _POSIX_C_SOURCE 200809L
#include "bandwidth.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define KC_NO_SANITIZE __attribute__((no_sanitize("address", "undefined")))
#else
#define KC_NO_SANITIZE
#endif

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The loops, inlined into one wrapper per instruction set below (a callee's ISA may be a subset of its
 * caller's). The empty asm after each pass makes every pass really store. */
KC_NO_SANITIZE static inline __attribute__((always_inline)) void triad_body(double *restrict a,
                                                                            const double *restrict b,
                                                                            const double *restrict c, double s,
                                                                            long long n, long long passes)
{
	for (long long p = 0; p < passes; p++) {
		for (long long i = 0; i < n; i++)
			a[i] = b[i] + s * c[i];
		__asm__ volatile("" : : "r"(a) : "memory");
	}
}

KC_NO_SANITIZE static inline __attribute__((always_inline)) void copy_body(double *restrict a, const double *restrict b,
                                                                           long long n, long long passes)
{
	for (long long p = 0; p < passes; p++) {
		for (long long i = 0; i < n; i++)
			a[i] = b[i];
		__asm__ volatile("" : : "r"(a) : "memory");
	}
}

#define KC_KERNELS(suffix, attributes)                                                                                 \
	KC_NO_SANITIZE attributes __attribute__((noinline)) static void triad_##suffix(                                \
	    double *restrict a, const double *restrict b, const double *restrict c, double s, long long n,             \
	    long long passes)                                                                                          \
	{                                                                                                              \
		triad_body(a, b, c, s, n, passes);                                                                     \
	}                                                                                                              \
	KC_NO_SANITIZE attributes __attribute__((noinline)) static void copy_##suffix(                                 \
	    double *restrict a, const double *restrict b, long long n, long long passes)                               \
	{                                                                                                              \
		copy_body(a, b, n, passes);                                                                            \
	}

KC_KERNELS(base, )
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
KC_KERNELS(avx2, __attribute__((target("avx2,fma"))))
#if defined(__clang__)
KC_KERNELS(avx512, __attribute__((target("avx512f"))))
#else
KC_KERNELS(avx512, __attribute__((target("avx512f,prefer-vector-width=512"))))
#endif
#endif

/* 2 for AVX-512, 1 for AVX2, 0 for the baseline */
static int isa_level(void)
{
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return 2;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return 1;
#endif
	return 0;
}

static void triad(double *a, const double *b, const double *c, double s, long long n, long long passes)
{
	switch (isa_level()) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
	case 2:
		triad_avx512(a, b, c, s, n, passes);
		return;
	case 1:
		triad_avx2(a, b, c, s, n, passes);
		return;
#endif
	default:
		triad_base(a, b, c, s, n, passes);
	}
}

static void copy(double *a, const double *b, long long n, long long passes)
{
	switch (isa_level()) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
	case 2:
		copy_avx512(a, b, n, passes);
		return;
	case 1:
		copy_avx2(a, b, n, passes);
		return;
#endif
	default:
		copy_base(a, b, n, passes);
	}
}

struct arrays {
	double *a, *b, *c;
	long long n3, n2; /* elements per array for triad (3 arrays) and copy (2 arrays) */
};

/* Time batches of one kernel (0 triad, 1 copy); the best GB/s. */
static double best_batch(struct arrays *x, int kernel, long long passes, double seconds, int *batches)
{
	double bytes = kernel == 0 ? 24.0 * (double)x->n3 : 16.0 * (double)x->n2;
	double best = 0, start = now();
	int k = 0;
	if (kernel == 0)
		triad(x->a, x->b, x->c, 1.5, x->n3, 1); /* fault the pages in, warm the caches */
	else
		copy(x->a, x->b, x->n2, 1);
	do {
		double t0 = now();
		if (kernel == 0)
			triad(x->a, x->b, x->c, 1.5, x->n3, passes);
		else
			copy(x->a, x->b, x->n2, passes);
		double gbps = bytes * (double)passes / (now() - t0) / 1e9;
		best = gbps > best ? gbps : best;
		k++;
	} while (k < 3 || now() - start < seconds);
	*batches = k;
	return best;
}

int kc_bandwidth_measure(long long bytes, double seconds, struct kc_bandwidth *out)
{
	struct arrays x;
	x.n3 = bytes / 24 > 128 ? bytes / 24 : 128;
	x.n2 = bytes / 16 > 192 ? bytes / 16 : 192;
	size_t size = ((size_t)x.n2 * sizeof(double) + 63) / 64 * 64;
	x.a = aligned_alloc(64, size), x.b = aligned_alloc(64, size), x.c = aligned_alloc(64, size);
	if (!x.a || !x.b || !x.c) {
		free(x.a), free(x.b), free(x.c);
		return -1;
	}
	for (long long i = 0; i < x.n2; i++)
		x.a[i] = 0, x.b[i] = 1, x.c[i] = 2;
	long long passes = (16LL << 20) / (bytes > 0 ? bytes : 1);
	out->passes = passes > 0 ? passes : 1;
	int batches_copy;
	out->triad = best_batch(&x, 0, out->passes, seconds, &out->batches);
	out->copy = best_batch(&x, 1, out->passes, seconds, &batches_copy);
	out->kernel = out->triad >= out->copy ? "triad" : "copy";
	out->gbytes_per_s = out->triad >= out->copy ? out->triad : out->copy;
	free(x.a), free(x.b), free(x.c);
	return 0;
}

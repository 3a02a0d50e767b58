/* bandwidth.c — triad and copy kernels, timed. Built with -O3 (runner/CMakeLists.txt) and, where the compiler
 * supports it, cloned per instruction set; never instrumented by the sanitizers, which would measure themselves. */
#define _POSIX_C_SOURCE 200809L
#include "bandwidth.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8))
#define KC_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KC_CLONES
#endif
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define KC_NO_SANITIZE __attribute__((no_sanitize("address", "undefined"), noinline))
#else
#define KC_NO_SANITIZE __attribute__((noinline))
#endif

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

KC_CLONES KC_NO_SANITIZE static void triad(double *restrict a, const double *restrict b, const double *restrict c,
                                           double s, long long n, long long passes)
{
	for (long long p = 0; p < passes; p++) {
		for (long long i = 0; i < n; i++)
			a[i] = b[i] + s * c[i];
		__asm__ volatile("" : : "r"(a) : "memory"); /* every pass really stores */
	}
}

KC_CLONES KC_NO_SANITIZE static void copy(double *restrict a, const double *restrict b, long long n, long long passes)
{
	for (long long p = 0; p < passes; p++) {
		for (long long i = 0; i < n; i++)
			a[i] = b[i];
		__asm__ volatile("" : : "r"(a) : "memory");
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

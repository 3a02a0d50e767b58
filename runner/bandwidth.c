/* bandwidth.c — triad and copy kernels, timed. Built with -O3 (runner/CMakeLists.txt), compiled per instruction
 * set and dispatched at run time; never instrumented by the sanitizers, which would measure themselves. */
#define _DEFAULT_SOURCE /* madvise */
#define _POSIX_C_SOURCE 200809L
#include "bandwidth.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "stats.h"

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
 * caller's). The empty asm after each pass makes every pass really store (and load: the sum goes to a sink). */
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

KC_NO_SANITIZE static inline __attribute__((always_inline)) void
update_body(double *restrict a, const double *restrict b, long long n, long long passes)
{
	for (long long p = 0; p < passes; p++) {
		for (long long i = 0; i < n; i++)
			a[i] += b[i];
		__asm__ volatile("" : : "r"(a) : "memory");
	}
}

/* Loads only: eight independent partial sums of the widest vector type the instruction set has (V, given per
 * set below: a wider type than the registers would be split element by element), so neither the add latency nor
 * the order of a scalar sum limits the loads. n is a multiple of 32. */
#define KC_LOAD_BODY(V, lanes)                                                                                         \
	V s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0}, s4 = {0}, s5 = {0}, s6 = {0}, s7 = {0};                              \
	for (long long p = 0; p < passes; p++) {                                                                       \
		const V *v = (const V *)(const void *)b;                                                               \
		for (long long i = 0; i + 8 <= n / (lanes); i += 8) {                                                  \
			s0 += v[i], s1 += v[i + 1], s2 += v[i + 2], s3 += v[i + 3];                                    \
			s4 += v[i + 4], s5 += v[i + 5], s6 += v[i + 6], s7 += v[i + 7];                                \
		}                                                                                                      \
		__asm__ volatile("" : : "r"(b) : "memory");                                                            \
	}                                                                                                              \
	V s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));                                                       \
	double sum = 0;                                                                                                \
	for (int l = 0; l < (lanes); l++)                                                                              \
		sum += s[l];                                                                                           \
	return sum;

typedef double kc_v2d __attribute__((vector_size(16)));
typedef double kc_v4d __attribute__((vector_size(32)));
typedef double kc_v8d __attribute__((vector_size(64)));

#define KC_KERNELS(suffix, attributes, V, lanes)                                                                       \
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
	}                                                                                                              \
	KC_NO_SANITIZE attributes __attribute__((noinline)) static void update_##suffix(                               \
	    double *restrict a, const double *restrict b, long long n, long long passes)                               \
	{                                                                                                              \
		update_body(a, b, n, passes);                                                                          \
	}                                                                                                              \
	KC_NO_SANITIZE attributes __attribute__((noinline)) static double load_##suffix(const double *restrict b,      \
	                                                                                long long n, long long passes) \
	{                                                                                                              \
		KC_LOAD_BODY(V, lanes)                                                                                 \
	}

KC_KERNELS(base, , kc_v2d, 2)
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
KC_KERNELS(avx2, __attribute__((target("avx2,fma"))), kc_v4d, 4)
#if defined(__clang__)
KC_KERNELS(avx512, __attribute__((target("avx512f"))), kc_v8d, 8)
#else
KC_KERNELS(avx512, __attribute__((target("avx512f,prefer-vector-width=512"))), kc_v8d, 8)
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

typedef void (*triad_fn)(double *restrict, const double *restrict, const double *restrict, double, long long,
                         long long);
typedef void (*two_fn)(double *restrict, const double *restrict, long long, long long);
typedef double (*load_fn)(const double *restrict, long long, long long);

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define KC_PICK(name) (isa_level() == 2 ? name##_avx512 : isa_level() == 1 ? name##_avx2 : name##_base)
#else
#define KC_PICK(name) name##_base
#endif

struct arrays {
	double *a, *b, *c;
	long long n3, n2; /* elements per array for triad (3 arrays) and the others (2 arrays; a multiple of 32) */
};

static volatile double load_sink;

/* One call of kernel k: `passes` passes over its arrays. */
static void run(const struct arrays *x, enum kc_stream k, long long passes)
{
	switch (k) {
	case KC_STREAM_LOAD: {
		load_fn f = KC_PICK(load);
		load_sink = f(x->b, x->n2, passes);
		break;
	}
	case KC_STREAM_COPY: {
		two_fn f = KC_PICK(copy);
		f(x->a, x->b, x->n2, passes);
		break;
	}
	case KC_STREAM_TRIAD: {
		triad_fn f = KC_PICK(triad);
		f(x->a, x->b, x->c, 1.5, x->n3, passes);
		break;
	}
	case KC_STREAM_UPDATE: {
		two_fn f = KC_PICK(update);
		f(x->a, x->b, x->n2, passes);
		break;
	}
	default:
		break;
	}
}

/* STREAM's counting: the bytes a kernel names (loads, stores), not the write-allocate reads it causes. */
static double bytes_of(const struct arrays *x, enum kc_stream k)
{
	switch (k) {
	case KC_STREAM_LOAD:
		return 8.0 * (double)x->n2;
	case KC_STREAM_COPY:
		return 16.0 * (double)x->n2;
	case KC_STREAM_TRIAD:
		return 24.0 * (double)x->n3;
	default:
		return 24.0 * (double)x->n2; /* update: a read, b read, a written */
	}
}

/* `bytes` of zeroed memory of their own mapping, not in the children kcost forks between batches (runner.c's
 * harnesses, beside.h): a fork marks every page of the parent copy-on-write, and the next kernel to write each
 * page would take a page fault (the DRAM copy kernel's median batch, the first writer after each harness, fell
 * from 41 to 7 GB/s). A mapping, never the heap: MADV_DONTFORK outlives free(), and the heap pages malloc hands
 * out again would be missing in every child forked later (its argv and environment among them). NULL when it
 * cannot be mapped. */
static void *map_arrays(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_DONTFORK
	madvise(p, bytes, MADV_DONTFORK);
#endif
	return p;
}

static void unmap_arrays(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

/* A working set's four kernels, measured in turns (kc_bandwidth_more) until kc_bandwidth_finish. */
enum { CAP = 1 << 14 }; /* batches kept per kernel */
struct kc_bandwidth_run {
	struct arrays x;
	void *region; /* the arrays' memory (map_arrays) */
	size_t region_bytes;
	long long passes;
	int n; /* batches of each kernel so far */
	double best[KC_STREAM_N];
	double samples[][CAP]; /* [kernel][batch], GB/s */
};

struct kc_bandwidth_run *kc_bandwidth_start(long long bytes)
{
	struct kc_bandwidth_run *r = malloc(sizeof *r + KC_STREAM_N * sizeof r->samples[0]);
	if (!r)
		return NULL;
	struct arrays *x = &r->x;
	x->n3 = bytes / 24 > 128 ? bytes / 24 : 128;
	x->n2 = bytes / 16 / 32 * 32 > 192 ? bytes / 16 / 32 * 32 : 192;
	/* the three arrays in one region, placed as malloc places a kernel's buffers (the harness's among them), so
	 * that the ceilings see what those see: arrays below glibc's mmap threshold (128 KiB) one after another
	 * on the heap, a line apart from a multiple of 4 KiB; larger ones each in a mapping of its own, at the
	 * same offset of a page (a load of b[i + 1024] can then wait for the store to a[i] it is taken to alias:
	 * the kernels it prices pay that too) */
	size_t size = ((size_t)x->n2 * sizeof(double) + 4095) / 4096 * 4096;
	size_t stride = size + (size < ((size_t)128 << 10) ? 64 : 0);
	size_t region = (3 * stride + 4095) / 4096 * 4096;
	char *p = map_arrays(region);
	if (!p) {
		free(r);
		return NULL;
	}
	r->region = p, r->region_bytes = region;
	x->a = (double *)(void *)p, x->b = (double *)(void *)(p + stride), x->c = (double *)(void *)(p + 2 * stride);
	for (long long i = 0; i < x->n2; i++)
		x->a[i] = 0, x->b[i] = 1, x->c[i] = 2;
	long long passes = (16LL << 20) / (bytes > 0 ? bytes : 1);
	r->passes = passes > 0 ? passes : 1;
	r->n = 0;
	for (int k = 0; k < KC_STREAM_N; k++) {
		run(x, (enum kc_stream)k, 1); /* fault the pages in */
		r->best[k] = 0;
	}
	return r;
}

void kc_bandwidth_more(struct kc_bandwidth_run *r, double warm, double seconds, int min_batches)
{
	/* warm up: a pass of each kernel (from DRAM too: without it the DRAM kernels' batches right after a harness
	 * ran, a pass each, came out 20-25% slower than the kernels' calls), then, where a batch is several passes,
	 * turns for `warm` seconds */
	if (r->n >= CAP)
		return;
	double w0 = now();
	for (int k = 0; k < KC_STREAM_N; k++)
		run(&r->x, (enum kc_stream)k, 1);
	while (r->passes > 1 && now() - w0 < warm)
		for (int k = 0; k < KC_STREAM_N; k++)
			run(&r->x, (enum kc_stream)k, r->passes);
	/* the kernels take turns, a batch each, so that each one's median samples the same moments of a machine
	 * whose other tenants come and go (a write's cost is the difference of two kernels') */
	int first = r->n;
	double start = now();
	do {
		for (int k = 0; k < KC_STREAM_N; k++) {
			double t0 = now();
			run(&r->x, (enum kc_stream)k, r->passes);
			double gbps = bytes_of(&r->x, (enum kc_stream)k) * (double)r->passes / (now() - t0) / 1e9;
			r->best[k] = gbps > r->best[k] ? gbps : r->best[k];
			r->samples[k][r->n] = gbps;
		}
		r->n++;
	} while (r->n < CAP && (r->n - first < min_batches || now() - start < seconds * KC_STREAM_N));
}

void kc_bandwidth_finish(struct kc_bandwidth_run *r, struct kc_bandwidth *out)
{
	for (int k = 0; k < KC_STREAM_N; k++) {
		struct kc_stats st;
		out->gbps[k] = r->best[k];
		out->median[k] = kc_stats_compute(r->samples[k], r->n, &st) == 0 ? st.median : r->best[k];
	}
	out->batches = r->n;
	out->passes = r->passes;
	int best = out->gbps[KC_STREAM_TRIAD] >= out->gbps[KC_STREAM_COPY] ? KC_STREAM_TRIAD : KC_STREAM_COPY;
	out->kernel = best == KC_STREAM_TRIAD ? "triad" : "copy";
	out->gbytes_per_s = out->gbps[best];
	out->gbytes_median = out->median[best];
	out->triad = out->gbps[KC_STREAM_TRIAD], out->copy = out->gbps[KC_STREAM_COPY];
	unmap_arrays(r->region, r->region_bytes);
	free(r);
}

/* --- column stores ----------------------------------------------------------------------------------------- */

#define COLUMN_PITCH_FLOATS 1024 /* 4 KiB: a row a page, every line of a column in one line slot of a page */
#define COLUMN_WIDTH        64   /* the columns walked: those of 4 lines, one after another */

/* One pass: a transpose of a rows x COLUMN_WIDTH block of a (row-major, its rows `rows` floats long) into the
 * first COLUMN_WIDTH columns of the rows of b (COLUMN_PITCH_FLOATS apart): for each column, a row of a loaded and
 * stored down the column. The stores through a volatile pointer, in this order (a compiler may not turn the
 * loops around to walk b's rows, nor vectorize them). */
static void column_pass(const float *a, volatile float *b, long long rows, long long pitch, long long passes)
{
	for (long long q = 0; q < passes; q++)
		for (int c = 0; c < COLUMN_WIDTH; c++)
			for (long long r = 0; r < rows; r++)
				b[r * pitch + c] = a[c * rows + r];
}

/* L1's walk: rows a page and a line and a float apart, so that its lines take every slot of a page (no
 * conflict), few enough for L1 to keep them */
#define COLUMN_L1_PITCH_FLOATS (COLUMN_PITCH_FLOATS + 16 + 1)

static long long pitch_of(int level)
{
	return level == KC_LEVEL_L1 ? COLUMN_L1_PITCH_FLOATS : COLUMN_PITCH_FLOATS;
}

void kc_column_rows(const long long cache[3], long long rows[KC_LEVEL_N])
{
	const long long page = 4 * COLUMN_PITCH_FLOATS;
	rows[KC_LEVEL_L1] = cache[0] > 0 ? cache[0] / 1024 : 0; /* a 16th of L1 */
	for (int l = KC_LEVEL_L2; l < KC_LEVEL_N; l++) {
		long long above = cache[l - 1], here = l < KC_LEVEL_DRAM ? cache[l] : 0;
		rows[l] = 0;
		/* a column of 4 x the rows the level above keeps (a 64th of its lines), which this level keeps within
		 * half of what it has for it; beyond the largest cache, twice the rows it keeps, 64 MiB to 1 GiB
		 * of rows (as the DRAM bandwidth's working set), also where no cache size is known */
		if (above > 0 && l < KC_LEVEL_DRAM && 8 * above <= here)
			rows[l] = 4 * above / page;
		else if (l == KC_LEVEL_DRAM) { /* 64 MiB to 1 GiB, as the DRAM bandwidth's working set */
			long long bytes = 2 * (above > 0 ? above : cache[1] > 0 ? cache[1] : cache[0]);
			bytes = bytes<(64LL << 20) ? 64LL << 20 : bytes>(1LL << 30) ? 1LL << 30 : bytes;
			rows[l] = bytes / page;
		}
	}
}

int kc_column_measure(const long long rows[KC_LEVEL_N], double seconds, struct kc_column *out)
{
	memset(out, 0, sizeof *out);
	enum { COLUMN_CAP = 4096 };
	struct {
		float *a, *b;
		size_t a_bytes, b_bytes;
		long long passes;
		int n;
		double *samples;
	} lv[KC_LEVEL_N] = {{0}};
	int any = 0;
	for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++) {
		if (rows[l] <= 0)
			continue;
		lv[l].a_bytes = (size_t)rows[l] * COLUMN_WIDTH * sizeof(float);
		lv[l].b_bytes = (size_t)rows[l] * (size_t)pitch_of(l) * sizeof(float);
		lv[l].a = map_arrays(lv[l].a_bytes);
		lv[l].b = map_arrays(lv[l].b_bytes);
		lv[l].samples = lv[l].a && lv[l].b ? malloc(COLUMN_CAP * sizeof(double)) : NULL;
		if (!lv[l].samples) {
			unmap_arrays(lv[l].a, lv[l].a_bytes);
			unmap_arrays(lv[l].b, lv[l].b_bytes);
			lv[l].a = lv[l].b = NULL;
			continue;
		}
#ifdef MADV_NOHUGEPAGE
		/* 4 KiB pages, as a kernel's buffers have (malloc's): physical pages wherever they fall, as the higher
		 * set bits of L2 and L3 see them */
		madvise(lv[l].b, lv[l].b_bytes, MADV_NOHUGEPAGE);
#endif
		for (size_t i = 0; i < lv[l].a_bytes / sizeof(float); i++) /* pages of their own, not the zero page */
			lv[l].a[i] = (float)(i % 7);
		column_pass(lv[l].a, lv[l].b, rows[l], pitch_of(l), 1); /* fault the pages in */
		double t0 = now();
		column_pass(lv[l].a, lv[l].b, rows[l], pitch_of(l), 1);
		double pass = now() - t0;
		/* a batch of about half a millisecond */
		lv[l].passes = pass > 0 && pass < 5e-4 ? (long long)(5e-4 / pass) + 1 : 1;
		any = 1;
	}
	if (!any)
		return -1;
	/* the levels take turns, a batch each, until each had its share of `seconds` (a fifth, DRAM two) */
	double start = now(), spent[KC_LEVEL_N] = {0};
	for (int more = 1; more;) {
		more = 0;
		for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++) {
			double share = seconds * (l == KC_LEVEL_DRAM ? 0.4 : 0.2);
			if (!lv[l].samples || lv[l].n >= COLUMN_CAP || (spent[l] >= share && lv[l].n >= 3))
				continue;
			/* an untimed pass brings this level's lines and pages back after the other levels' walks
			 * (DRAM's sweeps L1, L2 and the TLB): the batch times the walk, not its recovery */
			if (l < KC_LEVEL_DRAM)
				column_pass(lv[l].a, lv[l].b, rows[l], pitch_of(l), 1);
			double t0 = now();
			column_pass(lv[l].a, lv[l].b, rows[l], pitch_of(l), lv[l].passes);
			double t = now() - t0;
			spent[l] += t;
			lv[l].samples[lv[l].n++] = t / ((double)lv[l].passes * COLUMN_WIDTH * (double)rows[l]);
			more = 1;
		}
		if (now() - start > 4 * seconds) /* a machine far slower than its batches said */
			break;
	}
	for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++) {
		if (!lv[l].samples)
			continue;
		struct kc_stats st;
		if (kc_stats_compute(lv[l].samples, lv[l].n, &st) == 0) {
			out->best[l] = st.min;
			out->median[l] = st.median;
			out->rows[l] = rows[l];
			out->batches[l] = lv[l].n;
		}
		free(lv[l].samples);
		unmap_arrays(lv[l].a, lv[l].a_bytes);
		unmap_arrays(lv[l].b, lv[l].b_bytes);
	}
	return 0;
}

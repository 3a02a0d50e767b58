/* kcost_driver.c — the fixed part of kcost's harness: allocation, deterministic initialisation, timing,
 * the reference check, the cache-simulation modes and hardware counters. Built together with a generated
 * harness.c (see kcost_driver.h), with the user's compiler and flags, and linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=posix_memalign so that a failed
 * allocation, the driver's or the kernel's, ends the run with a clear report instead of a later crash. */
#define _GNU_SOURCE
#include "kcost_driver.h"
#include "kcost_libm.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

#define KCOST_MIN_SAMPLES 10
#define KCOST_MAX_SAMPLES 10000
/* A sample lasts at least this long: shorter calls are timed in batches (kcost_mode_time) */
#define KCOST_MIN_SAMPLE_SECONDS 5e-6
#define KCOST_REL_TOL            1e-3
#define KCOST_ABS_TOL            1e-5

/* --- the result channel ----------------------------------------------------------------------------------- */

/* Where results go: the pipe kcost passed in KCOST_RESULT_FD, else stdout (a harness run by hand). The kernel's
 * own stdout is not read for results, so nothing it prints can pass for one. */
static int kcost_result_fd = 1;
static FILE *kcost_out;
/* What this run measures: the tag of every result line, the alloc-failure one included. */
static const char *kcost_tag_function = "", *kcost_tag_mode = "";

/* Take the channel out of the environment before any kernel code runs in main, and keep it from the kernel's
 * own children (close-on-exec). */
static void kcost_open_channel(void)
{
	const char *v = getenv("KCOST_RESULT_FD");
	char *end;
	long fd = v ? strtol(v, &end, 10) : -1;
	if (v && *v && !*end && fd > 2 && fd < 65536 && fcntl((int)fd, F_SETFD, FD_CLOEXEC) == 0)
		kcost_result_fd = (int)fd;
	unsetenv("KCOST_RESULT_FD");
	kcost_out = kcost_result_fd == 1 ? stdout : fdopen(kcost_result_fd, "w");
	if (!kcost_out)
		kcost_out = stdout, kcost_result_fd = 1;
	/* a buffer of its own now: allocated lazily, stdio's would be taken after the kernel ran, from whatever
	 * memory it left */
	static char buffer[1 << 16];
	if (kcost_out != stdout)
		setvbuf(kcost_out, buffer, _IOFBF, sizeof buffer);
}

/* --- allocation: every failure reports {"error":"alloc","bytes":N} and exits KCOST_EXIT_ALLOC ---------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);

/* No stdio here: stdio may itself need the memory that just ran out. */
static _Noreturn void kcost_alloc_failed(unsigned long long bytes)
{
	char line[512];
	int len = snprintf(line, sizeof line,
	                   "{\"function\":\"%.200s\",\"mode\":\"%.16s\",\"error\":\"alloc\",\"bytes\":%llu}\n",
	                   kcost_tag_function, kcost_tag_mode, bytes);
	if (len < 0 || (size_t)len >= sizeof line)
		_exit(KCOST_EXIT_ALLOC);
	if (write(kcost_result_fd, line, (size_t)len) < 0)
		_exit(KCOST_EXIT_ALLOC);
	_exit(KCOST_EXIT_ALLOC);
}

void *__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);
	if (!p && n)
		kcost_alloc_failed(n);
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);
	if (!p && n && size)
		kcost_alloc_failed(size && n > (size_t)-1 / size ? (unsigned long long)-1
		                                                 : (unsigned long long)(n * size));
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	void *q = __real_realloc(p, n);
	if (!q && n)
		kcost_alloc_failed(n);
	return q;
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
	void *p = __real_aligned_alloc(align, n);
	if (!p && n)
		kcost_alloc_failed(n);
	return p;
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
	int rc = __real_posix_memalign(p, align, n);
	if (rc == ENOMEM)
		kcost_alloc_failed(n);
	return rc;
}

/* --- setup ---------------------------------------------------------------------------------------------- */

static double kcost_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Bytes of a buffer rounded up to a multiple of 64 (aligned_alloc wants a multiple of the alignment). */
static size_t kcost_padded(const struct kcost_buffer *b)
{
	unsigned long long bytes = b->count * b->elem_size;
	if (b->elem_size && bytes / b->elem_size != b->count)
		kcost_alloc_failed((unsigned long long)-1);
	bytes = bytes ? (bytes + 63) / 64 * 64 : 64;
	return (size_t)bytes;
}

/* Allocate every buffer, 64-byte aligned, and fill it: floating-point buffers from the LCG (a fixed seed per
 * buffer), the others with zeros; then the kernel's initializer, if any. */
static void **kcost_setup(const struct kcost_function *f)
{
	void **bufs = malloc(sizeof *bufs * (size_t)(f->n_buffers + 1));
	for (int i = 0; i < f->n_buffers; i++) {
		const struct kcost_buffer *b = &f->buffers[i];
		size_t bytes = kcost_padded(b), filled = 0;
		bufs[i] = aligned_alloc(64, bytes);
		unsigned long long state = 0x9E3779B97F4A7C15ULL * (unsigned long long)(i + 1);
		if (b->elem_class == KCOST_FLOATING && b->fill) {
			b->fill(bufs[i], b->count, &state);
			filled = (size_t)(b->count * b->elem_size);
		}
		memset((char *)bufs[i] + filled, 0, bytes - filled);
	}
	bufs[f->n_buffers] = 0;
	if (f->init)
		f->init(bufs);
	return bufs;
}

static void **kcost_copy(const struct kcost_function *f, void *const *from)
{
	void **bufs = malloc(sizeof *bufs * (size_t)(f->n_buffers + 1));
	for (int i = 0; i < f->n_buffers; i++) {
		size_t bytes = kcost_padded(&f->buffers[i]);
		bufs[i] = aligned_alloc(64, bytes);
		memcpy(bufs[i], from[i], bytes);
	}
	bufs[f->n_buffers] = 0;
	return bufs;
}

/* --- output --------------------------------------------------------------------------------------------- */

/* A double as JSON: non-finite values become the strings "inf", "-inf", "nan". */
static void kcost_print_number(double v)
{
	if (isnan(v))
		fprintf(kcost_out, "\"nan\"");
	else if (isinf(v))
		fprintf(kcost_out, v > 0 ? "\"inf\"" : "\"-inf\"");
	else
		fprintf(kcost_out, "%.17g", v);
}

/* Sum of the output buffers (all buffers when none is an output), so the work cannot be optimized away. */
static double kcost_checksum(const struct kcost_function *f, void *const *bufs)
{
	int any_output = 0;
	for (int i = 0; i < f->n_buffers; i++)
		any_output |= f->buffers[i].is_output;
	double sum = 0;
	for (int i = 0; i < f->n_buffers; i++) {
		const struct kcost_buffer *b = &f->buffers[i];
		if (!b->get || (any_output && !b->is_output))
			continue;
		for (unsigned long long k = 0; k < b->count; k++)
			sum += b->get(bufs[i], k);
	}
	return sum;
}

static void kcost_print_head(const struct kcost_function *f, const char *mode)
{
	fprintf(kcost_out, "{\"function\":\"%s\",\"mode\":\"%s\"", f->name, mode);
}

static void kcost_print_tail(const struct kcost_function *f, void *const *bufs)
{
	fprintf(kcost_out, ",\"checksum\":");
	kcost_print_number(kcost_checksum(f, bufs));
	fprintf(kcost_out, "}\n");
}

/* --- libm sweeps beside the timed calls ------------------------------------------------------------------ */

/* The libm functions a kernel calls are swept between its timed calls, in its own process: the per-call time its
 * prediction is priced at. A per-call time measured in another process is not this one's: on a shared VM,
 * expf took 1.5 ns a call in some processes and 2.0 in others started a second later, a state that lasted for
 * the process's life and that its kernel and its sweeps shared. */
enum kcost_libm_kind { KCOST_LIBM_F1, KCOST_LIBM_D1, KCOST_LIBM_F2, KCOST_LIBM_D2 };

struct kcost_libm_fn {
	const char *name;
	int kind; /* enum kcost_libm_kind */
	double lo, hi, lo2, hi2;
	float (*f1)(float);
	double (*d1)(double);
	float (*f2)(float, float);
	double (*d2)(double, double);
};

#define KCOST_LIBM_PTRS_F1(name) name, 0, 0, 0
#define KCOST_LIBM_PTRS_D1(name) 0, name, 0, 0
#define KCOST_LIBM_PTRS_F2(name) 0, 0, name, 0
#define KCOST_LIBM_PTRS_D2(name) 0, 0, 0, name
#define KCOST_LIBM_ENTRY(kind, name, lo, hi, lo2, hi2)                                                                 \
	{#name, KCOST_LIBM_##kind, lo, hi, lo2, hi2, KCOST_LIBM_PTRS_##kind(name)},
static const struct kcost_libm_fn kcost_libm_fns[] = {KCOST_LIBM_FUNCTIONS(KCOST_LIBM_ENTRY)};

/* A sweep's arguments: as many as the kernel's calls of the function in one call, within these bounds. A kernel
 * that calls tanhf on the same elements again and again lets the branch predictor learn them (tanhf 8.3 ns a
 * call over 1,024 arguments swept again and again, 10.0 over 16,384, 11.2 over 262,144), but less than a sweep of
 * as many: a kernel's arguments are computed from its data, the sweep's drawn over the function's whole range
 * (a tanhf kernel over 2,048 elements ran at 10.2 ns a call, a sweep over 2,048 arguments at 8.5). */
#define KCOST_SWEEP_MIN_ARGS 16384
#define KCOST_SWEEP_MAX_ARGS (1L << 18)
#define KCOST_SWEEP_SECONDS  1e-4 /* a sweep sample lasts at least this long (passes doubled until it does) */
#define KCOST_SWEEP_SHARE    0.25 /* the sweeps take at most this share of the kernel's timed time */
#define KCOST_MAX_SWEPT      16   /* libm functions swept in one run (KC_RUNNER_MAX_SWEPT in runner.h) */
#define KCOST_MIN_SWEEPS     3    /* sweeps of each in one run (KC_BESIDE_MIN_SAMPLES make a median in kcost) */

struct kcost_sweep {
	const struct kcost_libm_fn *fn;
	long n, passes;
	double *x, *y, *out;   /* D1, D2 */
	float *xf, *yf, *outf; /* F1, F2 */
	double *samples;
	int n_samples;
};

/* Seconds per call of one sample: `passes` sweeps of out[i] = fn(x[i]), fn read from a volatile before each (never
 * inlined, vectorized or folded), each result stored, as a kernel's loop stores them. */
static double kcost_sweep_seconds(const struct kcost_sweep *s)
{
	float (*volatile vf1)(float) = s->fn->f1;
	double (*volatile vd1)(double) = s->fn->d1;
	float (*volatile vf2)(float, float) = s->fn->f2;
	double (*volatile vd2)(double, double) = s->fn->d2;
	double a = kcost_now();
	for (long r = 0; r < s->passes; r++) {
		float (*f1)(float) = vf1;
		double (*d1)(double) = vd1;
		float (*f2)(float, float) = vf2;
		double (*d2)(double, double) = vd2;
		if (f1)
			for (long i = 0; i < s->n; i++)
				s->outf[i] = f1(s->xf[i]);
		else if (d1)
			for (long i = 0; i < s->n; i++)
				s->out[i] = d1(s->x[i]);
		else if (f2)
			for (long i = 0; i < s->n; i++)
				s->outf[i] = f2(s->xf[i], s->yf[i]);
		else
			for (long i = 0; i < s->n; i++)
				s->out[i] = d2(s->x[i], s->y[i]);
		__asm__ volatile("" : : "r"(s->out), "r"(s->outf) : "memory");
	}
	return (kcost_now() - a) / ((double)s->passes * (double)s->n);
}

/* The sweeps args[0 .. n_args - 1] ask for, each "NAME=CALLS" (the kernel's calls of NAME in one call; names
 * this driver does not know, repeated ones and those beyond KCOST_MAX_SWEPT are skipped): arguments made, passes
 * calibrated. The number made. */
static int kcost_sweeps_new(struct kcost_sweep *sw, char **args, int n_args)
{
	int n = 0;
	for (int a = 0; a < n_args && n < KCOST_MAX_SWEPT; a++) {
		const char *eq = strchr(args[a], '=');
		const struct kcost_libm_fn *fn = 0;
		for (size_t k = 0; eq && !fn && k < sizeof kcost_libm_fns / sizeof kcost_libm_fns[0]; k++)
			if (strlen(kcost_libm_fns[k].name) == (size_t)(eq - args[a]) &&
			    !strncmp(kcost_libm_fns[k].name, args[a], (size_t)(eq - args[a])))
				fn = &kcost_libm_fns[k];
		for (int i = 0; fn && i < n; i++)
			fn = sw[i].fn == fn ? 0 : fn; /* named twice: swept once */
		if (!fn)
			continue;
		double calls = strtod(eq + 1, 0);
		struct kcost_sweep *s = &sw[n++];
		memset(s, 0, sizeof *s);
		s->fn = fn;
		s->n = !(calls >= KCOST_SWEEP_MIN_ARGS) ? KCOST_SWEEP_MIN_ARGS
		       : calls > KCOST_SWEEP_MAX_ARGS   ? KCOST_SWEEP_MAX_ARGS
		                                        : (long)calls;
		int dbl = fn->kind == KCOST_LIBM_D1 || fn->kind == KCOST_LIBM_D2;
		size_t elem = dbl ? sizeof(double) : sizeof(float);
		char *block = malloc(3 * elem * (size_t)s->n);
		unsigned long long state = KCOST_LIBM_SEED;
		if (dbl)
			s->x = (double *)(void *)block, s->y = s->x + s->n, s->out = s->y + s->n;
		else
			s->xf = (float *)(void *)block, s->yf = s->xf + s->n, s->outf = s->yf + s->n;
		for (long i = 0; i < s->n; i++) {
			double x = kcost_libm_arg(&state, fn->lo, fn->hi), y = kcost_libm_arg(&state, fn->lo2, fn->hi2);
			if (dbl)
				s->x[i] = x, s->y[i] = y, s->out[i] = 0;
			else
				s->xf[i] = (float)x, s->yf[i] = (float)y, s->outf[i] = 0;
		}
		s->samples = malloc(sizeof *s->samples * KCOST_MAX_SAMPLES);
		s->passes = 1;
		while (kcost_sweep_seconds(s) * (double)s->passes * (double)s->n < KCOST_SWEEP_SECONDS &&
		       s->passes < (1L << 20))
			s->passes *= 2;
	}
	return n;
}

/* One sample of each sweep; the seconds it took. */
static double kcost_sweeps_sample(struct kcost_sweep *sw, int n)
{
	double a = kcost_now();
	for (int i = 0; i < n; i++)
		if (sw[i].n_samples < KCOST_MAX_SAMPLES)
			sw[i].samples[sw[i].n_samples++] = kcost_sweep_seconds(&sw[i]);
	return kcost_now() - a;
}

/* --- modes ---------------------------------------------------------------------------------------------- */

/* Timed calls until `budget` seconds of them (and min_samples samples), or `max_seconds` in all; between
 * them, rounds of sweeps of the libm functions libm[0 .. n_libm - 1] name ("NAME=CALLS"): one after each sample
 * while the rounds have taken at most KCOST_SWEEP_SHARE of the timed time (the first always), then more after
 * the last sample up to KCOST_MIN_SWEEPS. A round evicts the kernel's data and trains the branch predictor on
 * other arguments: when it outlasts a sample, the kernel's next calls are preceded by an untimed batch. */
static int kcost_mode_time(const struct kcost_function *f, double budget, double max_seconds, int min_samples,
                           char **libm, int n_libm)
{
	double t0 = kcost_now();
	void **bufs = kcost_setup(f);
	double setup = kcost_now() - t0;
	t0 = kcost_now();
	f->call(bufs); /* warm-up */
	double warmup = kcost_now() - t0;
	/* a call shorter than KCOST_MIN_SAMPLE_SECONDS is timed k calls at a time (k doubled until a batch lasts
	 * that long), a sample being the batch's time over k: reading the clock takes 20-40 ns, which a 50 ns kernel
	 * timed call by call would count as its own (bench/predict's L1 streams, 1.2-2.1x their prediction) */
	long k = 1;
	for (;;) {
		double a = kcost_now();
		for (long i = 0; i < k; i++)
			f->call(bufs);
		if (kcost_now() - a >= KCOST_MIN_SAMPLE_SECONDS || k >= (1L << 20))
			break;
		k *= 2;
	}
	struct kcost_sweep sweeps[KCOST_MAX_SWEPT];
	int n_sweeps = kcost_sweeps_new(sweeps, libm, n_libm);
	double *samples = malloc(sizeof *samples * KCOST_MAX_SAMPLES);
	int n = 0;
	double start = kcost_now(), timed = 0, swept = 0;
	for (;;) {
		double a = kcost_now();
		for (long i = 0; i < k; i++)
			f->call(bufs);
		double b = kcost_now();
		samples[n++] = (b - a) / (double)k;
		timed += b - a;
		int last = n >= KCOST_MAX_SAMPLES || (timed >= budget && n >= min_samples) || b - start >= max_seconds;
		if (n_sweeps && !last && swept <= KCOST_SWEEP_SHARE * timed) {
			double round = kcost_sweeps_sample(sweeps, n_sweeps);
			swept += round;
			for (long i = 0; round >= b - a && i < k; i++)
				f->call(bufs);
		}
		if (last)
			break;
	}
	while (n_sweeps && sweeps[0].n_samples < KCOST_MIN_SWEEPS)
		kcost_sweeps_sample(sweeps, n_sweeps);
	struct rusage ru;
	long rss_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
	kcost_print_head(f, "time");
	fprintf(kcost_out, ",\"setup_seconds\":%.9g,\"warmup_seconds\":%.9g,\"max_rss_kb\":%ld,\"samples\":[", setup,
	        warmup, rss_kb);
	for (int i = 0; i < n; i++)
		fprintf(kcost_out, i ? ",%.9g" : "%.9g", samples[i]);
	fprintf(kcost_out, "]");
	if (n_sweeps) {
		fprintf(kcost_out, ",\"libm\":{");
		for (int s = 0; s < n_sweeps; s++) {
			fprintf(kcost_out, "%s\"%s\":[", s ? "," : "", sweeps[s].fn->name);
			for (int i = 0; i < sweeps[s].n_samples; i++)
				fprintf(kcost_out, i ? ",%.9g" : "%.9g", sweeps[s].samples[i]);
			fprintf(kcost_out, "]");
		}
		fprintf(kcost_out, "}");
	}
	kcost_print_tail(f, bufs);
	return 0;
}

struct kcost_compare {
	double max_rel_err;
	unsigned long long compared, mismatches;
	int worst_buffer, worst_failing_buffer;
	unsigned long long worst_index, worst_failing_index;
	double worst_failing_rel;
};

/* Element check: |out - ref| <= abs_tol + rel_tol * |ref|; its relative error is |out - ref| / max(|ref|,
 * abs_tol). NaN matches only NaN. */
static void kcost_compare_one(struct kcost_compare *c, double out, double ref, int buffer, unsigned long long i)
{
	double diff = fabs(out - ref);
	int ok =
	    isnan(out) || isnan(ref) ? isnan(out) && isnan(ref) : diff <= KCOST_ABS_TOL + KCOST_REL_TOL * fabs(ref);
	double rel = isnan(out) != isnan(ref) ? INFINITY : isnan(out) ? 0 : diff / fmax(fabs(ref), KCOST_ABS_TOL);
	if (isnan(rel))
		rel = INFINITY; /* inf - inf */
	c->compared++;
	if (rel > c->max_rel_err || (c->compared == 1 && rel >= c->max_rel_err)) {
		c->max_rel_err = rel;
		c->worst_buffer = buffer;
		c->worst_index = i;
	}
	if (!ok && (!c->mismatches || rel > c->worst_failing_rel)) {
		c->worst_failing_rel = rel;
		c->worst_failing_buffer = buffer;
		c->worst_failing_index = i;
	}
	c->mismatches += !ok;
}

static int kcost_mode_check(const struct kcost_function *f)
{
	if (!f->reference) {
		fprintf(stderr, "kcost harness: %s has no reference to check against\n", f->name);
		return KCOST_EXIT_USAGE;
	}
	void **bufs = kcost_setup(f);
	void **copy = kcost_copy(f, bufs);
	f->call(bufs);
	f->reference(copy);
	struct kcost_compare c = {0};
	for (int i = 0; i < f->n_buffers; i++) {
		const struct kcost_buffer *b = &f->buffers[i];
		for (unsigned long long k = 0; b->is_output && b->get && k < b->count; k++)
			kcost_compare_one(&c, b->get(bufs[i], k), b->get(copy[i], k), i, k);
	}
	int wb = c.mismatches ? c.worst_failing_buffer : c.worst_buffer;
	unsigned long long wi = c.mismatches ? c.worst_failing_index : c.worst_index;
	kcost_print_head(f, "check");
	fprintf(kcost_out, ",\"reference\":\"%s\",\"ok\":%s,\"compared\":%llu,\"mismatches\":%llu,\"max_rel_err\":",
	        f->reference_name, c.mismatches ? "false" : "true", c.compared, c.mismatches);
	kcost_print_number(c.max_rel_err);
	fprintf(kcost_out, ",\"worst_rel_err\":");
	kcost_print_number(c.mismatches ? c.worst_failing_rel : c.max_rel_err);
	if (c.compared)
		fprintf(kcost_out, ",\"worst\":\"%s[%llu]\"", f->buffers[wb].name, wi);
	kcost_print_tail(f, bufs);
	return 0;
}

/* Evict the caches: write, then read one byte per 64-byte line of, a fresh buffer of `bytes` (real caches are
 * physically indexed: the buffer's pages must be distinct, which writing them makes so). */
static void kcost_flush(unsigned long long bytes)
{
	if (!bytes)
		return;
	volatile unsigned char *p = malloc((size_t)bytes);
	memset((void *)p, 1, (size_t)bytes);
	unsigned sum = 0;
	for (unsigned long long i = 0; i < bytes; i += 64)
		sum += p[i];
	if (sum == 12345) /* never: keeps the reads */
		fputc(' ', stderr);
	free((void *)p);
}

/* Evict a simulated cache: read one byte per 64-byte line of a fresh zeroed buffer of `bytes`, never written.
 * Cachegrind's caches are indexed by virtual address, so reads of untouched pages (which all map the zero
 * page) evict as well as written ones, without the memset: under the simulator a 960 MiB memset and sweep took
 * 12 s of a 15 s run. A contiguous buffer the size of the simulated last level puts `ways` of its lines in
 * every set of it (and of the first level, which divides it), so no line from before survives.
 * The buffer is never freed: a kernel's own allocations would otherwise reuse its addresses, whose lines the
 * simulated caches hold, and its stores to them would hit (gelu's seven intermediates of 16 MiB: one of them
 * did, 16.8 MB of 151 went missing). Its untouched pages cost no memory. */
static void kcost_evict(unsigned long long bytes)
{
	if (!bytes)
		return;
	/* calloc: a fresh mapping that glibc knows is zero, so it is not written (and reads are defined) */
	volatile unsigned char *p = calloc(1, (size_t)bytes);
	unsigned sum = 0;
	for (unsigned long long i = 0; p && i < bytes; i += 64)
		sum += p[i];
	if (sum == 12345) /* never: keeps the reads */
		fputc(' ', stderr);
}

/* No checksum here: reading the outputs would add traffic that differs between the two modes (after the call
 * they are cached, without it they are not) and so would not cancel out. The call goes through a function
 * pointer of another translation unit, so it cannot be optimized away anyway. */
static int kcost_mode_once(const struct kcost_function *f, unsigned long long flush, int call)
{
	void **bufs = kcost_setup(f);
	kcost_evict(flush);
	if (call)
		f->call(bufs);
	kcost_print_head(f, call ? "once" : "none");
	fprintf(kcost_out, "}\n");
	return 0;
}

#ifdef __linux__
static int kcost_perf_open(unsigned type, unsigned long long config)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* Last-level misses (PERF_COUNT_HW_CACHE_MISSES) and L1D read misses of one call on cold caches. */
static int kcost_mode_count(const struct kcost_function *f, unsigned long long flush)
{
	int ll = kcost_perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES);
	int l1 = kcost_perf_open(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
	                                                 (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	int ins = kcost_perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	if (ll < 0) {
		kcost_print_head(f, "count");
		fprintf(kcost_out, ",\"error\":\"counters\",\"why\":\"perf_event_open: %s\"}\n", strerror(errno));
		return 0;
	}
	void **bufs = kcost_setup(f);
	kcost_flush(flush);
	long long ll_misses = 0, l1_misses = -1, instructions = -1;
	ioctl(ll, PERF_EVENT_IOC_RESET, 0);
	if (l1 >= 0)
		ioctl(l1, PERF_EVENT_IOC_RESET, 0), ioctl(l1, PERF_EVENT_IOC_ENABLE, 0);
	if (ins >= 0)
		ioctl(ins, PERF_EVENT_IOC_RESET, 0), ioctl(ins, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(ll, PERF_EVENT_IOC_ENABLE, 0);
	f->call(bufs);
	ioctl(ll, PERF_EVENT_IOC_DISABLE, 0);
	if (l1 >= 0)
		ioctl(l1, PERF_EVENT_IOC_DISABLE, 0);
	if (ins >= 0)
		ioctl(ins, PERF_EVENT_IOC_DISABLE, 0);
	if (read(ll, &ll_misses, sizeof ll_misses) != (ssize_t)sizeof ll_misses ||
	    (l1 >= 0 && read(l1, &l1_misses, sizeof l1_misses) != (ssize_t)sizeof l1_misses) ||
	    (ins >= 0 && read(ins, &instructions, sizeof instructions) != (ssize_t)sizeof instructions)) {
		kcost_print_head(f, "count");
		fprintf(kcost_out, ",\"error\":\"counters\",\"why\":\"reading the counters failed\"}\n");
		return 0;
	}
	kcost_print_head(f, "count");
	fprintf(kcost_out, ",\"ll_misses\":%lld,\"l1d_read_misses\":%lld,\"instructions\":%lld}\n", ll_misses,
	        l1_misses, instructions);
	return 0;
}
#else
static int kcost_mode_count(const struct kcost_function *f, unsigned long long flush)
{
	(void)flush;
	kcost_print_head(f, "count");
	fprintf(kcost_out, ",\"error\":\"counters\",\"why\":\"perf_event_open exists only on Linux\"}\n");
	return 0;
}
#endif

/* The fewest samples of a time run: 1 to KCOST_MIN_SAMPLES (kcost --baseline times in short slices). */
static int kcost_min_samples(const char *arg)
{
	long v = strtol(arg, 0, 10);
	return v >= 1 && v <= KCOST_MIN_SAMPLES ? (int)v : KCOST_MIN_SAMPLES;
}

static int kcost_usage(const char *msg)
{
	fprintf(stderr,
	        "kcost harness: %s\nusage: harness FUNCTION time BUDGET MAX [MIN [NAME=CALLS...]] | check | once FLUSH "
	        "| none FLUSH "
	        "| count FLUSH\n",
	        msg);
	return KCOST_EXIT_USAGE;
}

/* Hand the result over and end the process: the result line is complete and the channel closed before anything
 * of the kernel's can run again (atexit handlers, destructors), and _exit skips those, so they can neither
 * append to the channel nor change the exit status. */
static _Noreturn void kcost_finish(int rc)
{
	fflush(stdout);
	fflush(stderr);
	if (kcost_out != stdout)
		fclose(kcost_out);
	_exit(rc);
}

int kcost_driver_main(int argc, char **argv, const struct kcost_function *functions, int n_functions)
{
	kcost_open_channel();
	if (argc < 3)
		kcost_finish(kcost_usage("missing arguments"));
	const struct kcost_function *f = 0;
	for (int i = 0; i < n_functions && !f; i++)
		if (!strcmp(functions[i].name, argv[1]))
			f = &functions[i];
	if (!f)
		kcost_finish(kcost_usage("no such function in this harness"));
	const char *mode = argv[2];
	kcost_tag_function = f->name, kcost_tag_mode = mode;
	double arg = argc > 3 ? strtod(argv[3], 0) : 0;
	int rc;
	if (!strcmp(mode, "time"))
		rc = kcost_mode_time(f, argc > 3 ? arg : 0.3, argc > 4 ? strtod(argv[4], 0) : 30,
		                     argc > 5 ? kcost_min_samples(argv[5]) : KCOST_MIN_SAMPLES, argc > 6 ? argv + 6 : 0,
		                     argc > 6 ? argc - 6 : 0);
	else if (!strcmp(mode, "check"))
		rc = kcost_mode_check(f);
	else if (!strcmp(mode, "once") || !strcmp(mode, "none"))
		rc = kcost_mode_once(f, (unsigned long long)arg, !strcmp(mode, "once"));
	else if (!strcmp(mode, "count"))
		rc = kcost_mode_count(f, (unsigned long long)arg);
	else
		rc = kcost_usage("unknown mode");
	kcost_finish(rc);
}

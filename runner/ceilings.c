/* ceilings.c — measure the roofline's ceilings once per machine, cache them as JSON. */
#define _GNU_SOURCE
#include "ceilings.h"

#include <cblas.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bandwidth.h"
#include "buf.h"
#include "hash.h"
#include "libs.h"
#include "peak.h"
#include "source.h"
#include "stats.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* --- the cache's key and place --------------------------------------------------------------------------- */

/* A sanitized kcost measures its ceilings apart: its own code runs instrumented (the kernels are not). */
#if defined(__SANITIZE_ADDRESS__)
#define KC_BUILD_FLAVOR " sanitized"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KC_BUILD_FLAVOR " sanitized"
#endif
#endif
#ifndef KC_BUILD_FLAVOR
#define KC_BUILD_FLAVOR ""
#endif

void kc_ceilings_key(const char *cpu, const char *flags, int cores, char *out)
{
	char head[80];
	snprintf(head, sizeof head, "kcost-ceilings-v%d cores=%d%s", KC_CEILINGS_VERSION, cores, KC_BUILD_FLAVOR);
	unsigned long long h = kc_fnv1a_str(KC_FNV_OFFSET, head);
	h = kc_fnv1a_str(h, cpu ? cpu : "");
	h = kc_fnv1a_str(h, flags ? flags : "");
	snprintf(out, 17, "%016llx", h);
}

int kc_ceilings_default_dir(char *out, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int w;
	if (xdg && xdg[0] == '/')
		w = snprintf(out, n, "%s/kcost", xdg);
	else if (home && *home)
		w = snprintf(out, n, "%s/.cache/kcost", home);
	else
		return -1;
	return w > 0 && (size_t)w < n ? 0 : -1;
}

void kc_ceilings_cache_path(const char *dir, const char *key, char *out, size_t n)
{
	snprintf(out, n, "%s/ceilings-%s.json", dir, key);
}

/* mkdir -p */
static int make_dirs(struct kc_arena *a, const char *dir)
{
	char *path = kc_arena_strdup(a, dir);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0755) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* --- working sets ------------------------------------------------------------------------------------------ */

void kc_ceilings_working_sets(const long long cache[3], long long ws[KC_LEVEL_N])
{
	long long l1 = cache[0], l2 = cache[1], l3 = cache[2];
	ws[KC_LEVEL_L1] = l1 > 0 ? l1 / 2 : 0;
	ws[KC_LEVEL_L2] = l2 > 2 * l1 && l1 > 0 ? l2 / 2 : 0;
	ws[KC_LEVEL_L3] = l3 > 2 * l2 && l2 > 0 ? (l3 / 4 > 2 * l2 ? l3 / 4 : 2 * l2) : 0;
	long long largest = l3 > l2 ? l3 : l2 > l1 ? l2 : l1, dram = 4 * largest;
	ws[KC_LEVEL_DRAM] = dram<(64LL << 20) ? 64LL << 20 : dram>(1LL << 30) ? 1LL << 30 : dram;
}

/* "24 KiB", "8 MiB" */
static const char *size_text(struct kc_arena *a, long long bytes)
{
	if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0)
		return kc_arena_printf(a, "%lld MiB", bytes >> 20);
	if (bytes >= (1LL << 10) && bytes % (1LL << 10) == 0)
		return kc_arena_printf(a, "%lld KiB", bytes >> 10);
	return kc_arena_printf(a, "%lld B", bytes);
}

/* --- measuring ----------------------------------------------------------------------------------------------- */

/* Rounds of the bandwidth step: every level's kernels run a third of their time in each, so that each level's
 * median batch spans the whole step, not a moment of it (on a shared VM every L1 prediction of one bench/predict
 * run came out 1.3-1.5x slow: its L1 batches, all in the step's first 0.4 s, met a neighbour's burst) */
#define BANDWIDTH_ROUNDS 3

static void progress_step(void (*progress)(const char *, int, int, const char *), int i, const char *what)
{
	if (progress)
		progress("measuring the machine", i, 5 + BANDWIDTH_ROUNDS * KC_LEVEL_N, what);
}

/* OpenBLAS, loaded only in the child processes that measure GEMM (below): the library starts its thread pool as
 * it is loaded, and those threads spin for about a tenth of a second looking for work. Linked into kcost, that
 * took a core from every run, --no-run included, on the machines with the fewest. */
struct blas {
	void (*sgemm)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint, blasint, blasint, float,
	              const float *, blasint, const float *, blasint, float, float *, blasint);
	void (*dgemm)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint, blasint, blasint, double,
	              const double *, blasint, const double *, blasint, double, double *, blasint);
	void (*set_num_threads)(int);
	int (*get_num_threads)(void);
	char *(*get_corename)(void);
};

/* 0, or -1 with why (dlerror's text) set. The library stays loaded for the rest of the process. */
static int blas_load(struct blas *b, const char **why)
{
	void *h = kc_libs_open_openblas(why);
	if (!h)
		return -1;
	/* POSIX's way from dlsym's void * to a function pointer */
	*(void **)&b->sgemm = dlsym(h, "cblas_sgemm");
	*(void **)&b->dgemm = dlsym(h, "cblas_dgemm");
	*(void **)&b->set_num_threads = dlsym(h, "openblas_set_num_threads");
	*(void **)&b->get_num_threads = dlsym(h, "openblas_get_num_threads");
	*(void **)&b->get_corename = dlsym(h, "openblas_get_corename");
	if (!b->sgemm || !b->dgemm || !b->set_num_threads || !b->get_num_threads || !b->get_corename) {
		*why = "libopenblas lacks cblas_sgemm, cblas_dgemm or openblas_set_num_threads";
		return -1;
	}
	return 0;
}

/* The calling thread's CPU time: OpenBLAS on one thread computes on it, and the time other processes had the
 * core does not count against the roof. */
static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Best GFLOP/s of n×n×n GEMM in one precision (the calling thread's CPU time). */
static double gemm_gflops(const struct blas *b, int dbl, int n, int reps)
{
	size_t count = (size_t)n * (size_t)n, elem = dbl ? sizeof(double) : sizeof(float);
	void *x = malloc(count * elem), *y = malloc(count * elem), *z = malloc(count * elem);
	double best = 0;
	for (size_t i = 0; x && y && z && i < count; i++) {
		if (dbl)
			((double *)x)[i] = 1.0 + (double)(i % 7) / 8, ((double *)y)[i] = 1.0 - (double)(i % 5) / 8;
		else
			((float *)x)[i] = 1.0f + (float)(i % 7) / 8, ((float *)y)[i] = 1.0f - (float)(i % 5) / 8;
	}
	for (int r = 0; x && y && z && r <= reps; r++) { /* r = 0 is the warm-up */
		double t0 = cpu_now();
		if (dbl)
			b->dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, x, n, y, n, 0.0, z, n);
		else
			b->sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, x, n, y, n, 0.0f, z, n);
		double g = 2.0 * n * n * (double)n / (cpu_now() - t0) / 1e9;
		best = r > 0 && g > best ? g : best;
	}
	free(x), free(y), free(z);
	return best;
}

/* --- OpenBLAS's dense roof, in a child process -------------------------------------------------------------------
 * OPENBLAS_CORETYPE is read once, as the library loads: another kernel family needs another process. Each GEMM
 * measurement forks a child that sets it (or not), loads OpenBLAS, times one thread's sgemm and dgemm and writes
 * the answer on a pipe; kcost itself never loads the library. */

struct gemm_answer {
	double gflops[2]; /* float, double */
	char core[48];    /* openblas_get_corename() */
	char why[200];    /* non-empty: why nothing was measured */
};

static void gemm_child(const char *coretype, int w)
{
	struct gemm_answer ans = {{0, 0}, "", ""};
	if (coretype)
		setenv("OPENBLAS_CORETYPE", coretype, 1);
	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	struct blas b = {0};
	const char *why = NULL;
	if (blas_load(&b, &why) < 0) {
		snprintf(ans.why, sizeof ans.why, "OpenBLAS could not be loaded (%s)", why ? why : "?");
	} else {
		b.set_num_threads(1);
		snprintf(ans.core, sizeof ans.core, "%s", b.get_corename());
		for (int d = 0; d < 2; d++)
			ans.gflops[d] = gemm_gflops(&b, d, KC_CEILINGS_GEMM_N, KC_CEILINGS_GEMM_REPS);
		if (ans.gflops[0] <= 0 || ans.gflops[1] <= 0)
			snprintf(ans.why, sizeof ans.why, "could not allocate the matrices");
	}
	ssize_t wrote = write(w, &ans, sizeof ans);
	_exit(wrote == (ssize_t)sizeof ans ? 0 : 1);
}

/* 0 with *ans filled (ans->why empty when measured), -1 when the child failed; at most 120 s. */
static int gemm_measure(const char *coretype, struct gemm_answer *ans)
{
	memset(ans, 0, sizeof *ans);
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		gemm_child(coretype, p[1]);
	}
	close(p[1]);
	size_t got = 0;
	double deadline = now() + 120;
	while (pid > 0 && got < sizeof *ans) {
		struct pollfd pfd = {p[0], POLLIN, 0};
		int left = (int)((deadline - now()) * 1000);
		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			break;
		ssize_t n = read(p[0], (char *)ans + got, sizeof *ans - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(p[0]);
	if (pid > 0) {
		if (got < sizeof *ans)
			kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
		}
	}
	ans->core[sizeof ans->core - 1] = ans->why[sizeof ans->why - 1] = 0;
	return got == sizeof *ans ? 0 : -1;
}

/* The instruction set an OpenBLAS kernel family uses (openblas_get_corename's names, case-insensitive);
 * KC_ISA_SSE for the older ones, -1 when unknown. */
int kc_ceilings_core_isa(const char *core)
{
	static const char *const avx512[] = {"skylakex", "cooperlake", "sapphirerapids", NULL};
	static const char *const avx2[] = {"haswell", "zen", "skylake", NULL};
	static const char *const sse[] = {"prescott",  "core2",      "penryn",      "dunnington", "nehalem",
	                                  "atom",      "katmai",     "barcelona",   "opteron",    "sandybridge",
	                                  "bulldozer", "piledriver", "steamroller", "excavator",  NULL};
	const char *const *lists[] = {avx512, avx2, sse};
	const int isas[] = {KC_ISA_AVX512, KC_ISA_AVX2, KC_ISA_SSE};
	for (int l = 0; l < 3; l++)
		for (int i = 0; lists[l][i]; i++)
			if (!strcasecmp(core, lists[l][i]))
				return isas[l];
	return -1;
}

/* The OpenBLAS family for the widest instruction set this CPU has, or NULL below AVX2. */
static const char *best_core(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
		return "SkylakeX";
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return "Haswell";
	return NULL;
}

/* The dense roofs (one thread): OpenBLAS's own choice of kernels, and, when that family is below the CPU's
 * widest instruction set (OpenBLAS did not recognise the CPU), again with OPENBLAS_CORETYPE set to the best
 * family the CPU supports; the faster one is kept, and m->blas_note says what happened. */
static void measure_dense(struct kc_arena *a, struct kc_machine *m)
{
	struct kc_ceiling *c[2] = {&m->dense_f32, &m->dense_f64};
	c[0]->threads = c[1]->threads = 1;
	struct gemm_answer own, forced;
	if (gemm_measure(NULL, &own) < 0 || own.why[0]) {
		const char *why = own.why[0] ? own.why : "the measuring process failed";
		c[0]->method = c[1]->method = kc_arena_printf(a, "not measured: %s", why);
		return;
	}
	const char *target = best_core();
	int own_isa = kc_ceilings_core_isa(own.core), target_isa = target ? kc_ceilings_core_isa(target) : -1;
	struct gemm_answer *use = &own;
	const char *how = "its own choice";
	if (target && own_isa < target_isa && gemm_measure(target, &forced) == 0 && !forced.why[0]) {
		double gain = forced.gflops[0] / own.gflops[0];
		const char *env = getenv("OPENBLAS_CORETYPE");
		m->blas_note =
		    kc_arena_printf(a,
		                    "OpenBLAS %s %s kernels on this CPU%s%s%s; OPENBLAS_CORETYPE=%s (%s kernels) runs "
		                    "sgemm %.2g\xc3\x97 %s",
		                    env && *env ? "ran" : "chose", own.core, env && *env ? " (OPENBLAS_CORETYPE=" : "",
		                    env && *env ? env : "", env && *env ? " in the environment)" : "", target,
		                    forced.core, gain >= 1 ? gain : 1 / gain, gain >= 1 ? "faster" : "slower");
		if (forced.gflops[0] + forced.gflops[1] > own.gflops[0] + own.gflops[1]) {
			use = &forced;
			how = kc_arena_printf(a, "OPENBLAS_CORETYPE=%s; its own choice, %s, ran %.1f GFLOP/s", target,
			                      own.core, own.gflops[0]);
		}
	}
	for (int d = 0; d < 2; d++) {
		m->dense_run[d] = (struct kc_ceiling){
		    own.gflops[d], 1,
		    kc_arena_printf(a,
		                    "cblas_%cgemm n=%d, best of %d, 1 thread (OpenBLAS, %s kernels, its own choice in "
		                    "kcost's environment, as the harness runs it)",
		                    d ? 'd' : 's', KC_CEILINGS_GEMM_N, KC_CEILINGS_GEMM_REPS, own.core)};
		c[d]->value = use->gflops[d];
		c[d]->method =
		    kc_arena_printf(a, "cblas_%cgemm n=%d, best of %d, 1 thread (OpenBLAS, %s kernels, %s)",
		                    d ? 'd' : 's', KC_CEILINGS_GEMM_N, KC_CEILINGS_GEMM_REPS, use->core, how);
	}
}

/* --- kcost's peak kernels ----------------------------------------------------------------------------------- */

#define PEAK_SECONDS    0.08 /* CPU seconds per peak kernel */
#define LATENCY_SECONDS 0.04
#define LIBM_SECONDS    0.02
#define LIBM_PASSES     3

static void measure_peaks(struct kc_arena *a, struct kc_machine *m, int cores)
{
	static const char *const prec[2] = {"float", "double"};
	for (int d = 0; d < 2; d++) {
		struct kc_ceiling *best = NULL;
		enum kc_isa best_isa = KC_ISA_SCALAR;
		int best_fma = 0;
		for (int isa = 0; isa < KC_ISA_N; isa++)
			for (int fma = 0; fma < 2; fma++) {
				struct kc_ceiling *c = &m->peak[d][isa][fma];
				c->threads = 1;
				if (!kc_peak_supported((enum kc_isa)isa, fma)) {
					c->method = kc_arena_printf(a, "not run: the CPU has no %s%s",
					                            kc_isa_name((enum kc_isa)isa),
					                            fma && isa < KC_ISA_AVX512 ? " with FMA" : "");
					continue;
				}
				c->value = kc_peak_gflops((enum kc_isa)isa, fma, d, PEAK_SECONDS);
				c->method = kc_arena_printf(a,
				                            "kcost peak kernel: %s %s %s, 12 independent chains in "
				                            "registers, best run, 1 thread "
				                            "(its CPU time)",
				                            kc_isa_name((enum kc_isa)isa), prec[d],
				                            fma ? "FMA" : "adds and multiplies");
				if (!best || c->value > best->value)
					best = c, best_isa = (enum kc_isa)isa, best_fma = fma;
			}
		struct kc_ceiling *roof = d ? &m->flops_f64 : &m->flops_f32;
		struct kc_ceiling *all = d ? &m->flops_f64_all_threads : &m->flops_f32_all_threads;
		*roof = (struct kc_ceiling){best->value, 1, best->method};
		all->threads = cores;
		all->value = kc_peak_gflops_threads(best_isa, best_fma, d, cores, 4 * PEAK_SECONDS);
		all->method =
		    kc_arena_printf(a, "kcost peak kernel: %s %s %s on %d threads at once (wall-clock time)",
		                    kc_isa_name(best_isa), prec[d], best_fma ? "FMA" : "adds and multiplies", cores);
		kc_peak_add_and_rows(d, 2 * LATENCY_SECONDS, &m->latency_add[d], &m->latency_add_rows[d]);
		m->latency_fma[d] = kc_peak_latency(1, d, LATENCY_SECONDS);
		m->latency_max[d] = kc_peak_max_latency(d, LATENCY_SECONDS);
	}
	m->latency_half_how = kc_peak_half_latency(LATENCY_SECONDS, &m->latency_half_add, &m->latency_half_madd);
}

static void measure_libm(struct kc_arena *a, struct kc_machine *m)
{
	int n;
	const struct kc_libm_fn *f = kc_libm_fns(&n);
	m->libm = KC_NEW_N(a, struct kc_libm_cost, n);
	m->n_libm = n;
	/* three passes over the functions, each function's best kept: its sweeps spread over the whole step, not
	 * taken within 20 ms that a neighbour may have slowed throughout (tanhf measured 8.4 ns a call in one run,
	 * 15.6 in the next, on a shared VM, while kernels calling it ran the same) */
	double *runs = KC_NEW_N(a, double, (size_t)n *LIBM_PASSES *KC_LIBM_RUNS);
	int *n_runs = KC_NEW_N(a, int, n);
	for (int pass = 0; pass < LIBM_PASSES; pass++)
		for (int i = 0; i < n; i++) {
			int got = 0;
			double t =
			    kc_libm_call_seconds(&f[i], LIBM_SECONDS / LIBM_PASSES,
			                         runs + (size_t)i * LIBM_PASSES * KC_LIBM_RUNS + n_runs[i], &got);
			n_runs[i] += got;
			if (t > 0 && (m->libm[i].seconds <= 0 || t < m->libm[i].seconds))
				m->libm[i].seconds = t;
		}
	for (int i = 0; i < n; i++) {
		struct kc_stats st;
		if (kc_stats_compute(runs + (size_t)i * LIBM_PASSES * KC_LIBM_RUNS, n_runs[i], &st) == 0)
			m->libm[i].median = st.median;
		m->libm[i].name = f[i].name;
		if (f[i].hi2 > f[i].lo2)
			m->libm[i].method = kc_arena_printf(
			    a,
			    "out[i] = f(x[i], y[i]), scalar calls through a pointer, arguments in [%g, %g) x [%g, "
			    "%g), best of 3 passes of 3 sweeps of 262144 (and their median), 1 thread (its CPU time)",
			    f[i].lo, f[i].hi, f[i].lo2, f[i].hi2);
		else
			m->libm[i].method = kc_arena_printf(
			    a,
			    "out[i] = f(x[i]), scalar calls through a pointer, arguments in [%g, %g), best of 3 "
			    "passes of 3 sweeps of 262144 (and their median), 1 thread (its CPU time)",
			    f[i].lo, f[i].hi);
	}
}

static void bandwidth_result(struct kc_arena *a, struct kc_machine *m, enum kc_level l, long long ws,
                             struct kc_bandwidth_run *run)
{
	struct kc_ceiling *c = &m->bandwidth[l];
	struct kc_bandwidth bw;
	kc_bandwidth_finish(run, &bw);
	c->value = bw.gbytes_per_s;
	m->bandwidth_median[l] = bw.gbytes_median;
	for (int k = 0; k < KC_STREAM_N; k++)
		m->stream[l][k] = bw.gbps[k], m->stream_median[l][k] = bw.median[k];
	c->method = kc_arena_printf(a,
	                            "%s %s working set, best of %d batches x %lld passes (median %.1f), 1 thread "
	                            "(load %.1f, copy %.1f, triad %.1f, update %.1f GB/s; STREAM byte counting)",
	                            bw.kernel, size_text(a, ws), bw.batches, bw.passes, bw.gbytes_median,
	                            bw.gbps[KC_STREAM_LOAD], bw.gbps[KC_STREAM_COPY], bw.gbps[KC_STREAM_TRIAD],
	                            bw.gbps[KC_STREAM_UPDATE]);
}

static void measure_bandwidth(struct kc_arena *a, struct kc_machine *m, const long long ws[KC_LEVEL_N],
                              const char *cache_source, void (*progress)(const char *, int, int, const char *))
{
	struct kc_bandwidth_run *run[KC_LEVEL_N] = {0};
	for (int l = 0; l < KC_LEVEL_N; l++) {
		struct kc_ceiling *c = &m->bandwidth[l];
		c->threads = 1;
		if (!ws[l])
			c->method = kc_arena_printf(a, "not measured: no %s cache size (%s)",
			                            kc_level_name((enum kc_level)l), cache_source);
		else if (!(run[l] = kc_bandwidth_start(ws[l])))
			c->method = kc_arena_printf(a, "not measured: could not allocate %s", size_text(a, ws[l]));
	}
	/* DRAM's kernels take turns for 3 s in all: a shared machine's DRAM bandwidth comes and goes over seconds
	 * (its median batch over 1.2 s ranged from 27 to 40 GB/s from one run to the next, where kernels timed
	 * later ran at 40) */
	for (int r = 0; r < BANDWIDTH_ROUNDS; r++)
		for (int l = 0; l < KC_LEVEL_N; l++) {
			progress_step(progress, 3 + r * KC_LEVEL_N + l,
			              kc_arena_printf(a, "%s bandwidth, round %d of %d",
			                              kc_level_name((enum kc_level)l), r + 1, BANDWIDTH_ROUNDS));
			if (run[l])
				kc_bandwidth_more(run[l], 0, (l == KC_LEVEL_DRAM ? 0.75 : 0.1) / BANDWIDTH_ROUNDS, 3);
		}
	for (int l = 0; l < KC_LEVEL_N; l++)
		if (run[l])
			bandwidth_result(a, m, (enum kc_level)l, ws[l], run[l]);
}

/* What a kernel pays for each page of a large buffer it allocates on every call: malloc of 64 MiB (glibc maps
 * it afresh), one byte written per 4 KiB page, free; the best of 3 rounds, wall-clock time (the page faults are
 * the kernel's work, and a VM's exits: 1.4 us a page here, where the zeroing alone takes 0.2). */
static void measure_fresh_pages(struct kc_arena *a, struct kc_machine *m)
{
	const size_t bytes = (size_t)64 << 20, page = 4096;
	double best = 0;
	m->fresh_page.threads = 1;
	for (int r = 0; r < 3; r++) {
		double t0 = now();
		char *p = malloc(bytes);
		if (!p) {
			m->fresh_page.method =
			    kc_arena_printf(a, "not measured: could not allocate %s", size_text(a, (long long)bytes));
			return;
		}
		for (size_t o = 0; o < bytes; o += page)
			((volatile char *)p)[o] = 1;
		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
		double t = now() - t0;
		best = r == 0 || t < best ? t : best;
	}
	m->fresh_page.value = best / (double)(bytes / page);
	m->fresh_page.method = "malloc of 64 MiB, one byte written per 4 KiB page, free; best of 3, 1 thread "
	                       "(wall-clock time)";
}

/* Column stores (kc_machine.column_store): 0.4 s in all, the levels in turns. */
static void measure_columns(struct kc_arena *a, struct kc_machine *m, const long long cache[3])
{
	long long rows[KC_LEVEL_N];
	struct kc_column col;
	kc_column_rows(cache, rows);
	if (kc_column_measure(rows, 0.4, &col) < 0) {
		m->column_method = "not measured: no memory for the walks' arrays";
		return;
	}
	for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++)
		m->column_store[l] = col.best[l], m->column_store_median[l] = col.median[l];
	char text[256];
	int at = snprintf(text, sizeof text,
	                  "a transpose's stores, down 64 columns one after another, rows 4 KiB apart (L1's 4164 B):");
	for (int l = KC_LEVEL_L1; l < KC_LEVEL_N && at < (int)sizeof text; l++)
		if (col.rows[l])
			at += snprintf(text + at, sizeof text - (size_t)at, " %s %lld rows (%d batches),",
			               kc_level_name((enum kc_level)l), col.rows[l], col.batches[l]);
	m->column_method = kc_arena_printf(a, "%s fastest and median batch, 4 KiB pages, 1 thread", text);
}

static const char *iso8601_now(struct kc_arena *a)
{
	time_t t = time(NULL);
	struct tm tm;
	char s[32];
	gmtime_r(&t, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return kc_arena_strdup(a, s);
}

static void describe_cpu(struct kc_arena *a, const struct kc_cpu *cpu, struct kc_machine *m)
{
	m->cpu = kc_arena_strdup(a, cpu->model);
	m->cores = cpu->cores;
	for (int i = 0; i < 3; i++)
		m->cache_bytes[i] = cpu->cache[i];
	m->cache_line = cpu->line;
	m->cache_ll_assoc = cpu->ll_assoc;
	m->cache_source = kc_arena_strdup(a, cpu->cache_source);
}

void kc_ceilings_measure(struct kc_arena *a, const struct kc_cpu *cpu, struct kc_machine *m,
                         void (*progress)(const char *step, int i, int n, const char *what))
{
	double t0 = now();
	describe_cpu(a, cpu, m);
	progress_step(progress, 0, "compute peaks and latencies");
	measure_peaks(a, m, cpu->cores > 0 ? cpu->cores : 1);
	progress_step(progress, 1, "libm per-call times");
	measure_libm(a, m);
	progress_step(progress, 2, "OpenBLAS GEMM");
	measure_dense(a, m);
	long long ws[KC_LEVEL_N];
	kc_ceilings_working_sets(cpu->cache, ws);
	measure_bandwidth(a, m, ws, cpu->cache_source, progress);
	progress_step(progress, 3 + BANDWIDTH_ROUNDS * KC_LEVEL_N, "column stores");
	measure_columns(a, m, cpu->cache);
	progress_step(progress, 4 + BANDWIDTH_ROUNDS * KC_LEVEL_N, "fresh pages");
	measure_fresh_pages(a, m);
	m->measured_at = iso8601_now(a);
	m->measure_seconds = now() - t0;
	m->cached = 0;
}

/* --- the cache file ---------------------------------------------------------------------------------------- */

static cJSON *ceiling_json(const struct kc_ceiling *c, const char *unit)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, unit, c->value);
	cJSON_AddNumberToObject(o, "threads", c->threads);
	cJSON_AddStringToObject(o, "method", c->method ? c->method : "");
	return o;
}

cJSON *kc_ceilings_to_json(const struct kc_machine *m, const char *key)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "kcost_ceilings", KC_CEILINGS_VERSION);
	cJSON_AddStringToObject(j, "key", key);
	cJSON_AddStringToObject(j, "cpu", m->cpu ? m->cpu : "");
	cJSON_AddNumberToObject(j, "cores", m->cores);
	cJSON *caches = cJSON_AddArrayToObject(j, "cache_bytes");
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(caches, cJSON_CreateNumber((double)m->cache_bytes[i]));
	cJSON_AddNumberToObject(j, "cache_line", m->cache_line);
	cJSON_AddNumberToObject(j, "cache_ll_assoc", m->cache_ll_assoc);
	cJSON_AddStringToObject(j, "cache_source", m->cache_source ? m->cache_source : "");
	cJSON *flops = cJSON_AddObjectToObject(j, "flops");
	cJSON_AddItemToObject(flops, "float", ceiling_json(&m->flops_f32, "gflops"));
	cJSON_AddItemToObject(flops, "double", ceiling_json(&m->flops_f64, "gflops"));
	cJSON_AddItemToObject(flops, "float_all_threads", ceiling_json(&m->flops_f32_all_threads, "gflops"));
	cJSON_AddItemToObject(flops, "double_all_threads", ceiling_json(&m->flops_f64_all_threads, "gflops"));
	cJSON_AddItemToObject(flops, "dense_float", ceiling_json(&m->dense_f32, "gflops"));
	cJSON_AddItemToObject(flops, "dense_float_as_run", ceiling_json(&m->dense_run[0], "gflops"));
	cJSON_AddItemToObject(flops, "dense_double_as_run", ceiling_json(&m->dense_run[1], "gflops"));
	cJSON_AddItemToObject(flops, "dense_double", ceiling_json(&m->dense_f64, "gflops"));
	cJSON *peak = cJSON_AddObjectToObject(j, "peak");
	for (int d = 0; d < 2; d++) {
		cJSON *pd = cJSON_AddObjectToObject(peak, d ? "double" : "float");
		for (int isa = 0; isa < KC_ISA_N; isa++) {
			cJSON *pi = cJSON_AddObjectToObject(pd, kc_isa_name((enum kc_isa)isa));
			cJSON_AddItemToObject(pi, "fma", ceiling_json(&m->peak[d][isa][1], "gflops"));
			cJSON_AddItemToObject(pi, "add_mul", ceiling_json(&m->peak[d][isa][0], "gflops"));
		}
	}
	cJSON *lat = cJSON_AddObjectToObject(j, "latency_seconds");
	for (int d = 0; d < 2; d++) {
		cJSON *ld = cJSON_AddObjectToObject(lat, d ? "double" : "float");
		cJSON_AddNumberToObject(ld, "add", m->latency_add[d]);
		cJSON_AddNumberToObject(ld, "fma", m->latency_fma[d]);
		cJSON_AddNumberToObject(ld, "max", m->latency_max[d]);
		cJSON_AddNumberToObject(ld, "add_rows_of_64", m->latency_add_rows[d]);
	}
	if (m->latency_half_how) {
		cJSON *lh = cJSON_AddObjectToObject(lat, "half");
		cJSON_AddNumberToObject(lh, "add", m->latency_half_add);
		cJSON_AddNumberToObject(lh, "multiply_add", m->latency_half_madd);
		cJSON_AddStringToObject(lh, "how", m->latency_half_how);
	}
	cJSON *libm = cJSON_AddObjectToObject(j, "libm");
	for (int i = 0; i < m->n_libm; i++) {
		cJSON *o = cJSON_AddObjectToObject(libm, m->libm[i].name);
		cJSON_AddNumberToObject(o, "seconds_per_call", m->libm[i].seconds);
		cJSON_AddNumberToObject(o, "median_seconds_per_call", m->libm[i].median);
		cJSON_AddStringToObject(o, "method", m->libm[i].method ? m->libm[i].method : "");
	}
	if (m->blas_note)
		cJSON_AddStringToObject(j, "openblas_note", m->blas_note);
	cJSON_AddItemToObject(j, "fresh_pages", ceiling_json(&m->fresh_page, "seconds_per_page"));
	if (m->column_method) { /* measured, or why not */
		cJSON *col = cJSON_AddObjectToObject(j, "column_stores");
		cJSON *cb = cJSON_AddObjectToObject(col, "seconds_per_store"),
		      *cm = cJSON_AddObjectToObject(col, "median");
		for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++) {
			cJSON_AddNumberToObject(cb, kc_level_name((enum kc_level)l), m->column_store[l]);
			cJSON_AddNumberToObject(cm, kc_level_name((enum kc_level)l), m->column_store_median[l]);
		}
		cJSON_AddStringToObject(col, "method", m->column_method);
	}
	cJSON *bw = cJSON_AddObjectToObject(j, "bandwidth");
	for (int l = 0; l < KC_LEVEL_N; l++) {
		cJSON *o = ceiling_json(&m->bandwidth[l], "gbytes_per_s");
		cJSON *k = cJSON_AddObjectToObject(o, "kernels_gbytes_per_s"); /* STREAM's counting */
		for (int s = 0; s < KC_STREAM_N; s++)
			cJSON_AddNumberToObject(k, kc_stream_name((enum kc_stream)s), m->stream[l][s]);
		cJSON_AddNumberToObject(o, "median_gbytes_per_s", m->bandwidth_median[l]);
		cJSON *km = cJSON_AddObjectToObject(o, "kernels_median_gbytes_per_s");
		for (int s = 0; s < KC_STREAM_N; s++)
			cJSON_AddNumberToObject(km, kc_stream_name((enum kc_stream)s), m->stream_median[l][s]);
		cJSON_AddItemToObject(bw, kc_level_name((enum kc_level)l), o);
	}
	cJSON_AddStringToObject(j, "measured_at", m->measured_at ? m->measured_at : "");
	cJSON_AddNumberToObject(j, "measure_seconds", m->measure_seconds);
	return j;
}

static double number_at(const cJSON *o, const char *name, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	*ok &= cJSON_IsNumber(v);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *string_at(struct kc_arena *a, const cJSON *o, const char *name, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	*ok &= cJSON_IsString(v);
	return cJSON_IsString(v) ? kc_arena_strdup(a, v->valuestring) : NULL;
}

static int ceiling_from_json(struct kc_arena *a, const cJSON *o, const char *unit, struct kc_ceiling *c)
{
	int ok = cJSON_IsObject(o);
	c->value = number_at(o, unit, &ok);
	c->threads = (int)number_at(o, "threads", &ok);
	c->method = string_at(a, o, "method", &ok);
	return ok;
}

int kc_ceilings_from_json(struct kc_arena *a, const cJSON *j, const char *key, struct kc_machine *m)
{
	int ok = cJSON_IsObject(j);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "key");
	int version = ok ? (int)number_at(j, "kcost_ceilings", &ok) : 0;
	if (!ok || version < KC_CEILINGS_OLDEST || version > KC_CEILINGS_VERSION || !cJSON_IsString(k) ||
	    (key && strcmp(k->valuestring, key) != 0))
		return -1;
	memset(m, 0, sizeof *m);
	m->cpu = string_at(a, j, "cpu", &ok);
	m->cores = (int)number_at(j, "cores", &ok);
	const cJSON *caches = cJSON_GetObjectItemCaseSensitive(j, "cache_bytes");
	ok &= cJSON_GetArraySize(caches) == 3;
	for (int i = 0; ok && i < 3; i++)
		m->cache_bytes[i] = (long long)cJSON_GetArrayItem(caches, i)->valuedouble;
	m->cache_line = (int)number_at(j, "cache_line", &ok);
	m->cache_ll_assoc = (int)number_at(j, "cache_ll_assoc", &ok);
	m->cache_source = string_at(a, j, "cache_source", &ok);
	const cJSON *flops = cJSON_GetObjectItemCaseSensitive(j, "flops");
	ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(flops, "float"), "gflops", &m->flops_f32);
	ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(flops, "double"), "gflops", &m->flops_f64);
	ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(flops, "float_all_threads"), "gflops",
	                        &m->flops_f32_all_threads);
	ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(flops, "double_all_threads"), "gflops",
	                        &m->flops_f64_all_threads);
	ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(flops, "dense_float"), "gflops", &m->dense_f32);
	for (int d = 0; d < 2; d++) { /* version 3 has none: cblas_* calls are then predicted at the roof */
		const cJSON *r =
		    cJSON_GetObjectItemCaseSensitive(flops, d ? "dense_double_as_run" : "dense_float_as_run");
		if (r)
			ok &= ceiling_from_json(a, r, "gflops", &m->dense_run[d]);
	}
	ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(flops, "dense_double"), "gflops", &m->dense_f64);
	const cJSON *peak = cJSON_GetObjectItemCaseSensitive(j, "peak");
	for (int d = 0; d < 2; d++) {
		const cJSON *pd = cJSON_GetObjectItemCaseSensitive(peak, d ? "double" : "float");
		for (int isa = 0; isa < KC_ISA_N; isa++) {
			const cJSON *pi = cJSON_GetObjectItemCaseSensitive(pd, kc_isa_name((enum kc_isa)isa));
			ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(pi, "fma"), "gflops",
			                        &m->peak[d][isa][1]);
			ok &= ceiling_from_json(a, cJSON_GetObjectItemCaseSensitive(pi, "add_mul"), "gflops",
			                        &m->peak[d][isa][0]);
		}
	}
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(j, "latency_seconds");
	for (int d = 0; d < 2; d++) {
		const cJSON *ld = cJSON_GetObjectItemCaseSensitive(lat, d ? "double" : "float");
		ok &= cJSON_IsObject(ld);
		m->latency_add[d] = number_at(ld, "add", &ok);
		m->latency_fma[d] = number_at(ld, "fma", &ok);
		const cJSON *mx = cJSON_GetObjectItemCaseSensitive(ld, "max"); /* not in version 3 */
		m->latency_max[d] =
		    cJSON_IsNumber(mx) && mx->valuedouble > 0 && mx->valuedouble < 1 ? mx->valuedouble : 0;
		_Static_assert(KC_CHAIN_RUN == 64, "the cache's name of latency_add_rows");
		const cJSON *rows = cJSON_GetObjectItemCaseSensitive(ld, "add_rows_of_64"); /* not before 5 */
		m->latency_add_rows[d] =
		    cJSON_IsNumber(rows) && rows->valuedouble > 0 && rows->valuedouble < 1 ? rows->valuedouble : 0;
	}
	/* not before version 8, nor where _Float16 chains could not run; figures out of range are dropped */
	const cJSON *lh = cJSON_GetObjectItemCaseSensitive(lat, "half"),
	            *hadd = cJSON_GetObjectItemCaseSensitive(lh, "add"),
	            *hmadd = cJSON_GetObjectItemCaseSensitive(lh, "multiply_add"),
	            *how = cJSON_GetObjectItemCaseSensitive(lh, "how");
	if (cJSON_IsNumber(hadd) && cJSON_IsNumber(hmadd) && cJSON_IsString(how) && hadd->valuedouble > 0 &&
	    hadd->valuedouble < 1 && hmadd->valuedouble > 0 && hmadd->valuedouble < 1) {
		m->latency_half_add = hadd->valuedouble, m->latency_half_madd = hmadd->valuedouble;
		m->latency_half_how = kc_arena_strdup(a, how->valuestring);
	}
	const cJSON *libm = cJSON_GetObjectItemCaseSensitive(j, "libm"), *fn;
	int n = cJSON_GetArraySize(libm);
	ok &= cJSON_IsObject(libm) && n <= 4096;
	m->libm = ok ? KC_NEW_N(a, struct kc_libm_cost, n > 0 ? n : 1) : NULL;
	cJSON_ArrayForEach(fn, libm)
	{
		if (!ok)
			break;
		struct kc_libm_cost *c = &m->libm[m->n_libm++];
		c->name = kc_arena_strdup(a, fn->string);
		c->seconds = number_at(fn, "seconds_per_call", &ok);
		/* version 5 and older have no median: the prediction then uses the best run */
		const cJSON *med = cJSON_GetObjectItemCaseSensitive(fn, "median_seconds_per_call");
		c->median = c->seconds > 0 && cJSON_IsNumber(med) && med->valuedouble >= c->seconds &&
		                    med->valuedouble <= 1000 * c->seconds && med->valuedouble < 1
		                ? med->valuedouble
		                : 0;
		c->method = string_at(a, fn, "method", &ok);
	}
	const cJSON *note = cJSON_GetObjectItemCaseSensitive(j, "openblas_note");
	m->blas_note = cJSON_IsString(note) ? kc_arena_strdup(a, note->valuestring) : NULL;
	/* version 3 has no fresh pages: the prediction then leaves allocations out */
	const cJSON *fresh = cJSON_GetObjectItemCaseSensitive(j, "fresh_pages");
	if (fresh)
		ok &= ceiling_from_json(a, fresh, "seconds_per_page", &m->fresh_page);
	/* version 6 and older have no column stores: a column walk is then predicted as the other stores; a section
	 * that is not an object, or its figures, are dropped, not the file */
	const cJSON *col = cJSON_GetObjectItemCaseSensitive(j, "column_stores");
	if (cJSON_IsObject(col)) {
		const cJSON *cb = cJSON_GetObjectItemCaseSensitive(col, "seconds_per_store"),
		            *cm = cJSON_GetObjectItemCaseSensitive(col, "median");
		for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++) {
			int here = 1;
			double best = number_at(cb, kc_level_name((enum kc_level)l), &here),
			       med = number_at(cm, kc_level_name((enum kc_level)l), &here);
			/* a figure out of range (no store takes a second) or a median below the best is dropped, not
			 * the file */
			int good = here && best > 0 && best < 1 && med >= best && med < 1;
			m->column_store[l] = good ? best : 0;
			m->column_store_median[l] = good ? med : 0;
		}
		int named = 1;
		m->column_method = string_at(a, col, "method", &named);
		if (!named)
			m->column_method = "(the file does not say how they were measured)";
	}
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(j, "bandwidth");
	for (int l = 0; l < KC_LEVEL_N; l++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(bw, kc_level_name((enum kc_level)l));
		ok &= ceiling_from_json(a, o, "gbytes_per_s", &m->bandwidth[l]);
		/* version 3 has no kernels: the prediction then prices every byte at the level's one bandwidth */
		const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(o, "kernels_gbytes_per_s");
		for (int s = 0; kernels && s < KC_STREAM_N; s++) {
			double v = number_at(kernels, kc_stream_name((enum kc_stream)s), &ok);
			m->stream[l][s] = v > 0 && v < 1e7 ? v : 0;
		}
		/* version 5 and older have no medians: the prediction then uses the best batches */
		const cJSON *med = cJSON_GetObjectItemCaseSensitive(o, "median_gbytes_per_s");
		double v = cJSON_IsNumber(med) ? med->valuedouble : 0;
		m->bandwidth_median[l] = v * 1000 >= m->bandwidth[l].value && v <= m->bandwidth[l].value ? v : 0;
		/* a median that is missing or not one of its kernel's batches (above the best, below a thousandth of
		 * it) is dropped, not the file */
		const cJSON *km = cJSON_GetObjectItemCaseSensitive(o, "kernels_median_gbytes_per_s");
		for (int s = 0; km && s < KC_STREAM_N; s++) {
			int here = 1;
			v = number_at(km, kc_stream_name((enum kc_stream)s), &here);
			m->stream_median[l][s] = here && v * 1000 >= m->stream[l][s] && v <= m->stream[l][s] ? v : 0;
		}
	}
	m->measured_at = string_at(a, j, "measured_at", &ok);
	m->measure_seconds = number_at(j, "measure_seconds", &ok);
	m->cached = 1;
	return ok ? 0 : -1;
}

static int load_cache(struct kc_arena *a, const char *path, const char *key, struct kc_machine *m)
{
	struct kc_buf text = KC_BUF_INIT;
	cJSON *j = kc_buf_read_file(&text, path, (size_t)1 << 24) == 0 ? cJSON_Parse(kc_buf_str(&text)) : NULL;
	kc_buf_release(&text);
	int rc = j ? kc_ceilings_from_json(a, j, key, m) : -1;
	cJSON_Delete(j);
	return rc;
}

int kc_cache_save_text(struct kc_arena *a, const char *dir, const char *path, const char *text)
{
	const char *tmp = kc_arena_printf(a, "%s.%ld.tmp", path, (long)getpid());
	FILE *f = text && make_dirs(a, dir) == 0 ? fopen(tmp, "w") : NULL;
	int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
	ok = f && fclose(f) == 0 && ok && rename(tmp, path) == 0;
	if (!ok && f)
		remove(tmp);
	return ok ? 0 : -1;
}

static int save_cache(struct kc_arena *a, const char *dir, const char *path, const struct kc_machine *m,
                      const char *key)
{
	cJSON *j = kc_ceilings_to_json(m, key);
	char *text = j ? cJSON_Print(j) : NULL;
	cJSON_Delete(j);
	int rc = kc_cache_save_text(a, dir, path, text);
	free(text);
	return rc;
}

int kc_ceilings_get(struct kc_arena *a, const struct kc_ceilings_opts *o, struct kc_machine *m)
{
	struct kc_cpu cpu;
	kc_cpu_probe(&cpu);
	char key[17], default_dir[PATH_MAX]; /* PATH_MAX: a longer directory could not be opened anyway */
	kc_ceilings_key(cpu.model, cpu.flags, cpu.cores, key);
	const char *dir = o->cache_dir;
	if (!dir && kc_ceilings_default_dir(default_dir, sizeof default_dir) == 0)
		dir = default_dir;
	else if (!dir && o->verbose)
		fprintf(stderr, "kcost: no ceilings cache: XDG_CACHE_HOME and HOME are unset, relative or too long\n");
	int have_dir = dir != NULL;
	const char *path = have_dir ? kc_arena_printf(a, "%s/ceilings-%s.json", dir, key) : NULL;
	if (have_dir && !o->remeasure && load_cache(a, path, key, m) == 0) {
		if (o->verbose)
			fprintf(stderr, "kcost: machine ceilings from %s (measured %s)\n", path, m->measured_at);
		kc_cpu_release(&cpu);
		return 0;
	}
	memset(m, 0, sizeof *m);
	kc_ceilings_measure(a, &cpu, m, o->progress);
	if (have_dir && save_cache(a, dir, path, m, key) < 0 && o->verbose)
		fprintf(stderr, "kcost: could not write the ceilings cache %s\n", path);
	else if (have_dir && o->verbose)
		fprintf(stderr, "kcost: machine ceilings measured in %.1f s, cached in %s\n", m->measure_seconds, path);
	kc_cpu_release(&cpu);
	return 0;
}

/* runner_int.h — the state one kc_run shares between its steps: runner.c (plan, build, time, check) and
 * traffic_step.c (traffic). Plain data and inline helpers only, implemented by no .c file, so both can include it
 * without including each other. Private to runner/. */
#ifndef KC_RUNNER_INT_H
#define KC_RUNNER_INT_H

#include "analysis.h"
#include "beside.h"
#include "build.h"
#include "child.h"
#include "diag.h"
#include "harness.h"
#include "measure.h"

/* The progress callback of kc_runner_opts (may be NULL). */
typedef void (*kc_runner_progress_fn)(const char *step, int i, int n, const char *what);

/* Everything one kc_run shares. */
struct kc_run_state {
	const struct kc_analysis *an;
	struct kc_arena *a;
	struct kc_measurements *m;
	struct kc_diags *diags;
	struct kc_build build; /* how harnesses are compiled */
	kc_runner_progress_fn progress;
	int verbose;    /* print the valgrind commands */
	int no_traffic; /* --no-traffic: timings only */
	double budget, timeout;
	double threshold;       /* --baseline: the relative change a verdict needs (model/compare.h) */
	long long memory_limit; /* RLIMIT_AS of kernel children */
	const char *tmpdir;
	const char *sandbox_dir; /* tmpdir when kernels run in the sandbox, else NULL */
	/* the whole environment of kernel children (kc_child_kernel_env): the allow-listed variables, then
	 * OPENBLAS_NUM_THREADS and OMP_NUM_THREADS (1 unless --threads) and TMPDIR=tmpdir */
	const char **child_env;
	int counters;             /* perf_event_open works */
	const char *counters_why; /* why not, or what the last count said (arena) */
	const char *valgrind;     /* its full path; NULL when valgrind is not installed */
	const char *valgrind_version;
	const char *sim_cache_dir;  /* where simulations are cached (simcache.h); NULL: none is */
	int resimulate;             /* --remeasure: simulate again, and cache the new counts */
	const char *sim_libs;       /* the libraries harnesses link (libs.h), in every key; NULL until the first key */
	int sim_saved;              /* simulations this run cached: the cache is pruned after them */
	long long started;          /* time(NULL) when the run began: the cache entries it used are kept */
	int no_avx512_for_valgrind; /* the CPU has AVX-512, which valgrind 3.19 cannot run */
	int done, total;            /* functions run so far, to run in all (for progress) */
	/* the ceilings sampled after each timing slice (beside.h), started at the first: beside_wanted until then */
	struct kc_beside *beside;
	int beside_wanted;
	long long kernel_rss; /* the largest peak resident memory of a timed harness process so far (bytes) */
	struct kc_traffic_batch *traffic; /* the simulations, run after every timing (traffic_step.h) */
	int other_ceilings; /* kc_runner_opts.other_ceilings: nothing of this machine is sampled for the predictions */
};

struct kc_traffic_batch;

/* One input file's harness. */
struct kc_file_run {
	const char *path;      /* the input as the analysis spells it (an->files[file_index]) */
	const char *dir;       /* its directory under tmpdir */
	const char *abs;       /* the absolute path harness.c includes */
	const char *compiler;  /* the command that built ./harness */
	const char *build_log; /* the compiler's stderr when ./harness did not build */
	int cg_state;          /* the build valgrind runs: 0 not yet, 1 built, -1 failed */
	const char *cg_binary; /* "./harness" or "./harness-cg" */
	const char *cg_note;   /* what is special about that build, or why it failed */
	int vec_known;         /* ./harness was built asking the compiler which loops it vectorized */
	struct kc_vec_remark *vec;
	int n_vec;
};

/* The native timing of one function, which the traffic measurement needs to budget itself. */
struct kc_timing {
	int ok;               /* timed without error */
	double setup, median; /* seconds: the harness's setup, one call */
};

static inline void kc_runner_progress(const struct kc_run_state *r, const char *step, int i, int n, const char *what)
{
	if (r->progress)
		r->progress(step, i, n, what);
}

/* The limits of a kernel child: the wall clock, RLIMIT_CPU one second later, RLIMIT_AS the run's memory limit,
 * the same for every kernel (a limit that grew with what the kernel allocates would not limit), and the sandbox
 * when --sandbox asked for it. */
static inline struct kc_child_limits kc_runner_kernel_limits(const struct kc_run_state *r)
{
	return (struct kc_child_limits){r->timeout, r->timeout + 1, r->memory_limit, r->sandbox_dir};
}

#endif

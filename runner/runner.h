/* runner.h — the runner stage: compile the analyzed kernels into a generated harness, run each in a child
 * process with limits, time it, check it against its reference, measure its memory traffic, and measure the
 * machine's ceilings (cached). Reads the analysis model; never re-parses. */
#ifndef KC_RUNNER_H
#define KC_RUNNER_H

#include <stddef.h>

#include "analysis.h"
#include "diag.h"
#include "measure.h"

#define KC_RUNNER_DEFAULT_CC     "cc"
#define KC_RUNNER_DEFAULT_CFLAGS "-O3 -march=native"
#define KC_RUNNER_DEFAULT_BUDGET 0.3 /* seconds of timed calls per function */
/* The functions of a file are timed in this many rounds, a share of the budget each (runner.c, run_file) */
#define KC_RUNNER_ROUNDS 3
/* The fewest calls (or batches of calls) the harness times in one run (KCOST_MIN_SAMPLES in kcost_driver.c) */
#define KC_RUNNER_MIN_SAMPLES     10
#define KC_RUNNER_DEFAULT_TIMEOUT 60.0 /* wall-clock seconds per child */
/* The most libm functions of one kernel swept in its process beside its timed calls (KCOST_MAX_SWEPT in
 * kcost_driver.c); the others' calls are priced at the machine's medians */
#define KC_RUNNER_MAX_SWEPT 16
/* --baseline (kc_runner_opts.base): each function of both revisions is timed in alternating slices of
 * KC_BASELINE_SLICE_SECONDS (and KC_BASELINE_MIN_SLICE_SAMPLES calls) each, until the comparison is decided
 * after KC_BASELINE_MIN_PAIRS pairs, or KC_BASELINE_MAX_PAIRS pairs or KC_BASELINE_BUDGET_FACTOR times the time
 * budget (wall clock, setups included) are spent */
#define KC_BASELINE_SLICE_SECONDS     0.02
#define KC_BASELINE_MIN_SLICE_SAMPLES 3
#define KC_BASELINE_MIN_PAIRS         6
#define KC_BASELINE_MAX_PAIRS         40
#define KC_BASELINE_BUDGET_FACTOR     20
#define KC_RUNNER_DEFAULT_THRESHOLD   0.05

struct kc_runner_opts {
	const char *cc;                /* NULL: "cc" (looked up in PATH) */
	const char *cflags;            /* NULL: "-O3 -march=native"; split at whitespace (no shell quoting) */
	const char *const *extra_args; /* the user's -I/-D/-U/-std= flags, passed to the compiler too */
	int n_extra_args;
	const char *include_dir; /* directory of kcost.h, added with -I (as the analyzer does); NULL: none */
	double time_budget;      /* seconds per function; <= 0: 0.3 */
	double timeout;          /* wall-clock seconds per child; <= 0: 60 */
	long long memory_limit;  /* RLIMIT_AS of every kernel child in bytes; <= 0: kc_child_default_memory_limit */
	int remeasure;           /* ignore the ceilings cache */
	int no_traffic;          /* do not measure traffic (counters or cachegrind): timings only */
	int sandbox;             /* run kernels in the sandbox (sandbox.h); where it is not available, none runs */
	int threads;             /* > 1: OpenMP kernels, built with -fopenmp and run with OMP_NUM_THREADS=threads,
	                          * against the all-threads compute ceilings; else single-threaded */
	int verbose;             /* print compiler and valgrind commands to stderr; keep the temporary directory */
	const char *cache_dir;   /* NULL: $XDG_CACHE_HOME/kcost or ~/.cache/kcost */
	int other_ceilings;      /* the predictions will use ceilings other than this machine's (--machine, --peak):
	                          * nothing is sampled beside the kernels (beside.h) */
	void (*progress)(const char *step, int i, int n, const char *what); /* may be NULL */
	/* --baseline: the same inputs at the baseline revision (base->files[k] is an->files[k] there; a file it
	 * lacks has no functions), measured into base_m (its machine is m's); functions of the same name in the
	 * same file are timed in alternating slices (runner.c, time_pair) with this threshold */
	const struct kc_analysis *base;
	struct kc_measurements *base_m;
	double threshold;
	const char *const *base_extra_args; /* the user's flags as REV's worktree needs them (for its harnesses) */
	int n_base_extra_args;
};

/* Measure the machine (cached) and every non-skipped function of `an`, in the order of an->functions:
 * m->machine and m->items[0 .. m->n-1] are filled, all storage from `a`.
 *
 * Per input file (an->files[f->file_index] for function f: a kernel defined in an included header runs in the
 * harness of the input that includes it), one harness is generated in a temporary directory (mkdtemp under $TMPDIR or
 * /tmp; removed afterwards unless verbose) and built once with CC CFLAGS EXTRA_ARGS -I<dir of the file>
 * [-I<include_dir>] [OpenBLAS -I] harness.c kcost_driver.c -o harness -Wl,--wrap=malloc,... -lm [OpenBLAS -L
 * -lopenblas] (OpenBLAS only when a probe program including <cblas.h> links); that command is each measurement's
 * `compiler`. Each function then runs in children of that harness: timed (`time`: a warm-up call, then calls
 * until time_budget is spent and at least 10 samples exist, at most 10000, but never past timeout / 2 seconds,
 * so a slow kernel may report fewer than 10 samples), checked against its
 * reference (`check`) when it declares a compatible one, and its traffic measured with hardware counters when
 * perf_event_open works, else with cachegrind (`once` minus `none`, within the time cap of traffic_step.h),
 * else not (traffic_source "unavailable", traffic_why saying why).
 *
 * Limits of every kernel child: the wall clock (timeout; the parent kills the process group), RLIMIT_CPU
 * (timeout + 1 s) and RLIMIT_AS (memory_limit, the same for every kernel whatever it allocates; an allocation
 * past it is "exceeded the memory limit of 11.7 GiB (could not allocate N bytes)"). Kernels get only an
 * allow-listed environment (kc_child_kernel_env) with OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=1, as they are
 * measured single-threaded against the single-thread ceilings (--threads N: N), and TMPDIR in the run's
 * temporary directory; their results come on a private pipe (runner/harness/kcost_driver.h).
 *
 * With sandbox, every kernel child runs in the sandbox of runner/sandbox.h, the run's temporary directory its
 * only writable place; it is probed first, and where it is not available no kernel runs (each function's error
 * says why, with one error diagnostic). m->sandbox records which.
 *
 * Failures of a kernel (compile error, crash, timeout, allocation failure, mismatch with its reference, sizes
 * without values) become m->items[i].error plus a diagnostic appended to `diags` at the function's location;
 * they never fail kc_run. Returns -1 only on an internal error (no temporary directory), with a diagnostic. */
int kc_run(const struct kc_analysis *an, const struct kc_runner_opts *o, struct kc_arena *a, struct kc_measurements *m,
           struct kc_diags *diags);

/* For a function that calls a cblas_* routine on a machine where OpenBLAS's kernels were not its best (the
 * ceilings' blas_note): the warning that says so and which kernels the measurement ran (env_coretype: the
 * environment's OPENBLAS_CORETYPE, which the kernel inherits, or NULL), from a; NULL otherwise. */
const char *kc_runner_blas_note(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *mc,
                                const char *env_coretype);

#endif

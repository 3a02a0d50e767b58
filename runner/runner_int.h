/* runner_int.h — state and helpers shared by runner.c (compile, time, check) and runner_traffic.c (traffic).
 * Private to runner/. */
#ifndef KC_RUNNER_INT_H
#define KC_RUNNER_INT_H

#include <cjson/cJSON.h>
#include <limits.h>

#include "harness.h"
#include "runner.h"

/* OPENBLAS_NUM_THREADS=1, OMP_NUM_THREADS=1: kernels are measured single-threaded. NULL-terminated. */
extern const char *kc_runner_child_env[]; /* set by kc_run: OMP/OpenBLAS thread counts */

/* Everything one kc_run shares. */
struct kc_run_state {
	const struct kc_analysis *an;
	const struct kc_runner_opts *o;
	struct kc_arena *a;
	struct kc_measurements *m;
	struct kc_diags *diags;
	const char *cc, *cflags;
	double budget, timeout;
	char tmpdir[4096];
	int blas;                   /* -1 not probed yet, 0 OpenBLAS does not link, 1 it does */
	int counters;               /* perf_event_open works */
	char counters_why[256];
	char valgrind[4096];        /* empty when valgrind is not installed */
	const char *valgrind_version;
	int no_avx512_for_valgrind; /* the CPU has AVX-512, which valgrind 3.19 cannot run */
	int done, total;            /* functions run so far, to run in all (for progress) */
};

/* One input file's harness. */
struct kc_file_run {
	const char *path;      /* as the analysis spells it */
	char dir[4200];        /* its directory under tmpdir */
	char abs[PATH_MAX];    /* the absolute path harness.c includes */
	const char *compiler;  /* the command that built ./harness */
	int cg_state;          /* the build valgrind runs: 0 not yet, 1 built, -1 failed */
	const char *cg_binary; /* "./harness" or "./harness-cg" */
	const char *cg_note;   /* what is special about that build, or why it failed */
};

/* The native timing of one function, which the traffic measurement needs to budget itself. */
struct kc_timing {
	int ok;               /* timed without error */
	double setup, median; /* seconds: the harness's setup, one call */
};

/* Run ./harness of fr in a child with the kernel limits of p; the parsed JSON line, or NULL with *why set
 * (arena). */
cJSON *kc_runner_harness(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                         const char *const *argv, const char **why);
/* A number of a harness JSON line; the strings "inf", "nan" become those values; absent: 0. */
double kc_runner_json_number(const cJSON *j, const char *name);
/* Build fr->dir/<output> from harness.c (extra_cflag appended to the flags when not NULL). 0, or -1 with *why. */
int kc_runner_build(struct kc_run_state *r, struct kc_file_run *fr, const char *output, const char *extra_cflag,
                    const char **command, const char **why);
void kc_runner_progress(const struct kc_run_state *r, const char *step, int i, int n, const char *what);
/* With --verbose, print "kcost: (cd DIR && COMMAND)" to stderr. */
void kc_runner_show_command(const struct kc_run_state *r, const char *dir, const char *const *argv);

/* Measure the traffic of the n plans of one file whose timing succeeded (t[i].ok): hardware counters when they
 * work, else cachegrind (the runs of a file go in parallel, one per core), else "unavailable" with why. */
void kc_runner_traffic(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *plans,
                       const struct kc_timing *t, struct kc_measurement *const *items, int n);

#endif

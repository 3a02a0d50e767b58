/* dynamic.h — the dynamic ground truth of kcost's counts: analyze a C file with kcost's analyzer, then execute
 * every function kcost marks exact and count the floating-point operations and transcendental calls it really
 * performs, and classify each reported function by how the two compare.
 *
 * The counting does not use kcost's front end: the file, inside kcost's own harness (which allocates and
 * initializes the buffers at the benchmark sizes), is compiled by clang to LLVM IR at -O0 with floating-point
 * contraction off, so each source operation is one IR instruction (`fadd`, `fsub`, `fmul`, `fdiv` with its type;
 * `fneg` is not counted, as in the convention; `fma` calls are one fma). A call to a counter is inserted after
 * each such instruction and before each call of a transcendental kcost counts (analyzer/libcalls.c's list, in
 * its plain, f and l forms, as a libm call or an llvm intrinsic), in the functions kcost analyzed only (not in
 * KCOST_INIT initializers nor in the harness), and the program runs each function once. */
#ifndef KC_TEST_DYNAMIC_H
#define KC_TEST_DYNAMIC_H

#include "analysis.h"
#include "analyzer.h"

/* How one reported function fares. */
enum kc_gt_class {
	KC_GT_EXACT_RIGHT, /* kcost says exact, and every count equals the execution's */
	KC_GT_EXACT_WRONG, /* kcost says exact, and a count differs (detail: both figures) */
	KC_GT_FLAGGED,     /* kcost says not exact (detail: its first warning) */
	KC_GT_NOT_RUN,     /* exact, but the instrumented harness could not be built or run (detail: why) */
	KC_GT_SKIPPED,     /* counts from a library model (cblas_*): not checked */
	KC_GT_N_CLASSES
};
const char *kc_gt_class_name(enum kc_gt_class c); /* "exact-right", "exact-wrong", "flagged", "not-run", "skipped" */

/* The transcendental names counted (exp, expf, expl, ..., rsqrtl), NULL-terminated, in counter order. */
#define KC_GT_MAX_TRANS 96
const char *const *kc_gt_transcendentals(void);

struct kc_gt_counts {
	long long ops[KC_OP_N][KC_PREC_N]; /* operations by category and precision (an fma is one, in KC_OP_FMA) */
	long long trans[KC_GT_MAX_TRANS];  /* calls, by kc_gt_transcendentals() index */
};

struct kc_gt_result {
	char *file; /* as the function's location spells it */
	unsigned line;
	char *function;
	enum kc_gt_class cls;
	char *detail; /* one line */
	char *sizes;  /* "n=20 m=30": the sizes the counts were evaluated and run at ("" for none) */
	int counted;  /* executed and expected are set (exact-right, exact-wrong) */
	struct kc_gt_counts executed, expected;
};

struct kc_gt_opts {
	const char *const *flags; /* compiler flags, for the analysis and the IR compile alike (-D, -I, -std=) */
	int n_flags;
	const struct kc_size_override *sizes; /* --size overrides; none: KCOST_SIZES or the file's call sites */
	int n_sizes;
	const struct kc_extent_override *extents; /* --extent overrides (gathers' tables) */
	int n_extents;
	const char *base_dir;    /* relative file and include paths are relative to it; NULL: the current directory */
	const char *work_dir;    /* scratch directory for the harnesses (created; its files overwritten) */
	const char *clang;       /* NULL: "clang-19" */
	const char *include_dir; /* the directory of kcost.h (annotations/), or NULL */
	const char *function_regex; /* only these functions (POSIX extended regex), or NULL */
	int timeout;                /* seconds one instrumented run may take; 0: 300 */
};

struct kc_gt_file {
	struct kc_gt_result *results; /* one per reported function, in the analysis's order */
	int n;
	char *error; /* non-NULL: the file could not be analyzed at all (results is then empty) */
};

/* Check one file. Returns 0, or -1 when the checker itself failed (out->error says why). Release with
 * kc_gt_file_release. Not thread-safe (kc_analyze's constraints apply). */
int kc_gt_check_file(const char *file, const struct kc_gt_opts *o, struct kc_gt_file *out);
void kc_gt_file_release(struct kc_gt_file *f);

#endif

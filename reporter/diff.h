/* diff.h — `kcost diff BASE.json HEAD.json`: two runs turned into a review comment.
 *
 * Functions are matched by (file, name). For each function present in both, the symbolic FLOP and byte
 * formulas are compared (they are deterministic: any change is real), as are the predicted intensities,
 * and — when both runs measured it — the median time, with a noise-aware verdict: a change counts only
 * when |log(head / base)| exceeds both log(1 + threshold) and twice the runs' combined spread of log(time),
 * sqrt(s_base^2 + s_head^2) with s = sqrt(log(1 + cv^2)). In log space a speed-up and a slow-down by the same
 * factor are judged alike.
 *
 * The reports are untrusted input (a pull request can change what produced them): every function is
 * looked up by name in a hash index (linear in the number of functions); a value of the wrong type or out
 * of range (a negative, zero or infinite time, a negative count or CV) is a problem naming the report and
 * the function, whose verdict becomes "invalid" while the other functions are compared; every name and
 * formula is escaped for the output format. */
#ifndef KC_DIFF_H
#define KC_DIFF_H

#include "buf.h"

struct cJSON;

enum kc_diff_format { KC_DIFF_MD, KC_DIFF_TEXT, KC_DIFF_JSON, KC_DIFF_SARIF };

struct kc_diff_opts {
	double threshold; /* relative change that counts, e.g. 0.05 */
	double fail_on;   /* > 0: a regression beyond this fraction makes kc_diff_regressed() true */
	enum kc_diff_format format;
	const char *names[2]; /* how problems name BASE and HEAD (their paths); NULL: "BASE", "HEAD" */
	const char *version;  /* kcost's, for KC_DIFF_SARIF's tool; NULL: "unknown" */
};

struct kc_diff;

/* 0 when doc is a kcost report this kcost reads: an object with "schema" 1 and a "functions" array. Else -1 with
 * err set, naming it by `which`: "WHICH is not a kcost report: no \"functions\" array", "WHICH has schema 2; this
 * kcost reads schema 1". (`kcost merge` checks its inputs with it too.) */
int kc_diff_check_report(const struct cJSON *doc, const char *which, char *err, size_t err_size);

/* Compare two parsed reports. NULL with *err set ("BASE is not a kcost report: no \"functions\" array",
 * "HEAD has schema 2; this kcost reads schema 1") when either is not a schema-1 kcost report, or ("out of
 * memory") when the comparison cannot be allocated. Problems inside the functions do not fail it: see
 * kc_diff_errors. */
struct kc_diff *kc_diff_compare(const struct cJSON *base, const struct cJSON *head, const struct kc_diff_opts *o,
                                char *err, size_t err_size);

/* The comparison in the chosen format, appended to b: the changed functions, regressions first, then
 * improvements, then the other changes, then one line counting the unchanged. In Markdown at most about
 * KC_DIFF_MD_MAX bytes of rows (GitHub's comments hold 65,536 characters); the rest are counted.
 * KC_DIFF_SARIF: a SARIF 2.1.0 log (reporter/sarif.h) with one result per function of both reports that
 * regressed (as kc_diff_regressed judges, with any increase counting when it is within opts->fail_on or there
 * is none): level "error" beyond opts->fail_on, else "warning", at the function's file and line in HEAD (its
 * "line"; no region when that is not a positive integer). Improvements, added, removed and invalid functions
 * are no results. -1 (nothing appended) when the log could not be allocated, else 0. */
#define KC_DIFF_MD_MAX 40000
/* Both reports with this many slices (measured.seconds.slices: one harness process each) or more are compared
 * slice by slice; else sample by sample (measured.seconds.samples) */
#define KC_DIFF_MIN_SLICES 5
int kc_diff_render(const struct kc_diff *d, struct kc_buf *b);
/* kc_diff_render in another format than the comparison's options named: one comparison, several renderings (kcost
 * --baseline writes the comment and the terminal's text). */
int kc_diff_render_as(const struct kc_diff *d, enum kc_diff_format format, struct kc_buf *b);

/* 1 when some function regressed beyond opts->fail_on (slower beyond the noise, or more predicted bytes
 * or FLOPs), else 0. */
int kc_diff_regressed(const struct kc_diff *d);

/* The number of errors found in the reports' functions (impossible values, entries without a name): the
 * comparison of the others is complete, but the input was wrong. */
int kc_diff_errors(const struct kc_diff *d);

/* The problems found, one line each, in the order found: "kcost diff: error: HEAD.json: function 'f' (k.c):
 * measured.seconds.median is -0.01: a time must be positive and finite", escaped for a terminal. Warnings
 * ("listed twice") do not count as errors. */
void kc_diff_render_problems(const struct kc_diff *d, struct kc_buf *b);

/* One function's comparison, as kc_diff_compare found it. Strings point into the parsed documents or are
 * static. */
struct kc_diff_function {
	const char *file, *name;
	const char *change;  /* "same", "added", "removed", "changed" */
	const char *verdict; /* "slower", "faster", "unchanged", "inconclusive" (the test of model/compare.h),
	                      * "no significant change" (without samples), "not measured", "invalid", or NULL (one
	                      * side only) */
	int tested;          /* the verdict is the test's: ci_low, ci_high, p_value and the counts are set */
	double ratio;        /* head / base median time; NAN when not both measured */
	double ci_low, ci_high, p_value;
	int n_base, n_head;
	double base_median;         /* NAN when the base was not measured */
	double instructions_change; /* head / base - 1 of the instructions a call executes; NAN when not counted on
	                             * both sides or within 0.1% */
	int regressed;              /* beyond --fail-on-regression */
	const char *invalid;        /* an impossible value, or NULL */
};

/* The number of functions compared, and function i of them (0 <= i < kc_diff_count). */
int kc_diff_count(const struct kc_diff *d);
void kc_diff_function(const struct kc_diff *d, int i, struct kc_diff_function *out);

/* Free the comparison; its strings point into the parsed documents, which stay the caller's. NULL is ignored. */
void kc_diff_free(struct kc_diff *d);

#endif

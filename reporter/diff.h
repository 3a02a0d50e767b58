/* diff.h — `kcost diff BASE.json HEAD.json`: two runs turned into a review comment.
 *
 * Functions are matched by (file, name). For each function present in both, the symbolic FLOP and byte
 * formulas are compared (they are deterministic: any change is real), as are the predicted intensities,
 * and — when both runs measured it — the median time, with a noise-aware verdict: a change counts only
 * when it exceeds both the relative threshold and twice the runs' combined spread,
 * sqrt(cv_base^2 + cv_head^2). */
#ifndef KC_DIFF_H
#define KC_DIFF_H

#include "buf.h"

struct cJSON;

enum kc_diff_format { KC_DIFF_MD, KC_DIFF_TEXT, KC_DIFF_JSON };

struct kc_diff_opts {
	double threshold; /* relative change that counts, e.g. 0.05 */
	double fail_on;   /* > 0: a regression beyond this fraction makes kc_diff_regressed() true */
	enum kc_diff_format format;
};

struct kc_diff;

/* Compare two parsed reports. NULL with *err set ("BASE is not a kcost report: no \"functions\" array",
 * "HEAD has schema 2; this kcost reads schema 1") when either is not a schema-1 kcost report. */
struct kc_diff *kc_diff_compare(const struct cJSON *base, const struct cJSON *head, const struct kc_diff_opts *o,
                                char *err, size_t err_size);

/* The comparison in the chosen format, appended to b. */
void kc_diff_render(const struct kc_diff *d, struct kc_buf *b);

/* 1 when some function regressed beyond opts->fail_on (slower beyond the noise, or more predicted bytes
 * or FLOPs), else 0. */
int kc_diff_regressed(const struct kc_diff *d);

/* Free the comparison; its strings point into the parsed documents, which stay the caller's. NULL is ignored. */
void kc_diff_free(struct kc_diff *d);

#endif

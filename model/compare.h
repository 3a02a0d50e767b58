/* compare.h — is the head slower than the base? The verdict of two sets of timing samples.
 *
 * The samples of each side are independent runs (kcost --baseline: the median of each of the alternating
 * slices, A B A B, so that drift and neighbours hit both alike; kcost diff: each report's timed samples). The
 * ratio is the ratio of the medians, head / base. Its 95% confidence interval is Hodges–Lehmann's on the log
 * times: of the n·m differences log(head_i) − log(base_j), sorted, D(k) and D(nm + 1 − k) (1-based), where
 * k = ⌊nm/2 − 1.96·√(nm(n + m + 1)/12)⌋, at least 1 (the normal approximation of the Mann–Whitney
 * distribution, whose test the interval inverts). p is the two-sided Mann–Whitney U test's, normal
 * approximation with the tie correction and a continuity correction of 1/2.
 *
 * With the threshold t (0.05 for 5%): "slower" when the interval's low end exceeds 1 + t and p < 0.01, "faster"
 * when its high end is below 1 / (1 + t) and p < 0.01 (a 2x slow-down and a 2x speed-up mirror each other),
 * "unchanged" when the whole interval lies within [1 / (1 + t), 1 + t] and each side has 4 samples or more;
 * otherwise "inconclusive": the spread cannot rule out a change beyond the threshold, nor show one. */
#ifndef KC_COMPARE_H
#define KC_COMPARE_H

#define KC_COMPARE_ALPHA 0.01 /* the p a "slower" or "faster" needs */
/* Each side's samples beyond this many are thinned to every k-th (in the order given) for the ratio, the interval and
 * the test, which cost n·m log(n·m): 1,000 functions of 1,000 samples a side would take minutes, of 200 seconds */
#define KC_COMPARE_MAX_SAMPLES 200

enum kc_verdict { KC_VERDICT_UNCHANGED, KC_VERDICT_SLOWER, KC_VERDICT_FASTER, KC_VERDICT_INCONCLUSIVE };

struct kc_comparison {
	enum kc_verdict verdict;
	double ratio;           /* median(head) / median(base) */
	double ci_low, ci_high; /* its 95% interval */
	double p_value;         /* two-sided Mann–Whitney */
	int n_base, n_head;     /* the samples compared (after thinning) */
};

/* "unchanged", "slower", "faster", "inconclusive" */
const char *kc_verdict_name(enum kc_verdict v);

/* Compare n_head samples of the head with n_base of the base (seconds, each > 0 and finite; neither array is
 * modified), with threshold t >= 0. 0, or -1 when a side has fewer than 2 samples, a sample is not positive and
 * finite, or memory ran out (*out untouched). */
int kc_compare(const double *base, int n_base, const double *head, int n_head, double t, struct kc_comparison *out);

/* The verdict of a comparison's figures for threshold t (kc_compare's rule): what kc_compare sets. */
enum kc_verdict kc_compare_verdict(double ci_low, double ci_high, double p_value, double t);

#endif

/* compare.c — the verdict of two sets of timing samples (compare.h). */
#include "compare.h"

#include <math.h>
#include <stdlib.h>

const char *kc_verdict_name(enum kc_verdict v)
{
	switch (v) {
	case KC_VERDICT_SLOWER:
		return "slower";
	case KC_VERDICT_FASTER:
		return "faster";
	case KC_VERDICT_INCONCLUSIVE:
		return "inconclusive";
	case KC_VERDICT_UNCHANGED:
		break;
	}
	return "unchanged";
}

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* The median of the values whose logs are v[0 .. n-1], sorted. */
static double median_of_logs(const double *v, int n)
{
	return n % 2 ? exp(v[n / 2]) : 0.5 * (exp(v[n / 2 - 1]) + exp(v[n / 2]));
}

enum kc_verdict kc_compare_verdict(double ci_low, double ci_high, double p_value, double t)
{
	double up = 1 + t, down = 1 / (1 + t);
	if (ci_low > up && p_value < KC_COMPARE_ALPHA)
		return KC_VERDICT_SLOWER;
	if (ci_high < down && p_value < KC_COMPARE_ALPHA)
		return KC_VERDICT_FASTER;
	if (ci_low >= down && ci_high <= up)
		return KC_VERDICT_UNCHANGED;
	return KC_VERDICT_INCONCLUSIVE;
}

/* Two-sided p of the Mann–Whitney U of head over base: the pooled values with their side, sorted, ranked with
 * ties averaged. */
static double mann_whitney(const double *lb, int n, const double *lh, int m)
{
	int total = n + m;
	struct item {
		double v;
		int head;
	} *x = malloc(sizeof *x * (size_t)total);
	if (!x)
		return NAN;
	for (int i = 0; i < n; i++)
		x[i] = (struct item){lb[i], 0};
	for (int j = 0; j < m; j++)
		x[n + j] = (struct item){lh[j], 1};
	qsort(x, (size_t)total, sizeof *x, by_value); /* v is the first member: by_value compares it */
	double rank_sum = 0, ties = 0;
	for (int i = 0; i < total;) {
		int j = i;
		while (j < total && x[j].v == x[i].v)
			j++;
		double rank = 0.5 * (i + 1 + j); /* the mean of ranks i+1 .. j */
		for (int k = i; k < j; k++)
			rank_sum += x[k].head ? rank : 0;
		double tn = j - i;
		ties += tn * tn * tn - tn;
		i = j;
	}
	free(x);
	double nm = (double)n * m, u = rank_sum - (double)m * (m + 1) / 2, mean = nm / 2;
	double var = nm / 12 * ((total + 1) - ties / ((double)total * (total - 1)));
	if (var <= 0)
		return 1; /* every value equal */
	double z = (fabs(u - mean) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : erfc(z / sqrt(2));
}

/* The logs of every k-th of v[0 .. n-1] (in order), at most KC_COMPARE_MAX_SAMPLES of them, into out; their
 * count. */
static int thinned_logs(const double *v, int n, double *out)
{
	int keep = n < KC_COMPARE_MAX_SAMPLES ? n : KC_COMPARE_MAX_SAMPLES;
	for (int q = 0; q < keep; q++)
		out[q] = log(v[(long long)q * n / keep]);
	return keep;
}

int kc_compare(const double *base, int n_base, const double *head, int n_head, double t, struct kc_comparison *out)
{
	if (n_base < 2 || n_head < 2 || !(t >= 0))
		return -1;
	for (int i = 0; i < n_base; i++)
		if (!(base[i] > 0) || !isfinite(base[i]))
			return -1;
	for (int i = 0; i < n_head; i++)
		if (!(head[i] > 0) || !isfinite(head[i]))
			return -1;
	int taken_base = n_base, taken_head = n_head;
	n_base = n_base < KC_COMPARE_MAX_SAMPLES ? n_base : KC_COMPARE_MAX_SAMPLES;
	n_head = n_head < KC_COMPARE_MAX_SAMPLES ? n_head : KC_COMPARE_MAX_SAMPLES;
	size_t nm = (size_t)n_base * (size_t)n_head;
	double *lb = malloc(sizeof *lb * (size_t)n_base), *lh = malloc(sizeof *lh * (size_t)n_head),
	       *d = malloc(sizeof *d * nm);
	int rc = -1;
	if (!lb || !lh || !d)
		goto done;
	thinned_logs(base, taken_base, lb);
	thinned_logs(head, taken_head, lh);
	for (int j = 0; j < n_head; j++)
		for (int i = 0; i < n_base; i++)
			d[(size_t)j * (size_t)n_base + (size_t)i] = lh[j] - lb[i];
	qsort(d, nm, sizeof *d, by_value);
	double sd = sqrt((double)nm * (n_base + n_head + 1) / 12);
	double kk = floor((double)nm / 2 - 1.959963984540054 * sd);
	size_t k = kk < 1 ? 1 : (size_t)kk;
	double p = mann_whitney(lb, n_base, lh, n_head);
	if (isnan(p))
		goto done;
	qsort(lb, (size_t)n_base, sizeof *lb, by_value);
	qsort(lh, (size_t)n_head, sizeof *lh, by_value);
	struct kc_comparison c = {.n_base = n_base, .n_head = n_head, .p_value = p};
	c.ratio = median_of_logs(lh, n_head) / median_of_logs(lb, n_base);
	c.ci_low = exp(d[k - 1]);
	c.ci_high = exp(d[nm - k]);
	c.verdict = kc_compare_verdict(c.ci_low, c.ci_high, p, t);
	/* below 4 a side, the interval's order statistics cover less than 95% (about 67% at 2, 90% at 3): too few
	 * to call anything unchanged */
	if (c.verdict == KC_VERDICT_UNCHANGED && (n_base < 4 || n_head < 4))
		c.verdict = KC_VERDICT_INCONCLUSIVE;
	*out = c;
	rc = 0;
done:
	free(lb), free(lh), free(d);
	return rc;
}

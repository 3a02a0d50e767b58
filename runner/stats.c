/* stats.c — min/median/p90/CV of timing samples. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

int kc_stats_compute(const double *samples, int n, struct kc_stats *out)
{
	if (n < 1)
		return -1;
	double *s = malloc(sizeof *s * (size_t)n);
	if (!s)
		return -1;
	memcpy(s, samples, sizeof *s * (size_t)n);
	qsort(s, (size_t)n, sizeof *s, cmp_double);
	double sum = 0, sq = 0;
	for (int i = 0; i < n; i++)
		sum += s[i];
	double mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (s[i] - mean) * (s[i] - mean);
	int rank = (9 * n + 9) / 10; /* ceil(0.9 n) in integers: the nearest rank, 1-based */
	out->n = n;
	out->min = s[0];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	out->p90 = s[rank - 1];
	out->mean = mean;
	out->cv = mean != 0 ? sqrt(sq / n) / mean : 0;
	free(s);
	return 0;
}

int kc_series_push(struct kc_series *s, double x)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		double *v = realloc(s->v, sizeof *v * (size_t)cap);
		if (!v)
			return -1;
		s->v = v, s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

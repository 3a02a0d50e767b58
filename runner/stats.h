/* stats.h — summary statistics of timing samples. */
#ifndef KC_STATS_H
#define KC_STATS_H

struct kc_stats {
	int n;
	double min, median, p90, mean;
	double cv; /* coefficient of variation: population standard deviation / mean; 0 when the mean is 0 */
};

/* Summarize n >= 1 samples (the array is not modified). The median of an even count is the mean of the two
 * middle values; p90 is the nearest-rank 90th percentile, the ceil(0.9 n)-th smallest sample. Returns 0, or -1
 * when n < 1 or memory for a sorted copy cannot be had (*out untouched). */
int kc_stats_compute(const double *samples, int n, struct kc_stats *out);

/* A growing list of figures, one a sample (seconds of a timed call, per call of a libm sweep, ...). */
struct kc_series {
	double *v;
	int n, cap;
};

/* Append x; 0, or -1 when memory ran out (x dropped: one figure fewer, none wrong). */
int kc_series_push(struct kc_series *s, double x);

#endif

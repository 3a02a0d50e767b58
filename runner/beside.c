/* beside.c — the ceilings sampled beside the kernels' timings (beside.h). A machine shared with other
 * tenants moves bytes at one rate for a while and at another the next (the L2 copy kernel's median batch went
 * from 185 to 160 GB/s within two minutes here); ceilings measured once, before the kernels or from the cache,
 * price the kernels' bytes at another moment's rate. Sampled between the kernels' slices, they sample the same
 * stretch of the run as the kernels' own calls (runner.c's rounds). The libm functions are not sampled here but
 * in the kernels' own processes (kcost_driver.c): there a kernel's expf ran at its sweeps' 1.5 ns a call, where
 * sweeps right after its slices, in kcost's process, took 2.6 ns at their median. */
#include "beside.h"

#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"
#include "ceilings.h"
#include "peak.h"
#include "stats.h"

struct kc_beside {
	struct kc_bandwidth_run *run[KC_LEVEL_N];
	int level_samples[KC_LEVEL_N];          /* kc_beside_sample calls since the level's run started */
	long long used;                         /* bytes of the runs' arrays */
	int chain[KC_CHAIN_N][2];               /* the chains m measured, [chain][double] */
	struct kc_series chains[KC_CHAIN_N][2]; /* their runs */
	int samples;                            /* kc_beside_sample calls */
};

/* Operations a run of each chain (about 0.25 ms each on a Zen 5) */
static const long chain_iters[KC_CHAIN_N] = {1L << 19, 1L << 17};

/* m's ceiling of chain c in precision d (its best run), and where the median of the runs beside goes */
static double chain_best(const struct kc_machine *m, int c, int d)
{
	return c == KC_CHAIN_ADD ? m->latency_add[d] : m->latency_max[d];
}
static double *chain_median(struct kc_machine *m, int c, int d)
{
	return c == KC_CHAIN_ADD ? &m->latency_add_median[d] : &m->latency_max_median[d];
}

/* The working set a level is sampled with beside the kernels within `room` bytes of arrays (three of half the
 * working set each: kc_bandwidth_start's), or 0: the ceilings' own, or for DRAM as much of it as fits when that
 * is still twice the largest cache (a sweep of it from memory misses every cache); nothing for another level. */
static long long fitting_ws(const struct kc_machine *m, int level, long long ws, long long room)
{
	if (3 * (ws / 2) <= room)
		return ws;
	long long largest = m->cache_bytes[2] > m->cache_bytes[1] ? m->cache_bytes[2] : m->cache_bytes[1];
	long long fits = room / 3 * 2 / (1 << 20) * (1 << 20);
	return level == KC_LEVEL_DRAM && largest > 0 && fits >= 2 * largest ? fits : 0;
}

void kc_beside_grow(struct kc_beside *b, const struct kc_machine *m, long long max_bytes)
{
	if (!b)
		return;
	long long ws[KC_LEVEL_N];
	kc_ceilings_working_sets(m->cache_bytes, ws);
	/* not L1: for 10-20 ms after another process ran on its core the L1 copy kernel ran at 75% of its speed
	 * (313 against 420 GB/s, pinned to one CPU; load and triad did not slow), a state a few ms of samples after
	 * each harness would mostly catch and the kernels' own slices, tens of ms of calls each, mostly do not; L1
	 * keeps the ceilings' medians, measured without a pause. L2 and beyond showed no such state. */
	for (int l = KC_LEVEL_L2; l < KC_LEVEL_N; l++) {
		if (b->run[l] || ws[l] <= 0 || m->bandwidth[l].value <= 0 || m->stream[l][KC_STREAM_LOAD] <= 0)
			continue;
		long long w = fitting_ws(m, l, ws[l], max_bytes - b->used);
		if (w > 0 && (b->run[l] = kc_bandwidth_start(w)) != NULL)
			b->used += 3 * (w / 2);
	}
}

struct kc_beside *kc_beside_start(const struct kc_machine *m, long long max_bytes)
{
	if (!m || m->hypothetical || m->from_file)
		return NULL;
	struct kc_beside *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	int any = 0;
	for (int c = 0; c < KC_CHAIN_N; c++)
		for (int d = 0; d < 2; d++)
			any |= b->chain[c][d] = chain_best(m, c, d) > 0;
	kc_beside_grow(b, m, max_bytes);
	for (int l = 0; l < KC_LEVEL_N; l++)
		any |= b->run[l] != NULL;
	if (!any) {
		free(b);
		return NULL;
	}
	return b;
}

/* One run of each chain. */
static void sample_chains(struct kc_beside *b)
{
	for (int c = 0; c < KC_CHAIN_N; c++)
		for (int d = 0; d < 2; d++)
			if (b->chain[c][d])
				kc_series_push(&b->chains[c][d],
				               kc_peak_chain_seconds((enum kc_chain)c, d, chain_iters[c]));
}

void kc_beside_sample(struct kc_beside *b)
{
	if (!b)
		return;
	b->samples++;
	sample_chains(b);
	for (int l = 0; l < KC_LEVEL_N; l++)
		if (b->run[l]) {
			kc_bandwidth_more(b->run[l], KC_BESIDE_WARM_SECONDS, KC_BESIDE_SECONDS, 1);
			b->level_samples[l]++;
		}
}

/* The chains' runs: their medians, with enough of them, all or none (one statistic for every chain). */
static void finish_chains(struct kc_beside *b, struct kc_machine *m)
{
	double median[KC_CHAIN_N][2] = {{0}};
	int all = 1, runs = 0;
	for (int c = 0; c < KC_CHAIN_N; c++)
		for (int d = 0; d < 2; d++) {
			struct kc_series *s = &b->chains[c][d];
			struct kc_stats st;
			if (b->chain[c][d] && all) {
				all = s->n >= KC_BESIDE_MIN_SAMPLES && kc_stats_compute(s->v, s->n, &st) == 0;
				median[c][d] = all ? st.median : 0;
				runs = runs && runs < s->n ? runs : s->n;
			}
			free(s->v);
		}
	if (!all || !runs)
		return;
	for (int c = 0; c < KC_CHAIN_N; c++)
		for (int d = 0; d < 2; d++)
			*chain_median(m, c, d) = median[c][d];
	m->latency_beside_runs = runs;
}

int kc_beside_finish(struct kc_beside *b, struct kc_arena *a, struct kc_machine *m)
{
	int samples = b ? b->samples : 0;
	for (int l = 0; b && l < KC_LEVEL_N; l++) {
		if (!b->run[l])
			continue;
		struct kc_bandwidth bw;
		kc_bandwidth_finish(b->run[l], &bw);
		if (b->level_samples[l] < KC_BESIDE_MIN_SAMPLES) /* batches of one moment, however many */
			continue;
		const char *raised = "";
		for (int k = 0; k < KC_STREAM_N; k++) {
			m->stream_median[l][k] = bw.median[k];
			if (bw.gbps[k] > m->stream[l][k])
				m->stream[l][k] = bw.gbps[k],
				raised = "; a batch beside them beat a kernel's best, which is "
				         "raised to it";
		}
		int kernel =
		    m->stream[l][KC_STREAM_TRIAD] >= m->stream[l][KC_STREAM_COPY] ? KC_STREAM_TRIAD : KC_STREAM_COPY;
		struct kc_ceiling *c = &m->bandwidth[l];
		m->bandwidth_median[l] = bw.median[kernel];
		const char *roof = "";
		if (m->stream[l][kernel] > c->value)
			c->value = m->stream[l][kernel],
			roof = kc_arena_printf(a, "; the roof is now %s's %.1f GB/s",
			                       kc_stream_name((enum kc_stream)kernel), c->value);
		m->beside_batches[l] = bw.batches;
		c->method = kc_arena_printf(
		    a,
		    "%s; beside the kernels' timings: %d batches of each kernel, median %.1f GB/s "
		    "(load %.1f, copy %.1f, triad %.1f, update %.1f GB/s)%s%s",
		    c->method ? c->method : "", bw.batches, bw.median[kernel], bw.median[KC_STREAM_LOAD],
		    bw.median[KC_STREAM_COPY], bw.median[KC_STREAM_TRIAD], bw.median[KC_STREAM_UPDATE], raised, roof);
	}
	if (b)
		finish_chains(b, m);
	free(b);
	return samples;
}

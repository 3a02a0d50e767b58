/* bandwidth.h — STREAM-like bandwidth kernels for the memory-level ceilings. */
#ifndef KC_BANDWIDTH_H
#define KC_BANDWIDTH_H

#include <stddef.h>

#include "machine.h"

struct kc_bandwidth {
	double gbps[KC_STREAM_N];   /* each kernel's best, GB/s (STREAM's counting) */
	double median[KC_STREAM_N]; /* each kernel's median batch, GB/s */
	double gbytes_per_s;        /* the better of triad and copy, 1e9 bytes/s */
	double gbytes_median;       /* that kernel's median batch */
	const char *kernel;         /* "triad" or "copy", whichever gave gbytes_per_s */
	double triad, copy;         /* each kernel's best, GB/s */
	int batches;                /* timed batches of each kernel */
	long long passes;           /* kernel passes per batch */
};

/* Single-thread bandwidth over a working set of `bytes` (>= 3 KiB) of doubles: triad a[i] = b[i] + s·c[i] over
 * three arrays of bytes/24 elements, counted as 24 bytes per element; over two arrays of bytes/16: copy
 * a[i] = b[i], counted as 16, update a[i] += b[i], as 24, and load (a vectorized sum of b), as 8 (STREAM's
 * counting: write-allocate traffic is not counted). kc_bandwidth_start allocates the arrays and runs each kernel
 * once untimed to fault the pages in (NULL when they cannot be allocated). Each kc_bandwidth_more runs each kernel
 * once untimed to warm up and then, unless a batch is a single pass (a working set beyond the caches), in turns
 * for `warm` seconds more, then the four take turns, a batch of `passes` passes each (enough for a batch
 * to move about 16 MiB), until 4 × `seconds` are spent and each ran at least `min_batches` more batches (at most 16,384
 * in all); calls for several working sets, one after another in rounds, spread each one's batches over the whole
 * measurement. kc_bandwidth_finish frees the run and gives each kernel's fastest batch, and its median batch (what
 * a kernel timed by its median call, on a machine shared with other tenants, is predicted at; taking turns, the
 * kernels' medians sample the same moments). The kernels are compiled for the best of AVX-512, AVX2 and baseline
 * x86-64 the CPU supports (dispatched at run time), so the L1 figure is not limited by kcost's own compile flags. */
struct kc_bandwidth_run;
struct kc_bandwidth_run *kc_bandwidth_start(long long bytes);
void kc_bandwidth_more(struct kc_bandwidth_run *r, double warm, double seconds, int min_batches);
void kc_bandwidth_finish(struct kc_bandwidth_run *r, struct kc_bandwidth *out);

/* Column stores: what a store down a column costs. Beyond L1, one that misses every cache above the level its
 * line comes from, because the column conflicts in their sets (kc_nest.column_stores). The walk is a
 * transpose's: a row of one array loaded and stored down a column of another whose rows are 4 KiB apart (a row a
 * page, so every line of the column takes the same line slot of its page, and a 64th of every cache's sets),
 * for 64 columns one after another; the stores through a volatile pointer (a store at a time, in that order).
 * kc_column_rows picks the rows for each level: 4 times the rows the level above keeps (a 64th of its lines),
 * where this level keeps them within half of what it has for them (rows[l] 0: not measured), and for DRAM
 * twice the rows the largest cache keeps (64 MiB to 1 GiB of rows). L1's walk is a column that L1 keeps, without
 * conflicts (rows a page, a line and a float apart, a 16th of L1's lines): a strided store that hits L1, with its load
 * (kc_machine's column_store[L1]). kc_column_measure maps each level's arrays (the column's in 4 KiB pages, as the
 * kernels' buffers have: physical pages wherever they fall), faults them in, and times the levels in turns, batches of
 * about half a millisecond, until each had a fifth of `seconds` (DRAM two fifths; 3 batches at least). out: per
 * level the fastest and the median batch, seconds per store. -1 when no level could be measured. */
struct kc_column {
	double best[KC_LEVEL_N], median[KC_LEVEL_N]; /* seconds per store; 0: not measured */
	long long rows[KC_LEVEL_N];
	int batches[KC_LEVEL_N];
};
void kc_column_rows(const long long cache[3], long long rows[KC_LEVEL_N]);
int kc_column_measure(const long long rows[KC_LEVEL_N], double seconds, struct kc_column *out);

#endif

/* cachegrind.h — measured memory traffic from a cachegrind simulation: parsing its output, configuring it. */
#ifndef KC_CACHEGRIND_H
#define KC_CACHEGRIND_H

#include <stddef.h>

#include "arena.h"

/* What one cachegrind.out file says: the simulated caches (from its "desc:" lines) and the whole-program data
 * counts (from its "summary:" line, matched to the names of its "events:" line). Counts absent from the file
 * are 0. */
struct kc_cachegrind {
	long long d1_size, ll_size; /* bytes */
	int d1_line, ll_line;       /* bytes */
	int d1_assoc, ll_assoc;     /* ways; 0 when fully associative or not given */
	long long ir, dr, dw;       /* instructions, data reads, data writes */
	long long d1mr, d1mw;       /* first-level data read / write misses */
	long long dlmr, dlmw;       /* last-level data read / write misses */
};

/* Parse the text of a cachegrind.out file (cachegrind --cache-sim=yes). 0, or -1 with *why set ("no summary
 * line", "no events line", "summary has 3 counts for 9 events", "no LL cache description"). */
int kc_cachegrind_parse(const char *text, struct kc_cachegrind *out, const char **why);

/* Traffic into the last level from DRAM: (DLmr + DLmw) × LL line size. Cachegrind counts misses (line fills,
 * write-allocate included), not write-backs of dirty lines. */
double kc_cachegrind_dram_bytes(const struct kc_cachegrind *c);
/* Traffic between the first level and the next: (D1mr + D1mw) × D1 line size. */
double kc_cachegrind_l2_bytes(const struct kc_cachegrind *c);

/* The --LL=size,assoc,line option that simulates a last-level cache of (about) `size` bytes: cachegrind
 * needs a power-of-two number of sets, so size / (assoc × line) is rounded down to one. Writes
 * "--LL=33554432,16,64" to out and the simulated size to *simulated. -1 if the arguments are not positive, the
 * cache is smaller than one set or out (n bytes) cannot hold the option. */
int kc_cachegrind_ll_option(long long size, int assoc, int line, char *out, size_t n, long long *simulated);

/* The command line of one simulation: VALGRIND --tool=cachegrind --cache-sim=yes LL_OPTION
 * --cachegrind-out-file=OUT_FILE followed by the program's argv (NULL-terminated), itself NULL-terminated, from
 * the arena a. */
const char **kc_cachegrind_argv(struct kc_arena *a, const char *valgrind, const char *ll_option, const char *out_file,
                                const char *const *program);

/* Read and parse the cachegrind.out file at path (kc_cachegrind_parse). 0, or -1 with *why (from a): a missing
 * or unreadable file reads as empty ("cannot read PATH: no events line"). */
int kc_cachegrind_read(struct kc_arena *a, const char *path, struct kc_cachegrind *out, const char **why);

#endif

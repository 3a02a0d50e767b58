/* predict.h — the performance model (docs/counting.md, "The performance model"): for each top-level nest of a
 * function, the time each resource needs at the machine's measured ceilings; the largest is the nest's predicted
 * time (resources overlap) and names its bound; their sum is the pessimistic end (no overlap). A function's
 * prediction is the sum over its nests. A pure function of (analysis, machine, what the compiler vectorized).
 *
 * The resources of a nest:
 * - compute: its adds, subtracts and multiplies at the add/multiply peak and its FMAs at the FMA peak of the
 *   instruction set it runs on — the widest the CPU has when the loop was vectorized (or when that is not known,
 *   which the bound then says), scalar when it was not; a division costs KC_PREDICT_DIV_OPS operations;
 * - latency: an accumulator updated in a loop from its own value (s += a[i][j]*x[j] in matvec's inner loop, the
 *   count's kc_nest.chain) waits one dependent add per update, and so does a reduction into a scalar (a nest
 *   that writes no buffer, or leaves a scalar for a later pass) per innermost iteration, unless the loop was
 *   vectorized with flags that let the compiler reorder the sum (without them, gcc "vectorizes" it in order:
 *   the loads, not the chain);
 * - transcendental: each libm call at its measured scalar per-call time;
 * - data: its streaming-model bytes at the bandwidth of the level where the function's working set (the sum of
 *   its buffers' sizes) lives across the repeated calls of the timed loop: the smallest cache holding it within
 *   KC_PREDICT_CACHE_SHARE of its size, else DRAM. */
#ifndef KC_PREDICT_H
#define KC_PREDICT_H

#include "analysis.h"
#include "arena.h"
#include "machine.h"

#define KC_PREDICT_DIV_OPS     4    /* a division costs this many add/multiply slots */
#define KC_PREDICT_CACHE_SHARE 0.75 /* a working set lives in a cache when it fills at most this share of it */
/* an allocation of this many bytes or more is served from fresh pages on every call: glibc maps it (its mmap
 * threshold starts at 128 KiB), or takes it from a heap top that free gives back */
#define KC_PREDICT_FRESH_BYTES (128 * 1024)
/* calls followed into their callees' own predictions at most this deep (a call's nest is then predicted from
 * its counts), */
#define KC_PREDICT_MAX_CALL_DEPTH 8
#define KC_PREDICT_MAX_CALLS      64 /* and at most this many calls followed for one function's prediction */

/* ACCESS: every load and store of the nest at L1's rates (the ports, when the data is at hand). ALLOCATION: the
 * fresh pages of what the function allocates on every call (kc_prediction.seconds_allocation; never a nest's) */
enum kc_resource {
	KC_RES_COMPUTE,
	KC_RES_LATENCY,
	KC_RES_TRANSCENDENTAL,
	KC_RES_DATA,
	KC_RES_ACCESS,
	KC_RES_ALLOCATION,
	KC_RES_N
};

/* "compute", "latency", "transcendental", "memory", "access", "allocation" */
const char *kc_resource_name(enum kc_resource r);

/* What the compiler said it vectorized in one function's file: the source lines of vectorized loops. known 0:
 * no remarks (the compiler's were not read); the loops are then taken as vectorized unless they are
 * reductions, and the bound says "vectorization not known". */
struct kc_vectorized {
	int known;
	const int *lines;
	int n_lines;
	int reassociates; /* the flags let the compiler reorder floating-point sums (-ffast-math, -Ofast,
	                   * -fassociative-math): only then can a vectorized reduction leave its dependent chain */
	int contracts;    /* the compiler contracts a multiply and an add into an FMA (gcc in its GNU modes, the
	                   * default, or with -ffp-contract=fast; clang, unless -ffp-contract=off) */
};

struct kc_nest_prediction {
	int ok;                           /* 0: not predicted (why says why) */
	const char *why;                  /* "a size has no benchmark value", ... */
	double seconds[KC_RES_N];         /* each resource's time; 0 when the nest needs none of it */
	double seconds_max;               /* the prediction: the largest */
	double seconds_sum;               /* no overlap */
	enum kc_resource resource;        /* the one that sets seconds_max */
	const char *bound;                /* named: "AVX2 FMA peak", "L2 bandwidth", "tanhf (scalar libm)", ... */
	enum kc_level level;              /* where its data lives */
	int vectorized;                   /* 1, 0, or -1 when not known */
	double bytes, flops, working_set; /* the figures it used: streaming bytes, FLOPs, the function's working set */
};

struct kc_prediction {
	int ok;
	const char *why;
	double seconds, seconds_no_overlap;
	/* the page faults of the buffers it allocates on every call (KC_PREDICT_FRESH_BYTES and more), added to
	 * seconds (they do not overlap the nests' work) but never its bound, which is what limits its loops; 0 when
	 * there are none or fresh pages were not measured */
	double seconds_allocation;
	enum kc_resource resource; /* of the nest that takes longest */
	const char *bound;
	enum kc_level level;
	struct kc_nest_prediction *nests; /* f->n_nests of them */
	int n_nests;
};

/* Predict f on m (both may lack parts: a missing ceiling makes the nests that need it not ok). v may be NULL
 * (not known). Strings and arrays from a. Returns 0 when every nest was predicted (out->ok), else -1 with
 * out->why. */
int kc_predict(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
               const struct kc_vectorized *v, struct kc_prediction *out);

#endif

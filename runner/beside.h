/* beside.h — the ceilings sampled beside the kernels' timings (bandwidth beyond L1, libm calls, dependent
 * chains), so that a prediction prices bytes, calls and chains at what the machine did at the moments the kernels
 * ran. */
#ifndef KC_BESIDE_H
#define KC_BESIDE_H

#include "analysis.h"
#include "arena.h"
#include "machine.h"

/* Batches of each bandwidth kernel a level needs beside the kernels for its medians to replace the ceilings'. */
#define KC_BESIDE_MIN_BATCHES 3
/* Each sample, per level: the kernels warm up in turns for KC_BESIDE_WARM_SECONDS, then take turns, timed, for
 * 4 x KC_BESIDE_SECONDS (at least one batch each). */
#define KC_BESIDE_WARM_SECONDS 0.001
#define KC_BESIDE_SECONDS      0.0005

/* kc_beside_start allocates the working sets of the ceilings' bandwidth kernels (kc_ceilings_working_sets) for
 * each level beyond L1 that m measured (beside.c says why not L1), unless m is hypothetical or another machine's
 * (NULL then, and when nothing could be allocated; kc_run does not call it when the predictions will use such
 * ceilings: kc_runner_opts.other_ceilings). kc_beside_sample runs, at each level, the four kernels in turns after a
 * warm-up of KC_BESIDE_WARM_SECONDS (a working set beyond the caches: one batch each, no warm-up), one sweep of each
 * libm function an's functions call, and one run of each dependent chain m measured (add, max; each
 * precision): call it right after each slice of a kernel's timing. kc_beside_finish frees them and, for each level with
 * KC_BESIDE_MIN_BATCHES batches or more, makes their medians m's (stream_median[], bandwidth_median[]: what a
 * prediction uses), raises a roof that a batch beside the kernels beat (stream[], bandwidth[]: nothing measured may sit
 * above them), and records the batches (beside_batches[]) and what changed (bandwidth[].method); likewise each libm
 * function's median (and best) sweep, and the chains' medians (latency_*_median[], latency_beside_runs); it returns
 * how many samples were taken. NULL b is allowed everywhere (0 samples). */
struct kc_beside;
struct kc_beside *kc_beside_start(const struct kc_machine *m, const struct kc_analysis *an);
void kc_beside_sample(struct kc_beside *b);
int kc_beside_finish(struct kc_beside *b, struct kc_arena *a, struct kc_machine *m);

#endif

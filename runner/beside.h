/* beside.h — the ceilings sampled beside the kernels' timings (bandwidth beyond L1, dependent chains), so that a
 * prediction prices bytes and chains at what the machine did at the moments the kernels ran (libm calls are
 * sampled in the kernels' own processes: runner/harness/kcost_driver.h). */
#ifndef KC_BESIDE_H
#define KC_BESIDE_H

#include "arena.h"
#include "machine.h"

/* Samples (kc_beside_sample calls) needed for the medians beside the kernels to replace the ceilings'. */
#define KC_BESIDE_MIN_SAMPLES 3
/* Each sample, per level: the kernels warm up in turns for KC_BESIDE_WARM_SECONDS, then take turns, timed, for
 * 4 x KC_BESIDE_SECONDS (at least one batch each). */
#define KC_BESIDE_WARM_SECONDS 0.001
#define KC_BESIDE_SECONDS      0.0005

/* kc_beside_start allocates the working sets of the ceilings' bandwidth kernels (kc_ceilings_working_sets) for
 * each level beyond L1 that m measured (beside.c says why not L1); NULL when m is hypothetical or another
 * machine's, or nothing could be allocated (kc_run starts it at the first sample, and not at all when the
 * predictions will use other ceilings: kc_runner_opts.other_ceilings). Memory: three arrays of 1.5x each level's
 * working set, DRAM's 4x the last-level cache (64 MiB to 1 GiB), held until kc_beside_finish; only the levels from
 * L2 up whose arrays fit together in max_bytes (kc_run: the largest kernel process timed so far, so that
 * kcost's own memory for the samples stays within the run's budget: 1.5 GiB for DRAM on a 480 MiB last level
 * otherwise), DRAM's with a working set cut to what fits when that is still twice the largest cache; a level
 * left out is started by kc_beside_grow when a larger kernel makes room, and one with fewer than
 * KC_BESIDE_MIN_SAMPLES samples keeps the ceilings' medians. kc_beside_sample
 * runs one run of each dependent chain m measured (add, max; each precision), and at each level the four kernels
 * in turns after a pass of each (and, unless a batch is a single pass, KC_BESIDE_WARM_SECONDS of turns): call it
 * right after each slice of a kernel's timing. kc_beside_finish frees them and, with KC_BESIDE_MIN_SAMPLES
 * samples or more, makes their medians m's (stream_median[], bandwidth_median[]: what a prediction uses), raises
 * a roof that a batch beside the kernels beat (stream[], bandwidth[]: nothing measured may sit above them), and
 * records the batches (beside_batches[]) and what changed (bandwidth[].method); likewise the chains' medians
 * (latency_*_median[], latency_beside_runs). It returns how many samples were taken. NULL b is allowed everywhere
 * (0 samples). */
struct kc_beside;
struct kc_beside *kc_beside_start(const struct kc_machine *m, long long max_bytes);
/* Start the levels not sampled yet that fit in max_bytes beside those that are (a larger kernel came). */
void kc_beside_grow(struct kc_beside *b, const struct kc_machine *m, long long max_bytes);
void kc_beside_sample(struct kc_beside *b);
int kc_beside_finish(struct kc_beside *b, struct kc_arena *a, struct kc_machine *m);

#endif

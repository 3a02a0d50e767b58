/* traffic_step.h — the traffic step of a run: the measured memory traffic of one file's kernels, from hardware
 * counters when perf_event_open works, else from a cachegrind simulation, else "unavailable" with why. */
#ifndef KC_TRAFFIC_STEP_H
#define KC_TRAFFIC_STEP_H

#include "runner_int.h"

/* Cache simulation is skipped (traffic "unavailable", with the estimate) when SLOWDOWN × (2 × setup + one
 * call) exceeds CAP seconds: SLOWDOWN is about the least cachegrind slows this harness down (measured: 6-20x
 * for memory-bound kernels, whose native time is largely page faults; 150-1500x for vectorized compute).
 * Each valgrind child also gets CAP seconds of wall clock, after which it is killed and the traffic is
 * "unavailable" ("timed out after 30 s"). */
#define KC_TRAFFIC_CACHEGRIND_SLOWDOWN 20.0
#define KC_TRAFFIC_CACHEGRIND_CAP      30.0

/* The simulations of a run, gathered over its files and run at the end (kc_traffic_step_run). */
struct kc_traffic_batch;
struct kc_traffic_batch *kc_traffic_batch_new(struct kc_run_state *r);

/* Measure the traffic of the n plans of one file whose timing succeeded (t[i].ok): hardware counters when they
 * work (now), else cachegrind (one cold call minus the same setup without it: added to b, run by
 * kc_traffic_step_run), else "unavailable" with why. Writes the traffic fields of items[i]; all storage from
 * r->a. */
void kc_traffic_step_measure(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *plans,
                             const struct kc_timing *t, struct kc_measurement *const *items, int n,
                             struct kc_traffic_batch *b);
/* Run the simulations of b, every file's together (as many at once as the machine has cores, the longest calls
 * first, the cached ones not at all), after every timing of the run, and write their items' traffic. */
void kc_traffic_step_run(struct kc_run_state *r, struct kc_traffic_batch *b);

#endif

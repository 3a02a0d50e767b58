/* passes.h — private to the front end: what runs after a function is lowered (counts, footprints, dataflow),
 * on a second thread when it is worth one. The passes read only the IR, never libclang. */
#ifndef KC_PASSES_H
#define KC_PASSES_H

#include <pthread.h>

#include "ir.h"

/* One function to finish. */
struct kc_pass_job {
	struct kc_fn_ir *ir;
	int sized; /* KCOST_SIZES given: reported even without loops */
};

/* The counter thread. With a second core, it finishes one function while the caller lowers the next. Jobs
 * are done in the order they are queued, which is the order functions finish lowering: a callee before its
 * callers. */
struct kc_passes {
	int running;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct kc_arena *a;       /* where the counts go: the analysis's second arena */
	struct kc_pass_job *jobs; /* [cap]: at most one per function of the file */
	int queued, done, cap;    /* under mu */
	int closing;              /* under mu: no more jobs */
	int sleeping;             /* under mu: the counter waits for jobs */
};

/* Prepare p for a file of n_funcs functions. threads: 0 starts the counter thread for 16+ functions on 2+
 * cores, 1 never, 2 always; the thread's counts go into arena `a`. Without a thread (or when it cannot be
 * started) every job is done at once by kc_passes_submit. */
void kc_passes_start(struct kc_passes *p, int threads, int n_funcs, struct kc_arena *a);

/* Finish job's function: queued to the counter thread when it runs (the return value is then its place in the
 * queue, for kc_passes_wait), else at once in arena `a` (-1). */
int kc_passes_submit(struct kc_passes *p, struct kc_arena *a, const struct kc_pass_job *job);

/* Wait until the job queued at place `job` is finished (-1: it was finished at once). */
void kc_passes_wait(struct kc_passes *p, int job);

/* Let the counter finish every job and stop; p may then be started again. */
void kc_passes_stop(struct kc_passes *p);

#endif

/* passes.c — what runs after lowering: counts, footprints and dataflow of a function, on the counter thread
 * when there is one. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count.h"
#include "dataflow.h"
#include "footprint.h"
#include "passes.h"

/* The counter is woken when this many jobs wait (or when one is needed now): a wake-up per function cost
 * more than counting it. */
#define COUNTER_BATCH 8

static int has_cost(const struct kc_node *n)
{
	if (n->kind == KC_NODE_LOOP || n->call || n->lib_call)
		return 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		if (has_cost(c))
			return 1;
	return n->orelse && has_cost(n->orelse);
}

/* What follows lowering: counts, footprints, dataflow; then whether the function is worth reporting. */
static void finish_function(struct kc_arena *a, const struct kc_pass_job *job)
{
	struct kc_fn_ir *ir = job->ir;
	struct kc_function *fn = ir->fn;
	kc_count_function(a, ir);
	kc_footprint_function(a, ir);
	kc_dataflow_function(a, ir);
	if (!has_cost(ir->body) && !job->sized && !fn->diags.warnings && !fn->diags.errors)
		fn->skip = 1; /* a helper without loops: nothing to report (but never hide a warning) */
}

static void *counter_main(void *arg)
{
	struct kc_passes *t = arg;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (t->done == t->queued && !t->closing) {
			t->sleeping = 1;
			pthread_cond_wait(&t->cv, &t->mu);
			t->sleeping = 0;
		}
		if (t->done == t->queued)
			break;
		struct kc_pass_job job = t->jobs[t->done];
		pthread_mutex_unlock(&t->mu);
		finish_function(t->a, &job);
		pthread_mutex_lock(&t->mu);
		t->done++;
		pthread_cond_broadcast(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* Files of fewer functions are not worth a thread. */
#define COUNTER_MIN_FUNCTIONS 16

void kc_passes_start(struct kc_passes *t, int threads, int n_funcs, struct kc_arena *a)
{
	memset(t, 0, sizeof *t);
	if (threads == 0)
		threads = n_funcs >= COUNTER_MIN_FUNCTIONS && sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	if (threads < 2 || n_funcs == 0)
		return;
	t->jobs = malloc(sizeof *t->jobs * (size_t)n_funcs);
	if (!t->jobs)
		return;
	t->cap = n_funcs;
	t->a = a;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	pthread_attr_t attr;
	t->running = pthread_attr_init(&attr) == 0;
	if (t->running) {
		/* the passes recurse once per nesting level, like the lowering (KC_MAX_DEPTH) */
		t->running = pthread_attr_setstacksize(&attr, KC_IR_STACK_BYTES) == 0 &&
		             pthread_create(&t->thread, &attr, counter_main, t) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!t->running) {
		pthread_mutex_destroy(&t->mu);
		pthread_cond_destroy(&t->cv);
		free(t->jobs);
		t->jobs = NULL;
	}
}

int kc_passes_submit(struct kc_passes *t, struct kc_arena *a, const struct kc_pass_job *job)
{
	if (!t->running || t->queued == t->cap) {
		finish_function(a, job);
		return -1;
	}
	pthread_mutex_lock(&t->mu);
	int place = t->queued;
	t->jobs[t->queued++] = *job;
	if (t->sleeping && t->queued - t->done >= COUNTER_BATCH)
		pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	return place;
}

void kc_passes_wait(struct kc_passes *t, int job)
{
	if (!t->running || job < 0)
		return;
	pthread_mutex_lock(&t->mu);
	while (t->done <= job) {
		if (t->sleeping)
			pthread_cond_broadcast(&t->cv); /* fewer than a batch may be waiting */
		pthread_cond_wait(&t->cv, &t->mu);
	}
	pthread_mutex_unlock(&t->mu);
}

void kc_passes_stop(struct kc_passes *t)
{
	if (!t->running)
		return;
	pthread_mutex_lock(&t->mu);
	t->closing = 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t->jobs);
	memset(t, 0, sizeof *t);
}

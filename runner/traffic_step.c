/* traffic_step.c — the traffic step of a run: hardware counters when perf_event_open works, else a cachegrind
 * simulation (one cold call minus the same setup without it), else "unavailable" with why. */
#define _GNU_SOURCE
#include "traffic_step.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachegrind.h"
#include "counters.h"
#include "libs.h"
#include "simcache.h"

/* The --LL option simulating the machine's last level; returns the simulated size (0: none to simulate). */
static long long simulated_ll(const struct kc_machine *mc, char *opt, size_t n)
{
	long long ll = mc->cache_bytes[2] ? mc->cache_bytes[2] : mc->cache_bytes[1], simulated = 0;
	if (kc_cachegrind_ll_option(ll, mc->cache_ll_assoc > 0 ? mc->cache_ll_assoc : 16,
	                            mc->cache_line > 0 ? mc->cache_line : 64, opt, n, &simulated) < 0)
		opt[0] = '\0';
	return opt[0] ? simulated : 0;
}

/* The cache-flush sweep of the count mode (real caches): twice the last level, at least 8 MiB. */
static long long flush_bytes(const struct kc_machine *mc)
{
	long long ll = mc->cache_bytes[2] > mc->cache_bytes[1] ? mc->cache_bytes[2] : mc->cache_bytes[1];
	return 2 * ll > (8LL << 20) ? 2 * ll : 8LL << 20;
}

/* The harness valgrind can run: rebuilt without AVX-512 when the CPU has it (valgrind 3.19 decodes no EVEX
 * instructions and would stop the program with SIGILL). NULL when that build failed, with *why. */
static const char *cachegrind_binary(struct kc_run_state *r, struct kc_file_run *fr, const char **why)
{
	if (fr->cg_state == 0 && !r->no_avx512_for_valgrind) {
		fr->cg_state = 1, fr->cg_binary = "./harness", fr->cg_note = "";
	} else if (fr->cg_state == 0) {
		struct kc_build_target cg = {.output = "harness-cg", .extra_cflag = "-mno-avx512f"};
		int ok = kc_build_harnesses(&r->build, fr->dir, fr->abs, &cg, 1) == 0;
		fr->cg_state = ok ? 1 : -1;
		fr->cg_binary = "./harness-cg";
		fr->cg_note =
		    ok ? "; harness rebuilt with -mno-avx512f, as valgrind cannot run AVX-512"
		       : kc_arena_printf(r->a, "the harness did not build with -mno-avx512f for valgrind: %s", cg.why);
	}
	*why = fr->cg_note;
	return fr->cg_state > 0 ? fr->cg_binary : NULL;
}

/* What the harness's setup does for p: plans with equal keys have identical baseline (mode none) runs. */
static const char *setup_key(struct kc_run_state *r, const struct kc_harness_plan *p)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_printf(&b, "init=%s", p->fn->init ? p->fn->init : "");
	for (int i = 0; i < p->n_buffers; i++)
		kc_buf_printf(&b, ";%s %lld", p->buffers[i].elem_type, p->buffers[i].count);
	const char *key = kc_arena_strdup(r->a, kc_buf_str(&b));
	kc_buf_release(&b);
	return key;
}

/* --- cachegrind runs, in parallel --------------------------------------------------------------------------- */

/* One valgrind child: mode "none" (a baseline, shared by plans with the same setup) or "once" (one plan). */
struct cg_task {
	const struct kc_harness_plan *p;
	const char *dir; /* its file's harness directory */
	const char *mode, *key, *out;
	int baseline;    /* once: index of its none task */
	const char *why; /* the run failed, and why */
	struct kc_cachegrind c;
	double seconds;         /* the run's wall-clock time */
	double native;          /* once: one call, natively */
	const char *program[5]; /* the harness's argv */
	char cache_key[17];     /* its simulation's key (simcache.h); "" when it has none */
	int cached;             /* c came from the simulation cache */
};

/* The simulation's configuration, beside the binary and its arguments: what else its counts depend on. */
static const char *sim_config(struct kc_run_state *r, const char *ll_opt)
{
	const struct kc_machine *mc = r->m->machine;
	if (!r->sim_libs) /* once a run: OpenBLAS's is asked of a child process */
		r->sim_libs = kc_libs_identity(r->a, r->build.blas == 1);
	/* cachegrind sizes D1 from the CPU it runs on (cpuid): the model and its L1 stand for that */
	return kc_arena_printf(r->a, "%s|%s|%s|L1 %lld|line %d|%s", r->valgrind_version ? r->valgrind_version : "",
	                       ll_opt, mc->cpu ? mc->cpu : "", mc->cache_bytes[0], mc->cache_line, r->sim_libs);
}

/* t's counts from the simulation cache: 1 when they were there. */
static int from_cache(struct kc_run_state *r, struct cg_task *t, const char *ll_opt)
{
	if (!r->sim_cache_dir ||
	    kc_simcache_key(t->dir, t->program[0], t->program + 1, sim_config(r, ll_opt), t->cache_key) < 0) {
		t->cache_key[0] = '\0';
		return 0;
	}
	if (r->resimulate || kc_simcache_load(r->a, r->sim_cache_dir, t->cache_key, &t->c) < 0)
		return 0;
	if (r->verbose)
		fprintf(stderr, "kcost: %s %s: cache simulation from %s/sim-%s.json\n", t->p->fn->name, t->mode,
		        r->sim_cache_dir, t->cache_key);
	t->cached = 1;
	return 1;
}

static void start_task(struct kc_run_state *r, struct cg_task *t, struct kc_child_job *job, const char *ll_opt)
{
	const char **argv = kc_cachegrind_argv(r->a, r->valgrind, ll_opt, t->out, t->program);
	/* no RLIMIT_AS: valgrind reserves a large address space of its own; the kernel already ran under one */
	struct kc_child_limits lim = {KC_TRAFFIC_CACHEGRIND_CAP, KC_TRAFFIC_CACHEGRIND_CAP + 1, 0, r->sandbox_dir};
	char msg[KC_CHILD_MSG_SIZE];
	if (r->verbose)
		kc_child_show_command(t->dir, argv);
	if (kc_child_start_kernel(job, argv, t->dir, r->child_env, &lim, msg, sizeof msg) < 0) {
		t->why = kc_arena_strdup(r->a, msg);
		kc_child_result_release(&job->result);
	}
}

static void finish_task(struct kc_run_state *r, struct cg_task *t, struct kc_child_job *job)
{
	char msg[1024];
	struct kc_child_limits lim = {KC_TRAFFIC_CACHEGRIND_CAP, KC_TRAFFIC_CACHEGRIND_CAP + 1, 0, r->sandbox_dir};
	const char *failure = kc_child_failure(&job->result, &lim, msg, sizeof msg);
	t->seconds = job->result.seconds;
	if (failure && job->result.timed_out && t->baseline >= 0) {
		t->why = kc_arena_printf(r->a,
		                         "cachegrind did not finish one call within the %.0f s cap (it takes %.3g s "
		                         "natively)",
		                         KC_TRAFFIC_CACHEGRIND_CAP, t->native);
		return;
	}
	if (failure && job->result.timed_out) {
		t->why = kc_arena_printf(r->a, "cachegrind did not finish the setup within the %.0f s cap",
		                         KC_TRAFFIC_CACHEGRIND_CAP);
		return;
	}
	if (failure) {
		t->why = kc_arena_printf(r->a, "cachegrind run (%s) failed: %s", t->mode, failure);
		return;
	}
	const char *why;
	if (kc_cachegrind_read(r->a, t->out, &t->c, &why) < 0)
		t->why = why;
	else if (t->cache_key[0] && kc_simcache_save(r->a, r->sim_cache_dir, t->cache_key, &t->c) == 0)
		r->sim_saved++;
	else if (t->cache_key[0] && r->verbose)
		fprintf(stderr, "kcost: could not cache the simulation in %s\n", r->sim_cache_dir);
}

static void finish(struct kc_run_state *r, struct cg_task *t, struct kc_child_job *job)
{
	finish_task(r, t, job);
	kc_child_result_release(&job->result);
}

/* The order tasks start in: the calls, longest first (natively), then the baselines, which run the setup alone
 * and take less: a long call started last would leave the other cores idle while it runs. */
static int by_length(const void *pa, const void *pb)
{
	const struct cg_task *a = *(const struct cg_task *const *)pa, *b = *(const struct cg_task *const *)pb;
	int a_none = a->baseline < 0, b_none = b->baseline < 0;
	if (a_none != b_none)
		return a_none - b_none;
	return (a->native < b->native) - (a->native > b->native);
}

/* Run the tasks, as many at once as the machine has cores; those the simulation cache holds are not run. */
static void run_tasks(struct kc_run_state *r, struct cg_task *tasks, int n, const char *ll_opt)
{
	struct kc_child_job *jobs = calloc((size_t)(n > 0 ? n : 1), sizeof *jobs);
	struct cg_task **order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
	int width = r->m->machine->cores > 0 ? r->m->machine->cores : 1, next = 0, running = 0;
	if (!jobs || !order) {
		for (int i = 0; i < n; i++)
			tasks[i].why = "out of memory";
		free(jobs), free(order);
		return;
	}
	for (int i = 0; i < n; i++)
		order[i] = &tasks[i];
	qsort(order, (size_t)n, sizeof *order, by_length);
	while (next < n || running > 0) {
		for (; next < n && running < width; next++) {
			int k = (int)(order[next] - tasks);
			if (from_cache(r, &tasks[k], ll_opt))
				continue;
			start_task(r, &tasks[k], &jobs[k], ll_opt);
			running += jobs[k].running;
		}
		int done = kc_child_wait_any(jobs, n);
		if (done < 0)
			continue; /* every start failed: the loop ends once next == n */
		finish(r, &tasks[done], &jobs[done]);
		running--;
	}
	free(jobs);
	free(order);
}

/* The harness's argv of a task. */
static void set_program(struct kc_run_state *r, struct cg_task *t, const char *binary, long long evict)
{
	t->program[0] = binary, t->program[1] = t->p->fn->name, t->program[2] = t->mode;
	t->program[3] = kc_arena_printf(r->a, "%lld", evict), t->program[4] = NULL;
}

static void set_unavailable(struct kc_run_state *r, struct kc_measurement *item, const char *why)
{
	item->traffic_source = "unavailable";
	item->traffic_why = kc_arena_strdup(r->a, why);
}

/* Why p's traffic is not simulated at all, or NULL. */
static const char *not_simulated(struct kc_run_state *r, const struct kc_timing *t, const char *ll_opt)
{
	double estimate = KC_TRAFFIC_CACHEGRIND_SLOWDOWN * (2 * t->setup + t->median);
	if (!r->valgrind)
		return kc_arena_printf(r->a, "no hardware counters (%s) and valgrind is not installed",
		                       r->counters_why);
	if (!ll_opt[0])
		return "no last-level cache size to simulate";
	if (estimate > KC_TRAFFIC_CACHEGRIND_CAP)
		return kc_arena_printf(
		    r->a,
		    "cachegrind skipped: at least %.0f s under simulation (%.0f x (2 x %.3g s setup + "
		    "%.3g s per call)), over the %.0f s cap",
		    estimate, KC_TRAFFIC_CACHEGRIND_SLOWDOWN, t->setup, t->median, KC_TRAFFIC_CACHEGRIND_CAP);
	return NULL;
}

static void set_simulated(struct kc_run_state *r, const char *cg_note, struct kc_measurement *item,
                          const struct cg_task *once, const struct cg_task *none, long long ll, long long evict)
{
	double dram = kc_cachegrind_dram_bytes(&once->c) - kc_cachegrind_dram_bytes(&none->c);
	double l2 = kc_cachegrind_l2_bytes(&once->c) - kc_cachegrind_l2_bytes(&none->c);
	long long ir = once->c.ir - none->c.ir;
	item->traffic_source = "cachegrind";
	item->traffic_bytes = dram > 0 ? dram : 0;
	item->traffic_l2_bytes = l2 > 0 ? l2 : 0;
	item->traffic_seconds = once->seconds + none->seconds;
	item->instructions = ir > 0 ? (double)ir : 0;
	const char *cached = once->cached && none->cached
	                         ? "; counts from the simulation cache (the same harness binary, "
	                           "arguments, simulated caches and valgrind)"
	                     : once->cached || none->cached ? "; one of the two runs' counts from the simulation cache"
	                                                    : "";
	item->traffic_why = kc_arena_printf(
	    r->a,
	    "%s --tool=cachegrind --cache-sim=yes, LL %lld MiB %d-way %d B lines%s, D1 %lld KiB; one call on cold "
	    "caches (after reading one byte a line of %lld MiB never written) minus the same setup without the call; "
	    "DRAM = LL misses x line, L2 = D1 misses x line; misses only: write-backs are not simulated%s%s",
	    r->valgrind_version, once->c.ll_size >> 20, once->c.ll_assoc, once->c.ll_line,
	    ll != r->m->machine->cache_bytes[2] ? " (rounded to a power-of-two set count)" : "", once->c.d1_size >> 10,
	    evict >> 20, cg_note, cached);
}

/* A function waiting for its simulation: its item, its once task, and its file's note on the build. */
struct pending {
	struct kc_measurement *item;
	int once;
	const char *cg_note;
};

/* The simulations of every file, run together once the timings are all done (kc_traffic_step_run): the calls
 * of all files start longest first, so no core waits for a file's last long call while work is left. */
struct kc_traffic_batch {
	struct cg_task *tasks;
	int n_tasks, cap_tasks;
	struct pending *pend;
	int n_pend, cap_pend;
	char ll_opt[64];
	long long ll, evict;
};

struct kc_traffic_batch *kc_traffic_batch_new(struct kc_run_state *r)
{
	struct kc_traffic_batch *b = KC_NEW(r->a, struct kc_traffic_batch);
	b->ll = simulated_ll(r->m->machine, b->ll_opt, sizeof b->ll_opt);
	/* what evicts the simulated caches: the last level as simulated, and a margin */
	b->evict = b->ll + (64LL << 10);
	return b;
}

/* Room for two more tasks and one more pending function (arena storage, doubled). */
static void batch_reserve(struct kc_run_state *r, struct kc_traffic_batch *b)
{
	if (b->n_tasks + 2 > b->cap_tasks) {
		int cap = b->cap_tasks ? 2 * b->cap_tasks : 16;
		struct cg_task *t = KC_NEW_N(r->a, struct cg_task, cap);
		if (b->n_tasks)
			memcpy(t, b->tasks, sizeof *t * (size_t)b->n_tasks);
		b->tasks = t, b->cap_tasks = cap;
	}
	if (b->n_pend + 1 > b->cap_pend) {
		int cap = b->cap_pend ? 2 * b->cap_pend : 16;
		struct pending *p = KC_NEW_N(r->a, struct pending, cap);
		if (b->n_pend)
			memcpy(p, b->pend, sizeof *p * (size_t)b->n_pend);
		b->pend = p, b->cap_pend = cap;
	}
}

/* A none task for p's setup (an existing one of the same file, tasks[first ..], when the setup repeats), then
 * p's once task; returns the once task's index. */
static int add_tasks(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                     double native, const char *binary, struct kc_traffic_batch *b, int first)
{
	batch_reserve(r, b);
	const char *key = setup_key(r, p);
	int base = -1;
	for (int i = first; i < b->n_tasks && base < 0; i++)
		if (!strcmp(b->tasks[i].mode, "none") && !strcmp(b->tasks[i].key, key))
			base = i;
	if (base < 0) {
		base = b->n_tasks++;
		b->tasks[base] =
		    (struct cg_task){.p = p,
		                     .dir = fr->dir,
		                     .mode = "none",
		                     .key = key,
		                     .baseline = -1,
		                     .out = kc_arena_printf(r->a, "%s/cachegrind.%s.none.out", fr->dir, p->fn->name)};
		set_program(r, &b->tasks[base], binary, b->evict);
	}
	int once = b->n_tasks++;
	b->tasks[once] =
	    (struct cg_task){.p = p,
	                     .dir = fr->dir,
	                     .mode = "once",
	                     .key = key,
	                     .baseline = base,
	                     .native = native,
	                     .out = kc_arena_printf(r->a, "%s/cachegrind.%s.once.out", fr->dir, p->fn->name)};
	set_program(r, &b->tasks[once], binary, b->evict);
	return once;
}

static void simulate_later(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *plans,
                           const struct kc_timing *t, struct kc_measurement *const *items, const int *todo, int n,
                           struct kc_traffic_batch *b)
{
	const char *why = NULL, *binary = NULL;
	int first = b->n_tasks; /* a none task is shared within its file only */
	for (int i = 0; i < n; i++) {
		if (!todo[i])
			continue;
		const char *skip = not_simulated(r, &t[i], b->ll_opt);
		if (!skip && !binary && !(binary = cachegrind_binary(r, fr, &why)))
			skip = why;
		if (skip) {
			set_unavailable(r, items[i], skip);
			continue;
		}
		int once = add_tasks(r, fr, &plans[i], t[i].median, binary, b, first);
		b->pend[b->n_pend++] = (struct pending){items[i], once, fr->cg_note};
	}
}

void kc_traffic_step_run(struct kc_run_state *r, struct kc_traffic_batch *b)
{
	if (!b || !b->n_tasks)
		return;
	kc_runner_progress(r, "simulating caches", 0, 0, "");
	run_tasks(r, b->tasks, b->n_tasks, b->ll_opt);
	if (r->sim_saved) { /* the cache's bounds (simcache.h), kept where it grew */
		int removed = kc_simcache_prune(r->sim_cache_dir, (long long)time(NULL), KC_SIMCACHE_MAX_ENTRIES,
		                                KC_SIMCACHE_MAX_AGE_DAYS * 86400LL, r->started);
		r->sim_saved = 0;
		if (removed > 0 && r->verbose)
			fprintf(stderr, "kcost: %d old simulation%s removed from %s\n", removed,
			        removed == 1 ? "" : "s", r->sim_cache_dir);
	}
	for (int i = 0; i < b->n_pend; i++) {
		const struct cg_task *once = &b->tasks[b->pend[i].once], *none = &b->tasks[once->baseline];
		if (once->why || none->why)
			set_unavailable(r, b->pend[i].item, once->why ? once->why : none->why);
		else
			set_simulated(r, b->pend[i].cg_note, b->pend[i].item, once, none, b->ll, b->evict);
	}
}

/* --- hardware counters ----------------------------------------------------------------------------------------- */

/* 0 when the counters measured p; -1 (with r->counters_why updated) when the cachegrind path must. */
static int count(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                 struct kc_measurement *item)
{
	const char *why = NULL;
	const char *argv[] = {"./harness", p->fn->name, "count",
	                      kc_arena_printf(r->a, "%lld", flush_bytes(r->m->machine)), NULL};
	struct kc_child_limits lim = kc_runner_kernel_limits(r);
	cJSON *j = kc_child_run_harness(r->a, fr->dir, argv, r->child_env, &lim, &why);
	const cJSON *ll = j ? cJSON_GetObjectItemCaseSensitive(j, "ll_misses") : NULL;
	if (!cJSON_IsNumber(ll)) {
		const cJSON *w = j ? cJSON_GetObjectItemCaseSensitive(j, "why") : NULL;
		const char *text = cJSON_IsString(w) ? w->valuestring : why ? why : "the harness could not count";
		r->counters_why = kc_arena_strdup(r->a, text);
		cJSON_Delete(j);
		return -1;
	}
	int line = r->m->machine->cache_line > 0 ? r->m->machine->cache_line : 64;
	item->traffic_source = "counters";
	item->traffic_bytes = kc_counters_bytes((long long)ll->valuedouble, line);
	item->traffic_l2_bytes = kc_counters_bytes((long long)kc_child_json_number(j, "l1d_read_misses"), line);
	double ins = kc_child_json_number(j, "instructions");
	item->instructions = ins > 0 && isfinite(ins) ? ins : 0;
	item->traffic_why = kc_arena_printf(r->a,
	                                    "perf_event_open: last-level cache misses x %d B lines (L2: L1D read "
	                                    "misses x line), one call on cold caches",
	                                    line);
	cJSON_Delete(j);
	return 0;
}

void kc_traffic_step_measure(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *plans,
                             const struct kc_timing *t, struct kc_measurement *const *items, int n,
                             struct kc_traffic_batch *b)
{
	int *todo = KC_NEW_N(r->a, int, n + 1);
	for (int i = 0; i < n; i++)
		todo[i] = t[i].ok && !plans[i].error;
	if (r->no_traffic) {
		for (int i = 0; i < n; i++)
			if (todo[i])
				items[i]->traffic_why = "not measured: --no-traffic";
		return;
	}
	for (int i = 0; r->counters && i < n; i++)
		if (todo[i] && count(r, fr, &plans[i], items[i]) == 0)
			todo[i] = 0;
	int any = 0;
	for (int i = 0; i < n; i++)
		any |= todo[i];
	if (any)
		simulate_later(r, fr, plans, t, items, todo, n, b);
}

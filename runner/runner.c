/* runner.c — kc_run: the orchestration. The machine's ceilings, then per input file a plan per function, one
 * harness built, each kernel timed and checked against its reference in children with limits, then the traffic
 * step (traffic_step.c). */
#define _GNU_SOURCE
#include "runner.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ceilings.h"
#include "check.h"
#include "compare.h"
#include "cleanup.h"
#include "counters.h"
#include "runner_int.h"
#include "peak.h"
#include "sandbox.h"
#include "stats.h"
#include "traffic_step.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The kernels' environment: the allow-listed part of kcost's (kc_child_kernel_env), single-threaded unless
 * --threads asks for more (OpenMP kernels), and TMPDIR inside the run's directory, which is removed after. */
static void set_kernel_env(struct kc_run_state *r, int threads)
{
	int n = threads > 1 ? threads : 1;
	const char *set[] = {kc_arena_printf(r->a, "OPENBLAS_NUM_THREADS=%d", n),
	                     kc_arena_printf(r->a, "OMP_NUM_THREADS=%d", n),
	                     kc_arena_printf(r->a, "TMPDIR=%s", r->tmpdir), NULL};
	r->child_env = kc_child_kernel_env(r->a, set);
}

static void fail(struct kc_run_state *r, const struct kc_function *f, struct kc_measurement *item, enum kc_severity sev,
                 const char *msg)
{
	item->error = kc_arena_strdup(r->a, msg);
	item->traffic_source = "unavailable";
	item->traffic_why = "not measured: the kernel did not run to completion";
	if (!strncmp(msg, "not run:", 8))
		item->traffic_why = "not measured: the kernel was not run";
	kc_diag_add(r->a, r->diags, f->loc, sev, KC_DIAG_RUN, f->name, "%s", msg);
}

/* --- one function ---------------------------------------------------------------------------------------------- */

static cJSON *run_harness(struct kc_run_state *r, const struct kc_file_run *fr, const char *const *argv,
                          const char **why)
{
	struct kc_child_limits lim = kc_runner_kernel_limits(r);
	return kc_child_run_harness(r->a, fr->dir, argv, r->child_env, &lim, why);
}

/* A libm function p's kernel calls, swept in its own process between its timed calls (kcost_driver.c): the
 * argument that asks for it, and its seconds per call. */
struct libm_series {
	const char *name; /* kc_libm_fns' spelling */
	const char *arg;  /* "NAME=CALLS" */
	struct kc_series s;
};

/* The timing samples of one function, gathered over the rounds of its file (run_file). */
struct timing_samples {
	struct kc_series t;
	struct kc_series slices;  /* the median of each slice's samples (one harness process each) */
	struct libm_series *libm; /* NULL until the first slice */
	int n_libm;
	int failed; /* a slice failed (reported): no more slices */
	int done;   /* no more slices: its calls are long */
};

/* The libm functions f calls that the machine's ceilings timed (the driver's list, harness/kcost_libm.h, is
 * peak.h's), each with its calls in one call of f; at most KC_RUNNER_MAX_SWEPT, none when the predictions use
 * other ceilings (--machine, --peak). */
static void plan_libm(struct kc_run_state *r, const struct kc_function *f, struct timing_samples *s)
{
	int n_fns, n = 0;
	const struct kc_libm_fn *fns = kc_libm_fns(&n_fns);
	const struct kc_machine *m = r->m->machine;
	for (const struct kc_named_count *t = f->cost.transcendentals; t; t = t->next)
		n++;
	s->libm = KC_NEW_N(r->a, struct libm_series, n + 1);
	for (const struct kc_named_count *t = f->cost.transcendentals; t; t = t->next) {
		long long calls;
		const char *why;
		const struct kc_libm_cost *c = t->name && m ? kc_machine_libm(m, t->name) : NULL;
		if (r->other_ceilings || s->n_libm == KC_RUNNER_MAX_SWEPT || !c || c->seconds <= 0 ||
		    kc_function_eval(f, t->count, &calls, &why) < 0 || calls <= 0)
			continue;
		for (int k = 0; k < n_fns; k++)
			if (!strcmp(fns[k].name, t->name)) {
				s->libm[s->n_libm++] = (struct libm_series){
				    fns[k].name, kc_arena_printf(r->a, "%s=%lld", fns[k].name, calls), {NULL, 0, 0}};
				break;
			}
	}
}

/* The sweeps of one slice ("libm":{NAME:[seconds per call, ...]}, validated by kc_child_parse_result) added to
 * s's. */
static void add_libm(struct timing_samples *s, const cJSON *libm)
{
	for (int i = 0; i < s->n_libm; i++) {
		const cJSON *arr = cJSON_GetObjectItemCaseSensitive(libm, s->libm[i].name), *v;
		if (!cJSON_IsArray(arr))
			continue;
		cJSON_ArrayForEach(v, arr) if (v->valuedouble > 0) /* 0: a sweep within one tick of a coarse clock */
		    kc_series_push(&s->libm[i].s, v->valuedouble);
	}
}

/* One slice of p's timing: the harness times it for `budget` seconds in a fresh process; its samples are added to
 * s. The first slice also gives the checksum and the setup time. -1 (reported) when the harness failed. */
static int time_slice(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                      struct kc_measurement *item, struct kc_timing *t, double budget, int min_samples,
                      struct timing_samples *s)
{
	const struct kc_function *f = p->fn;
	const char *why = NULL;
	if (!s->libm)
		plan_libm(r, f, s);
	const char **argv = KC_NEW_N(r->a, const char *, 7 + s->n_libm);
	argv[0] = "./harness", argv[1] = f->name, argv[2] = "time";
	argv[3] = kc_arena_printf(r->a, "%g", budget);
	argv[4] = kc_arena_printf(r->a, "%g", r->timeout * 0.5);
	argv[5] = kc_arena_printf(r->a, "%d", min_samples);
	for (int i = 0; i < s->n_libm; i++)
		argv[6 + i] = s->libm[i].arg;
	cJSON *j = run_harness(r, fr, argv, &why);
	const cJSON *samples = j ? cJSON_GetObjectItemCaseSensitive(j, "samples") : NULL, *sample;
	int ok = cJSON_GetArraySize(samples) > 0;
	if (!ok) {
		fail(r, f, item, KC_ERROR, why ? why : "the harness reported no timing samples");
		samples = NULL;
	}
	int first = s->t.n;
	cJSON_ArrayForEach(sample, samples)
	{
		if (kc_series_push(&s->t, sample->valuedouble) < 0) {
			fail(r, f, item, KC_ERROR, "out of memory reading the timing samples");
			ok = 0;
			break;
		}
	}
	struct kc_stats st;
	if (ok &&
	    (kc_stats_compute(s->t.v + first, s->t.n - first, &st) < 0 || kc_series_push(&s->slices, st.median) < 0)) {
		fail(r, f, item, KC_ERROR, "out of memory reading the timing samples");
		ok = 0;
	}
	if (ok)
		add_libm(s, cJSON_GetObjectItemCaseSensitive(j, "libm"));
	double rss = ok ? kc_child_json_number(j, "max_rss_kb") * 1024 : 0;
	if (rss > r->kernel_rss && rss < 0x1p50)
		r->kernel_rss = (long long)rss;
	if (ok && !t->ok) {
		item->checksum = kc_child_json_number(j, "checksum");
		t->setup = kc_child_json_number(j, "setup_seconds");
		t->ok = 1;
	}
	cJSON_Delete(j);
	s->failed |= !ok;
	return ok ? 0 : -1;
}

/* The medians of p's libm sweeps, each with KC_BESIDE_MIN_SAMPLES samples or more, into item->libm. */
static void finish_libm(struct kc_run_state *r, struct kc_measurement *item, const struct timing_samples *s)
{
	item->libm = KC_NEW_N(r->a, struct kc_libm_in_process, s->n_libm + 1);
	for (int i = 0; i < s->n_libm; i++) {
		struct kc_stats st;
		if (s->libm[i].s.n >= KC_BESIDE_MIN_SAMPLES &&
		    kc_stats_compute(s->libm[i].s.v, s->libm[i].s.n, &st) == 0)
			item->libm[item->n_libm++] = (struct kc_libm_in_process){s->libm[i].name, st.median, st.n};
		free(s->libm[i].s.v);
	}
}

/* p's timing from the samples of all its slices. -1 (reported) when there are none to summarize. */
static int finish_timing(struct kc_run_state *r, const struct kc_harness_plan *p, struct kc_measurement *item,
                         struct kc_timing *t, const struct timing_samples *s)
{
	struct kc_stats st;
	finish_libm(r, item, s);
	if (s->failed || kc_stats_compute(s->t.v, s->t.n, &st) < 0) {
		if (!s->failed)
			fail(r, p->fn, item, KC_ERROR, "out of memory summarizing the timing samples");
		t->ok = 0;
		return -1;
	}
	item->seconds_min = st.min, item->seconds_median = st.median, item->seconds_p90 = st.p90;
	item->samples = st.n, item->cv = st.cv;
	/* the samples in the order taken, every k-th when there are more than the report keeps */
	int keep = s->t.n < KC_MEASURE_MAX_SAMPLES ? s->t.n : KC_MEASURE_MAX_SAMPLES;
	double *kept = KC_NEW_N(r->a, double, keep + 1);
	for (int q = 0; q < keep; q++)
		kept[q] = s->t.v[(long long)q * s->t.n / keep];
	item->sample_seconds = kept, item->n_sample_seconds = keep;
	double *slices = KC_NEW_N(r->a, double, s->slices.n + 1);
	for (int q = 0; q < s->slices.n; q++)
		slices[q] = s->slices.v[q];
	item->slice_seconds = slices, item->n_slice_seconds = s->slices.n;
	t->median = st.median;
	return 0;
}

static void check_reference(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                            struct kc_measurement *item)
{
	const struct kc_function *f = p->fn;
	if (!p->ref_args) {
		item->equivalence_note = p->reference_note;
		kc_diag_add(r->a, r->diags, f->loc, KC_WARNING, KC_DIAG_RUN, f->name, "%s", p->reference_note);
		return;
	}
	const char *why = NULL, *argv[] = {"./harness", f->name, "check", NULL};
	cJSON *j = run_harness(r, fr, argv, &why);
	if (!j) {
		fail(r, f, item, KC_ERROR,
		     kc_arena_printf(r->a, "checking against reference %s: %s", p->reference, why));
		return;
	}
	const cJSON *worst = cJSON_GetObjectItemCaseSensitive(j, "worst");
	item->max_rel_err = kc_child_json_number(j, "max_rel_err");
	item->equivalent = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ok"));
	if (!item->equivalent) {
		const char *msg = kc_arena_printf(
		    r->a, "outputs differ from reference %s: max relative error %.3g at %s", p->reference,
		    kc_child_json_number(j, "worst_rel_err"), cJSON_IsString(worst) ? worst->valuestring : "?");
		item->error = msg;
		kc_diag_add(r->a, r->diags, f->loc, KC_ERROR, KC_DIAG_RUN, f->name, "%s", msg);
	}
	cJSON_Delete(j);
}

/* The lines of f's file that the compiler said it vectorized (the remarks name files as the harness includes
 * them: compared by their real paths). */
static void vectorized_lines(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_function *f,
                             struct kc_measurement *item)
{
	item->vec_known = fr->vec_known;
	if (!fr->vec_known || !fr->n_vec)
		return;
	char own[PATH_MAX];
	if (!realpath(f->loc.file, own)) {
		item->vec_known = 0;
		return;
	}
	int *lines = KC_NEW_N(r->a, int, fr->n_vec), n = 0;
	for (int i = 0; i < fr->n_vec; i++) /* the remarks' files are real paths already (build_file) */
		if (!strcmp(own, fr->vec[i].file))
			lines[n++] = fr->vec[i].line;
	item->vec_lines = lines, item->n_vec_lines = n;
}

/* A measurement the machine cannot produce: more FLOP/s than the compute roof (by more than the spread of the
 * samples, at least 10%), or more compulsory (min-model) bytes per second than twice the L1 bandwidth (loads
 * alone outrun the triad that measured it, by less than that). Then a ceiling or the measurement is wrong (the
 * call optimized away): a warning, and the point is marked, never drawn as a fact. */
static void check_plausible(struct kc_run_state *r, const struct kc_function *f, struct kc_measurement *item)
{
	const struct kc_machine *mc = r->m->machine;
	double t = item->seconds_median, margin = 1 + (item->cv > 0.1 ? item->cv : 0.1);
	if (!mc || !(t > 0))
		return;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_poly *flops = NULL, *bytes = NULL;
	long long fv = 0, bv = 0;
	const char *why;
	int have_f = kc_cost_flops(&a, &f->cost, &flops) == 0 && kc_function_eval(f, flops, &fv, &why) == 0;
	int have_b = kc_traffic_total(&a, &f->traffic[KC_MODEL_MIN], &bytes) == 0 && bytes &&
	             kc_function_eval(f, bytes, &bv, &why) == 0;
	kc_arena_release(&a);
	double peak = mc->flops_f32.value > mc->flops_f64.value ? mc->flops_f32.value : mc->flops_f64.value;
	double l1 = mc->bandwidth[KC_LEVEL_L1].value;
	const char *msg = NULL;
	if (have_f && peak > 0 && fv / t / 1e9 > peak * margin)
		msg = kc_arena_printf(
		    r->a,
		    "measured faster than the machine allows (%.3g GFLOP/s against a compute roof of %.3g GFLOP/s): "
		    "the call may have been optimized away, or a ceiling is wrong",
		    fv / t / 1e9, peak);
	else if (have_b && l1 > 0 && bv / t / 1e9 > 2 * l1 * margin)
		msg = kc_arena_printf(
		    r->a,
		    "measured faster than the machine allows (%.3g GB/s of its minimum bytes against an L1 "
		    "bandwidth of %.3g): the call may have been optimized away, or a ceiling is wrong",
		    bv / t / 1e9, l1);
	if (!msg)
		return;
	item->implausible = msg;
	kc_diag_add(r->a, r->diags, f->loc, KC_WARNING, KC_DIAG_RUN, f->name, "%s", msg);
}

const char *kc_runner_blas_note(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *mc,
                                const char *env_coretype)
{
	const char *callee = NULL;
	for (int i = 0; i < f->n_nests && !callee; i++)
		if (f->nests[i].callee && !strncmp(f->nests[i].callee, "cblas_", 6))
			callee = f->nests[i].callee;
	if (!callee || !mc || !mc->blas_note)
		return NULL;
	return kc_arena_printf(a,
	                       "calls %s: %s. The kernel ran as your program would, with %s; the dense roof is the "
	                       "faster kernels'",
	                       callee, mc->blas_note,
	                       env_coretype && *env_coretype
	                           ? kc_arena_printf(a, "OPENBLAS_CORETYPE=%s from the environment", env_coretype)
	                           : "OpenBLAS's own choice");
}

/* After p's timing (finish_timing): whether it is plausible, OpenBLAS's note, and its reference check. */
static void check_function(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *p,
                           struct kc_measurement *item)
{
	check_plausible(r, p->fn, item);
	const char *blas = kc_runner_blas_note(r->a, p->fn, r->m->machine, getenv("OPENBLAS_CORETYPE"));
	if (blas)
		kc_diag_add(r->a, r->diags, p->fn->loc, KC_WARNING, KC_DIAG_RUN, p->fn->name, "%s", blas);
	if (p->reference) {
		kc_runner_progress(r, "checking", r->done, r->total, p->fn->name);
		check_reference(r, fr, p, item);
	}
}

/* --- one file --------------------------------------------------------------------------------------------------- */

/* The functions of one input file: indexes into an->functions, in their order. */
struct file_functions {
	int *fns;
	int n;
};

static struct kc_measurement *item_of(struct kc_run_state *r, const struct kc_function *f)
{
	return &r->m->items[f->index];
}

/* Plan every function of the file; the plans that cannot run get their error now. Returns how many can. */
static int plan_file(struct kc_run_state *r, const struct file_functions *ff, struct kc_harness_plan *plans)
{
	int runnable = 0;
	for (int i = 0; i < ff->n; i++) {
		const struct kc_function *f = r->an->functions[ff->fns[i]];
		struct kc_harness_plan *p = &plans[i];
		if (!strcmp(f->name, "main")) { /* the harness renames the program's main away: not a kernel to time */
			p->fn = f;
			p->error = "not run: main is the program's entry point, which the harness replaces";
			kc_diag_add(r->a, r->diags, f->loc, KC_NOTE, KC_DIAG_RUN, f->name, "%s", p->error);
			struct kc_measurement *item = item_of(r, f);
			*item = (struct kc_measurement){0};
			r->m->n_measured--;
			r->total--;
			continue;
		}
		kc_harness_plan(r->a, f, f->reference_fn, p);
		if (p->error) {
			fail(r, f, item_of(r, f), KC_WARNING, p->error);
			r->done++;
		}
		runnable += !p->error;
	}
	return runnable;
}

static int write_harness(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *plans, int n,
                         const char **why)
{
	struct kc_buf src = KC_BUF_INIT;
	int rc = kc_harness_source(&src, fr->abs, plans, n, why);
	if (rc == 0)
		rc = kc_build_write_sources(&r->build, fr->dir, kc_buf_str(&src), why);
	kc_buf_release(&src);
	return rc;
}

/* Build ./harness and, when cache simulation will need it, ./harness-cg without AVX-512 (see traffic_step.c)
 * at the same time. 0, or -1 with *why when ./harness did not build. */
static int build_file(struct kc_run_state *r, struct kc_file_run *fr, const char **why)
{
	struct kc_build_target t[2] = {{.output = "harness", .remarks = 1},
	                               {.output = "harness-cg", .extra_cflag = "-mno-avx512f"}};
	int need_cg = r->no_avx512_for_valgrind && r->valgrind && !r->counters && !r->no_traffic;
	kc_build_harnesses(&r->build, fr->dir, fr->abs, t, need_cg ? 2 : 1);
	fr->compiler = t[0].command;
	fr->vec_known = t[0].remarks_known, fr->vec = t[0].vec, fr->n_vec = t[0].n_vec;
	/* each remark's file as a real path, once per file named (remarks come grouped by file), so that each
	 * function compares strings instead of resolving every remark again */
	const char *named = NULL, *real = NULL;
	for (int i = 0; i < fr->n_vec; i++) {
		if (!named || strcmp(named, fr->vec[i].file)) {
			char path[PATH_MAX];
			named = fr->vec[i].file;
			real = realpath(named, path) ? kc_arena_strdup(r->a, path) : "";
		}
		fr->vec[i].file = real;
	}
	if (need_cg && !t[1].why) {
		fr->cg_state = 1, fr->cg_binary = "./harness-cg";
		fr->cg_note = "; harness rebuilt with -mno-avx512f, as valgrind cannot run AVX-512";
	} else if (need_cg) {
		fr->cg_state = -1;
		fr->cg_note =
		    kc_arena_printf(r->a, "the harness did not build with -mno-avx512f for valgrind: %s", t[1].why);
	}
	*why = t[0].why;
	fr->build_log = t[0].log;
	return t[0].why ? -1 : 0;
}

/* Does a compiler or linker line of log say that function `name` is missing ("undefined reference to `f'",
 * "implicit declaration of function 'f'", "'f' undeclared")? name must appear as a whole identifier. */
static int says_missing(const char *log, const char *name)
{
	static const char *const marks[] = {"undefined reference to", "implicit declaration of function", "undeclared"};
	size_t len = strlen(name);
	for (const char *line = log; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t line_len = strcspn(line, "\n");
		int marked = 0;
		for (size_t i = 0; i < sizeof marks / sizeof marks[0] && !marked; i++) {
			const char *m = strstr(line, marks[i]);
			marked = m && (size_t)(m - line) < line_len;
		}
		for (const char *p = line; marked && (p = strstr(p, name)) && (size_t)(p - line) < line_len; p += len) {
			int before = p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
			int after = isalnum((unsigned char)p[len]) || p[len] == '_';
			if (!before && !after)
				return 1;
		}
	}
	return 0;
}

/* Fail the plans whose KCOST_INIT function the failed build's log says is missing: that function is not run, the
 * others of the file are. Returns how many plans were failed. */
static int fail_missing_inits(struct kc_run_state *r, struct kc_harness_plan *plans, int n, const char *log)
{
	int failed = 0;
	for (int i = 0; log && i < n; i++) {
		const struct kc_function *f = plans[i].fn;
		if (plans[i].error || !f->init || !says_missing(log, f->init))
			continue;
		plans[i].error = kc_arena_printf(r->a, "not run: its KCOST_INIT function %s is not defined", f->init);
		fail(r, f, item_of(r, f), KC_ERROR, plans[i].error);
		r->done++;
		failed++;
	}
	return failed;
}

/* What a failed build says, for the functions it fails: a link error ("undefined reference") is not a compile
 * error. */
static const char *build_failure(struct kc_run_state *r, const char *why)
{
	return kc_arena_printf(
	    r->a, "harness failed to %s: %s",
	    why && (strstr(why, "undefined reference") || strstr(why, "undefined symbol")) ? "link" : "compile",
	    why ? why : "?");
}

/* The harness of a file with several kernels did not link: one of them calls a function no file defines
 * (helper_elsewhere(n, x)), or names one the harness cannot resolve. Each runnable plan is built alone (the
 * harness links with --gc-sections: the other kernels, and what only they call, drop out); a plan whose harness
 * does not link alone fails with its own message, and the file's harness is built once more without them. 0
 * when that build succeeds; -1 (*why: the first failure) when no plan builds alone or the rebuild fails. */
static int isolate_link_failures(struct kc_run_state *r, struct kc_file_run *fr, struct kc_harness_plan *plans, int n,
                                 const char **why)
{
	int runnable = 0, alone = 0;
	for (int i = 0; i < n; i++)
		runnable += !plans[i].error;
	const char *log = fr->build_log ? fr->build_log : *why;
	if (runnable < 2 || !log || (!strstr(log, "undefined reference") && !strstr(log, "undefined symbol")))
		return -1; /* GNU ld's words, and lld's and mold's */
	const char *first_why = *why, **saved = KC_NEW_N(r->a, const char *, n);
	for (int i = 0; i < n; i++) {
		if (plans[i].error)
			continue;
		kc_runner_progress(r, "building each kernel alone (a link error)", r->done, r->total,
		                   plans[i].fn->name);
		for (int j = 0; j < n; j++) {
			saved[j] = plans[j].error;
			if (j != i && !plans[j].error)
				plans[j].error = "built apart";
		}
		const char *w = NULL;
		int built = write_harness(r, fr, plans, n, &w) == 0 && build_file(r, fr, &w) == 0;
		for (int j = 0; j < n; j++)
			plans[j].error = saved[j];
		if (built) {
			alone++;
			continue;
		}
		plans[i].error = build_failure(r, w);
		struct kc_measurement *item = item_of(r, plans[i].fn);
		item->compiler = fr->compiler;
		fail(r, plans[i].fn, item, KC_ERROR, plans[i].error);
		r->done++;
	}
	*why = first_why;
	if (!alone)
		return -1; /* the plans failed one by one, each with its message */
	return write_harness(r, fr, plans, n, why) < 0 ? -1 : build_file(r, fr, why);
}

/* Build the file's harness; when it fails because KCOST_INIT functions are missing, fail those plans and build
 * once more without them; when it does not link, find the kernels that do not (isolate_link_failures). 0, or
 * -1 with *why. */
static int build_runnable(struct kc_run_state *r, struct kc_file_run *fr, struct kc_harness_plan *plans, int n,
                          const char **why)
{
	if (build_file(r, fr, why) == 0)
		return 0;
	if (!fail_missing_inits(r, plans, n, fr->build_log))
		return isolate_link_failures(r, fr, plans, n, why);
	int runnable = 0;
	for (int i = 0; i < n; i++)
		runnable += !plans[i].error;
	if (!runnable)
		return -1; /* every plan has failed: nothing left to build */
	const char *first_why = *why;
	if (write_harness(r, fr, plans, n, why) < 0)
		return -1;
	*why = first_why;
	if (build_file(r, fr, why) == 0)
		return 0;
	return isolate_link_failures(r, fr, plans, n, why);
}

/* Fail every runnable plan of a file with the same message. */
static void fail_file(struct kc_run_state *r, struct kc_harness_plan *plans, int n, const char *msg,
                      const char *compiler)
{
	for (int i = 0; i < n; i++)
		if (!plans[i].error) {
			struct kc_measurement *item = item_of(r, plans[i].fn);
			item->compiler = compiler;
			fail(r, plans[i].fn, item, KC_ERROR, msg);
			r->done++;
		}
}

/* Set up fr's directory and absolute path; -1 with every runnable plan failed. */
static int prepare_file(struct kc_run_state *r, struct kc_file_run *fr, struct kc_harness_plan *plans, int n)
{
	const char *why = NULL;
	char abs[PATH_MAX]; /* realpath writes at most PATH_MAX bytes */
	if (!realpath(fr->path, abs)) {
		fail_file(r, plans, n, kc_arena_printf(r->a, "harness not built: %s: %s", fr->path, strerror(errno)),
		          NULL);
		return -1;
	}
	fr->abs = kc_arena_strdup(r->a, abs);
	if (mkdir(fr->dir, 0700) < 0 || write_harness(r, fr, plans, n, &why) < 0) {
		fail_file(r, plans, n, kc_arena_printf(r->a, "harness not built: %s", why ? why : strerror(errno)),
		          NULL);
		return -1;
	}
	return 0;
}

/* One input file's run on one side: its plans, harness, timings and measurements. */
struct side {
	struct kc_run_state *r;
	struct kc_file_run fr;
	struct kc_harness_plan *plans;
	struct kc_timing *t;
	struct kc_measurement **items;
	struct timing_samples *ts;
	int n;
};

/* Plan and build one side's harness for the functions ff lists; 0, or -1 when nothing of it can run (the
 * plans' errors say why). */
static int build_side(struct side *sd, struct kc_run_state *r, const char *path, const struct file_functions *ff,
                      const char *dir, int index, int n_files)
{
	*sd = (struct side){.r = r, .n = ff->n};
	sd->fr = (struct kc_file_run){.path = path, .dir = dir};
	sd->plans = KC_NEW_N(r->a, struct kc_harness_plan, ff->n + 1);
	sd->t = KC_NEW_N(r->a, struct kc_timing, ff->n + 1);
	sd->items = KC_NEW_N(r->a, struct kc_measurement *, ff->n + 1);
	sd->ts = KC_NEW_N(r->a, struct timing_samples, ff->n + 1);
	const char *why = NULL;
	if (!plan_file(r, ff, sd->plans))
		return -1;
	kc_runner_progress(r, "compiling", index, n_files, path);
	if (prepare_file(r, &sd->fr, sd->plans, sd->n) < 0)
		return -1;
	if (build_runnable(r, &sd->fr, sd->plans, sd->n, &why) < 0) {
		fail_file(r, sd->plans, sd->n, build_failure(r, why), sd->fr.compiler);
		return -1;
	}
	for (int i = 0; i < sd->n; i++) {
		sd->items[i] = item_of(r, sd->plans[i].fn);
		if (!sd->plans[i].error) {
			sd->items[i]->compiler = sd->fr.compiler;
			vectorized_lines(r, &sd->fr, sd->plans[i].fn, sd->items[i]);
		}
	}
	return 0;
}

/* Whether function i of sd takes another slice. */
static int wants_slice(const struct side *sd, int i)
{
	return !sd->plans[i].error && !sd->ts[i].failed && !sd->ts[i].done;
}

/* One slice of function i of sd, then (when `beside`) the ceilings sampled beside it. */
static void slice(struct side *sd, int i, double budget, int min_samples, const char *step, int beside)
{
	struct kc_run_state *r = sd->r;
	kc_runner_progress(r, step, r->done, r->total, sd->plans[i].fn->name);
	time_slice(r, &sd->fr, &sd->plans[i], sd->items[i], &sd->t[i], budget, min_samples, &sd->ts[i]);
	if (!beside)
		return;
	/* not before a kernel ran: its memory is held until the end, at most the largest kernel process's */
	if (r->beside_wanted)
		r->beside = kc_beside_start(r->m->machine, r->kernel_rss), r->beside_wanted = 0;
	else
		kc_beside_grow(r->beside, r->m->machine, r->kernel_rss);
	kc_beside_sample(r->beside);
}

/* The functions of sd not in `paired` take turns (KC_RUNNER_ROUNDS rounds of a share of the budget each), so
 * that on a machine whose other tenants come and go every function's median samples the same stretch of the
 * run: two versions of a kernel are compared in like conditions, and against ceilings measured across one. */
static void time_rounds(struct side *sd, const int *paired)
{
	struct kc_run_state *r = sd->r;
	int runnable = 0;
	for (int i = 0; i < sd->n; i++)
		runnable += !sd->plans[i].error && !(paired && paired[i] >= 0);
	int rounds = runnable > 1 ? KC_RUNNER_ROUNDS : 1;
	for (int round = 0; round < rounds; round++) {
		const char *step =
		    rounds > 1 ? kc_arena_printf(r->a, "running, round %d of %d", round + 1, rounds) : "running";
		for (int i = 0; i < sd->n; i++) {
			if (!wants_slice(sd, i) || (paired && paired[i] >= 0))
				continue;
			slice(sd, i, r->budget / rounds, KC_RUNNER_MIN_SAMPLES, step, 1);
			struct timing_samples *ts = &sd->ts[i];
			/* a call so long that a slice outlasts its share (the harness times at least 10 calls) is not
			 * timed again: its calls average the neighbours out, and more slices would only multiply its
			 * time */
			double fastest = ts->t.n > 0 ? ts->t.v[0] : 0;
			for (int q = 1; q < ts->t.n; q++)
				fastest = ts->t.v[q] < fastest ? ts->t.v[q] : fastest;
			ts->done |= fastest * KC_RUNNER_MIN_SAMPLES > r->budget / rounds;
			/* nor one whose setup outlasts its whole budget: three setups would cost more than three times
			 * the timing (a DRAM-sized kernel's pages, 0.1 s, still take turns) */
			ts->done |= sd->t[i].setup > r->budget;
		}
	}
}

/* Function i of the head and function j of the base, timed in alternating slices (head, base, base, head, ...:
 * drift and neighbours hit both alike, and neither always goes first) until the comparison is decided — slower,
 * faster or unchanged (model/compare.h) — after KC_BASELINE_MIN_PAIRS pairs, or KC_BASELINE_MAX_PAIRS pairs
 * or the function's budget are spent. */
static void time_pair(struct side *head, int i, struct side *base, int j, double threshold)
{
	struct kc_run_state *r = head->r;
	double start = now(), limit = KC_BASELINE_BUDGET_FACTOR * r->budget;
	for (int pair = 0; pair < KC_BASELINE_MAX_PAIRS && now() - start < limit; pair++) {
		const char *step = kc_arena_printf(r->a, "running against the baseline, pair %d", pair + 1);
		for (int k = 0; k < 2; k++) {
			int head_turn = (k == 0) == (pair % 2 == 0);
			struct side *sd = head_turn ? head : base;
			int f = head_turn ? i : j;
			/* the ceilings beside the first 4 pairs, after their second slice: the slice after them is
			 * the base's twice and the head's twice */
			if (wants_slice(sd, f))
				slice(sd, f, KC_BASELINE_SLICE_SECONDS, KC_BASELINE_MIN_SLICE_SAMPLES, step,
				      k == 1 && pair < 4);
		}
		if (!wants_slice(head, i) || !wants_slice(base, j))
			break;
		/* the unit is a slice's median: processes differ (where the buffers and the stack fall), and the
		 * samples of one are not independent of each other (identical binaries timed 3% apart, p < 1e-5) */
		const struct kc_series *h = &head->ts[i].slices, *b = &base->ts[j].slices;
		struct kc_comparison c;
		/* looked at after every pair: a decision ends the slices early only with a p ten times below the
		 * verdict's (the looks would otherwise add up to a larger error than the one stated) */
		if (pair + 1 >= KC_BASELINE_MIN_PAIRS && kc_compare(b->v, b->n, h->v, h->n, threshold, &c) == 0 &&
		    (c.verdict == KC_VERDICT_UNCHANGED ||
		     (c.verdict != KC_VERDICT_INCONCLUSIVE && c.p_value < KC_COMPARE_ALPHA / 10)))
			break;
	}
}

/* Summarize each timed function of sd, check it, and measure its traffic. */
static void finish_side(struct side *sd, int check)
{
	struct kc_run_state *r = sd->r;
	for (int i = 0; i < sd->n; i++) {
		if (!sd->plans[i].error && finish_timing(r, &sd->plans[i], sd->items[i], &sd->t[i], &sd->ts[i]) == 0 &&
		    check)
			check_function(r, &sd->fr, &sd->plans[i], sd->items[i]);
		if (!sd->plans[i].error)
			r->done++;
		free(sd->ts[i].t.v);
		free(sd->ts[i].slices.v);
	}
	kc_traffic_step_measure(r, &sd->fr, sd->plans, sd->t, sd->items, sd->n, r->traffic);
}

static void run_file(struct kc_run_state *r, const char *path, const struct file_functions *ff, int index, int n_files)
{
	struct side head;
	if (build_side(&head, r, path, ff, kc_arena_printf(r->a, "%s/%d", r->tmpdir, index), index, n_files) < 0)
		return;
	/* every timing first, then the traffic, whose simulations may run in parallel without disturbing them */
	time_rounds(&head, NULL);
	finish_side(&head, 1);
}

/* An input file and the same file at the baseline revision (--baseline): the functions of both that can run
 * are timed in alternating slices (time_pair), the others as run_file times them. */
static void run_file_pair(struct kc_run_state *r, struct kc_run_state *rb, int k, const struct file_functions *ff,
                          const struct file_functions *fb, int index, int n_files)
{
	struct side head, base;
	int head_ok = build_side(&head, r, r->an->files[k], ff, kc_arena_printf(r->a, "%s/%d", r->tmpdir, index), index,
	                         n_files) == 0;
	int base_ok =
	    fb->n > 0 && build_side(&base, rb, rb->an->files[k], fb,
	                            kc_arena_printf(r->a, "%s/%d-base", r->tmpdir, index), index, n_files) == 0;
	if (!head_ok && !base_ok)
		return;
	int *paired = KC_NEW_N(r->a, int, ff->n + 1), *paired_base = KC_NEW_N(r->a, int, fb->n + 1);
	for (int j = 0; j < fb->n; j++)
		paired_base[j] = -1;
	for (int i = 0; i < ff->n; i++) {
		paired[i] = -1;
		for (int j = 0; head_ok && base_ok && j < fb->n && paired[i] < 0; j++)
			if (!head.plans[i].error && !base.plans[j].error && paired_base[j] < 0 &&
			    !strcmp(head.plans[i].fn->name, base.plans[j].fn->name))
				paired[i] = j, paired_base[j] = i;
	}
	for (int i = 0; i < ff->n; i++)
		if (paired[i] >= 0)
			time_pair(&head, i, &base, paired[i], r->threshold);
	if (head_ok) {
		time_rounds(&head, paired);
		finish_side(&head, 1);
	}
	if (base_ok) {
		time_rounds(&base, paired_base);
		finish_side(&base, 0);
	}
}

/* --- the run ----------------------------------------------------------------------------------------------------- */

/* The non-skipped functions bucketed by file_index, in one pass. A function belongs to the file whose translation
 * unit defined it (an->files[file_index]), not to the file its location names: a kernel defined in an included
 * header is built into the harness of the input that includes it, as the harness must include an input to get
 * the header the way the analysis saw it. */
static struct file_functions *bucket_by_file(struct kc_run_state *r)
{
	const struct kc_analysis *an = r->an;
	struct file_functions *ff = KC_NEW_N(r->a, struct file_functions, an->n_files + 1);
	for (int i = 0; i < an->n_functions; i++) {
		const struct kc_function *f = an->functions[i];
		KC_ASSERT(f->file_index >= 0 && f->file_index < an->n_files);
		ff[f->file_index].n += !f->skip;
	}
	for (int k = 0; k < an->n_files; k++)
		ff[k].fns = KC_NEW_N(r->a, int, ff[k].n + 1), ff[k].n = 0;
	for (int i = 0; i < an->n_functions; i++)
		if (!an->functions[i]->skip) {
			struct file_functions *b = &ff[an->functions[i]->file_index];
			b->fns[b->n++] = i;
		}
	return ff;
}

static void init_items(struct kc_run_state *r)
{
	struct kc_measurements *m = r->m;
	m->n = r->an->n_functions;
	m->n_measured = 0;
	m->items = KC_NEW_N(r->a, struct kc_measurement, m->n > 0 ? m->n : 1);
	for (int i = 0; i < r->an->n_functions; i++) {
		const struct kc_function *f = r->an->functions[i];
		if (f->skip)
			continue;
		m->n_measured++;
		struct kc_measurement *item = &m->items[i];
		item->function = f->name;
		item->file = f->loc.file;
		item->reference = f->reference;
		item->equivalent = -1;
		item->traffic_source = "unavailable";
		item->traffic_why = "not measured";
	}
	r->total = m->n_measured;
}

static void detect_tools(struct kc_run_state *r)
{
	char why[256], path[PATH_MAX]; /* kc_counters_available's messages are short; PATH_MAX: what execve takes */
	r->counters = kc_counters_available(why, sizeof why);
	r->counters_why = kc_arena_strdup(r->a, why);
	r->valgrind = kc_child_which("valgrind", path, sizeof path) == 0 ? kc_arena_strdup(r->a, path) : NULL;
	r->valgrind_version = "valgrind";
	const char *argv[] = {r->valgrind, "--version", NULL};
	struct kc_child_limits lim = {10, 0, 0, NULL};
	struct kc_child_result res;
	char msg[KC_CHILD_MSG_SIZE];
	if (r->valgrind && kc_child_run(argv, NULL, NULL, &lim, &res, msg, sizeof msg) == 0 && res.exited &&
	    res.exit_code == 0 && *res.out)
		r->valgrind_version = kc_arena_strndup(r->a, res.out, strcspn(res.out, "\n"));
	if (r->valgrind)
		kc_child_result_release(&res);
	struct kc_cpu cpu;
	kc_cpu_probe(&cpu);
	r->no_avx512_for_valgrind = cpu.flags && strstr(cpu.flags, "avx512f") != NULL;
	kc_cpu_release(&cpu);
}

static int make_tmpdir(struct kc_run_state *r)
{
	const char *base = getenv("TMPDIR");
	if (!base || base[0] != '/')
		base = "/tmp";
	char *dir = kc_arena_printf(r->a, "%s/kcost-XXXXXX", base);
	r->tmpdir = dir;
	return mkdtemp(dir) ? 0 : -1;
}

/* The user's flags as the harness's compiler needs them: it runs in a temporary directory, so a relative path of
 * -I, -iquote, -isystem, -idirafter or -include (joined, "-Idir", or the next word) becomes absolute, from kcost's
 * own working directory, as the analysis read it. */
static const char *const *absolute_args(struct kc_arena *a, const char *const *args, int n)
{
	static const char *const opts[] = {"-I", "-iquote", "-isystem", "-idirafter", "-include", NULL};
	const char **out = KC_NEW_N(a, const char *, n + 1);
	char cwd[PATH_MAX];
	int have_cwd = getcwd(cwd, sizeof cwd) != NULL;
	for (int i = 0; i < n; i++) {
		out[i] = args[i];
		for (int k = 0; have_cwd && opts[k]; k++) {
			size_t len = strlen(opts[k]);
			if (strncmp(args[i], opts[k], len))
				continue;
			const char *path = args[i][len] ? args[i] + len : NULL;
			if (!path && i + 1 < n) { /* "-I dir": the path is the next word */
				if (args[i + 1][0] != '/') {
					i++;
					out[i] = kc_arena_printf(a, "%s/%s", cwd, args[i]);
				}
				break;
			}
			if (path && path[0] != '/' && path[0] != '=') /* "-I=dir" is under the sysroot */
				out[i] = kc_arena_printf(a, "%s%s/%s", opts[k], cwd, path);
			break;
		}
	}
	return out;
}

static void init_state(struct kc_run_state *r, const struct kc_runner_opts *o)
{
	r->progress = o->progress;
	r->verbose = o->verbose;
	r->no_traffic = o->no_traffic;
	r->budget = o->time_budget > 0 ? o->time_budget : KC_RUNNER_DEFAULT_BUDGET;
	r->threshold = o->base ? o->threshold : KC_RUNNER_DEFAULT_THRESHOLD; /* --threshold 0 is 0 */
	r->timeout = o->timeout > 0 ? o->timeout : KC_RUNNER_DEFAULT_TIMEOUT;
	r->memory_limit = o->memory_limit > 0 ? o->memory_limit : kc_child_default_memory_limit();
	r->build = (struct kc_build){
	    .a = r->a,
	    .cc = o->cc ? o->cc : KC_RUNNER_DEFAULT_CC,
	    .cflags = o->cflags ? o->cflags : KC_RUNNER_DEFAULT_CFLAGS,
	    .extra_args = absolute_args(r->a, o->extra_args, o->n_extra_args),
	    .n_extra_args = o->n_extra_args,
	    .include_dir = o->include_dir,
	    .threads = o->threads,
	    .verbose = o->verbose,
	    .timeout = r->timeout,
	    .blas = -1,
	};
}

/* --sandbox: probe it; 1 when kernels can run in it, else every function fails with the reason. */
static int enter_sandbox(struct kc_run_state *r)
{
	char why[256];
	if (kc_sandbox_probe(r->tmpdir, why, sizeof why) == 0) {
		r->sandbox_dir = r->tmpdir;
		r->m->sandbox = 1;
		r->m->sandbox_note = KC_SANDBOX_ISOLATION;
		return 1;
	}
	r->m->sandbox = -1;
	r->m->sandbox_note = kc_arena_strdup(r->a, why);
	kc_diag_add(r->a, r->diags, (struct kc_loc){NULL, 0, 0}, KC_ERROR, KC_DIAG_RUN, NULL,
	            "--sandbox: kernels cannot be isolated on this machine (%s); none was run", why);
	const char *msg = kc_arena_printf(r->a, "not run: --sandbox is not available here (%s)", why);
	for (int i = 0; i < r->an->n_functions; i++)
		if (!r->an->functions[i]->skip) {
			r->m->items[i].error = msg;
			r->m->items[i].traffic_why = "not measured: the kernel was not run";
		}
	return 0;
}

static void run_files(struct kc_run_state *r, struct kc_run_state *rb)
{
	struct file_functions *ff = bucket_by_file(r), *fb = rb ? bucket_by_file(rb) : NULL, none = {0};
	int n_files = 0, index = 0;
	for (int k = 0; k < r->an->n_files; k++)
		n_files += ff[k].n > 0;
	for (int k = 0; k < r->an->n_files; k++) {
		const struct file_functions *b = fb && k < rb->an->n_files ? &fb[k] : &none;
		if (rb && (ff[k].n > 0 || b->n > 0))
			run_file_pair(r, rb, k, &ff[k], b, index++, n_files);
		else if (ff[k].n > 0)
			run_file(r, r->an->files[k], &ff[k], index++, n_files);
	}
}

int kc_run(const struct kc_analysis *an, const struct kc_runner_opts *o, struct kc_arena *a, struct kc_measurements *m,
           struct kc_diags *diags)
{
	struct kc_run_state r = {.an = an, .a = a, .m = m, .diags = diags, .started = (long long)time(NULL)};
	init_state(&r, o);
	m->machine = KC_NEW(a, struct kc_machine);
	struct kc_ceilings_opts co = {o->cache_dir, o->remeasure, o->verbose, o->progress};
	kc_ceilings_get(a, &co, m->machine);
	char default_dir[PATH_MAX];
	if (o->cache_dir)
		r.sim_cache_dir = o->cache_dir;
	else if (kc_ceilings_default_dir(default_dir, sizeof default_dir) == 0)
		r.sim_cache_dir = kc_arena_strdup(a, default_dir);
	r.resimulate = o->remeasure;
	if (o->threads > 1) { /* the roofs that match: every core's compute (bandwidth stays one thread's) */
		m->machine->flops_f32 = m->machine->flops_f32_all_threads;
		m->machine->flops_f64 = m->machine->flops_f64_all_threads;
	}
	init_items(&r);
	if (make_tmpdir(&r) < 0) {
		kc_diag_add(a, diags, (struct kc_loc){NULL, 0, 0}, KC_ERROR, KC_DIAG_RUN, NULL,
		            "cannot create a temporary directory in %s: %s", r.tmpdir, strerror(errno));
		return -1;
	}
	kc_cleanup_begin(o->verbose ? NULL : r.tmpdir);
	r.build.probe_dir = r.tmpdir;
	set_kernel_env(&r, o->threads);
	detect_tools(&r);
	r.beside_wanted = !o->other_ceilings;
	r.other_ceilings = o->other_ceilings;
	/* --baseline: the base's functions run beside the head's, in the same temporary directory and limits */
	struct kc_run_state rb_state, *rb = NULL;
	if (o->base && o->base_m) {
		rb_state = r;
		rb = &rb_state;
		rb->an = o->base, rb->m = o->base_m;
		rb->beside = NULL, rb->beside_wanted = 0; /* the head's slices sample the ceilings */
		rb->diags = KC_NEW(a, struct kc_diags);   /* the base's failures are its measurements' errors */
		/* REV's own flags: its -I directories are in its worktree */
		rb->build.extra_args = absolute_args(a, o->base_extra_args, o->n_base_extra_args);
		rb->build.n_extra_args = o->n_base_extra_args;
		o->base_m->machine = m->machine;
		init_items(rb);
	}
	r.traffic = kc_traffic_batch_new(&r);
	if (rb)
		rb->traffic = r.traffic;
	int sandboxed = !o->sandbox || enter_sandbox(&r);
	if (rb) { /* the base's kernels run in the same sandbox as the head's */
		rb->sandbox_dir = r.sandbox_dir;
		o->base_m->sandbox = m->sandbox, o->base_m->sandbox_note = m->sandbox_note;
	}
	if (sandboxed) {
		run_files(&r, rb);
		kc_traffic_step_run(&r, r.traffic); /* every file's simulations, once every timing is done */
	}
	int samples = kc_beside_finish(r.beside, a, m->machine);
	if (o->verbose)
		fprintf(stderr, "kcost: ceilings sampled beside the kernels' timings %d time%s%s\n", samples,
		        samples == 1 ? "" : "s",
		        o->other_ceilings ? " (the predictions use other ceilings: --machine, --peak)" : "");
	if (o->verbose)
		fprintf(stderr, "kcost: harness files kept in %s\n", r.tmpdir);
	else
		kc_cleanup_remove_tree(r.tmpdir);
	kc_cleanup_end();
	return 0;
}

/* runner.c — kc_run: one harness per input file, each kernel timed, checked and its traffic measured in
 * children with limits. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ceilings.h"
#include "counters.h"
#include "harness/kcost_driver.h"
#include "runner_int.h"
#include "stats.h"

#ifndef KC_OPENBLAS_CFLAGS
#define KC_OPENBLAS_CFLAGS ""
#endif
#ifndef KC_OPENBLAS_LDFLAGS
#define KC_OPENBLAS_LDFLAGS "-lopenblas"
#endif

#define MAX_ARGS 256
#define WRAP_FLAGS "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=posix_memalign"

const char *kc_runner_child_env[] = {"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1", NULL};

/* Kernels run single-threaded unless --threads asks for more (OpenMP kernels). */
static void set_threads(int threads)
{
	static char omp[32], blas[40];
	int n = threads > 1 ? threads : 1;
	snprintf(blas, sizeof blas, "OPENBLAS_NUM_THREADS=%d", n);
	snprintf(omp, sizeof omp, "OMP_NUM_THREADS=%d", n);
	kc_runner_child_env[0] = blas;
	kc_runner_child_env[1] = omp;
}

/* --- small helpers ------------------------------------------------------------------------------------------ */

long long kc_runner_address_space(long long buffer_bytes, long long heap_bytes)
{
	const long long cap = 1LL << 62;
	if (buffer_bytes < 0 || heap_bytes < 0 || buffer_bytes > cap / 4 || heap_bytes > cap / 4)
		return cap;
	return 3 * buffer_bytes + heap_bytes + (2LL << 30);
}

void kc_runner_first_error_line(const char *text, char *out, size_t n)
{
	static const char *const marks[] = {"error", "undefined reference", "cannot find"};
	const char *pick = NULL;
	for (const char *p = text; p && *p && !pick; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strcspn(p, "\n");
		for (size_t i = 0; i < sizeof marks / sizeof marks[0] && !pick; i++) {
			const char *e = strstr(p, marks[i]);
			if (e && (size_t)(e - p) < len)
				pick = p;
		}
	}
	for (const char *p = text; p && *p && !pick; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strcspn(p, "\n") > strspn(p, " \t"))
			pick = p;
	if (!pick)
		pick = "";
	snprintf(out, n, "%.*s", (int)strcspn(pick, "\n"), pick);
}

void kc_runner_split_flags(char *flags, const char **argv, int *argc, int max)
{
	char *save = NULL;
	for (char *w = strtok_r(flags, " \t\n", &save); w && *argc < max; w = strtok_r(NULL, " \t\n", &save))
		argv[(*argc)++] = w;
}

const char *kc_runner_failure(const struct kc_spawn_result *r, const struct kc_spawn_limits *lim, char *buf,
                              size_t n)
{
	const char *bytes = r->out ? strstr(r->out, "\"error\":\"alloc\",\"bytes\":") : NULL;
	if (r->exited && r->exit_code == KCOST_EXIT_ALLOC && bytes) {
		unsigned long long b = strtoull(bytes + strlen("\"error\":\"alloc\",\"bytes\":"), NULL, 10);
		if (lim && lim->address_space > 0)
			snprintf(buf, n, "could not allocate %llu bytes (address-space limit %.1f GiB)", b,
			         (double)lim->address_space / (double)(1LL << 30));
		else
			snprintf(buf, n, "could not allocate %llu bytes", b);
		return buf;
	}
	if (!kc_spawn_result_describe(r, lim, buf, n))
		return NULL;
	if (r->exited && r->err && *r->err) {
		char line[512];
		kc_runner_first_error_line(r->err, line, sizeof line);
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, ": %s", line);
	}
	return buf;
}

/* The harness's JSON line: the last stdout line that starts with '{' (the kernel may print too). */
static cJSON *child_json(const char *out)
{
	const char *last = NULL;
	for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p == '{')
			last = p;
	if (!last)
		return NULL;
	char *line = strndup(last, strcspn(last, "\n"));
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	free(line);
	return j;
}

/* A number of the JSON line; the strings "inf"/"nan" the driver writes for non-finite values become them. */
double kc_runner_json_number(const cJSON *j, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
	if (cJSON_IsNumber(v))
		return v->valuedouble;
	if (cJSON_IsString(v))
		return strtod(v->valuestring, NULL);
	return 0;
}

void kc_runner_progress(const struct kc_run_state *r, const char *step, int i, int n, const char *what)
{
	if (r->o->progress)
		r->o->progress(step, i, n, what);
}

void kc_runner_show_command(const struct kc_run_state *r, const char *dir, const char *const *argv)
{
	if (!r->o->verbose)
		return;
	char *cmd = kc_spawn_command_string(argv);
	fprintf(stderr, "kcost: (cd %s && %s)\n", dir, cmd ? cmd : argv[0]);
	free(cmd);
}

static void fail(struct kc_run_state *r, const struct kc_function *f, struct kc_measurement *item, enum kc_severity sev,
                 const char *msg)
{
	item->error = kc_arena_strdup(r->a, msg);
	item->traffic_source = "unavailable";
	item->traffic_why = "not measured: the kernel did not run to completion";
	if (!strncmp(msg, "not run:", 8))
		item->traffic_why = "not measured: the kernel was not run";
	kc_diag_add(r->a, r->diags, f->loc, sev, f->name, "%s", msg);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[4400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	if (!fp)
		return -1;
	int ok = fputs(text, fp) >= 0;
	return fclose(fp) == 0 && ok ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

/* --- compiling ------------------------------------------------------------------------------------------------ */

/* Append the words of a flags string to argv (split in a copy kept in the arena). */
static void add_flags(struct kc_run_state *r, const char *flags, const char **argv, int *argc)
{
	kc_runner_split_flags(kc_arena_strdup(r->a, flags ? flags : ""), argv, argc, MAX_ARGS - 16);
}

/* Start a compiler command in dir; -1 with *why when it cannot start. */
static int compile_start(struct kc_run_state *r, const char *dir, const char *const *argv, struct kc_spawn_job *job,
                         const char **why)
{
	struct kc_spawn_limits lim = {r->timeout > 120 ? r->timeout : 120, 0, 0};
	char msg[512];
	kc_runner_show_command(r, dir, argv);
	if (kc_spawn_start(job, argv, dir, NULL, &lim, msg, sizeof msg) == 0)
		return 0;
	kc_spawn_result_release(&job->result);
	*why = kc_arena_strdup(r->a, msg);
	return -1;
}

/* The verdict on a finished compiler job: 0, or -1 with the first error line in *why (arena). */
static int compile_finish(struct kc_run_state *r, struct kc_spawn_job *job, const char **why)
{
	struct kc_spawn_result *res = &job->result;
	char msg[512], line[512];
	int ok = res->exited && res->exit_code == 0;
	if (!ok && r->o->verbose)
		fputs(res->err, stderr);
	if (!ok && (res->timed_out || res->signaled)) {
		*why = kc_arena_printf(r->a, "the compiler %s", kc_spawn_result_describe(res, &job->lim, msg, sizeof msg));
	} else if (!ok) {
		kc_runner_first_error_line(res->err, line, sizeof line);
		*why = kc_arena_strdup(r->a, line);
	}
	kc_spawn_result_release(res);
	return ok ? 0 : -1;
}

/* Run a compiler command in dir; 0 on success, else -1 with the first error line in why (arena). */
static int compile(struct kc_run_state *r, const char *dir, const char *const *argv, const char **why)
{
	struct kc_spawn_job job;
	if (compile_start(r, dir, argv, &job, why) < 0)
		return -1;
	while (job.running)
		kc_spawn_wait_any(&job, 1);
	return compile_finish(r, &job, why);
}

/* The common head of a compile command: cc, cflags, the user's flags. */
static int compiler_head(struct kc_run_state *r, const char **argv, const char *extra_cflag)
{
	int argc = 0;
	argv[argc++] = r->cc;
	add_flags(r, r->cflags, argv, &argc);
	if (r->o->threads > 1)
		argv[argc++] = "-fopenmp";
	if (extra_cflag)
		argv[argc++] = extra_cflag;
	for (int i = 0; i < r->o->n_extra_args && argc < MAX_ARGS - 24; i++)
		argv[argc++] = r->o->extra_args[i];
	return argc;
}

/* Does a program including <cblas.h> and calling it link with OpenBLAS? Probed once per run. */
static int blas_links(struct kc_run_state *r)
{
	if (r->blas >= 0)
		return r->blas;
	const char *argv[MAX_ARGS], *why;
	r->blas = 0;
	if (write_file(r->tmpdir, "blas_probe.c",
	               "#include <cblas.h>\nint main(void)\n{\n\treturn cblas_sdot(0, 0, 1, 0, 1) != 0.0f;\n}\n") < 0)
		return 0;
	int argc = compiler_head(r, argv, NULL);
	add_flags(r, KC_OPENBLAS_CFLAGS, argv, &argc);
	argv[argc++] = "blas_probe.c", argv[argc++] = "-o", argv[argc++] = "blas_probe";
	add_flags(r, KC_OPENBLAS_LDFLAGS, argv, &argc);
	argv[argc] = NULL;
	r->blas = compile(r, r->tmpdir, argv, &why) == 0;
	return r->blas;
}

/* The command that builds fr->dir/<output> from harness.c; *command is its display string. */
static void harness_command(struct kc_run_state *r, struct kc_file_run *fr, const char *output,
                            const char *extra_cflag, const char **argv, const char **command)
{
	int blas = blas_links(r);
	int argc = compiler_head(r, argv, extra_cflag);
	char *dir = kc_arena_strdup(r->a, fr->abs);
	argv[argc++] = kc_arena_printf(r->a, "-I%s", dirname(dir));
	if (r->o->include_dir)
		argv[argc++] = kc_arena_printf(r->a, "-I%s", r->o->include_dir);
	if (blas)
		add_flags(r, KC_OPENBLAS_CFLAGS, argv, &argc);
	argv[argc++] = "harness.c", argv[argc++] = "kcost_driver.c", argv[argc++] = "-o", argv[argc++] = output;
	argv[argc++] = WRAP_FLAGS, argv[argc++] = "-lm";
	if (blas)
		add_flags(r, KC_OPENBLAS_LDFLAGS, argv, &argc);
	argv[argc] = NULL;
	char *cmd = kc_spawn_command_string(argv);
	*command = kc_arena_strdup(r->a, cmd ? cmd : "");
	free(cmd);
}

int kc_runner_build(struct kc_run_state *r, struct kc_file_run *fr, const char *output, const char *extra_cflag,
                    const char **command, const char **why)
{
	const char *argv[MAX_ARGS];
	harness_command(r, fr, output, extra_cflag, argv, command);
	return compile(r, fr->dir, argv, why);
}

/* Build ./harness and, when cache simulation will need it, ./harness-cg without AVX-512 (see
 * runner_traffic.c) at the same time. 0, or -1 with *why when ./harness did not build. */
static int build_file(struct kc_run_state *r, struct kc_file_run *fr, const char **why)
{
	const char *argv[2][MAX_ARGS], *cg_command, *cg_why = NULL;
	struct kc_spawn_job jobs[2];
	int need_cg = r->no_avx512_for_valgrind && r->valgrind[0] && !r->counters;
	harness_command(r, fr, "harness", NULL, argv[0], &fr->compiler);
	if (need_cg)
		harness_command(r, fr, "harness-cg", "-mno-avx512f", argv[1], &cg_command);
	if (compile_start(r, fr->dir, argv[0], &jobs[0], why) < 0)
		return -1;
	int cg_started = need_cg && compile_start(r, fr->dir, argv[1], &jobs[1], &cg_why) == 0;
	if (!cg_started)
		jobs[1].running = 0;
	while (kc_spawn_wait_any(jobs, 2) >= 0)
		continue;
	int rc = compile_finish(r, &jobs[0], why);
	if (cg_started && compile_finish(r, &jobs[1], &cg_why) == 0) {
		fr->cg_state = 1, fr->cg_binary = "./harness-cg";
		fr->cg_note = "; harness rebuilt with -mno-avx512f, as valgrind cannot run AVX-512";
	} else if (need_cg) {
		fr->cg_state = -1;
		fr->cg_note = kc_arena_printf(r->a, "the harness did not build with -mno-avx512f for valgrind: %s", cg_why);
	}
	return rc;
}

/* --- one function ---------------------------------------------------------------------------------------------- */

cJSON *kc_runner_harness(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                          const char *const *argv, const char **why)
{
	struct kc_spawn_limits lim = {r->timeout, r->timeout + 1,
	                              kc_runner_address_space(p->bytes, p->heap_bytes)};
	struct kc_spawn_result res;
	char msg[1024];
	cJSON *j = NULL;
	if (kc_spawn_run(argv, fr->dir, kc_runner_child_env, &lim, &res, msg, sizeof msg) < 0)
		*why = kc_arena_strdup(r->a, msg);
	else if (kc_runner_failure(&res, &lim, msg, sizeof msg))
		*why = kc_arena_strdup(r->a, msg);
	else if (!(j = child_json(res.out)))
		*why = "the harness exited without reporting a result";
	kc_spawn_result_release(&res);
	return j;
}

static int measure_time(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                        struct kc_measurement *item, struct kc_timing *t)
{
	const struct kc_function *f = p->fn;
	const char *why = NULL;
	const char *argv[] = {"./harness", f->name, "time", kc_arena_printf(r->a, "%g", r->budget),
	                      kc_arena_printf(r->a, "%g", r->timeout * 0.5), NULL};
	cJSON *j = kc_runner_harness(r, fr, p, argv, &why);
	const cJSON *samples = j ? cJSON_GetObjectItemCaseSensitive(j, "samples") : NULL;
	int n = cJSON_GetArraySize(samples);
	double *s = n > 0 ? malloc(sizeof *s * (size_t)n) : NULL;
	struct kc_stats st;
	for (int i = 0; s && i < n; i++)
		s[i] = cJSON_GetArrayItem(samples, i)->valuedouble;
	int ok = s && kc_stats_compute(s, n, &st) == 0;
	if (ok) {
		item->seconds_min = st.min, item->seconds_median = st.median, item->seconds_p90 = st.p90;
		item->samples = st.n, item->cv = st.cv;
		item->checksum = kc_runner_json_number(j, "checksum");
		t->setup = kc_runner_json_number(j, "setup_seconds"), t->median = st.median, t->ok = 1;
	} else {
		fail(r, f, item, KC_ERROR, why ? why : "the harness reported no timing samples");
	}
	free(s);
	cJSON_Delete(j);
	return ok ? 0 : -1;
}

static void check_reference(struct kc_run_state *r, const struct kc_file_run *fr, const struct kc_harness_plan *p,
                            struct kc_measurement *item)
{
	const struct kc_function *f = p->fn;
	if (!p->ref_args) {
		item->equivalence_note = p->reference_note;
		kc_diag_add(r->a, r->diags, f->loc, KC_WARNING, f->name, "%s", p->reference_note);
		return;
	}
	const char *why = NULL, *argv[] = {"./harness", f->name, "check", NULL};
	cJSON *j = kc_runner_harness(r, fr, p, argv, &why);
	if (!j) {
		fail(r, f, item, KC_ERROR, kc_arena_printf(r->a, "checking against reference %s: %s", p->reference, why));
		return;
	}
	const cJSON *worst = cJSON_GetObjectItemCaseSensitive(j, "worst");
	item->max_rel_err = kc_runner_json_number(j, "max_rel_err");
	item->equivalent = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ok"));
	if (!item->equivalent) {
		const char *msg = kc_arena_printf(r->a, "outputs differ from reference %s: max relative error %.3g at %s",
		                                  p->reference, kc_runner_json_number(j, "worst_rel_err"),
		                                  cJSON_IsString(worst) ? worst->valuestring : "?");
		item->error = msg;
		kc_diag_add(r->a, r->diags, f->loc, KC_ERROR, f->name, "%s", msg);
	}
	cJSON_Delete(j);
}

/* Time p and check it against its reference; *t says whether the timing succeeded. */
static void measure_function(struct kc_run_state *r, struct kc_file_run *fr, const struct kc_harness_plan *p,
                             struct kc_measurement *item, struct kc_timing *t)
{
	item->compiler = fr->compiler;
	kc_runner_progress(r, "running", r->done, r->total, p->fn->name);
	if (measure_time(r, fr, p, item, t) < 0)
		return;
	if (p->reference) {
		kc_runner_progress(r, "checking", r->done, r->total, p->fn->name);
		check_reference(r, fr, p, item);
	}
}

/* --- one file --------------------------------------------------------------------------------------------------- */

static struct kc_measurement *item_of(struct kc_run_state *r, const struct kc_function *f)
{
	return &r->m->items[f->index];
}

static int in_file(const struct kc_function *f, const char *path)
{
	return !f->skip && f->loc.file && !strcmp(f->loc.file, path);
}

/* Plan every function of the file; the plans that cannot run get their error now. Returns how many can. */
static int plan_file(struct kc_run_state *r, const char *path, struct kc_harness_plan *plans, int *n)
{
	int runnable = 0;
	*n = 0;
	for (int i = 0; i < r->an->n_functions; i++) {
		const struct kc_function *f = r->an->functions[i];
		if (!in_file(f, path))
			continue;
		struct kc_harness_plan *p = &plans[(*n)++];
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
	if (rc == 0 && (write_file(fr->dir, "harness.c", kc_buf_str(&src)) < 0 ||
	                write_file(fr->dir, "kcost_driver.c", (const char *)kc_harness_kcost_driver_c) < 0 ||
	                write_file(fr->dir, "kcost_driver.h", (const char *)kc_harness_kcost_driver_h) < 0)) {
		*why = kc_arena_printf(r->a, "cannot write the harness in %s: %s", fr->dir, strerror(errno));
		rc = -1;
	}
	kc_buf_release(&src);
	return rc;
}

/* Fail every runnable plan of a file with the same message. */
static void fail_file(struct kc_run_state *r, struct kc_harness_plan *plans, int n, const char *msg, const char *compiler)
{
	for (int i = 0; i < n; i++)
		if (!plans[i].error) {
			struct kc_measurement *item = item_of(r, plans[i].fn);
			item->compiler = compiler;
			fail(r, plans[i].fn, item, KC_ERROR, msg);
			r->done++;
		}
}

static void run_file(struct kc_run_state *r, const char *path, int index, int n_files)
{
	struct kc_file_run fr = {.path = path};
	struct kc_harness_plan *plans = KC_NEW_N(r->a, struct kc_harness_plan, r->an->n_functions + 1);
	int n, runnable = plan_file(r, path, plans, &n);
	const char *why = NULL;
	if (!runnable)
		return;
	snprintf(fr.dir, sizeof fr.dir, "%s/%d", r->tmpdir, index);
	kc_runner_progress(r, "compiling", index, n_files, path);
	if (!realpath(path, fr.abs)) {
		fail_file(r, plans, n, kc_arena_printf(r->a, "harness not built: %s: %s", path, strerror(errno)), NULL);
		return;
	}
	if (mkdir(fr.dir, 0700) < 0 || write_harness(r, &fr, plans, n, &why) < 0) {
		fail_file(r, plans, n, kc_arena_printf(r->a, "harness not built: %s", why ? why : strerror(errno)), NULL);
		return;
	}
	if (build_file(r, &fr, &why) < 0) {
		fail_file(r, plans, n, kc_arena_printf(r->a, "harness failed to compile: %s", why), fr.compiler);
		return;
	}
	/* every timing first, then the traffic, whose simulations may run in parallel without disturbing them */
	struct kc_timing *t = KC_NEW_N(r->a, struct kc_timing, n + 1);
	struct kc_measurement **items = KC_NEW_N(r->a, struct kc_measurement *, n + 1);
	for (int i = 0; i < n; i++) {
		items[i] = item_of(r, plans[i].fn);
		if (!plans[i].error) {
			measure_function(r, &fr, &plans[i], items[i], &t[i]);
			r->done++;
		}
	}
	kc_runner_traffic(r, &fr, plans, t, items, n);
}

/* --- the run ----------------------------------------------------------------------------------------------------- */

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
	r->counters = kc_counters_available(r->counters_why, sizeof r->counters_why);
	if (kc_spawn_which("valgrind", r->valgrind, sizeof r->valgrind) < 0)
		r->valgrind[0] = '\0';
	r->valgrind_version = "valgrind";
	const char *argv[] = {r->valgrind, "--version", NULL};
	struct kc_spawn_limits lim = {10, 0, 0};
	struct kc_spawn_result res;
	char msg[256];
	if (r->valgrind[0] && kc_spawn_run(argv, NULL, NULL, &lim, &res, msg, sizeof msg) == 0 && res.exited &&
	    res.exit_code == 0 && *res.out)
		r->valgrind_version = kc_arena_strndup(r->a, res.out, strcspn(res.out, "\n"));
	if (r->valgrind[0])
		kc_spawn_result_release(&res);
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
	snprintf(r->tmpdir, sizeof r->tmpdir, "%s/kcost-XXXXXX", base);
	return mkdtemp(r->tmpdir) ? 0 : -1;
}

static int is_first_of_file(const struct kc_analysis *an, int i)
{
	const struct kc_function *f = an->functions[i];
	if (f->skip || !f->loc.file)
		return 0;
	for (int j = 0; j < i; j++)
		if (!an->functions[j]->skip && an->functions[j]->loc.file && !strcmp(an->functions[j]->loc.file, f->loc.file))
			return 0;
	return 1;
}

int kc_run(const struct kc_analysis *an, const struct kc_runner_opts *o, struct kc_arena *a, struct kc_measurements *m,
           struct kc_diags *diags)
{
	struct kc_run_state r = {
		.an = an, .o = o, .a = a, .m = m, .diags = diags,
		.cc = o->cc ? o->cc : KC_RUNNER_DEFAULT_CC,
		.cflags = o->cflags ? o->cflags : KC_RUNNER_DEFAULT_CFLAGS,
		.budget = o->time_budget > 0 ? o->time_budget : KC_RUNNER_DEFAULT_BUDGET,
		.timeout = o->timeout > 0 ? o->timeout : KC_RUNNER_DEFAULT_TIMEOUT,
		.blas = -1,
	};
	m->machine = KC_NEW(a, struct kc_machine);
	struct kc_ceilings_opts co = {o->cache_dir, o->remeasure, o->verbose, o->progress};
	kc_ceilings_get(a, &co, m->machine);
	set_threads(o->threads);
	if (o->threads > 1) { /* the roofs that match: every core's compute (bandwidth stays one thread's) */
		m->machine->flops_f32 = m->machine->flops_f32_all_threads;
		m->machine->flops_f64 = m->machine->flops_f64_all_threads;
	}
	init_items(&r);
	if (make_tmpdir(&r) < 0) {
		kc_diag_add(a, diags, (struct kc_loc){NULL, 0, 0}, KC_ERROR, NULL,
		            "cannot create a temporary directory in %s: %s", r.tmpdir, strerror(errno));
		return -1;
	}
	detect_tools(&r);
	int n_files = 0, index = 0;
	for (int i = 0; i < an->n_functions; i++)
		n_files += is_first_of_file(an, i);
	for (int i = 0; i < an->n_functions; i++)
		if (is_first_of_file(an, i))
			run_file(&r, an->functions[i]->loc.file, index++, n_files);
	if (o->verbose)
		fprintf(stderr, "kcost: harness files kept in %s\n", r.tmpdir);
	else
		nftw(r.tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

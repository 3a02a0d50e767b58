/* build.c — compile a generated harness: the compiler command, the OpenBLAS probe, the compiler children. */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "child.h"
#include "harness.h"
#include "source.h"

#ifndef KC_OPENBLAS_CFLAGS
#define KC_OPENBLAS_CFLAGS ""
#endif
#ifndef KC_OPENBLAS_LDFLAGS
#define KC_OPENBLAS_LDFLAGS "-lopenblas"
#endif

#define WRAP_FLAGS                                                                                                     \
	"-Wl,--gc-sections,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=posix_memalign"

/* A command line being assembled: grows as needed (cflags and the user's flags have no length limit). */
struct command {
	struct kc_arena *a;
	const char **argv;
	int n, cap;
};

static void add(struct command *c, const char *word)
{
	if (c->n + 1 >= c->cap) {
		int cap = c->cap ? 2 * c->cap : 32;
		const char **argv = KC_NEW_N(c->a, const char *, cap);
		if (c->n)
			memcpy(argv, c->argv, sizeof *argv * (size_t)c->n);
		c->argv = argv, c->cap = cap;
	}
	c->argv[c->n++] = word;
	c->argv[c->n] = NULL;
}

const char **kc_build_split_flags(struct kc_arena *a, const char *flags, int *n)
{
	struct command c = {.a = a};
	char *save = NULL, *copy = kc_arena_strdup(a, flags ? flags : "");
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		add(&c, w);
	if (!c.argv) /* no words: an empty list */
		c.argv = KC_NEW_N(a, const char *, 1);
	*n = c.n;
	return c.argv;
}

static void add_flags(struct command *c, const char *flags)
{
	int n;
	const char **words = kc_build_split_flags(c->a, flags, &n);
	for (int i = 0; i < n; i++)
		add(c, words[i]);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char *path = NULL;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -1;
	FILE *fp = fopen(path, "w");
	free(path);
	if (!fp)
		return -1;
	int ok = fputs(text, fp) >= 0;
	return fclose(fp) == 0 && ok ? 0 : -1;
}

int kc_build_write_sources(struct kc_build *b, const char *dir, const char *harness_c, const char **why)
{
	if (write_file(dir, "harness.c", harness_c) < 0 ||
	    write_file(dir, "kcost_driver.c", (const char *)kc_harness_kcost_driver_c) < 0 ||
	    write_file(dir, "kcost_driver.h", (const char *)kc_harness_kcost_driver_h) < 0 ||
	    write_file(dir, "kcost_libm.h", (const char *)kc_harness_kcost_libm_h) < 0) {
		*why = kc_arena_printf(b->a, "cannot write the harness in %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* --- compiler children ---------------------------------------------------------------------------------------- */

/* Start a compiler command in dir; -1 with *why when it cannot start. */
static int compile_start(struct kc_build *b, const char *dir, const char *const *argv, struct kc_child_job *job,
                         const char **why)
{
	struct kc_child_limits lim = {b->timeout > 120 ? b->timeout : 120, 0, 0, NULL};
	char msg[KC_CHILD_MSG_SIZE];
	if (b->verbose)
		kc_child_show_command(dir, argv);
	if (kc_child_start(job, argv, dir, NULL, &lim, msg, sizeof msg) == 0)
		return 0;
	kc_child_result_release(&job->result);
	*why = kc_arena_strdup(b->a, msg);
	return -1;
}

/* The verdict on a finished compiler job: 0, or -1 with the first error line in *why (arena) and, when log is not
 * NULL, all of its stderr in *log. */
static int compile_finish(struct kc_build *b, struct kc_child_job *job, const char **why, const char **log)
{
	struct kc_child_result *res = &job->result;
	char msg[512], line[512];
	int ok = res->exited && res->exit_code == 0;
	if (!ok && b->verbose)
		fputs(res->err, stderr);
	if (!ok && (res->timed_out || res->signaled)) {
		*why =
		    kc_arena_printf(b->a, "the compiler %s", kc_child_result_describe(res, &job->lim, msg, sizeof msg));
	} else if (!ok) {
		kc_child_first_error_line(res->err, line, sizeof line);
		*why = kc_arena_strdup(b->a, line);
	}
	if (!ok && log)
		*log = kc_arena_strdup(b->a, res->err);
	kc_child_result_release(res);
	return ok ? 0 : -1;
}

/* The common head of a compile command: cc, cflags, the user's flags. */
static void compiler_head(struct kc_build *b, struct command *c, int kind, const char *extra_cflag)
{
	add(c, b->cc);
	/* a harness's loops each start a 64-byte block, as the ceilings' loops do (runner/CMakeLists.txt): where
	 * the linker puts a short loop otherwise moves its time by a fifth from one build to the next. Before the
	 * user's flags, which may say otherwise; clang has the option from version 13 on */
	if (kind == KC_CC_GCC || (kind == KC_CC_CLANG && b->major >= 13))
		add(c, "-falign-loops=64");
	add_flags(c, b->cflags);
	if (b->threads > 1)
		add(c, "-fopenmp");
	if (extra_cflag)
		add(c, extra_cflag);
	for (int i = 0; i < b->n_extra_args; i++)
		add(c, b->extra_args[i]);
}

/* Does a program including <cblas.h> and calling it link with OpenBLAS? Probed once per struct kc_build. */
static int blas_links(struct kc_build *b)
{
	if (b->blas >= 0)
		return b->blas;
	struct command c = {.a = b->a};
	struct kc_child_job job;
	const char *why;
	b->blas = 0;
	if (write_file(b->probe_dir, "blas_probe.c",
	               "#include <cblas.h>\nint main(void)\n{\n\treturn cblas_sdot(0, 0, 1, 0, 1) != 0.0f;\n}\n") < 0)
		return 0;
	compiler_head(b, &c, 0, NULL);
	add_flags(&c, KC_OPENBLAS_CFLAGS);
	add(&c, "blas_probe.c"), add(&c, "-o"), add(&c, "blas_probe");
	add_flags(&c, KC_OPENBLAS_LDFLAGS);
	if (compile_start(b, b->probe_dir, c.argv, &job, &why) < 0)
		return 0;
	while (job.running)
		kc_child_wait_any(&job, 1);
	b->blas = compile_finish(b, &job, &why, NULL) == 0;
	return b->blas;
}

/* Which compiler cc is, from its --version (once per struct kc_build): remarks are asked for in its own terms. */
static int compiler_kind(struct kc_build *b)
{
	if (b->kind)
		return b->kind;
	b->kind = KC_CC_OTHER;
	const char *argv[] = {b->cc, "--version", NULL};
	struct kc_child_job job;
	const char *why;
	if (compile_start(b, b->probe_dir, argv, &job, &why) < 0)
		return b->kind;
	while (job.running)
		kc_child_wait_any(&job, 1);
	struct kc_child_result *res = &job.result;
	if (res->exited && res->exit_code == 0 && res->out) {
		const char *v = strstr(res->out, "clang version ");
		if (v) {
			b->kind = KC_CC_CLANG;
			b->major = atoi(v + strlen("clang version "));
		} else if (strstr(res->out, "Free Software Foundation") || strstr(res->out, "gcc")) {
			b->kind = KC_CC_GCC;
		}
	}
	kc_child_result_release(res);
	return b->kind;
}

void kc_build_parse_remarks(struct kc_arena *a, const char *text, struct kc_vec_remark **out, int *n, int *cap)
{
	for (const char *p = text; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *ln = kc_arena_strndup(a, p, len);
		p = end ? end + 1 : p + len;
		char *hit = strstr(ln, ": optimized: loop vectorized");
		if (!hit)
			hit = strstr(ln, ": remark: vectorized loop");
		if (!hit)
			continue;
		*hit = 0; /* FILE:LINE:COL */
		char *col = strrchr(ln, ':');
		if (!col)
			continue;
		*col = 0;
		char *line = strrchr(ln, ':');
		if (!line)
			continue;
		*line = 0;
		char *digits_end;
		long v = strtol(line + 1, &digits_end, 10);
		if (*digits_end || v <= 0 || v > 100000000)
			continue;
		if (*n == *cap) {
			int grown = *cap ? 2 * *cap : 16;
			struct kc_vec_remark *bigger = KC_NEW_N(a, struct kc_vec_remark, grown);
			if (*n)
				memcpy(bigger, *out, sizeof **out * (size_t)*n);
			*out = bigger, *cap = grown;
		}
		(*out)[(*n)++] = (struct kc_vec_remark){ln, (int)v};
	}
}

/* The command that builds dir/<output> from harness.c; t->command is its display string. */
static const char *const *harness_command(struct kc_build *b, const char *user_path, struct kc_build_target *t)
{
	int blas = blas_links(b);
	struct command c = {.a = b->a};
	int kind = compiler_kind(b);
	compiler_head(b, &c, kind, t->extra_cflag);
	kind = t->remarks ? kind : 0;
	if (kind == KC_CC_GCC) { /* identical functions folded into one would have their remarks under one name only */
		add(&c, kc_arena_printf(b->a, "-fopt-info-vec-optimized=%s.vec", t->output));
		add(&c, "-fno-ipa-icf");
	} else if (kind == KC_CC_CLANG)
		add(&c, "-Rpass=loop-vectorize");
	add(&c, kc_arena_printf(b->a, "-I%s", dirname(kc_arena_strdup(b->a, user_path))));
	if (b->include_dir)
		add(&c, kc_arena_printf(b->a, "-I%s", b->include_dir));
	if (blas)
		add_flags(&c, KC_OPENBLAS_CFLAGS);
	add(&c, "-ffunction-sections"), add(&c, "harness.c"), add(&c, "kcost_driver.c"), add(&c, "-o"),
	    add(&c, t->output);
	add(&c, WRAP_FLAGS), add(&c, "-lm");
	if (blas)
		add_flags(&c, KC_OPENBLAS_LDFLAGS);
	char *cmd = kc_child_command_string(c.argv);
	t->command = kc_arena_strdup(b->a, cmd ? cmd : "");
	free(cmd);
	return c.argv;
}

int kc_build_harnesses(struct kc_build *b, const char *dir, const char *user_path, struct kc_build_target *t, int n)
{
	struct kc_child_job *jobs = KC_NEW_N(b->a, struct kc_child_job, n > 0 ? n : 1);
	int *started = KC_NEW_N(b->a, int, n > 0 ? n : 1), failed = 0;
	for (int i = 0; i < n; i++) {
		const char *const *argv = harness_command(b, user_path, &t[i]);
		t[i].why = t[i].log = NULL;
		started[i] = compile_start(b, dir, argv, &jobs[i], &t[i].why) == 0;
		if (!started[i])
			jobs[i].running = 0;
	}
	while (kc_child_wait_any(jobs, n) >= 0)
		continue;
	for (int i = 0; i < n; i++) {
		int kind = t[i].remarks ? compiler_kind(b) : 0;
		const char *remarks = NULL;
		if (kind == KC_CC_CLANG && started[i] && jobs[i].result.err) /* clang's remarks are on its stderr */
			remarks = kc_arena_strdup(b->a, jobs[i].result.err);
		int ok = started[i] && compile_finish(b, &jobs[i], &t[i].why, &t[i].log) == 0;
		failed |= !ok;
		t[i].vec = NULL, t[i].n_vec = 0, t[i].remarks_known = 0;
		if (!ok || (kind != KC_CC_GCC && kind != KC_CC_CLANG))
			continue;
		if (kind == KC_CC_GCC) {
			struct kc_buf text = KC_BUF_INIT;
			const char *path = kc_arena_printf(b->a, "%s/%s.vec", dir, t[i].output);
			/* gcc writes no file when it vectorized nothing */
			remarks = kc_buf_read_file(&text, path, (size_t)16 << 20) == 0
			              ? kc_arena_strdup(b->a, kc_buf_str(&text))
			              : "";
			kc_buf_release(&text);
		}
		int cap = 0;
		kc_build_parse_remarks(b->a, remarks, &t[i].vec, &t[i].n_vec, &cap);
		t[i].remarks_known = 1;
	}
	return failed ? -1 : 0;
}

/* kcost.c — the command line: options, then analyzer -> runner -> reporter. Thin by design. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer.h"
#include "baseline.h"
#include "diff.h"
#include "options.h"
#include "paths.h"
#include "progress.h"
#include "report.h"
#include "shards.h"
#include "runner.h"
#include "source.h"
#include "machine_cmd.h"
#include "ceilings.h"
#include "source.h"
#include <cjson/cJSON.h>
#include "visible.h"

#ifndef KCOST_VERSION
#define KCOST_VERSION "0.0.0"
#endif

int kc_cli_diff(int argc, char **argv); /* diff.c */
int kc_cli_merge(int argc, char **argv);

/* s as a terminal may show it (base/visible.h): paths and messages that name them come from the user. The
 * text lives until the next call. */
static const char *visible(const char *s)
{
	static struct kc_buf b = KC_BUF_INIT;
	kc_buf_reset(&b);
	kc_visible_puts(&b, s);
	return kc_buf_str(&b);
}

static int use_color(const struct kc_options *o, FILE *f)
{
	if (o->color == KC_COLOR_ALWAYS)
		return 1;
	if (o->color == KC_COLOR_NEVER || getenv("NO_COLOR"))
		return 0;
	return isatty(fileno(f));
}

/* Missing or unreadable inputs are reported and left out; the rest are still analyzed. */
static int check_inputs(struct kc_options *o, int color)
{
	int bad = 0, kept = 0;
	for (int i = 0; i < o->n_files; i++) {
		struct stat st;
		const char *f = o->files[i];
		const char *why = NULL;
		if (stat(f, &st) != 0)
			why = errno == ENOENT ? "no such file or directory" : strerror(errno);
		else if (S_ISDIR(st.st_mode))
			why = "is a directory";
		else if (access(f, R_OK) != 0)
			why = strerror(errno);
		if (why) {
			fprintf(stderr, "%skcost: %serror:%s %s: '%s'\n", color ? "\033[1m" : "",
			        color ? "\033[1;31m" : "", color ? "\033[0m" : "", why, visible(f));
			bad++;
			continue;
		}
		o->files[kept++] = f;
	}
	o->n_files = kept;
	return bad;
}

static void print_diags(const struct kc_diags *list, int verbose, int color)
{
	for (const struct kc_diag *d = list->head; d; d = d->next)
		if (d->severity != KC_NOTE || verbose)
			kc_diag_print(stderr, d, color);
}

struct tally {
	int functions, exact, exact_ops, exact_flops, errors, warnings; /* exact_ops: of the functions not exact;
	                                                                 * exact_flops: of those not exact_ops */
};

static struct tally tally_of(const struct kc_analysis *an)
{
	struct tally t = {0, 0, 0, 0, an->diags.errors, an->diags.warnings};
	for (int i = 0; i < an->n_functions; i++) {
		const struct kc_function *f = an->functions[i];
		if (f->skip)
			continue;
		t.functions++;
		t.exact += f->exact;
		t.exact_ops += f->exact_ops && !f->exact;
		t.exact_flops += f->exact_flops && !f->exact_ops;
		t.errors += f->diags.errors;
		t.warnings += f->diags.warnings;
	}
	return t;
}

/* The run's warnings about kernels that were measured (faster than the machine allows, OpenBLAS's kernels, a
 * reference without a check): those about kernels that failed are counted as the failures' errors. */
static int measured_warnings(const struct kc_analysis *an, const struct kc_measurements *m, const struct kc_diags *d)
{
	int n = 0;
	for (const struct kc_diag *x = d->head; x; x = x->next) {
		if (x->severity != KC_WARNING)
			continue;
		int failed = 0;
		for (int i = 0; x->function && i < an->n_functions && i < m->n; i++)
			if (!strcmp(an->functions[i]->name, x->function) && m->items[i].error)
				failed = 1;
		n += !failed;
	}
	return n;
}

/* Compile and time the kernels, measure the machine (cached). Returns the number of kernels that could
 * not be measured (crash, timeout, compile error, mismatch with their reference), or -1; *warnings gets the
 * run's warnings about the others. */
static int measure(const struct kc_options *o, const char *header_dir, struct kc_analysis *an,
                   struct kc_measurements *m, struct kc_analysis *base, struct kc_measurements *base_m,
                   const struct kc_baseline *bl, int color, int *warnings, struct kc_diags *run_diags)
{
	struct kc_diags diags = {0};
	struct kc_runner_opts ro = {
	    .cc = o->cc,
	    .cflags = o->cflags,
	    .extra_args = o->clang_args,
	    .n_extra_args = o->n_clang_args,
	    .include_dir = header_dir,
	    .time_budget = o->time_budget,
	    .timeout = o->timeout,
	    .memory_limit = o->memory_limit,
	    .remeasure = o->remeasure,
	    .sandbox = o->sandbox,
	    .no_traffic = o->no_traffic,
	    .verbose = o->verbose,
	    .progress = kc_progress,
	    .threads = o->threads,
	    .other_ceilings = o->peak > 0 || o->machine_file != NULL,
	    .base = base,
	    .base_m = base_m,
	    .threshold = o->threshold,
	    .base_extra_args = bl ? bl->args : NULL,
	    .n_base_extra_args = bl ? bl->n_args : 0,
	};
	int rc = kc_run(an, &ro, &an->arena, m, &diags);
	kc_progress_done();
	print_diags(&diags, o->verbose, color);
	*run_diags = diags; /* for kcost.sarif; they live in an->arena */
	if (rc < 0)
		return -1;
	*warnings = measured_warnings(an, m, &diags);
	int failed = 0;
	for (int i = 0; i < m->n; i++)
		failed += m->items[i].error != NULL;
	return failed;
}

/* --peak/--bandwidth (a hypothetical machine) or --machine FILE (another machine's ceilings): the machine the
 * roofs and predictions are read against, in place of this one's. -1 (said) when FILE is unusable. */
static int other_machine(const struct kc_options *o, struct kc_arena *a, struct kc_measurements *m, int color)
{
	struct kc_machine *mc = NULL;
	if (o->peak > 0) {
		mc = KC_NEW(a, struct kc_machine);
		mc->cpu = kc_arena_printf(a, "hypothetical: %g GFLOP/s, %g GB/s", o->peak, o->bandwidth);
		mc->cores = 1;
		mc->hypothetical = 1;
		mc->flops_f32 = mc->flops_f64 = (struct kc_ceiling){o->peak, 1, "hypothetical (--peak)"};
		mc->flops_f32_all_threads = mc->flops_f64_all_threads = mc->flops_f32;
		/* one bandwidth, as DRAM's: the caches are unknown, so every working set is taken to live there */
		mc->bandwidth[KC_LEVEL_DRAM] = (struct kc_ceiling){o->bandwidth, 1, "hypothetical (--bandwidth)"};
		mc->measured_at = "hypothetical";
	} else if (o->machine_file) {
		struct kc_buf text = KC_BUF_INIT;
		cJSON *j = kc_buf_read_file(&text, o->machine_file, (size_t)1 << 24) == 0
		               ? cJSON_Parse(kc_buf_str(&text))
		               : NULL;
		kc_buf_release(&text);
		mc = KC_NEW(a, struct kc_machine);
		int ok = j && kc_ceilings_from_json(a, j, NULL, mc) == 0;
		cJSON_Delete(j);
		if (!ok) {
			fprintf(
			    stderr,
			    "%s: %serror:%s not a machine file of this kcost (write one with `kcost machine --format "
			    "json > FILE`)\n",
			    visible(o->machine_file), color ? "\033[1;31m" : "", color ? "\033[0m" : "");
			return -1;
		}
		mc->cached = 0;
		mc->from_file = kc_arena_strdup(a, o->machine_file);
	}
	if (mc)
		m->machine = mc;
	return 0;
}

/* --baseline: the inputs at REV, analyzed with the same options (the flags' directories inside the repository
 * moved to REV's tree). 0, or -1 (said) when REV cannot be checked out. */
static int analyze_baseline(const struct kc_options *o, const struct kc_analyze_opts *ao, struct kc_baseline *bl,
                            struct kc_analysis *ban, int color)
{
	char err[600] = "--baseline: the revision could not be checked out";
	kc_progress("checking out the baseline", 0, 0, o->baseline);
	int rc =
	    kc_baseline_open(bl, o->baseline, o->files, o->n_files, o->clang_args, o->n_clang_args, err, sizeof err);
	kc_progress_done();
	if (rc < 0) {
		/* visible() keeps one text at a time: err says which revision */
		fprintf(stderr, "%skcost: %serror:%s %s\n", color ? "\033[1m" : "", color ? "\033[1;31m" : "",
		        color ? "\033[0m" : "", visible(err));
		return -1;
	}
	struct kc_analyze_opts bo = *ao;
	bo.args = bl->args, bo.n_args = bl->n_args;
	kc_progress("analyzing the baseline", 0, 0, o->baseline);
	kc_analyze(ban, bl->files, bl->n_files, &bo); /* its diagnostics are the baseline's: not printed */
	kc_progress_done();
	if (ban->parse_failed && !o->quiet)
		fprintf(
		    stderr,
		    "kcost: warning: --baseline: a file did not parse at the baseline: its functions count as added\n");
	return 0;
}

/* After the runs: a warning when functions of the baseline could not be measured (their comparison then says
 * "not measured" instead of a time). */
static void warn_base_failures(const struct kc_analysis *ban, const struct kc_measurements *bm, int quiet)
{
	int failed = 0;
	const char *first = NULL, *why = NULL;
	for (int i = 0; i < bm->n && i < ban->n_functions; i++)
		if (bm->items[i].function && bm->items[i].error) {
			if (!failed++)
				first = ban->functions[i]->name, why = bm->items[i].error;
		}
	if (!failed || quiet)
		return;
	fprintf(stderr, "kcost: warning: --baseline: %d function%s could not be measured at the baseline", failed,
	        failed == 1 ? "" : "s");
	fprintf(stderr, " (%s: ", visible(first));
	fprintf(stderr, "%s)\n", visible(why));
}

/* The distinct files of the head's functions (few: the inputs and the headers they include), as spelled there;
 * *n their number. NULL out of memory. */
static const char **head_files(const cJSON *head, int *n)
{
	const cJSON *f, *fns = cJSON_GetObjectItemCaseSensitive(head, "functions");
	const char **files = calloc((size_t)cJSON_GetArraySize(fns) + 1, sizeof *files);
	*n = 0;
	cJSON_ArrayForEach(f, fns)
	{
		const cJSON *file = cJSON_GetObjectItemCaseSensitive(f, "file");
		int seen = !files || !cJSON_IsString(file);
		for (int k = 0; !seen && k < *n; k++)
			seen = !strcmp(files[k], file->valuestring);
		if (!seen)
			files[(*n)++] = file->valuestring;
	}
	return files;
}

/* The baseline's functions under the names the head gives their files, so that kcost diff matches them: an input
 * by the input's own name, a file of the worktree (a header the inputs include) by the head's spelling of the same
 * file of the repository (the analysis names them by their paths in the temporary worktree). */
static void rename_base_files(cJSON *doc, const cJSON *head, const struct kc_baseline *bl, const struct kc_options *o)
{
	int n_head;
	const char **files = head_files(head, &n_head);
	cJSON *f, *fns = cJSON_GetObjectItemCaseSensitive(doc, "functions");
	cJSON_ArrayForEach(f, fns)
	{
		cJSON *file = cJSON_GetObjectItemCaseSensitive(f, "file");
		if (!cJSON_IsString(file))
			continue;
		const char *input = NULL;
		for (int k = 0; !input && k < bl->n_files; k++)
			if (!strcmp(file->valuestring, bl->files[k]))
				input = o->files[k];
		char *named = input ? NULL : kc_baseline_head_name(bl, file->valuestring, files, n_head);
		if (input || named)
			cJSON_ReplaceItemInObjectCaseSensitive(f, "file", cJSON_CreateString(input ? input : named));
		free(named);
	}
	free(files);
}

/* The head's functions by (file, name), for finding each compared function at once: a scan of the functions per
 * compared function was O(n^2). Equal keys (a header's function in two inputs) keep the analysis's order, and a
 * lookup finds the first, as the scan did. */
struct fn_key {
	const char *file, *name;
	int index; /* in an->functions */
};

static int key_cmp(const char *file, const char *name, const struct fn_key *k)
{
	int c = strcmp(file, k->file);
	return c ? c : strcmp(name, k->name);
}

static int by_key(const void *pa, const void *pb)
{
	const struct fn_key *a = pa, *b = pb;
	int c = key_cmp(a->file, a->name, b);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* The measured functions of an (not skipped, with a measurement), sorted; *n their number. NULL when there are
 * none or out of memory. */
static struct fn_key *index_functions(const struct kc_analysis *an, const struct kc_measurements *m, int *n)
{
	struct fn_key *keys = malloc(sizeof *keys * (size_t)(an->n_functions > 0 ? an->n_functions : 1));
	*n = 0;
	for (int i = 0; keys && i < an->n_functions && i < m->n; i++)
		if (!an->functions[i]->skip)
			keys[(*n)++] = (struct fn_key){an->functions[i]->loc.file, an->functions[i]->name, i};
	if (keys)
		qsort(keys, (size_t)*n, sizeof *keys, by_key);
	return keys;
}

/* The index in an->functions of the first function (file, name) of keys[0 .. n), or -1. */
static int find_function(const struct fn_key *keys, int n, const char *file, const char *name)
{
	int lo = 0, hi = n; /* the first key not below (file, name) is in [lo, hi] */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (key_cmp(file, name, &keys[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !key_cmp(file, name, &keys[lo]) ? keys[lo].index : -1;
}

/* A head function's result against the baseline, from the comparison's (strings copied into the head's arena). */
static struct kc_baseline_result *baseline_result(struct kc_arena *a, const struct kc_baseline *bl,
                                                  const struct kc_diff_function *df)
{
	struct kc_baseline_result *r = KC_NEW(a, struct kc_baseline_result);
	*r = (struct kc_baseline_result){
	    .revision = kc_arena_strdup(a, bl->commit),
	    .change = kc_arena_strdup(a, df->change),
	    .verdict = df->verdict                    ? kc_arena_strdup(a, df->verdict)
	               : !strcmp(df->change, "added") ? "not at the baseline"
	                                              : NULL,
	    .tested = df->tested,
	    .ratio = df->ratio,
	    .ci_low = df->ci_low,
	    .ci_high = df->ci_high,
	    .p_value = df->p_value,
	    .n_base = df->n_base,
	    .n_head = df->n_head,
	    .base_seconds = df->base_median,
	    .instructions_change = df->instructions_change,
	    .regressed = df->regressed,
	};
	return r;
}

/* Each head function's measurement gets its result in d (a removed function has none). -1 out of memory. */
static int attach_results(const struct kc_diff *d, const struct kc_baseline *bl, struct kc_analysis *an,
                          struct kc_measurements *m)
{
	int n;
	struct fn_key *keys = index_functions(an, m, &n);
	if (!keys)
		return -1;
	for (int k = 0; k < kc_diff_count(d); k++) {
		struct kc_diff_function df;
		kc_diff_function(d, k, &df);
		int i = strcmp(df.change, "removed") ? find_function(keys, n, df.file, df.name) : -1;
		if (i >= 0)
			m->items[i].baseline = baseline_result(&an->arena, bl, &df);
	}
	free(keys);
	return 0;
}

/* Compare the head's report with the baseline's (reporter/diff.h, with the samples' test of model/compare.h),
 * once: each head function's measurement gets its baseline result; *lead the Markdown comment, *text the
 * terminal's (malloc'd), both rendered from that one comparison. Returns 1 when a function regressed beyond
 * --fail-on-regression, 0 if not, -1 out of memory. */
static int compare_baseline(const struct kc_options *o, const struct kc_baseline *bl, struct kc_analysis *an,
                            struct kc_measurements *m, struct kc_analysis *ban, struct kc_measurements *bm,
                            const struct kc_report_opts *ro, char **lead, char **text)
{
	cJSON *head = kc_report_json(an, m, ro), *base = kc_report_json(ban, bm, ro);
	struct kc_diff_opts dopts = {
	    .threshold = o->threshold, .fail_on = o->fail_on, .format = KC_DIFF_MD, .names = {"baseline", "head"}};
	char err[256];
	if (base && head)
		rename_base_files(base, head, bl, o);
	struct kc_diff *d = head && base ? kc_diff_compare(base, head, &dopts, err, sizeof err) : NULL;
	int regressed = -1;
	if (d && attach_results(d, bl, an, m) == 0) {
		struct kc_buf b = KC_BUF_INIT;
		kc_buf_printf(&b, "<!-- kcost --baseline %.12s -->\n", bl->commit);
		kc_diff_render_as(d, KC_DIFF_MD, &b);
		*lead = kc_buf_detach(&b);
		kc_diff_render_as(d, KC_DIFF_TEXT, &b);
		*text = kc_buf_detach(&b);
		regressed = kc_diff_regressed(d);
	}
	kc_diff_free(d);
	cJSON_Delete(head);
	cJSON_Delete(base);
	return regressed;
}

/* --all: every C file (.c) of BUILD_DIR/compile_commands.json, each once, as an input (its "file" resolved
 * against its "directory"), in the database's order. 0, or -1 (said) when the database cannot be read. */
static int database_files(struct kc_options *o, int color)
{
	struct kc_buf text = KC_BUF_INIT, path = KC_BUF_INIT;
	kc_buf_printf(&path, "%s/compile_commands.json", o->compile_db);
	int read = kc_buf_read_file(&text, kc_buf_str(&path), (size_t)1 << 30);
	cJSON *db = read == 0 ? cJSON_Parse(kc_buf_str(&text)) : NULL, *e;
	kc_buf_release(&text);
	if (!cJSON_IsArray(db)) {
		fprintf(stderr, "%skcost: %serror:%s --all: %s", color ? "\033[1m" : "", color ? "\033[1;31m" : "",
		        color ? "\033[0m" : "", visible(kc_buf_str(&path)));
		fprintf(stderr, " is %s\n", read ? "not readable" : "not a compilation database (a JSON array)");
		kc_buf_release(&path);
		cJSON_Delete(db);
		return -1;
	}
	kc_buf_release(&path);
	int rc = 0;
	cJSON_ArrayForEach(e, db)
	{
		const cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file"),
		            *dir = cJSON_GetObjectItemCaseSensitive(e, "directory");
		if (!cJSON_IsString(file) || !file->valuestring[0])
			continue;
		size_t len = strlen(file->valuestring);
		if (len < 3 || strcmp(file->valuestring + len - 2, ".c"))
			continue; /* C++ and the rest: not kcost's */
		struct kc_buf full = KC_BUF_INIT;
		if (file->valuestring[0] != '/' && cJSON_IsString(dir))
			kc_buf_printf(&full, "%s/", dir->valuestring);
		kc_buf_puts(&full, file->valuestring);
		int seen = 0;
		for (int i = 0; i < o->n_files && !seen; i++)
			seen = !strcmp(o->files[i], kc_buf_str(&full));
		if (!seen && kc_options_add_file(o, kc_buf_str(&full)) < 0)
			rc = -1;
		kc_buf_release(&full);
	}
	cJSON_Delete(db);
	if (rc == 0 && !o->n_files) {
		fprintf(stderr, "%skcost: %serror:%s --all: no C file (.c) in %s/compile_commands.json\n",
		        color ? "\033[1m" : "", color ? "\033[1;31m" : "", color ? "\033[0m" : "",
		        visible(o->compile_db));
		rc = -1;
	}
	return rc;
}

static int run(struct kc_options *o, int argc, char **argv)
{
	int color = use_color(o, stderr);
	const char *err;
	char tried[2 * PATH_MAX];
	const char *header_dir = kc_cli_header_dir(tried, sizeof tried);
	if (!header_dir) { /* kcost's own files are incomplete: not the input's fault */
		fprintf(stderr,
		        "%skcost: %serror:%s cannot find the annotation header kcost.h: looked in %s (an "
		        "incomplete installation)\n",
		        color ? "\033[1m" : "", color ? "\033[1;31m" : "", color ? "\033[0m" : "", visible(tried));
		return KC_EXIT_INTERNAL;
	}
	/* a directory that will be refused is said before the analysis and the runs, which take minutes */
	if (kc_report_check_dir(o->out_dir ? o->out_dir : "kcost-report", &err) < 0) {
		fprintf(stderr, "%skcost: %serror:%s %s\n", color ? "\033[1m" : "", color ? "\033[1;31m" : "",
		        color ? "\033[0m" : "", visible(err));
		return KC_EXIT_INPUT;
	}
	kc_progress_init(!o->quiet && isatty(fileno(stderr)));
	if (o->all && database_files(o, color) < 0)
		return KC_EXIT_INPUT;
	int missing = check_inputs(o, color);
	if (kc_shards_wanted(o)) { /* -j N on several files, statically: N processes, one report */
		int status = kc_shards_run(o, argc, argv);
		return missing && status == KC_EXIT_OK ? KC_EXIT_INPUT : status;
	}
	struct kc_analysis an = {0};
	struct kc_analyze_opts ao = {
	    .args = o->clang_args,
	    .n_args = o->n_clang_args,
	    .compile_db = o->compile_db,
	    .sizes = o->sizes,
	    .n_sizes = o->n_sizes,
	    .scalars = o->scalars,
	    .n_scalars = o->n_scalars,
	    .extents = o->extents,
	    .n_extents = o->n_extents,
	    .function_regex = o->function_regex,
	    .include_dir = header_dir,
	    .threads = o->jobs,
	    .parse_cpu_seconds = o->parse_timeout,
	};
	kc_progress("analyzing", 0, 0, o->n_files == 1 ? o->files[0] : "");
	int rc = o->n_files ? kc_analyze(&an, o->files, o->n_files, &ao) : 0;
	kc_progress_done();
	print_diags(&an.diags, o->verbose, color);
	for (int i = 0; i < an.n_functions; i++)
		if (!an.functions[i]->skip)
			print_diags(&an.functions[i]->diags, o->verbose, color);
	if (rc < 0) {
		kc_analysis_release(&an);
		return KC_EXIT_USAGE; /* kc_analyze fails only on a bad --function regex */
	}
	struct tally t = tally_of(&an);
	int input_errors = missing || an.parse_failed;
	if (o->n_files && !t.functions && !an.parse_failed) {
		for (int i = 0; i < o->n_files; i++)
			fprintf(stderr, "%s: %serror:%s no functions with loops or kernel calls to analyze%s\n",
			        visible(o->files[i]), color ? "\033[1;31m" : "", color ? "\033[0m" : "",
			        o->function_regex ? " (after --function)" : "");
		input_errors = 1;
	}
	if (!o->n_files) {
		kc_analysis_release(&an);
		return KC_EXIT_INPUT;
	}
	struct kc_report_opts ro = {
	    .out_dir = o->out_dir ? o->out_dir : "kcost-report",
	    .command = (const char *const *)argv,
	    .n_command = argc,
	    .version = KCOST_VERSION,
	    .no_run = o->no_run,
	    .print_to = stdout,
	    .print = o->format == KC_FORMAT_JSON    ? KC_PRINT_JSON
	             : o->format == KC_FORMAT_MD    ? KC_PRINT_MD
	             : o->format == KC_FORMAT_SARIF ? KC_PRINT_SARIF
	             : o->quiet                     ? KC_PRINT_NONE
	                                            : KC_PRINT_TEXT,
	    .print_color = use_color(o, stdout),
	    .threads = o->jobs,
	};
	struct kc_baseline bl = {0};
	struct kc_analysis ban = {0};
	struct kc_measurements m = {0}, bm = {0};
	struct kc_diags run_diags = {0};
	int with_base = o->baseline && t.functions;
	if (with_base && analyze_baseline(o, &ao, &bl, &ban, color) < 0) {
		kc_analysis_release(&an);
		return KC_EXIT_INPUT;
	}
	int run_warnings = 0;
	int failed_kernels = !o->no_run && t.functions
	                         ? measure(o, header_dir, &an, &m, with_base ? &ban : NULL, with_base ? &bm : NULL,
	                                   with_base ? &bl : NULL, color, &run_warnings, &run_diags)
	                         : 0;
	ro.run_diags = &run_diags;
	t.warnings += run_warnings;
	if (failed_kernels) {
		input_errors = 1;
		t.errors += failed_kernels > 0 ? failed_kernels : 0;
	}
	if (other_machine(o, &an.arena, &m, color) < 0) {
		kc_analysis_release(&an);
		return KC_EXIT_INPUT;
	}
	int status = input_errors ? KC_EXIT_INPUT : KC_EXIT_OK;
	char *lead = NULL, *diff_text = NULL;
	int regressed = 0;
	if (with_base) {
		warn_base_failures(&ban, &bm, o->quiet);
		regressed = compare_baseline(o, &bl, &an, &m, &ban, &bm, &ro, &lead, &diff_text);
		ro.summary_lead = lead;
		if (regressed < 0) {
			fprintf(stderr, "kcost: error: out of memory comparing with the baseline\n");
			status = KC_EXIT_INTERNAL;
		}
	}
	/* no progress line here: kc_report_write also prints the summary to stdout */
	int written = kc_report_write(&an, &m, &ro, &err);
	if (diff_text && ro.print == KC_PRINT_TEXT)
		printf("\n%s", diff_text);
	if (written < 0) {
		fprintf(stderr, "kcost: error: %s\n", visible(err));
		status = written == -1 ? KC_EXIT_INPUT : KC_EXIT_INTERNAL; /* -1: the directory's, -2: kcost's */
	}
	char ops_note[128] = "";
	int at = 0;
	if (t.exact_ops)
		at = snprintf(ops_note, sizeof ops_note, ", %d more exact but for traffic", t.exact_ops);
	if (t.exact_flops)
		snprintf(ops_note + at, sizeof ops_note - (size_t)at, ", %d more exact in FLOPs", t.exact_flops);
	if (!o->quiet)
		fprintf(stderr, "kcost: %d function%s analyzed (%d exact%s), %d error%s, %d warning%s; %s%s%s\n",
		        t.functions, t.functions == 1 ? "" : "s", t.exact, ops_note, t.errors, t.errors == 1 ? "" : "s",
		        t.warnings, t.warnings == 1 ? "" : "s",
		        written < 0 ? "no report written" : "report: ", written < 0 ? "" : visible(ro.out_dir),
		        written < 0 ? "" : "/index.html");
	if (regressed > 0 && o->fail_on > 0 && status == KC_EXIT_OK)
		status = KC_EXIT_REGRESSION;
	free(lead);
	free(diff_text);
	if (with_base) {
		kc_analysis_release(&ban);
		kc_baseline_close(&bl);
	}
	kc_analysis_release(&an);
	return status;
}

int main(int argc, char **argv)
{
	/* heaps grow 16 MiB at a time: each growth of a thread's heap is a system call, and libclang's parse
	 * thread grows its heap by hundreds of them for a large file (memory is not touched until used) */
	mallopt(M_TOP_PAD, 16 << 20);
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return kc_cli_diff(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "machine"))
		return kc_cli_machine(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "merge"))
		return kc_cli_merge(argc - 1, argv + 1);
	struct kc_options o;
	if (kc_options_parse(&o, argc, argv) < 0) {
		kc_options_release(&o);
		return KC_EXIT_USAGE;
	}
	int status = KC_EXIT_OK;
	if (o.help)
		kc_options_usage(stdout);
	else if (o.version)
		printf("kcost %s (%s)\n", KCOST_VERSION, kc_analyzer_clang_version());
	else
		status = run(&o, argc, argv);
	kc_options_release(&o);
	kc_sources_release();
	if (kc_analyze_stray_threads()) { /* a parse still running inside libclang: no static destructors */
		fflush(NULL);
		_exit(status);
	}
	return status;
}

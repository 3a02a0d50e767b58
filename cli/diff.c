/* diff.c — `kcost diff [options] BASE.json HEAD.json`: the review comment for a pull request. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diff.h"
#include "escape.h"
#include "source.h"
#include "visible.h"

int kc_cli_diff(int argc, char **argv);

enum { DIFF_OK = 0, DIFF_INPUT = 1, DIFF_USAGE = 2, DIFF_INTERNAL = 3, DIFF_REGRESSED = 4 };

static void usage(FILE *out)
{
	fputs("usage: kcost diff [options] BASE.json HEAD.json\n"
	      "\n"
	      "Compares two kcost runs (their report.json) function by function: the symbolic FLOP and byte\n"
	      "formulas, the predicted intensity, and the measured median time with a noise-aware verdict.\n"
	      "\n"
	      "  --format md|text|json|sarif output format (default: md, for a pull-request comment); sarif:\n"
	      "                              each regression a SARIF 2.1.0 result at the function's line\n"
	      "  --threshold PCT             smallest time change that counts (default: 5)\n"
	      "  --fail-on-regression PCT    exit 4 when a function got slower, or moves more bytes or FLOPs,\n"
	      "                              by more than PCT percent\n"
	      "\n"
	      "Exit status: 0 no regression; 1 a file is missing or not a kcost report, or a function's figures\n"
	      "are impossible (the others are still compared); 2 usage error; 3 internal error; 4 regression beyond\n"
	      "--fail-on-regression.\n",
	      out);
}

/* Print "kcost diff: error: " and the message, with the user's text (a path, an argument) escaped: a file
 * name can hold escape sequences and line breaks, and stderr is a terminal. */
static void print_error(const char *before, const char *user, const char *after)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_printf(&b, "kcost diff: error: %s", before);
	kc_visible_puts(&b, user);
	kc_buf_printf(&b, "%s\n", after);
	fputs(kc_buf_str(&b), stderr);
	kc_buf_release(&b);
}

static int usage_error(const char *msg, const char *arg)
{
	char before[128];
	snprintf(before, sizeof before, "%s%s", msg, arg ? " '" : "");
	print_error(before, arg,
	            arg ? "'\nTry 'kcost diff --help' for more information."
	                : "\nTry 'kcost diff --help' for more information.");
	return DIFF_USAGE;
}

static int parse_pct(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = s ? strtod(s, &end) : -1;
	if (!s || errno || *end || end == s || v < 0 || v > 10000)
		return -1;
	*out = v / 100;
	return 0;
}

static cJSON *load(const char *path)
{
	struct kc_buf b = KC_BUF_INIT;
	if (kc_buf_read_file(&b, path, (size_t)-1) < 0) {
		char after[160];
		snprintf(after, sizeof after, "': %s", strerror(errno));
		print_error("cannot open '", path, after);
		kc_buf_release(&b);
		return NULL;
	}
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithOpts(kc_buf_str(&b), &end, 1);
	if (!doc) {
		char after[80];
		snprintf(after, sizeof after, "' is not valid JSON (near byte %ld)",
		         end ? (long)(end - kc_buf_str(&b)) : 0L);
		print_error("'", path, after);
	}
	kc_buf_release(&b);
	return doc;
}

/* The two parsed reports live in one arena, given to cJSON through its hooks for the time of the comparison
 * (as reporter/json.c does when it writes): a report of 100,000 functions has millions of values, and a
 * malloc and a free for each of them cost more than the parse itself. The tree is dropped with the arena,
 * without a walk. */
static struct kc_arena json_heap;

static void *json_alloc(size_t size)
{
	return kc_arena_alloc_uninit(&json_heap, size);
}

static void json_free(void *p)
{
	(void)p;
}

static int compare_files(const char *const files[2], struct kc_diff_opts *o)
{
	cJSON_InitHooks(&(cJSON_Hooks){json_alloc, json_free});
	cJSON *base = load(files[0]), *head = base ? load(files[1]) : NULL;
	int status = DIFF_INPUT;
	char err[512];
	o->names[0] = files[0], o->names[1] = files[1];
	struct kc_diff *d = base && head ? kc_diff_compare(base, head, o, err, sizeof err) : NULL;
	if (d) {
		struct kc_buf b = KC_BUF_INIT;
		kc_diff_render_problems(d, &b);
		fputs(kc_buf_str(&b), stderr);
		kc_buf_reset(&b);
		int rendered = kc_diff_render(d, &b);
		fputs(kc_buf_str(&b), stdout);
		kc_buf_release(&b);
		/* a regression is the gate's verdict and wins; impossible values are an input error */
		status = kc_diff_regressed(d) ? DIFF_REGRESSED : kc_diff_errors(d) ? DIFF_INPUT : DIFF_OK;
		if (rendered < 0) {
			print_error("", "out of memory", "");
			status = DIFF_INTERNAL;
		}
	} else if (base && head) {
		print_error("", err, "");
	}
	kc_diff_free(d);
	cJSON_InitHooks(NULL);
	kc_arena_release(&json_heap);
	return status;
}

int kc_cli_diff(int argc, char **argv)
{
	struct kc_diff_opts o = {0.05, 0, KC_DIFF_MD, {NULL, NULL}, KCOST_VERSION};
	const char *files[2];
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return DIFF_OK;
		} else if (!strcmp(a, "--format")) {
			const char *v = i + 1 < argc ? argv[++i] : NULL;
			if (v && !strcmp(v, "md"))
				o.format = KC_DIFF_MD;
			else if (v && !strcmp(v, "text"))
				o.format = KC_DIFF_TEXT;
			else if (v && !strcmp(v, "json"))
				o.format = KC_DIFF_JSON;
			else if (v && !strcmp(v, "sarif"))
				o.format = KC_DIFF_SARIF;
			else
				return usage_error("--format expects md, text, json or sarif, got", v ? v : "");
		} else if (!strcmp(a, "--fail-on-regression") || !strcmp(a, "--threshold")) {
			double *dst = a[2] == 'f' ? &o.fail_on : &o.threshold;
			if (parse_pct(i + 1 < argc ? argv[++i] : NULL, dst) < 0)
				return usage_error("expected a percentage after", a);
			if (dst == &o.fail_on && o.fail_on == 0)
				o.fail_on = 1e-12; /* 0%: any regression fails */
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option", a);
		} else if (nfiles < 2) {
			files[nfiles++] = a;
		} else {
			return usage_error("expected two reports, got a third:", a);
		}
	}
	if (nfiles != 2)
		return usage_error("expected BASE.json and HEAD.json", NULL);
	return compare_files(files, &o);
}

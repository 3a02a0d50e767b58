/* diff.c — `kcost diff [options] BASE.json HEAD.json`: the review comment for a pull request. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "reports.h"

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

static void print_error(const char *before, const char *user, const char *after)
{
	kc_cli_error("diff", before, user, after);
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

static int compare_files(const char *const files[2], struct kc_diff_opts *o)
{
	kc_cli_json_arena(1);
	cJSON *base = kc_cli_load_json("diff", files[0], NULL),
	      *head = base ? kc_cli_load_json("diff", files[1], NULL) : NULL;
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
	kc_cli_json_arena(0);
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

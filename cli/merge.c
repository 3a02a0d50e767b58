/* merge.c — `kcost merge [-o DIR] [--format text|json|md] REPORT.json...`: the reports of a sharded CI matrix (one
 * kcost run per job, each over some of the files) as one report and one pull-request comment (reporter/merge.h). */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "merge.h"
#include "report.h"
#include "reports.h"
#include "source.h"
#include "visible.h"

int kc_cli_merge(int argc, char **argv);
int kc_cli_merge_labeled(int argc, char **argv, const char *const *labels);

enum { MERGE_OK = 0, MERGE_INPUT = 1, MERGE_USAGE = 2, MERGE_INTERNAL = 3 };

static void usage(FILE *out)
{
	fputs("usage: kcost merge [-o DIR] [--format text|json|md] REPORT.json...\n"
	      "\n"
	      "Joins the reports of a sharded run (one kcost run per CI job, each over some of the files) into one\n"
	      "report, as one run over all of the files would have written it: report.json (the functions in the\n"
	      "order of the arguments, `merged_from` naming the reports), summary.md (one pull-request comment, led\n"
	      "by the comparison with --baseline when the runs made one), kcost.sarif (the runs' logs as one) and\n"
	      "index.html (the runs' own pages copied to shards/, and every function). Each REPORT.json may be a\n"
	      "report directory holding one; its kcost.sarif, index.html and graphs/ are taken from beside it.\n"
	      "\n"
	      "  -o DIR                report directory (default: kcost-report)\n"
	      "  --format text|json|md what to print on stdout (default: text): a line per report and the totals,\n"
	      "                        the merged report.json, or the comment\n"
	      "\n"
	      "Conflicts are errors: a function (file and name) in two reports; two kcost versions; timings from two\n"
	      "machines (a report without timings, as with --no-run, merges with any).\n"
	      "\n"
	      "Exit status: 0 merged; 1 a report is missing, is not a kcost report or conflicts with another, or the\n"
	      "report could not be written; 2 usage error; 3 internal error.\n",
	      out);
}

static int usage_error(const char *msg, const char *arg)
{
	char before[128];
	snprintf(before, sizeof before, "%s%s", msg, arg ? " '" : "");
	kc_cli_error("merge", before, arg,
	             arg ? "'\nTry 'kcost merge --help' for more information."
	                 : "\nTry 'kcost merge --help' for more information.");
	return MERGE_USAGE;
}

/* One argument: where its report.json and directory are, and what was read of them. */
struct shard {
	char *json, *dir; /* malloc'd */
	struct kc_buf text;
	char no_sarif[160];
};

/* The report.json an argument names (the argument, or DIR/report.json for a directory) and its directory. */
static int locate(const char *arg, struct shard *s)
{
	struct stat st;
	size_t n = strlen(arg);
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		s->dir = strdup(arg);
		s->json = malloc(n + sizeof "/report.json");
		if (s->json)
			snprintf(s->json, n + sizeof "/report.json", "%s%sreport.json", arg,
			         n && arg[n - 1] == '/' ? "" : "/");
	} else {
		const char *slash = strrchr(arg, '/');
		s->json = strdup(arg);
		s->dir = !slash ? strdup(".") : slash == arg ? strdup("/") : strndup(arg, (size_t)(slash - arg));
	}
	return s->json && s->dir ? 0 : -1;
}

/* The kcost.sarif beside a report, parsed; NULL with why in s->no_sarif. */
static cJSON *load_sarif(struct shard *s)
{
	struct kc_buf path = KC_BUF_INIT, text = KC_BUF_INIT;
	kc_buf_printf(&path, "%s/kcost.sarif", s->dir);
	cJSON *log = NULL;
	if (kc_buf_read_file(&text, kc_buf_str(&path), (size_t)1 << 30) < 0)
		snprintf(s->no_sarif, sizeof s->no_sarif, "%s", strerror(errno));
	else if (!(log = cJSON_ParseWithOpts(kc_buf_str(&text), NULL, 1)))
		snprintf(s->no_sarif, sizeof s->no_sarif, "it is not valid JSON");
	kc_buf_release(&path);
	kc_buf_release(&text);
	return log;
}

/* The report.json of the shard whose directory dir is (the merge would write over its own input), or NULL. */
static const char *writes_over(const char *dir, const struct shard *s, int n)
{
	struct stat out, in;
	if (stat(dir, &out) < 0)
		return NULL;
	for (int k = 0; k < n; k++)
		if (stat(s[k].dir, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return s[k].json;
	return NULL;
}

/* Merge the reports files[0 .. n) (labels[k] names files[k] in the outputs when labels is not NULL). */
static int merge_files(char **files, const char *const *labels, int n, const char *out_dir, enum kc_merge_output print,
                       const char *const *command, int n_command)
{
	struct shard *s = calloc((size_t)n, sizeof *s);
	struct kc_merge_input *in = calloc((size_t)n, sizeof *in);
	struct kc_merge *m = NULL;
	const char *err;
	char error[1024];
	int status = MERGE_OK;
	if (!s || !in) {
		free(s);
		free(in);
		kc_cli_error("merge", "", "out of memory", "");
		return MERGE_INTERNAL;
	}
	kc_cli_json_arena(1);
	for (int k = 0; k < n && status == MERGE_OK; k++) {
		if (locate(files[k], &s[k]) < 0) {
			status = MERGE_INTERNAL;
			kc_cli_error("merge", "", "out of memory", "");
			break;
		}
		in[k].name = files[k];
		in[k].label = labels ? labels[k] : NULL;
		in[k].report = kc_cli_load_json("merge", s[k].json, &s[k].text);
		in[k].text = kc_buf_str(&s[k].text);
		in[k].sarif = load_sarif(&s[k]);
		in[k].no_sarif = in[k].sarif ? NULL : s[k].no_sarif;
		in[k].dir = s[k].dir;
		status = in[k].report ? MERGE_OK : MERGE_INPUT;
	}
	const char *input = status == MERGE_OK ? writes_over(out_dir, s, n) : NULL;
	if (input) {
		kc_cli_error("merge", "the report directory '", out_dir, "' holds a report to merge: give another -o");
		status = MERGE_USAGE;
	}
	struct kc_merge_opts o = {KCOST_VERSION, command, n_command, NULL, out_dir};
	int rc = status == MERGE_OK ? kc_merge_reports(in, n, &o, &m, error, sizeof error) : 0;
	if (rc < 0) {
		kc_cli_error("merge", "", error, "");
		status = rc == -1 ? MERGE_INPUT : MERGE_INTERNAL;
	}
	rc = m ? kc_merge_write(m, out_dir, &err) : 0;
	if (rc < 0) {
		kc_cli_error("merge", "", err, "");
		status = rc == -1 ? MERGE_INPUT : MERGE_INTERNAL; /* -1: the directory's, -2: kcost's */
	}
	if (m) {
		struct kc_buf b = KC_BUF_INIT;
		kc_merge_render_problems(m, &b);
		fputs(kc_buf_str(&b), stderr);
		kc_buf_reset(&b);
		if (rc == 0 && kc_merge_render(m, print, &b) < 0) { /* nothing printed of a report not written */
			kc_cli_error("merge", "", "out of memory", "");
			status = MERGE_INTERNAL;
		}
		fputs(kc_buf_str(&b), stdout);
		kc_buf_release(&b);
	}
	kc_merge_free(m);
	for (int k = 0; k < n; k++) {
		free(s[k].json);
		free(s[k].dir);
		kc_buf_release(&s[k].text);
	}
	kc_cli_json_arena(0); /* the parsed reports with it */
	free(s);
	free(in);
	return status;
}

int kc_cli_merge(int argc, char **argv)
{
	return kc_cli_merge_labeled(argc, argv, NULL);
}

/* kcost merge, with labels[k] naming the k-th report of the command line in the outputs (NULL: their paths). */
int kc_cli_merge_labeled(int argc, char **argv, const char *const *labels)
{
	const char *out_dir = "kcost-report";
	enum kc_merge_output print = KC_MERGE_TEXT;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	int n = 0, only_files = 0;
	if (!files)
		return MERGE_INTERNAL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int status = -1;
		if (only_files || a[0] != '-' || !a[1]) {
			files[n++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_files = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			status = MERGE_OK;
		} else if (!strcmp(a, "-o")) {
			if (i + 1 < argc)
				out_dir = argv[++i];
			else
				status = usage_error("option '-o' requires a directory", NULL);
		} else if (!strcmp(a, "--format")) {
			const char *v = i + 1 < argc ? argv[++i] : NULL;
			if (v && !strcmp(v, "text"))
				print = KC_MERGE_TEXT;
			else if (v && !strcmp(v, "json"))
				print = KC_MERGE_JSON;
			else if (v && !strcmp(v, "md"))
				print = KC_MERGE_MD;
			else
				status = usage_error("--format expects text, json or md, got", v ? v : "");
		} else {
			status = usage_error("unknown option", a);
		}
		if (status >= 0) {
			free(files);
			return status;
		}
	}
	int status;
	const char *err;
	if (!n) {
		status = usage_error("expected the reports to merge (REPORT.json or report directories)", NULL);
	} else if (kc_report_check_dir(out_dir, &err) < 0) { /* said before any report is read */
		kc_cli_error("merge", "", err, "");
		status = MERGE_INPUT;
	} else {
		/* report.json's "command": kcost's, as `kcost merge ...` (argv[0] is "merge") */
		const char **command = calloc((size_t)argc + 1, sizeof *command);
		if (!command) {
			free(files);
			return MERGE_INTERNAL;
		}
		command[0] = "kcost";
		for (int i = 0; i < argc; i++)
			command[i + 1] = argv[i];
		status = merge_files(files, labels, n, out_dir, print, command, argc + 1);
		free(command);
	}
	free(files);
	return status;
}

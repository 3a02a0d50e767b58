/* test_merge.c — `kcost merge`: two shards give what one run over both files gives; conflicts are errors that
 * name both reports; a thousand functions fit one comment; the SARIF logs become one valid log. Static runs and
 * hand-written reports only: nothing here depends on the machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "run.h"

#ifndef NODE
#error "NODE must name node (tests/CMakeLists.txt)"
#endif

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

/* The time every report of this test records (kcost honours $SOURCE_DATE_EPOCH): 2023-11-14T22:13:20Z. */
#define EPOCH   "1700000000"
#define CREATED "2023-11-14T22:13:20Z"

static char *path_in(char *out, size_t size, const char *dir, const char *leaf)
{
	if ((size_t)snprintf(out, size, "%s/%s", dir, leaf) >= size)
		fail_msg("path too long: %s/%s", dir, leaf);
	return out;
}

/* A --no-run report of the files (relative to `in`, or to the source directory when in is NULL) into out. */
static void static_run(const char *in, const char *out, const char *const *files)
{
	const char *args[16] = {"--no-run", "--quiet", "-o", out};
	int n = 4;
	for (int i = 0; files[i] && n < 15; i++)
		args[n++] = files[i];
	args[n] = NULL;
	struct run r = in ? run_kcost_in(in, args) : run_kcost(args);
	if (r.status != 0)
		fail_msg("kcost on %s exited %d: %s", files[0], r.status, r.err);
	run_release(&r);
}

/* The text of report.json from its "functions" array on: a merge copies each function's text. */
static const char *functions_text(const char *json)
{
	const char *at = json ? strstr(json, "\n\t\"functions\":\t[") : NULL;
	assert_non_null(at);
	return at;
}

/* Two shards (samples/gelu.c, samples/softmax.c) against one run over both: the same functions, byte for byte, and
 * the same diagnostics; the graphs and each shard's page are copied; merged_from names the shards. */
static void merging_two_shards_equals_one_run(void **state)
{
	(void)state;
	char s1[4200], s2[4200], both[4200], m[4200], p[2][4400];
	snprintf(s1, sizeof s1, "%s", scratch_dir("merge-s1"));
	snprintf(s2, sizeof s2, "%s", scratch_dir("merge-s2"));
	snprintf(both, sizeof both, "%s", scratch_dir("merge-both"));
	snprintf(m, sizeof m, "%s/merged", scratch_dir("merge-out"));
	static_run(NULL, s1, (const char *const[]){"samples/gelu.c", NULL});
	static_run(NULL, s2, (const char *const[]){"samples/softmax.c", NULL});
	static_run(NULL, both, (const char *const[]){"samples/gelu.c", "samples/softmax.c", NULL});
	struct run r = RUN("merge", "-o", m, s1, path_in(p[1], sizeof p[1], s2, "report.json"));
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	char expected[20000];
	snprintf(expected, sizeof expected,
	         "%s: 2 functions (2 exact), not measured, 0 errors, 0 warnings; created " CREATED "\n"
	         "%s/report.json: 2 functions (2 exact), not measured, 0 errors, 0 warnings; created " CREATED "\n"
	         "merged: 4 functions from 2 reports (4 exact), 0 errors, 0 warnings; report: %s/index.html\n",
	         s1, s2, m);
	assert_string_equal(r.out, expected);
	run_release(&r);

	cJSON *merged = load_report(m), *one = load_report(both);
	assert_non_null(merged);
	assert_non_null(one);
	/* no key of a function differs from one run's: not even a graph's name */
	assert_int_equal(cJSON_GetArraySize(at(merged, "functions")), 4);
	assert_true(cJSON_Compare(at(merged, "functions"), at(one, "functions"), 1));
	assert_true(
	    cJSON_Compare(cJSON_GetObjectItem(merged, "diagnostics"), cJSON_GetObjectItem(one, "diagnostics"), 1));
	assert_true(cJSON_Compare(at(merged, "files"), at(one, "files"), 1));
	assert_true(cJSON_IsTrue(at(merged, "no_run")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(merged, "machine")));
	assert_string_equal(report_text(merged, "created"), CREATED);
	assert_string_equal(report_text(merged, "kcost_version"), report_text(one, "kcost_version"));
	assert_string_equal(report_text(cJSON_GetArrayItem(at(merged, "command"), 1), ""), "merge");
	cJSON *from = at(merged, "merged_from");
	assert_int_equal(cJSON_GetArraySize(from), 2);
	assert_string_equal(report_text(cJSON_GetArrayItem(from, 0), "path"), s1);
	assert_string_equal(report_text(cJSON_GetArrayItem(from, 1), "path"), p[1]);
	assert_string_equal(report_text(cJSON_GetArrayItem(from, 1), "created"), CREATED);
	assert_int_equal(at(cJSON_GetArrayItem(from, 1), "functions")->valueint, 2);
	assert_string_equal(report_text(cJSON_GetArrayItem(at(cJSON_GetArrayItem(from, 1), "command"), 5), ""),
	                    "samples/softmax.c");
	cJSON_Delete(merged);
	cJSON_Delete(one);

	/* the text itself: numbers written digit for digit stay so */
	char *merged_text = slurp(path_in(p[0], sizeof p[0], m, "report.json"));
	char *one_text = slurp(path_in(p[1], sizeof p[1], both, "report.json"));
	assert_string_equal(functions_text(merged_text), functions_text(one_text));
	free(merged_text);
	free(one_text);

	/* the graphs one run writes, as their shard wrote them (the SVG ids, kcdf<N>, count the graphs of the page
	 * they were drawn for: gelu_unfused's is the first in both, softmax_three_pass's the first of its shard's) */
	static const char *const graphs[] = {"gelu_unfused.svg", "gelu_unfused.dot", "softmax_three_pass.dot",
	                                     "softmax_online.svg"};
	for (int i = 0; i < 4; i++) {
		char leaf[64], *a, *b;
		snprintf(leaf, sizeof leaf, "graphs/%s", graphs[i]);
		a = slurp(path_in(p[0], sizeof p[0], m, leaf));
		b = slurp(path_in(p[1], sizeof p[1], i < 2 ? both : s2, leaf));
		assert_non_null(a);
		assert_non_null(b);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	char *page = slurp(path_in(p[0], sizeof p[0], m, "shards/2.html"));
	char *own = slurp(path_in(p[1], sizeof p[1], s2, "index.html"));
	assert_non_null(page);
	assert_non_null(own);
	assert_string_equal(page, own);
	free(page);
	free(own);
	char *index = slurp(path_in(p[0], sizeof p[0], m, "index.html"));
	assert_non_null(index);
	assert_non_null(strstr(index, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	                              "style-src 'unsafe-inline'\">"));
	assert_non_null(strstr(index, "<td><a href=\"shards/2.html#fn-softmax_online\">softmax_online</a></td>"));
	assert_null(strstr(index, "<script"));
	free(index);
	assert_int_equal(access(path_in(p[0], sizeof p[0], m, "roofline.svg"), F_OK), -1);

	/* the output directory may not be an input's: the copies would read what the merge writes */
	r = RUN("merge", "-o", s1, s1, s2);
	assert_int_equal(r.status, 2);
	snprintf(expected, sizeof expected,
	         "kcost merge: error: the report directory '%s' holds a report to merge: give another -o\n", s1);
	assert_string_equal(r.err, expected);
	run_release(&r);
}

/* Two runs with a function of the same name in files of the same name in two directories: one run names their
 * graphs graphs/gelu_unfused-0 and -2, and so does the merge. */
static void graphs_of_one_name_are_named_as_one_run_names_them(void **state)
{
	(void)state;
	char src[4200], dir[4300], file[4400], link[4400], r1[4300], r2[4300], both[4300], m[4300];
	snprintf(src, sizeof src, "%s", scratch_dir("merge-names"));
	char *gelu = slurp(KCOST_SOURCE_DIR "/samples/gelu.c");
	assert_non_null(gelu);
	for (int k = 0; k < 2; k++) {
		snprintf(dir, sizeof dir, "%s/%c", src, "ab"[k]);
		assert_int_equal(mkdir(dir, 0777), 0);
		write_text(path_in(file, sizeof file, dir, "gelu.c"), gelu);
	}
	free(gelu);
	assert_int_equal(symlink(KCOST_SOURCE_DIR "/annotations", path_in(link, sizeof link, src, "annotations")), 0);
	static_run(src, path_in(r1, sizeof r1, src, "r1"), (const char *const[]){"a/gelu.c", NULL});
	static_run(src, path_in(r2, sizeof r2, src, "r2"), (const char *const[]){"b/gelu.c", NULL});
	static_run(src, path_in(both, sizeof both, src, "both"), (const char *const[]){"a/gelu.c", "b/gelu.c", NULL});
	struct run r = RUN("merge", "--format", "json", "-o", path_in(m, sizeof m, src, "m"), r1, r2);
	assert_int_equal(r.status, 0);
	cJSON *printed = cJSON_Parse(r.out), *merged = load_report(m), *one = load_report(both);
	run_release(&r);
	assert_non_null(printed);
	assert_true(cJSON_Compare(printed, merged, 1));
	assert_true(cJSON_Compare(at(merged, "functions"), at(one, "functions"), 1));
	assert_string_equal(report_text(cJSON_GetArrayItem(at(merged, "functions"), 2), "dataflow.svg"),
	                    "graphs/gelu_unfused-2.svg");
	char leaf[4400];
	for (int i = 0; i < 4; i++) {
		snprintf(leaf, sizeof leaf, "%s/graphs/gelu_unfused-%d.%s", m, i / 2 * 2, i % 2 ? "dot" : "svg");
		assert_int_equal(access(leaf, F_OK), 0);
	}
	/* the shards' own names are not left behind */
	assert_int_equal(access(path_in(leaf, sizeof leaf, m, "graphs/gelu_unfused.svg"), F_OK), -1);
	cJSON_Delete(printed);
	cJSON_Delete(merged);
	cJSON_Delete(one);
}

/* ---- hand-written reports ---------------------------------------------------------------------------------- */

/* The JSON of a measured function. */
static void measured_function(struct kc_buf *b, const char *name, const char *file)
{
	kc_buf_printf(b,
	              "{\"name\": \"%s\", \"file\": \"%s\", \"line\": 3, \"exact\": true, \"diagnostics\": [],"
	              " \"flops\": {\"expr\": \"2*n\", \"value\": 2000},"
	              " \"bytes\": {\"streaming\": {\"expr\": \"8*n\", \"value\": 8000}},"
	              " \"measured\": {\"seconds\": {\"median\": 0.001}, \"cv\": 0.01, \"error\": null}}",
	              name, file);
}

/* A machine: cpu, and the median the run sampled beside its kernels (not part of what identifies it). */
static void machine(struct kc_buf *b, const char *cpu, double beside)
{
	kc_buf_printf(
	    b,
	    "{\"cpu\": \"%s\", \"cores\": 2, \"caches\": [{\"level\": 1, \"bytes\": 32768}],"
	    " \"ceilings\": {\"flops\": {\"float\": {\"gflops\": 96.7, \"threads\": 1, \"method\": \"peak\"}},"
	    " \"bandwidth\": {\"DRAM\": {\"gbytes_per_s\": 20.1, \"median_gbytes_per_s\": %g}},"
	    " \"measured_at\": \"2026-12-01T23:43:38Z\"}, \"cached\": true, \"hypothetical\": false,"
	    " \"from_file\": null}",
	    cpu, beside);
}

/* dir/name/report.json (out: its path) of kcost `version`, with a machine (JSON text, or "null") and the
 * functions (the array's elements). */
static void hand_report(char *out, size_t size, const char *dir, const char *name, const char *version,
                        const char *machine_json, const char *functions)
{
	char path[4400];
	path_in(path, sizeof path, dir, name);
	assert_int_equal(mkdir(path, 0777), 0);
	path_in(out, size, path, "report.json");
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_printf(&b,
	              "{\"schema\": 1, \"kcost_version\": \"%s\", \"created\": \"" CREATED "\","
	              " \"files\": [\"%s.c\"], \"no_run\": %s, \"diagnostics\": [], \"machine\": %s,"
	              " \"functions\": [%s]}\n",
	              version, name, strcmp(machine_json, "null") ? "false" : "true", machine_json, functions);
	write_text(out, kc_buf_str(&b));
	kc_buf_release(&b);
}

static void one_function_in_two_shards_is_an_error(void **state)
{
	(void)state;
	char dir[4200], a[4400], b[4400], m[4400];
	struct kc_buf f = KC_BUF_INIT, g = KC_BUF_INIT;
	snprintf(dir, sizeof dir, "%s", scratch_dir("merge-twice"));
	measured_function(&f, "f", "k.c");
	measured_function(&g, "g", "k.c");
	kc_buf_puts(&g, ", ");
	measured_function(&g, "f", "k.c");
	hand_report(a, sizeof a, dir, "A", "0.1.0", "null", kc_buf_str(&f));
	hand_report(b, sizeof b, dir, "B", "0.1.0", "null", kc_buf_str(&g));
	kc_buf_release(&f);
	kc_buf_release(&g);
	struct run r = RUN("merge", "-o", path_in(m, sizeof m, dir, "m"), a, b);
	assert_int_equal(r.status, 1);
	char expected[20000];
	snprintf(expected, sizeof expected, "kcost merge: error: function 'f' (k.c) is in both %s and %s\n", a, b);
	assert_string_equal(r.err, expected);
	assert_string_equal(r.out, "");
	run_release(&r);
	assert_int_equal(access(m, F_OK), -1); /* nothing written */

	/* and a report that is not kcost's, as kcost diff says it */
	write_text(b, "{\"schema\": 1, \"functions\": {}}");
	r = RUN("merge", "-o", m, a, b);
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected, "kcost merge: error: %s is not a kcost report: no \"functions\" array\n",
	         b);
	assert_string_equal(r.err, expected);
	run_release(&r);
	r = RUN("merge", "-o", m, a, path_in(b, sizeof b, dir, "missing.json"));
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected, "kcost merge: error: cannot open '%s': No such file or directory\n", b);
	assert_string_equal(r.err, expected);
	run_release(&r);
	r = RUN("merge", "-o", m);
	assert_int_equal(r.status, 2);
	run_release(&r);
}

/* Timings of two machines are an error; one machine's (its medians beside the kernels differ from run to run),
 * or a static shard with a timed one, merge. Two kcost versions are an error. */
static void timings_of_two_machines_are_an_error(void **state)
{
	(void)state;
	char dir[4200], a[4400], b[4400], c[4400], d[4400], e[4400], m[4400], expected[20000];
	struct kc_buf f = KC_BUF_INIT, mc = KC_BUF_INIT;
	snprintf(dir, sizeof dir, "%s", scratch_dir("merge-machines"));
	path_in(m, sizeof m, dir, "m");
	measured_function(&f, "f", "a.c");
	machine(&mc, "AMD EPYC 7763 64-Core Processor", 18.0);
	hand_report(a, sizeof a, dir, "a", "0.1.0", kc_buf_str(&mc), kc_buf_str(&f));
	kc_buf_reset(&f);
	kc_buf_reset(&mc);
	measured_function(&f, "g", "b.c");
	machine(&mc, "Intel(R) Xeon(R) Gold 6338", 18.0);
	hand_report(b, sizeof b, dir, "b", "0.1.0", kc_buf_str(&mc), kc_buf_str(&f));
	kc_buf_reset(&f);
	kc_buf_reset(&mc);
	measured_function(&f, "h", "c.c");
	machine(&mc, "AMD EPYC 7763 64-Core Processor", 17.5);
	hand_report(c, sizeof c, dir, "c", "0.1.0", kc_buf_str(&mc), kc_buf_str(&f));
	hand_report(
	    d, sizeof d, dir, "d", "0.1.0", "null",
	    "{\"name\": \"s\", \"file\": \"d.c\", \"flops\": {\"expr\": \"n\", \"value\": 10}, \"measured\": null}");
	hand_report(
	    e, sizeof e, dir, "e", "0.2.0", "null",
	    "{\"name\": \"t\", \"file\": \"e.c\", \"flops\": {\"expr\": \"n\", \"value\": 10}, \"measured\": null}");
	kc_buf_release(&f);
	kc_buf_release(&mc);

	struct run r = RUN("merge", "-o", m, a, b);
	assert_int_equal(r.status, 1);
	snprintf(
	    expected, sizeof expected,
	    "kcost merge: error: %s and %s hold timings from different machines (machine.cpu: 'AMD EPYC 7763 64-Core "
	    "Processor' and 'Intel(R) Xeon(R) Gold 6338'): merge the timings of one machine only\n",
	    a, b);
	assert_string_equal(r.err, expected);
	run_release(&r);

	r = RUN("merge", "-o", m, d, a, c);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "error")); /* warnings: hand-written, they have no kcost.sarif or index.html */
	run_release(&r);
	cJSON *merged = load_report(m);
	assert_non_null(merged);
	assert_string_equal(report_text(merged, "machine.cpu"), "AMD EPYC 7763 64-Core Processor");
	assert_int_equal((int)at(merged, "machine.ceilings.bandwidth.DRAM.median_gbytes_per_s")->valuedouble, 18);
	assert_false(cJSON_IsTrue(at(merged, "no_run")));
	assert_int_equal(cJSON_GetArraySize(at(merged, "functions")), 3);
	assert_string_equal(report_text(cJSON_GetArrayItem(at(merged, "functions"), 0), "name"), "s");
	cJSON_Delete(merged);
	char *md = slurp(path_in(expected, sizeof expected, m, "summary.md"));
	assert_non_null(md);
	assert_non_null(strstr(md, "Measured on AMD EPYC 7763 64-Core Processor (2 cores). Kernels were timed in 2 of "
	                           "the 3 shards."));
	assert_non_null(strstr(md, "| s | d.c | `n` = 10 FLOP | n/a | approx | not measured |\n"));
	assert_non_null(strstr(md, "| f | a.c | `2*n` = 2.0 kFLOP | `8*n` = 8.0 kB | exact | 1.00 ms median |\n"));
	free(md);

	r = RUN("merge", "-o", m, d, e);
	assert_int_equal(r.status, 1);
	snprintf(
	    expected, sizeof expected,
	    "kcost merge: error: %s was written by kcost 0.1.0 and %s by kcost 0.2.0: merge the reports of one kcost "
	    "version\n",
	    d, e);
	assert_string_equal(r.err, expected);
	run_release(&r);
}

/* ---- a thousand functions ---------------------------------------------------------------------------------- */

/* Function i of a shard: measured and compared with the baseline; by i % 8 slower (a regression beyond the
 * gate), faster, inconclusive, or unchanged. */
static void compared_function(struct kc_buf *b, const char *file, int i)
{
	static const char *const verdicts[] = {"slower",    "faster",    "inconclusive", "unchanged",
	                                       "unchanged", "unchanged", "unchanged",    "unchanged"};
	static const double ratios[] = {1.5, 0.5, 1.01, 1.0, 1.0, 1.0, 1.0, 1.0};
	kc_buf_printf(
	    b,
	    "%s{\"name\": \"kernel_%04d\", \"file\": \"%s\", \"line\": %d, \"exact\": true, \"diagnostics\": [],"
	    " \"flops\": {\"expr\": \"2*n*m\", \"value\": 2000000},"
	    " \"bytes\": {\"streaming\": {\"expr\": \"8*n*m\", \"value\": 8000000}},"
	    " \"predicted\": {\"seconds\": 0.0005, \"bound\": \"L2 bandwidth\"},"
	    " \"measured\": {\"seconds\": {\"median\": 0.00075}, \"cv\": 0.01, \"error\": null},"
	    " \"baseline\": {\"revision\": \"0123456789abcdef0123\", \"change\": \"same\", \"verdict\": \"%s\","
	    " \"ratio\": %g, \"ci_low\": %g, \"ci_high\": %g, \"p_value\": 0.002, \"regressed\": %s}}",
	    i % 500 ? ", " : "", i, file, 10 * (i % 500) + 1, verdicts[i % 8], ratios[i % 8], ratios[i % 8] - 0.05,
	    ratios[i % 8] + 0.05, i % 8 ? "false" : "true");
}

/* The number of characters of UTF-8 text (GitHub counts characters). */
static size_t characters(const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return n;
}

static void a_thousand_functions_fit_one_comment(void **state)
{
	(void)state;
	char dir[4200], a[4400], b[4400], m[4400], file[4400];
	struct kc_buf fa = KC_BUF_INIT, fb = KC_BUF_INIT, mc = KC_BUF_INIT;
	snprintf(dir, sizeof dir, "%s", scratch_dir("merge-thousand"));
	for (int i = 0; i < 500; i++) {
		compared_function(&fa, "kernels/a.c", i);
		compared_function(&fb, "kernels/b.c", 500 + i);
	}
	machine(&mc, "AMD EPYC 7763 64-Core Processor", 18.0);
	hand_report(a, sizeof a, dir, "a", "0.1.0", kc_buf_str(&mc), kc_buf_str(&fa));
	hand_report(b, sizeof b, dir, "b", "0.1.0", kc_buf_str(&mc), kc_buf_str(&fb));
	kc_buf_release(&fa);
	kc_buf_release(&fb);
	kc_buf_release(&mc);
	struct run r = RUN("merge", "--format", "md", "-o", path_in(m, sizeof m, dir, "m"), a, b);
	assert_int_equal(r.status, 0);
	char *md = slurp(path_in(file, sizeof file, m, "summary.md"));
	assert_non_null(md);
	assert_string_equal(r.out, md);
	run_release(&r);
	assert_true(characters(md) <= 65536);
	assert_true(strlen(md) <= 60000);
	/* regressions first (every eighth function), then improvements, then the other changes, as many as fit */
	assert_non_null(
	    strstr(md, "\n### Against the baseline\n\nEach function against itself at `0123456789ab`.\n\n"));
	const char *first = strstr(md, "\n- **kernel\\_0000** (kernels/a.c): slower, 1.5x the baseline's time (95% "
	                               "interval 1.45\xe2\x80\x93"
	                               "1.55, p = 0.002); FLOPs `2*n*m` \xe2\x80\x94 **regression beyond "
	                               "--fail-on-regression**\n"),
	           *faster = strstr(md, "\n- **kernel\\_0001** (kernels/a.c): faster, 0.5x");
	assert_non_null(first);
	assert_non_null(faster);
	const char *last = strstr(md, "\n- **kernel\\_0992** (kernels/b.c): slower");
	assert_non_null(last);
	const char *other = strstr(md, "\n- **kernel\\_0002** (kernels/a.c): inconclusive, 1.01x the baseline's time "
	                               "(95% interval 0.96\xe2\x80\x93"
	                               "1.06, p = 0.002); FLOPs `2*n*m`\n");
	assert_non_null(other);
	assert_true(first < last && last < faster && faster < other);
	/* what did not fit is counted, never dropped silently */
	assert_non_null(strstr(md, "\n\xe2\x80\xa6 and 96 more changed functions: each function's `baseline` in "
	                           "report.json has its verdict\n\n625 functions unchanged\n"));
	assert_non_null(strstr(md, "\n\xe2\x80\xa6 and 854 more functions: the full table is in report.json and "
	                           "index.html\n"));
	assert_non_null(strstr(md, "| kernel\\_0145 | kernels/a.c | `2*n*m` = 2.0 MFLOP | `8*n*m` = 8.0 MB | exact | "
	                           "750 \xc2\xb5s median | 500 \xc2\xb5s, bound: L2 bandwidth |\n"));
	assert_null(strstr(md, "| kernel\\_0146 |"));
	free(md);
	cJSON *merged = load_report(m);
	assert_non_null(merged);
	assert_int_equal(cJSON_GetArraySize(at(merged, "functions")), 1000);
	cJSON_Delete(merged);
}

/* ---- kcost.sarif ------------------------------------------------------------------------------------------ */

/* Run the SARIF validator (tests/sarif/validate.js, as test_sarif.c does) on log; the test fails unless it is
 * valid against both schemas. */
static void validate(const char *log)
{
	if (access(NODE, X_OK) != 0)
		fail_msg("node (Node.js) was not found when CMake configured this build (%s): run scripts/install-deps "
		         "(it installs node and the validator of tests/sarif), then cmake again",
		         NODE);
	char out[] = "/tmp/kcost-merge-validateXXXXXX";
	int fd = mkstemp(out);
	assert_true(fd >= 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		execl(NODE, NODE, SARIF_VALIDATOR, log, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	close(fd);
	char *said = slurp(out);
	unlink(out);
	assert_non_null(said);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("the SARIF validator failed (status %d):\n%s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, said);
	struct kc_buf line = KC_BUF_INIT;
	kc_buf_printf(&line,
	              "%s: valid against sarif-schema-2.1.0.json\n%s: valid against sarif-schema-2.1.0-draft-07.json\n",
	              log, log);
	assert_string_equal(said, kc_buf_str(&line));
	kc_buf_release(&line);
	free(said);
}

static cJSON *results_of(cJSON *log)
{
	return at(cJSON_GetArrayItem(at(log, "runs"), 0), "results");
}

static cJSON *load_json(const char *path)
{
	char *text = slurp(path);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!doc)
		fail_msg("%s is missing or not JSON", path);
	return doc;
}

/* tests/fixtures/limits_misc.c (8 results) and samples/gelu.c (1): the merged log has the 9, in order, under one
 * run, and is valid; a shard without kcost.sarif is a warning. */
static void sarif_logs_become_one(void **state)
{
	(void)state;
	char s1[4200], s2[4200], m[4300], p[3][4400];
	snprintf(s1, sizeof s1, "%s", scratch_dir("merge-sarif-s1"));
	snprintf(s2, sizeof s2, "%s", scratch_dir("merge-sarif-s2"));
	snprintf(m, sizeof m, "%s/m", scratch_dir("merge-sarif-out"));
	static_run(NULL, s1, (const char *const[]){"tests/fixtures/limits_misc.c", NULL});
	static_run(NULL, s2, (const char *const[]){"samples/gelu.c", NULL});
	struct run r = RUN("merge", "-o", m, s1, s2);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_release(&r);
	cJSON *log = load_json(path_in(p[0], sizeof p[0], m, "kcost.sarif"));
	cJSON *one = load_json(path_in(p[1], sizeof p[1], s1, "kcost.sarif"));
	cJSON *two = load_json(path_in(p[2], sizeof p[2], s2, "kcost.sarif"));
	assert_int_equal(cJSON_GetArraySize(at(log, "runs")), 1);
	assert_int_equal(cJSON_GetArraySize(results_of(one)), 8);
	assert_int_equal(cJSON_GetArraySize(results_of(two)), 1);
	assert_int_equal(cJSON_GetArraySize(results_of(log)), 9);
	for (int i = 0; i < 9; i++)
		assert_true(cJSON_Compare(cJSON_GetArrayItem(results_of(log), i),
		                          cJSON_GetArrayItem(results_of(i < 8 ? one : two), i < 8 ? i : 0), 1));
	cJSON *run = cJSON_GetArrayItem(at(log, "runs"), 0), *run1 = cJSON_GetArrayItem(at(one, "runs"), 0);
	assert_true(cJSON_Compare(at(run, "tool"), at(run1, "tool"), 1));
	assert_true(cJSON_Compare(at(run, "originalUriBaseIds"), at(run1, "originalUriBaseIds"), 1));
	assert_string_equal(report_text(cJSON_GetArrayItem(results_of(log), 8), "ruleId"), "kcost/assumption");
	cJSON_Delete(log);
	cJSON_Delete(one);
	cJSON_Delete(two);
	validate(p[0]);

	/* a shard without its log: said, and the others' results merged */
	assert_int_equal(unlink(p[2]), 0);
	r = RUN("merge", "-o", m, s1, s2);
	assert_int_equal(r.status, 0);
	char expected[20000];
	snprintf(expected, sizeof expected,
	         "kcost merge: warning: %s: no kcost.sarif (No such file or directory): its diagnostics are not in the "
	         "merged kcost.sarif\n",
	         s2);
	assert_string_equal(r.err, expected);
	run_release(&r);
	log = load_json(p[0]);
	assert_int_equal(cJSON_GetArraySize(results_of(log)), 8);
	cJSON_Delete(log);
}

/* kcost --help names the command; kcost merge --help says what it does; a usage error is exit 2. */
static void help_names_merge(void **state)
{
	(void)state;
	struct run r = RUN("--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\n       kcost merge [-o DIR] [--format text|json|md] REPORT.json...\n"));
	run_release(&r);
	r = RUN("merge", "--help");
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "usage: kcost merge [-o DIR] [--format text|json|md] REPORT.json...\n", 67));
	assert_non_null(strstr(r.out, "Exit status: 0 merged; 1 a report is missing"));
	run_release(&r);
	r = RUN("merge", "--format", "sarif", "x.json");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "kcost merge: error: --format expects text, json or md, got 'sarif'\n"
	                           "Try 'kcost merge --help' for more information.\n");
	run_release(&r);
}

/* kcost --no-run -j 2 on several files: two kcost processes, each over a contiguous share of the files, merged;
 * the same functions, diagnostics and files as one process over all of them, and an error of one file's kept. The
 * shards are named by their files in what is printed and written: their directories were temporary. */
static void shards_of_one_run_equal_one_process(void **state)
{
	(void)state;
	char one[4200], two[4200], path[8400];
	snprintf(one, sizeof one, "%s", scratch_dir("shards-one"));
	snprintf(two, sizeof two, "%s", scratch_dir("shards-two"));
	const char *files[] = {"samples/gelu.c", "samples/vecadd.c", "samples/softmax.c",
	                       "tests/fixtures/syntax_error.c"};
	const char *a1[] = {"--no-run", "--quiet", "-j", "1", "-o", one, files[0], files[1], files[2], files[3], NULL};
	const char *a2[] = {"--no-run", "--quiet", "-j", "2", "-o", two, files[0], files[1], files[2], files[3], NULL};
	struct run r1 = run_kcost(a1), r2 = run_kcost(a2);
	assert_int_equal(r1.status, 1); /* the syntax error */
	assert_int_equal(r2.status, 1);
	assert_string_equal(r2.err, r1.err); /* the diagnostics, in file order */
	assert_string_equal(r2.out, "");
	run_release(&r1);
	run_release(&r2);
	cJSON *p1 = load_report(one), *p2 = load_report(two);
	assert_true(cJSON_GetArraySize(at(p1, "functions")) >= 4);
	assert_true(cJSON_Compare(at(p2, "functions"), at(p1, "functions"), 1));
	assert_true(cJSON_Compare(at(p2, "files"), at(p1, "files"), 1));
	assert_true(cJSON_Compare(cJSON_GetObjectItem(p2, "diagnostics"), cJSON_GetObjectItem(p1, "diagnostics"), 1));
	assert_int_equal(cJSON_GetArraySize(at(p2, "merged_from")), 2);
	cJSON_Delete(p1);
	cJSON_Delete(p2);
	snprintf(path, sizeof path, "%s/kcost.sarif", two);
	char *sarif = slurp(path);
	assert_non_null(sarif);
	free(sarif);

	/* what is printed and written names each shard by its files, not by its temporary directory */
	const char *a3[] = {"--no-run", "-j", "2", "-o", two, files[0], files[1], files[2], files[3], NULL};
	struct run r3 = run_kcost(a3);
	assert_int_equal(r3.status, 1);
	char expected[9000];
	snprintf(expected, sizeof expected,
	         "samples/gelu.c, samples/vecadd.c: 4 functions (4 exact), not measured, 0 errors, 0 warnings; "
	         "created " CREATED "\n"
	         "samples/softmax.c, tests/fixtures/syntax_error.c: 4 functions (3 exact), not measured, 1 error, 1 "
	         "warning; created " CREATED "\n"
	         "merged: 8 functions from 2 reports (7 exact), 1 error, 1 warning; report: %s/index.html\n",
	         two);
	assert_string_equal(r3.out, expected);
	run_release(&r3);
	static const char *const written[] = {"summary.md", "index.html"};
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", two, written[i]);
		char *text = slurp(path);
		assert_non_null(text);
		assert_null(strstr(text, "kcost-shards-"));
		assert_non_null(strstr(text, "samples/softmax.c, tests/fixtures/syntax_error.c"));
		free(text);
	}
	/* more than three files: the first and the last, and how many */
	const char *a4[] = {"--no-run",
	                    "-j",
	                    "2",
	                    "--format",
	                    "md",
	                    "-o",
	                    two,
	                    "samples/conv2d.c",
	                    "samples/gelu.c",
	                    "samples/jacobi2d.c",
	                    "samples/layernorm.c",
	                    "samples/matmul.c",
	                    "samples/softmax.c",
	                    "samples/trsv.c",
	                    "samples/vecadd.c",
	                    NULL};
	struct run r4 = run_kcost(a4);
	assert_int_equal(r4.status, 0);
	assert_non_null(strstr(r4.out,
	                       "Merged from `samples/conv2d.c, ..., samples/layernorm.c (4 files)` (5 functions), "
	                       "`samples/matmul.c, ..., samples/vecadd.c (4 files)` (10 functions)."));
	run_release(&r4);
}

/* The shards' temporary directory (-j N on several files) is removed when kcost is interrupted, as at a normal
 * end, and the shards are stopped: SIGINT to kcost alone once the shards run (their directory holds a shard's
 * diagnostics file), then no kcost-shards-* under TMPDIR, then or 3 s later. Two files of 4,000 kernels each
 * keep the shards busy for a second or so. */
static void sigint_while_sharding_leaves_no_directory(void **state)
{
	(void)state;
	char dir[4200], tmp[4300], files[2][4300];
	snprintf(dir, sizeof dir, "%s", scratch_dir("merge-sigint"));
	snprintf(tmp, sizeof tmp, "%s/tmp", dir);
	assert_int_equal(mkdir(tmp, 0700), 0);
	for (int f = 0; f < 2; f++) {
		struct kc_buf b = KC_BUF_INIT;
		for (int k = 0; k < 4000; k++)
			kc_buf_printf(&b,
			              "void k%d_%d(int n, const float *x, float *y) { for (int i = 0; i < n; i++) y[i] "
			              "+= 2.0f * x[i]; }\n",
			              f, k);
		snprintf(files[f], sizeof files[f], "%s/big%d.c", dir, f);
		write_text(files[f], kc_buf_str(&b));
		kc_buf_release(&b);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0), dup2(null, 1), dup2(null, 2);
		setenv("TMPDIR", tmp, 1);
		execl(KCOST_BIN, KCOST_BIN, "--no-run", "--quiet", "-j", "2", "-o", scratch_dir("merge-sigint-out"),
		      files[0], files[1], (char *)NULL);
		_exit(127);
	}
	char shard_err[4500] = "";
	for (int tries = 0; tries < 20000 && !shard_err[0]; tries++) { /* 20 s at most */
		DIR *d = opendir(tmp);
		for (struct dirent *e; d && (e = readdir(d));)
			if (!strncmp(e->d_name, "kcost-shards-", 13)) {
				struct kc_buf err = KC_BUF_INIT;
				kc_buf_printf(&err, "%s/%s/0.err", tmp, e->d_name);
				if (access(kc_buf_str(&err), F_OK) == 0 && err.len < sizeof shard_err)
					memcpy(shard_err, kc_buf_str(&err), err.len + 1);
				kc_buf_release(&err);
			}
		if (d)
			closedir(d);
		struct timespec t = {0, 1000000L};
		nanosleep(&t, NULL);
	}
	assert_int_equal(kill(pid, SIGINT), 0);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(shard_err[0]); /* the shards ran */
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
	/* nothing left, and nothing written again later by shards that outlived kcost (each would take about a
	 * second to finish its file) */
	for (int look = 0; look < 2; look++) {
		if (look) {
			struct timespec t = {3, 0};
			nanosleep(&t, NULL);
		}
		DIR *d = opendir(tmp);
		assert_non_null(d);
		for (struct dirent *e; (e = readdir(d));)
			if (!strncmp(e->d_name, "kcost-shards-", 13))
				fail_msg("left behind: %s", e->d_name);
		closedir(d);
	}
}

int main(void)
{
	setenv("SOURCE_DATE_EPOCH", EPOCH, 1);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(shards_of_one_run_equal_one_process),
	    cmocka_unit_test(merging_two_shards_equals_one_run),
	    cmocka_unit_test(graphs_of_one_name_are_named_as_one_run_names_them),
	    cmocka_unit_test(one_function_in_two_shards_is_an_error),
	    cmocka_unit_test(timings_of_two_machines_are_an_error),
	    cmocka_unit_test(a_thousand_functions_fit_one_comment),
	    cmocka_unit_test(sarif_logs_become_one),
	    cmocka_unit_test(help_names_merge),
	    cmocka_unit_test(sigint_while_sharding_leaves_no_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_diff.c — `kcost diff` on real runs: identical code, a regression, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#include <sys/stat.h>

#include "run.h"

static char head_src[4200]; /* a checkout of the "pull request": samples/gelu.c with gelu_fused unfused */

/* Write the head's samples/gelu.c: the same file, but gelu_fused calls the eager form. */
static int make_head_checkout(void)
{
	snprintf(head_src, sizeof head_src, "%s", scratch_dir("diff-head-src"));
	char dir[4300], path[4400], link[4400];
	snprintf(dir, sizeof dir, "%s/samples", head_src);
	snprintf(path, sizeof path, "%s/gelu.c", dir);
	snprintf(link, sizeof link, "%s/annotations", head_src);
	char *src = slurp(KCOST_SOURCE_DIR "/samples/gelu.c");
	char *fused = src ? strstr(src, "void gelu_fused(") : NULL;
	if (!fused || mkdir(dir, 0777) != 0 || symlink(KCOST_SOURCE_DIR "/annotations", link) != 0)
		return -1;
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%.*s", (int)(fused - src), src);
	fputs(
	    "void gelu_fused(int n, const float x[restrict n], float y[restrict n])\n{\n\tgelu_unfused(n, x, y);\n}\n",
	    f);
	fclose(f);
	free(src);
	return 0;
}

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

static char base_json[8400], head_json[8400];

static int setup(void **state)
{
	(void)state;
	snprintf(base_json, sizeof base_json, "%s/report.json", scratch_dir("diff-base"));
	char base_dir[4200];
	snprintf(base_dir, sizeof base_dir, "%s", scratch_dir("diff-base"));
	struct run r = RUN("--no-run", "--quiet", "-o", base_dir, "samples/gelu.c");
	int ok = r.status == 0;
	run_release(&r);
	char head_dir[4200];
	snprintf(head_dir, sizeof head_dir, "%s", scratch_dir("diff-head"));
	snprintf(head_json, sizeof head_json, "%s/report.json", head_dir);
	ok = ok && make_head_checkout() == 0;
	r = run_kcost_in(head_src,
	                 (const char *const[]){"--no-run", "--quiet", "-o", head_dir, "samples/gelu.c", NULL});
	ok = ok && r.status == 0;
	run_release(&r);
	return ok ? 0 : -1;
}

static void same_code_has_no_significant_change(void **state)
{
	(void)state;
	struct run r = RUN("diff", "--fail-on-regression", "10", base_json, base_json);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "no significant change in 2 functions"));
	assert_non_null(strstr(r.out, "no regression beyond the threshold"));
	run_release(&r);
}

static void fused_replaced_by_unfused_is_a_regression(void **state)
{
	(void)state;
	struct run r = RUN("diff", "--fail-on-regression", "10", base_json, head_json);
	assert_int_equal(r.status, 4);
	assert_non_null(strstr(r.out, "- **gelu\\_fused** (samples/gelu.c): changed"));
	assert_non_null(strstr(r.out, "regression: more bytes"));
	assert_non_null(strstr(r.out, "  - bytes (streaming): `8*n` → `72*n`\n"));
	assert_non_null(strstr(r.out, "1 other function unchanged"));
	run_release(&r);
	/* without the gate, the same comparison exits 0 */
	r = RUN("diff", "--format", "text", base_json, head_json);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "    bytes (streaming): 8*n -> 72*n\n"));
	run_release(&r);
}

static void json_format_is_machine_readable(void **state)
{
	(void)state;
	struct run r = RUN("diff", "--format", "json", "--fail-on-regression", "10", base_json, head_json);
	assert_int_equal(r.status, 4);
	cJSON *doc = cJSON_Parse(r.out);
	assert_non_null(doc);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "regressed")));
	cJSON_Delete(doc);
	run_release(&r);
}

static void bad_input_is_a_clear_error(void **state)
{
	(void)state;
	const char *dir = scratch_dir("diff-bad");
	char bad[4200], foreign[4200], future[4200];
	snprintf(bad, sizeof bad, "%s/bad.json", dir);
	snprintf(foreign, sizeof foreign, "%s/foreign.json", dir);
	snprintf(future, sizeof future, "%s/future.json", dir);
	write_text(bad, "{\"schema\": 1, \"functions\": [");
	write_text(foreign, "{\"name\": \"package.json\", \"version\": \"1.0.0\"}");
	write_text(future, "{\"schema\": 2, \"functions\": []}");
	struct run r = RUN("diff", bad, base_json);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "is not valid JSON"));
	run_release(&r);
	r = RUN("diff", base_json, foreign);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kcost diff: error: HEAD is not a kcost report: no \"schema\" number"));
	run_release(&r);
	r = RUN("diff", future, base_json);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "BASE has schema 2; this kcost reads schema 1"));
	run_release(&r);
	r = RUN("diff", "no/such.json", base_json);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "cannot open 'no/such.json'"));
	run_release(&r);
	r = RUN("diff", base_json);
	assert_int_equal(r.status, 2);
	run_release(&r);
}

/* A copy of the base report at path with the first function measured: median seconds, CV 0.01, and its name
 * replaced by `name` when not NULL. */
static void write_measured_copy(const char *path, double median, const char *name)
{
	char *text = slurp(base_json);
	cJSON *doc = cJSON_Parse(text);
	free(text);
	cJSON *fn = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "functions"), 0);
	assert_non_null(fn);
	cJSON *m = cJSON_CreateObject();
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "seconds"), "median", median);
	cJSON_AddNumberToObject(m, "cv", 0.01);
	cJSON_ReplaceItemInObject(fn, "measured", m);
	if (name)
		cJSON_ReplaceItemInObject(fn, "name", cJSON_CreateString(name));
	text = cJSON_Print(doc);
	write_text(path, text);
	free(text);
	cJSON_Delete(doc);
}

/* An impossible time is an error naming the report file and the function, exit 1; that function's verdict is
 * "invalid" and the other is still compared. */
static void impossible_time_is_an_input_error(void **state)
{
	(void)state;
	const char *dir = scratch_dir("diff-invalid");
	char good[4200], bad[4200], expected[8800];
	snprintf(good, sizeof good, "%s/good.json", dir);
	snprintf(bad, sizeof bad, "%s/bad.json", dir);
	write_measured_copy(good, 0.01, NULL);
	write_measured_copy(bad, -0.01, NULL);
	struct run r = RUN("diff", "--format", "text", "--fail-on-regression", "10", good, bad);
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected,
	         "kcost diff: error: %s: function 'gelu_unfused' (samples/gelu.c): measured.seconds.median is -0.01: a "
	         "time must be positive and finite\n",
	         bad);
	assert_string_equal(r.err, expected);
	assert_non_null(strstr(r.out, "  gelu_unfused (samples/gelu.c): invalid: in head, measured.seconds.median is "
	                              "-0.01: a time must be positive and finite\n"));
	assert_non_null(strstr(r.out, "  1 other function unchanged\n"));
	assert_null(strstr(r.out, "x faster"));
	run_release(&r);
}

/* A name from a forged report reaches the terminal on one line, its controls and bidi override visible. */
static void forged_name_stays_on_its_line(void **state)
{
	(void)state;
	const char *dir = scratch_dir("diff-forged");
	char base[4200], head[4200];
	snprintf(base, sizeof base, "%s/base.json", dir);
	snprintf(head, sizeof head, "%s/head.json", dir);
	const char *forged = "f\n  other (k.c): changed; time: 9.99x slower — regression: slower\033[8m\xe2\x80\xae";
	write_measured_copy(base, 0.01, forged);
	write_measured_copy(head, 0.02, forged);
	struct run r = RUN("diff", "--format", "text", base, head);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out,
	                    "kcost diff\n"
	                    "  f\\n  other (k.c): changed; time: 9.99x slower — regression: slower\\x1b[8m\\u202e "
	                    "(samples/gelu.c): changed; time: 2.00x slower\n"
	                    "  1 other function unchanged\n");
	run_release(&r);
}

/* The head/base median time ratio `kcost diff --format json` states for the first function. */
static double time_ratio(const char *base, const char *head)
{
	struct run r = RUN("diff", "--format", "json", base, head);
	assert_int_equal(r.status, 0);
	cJSON *doc = cJSON_Parse(r.out);
	cJSON *fn = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "functions"), 0);
	assert_non_null(fn);
	double ratio = cJSON_GetNumberValue(cJSON_GetObjectItem(fn, "time_ratio"));
	cJSON_Delete(doc);
	run_release(&r);
	return ratio;
}

/* Measured runs of tests/fixtures/chain.c, a latency-bound chain of multiply-adds: the head does 32 times the
 * base's work (-DCHAIN_REPS=64 against 2) and reads the same 4 bytes per element, so it is many times slower on
 * any x86 machine, whatever its caches, core count or clock. (A head that moves more bytes is no such test: when
 * the last-level cache holds every buffer, the extra traffic costs little more than the noise.) The verdict
 * "slower" needs the change, 31, beyond twice the runs' combined CV; hiding it takes a CV above 15, as one of the
 * base's ~75 samples of 0.65 ms preempted for 80 ms would give. */
static void measured_slowdown_is_reported(void **state)
{
	(void)state;
	char base_dir[4200], head_dir[4200], b[8400], h[8400];
	snprintf(base_dir, sizeof base_dir, "%s", scratch_dir("diff-base-measured"));
	snprintf(head_dir, sizeof head_dir, "%s", scratch_dir("diff-head-measured"));
	const char *args[] = {"--quiet", "--time-budget", "0.05", NULL, "-o", NULL, "tests/fixtures/chain.c", NULL};
	args[3] = "-DCHAIN_REPS=2", args[5] = base_dir;
	struct run r = run_kcost(args);
	assert_int_equal(r.status, 0);
	run_release(&r);
	args[3] = "-DCHAIN_REPS=64", args[5] = head_dir;
	r = run_kcost(args);
	assert_int_equal(r.status, 0);
	run_release(&r);
	snprintf(b, sizeof b, "%s/report.json", base_dir);
	snprintf(h, sizeof h, "%s/report.json", head_dir);

	r = RUN("diff", "--format", "text", "--fail-on-regression", "10", b, h);
	assert_int_equal(r.status, 4);
	assert_non_null(strstr(r.out, "  chain (tests/fixtures/chain.c): changed; time: "));
	/* one slice each (a file of one function is timed in one process): too few processes for the test of
	 * model/compare.h, the rule on the medians and CVs decides */
	assert_non_null(strstr(r.out, "x slower"));
	/* 32 times the work in instructions, counted where the traffic is simulated (not by hardware counters) */
	cJSON *hrep = load_report(head_dir);
	cJSON *src = at(cJSON_GetArrayItem(cJSON_GetObjectItem(hrep, "functions"), 0), "measured.traffic.source");
	if (src && cJSON_IsString(src) && !strcmp(src->valuestring, "cachegrind")) {
		assert_non_null(strstr(r.out, "x slower; instructions +"));
		assert_non_null(strstr(r.out, " (counts: the same from run to run); bound: "));
	}
	assert_non_null(strstr(r.out, " — regression: slower\n"));
	cJSON_Delete(hrep);
	assert_non_null(strstr(r.out, "    FLOPs: 4*n -> 128*n\n"));
	run_release(&r);

	/* 32 times the multiply-adds: the median ratio is near 32, and above on a loaded machine, where the head's
	 * longer calls share the core with others more often than the base's short ones */
	assert_true(time_ratio(b, h) > 8);
	/* The other way round the ratio is near 1/32 and nothing regressed. (Not its verdict: a speed-up's change,
	 * 1 - ratio, stays below 1, which a noisy run's CV can exceed.) */
	assert_true(time_ratio(h, b) < 1.0 / 8);
	r = RUN("diff", "--fail-on-regression", "10", h, b);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "no regression beyond the threshold"));
	run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(same_code_has_no_significant_change),
	    cmocka_unit_test(fused_replaced_by_unfused_is_a_regression),
	    cmocka_unit_test(json_format_is_machine_readable),
	    cmocka_unit_test(bad_input_is_a_clear_error),
	    cmocka_unit_test(impossible_time_is_an_input_error),
	    cmocka_unit_test(forged_name_stays_on_its_line),
	    cmocka_unit_test(measured_slowdown_is_reported),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

/* test_extents.c — kernels run without annotations: a pointer parameter's extent is the hull of the indices
 * accessed, the harness allocates it (from below index 0 when the accesses reach there), the report says where
 * it comes from, KCOST_EXTENT still overrides, and where the accesses give no bound the run step names the
 * access and why; a rate derived from an inexact FLOP count is marked approximate. Each kernel is compiled and timed
 * with only --size; nothing here depends on timing values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

/* The buffer `name` of a report's function (the test fails when there is none). */
static cJSON *buffer(cJSON *f, const char *name)
{
	cJSON *b;
	cJSON_ArrayForEach(b, at(f, "buffers"))
	{
		if (cJSON_IsString(at(b, "name")) && !strcmp(at(b, "name")->valuestring, name))
			return b;
	}
	fail_msg("no buffer %s", name);
	return NULL;
}

static double number(cJSON *obj, const char *path)
{
	cJSON *v = at(obj, path);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return v->valuedouble;
}

/* The function ran: timed, no error. */
static void assert_measured(cJSON *f)
{
	assert_true(cJSON_IsNull(at(f, "measured.error")));
	assert_true(number(f, "measured.seconds.median") > 0);
}

/* A buffer's extent was inferred from the accesses on lines first..last: its formula and value. */
static void assert_inferred(cJSON *f, const char *name, const char *expr, double value, int first, int last)
{
	cJSON *b = buffer(f, name);
	assert_string_equal(report_text(b, "extent_origin"), "accesses");
	assert_string_equal(report_text(b, "extent.expr"), expr);
	assert_true(number(b, "extent.value") == value);
	cJSON *lines = at(b, "extent_lines");
	assert_int_equal(cJSON_GetArraySize(lines), 2);
	assert_int_equal(cJSON_GetArrayItem(lines, 0)->valueint, first);
	assert_int_equal(cJSON_GetArrayItem(lines, 1)->valueint, last);
	assert_null(at(b, "extent_lowest"));
}

static void elementwise_add_runs_without_annotations(void **state)
{
	(void)state;
	const char *out = scratch_dir("extents-add");
	struct run r = RUN("--time-budget", "0.01", "--size", "n=1000", "-o", out, "tests/fixtures/extent_add.c");
	assert_int_equal(r.status, 0);
	assert_non_null(
	    strstr(r.out, "add: extents inferred from accesses: a n (line 8), b n (line 8), c n (line 8)\n"));
	cJSON *rep = load_report(out);
	cJSON *f = report_function(rep, "add");
	assert_measured(f);
	assert_inferred(f, "a", "n", 1000, 8, 8);
	assert_inferred(f, "b", "n", 1000, 8, 8);
	assert_inferred(f, "c", "n", 1000, 8, 8);
	assert_true(number(buffer(f, "c"), "bytes") == 4000);
	/* KCOST_EXTENT overrides: c is allocated as annotated, a and b still from their accesses */
	cJSON *g = report_function(rep, "add_annotated");
	assert_measured(g);
	assert_string_equal(report_text(buffer(g, "c"), "extent_origin"), "declared");
	assert_string_equal(report_text(buffer(g, "c"), "extent.expr"), "2*n");
	assert_true(number(buffer(g, "c"), "extent.value") == 2000);
	assert_null(at(buffer(g, "c"), "extent_lines"));
	assert_inferred(g, "a", "n", 1000, 14, 14);
	/* a parameter the body never names: extent 0, and the kernel still runs */
	cJSON *u = report_function(rep, "add_unused");
	assert_measured(u);
	assert_string_equal(report_text(buffer(u, "dummy"), "extent_origin"), "unused");
	assert_string_equal(report_text(buffer(u, "dummy"), "extent.expr"), "0");
	assert_true(number(buffer(u, "dummy"), "bytes") == 0);
	assert_inferred(u, "c", "n", 1000, 21, 21);
	char page[4096];
	snprintf(page, sizeof page, "%s/index.html", out);
	char *html = slurp(page);
	assert_non_null(html);
	assert_non_null(strstr(html, "<span class=\"origin\">extent inferred from accesses (line 8)</span>"));
	free(html);
	cJSON_Delete(rep);
	run_release(&r);
}

static void gemm_with_leading_dimensions_runs(void **state)
{
	(void)state;
	const char *out = scratch_dir("extents-gemm");
	struct run r = RUN("--time-budget", "0.01", "--size", "m=20", "--size", "n=30", "--size", "k=40", "--size",
	                   "lda=50", "--size", "ldb=60", "--size", "ldc=70", "-o", out, "tests/fixtures/extent_gemm.c");
	assert_int_equal(r.status, 0);
	cJSON *rep = load_report(out);
	cJSON *f = report_function(rep, "gemm");
	assert_measured(f);
	/* the last row's start plus the columns it reads: (m-1)*lda + k elements */
	assert_inferred(f, "A", "m*lda + k - lda", 19 * 50 + 40, 9, 9);
	assert_inferred(f, "B", "k*ldb + n - ldb", 39 * 60 + 30, 9, 9);
	assert_inferred(f, "C", "m*ldc + n - ldc", 19 * 70 + 30, 10, 10);
	cJSON_Delete(rep);
	run_release(&r);
}

static void unbounded_accesses_are_named(void **state)
{
	(void)state;
	const char *out = scratch_dir("extents-unbounded");
	struct run r = RUN("--time-budget", "0.01", "--size", "n=100", "--size", "nnz=300", "-o", out,
	                   "tests/fixtures/extent_spmv.c");
	assert_int_equal(r.status, 1); /* four functions could not be run: spmv, row_at, walk, as_rows */
	cJSON *rep = load_report(out);
	/* a data-dependent index: the access and why */
	cJSON *f = report_function(rep, "spmv");
	assert_string_equal(
	    report_text(f, "measured.error"),
	    "not run: extent of x cannot be inferred from its accesses: tests/fixtures/extent_spmv.c:8:24: "
	    "its index is not an affine function of the loop variables and sizes (data-dependent, or an "
	    "operation kcost does not model) (annotate KCOST_EXTENT)");
	assert_true(cJSON_IsNull(at(buffer(f, "x"), "extent")));
	assert_true(cJSON_IsNull(at(buffer(f, "x"), "extent_origin")));
	assert_inferred(f, "col", "nnz", 300, 8, 8);
	/* a callee's accesses, moved to where each argument starts (y, then y + n) */
	cJSON *g = report_function(rep, "two_rows");
	assert_measured(g);
	assert_inferred(g, "x", "n", 100, 19, 20);
	assert_inferred(g, "y", "2*n", 200, 19, 20);
	/* an argument starting at an element read from data (y + start[0]): no bound */
	cJSON *ra = report_function(rep, "row_at");
	assert_string_equal(
	    report_text(ra, "measured.error"),
	    "not run: extent of y cannot be inferred from its accesses: tests/fixtures/extent_spmv.c:25:2: "
	    "it is passed to 'row' at an element kcost cannot place in the callee's accesses "
	    "(annotate KCOST_EXTENT)");
	assert_inferred(ra, "x", "n", 100, 25, 25);
	/* a callee that sees the buffer with other dimensions: its elements are counted, its hull is not mapped */
	cJSON *ar = report_function(rep, "as_rows");
	assert_string_equal(
	    report_text(ar, "measured.error"),
	    "not run: extent of a cannot be inferred from its accesses: tests/fixtures/extent_spmv.c:52:2: "
	    "'tail_rows' sees it with other dimensions, which kcost does not map index by index "
	    "(annotate KCOST_EXTENT)");
	assert_string_equal(report_text(ar, "bytes.min.expr"), "32*(n - 1)");
	/* in[i - 1] from i = 0: allocated from index -1, n + 2 elements */
	cJSON *s = report_function(rep, "smooth");
	assert_measured(s);
	cJSON *in = buffer(s, "in");
	assert_string_equal(report_text(in, "extent_origin"), "accesses");
	assert_string_equal(report_text(in, "extent.expr"), "n + 2");
	assert_true(number(in, "extent.value") == 102);
	assert_string_equal(report_text(in, "extent_lowest.expr"), "-1");
	assert_true(number(in, "extent_lowest.value") == -1);
	assert_true(number(in, "bytes") == 408);
	assert_inferred(s, "out", "n", 100, 31, 31);
	/* an access kcost cannot trace may reach any buffer: neither x nor y gets an extent from its accesses */
	cJSON *w = report_function(rep, "walk");
	assert_string_equal(
	    report_text(w, "measured.error"),
	    "not run: extent of x cannot be inferred from its accesses: tests/fixtures/extent_spmv.c:38:17: "
	    "an access or call kcost cannot follow there may reach it (annotate KCOST_EXTENT)");
	assert_true(cJSON_IsNull(at(buffer(w, "y"), "extent")));
	cJSON_Delete(rep);
	run_release(&r);
}

/* Whether `needle` occurs in the file `name` of directory dir. */
static int file_has(const char *dir, const char *name, const char *needle)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = slurp(path);
	assert_non_null(text);
	int found = strstr(text, needle) != NULL;
	free(text);
	return found;
}

static void inexact_counts_give_approximate_rates(void **state)
{
	(void)state;
	const char *out = scratch_dir("extents-approx");
	struct run r = RUN("--time-budget", "0.01", "--size", "n=1000", "-o", out, "tests/fixtures/extent_approx.c");
	assert_int_equal(r.status, 0);
	cJSON *rep = load_report(out);
	cJSON *f = report_function(rep, "relu_scale"), *g = report_function(rep, "scale");
	assert_false(report_exact(f));
	assert_measured(f);
	assert_true(number(f, "measured.gflops") > 0);
	assert_true(cJSON_IsTrue(at(f, "measured.gflops_approximate")));
	assert_true(report_exact(g));
	assert_measured(g);
	assert_true(cJSON_IsFalse(at(g, "measured.gflops_approximate")));
	/* the terminal table: "~" before the rate of the inexact one only */
	const char *line = strstr(r.out, "\nrelu_scale "), *other = strstr(r.out, "\nscale ");
	assert_non_null(line);
	assert_non_null(other);
	assert_non_null(strchr(line + 1, '~'));
	assert_true(strchr(line + 1, '~') < strchr(line + 1, '\n'));
	assert_true(!strchr(other + 1, '~') || strchr(other + 1, '~') > strchr(other + 1, '\n'));
	assert_true(file_has(out, "summary.md", " (approximate: derived from a FLOP count that is not exact) |"));
	assert_true(file_has(out, "index.html",
	                     "title=\"approximate: derived from a FLOP count that is not exact\">\xe2\x89\x88 "));
	assert_true(file_has(out, "index.html",
	                     "(approximate: derived from a FLOP count that is not exact, not a measurement)"));
	assert_true(file_has(out, "roofline.svg", "<title>relu_scale: approximately "));
	assert_true(file_has(out, "roofline.svg", "<title>scale: measured "));
	assert_true(file_has(out, "roofline.svg", ">approximate (inexact FLOP count)</text>"));
	cJSON_Delete(rep);
	run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(elementwise_add_runs_without_annotations),
	    cmocka_unit_test(gemm_with_leading_dimensions_runs),
	    cmocka_unit_test(unbounded_accesses_are_named),
	    cmocka_unit_test(inexact_counts_give_approximate_rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

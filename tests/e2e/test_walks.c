/* test_walks.c — induction variables and pointer walks, count-down loops on a size and while loops written as
 * for loops (tests/fixtures/walk_forms.c), through the built binary's report.json: exact counts and extents,
 * and the shapes that stay flagged (a step on data, a loop variable its body writes, a counter read in the
 * iteration before its step). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "run.h"

#define FIXTURE "tests/fixtures/walk_forms.c"

static cJSON *report;

static int setup(void **state)
{
	(void)state;
	const char *out = scratch_dir("walks");
	const char *argv[] = {"--no-run", "--quiet", "-o",     out,      "--size", "n=100", "--size", "incx=2",
	                      "--size",   "incy=3",  "--size", "lda=5",  "--size", "m=10",  "--size", "rows=10",
	                      "--size",   "cols=20", "--size", "ldb=11", "--size", "inc=3", FIXTURE,  NULL};
	struct run r = run_kcost(argv);
	if (r.status != 0)
		fprintf(stderr, "kcost exited %d:\n%s\n", r.status, r.err);
	int status = r.status;
	run_release(&r);
	report = status == 0 ? load_report(out) : NULL;
	return report ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	cJSON_Delete(report);
	return 0;
}

static long long num(cJSON *f, const char *path)
{
	cJSON *v = at(f, path);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return (long long)v->valuedouble;
}

static cJSON *exact(const char *fn, const char *flops, long long value)
{
	cJSON *f = report_function(report, fn);
	if (!report_exact(f))
		fail_msg("%s is not exact", fn);
	assert_string_equal(report_text(f, "flops.expr"), flops);
	assert_int_equal(num(f, "flops.value"), value);
	return f;
}

static cJSON *buffer(cJSON *f, const char *name)
{
	cJSON *b;
	cJSON_ArrayForEach(b, at(f, "buffers"))
	{
		if (!strcmp(report_text(b, "name"), name))
			return b;
	}
	fail_msg("no buffer %s", name);
	return NULL;
}

/* for (; n > 0; n--) *y++ += a * *x++: 2*n FLOPs, x and y of n elements */
static void pointer_walks(void **state)
{
	(void)state;
	cJSON *f = exact("saxpy_walk", "2*n", 200);
	assert_string_equal(report_text(f, "bytes.min.expr"), "12*n");
	assert_string_equal(report_text(buffer(f, "x"), "extent.expr"), "n");
	assert_string_equal(report_text(buffer(f, "y"), "extent.expr"), "n");
	/* p += lda after p[0], p[1]: a[0 .. (n - 1)*lda + 1] */
	f = exact("column_walk", "2*n", 200);
	assert_string_equal(report_text(buffer(f, "a"), "extent.expr"), "n*lda - lda + 2");
	assert_int_equal(num(f, "bytes.min.value"), 4 * (99 * 5 + 2) + 4 * 100);
}

/* dy[iy] += da * dx[ix]; ix += incx: dx[0 .. (n - 1)*incx] */
static void strided_induction_variables(void **state)
{
	(void)state;
	cJSON *f = exact("daxpy_strided", "2*n", 200);
	assert_string_equal(report_text(buffer(f, "dx"), "extent.expr"), "n*incx - incx + 1");
	assert_int_equal(num(buffer(f, "dx"), "extent.value"), 199);
	assert_int_equal(num(buffer(f, "dy"), "extent.value"), 298);
	f = exact("gather_next", "n", 100);
	assert_string_equal(report_text(buffer(f, "x"), "extent.expr"), "n + 3");
}

/* level 2: x[jx] with jx += incx per column, ix reset per row, aptr = a; aptr += lda */
static void level2_walks(void **state)
{
	(void)state;
	cJSON *f = exact("gemv_columns", "2*m*n", 2000);
	assert_string_equal(report_text(buffer(f, "x"), "extent.expr"), "n*incx - incx + 1");
	assert_string_equal(report_text(buffer(f, "a"), "extent.expr"), "n*lda + m - lda");
	f = exact("gemv_rows", "n*(2*m + 1)", 2100);
	assert_string_equal(report_text(buffer(f, "x"), "extent.expr"), "m*incx - incx + 1");
	assert_string_equal(report_text(buffer(f, "y"), "extent.expr"), "n*incy - incy + 1");
	f = exact("omatcopy_cols", "rows*cols", 200);
	assert_string_equal(report_text(buffer(f, "a"), "extent.expr"), "cols*lda + rows - lda");
	assert_int_equal(num(buffer(f, "b"), "extent.value"), 19 * 11 + 10);
	/* w = &a[i*cols]; y = &b[i*ldb]: aliases from there on, as p = a + i*cols is */
	f = exact("rows_by_address", "2*rows*cols", 400);
	assert_string_equal(report_text(buffer(f, "a"), "extent.expr"), "rows*cols");
	assert_string_equal(report_text(buffer(f, "b"), "extent.expr"), "rows*ldb + cols - ldb");
	/* ldb = 11 < cols = 20: the rows of b overlap, its hull is 9*11 + 20 elements, read and written */
	assert_int_equal(num(f, "bytes.min.value"), 4 * 200 + 8 * (9 * 11 + 20));
}

/* n *= inc, n++ before the loop: the new value; a size a loop changes: flagged */
static void assigned_sizes(void **state)
{
	(void)state;
	exact("scaled_size", "n*inc", 300);
	exact("grown_size", "n + 1", 101);
	assert_false(report_exact(report_function(report, "shrinking_size")));
}

static void while_loops_that_are_for_loops(void **state)
{
	(void)state;
	cJSON *f = exact("two_paths", "n", 100); /* m = 10: the else-branch, from i = 0 */
	assert_int_equal(num(f, "flops.by_category.add"), 100);
	exact("while_up", "n", 100);
	exact("while_down", "2*n", 200);
}

static void steps_on_data_are_flagged(void **state)
{
	(void)state;
	cJSON *f = report_function(report, "walk_by_data");
	assert_false(report_exact(f));
	assert_non_null(strstr(report_diag(f, 0, "warning", 64, 10), "access through a pointer kcost cannot trace"));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops"))); /* its loops decide its FLOPs */
	f = report_function(report, "skips");
	assert_false(report_exact(f));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(f, "exact_ops")));
	assert_non_null(strstr(report_diag(f, 0, "warning", 71, 2), "loop variable 'i' is also written"));
	/* k = k + 1 read by the next iteration's test: no value in the body, the if is on data */
	f = report_function(report, "counter_guard");
	assert_false(report_exact(f));
	assert_non_null(strstr(report_diag(f, 0, "warning", 83, 7), "data-dependent condition"));
}

/* do { ...; i--; } while (i > 0) under if (i > 0): floor(m/2) iterations */
static void do_while_counters(void **state)
{
	(void)state;
	cJSON *f = exact("copy_blocks", "0", 0);
	assert_string_equal(report_text(f, "bytes.min.expr"), "32*floor(m/2)");
	assert_int_equal(num(f, "bytes.min.value"), 32 * 5);
	f = exact("add_blocks", "floor(m/2)", 5);
	assert_string_equal(report_text(buffer(f, "b"), "extent.expr"), "floor(m/2)");
}

/* a do-while on data whose iterations do no operation: FLOPs exact (0), traffic flagged; one that adds: flagged */
static void copy_loops_of_unknown_trips(void **state)
{
	(void)state;
	cJSON *f = report_function(report, "copy_chain");
	assert_false(report_exact(f));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_string_equal(report_text(f, "flops.expr"), "0");
	assert_non_null(strstr(report_diag(f, 0, "warning", 203, 2), "do-while loop: trip count unknown"));
	f = report_function(report, "add_chain");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(f, "exact_ops")));
	assert_non_null(strstr(report_diag(f, 0, "warning", 212, 2), "do-while loop: trip count unknown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(pointer_walks),
	    cmocka_unit_test(strided_induction_variables),
	    cmocka_unit_test(level2_walks),
	    cmocka_unit_test(assigned_sizes),
	    cmocka_unit_test(while_loops_that_are_for_loops),
	    cmocka_unit_test(steps_on_data_are_flagged),
	    cmocka_unit_test(do_while_counters),
	    cmocka_unit_test(copy_loops_of_unknown_trips),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

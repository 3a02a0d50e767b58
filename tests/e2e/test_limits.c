/* test_limits.c — the front end's capacities through the built binary: a table that fills up grows, or says
 * so (a warning and exact: false); it never turns into a wrong number marked exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* Analyze `file` (no run) with extra arguments into a fresh directory; the report, and kcost's stderr in *err
 * (free it) when err is not NULL. */
static cJSON *analyze(const char *name, const char *file, const char *extra, char **err)
{
	const char *out = scratch_dir(name);
	const char *argv[] = {"--no-run", "-o", out, file, extra, NULL};
	struct run r = run_kcost(argv);
	if (r.status != 0)
		fprintf(stderr, "kcost exited %d:\n%s\n", r.status, r.err);
	assert_int_equal(r.status, 0);
	if (err) {
		*err = r.err;
		r.err = NULL;
	}
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	return rep;
}

/* 70 loops in one body and 100 statements in one loop: more children than a list holds in place */
static void every_loop_and_statement_is_counted(void **state)
{
	(void)state;
	cJSON *rep = analyze("limits_children", "tests/fixtures/limits_children.c", "--quiet", NULL);
	cJSON *seventy = report_function(rep, "seventy_loops"), *hundred = report_function(rep, "hundred_statements");
	assert_string_equal(report_text(seventy, "flops.expr"), "70*n");
	assert_true(report_exact(seventy));
	assert_int_equal(cJSON_GetArraySize(at(seventy, "nests")), 70);
	assert_string_equal(report_text(hundred, "flops.expr"), "100*n");
	assert_true(report_exact(hundred));
	cJSON_Delete(rep);
}

/* nine different math functions in one statement: each is counted, n times */
static void every_math_function_is_counted(void **state)
{
	(void)state;
	cJSON *rep = analyze("limits_trans", "tests/fixtures/limits_trans.c", "--size=n=1000", NULL);
	cJSON *f = report_function(rep, "nine_functions");
	static const char *const names[] = {"expf", "logf", "sinf", "cosf", "tanf", "sqrtf", "tanhf", "erff", "cbrtf"};
	assert_string_equal(report_text(f, "transcendentals.expr"), "9*n");
	cJSON *by = at(f, "transcendentals.by_function");
	assert_int_equal(cJSON_GetArraySize(by), 9);
	for (int i = 0; i < 9; i++) {
		cJSON *e = cJSON_GetArrayItem(by, i);
		assert_string_equal(e->string, names[i]);
		assert_true(cJSON_IsNumber(e));
		assert_int_equal((long long)e->valuedouble, 1000);
	}
	assert_string_equal(report_text(f, "flops.expr"), "8*n");
	assert_true(report_exact(f));
	cJSON_Delete(rep);
}

/* a reduction's result read after 16 other local scalars in one statement still blocks fusion */
static void late_read_of_a_reduction_blocks_fusion(void **state)
{
	(void)state;
	cJSON *rep = analyze("limits_scalars", "tests/fixtures/limits_scalars.c", "--quiet", NULL);
	cJSON *f = report_function(rep, "late_reduction");
	cJSON *nf = at(f, "dataflow.not_fusable");
	assert_int_equal(cJSON_GetArraySize(at(f, "dataflow.passes")), 2);
	assert_int_equal(cJSON_GetArraySize(nf), 1);
	cJSON *e = cJSON_GetArrayItem(nf, 0);
	assert_string_equal(report_text(e, "kind"), "reduction");
	assert_non_null(strstr(report_text(e, "reason"), "needs 's'"));
	assert_false(cJSON_IsTrue(at(e, "legal")));
	assert_int_equal(cJSON_GetArraySize(at(f, "dataflow.fusion_groups")), 0);
	/* no limit was reached: the one warning is the footprint's (x[0..15] before a loop over x[0..n-1]: its
	 * hull is max(16, n) elements, which kcost cannot order for all n) */
	assert_int_equal(cJSON_GetArraySize(at(f, "diagnostics")), 1);
	assert_string_equal(report_diag(f, 0, "warning", 8, 2),
	                    "the hull of 'x' takes the larger of 15 and n - 1, which kcost cannot order for all sizes: "
	                    "the figure takes n - 1, the larger for large sizes");
	assert_false(report_exact(f));
	cJSON_Delete(rep);
}

/* a loop condition of five upper bounds: a warning naming the limit; an index helper of 17 parameters is
 * still an affine index */
static void bounds_and_helper_arguments(void **state)
{
	(void)state;
	char *err;
	cJSON *rep = analyze("limits_misc", "tests/fixtures/limits_misc.c", "--quiet", &err);
	cJSON *five = report_function(rep, "five_bounds"), *helper = report_function(rep, "helper_of_17");
	assert_false(report_exact(five));
	cJSON *d = cJSON_GetArrayItem(at(five, "diagnostics"), 0);
	assert_string_equal(report_text(d, "severity"), "warning");
	assert_int_equal(at(d, "line")->valueint, 11);
	assert_int_equal(at(d, "col")->valueint, 2);
	assert_non_null(
	    strstr(report_text(d, "message"), "loop condition of 'i' has more than 4 lower or upper bounds"));
	assert_non_null(strstr(err, "limits_misc.c:11:2: warning: loop condition of 'i' has more than 4 lower or upper "
	                            "bounds: trip count unknown"));
	assert_string_equal(report_text(helper, "bytes.min.expr"), "8*n");
	assert_int_equal(cJSON_GetArraySize(at(helper, "diagnostics")), 0);
	assert_true(report_exact(helper));
	free(err);
	cJSON_Delete(rep);
}

/* nine dimensions, an index helper that calls itself, 600 local scalars */
static void dimensions_recursion_and_variables(void **state)
{
	(void)state;
	cJSON *rep = analyze("limits_misc2", "tests/fixtures/limits_misc.c", "--quiet", NULL);
	cJSON *dims = report_function(rep, "nine_dims"), *rec = report_function(rep, "recursive_index"),
	      *many = report_function(rep, "many_locals");
	assert_false(report_exact(dims));
	assert_string_equal(report_diag(dims, 0, "warning", 22, 29),
	                    "'a' has more than 8 dimensions: its extent is unknown");
	assert_string_equal(report_diag(dims, 1, "warning", 25, 3),
	                    "access with more than 8 subscripts: its traffic is not counted");
	assert_false(report_exact(rec));
	assert_int_equal(cJSON_GetArraySize(at(rec, "diagnostics")), 1);
	assert_string_equal(
	    report_diag(rec, 0, "error", 31, 17),
	    "statements and expressions nested more than 1000 levels deep: the function is not analyzed");
	assert_string_equal(report_text(rec, "flops.expr"), "0");
	assert_string_equal(report_text(many, "flops.expr"), "3*n");
	/* 600 scalars are no limit: the one warning is the footprint's (x[0..599], then x[0..n-1]) */
	assert_int_equal(cJSON_GetArraySize(at(many, "diagnostics")), 1);
	assert_non_null(strstr(report_text(cJSON_GetArrayItem(at(many, "diagnostics"), 0), "message"),
	                       "the hull of 'x' takes the larger of 599 and n - 1"));
	cJSON *nf = at(many, "dataflow.not_fusable");
	assert_int_equal(cJSON_GetArraySize(nf), 1);
	assert_string_equal(report_text(cJSON_GetArrayItem(nf, 0), "kind"), "reduction");
	cJSON_Delete(rep);
}

/* 1,200 terms in one sum nest deeper than the lowering goes: an error for that function, the next one of the
 * file is analyzed as usual */
static void too_deep_a_function_is_an_error_of_its_own(void **state)
{
	(void)state;
	const char *dir = scratch_dir("limits_depth_src");
	char path[4200];
	snprintf(path, sizeof path, "%s/deep.c", dir);
	size_t cap = 16 * 1200 + 512, n = 0;
	char *src = malloc(cap);
	assert_non_null(src);
	n += (size_t)snprintf(src + n, cap - n,
	                      "void deep(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; "
	                      "i++)\n\t\ty[i] = x[i]");
	for (int i = 1; i < 1200; i++)
		n += (size_t)snprintf(src + n, cap - n, " + x[i]");
	snprintf(src + n, cap - n,
	         ";\n}\n\nvoid fine(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; "
	         "i++)\n\t\ty[i] = 2.0f * x[i];\n}\n");
	write_text(path, src);
	free(src);
	char *err;
	cJSON *rep = analyze("limits_depth", path, "--quiet", &err);
	assert_non_null(strstr(err, "deep.c:4:10: error: statements and expressions nested more than 1000 levels deep: "
	                            "the function is not analyzed"));
	cJSON *deep = report_function(rep, "deep"), *fine = report_function(rep, "fine");
	assert_false(report_exact(deep));
	assert_string_equal(report_text(deep, "flops.expr"), "0");
	assert_int_equal(cJSON_GetArraySize(at(deep, "diagnostics")), 1);
	cJSON *d = cJSON_GetArrayItem(at(deep, "diagnostics"), 0);
	assert_string_equal(report_text(d, "severity"), "error");
	assert_int_equal(at(d, "line")->valueint, 4);
	assert_int_equal(at(d, "col")->valueint, 10);
	assert_string_equal(report_text(fine, "flops.expr"), "n");
	assert_string_equal(report_text(fine, "bytes.min.expr"), "8*n");
	assert_true(report_exact(fine));
	free(err);
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_loop_and_statement_is_counted),
	    cmocka_unit_test(every_math_function_is_counted),
	    cmocka_unit_test(late_read_of_a_reduction_blocks_fusion),
	    cmocka_unit_test(bounds_and_helper_arguments),
	    cmocka_unit_test(dimensions_recursion_and_variables),
	    cmocka_unit_test(too_deep_a_function_is_an_error_of_its_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

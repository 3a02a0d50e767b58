/* test_hostile.c — hostile inputs to the analyzer through the built binary (issue #11): code nested deeper than
 * kcost recurses, loops that wrap around in their variable's type, annotation values kcost cannot use. Each
 * gets a diagnostic at its file:line:col and exact: false; none crashes kcost (under ASan too) or becomes a
 * number marked exact, and the other functions of the file are analyzed as usual. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* Analyze `file` (no run) into a fresh directory: exit status 0, the report, and kcost's stderr in *err (free
 * it). */
static cJSON *analyze(const char *name, const char *file, char **err)
{
	const char *out = scratch_dir(name);
	const char *argv[] = {"--no-run", "-I", "annotations", "-o", out, file, NULL};
	struct run r = run_kcost(argv);
	if (r.status != 0)
		fprintf(stderr, "kcost exited %d:\n%s\n", r.status, r.err);
	assert_int_equal(r.status, 0);
	*err = r.err;
	r.err = NULL;
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	return rep;
}

static void assert_contains(const char *haystack, const char *needle)
{
	if (!strstr(haystack, needle))
		fail_msg("missing from kcost's output: %s", needle);
}

/* The function's only diagnostic: its severity, line, column and message. */
static void assert_one_diag(cJSON *f, const char *severity, int line, int col, const char *message)
{
	cJSON *diags = at(f, "diagnostics");
	assert_int_equal(cJSON_GetArraySize(diags), 1);
	cJSON *d = cJSON_GetArrayItem(diags, 0);
	assert_string_equal(report_text(d, "severity"), severity);
	assert_int_equal(at(d, "line")->valueint, line);
	assert_int_equal(at(d, "col")->valueint, col);
	assert_string_equal(report_text(d, "message"), message);
}

/* ------------------------------------------------------------------------------------------------ */
/* Recursion: shapes clang accepts and kcost's own recursion must refuse without overflowing its stack */

/* A growable text for the generated sources. */
struct text {
	char *s;
	size_t n, cap;
};

static void add(struct text *t, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
		va_end(ap);
		assert_true(k >= 0);
		if ((size_t)k < t->cap - t->n) {
			t->n += (size_t)k;
			return;
		}
		t->cap = 2 * t->cap + (size_t)k + 1;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
}

static const char fine[] = "\nvoid fine(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ty[i] "
                           "= 2.0f * x[i];\n}\n";

/* Write the source into the test's scratch directory as deep.c, analyze it: the report, stderr in *err. */
static cJSON *analyze_source(const char *name, struct text *src, char **err)
{
	char dir[64], path[4200];
	snprintf(dir, sizeof dir, "%s_src", name);
	snprintf(path, sizeof path, "%s/deep.c", scratch_dir(dir));
	add(src, "%s", fine);
	write_text(path, src->s);
	free(src->s);
	return analyze(name, path, err);
}

/* deep is one error and nothing else, fine is counted exactly */
static void assert_deep_is_an_error_of_its_own(cJSON *rep, const char *err, int line, int col)
{
	static const char msg[] = "statements and expressions nested more than 1000 levels deep: the function is "
	                          "not analyzed";
	char where[160];
	snprintf(where, sizeof where, "deep.c:%d:%d: error: %s", line, col, msg);
	assert_contains(err, where);
	cJSON *deep = report_function(rep, "deep"), *f = report_function(rep, "fine");
	assert_false(report_exact(deep));
	assert_string_equal(report_text(deep, "flops.expr"), "0");
	assert_one_diag(deep, "error", line, col, msg);
	assert_string_equal(report_text(f, "flops.expr"), "n");
	assert_true(report_exact(f));
}

/* one statement of 2,400 added terms */
static void sum_of_2400_terms(void **state)
{
	(void)state;
	struct text src = {0};
	add(&src, "void deep(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ty[i] = x[i]");
	for (int i = 1; i < 2400; i++)
		add(&src, " + x[i]");
	add(&src, ";\n}\n");
	char *err;
	cJSON *rep = analyze_source("hostile_sum", &src, &err);
	assert_deep_is_an_error_of_its_own(rep, err, 4, 10);
	free(err);
	cJSON_Delete(rep);
}

/* 2,300 nested ?: (the 1000th level is the 993rd conditional: column 10 + 18 * 993) */
static void conditionals_nested_2300_deep(void **state)
{
	(void)state;
	struct text src = {0};
	add(&src, "void deep(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ty[i] = ");
	for (int i = 0; i < 2300; i++)
		add(&src, "x[i] > 0 ? x[i] : ");
	add(&src, "x[i];\n}\n");
	char *err;
	cJSON *rep = analyze_source("hostile_cond", &src, &err);
	assert_deep_is_an_error_of_its_own(rep, err, 4, 10 + 18 * 993);
	free(err);
	cJSON_Delete(rep);
}

/* 1,150 nested for: the error at the init of the loop on line 1001; the warnings of the loops above it (more
 * loop variables than symbols) are dropped with the function */
static void for_nested_1150_deep(void **state)
{
	(void)state;
	struct text src = {0};
	add(&src, "void deep(int n, const float *x, float *y)\n{\n");
	for (int k = 0; k < 1150; k++)
		add(&src, "for (int i%d = 0; i%d < n; i%d++)\n", k, k, k);
	add(&src, "y[0] += x[0];\n}\n");
	char *err;
	cJSON *rep = analyze_source("hostile_for", &src, &err);
	assert_deep_is_an_error_of_its_own(rep, err, 1001, 17);
	assert_null(strstr(err, ": warning:"));
	free(err);
	cJSON_Delete(rep);
}

/* 2,400 terms in an index, in a loop bound, in an if guard (&&) and in a loop condition (&&): the affine
 * expressions and the guards are depth-limited as the statements are */
static void integer_expressions_of_2400_terms(void **state)
{
	(void)state;
	static const struct {
		const char *name, *head, *term, *tail;
		int line, col;
	} shapes[] = {
	    {"hostile_index", "\tfor (int i = 0; i < n; i++)\n\t\ty[i] = x[i", " + 1", "];", 4, 12},
	    {"hostile_bound", "\tfor (int i = 0; i < n", " + 1", "; i++)\n\t\ty[0] += x[i];", 3, 22},
	    {"hostile_guard", "\tfor (int i = 0; i < n; i++)\n\t\tif (i > 0", " && i > 0", ")\n\t\t\ty[i] += x[i];", 4,
	     7},
	    {"hostile_condition", "\tfor (int i = 0; i < n", " && i < n", "; i++)\n\t\ty[0] += x[i];", 3, 18},
	};
	for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		struct text src = {0};
		add(&src, "void deep(int n, const float *x, float *y)\n{\n%s", shapes[k].head);
		for (int i = 0; i < 2400; i++)
			add(&src, "%s", shapes[k].term);
		add(&src, "%s\n}\n", shapes[k].tail);
		char *err;
		cJSON *rep = analyze_source(shapes[k].name, &src, &err);
		assert_deep_is_an_error_of_its_own(rep, err, shapes[k].line, shapes[k].col);
		free(err);
		cJSON_Delete(rep);
	}
}

/* a chain of 1,300 calls whose callees come later in the file: each callee is lowered inside its caller, the
 * lowering stops at 1000 levels; nothing above the limit is counted as exact */
static void call_chain_of_1300_functions(void **state)
{
	(void)state;
	enum { N = 1300 };
	struct text src = {0};
	for (int k = 0; k < N; k++)
		add(&src, "static void g%d(int n, const float *x, float *y);\n", k);
	add(&src, "void deep(int n, const float *x, float *y)\n{\n\tg%d(n, x, y);\n}\n", N - 1);
	for (int k = N - 1; k > 0; k--)
		add(&src, "static void g%d(int n, const float *x, float *y) { g%d(n, x, y); }\n", k, k - 1);
	add(&src, "static void g0(int n, const float *x, float *y) { y[0] += x[0]; }\n");
	char *err;
	cJSON *rep = analyze_source("hostile_calls", &src, &err);
	assert_contains(err, ": error: statements and expressions nested more than 1000 levels deep: the function is "
	                     "not analyzed");
	cJSON *deep = report_function(rep, "deep");
	assert_false(report_exact(deep));
	assert_string_equal(report_text(deep, "flops.expr"), "0");
	assert_string_equal(report_text(report_function(rep, "g1"), "flops.expr"), "1");
	assert_true(report_exact(report_function(rep, "g1")));
	assert_true(report_exact(report_function(rep, "fine")));
	free(err);
	cJSON_Delete(rep);
}

/* 990 nested for stay under the limit: lowered on a stack that holds them in any build (ASan's frames
 * overflowed 8 MiB at about 925 levels) */
static void for_nested_990_deep_is_lowered(void **state)
{
	(void)state;
	struct text src = {0};
	add(&src, "void deep(int n, const float *x, float *y)\n{\n");
	for (int k = 0; k < 990; k++)
		add(&src, "for (int i%d = 0; i%d < n; i%d++)\n", k, k, k);
	add(&src, "y[0] += x[0];\n}\n");
	char *err;
	cJSON *rep = analyze_source("hostile_for990", &src, &err);
	assert_null(strstr(err, ": error:"));
	/* 32 symbols: n and 31 loop variables, the loops below them are not counted */
	assert_contains(err, "deep.c:34:10: warning: more than 32 size parameters and loop variables: loop variable "
	                     "'i31' is not a symbol");
	assert_false(report_exact(report_function(rep, "deep")));
	assert_string_equal(report_text(report_function(rep, "deep"), "flops.expr"), "n^31");
	assert_true(report_exact(report_function(rep, "fine")));
	free(err);
	cJSON_Delete(rep);
}

/* KCOST_SIZES(n = ((((...1)))) with 100,000 parentheses: a warning at the annotation, n stays symbolic */
static void annotation_of_100k_parentheses(void **state)
{
	(void)state;
	struct text src = {0};
	add(&src, "#include \"kcost.h\"\nKCOST_SIZES(n = ");
	for (int i = 0; i < 100000; i++)
		add(&src, "(");
	add(&src, "1");
	for (int i = 0; i < 100000; i++)
		add(&src, ")");
	add(&src, ")\nvoid deep(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ty[i] = 2.0f * "
	          "x[i];\n}\n");
	char *err;
	cJSON *rep = analyze_source("hostile_paren", &src, &err);
	static const char msg[] = "bad KCOST_SIZES: parentheses nested more than 256 levels deep at "
	                          "'((((((((((((((((((((((((((((((((((((((((...'";
	assert_contains(err, "deep.c:2:1: warning: bad KCOST_SIZES: parentheses nested more than 256 levels deep");
	cJSON *deep = report_function(rep, "deep");
	assert_one_diag(deep, "warning", 2, 1, msg);
	assert_false(report_exact(deep));
	assert_string_equal(report_text(deep, "flops.expr"), "n");
	assert_null(at(deep, "sizes.n"));
	assert_true(report_exact(report_function(rep, "fine")));
	free(err);
	cJSON_Delete(rep);
}

/* KCOST_SIZES(n = - - - ... 1) with 100,000 signs: parsed without recursion, n = 1 */
static void annotation_of_100k_signs(void **state)
{
	(void)state;
	struct text src = {0};
	add(&src, "#include \"kcost.h\"\nKCOST_SIZES(n = ");
	for (int i = 0; i < 100000; i++)
		add(&src, "- ");
	add(&src, "1)\nvoid deep(int n, const float *x, float *y)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ty[i] = 2.0f * "
	          "x[i];\n}\n");
	char *err;
	cJSON *rep = analyze_source("hostile_minus", &src, &err);
	cJSON *deep = report_function(rep, "deep");
	assert_true(report_exact(deep));
	assert_string_equal(report_text(deep, "flops.expr"), "n");
	assert_int_equal(at(deep, "sizes.n")->valueint, 1);
	assert_int_equal(at(deep, "flops.value")->valueint, 1);
	free(err);
	cJSON_Delete(rep);
}

/* ------------------------------------------------------------------------------------------------ */
/* Loops that wrap around in their variable's type */

static const char wraps[] = "wraps around before its bound ends the loop: the loop may never end, trip count "
                            "unknown, the body is counted once";

static void assert_wraps(cJSON *rep, const char *err, const char *name, int line, const char *var)
{
	char msg[400], where[600];
	snprintf(msg, sizeof msg, "loop variable %s %s", var, wraps);
	snprintf(where, sizeof where, "hostile_loops.c:%d:2: warning: %s", line, msg);
	assert_contains(err, where);
	cJSON *f = report_function(rep, name);
	assert_false(report_exact(f));
	assert_string_equal(report_text(f, "flops.expr"), "1"); /* the body once */
	assert_one_diag(f, "warning", line, 2, msg);
}

static void wrapping_loops_are_flagged(void **state)
{
	(void)state;
	char *err;
	cJSON *rep = analyze("hostile_loops", "tests/fixtures/hostile_loops.c", &err);
	assert_wraps(rep, err, "uchar_300", 4, "'j' of type 'unsigned char'");
	assert_wraps(rep, err, "unsigned_down", 10, "'j' of type 'unsigned int'");
	assert_wraps(rep, err, "short_symbolic", 22, "'i' of type 'short'");
	assert_wraps(rep, err, "int_max", 28, "'i' of type 'int'");
	assert_wraps(rep, err, "uchar_start", 34, "'j' of type 'unsigned char'");
	/* 18446744073709551615UL is not read as -1 (which counted 0 trips, exact) */
	cJSON *huge = report_function(rep, "huge_bound");
	assert_false(report_exact(huge));
	assert_string_equal(report_text(huge, "flops.expr"), "1");
	assert_one_diag(huge, "warning", 16, 2,
	                "loop bounds of 'i' are not affine functions of the sizes and outer loop variables: trip "
	                "count unknown, the body is counted once (annotate the total with KCOST_TRIPS)");
	/* int i = -1 compared with 10u is 4294967295: 0 trips, not 11 */
	static const char as_unsigned[] = "loop variable 'i' of type 'int' is compared as an unsigned value and may be "
	                                  "negative or wrap around: trip count unknown, the body is counted once";
	assert_contains(err,
	                "hostile_loops.c:66:2: warning: loop variable 'i' of type 'int' is compared as an unsigned");
	assert_one_diag(report_function(rep, "signed_as_unsigned"), "warning", 66, 2, as_unsigned);
	assert_false(report_exact(report_function(rep, "signed_as_unsigned")));
	assert_string_equal(report_text(report_function(rep, "int_below_size_t"), "flops.expr"), "n");
	assert_true(report_exact(report_function(rep, "int_below_size_t")));
	/* the loops that end are counted exactly */
	assert_string_equal(report_text(report_function(rep, "uchar_255"), "flops.expr"), "255");
	assert_string_equal(report_text(report_function(rep, "unsigned_down_to_one"), "flops.expr"), "n");
	assert_string_equal(report_text(report_function(rep, "uchar_step"), "flops.expr"), "2");
	assert_string_equal(report_text(report_function(rep, "int_down"), "flops.expr"), "n");
	assert_true(report_exact(report_function(rep, "uchar_255")));
	assert_true(report_exact(report_function(rep, "unsigned_down_to_one")));
	assert_true(report_exact(report_function(rep, "uchar_step")));
	assert_true(report_exact(report_function(rep, "int_down")));
	free(err);
	cJSON_Delete(rep);
}

/* ------------------------------------------------------------------------------------------------ */
/* Annotation values */

static void assert_rejected(cJSON *rep, const char *err, const char *name, int line, const char *msg)
{
	char where[600];
	snprintf(where, sizeof where, "hostile_annotations.c:%d:1: warning: %s", line, msg);
	assert_contains(err, where);
	cJSON *f = report_function(rep, name);
	assert_false(report_exact(f));
	cJSON *d = cJSON_GetArrayItem(at(f, "diagnostics"), 0);
	assert_non_null(d);
	assert_int_equal(at(d, "line")->valueint, line);
	assert_int_equal(at(d, "col")->valueint, 1);
	assert_string_equal(report_text(d, "message"), msg);
}

static void annotation_values_are_rejected_at_the_annotation(void **state)
{
	(void)state;
	char *err;
	cJSON *rep = analyze("hostile_annotations", "tests/fixtures/hostile_annotations.c", &err);
	assert_rejected(rep, err, "too_large", 4, "bad KCOST_SIZES: integer too large at '99999999999999999999'");
	assert_rejected(rep, err, "negative", 11, "bad KCOST_SIZES: size 'n' is not a non-negative integer");
	assert_rejected(rep, err, "empty_extent", 18,
	                "with these sizes 'x' has no elements (its extent is 0 or negative)");
	assert_rejected(rep, err, "narrow", 25, "KCOST_SIZES: n = 2147483648 does not fit in its type 'int': ignored");
	assert_rejected(rep, err, "huge_extent", 32, "with these sizes the bytes of 'x' do not fit in 64 bits");
	assert_rejected(rep, err, "product", 40, "bad KCOST_SIZES: size 'n' does not fit in 64 bits");
	assert_rejected(rep, err, "unknown_key", 47, "KCOST_SIZES names 'q', which is not a size parameter: ignored");
	assert_rejected(rep, err, "duplicate", 54, "KCOST_SIZES gives 'n' a value twice: the first one is kept");
	assert_rejected(rep, err, "itself", 62, "KCOST_REFERENCE names the function itself ('itself'): ignored");
	assert_rejected(rep, err, "missing", 70,
	                "KCOST_REFERENCE names 'nowhere', which is not a function defined in this file");
	static const char no_elements[] = "KCOST_EXTENT gives 'x' no elements (0 or a negative number)";
	assert_contains(err, "hostile_annotations.c:84:51: warning: KCOST_EXTENT gives 'x' no elements");
	assert_one_diag(report_function(rep, "negative_extent"), "warning", 84, 51, no_elements);
	assert_false(report_exact(report_function(rep, "negative_extent")));
	assert_rejected(rep, err, "trips_of_nothing", 91,
	                "KCOST_TRIPS names 'q', which is the variable of no for loop kcost follows in the function: "
	                "ignored");
	assert_rejected(rep, err, "trips_twice", 100, "KCOST_TRIPS gives 'j' a total twice: the first one is kept");
	assert_string_equal(report_text(report_function(rep, "trips_twice"), "flops.expr"), "nnz");
	assert_int_equal(cJSON_GetArraySize(at(report_function(rep, "trips_twice"), "diagnostics")), 1);
	/* a rejected value leaves the size symbolic; the values that were accepted apply */
	assert_null(at(report_function(rep, "too_large"), "sizes.n"));
	assert_null(at(report_function(rep, "narrow"), "sizes.n"));
	assert_int_equal(at(report_function(rep, "duplicate"), "sizes.n")->valueint, 64);
	assert_int_equal(at(report_function(rep, "unknown_key"), "sizes.n")->valueint, 64);
	assert_null(at(report_function(rep, "unknown_key"), "sizes.q"));
	assert_string_equal(report_text(report_function(rep, "empty_extent"), "flops.expr"), "n");
	cJSON *ref = at(report_function(rep, "itself"), "reference");
	assert_true(!ref || cJSON_IsNull(ref));
	assert_true(report_exact(report_function(rep, "fine")));
	free(err);
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sum_of_2400_terms),
	    cmocka_unit_test(conditionals_nested_2300_deep),
	    cmocka_unit_test(for_nested_1150_deep),
	    cmocka_unit_test(for_nested_990_deep_is_lowered),
	    cmocka_unit_test(integer_expressions_of_2400_terms),
	    cmocka_unit_test(call_chain_of_1300_functions),
	    cmocka_unit_test(annotation_of_100k_parentheses),
	    cmocka_unit_test(annotation_of_100k_signs),
	    cmocka_unit_test(wrapping_loops_are_flagged),
	    cmocka_unit_test(annotation_values_are_rejected_at_the_annotation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

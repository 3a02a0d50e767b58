/* test_div.c — integer division and modulo in bounds, products of sizes in bounds and pointer offsets,
 * literal-only math and data-dependent conditional expressions (tests/fixtures/div_forms.c), through the built
 * binary's report.json: each count's formula and its value at the sizes given, and what is flagged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "run.h"

#define FIXTURE "tests/fixtures/div_forms.c"

/* kcost --no-run on the fixture with extra arguments (exit 0 expected); the parsed report. */
static cJSON *analyze(const char *name, const char *const *args)
{
	const char *out = scratch_dir(name);
	const char *argv[32] = {"--no-run", "--quiet", "-o", out};
	int n = 4;
	for (int i = 0; args[i] && n < 30; i++)
		argv[n++] = args[i];
	argv[n++] = FIXTURE;
	argv[n] = NULL;
	struct run r = run_kcost(argv);
	if (r.status != 0)
		fprintf(stderr, "kcost exited %d:\n%s\n", r.status, r.err);
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	return rep;
}

#define ANALYZE(name, ...) analyze(name, (const char *const[]){__VA_ARGS__, NULL})

static long long num(cJSON *f, const char *path)
{
	cJSON *v = at(f, path);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return (long long)v->valuedouble;
}

static int n_diags(cJSON *f)
{
	return cJSON_GetArraySize(at(f, "diagnostics"));
}

/* 200*(3333/1000) is 600 iterations, -7/2 + 10 is 7 and 10 + -7 % 3 is 9: C's truncation, not floor's 666, 6
 * and 12 (or the "counted once" of before) */
static void constants_fold_as_c_does(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_const", "--function", "^const_div$");
	cJSON *f = report_function(rep, "const_div");
	assert_string_equal(report_text(f, "flops.expr"), "8*(75*n + 2)");
	assert_int_equal(num(f, "flops.value"), 600 * 1000 + 7 + 9);
	assert_int_equal(num(f, "flops.by_category.mul"), 600000);
	assert_int_equal(num(f, "flops.by_category.add"), 7);
	assert_int_equal(num(f, "flops.by_category.sub"), 9);
	/* c[0 .. 8] read and written besides a */
	assert_string_equal(report_text(f, "bytes.min.expr"), "8*(n + 9)");
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f), 0);
	cJSON_Delete(rep);
}

/* n/4 of a non-negative size is floor(n/4); the remainder loop from n - n % 4 adds n - 4*floor(n/4) */
static void division_of_sizes_is_a_floor(void **state)
{
	(void)state;
	const char *sizes[] = {"n=1000", "n=1001", "n=1003"};
	const long long flops[] = {1000 - 3 * 250, 1001 - 3 * 250, 1003 - 3 * 250};
	for (int i = 0; i < 3; i++) {
		cJSON *rep = ANALYZE("div_quarters", "--function", "^quarters$", "--size", sizes[i]);
		cJSON *f = report_function(rep, "quarters");
		assert_string_equal(report_text(f, "flops.expr"), "n - 3*floor(n/4)");
		assert_int_equal(num(f, "flops.value"), flops[i]);
		assert_int_equal(num(f, "flops.by_category.mul"), 250);
		assert_string_equal(report_text(f, "bytes.min.expr"), "8*n");
		assert_true(report_exact(f));
		cJSON_Delete(rep);
	}
}

/* n >> 2 is floor(n/4), n & 3 is n - 4*floor(n/4): the blocks and the rest add up to n elements of y; literals
 * fold (7 >> 1 = 3, 13 & 7 = 5) */
static void shifts_and_masks_are_floors(void **state)
{
	(void)state;
	const char *sizes[] = {"n=1000", "n=1003"};
	const long long blocks[] = {250, 250}, left[] = {0, 3};
	for (int i = 0; i < 2; i++) {
		cJSON *rep = ANALYZE("div_shifts", "--function", "^shifted_", "--size", sizes[i]);
		cJSON *f = report_function(rep, "shifted_blocks");
		assert_string_equal(report_text(f, "flops.expr"), "n");
		assert_int_equal(num(f, "flops.by_category.mul"), 4 * blocks[i]);
		assert_int_equal(num(f, "flops.by_category.add"), left[i]);
		assert_int_equal(num(f, "bytes.min.value"), 8 * (4 * blocks[i] + left[i]));
		assert_true(report_exact(f));
		f = report_function(rep, "shifted_halves");
		assert_string_equal(report_text(f, "flops.expr"), "floor(n/2) + 8");
		assert_int_equal(num(f, "flops.value"), (i ? 1003 : 1000) / 2 + 8);
		assert_true(report_exact(f));
		cJSON_Delete(rep);
	}
}

/* (m - w)/2 truncates toward zero: with the sizes, its sign decides the floor (m = 3, w = 6: -1, not floor's
 * -2, so 4 trips); without them, the floor is assumed and flagged */
static void a_numerator_of_unknown_sign_is_decided_or_flagged(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_sign_neg", "--function", "^signed_div$", "--size", "m=3", "--size", "w=6");
	cJSON *f = report_function(rep, "signed_div");
	assert_string_equal(report_text(f, "flops.expr"), "-floor((-m + w)/2) + 5");
	assert_int_equal(num(f, "flops.value"), 4);
	assert_true(report_exact(f));
	cJSON_Delete(rep);

	rep = ANALYZE("div_sign_pos", "--function", "^signed_div$", "--size", "m=10", "--size", "w=1");
	f = report_function(rep, "signed_div");
	assert_string_equal(report_text(f, "flops.expr"), "floor((m - w)/2) + 5");
	assert_int_equal(num(f, "flops.value"), 9);
	assert_true(report_exact(f));
	cJSON_Delete(rep);

	rep = ANALYZE("div_sign_unknown", "--function", "^signed_div$");
	f = report_function(rep, "signed_div");
	assert_string_equal(report_text(f, "flops.expr"), "floor((m - w)/2) + 5");
	assert_false(report_exact(f));
	assert_int_equal(n_diags(f), 1);
	assert_string_equal(report_diag(f, 0, "warning", 38, 22),
	                    "the sign of this division's numerator is unknown without benchmark sizes: C truncates "
	                    "toward zero, the formula takes the floor (right where the numerator is non-negative)");
	cJSON_Delete(rep);
}

/* n / -2 is -(n / 2) and n % -2 takes the sign of n (n = 5: 6 and 9 trips, n = 6: 5 and 8); in an unsigned
 * type, (n - 10) / 4 at n = 5 wraps around and is flagged, at n = 100 it is floor((n - 10)/4) */
static void negative_divisors_and_unsigned_numerators(void **state)
{
	(void)state;
	const char *sizes[] = {"n=5", "n=6", "n=100"};
	const long long flops[] = {6 + 9, 5 + 8, 0 + 8};
	for (int i = 0; i < 3; i++) {
		cJSON *rep =
		    ANALYZE("div_negative", "--function", "^(negative_divisor|unsigned_wrap)$", "--size", sizes[i]);
		cJSON *f = report_function(rep, "negative_divisor");
		/* at n = 100 the first loop is empty: its piece is dropped at the benchmark sizes */
		assert_string_equal(report_text(f, "flops.expr"),
		                    i < 2 ? "n - 3*floor(n/2) + 16" : "n - 2*floor(n/2) + 8");
		assert_int_equal(num(f, "flops.value"), flops[i]);
		assert_true(report_exact(f));
		cJSON *u = report_function(rep, "unsigned_wrap");
		if (i < 2) {
			assert_false(report_exact(u));
			assert_non_null(strstr(report_diag(u, 0, "warning", 161, 2),
			                       "loop bounds of 'i' are not affine functions"));
		} else {
			assert_true(report_exact(u));
			assert_int_equal(num(u, "flops.value"), 22);
		}
		cJSON_Delete(rep);
	}
}

/* a division by zero, and a division by a size (no closed form kcost keeps), are flagged, never counted as if
 * exact */
static void division_by_zero_is_flagged_by_a_size_a_floor(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_flagged", "--function", "^(div_zero|heads)$");
	cJSON *z = report_function(rep, "div_zero");
	assert_false(report_exact(z));
	assert_int_equal(n_diags(z), 2);
	assert_string_equal(report_diag(z, 0, "warning", 46, 22),
	                    "integer division by zero: the expression is not counted");
	assert_non_null(strstr(report_diag(z, 1, "warning", 46, 2), "loop bounds of 'i' are not affine functions"));
	/* hs = C / NH is floor(C/NH): 768/12 = 64 per head */
	cJSON *h = report_function(rep, "heads");
	assert_true(report_exact(h));
	assert_int_equal(n_diags(h), 0);
	assert_string_equal(report_text(h, "flops.expr"), "NH*floor(C/NH)");
	assert_int_equal(num(h, "flops.value"), 768);
	cJSON_Delete(rep);
	/* 100/7 = 14 per head, 98 in all (not 100) */
	rep = ANALYZE("div_heads7", "--function", "^heads$", "--size", "C=100", "--size", "NH=7");
	h = report_function(rep, "heads");
	assert_true(report_exact(h));
	assert_int_equal(num(h, "flops.value"), 98);
	assert_string_equal(report_text(h, "bytes.min.expr"), "8*NH*floor(C/NH)");
	assert_int_equal(num(h, "bytes.min.value"), 8 * 98);
	cJSON_Delete(rep);
}

/* a convolution's output rows (h + 2*pad - kh)/2 + 1 at sizes where the numerator is non-negative (h = 4: 3/2
 * is 1, two rows), and with a stride that is a size */
static void convolution_output_rows(void **state)
{
	(void)state;
	const char *sizes[] = {"h=4", "h=5", "h=31"};
	const long long rows[] = {2, 3, 16};
	for (int i = 0; i < 3; i++) {
		cJSON *rep = ANALYZE("div_conv", "--function", "^conv_rows", "--size", sizes[i]);
		cJSON *f = report_function(rep, "conv_rows");
		assert_string_equal(report_text(f, "flops.expr"), "floor((h + 2*pad - kh)/2) + 1");
		assert_int_equal(num(f, "flops.value"), rows[i]);
		/* out[0 .. F] and in[0 .. 2*F], F = rows - 1 */
		assert_string_equal(report_text(f, "bytes.min.expr"), "4*(3*floor((h + 2*pad - kh)/2) + 2)");
		assert_int_equal(num(f, "bytes.min.value"), 4 * (3 * (rows[i] - 1) + 2));
		assert_true(report_exact(f));
		/* the stride a size: floor(.../stride), the same rows at stride = 2 */
		cJSON *g = report_function(rep, "conv_rows_strided");
		assert_true(report_exact(g));
		assert_string_equal(report_text(g, "flops.expr"), "floor((h + 2*pad - kh)/stride) + 1");
		assert_int_equal(num(g, "flops.value"), rows[i]);
		assert_int_equal(num(g, "bytes.min.value"), 4 * (2 * (rows[i] - 1) + rows[i] - 1 + 2));
		cJSON_Delete(rep);
	}
}

/* llm.c's layernorm_forward: x = inp + b*T*C + t*C, then x[i]; every byte counted, every FLOP exact */
static void rows_through_offsets_of_products(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_layernorm", "--function", "^layernorm_btc$", "--size", "B=2", "--size", "T=3",
	                     "--size", "C=100");
	cJSON *f = report_function(rep, "layernorm_btc");
	/* per row: C adds, 3*C for the variance, 4*C for the output, 2 divisions by C, v + eps, 1/sqrtf */
	assert_string_equal(report_text(f, "flops.expr"), "4*B*T*(2*C + 1)");
	assert_int_equal(num(f, "flops.value"), 4 * 2 * 3 * 201);
	assert_string_equal(report_text(f, "transcendentals.expr"), "B*T");
	assert_int_equal(num(f, "transcendentals.by_function.sqrtf"), 6);
	/* inp read and out written whole (B*T*C floats each), weight and bias read (C each) */
	assert_string_equal(report_text(f, "bytes.min.expr"), "8*C*(B*T + 1)");
	assert_int_equal(num(f, "bytes.min.value"), 8 * 100 * 7);
	assert_int_equal(num(f, "bytes.min.read"), 4 * 100 * 8);
	assert_int_equal(num(f, "bytes.min.write"), 4 * 100 * 6);
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f), 0);
	cJSON_Delete(rep);
}

/* a row kernel called at x + r*C, through an alias x + (r - 1)*C and &y[r*C], and at &A[r][0]: its hull moves
 * to where each call starts, so the caller moves all R*C elements (before: the first row only, marked exact);
 * at an offset read from memory, the whole buffer, flagged */
static void calls_on_rows_inside_buffers(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_rows", "--function", "^(rows_|scale_row)", "--size", "R=6", "--size", "C=50");
	const char *names[] = {"rows_call", "rows_alias", "rows_2d"};
	const char *bytes[] = {"8*R*C", "8*C*(R - 1)", "8*R*C"};
	const long long rows[] = {6, 5, 6};
	for (int i = 0; i < 3; i++) {
		cJSON *f = report_function(rep, names[i]);
		assert_string_equal(report_text(f, "bytes.min.expr"), bytes[i]);
		assert_int_equal(num(f, "bytes.min.read"), 4 * 50 * rows[i]);
		assert_int_equal(num(f, "bytes.min.write"), 4 * 50 * rows[i]);
		assert_int_equal(num(f, "flops.value"), 50 * rows[i]);
		assert_true(report_exact(f));
		assert_int_equal(n_diags(f), 0);
	}
	cJSON *g = report_function(rep, "rows_gather");
	assert_false(report_exact(g));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(g, "exact_ops"))); /* only its traffic is inexact */
	assert_int_equal(n_diags(g), 1);
	assert_string_equal(
	    report_diag(g, 0, "warning", 202, 3),
	    "the element where this call's argument starts in 'x' is not affine: its traffic is counted "
	    "as the whole buffer's");
	/* the caller reads start[r] itself, evaluating the argument: 4*R bytes beside x's and y's */
	assert_string_equal(report_text(g, "bytes.min.expr"), "4*R*(2*C + 1)");
	assert_int_equal(num(g, "bytes.min.read"), 4 * 6 * 50 + 4 * 6);
	/* the callee's operations do not depend on where its row starts: only the traffic is flagged (its FLOPs
	 * were, Rodinia's kmeans) */
	cJSON *d = report_function(rep, "rows_2d_decayed");
	assert_false(report_exact(d));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(d, "exact_ops")));
	assert_string_equal(report_text(d, "flops.expr"), "R*C");
	assert_non_null(strstr(report_diag(d, 0, "warning", 210, 16),
	                       "a row of an array passed to a call: kcost does not follow its offset"));
	cJSON_Delete(rep);
}

/* *(s->data + i) is still an access of the field s->data: n floats read, n written */
static void field_pointer_plus_offset(void **state)
{
	(void)state;
	const char *out = scratch_dir("div_field");
	struct run r =
	    run_kcost((const char *const[]){"--no-run", "--quiet", "-o", out, "tests/fixtures/div_field.c", NULL});
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = report_function(rep, "field_offset");
	assert_string_equal(report_text(f, "bytes.min.expr"), "8*n");
	assert_int_equal(num(f, "bytes.min.read"), 400);
	assert_true(report_exact(f));
	cJSON_Delete(rep);
}

/* i < B*T, j < h*stride, q < ch*k*k, and *(end - i) with end = T + d + T - 1 */
static void products_of_sizes_in_bounds(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_products", "--function", "^products$", "--size", "B=5", "--size", "T=7", "--size",
	                     "h=11", "--size", "stride=2", "--size", "ch=3", "--size", "k=4");
	cJSON *f = report_function(rep, "products");
	assert_string_equal(report_text(f, "flops.expr"), "ch*k^2 + B*T + h*stride + T");
	assert_int_equal(num(f, "flops.value"), 3 * 16 + 35 + 22 + 7);
	assert_int_equal(num(f, "flops.by_category.mul"), 22 + 7);
	/* each element read and written once; d[T .. 2*T - 1] */
	assert_string_equal(report_text(f, "bytes.min.expr"), "8*(ch*k^2 + B*T + h*stride + T)");
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f), 0);
	cJSON_Delete(rep);
}

/* sqrtf(2.0f / 3.14159265f) and expf(0.0f) are folded by compilers: not counted, so n mul + n add */
static void math_on_literals_is_not_counted(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_literal", "--function", "^literal_math$");
	cJSON *f = report_function(rep, "literal_math");
	assert_string_equal(report_text(f, "flops.expr"), "2*n");
	assert_string_equal(report_text(f, "transcendentals.expr"), "0");
	assert_true(report_exact(f));
	cJSON_Delete(rep);
}

/* t[i] ? -logf(p[i]) : 0 is flagged as `if (t[i]) err[i] = -logf(p[i]);` is; x > 0 ? x : 0 costs nothing in
 * its arms and stays exact */
static void conditional_with_work_is_flagged(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_ternary", "--function", "^ternary_");
	cJSON *f = report_function(rep, "ternary_work");
	assert_false(report_exact(f));
	assert_int_equal(n_diags(f), 1);
	assert_string_equal(report_diag(f, 0, "warning", 120, 12),
	                    "data-dependent condition: both arms of the conditional expression are counted");
	assert_string_equal(report_text(f, "transcendentals.expr"), "n");
	cJSON *g = report_function(rep, "ternary_free");
	assert_true(report_exact(g));
	assert_int_equal(n_diags(g), 1);
	assert_string_equal(report_diag(g, 0, "note", 127, 10),
	                    "both arms of a data-dependent conditional expression are counted");
	cJSON_Delete(rep);
}

/* Steps that are sizes: n *= inc then i += inc runs n times (n*inc - 1 by inc is exactly n - 1 steps), by 2*inc
 * the same; i = i + sub by a size that does not divide the distance is the floor (n = 37, sub = 4: 10 trips);
 * a tile of bs covers the n elements once; without values each step is taken to be positive, with a note */
static void steps_that_are_sizes(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("div_steps", "--function", "^(strided_|every_sub|tiles_of)", "--size", "n=37", "--size",
	                     "inc=3", "--size", "sub=4", "--size", "bs=5");
	cJSON *f = report_function(rep, "strided_sum");
	assert_string_equal(report_text(f, "flops.expr"), "2*n");
	assert_int_equal(num(f, "flops.value"), 74);
	assert_string_equal(report_text(f, "bytes.min.expr"), "8*(n*inc - inc + 1)");
	assert_true(report_exact(f));
	f = report_function(rep, "strided_pairs");
	assert_string_equal(report_text(f, "flops.expr"), "2*n");
	assert_true(report_exact(f));
	f = report_function(rep, "every_sub");
	assert_string_equal(report_text(f, "flops.expr"), "4*(floor((n - 1)/sub) + 1)");
	assert_int_equal(num(f, "flops.value"), 40);
	assert_true(report_exact(f));
	f = report_function(rep, "tiles_of");
	assert_string_equal(report_text(f, "flops.expr"), "n");
	assert_true(report_exact(f));
	cJSON_Delete(rep);
	rep = ANALYZE("div_steps_free", "--function", "^every_sub$");
	f = report_function(rep, "every_sub");
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f), 1);
	assert_string_equal(report_diag(f, 0, "note", 270, 25),
	                    "the loop's step sub is taken to be positive (it has no value)");
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(constants_fold_as_c_does),
	    cmocka_unit_test(division_of_sizes_is_a_floor),
	    cmocka_unit_test(shifts_and_masks_are_floors),
	    cmocka_unit_test(a_numerator_of_unknown_sign_is_decided_or_flagged),
	    cmocka_unit_test(negative_divisors_and_unsigned_numerators),
	    cmocka_unit_test(division_by_zero_is_flagged_by_a_size_a_floor),
	    cmocka_unit_test(convolution_output_rows),
	    cmocka_unit_test(rows_through_offsets_of_products),
	    cmocka_unit_test(calls_on_rows_inside_buffers),
	    cmocka_unit_test(field_pointer_plus_offset),
	    cmocka_unit_test(products_of_sizes_in_bounds),
	    cmocka_unit_test(math_on_literals_is_not_counted),
	    cmocka_unit_test(conditional_with_work_is_flagged),
	    cmocka_unit_test(steps_that_are_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

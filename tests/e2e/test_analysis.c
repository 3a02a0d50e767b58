/* test_analysis.c — the analyzer's figures on samples/ and tests/fixtures/, through the built binary's
 * report.json. Each figure is the exact closed form of the kernel's loop nest (see docs/counting.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run.h"

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

/* Analyze (no run) and return the parsed report; the test fails if kcost did not exit with `status`. */
static cJSON *analyze(const char *name, int status, const char *const *args)
{
	const char *out = scratch_dir(name);
	const char *argv[32] = {"--no-run", "--quiet", "-o", out};
	int n = 4;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	struct run r = run_kcost(argv);
	if (r.status != status)
		fprintf(stderr, "kcost exited %d:\n%s\n", r.status, r.err);
	assert_int_equal(r.status, status);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	return rep;
}

#define ANALYZE(name, ...) analyze(name, 0, (const char *const[]){__VA_ARGS__, NULL})

static double num(cJSON *f, const char *path)
{
	cJSON *v = at(f, path);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return v->valuedouble;
}

static const char *str(cJSON *f, const char *path)
{
	cJSON *v = at(f, path);
	if (!cJSON_IsString(v))
		fail_msg("%s is not a string", path);
	return v->valuestring;
}

static cJSON *fn(cJSON *rep, const char *name)
{
	cJSON *f = find_function(rep, name);
	if (!f)
		fail_msg("function %s not in the report", name);
	return f;
}

static void matmul_tanh_figures(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("matmul_tanh", "samples/matmul_tanh.c");
	cJSON *f = fn(rep, "matmul_tanh_f32");
	assert_true(cJSON_IsTrue(at(f, "exact")));
	assert_int_equal((long)num(f, "flops.value"), 8192);
	assert_string_equal(str(f, "flops.expr"), "2*m*k*n");
	assert_int_equal((long)num(f, "transcendentals.value"), 256);
	assert_int_equal((long)num(f, "transcendentals.by_function.tanhf"), 256);
	assert_int_equal((long)num(f, "bytes.min.value"), 3584);
	assert_string_equal(str(f, "bytes.min.expr"), "4*(m*k + m*n + k*n)");
	assert_float_equal(num(f, "intensity.min"), 16.0 / 7.0, 1e-12);
	cJSON *h = fn(rep, "matmul_tanh_f16");
	assert_int_equal((long)num(h, "flops.value"), 8192);
	assert_int_equal((long)num(h, "flops.by_precision._Float16"), 8192);
	assert_int_equal((long)num(h, "bytes.min.value"), 3584 / 2);
	assert_float_equal(num(h, "intensity.min"), 32.0 / 7.0, 1e-12);
	cJSON_Delete(rep);
}

static void matmul_tanh_at_other_sizes(void **state)
{
	(void)state;
	cJSON *rep =
	    ANALYZE("matmul_tanh_48", "--size", "m=48", "--size", "k=24", "--size", "n=12", "samples/matmul_tanh.c");
	cJSON *f = fn(rep, "matmul_tanh_f32");
	assert_int_equal((long)num(f, "flops.value"), 27648);
	assert_int_equal((long)num(f, "bytes.min.value"), 8064);
	assert_float_equal(num(f, "intensity.min"), 24.0 / 7.0, 1e-12);
	assert_int_equal((long)num(f, "sizes.m"), 48);
	cJSON_Delete(rep);
}

static void every_matmul_counts_2mnk(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("matmul", "samples/matmul.c");
	const char *names[] = {"matmul_ijk", "matmul_ikj", "matmul_tiled", "matmul_cblas"};
	for (int i = 0; i < 4; i++) {
		cJSON *f = fn(rep, names[i]);
		assert_string_equal(str(f, "flops.expr"), "2*m*n*k");
		assert_int_equal((long)num(f, "flops.value"), 2L * 512 * 512 * 512);
		assert_string_equal(str(f, "bytes.min.expr"), "4*(m*n + m*k + n*k)");
		assert_true(cJSON_IsTrue(at(f, "exact")));
	}
	cJSON_Delete(rep);
}

static void square_matmul_intensity_is_n_over_6(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("square", "--function", "^matmul_square$", "tests/fixtures/counting.c");
	cJSON *f = fn(rep, "matmul_square");
	assert_string_equal(str(f, "flops.expr"), "2*n^3");
	assert_string_equal(str(f, "bytes.min.expr"), "12*n^2");
	assert_string_equal(str(f, "intensity_expr.min"), "n/6");
	assert_float_equal(num(f, "intensity.min"), 1024.0 / 6.0, 1e-9);
	cJSON_Delete(rep);
}

static void vecadd_figures(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("vecadd", "samples/vecadd.c");
	cJSON *f = fn(rep, "vecadd");
	assert_string_equal(str(f, "flops.expr"), "n");
	assert_string_equal(str(f, "bytes.min.expr"), "12*n");
	assert_string_equal(str(f, "intensity_expr.min"), "1/12");
	assert_float_equal(num(f, "intensity.min"), 1.0 / 12.0, 1e-12);
	cJSON_Delete(rep);
}

static void unrolled_loop_with_remainder_counts_n(void **state)
{
	(void)state;
	const char *sizes[] = {"n=1000", "n=1001", "n=1002", "n=1003"};
	for (int i = 0; i < 4; i++) {
		cJSON *rep =
		    ANALYZE("unrolled", "--size", sizes[i], "--function", "^vecadd_unrolled$", "samples/vecadd.c");
		cJSON *f = fn(rep, "vecadd_unrolled");
		assert_string_equal(str(f, "flops.expr"), "n");
		assert_int_equal((long)num(f, "flops.value"), 1000 + i);
		assert_int_equal((long)num(f, "bytes.min.value"), 12 * (1000 + i));
		assert_int_equal((long)num(f, "bytes.streaming.value"), 12 * (1000 + i));
		assert_true(cJSON_IsTrue(at(f, "exact")));
		cJSON_Delete(rep);
	}
}

static void gelu_figures(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("gelu", "samples/gelu.c");
	cJSON *fused = fn(rep, "gelu_fused"), *unfused = fn(rep, "gelu_unfused");
	long n = 1L << 22;
	assert_string_equal(str(fused, "flops.expr"), "8*n");
	assert_int_equal((long)num(fused, "flops.by_category.mul"), 6 * n);
	assert_int_equal((long)num(fused, "flops.by_category.add"), 2 * n);
	assert_int_equal((long)num(fused, "transcendentals.by_function.tanhf"), n);
	assert_string_equal(str(fused, "bytes.min.expr"), "8*n");
	assert_string_equal(str(fused, "bytes.streaming.expr"), "8*n");
	assert_float_equal(num(fused, "intensity.min"), 1.0, 1e-12);
	assert_string_equal(str(unfused, "flops.expr"), "8*n");
	assert_string_equal(str(unfused, "transcendentals.expr"), "n");
	assert_string_equal(str(unfused, "bytes.min.expr"), "8*n");
	/* 10 reads (x by three passes, t1..t7) + 8 writes (t1..t7, y) of 4-byte floats */
	assert_string_equal(str(unfused, "bytes.streaming.expr"), "72*n");
	assert_int_equal((long)num(unfused, "bytes.streaming.read"), 40 * n);
	assert_int_equal((long)num(unfused, "bytes.streaming.write"), 32 * n);
	assert_int_equal(cJSON_GetArraySize(at(unfused, "nests")), 8);
	cJSON_Delete(rep);
}

static void triangular_and_stencil_closed_forms(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("trsv", "samples/trsv.c");
	/* trsv: n(n-1)/2 (mul + sub) + n div = n^2; trmv: n(n+1)/2 (mul + add) = n^2 + n */
	assert_string_equal(str(fn(rep, "trsv_lower"), "flops.expr"), "n^2");
	assert_int_equal((long)num(fn(rep, "trsv_lower"), "flops.by_category.div"), 2048);
	assert_string_equal(str(fn(rep, "trmv_lower"), "flops.expr"), "n*(n + 1)");
	cJSON_Delete(rep);
	rep = ANALYZE("jacobi", "samples/jacobi2d.c");
	cJSON *j = fn(rep, "jacobi2d");
	/* two sweeps of 4 add + 1 mul over the (n-2)^2 interior per time step */
	assert_string_equal(str(j, "flops.expr"), "10*tsteps*(n^2 - 4*n + 4)");
	assert_int_equal((long)num(j, "flops.value"), 10L * 20 * 998 * 998);
	cJSON_Delete(rep);
}

static void loop_forms_and_guards(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("forms", "tests/fixtures/counting.c");
	cJSON *f = fn(rep, "loop_forms");
	/* n mul + n add + n sub + ceil(n/3) div; n = 1000: 334 divisions */
	assert_int_equal((long)num(f, "flops.by_category.mul"), 1000);
	assert_int_equal((long)num(f, "flops.by_category.add"), 1000);
	assert_int_equal((long)num(f, "flops.by_category.sub"), 1000);
	assert_int_equal((long)num(f, "flops.by_category.div"), 334);
	assert_true(cJSON_IsTrue(at(f, "exact")));
	/* y's hull is 0 .. n-1 for every n, whatever the step-3 loop's last index 3*floor((n - 1)/3) */
	assert_string_equal(str(f, "bytes.min.expr"), "8*n");
	cJSON *g = fn(rep, "guarded");
	/* n(n-1)/2 multiplications below the diagonal, n-2 additions in the interior */
	assert_int_equal((long)num(g, "flops.by_category.mul"), 500 * 499 / 2);
	assert_int_equal((long)num(g, "flops.by_category.add"), 498);
	assert_true(cJSON_IsTrue(at(g, "exact")));
	cJSON *b = fn(rep, "band");
	/* sum over i of min(w, n - i) additions: w*(n - w) + w*(w + 1)/2 */
	assert_int_equal((long)num(b, "flops.value"), 7 * (300 - 7) + 7 * 8 / 2);
	assert_true(cJSON_IsTrue(at(b, "exact")));
	/* j < min(i + w, n) keeps x[j] inside x: x read once, y read and written */
	assert_string_equal(str(b, "bytes.min.expr"), "12*n");
	/* a loop of unknown trip count is counted once at its variable's start: no loop variable in the count */
	cJSON *t = fn(rep, "data_bounded_triangle");
	assert_string_equal(str(t, "flops.expr"), "1");
	assert_int_equal((long)num(t, "flops.value"), 1);
	assert_true(cJSON_IsFalse(at(t, "exact")));
	cJSON_Delete(rep);
}

static void spmv_needs_its_trip_annotation(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("spmv", "samples/spmv.c");
	cJSON *f = fn(rep, "spmv_csr");
	assert_string_equal(str(f, "flops.expr"), "2*nnz");
	assert_true(cJSON_IsTrue(at(f, "exact")));
	cJSON *u = fn(rep, "spmv_csr_unannotated");
	assert_true(cJSON_IsFalse(at(u, "exact")));
	cJSON *d = cJSON_GetArrayItem(at(u, "diagnostics"), 0);
	assert_string_equal(str(d, "severity"), "warning");
	assert_int_equal((long)num(d, "line"), 28);
	assert_non_null(strstr(str(d, "message"), "trip count unknown"));
	cJSON_Delete(rep);
}

/* A loop whose trip count kcost does not know is counted once: no time is predicted from it, in the function or
 * in one that calls it (here against a stored machine, no run); the same loop in a branch the sizes do not take
 * leaves the counts exact, and a macro's do { } while (0) is its body once, not such a loop. */
static void counted_once_gets_no_time(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("counted-once", "--machine", "tests/fixtures/roofline_machine.json",
	                     "tests/fixtures/counted_once.c");
	assert_string_equal(str(fn(rep, "scan"), "predicted.why"),
	                    "the trip count of the loop at line 10 is not known (its body is counted once, see its "
	                    "warning): no time is predicted from one iteration's counts");
	assert_string_equal(str(fn(rep, "calls_scan"), "predicted.why"),
	                    "the trip count of the loop at line 10 of scan is not known (its body is counted once, see "
	                    "its warning): no time is predicted from one iteration's counts");
	cJSON *u = fn(rep, "untaken_scan"), *m = fn(rep, "macro_once");
	assert_true(cJSON_IsTrue(at(u, "exact")) && cJSON_IsTrue(at(m, "exact")));
	assert_true(num(u, "predicted.seconds") > 0 && num(m, "predicted.seconds") > 0);
	assert_string_equal(str(m, "flops.expr"), "n");
	assert_int_equal(cJSON_GetArraySize(at(m, "diagnostics")), 0);
	cJSON_Delete(rep);
}

static void mlp_forward_inlines_its_calls(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("mlp", "samples/mlp.c");
	cJSON *f = fn(rep, "mlp_forward");
	/* matmul 2*m*k*n + bias m*n + GELU 8*m*n */
	assert_string_equal(str(f, "flops.expr"), "m*n*(2*k + 9)");
	assert_string_equal(str(f, "transcendentals.expr"), "m*n");
	/* H is a heap temporary: min traffic is X, W, b read and Y written */
	assert_string_equal(str(f, "bytes.min.expr"), "4*(m*k + m*n + k*n + n)");
	assert_int_equal(cJSON_GetArraySize(at(f, "nests")), 3);
	cJSON_Delete(rep);
}

static void struct_of_arrays_fields_are_buffers(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("soa", "tests/fixtures/soa.c");
	cJSON *f = fn(rep, "axpy_soa");
	assert_string_equal(str(f, "flops.expr"), "2*n");
	/* s->x read, s->y read and written */
	assert_string_equal(str(f, "bytes.min.expr"), "12*n");
	assert_true(cJSON_IsTrue(at(f, "exact")));
	int fields = 0;
	cJSON *b;
	cJSON_ArrayForEach(b, at(f, "buffers")) fields +=
	    !strcmp(str(b, "name"), "s->y") || !strcmp(str(b, "name"), "s->x");
	assert_int_equal(fields, 2);
	cJSON *h = fn(rep, "halve_weights");
	/* the loop stops at min(n, 64) */
	assert_int_equal((long)num(h, "flops.value"), 64);
	int found = 0;
	cJSON_ArrayForEach(b, at(h, "buffers")) found += !strcmp(str(b, "name"), "p.w");
	assert_int_equal(found, 1);
	cJSON_Delete(rep);
}

/* The order of two hull bounds holds for every size, or the figure says it does not: the same formulas
 * without sizes and with them. */
static void footprint_orders_hold_for_every_size(void **state)
{
	(void)state;
	for (int sized = 0; sized < 2; sized++) {
		cJSON *rep = sized ? ANALYZE("fp_order_sized", "--size", "n=1000", "--size", "m=50",
		                             "tests/fixtures/footprint_order.c")
		                   : ANALYZE("fp_order", "tests/fixtures/footprint_order.c");
		const char *where = sized ? "at the benchmark sizes" : "for large sizes";
		char msg[256];
		cJSON *u = fn(rep, "unrolled_remainder");
		assert_string_equal(str(u, "bytes.min.expr"), "8*n");
		assert_true(cJSON_IsTrue(at(u, "exact")));
		assert_int_equal(cJSON_GetArraySize(at(u, "diagnostics")), 0);
		cJSON *h = fn(rep, "reads_head");
		assert_string_equal(str(h, "bytes.min.expr"), "8*n");
		assert_true(cJSON_IsFalse(at(h, "exact")));
		cJSON *d = cJSON_GetArrayItem(at(h, "diagnostics"), 0);
		assert_string_equal(str(d, "severity"), "warning");
		assert_int_equal((long)num(d, "line"), 19);
		assert_int_equal((long)num(d, "col"), 2);
		snprintf(msg, sizeof msg,
		         "the hull of 'x' takes the larger of 2 and n - 1, which kcost cannot order for all sizes: the "
		         "figure takes n - 1, the larger %s",
		         where);
		assert_string_equal(str(d, "message"), msg);
		/* a row, then all of A through a one-dimensional callee: both hulls count, as element offsets */
		cJSON *r = fn(rep, "row_then_whole");
		assert_string_equal(str(r, "bytes.min.expr"), "8*n*m");
		assert_true(cJSON_IsFalse(at(r, "exact")));
		if (sized) {
			assert_int_equal((long)num(u, "bytes.min.value"), 8000);
			assert_int_equal((long)num(h, "bytes.min.value"), 8000);
		}
		cJSON_Delete(rep);
	}
}

static void overflow_is_reported_never_wrapped(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("overflow", "tests/fixtures/overflow.c");
	cJSON *f = fn(rep, "cube");
	/* n = 2^30: n^3 = 2^90 does not fit 64 bits; the formula stays exact, the value is null with the reason */
	assert_string_equal(str(f, "flops.expr"), "n^3");
	assert_true(cJSON_IsNull(at(f, "flops.value")));
	assert_string_equal(str(f, "flops.value_error"), "the value overflows 64 bits");
	assert_true(cJSON_IsTrue(at(f, "exact")));
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(matmul_tanh_figures),
	    cmocka_unit_test(matmul_tanh_at_other_sizes),
	    cmocka_unit_test(every_matmul_counts_2mnk),
	    cmocka_unit_test(square_matmul_intensity_is_n_over_6),
	    cmocka_unit_test(vecadd_figures),
	    cmocka_unit_test(unrolled_loop_with_remainder_counts_n),
	    cmocka_unit_test(gelu_figures),
	    cmocka_unit_test(triangular_and_stencil_closed_forms),
	    cmocka_unit_test(loop_forms_and_guards),
	    cmocka_unit_test(spmv_needs_its_trip_annotation),
	    cmocka_unit_test(counted_once_gets_no_time),
	    cmocka_unit_test(mlp_forward_inlines_its_calls),
	    cmocka_unit_test(overflow_is_reported_never_wrapped),
	    cmocka_unit_test(footprint_orders_hold_for_every_size),
	    cmocka_unit_test(struct_of_arrays_fields_are_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

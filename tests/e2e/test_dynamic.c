/* test_dynamic.c — an independent check of the analyzer's counts: execute every sample kernel and count
 * the floating-point operations it really performs, at two sets of sizes, and compare with kcost's formulas
 * evaluated at the same sizes.
 *
 * The checker is dynamic.c (see dynamic.h): the kernel is compiled by clang to LLVM IR at -O0 with
 * floating-point contraction off (so each source operation is one IR instruction: `fadd`, `fsub`, `fmul`,
 * `fdiv` with its type; unary minus is `fneg`, not counted, as in the convention), a call to a counter is
 * inserted after each such instruction and before each call of a transcendental, and the program — kcost's
 * own harness, which allocates and initializes the buffers — runs the kernel once. Only the functions kcost
 * analyzed are instrumented, so the harness's own initialisation is not counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic.h"
#include "run.h"

#ifndef CLANG
#define CLANG "clang-19"
#endif

/* Analyze `file` with the size overrides, and compare every function whose operation counts are exact with its
 * execution (dynamic.c): one whose counts differ, or that cannot run, fails the test, unless it is named in
 * `unrunnable` (NULL-terminated, or NULL), the functions whose traffic kcost cannot bound, so that the harness
 * cannot size their buffers. Returns how many were checked. */
static int check_file_with(const char *file, const char *const *sizes, const char *const *extents,
                           const char *const *unrunnable)
{
	struct kc_size_override ov[16];
	int n = 0;
	char names[16][32];
	for (; sizes[n]; n++) {
		assert_true(n < 16);
		const char *eq = strchr(sizes[n], '=');
		snprintf(names[n], sizeof names[n], "%.*s", (int)(eq - sizes[n]), sizes[n]);
		ov[n].name = names[n];
		ov[n].value = atoll(eq + 1);
	}
	struct kc_extent_override ext[8];
	char ext_names[8][32];
	int n_ext = 0;
	for (; extents && extents[n_ext]; n_ext++) {
		assert_true(n_ext < 8);
		const char *eq = strchr(extents[n_ext], '=');
		snprintf(ext_names[n_ext], sizeof ext_names[n_ext], "%.*s", (int)(eq - extents[n_ext]), extents[n_ext]);
		ext[n_ext] = (struct kc_extent_override){ext_names[n_ext], eq + 1};
	}
	struct kc_gt_opts o = {.sizes = ov,
	                       .n_sizes = n,
	                       .extents = ext,
	                       .n_extents = n_ext,
	                       .base_dir = KCOST_SOURCE_DIR,
	                       .work_dir = scratch_dir("dynamic"),
	                       .clang = CLANG,
	                       .include_dir = KCOST_SOURCE_DIR "/annotations"};
	struct kc_gt_file res;
	assert_int_equal(kc_gt_check_file(file, &o, &res), 0);
	if (res.error)
		fail_msg("%s: %s", file, res.error);
	int checked = 0;
	for (int i = 0; i < res.n; i++) {
		const struct kc_gt_result *r = &res.results[i];
		int allowed = 0;
		for (int u = 0; unrunnable && unrunnable[u]; u++)
			allowed |= r->cls == KC_GT_NOT_RUN && !strcmp(r->function, unrunnable[u]);
		if (!allowed && (r->cls == KC_GT_EXACT_WRONG || r->cls == KC_GT_NOT_RUN))
			fail_msg("%s %s: %s: %s", file, r->function, kc_gt_class_name(r->cls), r->detail);
		checked +=
		    r->cls == KC_GT_EXACT_RIGHT; /* flagged functions say why; library calls use built-in models */
	}
	kc_gt_file_release(&res);
	return checked;
}

static int check_file_but(const char *file, const char *const *sizes, const char *const *unrunnable)
{
	return check_file_with(file, sizes, NULL, unrunnable);
}

static int check_file(const char *file, const char *const *sizes)
{
	return check_file_but(file, sizes, NULL);
}

#define SIZES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Two sets of sizes per sample, small enough for an unoptimized, instrumented run. */
static void gelu(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/gelu.c", SIZES("n=1000")), 2);
	assert_int_equal(check_file("samples/gelu.c", SIZES("n=1237")), 2);
}
static void vecadd(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/vecadd.c", SIZES("n=1001")), 2);
	assert_int_equal(check_file("samples/vecadd.c", SIZES("n=1003")), 2);
}
static void matmul(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/matmul.c", SIZES("m=33", "n=17", "k=70")), 3);
	assert_int_equal(check_file("samples/matmul.c", SIZES("m=64", "n=65", "k=66")), 3);
}
static void matmul_tanh(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/matmul_tanh.c", SIZES("m=32", "k=16", "n=8")), 2);
	assert_int_equal(check_file("samples/matmul_tanh.c", SIZES("m=48", "k=24", "n=12")), 2);
}
static void softmax(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/softmax.c", SIZES("rows=5", "cols=31")), 2);
	assert_int_equal(check_file("samples/softmax.c", SIZES("rows=8", "cols=64")), 2);
}
static void layernorm(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/layernorm.c", SIZES("rows=5", "cols=31")), 1);
	assert_int_equal(check_file("samples/layernorm.c", SIZES("rows=9", "cols=64")), 1);
}
static void conv2d(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/conv2d.c", SIZES("C=3", "H=10", "W=12", "K=4", "R=3", "S=2")), 1);
	assert_int_equal(check_file("samples/conv2d.c", SIZES("C=2", "H=9", "W=9", "K=3", "R=2", "S=3")), 1);
}
static void jacobi2d(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/jacobi2d.c", SIZES("tsteps=3", "n=20")), 1);
	assert_int_equal(check_file("samples/jacobi2d.c", SIZES("tsteps=2", "n=33")), 1);
}
static void spmv(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/spmv.c", SIZES("n=100", "nnz=1000")), 1);
	assert_int_equal(check_file("samples/spmv.c", SIZES("n=64", "nnz=777")), 1);
}
static void mlp(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/mlp.c", SIZES("m=8", "k=16", "n=12")), 4);
	assert_int_equal(check_file("samples/mlp.c", SIZES("m=5", "k=7", "n=9")), 4);
}
static void loop_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/counting.c", SIZES("n=37", "w=5")), 4);
	assert_int_equal(check_file("tests/fixtures/counting.c", SIZES("n=20", "w=7")), 4);
}
static void div_forms(void **s)
{
	(void)s;
	/* const_div, quarters, signed_div, heads, layernorm_btc, products, literal_math, ternary_free, conv_rows,
	 * conv_rows_strided, negative_divisor, unsigned_wrap (n - 10 >= 0 here), scale_row, rows_call, rows_alias,
	 * rows_2d, rows_gather and rows_2d_decayed (their traffic is not exact, their operation counts are),
	 * shifted_blocks, shifted_halves,
	 * strided_sum, strided_pairs, every_sub, tiles_of (steps that are sizes) */
	assert_int_equal(check_file("tests/fixtures/div_forms.c", SIZES("n=37", "m=3", "w=6", "B=2", "T=3", "C=10",
	                                                                "h=5", "stride=3", "inc=3", "sub=4", "bs=5")),
	                 24);
	assert_int_equal(check_file("tests/fixtures/div_forms.c", SIZES("n=42", "m=11", "w=2", "B=3", "T=2", "C=7",
	                                                                "ch=2", "k=3", "inc=1", "sub=5", "bs=42")),
	                 24);
}
static void trsv(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/trsv.c", SIZES("n=50")), 2);
	assert_int_equal(check_file("samples/trsv.c", SIZES("n=73")), 2);
}

/* conditions on sizes, early returns, switch, callees guarded on their sizes, equality guards, locals holding a
 * min: every function but the two switches kcost flags (clipped's traffic is inexact, the hull of min(n, m),
 * its operation counts are checked), at two sets of flags */
static void cond_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/cond_forms.c",
	                            SIZES("n=37", "forward=1", "m=3", "k=4", "TA=1", "TB=0", "B=3", "T=5", "kind=1")),
	                 12);
	assert_int_equal(check_file("tests/fixtures/cond_forms.c",
	                            SIZES("n=20", "forward=0", "m=5", "k=2", "TA=0", "TB=0", "B=4", "T=6", "kind=0")),
	                 12);
}

/* The checker's class and detail for one function of file at n = 9: detail is a suffix of its detail. */
static void check_detail(const char *file, const char *function, enum kc_gt_class cls, const char *detail)
{
	struct kc_size_override n = {"n", 9};
	struct kc_gt_opts o = {.sizes = &n,
	                       .n_sizes = 1,
	                       .base_dir = KCOST_SOURCE_DIR,
	                       .work_dir = scratch_dir("dynamic_detail"),
	                       .clang = CLANG,
	                       .include_dir = KCOST_SOURCE_DIR "/annotations"};
	struct kc_gt_file res;
	assert_int_equal(kc_gt_check_file(file, &o, &res), 0);
	if (res.error)
		fail_msg("%s: %s", file, res.error);
	int seen = 0;
	for (int i = 0; i < res.n; i++)
		if (!strcmp(res.results[i].function, function)) {
			seen++;
			const char *d = res.results[i].detail;
			assert_int_equal(res.results[i].cls, cls);
			if (strlen(d) < strlen(detail) || strcmp(d + strlen(d) - strlen(detail), detail))
				fail_msg("%s: '%s' does not end in '%s'", function, d, detail);
		}
	assert_int_equal(seen, 1);
	kc_gt_file_release(&res);
}

/* calls that do not return (exit, abort, _Noreturn, noreturn helpers), assertions: the four that run are exact-right
 * (a call that returns makes no such call); stop_on_inf calls a function defined nowhere (no link);
 * exit_when_small exits at the harness's data, and the checker says so instead of "printed no counts" */
static void noreturn_forms(void **s)
{
	(void)s;
	const char *const unrunnable[] = {"stop_on_inf", "exit_when_small", NULL};
	assert_int_equal(check_file_but("tests/fixtures/noreturn_forms.c", SIZES("n=37"), unrunnable), 4);
	assert_int_equal(check_file_but("tests/fixtures/noreturn_forms.c", SIZES("n=20"), unrunnable), 4);
	/* functions that return but look as if they might not (named noreturn, ...): every one exact-right */
	assert_int_equal(check_file("tests/fixtures/noreturn_lookalikes.c", SIZES("n=37")), 6);
	check_detail("tests/fixtures/noreturn_forms.c", "exit_when_small", KC_GT_NOT_RUN,
	             "the function ended the process (exit, status 0) instead of returning: kcost counts a call that "
	             "returns");
}

/* induction variables, pointer walks, a size counting down, while loops as for loops, reference-BLAS level 2,
 * assigned sizes, pointers assigned an element's address, do-while loops on a counter, while loops in both branches of
 * an if: the fifteen kcost counts. walk_by_data's and copy_chain's operation counts are exact too, but their pointers
 * move by data: kcost cannot size their buffers to run them. */
static void walk_forms(void **s)
{
	(void)s;
	assert_int_equal(
	    check_file_but("tests/fixtures/walk_forms.c",
	                   SIZES("n=37", "incx=2", "incy=3", "lda=5", "m=9", "rows=6", "cols=7", "ldb=8", "inc=3"),
	                   SIZES("walk_by_data", "copy_chain")),
	    15);
	assert_int_equal(
	    check_file_but("tests/fixtures/walk_forms.c",
	                   SIZES("n=20", "incx=1", "incy=4", "lda=12", "m=11", "rows=3", "cols=5", "ldb=4", "inc=2"),
	                   SIZES("walk_by_data", "copy_chain")),
	    15);
}

/* branches that change no count, NULL tests, compound assignments computed in double, branches and arms that
 * compute nothing (clamp_negative, order_pairs, clamp_unit: their comparisons or traffic are flagged, their FLOPs
 * are exact) or the same (same_arms, same_branches), a short-circuit operand decided by a size, searches that
 * stop early without FLOPs (find_value, first_negative), else-if chains whose branches do the same FLOPs
 * (three_way, four_way, constant_inside): all but sum_until_negative, uneven_chain and flagged_after_traffic, whose
 * flag the checker names by the warning that makes the FLOPs inexact */
static void branch_forms(void **s)
{
	(void)s;
	/* big_only's buffer has no extent at its own size (its loop is in a branch m = 10 does not take) */
	assert_int_equal(check_file_but("tests/fixtures/branch_forms.c", SIZES("n=37", "val=0"), SIZES("big_only")),
	                 16);
	assert_int_equal(check_file_but("tests/fixtures/branch_forms.c", SIZES("n=3", "val=5"), SIZES("big_only")), 16);
	check_detail("tests/fixtures/branch_forms.c", "flagged_after_traffic", KC_GT_FLAGGED,
	             "branch_forms.c:199:7: data-dependent condition: its branch is counted as always taken");
}

/* two calls in one expression: both counted; writes to a loop's bound: flagged (the two counted are right) */
static void written_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/written_forms.c", SIZES("n=9", "flag=0")), 2);
	assert_int_equal(check_file("tests/fixtures/written_forms.c", SIZES("n=13", "flag=1")), 2);
}

/* conditions on floating-point parameters, at the value the harness passes (1e-05): scale_copy scales, axpby
 * takes its else-branch */
static void scalar_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/scalar_forms.c", SIZES("n=11")), 2);
}

/* a dispatcher on an enum through a header's helpers, and a switch whose cases break: the case taken */
static void dispatch_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/dispatch_forms.c", SIZES("n=9", "a=1", "kind=0")), 3);
	assert_int_equal(check_file("tests/fixtures/dispatch_forms.c", SIZES("n=13", "a=3", "kind=2")), 3);
}

/* loops bounded and indexed by const tables, a local array initialized with {0}: the four kcost counts;
 * nested_tables unrolls only part of its 64^3 iterations, so x's extent is not inferred: not run */
static void table_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file_but("tests/fixtures/table_forms.c", SIZES("n=40"), SIZES("nested_tables")), 4);
	assert_int_equal(check_file_but("tests/fixtures/table_forms.c", SIZES("n=29"), SIZES("nested_tables")), 4);
}

/* a gather (a row of a table at a token id) runs once --extent gives the table's extent; without it, only
 * where its function has the sizes the expression names (embed_rows has no V: not run) */
static void gather_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file_with("tests/fixtures/gather_forms.c", SIZES("T=5", "C=8", "V=3"), SIZES("wte=V*C"),
	                                 SIZES("embed_rows")),
	                 1);
	assert_int_equal(check_file_with("tests/fixtures/gather_forms.c", SIZES("T=5", "C=8", "V=3"),
	                                 SIZES("wte=V*C", "wte=24"), NULL),
	                 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(gelu),           cmocka_unit_test(vecadd),
	    cmocka_unit_test(matmul),         cmocka_unit_test(matmul_tanh),
	    cmocka_unit_test(softmax),        cmocka_unit_test(layernorm),
	    cmocka_unit_test(conv2d),         cmocka_unit_test(jacobi2d),
	    cmocka_unit_test(spmv),           cmocka_unit_test(mlp),
	    cmocka_unit_test(trsv),           cmocka_unit_test(loop_forms),
	    cmocka_unit_test(div_forms),      cmocka_unit_test(cond_forms),
	    cmocka_unit_test(walk_forms),     cmocka_unit_test(branch_forms),
	    cmocka_unit_test(written_forms),  cmocka_unit_test(noreturn_forms),
	    cmocka_unit_test(dispatch_forms), cmocka_unit_test(scalar_forms),
	    cmocka_unit_test(table_forms),    cmocka_unit_test(gather_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

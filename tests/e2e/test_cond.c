/* test_cond.c — conditions on sizes, early returns, switch and equality guards (tests/fixtures/cond_forms.c),
 * through the built binary's report.json: with the sizes' values, each count is that of the branch taken
 * (exact); without them a choice between branches is flagged, never summed as exact; data stays flagged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "run.h"

#define FIXTURE "tests/fixtures/cond_forms.c"

static cJSON *analyze_file(const char *name, const char *file, const char *const *args);

static cJSON *analyze(const char *name, const char *const *args)
{
	return analyze_file(name, FIXTURE, args);
}

static cJSON *analyze_file(const char *name, const char *file, const char *const *args)
{
	const char *out = scratch_dir(name);
	const char *argv[40] = {"--no-run", "--quiet", "-o", out};
	int n = 4;
	for (int i = 0; args[i] && n < 38; i++)
		argv[n++] = args[i];
	argv[n++] = file;
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

static int n_diags(cJSON *f, const char *severity)
{
	int n = 0;
	cJSON *d;
	cJSON_ArrayForEach(d, at(f, "diagnostics"))
	{
		cJSON *s = cJSON_GetObjectItem(d, "severity");
		n += cJSON_IsString(s) && !strcmp(s->valuestring, severity);
	}
	return n;
}

static void exact_at(cJSON *rep, const char *fn, const char *expr, long long value)
{
	cJSON *f = report_function(rep, fn);
	if (!report_exact(f) || n_diags(f, "warning"))
		fail_msg("%s: not exact (%d warnings)", fn, n_diags(f, "warning"));
	assert_string_equal(report_text(f, "flops.expr"), expr);
	assert_int_equal(num(f, "flops.value"), value);
}

/* if (forward), if (!TA && !TB) ... else if (TA && !TB): the branch the flags take, each way */
static void flags_pick_one_branch(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("cond_flags1", "--size", "n=100", "--size", "forward=1", "--size", "m=4", "--size", "k=5",
	                     "--size", "TA=1", "--size", "TB=0");
	exact_at(rep, "flagged_scale", "n", 100);
	exact_at(rep, "matmul_flags", "m*n*(2*k + 1)", 4 * 100 * 11);
	cJSON_Delete(rep);
	rep = ANALYZE("cond_flags0", "--size", "n=100", "--size", "forward=0", "--size", "m=4", "--size", "k=5",
	              "--size", "TA=0", "--size", "TB=0");
	exact_at(rep, "flagged_scale", "2*n", 200);
	exact_at(rep, "matmul_flags", "2*m*n*k", 4000);
	cJSON_Delete(rep);
	/* neither branch of matmul_flags: 0 */
	rep = ANALYZE("cond_flags11", "--size", "n=100", "--size", "m=4", "--size", "k=5", "--size", "TA=1", "--size",
	              "TB=1", "--size", "forward=0");
	exact_at(rep, "matmul_flags", "0", 0);
	cJSON_Delete(rep);
}

/* without values the choice is a warning at the if, and the function is not exact */
static void undecided_branches_are_flagged(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("cond_none", "--function", "^(flagged_scale|matmul_flags|axpy_guarded)$");
	cJSON *f = report_function(rep, "flagged_scale");
	assert_false(report_exact(f));
	assert_non_null(
	    strstr(report_diag(f, 0, "warning", 10, 2), "depends on a condition on sizes that have no values"));
	assert_false(report_exact(report_function(rep, "matmul_flags")));
	/* `if (n <= 0) return;` only says whether the work is done, as a loop's bounds do: exact, assuming it is
	 * (and `if (a == 0.0f) return;` on data is a note: assumed not taken) */
	f = report_function(rep, "axpy_guarded");
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f, "warning"), 0);
	assert_int_equal(n_diags(f, "note"), 1);
	assert_string_equal(report_text(f, "flops.expr"), "2*n");
	cJSON_Delete(rep);
}

/* if (B*T % 8 != 0) { ...; return; } counts that branch or the rest, never both */
static void early_return_on_sizes(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("cond_ret15", "--function", "^tail_by_eight$", "--size", "B=3", "--size", "T=5");
	exact_at(rep, "tail_by_eight", "B*T", 15);
	cJSON_Delete(rep);
	rep = ANALYZE("cond_ret24", "--function", "^tail_by_eight$", "--size", "B=4", "--size", "T=6");
	exact_at(rep, "tail_by_eight", "16*(floor((B*T - 1)/8) + 1)", 48);
	cJSON_Delete(rep);
}

/* a switch on a size-like parameter: its case; two calls with different constants decide each its own */
static void switch_takes_its_case(void **state)
{
	(void)state;
	const char *kinds[] = {"kind=0", "kind=1", "kind=2", "kind=3"};
	const long long flops[] = {0, 200, 200, 300};
	for (int i = 0; i < 4; i++) {
		cJSON *rep = ANALYZE("cond_switch", "--function", "^(activate|two_activations)$", "--size", "n=100",
		                     "--size", kinds[i]);
		exact_at(rep, "activate", i == 0 ? "0" : i < 3 ? "2*n" : "3*n", flops[i]);
		exact_at(rep, "two_activations", "5*n", 500);
		cJSON *f = report_function(rep, "activate");
		/* the footprint is the taken case's too: kind 0 reads and writes x like the others */
		assert_int_equal(num(f, "bytes.min.value"), 800);
		cJSON_Delete(rep);
	}
}

/* a callee guarded on its size, called with n - i - 1: the guard bounds the caller's sum */
static void callee_guards_follow_the_arguments(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("cond_tri", "--function", "^triangle_calls$", "--size", "n=100");
	exact_at(rep, "triangle_calls", "n*(n - 1)/2", 4950);
	cJSON_Delete(rep);
}

/* j != i and i == 0 / i == n - 1 / else: exact pieces of the loop */
static void equality_guards(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("cond_eq", "--function", "^(off_diagonal|boundary_chain)$", "--size", "n=100");
	exact_at(rep, "off_diagonal", "n*(n - 1)", 9900);
	exact_at(rep, "boundary_chain", "2*n - 3", 197);
	cJSON_Delete(rep);
}

/* a switch on data and one that falls through: flagged, and a break of the switch is no loop's */
static void data_switches_stay_flagged(void **state)
{
	(void)state;
	cJSON *rep =
	    ANALYZE("cond_data", "--function", "^(data_switch|falls_through)$", "--size", "n=100", "--size", "kind=0");
	cJSON *f = report_function(rep, "data_switch");
	assert_false(report_exact(f));
	assert_int_equal(n_diags(f, "warning"), 1);
	assert_non_null(strstr(report_diag(f, 0, "warning", 133, 3), "'switch' on data"));
	f = report_function(rep, "falls_through");
	assert_false(report_exact(f));
	assert_non_null(strstr(report_diag(f, 0, "warning", 144, 2), "fall-through"));
	cJSON_Delete(rep);
}

/* int jend = imin(jj + T, n) and int e = n < m ? n : m as bounds: the tile folds, the min is exact */
static void local_min_bounds(void **state)
{
	(void)state;
	cJSON *rep = ANALYZE("cond_min", "--function", "^(tiled_scale|clipped)$", "--size", "n=100", "--size", "m=37");
	exact_at(rep, "tiled_scale", "n", 100);
	/* the FLOPs are exact; the footprint's hull of min(n, m) is the warning kcost gives for any such bound */
	cJSON *f = report_function(rep, "clipped");
	assert_string_equal(report_text(f, "flops.expr"), "m");
	assert_int_equal(num(f, "flops.value"), 37);
	assert_int_equal(n_diags(f, "warning"), 1);
	assert_non_null(strstr(report_diag(f, 0, "warning", 174, 10), "the hull of 'x' takes the smaller"));
	cJSON_Delete(rep);
	rep = ANALYZE("cond_min2", "--function", "^clipped$", "--size", "n=10", "--size", "m=37");
	f = report_function(rep, "clipped");
	assert_string_equal(report_text(f, "flops.expr"), "n");
	assert_int_equal(num(f, "flops.value"), 10);
	cJSON_Delete(rep);
}

/* branches that change no count, NULL tests, compound assignments in a wider type (branch_forms.c) */
static void branches_that_change_no_count(void **state)
{
	(void)state;
	const char *out = scratch_dir("cond_branches");
	const char *argv[] = {"--no-run", "--quiet", "-o", out, "--size", "n=100", "tests/fixtures/branch_forms.c",
	                      NULL};
	struct run r = run_kcost(argv);
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	exact_at(rep, "running_max", "0", 0);
	exact_at(rep, "abs_argmax", "0", 0);
	/* x[0], then x[i] once per iteration: the branch's loads are the condition's */
	assert_int_equal(num(report_function(rep, "running_max"), "bytes.naive.value"), 4 * 100);
	cJSON *f = report_function(rep, "clamp_negative");
	assert_false(report_exact(f));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops"))); /* it stores, but computes nothing */
	assert_string_equal(report_diag(f, 0, "warning", 32, 7),
	                    "data-dependent condition: its branches do no operation; their accesses are counted as "
	                    "always made");
	/* a swap under idx[i] < 0 || x[i] > x[i + 1]: FLOPs 0, exactly; the comparison of the right operand is
	 * counted always (99 at n = 100), flagged, and so are the stores */
	f = report_function(rep, "order_pairs");
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	assert_int_equal(num(f, "flops.value"), 0);
	assert_int_equal(num(f, "comparisons.value"), 99);
	assert_string_equal(report_diag(f, 0, "warning", 65, 7),
	                    "the right operand of '||' is evaluated only where the left one does not decide: its "
	                    "comparisons are counted as always made");
	/* MAX32(-1, MIN32(1, x)): the arms differ in one comparison, both counted (3 per element) */
	f = report_function(rep, "clamp_unit");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_int_equal(num(f, "comparisons.value"), 300);
	assert_string_equal(report_diag(f, 2, "warning", 75, 10),
	                    "data-dependent condition: the comparisons of both arms of the conditional expression are "
	                    "counted (their FLOPs are the same)");
	/* arms of one multiply each: n FLOPs, not 2*n; b is read only where m[i] <= 0: the traffic is flagged */
	f = report_function(rep, "same_arms");
	assert_string_equal(report_text(f, "flops.expr"), "n");
	assert_int_equal(num(f, "flops.by_category.mul"), 100);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_false(report_exact(f));
	/* either branch multiplies y by a constant: n^2, not 2*n^2, exactly (the same elements too) */
	f = report_function(rep, "same_branches");
	assert_string_equal(report_text(f, "flops.expr"), "n^2");
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f, "warning"), 0);
	/* n > 4 && x[i] > 0.5f at n = 100: the comparison always runs, n of them, exactly */
	/* an early return, a break, in functions without FLOPs: FLOPs exact (0); with FLOPs, flagged */
	f = report_function(rep, "find_value");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_string_equal(report_diag(f, 0, "warning", 111, 4),
	                    "early return inside a loop: counted as if the loop ran to completion");
	f = report_function(rep, "first_negative");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	f = report_function(rep, "sum_until_negative");
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	exact_at(rep, "flags_above", "0", 0);
	exact_at(rep, "optional_bias", "n", 100);
	assert_int_equal(num(report_function(rep, "flags_above"), "comparisons.value"), 100);
	/* the note names the assumption; the count is the one with dbias given */
	f = report_function(rep, "bias_grad");
	assert_true(report_exact(f));
	assert_int_equal(n_diags(f, "warning"), 0);
	assert_int_equal(n_diags(f, "note"), 2);
	assert_string_equal(report_text(f, "flops.expr"), "3*n");
	f = report_function(rep, "widen");
	assert_true(report_exact(f));
	assert_int_equal(num(f, "flops.by_precision.double"), 200);
	assert_int_equal(num(f, "flops.by_precision.float"), 100);
	/* TSVC s441's if / else if / else, a multiply and an add in each branch: 2*n FLOPs, exactly (it was 4*n,
	 * flagged); the else-if's comparisons are not counted (flagged); every branch's reads are (b and c: 20*n) */
	f = report_function(rep, "three_way");
	assert_string_equal(report_text(f, "flops.expr"), "2*n");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_int_equal(num(f, "comparisons.value"), 100);
	assert_string_equal(report_text(f, "bytes.min.expr"), "20*n");
	assert_string_equal(report_diag(f, 0, "warning", 151, 12),
	                    "data-dependent condition: its branches do the same operations, counted once, but access "
	                    "different elements: both branches' accesses are counted");
	assert_string_equal(
	    report_diag(f, 1, "warning", 149, 7),
	    "data-dependent condition: its branches do the same floating-point operations, counted once, "
	    "but not the same comparisons or accesses: the then-branch's comparisons and both branches' "
	    "accesses are counted");
	/* four branches, expf and a multiply in each, a store to t in one: n, n calls; t keeps its extent (12*n) */
	f = report_function(rep, "four_way");
	assert_string_equal(report_text(f, "flops.expr"), "n");
	assert_string_equal(report_text(f, "transcendentals.expr"), "n");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	assert_string_equal(report_text(f, "bytes.min.expr"), "12*n");
	/* a constant condition inside one branch: the branch it takes is what is compared (2*n) */
	f = report_function(rep, "constant_inside");
	assert_string_equal(report_text(f, "flops.expr"), "2*n");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	/* an early return in one branch, a callee free of operations only at its own size: flagged */
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(report_function(rep, "return_in_branch"), "exact_flops")));
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(report_function(rep, "callee_sized"), "exact_flops")));
	/* a branch that multiplies once more: flagged, every branch counted */
	f = report_function(rep, "uneven_chain");
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_flops")));
	assert_string_equal(report_text(f, "flops.expr"), "4*n");
	cJSON_Delete(rep);
}

/* darknet's activate: a switch on an enum whose cases return a header helper's value, then `return 0`: the case
 * the enum's value takes, through the helper; a flagged helper is reported (from its header) only when the case
 * taken calls it. Cases that break run what follows the switch, one that returns does not. */
static void dispatchers_take_their_case(void **state)
{
	(void)state;
	static const char *const acts[] = {"a=0", "a=1", "a=3"}, *const kinds[] = {"kind=0", "kind=1", "kind=2"};
	static const char *const exprs[] = {"0", "2*n", "n"}, *const shifts[] = {"2*n", "0", "n"};
	static const long long trans[] = {0, 10, 0};
	for (int i = 0; i < 3; i++) {
		cJSON *rep =
		    analyze_file("cond_dispatch", "tests/fixtures/dispatch_forms.c",
		                 (const char *const[]){"--size", "n=10", "--size", acts[i], "--size", kinds[i], NULL});
		exact_at(rep, "activate_array", exprs[i], i == 0 ? 0 : i == 1 ? 20 : 10);
		assert_int_equal(num(report_function(rep, "activate_array"), "transcendentals.value"), trans[i]);
		exact_at(rep, "scale_then_shift", shifts[i], i == 0 ? 20 : i == 1 ? 0 : 10);
		assert_int_equal(cJSON_GetArraySize(at(rep, "functions")), 3); /* no helper of the header */
		cJSON_Delete(rep);
	}
	cJSON *rep = analyze_file("cond_dispatch_leaky", "tests/fixtures/dispatch_forms.c",
	                          (const char *const[]){"--size", "n=10", "--size", "a=2", "--size", "kind=0", NULL});
	cJSON *f = report_function(rep, "activate");
	assert_false(report_exact(f));
	assert_string_equal(report_diag(f, 0, "warning", 16, 10),
	                    "'act_leaky' is not counted exactly (see its diagnostics)");
	cJSON *h = report_function(rep, "act_leaky");
	assert_string_equal(report_text(h, "file"), "tests/fixtures/dispatch_forms.h");
	assert_non_null(strstr(report_diag(h, 0, "warning", 18, 9), "data-dependent condition"));
	cJSON_Delete(rep);
}

/* a function defined elsewhere, called once: a warning (it was a silent 0); floor is no operation, isnan one
 * comparison, memset none */
static void calls_without_bodies(void **state)
{
	(void)state;
	cJSON *rep = analyze_file("cond_calls", "tests/fixtures/call_forms.c",
	                          (const char *const[]){"--size", "n=10", "--size", "width=4", NULL});
	cJSON *f = report_function(rep, "scaled_norm");
	assert_false(report_exact(f));
	assert_string_equal(report_diag(f, 0, "warning", 11, 16),
	                    "call to unknown function 'external_norm' is not counted");
	exact_at(rep, "floors", "n", 10);
	exact_at(rep, "parse_values", "2*n", 20); /* atoi, strtol, drand48: no operation; two adds */
	f = report_function(rep, "floors");
	assert_string_equal(report_text(f, "comparisons.expr"), "n");
	assert_int_equal(num(f, "flops.by_category.mul"), 10);
	/* a callee without operations at a row computed with / and %: operation counts exact (0), traffic not */
	f = report_function(rep, "gather_pixels");
	assert_false(report_exact(f));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops")));
	assert_string_equal(
	    report_diag(f, 0, "warning", 42, 29),
	    "size argument 'row' is not an affine expression of the sizes: the callee does no operation, "
	    "its traffic is not counted");
	f = report_function(rep, "scatter_pixels"); /* its callee adds */
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(f, "exact_ops")));
	assert_string_equal(report_diag(f, 0, "warning", 48, 24),
	                    "size argument 'row' is not an affine expression of the sizes");
	cJSON_Delete(rep);
}

/* Diagnostic i of f is the note at line:col for a call of `callee`, which does not return. */
static void assert_noreturn_note(cJSON *f, int i, const char *callee, int line, int col)
{
	char want[200];
	snprintf(want, sizeof want,
	         "call to '%s', which does not return: counted as not made (the counts are those of the kernel's "
	         "calls that return)",
	         callee);
	assert_string_equal(report_diag(f, i, "note", line, col), want);
}

/* exit, abort, _Noreturn, __attribute__((noreturn)) and <stdnoreturn.h>'s noreturn: a call of the kernel that
 * returns makes none of them, so they cost nothing in it: exact, with a note at each (TSVC s481's exit inside
 * its loop was exact and silent; a helper declared noreturn and defined nowhere was "unknown"); a failed
 * assertion's call gets no note; a multiply before the exit, on data, stays flagged */
static void calls_that_do_not_return(void **state)
{
	(void)state;
	cJSON *rep = analyze_file("cond_noreturn", "tests/fixtures/noreturn_forms.c",
	                          (const char *const[]){"--size", "n=10", "-I", "annotations", NULL});
	exact_at(rep, "exit_on_negative", "2*n", 20);
	cJSON *f = report_function(rep, "exit_on_negative");
	assert_int_equal(n_diags(f, "note"), 1);
	assert_noreturn_note(f, 0, "exit", 22, 4);
	exact_at(rep, "abort_on_size", "n", 10);
	assert_noreturn_note(report_function(rep, "abort_on_size"), 0, "abort", 30, 3);
	exact_at(rep, "fatal_on_nan", "n", 10);
	f = report_function(rep, "fatal_on_nan");
	assert_int_equal(n_diags(f, "note"), 3);
	assert_noreturn_note(f, 0, "fatal", 40, 4);
	assert_noreturn_note(f, 1, "die", 42, 4);
	assert_noreturn_note(f, 2, "bail", 44, 4);
	exact_at(rep, "stop_on_inf", "2*n", 20);
	assert_noreturn_note(report_function(rep, "stop_on_inf"), 0, "stop_elsewhere", 53, 4);
	exact_at(rep, "asserted", "n", 10);
	assert_int_equal(n_diags(report_function(rep, "asserted"), "note"), 0);
	f = report_function(rep, "work_then_exit");
	assert_false(report_exact(f));
	assert_string_equal(report_diag(f, 1, "warning", 71, 7),
	                    "data-dependent condition: its branch is counted as always taken");
	exact_at(rep, "exit_when_small", "n", 10);
	assert_null(find_function(rep, "fatal")); /* KCOST_SKIP */
	cJSON_Delete(rep);
}

/* alpha == 0.0, alpha == 1, beta != 0.0 && alpha > 0.5: decided at the value the run passes (1e-05 unless
 * --scalar gives one), a note naming it; a data-dependent test in a branch not taken is a note, in one taken a
 * warning */
static void conditions_on_floating_parameters(void **state)
{
	(void)state;
	static const char *const alphas[] = {NULL, "alpha=0", "alpha=1", "alpha=2"};
	static const char *const copy_flops[] = {"n", "0", "0", "n"}, *const axpby_flops[] = {"n", "n", "3*n", "3*n"};
	for (int i = 0; i < 4; i++) {
		const char *args[] = {"--size",  "n=10", "--scalar", "beta=3", alphas[i] ? "--scalar" : NULL,
		                      alphas[i], NULL};
		cJSON *rep = analyze_file("cond_scalars", "tests/fixtures/scalar_forms.c", args);
		cJSON *f = report_function(rep, "scale_copy");
		assert_string_equal(report_text(f, "flops.expr"), copy_flops[i]);
		assert_int_equal(report_exact(f), i != 1); /* alpha = 0 takes the branch with the test on data */
		static const char *const at[] = {"alpha = 1e-05,", "alpha = 0,", "alpha = 1,", "alpha = 2,"};
		const char *note = report_diag(f, 0, "note", 7, 6);
		assert_non_null(strstr(note, "a condition on the floating-point parameter 'alpha' is decided at "));
		assert_non_null(strstr(note, at[i]));
		assert_non_null(strstr(note, "the value the run passes (another: --scalar alpha=VALUE)"));
		assert_non_null(
		    strstr(report_diag(f, 1, i == 1 ? "warning" : "note", 9, 8), "data-dependent condition"));
		f = report_function(rep, "axpby");
		exact_at(rep, "axpby", axpby_flops[i], i < 2 ? 10 : 30);
		assert_string_equal(report_text(f, "comparisons.expr"), "2");
		cJSON_Delete(rep);
	}
}

/* A callee of more pieces than a caller takes (two flags' chain of negated equalities): added at its own sizes,
 * exact where the call passes its sizes' values (gemm -> gemm_cpu), flagged where it does not */
static void callees_of_many_pieces(void **state)
{
	(void)state;
	cJSON *rep = analyze_file(
	    "cond_pieces", "tests/fixtures/call_forms.c",
	    (const char *const[]){"--function", "^pick_", "--size", "TA=0", "--size", "TB=0", "--size", "n=10", NULL});
	exact_at(rep, "pick_by_flags", "2*n", 20);
	exact_at(rep, "pick_through", "2*n", 20);
	cJSON *f = report_function(rep, "pick_other");
	assert_false(report_exact(f));
	assert_string_equal(
	    report_diag(f, 0, "warning", 82, 2),
	    "the count of 'pick_by_flags' has more than 64 pieces: this call adds it as at its own sizes");
	cJSON_Delete(rep);
}

/* Loops over const tables (table_forms.c): each entry a constant, the loop lowered iteration by iteration */
static void loops_over_const_tables(void **state)
{
	(void)state;
	cJSON *rep =
	    analyze_file("cond_tables", "tests/fixtures/table_forms.c", (const char *const[]){"--size", "n=40", NULL});
	exact_at(rep, "band_energy", "58", 58);
	cJSON *f = report_function(rep, "band_energy");
	/* x[0 .. 28] read, e[0 .. 7] read and written, and the table's 9 entries read */
	assert_int_equal(num(f, "bytes.min.value"), 4 * 29 + 2 * 4 * 8 + 4 * 9);
	exact_at(rep, "after_bands", "n - 29", 11);
	exact_at(rep, "local_steps", "9", 9);
	/* float acc[8] = {0}: 8 elements (the initializer was taken for a second dimension of unknown size) */
	exact_at(rep, "zeroed_sums", "16", 16);
	cJSON *acc = NULL, *b;
	cJSON_ArrayForEach(
	    b, at(report_function(rep, "zeroed_sums"), "buffers")) if (!strcmp(report_text(b, "name"), "acc")) acc = b;
	assert_non_null(acc);
	assert_int_equal(num(acc, "extent.value"), 8);
	/* a table that is not const, one with designators: not read, flagged */
	assert_false(report_exact(report_function(rep, "writable_widths")));
	assert_false(report_exact(report_function(rep, "designated_widths")));
	/* 64^3 iterations over tables: 1024 unrolled at most, the rest loops; the FLOPs exact, the traffic flagged */
	cJSON *nt = report_function(rep, "nested_tables");
	assert_int_equal(num(nt, "flops.value"), 64 * 64 * 64);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(nt, "exact_ops")));
	assert_false(report_exact(nt));
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(loops_over_const_tables),
	    cmocka_unit_test(callees_of_many_pieces),
	    cmocka_unit_test(flags_pick_one_branch),
	    cmocka_unit_test(undecided_branches_are_flagged),
	    cmocka_unit_test(early_return_on_sizes),
	    cmocka_unit_test(switch_takes_its_case),
	    cmocka_unit_test(callee_guards_follow_the_arguments),
	    cmocka_unit_test(equality_guards),
	    cmocka_unit_test(data_switches_stay_flagged),
	    cmocka_unit_test(local_min_bounds),
	    cmocka_unit_test(dispatchers_take_their_case),
	    cmocka_unit_test(calls_without_bodies),
	    cmocka_unit_test(calls_that_do_not_return),
	    cmocka_unit_test(conditions_on_floating_parameters),
	    cmocka_unit_test(branches_that_change_no_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

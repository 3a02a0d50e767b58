/* test_compare.c — the verdict of two sets of timing samples (model/compare.h). The expected figures were
 * computed independently (a Python transcription of compare.h's definitions: Hodges–Lehmann interval on the
 * log times, Mann–Whitney p with tie and continuity corrections). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>

#include "compare.h"

static const double base[8] = {1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.01};

static void twice_the_time_is_slower(void **state)
{
	(void)state;
	double head[8];
	for (int i = 0; i < 8; i++)
		head[i] = 2 * base[i];
	struct kc_comparison c;
	assert_int_equal(kc_compare(base, 8, head, 8, 0.05, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_SLOWER);
	assert_true(fabs(c.ratio - 2.0) < 1e-12);
	assert_true(fabs(c.ci_low - 1.9607843137254901) < 1e-12);
	assert_true(fabs(c.ci_high - 2.04) < 1e-12);
	assert_true(fabs(c.p_value - 0.000906856750992351) < 1e-12);
	assert_int_equal(c.n_base, 8);
	assert_int_equal(c.n_head, 8);
	/* the mirror image: half the time is "faster", with the reciprocal interval */
	assert_int_equal(kc_compare(head, 8, base, 8, 0.05, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_FASTER);
	assert_true(fabs(c.ratio - 0.5) < 1e-12);
	assert_true(fabs(c.ci_high - 1 / 1.9607843137254901) < 1e-12);
	assert_string_equal(kc_verdict_name(c.verdict), "faster");
}

static void the_same_spread_is_unchanged(void **state)
{
	(void)state;
	const double head[8] = {1.01, 0.99, 1.00, 1.02, 1.00, 0.98, 1.03, 1.01};
	struct kc_comparison c;
	assert_int_equal(kc_compare(base, 8, head, 8, 0.05, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_UNCHANGED);
	assert_true(fabs(c.ratio - 1.0) < 1e-12);
	assert_true(fabs(c.ci_low - 0.9803921568627451) < 1e-12);
	assert_true(fabs(c.ci_high - 1.02) < 1e-12);
	assert_true(c.p_value == 1);
	assert_string_equal(kc_verdict_name(c.verdict), "unchanged");
	/* all equal: no spread at all */
	const double ones[4] = {1, 1, 1, 1};
	assert_int_equal(kc_compare(ones, 4, ones, 4, 0.05, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_UNCHANGED);
	assert_true(c.ci_low == 1 && c.ci_high == 1 && c.p_value == 1);
	/* three a side: too few to call anything unchanged */
	assert_int_equal(kc_compare(ones, 3, ones, 3, 0.05, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_INCONCLUSIVE);
	/* 1,000 a side: thinned to 200 each, in order */
	static double many[1000], many2[1000];
	for (int i = 0; i < 1000; i++)
		many[i] = 1 + 0.001 * (i % 7), many2[i] = 2 * many[i];
	assert_int_equal(kc_compare(many, 1000, many2, 1000, 0.05, &c), 0);
	assert_int_equal(c.n_base, 200);
	assert_int_equal(c.n_head, 200);
	assert_int_equal(c.verdict, KC_VERDICT_SLOWER);
	assert_true(fabs(c.ratio - 2) < 1e-9);
}

static void ten_percent_against_the_threshold(void **state)
{
	(void)state;
	const double head[6] = {1.10, 1.12, 1.09, 1.11, 1.13, 1.08};
	struct kc_comparison c;
	assert_int_equal(kc_compare(base, 8, head, 6, 0.05, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_SLOWER);
	assert_true(fabs(c.ratio - 1.099502487562189) < 1e-12);
	assert_true(fabs(c.ci_low - 1.0776699029126213) < 1e-12);
	assert_true(fabs(c.ci_high - 1.1224489795918369) < 1e-12);
	assert_true(fabs(c.p_value - 0.0023616468016921786) < 1e-12);
	/* beyond 20% only: the interval lies within [1/1.2, 1.2] */
	assert_int_equal(kc_compare(base, 8, head, 6, 0.20, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_UNCHANGED);
	/* a threshold of 10%: the interval straddles 1.1 — neither shown nor ruled out */
	assert_int_equal(kc_compare(base, 8, head, 6, 0.10, &c), 0);
	assert_int_equal(c.verdict, KC_VERDICT_INCONCLUSIVE);
	assert_string_equal(kc_verdict_name(c.verdict), "inconclusive");
}

static void a_wide_interval_needs_p(void **state)
{
	(void)state;
	/* low end beyond the threshold but p not below 0.01: not "slower" */
	assert_int_equal(kc_compare_verdict(1.2, 1.5, 0.02, 0.05), KC_VERDICT_INCONCLUSIVE);
	assert_int_equal(kc_compare_verdict(1.2, 1.5, 0.009, 0.05), KC_VERDICT_SLOWER);
	assert_int_equal(kc_compare_verdict(0.5, 0.9, 0.009, 0.05), KC_VERDICT_FASTER);
	assert_int_equal(kc_compare_verdict(0.96, 1.04, 0.5, 0.05), KC_VERDICT_UNCHANGED);
	assert_int_equal(kc_compare_verdict(0.9, 1.04, 0.5, 0.05), KC_VERDICT_INCONCLUSIVE);
}

static void bad_samples_are_refused(void **state)
{
	(void)state;
	struct kc_comparison c = {.ratio = 7};
	const double bad[3] = {1, -1, 1}, nan3[3] = {1, NAN, 1}, inf3[3] = {1, INFINITY, 1}, one[1] = {1};
	assert_int_equal(kc_compare(base, 8, bad, 3, 0.05, &c), -1);
	assert_int_equal(kc_compare(nan3, 3, base, 8, 0.05, &c), -1);
	assert_int_equal(kc_compare(base, 8, inf3, 3, 0.05, &c), -1);
	assert_int_equal(kc_compare(base, 8, one, 1, 0.05, &c), -1);
	assert_int_equal(kc_compare(base, 8, base, 8, NAN, &c), -1);
	assert_true(c.ratio == 7); /* untouched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(twice_the_time_is_slower),          cmocka_unit_test(the_same_spread_is_unchanged),
	    cmocka_unit_test(ten_percent_against_the_threshold), cmocka_unit_test(a_wide_interval_needs_p),
	    cmocka_unit_test(bad_samples_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_harness_extent.c — the harness plan of extents inferred from accesses (runner/harness.c): allocated from
 * the lowest index accessed with the parameter pointing into the allocation, from index 0 when that index is
 * positive, and a buffer whose accesses cannot be bounded not run, with the access and the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"

/* smooth(int n, const float *in, float *out) at n = 100: in has the inferred extent `extent` from index
 * `lowest` (NULL: from 0), out has n elements. */
static struct kc_function *smooth(struct kc_arena *a, struct kc_poly *extent, struct kc_poly *lowest)
{
	struct kc_function *f = KC_NEW(a, struct kc_function);
	f->name = "smooth";
	f->loc = (struct kc_loc){"k.c", 3, 6};
	f->syms.n = 1;
	f->syms.syms[0] = (struct kc_sym){.name = "n", .has_value = 1, .value = 100};
	f->syms.names[0] = "n";
	f->n_size_params = 1;
	f->buffers = KC_NEW_N(a, struct kc_buffer, 2);
	f->n_buffers = 2;
	f->buffers[0] = (struct kc_buffer){.name = "in",
	                                   .elem_type = "float",
	                                   .elem_size = 4,
	                                   .elem_class = KC_ELEM_FLOATING,
	                                   .extent = extent,
	                                   .is_param = 1,
	                                   .role = KC_ROLE_INPUT,
	                                   .extent_origin = extent ? KC_EXTENT_ACCESSES : KC_EXTENT_NONE,
	                                   .lowest = lowest,
	                                   .first_line = 5,
	                                   .last_line = 5};
	f->buffers[1] = (struct kc_buffer){.name = "out",
	                                   .elem_type = "float",
	                                   .elem_size = 4,
	                                   .elem_class = KC_ELEM_FLOATING,
	                                   .extent = kc_poly_sym(a, 0),
	                                   .is_param = 1,
	                                   .role = KC_ROLE_OUTPUT,
	                                   .extent_origin = KC_EXTENT_ACCESSES,
	                                   .first_line = 5,
	                                   .last_line = 5};
	f->params = KC_NEW_N(a, struct kc_param, 3);
	f->n_params = 3;
	f->params[0] = (struct kc_param){"n", "int", KC_PARAM_SIZE, 0, -1, 0, 0, 0};
	f->params[1] = (struct kc_param){"in", "const float *", KC_PARAM_BUFFER, -1, 0, 0, 0, 0};
	f->params[2] = (struct kc_param){"out", "float *", KC_PARAM_BUFFER, -1, 1, 0, 0, 0};
	return f;
}

/* n + c */
static struct kc_poly *n_plus(struct kc_arena *a, long long c)
{
	struct kc_poly *p;
	assert_int_equal(kc_poly_add(a, kc_poly_sym(a, 0), kc_poly_const(a, c, 1), &p), 0);
	return p;
}

static void below_zero_points_into_the_allocation(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	/* in[i - 1] .. in[i + 1] for i < n: n + 2 elements from index -1; element 0 starts a 64-byte line, so 16
	 * floats go before it, not 1: 117 in all */
	struct kc_harness_plan p;
	kc_harness_plan(&a, smooth(&a, n_plus(&a, 2), kc_poly_const(&a, -1, 1)), NULL, &p);
	assert_null(p.error);
	assert_int_equal(p.n_buffers, 2);
	assert_true(p.buffers[0].count == 117 && p.buffers[1].count == 100);
	assert_true(p.bytes == 868);
	assert_string_equal(p.args[1], "(void *)((char *)kcost_b[0] + 64LL)");
	assert_string_equal(p.args[2], "kcost_b[1]");
	kc_arena_release(&a);
}

static void positive_lowest_allocates_from_zero(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	/* in[i + 3] for i < n, when kcost could not prove the lowest index non-negative: n elements from 3, so the
	 * allocation from index 0 holds n + 3 */
	struct kc_harness_plan p;
	kc_harness_plan(&a, smooth(&a, kc_poly_sym(&a, 0), kc_poly_const(&a, 3, 1)), NULL, &p);
	assert_null(p.error);
	assert_true(p.buffers[0].count == 103);
	assert_string_equal(p.args[1], "kcost_b[0]");
	kc_arena_release(&a);
}

static void unbounded_access_is_named(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_function *f = smooth(&a, NULL, NULL);
	f->buffers[0].unbounded_at = (struct kc_loc){"k.c", 7, 24};
	f->buffers[0].unbounded_why = "its index is data-dependent";
	struct kc_harness_plan p;
	kc_harness_plan(&a, f, NULL, &p);
	assert_string_equal(p.error,
	                    "not run: extent of in cannot be inferred from its accesses: k.c:7:24: its index is "
	                    "data-dependent (annotate KCOST_EXTENT)");
	/* without a recorded access, the message is the one for an unknown extent */
	f->buffers[0].unbounded_at.line = 0;
	kc_harness_plan(&a, f, NULL, &p);
	assert_string_equal(p.error, "not run: extent of in is unknown (annotate KCOST_EXTENT)");
	kc_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(below_zero_points_into_the_allocation),
	    cmocka_unit_test(positive_lowest_allocates_from_zero),
	    cmocka_unit_test(unbounded_access_is_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_mutants.c — what the mutation run (scripts/mutants) found, each as a fixture tests/fixtures/mutant_*.c
 * through the built binary: the diagnostic kcost gives, its place, and what the report says of the counts. */
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

/* A parse error inside a kernel: its counts are of what clang's recovery kept (here nothing: 0 FLOPs), so it is
 * not exact and says why at the function; the next kernel is unaffected. */
static void parse_error_inside_a_kernel_makes_it_inexact(void **state)
{
	(void)state;
	const char *out = scratch_dir("mutant_parse_error");
	struct run r = RUN("--no-run", "--quiet", "-o", out, "tests/fixtures/mutant_parse_error.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "tests/fixtures/mutant_parse_error.c:10:20: error: expected ']'\n"));
	assert_non_null(strstr(r.err,
	                       "tests/fixtures/mutant_parse_error.c:7:6: warning: not counted exactly: the parse "
	                       "error at line 10 is inside 'vecadd', whose counts are of what the parser "
	                       "recovered\n"));
	/* one warning only: the good kernel's lines hold no error */
	assert_null(strstr(r.err, "inside 'vecadd_ok'"));
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *bad = report_function(rep, "vecadd"), *good = report_function(rep, "vecadd_ok");
	assert_false(report_exact(bad));
	assert_true(report_exact(good));
	assert_string_equal(report_text(good, "flops.expr"), "n");
	assert_string_equal(report_text(good, "bytes.min.expr"), "12*n");
	cJSON_Delete(rep);
	run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parse_error_inside_a_kernel_makes_it_inexact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_graphs.c — dataflow graphs that Graphviz itself has failed on, rendered by the built binary (issue #11).
 * Under the ASan build of CI a use-after-free or double free inside Graphviz aborts kcost, which this sees as a
 * non-zero status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static int count_of(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* Four passes reading and writing the same buffers, the last not fusable with the third: Graphviz 2.42 freed a
 * rank array twice when that pair's note was a labelled edge. The graph is written and the note is in it. */
static void four_pass_not_fusable_note(void **state)
{
	(void)state;
	const char *out = scratch_dir("graphs_four_pass");
	struct run r = run_kcost(
	    (const char *const[]){"--no-run", "--quiet", "-o", out, "tests/fixtures/graph_four_pass.c", NULL});
	if (r.status != 0)
		fail_msg("kcost exited with %d:\n%s", r.status, r.err);
	run_release(&r);
	char path[4200];
	snprintf(path, sizeof path, "%s/graphs/four_pass.svg", out);
	char *svg = slurp(path);
	assert_non_null(svg);
	assert_int_equal(count_of(svg, ">not fusable (space):</text>"), 1);
	assert_non_null(strstr(svg, ">different iteration spaces</text>"));
	free(svg);
	snprintf(path, sizeof path, "%s/graphs/four_pass.dot", out);
	char *dot = slurp(path);
	assert_non_null(dot);
	assert_int_equal(count_of(dot, "class=\"kc-not-fusable\""), 3); /* the note and its two edges */
	free(dot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(four_pass_not_fusable_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_dataflow.c — the dataflow graphs through the built binary: the structure of report.json's
 * functions[].dataflow and of the rendered graphs/ files, for the samples the issue names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"

static char out[4200];
static cJSON *rep;

static int setup(void **state)
{
	(void)state;
	snprintf(out, sizeof out, "%s", scratch_dir("dataflow"));
	struct run r =
	    run_kcost((const char *const[]){"--no-run", "--quiet", "-o", out, "samples/gelu.c", "samples/softmax.c",
	                                    "samples/jacobi2d.c", "samples/mlp.c", NULL});
	int ok = r.status == 0;
	run_release(&r);
	rep = load_report(out);
	return ok && rep ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	cJSON_Delete(rep);
	return 0;
}

static cJSON *df(const char *name)
{
	cJSON *f = find_function(rep, name);
	if (!f)
		fail_msg("%s missing", name);
	return at(f, "dataflow");
}

static int size(cJSON *a)
{
	return cJSON_GetArraySize(a);
}

static void gelu_unfused_fuses_into_one_pass(void **state)
{
	(void)state;
	cJSON *d = df("gelu_unfused");
	assert_int_equal(size(at(d, "passes")), 8);
	assert_int_equal(size(at(d, "intermediates")), 7);
	for (int i = 0; i < 7; i++) {
		char name[4] = {'t', (char)('1' + i), 0};
		assert_string_equal(cJSON_GetArrayItem(at(d, "intermediates"), i)->valuestring, name);
	}
	assert_int_equal(size(at(d, "fusion_groups")), 1);
	cJSON *g = cJSON_GetArrayItem(at(d, "fusion_groups"), 0);
	assert_int_equal(size(at(g, "passes")), 8);
	assert_int_equal(size(at(g, "removes")), 7);
	assert_string_equal(at(g, "bytes_before.expr")->valuestring, "72*n");
	assert_string_equal(at(g, "bytes_after.expr")->valuestring, "8*n");
	assert_float_equal(at(g, "intensity_before")->valuedouble, 8.0 / 72.0, 1e-12);
	assert_float_equal(at(g, "intensity_after")->valuedouble, 1.0, 1e-12);
	assert_int_equal(size(at(d, "not_fusable")), 0);
	cJSON *fused = df("gelu_fused");
	assert_int_equal(size(at(fused, "passes")), 1);
	assert_int_equal(size(at(fused, "intermediates")), 0);
}

static void softmax_reductions_block_fusion(void **state)
{
	(void)state;
	cJSON *three = df("softmax_three_pass"), *online = df("softmax_online");
	assert_int_equal(size(at(three, "passes")), 3);
	assert_non_null(at(three, "in_loop.lines"));
	assert_int_equal(size(at(three, "not_fusable")), 2);
	for (int i = 0; i < 2; i++) {
		cJSON *e = cJSON_GetArrayItem(at(three, "not_fusable"), i);
		assert_string_equal(at(e, "kind")->valuestring, "reduction");
		assert_non_null(strstr(at(e, "reason")->valuestring, "reduction in between"));
	}
	assert_non_null(strstr(at(cJSON_GetArrayItem(at(three, "not_fusable"), 0), "reason")->valuestring, "'m'"));
	assert_int_equal(size(at(three, "fusion_groups")), 0);
	/* the online form: fewer passes and fewer bytes */
	assert_int_equal(size(at(online, "passes")), 2);
	assert_string_equal(at(three, "bytes_before.expr")->valuestring, "20*rows*cols");
	assert_string_equal(at(online, "bytes_before.expr")->valuestring, "12*rows*cols");
}

static void jacobi_sweeps_need_skewing(void **state)
{
	(void)state;
	cJSON *d = df("jacobi2d");
	assert_int_equal(size(at(d, "passes")), 2);
	cJSON *e = cJSON_GetArrayItem(at(d, "not_fusable"), 0);
	assert_string_equal(at(e, "kind")->valuestring, "shifted");
	assert_non_null(strstr(at(e, "reason")->valuestring, "not fusable without skewing"));
	assert_non_null(strstr(at(e, "reason")->valuestring, "B[i][j - 1]"));
}

static void mlp_forward_fuses_bias_and_gelu_and_the_epilogue(void **state)
{
	(void)state;
	cJSON *d = df("mlp_forward");
	assert_int_equal(size(at(d, "passes")), 3);
	assert_string_equal(at(cJSON_GetArrayItem(at(d, "passes"), 0), "callee")->valuestring, "mlp_matmul");
	assert_int_equal(size(at(d, "intermediates")), 1);
	assert_string_equal(cJSON_GetArrayItem(at(d, "intermediates"), 0)->valuestring, "H");
	cJSON *e0 = cJSON_GetArrayItem(at(d, "edges"), 0), *e1 = cJSON_GetArrayItem(at(d, "edges"), 1);
	assert_string_equal(at(e0, "kind")->valuestring, "epilogue");
	assert_non_null(strstr(at(e0, "reason")->valuestring, "inner loop (a reduction) stays inside"));
	assert_string_equal(at(e1, "kind")->valuestring, "elementwise");
	cJSON *g = cJSON_GetArrayItem(at(d, "fusion_groups"), 0);
	assert_string_equal(cJSON_GetArrayItem(at(g, "removes"), 0)->valuestring, "H");
	assert_string_equal(at(g, "bytes_after.expr")->valuestring, "4*(m*k + m*n + k*n + n)");
}

static void graphs_are_written_as_svg_and_dot(void **state)
{
	(void)state;
	char path[8400];
	assert_string_equal(at(df("gelu_unfused"), "svg")->valuestring, "graphs/gelu_unfused.svg");
	snprintf(path, sizeof path, "%s/graphs/gelu_unfused.dot", out);
	char *dot = slurp(path);
	assert_non_null(dot);
	/* 8 pass nodes, 7 removed intermediates, one cluster */
	int passes = 0, removed = 0;
	for (const char *p = dot; (p = strstr(p, "class=\"kc-pass\"")); p++)
		passes++;
	for (const char *p = dot; (p = strstr(p, "kc-removed")); p++)
		removed++;
	assert_int_equal(passes, 8);
	assert_int_equal(removed, 7);
	assert_non_null(strstr(dot, "subgraph cluster_group"));
	free(dot);
	snprintf(path, sizeof path, "%s/graphs/jacobi2d.svg", out);
	char *svg = slurp(path);
	assert_non_null(svg);
	assert_non_null(strstr(svg, "not fusable"));
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(gelu_unfused_fuses_into_one_pass),
	    cmocka_unit_test(softmax_reductions_block_fusion),
	    cmocka_unit_test(jacobi_sweeps_need_skewing),
	    cmocka_unit_test(mlp_forward_fuses_bias_and_gelu_and_the_epilogue),
	    cmocka_unit_test(graphs_are_written_as_svg_and_dot),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

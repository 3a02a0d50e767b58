/* test_threads.c — the analyzer's counter thread changes nothing: every sample, the fixtures and a file of
 * forward and backward calls give the same report.json document with one thread as with two, syntax errors
 * and an empty file included. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "analyzer.h"
#include "report.h"

/* Callers before and after their callees (a forward call analyzes the callee first, from inside the
 * caller), a callee called twice, an unrolled loop (derived floor symbols), an inexact loop (a warning
 * from the counter thread) and a helper without loops (skipped). */
static const char calls_text[] =
    "#include <kcost.h>\n"
    "void scale(int n, float a, float x[n]);\n"
    "void twice(int n, float x[n]) { scale(n, 2.0f, x); scale(n, 0.5f, x); }\n"
    "void scale(int n, float a, float x[n]) { for (int i = 0; i < n; i++) x[i] *= a; }\n"
    "void unrolled(int n, const float *x, float *y)\n"
    "{\n"
    "\tint i;\n"
    "\tfor (i = 0; i + 4 <= n; i += 4) { y[i] = x[i]; y[i+1] = x[i+1]; y[i+2] = x[i+2]; y[i+3] = x[i+3] * x[i]; }\n"
    "\tfor (; i < n; i++) y[i] = x[i] * 2.0f;\n"
    "}\n"
    "void both(int n, float *x, float *y) { unrolled(n, x, y); twice(n, y); }\n"
    "void upto(int n, const int *len, float *x) { for (int i = 0; i < len[0]; i++) x[i] += 1.0f; }\n"
    "static float sq(float v) { return v * v; }\n"
    "void tri(int n, float a[n][n]) { for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) a[i][j] = sq(a[j][i]); "
    "}\n";

static char *document(const char *const *files, int n_files, int threads)
{
	struct kc_analysis an = {0};
	struct kc_analyze_opts o = {.include_dir = KCOST_SOURCE_DIR "/annotations", .threads = threads};
	assert_int_equal(kc_analyze(&an, files, n_files, &o), 0);
	struct kc_report_opts ro = {.version = "test", .no_run = 1, .created = "2025-01-31T12:00:00Z"};
	cJSON *doc = kc_report_json(&an, NULL, &ro);
	assert_non_null(doc);
	char *text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	kc_analysis_release(&an);
	return text;
}

static void test_one_thread_or_two(void **state)
{
	(void)state;
	char dir[] = "/tmp/kc_test_threads_XXXXXX", calls[64];
	assert_non_null(mkdtemp(dir));
	snprintf(calls, sizeof calls, "%s/calls.c", dir);
	FILE *f = fopen(calls, "w");
	assert_non_null(f);
	fputs(calls_text, f);
	fclose(f);
	static const char *const names[] = {"samples/conv2d.c",
	                                    "samples/gelu.c",
	                                    "samples/jacobi2d.c",
	                                    "samples/layernorm.c",
	                                    "samples/matmul.c",
	                                    "samples/matmul_tanh.c",
	                                    "samples/mlp.c",
	                                    "samples/softmax.c",
	                                    "samples/spmv.c",
	                                    "samples/trsv.c",
	                                    "samples/vecadd.c",
	                                    "tests/fixtures/counting.c",
	                                    "tests/fixtures/soa.c",
	                                    "tests/fixtures/overflow.c",
	                                    "tests/fixtures/unsupported.c",
	                                    "tests/fixtures/syntax_error.c",
	                                    "tests/fixtures/empty.c"};
	enum { N = sizeof names / sizeof names[0] };
	char paths[N][256];
	const char *files[N + 1];
	for (int i = 0; i < N; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", KCOST_SOURCE_DIR, names[i]);
		files[i] = paths[i];
	}
	files[N] = calls;
	char *one = document(files, N + 1, 1), *two = document(files, N + 1, 2);
	assert_string_equal(one, two);
	/* the document is not trivially equal: the calls file was analyzed, callers included */
	assert_non_null(strstr(one, "\"name\":\"both\""));
	assert_non_null(strstr(one, "\"name\":\"twice\""));
	assert_non_null(strstr(one, "floor("));
	free(one);
	free(two);
	remove(calls);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_one_thread_or_two)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

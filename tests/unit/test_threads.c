/* test_threads.c — the analyzer's threads change nothing: every sample, the fixtures and a file of forward and
 * backward calls give the same report.json document with one thread as with two (a counter thread, or a file
 * parsed in parts: analyzer/split.h), syntax errors and an empty file included; a split the parse shows wrong
 * falls back to a whole parse. */
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

static char *document_parts(const char *const *files, int n_files, int threads, int *parts)
{
	struct kc_analysis an = {0};
	struct kc_analyze_opts o = {.include_dir = KCOST_SOURCE_DIR "/annotations", .threads = threads};
	assert_int_equal(kc_analyze(&an, files, n_files, &o), 0);
	*parts = an.parsed_in_parts;
	struct kc_report_opts ro = {.version = "test", .no_run = 1, .created = "2025-01-31T12:00:00Z"};
	cJSON *doc = kc_report_json(&an, NULL, &ro);
	assert_non_null(doc);
	char *text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	kc_analysis_release(&an);
	return text;
}

static char *document(const char *const *files, int n_files, int threads)
{
	int parts;
	return document_parts(files, n_files, threads, &parts);
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

/* A file parsed in 2 and 3 parts, and files whose split the parses show wrong: the documents of one thread. */
static void test_parts(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int parts2, parts3; /* files parsed in parts with 2 threads, with 3 */
		const char *shows;  /* in the document: not trivially equal */
	} cases[] = {
	    {"tests/fixtures/split_forms.c", 1, 1, "\"function\":\"run\""}, /* sizes from a call */
	    /* a call the split cannot see; in 3 parts the caller happens to land in its callee's */
	    {"tests/fixtures/split_pasted.c", 0, 1, "\"name\":\"twice\""},
	    {"tests/fixtures/split_literal.c", 0, 0, "\"name\":\"shift\""}, /* a block that is no body */
	    {"samples/matmul_tanh.c", 1, 1, "\"name\":\"matmul_tanh_f16\""},
	    /* what the split cannot see, each parsed whole (each gave another document before): callees named
	     * through a macro or parentheses with prototypes in a header, pragmas and a #define acting past their
	     * body, __COUNTER__, a redefinition behind a line splice */
	    {"tests/fixtures/split_hidden.c", 0, 0, "\"name\":\"user\""},
	    {"tests/fixtures/split_pragmas.c", 0, 0, "\"name\":\"uses\""},
	    {"tests/fixtures/split_counter.c", 0, 0, "\"name\":\"second\""},
	    {"tests/fixtures/split_redefined.c", 0, 0, "redefinition of 'scale'"},
	    /* a #warning in a header the parts share: the split stands, the warning is reported once */
	    {"tests/corpus/rnnoise/denoise_bands.c", 1, 1, "Only SSE and SSE2 are available"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", KCOST_SOURCE_DIR, cases[i].name);
		const char *files[] = {path};
		int p1, p2, p3;
		char *one = document_parts(files, 1, 1, &p1), *two = document_parts(files, 1, 2, &p2),
		     *three = document_parts(files, 1, 3, &p3);
		assert_string_equal(one, two);
		assert_string_equal(one, three);
		assert_non_null(strstr(one, cases[i].shows));
		assert_int_equal(p1, 0);
		assert_int_equal(p2, cases[i].parts2);
		assert_int_equal(p3, cases[i].parts3);
		free(one);
		free(two);
		free(three);
	}
}

/* More threads than the file's groups spread over evenly: fewer parts, not none (8 asked, 3 made here). */
static void test_fewer_parts(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof path, "%s/tests/fixtures/split_forms.c", KCOST_SOURCE_DIR);
	const char *files[] = {path};
	int p1, p8;
	char *one = document_parts(files, 1, 1, &p1), *eight = document_parts(files, 1, 8, &p8);
	assert_string_equal(one, eight);
	assert_int_equal(p1, 0);
	assert_int_equal(p8, 1);
	free(one);
	free(eight);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_one_thread_or_two), cmocka_unit_test(test_parts),
	                                   cmocka_unit_test(test_fewer_parts)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

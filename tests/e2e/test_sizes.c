/* test_sizes.c — sizes from call sites (PolyBench's main binding locals, wrappers, a chain too long to follow,
 * disagreeing calls, precedence of --size and KCOST_SIZES), file-scope arrays as buffers, and non-kernels' I/O in loops
 * as one note. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

#define POLY    "tests/fixtures/sizes_polybench.c"
#define CHAIN   "tests/fixtures/sizes_chain.c"
#define GLOBALS "tests/fixtures/sizes_globals.c"
#define HOSTILE "tests/fixtures/sizes_hostile.c"

/* Analyze file (no run) with up to two more arguments into a fresh directory `name`; the report, kcost's
 * stdout in *out (free it) when out is not NULL. The exit status must be `status`. */
static char last_dir[4096]; /* the directory of the last analyze */

static cJSON *analyze(const char *name, const char *file, const char *x1, const char *x2, int status, char **out)
{
	const char *dir = scratch_dir(name);
	snprintf(last_dir, sizeof last_dir, "%s", dir);
	const char *argv[] = {"--no-run", "-o", dir, file, x1, x2, NULL};
	struct run r = run_kcost(argv);
	if (r.status != status)
		fprintf(stderr, "kcost exited %d:\n%s\n", r.status, r.err);
	assert_int_equal(r.status, status);
	if (out) {
		*out = r.out;
		r.out = NULL;
	}
	run_release(&r);
	cJSON *rep = load_report(dir);
	assert_non_null(rep);
	return rep;
}

static long long value(cJSON *f, const char *path)
{
	cJSON *v = at(f, path);
	assert_non_null(v);
	assert_true(cJSON_IsNumber(v));
	return (long long)v->valuedouble;
}

/* The messages of a function's diagnostics of one severity, joined by '\n' (static storage). */
static const char *messages(cJSON *f, const char *severity, int *count)
{
	static char buf[8192];
	buf[0] = 0;
	*count = 0;
	cJSON *d;
	cJSON_ArrayForEach(d, at(f, "diagnostics"))
	{
		if (strcmp(report_text(d, "severity"), severity))
			continue;
		(*count)++;
		strncat(buf, report_text(d, "message"), sizeof buf - strlen(buf) - 2);
		strcat(buf, "\n");
	}
	return buf;
}

static const char *size_from_list(cJSON *f, int i)
{
	cJSON *s = cJSON_GetArrayItem(at(f, "sizes_from.sizes"), i);
	return s && cJSON_IsString(s) ? s->valuestring : NULL;
}

/* main binds NI, NJ, NK to locals and calls the kernel with them: the kernel's FLOPs have a value, and the
 * report says which call gave the sizes (JSON, text and HTML). */
static void polybench_kernel_takes_sizes_from_main(void **state)
{
	(void)state;
	char *out;
	cJSON *rep = analyze("sizes_poly", POLY, NULL, NULL, 0, &out);
	cJSON *k = report_function(rep, "kernel_gemm");
	assert_string_equal(report_text(k, "flops.expr"), "ni*nj*(3*nk + 1)");
	assert_int_equal(value(k, "flops.value"), 20 * 25 * (3 * 30 + 1));
	assert_true(report_exact(k));
	assert_int_equal(value(k, "sizes.ni"), 20);
	assert_int_equal(value(k, "sizes.nj"), 25);
	assert_int_equal(value(k, "sizes.nk"), 30);
	assert_string_equal(report_text(k, "sizes_from.call"), POLY ":56:2");
	assert_string_equal(report_text(k, "sizes_from.function"), "main");
	assert_int_equal(cJSON_GetArraySize(at(k, "sizes_from.sizes")), 3);
	assert_string_equal(size_from_list(k, 0), "ni");
	assert_null(at(k, "sizes_missing"));
	/* init_array gets its own call's sizes */
	cJSON *init = report_function(rep, "init_array");
	assert_int_equal(value(init, "flops.value"), 20 * 25 + 20 * 30 + 30 * 25);
	assert_string_equal(report_text(init, "sizes_from.call"), POLY ":55:2");
	/* main itself has no size parameters: no sizes_from */
	assert_null(at(report_function(rep, "main"), "sizes_from"));
	assert_non_null(strstr(out, "kernel_gemm: flops ni*nj*(3*nk + 1), bytes(min) 8*(2*ni*nj + ni*nk + nj*nk), "
	                            "bytes(streaming) 8*(2*ni*nj + ni*nk + nj*nk); sizes from the call at " POLY
	                            ":56:2 in main\n"));
	free(out);
	char path[4200];
	snprintf(path, sizeof path, "%s/index.html", last_dir);
	char *html = slurp(path);
	assert_non_null(html);
	assert_non_null(strstr(html, "<code>ni = 20</code>, <code>nj = 25</code>, <code>nk = 30</code> <span "
	                             "class=\"sizes-from\">(sizes from the call at " POLY
	                             ":56:2 in <code>main</code>)</span>"));
	free(html);
	cJSON_Delete(rep);
}

/* the macro's value comes through the local: -DNI=10 makes the kernel's FLOPs 10*25*91 */
static void a_define_changes_the_value(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_poly_define", POLY, "--", "-DNI=10", 0, NULL);
	cJSON *k = report_function(rep, "kernel_gemm");
	assert_int_equal(value(k, "flops.value"), 10 * 25 * 91);
	assert_int_equal(value(k, "sizes.ni"), 10);
	cJSON_Delete(rep);
}

/* --size comes first: ni from the option, nj and nk from the call (only they are listed in sizes_from) */
static void an_option_comes_before_the_call(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_poly_option", POLY, "--size=ni=4", NULL, 0, NULL);
	cJSON *k = report_function(rep, "kernel_gemm");
	assert_int_equal(value(k, "flops.value"), 4 * 25 * 91);
	assert_int_equal(cJSON_GetArraySize(at(k, "sizes_from.sizes")), 2);
	assert_string_equal(size_from_list(k, 0), "nj");
	assert_string_equal(size_from_list(k, 1), "nk");
	cJSON_Delete(rep);
}

/* print_array's two fprintf calls in a loop are one note, not a warning each: it stays exact (I/O is not
 * arithmetic), and main no longer warns that print_array is inexact */
static void io_in_loops_is_one_note(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_poly_io", POLY, NULL, NULL, 0, NULL);
	cJSON *p = report_function(rep, "print_array");
	int notes, warnings;
	const char *n = messages(p, "note", &notes);
	assert_int_equal(notes, 1);
	assert_string_equal(n, "2 I/O calls in loops (fprintf) are not counted: the first is here\n");
	messages(p, "warning", &warnings);
	assert_int_equal(warnings, 0);
	assert_true(report_exact(p));
	cJSON *d = cJSON_GetArrayItem(at(p, "diagnostics"), 0);
	assert_int_equal(value(d, "line"), 30);
	assert_int_equal(value(d, "col"), 5);
	cJSON *m = report_function(rep, "main");
	const char *w = messages(m, "warning", &warnings);
	assert_int_equal(warnings, 1);
	assert_string_equal(w, "data-dependent condition: its branches do no operation; their accesses are counted as "
	                       "always made\n");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(m, "exact_ops"))); /* print_array computes nothing */
	cJSON_Delete(rep);
}

/* main -> wrapper(len / 2) -> scale(2 * m + 1): 65; two calls that disagree: the first, and a note; a local
 * assigned before the call: no value, and a note; KCOST_SIZES before the call */
static void wrappers_disagreements_and_assignments(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_chain", CHAIN, NULL, NULL, 0, NULL);
	int notes;
	cJSON *scale = report_function(rep, "scale");
	assert_int_equal(value(scale, "sizes.n"), 65);
	assert_int_equal(value(scale, "flops.value"), 65);
	assert_string_equal(report_text(scale, "sizes_from.call"), CHAIN ":15:2");
	assert_string_equal(report_text(scale, "sizes_from.function"), "wrapper");
	cJSON *wrapper = report_function(rep, "wrapper");
	assert_int_equal(value(wrapper, "sizes.m"), 32);
	assert_string_equal(report_text(wrapper, "sizes_from.call"), CHAIN ":88:2");

	cJSON *twice = report_function(rep, "twice");
	assert_int_equal(value(twice, "sizes.n"), 10);
	assert_string_equal(messages(twice, "note", &notes),
	                    "sizes from the call at " CHAIN ":89:2; the call at " CHAIN
	                    ":90:2 (n = 64) gives other values: annotate KCOST_SIZES to choose\n");
	assert_int_equal(notes, 1);
	assert_true(report_exact(twice));

	cJSON *re = report_function(rep, "reassigned");
	assert_null(at(re, "sizes.n"));
	assert_string_equal(report_text(cJSON_GetArrayItem(at(re, "sizes_missing"), 0), ""), "n");
	assert_null(at(re, "sizes_from"));
	assert_string_equal(messages(re, "note", &notes),
	                    "size 'n' has no value from the call at " CHAIN
	                    ":92:2: 'k' is assigned before the call or in a loop around it, or its address is taken\n");

	cJSON *an = report_function(rep, "annotated");
	assert_int_equal(value(an, "sizes.n"), 7);
	assert_null(at(an, "sizes_from"));
	cJSON_Delete(rep);
}

/* deep <- d1 <- ... <- d9 <- main(5): kcost follows 8 calls; deep and d1 (10 and 9 calls from the constant)
 * get a note that says so, d2 (8 calls) has its value */
static void a_chain_longer_than_followed_is_a_note(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_deep", CHAIN, NULL, NULL, 0, NULL);
	int notes;
	cJSON *deep = report_function(rep, "deep");
	assert_null(at(deep, "sizes.n"));
	assert_true(cJSON_IsNull(at(deep, "flops.value")));
	assert_string_equal(messages(deep, "note", &notes),
	                    "size 'n' has no value from the call at " CHAIN
	                    ":48:2: parameter 'n' of 'd1' has a value only through more than 8 calls, which kcost "
	                    "does not follow\n");
	assert_null(at(report_function(rep, "d1"), "sizes.n"));
	cJSON *d2 = report_function(rep, "d2");
	assert_int_equal(value(d2, "sizes.n"), 5);
	assert_string_equal(report_text(d2, "sizes_from.function"), "d3");
	cJSON_Delete(rep);
}

/* --size n=9 comes before KCOST_SIZES and before every call */
static void an_option_comes_before_annotations_and_calls(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_chain_option", CHAIN, "--size=n=9", NULL, 0, NULL);
	cJSON *scale = report_function(rep, "scale"), *an = report_function(rep, "annotated");
	assert_int_equal(value(scale, "flops.value"), 9);
	assert_null(at(scale, "sizes_from"));
	assert_int_equal(value(an, "sizes.n"), 9);
	assert_int_equal(value(report_function(rep, "deep"), "sizes.n"), 9);
	cJSON_Delete(rep);
}

/* constants kcost must not take: each size stays without a value, with a note that says why */
static void wrong_constants_are_not_taken(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_hostile", HOSTILE, NULL, NULL, 0, NULL);
	int notes;
	static const char *const expect[][2] = {
	    {"wide", "size 'n' has no value from the call at " HOSTILE ":37:2: it overflows or divides by zero\n"},
	    {"narrow", "size 'n' = 300 from the call at " HOSTILE ":39:2 does not fit in its type: ignored\n"},
	    {"negative", "size 'n' = -3 from the call at " HOSTILE ":40:2 is negative: ignored\n"},
	    {"pong", "size 'n' has no value from the call at " HOSTILE ":30:2: parameter 'n' of 'ping' has no value\n"},
	};
	for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
		cJSON *f = report_function(rep, expect[i][0]);
		assert_null(at(f, "sizes.n"));
		assert_null(at(f, "sizes_from"));
		assert_true(cJSON_IsNull(at(f, "flops.value")));
		assert_string_equal(messages(f, "note", &notes), expect[i][1]);
	}
	cJSON_Delete(rep);
}

/* The buffer `name` of function f (the test fails when there is none). */
static cJSON *buffer(cJSON *f, const char *name)
{
	cJSON *b;
	cJSON_ArrayForEach(b, at(f, "buffers")) if (!strcmp(report_text(b, "name"), name)) return b;
	fail_msg("no buffer %s", name);
	return NULL;
}

/* File-scope arrays are buffers of their declared extent: counted (min and streaming bytes, roles), shown as
 * globals, with no warning; a callee's are its caller's */
static void file_scope_arrays_are_buffers(void **state)
{
	(void)state;
	cJSON *rep = analyze("sizes_globals", GLOBALS, NULL, NULL, 0, NULL);
	int warnings;
	cJSON *s000 = report_function(rep, "s000");
	assert_true(report_exact(s000));
	messages(s000, "warning", &warnings);
	assert_int_equal(warnings, 0);
	assert_int_equal(value(s000, "flops.value"), 1000);
	assert_int_equal(value(s000, "bytes.min.value"), 8000);
	assert_int_equal(value(s000, "bytes.min.read"), 4000);
	cJSON *a = buffer(s000, "a"), *b = buffer(s000, "b");
	assert_string_equal(report_text(a, "storage"), "global");
	assert_string_equal(report_text(a, "role"), "output");
	assert_string_equal(report_text(b, "role"), "input");
	assert_int_equal(value(a, "extent.value"), 1000);
	assert_int_equal(value(a, "bytes"), 4000);

	cJSON *s1115 = report_function(rep, "s1115");
	assert_true(report_exact(s1115));
	assert_int_equal(value(s1115, "flops.value"), 63 * 64);
	/* aa: rows 0..62 read, 1..63 written; bb: rows 1..63 read */
	assert_int_equal(value(s1115, "bytes.min.value"), 3 * 63 * 64 * 4);
	assert_string_equal(report_text(buffer(s1115, "aa"), "role"), "inout");
	assert_int_equal(value(buffer(s1115, "aa"), "extent.value"), 64 * 64);

	cJSON *twice = report_function(rep, "twice_prefix");
	assert_true(report_exact(twice));
	assert_int_equal(value(twice, "flops.value"), 200);
	assert_int_equal(value(twice, "bytes.min.value"), 800);
	assert_int_equal(value(twice, "bytes.streaming.value"), 1600);
	assert_string_equal(report_text(buffer(twice, "b"), "storage"), "global");
	cJSON_Delete(rep);
	char path[4200];
	snprintf(path, sizeof path, "%s/index.html", last_dir);
	char *html = slurp(path);
	assert_non_null(html);
	assert_non_null(strstr(html, "<td>output (global)</td>"));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(polybench_kernel_takes_sizes_from_main),
	    cmocka_unit_test(a_define_changes_the_value),
	    cmocka_unit_test(an_option_comes_before_the_call),
	    cmocka_unit_test(io_in_loops_is_one_note),
	    cmocka_unit_test(wrappers_disagreements_and_assignments),
	    cmocka_unit_test(a_chain_longer_than_followed_is_a_note),
	    cmocka_unit_test(an_option_comes_before_annotations_and_calls),
	    cmocka_unit_test(wrong_constants_are_not_taken),
	    cmocka_unit_test(file_scope_arrays_are_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

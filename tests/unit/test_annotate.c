/* test_annotate.c — the annotation value language (KCOST_SIZES, KCOST_EXTENT, KCOST_TRIPS) and the
 * compiler-style diagnostics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "diag.h"

struct sizes {
	char name[8][16];
	long long value[8];
	int n;
};

static int set(void *ctx, const char *name, size_t len, long long value)
{
	struct sizes *s = ctx;
	if (s->n == 8 || len >= 16)
		return -1;
	memcpy(s->name[s->n], name, len);
	s->name[s->n][len] = '\0';
	s->value[s->n++] = value;
	return 0;
}

static void sizes_use_c_precedence(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct sizes s = {0};
	const char *err = NULL;
	assert_int_equal(kc_annot_parse_sizes(&a, "n = 1 << 20, m=512 , k = (3 + 5) * 2 - 1", set, &s, &err), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.name[0], "n");
	assert_int_equal(s.value[0], 1LL << 20);
	assert_int_equal(s.value[1], 512);
	assert_int_equal(s.value[2], 15);
	/* << binds looser than +: 1 << 2 + 1 is 1 << 3 */
	s.n = 0;
	assert_int_equal(kc_annot_parse_sizes(&a, "q = 1 << 2 + 1", set, &s, &err), 0);
	assert_int_equal(s.value[0], 8);
	kc_arena_release(&a);
}

static void bad_sizes_say_where(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct sizes s = {0};
	const char *err = NULL;
	assert_int_equal(kc_annot_parse_sizes(&a, "n = 10 / 3", set, &s, &err), -1);
	assert_string_equal(err, "size 'n' is not a non-negative integer");
	assert_int_equal(kc_annot_parse_sizes(&a, "n 10", set, &s, &err), -1);
	assert_string_equal(err, "expected NAME = VALUE at 'n 10'");
	assert_int_equal(kc_annot_parse_sizes(&a, "n = m", set, &s, &err), -1);
	assert_string_equal(err, "unknown name 'm'");
	assert_int_equal(kc_annot_parse_sizes(&a, "n = 4 )", set, &s, &err), -1);
	assert_string_equal(err, "unexpected text at ')'");
	kc_arena_release(&a);
}

static struct kc_poly *resolve(void *ctx, const char *name, size_t len)
{
	struct kc_arena *a = ctx;
	if (len == 1 && name[0] == 'n')
		return kc_poly_sym(a, 0);
	if (len == 3 && !strncmp(name, "nnz", 3))
		return kc_poly_sym(a, 1);
	return NULL;
}

static void extents_are_polynomials(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_poly *p;
	const char *err;
	const char *names[] = {"n", "nnz"};
	assert_int_equal(kc_annot_parse_expr(&a, "n * (n + 1) / 2", resolve, &a, &p, &err), 0);
	struct kc_buf b = KC_BUF_INIT;
	kc_poly_format(p, names, &b);
	assert_string_equal(kc_buf_str(&b), "n*(n + 1)/2");
	kc_buf_reset(&b);
	assert_int_equal(kc_annot_parse_expr(&a, "nnz + -n", resolve, &a, &p, &err), 0);
	kc_poly_format(p, names, &b);
	assert_string_equal(kc_buf_str(&b), "-n + nnz");
	assert_int_equal(kc_annot_parse_expr(&a, "n / nnz", resolve, &a, &p, &err), -1);
	assert_non_null(strstr(err, "division by a non-constant or zero"));
	kc_buf_release(&b);
	kc_arena_release(&a);
}

/* values beyond 64 bits, 100,000 signs or parentheses: an error or a value, the parser's recursion bounded */
static void hostile_values_are_bounded(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct sizes s = {0};
	const char *err = NULL;
	assert_int_equal(kc_annot_parse_sizes(&a, "n = 99999999999999999999", set, &s, &err), -1);
	assert_string_equal(err, "integer too large at '99999999999999999999'");
	assert_int_equal(kc_annot_parse_sizes(&a, "n = 4294967296 * 4294967296", set, &s, &err), -1);
	assert_string_equal(err, "size 'n' does not fit in 64 bits");
	assert_int_equal(kc_annot_parse_sizes(&a, "n = 9223372036854775807", set, &s, &err), 0);
	assert_int_equal(s.value[0], 9223372036854775807LL);
	enum { N = 100000 };
	char *text = malloc(2 * N + 16);
	assert_non_null(text);
	/* 100,000 signs: counted, not recursed; an even number of them is + */
	strcpy(text, "n = ");
	for (int i = 0; i < N; i++)
		strcat(text + 4 + 2 * i, "- ");
	strcat(text, "7");
	s.n = 0;
	assert_int_equal(kc_annot_parse_sizes(&a, text, set, &s, &err), 0);
	assert_int_equal(s.value[0], 7);
	text[4] = ' '; /* one sign fewer: -7 */
	assert_int_equal(kc_annot_parse_sizes(&a, text, set, &s, &err), -1);
	assert_string_equal(err, "size 'n' is not a non-negative integer");
	/* 256 parentheses are taken, 257 are not; the message quotes 40 bytes of the rest */
	struct kc_poly *p;
	char nested[600];
	memset(nested, '(', 256);
	nested[256] = '1';
	memset(nested + 257, ')', 256);
	nested[513] = '\0';
	assert_int_equal(kc_annot_parse_expr(&a, nested, NULL, NULL, &p, &err), 0);
	memset(text, '(', N);
	text[N] = '1';
	memset(text + N + 1, ')', N);
	text[2 * N + 1] = '\0';
	assert_int_equal(kc_annot_parse_expr(&a, text, NULL, NULL, &p, &err), -1);
	assert_string_equal(err, "parentheses nested more than 256 levels deep at "
	                         "'((((((((((((((((((((((((((((((((((((((((...'");
	free(text);
	kc_arena_release(&a);
}

/* a product of sums multiplies their terms: (n + nnz + 1)^9 has 55, a tenth factor makes 66, past the 64 a value
 * may have (the fuzzer's 1 KB product of such sums took seconds); 1,000 factors fail at the tenth, at once */
static void values_have_few_terms(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_poly *p;
	const char *err = NULL;
	char text[32 * 1000];
	strcpy(text, "(n + nnz + 1)");
	for (int i = 1; i < 9; i++)
		strcat(text, " * (n + nnz + 1)");
	assert_int_equal(kc_annot_parse_expr(&a, text, resolve, &a, &p, &err), 0);
	assert_int_equal(kc_poly_nterms(p), 55);
	strcat(text, " * (n + nnz + 1)");
	assert_int_equal(kc_annot_parse_expr(&a, text, resolve, &a, &p, &err), -1);
	assert_string_equal(err, "the value expands to more than 64 terms at end of text");
	for (int i = 10; i < 1000; i++)
		strcat(text, " * (n + nnz + 1)");
	assert_int_equal(kc_annot_parse_expr(&a, text, resolve, &a, &p, &err), -1);
	assert_string_equal(err,
	                    "the value expands to more than 64 terms at ' * (n + nnz + 1) * (n + nnz + 1) * (n + ...'");
	kc_arena_release(&a);
}

static void diagnostics_print_the_line_and_a_caret(void **state)
{
	(void)state;
	char path[] = "/tmp/kcost-diag-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("int a;\n\tfor (;;) x[i] = 1;\n", f);
	fclose(f);
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_diags list = {0};
	kc_diag_add(&a, &list, (struct kc_loc){path, 2, 11}, KC_WARNING, KC_DIAG_INEXACT, "f", "loop %s", "never ends");
	kc_diag_add(&a, &list, (struct kc_loc){NULL, 0, 0}, KC_ERROR, KC_DIAG_NOT_ANALYZED, NULL, "no input files");
	assert_int_equal(list.warnings, 1);
	assert_int_equal(list.errors, 1);
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);
	kc_diags_print(mem, &list, 0);
	fclose(mem);
	char expected[512];
	snprintf(expected, sizeof expected,
	         "%s:2:11: warning: loop never ends\n\tfor (;;) x[i] = 1;\n\t         ^\n"
	         "kcost: error: no input files\n",
	         path);
	assert_string_equal(out, expected);
	free(out);
	remove(path);
	kc_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sizes_use_c_precedence),  cmocka_unit_test(bad_sizes_say_where),
	    cmocka_unit_test(extents_are_polynomials), cmocka_unit_test(hostile_values_are_bounded),
	    cmocka_unit_test(values_have_few_terms),   cmocka_unit_test(diagnostics_print_the_line_and_a_caret),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

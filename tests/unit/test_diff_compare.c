/* test_diff_compare.c — kcost diff's comparison on hand-written reports, and a mutation fuzz of its input: a
 * malformed or foreign document must give an error or a comparison, never a crash (ASan runs this). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

static const char base_text[] =
    "{\"schema\": 1, \"functions\": ["
    "{\"name\": \"f\", \"file\": \"k.c\", \"flops\": {\"expr\": \"8*n\", \"value\": 800},"
    " \"bytes\": {\"min\": {\"expr\": \"8*n\"}, \"streaming\": {\"expr\": \"8*n\", \"value\": 800}},"
    " \"intensity\": {\"min\": 1.0, \"streaming\": 1.0},"
    " \"measured\": {\"seconds\": {\"median\": 0.010}, \"cv\": 0.01, \"error\": null}},"
    "{\"name\": \"g\", \"file\": \"k.c\", \"flops\": {\"expr\": \"n\", \"value\": 100},"
    " \"bytes\": {\"streaming\": {\"expr\": \"12*n\", \"value\": 1200}}, \"measured\": null}]}";

/* The parsed documents of the last comparison: a kc_diff points into them until it is freed. */
static cJSON *docs[2];

static void release_docs(void)
{
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	docs[0] = docs[1] = NULL;
}

static struct kc_diff *compare(const char *base, const char *head, double fail_on, char *err)
{
	release_docs();
	docs[0] = cJSON_Parse(base);
	docs[1] = cJSON_Parse(head);
	struct kc_diff_opts o = {0.05, fail_on, KC_DIFF_MD};
	return docs[0] && docs[1] ? kc_diff_compare(docs[0], docs[1], &o, err, 256) : NULL;
}

/* The Markdown comparison of two report texts (malloc'd), and whether it found a regression. */
static char *diff_text(const char *base, const char *head, double fail_on, int *regressed)
{
	char err[256];
	struct kc_diff *d = compare(base, head, fail_on, err);
	if (!d)
		fail_msg("not compared: %s", err);
	struct kc_buf b = KC_BUF_INIT;
	kc_diff_render(d, &b);
	*regressed = kc_diff_regressed(d);
	kc_diff_free(d);
	return kc_buf_detach(&b);
}

/* Replace the first occurrence of `from` by `to` in a copy of s. */
static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	char *r = malloc(strlen(s) + strlen(to) + 1);
	size_t k = (size_t)(at - s);
	memcpy(r, s, k);
	strcpy(r + k, to);
	strcat(r, at + strlen(from));
	return r;
}

static void identical_runs_have_no_change(void **state)
{
	(void)state;
	int regressed;
	char *text = diff_text(base_text, base_text, 0.10, &regressed);
	assert_non_null(strstr(text, "no significant change in 2 functions"));
	assert_int_equal(regressed, 0);
	free(text);
}

static void slower_beyond_noise_is_a_regression(void **state)
{
	(void)state;
	int regressed;
	char *head = replace(base_text, "\"median\": 0.010", "\"median\": 0.013");
	char *text = diff_text(base_text, head, 0.10, &regressed);
	assert_non_null(strstr(text, "1.30x slower"));
	assert_int_equal(regressed, 1);
	free(text);
	free(head);
}

static void a_change_within_the_noise_is_not_significant(void **state)
{
	(void)state;
	int regressed;
	/* 30% slower, but each run's CV is 20%: 2*sqrt(0.2^2 + 0.2^2) = 0.57 > 0.30 */
	char *base = replace(base_text, "\"cv\": 0.01", "\"cv\": 0.2");
	char *head = replace(base, "\"median\": 0.010", "\"median\": 0.013");
	char *text = diff_text(base, head, 0.10, &regressed);
	assert_non_null(strstr(text, "no significant change in 2 functions"));
	assert_int_equal(regressed, 0);
	free(text);
	free(base);
	free(head);
}

static void added_and_removed_functions_are_listed(void **state)
{
	(void)state;
	int regressed;
	char *head = replace(base_text, "\"name\": \"g\"", "\"name\": \"h\"");
	char *text = diff_text(base_text, head, 0, &regressed);
	assert_non_null(strstr(text, "- **g** (k.c): removed"));
	assert_non_null(strstr(text, "- **h** (k.c): added"));
	free(text);
	free(head);
}

static void foreign_documents_are_refused(void **state)
{
	(void)state;
	char err[256];
	assert_null(compare("[1, 2, 3]", base_text, 0, err));
	assert_string_equal(err, "BASE is not a kcost report: not a JSON object");
	assert_null(compare(base_text, "{\"schema\": 1}", 0, err));
	assert_string_equal(err, "HEAD is not a kcost report: no \"functions\" array");
	assert_null(compare(base_text, "{\"schema\": \"1\", \"functions\": []}", 0, err));
	assert_string_equal(err, "HEAD is not a kcost report: no \"schema\" number");
}

/* Mutation fuzz: byte flips, deletions, insertions of JSON punctuation and type swaps, 4000 documents. */
static void mutated_reports_never_crash(void **state)
{
	(void)state;
	static const char *const tokens[] = {"{", "}", "[", "]", ",", ":", "\"", "null", "1e308", "-0", "\"x\"", "[]"};
	unsigned long long seed = 42;
	size_t n = strlen(base_text);
	int compared = 0;
	for (int iter = 0; iter < 4000; iter++) {
		char *doc = malloc(n * 2 + 64);
		strcpy(doc, base_text);
		for (int m = 0; m < 1 + iter % 4; m++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t len = strlen(doc), at = (size_t)(seed >> 33) % (len ? len : 1);
			switch ((seed >> 20) % 3) {
			case 0:
				doc[at] = (char)(seed >> 40);
				break; /* flip */
			case 1:
				memmove(doc + at, doc + at + 1, len - at);
				break; /* delete */
			default: {     /* insert a token */
				const char *t = tokens[(seed >> 45) % 12];
				size_t tl = strlen(t);
				if (len + tl < n * 2 + 60) {
					memmove(doc + at + tl, doc + at, len - at + 1);
					memcpy(doc + at, t, tl);
				}
			}
			}
		}
		char err[256];
		struct kc_diff *d = compare(base_text, doc, 0.1, err);
		if (d) {
			struct kc_buf b = KC_BUF_INIT;
			kc_diff_render(d, &b);
			kc_buf_release(&b);
			kc_diff_free(d);
			compared++;
		}
		d = compare(doc, base_text, 0.1, err);
		kc_diff_free(d);
		free(doc);
	}
	/* some mutations keep a valid report (flips inside strings), so both paths were exercised */
	assert_true(compared > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(identical_runs_have_no_change),
	    cmocka_unit_test(slower_beyond_noise_is_a_regression),
	    cmocka_unit_test(a_change_within_the_noise_is_not_significant),
	    cmocka_unit_test(added_and_removed_functions_are_listed),
	    cmocka_unit_test(foreign_documents_are_refused),
	    cmocka_unit_test(mutated_reports_never_crash),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	release_docs();
	return failed;
}

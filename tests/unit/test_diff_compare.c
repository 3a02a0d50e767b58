/* test_diff_compare.c — kcost diff's comparison on hand-written reports, and a mutation fuzz of its input: a
 * malformed or foreign document must give an error or a comparison, never a crash (ASan runs this); the same for
 * kcost merge's reading of reports (reporter/merge.h), and what it keeps of the shards' text and SARIF logs. Then the
 * hostile reports of issue #11: names that forge lines, links and mentions, impossible values, 100,000
 * functions; the escaping they rely on (reporter/escape.c) and the terminal table's (text.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "escape.h"
#include "merge.h"
#include "report.h"
#include "sarif.h"
#include "visible.h"

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

static struct kc_diff *compare_as(const char *base, const char *head, double fail_on, enum kc_diff_format format,
                                  char *err)
{
	release_docs();
	docs[0] = cJSON_Parse(base);
	docs[1] = cJSON_Parse(head);
	struct kc_diff_opts o = {0.05, fail_on, format, {NULL, NULL}, NULL};
	return docs[0] && docs[1] ? kc_diff_compare(docs[0], docs[1], &o, err, 256) : NULL;
}

static struct kc_diff *compare(const char *base, const char *head, double fail_on, char *err)
{
	return compare_as(base, head, fail_on, KC_DIFF_MD, err);
}

/* The comparison of two report texts in a format (malloc'd), whether it found a regression, and when
 * problems is not NULL the problems' lines (malloc'd) and the number of errors. */
static char *diff_format(const char *base, const char *head, double fail_on, enum kc_diff_format format, int *regressed,
                         char **problems, int *errors)
{
	char err[256];
	struct kc_diff *d = compare_as(base, head, fail_on, format, err);
	if (!d)
		fail_msg("not compared: %s", err);
	struct kc_buf b = KC_BUF_INIT;
	kc_diff_render(d, &b);
	*regressed = kc_diff_regressed(d);
	if (problems) {
		struct kc_buf p = KC_BUF_INIT;
		kc_diff_render_problems(d, &p);
		*problems = kc_buf_detach(&p);
		*errors = kc_diff_errors(d);
	}
	kc_diff_free(d);
	return kc_buf_detach(&b);
}

/* The Markdown comparison of two report texts (malloc'd), and whether it found a regression. */
static char *diff_text(const char *base, const char *head, double fail_on, int *regressed)
{
	return diff_format(base, head, fail_on, KC_DIFF_MD, regressed, NULL, NULL);
}

/* Fail with the whole text when it does not contain the expected piece. */
#define assert_contains(text, piece)                                                                                   \
	do {                                                                                                           \
		if (!strstr((text), (piece)))                                                                          \
			fail_msg("expected \"%s\" in:\n%s", (piece), (text));                                          \
	} while (0)

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

/* text with 1 + iter % 4 mutations (malloc'd): byte flips, deletions, insertions of JSON punctuation and of
 * values of other types. */
static char *mutate(const char *text, int iter, unsigned long long *state)
{
	static const char *const tokens[] = {"{", "}", "[", "]", ",", ":", "\"", "null", "1e308", "-0", "\"x\"", "[]"};
	unsigned long long seed = *state;
	size_t n = strlen(text);
	char *doc = malloc(n * 2 + 64);
	strcpy(doc, text);
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
	*state = seed;
	return doc;
}

/* Mutation fuzz: 4000 documents. */
static void mutated_reports_never_crash(void **state)
{
	(void)state;
	unsigned long long seed = 42;
	int compared = 0;
	for (int iter = 0; iter < 4000; iter++) {
		char *doc = mutate(base_text, iter, &seed);
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

/* ---- kcost merge (reporter/merge.h) on reports given as text ---------------------------------------------- */

/* A shard of other functions than base_text's: a machine, a graph, a comparison with the baseline. */
static const char shard_text[] =
    "{\"schema\": 1, \"functions\": ["
    "{\"name\": \"h\", \"file\": \"m.c\", \"line\": 4, \"exact\": false, \"exact_ops\": true, \"diagnostics\": "
    "[{\"severity\": \"warning\", \"message\": \"w\"}], \"flops\": {\"expr\": \"4*n\", \"value\": "
    "18446744073709551615},"
    " \"bytes\": {\"streaming\": {\"expr\": \"8*n\", \"value\": 800}}, \"dataflow\": {\"svg\": \"graphs/h.svg\"},"
    " \"predicted\": {\"seconds\": 0.5, \"bound\": \"L2 bandwidth\"},"
    " \"measured\": {\"seconds\": {\"median\": 0.010}, \"error\": null},"
    " \"baseline\": {\"revision\": \"abc\", \"change\": \"changed\", \"verdict\": \"slower\", \"ratio\": 2,"
    " \"ci_low\": 1.9, \"ci_high\": 2.1, \"p_value\": 0.001, \"regressed\": true}},"
    "{\"name\": \"f\", \"file\": \"other.c\", \"measured\": {\"error\": \"crashed; its stderr began: token\"}}],"
    " \"machine\": {\"cpu\": \"X\"}, \"diagnostics\": [{\"severity\": \"error\", \"message\": \"e\"}]}";

/* Merge the texts as the reports "A" and "B" (parsed with cJSON; their texts given when `texts`): the merge or
 * NULL, with err. docs[] holds the parses until the next call. */
static struct kc_merge *merge_texts(const char *a, const char *b, int texts, char *err, int *rc)
{
	release_docs();
	docs[0] = cJSON_Parse(a);
	docs[1] = cJSON_Parse(b);
	struct kc_merge_input in[2] = {{"A", docs[0], texts ? a : NULL, NULL, NULL, NULL, NULL},
	                               {"B", docs[1], texts ? b : NULL, NULL, NULL, NULL, NULL}};
	struct kc_merge_opts o = {"test", NULL, 0, "2026-01-01T00:00:00Z", "out"};
	struct kc_merge *m = NULL;
	*rc = docs[0] && docs[1] ? kc_merge_reports(in, 2, &o, &m, err, 512) : -1;
	return m;
}

/* Every output of m; the JSON ones parse, and the merged functions are the inputs' (each the same value, but for
 * a renamed graph). */
static void render_all(struct kc_merge *m)
{
	for (int what = KC_MERGE_TEXT; what <= KC_MERGE_HTML; what++) {
		struct kc_buf b = KC_BUF_INIT;
		assert_int_equal(kc_merge_render(m, (enum kc_merge_output)what, &b), 0);
		if (what == KC_MERGE_MD)
			assert_true(b.len <= KC_MERGE_MD_MAX);
		if (what == KC_MERGE_JSON || what == KC_MERGE_SARIF) {
			cJSON *out = cJSON_Parse(kc_buf_str(&b)), *f;
			assert_non_null(out);
			cJSON *fns = what == KC_MERGE_JSON ? cJSON_GetObjectItem(out, "functions") : NULL;
			int i = 0, n0 = cJSON_GetArraySize(cJSON_GetObjectItem(docs[0], "functions"));
			cJSON_ArrayForEach(f, fns)
			{
				cJSON *src = cJSON_GetArrayItem(cJSON_GetObjectItem(docs[i >= n0], "functions"),
				                                i >= n0 ? i - n0 : i);
				if (!cJSON_GetObjectItem(src, "dataflow"))
					assert_true(cJSON_Compare(f, src, 1));
				i++;
			}
			cJSON_Delete(out);
		}
		kc_buf_release(&b);
	}
	struct kc_buf p = KC_BUF_INIT;
	kc_merge_render_problems(m, &p);
	kc_buf_release(&p);
}

/* Mutation fuzz of a shard merged with base_text, 4000 documents: an error or a merge whose outputs are whole. */
static void mutated_shards_never_crash(void **state)
{
	(void)state;
	unsigned long long seed = 7;
	int merged = 0, refused = 0;
	for (int iter = 0; iter < 4000; iter++) {
		char *doc = mutate(shard_text, iter, &seed), err[512] = "";
		int rc;
		struct kc_merge *m = merge_texts(base_text, doc, iter % 2, err, &rc);
		if (m) {
			render_all(m);
			merged++;
		} else {
			assert_int_equal(rc, -1);
			if (docs[1]) { /* parsed, and refused: said why */
				assert_true(err[0] != '\0');
				refused++;
			}
		}
		kc_merge_free(m);
		free(doc);
	}
	assert_true(merged > 0 && refused > 0); /* 968 and 159 of the 4000 (the others do not parse) */
}

/* A number beyond 2^53 keeps its digits when the report's text is given; the outputs say what they show. */
static void merge_keeps_the_shards_text(void **state)
{
	(void)state;
	char err[512];
	int rc;
	struct kc_merge *m = merge_texts(base_text, shard_text, 1, err, &rc);
	assert_non_null(m);
	struct kc_buf b = KC_BUF_INIT;
	assert_int_equal(kc_merge_render(m, KC_MERGE_JSON, &b), 0);
	/* the shard's own text, as it is written (kcost writes it as cJSON prints it: see test_merge) */
	assert_contains(kc_buf_str(&b), "\"flops\": {\"expr\": \"4*n\", \"value\": 18446744073709551615},");
	assert_contains(kc_buf_str(&b), "\"merged_from\":\t[{\n\t\t\t\"path\":\t\"A\",\n\t\t\t\"created\":\tnull,\n"
	                                "\t\t\t\"functions\":\t2\n\t\t}, {");
	assert_contains(kc_buf_str(&b), "\"machine\":\t{\n\t\t\"cpu\":\t\"X\"\n\t}");
	kc_buf_reset(&b);
	assert_int_equal(kc_merge_render(m, KC_MERGE_MD, &b), 0);
	assert_contains(kc_buf_str(&b), "\n### Against the baseline\n\nEach function against itself at `abc`.\n\n"
	                                "- **h** (m.c): slower, 2x the baseline's time (95% interval 1.9\xe2\x80\x93"
	                                "2.1, p = 0.001); FLOPs `4*n` \xe2\x80\x94 **regression beyond "
	                                "--fail-on-regression**\n\n0 functions unchanged\n3 functions without a "
	                                "comparison with the baseline\n");
	assert_contains(kc_buf_str(&b), "| f | other.c | n/a | n/a | approx | failed: crashed (its output is in "
	                                "index.html) | n/a |\n");
	assert_contains(kc_buf_str(&b), "| h | m.c | `4*n` = 18.4 EFLOP | `8*n` = 800 B | traffic approx: 1 warning | "
	                                "10.0 ms median | 500 ms, bound: L2 bandwidth |\n");
	assert_contains(kc_buf_str(&b), "\nDiagnostics: 1 error, 1 warning, 0 notes");
	assert_null(strstr(kc_buf_str(&b), "token"));
	kc_buf_release(&b);
	kc_merge_free(m);

	/* without the text, the parse is printed: cJSON rounds the number */
	m = merge_texts(base_text, shard_text, 0, err, &rc);
	assert_non_null(m);
	assert_int_equal(kc_merge_render(m, KC_MERGE_JSON, &b), 0);
	assert_null(strstr(kc_buf_str(&b), "18446744073709551615"));
	kc_buf_release(&b);
	kc_merge_free(m);

	/* a key written with an escape before "functions": cJSON reads it, so the text is not searched */
	char *escaped = replace(shard_text, "\"functions\"", "\"functi\\u006fns\"");
	m = merge_texts(base_text, escaped, 1, err, &rc);
	assert_non_null(m);
	render_all(m);
	kc_merge_free(m);
	free(escaped);

	/* the same function in both: an error naming both */
	char *twice = replace(shard_text, "\"name\": \"h\", \"file\": \"m.c\"", "\"name\": \"g\", \"file\": \"k.c\"");
	assert_null(merge_texts(base_text, twice, 1, err, &rc));
	assert_int_equal(rc, -1);
	assert_string_equal(err, "function 'g' (k.c) is in both A and B");
	free(twice);
	assert_null(merge_texts(base_text, "{\"schema\": 1, \"functions\": [], \"files\": [1]}", 1, err, &rc));
	assert_string_equal(err, "B: \"files\" holds a number, not a file name");
	assert_null(merge_texts(base_text, "{\"schema\": 1, \"functions\": [7]}", 1, err, &rc));
	assert_string_equal(err, "B: functions[0] is a number, not an object");
	release_docs();
}

/* An input's label (kcost -j N's shard, named by its files) is how the text, summary.md, index.html and the errors
 * name it; merged_from keeps its path. */
static void labels_name_the_inputs_where_they_are_shown(void **state)
{
	(void)state;
	release_docs();
	docs[0] = cJSON_Parse(base_text);
	docs[1] = cJSON_Parse(shard_text);
	struct kc_merge_input in[2] = {{"/tmp/kcost-shards-x/0", docs[0], NULL, NULL, NULL, NULL, "k.c"},
	                               {"/tmp/kcost-shards-x/1", docs[1], NULL, NULL, NULL, NULL, "m.c, other.c"}};
	struct kc_merge_opts o = {"test", NULL, 0, "2026-01-01T00:00:00Z", "out"};
	struct kc_merge *m = NULL;
	char err[512];
	assert_int_equal(kc_merge_reports(in, 2, &o, &m, err, sizeof err), 0);
	struct kc_buf b = KC_BUF_INIT;
	assert_int_equal(kc_merge_render(m, KC_MERGE_TEXT, &b), 0);
	assert_string_equal(
	    kc_buf_str(&b),
	    "k.c: 2 functions (0 exact), 1 measured, 0 errors, 0 warnings\n"
	    "m.c, other.c: 2 functions (0 exact), 1 measured, 1 error, 1 warning\n"
	    "merged: 4 functions from 2 reports (0 exact), 1 error, 1 warning; report: out/index.html\n");
	kc_buf_reset(&b);
	assert_int_equal(kc_merge_render(m, KC_MERGE_MD, &b), 0);
	assert_contains(kc_buf_str(&b), "Merged from `k.c` (2 functions), `m.c, other.c` (2 functions).");
	assert_null(strstr(kc_buf_str(&b), "kcost-shards"));
	kc_buf_reset(&b);
	assert_int_equal(kc_merge_render(m, KC_MERGE_HTML, &b), 0);
	assert_contains(kc_buf_str(&b), "<td><code>m.c, other.c</code></td>");
	assert_null(strstr(kc_buf_str(&b), "kcost-shards"));
	kc_buf_reset(&b);
	assert_int_equal(kc_merge_render(m, KC_MERGE_JSON, &b), 0);
	assert_contains(kc_buf_str(&b), "\"path\":\t\"/tmp/kcost-shards-x/1\"");
	kc_buf_release(&b);
	kc_merge_free(m);
	/* a conflict names the labels */
	char *twice = replace(shard_text, "\"name\": \"h\", \"file\": \"m.c\"", "\"name\": \"g\", \"file\": \"k.c\"");
	cJSON_Delete(docs[1]);
	docs[1] = cJSON_Parse(twice);
	in[1].report = docs[1];
	assert_int_equal(kc_merge_reports(in, 2, &o, &m, err, sizeof err), -1);
	assert_string_equal(err, "function 'g' (k.c) is in both k.c and m.c, other.c");
	free(twice);
	release_docs();
}

/* The shards' SARIF logs: the first's tool and rules, the results that are kcost's; a log of other rules, or a
 * result whose ruleIndex does not name its ruleId or whose message is not one line, is left out, said. */
static void sarif_logs_are_checked(void **state)
{
	(void)state;
	struct kc_buf text = KC_BUF_INIT;
	cJSON *logs[2];
	for (int k = 0; k < 2; k++) {
		kc_buf_reset(&text);
		assert_int_equal(kc_sarif_close(kc_sarif_open("1.0"), &text), 0);
		logs[k] = cJSON_Parse(kc_buf_str(&text));
		assert_non_null(logs[k]);
	}
	cJSON *run0 = cJSON_GetArrayItem(cJSON_GetObjectItem(logs[0], "runs"), 0);
	cJSON *results = cJSON_GetObjectItem(run0, "results");
	cJSON_AddItemToArray(results, cJSON_Parse("{\"ruleId\": \"kcost/inexact\", \"ruleIndex\": 3, \"level\": "
	                                          "\"warning\", \"message\": {\"text\": \"kept\"}}"));
	cJSON_AddItemToArray(results, cJSON_Parse("{\"ruleId\": \"kcost/parse\", \"ruleIndex\": 3, \"message\": "
	                                          "{\"text\": \"forged\"}}"));
	cJSON_AddItemToArray(results, cJSON_Parse("{\"ruleId\": \"kcost/inexact\", \"ruleIndex\": 3, \"message\": "
	                                          "{\"text\": \"two\\nlines\"}}"));
	cJSON_AddItemToArray(results, cJSON_Parse("{\"ruleId\": \"kcost/inexact\", \"ruleIndex\": 99, \"message\": "
	                                          "{\"text\": \"far\"}}"));
	cJSON *run1 = cJSON_GetArrayItem(cJSON_GetObjectItem(logs[1], "runs"), 0);
	cJSON_DeleteItemFromArray(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run1, "tool"), "driver"), "rules"), 0);
	release_docs();
	docs[0] = cJSON_Parse(base_text);
	docs[1] = cJSON_Parse(shard_text);
	struct kc_merge_input in[2] = {{"A", docs[0], NULL, logs[0], NULL, NULL, NULL},
	                               {"B", docs[1], NULL, logs[1], NULL, NULL, NULL}};
	struct kc_merge_opts o = {"test", NULL, 0, NULL, NULL};
	struct kc_merge *m;
	char err[512];
	assert_int_equal(kc_merge_reports(in, 2, &o, &m, err, sizeof err), 0);
	struct kc_buf b = KC_BUF_INIT;
	assert_int_equal(kc_merge_render(m, KC_MERGE_SARIF, &b), 0);
	cJSON *log = cJSON_Parse(kc_buf_str(&b));
	cJSON *merged = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0), "results");
	assert_int_equal(cJSON_GetArraySize(merged), 1);
	assert_string_equal(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(merged, 0), "message"), "text")->valuestring,
	    "kept");
	kc_buf_reset(&b);
	kc_merge_render_problems(m, &b);
	assert_string_equal(kc_buf_str(&b),
	                    "kcost merge: warning: A: 3 results of kcost.sarif are not kcost's: left out of the merged "
	                    "kcost.sarif\n"
	                    "kcost merge: warning: B: kcost.sarif is its rules are not those of the first log (another "
	                    "kcost?): its results are left out of the merged kcost.sarif\n");
	kc_buf_release(&b);
	cJSON_Delete(log);
	kc_merge_free(m);
	cJSON_Delete(logs[0]);
	cJSON_Delete(logs[1]);
	kc_buf_release(&text);
	release_docs();
}

/* ---- significance: symmetric in log space ------------------------------------------------------------ */

/* A 2x speed-up and a 2x slow-down with the same CVs are the same distance from "no change": log 2 = 0.69.
 * With CVs of 0.2 the noise is 2*sqrt(2*log(1 + 0.04)) = 0.56, below it: both significant. (The former test,
 * |ratio - 1| against 2*sqrt(cv0^2 + cv1^2) = 0.57, called the slow-down's 1.0 significant and the speed-up's
 * 0.5 noise.) With CVs of 0.3 the noise is 0.83: neither is. */
static void speed_up_and_slow_down_are_mirrored(void **state)
{
	(void)state;
	int regressed;
	char *base = replace(base_text, "\"cv\": 0.01", "\"cv\": 0.2");
	char *slower = replace(base, "\"median\": 0.010", "\"median\": 0.020");
	char *faster = replace(base, "\"median\": 0.010", "\"median\": 0.005");
	char *text = diff_text(base, slower, 0, &regressed);
	assert_contains(text, "- **f** (k.c): changed; time: 2.00x slower\n");
	free(text);
	text = diff_text(base, faster, 0, &regressed);
	assert_contains(text, "- **f** (k.c): changed; time: 2.00x faster\n");
	free(text);
	free(base);
	free(slower);
	free(faster);

	base = replace(base_text, "\"cv\": 0.01", "\"cv\": 0.3");
	slower = replace(base, "\"median\": 0.010", "\"median\": 0.020");
	faster = replace(base, "\"median\": 0.010", "\"median\": 0.005");
	text = diff_text(base, slower, 0, &regressed);
	assert_contains(text, "no significant change in 2 functions");
	free(text);
	text = diff_text(base, faster, 0, &regressed);
	assert_contains(text, "no significant change in 2 functions");
	free(text);
	free(base);
	free(slower);
	free(faster);
}

/* ---- impossible values ------------------------------------------------------------------------------- */

/* Each impossible value gives an error naming the report and the function, the verdict "invalid" with the
 * reason, and no figure ("-0.01x faster", "infx faster"); the other function is still compared. */
static void impossible_values_are_invalid(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to, *reason;
	} cases[] = {
	    {"\"median\": 0.010", "\"median\": -0.01",
	     "measured.seconds.median is -0.01: a time must be positive and finite"},
	    {"\"median\": 0.010", "\"median\": 1e999",
	     "measured.seconds.median is inf: a time must be positive and finite"},
	    {"\"median\": 0.010", "\"median\": 0", "measured.seconds.median is 0: a time must be positive and finite"},
	    {"\"median\": 0.010", "\"median\": \"fast\"", "measured.seconds.median is a string, not a number"},
	    {"\"cv\": 0.01", "\"cv\": -1",
	     "measured.cv is -1: a coefficient of variation must be non-negative and finite"},
	    {"\"value\": 800", "\"value\": -800", "flops.value is -800: a count must be non-negative and finite"},
	    {"\"expr\": \"8*n\"", "\"expr\": 8", "flops.expr is a number, not a string"},
	    {"\"seconds\": {\"median\": 0.010}", "\"seconds\": [0.010]",
	     "measured.seconds.median cannot be read: the path goes through an array"},
	    {"\"measured\": {\"seconds\": {\"median\": 0.010}, \"cv\": 0.01, \"error\": null}", "\"measured\": 5",
	     "measured is a number, not an object"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int regressed, errors;
		char *problems, *head = replace(base_text, cases[i].from, cases[i].to), expected[256];
		char *text = diff_format(base_text, head, 0.10, KC_DIFF_MD, &regressed, &problems, &errors);
		snprintf(expected, sizeof expected, "- **f** (k.c): invalid: in head, %s\n", cases[i].reason);
		assert_contains(text, expected);
		assert_contains(text, "1 other function unchanged");
		assert_null(strstr(text, "x faster"));
		snprintf(expected, sizeof expected, "kcost diff: error: HEAD: function 'f' (k.c): %s\n",
		         cases[i].reason);
		assert_contains(problems, expected);
		assert_int_equal(errors, 1);
		assert_int_equal(regressed, 0);
		free(problems);
		free(text);
		/* the other way round, the same value is the base's */
		text = diff_format(head, base_text, 0.10, KC_DIFF_TEXT, &regressed, &problems, &errors);
		snprintf(expected, sizeof expected, "  f (k.c): invalid: in base, %s\n", cases[i].reason);
		assert_contains(text, expected);
		assert_int_equal(errors, 1);
		free(problems);
		free(text);
		free(head);
	}
}

/* Times so far apart that their ratio overflows are no figure either. */
static void times_too_far_apart_are_invalid(void **state)
{
	(void)state;
	int regressed, errors;
	char *problems, *base = replace(base_text, "\"median\": 0.010", "\"median\": 1e-300");
	char *head = replace(base_text, "\"median\": 0.010", "\"median\": 1e300");
	char *text = diff_format(base, head, 0.10, KC_DIFF_JSON, &regressed, &problems, &errors);
	assert_contains(text, "\"time\":\t\"invalid\"");
	assert_contains(text,
	                "\"invalid\":\t\"in head, measured.seconds.median is 1e+300, 1e-300 in base: too far apart "
	                "to compare\"");
	assert_null(strstr(text, "time_ratio"));
	assert_int_equal(errors, 1);
	free(problems);
	free(text);
	free(base);
	free(head);
}

/* Entries without a name are skipped with an error; a function listed twice is compared once, with a warning. */
static void nameless_and_repeated_entries(void **state)
{
	(void)state;
	int regressed, errors;
	char *problems, *head = replace(base_text, "\"name\": \"g\"", "\"name\": \"f\"");
	char *nameless = replace(base_text, "\"name\": \"g\",", "");
	char *text = diff_format(base_text, head, 0, KC_DIFF_MD, &regressed, &problems, &errors);
	assert_string_equal(problems, "kcost diff: warning: HEAD: function 'f' (k.c) is listed twice (functions[1]): "
	                              "the first is compared\n");
	assert_int_equal(errors, 0);
	assert_contains(text, "- **g** (k.c): removed\n");
	assert_contains(text, "1 other function unchanged");
	free(problems);
	free(text);
	text = diff_format(nameless, base_text, 0, KC_DIFF_MD, &regressed, &problems, &errors);
	assert_string_equal(problems, "kcost diff: error: BASE: functions[1] has no \"name\" string: skipped\n");
	assert_int_equal(errors, 1);
	assert_contains(text, "- **g** (k.c): added\n");
	free(problems);
	free(text);
	free(head);
	free(nameless);
}

/* ---- hostile names ----------------------------------------------------------------------------------- */

/* A name that carries a forged line, an escape sequence, a carriage return and a bidi override. */
#define FORGED      "f\n  g (k.c): changed; time: 9.99x slower\x1b[31m\xe2\x80\xae!\r"
#define FORGED_JSON "f\\n  g (k.c): changed; time: 9.99x slower\\u001b[31m\\u202e!\\r"

static void names_cannot_forge_lines(void **state)
{
	(void)state;
	int regressed;
	char *base = replace(base_text, "\"name\": \"f\"", "\"name\": \"" FORGED_JSON "\"");
	char *head = replace(base, "\"median\": 0.010", "\"median\": 0.020");
	char *text = diff_format(base, head, 0, KC_DIFF_TEXT, &regressed, NULL, NULL);
	assert_string_equal(text, "kcost diff\n"
	                          "  f\\n  g (k.c): changed; time: 9.99x slower\\x1b[31m\\u202e!\\x0d (k.c): changed; "
	                          "time: 2.00x slower\n"
	                          "  1 other function unchanged\n");
	free(text);
	text = diff_format(base, head, 0, KC_DIFF_MD, &regressed, NULL, NULL);
	assert_contains(text,
	                "\n- **f\\n  g (k.c): changed; time: 9.99x slower\\x1b\\[31m\\u202e!\\x0d** (k.c): changed; "
	                "time: 2.00x slower\n");
	free(text);
	free(base);
	free(head);
}

/* In Markdown, a name makes no mention, issue reference or link: a zero-width space breaks each pattern. A
 * formula with a bidi override leaves its code span for the escaped form. */
static void names_make_no_links_or_mentions(void **state)
{
	(void)state;
	int regressed;
	char *base = replace(base_text, "\"file\": \"k.c\"", "\"file\": \"@octocat/www.x.io/https://e.com/#12/a@b.c\"");
	char *head = replace(base, "\"expr\": \"8*n\"", "\"expr\": \"8*n\\u202e\"");
	char *text = diff_format(base, head, 0, KC_DIFF_MD, &regressed, NULL, NULL);
	assert_contains(text, "- **f** (@&#8203;octocat/www&#8203;.x.io/https:&#8203;//e.com/#&#8203;12/a@&#8203;b.c): "
	                      "changed; time: no significant change (1.00x)\n"
	                      "  - FLOPs: `8*n` → 8\\*n\\u202e\n");
	assert_null(strstr(text, "\xe2\x80\xae"));
	free(text);
	free(base);
	free(head);
}

/* ---- the escapes ------------------------------------------------------------------------------------- */

static void escapes_show_controls_and_bidi(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	/* U+202E RLO, U+2066 LRI, U+061C ALM, U+2028 LS; U+00B5 and U+20AC are shown as they are */
	kc_visible_puts(&b, "a\xe2\x80\xae"
	                    "b\xe2\x81\xa6"
	                    "c\xd8\x9c"
	                    "d\xe2\x80\xa8"
	                    "e\r\t\x7f \xc2\xb5\xe2\x82\xac");
	assert_string_equal(kc_buf_str(&b), "a\\u202eb\\u2066c\\u061cd\\u2028e\\x0d\\x09\\x7f \xc2\xb5\xe2\x82\xac");
	kc_buf_reset(&b);
	kc_escape_md_cell(&b, "x\xe2\x80\xaey\x1b[0m\nz @me #1 #x WWW.a.b awww.c ftp://d");
	assert_string_equal(kc_buf_str(&b), "x\\u202ey\\[0m<br>z @&#8203;me #&#8203;1 #x WWW&#8203;.a.b awww.c "
	                                    "ftp:&#8203;//d");
	kc_buf_reset(&b);
	kc_escape_md_inline(&b, "x\ny\x1b|");
	assert_string_equal(kc_buf_str(&b), "x\\ny\\x1b\\|");
	kc_buf_reset(&b);
	kc_escape_md_code(&b, "n\x1b");
	assert_string_equal(kc_buf_str(&b), "n\\x1b");
	kc_buf_reset(&b);
	kc_escape_md_code(&b, "@n\t| www.x");
	assert_string_equal(kc_buf_str(&b), "`@n\t\\| www.x`"); /* nothing links in a code span */
	kc_buf_release(&b);
}

/* The terminal table escapes the function's name in its row, its formula line and its dataflow title. */
static void terminal_table_escapes_names(void **state)
{
	(void)state;
	struct kc_analysis an = {0};
	struct kc_function *f = KC_NEW(&an.arena, struct kc_function), *fns[1] = {f};
	f->name = "k\x1b]0;pwned\x07\xe2\x80\xae";
	f->loc = (struct kc_loc){"k.c", 1, 1};
	f->syms.syms[0] = (struct kc_sym){.name = "n", .has_value = 1, .value = 10};
	f->syms.names[0] = "n";
	f->syms.n = 1;
	f->n_size_params = 1;
	f->cost.ops[KC_OP_MUL][KC_PREC_F32] = kc_poly_sym(&an.arena, 0);
	f->exact = 1;
	an.functions = fns;
	an.n_functions = 1;
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);
	kc_report_text(mem, &an, NULL, 0);
	fclose(mem);
	assert_contains(out, "\nk\\x1b]0;pwned\\x07\\u202e  ");
	assert_contains(out, "\nk\\x1b]0;pwned\\x07\\u202e: flops n, ");
	assert_null(strchr(out, '\x1b'));
	assert_null(strstr(out, "\xe2\x80\xae"));
	free(out);
	kc_arena_release(&an.arena);
}

/* ---- size -------------------------------------------------------------------------------------------- */

/* A report of n functions k0..k{n-1} in file k.c, in the given order, each with a median of 0.010 s but
 * function `slow`, 0.020 s. */
static cJSON *many_functions(int n, int reversed, int slow)
{
	cJSON *doc = cJSON_CreateObject(), *fns = cJSON_AddArrayToObject(doc, "functions");
	cJSON_AddNumberToObject(doc, "schema", 1);
	for (int k = 0; k < n; k++) {
		int i = reversed ? n - 1 - k : k;
		char name[32];
		snprintf(name, sizeof name, "k%d", i);
		cJSON *f = cJSON_CreateObject(), *m = cJSON_AddObjectToObject(f, "measured");
		cJSON_AddStringToObject(f, "name", name);
		cJSON_AddStringToObject(f, "file", "k.c");
		cJSON_AddStringToObject(cJSON_AddObjectToObject(f, "flops"), "expr", "8*n");
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "seconds"), "median", i == slow ? 0.020 : 0.010);
		cJSON_AddNumberToObject(m, "cv", 0.01);
		cJSON_AddItemToArray(fns, f);
	}
	return doc;
}

/* 100,000 functions, the head's in the reverse order: every one is matched (a scan of the other report per
 * function made this minutes long; bench/diff times it). */
static void a_hundred_thousand_functions(void **state)
{
	(void)state;
	enum { N = 100000 };
	cJSON *base = many_functions(N, 0, -1), *head = many_functions(N, 1, 4242);
	struct kc_diff_opts o = {0.05, 0.10, KC_DIFF_MD, {NULL, NULL}, NULL};
	char err[256];
	struct kc_diff *d = kc_diff_compare(base, head, &o, err, sizeof err);
	assert_non_null(d);
	struct kc_buf b = KC_BUF_INIT;
	kc_diff_render(d, &b);
	assert_string_equal(kc_buf_str(&b), "## kcost: cost changes\n\n"
	                                    "- **k4242** (k.c): changed; time: 2.00x slower — **regression: slower**\n"
	                                    "\n99999 other functions unchanged\n"
	                                    "\nregression beyond the --fail-on-regression threshold\n");
	assert_int_equal(kc_diff_errors(d), 0);
	kc_buf_release(&b);
	kc_diff_free(d);
	cJSON_Delete(base);
	cJSON_Delete(head);
}

/* A report of n functions k0..k{n-1}, each timed in 8 slices around `median` (x0.99 .. x1.01), function k
 * at `median` times factor(k). */
static cJSON *sliced_functions(int n, double (*factor)(int))
{
	cJSON *doc = cJSON_CreateObject(), *fns = cJSON_AddArrayToObject(doc, "functions");
	cJSON_AddNumberToObject(doc, "schema", 1);
	for (int k = 0; k < n; k++) {
		char name[48];
		snprintf(name, sizeof name, "kernel_with_a_long_name_%d", k);
		cJSON *f = cJSON_CreateObject(), *m = cJSON_AddObjectToObject(f, "measured");
		cJSON_AddStringToObject(f, "name", name);
		cJSON_AddStringToObject(f, "file", "kernels/k.c");
		cJSON_AddStringToObject(cJSON_AddObjectToObject(f, "flops"), "expr", "8*n");
		double v[8], median = 0.010 * factor(k);
		for (int i = 0; i < 8; i++)
			v[i] = median * (0.99 + 0.02 * i / 7);
		cJSON *sec = cJSON_AddObjectToObject(m, "seconds");
		cJSON_AddNumberToObject(sec, "median", median);
		cJSON_AddItemToObject(sec, "slices", cJSON_CreateDoubleArray(v, 8));
		cJSON_AddNumberToObject(m, "cv", 0.01);
		cJSON_AddItemToArray(fns, f);
	}
	return doc;
}
static double same(int k)
{
	(void)k;
	return 1;
}
static double half_slower_half_faster(int k)
{
	return k % 2 ? 0.5 : 2;
}

/* 1,000 functions that all changed: the comment holds GitHub's limit (65,536 characters), the regressions
 * first, then the improvements, the rows past KC_DIFF_MD_MAX counted. */
static void a_thousand_changes_fit_one_comment(void **state)
{
	(void)state;
	cJSON *base = sliced_functions(1000, same), *head = sliced_functions(1000, half_slower_half_faster);
	struct kc_diff_opts o = {0.05, 0.10, KC_DIFF_MD, {NULL, NULL}, NULL};
	char err[256];
	struct kc_diff *d = kc_diff_compare(base, head, &o, err, sizeof err);
	assert_non_null(d);
	struct kc_buf b = KC_BUF_INIT;
	kc_diff_render(d, &b);
	const char *text = kc_buf_str(&b);
	assert_true(b.len <= KC_DIFF_MD_MAX + 200 && b.len < 65536);
	/* 500 regressions of ~170 bytes do not all fit in 40,000: the rest are counted */
	const char *first =
	    strstr(text, "- **kernel\\_with\\_a\\_long\\_name\\_0** (kernels/k.c): changed; time: slower, 2x");
	assert_non_null(first);
	assert_null(strstr(text, "time: faster")); /* every regression before any improvement */
	const char *cut = strstr(text, "more changed functions: the full table is in the report\n");
	assert_non_null(cut);
	int rows = 0;
	for (const char *p = text; (p = strstr(p, "\n- **")); p++)
		rows++;
	char want[64];
	snprintf(want, sizeof want, "\n… and %d more changed functions", 1000 - rows);
	assert_non_null(strstr(text, want));
	assert_int_equal(kc_diff_regressed(d), 1);
	kc_buf_release(&b);
	kc_diff_free(d);
	cJSON_Delete(base);
	cJSON_Delete(head);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(a_thousand_changes_fit_one_comment),
	    cmocka_unit_test(identical_runs_have_no_change),
	    cmocka_unit_test(slower_beyond_noise_is_a_regression),
	    cmocka_unit_test(a_change_within_the_noise_is_not_significant),
	    cmocka_unit_test(added_and_removed_functions_are_listed),
	    cmocka_unit_test(foreign_documents_are_refused),
	    cmocka_unit_test(mutated_reports_never_crash),
	    cmocka_unit_test(mutated_shards_never_crash),
	    cmocka_unit_test(merge_keeps_the_shards_text),
	    cmocka_unit_test(labels_name_the_inputs_where_they_are_shown),
	    cmocka_unit_test(sarif_logs_are_checked),
	    cmocka_unit_test(speed_up_and_slow_down_are_mirrored),
	    cmocka_unit_test(impossible_values_are_invalid),
	    cmocka_unit_test(times_too_far_apart_are_invalid),
	    cmocka_unit_test(nameless_and_repeated_entries),
	    cmocka_unit_test(names_cannot_forge_lines),
	    cmocka_unit_test(names_make_no_links_or_mentions),
	    cmocka_unit_test(escapes_show_controls_and_bidi),
	    cmocka_unit_test(terminal_table_escapes_names),
	    cmocka_unit_test(a_hundred_thousand_functions),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	release_docs();
	return failed;
}

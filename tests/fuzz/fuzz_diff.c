/* fuzz_diff.c — libFuzzer target: the report readers of `kcost diff` (reporter/diff.h) and `kcost merge`
 * (reporter/merge.h).
 *
 * The input is two report.json texts separated by the first NUL byte (no NUL: the same text as BASE and
 * HEAD). Both are parsed as cli/diff.c parses them, compared, and rendered in each format with the problems; a
 * SARIF log's messages are single lines. Then they are merged as two shards (their texts given, as cli/merge.c
 * gives them) and every output of the merge rendered: its report.json is JSON again and has every function of
 * both, its comment and terminal lines show no control character. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What no output of kcost diff holds, whatever the reports say (issue #11: names printed raw): a control
 * character other than newline and tab, and the bidirectional overrides and isolates U+202A..U+202E,
 * U+2066..U+2069. */
static void check_visible(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			abort();
		if (p[0] == 0xe2 &&
		    ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) || (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)))
			abort();
	}
}

/* A SARIF log's message texts, decoded from JSON, are visible too (no-op for another document). */
static void check_sarif_messages(const cJSON *log)
{
	const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(log, "runs"), 0), *result;
	cJSON_ArrayForEach(result, cJSON_GetObjectItemCaseSensitive(run, "results"))
	{
		const cJSON *text =
		    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(result, "message"), "text");
		if (!cJSON_IsString(text) || strchr(text->valuestring, '\n'))
			abort();
		check_visible(text->valuestring);
	}
}

/* The two reports merged: an error that says why, or every output whole. */
static void merge(cJSON *a, const char *a_text, cJSON *b, const char *b_text)
{
	struct kc_merge_input in[2] = {{"a.json", a, a_text, NULL, NULL, NULL, NULL},
	                               {"b.json", b, b_text, NULL, NULL, NULL, NULL}};
	struct kc_merge_opts o = {"fuzz", NULL, 0, "2026-01-01T00:00:00Z", "out"};
	struct kc_merge *m = NULL;
	char err[512] = "";
	if (kc_merge_reports(in, 2, &o, &m, err, sizeof err) < 0) {
		if (!memchr(err, 0, sizeof err) || !err[0])
			abort(); /* a refusal says why */
		return;
	}
	for (int what = KC_MERGE_TEXT; what <= KC_MERGE_HTML; what++) {
		struct kc_buf out = KC_BUF_INIT;
		if (kc_merge_render(m, (enum kc_merge_output)what, &out) < 0)
			abort();
		if (what == KC_MERGE_JSON || what == KC_MERGE_SARIF) {
			cJSON *doc = cJSON_ParseWithOpts(kc_buf_str(&out), NULL, 1);
			int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "functions")) +
			        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b, "functions"));
			if (!doc || (what == KC_MERGE_JSON &&
			             cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "functions")) != n))
				abort();
			cJSON_Delete(doc);
		} else if (what != KC_MERGE_HTML) {
			check_visible(kc_buf_str(&out));
		}
		kc_buf_release(&out);
	}
	struct kc_buf problems = KC_BUF_INIT;
	kc_merge_render_problems(m, &problems);
	check_visible(kc_buf_str(&problems));
	kc_buf_release(&problems);
	kc_merge_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	size_t first = strlen(text);
	const char *second = first < size ? text + first + 1 : text;
	cJSON *base = cJSON_ParseWithOpts(text, NULL, 1), *head = cJSON_ParseWithOpts(second, NULL, 1);
	if (base && head) {
		static const enum kc_diff_format formats[] = {KC_DIFF_MD, KC_DIFF_TEXT, KC_DIFF_JSON, KC_DIFF_SARIF};
		for (int f = 0; f < 4; f++) {
			struct kc_diff_opts o = {0.05, 0.1, formats[f], {"base.json", NULL}, NULL};
			char err[512];
			struct kc_diff *d = kc_diff_compare(base, head, &o, err, sizeof err);
			if (!d) {
				if (!memchr(err, 0, sizeof err) || !err[0])
					abort(); /* a refusal says why */
				break;
			}
			struct kc_buf b = KC_BUF_INIT;
			kc_diff_render_problems(d, &b);
			(void)kc_diff_regressed(d);
			(void)kc_diff_errors(d);
			if (f >= 2) { /* JSON and SARIF are one JSON document, whatever the names in the reports */
				struct kc_buf j = KC_BUF_INIT;
				kc_diff_render(d, &j);
				cJSON *out = cJSON_ParseWithOpts(kc_buf_str(&j), NULL, 1);
				if (!out)
					abort();
				check_sarif_messages(out);
				cJSON_Delete(out);
				kc_buf_release(&j);
			} else {
				kc_diff_render(d, &b);
			}
			check_visible(kc_buf_str(&b));
			kc_buf_release(&b);
			kc_diff_free(d);
		}
	}
	if (base && head)
		merge(base, text, head, second);
	cJSON_Delete(base);
	cJSON_Delete(head);
	free(text);
	return 0;
}

/* fuzz_split.c — libFuzzer target: the plan of a file parsed in parts (analyzer/split.h).
 *
 * The first byte chooses 2 to 4 parts, the rest is the file. On every input, the plan must be one a parse can
 * use: bodies in file order, each from a '{' to its '}', none overlapping another's removal, and each part's
 * text the file's bytes but for spaces over what it blanks, line ends kept. (That the analysis in parts gives
 * the whole parse's report is fuzz_tu's to check: it analyzes every input that splits both ways.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "split.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_plan(const struct kc_split *s, const char *text, size_t len)
{
	if (!s->parts)
		return;
	if (s->parts < 2 || s->parts > KC_SPLIT_MAX_PARTS || s->n_bodies < 1 || s->len != len)
		abort();
	for (int i = 0; i < s->n_bodies; i++) {
		const struct kc_split_body *b = &s->bodies[i];
		if (b->part < 0 || b->part >= s->parts || b->open >= b->close || b->close >= len || b->decl > b->open ||
		    text[b->open] != '{' || text[b->close] != '}')
			abort();
		if (i > 0 && (s->bodies[i - 1].close >= (b->removed ? b->decl : b->open)))
			abort();
	}
	/* what part p may blank: the inside of another part's body, or its whole definition */
	unsigned char *may = malloc(len + 1);
	if (!may)
		abort();
	for (int p = 0; p < s->parts; p++) {
		memset(may, 0, len + 1);
		for (int i = 0; i < s->n_bodies; i++) {
			const struct kc_split_body *b = &s->bodies[i];
			if (b->part != p)
				memset(may + (b->removed ? b->decl : b->open + 1), 1,
				       b->removed ? b->close + 1 - b->decl : b->close - b->open - 1);
		}
		for (size_t j = 0; j < len; j++) {
			char c = s->text[p][j];
			if (c != text[j] && (c != ' ' || text[j] == '\n' || text[j] == '\r' || !may[j]))
				abort();
		}
	}
	free(may);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	struct kc_split s;
	kc_split_plan(&s, text, len, 2 + data[0] % 3, 1);
	check_plan(&s, text, len);
	kc_split_release(&s);
	return 0;
}

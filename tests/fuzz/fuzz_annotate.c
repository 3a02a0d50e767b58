/* fuzz_annotate.c — libFuzzer target: the annotation value language (analyzer/annotate.h).
 *
 * The input is split at its first NUL (or taken whole): the first byte chooses the entry point
 * (even: kc_annot_parse_expr with the names n, m, k resolving to symbols; odd: kc_annot_parse_sizes), the rest
 * is the annotation text. A parsed expression is formatted, as the reports do. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct kc_poly *resolve(void *ctx, const char *name, size_t len)
{
	static const char *const names[] = {"n", "m", "k"};
	for (int i = 0; i < 3; i++)
		if (len == strlen(names[i]) && !memcmp(name, names[i], len))
			return kc_poly_sym(ctx, i);
	return NULL;
}

static int set_size(void *ctx, const char *name, size_t len, long long value)
{
	(void)ctx;
	/* the contract: a name that is not empty, a value in 0 .. INT64_MAX */
	if (!len || !name || value < 0)
		abort();
	return len == 4 && !memcmp(name, "stop", 4) ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	int sizes = data[0] & 1;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	struct kc_arena a = KC_ARENA_INIT;
	const char *err = NULL;
	if (sizes) {
		if (kc_annot_parse_sizes(&a, text, set_size, NULL, &err) < 0 && !err)
			abort();
	} else {
		struct kc_poly *p = NULL;
		if (kc_annot_parse_expr(&a, text, resolve, &a, &p, &err) < 0) {
			if (!err)
				abort();
		} else {
			static const char *const names[] = {"n", "m", "k"};
			struct kc_buf b = KC_BUF_INIT;
			kc_poly_format(p, names, &b);
			kc_buf_release(&b);
		}
	}
	kc_arena_release(&a);
	free(text);
	return 0;
}

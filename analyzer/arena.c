/* arena.c — bump allocator with geometrically growing blocks. */
#include "arena.h"

#include <stdarg.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kc_arena_block {
	struct kc_arena_block *prev;
	size_t used, cap;
	alignas(max_align_t) unsigned char data[];
};

#define KC_ARENA_MIN_BLOCK (64 * 1024)

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void *kc_arena_alloc(struct kc_arena *a, size_t size)
{
	size = round_up(size ? size : 1, alignof(max_align_t));
	struct kc_arena_block *b = a->head;
	if (!b || b->cap - b->used < size) {
		size_t cap = b ? b->cap * 2 : KC_ARENA_MIN_BLOCK;
		if (cap < size)
			cap = round_up(size, KC_ARENA_MIN_BLOCK);
		b = malloc(sizeof(*b) + cap);
		if (!b) {
			fprintf(stderr, "kcost: fatal: out of memory (%zu bytes)\n", cap);
			abort();
		}
		b->prev = a->head;
		b->used = 0;
		b->cap = cap;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	a->total += size;
	memset(p, 0, size);
	return p;
}

char *kc_arena_strndup(struct kc_arena *a, const char *s, size_t len)
{
	char *p = kc_arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *kc_arena_strdup(struct kc_arena *a, const char *s) { return kc_arena_strndup(a, s, strlen(s)); }

char *kc_arena_printf(struct kc_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return kc_arena_strdup(a, "");
	char *p = kc_arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void kc_arena_release(struct kc_arena *a)
{
	struct kc_arena_block *b = a->head;
	while (b) {
		struct kc_arena_block *prev = b->prev;
		free(b);
		b = prev;
	}
	a->head = NULL;
	a->total = 0;
}

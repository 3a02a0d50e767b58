/* arena.c — bump allocator with geometrically growing blocks. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "arena.h"

#include <sys/mman.h>

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

#define HUGE_PAGE ((size_t)2 << 20)

/* Large blocks are aligned to 2 MiB and offered to the kernel as huge pages: an analysis of a thousand
 * kernels touches a few hundred MiB, and first-touch page faults were a third of its time. */
static struct kc_arena_block *new_block(size_t cap)
{
	size_t bytes = sizeof(struct kc_arena_block) + cap;
	void *p = NULL;
	if (bytes < HUGE_PAGE)
		return malloc(bytes);
	if (posix_memalign(&p, HUGE_PAGE, bytes) != 0)
		return NULL;
	madvise(p, bytes & ~(HUGE_PAGE - 1), MADV_HUGEPAGE); /* advice only: failure is harmless */
	return p;
}

void *kc_arena_alloc(struct kc_arena *a, size_t size)
{
	size = round_up(size ? size : 1, alignof(max_align_t));
	struct kc_arena_block *b = a->head;
	if (!b || b->cap - b->used < size) {
		size_t cap = b ? b->cap * 2 : KC_ARENA_MIN_BLOCK;
		if (cap < size)
			cap = round_up(size, KC_ARENA_MIN_BLOCK);
		b = new_block(cap);
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

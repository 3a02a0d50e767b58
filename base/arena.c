/* arena.c — bump allocator with geometrically growing blocks.
 *
 * Zeroing. Every allocation is zeroed, and large blocks are zeroed at most once: they are fresh mappings,
 * zero already, and `dirty` marks how far such a block has been handed out, so only storage handed out
 * before a kc_arena_reset is cleared again. Small blocks come from malloc (a short-lived scratch arena
 * takes and returns one per call; calloc would clear all of it every time) and are cleared as they are
 * handed out. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "arena.h"

#include <sys/mman.h>

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kc_arena_block {
	struct kc_arena_block *prev;
	size_t used, cap;
	size_t dirty; /* data[0 .. dirty) is not known to be zero (all of a malloc'ed block) */
	void *map;    /* the mapping holding this block (large blocks), else NULL: the block was malloc'ed */
	size_t map_bytes;
	alignas(max_align_t) unsigned char data[];
};

#define KC_ARENA_MIN_BLOCK (64 * 1024)
#define HUGE_PAGE          ((size_t)2 << 20)

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* A block. Large ones are zeroed: mapped at a 2 MiB boundary and offered to the kernel as huge pages: on a
 * VM a first touch of a 4 KiB page costs microseconds, and an analysis touches thousands of them. */
static struct kc_arena_block *new_block(size_t cap)
{
	size_t bytes = sizeof(struct kc_arena_block) + cap;
	if (bytes < HUGE_PAGE) {
		struct kc_arena_block *b = malloc(bytes);
		if (b) {
			b->map = NULL;
			b->dirty = cap;
		}
		return b;
	}
	size_t map_bytes = round_up(bytes, HUGE_PAGE) + HUGE_PAGE;
	unsigned char *map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	unsigned char *p = (unsigned char *)round_up((uintptr_t)map, HUGE_PAGE);
	madvise(p, round_up(bytes, HUGE_PAGE), MADV_HUGEPAGE); /* advice only: failure is harmless */
	struct kc_arena_block *b = (struct kc_arena_block *)p;
	b->map = map;
	b->map_bytes = map_bytes;
	b->dirty = 0;
	return b;
}

static void free_block(struct kc_arena_block *b)
{
	if (b->map)
		munmap(b->map, b->map_bytes);
	else
		free(b);
}

/* size bytes from the head block (a new one when it is full), zeroed when `zero`. */
static void *bump(struct kc_arena *a, size_t size, int zero)
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
	unsigned char *p = b->data + b->used;
	if (zero && b->used < b->dirty) /* not fresh: clear what is there */
		memset(p, 0, b->dirty - b->used < size ? b->dirty - b->used : size);
	b->used += size;
	if (b->dirty < b->used)
		b->dirty = b->used;
	a->total += size;
	return p;
}

void *kc_arena_alloc(struct kc_arena *a, size_t size)
{
	return bump(a, size, 1);
}

void *kc_arena_alloc_uninit(struct kc_arena *a, size_t size)
{
	return bump(a, size, 0);
}

char *kc_arena_strndup(struct kc_arena *a, const char *s, size_t len)
{
	char *p = kc_arena_alloc_uninit(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *kc_arena_strdup(struct kc_arena *a, const char *s)
{
	return kc_arena_strndup(a, s, strlen(s));
}

char *kc_arena_vprintf(struct kc_arena *a, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0) {
		va_end(again);
		return kc_arena_strdup(a, "");
	}
	char *p = kc_arena_alloc_uninit(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

char *kc_arena_printf(struct kc_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = kc_arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

struct kc_arena_mark kc_arena_mark(const struct kc_arena *a)
{
	return (struct kc_arena_mark){a->head, a->head ? a->head->used : 0, a->total};
}

void kc_arena_reset(struct kc_arena *a, struct kc_arena_mark m)
{
	struct kc_arena_block *keep = a->head;
	if (keep == m.block) { /* nothing new since the mark: back to its fill level */
		if (keep)
			keep->used = m.used;
		a->total = m.total;
		return;
	}
	/* keep the newest block (the largest) for the next user; free the ones between it and the mark */
	for (struct kc_arena_block *b = keep->prev; b != m.block;) {
		struct kc_arena_block *prev = b->prev;
		free_block(b);
		b = prev;
	}
	keep->prev = m.block;
	keep->used = 0;
	if (m.block)
		m.block->used = m.used;
	a->total = m.total;
}

void kc_arena_release(struct kc_arena *a)
{
	struct kc_arena_block *b = a->head;
	while (b) {
		struct kc_arena_block *prev = b->prev;
		free_block(b);
		b = prev;
	}
	a->head = NULL;
	a->total = 0;
}

void kc_arena_adopt(struct kc_arena *a, struct kc_arena *from)
{
	struct kc_arena_block *last = from->head;
	if (!last)
		return;
	while (last->prev)
		last = last->prev;
	if (a->head) { /* below a's head, which goes on handing out storage */
		last->prev = a->head->prev;
		a->head->prev = from->head;
	} else {
		a->head = from->head;
	}
	a->total += from->total;
	from->head = NULL;
	from->total = 0;
}

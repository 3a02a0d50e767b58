/* arena.h — bump allocator: everything of one analysis run lives in one arena, freed at once. */
#ifndef KC_ARENA_H
#define KC_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct kc_arena_block;

struct kc_arena {
	struct kc_arena_block *head; /* most recent block */
	size_t total;                /* bytes handed out, for statistics */
};

#define KC_ARENA_INIT {0, 0}

/* Return zeroed, max-aligned storage of `size` bytes owned by the arena. Aborts on out-of-memory
 * (an analysis that cannot allocate cannot produce a partial answer worth keeping). */
void *kc_arena_alloc(struct kc_arena *a, size_t size);

/* The same, not zeroed: for storage its user overwrites whole. */
void *kc_arena_alloc_uninit(struct kc_arena *a, size_t size);

/* Typed helpers. */
#define KC_NEW(a, type)      ((type *)kc_arena_alloc((a), sizeof(type)))
#define KC_NEW_N(a, type, n) ((type *)kc_arena_alloc((a), sizeof(type) * (size_t)(n)))

/* Copy `len` bytes of `s` into the arena as a NUL-terminated string. */
char *kc_arena_strndup(struct kc_arena *a, const char *s, size_t len);
char *kc_arena_strdup(struct kc_arena *a, const char *s);
/* printf into the arena (kc_arena_vprintf: with a va_list, which it consumes). */
char *kc_arena_vprintf(struct kc_arena *a, const char *fmt, va_list ap);
char *kc_arena_printf(struct kc_arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A point in an arena's life, and a return to it: kc_arena_reset(a, m) frees everything allocated after
 * kc_arena_mark(a) returned m, keeping one block for reuse (scratch memory for a loop: mark once, reset at
 * the end of every iteration, and the pages stay warm). Storage allocated before the mark is untouched. */
struct kc_arena_mark {
	struct kc_arena_block *block;
	size_t used, total;
};
struct kc_arena_mark kc_arena_mark(const struct kc_arena *a);
void kc_arena_reset(struct kc_arena *a, struct kc_arena_mark m);

/* Move every block of `from` into `a` (storage handed out by either stays where it is, owned by a now);
 * from is empty afterwards. A mark of a taken before is not to be reset to. */
void kc_arena_adopt(struct kc_arena *a, struct kc_arena *from);

/* Free every block; the arena is empty and reusable afterwards. */
void kc_arena_release(struct kc_arena *a);

#endif

/* diag.h — diagnostics: accumulated in a list, printed compiler-style with the source line and a caret. */
#ifndef KC_DIAG_H
#define KC_DIAG_H

#include <stdio.h>

#include "arena.h"

/* A source location. `file` is the path as the user gave it (or as the compiler spelled an #include);
 * line and col are 1-based; line 0 means "no location" (the diagnostic is about the whole file or run). */
struct kc_loc {
	const char *file;
	unsigned line, col;
};

enum kc_severity { KC_NOTE, KC_WARNING, KC_ERROR };

struct kc_diag {
	struct kc_loc loc;
	enum kc_severity severity;
	const char *message;  /* lowercase, no trailing period, like a compiler's */
	const char *function; /* function it belongs to, or NULL */
	struct kc_diag *next;
};

/* An ordered list of diagnostics; storage comes from the arena given to kc_diag_add. */
struct kc_diags {
	struct kc_diag *head, *tail;
	int errors, warnings;
};

/* Append a diagnostic (message printf-formatted into the arena); returns it. */
struct kc_diag *kc_diag_add(struct kc_arena *a, struct kc_diags *list, struct kc_loc loc, enum kc_severity sev,
                            const char *function, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Drop the diagnostics after `mark` (NULL: all) that repeat one before them in the list: same place,
 * severity and message (the copies of an unrolled loop body say what the first said). */
void kc_diags_drop_repeats(struct kc_diags *list, const struct kc_diag *mark);

const char *kc_severity_name(enum kc_severity sev);

/* Print one diagnostic as `file:line:col: severity: message`, then the source line and a caret under the
 * column when the file can be read. `color` adds ANSI colours (use when the stream is a TTY). */
void kc_diag_print(FILE *out, const struct kc_diag *d, int color);

/* Print every diagnostic of the list in order. */
void kc_diags_print(FILE *out, const struct kc_diags *list, int color);

#endif

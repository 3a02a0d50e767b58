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

/* What a diagnostic is about, chosen where it is emitted: the rule it is a result of in SARIF output
 * (reporter/sarif.c names each one `kcost/<name>`: those names are stable, and so is the kind each place
 * emits). The text outputs do not show it. A warning the benchmark sizes make moot (a branch they do not
 * take) becomes a note of the same kind. */
enum kc_diag_kind {
	KC_DIAG_COMPILER,        /* clang's own errors and warnings, reprinted */
	KC_DIAG_PARSE,           /* a file that could not be parsed, a parse error inside a function */
	KC_DIAG_NOT_ANALYZED,    /* a function or input left out: too deep, out of memory, a bad --function */
	KC_DIAG_INEXACT,         /* a count that is not exact (the FLOPs, and so everything) */
	KC_DIAG_INEXACT_CMP,     /* only the comparisons (and the traffic) are not exact */
	KC_DIAG_INEXACT_TRAFFIC, /* only the traffic is not exact */
	KC_DIAG_LIMIT,           /* a capacity of kcost's reached (kc_ir_limit): a figure not exact */
	KC_DIAG_ANNOTATION,      /* a KCOST_* annotation that is wrong or ignored */
	KC_DIAG_ASSUMPTION,      /* what the counts assume or leave out (notes) */
	KC_DIAG_PERFORMANCE,     /* a performance hazard in the code (a column walk that conflicts in the caches) */
	KC_DIAG_RUN,             /* running the kernels: a failure, a wrong result, an implausible time */
	KC_DIAG_KINDS
};

struct kc_diag {
	struct kc_loc loc;
	enum kc_severity severity;
	enum kc_diag_kind kind;
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
                            enum kc_diag_kind kind, const char *function, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
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

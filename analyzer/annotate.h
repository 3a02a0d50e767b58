/* annotate.h — the small value language of kcost annotations (KCOST_SIZES, KCOST_EXTENT, KCOST_TRIPS).
 * Grammar (C precedence):  expr := shift;  shift := sum ('<<' sum)*;  sum := prod (('+'|'-') prod)*;
 * prod := unary (('*'|'/') unary)*;  unary := '-'* primary;  primary := INTEGER | NAME | '(' expr ')'.
 * Division is exact-only (a non-integer quotient is an error). Names resolve through a callback. Integers
 * beyond 64 bits, parentheses nested more than 256 deep, arithmetic overflow and a value (or a step towards it)
 * of more than 64 terms are errors; the parser's recursion is bounded by the parentheses, whatever the length
 * of the text, and its time by the terms. */
#ifndef KC_ANNOTATE_H
#define KC_ANNOTATE_H

#include "poly.h"

/* Resolve NAME (len bytes) to a polynomial; return NULL if unknown. */
typedef struct kc_poly *(*kc_name_resolver)(void *ctx, const char *name, size_t len);

/* Parse `text` into *out. Returns 0, or -1 with a message (arena string) in *err. */
int kc_annot_parse_expr(struct kc_arena *a, const char *text, kc_name_resolver resolve, void *ctx, struct kc_poly **out,
                        const char **err);

/* Parse "n = 1 << 20, m = 512" calling `set` for each pair (it returns -1 to stop the parse). 0, or -1 with
 * *err set. The value expression may not use names; it must be an integer in 0 .. INT64_MAX. */
typedef int (*kc_size_setter)(void *ctx, const char *name, size_t len, long long value);
int kc_annot_parse_sizes(struct kc_arena *a, const char *text, kc_size_setter set, void *ctx, const char **err);

#endif

/* words.h — internal to reporter/: a function's dataflow in words (counts with their units, changes, intensities,
 * where a pass is, a buffer's shape and size, a pair's verdict), the same for a graph label (graph.c) and a
 * terminal line (text.c): only the escaping of user text and the dash and arrow differ. */
#ifndef KC_WORDS_H
#define KC_WORDS_H

#include "analysis.h"
#include "arena.h"
#include "buf.h"
#include "figures.h"

/* Appends user text s (names, reasons, formulas) to b escaped for one output. */
typedef void (*kc_words_put_fn)(struct kc_buf *b, const char *s);

/* How the counts and names of one function are written into one output. */
struct kc_words {
	struct kc_arena *arena; /* figures, sums */
	struct kc_figure_memo *memo;
	const struct kc_function *f;
	kc_words_put_fn put;
	const char *dash, *arrow; /* "–" and "→" in the graph, ASCII in a terminal */
};

enum kc_count_form {
	KC_COUNT_FORMULA, /* "2*n FLOP" */
	KC_COUNT_BOTH,    /* "2*n FLOP = 33.6 MFLOP" */
	KC_COUNT_VALUE    /* "33.6 MFLOP", or the formula when there is no value */
};

/* p in one of the count forms; "n/a UNIT" when p is NULL. A constant is always written as its value. */
void kc_words_count(const struct kc_words *w, struct kc_buf *b, const struct kc_poly *p, const char *unit,
                    enum kc_count_form form);
/* "72*n → 8*n B", then " (1.2 GB → 134.2 MB)" when both have values and one is not a constant. */
/* " and 89% of the streaming bytes" (" and " and `what` given): the share of before that after removes, at the
 * benchmark sizes ("<1%", ">99%" where rounding would say 0 or 100); nothing without values or when nothing is
 * removed. */
void kc_words_removed_share(struct kc_buf *b, const struct kc_figure *before, const struct kc_figure *after,
                            const char *lead, const char *what);
void kc_words_change(const struct kc_words *w, struct kc_buf *b, const struct kc_poly *before,
                     const struct kc_poly *after, const char *unit);
/* FLOP per byte: "0.111" at the benchmark sizes, else the formula "1/9"; "n/a" when unknown or no bytes. */
void kc_words_intensity(const struct kc_words *w, struct kc_buf *b, const struct kc_poly *flops,
                        const struct kc_poly *bytes);
/* "call mlp_bias", "lines 35–36", "line 35", or "" for a pass without a location. */
void kc_words_pass_place(const struct kc_words *w, struct kc_buf *b, const struct kc_pass *p);
/* "float[n]"; "?" for an unknown type or extent. */
void kc_words_buffer_shape(const struct kc_words *w, struct kc_buf *b, const struct kc_buffer *buf);
/* Buffer bytes (extent * element size) in the KC_COUNT_VALUE form; "size unknown" without an extent. */
void kc_words_buffer_bytes(const struct kc_words *w, struct kc_buf *b, const struct kc_buffer *buf);
/* "not fusable (reduction)" or "fusable as epilogue". */
void kc_words_edge_verdict(struct kc_buf *b, const struct kc_fusion_edge *e);

/* The facts the words are about. */
/* read + write, from a, or NULL when neither is known or the sum overflows. */
struct kc_poly *kc_words_traffic_total(struct kc_arena *a, const struct kc_traffic *t);
/* The FLOPs of passes first..last of a group, from a, or NULL when one is unknown or the sum overflows. */
struct kc_poly *kc_words_group_flops(struct kc_arena *a, const struct kc_dataflow *df,
                                     const struct kc_fusion_group *grp);
/* Index of the fusion group that removes buffer b, or -1. */
int kc_words_group_removing(const struct kc_dataflow *df, int b);
/* Index of the fusion group holding pass i, or -1. */
int kc_words_group_of_pass(const struct kc_dataflow *df, int i);
/* A pair worth a line or an edge: not fusable, or fusable only as an epilogue. */
int kc_words_edge_noted(const struct kc_fusion_edge *e);

#endif

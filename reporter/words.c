/* words.c — a dataflow's counts, places and verdicts in words, for graph labels and terminal lines. */
#include "words.h"

#include "format.h"

/* p in one of the count forms; "n/a UNIT" when p is NULL. A constant is always written as its value. */
void kc_words_count(const struct kc_words *w, struct kc_buf *b, const struct kc_poly *p, const char *unit,
                    enum kc_count_form form)
{
	struct kc_figure fig;
	kc_figure_of(w->memo, w->f, p, &fig);
	if (!fig.poly) {
		kc_buf_printf(b, "n/a %s", unit);
		return;
	}
	if (fig.has_value && (form == KC_COUNT_VALUE || kc_poly_is_const(p, NULL))) {
		kc_format_si(b, (double)fig.value, unit);
		return;
	}
	w->put(b, fig.expr);
	kc_buf_printf(b, " %s", unit);
	if (fig.has_value && form == KC_COUNT_BOTH) {
		kc_buf_puts(b, " = ");
		kc_format_si(b, (double)fig.value, unit);
	}
}

/* "72*n → 8*n B", then " (1.2 GB → 134.2 MB)" when both have values and one is not a constant. */
void kc_words_removed_share(struct kc_buf *b, const struct kc_figure *before, const struct kc_figure *after,
                            const char *lead, const char *what)
{
	if (!before->has_value || !after->has_value || before->value <= 0 || after->value >= before->value ||
	    after->value < 0)
		return;
	double share = 100.0 * (double)(before->value - after->value) / (double)before->value;
	if (share < 0.5)
		kc_buf_printf(b, "%s<1%% of %s", lead, what);
	else if (share >= 99.5 && after->value > 0)
		kc_buf_printf(b, "%s>99%% of %s", lead, what);
	else
		kc_buf_printf(b, "%s%.0f%% of %s", lead, share, what);
}

void kc_words_change(const struct kc_words *w, struct kc_buf *b, const struct kc_poly *before,
                     const struct kc_poly *after, const char *unit)
{
	struct kc_figure from, to;
	kc_figure_of(w->memo, w->f, before, &from);
	kc_figure_of(w->memo, w->f, after, &to);
	w->put(b, from.expr ? from.expr : "n/a");
	kc_buf_printf(b, " %s ", w->arrow);
	w->put(b, to.expr ? to.expr : "n/a");
	kc_buf_printf(b, " %s", unit);
	if (!from.has_value || !to.has_value || (kc_poly_is_const(before, NULL) && kc_poly_is_const(after, NULL)))
		return;
	kc_buf_puts(b, " (");
	kc_format_si(b, (double)from.value, unit);
	kc_buf_printf(b, " %s ", w->arrow);
	kc_format_si(b, (double)to.value, unit);
	kc_buf_putc(b, ')');
}

/* FLOP per byte: "0.111" at the benchmark sizes, else the formula "1/9"; "n/a" when unknown or no bytes. */
void kc_words_intensity(const struct kc_words *w, struct kc_buf *b, const struct kc_poly *flops,
                        const struct kc_poly *bytes)
{
	long long num, den;
	const char *why;
	if (!flops || !bytes || kc_poly_is_zero(bytes)) {
		kc_buf_puts(b, "n/a");
		return;
	}
	if (kc_function_eval(w->f, flops, &num, &why) == 0 && kc_function_eval(w->f, bytes, &den, &why) == 0 &&
	    den != 0) {
		kc_format_sig3(b, (double)num / (double)den);
		return;
	}
	struct kc_buf ratio = KC_BUF_INIT;
	kc_poly_format_ratio(flops, bytes, w->f->syms.names, &ratio);
	w->put(b, kc_buf_str(&ratio));
	kc_buf_release(&ratio);
}

/* read + write, or NULL when neither is known or the sum overflows. */
struct kc_poly *kc_words_traffic_total(struct kc_arena *a, const struct kc_traffic *t)
{
	struct kc_poly *sum = NULL;
	if ((!t->read && !t->write) || kc_traffic_total(a, t, &sum) < 0)
		return NULL;
	return sum;
}

/* The FLOPs of passes first..last, or NULL when one is unknown or the sum overflows. */
struct kc_poly *kc_words_group_flops(struct kc_arena *a, const struct kc_dataflow *df,
                                     const struct kc_fusion_group *grp)
{
	struct kc_poly *sum = kc_poly_zero(a);
	for (int i = grp->first; i <= grp->last; i++)
		if (!df->passes[i].flops || kc_poly_add(a, sum, df->passes[i].flops, &sum) < 0)
			return NULL;
	return sum;
}

/* "call mlp_bias", "lines 35–36", "line 35", or "" for a pass without a location. */
void kc_words_pass_place(const struct kc_words *w, struct kc_buf *b, const struct kc_pass *p)
{
	if (p->callee) {
		kc_buf_puts(b, "call ");
		w->put(b, p->callee);
	} else if (p->begin.line && p->end.line > p->begin.line) {
		kc_buf_printf(b, "lines %u%s%u", p->begin.line, w->dash, p->end.line);
	} else if (p->begin.line) {
		kc_buf_printf(b, "line %u", p->begin.line);
	}
}

/* "float[n]"; "?" for an unknown type or extent. */
void kc_words_buffer_shape(const struct kc_words *w, struct kc_buf *b, const struct kc_buffer *buf)
{
	w->put(b, buf->elem_type ? buf->elem_type : "?");
	kc_buf_putc(b, '[');
	if (buf->extent) {
		struct kc_buf extent = KC_BUF_INIT;
		kc_poly_format(buf->extent, w->f->syms.names, &extent);
		w->put(b, kc_buf_str(&extent));
		kc_buf_release(&extent);
	} else {
		kc_buf_putc(b, '?');
	}
	kc_buf_putc(b, ']');
}

/* Buffer bytes (extent * element size) in the KC_COUNT_VALUE form; "size unknown" without an extent. */
void kc_words_buffer_bytes(const struct kc_words *w, struct kc_buf *b, const struct kc_buffer *buf)
{
	struct kc_figure fig;
	kc_figure_buffer_bytes(w->memo, w->f, buf, &fig);
	if (fig.poly)
		kc_words_count(w, b, fig.poly, "B", KC_COUNT_VALUE);
	else
		kc_buf_puts(b, "size unknown");
}

/* Index of the fusion group that removes buffer b, or -1. */
int kc_words_group_removing(const struct kc_dataflow *df, int b)
{
	for (int g = 0; g < df->n_groups; g++)
		for (int k = 0; k < df->groups[g].n_removes; k++)
			if (df->groups[g].removes[k] == b)
				return g;
	return -1;
}

/* Index of the fusion group holding pass i, or -1. */
int kc_words_group_of_pass(const struct kc_dataflow *df, int i)
{
	for (int g = 0; g < df->n_groups; g++)
		if (df->groups[g].first <= i && i <= df->groups[g].last)
			return g;
	return -1;
}

/* A pair worth a line or an edge: not fusable, or fusable only as an epilogue. */
int kc_words_edge_noted(const struct kc_fusion_edge *e)
{
	return !e->legal || e->kind == KC_FUSE_EPILOGUE;
}

/* "not fusable (reduction)" or "fusable as epilogue". */
void kc_words_edge_verdict(struct kc_buf *b, const struct kc_fusion_edge *e)
{
	if (e->legal)
		kc_buf_printf(b, "fusable as %s", kc_fusion_kind_name(e->kind));
	else
		kc_buf_printf(b, "not fusable (%s)", kc_fusion_kind_name(e->kind));
}

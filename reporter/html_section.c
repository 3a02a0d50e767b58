/* html_section.c — one function's section of the HTML page: sizes, operations, traffic, buffers, dataflow,
 * source listing with per-nest counts, measurements; and the small pieces of HTML the page shares with it. */
#include "html_section.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"
#include "graph.h"
#include "graphs.h"
#include "roofline.h"
#include "source.h"

#define MAX_SOURCE_LINES 2000 /* per function */

struct html {
	struct kc_arena *a;
	struct kc_figure_memo *memo; /* figures of the function being written, in *fa (emptied after each) */
	struct kc_arena *fa;
	const struct kc_analysis *an;
	const struct kc_measurements *m;
	struct kc_report_figures *rf;
	int fn;        /* index in an->functions of the function whose section is being written */
	int legend_fn; /* the function whose dataflow comes first: the legend precedes it */
};

/* The function whose section shows the first dataflow, or -1 (see fn_dataflow). */
static int first_dataflow(const struct kc_analysis *an)
{
	for (int i = 0; i < an->n_functions; i++)
		if (!an->functions[i]->skip &&
		    (an->functions[i]->dataflow.n_passes >= 2 || an->functions[i]->dataflow.n_groups))
			return i;
	return -1;
}

/* What a struct html allocates from; it points into one of these. */
struct html_store {
	struct kc_arena a, fa;
	struct kc_figure_memo memo;
};

static void html_init(struct html *h, struct html_store *st, struct kc_report_figures *rf,
                      const struct kc_measurements *m)
{
	memset(h, 0, sizeof *h);
	st->a = (struct kc_arena)KC_ARENA_INIT;
	st->fa = (struct kc_arena)KC_ARENA_INIT;
	kc_figure_memo_init(&st->memo, &st->fa);
	h->a = &st->a;
	h->fa = &st->fa;
	h->memo = &st->memo;
	h->an = rf->an;
	h->m = m;
	h->rf = rf;
	h->fn = -1;
	h->legend_fn = first_dataflow(rf->an);
}

static void html_release(struct html_store *st)
{
	kc_figure_memo_release(&st->memo);
	kc_arena_release(&st->fa);
	kc_arena_release(&st->a);
}

static void esc(struct kc_buf *b, const char *s)
{
	kc_escape_html(b, s);
}

void kc_html_fn_id(struct kc_buf *b, const char *name)
{
	kc_buf_puts(b, "fn-");
	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    strchr("_.-", *s))
			kc_buf_putc(b, (char)*s);
		else
			kc_buf_printf(b, "-%02X", *s);
}

void kc_html_fn_link(struct kc_buf *b, const char *name)
{
	kc_buf_puts(b, "<a href=\"#");
	kc_html_fn_id(b, name);
	kc_buf_puts(b, "\">");
	esc(b, name);
	kc_buf_puts(b, "</a>");
}

/* <code>8*n</code> = <span class="v" title="8000 FLOP">8.0 kFLOP</span>, or n/a with the reason. */
static void formula_value(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (!fig->expr) {
		kc_buf_puts(b, "<span class=\"muted\">n/a</span>");
		return;
	}
	kc_buf_puts(b, "<code>");
	esc(b, fig->expr);
	kc_buf_puts(b, "</code> = ");
	if (!fig->has_value) {
		kc_buf_puts(b, "<span class=\"muted\">n/a (");
		esc(b, fig->why);
		kc_buf_puts(b, ")</span>");
		return;
	}
	kc_buf_puts(b, "<span class=\"v\" title=\"");
	kc_format_int(b, fig->value);
	kc_buf_putc(b, ' ');
	kc_buf_puts(b, unit);
	kc_buf_puts(b, "\">");
	kc_format_si(b, (double)fig->value, unit);
	kc_buf_puts(b, "</span>");
}

void kc_html_exact_badge(struct kc_buf *b, const struct kc_function *f)
{
	kc_buf_puts(b, f->exact ? "<span class=\"exact\">" : "<span class=\"approx\">");
	kc_format_exactness(b, f);
	kc_buf_puts(b, "</span>");
}

static void diag_item(struct kc_buf *b, const struct kc_diag *d)
{
	const char *sev = kc_severity_name(d->severity);
	kc_buf_puts(b, "<li><code>");
	esc(b, d->loc.file ? d->loc.file : "kcost");
	if (d->loc.line)
		kc_buf_printf(b, ":%u:%u", d->loc.line, d->loc.col ? d->loc.col : 1);
	kc_buf_printf(b, "</code>: <span class=\"sev-%s\">%s</span>: ", sev, sev);
	esc(b, d->message);
	kc_buf_puts(b, "</li>\n");
}

void kc_html_diags(struct kc_buf *b, const struct kc_diags *list)
{
	kc_buf_puts(b, "<ul class=\"diags\">\n");
	for (const struct kc_diag *d = list->head; d; d = d->next)
		diag_item(b, d);
	kc_buf_puts(b, "</ul>\n");
}

static void cost_row(struct kc_buf *b, const char *label, const struct kc_figure *fig, const char *unit)
{
	kc_buf_puts(b, "<tr><th>");
	esc(b, label);
	kc_buf_puts(b, "</th><td>");
	formula_value(b, fig, unit);
	kc_buf_puts(b, "</td></tr>\n");
}

static int figure_nonzero(const struct kc_figure *fig)
{
	return !fig->poly || !kc_poly_is_zero(fig->poly);
}

/* FLOPs by category and precision, transcendentals by function, comparisons. */
static void fn_costs(struct kc_buf *b, const struct html *h, const struct kc_function *f,
                     const struct kc_cost_figures *cf)
{
	char label[96];
	kc_buf_puts(b, "<h3>Operations</h3>\n<table class=\"costs\">\n");
	cost_row(b, "FLOPs", &cf->flops, "FLOP");
	for (int op = 0; op < KC_OP_N; op++)
		if (figure_nonzero(&cf->by_op[op])) {
			snprintf(label, sizeof label, "\xc2\xb7 %s%s", kc_op_name((enum kc_op)op),
			         op == KC_OP_FMA ? " (2 FLOPs each)" : "");
			cost_row(b, label, &cf->by_op[op], "FLOP");
		}
	for (int p = 0; p < KC_PREC_N; p++)
		if (figure_nonzero(&cf->by_prec[p])) {
			snprintf(label, sizeof label, "\xc2\xb7 %s", kc_prec_name((enum kc_prec)p));
			cost_row(b, label, &cf->by_prec[p], "FLOP");
		}
	cost_row(b, "transcendentals (not FLOPs)", &cf->transcendentals, "calls");
	for (const struct kc_named_count *t = f->cost.transcendentals; t; t = t->next) {
		struct kc_figure fig;
		kc_figure_of(h->memo, f, t->count, &fig);
		snprintf(label, sizeof label, "\xc2\xb7 %s", t->name ? t->name : "?");
		cost_row(b, label, &fig, "calls");
	}
	if (figure_nonzero(&cf->cmp))
		cost_row(b, "comparisons, fmin/fmax/fabs (not FLOPs)", &cf->cmp, "ops");
	kc_buf_puts(b, "</table>\n");
}

static void fn_traffic(struct kc_buf *b, const struct kc_cost_figures *cf)
{
	kc_buf_puts(b, "<h3>Traffic and intensity</h3>\n<table class=\"traffic\">\n<thead><tr><th>model</th>"
	               "<th>bytes</th><th>read</th><th>written</th><th>intensity (FLOPs / bytes)</th></tr></thead>\n");
	for (int model = 0; model < KC_MODEL_N; model++) {
		kc_buf_puts(b, "<tr><th>");
		kc_buf_puts(b, kc_model_name((enum kc_model)model));
		kc_buf_puts(b, "</th><td>");
		formula_value(b, &cf->bytes[model], "B");
		kc_buf_puts(b, "</td><td>");
		formula_value(b, &cf->read[model], "B");
		kc_buf_puts(b, "</td><td>");
		formula_value(b, &cf->write[model], "B");
		kc_buf_puts(b, "</td><td>");
		if (cf->intensity_expr[model]) {
			kc_buf_puts(b, "<code>");
			esc(b, cf->intensity_expr[model]);
			kc_buf_puts(b, "</code> = ");
		}
		kc_format_intensity(b, cf, model);
		kc_buf_puts(b, "</td></tr>\n");
	}
	kc_buf_puts(b, "</table>\n");
}

static void buffer_row(struct kc_buf *b, const struct html *h, const struct kc_function *f, const struct kc_buffer *buf)
{
	struct kc_figure extent, bytes;
	kc_figure_of(h->memo, f, buf->extent, &extent);
	kc_figure_buffer_bytes(h->memo, f, buf, &bytes);
	kc_buf_puts(b, "<tr><td><code>");
	esc(b, buf->name);
	kc_buf_puts(b, "</code></td><td><code>");
	esc(b, buf->elem_type);
	kc_buf_printf(b, "</code> (%d B)</td><td>", buf->elem_size);
	formula_value(b, &extent, "elements");
	if (buf->extent_origin == KC_EXTENT_ACCESSES) {
		kc_buf_puts(b, "<br><span class=\"origin\">");
		kc_format_extent_origin(b, buf, "\xe2\x80\x93");
		if (buf->lowest) {
			struct kc_figure lowest;
			kc_figure_of(h->memo, f, buf->lowest, &lowest);
			kc_buf_puts(b, ", from index ");
			formula_value(b, &lowest, "");
		}
		kc_buf_puts(b, "</span>");
	}
	kc_buf_printf(b, "</td><td>%s%s%s</td><td>", kc_role_name(buf->role), buf->is_scratch ? " (scratch)" : "",
	              kc_buffer_is_global(f, (int)(buf - f->buffers)) ? " (global)" : "");
	formula_value(b, &bytes, "B");
	kc_buf_puts(b, "</td></tr>\n");
}

static void fn_buffers(struct kc_buf *b, const struct html *h, const struct kc_function *f)
{
	if (!f->n_buffers)
		return;
	kc_buf_puts(b, "<h3>Buffers</h3>\n<table class=\"buffers\">\n<thead><tr><th>name</th><th>element type</th>"
	               "<th>extent</th><th>role</th><th>size</th></tr></thead>\n");
	for (int i = 0; i < f->n_buffers; i++)
		buffer_row(b, h, f, &f->buffers[i]);
	kc_buf_puts(b, "</table>\n");
}

static void fn_sizes(struct kc_buf *b, const struct kc_function *f)
{
	int shown = 0;
	kc_buf_puts(b, "<p class=\"sizes\">Benchmark sizes: ");
	for (int s = 0; s < f->syms.n; s++) {
		const struct kc_sym *sym = &f->syms.syms[s];
		if (sym->floor_of || sym->is_loop)
			continue;
		kc_buf_puts(b, shown++ ? ", <code>" : "<code>");
		esc(b, sym->name);
		if (sym->has_value)
			kc_buf_printf(b, " = %lld</code>", sym->value);
		else
			kc_buf_puts(b, "</code> (no value: set it with KCOST_SIZES or --size)");
	}
	kc_buf_puts(b, shown ? "" : "none (no size symbols)");
	if (f->sizes_caller) {
		kc_buf_puts(b, " <span class=\"sizes-from\">(sizes from the call at ");
		esc(b, f->sizes_call.file ? f->sizes_call.file : "");
		kc_buf_printf(b, ":%u:%u in <code>", f->sizes_call.line, f->sizes_call.col);
		esc(b, f->sizes_caller);
		kc_buf_puts(b, "</code>)</span>");
	}
	kc_buf_puts(b, "</p>\n");
}

/* What one nest costs, shown beside its lines. */
static void nest_note(struct kc_buf *b, const struct html *h, const struct kc_function *f, int i)
{
	const struct kc_nest *nest = &f->nests[i];
	const struct kc_nest_figures *nf = kc_figures_nest(h->rf, h->fn, i);
	const struct kc_cost_figures *cf = &nf->cost;
	kc_buf_puts(b, "<b>nest ");
	kc_format_int(b, i + 1);
	kc_buf_puts(b, "</b>, lines ");
	kc_format_int(b, nest->begin.line);
	kc_buf_puts(b, "&ndash;");
	kc_format_int(b, nest->end.line);
	if (nest->callee) {
		kc_buf_puts(b, ": call to <code>");
		esc(b, nest->callee);
		kc_buf_puts(b, "</code>");
	}
	if (nest->trips) {
		kc_buf_puts(b, ": ");
		formula_value(b, &nf->trips, "iterations");
	}
	kc_buf_puts(b, "<br>");
	formula_value(b, &cf->flops, "FLOP");
	if (figure_nonzero(&cf->transcendentals)) {
		kc_buf_puts(b, ", ");
		formula_value(b, &cf->transcendentals, "calls");
	}
	for (int model = KC_MODEL_STREAMING; model < KC_MODEL_N; model++) {
		kc_buf_puts(b, "<br>bytes (");
		kc_buf_puts(b, kc_model_name((enum kc_model)model));
		kc_buf_puts(b, "): ");
		formula_value(b, &cf->bytes[model], "B");
	}
}

/* The lines a function spans: its own range, widened to its nests when the end is unknown. */
static void fn_lines(const struct kc_function *f, unsigned *first, unsigned *last)
{
	*first = f->loc.line;
	*last = f->end.line > *first ? f->end.line : *first;
	for (int i = 0; f->end.line < *first && i < f->n_nests; i++)
		if (f->nests[i].end.line > *last)
			*last = f->nests[i].end.line;
	if (*last - *first >= MAX_SOURCE_LINES)
		*last = *first + MAX_SOURCE_LINES - 1;
}

/* Rows of the listing: the cost cell of a nest spans the nest's lines (up to the next nest, so cells never
 * overlap); `covered` is the last line already inside such a cell. */
struct listing {
	unsigned last;    /* last line shown */
	unsigned covered; /* last line covered by a cost cell with rowspan */
};

static int nest_at(const struct kc_function *f, unsigned line)
{
	for (int i = 0; i < f->n_nests; i++)
		if (f->nests[i].begin.line == line)
			return i;
	return -1;
}

static void cost_cell(struct kc_buf *b, const struct html *h, const struct kc_function *f, unsigned line,
                      struct listing *ls)
{
	int i = nest_at(f, line);
	if (i < 0) {
		if (line > ls->covered)
			kc_buf_puts(b, "<td class=\"cost\"></td>");
		return;
	}
	unsigned end = f->nests[i].end.line > line ? f->nests[i].end.line : line;
	for (unsigned next = line + 1; next <= end; next++)
		if (nest_at(f, next) >= 0)
			end = next - 1;
	end = end < ls->last ? end : ls->last;
	kc_buf_puts(b, "<td class=\"cost\" rowspan=\"");
	kc_format_int(b, end - line + 1);
	kc_buf_puts(b, "\">");
	nest_note(b, h, f, i);
	kc_buf_puts(b, "</td>");
	ls->covered = end;
}

static void source_row(struct kc_buf *b, const struct html *h, const struct kc_function *f, unsigned line,
                       const char *text, size_t len, struct listing *ls)
{
	int inside = 0;
	for (int i = 0; i < f->n_nests; i++)
		inside |= line >= f->nests[i].begin.line && line <= f->nests[i].end.line;
	kc_buf_puts(b, "<tr class=\"");
	kc_buf_puts(b, inside ? "in-nest" : "");
	kc_buf_puts(b, nest_at(f, line) >= 0 ? " nest-begin" : "");
	kc_buf_puts(b, "\"><td class=\"ln\">");
	kc_format_int(b, line);
	kc_buf_puts(b, "</td><td class=\"code\">");
	esc(b, kc_arena_strndup(h->a, text, len));
	kc_buf_puts(b, "</td>");
	cost_cell(b, h, f, line, ls);
	kc_buf_puts(b, "</tr>\n");
}

#define MAX_LISTING_BYTES (8u << 20) /* larger files are not listed */

static void fn_source(struct kc_buf *b, struct html *h, const struct kc_function *f)
{
	unsigned first, last, line;
	const struct kc_source *src = f->loc.file ? kc_source_get(f->loc.file) : NULL;
	fn_lines(f, &first, &last);
	kc_buf_puts(b, "<h3>Source and per-nest counts</h3>\n");
	if (!src || !src->text || src->len > MAX_LISTING_BYTES || !first) {
		kc_buf_puts(b, "<p class=\"muted\">Source not available: cannot read <code>");
		esc(b, f->loc.file ? f->loc.file : "(unknown file)");
		kc_buf_puts(b, "</code>.</p>\n<ul class=\"nests\">\n");
		for (int i = 0; i < f->n_nests; i++) {
			kc_buf_puts(b, "<li>");
			nest_note(b, h, f, i);
			kc_buf_puts(b, "</li>\n");
		}
		kc_buf_puts(b, "</ul>\n");
		return;
	}
	struct listing ls = {last, 0};
	kc_buf_puts(b, "<table class=\"src\">\n");
	for (line = first; line <= last && line <= src->n_lines; line++) {
		const char *s;
		size_t len;
		if (kc_source_line(src, line, &s, &len) == 0)
			source_row(b, h, f, line, s, len, &ls);
	}
	kc_buf_puts(b, "</table>\n");
}

static void measured_time(struct kc_buf *b, const struct kc_measured_figures *mf)
{
	const struct kc_measurement *me = mf->me;
	kc_buf_puts(b, "<tr><th>time (min / median / p90)</th><td>");
	kc_format_seconds(b, me->seconds_min);
	kc_buf_puts(b, " / ");
	kc_format_seconds(b, me->seconds_median);
	kc_buf_puts(b, " / ");
	kc_format_seconds(b, me->seconds_p90);
	kc_buf_printf(b, " (%d samples, cv %.3g)</td></tr>\n<tr><th>throughput (median)</th><td>", me->samples, me->cv);
	if (mf->has_rate)
		kc_format_rate(b, mf->flop_per_s, mf->approx, "\xe2\x89\x88 ");
	else
		kc_buf_puts(b, "n/a");
	if (mf->approx)
		kc_buf_puts(b,
		            " <span class=\"muted\">(approximate: derived from a FLOP count that is not exact, not a "
		            "measurement)</span>");
	kc_buf_puts(b, "</td></tr>\n");
}

static void measured_traffic(struct kc_buf *b, const struct kc_measurement *me)
{
	kc_buf_puts(b, "<tr><th>measured traffic</th><td>");
	if (me->traffic_bytes > 0) {
		kc_format_si(b, me->traffic_bytes, "B");
		kc_buf_puts(b, " (DRAM, from ");
		esc(b, me->traffic_source ? me->traffic_source : "?");
		kc_buf_puts(b, ")");
	} else {
		kc_buf_puts(b, "unavailable");
		if (me->traffic_why) {
			kc_buf_puts(b, ": ");
			esc(b, me->traffic_why);
		}
	}
	kc_buf_puts(b, "</td></tr>\n");
}

static void fn_measured(struct kc_buf *b, const struct html *h, const struct kc_function *f,
                        const struct kc_cost_figures *cf)
{
	struct kc_measured_figures mf;
	kc_figures_measured(h->m, f, cf, &mf);
	const struct kc_measurement *me = mf.me;
	kc_buf_puts(b, "<h3>Measured</h3>\n");
	if (!me) {
		kc_buf_puts(b, "<p class=\"not-measured\">not measured</p>\n");
		return;
	}
	kc_buf_puts(b, "<table class=\"measured\">\n");
	if (me->error) {
		kc_buf_puts(b, "<tr><th>error</th><td>");
		esc(b, me->error);
		kc_buf_puts(b, "</td></tr>\n");
	} else if (mf.timed) {
		measured_time(b, &mf);
	}
	measured_traffic(b, me);
	struct kc_prediction pr;
	kc_figures_predict(h->fa, h->m, f, &pr);
	kc_buf_puts(b, "<tr><th>predicted</th><td>");
	if (pr.ok) {
		kc_format_seconds(b, pr.seconds);
		kc_buf_puts(b, ", bound: <b>");
		esc(b, pr.bound);
		kc_buf_puts(b, "</b>");
		if (pr.seconds_allocation > 0) {
			kc_buf_puts(b, "; + ");
			kc_format_seconds(b, pr.seconds_allocation);
			kc_buf_puts(b, " of page faults (its allocations: fresh pages on every call)");
		}
		kc_buf_puts(b, " (no overlap: ");
		kc_format_seconds(b, pr.seconds_no_overlap);
		kc_buf_puts(b, ")");
		if (mf.timed && pr.seconds > 0)
			kc_buf_printf(b, "; measured %.2f&times; the prediction", me->seconds_median / pr.seconds);
		if (!f->exact)
			kc_buf_puts(b, " <span class=\"muted\">(approximate: the counts are not exact)</span>");
	} else {
		kc_buf_puts(b, "not predicted: ");
		esc(b, pr.why ? pr.why : "?");
	}
	kc_buf_puts(b, "</td></tr>\n");
	if (me->n_libm) { /* what priced its libm calls (kc_figures_predict) */
		kc_buf_puts(b, "<tr><th>libm, per call</th><td>");
		for (int i = 0; i < me->n_libm; i++) {
			kc_buf_puts(b, i ? ", " : "");
			esc(b, me->libm[i].name);
			kc_buf_puts(b, " ");
			kc_format_seconds(b, me->libm[i].median);
			kc_buf_printf(b, " (median of %d sweeps)", me->libm[i].sweeps);
		}
		kc_buf_puts(b, " <span class=\"muted\">swept in the kernel's own process, between its timed calls: the "
		               "price of its calls in a prediction</span></td></tr>\n");
	}
	if (me->reference && me->equivalent >= 0) {
		kc_buf_puts(b, "<tr><th>same outputs as ");
		esc(b, me->reference);
		kc_buf_printf(b, "</th><td>%s (max relative error %.3g)</td></tr>\n",
		              me->equivalent ? "yes" : "<b>no</b>", me->max_rel_err);
	}
	int r = kc_figures_function_index(h->an, f->reference);
	const struct kc_measurement *rm = r >= 0 ? kc_figures_measurement(h->m, h->an->functions[r]) : NULL;
	if (rm && !rm->error && !me->error && rm->seconds_median > 0 && me->seconds_median > 0) {
		double ratio = me->seconds_median / rm->seconds_median;
		kc_buf_puts(b, "<tr><th>against ");
		esc(b, f->reference);
		kc_buf_printf(b, "</th><td>%.2f&times; %s (median ", ratio >= 1 ? ratio : 1 / ratio,
		              ratio >= 1 ? "slower" : "faster");
		kc_format_seconds(b, me->seconds_median);
		kc_buf_puts(b, " vs ");
		kc_format_seconds(b, rm->seconds_median);
		kc_buf_puts(b, ")</td></tr>\n");
	}
	kc_buf_puts(b, "<tr><th>compiler</th><td><code>");
	esc(b, me->compiler ? me->compiler : "?");
	kc_buf_puts(b, "</code></td></tr>\n</table>\n");
}

static void fn_extras(struct kc_buf *b, const struct kc_function *f)
{
	if (f->reference) {
		kc_buf_puts(b, "<p>Reference (computes the same outputs): ");
		kc_html_fn_link(b, f->reference);
		kc_buf_puts(b, "</p>\n");
	}
	if (!f->n_assumptions)
		return;
	kc_buf_puts(b, "<h3>Assumptions</h3>\n<ul>\n");
	for (int i = 0; i < f->n_assumptions; i++) {
		kc_buf_puts(b, "<li><code>");
		esc(b, f->assumptions[i]);
		kc_buf_puts(b, "</code></li>\n");
	}
	kc_buf_puts(b, "</ul>\n");
}

/* The legend of the dataflow graphs, once, before the first graph. */
static void dataflow_legend(struct kc_buf *b)
{
	kc_buf_printf(
	    b,
	    "<p class=\"legend\">Dataflow legend: boxes are passes (loop nests or calls) with their FLOPs and "
	    "streaming bytes; ellipses are buffers: <span class=\"swatch\" style=\"background:%s\"></span> input, "
	    "<span class=\"swatch\" style=\"background:%s\"></span> output, <span class=\"swatch\" "
	    "style=\"background:%s\"></span> in-out, <span class=\"swatch\" style=\"background:%s\"></span> "
	    "intermediate; <span class=\"swatch removed\" style=\"border-color:%s\"></span> dashed: removed by "
	    "fusion; blue frames: fusion groups; dotted edges: passes that cannot be fused, with the reason.</p>\n",
	    KC_GRAPH_COLOR_INPUT, KC_GRAPH_COLOR_OUTPUT, KC_GRAPH_COLOR_INOUT, KC_GRAPH_COLOR_INTERMEDIATE,
	    KC_GRAPH_COLOR_REMOVED);
}

/* "fusing passes 1-8 removes t1, ..., t7: streaming 72*n -> 8*n bytes" */
static void fusion_sentence(struct kc_buf *b, const struct html *h, const struct kc_function *f,
                            const struct kc_fusion_group *g)
{
	struct kc_poly *before, *after;
	struct kc_figure fb, fa;
	kc_traffic_total(h->a, &g->before, &before);
	kc_traffic_total(h->a, &g->after, &after);
	kc_figure_of(h->memo, f, before, &fb);
	kc_figure_of(h->memo, f, after, &fa);
	kc_buf_printf(b, "<li>fusing passes %d&ndash;%d", g->first + 1, g->last + 1);
	if (g->n_removes) {
		kc_buf_puts(b, " removes ");
		for (int i = 0; i < g->n_removes; i++) {
			kc_buf_puts(b, i ? ", <code>" : "<code>");
			esc(b, f->buffers[g->removes[i]].name);
			kc_buf_puts(b, "</code>");
		}
	}
	kc_buf_puts(b, ": streaming ");
	formula_value(b, &fb, "B");
	kc_buf_puts(b, " &rarr; ");
	formula_value(b, &fa, "B");
	kc_buf_puts(b, "</li>\n");
}

static void fn_dataflow(struct kc_buf *b, struct html *h, const struct kc_function *f, int i)
{
	const struct kc_dataflow *df = &f->dataflow;
	const struct kc_report_graph *g = h->rf->graphs ? &h->rf->graphs[i] : NULL;
	if (df->n_passes < 2 && !df->n_groups)
		return; /* one pass: nothing to fuse, the source listing says it all */
	kc_buf_puts(b, "<h3>Dataflow and fusion</h3>\n");
	if (i == h->legend_fn) /* before the first dataflow of the page, whichever thread renders its section */
		dataflow_legend(b);
	kc_buf_printf(b, "<p>%d passes%s, %d intermediate%s.</p>\n<ul class=\"fusion\">\n", df->n_passes,
	              df->in_loop ? " inside one outer loop" : "", df->n_intermediates,
	              df->n_intermediates == 1 ? "" : "s");
	for (int k = 0; k < df->n_groups; k++)
		fusion_sentence(b, h, f, &df->groups[k]);
	for (int e = 0; e + 1 < df->n_passes; e++)
		if (!df->edges[e].legal || df->edges[e].kind == KC_FUSE_EPILOGUE) {
			kc_buf_printf(b, "<li>passes %d &rarr; %d: %s (", e + 1, e + 2,
			              df->edges[e].legal ? "fusable as an epilogue" : "not fusable");
			esc(b, df->edges[e].reason);
			kc_buf_puts(b, ")</li>\n");
		}
	kc_buf_puts(b, "</ul>\n");
	if (g && g->svg) {
		kc_buf_puts(b, "<div class=\"graph\">\n");
		kc_buf_puts(b, g->svg);
		kc_buf_puts(b, "</div>\n");
	} else if (g && g->error) {
		kc_buf_puts(b, "<p class=\"muted\">graph not rendered: ");
		esc(b, g->error);
		kc_buf_puts(b, "</p>\n");
	}
}

static void fn_section(struct kc_buf *b, struct html *h, int i)
{
	const struct kc_function *f = h->an->functions[i];
	const struct kc_cost_figures *cf = &h->rf->functions[i];
	h->fn = i;
	kc_buf_puts(b, "<section class=\"function\" id=\"");
	kc_html_fn_id(b, f->name);
	kc_buf_puts(b, "\">\n<h2><code>");
	esc(b, f->name);
	kc_buf_puts(b, "</code></h2>\n<div class=\"body\">\n<p class=\"loc\"><code>");
	esc(b, f->loc.file ? f->loc.file : "?");
	kc_buf_putc(b, ':');
	kc_format_int(b, f->loc.line);
	kc_buf_puts(b, "</code> &middot; ");
	kc_html_exact_badge(b, f);
	kc_buf_puts(b, "</p>\n");
	fn_sizes(b, f);
	fn_extras(b, f);
	fn_costs(b, h, f, cf);
	fn_traffic(b, cf);
	fn_buffers(b, h, f);
	fn_dataflow(b, h, f, i);
	if (f->diags.head) {
		kc_buf_puts(b, "<h3>Diagnostics</h3>\n");
		kc_html_diags(b, &f->diags);
	}
	fn_source(b, h, f);
	fn_measured(b, h, f, cf);
	struct kc_arena_mark mark = kc_arena_mark(h->fa);
	kc_roofline_mini(b, h->fa, f, cf, h->m);
	kc_arena_reset(h->fa, mark);
	kc_buf_puts(b, "</div>\n</section>\n");
}

/* Function i's section, with figures derived into scratch memory emptied afterwards. */
static void section(struct kc_buf *b, struct html *h, int i)
{
	struct kc_arena_mark mark = kc_arena_mark(h->fa);
	fn_section(b, h, i);
	kc_figure_memo_clear(h->memo);
	kc_arena_reset(h->fa, mark);
}

struct kc_html_sections {
	struct html h;
	struct html_store st;
};

struct kc_html_sections *kc_html_sections_open(struct kc_report_figures *rf, const struct kc_measurements *m)
{
	struct kc_html_sections *hs = malloc(sizeof *hs);
	if (hs)
		html_init(&hs->h, &hs->st, rf, m);
	return hs;
}

void kc_html_section(struct kc_html_sections *hs, struct kc_buf *out, int i)
{
	section(out, &hs->h, i);
}

void kc_html_sections_close(struct kc_html_sections *hs)
{
	if (hs)
		html_release(&hs->st);
	free(hs);
}

/* text.c — the terminal summary: a table of the functions, then their formulas and their compact dataflow. */
#include "text.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"
#include "words.h"
#include "visible.h"

enum {
	COL_NAME,
	COL_FLOPS,
	COL_TRANS,
	COL_BYTES,
	COL_AI_MIN,
	COL_AI_STREAM,
	COL_AI_NAIVE,
	COL_EXACT,
	COL_PREDICTED,
	COL_TIME,
	COL_GFLOPS,
	COL_BOUND,
	COL_N
};

/* The predicted time stands next to the measured one: whether a change buys time is the measurement's word. */
static const char *const col_header[COL_N] = {"function",          "FLOPs",
                                              "transcendentals",   "bytes (min)",
                                              "AI (min)",          "AI (streaming)",
                                              "AI (naive)",        "exact",
                                              "time (predicted)",  "time (median, measured)",
                                              "FLOP/s (measured)", "bound (of the prediction)"};

/* Left-aligned columns: text, not numbers. */
static int left_aligned(int col)
{
	return col == COL_NAME || col == COL_EXACT || col == COL_BOUND;
}

struct row {
	const struct kc_function *f;
	const struct kc_cost_figures *cf;
	struct kc_buf cell[COL_N];
};

/* Display width of UTF-8 text: code points, not bytes ("µs" is 2 wide). */
static size_t display_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void measured_cells(struct row *r, const struct kc_measured_figures *mf)
{
	if (!mf->me) {
		kc_buf_puts(&r->cell[COL_TIME], "not measured");
		kc_buf_puts(&r->cell[COL_GFLOPS], "not measured");
		return;
	}
	if (!mf->timed) {
		kc_buf_puts(&r->cell[COL_TIME], "failed");
		kc_buf_puts(&r->cell[COL_GFLOPS], "n/a");
		return;
	}
	kc_format_seconds(&r->cell[COL_TIME], mf->me->seconds_median);
	if (mf->has_rate) /* "~": from a FLOP count that is not exact, the "approx" of the exact column */
		kc_format_rate(&r->cell[COL_GFLOPS], mf->flop_per_s, mf->approx, "~");
	else
		kc_buf_puts(&r->cell[COL_GFLOPS], "n/a");
}

/* A value with its unit; without a value (no benchmark size), the formula with its unit: "n FLOP". */
static void value_or_formula(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (!fig->has_value && fig->expr)
		kc_buf_printf(b, "%s %s", fig->expr, unit);
	else
		kc_format_si_figure(b, fig, unit);
}

/* The time model's prediction (model/predict.h) on the machine the report is read against. */
static void predicted_cells(struct row *r, const struct kc_measurements *m)
{
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_prediction pr;
	kc_figures_predict(&a, m, r->f, &pr);
	if (pr.ok) {
		kc_format_seconds(&r->cell[COL_PREDICTED], pr.seconds);
		kc_visible_puts(&r->cell[COL_BOUND], pr.bound ? pr.bound : "n/a");
		if (pr.seconds_allocation > 0) {
			kc_buf_puts(&r->cell[COL_BOUND], "; + ");
			kc_format_seconds(&r->cell[COL_BOUND], pr.seconds_allocation);
			kc_buf_puts(&r->cell[COL_BOUND], " of page faults (its allocations)");
		}
	} else {
		kc_buf_puts(&r->cell[COL_PREDICTED], "n/a");
		kc_visible_puts(&r->cell[COL_BOUND], pr.why ? pr.why : "n/a");
	}
	kc_arena_release(&a);
}

static void fill_row(struct row *r, const struct kc_measurements *m)
{
	const struct kc_cost_figures *cf = r->cf;
	kc_visible_puts(&r->cell[COL_NAME], r->f->name);
	value_or_formula(&r->cell[COL_FLOPS], &cf->flops, "FLOP");
	value_or_formula(&r->cell[COL_TRANS], &cf->transcendentals, "calls");
	value_or_formula(&r->cell[COL_BYTES], &cf->bytes[KC_MODEL_MIN], "B");
	kc_format_intensity(&r->cell[COL_AI_MIN], cf, KC_MODEL_MIN);
	kc_format_intensity(&r->cell[COL_AI_STREAM], cf, KC_MODEL_STREAMING);
	kc_format_intensity(&r->cell[COL_AI_NAIVE], cf, KC_MODEL_NAIVE);
	kc_format_exactness(&r->cell[COL_EXACT], r->f);
	struct kc_measured_figures mf;
	kc_figures_measured(m, r->f, cf, &mf);
	measured_cells(r, &mf);
	if (kc_figures_machine(m))
		predicted_cells(r, m);
}

/* Print one cell padded to width; text is left-aligned, numbers right-aligned. The last column gets no
 * trailing padding. */
static void print_cell(FILE *out, const char *text, int col, int last, size_t width, const char *color)
{
	int left = left_aligned(col);
	size_t pad = last && left ? 0 : width - display_width(text);
	fprintf(out, "%*s%s%s%s%*s", left ? 0 : (int)pad, "", color ? color : "", text, color ? "\033[0m" : "",
	        left ? (int)pad : 0, "");
}

static const char *cell_color(const struct row *r, int col, int color)
{
	if (!color)
		return NULL;
	if (col == COL_NAME)
		return "\033[1m";
	if (col == COL_EXACT)
		return r->f->exact ? "\033[32m" : "\033[33m";
	if (col == COL_BOUND)
		return "\033[36m";
	return strcmp(kc_buf_str(&r->cell[col]), "n/a") == 0 ? "\033[2m" : NULL;
}

/* The columns shown[c] says, in their order. */
static void print_table(FILE *out, struct row *rows, int n, const int *shown, int color)
{
	size_t width[COL_N];
	int last = 0;
	for (int c = 0; c < COL_N; c++) {
		if (!shown[c])
			continue;
		last = c;
		width[c] = display_width(col_header[c]);
		for (int i = 0; i < n; i++)
			if (display_width(kc_buf_str(&rows[i].cell[c])) > width[c])
				width[c] = display_width(kc_buf_str(&rows[i].cell[c]));
	}
	for (int c = 0; c < COL_N; c++)
		if (shown[c]) {
			fputs(c ? "  " : "", out);
			print_cell(out, col_header[c], c, c == last, width[c], color ? "\033[1;4m" : NULL);
		}
	fputc('\n', out);
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < COL_N; c++)
			if (shown[c]) {
				fputs(c ? "  " : "", out);
				print_cell(out, kc_buf_str(&rows[i].cell[c]), c, c == last, width[c],
				           cell_color(&rows[i], c, color));
			}
		fputc('\n', out);
	}
}

/* "gelu_fused: flops 8*n, transcendentals n, bytes(min) 8*n, bytes(streaming) 8*n". The name and the formulas
 * (their symbols are the kernel's identifiers) escaped for the terminal, as every user-derived string. */
static void print_formulas(FILE *out, const struct row *r, int color)
{
	const struct kc_cost_figures *cf = r->cf;
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, color ? "\033[1m" : "");
	kc_buf_add(&b, kc_buf_str(&r->cell[COL_NAME]), r->cell[COL_NAME].len);
	kc_buf_printf(&b, "%s: flops ", color ? "\033[0m" : "");
	kc_visible_puts(&b, cf->flops.expr ? cf->flops.expr : "n/a");
	if (cf->transcendentals.poly && !kc_poly_is_zero(cf->transcendentals.poly)) {
		kc_buf_puts(&b, ", transcendentals ");
		kc_visible_puts(&b, cf->transcendentals.expr);
	}
	for (int model = KC_MODEL_MIN; model <= KC_MODEL_STREAMING; model++) {
		kc_buf_printf(&b, ", bytes(%s) ", kc_model_name((enum kc_model)model));
		kc_visible_puts(&b, cf->bytes[model].expr ? cf->bytes[model].expr : "n/a");
	}
	if (r->f->sizes_caller) {
		kc_buf_puts(&b, "; sizes from the call at ");
		kc_visible_puts(&b, r->f->sizes_call.file ? r->f->sizes_call.file : "");
		kc_buf_printf(&b, ":%u:%u in ", r->f->sizes_call.line, r->f->sizes_call.col);
		kc_visible_puts(&b, r->f->sizes_caller);
	}
	kc_buf_putc(&b, '\n');
	fputs(kc_buf_str(&b), out);
	kc_buf_release(&b);
}

/* "add: extents inferred from accesses: a n (line 6), c n (lines 6-7)", when the function has such buffers. */
static void print_extents(FILE *out, const struct row *r)
{
	struct kc_buf b = KC_BUF_INIT;
	for (int i = 0; i < r->f->n_buffers; i++) {
		const struct kc_buffer *buf = &r->f->buffers[i];
		if (buf->extent_origin != KC_EXTENT_ACCESSES)
			continue;
		struct kc_buf expr = KC_BUF_INIT;
		kc_function_format(r->f, buf->extent, &expr);
		kc_buf_puts(&b, b.len ? ", " : "");
		kc_visible_puts(&b, buf->name);
		kc_buf_putc(&b, ' ');
		kc_visible_puts(&b, kc_buf_str(&expr));
		kc_buf_puts(&b, " (line");
		if (buf->last_line > buf->first_line)
			kc_buf_printf(&b, "s %u-%u)", buf->first_line, buf->last_line);
		else
			kc_buf_printf(&b, " %u)", buf->first_line);
		kc_buf_release(&expr);
	}
	if (b.len)
		fprintf(out, "%s: extents inferred from accesses: %s\n", kc_buf_str(&r->cell[COL_NAME]),
		        kc_buf_str(&b));
	kc_buf_release(&b);
}

/* The compact dataflow of a function with several passes: one line per pass and per intermediate. */
static void print_dataflow(FILE *out, const struct row *r, int color)
{
	if (r->f->dataflow.n_passes < 2)
		return;
	struct kc_buf b = KC_BUF_INIT;
	kc_text_dataflow(r->f, &b);
	fprintf(out, "\n%s%s dataflow:%s\n%s", color ? "\033[1m" : "", kc_buf_str(&r->cell[COL_NAME]),
	        color ? "\033[0m" : "", kc_buf_str(&b));
	kc_buf_release(&b);
}

void kc_text_write(FILE *out, struct kc_report_figures *rf, const struct kc_measurements *m, int color)
{
	const struct kc_analysis *an = rf->an;
	int n = 0, shown[COL_N];
	for (int c = 0; c < COL_N; c++) /* measured columns when something was timed, predicted ones with a machine */
		shown[c] = c < COL_PREDICTED || ((c == COL_TIME || c == COL_GFLOPS) && m && m->n_measured > 0) ||
		           ((c == COL_PREDICTED || c == COL_BOUND) && kc_figures_machine(m));
	struct row *rows = calloc((size_t)an->n_functions + 1, sizeof *rows);
	const struct kc_cost_figures *figs = rf->functions;
	if (!rows)
		abort(); /* as kc_buf and the arena do on out-of-memory */
	for (int i = 0; i < an->n_functions; i++)
		if (!an->functions[i]->skip) {
			rows[n] = (struct row){.f = an->functions[i], .cf = &figs[i]};
			fill_row(&rows[n++], m);
		}
	if (n > 0) {
		print_table(out, rows, n, shown, color);
		fputc('\n', out);
		for (int i = 0; i < n; i++) {
			print_formulas(out, &rows[i], color);
			print_extents(out, &rows[i]);
		}
		for (int i = 0; i < n; i++)
			print_dataflow(out, &rows[i], color);
	}
	for (int i = 0; i < n; i++)
		for (int c = 0; c < COL_N; c++)
			kc_buf_release(&rows[i].cell[c]);
	free(rows);
}

/* ---- the compact dataflow ---------------------------------------------------------------------------- */

/* Characters (not bytes) of s. */
static int text_width(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Append the first-column text `col` padded to `width` (at least one space after it). */
static void put_column(struct kc_buf *out, const char *col, int width)
{
	int pad = width - text_width(col);
	kc_buf_printf(out, "  %s%*s", col, pad > 1 ? pad : 1, "");
}

/* Buffer b's name escaped for a terminal, or "?" for an index out of range, into out. */
static void put_buffer_name(const struct kc_words *w, struct kc_buf *out, int b)
{
	if (b < 0 || b >= w->f->n_buffers || !w->f->buffers[b].name)
		kc_buf_putc(out, '?');
	else
		w->put(out, w->f->buffers[b].name);
}

/* "  reads x, w" */
static void put_buffer_list(const struct kc_words *w, struct kc_buf *out, const char *verb, const int *list, int n)
{
	for (int k = 0; k < n; k++) {
		kc_buf_puts(out, k ? ", " : verb);
		put_buffer_name(w, out, list ? list[k] : -1);
	}
}

/* Width of the first column: the longest of "pass N" and the intermediates' names, plus two spaces. */
static int first_column_width(const struct kc_words *w)
{
	const struct kc_dataflow *df = &w->f->dataflow;
	char pass[32];
	snprintf(pass, sizeof pass, "pass %d", df->n_passes);
	int width = text_width(pass);
	for (int k = 0; k < df->n_intermediates; k++) {
		struct kc_buf name = KC_BUF_INIT;
		put_buffer_name(w, &name, df->intermediates ? df->intermediates[k] : -1);
		int n = text_width(kc_buf_str(&name));
		width = n > width ? n : width;
		kc_buf_release(&name);
	}
	return width + 2;
}

/* "  pass 1  lines 35-36  2*n FLOP  8*n B (streaming)  reads x  writes t1" */
static void text_pass(const struct kc_words *w, struct kc_buf *out, int i, int width)
{
	const struct kc_pass *p = &w->f->dataflow.passes[i];
	char col[32];
	snprintf(col, sizeof col, "pass %d", i + 1);
	put_column(out, col, width);
	kc_words_pass_place(w, out, p);
	kc_buf_puts(out, p->callee || p->begin.line ? "  " : "");
	kc_words_count(w, out, p->flops, "FLOP", KC_COUNT_FORMULA);
	kc_buf_puts(out, "  ");
	kc_words_count(w, out, kc_words_traffic_total(w->arena, &p->streaming), "B (streaming)", KC_COUNT_FORMULA);
	put_buffer_list(w, out, "  reads ", p->reads, p->n_reads);
	put_buffer_list(w, out, "  writes ", p->writes, p->n_writes);
	for (int k = 0; k < p->n_scalars_out; k++) {
		kc_buf_puts(out, k ? ", " : "  leaves ");
		w->put(out, p->scalars_out[k]);
	}
	kc_buf_putc(out, '\n');
}

/* "  t1      intermediate float[n] 16.8 MB  removed by fusion (group 1)" */
static void text_intermediate(const struct kc_words *w, struct kc_buf *out, int b, int width)
{
	struct kc_buf name = KC_BUF_INIT;
	put_buffer_name(w, &name, b);
	put_column(out, kc_buf_str(&name), width);
	kc_buf_release(&name);
	if (b < 0 || b >= w->f->n_buffers) {
		kc_buf_puts(out, "not a buffer of the function\n");
		return;
	}
	const struct kc_buffer *buf = &w->f->buffers[b];
	kc_buf_printf(out, "%s ", kc_role_name(buf->role));
	kc_words_buffer_shape(w, out, buf);
	kc_buf_putc(out, ' ');
	kc_words_buffer_bytes(w, out, buf);
	int g = kc_words_group_removing(&w->f->dataflow, b);
	if (g >= 0)
		kc_buf_printf(out, "  removed by fusion (group %d)\n", g + 1);
	else
		kc_buf_puts(out, "  kept\n");
}

/* "  group 1 passes 1-8  streaming 72*n -> 8*n B (302.0 MB -> 33.6 MB)  0.111 -> 1.00 FLOP/B  removes 7
 * intermediates and 89% of the streaming bytes" */
static void text_group(const struct kc_words *w, struct kc_buf *out, int g, int width)
{
	const struct kc_dataflow *df = &w->f->dataflow;
	const struct kc_fusion_group *grp = &df->groups[g];
	int valid = grp->first >= 0 && grp->first <= grp->last && grp->last < df->n_passes;
	struct kc_poly *flops = valid ? kc_words_group_flops(w->arena, df, grp) : NULL;
	struct kc_poly *before = kc_words_traffic_total(w->arena, &grp->before);
	struct kc_poly *after = kc_words_traffic_total(w->arena, &grp->after);
	char col[32];
	snprintf(col, sizeof col, "group %d", g + 1);
	put_column(out, col, width);
	kc_buf_printf(out, "passes %d-%d  streaming ", grp->first + 1, grp->last + 1);
	kc_words_change(w, out, before, after, "B");
	kc_buf_puts(out, "  ");
	kc_words_intensity(w, out, flops, before);
	kc_buf_printf(out, " %s ", w->arrow);
	kc_words_intensity(w, out, flops, after);
	kc_buf_printf(out, " FLOP/B  removes %d intermediate%s", grp->n_removes, grp->n_removes == 1 ? "" : "s");
	struct kc_figure from, to;
	kc_figure_of(w->memo, w->f, before, &from);
	kc_figure_of(w->memo, w->f, after, &to);
	kc_words_removed_share(out, &from, &to, " and ", "the streaming bytes");
	kc_buf_putc(out, '\n');
}

/* "  pass 2 -> 3  not fusable (reduction): <reason>" */
static void text_edge(const struct kc_words *w, struct kc_buf *out, const struct kc_fusion_edge *e)
{
	kc_buf_printf(out, "  pass %d -> %d  ", e->from + 1, e->to + 1);
	kc_words_edge_verdict(out, e);
	if (e->reason) {
		kc_buf_puts(out, ": ");
		w->put(out, e->reason);
	}
	kc_buf_putc(out, '\n');
}

void kc_text_dataflow(const struct kc_function *f, struct kc_buf *out)
{
	struct kc_arena arena = KC_ARENA_INIT;
	struct kc_figure_memo memo;
	kc_figure_memo_init(&memo, &arena);
	const struct kc_words w = {&arena, &memo, f, kc_visible_puts, "-", "->"};
	const struct kc_dataflow *df = &f->dataflow;
	int width = first_column_width(&w);
	if (df->n_passes <= 0 || !df->passes)
		kc_buf_puts(out, "  no passes\n");
	for (int i = 0; df->passes && i < df->n_passes; i++)
		text_pass(&w, out, i, width);
	for (int k = 0; df->intermediates && k < df->n_intermediates; k++)
		text_intermediate(&w, out, df->intermediates[k], width);
	for (int g = 0; df->groups && g < df->n_groups; g++)
		text_group(&w, out, g, width);
	for (int i = 0; df->edges && i < df->n_passes - 1; i++)
		if (kc_words_edge_noted(&df->edges[i]))
			text_edge(&w, out, &df->edges[i]);
	kc_figure_memo_release(&memo);
	kc_arena_release(&arena);
}

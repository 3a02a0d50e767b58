/* text.c — the terminal summary: an aligned table, one row per function, then each function's formulas. */
#include "text.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "graph.h"

enum {
	COL_NAME,
	COL_FLOPS,
	COL_TRANS,
	COL_BYTES,
	COL_AI_MIN,
	COL_AI_STREAM,
	COL_AI_NAIVE,
	COL_EXACT,
	COL_TIME,
	COL_GFLOPS,
	COL_N
};

static const char *const col_header[COL_N] = {
    "function",   "FLOPs", "transcendentals",         "bytes (min)",      "AI (min)", "AI (streaming)",
    "AI (naive)", "exact", "time (median, measured)", "FLOP/s (measured)"};

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

static void measured_cells(struct row *r, const struct kc_measurement *me, const struct kc_cost_figures *cf)
{
	if (!me) {
		kc_buf_puts(&r->cell[COL_TIME], "not measured");
		kc_buf_puts(&r->cell[COL_GFLOPS], "not measured");
		return;
	}
	if (me->error || me->seconds_median <= 0) {
		kc_buf_puts(&r->cell[COL_TIME], "failed");
		kc_buf_puts(&r->cell[COL_GFLOPS], "n/a");
		return;
	}
	kc_format_seconds(&r->cell[COL_TIME], me->seconds_median);
	if (cf->flops.has_value)
		kc_format_si(&r->cell[COL_GFLOPS], (double)cf->flops.value / me->seconds_median, "FLOP/s");
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

static void fill_row(struct row *r, const struct kc_measurements *m)
{
	const struct kc_cost_figures *cf = r->cf;
	kc_buf_puts(&r->cell[COL_NAME], r->f->name);
	value_or_formula(&r->cell[COL_FLOPS], &cf->flops, "FLOP");
	value_or_formula(&r->cell[COL_TRANS], &cf->transcendentals, "calls");
	value_or_formula(&r->cell[COL_BYTES], &cf->bytes[KC_MODEL_MIN], "B");
	kc_format_intensity(&r->cell[COL_AI_MIN], cf, KC_MODEL_MIN);
	kc_format_intensity(&r->cell[COL_AI_STREAM], cf, KC_MODEL_STREAMING);
	kc_format_intensity(&r->cell[COL_AI_NAIVE], cf, KC_MODEL_NAIVE);
	kc_format_exactness(&r->cell[COL_EXACT], r->f);
	measured_cells(r, kc_figures_measurement(m, r->f), cf);
}

/* Print one cell padded to width; names and the exact flag are left-aligned, numbers right-aligned. The
 * last column gets no trailing padding. */
static void print_cell(FILE *out, const char *text, int col, int ncols, size_t width, const char *color)
{
	size_t pad = col == ncols - 1 && (col == COL_NAME || col == COL_EXACT) ? 0 : width - display_width(text);
	int left = col == COL_NAME || col == COL_EXACT;
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
	return strcmp(kc_buf_str(&r->cell[col]), "n/a") == 0 ? "\033[2m" : NULL;
}

static void print_table(FILE *out, struct row *rows, int n, int ncols, int color)
{
	size_t width[COL_N];
	for (int c = 0; c < ncols; c++) {
		width[c] = display_width(col_header[c]);
		for (int i = 0; i < n; i++)
			if (display_width(kc_buf_str(&rows[i].cell[c])) > width[c])
				width[c] = display_width(kc_buf_str(&rows[i].cell[c]));
	}
	for (int c = 0; c < ncols; c++) {
		fputs(c ? "  " : "", out);
		print_cell(out, col_header[c], c, ncols, width[c], color ? "\033[1;4m" : NULL);
	}
	fputc('\n', out);
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < ncols; c++) {
			fputs(c ? "  " : "", out);
			print_cell(out, kc_buf_str(&rows[i].cell[c]), c, ncols, width[c],
			           cell_color(&rows[i], c, color));
		}
		fputc('\n', out);
	}
}

/* "gelu_fused: flops 8*n, transcendentals n, bytes(min) 8*n, bytes(streaming) 8*n" */
static void print_formulas(FILE *out, const struct row *r, int color)
{
	const struct kc_cost_figures *cf = r->cf;
	fprintf(out, "%s%s%s: flops %s", color ? "\033[1m" : "", r->f->name, color ? "\033[0m" : "",
	        cf->flops.expr ? cf->flops.expr : "n/a");
	if (cf->transcendentals.poly && !kc_poly_is_zero(cf->transcendentals.poly))
		fprintf(out, ", transcendentals %s", cf->transcendentals.expr);
	for (int model = KC_MODEL_MIN; model <= KC_MODEL_STREAMING; model++)
		fprintf(out, ", bytes(%s) %s", kc_model_name((enum kc_model)model),
		        cf->bytes[model].expr ? cf->bytes[model].expr : "n/a");
	fputc('\n', out);
}

/* The compact dataflow of a function with several passes: one line per pass and per intermediate. */
static void print_dataflow(FILE *out, const struct kc_function *f, int color)
{
	if (f->dataflow.n_passes < 2)
		return;
	struct kc_buf b = KC_BUF_INIT;
	kc_graph_text(f, &b);
	fprintf(out, "\n%s%s dataflow:%s\n%s", color ? "\033[1m" : "", f->name, color ? "\033[0m" : "", kc_buf_str(&b));
	kc_buf_release(&b);
}

void kc_text_write(FILE *out, struct kc_report_figures *rf, const struct kc_measurements *m, int color)
{
	const struct kc_analysis *an = rf->an;
	int n = 0, ncols = m && m->n_measured > 0 ? COL_N : COL_TIME;
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
		print_table(out, rows, n, ncols, color);
		fputc('\n', out);
		for (int i = 0; i < n; i++)
			print_formulas(out, &rows[i], color);
		for (int i = 0; i < n; i++)
			print_dataflow(out, rows[i].f, color);
	}
	for (int i = 0; i < n; i++)
		for (int c = 0; c < COL_N; c++)
			kc_buf_release(&rows[i].cell[c]);
	free(rows);
}

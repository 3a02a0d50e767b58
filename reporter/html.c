/* html.c — the self-contained HTML report: templates/report.html with {{name}} placeholders filled by
 * fragments generated here. Every user-derived string goes through kc_escape_html. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "figures.h"
#include "format.h"
#include "graph.h"
#include "report.h"
#include "roofline.h"
#include "source.h"
#include "templates.h"

#define MAX_SOURCE_LINES 2000       /* per function */

struct html {
	struct kc_arena *a;
	struct kc_figure_memo *memo; /* figures of the function being written, in *fa (emptied after each) */
	struct kc_arena *fa;
	const struct kc_analysis *an;
	const struct kc_measurements *m;
	const struct kc_report_opts *o;
	struct kc_report_figures *rf;
	struct kc_report_sink *sink; /* drained between function sections */
	const struct kc_report_pieces *pieces; /* sections another thread renders, or NULL */
	int fn;                      /* index in an->functions of the function whose section is being written */
	int legend_fn;               /* the function whose dataflow comes first: the legend precedes it */
};

/* The function whose section shows the first dataflow, or -1 (see fn_dataflow). */
static int first_dataflow(const struct kc_analysis *an)
{
	for (int i = 0; i < an->n_functions; i++)
		if (!an->functions[i]->skip && (an->functions[i]->dataflow.n_passes >= 2 || an->functions[i]->dataflow.n_groups))
			return i;
	return -1;
}

/* What a struct html allocates from; it points into one of these. */
struct html_store {
	struct kc_arena a, fa;
	struct kc_figure_memo memo;
};

static void html_init(struct html *h, struct html_store *st, struct kc_report_figures *rf,
                      const struct kc_measurements *m, const struct kc_report_opts *o)
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
	h->o = o;
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

/* One {{name}} of the template and what replaces it: fixed text, or a fragment written in place (rather
 * than into a buffer of its own and copied: the functions' sections are most of a large report). */
struct slot {
	const char *name;
	const char *text; /* not necessarily NUL-terminated (embedded templates are not) */
	size_t len;
	void (*write)(struct kc_buf *b, struct html *h); /* when not NULL, used instead of text */
};

/* The slot whose "{{name}}" starts at s, or NULL; *after is set past its closing braces. */
static const struct slot *slot_at(const char *s, const char *end, const struct slot *slots, int n, const char **after)
{
	const char *name = s + 2, *close = name;
	if (end - s < 4 || s[1] != '{')
		return NULL;
	while (close + 1 < end && close - name <= 32 && !(close[0] == '}' && close[1] == '}'))
		close++;
	if (close + 1 >= end || close[0] != '}' || close[1] != '}')
		return NULL;
	for (int i = 0; i < n; i++)
		if (strlen(slots[i].name) == (size_t)(close - name) &&
		    !memcmp(slots[i].name, name, (size_t)(close - name))) {
			*after = close + 2;
			return &slots[i];
		}
	return NULL;
}

/* Copy the template into b, replacing each {{name}} with its slot's text; unknown names stay as they are.
 * Replacements are not scanned again, so fragments may contain "{{". */
static void render(struct kc_buf *b, const unsigned char *tpl, size_t len, const struct slot *slots, int n,
                   struct html *h)
{
	const char *s = (const char *)tpl, *end = s + len;
	while (s < end) {
		const char *open = memchr(s, '{', (size_t)(end - s)), *after = NULL;
		const struct slot *slot = open ? slot_at(open, end, slots, n, &after) : NULL;
		if (!open) {
			kc_buf_add(b, s, (size_t)(end - s));
			return;
		}
		kc_buf_add(b, s, (size_t)(open - s));
		if (!slot) {
			kc_buf_putc(b, '{');
			s = open + 1;
			continue;
		}
		if (slot->write)
			slot->write(b, h);
		else if (slot->len)
			kc_buf_add(b, slot->text, slot->len);
		s = after;
	}
}

/* A decimal integer. The formatting of a large report is mostly small integers and fixed text, where
 * kc_buf_printf (vsnprintf twice) costs more than everything else in the row. */
static void put_int(struct kc_buf *b, long long v)
{
	char d[24];
	int n = (int)sizeof d;
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	do
		d[--n] = (char)('0' + (int)(u % 10));
	while (u /= 10);
	if (v < 0)
		d[--n] = '-';
	kc_buf_add(b, d + n, sizeof d - (size_t)n);
}

static void esc(struct kc_buf *b, const char *s)
{
	kc_escape_html(b, s);
}

/* id="fn-NAME": characters outside [A-Za-z0-9_.-] are written as -XX (hex), so any name gives a valid id. */
static void fn_id(struct kc_buf *b, const char *name)
{
	kc_buf_puts(b, "fn-");
	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    strchr("_.-", *s))
			kc_buf_putc(b, (char)*s);
		else
			kc_buf_printf(b, "-%02X", *s);
}

static void fn_link(struct kc_buf *b, const char *name)
{
	kc_buf_puts(b, "<a href=\"#");
	fn_id(b, name);
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
	put_int(b, fig->value);
	kc_buf_putc(b, ' ');
	kc_buf_puts(b, unit);
	kc_buf_puts(b, "\">");
	kc_format_si(b, (double)fig->value, unit);
	kc_buf_puts(b, "</span>");
}

/* A summary cell: formula above, value below, the raw value for sorting. */
static void td_figure(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (fig->has_value) {
		kc_buf_puts(b, "<td class=\"num\" data-v=\"");
		put_int(b, fig->value);
		kc_buf_puts(b, "\">");
	} else
		kc_buf_puts(b, "<td class=\"num\">");
	if (fig->expr) {
		kc_buf_puts(b, "<code class=\"formula\">");
		esc(b, fig->expr);
		kc_buf_puts(b, "</code>");
	}
	kc_format_si_figure(b, fig, unit);
	kc_buf_puts(b, "</td>");
}

static void td_intensity(struct kc_buf *b, const struct kc_cost_figures *cf, int model)
{
	if (cf->has_intensity[model])
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", cf->intensity[model]);
	else
		kc_buf_puts(b, "<td class=\"num\">");
	if (cf->intensity_expr[model]) {
		kc_buf_puts(b, "<code class=\"formula\">");
		esc(b, cf->intensity_expr[model]);
		kc_buf_puts(b, "</code>");
	}
	kc_format_intensity(b, cf, model);
	kc_buf_puts(b, "</td>");
}

static void exact_badge(struct kc_buf *b, const struct kc_function *f)
{
	kc_buf_puts(b, f->exact ? "<span class=\"exact\">" : "<span class=\"approx\">");
	kc_format_exactness(b, f);
	kc_buf_puts(b, "</span>");
}

/* "memory-bound: 12.3 GFLOP/s" at the min-model intensity, or N/A without ceilings. */
static void predicted_bound(struct kc_buf *b, const struct html *h, const struct kc_cost_figures *cf)
{
	const char *bound = NULL;
	double roof = cf->has_intensity[KC_MODEL_MIN] ? kc_report_roof(kc_report_machine(h->m), kc_report_main_prec(cf),
	                                                               cf->intensity[KC_MODEL_MIN], &bound)
	                                              : 0;
	if (roof <= 0) {
		kc_buf_puts(b, "<td class=\"not-measured\" title=\"no machine ceilings: the machine was not measured\">"
		               "N/A</td>");
		return;
	}
	kc_buf_printf(b, "<td class=\"bound\" data-v=\"%.17g\" title=\"roofline at the min-model intensity\">%s, ",
	              roof, bound);
	kc_format_si(b, roof * 1e9, "FLOP/s");
	kc_buf_puts(b, "</td>");
}

/* The measured columns: one "not measured" cell when nothing was measured, else time and FLOP/s. */
/* The measured columns: median time, FLOP/s, DRAM GB/s and measured intensity (with their source), and
 * the fraction of the roof the kernel reached at its intensity. */
#define MEASURED_COLUMNS 5

static void td_measured(struct kc_buf *b, const struct html *h, const struct kc_measurement *me,
                        const struct kc_cost_figures *cf)
{
	if (!h->m || h->m->n_measured == 0) {
		kc_buf_puts(b, "<td class=\"not-measured\">not measured</td>");
		return;
	}
	if (!me || me->error || me->seconds_median <= 0) {
		kc_buf_printf(b, "<td colspan=\"%d\" class=\"%s\">", MEASURED_COLUMNS, me ? "approx" : "not-measured");
		if (me)
			kc_buf_puts(b, "failed: ");
		esc(b, me ? (me->error ? me->error : "no timing") : "not measured");
		kc_buf_puts(b, "</td>");
		return;
	}
	kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", me->seconds_median);
	kc_format_seconds(b, me->seconds_median);
	kc_buf_puts(b, "</td>");
	double flops = cf->flops.has_value ? (double)cf->flops.value : -1, rate = flops / me->seconds_median;
	int traffic = me->traffic_bytes > 0;
	double ai = traffic && flops >= 0 ? flops / me->traffic_bytes : -1;
	if (flops >= 0) {
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", rate);
		kc_format_si(b, rate, "FLOP/s");
		kc_buf_puts(b, "</td>");
	} else {
		kc_buf_puts(b, "<td class=\"num\">n/a</td>");
	}
	if (traffic) {
		double bw = me->traffic_bytes / me->seconds_median;
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", bw);
		kc_format_si(b, bw, "B/s");
		kc_buf_puts(b, "</td>");
	} else {
		kc_buf_puts(b, "<td class=\"num muted\">no traffic</td>");
	}
	if (ai > 0) {
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", ai);
		kc_format_sig3(b, ai);
		kc_buf_puts(b, " FLOP/B<br><span class=\"muted\">");
		esc(b, me->traffic_source ? me->traffic_source : "?");
		kc_buf_puts(b, "</span></td>");
	} else {
		kc_buf_puts(b, "<td class=\"num muted\">");
		esc(b, me->traffic_source ? me->traffic_source : "unavailable");
		kc_buf_puts(b, "</td>");
	}
	const struct kc_machine *mc = kc_report_machine(h->m);
	double x = ai > 0 ? ai : (cf->has_intensity[KC_MODEL_MIN] ? cf->intensity[KC_MODEL_MIN] : -1);
	double roof = mc && x > 0 ? kc_report_roof(mc, kc_report_main_prec(cf), x, NULL) : 0;
	if (roof > 0 && flops >= 0) {
		double frac = rate / 1e9 / roof;
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">%.0f%%</td>", frac, 100 * frac);
	} else {
		kc_buf_puts(b, "<td class=\"num\">n/a</td>");
	}
}

static void summary_row(struct kc_buf *b, const struct html *h, int i)
{
	const struct kc_function *f = h->an->functions[i];
	const struct kc_cost_figures *cf = &h->rf->functions[i];
	kc_buf_puts(b, "<tr><td>");
	fn_link(b, f->name);
	kc_buf_puts(b, "</td>");
	td_figure(b, &cf->flops, "FLOP");
	td_figure(b, &cf->transcendentals, "calls");
	td_figure(b, &cf->bytes[KC_MODEL_MIN], "B");
	td_figure(b, &cf->bytes[KC_MODEL_STREAMING], "B");
	for (int model = 0; model < KC_MODEL_N; model++)
		td_intensity(b, cf, model);
	predicted_bound(b, h, cf);
	kc_buf_puts(b, "<td>");
	exact_badge(b, f);
	kc_buf_puts(b, "</td>");
	td_measured(b, h, kc_report_find_measurement(h->m, f), cf);
	kc_buf_puts(b, "</tr>\n");
}

static void summary(struct kc_buf *b, const struct html *h)
{
	if (!kc_report_n_functions(h->an)) {
		kc_buf_puts(b, "<p>No function was analyzed.</p>\n");
		return;
	}
	kc_buf_puts(b, "<div class=\"table-wrap\"><table class=\"summary sortable\">\n<thead><tr><th>function</th>"
	               "<th>FLOPs</th><th>transcendentals</th><th>bytes (min)</th><th>bytes (streaming)</th>"
	               "<th>AI (min)</th><th>AI (streaming)</th><th>AI (naive)</th><th>predicted bound (min model)</th>"
	               "<th>exact</th>");
	kc_buf_puts(b, h->m && h->m->n_measured > 0 ? "<th>time (measured, median)</th><th>FLOP/s (measured)</th>"
	                                     "<th>DRAM traffic (measured)</th><th>AI (measured, source)</th>"
	                                     "<th>fraction of roof</th>"
	                                   : "<th>measured</th>");
	kc_buf_puts(b, "</tr></thead>\n<tbody>\n");
	for (int i = 0; i < h->an->n_functions; i++)
		if (!h->an->functions[i]->skip)
			summary_row(b, h, i);
	kc_buf_puts(b, "</tbody></table></div>\n<p class=\"muted\">Formulas are exact counts in the size symbols; "
	               "values are at the benchmark sizes. AI = arithmetic intensity, FLOPs per byte moved. Traffic "
	               "models: <b>min</b> = inputs read once and outputs written once; <b>streaming</b> = each "
	               "top-level loop nest moves the distinct elements it touches; <b>naive</b> = every access goes "
	               "to memory. Bytes under every model are in each function's section.</p>\n");
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

static void diag_list(struct kc_buf *b, const struct kc_diags *list)
{
	kc_buf_puts(b, "<ul class=\"diags\">\n");
	for (const struct kc_diag *d = list->head; d; d = d->next)
		diag_item(b, d);
	kc_buf_puts(b, "</ul>\n");
}

static void header_meta(struct kc_buf *b, const struct html *h)
{
	char created[64];
	kc_report_created(h->o ? h->o->created : NULL, created, sizeof created);
	kc_buf_puts(b, "<h1>kcost report</h1>\n<p class=\"meta\">kcost ");
	esc(b, h->o && h->o->version ? h->o->version : "unknown");
	kc_buf_puts(b, " &middot; created <time datetime=\"");
	esc(b, created);
	kc_buf_puts(b, "\">");
	esc(b, created);
	kc_buf_printf(b, "</time> &middot; %d function%s analyzed &middot; files: ", kc_report_n_functions(h->an),
	              kc_report_n_functions(h->an) == 1 ? "" : "s");
	for (int i = 0; i < h->an->n_files; i++) {
		kc_buf_puts(b, i ? ", <code>" : "<code>");
		esc(b, h->an->files[i]);
		kc_buf_puts(b, "</code>");
	}
	kc_buf_puts(b, "</p>\n");
}

/* The machine section: caches and every ceiling with the method that measured it. */
static void machine_details(struct kc_buf *b, const struct kc_machine *mc)
{
	kc_buf_puts(b, "<details class=\"machine\"><summary>Machine and ceilings</summary>\n<table>\n");
	kc_buf_puts(b, "<tr><th>caches</th><td>");
	for (int l = 0; l < 3; l++)
		if (mc->cache_bytes[l] > 0) { /* cache sizes are powers of two: binary units */
			long long v = mc->cache_bytes[l];
			const char *unit = v >= 1 << 20 ? "MiB" : v >= 1 << 10 ? "KiB" : "B";
			double shown = v >= 1 << 20 ? v / 1048576.0 : v >= 1 << 10 ? v / 1024.0 : (double)v;
			kc_buf_printf(b, "%sL%d %.4g %s", l ? ", " : "", l + 1, shown, unit);
		}
	if (mc->cache_source) {
		kc_buf_puts(b, " <span class=\"muted\">(");
		esc(b, mc->cache_source);
		kc_buf_puts(b, ")</span>");
	}
	kc_buf_puts(b, "</td></tr>\n");
	const struct kc_ceiling *compute[] = {&mc->flops_f32, &mc->flops_f64};
	const char *names[] = {"float peak", "double peak"};
	for (int i = 0; i < 2; i++) {
		kc_buf_printf(b, "<tr><th>%s</th><td>%.1f GFLOP/s, %d thread%s <span class=\"muted\">", names[i],
		              compute[i]->value, compute[i]->threads, compute[i]->threads == 1 ? "" : "s");
		esc(b, compute[i]->method ? compute[i]->method : "");
		kc_buf_puts(b, "</span></td></tr>\n");
	}
	for (int l = 0; l < KC_LEVEL_N; l++) {
		kc_buf_printf(b, "<tr><th>%s bandwidth</th><td>%.1f GB/s <span class=\"muted\">", kc_level_name(l),
		              mc->bandwidth[l].value);
		esc(b, mc->bandwidth[l].method ? mc->bandwidth[l].method : "");
		kc_buf_puts(b, "</span></td></tr>\n");
	}
	kc_buf_puts(b, "</table></details>\n");
}

static void header_machine(struct kc_buf *b, const struct html *h)
{
	const struct kc_machine *mc = kc_report_machine(h->m);
	if (!mc) {
		kc_buf_printf(b, "<p class=\"banner\"><b>Static analysis only &mdash; not measured.</b> %s</p>\n",
		              h->o && h->o->no_run
		                  ? "Measurement was not requested (--no-run)."
		                  : "No timings, machine ceilings or measured traffic in this report.");
		return;
	}
	kc_buf_puts(b, "<p class=\"machine\">Measured on <b>");
	esc(b, mc->cpu ? mc->cpu : "an unknown CPU");
	kc_buf_printf(b, "</b>, %d cores; peaks: float %.1f GFLOP/s, double %.1f GFLOP/s, DRAM %.1f GB/s", mc->cores,
	              mc->flops_f32.value, mc->flops_f64.value, mc->bandwidth[KC_LEVEL_DRAM].value);
	kc_buf_puts(b, mc->cached ? " (ceilings from the cache, measured at " : " (ceilings measured at ");
	esc(b, mc->measured_at ? mc->measured_at : "?");
	kc_buf_puts(b, ").</p>\n");
	machine_details(b, mc);
}

static void header(struct kc_buf *b, const struct html *h)
{
	header_meta(b, h);
	header_machine(b, h);
	if (h->an->parse_failed)
		kc_buf_puts(b, "<p class=\"banner\">At least one input could not be analyzed at all: see the "
		               "diagnostics below.</p>\n");
	if (h->an->diags.head) {
		kc_buf_puts(b, "<h2>Diagnostics</h2>\n");
		diag_list(b, &h->an->diags);
	}
	if (!kc_report_n_functions(h->an))
		return;
	kc_buf_puts(b, "<nav><ul>\n");
	for (int i = 0; i < h->an->n_functions; i++)
		if (!h->an->functions[i]->skip) {
			kc_buf_puts(b, "<li>");
			fn_link(b, h->an->functions[i]->name);
			kc_buf_puts(b, "</li>\n");
		}
	kc_buf_puts(b, "</ul></nav>\n");
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
	kc_report_buffer_bytes(h->memo, f, buf, &bytes);
	kc_buf_puts(b, "<tr><td><code>");
	esc(b, buf->name);
	kc_buf_puts(b, "</code></td><td><code>");
	esc(b, buf->elem_type);
	kc_buf_printf(b, "</code> (%d B)</td><td>", buf->elem_size);
	formula_value(b, &extent, "elements");
	kc_buf_printf(b, "</td><td>%s%s</td><td>", kc_role_name(buf->role), buf->is_scratch ? " (scratch)" : "");
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
	kc_buf_puts(b, shown ? "</p>\n" : "none (no size symbols)</p>\n");
}

/* What one nest costs, shown beside its lines. */
static void nest_note(struct kc_buf *b, const struct html *h, const struct kc_function *f, int i)
{
	const struct kc_nest *nest = &f->nests[i];
	const struct kc_nest_figures *nf = kc_report_nest_figures(h->rf, h->fn, i);
	const struct kc_cost_figures *cf = &nf->cost;
	kc_buf_puts(b, "<b>nest ");
	put_int(b, i + 1);
	kc_buf_puts(b, "</b>, lines ");
	put_int(b, nest->begin.line);
	kc_buf_puts(b, "&ndash;");
	put_int(b, nest->end.line);
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
	put_int(b, end - line + 1);
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
	put_int(b, line);
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

static void measured_time(struct kc_buf *b, const struct kc_measurement *me, const struct kc_cost_figures *cf)
{
	kc_buf_puts(b, "<tr><th>time (min / median / p90)</th><td>");
	kc_format_seconds(b, me->seconds_min);
	kc_buf_puts(b, " / ");
	kc_format_seconds(b, me->seconds_median);
	kc_buf_puts(b, " / ");
	kc_format_seconds(b, me->seconds_p90);
	kc_buf_printf(b, " (%d samples, cv %.3g)</td></tr>\n<tr><th>throughput (median)</th><td>", me->samples, me->cv);
	if (cf->flops.has_value)
		kc_format_si(b, (double)cf->flops.value / me->seconds_median, "FLOP/s");
	else
		kc_buf_puts(b, "n/a");
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
	const struct kc_measurement *me = kc_report_find_measurement(h->m, f);
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
	} else if (me->seconds_median > 0) {
		measured_time(b, me, cf);
	}
	measured_traffic(b, me);
	if (me->reference && me->equivalent >= 0) {
		kc_buf_puts(b, "<tr><th>same outputs as ");
		esc(b, me->reference);
		kc_buf_printf(b, "</th><td>%s (max relative error %.3g)</td></tr>\n",
		              me->equivalent ? "yes" : "<b>no</b>", me->max_rel_err);
	}
	int r = kc_report_function_index(h->an, f->reference);
	const struct kc_measurement *rm = r >= 0 ? kc_report_find_measurement(h->m, h->an->functions[r]) : NULL;
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
		fn_link(b, f->reference);
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
	kc_buf_printf(b,
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
	              df->in_loop ? " inside one outer loop" : "", df->n_intermediates, df->n_intermediates == 1 ? "" : "s");
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
	fn_id(b, f->name);
	kc_buf_puts(b, "\">\n<h2><code>");
	esc(b, f->name);
	kc_buf_puts(b, "</code></h2>\n<div class=\"body\">\n<p class=\"loc\"><code>");
	esc(b, f->loc.file ? f->loc.file : "?");
	kc_buf_putc(b, ':');
	put_int(b, f->loc.line);
	kc_buf_puts(b, "</code> &middot; ");
	exact_badge(b, f);
	kc_buf_puts(b, "</p>\n");
	fn_sizes(b, f);
	fn_extras(b, f);
	fn_costs(b, h, f, cf);
	fn_traffic(b, cf);
	fn_buffers(b, h, f);
	fn_dataflow(b, h, f, i);
	if (f->diags.head) {
		kc_buf_puts(b, "<h3>Diagnostics</h3>\n");
		diag_list(b, &f->diags);
	}
	fn_source(b, h, f);
	fn_measured(b, h, f, cf);
	kc_buf_puts(b, "</div>\n</section>\n");
}

static void title(struct kc_buf *b, const struct kc_analysis *an)
{
	kc_buf_puts(b, "kcost report");
	for (int i = 0; i < an->n_files; i++) {
		kc_buf_puts(b, i ? ", " : ": ");
		esc(b, an->files[i]);
	}
}

static void footer(struct kc_buf *b, const struct html *h)
{
	kc_buf_puts(b, "<p>Generated by kcost ");
	esc(b, h->o && h->o->version ? h->o->version : "unknown");
	kc_buf_puts(b, ". Counting: each floating-point + &minus; &times; &divide; is 1 FLOP, an fma is 2; "
	               "transcendental calls (exp, tanh, sqrt, &hellip;) and comparisons are counted separately and "
	               "are not FLOPs. Bytes use the element sizes of the C types. Every figure names its model: "
	               "min, streaming, naive (predicted) or measured.</p>\n");
}

/* The fragments of the template, in the signature of struct slot. */
static void slot_title(struct kc_buf *b, struct html *h)
{
	title(b, h->an);
}

static void slot_header(struct kc_buf *b, struct html *h)
{
	header(b, h);
}

static void slot_summary(struct kc_buf *b, struct html *h)
{
	summary(b, h);
}

static void slot_footer(struct kc_buf *b, struct html *h)
{
	footer(b, h);
}

static void slot_roofline(struct kc_buf *b, struct html *h)
{
	kc_report_roofline(b, h->a, h->an, h->rf->functions, h->m);
}

/* Function i's section, with figures derived into scratch memory emptied afterwards. */
static void section(struct kc_buf *b, struct html *h, int i)
{
	struct kc_arena_mark mark = kc_arena_mark(h->fa);
	fn_section(b, h, i);
	kc_figure_memo_clear(h->memo);
	kc_arena_reset(h->fa, mark);
}

struct section_writer {
	struct kc_buf *b;
	struct html *h;
};

/* Function i's section: the other thread's text, or rendered here. */
static int emit_section(void *ctx, int i, const struct kc_report_text *text)
{
	struct section_writer *w = ctx;
	if (text)
		kc_buf_add(w->b, text->s, text->len);
	else
		section(w->b, w->h, i);
	kc_report_drain(w->h->sink, 0);
	return 0;
}

static void slot_functions(struct kc_buf *b, struct html *h)
{
	struct section_writer w = {b, h};
	kc_report_each_piece(h->pieces, h->an, emit_section, &w);
}

static void slot_version(struct kc_buf *b, struct html *h)
{
	esc(b, h->o && h->o->version ? h->o->version : "unknown");
}

void kc_report_html_with(struct kc_report_sink *sink, struct kc_report_figures *rf, const struct kc_measurements *m,
                         const struct kc_report_opts *o, const struct kc_report_pieces *pieces)
{
	struct html h;
	struct html_store st;
	html_init(&h, &st, rf, m, o);
	h.sink = sink;
	h.pieces = pieces;
	kc_report_graphs(rf);
	const char *caption = kc_report_machine(m)
	                          ? "Roofs: measured ceilings. Circles: predicted (min model) on the roof; diamonds: "
	                            "streaming model; squares: measured, joined to the streaming prediction; dashed "
	                            "arrows: what fusing the function's passes would do to its streaming intensity."
	                          : "machine not measured: predicted intensity only (circles: min model, diamonds: "
	                            "streaming model)";
	const struct slot slots[] = {{"title", NULL, 0, slot_title},
	                             {"header", NULL, 0, slot_header},
	                             {"summary", NULL, 0, slot_summary},
	                             {"roofline", NULL, 0, slot_roofline},
	                             {"functions", NULL, 0, slot_functions},
	                             {"footer", NULL, 0, slot_footer},
	                             {"version", NULL, 0, slot_version},
	                             {"roofline_caption", caption, strlen(caption), NULL},
	                             {"css", (const char *)kc_tpl_report_css, kc_tpl_report_css_len, NULL},
	                             {"js", (const char *)kc_tpl_report_js, kc_tpl_report_js_len, NULL}};
	render(sink->b, kc_tpl_report_html, kc_tpl_report_html_len, slots, (int)(sizeof slots / sizeof slots[0]), &h);
	html_release(&st);
}

struct kc_html_sections {
	struct html h;
	struct html_store st;
};

struct kc_html_sections *kc_html_sections_open(struct kc_report_figures *rf, const struct kc_measurements *m,
                                               const struct kc_report_opts *o)
{
	struct kc_html_sections *hs = malloc(sizeof *hs);
	if (hs)
		html_init(&hs->h, &hs->st, rf, m, o);
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

void kc_report_html(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m,
                    const struct kc_report_opts *o)
{
	struct kc_report_figures rf;
	struct kc_report_sink sink = {b, NULL, 0};
	kc_report_figures_init(&rf, an);
	kc_report_html_with(&sink, &rf, m, o, NULL);
	kc_report_figures_release(&rf);
}

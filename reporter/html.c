/* html.c — the self-contained HTML report: templates/report.html with {{name}} placeholders filled by
 * fragments generated here (header, summary table, roofline, footer) and by html_section.c (each function's
 * section). Every user-derived string goes through kc_escape_html. */
#include "html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"
#include "html_section.h"
#include "roofline.h"
#include "templates.h"

/* What the page's fragments are written from. */
struct page {
	struct kc_arena a; /* scratch (the roofline's) */
	const struct kc_analysis *an;
	const struct kc_measurements *m;
	const struct kc_output_meta *meta;
	struct kc_report_figures *rf;
	struct kc_output_sink *sink;           /* drained between function sections */
	const struct kc_output_pieces *pieces; /* sections another thread renders, or NULL */
	struct kc_html_sections *sections;     /* this thread's renderer of the others */
};

/* One {{name}} of the template and what replaces it: fixed text, or a fragment written in place (rather
 * than into a buffer of its own and copied: the functions' sections are most of a large report). */
struct slot {
	const char *name;
	const char *text; /* not necessarily NUL-terminated (embedded templates are not) */
	size_t len;
	void (*write)(struct kc_buf *b, struct page *h); /* when not NULL, used instead of text */
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
                   struct page *h)
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

static void esc(struct kc_buf *b, const char *s)
{
	kc_escape_html(b, s);
}

/* A summary cell: formula above, value below, the raw value for sorting. */
static void td_figure(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (fig->has_value) {
		kc_buf_puts(b, "<td class=\"num\" data-v=\"");
		kc_format_int(b, fig->value);
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

/* "memory-bound: 12.3 GFLOP/s" at the min-model intensity, or N/A without ceilings. */
static void predicted_bound(struct kc_buf *b, const struct page *h, const struct kc_cost_figures *cf)
{
	const char *bound = NULL;
	double roof = cf->has_intensity[KC_MODEL_MIN]
	                  ? kc_figures_roof(kc_figures_machine(h->m), kc_figures_main_prec(cf),
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

/* The measured columns: one "not measured" cell when nothing was measured; else median time, FLOP/s, DRAM
 * bytes/s, measured intensity (with its source) and the fraction of the roof the kernel reached at it. */
#define MEASURED_COLUMNS 5

static void td_measured(struct kc_buf *b, const struct page *h, const struct kc_measured_figures *mf)
{
	const struct kc_measurement *me = mf->me;
	if (!h->m || h->m->n_measured == 0) {
		kc_buf_puts(b, "<td class=\"not-measured\">not measured</td>");
		return;
	}
	if (!mf->timed) {
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
	if (mf->has_rate) {
		kc_buf_printf(b, "<td class=\"num%s\" data-v=\"%.17g\"%s>", mf->approx ? " approx" : "", mf->flop_per_s,
		              mf->approx ? " title=\"approximate: derived from a FLOP count that is not exact\"" : "");
		kc_format_rate(b, mf->flop_per_s, mf->approx, "\xe2\x89\x88 ");
		kc_buf_puts(b, "</td>");
	} else {
		kc_buf_puts(b, "<td class=\"num\">n/a</td>");
	}
	if (mf->has_traffic) {
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", mf->byte_per_s);
		kc_format_si(b, mf->byte_per_s, "B/s");
		kc_buf_puts(b, "</td>");
	} else {
		kc_buf_puts(b, "<td class=\"num muted\">no traffic</td>");
	}
	if (mf->intensity > 0) {
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">", mf->intensity);
		kc_format_sig3(b, mf->intensity);
		kc_buf_puts(b, " FLOP/B<br><span class=\"muted\">");
		esc(b, me->traffic_source ? me->traffic_source : "?");
		kc_buf_puts(b, "</span></td>");
	} else {
		kc_buf_puts(b, "<td class=\"num muted\">");
		esc(b, me->traffic_source ? me->traffic_source : "unavailable");
		kc_buf_puts(b, "</td>");
	}
	if (mf->has_fraction)
		kc_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">%.0f%%</td>", mf->fraction, 100 * mf->fraction);
	else
		kc_buf_puts(b, "<td class=\"num\">n/a</td>");
}

/* number: the function's on the roofline (its markers' labels and the chart's key) */
static void summary_row(struct kc_buf *b, const struct page *h, int i, int number)
{
	const struct kc_function *f = h->an->functions[i];
	const struct kc_cost_figures *cf = &h->rf->functions[i];
	kc_buf_printf(b, "<tr><td class=\"num\" data-v=\"%d\">%d</td><td>", number, number);
	kc_html_fn_link(b, f->name);
	kc_buf_puts(b, "</td>");
	td_figure(b, &cf->flops, "FLOP");
	td_figure(b, &cf->transcendentals, "calls");
	td_figure(b, &cf->bytes[KC_MODEL_MIN], "B");
	td_figure(b, &cf->bytes[KC_MODEL_STREAMING], "B");
	for (int model = 0; model < KC_MODEL_N; model++)
		td_intensity(b, cf, model);
	predicted_bound(b, h, cf);
	kc_buf_puts(b, "<td>");
	kc_html_exact_badge(b, f);
	kc_buf_puts(b, "</td>");
	struct kc_measured_figures mf;
	kc_figures_measured(h->m, f, cf, &mf);
	td_measured(b, h, &mf);
	kc_buf_puts(b, "</tr>\n");
}

static void summary(struct kc_buf *b, const struct page *h)
{
	if (!kc_figures_n_functions(h->an)) {
		kc_buf_puts(b, "<p>No function was analyzed.</p>\n");
		return;
	}
	kc_buf_puts(b, "<div class=\"table-wrap\"><table class=\"summary sortable\">\n<thead><tr><th title=\"the "
	               "function's number on the roofline\">#</th><th>function</th>"
	               "<th>FLOPs</th><th>transcendentals</th><th>bytes (min)</th><th>bytes (streaming)</th>"
	               "<th>AI (min)</th><th>AI (streaming)</th><th>AI (naive)</th><th>predicted bound (min model)</th>"
	               "<th>exact</th>");
	kc_buf_puts(b, h->m && h->m->n_measured > 0 ? "<th>time (measured, median)</th><th>FLOP/s (measured)</th>"
	                                              "<th>DRAM traffic (measured)</th><th>AI (measured, source)</th>"
	                                              "<th>fraction of roof</th>"
	                                            : "<th>measured</th>");
	kc_buf_puts(b, "</tr></thead>\n<tbody>\n");
	for (int i = 0, number = 0; i < h->an->n_functions; i++)
		if (!h->an->functions[i]->skip)
			summary_row(b, h, i, ++number);
	kc_buf_puts(b, "</tbody></table></div>\n<p class=\"muted\">Formulas are exact counts in the size symbols; "
	               "values are at the benchmark sizes. AI = arithmetic intensity, FLOPs per byte moved. Traffic "
	               "models: <b>min</b> = inputs read once and outputs written once; <b>streaming</b> = each "
	               "top-level loop nest moves the distinct elements it touches; <b>naive</b> = every access goes "
	               "to memory. Bytes under every model are in each function's section.</p>\n");
}

static void header_meta(struct kc_buf *b, const struct page *h)
{
	kc_buf_puts(b, "<h1>kcost report</h1>\n<p class=\"meta\">kcost ");
	esc(b, h->meta->version);
	kc_buf_puts(b, " &middot; created <time datetime=\"");
	esc(b, h->meta->created);
	kc_buf_puts(b, "\">");
	esc(b, h->meta->created);
	kc_buf_printf(b, "</time> &middot; %d function%s analyzed &middot; files: ", kc_figures_n_functions(h->an),
	              kc_figures_n_functions(h->an) == 1 ? "" : "s");
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
	const struct kc_ceiling *compute[] = {&mc->flops_f32, &mc->flops_f64, &mc->dense_f32, &mc->dense_f64};
	const char *names[] = {"float peak", "double peak", "float dense (GEMM)", "double dense (GEMM)"};
	for (int i = 0; i < 4; i++) {
		kc_buf_printf(b, "<tr><th>%s</th><td>%.1f GFLOP/s, %d thread%s <span class=\"muted\">", names[i],
		              compute[i]->value, compute[i]->threads, compute[i]->threads == 1 ? "" : "s");
		esc(b, compute[i]->method ? compute[i]->method : "");
		kc_buf_puts(b, "</span></td></tr>\n");
	}
	if (mc->blas_note) {
		kc_buf_puts(b, "<tr><th>OpenBLAS</th><td>");
		esc(b, mc->blas_note);
		kc_buf_puts(b, "</td></tr>\n");
	}
	for (int d = 0; d < 2; d++) {
		kc_buf_printf(b, "<tr><th>%s peaks</th><td>", d ? "double" : "float");
		for (int isa = 0; isa < KC_ISA_N; isa++)
			if (mc->peak[d][isa][0].value > 0 || mc->peak[d][isa][1].value > 0)
				kc_buf_printf(b, "%s%s %.1f (FMA) / %.1f (add+mul)", isa ? "; " : "",
				              kc_isa_name((enum kc_isa)isa), mc->peak[d][isa][1].value,
				              mc->peak[d][isa][0].value);
		kc_buf_printf(b, " GFLOP/s; latency: add %.2f ns, FMA %.2f ns</td></tr>\n", mc->latency_add[d] * 1e9,
		              mc->latency_fma[d] * 1e9);
	}
	if (mc->n_libm) {
		kc_buf_puts(b, "<tr><th>libm, ns per call</th><td>");
		for (int i = 0; i < mc->n_libm; i++)
			kc_buf_puts(b, i ? ", " : ""), esc(b, mc->libm[i].name),
			    kc_buf_printf(b, " %.3g", mc->libm[i].seconds * 1e9);
		kc_buf_puts(b, " <span class=\"muted\">(scalar, one thread)</span></td></tr>\n");
	}
	for (int l = 0; l < KC_LEVEL_N; l++) {
		kc_buf_printf(b, "<tr><th>%s bandwidth</th><td>%.1f GB/s <span class=\"muted\">", kc_level_name(l),
		              mc->bandwidth[l].value);
		esc(b, mc->bandwidth[l].method ? mc->bandwidth[l].method : "");
		kc_buf_puts(b, "</span></td></tr>\n");
	}
	kc_buf_puts(b, "</table></details>\n");
}

static void header_machine(struct kc_buf *b, const struct page *h)
{
	const struct kc_machine *mc = kc_figures_machine(h->m);
	if (!mc) {
		kc_buf_printf(b, "<p class=\"banner\"><b>Static analysis only &mdash; not measured.</b> %s</p>\n",
		              h->meta->no_run ? "Measurement was not requested (--no-run)."
		                              : "No timings, machine ceilings or measured traffic in this report.");
		return;
	}
	if (mc->hypothetical) {
		kc_buf_puts(b, "<p class=\"banner\"><b>Hypothetical machine</b> (");
		esc(b, mc->cpu);
		kc_buf_puts(b, "; --peak, --bandwidth): its roofs are budgets, not measurements.</p>\n");
	} else if (mc->from_file) {
		kc_buf_puts(b, "<p class=\"banner\">Roofs and predictions of <b>another machine</b> (--machine ");
		esc(b, mc->from_file);
		kc_buf_puts(b, "): timings, if any, are this machine's.</p>\n");
	}
	kc_buf_puts(b, mc->hypothetical ? "<p class=\"machine\">Roofs of <b>" : "<p class=\"machine\">Measured on <b>");
	esc(b, mc->cpu ? mc->cpu : "an unknown CPU");
	kc_buf_printf(b, "</b>, %d cores; peaks: float %.1f GFLOP/s, double %.1f GFLOP/s, DRAM %.1f GB/s", mc->cores,
	              mc->flops_f32.value, mc->flops_f64.value, mc->bandwidth[KC_LEVEL_DRAM].value);
	kc_buf_puts(b, mc->cached ? " (ceilings from the cache, measured at " : " (ceilings measured at ");
	esc(b, mc->measured_at ? mc->measured_at : "?");
	kc_buf_puts(b, ").</p>\n");
	const struct kc_measurements *m = h->m;
	if (m->sandbox > 0) {
		kc_buf_puts(b, "<p class=\"sandbox\">Kernels ran in a sandbox: ");
		esc(b, m->sandbox_note);
		kc_buf_puts(b, ".</p>\n");
	} else if (m->sandbox < 0) {
		kc_buf_puts(b, "<p class=\"sandbox\">No kernel ran: --sandbox is not available here (");
		esc(b, m->sandbox_note);
		kc_buf_puts(b, ").</p>\n");
	} else {
		kc_buf_puts(b, "<p class=\"sandbox\">Kernels ran with the user's rights (no <code>--sandbox</code>): "
		               "they could write wherever the user can.</p>\n");
	}
	machine_details(b, mc);
}

static void header(struct kc_buf *b, const struct page *h)
{
	header_meta(b, h);
	header_machine(b, h);
	if (h->an->parse_failed)
		kc_buf_puts(b, "<p class=\"banner\">At least one input could not be analyzed at all: see the "
		               "diagnostics below.</p>\n");
	if (h->an->diags.head) {
		kc_buf_puts(b, "<h2>Diagnostics</h2>\n");
		kc_html_diags(b, &h->an->diags);
	}
	if (!kc_figures_n_functions(h->an))
		return;
	kc_buf_puts(b, "<nav><ul>\n");
	for (int i = 0; i < h->an->n_functions; i++)
		if (!h->an->functions[i]->skip) {
			kc_buf_puts(b, "<li>");
			kc_html_fn_link(b, h->an->functions[i]->name);
			kc_buf_puts(b, "</li>\n");
		}
	kc_buf_puts(b, "</ul></nav>\n");
}

static void title(struct kc_buf *b, const struct kc_analysis *an)
{
	kc_buf_puts(b, "kcost report");
	for (int i = 0; i < an->n_files; i++) {
		kc_buf_puts(b, i ? ", " : ": ");
		esc(b, an->files[i]);
	}
}

static void footer(struct kc_buf *b, const struct page *h)
{
	kc_buf_puts(b, "<p>Generated by kcost ");
	esc(b, h->meta->version);
	kc_buf_puts(b, ". Counting: each floating-point + &minus; &times; &divide; is 1 FLOP, an fma is 2; "
	               "transcendental calls (exp, tanh, sqrt, &hellip;) and comparisons are counted separately and "
	               "are not FLOPs. Bytes use the element sizes of the C types. Every figure names its model: "
	               "min, streaming, naive (predicted) or measured.</p>\n");
}

/* The fragments of the template, in the signature of struct slot. */
static void slot_title(struct kc_buf *b, struct page *h)
{
	title(b, h->an);
}

static void slot_header(struct kc_buf *b, struct page *h)
{
	header(b, h);
}

static void slot_summary(struct kc_buf *b, struct page *h)
{
	summary(b, h);
}

static void slot_footer(struct kc_buf *b, struct page *h)
{
	footer(b, h);
}

static void slot_roofline(struct kc_buf *b, struct page *h)
{
	kc_roofline_chart(b, &h->a, h->an, h->rf->functions, h->m);
}

struct section_writer {
	struct kc_buf *b;
	struct page *h;
};

/* Function i's section: the other thread's text, or rendered here. */
static int emit_section(void *ctx, int i, const struct kc_output_text *text)
{
	struct section_writer *w = ctx;
	if (text)
		kc_buf_add(w->b, text->s, text->len);
	else
		kc_html_section(w->h->sections, w->b, i);
	kc_output_drain(w->h->sink, 0);
	return 0;
}

static void slot_functions(struct kc_buf *b, struct page *h)
{
	struct section_writer w = {b, h};
	kc_output_each_piece(h->pieces, h->an, emit_section, &w);
}

static void slot_version(struct kc_buf *b, struct page *h)
{
	esc(b, h->meta->version);
}

void kc_html_page(struct kc_output_sink *sink, struct kc_report_figures *rf, const struct kc_measurements *m,
                  const struct kc_output_meta *meta, const struct kc_output_pieces *pieces)
{
	struct page h = {KC_ARENA_INIT, rf->an, m, meta, rf, sink, pieces, kc_html_sections_open(rf, m)};
	if (!h.sections)
		abort(); /* as kc_buf and the arena do on out-of-memory */
	const char *caption = kc_figures_machine(m)
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
	kc_html_sections_close(h.sections);
	kc_arena_release(&h.a);
}

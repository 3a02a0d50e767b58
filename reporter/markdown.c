/* markdown.c — the GitHub-flavoured Markdown summary for pull requests (summary.md). */
#include "markdown.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"
#include "words.h"

/* "`8*n` = 8.0 kFLOP" */
static void md_formula_value(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (!fig->expr) {
		kc_buf_puts(b, "n/a");
		return;
	}
	kc_escape_md_code(b, fig->expr);
	kc_buf_puts(b, " = ");
	kc_format_si_figure(b, fig, unit);
}

static void md_intensities(struct kc_buf *b, const struct kc_cost_figures *cf)
{
	for (int model = 0; model < KC_MODEL_N; model++) {
		kc_buf_puts(b, model ? " / " : "");
		if (cf->has_intensity[model])
			kc_format_sig3(b, cf->intensity[model]);
		else
			kc_buf_puts(b, "n/a");
	}
	kc_buf_puts(b, " FLOP/B");
}

/* A measurement's error without the kernel's own output: summary.md is posted as a pull-request comment, and what
 * a kernel prints (a token from its environment, forged text) must not reach it. The runner quotes that output
 * after this mark (runner/child.h, KC_CHILD_STDERR_MARK); report.json and index.html keep it. */
#define MD_KERNEL_OUTPUT_MARK "; its stderr began: "

void kc_markdown_error(struct kc_buf *b, const char *error)
{
	const char *mark = strstr(error, MD_KERNEL_OUTPUT_MARK);
	if (!mark) {
		kc_escape_md_cell(b, error);
		return;
	}
	char *head = strndup(error, (size_t)(mark - error));
	kc_escape_md_cell(b, head ? head : "failed");
	free(head);
	kc_buf_puts(b, " (its output is in index.html)");
}

static void md_measured_cell(struct kc_buf *b, const struct kc_measured_figures *mf)
{
	if (!mf->me) {
		kc_buf_puts(b, "not measured");
	} else if (!mf->timed) {
		kc_buf_puts(b, "failed: ");
		kc_markdown_error(b, mf->me->error ? mf->me->error : "no timing");
	} else if (mf->me->implausible) {
		kc_buf_puts(b, "not a fact: ");
		kc_escape_md_cell(b, mf->me->implausible);
	} else {
		kc_format_seconds(b, mf->me->seconds_median);
		kc_buf_puts(b, " median");
		if (mf->has_rate) {
			kc_buf_puts(b, ", ");
			kc_format_rate(b, mf->flop_per_s, mf->approx, "\xe2\x89\x88 ");
			if (mf->approx)
				kc_buf_puts(b, " (approximate: derived from a FLOP count that is not exact)");
		}
	}
}

/* "49.4 ms, bound: tanhf throughput (scalar libm)": the time model's prediction on the report's machine. */
static void md_predicted_cell(struct kc_buf *b, const struct kc_function *f, const struct kc_measurements *m)
{
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_prediction pr;
	kc_figures_predict(&a, m, f, &pr);
	if (pr.ok) {
		kc_format_seconds(b, pr.seconds);
		kc_buf_puts(b, ", bound: ");
		kc_escape_md_cell(b, pr.bound ? pr.bound : "n/a");
		if (pr.seconds_allocation > 0) {
			kc_buf_puts(b, "; + ");
			kc_format_seconds(b, pr.seconds_allocation);
			kc_buf_puts(b, " of page faults (its allocations)");
		}
	} else {
		kc_buf_puts(b, "n/a: ");
		kc_escape_md_cell(b, pr.why ? pr.why : "not predicted");
	}
	kc_arena_release(&a);
}

static void md_row(struct kc_buf *b, const struct kc_function *f, const struct kc_cost_figures *cf,
                   const struct kc_measurements *m, int measured_col)
{
	kc_buf_puts(b, "| ");
	kc_escape_md_cell(b, f->name);
	kc_buf_puts(b, " | ");
	md_formula_value(b, &cf->flops, "FLOP");
	kc_buf_puts(b, " | ");
	md_formula_value(b, &cf->bytes[KC_MODEL_MIN], "B");
	kc_buf_puts(b, " | ");
	md_formula_value(b, &cf->bytes[KC_MODEL_STREAMING], "B");
	kc_buf_puts(b, " | ");
	md_intensities(b, cf);
	kc_buf_puts(b, " | ");
	kc_format_exactness(b, f);
	if (kc_figures_machine(m)) {
		kc_buf_puts(b, " | ");
		md_predicted_cell(b, f, m);
	}
	if (measured_col) {
		kc_buf_puts(b, " | ");
		struct kc_measured_figures mf;
		kc_figures_measured(m, f, cf, &mf);
		md_measured_cell(b, &mf);
	}
	kc_buf_puts(b, " |\n");
}

/* The loops below stop once the text passes `stop`: md_cap cuts it there anyway. */
static void md_table(struct kc_buf *b, const struct kc_analysis *an, const struct kc_cost_figures *figs,
                     const struct kc_measurements *m, size_t stop)
{
	int measured_col = m && m->n_measured > 0;
	kc_buf_puts(b, "| function | FLOPs | bytes (min model) | bytes (streaming model) "
	               "| intensity min / streaming / naive | exact |");
	int predicted_col = kc_figures_machine(m) != NULL;
	kc_buf_puts(b, predicted_col ? " predicted |" : "");
	kc_buf_puts(b, measured_col ? " measured |\n" : "\n");
	kc_buf_puts(b, "| :-- | --: | --: | --: | --: | :-- |");
	kc_buf_puts(b, predicted_col ? " :-- |" : "");
	kc_buf_puts(b, measured_col ? " :-- |\n" : "\n");
	for (int i = 0; i < an->n_functions && b->len <= stop; i++)
		if (!an->functions[i]->skip)
			md_row(b, an->functions[i], &figs[i], m, measured_col);
}

static void md_name(struct kc_buf *b, const char *name)
{
	kc_buf_puts(b, "**");
	kc_escape_md_cell(b, name);
	kc_buf_puts(b, "**");
}

/* "- **gelu_unfused** moves 9.0× the streaming bytes of its reference **gelu_fused** (302.0 MB vs 33.6 MB)" */
/* "; measured: 5.9× slower than gelu_fused (401 ms vs 68.2 ms)" when both were timed. */
static void md_reference_speed(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m, int i,
                               int r)
{
	const struct kc_measurement *me = kc_figures_measurement(m, an->functions[i]);
	const struct kc_measurement *rm = kc_figures_measurement(m, an->functions[r]);
	if (!me || !rm || me->error || rm->error || me->seconds_median <= 0 || rm->seconds_median <= 0)
		return;
	double ratio = me->seconds_median / rm->seconds_median;
	kc_buf_printf(b, "; measured: %.1f\xc3\x97 %s (", ratio >= 1 ? ratio : 1 / ratio,
	              ratio >= 1 ? "slower" : "faster");
	kc_format_seconds(b, me->seconds_median);
	kc_buf_puts(b, " vs ");
	kc_format_seconds(b, rm->seconds_median);
	kc_buf_puts(b, ")");
}

static int md_reference_finding(struct kc_buf *b, const struct kc_analysis *an, const struct kc_cost_figures *figs,
                                const struct kc_measurements *m, int i)
{
	const struct kc_function *f = an->functions[i];
	int r = kc_figures_function_index(an, f->reference);
	const struct kc_figure *mine = &figs[i].bytes[KC_MODEL_STREAMING], *theirs;
	if (!f->reference)
		return 0;
	kc_buf_puts(b, "- ");
	md_name(b, f->name);
	if (r < 0) {
		kc_buf_puts(b, " names reference ");
		md_name(b, f->reference);
		kc_buf_puts(b, ", which is not an analyzed function\n");
		return 1;
	}
	theirs = &figs[r].bytes[KC_MODEL_STREAMING];
	if (!mine->has_value || !theirs->has_value || theirs->value <= 0) {
		kc_buf_puts(b, " and its reference ");
		md_name(b, f->reference);
		kc_buf_puts(b, " cannot be compared: streaming bytes not available\n");
		return 1;
	}
	if (mine->value == theirs->value) {
		kc_buf_puts(b, " moves the same streaming bytes as its reference ");
		md_name(b, f->reference);
		kc_buf_puts(b, " (");
	} else {
		kc_buf_printf(b, " moves %.1f\xc3\x97 the streaming bytes of its reference ",
		              (double)mine->value / (double)theirs->value);
		md_name(b, f->reference);
		kc_buf_puts(b, " (");
		kc_format_si(b, (double)mine->value, "B");
		kc_buf_puts(b, " vs ");
	}
	kc_format_si(b, (double)theirs->value, "B");
	kc_buf_puts(b, ")");
	md_reference_speed(b, an, m, i, r);
	kc_buf_putc(b, '\n');
	return 1;
}

/* Streaming traffic well above the compulsory minimum: nests re-read or write what could stay in registers. */
static int md_traffic_finding(struct kc_buf *b, const struct kc_function *f, const struct kc_cost_figures *cf)
{
	const struct kc_figure *mn = &cf->bytes[KC_MODEL_MIN], *st = &cf->bytes[KC_MODEL_STREAMING];
	if (!mn->has_value || !st->has_value || mn->value <= 0 || st->value < 2 * mn->value)
		return 0;
	kc_buf_puts(b, "- ");
	md_name(b, f->name);
	kc_buf_printf(b, ": its %d top-level nest%s %.1f\xc3\x97 the compulsory bytes (streaming ", f->n_nests,
	              f->n_nests == 1 ? " moves" : "s move", (double)st->value / (double)mn->value);
	kc_format_si(b, (double)st->value, "B");
	kc_buf_puts(b, " vs min ");
	kc_format_si(b, (double)mn->value, "B");
	kc_buf_puts(b, ")\n");
	return 1;
}

static void md_loc(struct kc_buf *b, struct kc_loc loc)
{
	struct kc_buf text = KC_BUF_INIT;
	if (loc.line)
		kc_buf_printf(&text, "%s:%u:%u", loc.file ? loc.file : "?", loc.line, loc.col ? loc.col : 1);
	else
		kc_buf_puts(&text, loc.file ? loc.file : "kcost");
	kc_escape_md_code(b, kc_buf_str(&text));
	kc_buf_release(&text);
}

/* " (no value for m, k: set them with KCOST_SIZES or --size)" */
static void md_missing_sizes(struct kc_buf *b, const struct kc_function *f)
{
	int n = 0;
	for (int s = 0; s < f->syms.n; s++) {
		const struct kc_sym *sym = &f->syms.syms[s];
		if (sym->has_value || sym->is_loop || sym->floor_of)
			continue;
		kc_buf_puts(b, n++ ? ", " : " (no value for ");
		kc_escape_md_code(b, sym->name);
	}
	if (n)
		kc_buf_puts(b, ": set with KCOST\\_SIZES or --size)");
}

static int md_exact_finding(struct kc_buf *b, const struct kc_function *f, const struct kc_cost_figures *cf)
{
	int n = 0;
	if (!f->exact) {
		kc_buf_puts(b, "- ");
		md_name(b, f->name);
		kc_buf_puts(b, f->exact_ops     ? " has approximate traffic (its operation counts are exact)"
		               : f->exact_flops ? " has approximate comparisons and traffic (its FLOPs are exact)"
		                                : " is approximate");
		const struct kc_diag *why = f->diags.head; /* the first warning or error: a note is no reason */
		while (why && why->severity == KC_NOTE)
			why = why->next;
		if (why) {
			kc_buf_puts(b, ": ");
			md_loc(b, why->loc);
			kc_buf_puts(b, ": ");
			kc_escape_md_cell(b, why->message);
		}
		kc_buf_putc(b, '\n');
		n++;
	}
	if (cf->flops.poly && !cf->flops.has_value) {
		kc_buf_puts(b, "- ");
		md_name(b, f->name);
		kc_buf_puts(b, " has formulas but no values: ");
		kc_escape_md_cell(b, cf->flops.why);
		md_missing_sizes(b, f);
		kc_buf_putc(b, '\n');
		n++;
	}
	return n;
}

static int md_measured_finding(struct kc_buf *b, const struct kc_function *f, const struct kc_measurements *m)
{
	const struct kc_measurement *me = kc_figures_measurement(m, f);
	if (!me || (!me->error && me->equivalent != 0))
		return 0;
	kc_buf_puts(b, "- ");
	md_name(b, f->name);
	if (me->error) {
		kc_buf_puts(b, " could not be measured: ");
		kc_markdown_error(b, me->error);
	} else {
		kc_buf_puts(b, " does not match its reference ");
		md_name(b, me->reference ? me->reference : "?");
		kc_buf_printf(b, " (max relative error %.3g)", me->max_rel_err);
	}
	kc_buf_putc(b, '\n');
	return 1;
}

/* "- **gelu_unfused**: fusing its 8 passes removes 7 intermediates (t1, ..., t7): streaming `72*n` → `8*n` B" */
static int md_fusion_finding(struct kc_buf *b, const struct kc_function *f)
{
	struct kc_arena a = KC_ARENA_INIT;
	int shown = 0;
	for (int g = 0; g < f->dataflow.n_groups; g++) {
		const struct kc_fusion_group *gr = &f->dataflow.groups[g];
		struct kc_poly *before, *after;
		struct kc_figure fb, fa;
		if (!gr->before.read || !gr->after.read || kc_traffic_total(&a, &gr->before, &before) < 0 ||
		    kc_traffic_total(&a, &gr->after, &after) < 0)
			continue;
		kc_figure_make(&a, f, before, &fb);
		kc_figure_make(&a, f, after, &fa);
		kc_buf_puts(b, "- ");
		md_name(b, f->name);
		kc_buf_printf(b, ": fusing passes %d\xe2\x80\x93%d removes %d intermediate%s", gr->first + 1,
		              gr->last + 1, gr->n_removes, gr->n_removes == 1 ? "" : "s");
		for (int i = 0; i < gr->n_removes; i++) {
			kc_buf_puts(b, i ? ", " : " (");
			kc_escape_md_cell(b, f->buffers[gr->removes[i]].name);
		}
		kc_buf_puts(b, gr->n_removes ? ")" : "");
		kc_words_removed_share(b, &fb, &fa, " and ", "the streaming bytes");
		kc_buf_puts(b, ": streaming ");
		md_formula_value(b, &fb, "B");
		kc_buf_puts(b, " \xe2\x86\x92 ");
		md_formula_value(b, &fa, "B");
		kc_buf_putc(b, '\n');
		shown++;
	}
	kc_arena_release(&a);
	return shown;
}

static void md_findings(struct kc_buf *b, const struct kc_analysis *an, const struct kc_cost_figures *figs,
                        const struct kc_measurements *m, size_t stop)
{
	int n = 0;
	kc_buf_puts(b, "\n### Findings\n\n");
	for (int i = 0; i < an->n_functions && b->len <= stop; i++) {
		const struct kc_function *f = an->functions[i];
		if (f->skip)
			continue;
		n += md_reference_finding(b, an, figs, m, i);
		int fused = md_fusion_finding(b, f);
		n += fused ? fused : md_traffic_finding(b, f, &figs[i]);
		n += md_exact_finding(b, f, &figs[i]);
		n += md_measured_finding(b, f, m);
	}
	if (!n)
		kc_buf_puts(b, "None: every count is exact and no function has a reference to compare with.\n");
}

static void md_diag(struct kc_buf *b, const struct kc_diag *d)
{
	kc_buf_puts(b, "- ");
	md_loc(b, d->loc);
	kc_buf_printf(b, " %s: ", kc_severity_name(d->severity));
	kc_escape_md_cell(b, d->message);
	kc_buf_putc(b, '\n');
}

static void md_diagnostics(struct kc_buf *b, const struct kc_analysis *an, size_t stop)
{
	int n = an->diags.head != NULL;
	for (int i = 0; i < an->n_functions; i++)
		n += !an->functions[i]->skip && an->functions[i]->diags.head;
	if (!n)
		return;
	kc_buf_puts(b, "\n### Diagnostics\n\n");
	for (const struct kc_diag *d = an->diags.head; d && b->len <= stop; d = d->next)
		md_diag(b, d);
	for (int i = 0; i < an->n_functions && b->len <= stop; i++)
		for (const struct kc_diag *d = an->functions[i]->diags.head; d && !an->functions[i]->skip; d = d->next)
			md_diag(b, d);
}

/* Keep at most KC_MARKDOWN_MAX bytes of what was appended since `start`, cut after a whole line. */
static void md_cap(struct kc_buf *b, size_t start)
{
	static const char note[] = "\n_Output truncated at 60,000 characters: report.json and index.html have "
	                           "everything._\n";
	if (b->len - start <= KC_MARKDOWN_MAX)
		return;
	size_t cut = start + KC_MARKDOWN_MAX - (sizeof note - 1);
	while (cut > start && b->data[cut - 1] != '\n')
		cut--;
	b->len = cut;
	b->data[cut] = '\0';
	kc_buf_puts(b, note);
}

void kc_markdown_write(struct kc_buf *b, struct kc_report_figures *rf, const struct kc_measurements *m)
{
	const struct kc_analysis *an = rf->an;
	size_t start = b->len;
	const struct kc_machine *mc = kc_figures_machine(m);
	const struct kc_cost_figures *figs = rf->functions;
	kc_buf_puts(b, "## kcost report\n\n");
	if (mc && mc->hypothetical) {
		kc_buf_puts(b, "Roofs of a **hypothetical** machine (");
		kc_escape_md_cell(b, mc->cpu);
		kc_buf_puts(b, "; --peak, --bandwidth): budgets, not measurements. ");
	} else if (mc && mc->from_file) {
		kc_buf_puts(b, "Roofs of another machine, ");
		kc_escape_md_cell(b, mc->cpu ? mc->cpu : "an unknown CPU");
		kc_buf_puts(b, " (--machine ");
		kc_escape_md_cell(b, mc->from_file);
		kc_buf_puts(b, "). ");
	} else if (mc) {
		kc_buf_puts(b, "Measured on ");
		kc_escape_md_cell(b, mc->cpu ? mc->cpu : "an unknown CPU");
		kc_buf_printf(b, " (%d cores). ", mc->cores);
		kc_buf_puts(b, m->sandbox > 0   ? "Kernels ran in a sandbox (read-only filesystem, no network). "
		               : m->sandbox < 0 ? "Kernels did not run: the sandbox asked for is not available. "
		                                : "Kernels ran with the user's rights (no `--sandbox`). ");
	} else {
		kc_buf_puts(b, "Static analysis only \xe2\x80\x94 not measured. ");
	}
	kc_buf_puts(b, "Bytes and intensity name their traffic model: *min* (compulsory), *streaming* (each loop "
	               "nest moves what it touches), *naive* (no cache).\n\n");
	if (kc_figures_n_functions(an) > 0)
		md_table(b, an, figs, m, start + KC_MARKDOWN_MAX);
	else
		kc_buf_puts(b, "No function was analyzed.\n");
	md_findings(b, an, figs, m, start + KC_MARKDOWN_MAX);
	md_diagnostics(b, an, start + KC_MARKDOWN_MAX);
	md_cap(b, start);
}

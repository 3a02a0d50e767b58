/* figures.c — the numbers of a report, derived from the model, and how they are written for people. */
#define _POSIX_C_SOURCE 200809L
#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void kc_report_figure(struct kc_arena *a, const struct kc_function *f, const struct kc_poly *p, struct kc_figure *out)
{
	struct kc_buf text = KC_BUF_INIT;
	memset(out, 0, sizeof *out);
	if (!p) {
		out->why = "not available";
		return;
	}
	out->poly = p;
	kc_function_format(f, p, &text);
	out->expr = kc_arena_strdup(a, kc_buf_str(&text));
	kc_buf_release(&text);
	out->has_value = kc_function_eval(f, p, &out->value, &out->why) == 0;
	if (out->has_value)
		out->why = NULL;
}

/* The figure of a total that a kc_cost_* / kc_traffic_* call computed with result code rc. */
static void total_figure(struct kc_arena *a, const struct kc_function *f, int rc, const struct kc_poly *p,
                         struct kc_figure *out)
{
	kc_report_figure(a, f, rc < 0 ? NULL : p, out);
	if (rc < 0)
		out->why = "the count overflows";
}

static void flops_figures(struct kc_arena *a, const struct kc_function *f, const struct kc_cost *c,
                          struct kc_cost_figures *out)
{
	struct kc_poly *p = NULL;
	int rc = kc_cost_flops(a, c, &p);
	total_figure(a, f, rc, p, &out->flops);
	for (int op = 0; op < KC_OP_N; op++) {
		rc = kc_cost_flops_op(a, c, (enum kc_op)op, &p);
		total_figure(a, f, rc, p, &out->by_op[op]);
	}
	for (int pr = 0; pr < KC_PREC_N; pr++) {
		rc = kc_cost_flops_prec(a, c, (enum kc_prec)pr, &p);
		total_figure(a, f, rc, p, &out->by_prec[pr]);
	}
	rc = kc_cost_transcendentals(a, c, &p);
	total_figure(a, f, rc, p, &out->transcendentals);
	kc_report_figure(a, f, c->cmp ? c->cmp : kc_poly_zero(a), &out->cmp);
}

/* Bytes of one traffic model; a model with neither reads nor writes recorded is not available. */
static void traffic_figures(struct kc_arena *a, const struct kc_function *f, const struct kc_traffic *t, int model,
                            struct kc_cost_figures *out)
{
	struct kc_poly *total = NULL;
	if (!t->read && !t->write) {
		kc_report_figure(a, f, NULL, &out->bytes[model]);
		kc_report_figure(a, f, NULL, &out->read[model]);
		kc_report_figure(a, f, NULL, &out->write[model]);
		return;
	}
	int rc = kc_traffic_total(a, t, &total);
	total_figure(a, f, rc, total, &out->bytes[model]);
	kc_report_figure(a, f, t->read ? t->read : kc_poly_zero(a), &out->read[model]);
	kc_report_figure(a, f, t->write ? t->write : kc_poly_zero(a), &out->write[model]);
}

/* intensity = FLOPs / bytes of the model, as a number and as a reduced formula. */
static void intensity_figures(struct kc_arena *a, const struct kc_function *f, int model, struct kc_cost_figures *out)
{
	const struct kc_figure *fl = &out->flops, *by = &out->bytes[model];
	if (fl->has_value && by->has_value && by->value > 0) {
		out->has_intensity[model] = 1;
		out->intensity[model] = (double)fl->value / (double)by->value;
	}
	if (fl->poly && by->poly && !kc_poly_is_zero(by->poly)) {
		struct kc_buf text = KC_BUF_INIT;
		kc_poly_format_ratio(fl->poly, by->poly, f->syms.names, &text);
		out->intensity_expr[model] = kc_arena_strdup(a, kc_buf_str(&text));
		kc_buf_release(&text);
	}
}

void kc_report_cost_figures(struct kc_arena *a, const struct kc_function *f, const struct kc_cost *c,
                            const struct kc_traffic *t, struct kc_cost_figures *out)
{
	memset(out, 0, sizeof *out);
	flops_figures(a, f, c, out);
	for (int model = 0; model < KC_MODEL_N; model++) {
		traffic_figures(a, f, &t[model], model, out);
		intensity_figures(a, f, model, out);
	}
}

struct kc_cost_figures *kc_report_function_figures(struct kc_arena *a, const struct kc_analysis *an)
{
	struct kc_cost_figures *all = KC_NEW_N(a, struct kc_cost_figures, an->n_functions + 1);
	for (int i = 0; i < an->n_functions; i++) {
		const struct kc_function *f = an->functions[i];
		if (!f->skip)
			kc_report_cost_figures(a, f, &f->cost, f->traffic, &all[i]);
	}
	return all;
}

void kc_report_buffer_bytes(struct kc_arena *a, const struct kc_function *f, const struct kc_buffer *buf,
                            struct kc_figure *out)
{
	struct kc_poly *size = NULL;
	if (buf->extent && kc_poly_scale(a, buf->extent, kc_rat_int(buf->elem_size), &size) < 0)
		size = NULL;
	kc_report_figure(a, f, size, out);
}

int kc_report_n_functions(const struct kc_analysis *an)
{
	int n = 0;
	for (int i = 0; i < an->n_functions; i++)
		n += !an->functions[i]->skip;
	return n;
}

int kc_report_function_index(const struct kc_analysis *an, const char *name)
{
	for (int i = 0; name && i < an->n_functions; i++)
		if (!an->functions[i]->skip && strcmp(an->functions[i]->name, name) == 0)
			return i;
	return -1;
}

const struct kc_measurement *kc_report_find_measurement(const struct kc_measurements *m, const struct kc_function *f)
{
	for (int i = 0; m && i < m->n; i++)
		if (m->items[i].function && strcmp(m->items[i].function, f->name) == 0)
			return &m->items[i];
	return NULL;
}

const struct kc_machine *kc_report_machine(const struct kc_measurements *m)
{
	return m ? m->machine : NULL;
}

enum kc_prec kc_report_main_prec(const struct kc_cost_figures *cf)
{
	enum kc_prec best = KC_PREC_F32;
	long long most = 0;
	for (int p = 0; p < KC_PREC_N; p++)
		if (cf->by_prec[p].has_value && cf->by_prec[p].value > most) {
			most = cf->by_prec[p].value;
			best = (enum kc_prec)p;
		}
	return best;
}

double kc_report_roof(const struct kc_machine *mc, enum kc_prec p, double intensity, const char **bound)
{
	if (!mc)
		return 0;
	const struct kc_ceiling *own = p == KC_PREC_F64 || p == KC_PREC_F80 ? &mc->flops_f64 : &mc->flops_f32;
	double peak = own->value > 0 ? own->value : fmax(mc->flops_f32.value, mc->flops_f64.value);
	double bw = mc->bandwidth[KC_LEVEL_DRAM].value;
	if (peak <= 0 || bw <= 0 || !(intensity > 0))
		return 0;
	int memory_bound = intensity * bw < peak;
	if (bound)
		*bound = memory_bound ? "memory" : "compute";
	return memory_bound ? intensity * bw : peak;
}

void kc_report_sig3(struct kc_buf *b, double v)
{
	double mag = fabs(v);
	if (v == 0)
		kc_buf_puts(b, "0");
	else if (mag >= 99.95)
		kc_buf_printf(b, "%.0f", v);
	else if (mag >= 9.995)
		kc_buf_printf(b, "%.1f", v);
	else if (mag >= 0.9995)
		kc_buf_printf(b, "%.2f", v);
	else if (mag >= 1e-4) /* 0.100, 0.0833: keep three significant digits, trailing zeros included */
		kc_buf_printf(b, "%.*f", 2 - (int)floor(log10(mag)), v);
	else
		kc_buf_printf(b, "%.2e", v);
}

void kc_report_si(struct kc_buf *b, double v, const char *unit)
{
	static const char prefixes[] = " kMGTPEZY";
	double mag = fabs(v);
	int k = 0;
	/* a word is counted ("4.2M calls"); a unit takes the prefix ("4.2 MFLOP") */
	int word = *unit >= 'a' && *unit <= 'z';
	const char *space = *unit ? " " : "";
	if (mag < 999.5) {
		if (mag == floor(mag))
			kc_buf_printf(b, "%.0f", v);
		else
			kc_report_sig3(b, v);
		kc_buf_printf(b, "%s%s", space, unit);
		return;
	}
	/* one decimal after scaling; 999.96 k rounds to "1000.0", so move up a prefix first */
	while (mag >= 999.95 && prefixes[k + 1]) {
		mag /= 1000;
		k++;
	}
	if (word)
		kc_buf_printf(b, "%.1f%c %s", v < 0 ? -mag : mag, prefixes[k], unit);
	else
		kc_buf_printf(b, "%.1f%s%c%s", v < 0 ? -mag : mag, space, prefixes[k], unit);
}

void kc_report_si_figure(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (fig->has_value)
		kc_report_si(b, (double)fig->value, unit);
	else
		kc_buf_puts(b, "n/a");
}

void kc_report_seconds(struct kc_buf *b, double s)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "\xc2\xb5s"}, {1e-9, "ns"}};
	int i = 0;
	while (i < 3 && fabs(s) < units[i].scale * 0.9995)
		i++;
	kc_report_sig3(b, s / units[i].scale);
	kc_buf_printf(b, " %s", units[i].unit);
}

void kc_report_exactness(struct kc_buf *b, const struct kc_function *f)
{
	int n = f->diags.warnings + f->diags.errors;
	if (f->exact)
		kc_buf_puts(b, "exact");
	else if (n == 0)
		kc_buf_puts(b, "approx");
	else
		kc_buf_printf(b, "approx: %d warning%s", n, n == 1 ? "" : "s");
}

void kc_report_created(const char *o_created, char *out, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	struct tm tm;
	time_t t = time(NULL);
	if (o_created) {
		snprintf(out, size, "%s", o_created);
		return;
	}
	if (epoch && *epoch)
		t = (time_t)strtoll(epoch, NULL, 10);
	if (!gmtime_r(&t, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, size, "1970-01-01T00:00:00Z");
}

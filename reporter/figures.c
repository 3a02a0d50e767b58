/* figures.c — the numbers of a report, derived once from the model: sums, formulas, values, intensities. */
#include "figures.h"

#include <math.h>
#include <string.h>

/* Deriving the figures of one cost: formatting and evaluating is most of a figure's price. */
struct builder {
	struct kc_figure_memo *memo;
	struct kc_arena *a; /* memo->a */
	const struct kc_function *f;
	const struct kc_cost_figures *like; /* the function's figures when deriving a nest's; else NULL */
};

void kc_figure_memo_init(struct kc_figure_memo *m, struct kc_arena *a)
{
	memset(m, 0, sizeof *m);
	m->a = a;
}

void kc_figure_memo_clear(struct kc_figure_memo *m)
{
	m->f = NULL;
	m->n = m->next = 0;
}

void kc_figure_memo_release(struct kc_figure_memo *m)
{
	kc_buf_release(&m->text);
	kc_figure_memo_clear(m);
}

void kc_figure_of(struct kc_figure_memo *m, const struct kc_function *f, const struct kc_poly *p, struct kc_figure *out)
{
	memset(out, 0, sizeof *out);
	if (!p) {
		out->why = "not available";
		return;
	}
	if (m->f != f)
		kc_figure_memo_clear(m);
	m->f = f;
	for (int i = 0; i < m->n; i++)
		if (kc_poly_equal(p, m->poly[i])) {
			*out = m->fig[i];
			out->poly = p;
			return;
		}
	out->poly = p;
	kc_buf_reset(&m->text);
	kc_function_format(f, p, &m->text);
	out->expr = kc_arena_strndup(m->a, kc_buf_str(&m->text), m->text.len);
	out->has_value = kc_function_eval(f, p, &out->value, &out->why) == 0;
	if (out->has_value)
		out->why = NULL;
	int slot = m->n < KC_FIGURE_MEMO_N ? m->n++ : (m->next++ % KC_FIGURE_MEMO_N);
	m->poly[slot] = p;
	m->fig[slot] = *out;
}

static void figure_of(struct builder *bd, const struct kc_poly *p, const struct kc_figure *like, struct kc_figure *out)
{
	if (like && like->poly && p && kc_poly_equal(p, like->poly))
		*out = *like;
	else
		kc_figure_of(bd->memo, bd->f, p, out);
}

void kc_figure_make(struct kc_arena *a, const struct kc_function *f, const struct kc_poly *p, struct kc_figure *out)
{
	struct kc_figure_memo m;
	kc_figure_memo_init(&m, a);
	kc_figure_of(&m, f, p, out);
	kc_figure_memo_release(&m);
}

/* The figure of a total that a kc_cost_* / kc_traffic_* call computed with result code rc. */
static void total_figure(struct builder *bd, int rc, const struct kc_poly *p, const struct kc_figure *like,
                         struct kc_figure *out)
{
	figure_of(bd, rc < 0 ? NULL : p, like, out);
	if (rc < 0)
		out->why = "the count overflows";
}

static void flops_figures(struct builder *bd, const struct kc_cost *c, struct kc_cost_figures *out)
{
	const struct kc_cost_figures *like = bd->like;
	struct kc_poly *p = NULL;
	int rc = kc_cost_flops(bd->a, c, &p);
	total_figure(bd, rc, p, like ? &like->flops : NULL, &out->flops);
	for (int op = 0; op < KC_OP_N; op++) {
		rc = kc_cost_flops_op(bd->a, c, (enum kc_op)op, &p);
		total_figure(bd, rc, p, like ? &like->by_op[op] : NULL, &out->by_op[op]);
	}
	for (int pr = 0; pr < KC_PREC_N; pr++) {
		rc = kc_cost_flops_prec(bd->a, c, (enum kc_prec)pr, &p);
		total_figure(bd, rc, p, like ? &like->by_prec[pr] : NULL, &out->by_prec[pr]);
	}
	rc = kc_cost_transcendentals(bd->a, c, &p);
	total_figure(bd, rc, p, like ? &like->transcendentals : NULL, &out->transcendentals);
	figure_of(bd, c->cmp ? c->cmp : kc_poly_zero(bd->a), like ? &like->cmp : NULL, &out->cmp);
}

/* Bytes of one traffic model; a model with neither reads nor writes recorded is not available. */
static void traffic_figures(struct builder *bd, const struct kc_traffic *t, int model, struct kc_cost_figures *out)
{
	const struct kc_cost_figures *like = bd->like;
	struct kc_poly *total = NULL;
	if (!t->read && !t->write) {
		figure_of(bd, NULL, NULL, &out->bytes[model]);
		figure_of(bd, NULL, NULL, &out->read[model]);
		figure_of(bd, NULL, NULL, &out->write[model]);
		return;
	}
	int rc = kc_traffic_total(bd->a, t, &total);
	total_figure(bd, rc, total, like ? &like->bytes[model] : NULL, &out->bytes[model]);
	figure_of(bd, t->read ? t->read : kc_poly_zero(bd->a), like ? &like->read[model] : NULL, &out->read[model]);
	figure_of(bd, t->write ? t->write : kc_poly_zero(bd->a), like ? &like->write[model] : NULL, &out->write[model]);
}

/* intensity = FLOPs / bytes of the model, as a number and as a reduced formula. */
static void intensity_figures(struct builder *bd, int model, struct kc_cost_figures *out)
{
	const struct kc_figure *fl = &out->flops, *by = &out->bytes[model];
	const struct kc_cost_figures *like = bd->like;
	if (fl->has_value && by->has_value && by->value > 0) {
		out->has_intensity[model] = 1;
		out->intensity[model] = (double)fl->value / (double)by->value;
	}
	if (like && fl->poly == like->flops.poly && by->poly == like->bytes[model].poly) {
		out->intensity_expr[model] = like->intensity_expr[model]; /* both figures were copied from like */
	} else if (model > 0 && fl->poly == out->flops.poly && by->poly && out->bytes[model - 1].poly &&
	           kc_poly_equal(by->poly, out->bytes[model - 1].poly)) {
		out->intensity_expr[model] = out->intensity_expr[model - 1]; /* the same bytes as the model before */
	} else if (fl->poly && by->poly && !kc_poly_is_zero(by->poly)) {
		struct kc_buf *text = &bd->memo->text;
		kc_buf_reset(text);
		kc_poly_format_ratio(fl->poly, by->poly, bd->f->syms.names, text);
		out->intensity_expr[model] = kc_arena_strndup(bd->a, kc_buf_str(text), text->len);
	}
}

static void cost_figures(struct builder *bd, const struct kc_cost *c, const struct kc_traffic *t,
                         struct kc_cost_figures *out)
{
	memset(out, 0, sizeof *out);
	flops_figures(bd, c, out);
	for (int model = 0; model < KC_MODEL_N; model++) {
		traffic_figures(bd, &t[model], model, out);
		intensity_figures(bd, model, out);
	}
}

void kc_figures_alloc(struct kc_report_figures *rf, const struct kc_analysis *an)
{
	struct kc_arena *a = &rf->arena;
	*rf = (struct kc_report_figures){.an = an, .arena = KC_ARENA_INIT, .helper_arena = KC_ARENA_INIT};
	rf->functions = KC_NEW_N(a, struct kc_cost_figures, an->n_functions + 1);
	rf->nests = KC_NEW_N(a, struct kc_nest_figures *, an->n_functions + 1);
}

/* Every nest of function i at once: an output that shows one nest shows them all. */
static struct kc_nest_figures *nest_figures(struct builder *bd, const struct kc_cost_figures *whole)
{
	const struct kc_function *f = bd->f;
	struct kc_nest_figures *all = KC_NEW_N(bd->a, struct kc_nest_figures, f->n_nests + 1);
	bd->like = whole;
	for (int j = 0; j < f->n_nests; j++) {
		const struct kc_nest *nest = &f->nests[j];
		cost_figures(bd, &nest->cost, nest->traffic, &all[j].cost);
		figure_of(bd, nest->trips, NULL, &all[j].trips);
		if (nest->chain)
			figure_of(bd, nest->chain, NULL, &all[j].chain);
		if (nest->chain && nest->chain_runs)
			figure_of(bd, nest->chain_runs, NULL, &all[j].chain_runs);
	}
	bd->like = NULL;
	return all;
}

void kc_figures_derive(struct kc_report_figures *rf, struct kc_arena *a, int from, int to, int with_nests)
{
	struct kc_figure_memo m;
	kc_figure_memo_init(&m, a);
	struct builder bd = {&m, a, NULL, NULL};
	for (int i = from; i < to; i++) {
		bd.f = rf->an->functions[i];
		if (bd.f->skip)
			continue;
		cost_figures(&bd, &bd.f->cost, bd.f->traffic, &rf->functions[i]);
		if (with_nests)
			rf->nests[i] = nest_figures(&bd, &rf->functions[i]);
	}
	kc_figure_memo_release(&m);
}

void kc_figures_init(struct kc_report_figures *rf, const struct kc_analysis *an)
{
	kc_figures_alloc(rf, an);
	kc_figures_derive(rf, &rf->arena, 0, an->n_functions, 0);
}

const struct kc_nest_figures *kc_figures_nest(struct kc_report_figures *rf, int i, int j)
{
	if (!rf->nests[i]) {
		struct kc_figure_memo m;
		kc_figure_memo_init(&m, &rf->arena);
		struct builder bd = {&m, &rf->arena, rf->an->functions[i], NULL};
		rf->nests[i] = nest_figures(&bd, &rf->functions[i]);
		kc_figure_memo_release(&m);
	}
	return &rf->nests[i][j];
}

void kc_figures_release(struct kc_report_figures *rf)
{
	kc_arena_release(&rf->arena);
	kc_arena_release(&rf->helper_arena);
	rf->functions = NULL;
	rf->nests = NULL;
}

void kc_figure_buffer_bytes(struct kc_figure_memo *m, const struct kc_function *f, const struct kc_buffer *buf,
                            struct kc_figure *out)
{
	struct kc_poly *size = NULL;
	if (buf->extent && kc_poly_scale(m->a, buf->extent, kc_rat_int(buf->elem_size), &size) < 0)
		size = NULL;
	kc_figure_of(m, f, size, out);
}

int kc_figures_n_functions(const struct kc_analysis *an)
{
	int n = 0;
	for (int i = 0; i < an->n_functions; i++)
		n += !an->functions[i]->skip;
	return n;
}

int kc_figures_function_index(const struct kc_analysis *an, const char *name)
{
	for (int i = 0; name && i < an->n_functions; i++)
		if (!an->functions[i]->skip && strcmp(an->functions[i]->name, name) == 0)
			return i;
	return -1;
}

const struct kc_measurement *kc_figures_measurement(const struct kc_measurements *m, const struct kc_function *f)
{
	return m && f->index >= 0 && f->index < m->n && m->items[f->index].function ? &m->items[f->index] : NULL;
}

const struct kc_machine *kc_figures_machine(const struct kc_measurements *m)
{
	return m ? m->machine : NULL;
}

enum kc_prec kc_figures_main_prec(const struct kc_cost_figures *cf)
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

double kc_figures_roof(const struct kc_machine *mc, enum kc_prec p, double intensity, const char **bound)
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

void kc_figures_measured(const struct kc_measurements *m, const struct kc_function *f, const struct kc_cost_figures *cf,
                         struct kc_measured_figures *out)
{
	const struct kc_measurement *me = kc_figures_measurement(m, f);
	memset(out, 0, sizeof *out);
	out->me = me;
	if (!me)
		return;
	double t = me->seconds_median, flops = (double)cf->flops.value;
	out->timed = t > 0 && !me->error;
	out->has_rate = out->timed && cf->flops.has_value;
	out->has_traffic = me->traffic_bytes > 0;
	if (out->has_rate) {
		out->flop_per_s = flops / t;
		out->gflops = out->flop_per_s / 1e9;
	}
	if (out->timed && out->has_traffic)
		out->byte_per_s = me->traffic_bytes / t;
	if (out->has_rate && out->has_traffic)
		out->intensity = flops / me->traffic_bytes;
	out->at = out->has_rate && out->has_traffic ? out->intensity : cf->intensity[KC_MODEL_MIN];
	out->roof = kc_figures_roof(kc_figures_machine(m), kc_figures_main_prec(cf), out->at, NULL);
	out->has_fraction = out->has_rate && out->roof > 0;
	if (out->has_fraction)
		out->fraction = out->gflops / out->roof;
	out->approx = out->has_rate && (!f->exact_flops || (!out->has_traffic && !f->exact));
}

/* m's machine as f's kernel saw it: the per-call times of the libm functions it calls, swept in its own processes
 * between its timed calls (kc_measurement.libm), in place of the medians measured in kcost's. m itself when there
 * are none, and when m is not this machine's (--machine FILE, --peak): its figures stay together. */
static const struct kc_machine *kernel_machine(struct kc_arena *a, const struct kc_machine *m,
                                               const struct kc_measurement *me)
{
	if (!m || !me || !me->n_libm || m->from_file || m->hypothetical)
		return m;
	struct kc_machine *k = KC_NEW(a, struct kc_machine);
	*k = *m;
	k->libm = KC_NEW_N(a, struct kc_libm_cost, m->n_libm + 1);
	for (int i = 0; i < m->n_libm; i++) {
		k->libm[i] = m->libm[i];
		for (int j = 0; j < me->n_libm; j++)
			if (!strcmp(me->libm[j].name, m->libm[i].name) && m->libm[i].seconds > 0)
				k->libm[i].median = me->libm[j].median;
	}
	return k;
}

int kc_figures_contracts(const char *cc)
{
	/* the words of the command, the last of each kind deciding; the compiler is its first word's last path part */
	int clang = 0, iso = 0, fast_math = 0, fma_target = 0, contract = -1; /* -1 unset, 0 off, 1 on, 2 fast */
	const char *w = cc;
	for (int first = 1; *w; first = 0) {
		while (*w == ' ')
			w++;
		size_t len = strcspn(w, " ");
		if (!len)
			break;
		char word[64];
		snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word - 1 ? len : sizeof word - 1), w);
		if (first) {
			const char *base = strrchr(word, '/');
			clang = strstr(base ? base + 1 : word, "clang") != NULL;
		} else if (!strncmp(word, "-std=", 5)) {
			iso = word[5] == 'c'; /* c17, c2x: ISO; gnu17: GNU */
		} else if (!strcmp(word, "-ffast-math") || !strcmp(word, "-Ofast")) {
			fast_math = 1;
		} else if (!strncmp(word, "-ffp-contract=", 14)) {
			contract = !strcmp(word + 14, "off") ? 0 : !strcmp(word + 14, "on") ? 1 : 2;
		} else if (!strncmp(word, "-march=", 7) || !strcmp(word, "-mfma")) {
			fma_target = 1; /* -march=native, and every x86-64 level from Haswell's on, have FMA: assumed */
		} else if (!strcmp(word, "-mno-fma")) {
			fma_target = 0;
		}
		w += len;
	}
	if (!fma_target)
		return 0;  /* x86-64's baseline has no FMA instruction to contract into */
	if (contract >= 0) /* gcc before 14 takes "on" as "off"; clang contracts within an expression */
		return contract == 2 || (contract == 1 && clang);
	return clang || !iso || fast_math; /* gcc: fast in its GNU modes and with -ffast-math, off in ISO modes */
}

void kc_figures_predict(struct kc_arena *a, const struct kc_measurements *m, const struct kc_function *f,
                        struct kc_prediction *out)
{
	const struct kc_measurement *me = kc_figures_measurement(m, f);
	const char *cc = me && me->compiler ? me->compiler : "";
	int contracts = kc_figures_contracts(cc);
	struct kc_vectorized v = {me && me->vec_known, me ? me->vec_lines : NULL, me ? me->n_vec_lines : 0,
	                          strstr(cc, "-ffast-math") || strstr(cc, "-Ofast") || strstr(cc, "-fassociative-math"),
	                          contracts};
	kc_predict(a, f, kernel_machine(a, kc_figures_machine(m), me), &v, out);
}

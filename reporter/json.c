/* json.c — report.json, schema 1: the public contract of kcost's output, built with cJSON.
 *
 * Keys (DESIGN.md "report.json, schema 1"; the ones marked + are additions, allowed by the schema's rule that
 * keys may be added but not renamed):
 *
 *   schema 1, kcost_version, command [argv...], created "YYYY-MM-DDTHH:MM:SSZ" (UTC)
 *   + files [input paths], + parse_failed bool, + no_run bool,
 *   + diagnostics [file-level diagnostics, same shape as a function's]
 *   machine   null when not measured, else {cpu, cores, caches [{level, bytes}],
 *             ceilings {flops {float|double: {gflops, threads, method}},  (the compute roofs: kcost's best peak
 *                             kernel; + dense_float|dense_double: OpenBLAS GEMM, the achievable dense roof;
 *                             + dense_float_as_run|dense_double_as_run: {gflops, threads, method} with the
 *                             kernels OpenBLAS chooses in this environment, what cblas_* calls are predicted at)
 *                       + peak {float|double: {scalar|SSE|AVX2|AVX-512: {fma, add_mul}}} GFLOP/s, null: not run
 *                       + latency_ns {float|double: {add, fma, max, add_rows_of_64}} one dependent scalar
 *                         operation (max: a call of fmaxf / fmax, as a max reduction waits for it;
 *                         add_rows_of_64: an add of rows of 64 dependent adds, one row after another;
 *                         + add_median, max_median, median_runs_beside_kernels n: the
 *                         median of n runs beside the kernels' timings, what the predictions use, when kernels ran)
 *                       + libm_ns_per_call {expf: ns, ...} scalar (the best sweep), + libm_median_ns_per_call
 *                         {expf: ns, ...} (the median sweep, what a prediction of a kernel that was not
 *                         measured uses: a measured one's are its own, measured.libm_median_ns_per_call),
 *                         + openblas_note string or null
 *                       + fresh_pages {seconds_per_page, method} (what a page of a fresh allocation costs)
 *                       + column_stores {ns_per_store, median_ns_per_store: {L1|L2|L3|DRAM: ns or null}, method}
 *                         (a store down a column: at L1 one L1 keeps, beyond it one whose lines conflict in the
 *                         caches above that level)
 *                       bandwidth {L1|L2|L3|DRAM: {gbytes_per_s, method, + kernels_gbytes_per_s {load, copy,
 *                       triad, update}, + median_gbytes_per_s, + kernels_median_gbytes_per_s {...} (the median
 *                       batches, what a prediction uses), + median_batches_beside_kernels n (only when those
 *                       medians are of n batches beside the kernels' timings)}}, measured_at}, + cached bool}
 *             + ceilings.ridge_flop_per_byte {float, double}, + hypothetical bool (--peak/--bandwidth: budgets,
 *             not measurements), + from_file (--machine FILE) or null
 *   + sandbox null when nothing was run, else {requested bool (--sandbox), used bool, isolation (what the
 *             sandbox isolates) or null, why_not (why it could not be used: then no kernel ran) or null}
 *   functions [ {
 *     name, file, line, + end_line,
 *     sizes     {symbol: value} for size symbols with a benchmark value (loop variables and derived floor()
 *               atoms left out)
 *     + sizes_missing [symbols without a value]        (only when not empty)
 *     + sizes_from {call "file:line:col", function, sizes [symbols]}: the call of the same file whose constant
 *               arguments gave those sizes their values (only when one did; --size and KCOST_SIZES come first)
 *     exact, diagnostics [{file, line, col, severity, message}]
 *     + value_error   null, or why some value below is null ("a size has no benchmark value", ...)
 *     flops     {expr, value, by_category {add, sub, mul, div, fma}, by_precision {float, double, ...}}
 *               by_category values are FLOPs (an fma is 2); by_precision lists only precisions present,
 *               named "_Float16", "float", "double", "long double"
 *     transcendentals {expr, value, by_function {name: value}}
 *     + comparisons   {expr, value}      (cmp category: comparisons, fmin/fmax/fabs/copysign; not FLOPs)
 *     bytes     {min|streaming|naive: {expr, value, read, write} or null when the model is not available}
 *     intensity {min|streaming|naive: FLOP/byte, or null when bytes is 0 or a value is unknown}
 *     + intensity_expr {min|streaming|naive: "n/6"}  (FLOPs/bytes reduced formula; null when bytes is 0)
 *     nests [ {lines [begin, end], callee (string or null), flops {as above}, + transcendentals {as above},
 *              bytes {streaming, naive}, trips {expr, value} (null for calls), + reads [buffer names],
 *              + writes [buffer names]} ]
 *     + buffers [ {name, role, elem_type, elem_size, extent {expr, value} or null, bytes (extent * elem_size,
 *                  null when unknown), storage "param"|"local"|"heap"|"global"|"unknown", scratch bool,
 *                  extent_origin "declared"|"accesses"|null, extent_lines [first, last] (origin "accesses":
 *                  the lines of the accesses the extent is the hull of), extent_lowest {expr, value} (only when
 *                  the lowest index accessed may be negative: the extent counts the elements from it, and the
 *                  harness allocates from it)} ]
 *     + reference (string or null), + assumptions [strings]
 *     + predicted  null without machine ceilings, else {roofline_bound "memory"|"compute", gflops, precision
 *               (the roofline at the min-model intensity against the DRAM roof; null without an intensity), and
 *               the time model
 *               (model/predict.h): seconds, seconds_no_overlap, bound (named: "L2 bandwidth", "AVX2 float FMA
 *               peak", "tanhf throughput (scalar libm)", "add latency chain ...", "L1 loads and stores (every
 *               access)"), resource "compute"|"latency"|"transcendental"|"memory"|"access", level, why (null, or why
 * seconds is null), nests [{lines, seconds, seconds_no_overlap, bound, resource, level, vectorized (bool, null: not
 * known), seconds_by_resource {compute, latency, transcendental, memory, access}} or {lines, seconds null, why}]}
 *     measured  null when not measured, else {seconds {min, median, p90, + samples [seconds per call, in the
 *               order taken; at most 1000, every k-th beyond], + slices [the median of each harness process's
 *               samples]}, samples (how many were taken), cv, gflops, gbytes_per_s,
 *               fraction_of_roof, + ratio (median / predicted.seconds), + implausible (null, or why the time
 *               cannot be right: faster than the ceilings allow), equivalent {reference, ok, max_rel_err}
 *               or null, traffic {source, bytes, by_level {L2, DRAM}, + instructions (one call's, counted by
 *               the cache simulation; null otherwise), + why}, intensity, compiler, error,
 *               + gflops_approximate bool: the FLOP count is not exact (exact_flops false), or the traffic is not
 *                 and none was measured, so gflops, fraction_of_roof and intensity (and its roofline point)
 *                 are derived from an inexact count, not measured,
 *               + libm_median_ns_per_call {tanhf: ns} and libm_sweeps {tanhf: n}: the libm functions it calls,
 *                 swept in its own processes between its timed calls (the median of n sweeps), what its
 *                 prediction prices their calls at (only when any)}
 *     + baseline  only with --baseline: {revision, change "same"|"changed"|"added", verdict "slower"|"faster"|
 *               "unchanged"|"inconclusive" (or why there is none), ratio (head / base median), ci_low, ci_high
 *               (95%, Hodges-Lehmann), p_value (Mann-Whitney), samples {base, head}, base_seconds,
 *               instructions_change (head / base - 1, null when not counted or the same), regressed}
 *   } ]
 *
 * Every "expr" is kc_function_format's formula; every "value" is the exact integer at the benchmark sizes, a
 * JSON number (written digit for digit beyond 2^53), or null when it cannot be evaluated — a count object then
 * carries its own "value_error" string beside "value", and the function's "value_error" repeats the first one.
 */
#include "json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "format.h"
#include "graphs.h"

/* Build state: a scratch arena for derived polynomials and a sticky out-of-memory flag, so that building
 * goes on after a failed allocation and the result is discarded once at the end. */
struct jctx {
	struct kc_arena a;
	struct kc_figure_memo memo; /* the current function's figures, in a */
	int failed;
	const char *first_why; /* the current function's first value error */
	int copy_keys;         /* the keys being added are not string literals: cJSON must copy them */
	int raw_ints;          /* the document is only printed: integers may go out as raw digits */
};

/* Add item to an object (key != NULL) or an array; returns item, or NULL (and marks failure) on OOM. */
/* Keys are string literals or static names except where copy_keys says otherwise; cJSON keeps those
 * without a copy (a report has about 170 keys per function). */
static cJSON *jadd(struct jctx *c, cJSON *parent, const char *key, cJSON *item)
{
	cJSON_bool ok = item && parent &&
	                (!key           ? cJSON_AddItemToArray(parent, item)
	                 : c->copy_keys ? cJSON_AddItemToObject(parent, key, item)
	                                : cJSON_AddItemToObjectCS(parent, key, item));
	if (!ok) {
		cJSON_Delete(item);
		c->failed = 1;
		return NULL;
	}
	return item;
}

static cJSON *jstr(struct jctx *c, cJSON *parent, const char *key, const char *s)
{
	return jadd(c, parent, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

/* An exact integer: a double holds it exactly up to 2^53; beyond, its digits go out raw. A document that is
 * only printed (raw_ints) has every integer below 10^15 go out raw too: cJSON prints a number as "%1.15g"
 * checked by sscanf, which for those is the same digits at many times the cost. */
static cJSON *jint(struct jctx *c, cJSON *parent, const char *key, long long v)
{
	char digits[KC_FORMAT_DIGITS];
	int raw = v < -(1LL << 53) || v > (1LL << 53);
	if (!raw && !(c->raw_ints && v > -1000000000000000LL && v < 1000000000000000LL))
		return jadd(c, parent, key, cJSON_CreateNumber((double)v));
	return jadd(c, parent, key, cJSON_CreateRaw(kc_format_digits(digits, v)));
}

/* A measured or derived real: null unless finite. */
static cJSON *jreal(struct jctx *c, cJSON *parent, const char *key, int has, double v)
{
	return jadd(c, parent, key, has && isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

static cJSON *jbool(struct jctx *c, cJSON *parent, const char *key, int v)
{
	return jadd(c, parent, key, cJSON_CreateBool(v != 0));
}

static cJSON *jobj(struct jctx *c, cJSON *parent, const char *key)
{
	return jadd(c, parent, key, cJSON_CreateObject());
}
static cJSON *jarr(struct jctx *c, cJSON *parent, const char *key)
{
	return jadd(c, parent, key, cJSON_CreateArray());
}
static cJSON *jnull(struct jctx *c, cJSON *parent, const char *key)
{
	return jadd(c, parent, key, cJSON_CreateNull());
}

/* A figure's value: a number, or null (remembering why for the function's value_error). */
static void jvalue(struct jctx *c, cJSON *parent, const char *key, const struct kc_figure *fig)
{
	if (fig->has_value) {
		jint(c, parent, key, fig->value);
		return;
	}
	jnull(c, parent, key);
	if (!c->first_why)
		c->first_why = fig->why;
}

/* {"expr": ..., "value": ...[, "value_error": ...]} */
static cJSON *jcount(struct jctx *c, cJSON *parent, const char *key, const struct kc_figure *fig)
{
	cJSON *o = jobj(c, parent, key);
	jstr(c, o, "expr", fig->expr);
	jvalue(c, o, "value", fig);
	if (!fig->has_value)
		jstr(c, o, "value_error", fig->why);
	return o;
}

static void json_diag(struct jctx *c, cJSON *arr, const struct kc_diag *d)
{
	cJSON *o = jobj(c, arr, NULL);
	jstr(c, o, "file", d->loc.file);
	jint(c, o, "line", d->loc.line);
	jint(c, o, "col", d->loc.col);
	jstr(c, o, "severity", kc_severity_name(d->severity));
	jstr(c, o, "message", d->message);
}

static void json_diags(struct jctx *c, cJSON *parent, const struct kc_diags *list)
{
	cJSON *arr = jarr(c, parent, "diagnostics");
	for (const struct kc_diag *d = list->head; d; d = d->next)
		json_diag(c, arr, d);
}

/* flops {expr, value, by_category, by_precision} */
static void json_flops(struct jctx *c, cJSON *parent, const struct kc_cost_figures *cf)
{
	cJSON *o = jcount(c, parent, "flops", &cf->flops);
	cJSON *cat = jobj(c, o, "by_category");
	for (int op = 0; op < KC_OP_N; op++)
		jvalue(c, cat, kc_op_name((enum kc_op)op), &cf->by_op[op]);
	cJSON *prec = jobj(c, o, "by_precision");
	for (int p = 0; p < KC_PREC_N; p++)
		if (!cf->by_prec[p].poly || !kc_poly_is_zero(cf->by_prec[p].poly))
			jvalue(c, prec, kc_prec_name((enum kc_prec)p), &cf->by_prec[p]);
}

static void json_transcendentals(struct jctx *c, cJSON *parent, const struct kc_function *f, const struct kc_cost *cost,
                                 const struct kc_cost_figures *cf)
{
	cJSON *o = jcount(c, parent, "transcendentals", &cf->transcendentals);
	cJSON *by = jobj(c, o, "by_function");
	c->copy_keys = 1; /* as symbol names in json_sizes */
	for (const struct kc_named_count *t = cost->transcendentals; t; t = t->next) {
		struct kc_figure fig;
		kc_figure_of(&c->memo, f, t->count, &fig);
		jvalue(c, by, t->name ? t->name : "?", &fig);
	}
	c->copy_keys = 0;
}

/* bytes {model: {expr, value, read, write} | null} for the models from `first` on. */
static void json_bytes(struct jctx *c, cJSON *parent, const struct kc_cost_figures *cf, int first)
{
	cJSON *o = jobj(c, parent, "bytes");
	for (int model = first; model < KC_MODEL_N; model++) {
		const char *name = kc_model_name((enum kc_model)model);
		if (!cf->bytes[model].poly) {
			jnull(c, o, name);
			continue;
		}
		cJSON *mo = jcount(c, o, name, &cf->bytes[model]);
		jvalue(c, mo, "read", &cf->read[model]);
		jvalue(c, mo, "write", &cf->write[model]);
	}
}

static void json_intensity(struct jctx *c, cJSON *parent, const struct kc_cost_figures *cf)
{
	cJSON *num = jobj(c, parent, "intensity");
	cJSON *expr = jobj(c, parent, "intensity_expr");
	for (int model = 0; model < KC_MODEL_N; model++) {
		const char *name = kc_model_name((enum kc_model)model);
		jreal(c, num, name, cf->has_intensity[model], cf->intensity[model]);
		jstr(c, expr, name, cf->intensity_expr[model]);
	}
}

static void json_buffer_names(struct jctx *c, cJSON *parent, const char *key, const struct kc_function *f,
                              const int *idx, int n)
{
	cJSON *arr = jarr(c, parent, key);
	for (int i = 0; i < n; i++)
		jstr(c, arr, NULL, idx[i] >= 0 && idx[i] < f->n_buffers ? f->buffers[idx[i]].name : NULL);
}

static void json_nest(struct jctx *c, cJSON *arr, const struct kc_function *f, const struct kc_nest *nest,
                      const struct kc_nest_figures *nf)
{
	cJSON *o = jobj(c, arr, NULL);
	cJSON *lines = jarr(c, o, "lines");
	jint(c, lines, NULL, nest->begin.line);
	jint(c, lines, NULL, nest->end.line);
	jstr(c, o, "callee", nest->callee);
	json_flops(c, o, &nf->cost);
	json_transcendentals(c, o, f, &nest->cost, &nf->cost);
	json_bytes(c, o, &nf->cost, KC_MODEL_STREAMING);
	if (nest->trips)
		jcount(c, o, "trips", &nf->trips);
	else
		jnull(c, o, "trips");
	if (nest->chain)
		jcount(c, o, "chain", &nf->chain);
	else
		jnull(c, o, "chain");
	if (nest->chain && nest->chain_runs) /* the chain is cut into this many runs (rows) */
		jcount(c, o, "chain_runs", &nf->chain_runs);
	else
		jnull(c, o, "chain_runs");
	if (nest->chain) {
		jbool(c, o, "chain_carried", nest->chain_carried);
		jbool(c, o, "chain_multiply_add", nest->chain_madd);
	} else {
		jnull(c, o, "chain_carried");
		jnull(c, o, "chain_multiply_add");
	}
	json_buffer_names(c, o, "reads", f, nest->reads, nest->n_reads);
	json_buffer_names(c, o, "writes", f, nest->writes, nest->n_writes);
}

static const char *buffer_storage(const struct kc_function *f, const struct kc_buffer *buf)
{
	if (buf->is_heap)
		return "heap";
	if (buf->is_local_array)
		return "local";
	if (kc_buffer_is_global(f, (int)(buf - f->buffers)))
		return "global";
	return buf->is_param ? "param" : "unknown";
}

static void json_buffer(struct jctx *c, cJSON *arr, const struct kc_function *f, const struct kc_buffer *buf)
{
	struct kc_figure extent, bytes;
	cJSON *o = jobj(c, arr, NULL);
	jstr(c, o, "name", buf->name);
	jstr(c, o, "role", kc_role_name(buf->role));
	jstr(c, o, "elem_type", buf->elem_type);
	jint(c, o, "elem_size", buf->elem_size);
	kc_figure_of(&c->memo, f, buf->extent, &extent);
	if (buf->extent)
		jcount(c, o, "extent", &extent);
	else
		jnull(c, o, "extent");
	const char *origin = kc_extent_origin_name(buf->extent_origin);
	if (origin)
		jstr(c, o, "extent_origin", origin);
	else
		jnull(c, o, "extent_origin");
	if (buf->extent_origin == KC_EXTENT_ACCESSES) {
		cJSON *lines = jarr(c, o, "extent_lines");
		jint(c, lines, NULL, buf->first_line);
		jint(c, lines, NULL, buf->last_line);
	}
	if (buf->lowest) {
		struct kc_figure lowest;
		kc_figure_of(&c->memo, f, buf->lowest, &lowest);
		jcount(c, o, "extent_lowest", &lowest);
	}
	kc_figure_buffer_bytes(&c->memo, f, buf, &bytes);
	if (bytes.has_value)
		jint(c, o, "bytes", bytes.value);
	else
		jnull(c, o, "bytes");
	jstr(c, o, "storage", buffer_storage(f, buf));
	jbool(c, o, "scratch", buf->is_scratch);
}

/* sizes {n: 4194304}; symbols without a value are listed in sizes_missing. */
static void json_sizes(struct jctx *c, cJSON *parent, const struct kc_function *f)
{
	cJSON *sizes = jobj(c, parent, "sizes");
	cJSON *missing = cJSON_CreateArray();
	c->copy_keys = 1; /* symbol names belong to the analysis, which may be released before the document */
	for (int s = 0; s < f->syms.n; s++) {
		const struct kc_sym *sym = &f->syms.syms[s];
		if (sym->floor_of || sym->is_loop)
			continue;
		if (sym->has_value)
			jint(c, sizes, sym->name, sym->value);
		else
			jstr(c, missing, NULL, sym->name);
	}
	c->copy_keys = 0;
	if (cJSON_GetArraySize(missing) > 0)
		jadd(c, parent, "sizes_missing", missing);
	else
		cJSON_Delete(missing);
	if (!f->sizes_caller)
		return;
	cJSON *from = jobj(c, parent, "sizes_from");
	jstr(c, from, "call",
	     kc_arena_printf(&c->a, "%s:%u:%u", f->sizes_call.file ? f->sizes_call.file : "", f->sizes_call.line,
	                     f->sizes_call.col));
	jstr(c, from, "function", f->sizes_caller);
	cJSON *names = cJSON_CreateArray();
	for (int s = 0; s < f->syms.n; s++)
		if (f->syms.syms[s].has_value && f->size_origin[s] == KC_SIZE_CALL)
			jstr(c, names, NULL, f->syms.syms[s].name);
	jadd(c, from, "sizes", names);
}

static void json_prediction_times(struct jctx *c, cJSON *o, const char *bound, enum kc_resource res,
                                  enum kc_level level, double seconds, double no_overlap)
{
	jreal(c, o, "seconds", 1, seconds);
	jreal(c, o, "seconds_no_overlap", 1, no_overlap);
	jstr(c, o, "bound", bound);
	jstr(c, o, "resource", kc_resource_name(res));
	jstr(c, o, "level", kc_level_name(level));
}

/* The time model (model/predict.h): the function's predicted time and bound, and each nest's. */
static void json_prediction(struct jctx *c, cJSON *o, const struct kc_function *f, const struct kc_measurements *m,
                            struct kc_prediction *pr)
{
	kc_figures_predict(&c->a, m, f, pr);
	jbool(c, o, "approximate", !f->exact); /* from counts that are not exact */
	if (!pr->ok) {
		jnull(c, o, "seconds");
		jnull(c, o, "bound");
		jstr(c, o, "why", pr->why);
	} else {
		json_prediction_times(c, o, pr->bound, pr->resource, pr->level, pr->seconds, pr->seconds_no_overlap);
		jreal(c, o, "seconds_allocation", 1, pr->seconds_allocation);
		jnull(c, o, "why");
	}
	cJSON *nests = jarr(c, o, "nests");
	for (int i = 0; i < pr->n_nests; i++) {
		const struct kc_nest_prediction *np = &pr->nests[i];
		cJSON *n = jobj(c, nests, NULL);
		cJSON *lines = jarr(c, n, "lines");
		jint(c, lines, NULL, f->nests[i].begin.line);
		jint(c, lines, NULL, f->nests[i].end.line);
		if (!np->ok) {
			jnull(c, n, "seconds");
			jstr(c, n, "why", np->why);
			continue;
		}
		json_prediction_times(c, n, np->bound, np->resource, np->level, np->seconds_max, np->seconds_sum);
		jadd(c, n, "vectorized", np->vectorized < 0 ? cJSON_CreateNull() : cJSON_CreateBool(np->vectorized));
		cJSON *by = jobj(c, n, "seconds_by_resource");
		for (int r = 0; r < KC_RES_N; r++)
			if (r != KC_RES_ALLOCATION) /* the function's, in seconds_allocation */
				jreal(c, by, kc_resource_name((enum kc_resource)r), 1, np->seconds[r]);
	}
}

static void json_predicted(struct jctx *c, cJSON *parent, const struct kc_function *f, const struct kc_measurements *m,
                           const struct kc_cost_figures *cf, struct kc_prediction *pr)
{
	const char *bound = NULL;
	enum kc_prec p = kc_figures_main_prec(cf);
	double roof = cf->has_intensity[KC_MODEL_MIN]
	                  ? kc_figures_roof(kc_figures_machine(m), p, cf->intensity[KC_MODEL_MIN], &bound)
	                  : 0;
	if (!kc_figures_machine(m)) {
		jnull(c, parent, "predicted");
		return;
	}
	cJSON *o = jobj(c, parent, "predicted");
	jstr(c, o, "roofline_bound", roof > 0 ? bound : NULL); /* null without FLOPs or intensity */
	jreal(c, o, "gflops", roof > 0, roof);
	jstr(c, o, "precision", kc_prec_name(p));
	json_prediction(c, o, f, m, pr);
}

static void json_measured_traffic(struct jctx *c, cJSON *parent, const struct kc_measurement *me)
{
	int have = me->traffic_bytes > 0;
	cJSON *t = jobj(c, parent, "traffic");
	jstr(c, t, "source", me->traffic_source ? me->traffic_source : "unavailable");
	jreal(c, t, "bytes", have, me->traffic_bytes);
	cJSON *lv = jobj(c, t, "by_level");
	jreal(c, lv, "L2", me->traffic_l2_bytes > 0, me->traffic_l2_bytes);
	jreal(c, lv, "DRAM", have, me->traffic_bytes);
	jreal(c, t, "instructions", me->instructions > 0, me->instructions);
	jstr(c, t, "why", me->traffic_why);
}

static void json_equivalent(struct jctx *c, cJSON *parent, const struct kc_measurement *me)
{
	if (!me->reference || me->equivalent < 0) {
		jnull(c, parent, "equivalent");
		return;
	}
	cJSON *e = jobj(c, parent, "equivalent");
	jstr(c, e, "reference", me->reference);
	jbool(c, e, "ok", me->equivalent == 1);
	jreal(c, e, "max_rel_err", 1, me->max_rel_err);
}

static void json_measured(struct jctx *c, cJSON *parent, const struct kc_function *f, const struct kc_measurements *m,
                          const struct kc_cost_figures *cf, const struct kc_prediction *pr)
{
	struct kc_measured_figures mf;
	kc_figures_measured(m, f, cf, &mf);
	const struct kc_measurement *me = mf.me;
	if (!me) {
		jnull(c, parent, "measured");
		return;
	}
	cJSON *o = jobj(c, parent, "measured");
	cJSON *sec = jobj(c, o, "seconds");
	jreal(c, sec, "min", mf.timed, me->seconds_min);
	jreal(c, sec, "median", mf.timed, me->seconds_median);
	jreal(c, sec, "p90", mf.timed, me->seconds_p90);
	if (mf.timed && me->n_sample_seconds > 0)
		jadd(c, sec, "samples", cJSON_CreateDoubleArray(me->sample_seconds, me->n_sample_seconds));
	if (mf.timed && me->n_slice_seconds > 0)
		jadd(c, sec, "slices", cJSON_CreateDoubleArray(me->slice_seconds, me->n_slice_seconds));
	jint(c, o, "samples", me->samples);
	jreal(c, o, "cv", mf.timed, me->cv);
	jreal(c, o, "gflops", mf.has_rate, mf.gflops);
	jbool(c, o, "gflops_approximate", mf.approx);
	jreal(c, o, "gbytes_per_s", mf.timed && mf.has_traffic, mf.byte_per_s / 1e9);
	jreal(c, o, "fraction_of_roof", mf.has_fraction, mf.fraction);
	jreal(c, o, "ratio", mf.timed && pr->ok && pr->seconds > 0, me->seconds_median / pr->seconds);
	jstr(c, o, "implausible", me->implausible);
	if (me->n_libm) {
		cJSON *ns = jobj(c, o, "libm_median_ns_per_call"), *sweeps = jobj(c, o, "libm_sweeps");
		for (int i = 0; i < me->n_libm; i++) {
			jreal(c, ns, me->libm[i].name, 1, me->libm[i].median * 1e9);
			jint(c, sweeps, me->libm[i].name, me->libm[i].sweeps);
		}
	}
	json_equivalent(c, o, me);
	json_measured_traffic(c, o, me);
	jreal(c, o, "intensity", mf.has_rate && mf.has_traffic, mf.intensity);
	jstr(c, o, "compiler", me->compiler);
	jstr(c, o, "error", me->error);
}

static void json_strings(struct jctx *c, cJSON *parent, const char *key, const char *const *s, int n)
{
	cJSON *arr = jarr(c, parent, key);
	for (int i = 0; i < n; i++)
		jstr(c, arr, NULL, s[i]);
}

/* The figures of function i (cost, bytes, intensity) and its nests. */
static void json_costs(struct jctx *c, cJSON *o, struct kc_report_figures *rf, int i)
{
	const struct kc_function *f = rf->an->functions[i];
	const struct kc_cost_figures *cf = &rf->functions[i];
	json_flops(c, o, cf);
	json_transcendentals(c, o, f, &f->cost, cf);
	jcount(c, o, "comparisons", &cf->cmp);
	json_bytes(c, o, cf, KC_MODEL_MIN);
	json_intensity(c, o, cf);
	cJSON *nests = jarr(c, o, "nests");
	for (int j = 0; j < f->n_nests; j++)
		json_nest(c, nests, f, &f->nests[j], kc_figures_nest(rf, i, j));
}

/* The bytes (read + write) of a traffic as a count object, with read and write values. */
static void json_traffic(struct jctx *c, cJSON *parent, const char *key, const struct kc_function *f,
                         const struct kc_traffic *t)
{
	struct kc_figure total, r, w;
	struct kc_poly *sum = NULL;
	if (!t->read || !t->write || kc_traffic_total(&c->a, t, &sum) < 0) {
		jnull(c, parent, key); /* not available (no passes): not a value error */
		return;
	}
	kc_figure_of(&c->memo, f, sum, &total);
	kc_figure_of(&c->memo, f, t->read, &r);
	kc_figure_of(&c->memo, f, t->write, &w);
	cJSON *o = jcount(c, parent, key, &total);
	jvalue(c, o, "read", &r);
	jvalue(c, o, "write", &w);
}

static void json_index_names(struct jctx *c, cJSON *parent, const char *key, const struct kc_function *f,
                             const int *idx, int n)
{
	cJSON *arr = jarr(c, parent, key);
	for (int i = 0; i < n; i++)
		jstr(c, arr, NULL, f->buffers[idx[i]].name);
}

static void json_pass(struct jctx *c, cJSON *arr, const struct kc_function *f, const struct kc_pass *p)
{
	cJSON *o = jobj(c, arr, NULL), *lines = jarr(c, o, "lines");
	struct kc_figure flops;
	jint(c, lines, NULL, p->begin.line);
	jint(c, lines, NULL, p->end.line);
	jstr(c, o, "callee", p->callee);
	kc_figure_of(&c->memo, f, p->flops, &flops);
	jcount(c, o, "flops", &flops);
	json_traffic(c, o, "bytes_streaming", f, &p->streaming);
	json_index_names(c, o, "reads", f, p->reads, p->n_reads);
	json_index_names(c, o, "writes", f, p->writes, p->n_writes);
	json_strings(c, o, "leaves", p->scalars_out, p->n_scalars_out);
}

/* FLOPs of passes first..last over the bytes of t: the group's intensity before or after fusion. */
static void json_group_intensity(struct jctx *c, cJSON *o, const char *key, const struct kc_function *f, int first,
                                 int last, const struct kc_traffic *t)
{
	long long flops = 0, v;
	struct kc_poly *bytes;
	const char *why;
	int ok = t->read && t->write && kc_traffic_total(&c->a, t, &bytes) == 0 &&
	         kc_function_eval(f, bytes, &v, &why) == 0 && v > 0;
	for (int p = first; ok && p <= last; p++) {
		long long pf;
		ok = f->dataflow.passes[p].flops && kc_function_eval(f, f->dataflow.passes[p].flops, &pf, &why) == 0;
		flops += ok ? pf : 0;
	}
	jreal(c, o, key, ok, ok ? (double)flops / (double)v : 0);
}

static void json_group(struct jctx *c, cJSON *arr, const struct kc_function *f, const struct kc_fusion_group *g)
{
	cJSON *o = jobj(c, arr, NULL), *passes = jarr(c, o, "passes");
	for (int p = g->first; p <= g->last; p++)
		jint(c, passes, NULL, p);
	json_index_names(c, o, "removes", f, g->removes, g->n_removes);
	json_traffic(c, o, "bytes_before", f, &g->before);
	json_traffic(c, o, "bytes_after", f, &g->after);
	json_group_intensity(c, o, "intensity_before", f, g->first, g->last, &g->before);
	json_group_intensity(c, o, "intensity_after", f, g->first, g->last, &g->after);
}

static void json_edge(struct jctx *c, cJSON *arr, const struct kc_fusion_edge *e)
{
	cJSON *o = jobj(c, arr, NULL);
	jint(c, o, "from", e->from);
	jint(c, o, "to", e->to);
	jstr(c, o, "kind", kc_fusion_kind_name(e->kind));
	jbool(c, o, "legal", e->legal);
	jstr(c, o, "reason", e->reason);
}

/* functions[].dataflow: passes, intermediates, fusion groups and the pairs that cannot be fused. */
static void json_dataflow(struct jctx *c, cJSON *parent, const struct kc_report_figures *rf, int i)
{
	const struct kc_function *f = rf->an->functions[i];
	const struct kc_report_graph *rg = rf->graphs ? &rf->graphs[i] : NULL;
	const char *base = rg ? rg->base : kc_graphs_base(&c->a, rf->an, i);
	const struct kc_dataflow *df = &f->dataflow;
	cJSON *o = jobj(c, parent, "dataflow"), *arr;
	arr = jarr(c, o, "passes");
	for (int p = 0; p < df->n_passes; p++)
		json_pass(c, arr, f, &df->passes[p]);
	if (df->in_loop) {
		cJSON *in = jobj(c, o, "in_loop"), *lines = jarr(c, in, "lines");
		jint(c, lines, NULL, df->loop_begin.line);
		jint(c, lines, NULL, df->loop_end.line);
	} else {
		jnull(c, o, "in_loop");
	}
	arr = jarr(c, o, "buffers");
	for (int b = 0; b < f->n_buffers; b++) {
		cJSON *bo = jobj(c, arr, NULL);
		struct kc_figure bytes;
		kc_figure_buffer_bytes(&c->memo, f, &f->buffers[b], &bytes);
		jstr(c, bo, "name", f->buffers[b].name);
		jstr(c, bo, "role", kc_role_name(f->buffers[b].role));
		jvalue(c, bo, "bytes", &bytes);
	}
	json_index_names(c, o, "intermediates", f, df->intermediates, df->n_intermediates);
	arr = jarr(c, o, "fusion_groups");
	for (int g = 0; g < df->n_groups; g++)
		json_group(c, arr, f, &df->groups[g]);
	arr = jarr(c, o, "edges");
	for (int e = 0; e + 1 < df->n_passes; e++)
		json_edge(c, arr, &df->edges[e]);
	arr = jarr(c, o, "not_fusable");
	for (int e = 0; e + 1 < df->n_passes; e++)
		if (!df->edges[e].legal)
			json_edge(c, arr, &df->edges[e]);
	json_traffic(c, o, "bytes_before", f, &df->before);
	json_traffic(c, o, "bytes_after", f, &df->after);
	if ((!rg && df->n_passes >= 2) || (rg && rg->svg)) { /* not rendered here (stdout): kc_report_write's paths */
		jadd(c, o, "svg", cJSON_CreateString(kc_arena_printf(&c->a, "%s.svg", base)));
		jadd(c, o, "dot", cJSON_CreateString(kc_arena_printf(&c->a, "%s.dot", base)));
	} else {
		jnull(c, o, "svg");
		jnull(c, o, "dot");
		if (rg && rg->error)
			jstr(c, o, "graph_error", rg->error);
	}
}

/* --baseline: the comparison with the baseline revision (absent otherwise). */
static void json_baseline(struct jctx *c, cJSON *parent, const struct kc_measurement *me)
{
	const struct kc_baseline_result *b = me ? me->baseline : NULL;
	if (!b)
		return;
	cJSON *o = jobj(c, parent, "baseline");
	jstr(c, o, "revision", b->revision);
	jstr(c, o, "change", b->change);
	jstr(c, o, "verdict", b->verdict);
	jreal(c, o, "ratio", 1, b->ratio);
	jreal(c, o, "ci_low", b->tested, b->ci_low);
	jreal(c, o, "ci_high", b->tested, b->ci_high);
	jreal(c, o, "p_value", b->tested, b->p_value);
	cJSON *n = jobj(c, o, "samples");
	jint(c, n, "base", b->n_base);
	jint(c, n, "head", b->n_head);
	jreal(c, o, "base_seconds", 1, b->base_seconds);
	jreal(c, o, "instructions_change", 1, b->instructions_change);
	jbool(c, o, "regressed", b->regressed);
}

static void json_function(struct jctx *c, cJSON *arr, struct kc_report_figures *rf, int i,
                          const struct kc_measurements *m)
{
	const struct kc_function *f = rf->an->functions[i];
	const struct kc_cost_figures *cf = &rf->functions[i];
	cJSON *o = jobj(c, arr, NULL);
	c->first_why = NULL;
	jstr(c, o, "name", f->name);
	jstr(c, o, "file", f->loc.file);
	jint(c, o, "line", f->loc.line);
	jint(c, o, "end_line", f->end.line);
	json_sizes(c, o, f);
	jbool(c, o, "exact", f->exact);
	jbool(c, o, "exact_ops", f->exact_ops);
	jbool(c, o, "exact_flops", f->exact_flops);
	json_diags(c, o, &f->diags);
	jnull(c, o, "value_error"); /* replaced below once the figures have been written */
	json_costs(c, o, rf, i);
	cJSON *buffers = jarr(c, o, "buffers");
	for (int b = 0; b < f->n_buffers; b++)
		json_buffer(c, buffers, f, &f->buffers[b]);
	jstr(c, o, "reference", f->reference);
	json_strings(c, o, "assumptions", f->assumptions, f->n_assumptions);
	struct kc_prediction pr = {0};
	json_predicted(c, o, f, m, cf, &pr);
	json_dataflow(c, o, rf, i);
	json_measured(c, o, f, m, cf, &pr);
	json_baseline(c, o, kc_figures_measurement(m, f));
	if (c->first_why) {
		cJSON *why = cJSON_CreateString(c->first_why);
		if (!why || !cJSON_ReplaceItemInObject(o, "value_error", why)) {
			cJSON_Delete(why);
			c->failed = 1;
		}
	}
}

/* A ceiling as {unit: value, [threads,] method} under key, or nothing when it has no value; the object or NULL. */
static cJSON *json_ceiling(struct jctx *c, cJSON *parent, const char *key, const char *unit,
                           const struct kc_ceiling *ce, int with_threads)
{
	if (ce->value <= 0)
		return NULL;
	cJSON *o = jobj(c, parent, key);
	jreal(c, o, unit, 1, ce->value);
	if (with_threads)
		jint(c, o, "threads", ce->threads);
	jstr(c, o, "method", ce->method);
	return o;
}

static void json_machine(struct jctx *c, cJSON *root, const struct kc_machine *mc)
{
	if (!mc) {
		jnull(c, root, "machine");
		return;
	}
	cJSON *o = jobj(c, root, "machine");
	jstr(c, o, "cpu", mc->cpu);
	jint(c, o, "cores", mc->cores);
	cJSON *caches = jarr(c, o, "caches");
	for (int i = 0; i < 3; i++)
		if (mc->cache_bytes[i] > 0) {
			cJSON *cache = jobj(c, caches, NULL);
			jint(c, cache, "level", i + 1);
			jint(c, cache, "bytes", mc->cache_bytes[i]);
		}
	cJSON *ceil = jobj(c, o, "ceilings");
	cJSON *fl = jobj(c, ceil, "flops");
	json_ceiling(c, fl, "float", "gflops", &mc->flops_f32, 1);
	json_ceiling(c, fl, "double", "gflops", &mc->flops_f64, 1);
	json_ceiling(c, fl, "dense_float", "gflops", &mc->dense_f32, 1);
	json_ceiling(c, fl, "dense_double", "gflops", &mc->dense_f64, 1);
	json_ceiling(c, fl, "dense_float_as_run", "gflops", &mc->dense_run[0], 1);
	json_ceiling(c, fl, "dense_double_as_run", "gflops", &mc->dense_run[1], 1);
	cJSON *peak = jobj(c, ceil, "peak");
	for (int d = 0; d < 2; d++) {
		cJSON *pd = jobj(c, peak, d ? "double" : "float");
		for (int isa = 0; isa < KC_ISA_N; isa++) {
			cJSON *pi = jobj(c, pd, kc_isa_name((enum kc_isa)isa));
			jreal(c, pi, "fma", mc->peak[d][isa][1].value > 0, mc->peak[d][isa][1].value);
			jreal(c, pi, "add_mul", mc->peak[d][isa][0].value > 0, mc->peak[d][isa][0].value);
		}
	}
	cJSON *lat = jobj(c, ceil, "latency_ns");
	for (int d = 0; d < 2; d++) {
		cJSON *ld = jobj(c, lat, d ? "double" : "float");
		jreal(c, ld, "add", mc->latency_add[d] > 0, mc->latency_add[d] * 1e9);
		jreal(c, ld, "fma", mc->latency_fma[d] > 0, mc->latency_fma[d] * 1e9);
		jreal(c, ld, "max", mc->latency_max[d] > 0, mc->latency_max[d] * 1e9);
		jreal(c, ld, "add_rows_of_64", mc->latency_add_rows[d] > 0, mc->latency_add_rows[d] * 1e9);
		/* the median runs beside the kernels' timings, which the predictions then use */
		if (mc->latency_beside_runs > 0) {
			jreal(c, ld, "add_median", mc->latency_add_median[d] > 0, mc->latency_add_median[d] * 1e9);
			jreal(c, ld, "max_median", mc->latency_max_median[d] > 0, mc->latency_max_median[d] * 1e9);
			jint(c, ld, "median_runs_beside_kernels", mc->latency_beside_runs);
		}
	}
	if (mc->latency_half_how) { /* a _Float16 accumulator's update, and how the CPU does it */
		cJSON *lh = jobj(c, lat, "half");
		jreal(c, lh, "add", mc->latency_half_add > 0, mc->latency_half_add * 1e9);
		jreal(c, lh, "multiply_add", mc->latency_half_madd > 0, mc->latency_half_madd * 1e9);
		jstr(c, lh, "how", mc->latency_half_how);
	}
	cJSON *libm = jobj(c, ceil, "libm_ns_per_call");
	for (int i = 0; i < mc->n_libm; i++)
		jreal(c, libm, mc->libm[i].name, mc->libm[i].seconds > 0, mc->libm[i].seconds * 1e9);
	/* the median runs, which the predictions use (the best ones above are the roofs) */
	cJSON *libm_median = NULL;
	for (int i = 0; i < mc->n_libm; i++)
		if (mc->libm[i].median > 0) {
			if (!libm_median)
				libm_median = jobj(c, ceil, "libm_median_ns_per_call");
			jreal(c, libm_median, mc->libm[i].name, 1, mc->libm[i].median * 1e9);
		}
	jstr(c, ceil, "openblas_note", mc->blas_note);
	json_ceiling(c, ceil, "fresh_pages", "seconds_per_page", &mc->fresh_page, 0);
	if (mc->column_method) { /* a store of a column walk that conflicts in the caches, by where its line comes from
		                  */
		cJSON *col = jobj(c, ceil, "column_stores");
		cJSON *ns = jobj(c, col, "ns_per_store"), *med = jobj(c, col, "median_ns_per_store");
		for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++) {
			jreal(c, ns, kc_level_name((enum kc_level)l), mc->column_store[l] > 0,
			      mc->column_store[l] * 1e9);
			jreal(c, med, kc_level_name((enum kc_level)l), mc->column_store_median[l] > 0,
			      mc->column_store_median[l] * 1e9);
		}
		jstr(c, col, "method", mc->column_method);
	}
	cJSON *bw = jobj(c, ceil, "bandwidth");
	for (int l = 0; l < KC_LEVEL_N; l++) {
		cJSON *lo = json_ceiling(c, bw, kc_level_name((enum kc_level)l), "gbytes_per_s", &mc->bandwidth[l], 0);
		if (lo && mc->stream[l][KC_STREAM_LOAD] > 0) {
			cJSON *k = jobj(c, lo, "kernels_gbytes_per_s");
			for (int s = 0; s < KC_STREAM_N; s++)
				jreal(c, k, kc_stream_name((enum kc_stream)s), mc->stream[l][s] > 0, mc->stream[l][s]);
		}
		/* the median batches, which the predictions use (the best ones are the roofs) */
		if (lo && mc->bandwidth_median[l] > 0)
			jreal(c, lo, "median_gbytes_per_s", 1, mc->bandwidth_median[l]);
		if (lo && mc->beside_batches[l] > 0)
			jint(c, lo, "median_batches_beside_kernels", mc->beside_batches[l]);
		if (lo && mc->stream_median[l][KC_STREAM_LOAD] > 0) {
			cJSON *k = jobj(c, lo, "kernels_median_gbytes_per_s");
			for (int s = 0; s < KC_STREAM_N; s++)
				jreal(c, k, kc_stream_name((enum kc_stream)s), mc->stream_median[l][s] > 0,
				      mc->stream_median[l][s]);
		}
	}
	jstr(c, ceil, "measured_at", mc->measured_at);
	double dram = mc->bandwidth[KC_LEVEL_DRAM].value;
	cJSON *ridge = jobj(c, ceil, "ridge_flop_per_byte"); /* where the DRAM roof meets each compute roof */
	jreal(c, ridge, "float", dram > 0 && mc->flops_f32.value > 0, mc->flops_f32.value / dram);
	jreal(c, ridge, "double", dram > 0 && mc->flops_f64.value > 0, mc->flops_f64.value / dram);
	jbool(c, o, "cached", mc->cached);
	jbool(c, o, "hypothetical", mc->hypothetical);
	jstr(c, o, "from_file", mc->from_file);
}

static void json_header(struct jctx *c, cJSON *root, const struct kc_analysis *an, const struct kc_output_meta *meta)
{
	jint(c, root, "schema", 1);
	jstr(c, root, "kcost_version", meta->version);
	json_strings(c, root, "command", meta->command, meta->n_command);
	jstr(c, root, "created", meta->created);
	json_strings(c, root, "files", an->files, an->n_files);
	jbool(c, root, "parse_failed", an->parse_failed);
	jbool(c, root, "no_run", meta->no_run);
	json_diags(c, root, &an->diags);
}

/* How the kernels were isolated: null when nothing was run. */
static void json_sandbox(struct jctx *c, cJSON *root, const struct kc_measurements *m)
{
	if (!kc_figures_machine(m)) {
		jnull(c, root, "sandbox");
		return;
	}
	cJSON *o = jobj(c, root, "sandbox");
	jbool(c, o, "requested", m->sandbox != 0);
	jbool(c, o, "used", m->sandbox > 0);
	jstr(c, o, "isolation", m->sandbox > 0 ? m->sandbox_note : NULL);
	jstr(c, o, "why_not", m->sandbox < 0 ? m->sandbox_note : NULL);
}

/* The document without its functions: header, machine and an empty "functions" array (*functions). */
static cJSON *json_root(struct jctx *c, const struct kc_analysis *an, const struct kc_measurements *m,
                        const struct kc_output_meta *meta, cJSON **functions)
{
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return NULL;
	json_header(c, root, an, meta);
	json_machine(c, root, kc_figures_machine(m));
	json_sandbox(c, root, m);
	*functions = jarr(c, root, "functions");
	return root;
}

struct cJSON *kc_json_document(struct kc_report_figures *rf, const struct kc_measurements *m,
                               const struct kc_output_meta *meta)
{
	const struct kc_analysis *an = rf->an;
	struct jctx c = {.a = KC_ARENA_INIT};
	kc_figure_memo_init(&c.memo, &c.a);
	cJSON *functions = NULL, *root = json_root(&c, an, m, meta, &functions);
	if (!root) {
		kc_figure_memo_release(&c.memo);
		return NULL;
	}
	for (int i = 0; i < an->n_functions; i++)
		if (!an->functions[i]->skip)
			json_function(&c, functions, rf, i, m);
	kc_figure_memo_release(&c.memo);
	kc_arena_release(&c.a);
	if (c.failed) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/* ---- report.json as text, one function at a time ------------------------------------------------------ */

/* While the text is built, cJSON allocates from a scratch arena of the building thread, emptied after each
 * function: a report of a thousand kernels has a few hundred thousand values, and malloc and free of every
 * node and string cost more than building and printing them (cJSON clears its nodes and copies its strings
 * whole: the storage need not be zeroed). cJSON's hooks are process-wide:
 * kc_json_hooks(1) sets them for the duration of the writing (nothing else may use cJSON meanwhile) and
 * nothing built under them outlives it. */
static _Thread_local struct kc_arena *json_heap;
static void *json_alloc(size_t size)
{
	return kc_arena_alloc_uninit(json_heap, size);
}
static void json_free(void *p)
{
	(void)p;
}

void kc_json_hooks(int on)
{
	cJSON_InitHooks(on ? &(cJSON_Hooks){json_alloc, json_free} : NULL);
}

struct kc_json_text {
	struct jctx c;
	struct kc_arena heap;
	struct kc_buf text; /* cJSON prints into it */
};

struct kc_json_text *kc_json_text_open(void)
{
	struct kc_json_text *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->c.raw_ints = 1;
	kc_figure_memo_init(&t->c.memo, &t->c.a);
	json_heap = &t->heap;
	return t;
}

void kc_json_text_close(struct kc_json_text *t)
{
	if (!t)
		return;
	json_heap = NULL;
	kc_figure_memo_release(&t->c.memo);
	kc_arena_release(&t->heap);
	kc_arena_release(&t->c.a);
	kc_buf_release(&t->text);
	free(t);
}

/* ---- printing ------------------------------------------------------------------------------------------

 * cJSON_Print's formatted text, byte for byte (cJSON 1.7's print_value, print_object, print_array and
 * print_string_ptr: tabs of the nesting depth, "key":<tab>value, ", " between array elements, \uXXXX for the
 * control characters without a short escape), written straight into a kc_buf. cJSON's printer costs about 20
 * instructions a byte on kcost's reports (an ensure() per token, a strlen per value), a third of writing the
 * report of a large file; this costs a few. Numbers are printed by cJSON itself (its %1.15g/%1.17g round trip),
 * one value at a time. tests/unit/test_report.c compares the two on generated trees. */

static inline char *room(struct kc_buf *b, size_t n)
{
	if (b->len + n + 1 > b->cap)
		kc_buf_reserve(b, b->len + n + 1);
	return b->data + b->len;
}

/* n bytes of s at the end of b, not NUL-terminated (kc_json_print terminates the whole) */
static inline void put(struct kc_buf *b, const char *s, size_t n)
{
	memcpy(room(b, n), s, n);
	b->len += n;
}

static void print_tabs(struct kc_buf *b, int n)
{
	memset(room(b, (size_t)n), '\t', (size_t)n);
	b->len += (size_t)n;
}

/* What follows the backslash of a character's escape: its letter, 'u' for \u00XX, 0 for none. */
static const unsigned char escape_of[256] = {
    ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't', ['"'] = '"', ['\\'] = '\\',
    [0] = 'u',    [1] = 'u',    [2] = 'u',    [3] = 'u',    [4] = 'u',    [5] = 'u',   [6] = 'u',
    [7] = 'u',    [11] = 'u',   [14] = 'u',   [15] = 'u',   [16] = 'u',   [17] = 'u',  [18] = 'u',
    [19] = 'u',   [20] = 'u',   [21] = 'u',   [22] = 'u',   [23] = 'u',   [24] = 'u',  [25] = 'u',
    [26] = 'u',   [27] = 'u',   [28] = 'u',   [29] = 'u',   [30] = 'u',   [31] = 'u',
};

/* Whether one of the 8 bytes of x is below 32, '"' or '\\' (bit tricks on a word: most strings need no escape). */
static inline int needs_escape(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t quote = x ^ (ones * '"'), slash = x ^ (ones * '\\');
	return ((((x - ones * 32) & ~x) | ((quote - ones) & ~quote) | ((slash - ones) & ~slash)) & highs) != 0;
}

static void print_string(struct kc_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = s ? strlen(s) : 0, plain = 0;
	for (uint64_t w; plain + 8 <= n; plain += 8) {
		memcpy(&w, s + plain, 8);
		if (needs_escape(w))
			break;
	}
	while (plain < n && !escape_of[(unsigned char)s[plain]])
		plain++;
	if (plain == n) { /* nothing to escape */
		char *o = room(b, n + 2);
		o[0] = '"';
		if (n)
			memcpy(o + 1, s, n);
		o[n + 1] = '"';
		b->len += n + 2;
		return;
	}
	char *o = room(b, 6 * n + 2), *start = o;
	*o++ = '"';
	for (const unsigned char *p = (const unsigned char *)s, *end = p + n; p < end; p++) {
		unsigned char e = escape_of[*p];
		if (!e) {
			*o++ = (char)*p;
			continue;
		}
		*o++ = '\\';
		*o++ = (char)e;
		if (e == 'u') {
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o++ = '"';
	b->len += (size_t)(o - start);
}

/* item's value at nesting depth `depth` (of the objects and arrays around it); 0, or -1 where cJSON_Print
 * fails (a raw item without text, an invalid item, a number cJSON cannot print). */
static int print_value(struct kc_buf *b, const cJSON *item, int depth)
{
	switch (item->type & 0xFF) {
	case cJSON_NULL:
		put(b, "null", 4);
		return 0;
	case cJSON_False:
		put(b, "false", 5);
		return 0;
	case cJSON_True:
		put(b, "true", 4);
		return 0;
	case cJSON_Raw:
		if (!item->valuestring)
			return -1;
		put(b, item->valuestring, strlen(item->valuestring));
		return 0;
	case cJSON_String:
		print_string(b, item->valuestring);
		return 0;
	case cJSON_Number: {
		char number[64]; /* cJSON writes at most 26 bytes */
		if (!cJSON_PrintPreallocated((cJSON *)item, number, (int)sizeof number, 0))
			return -1;
		put(b, number, strlen(number));
		return 0;
	}
	case cJSON_Array:
		put(b, "[", 1);
		for (const cJSON *e = item->child; e; e = e->next) {
			if (print_value(b, e, depth + 1) < 0)
				return -1;
			if (e->next)
				put(b, ", ", 2);
		}
		put(b, "]", 1);
		return 0;
	case cJSON_Object:
		put(b, "{\n", 2);
		for (const cJSON *e = item->child; e; e = e->next) {
			print_tabs(b, depth + 1);
			print_string(b, e->string);
			put(b, ":\t", 2);
			if (print_value(b, e, depth + 1) < 0)
				return -1;
			if (e->next)
				put(b, ",\n", 2);
			else
				put(b, "\n", 1);
		}
		print_tabs(b, depth);
		put(b, "}", 1);
		return 0;
	default:
		return -1;
	}
}

int kc_json_print(struct kc_buf *b, const struct cJSON *item)
{
	size_t len = b->len;
	int rc = item ? print_value(b, item, 0) : -1;
	if (rc < 0)
		b->len = len; /* nothing of a failed print */
	room(b, 0)[0] = '\0';
	return rc;
}

/* Print item formatted into *text (reset first); NULL on failure. */
static const char *print_into(cJSON *item, struct kc_buf *text)
{
	kc_buf_reset(text);
	return kc_json_print(text, item) == 0 ? kc_buf_str(text) : NULL;
}

/* The document's text up to the "functions" array's '['. */
static int json_text_head(struct kc_json_text *t, struct kc_buf *out, struct kc_report_figures *rf,
                          const struct kc_measurements *m, const struct kc_output_meta *meta)
{
	static const char empty_tail[] = "[]\n}"; /* how the printed root ends: "functions" comes last */
	struct kc_arena_mark mark = kc_arena_mark(&t->heap);
	cJSON *functions = NULL, *root = json_root(&t->c, rf->an, m, meta, &functions);
	const char *head = root && !t->c.failed ? print_into(root, &t->text) : NULL;
	size_t len = head ? strlen(head) : 0, tail = sizeof empty_tail - 1;
	int ok = head && len >= tail && memcmp(head + len - tail, empty_tail, tail) == 0;
	if (ok)
		kc_buf_add(out, head, len - tail + 1); /* up to the array's '[' */
	kc_arena_reset(&t->heap, mark);
	return ok ? 0 : -1;
}

int kc_json_text_function(struct kc_json_text *t, struct kc_buf *out, struct kc_report_figures *rf, int i,
                          const struct kc_measurements *m)
{
	/* printed inside {"f": [...]}, the object is indented as it is inside the document's "functions" array:
	 * its text is what lies between the wrapper's fixed head and tail */
	static const char head[] = "{\n\t\"f\":\t[", tail[] = "]\n}";
	struct kc_arena_mark heap_mark = kc_arena_mark(&t->heap), figures_mark = kc_arena_mark(&t->c.a);
	cJSON *wrapper = cJSON_CreateObject(), *holder = wrapper ? jarr(&t->c, wrapper, "f") : NULL;
	const char *printed = NULL;
	size_t len = 0;
	t->c.failed = 0;
	if (holder) {
		json_function(&t->c, holder, rf, i, m);
		printed = t->c.failed ? NULL : print_into(wrapper, &t->text);
		len = printed ? strlen(printed) : 0;
		if (len < sizeof head + sizeof tail - 2 || memcmp(printed, head, sizeof head - 1) != 0 ||
		    memcmp(printed + len - (sizeof tail - 1), tail, sizeof tail - 1) != 0)
			printed = NULL;
	}
	if (printed)
		kc_buf_add(out, printed + sizeof head - 1, len - (sizeof head - 1) - (sizeof tail - 1));
	kc_arena_reset(&t->heap, heap_mark);
	kc_figure_memo_clear(&t->c.memo);
	kc_arena_reset(&t->c.a, figures_mark);
	return printed ? 0 : -1;
}

struct json_writer {
	struct kc_output_sink *s;
	struct kc_json_text *t;
	struct kc_report_figures *rf;
	const struct kc_measurements *m;
	int n; /* objects written */
};

/* Function i's object after its separator: the other thread's text, or built here. */
static int emit_object(void *ctx, int i, const struct kc_output_text *text)
{
	struct json_writer *w = ctx;
	int rc = 0;
	if (w->n++)
		kc_buf_add(w->s->b, ", ", 2);
	if (text)
		kc_buf_add(w->s->b, text->s, text->len);
	else
		rc = kc_json_text_function(w->t, w->s->b, w->rf, i, w->m);
	kc_output_drain(w->s, 0);
	return rc;
}

int kc_json_write(struct kc_output_sink *s, struct kc_report_figures *rf, const struct kc_measurements *m,
                  const struct kc_output_meta *meta, const struct kc_output_pieces *p)
{
	kc_json_hooks(1);
	struct json_writer w = {s, kc_json_text_open(), rf, m, 0};
	int rc = w.t ? json_text_head(w.t, s->b, rf, m, meta) : -1;
	if (rc == 0)
		rc = kc_output_each_piece(p, rf->an, emit_object, &w);
	else if (p)
		p->wait(p->ctx);
	kc_buf_puts(s->b, "]\n}");
	kc_json_text_close(w.t);
	kc_json_hooks(0);
	return rc;
}

/* diff.c — compare two report.json files for a pull-request review. All JSON through cJSON. */
#include "diff.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "escape.h"
#include "hash.h"
#include "sarif.h"
#include "visible.h"

enum change { SAME, ADDED, REMOVED, CHANGED };
enum verdict { V_NONE, V_UNMEASURED, V_NOISE, V_FASTER, V_SLOWER, V_INVALID, V_INCONCLUSIVE };

/* What one function's comparison found. Strings point into the parsed documents, but for `invalid`. */
struct fn_diff {
	const char *file, *name;
	unsigned line; /* its first line in head (0: not known), where a SARIF result points */
	enum change change;
	const char *flops[2], *bytes_min[2], *bytes_streaming[2];
	double flops_v[2], streaming_v[2], ai_min[2], ai_streaming[2];
	double median[2], cv[2];
	double *samples[2]; /* malloc'd: measured.seconds.samples, when valid */
	int n_samples[2];
	double *slices[2]; /* malloc'd: measured.seconds.slices, when valid */
	int n_slices[2];
	int by_slices;          /* the test compared the slices' medians */
	double instructions[2]; /* measured.traffic.instructions, NAN when absent */
	double dram[2];         /* measured.traffic.bytes when simulated (cachegrind: deterministic), else NAN */
	const char *source[2];  /* measured.traffic.source: counts compare only when both have the same */
	const char *bound[2];   /* predicted.bound */
	int tested;             /* the verdict is kc_compare's, over the samples */
	struct kc_comparison cmp;
	enum verdict verdict;
	double ratio; /* head / base median time */
	int regressed;
	const char *why; /* regression reason, static text */
	char *invalid;   /* malloc'd: the first impossible value found ("in head, measured.cv is -1: ..."), or NULL */
};

/* A problem with an input, for stderr: text in full ("HEAD.json: function 'f' (k.c): ..."), unescaped. */
struct problem {
	int error; /* 1: an error (kc_diff_errors counts it), 0: a warning */
	char *text;
};

struct kc_diff {
	struct kc_diff_opts o;
	struct fn_diff *fns;
	int n;
	int regressed;
	struct problem *problems;
	int n_problems, cap_problems, errors;
};

/* ------------------------------------------------------------------------------------------------ */
/* Reading (tolerant: a missing or null key is "absent"; a value of the wrong type or out of range is a
 * problem named with the report and the function, never a crash and never a figure) */

static const char *type_name(const cJSON *v)
{
	return cJSON_IsNumber(v)   ? "a number"
	       : cJSON_IsString(v) ? "a string"
	       : cJSON_IsArray(v)  ? "an array"
	       : cJSON_IsObject(v) ? "an object"
	       : cJSON_IsBool(v)   ? "a boolean"
	                           : "null";
}

/* The member of object o whose key is the n bytes at key. (cJSON_GetObjectItemCaseSensitive wants a
 * NUL-terminated key: copying each component of each path cost more than the look-up.) */
static const cJSON *member(const cJSON *o, const char *key, size_t n)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, o)
	{
		if (c->string && !strncmp(c->string, key, n) && !c->string[n])
			return c;
	}
	return NULL;
}

/* The value at a dotted path ("measured.seconds.median"), or NULL when the path ends early: at a missing key
 * or a null (*blocker NULL: the value is absent), or at a value that is not an object (*blocker is it). */
static const cJSON *follow(const cJSON *o, const char *path, const cJSON **blocker)
{
	*blocker = NULL;
	while (o && !cJSON_IsNull(o) && *path) {
		size_t n = strcspn(path, ".");
		if (!cJSON_IsObject(o)) {
			*blocker = o;
			return NULL;
		}
		o = member(o, path, n);
		path += n + (path[n] == '.');
	}
	return o && !cJSON_IsNull(o) ? o : NULL;
}

static const cJSON *get(const cJSON *o, const char *path)
{
	const cJSON *blocker;
	return follow(o, path, &blocker);
}

static const char *get_str(const cJSON *o, const char *path)
{
	const cJSON *v = get(o, path);
	return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

static double get_num(const cJSON *o, const char *path)
{
	const cJSON *v = get(o, path);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

int kc_diff_check_report(const cJSON *doc, const char *which, char *err, size_t size)
{
	if (!cJSON_IsObject(doc)) {
		snprintf(err, size, "%s is not a kcost report: not a JSON object", which);
		return -1;
	}
	double schema = get_num(doc, "schema");
	if (isnan(schema)) {
		snprintf(err, size, "%s is not a kcost report: no \"schema\" number", which);
		return -1;
	}
	if (schema != 1) {
		snprintf(err, size, "%s has schema %g; this kcost reads schema 1", which, schema);
		return -1;
	}
	if (!cJSON_IsArray(get(doc, "functions"))) {
		snprintf(err, size, "%s is not a kcost report: no \"functions\" array", which);
		return -1;
	}
	return 0;
}

/* Record a problem; when the list cannot grow, it is dropped (the comparison itself does not depend on it). Its
 * text is a kc_buf's, which ends kcost on out of memory as every emitted text does. */
static void problem(struct kc_diff *d, int error, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void problem(struct kc_diff *d, int error, const char *fmt, ...)
{
	d->errors += error;
	if (d->n_problems == d->cap_problems) {
		int cap = d->cap_problems ? 2 * d->cap_problems : 16;
		struct problem *grown = realloc(d->problems, sizeof *grown * (size_t)cap);
		if (!grown)
			return;
		d->problems = grown;
		d->cap_problems = cap;
	}
	struct kc_buf text = KC_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	kc_buf_vprintf(&text, fmt, ap);
	va_end(ap);
	d->problems[d->n_problems++] = (struct problem){error, kc_buf_detach(&text)};
}

/* ------------------------------------------------------------------------------------------------ */
/* The functions of a report by (file, name): a hash index, so that matching n functions costs O(n), not the
 * O(n^2) of a scan of the other report per function (8,000 functions took 11 s that way). */

struct entry {
	const char *file, *name;
	const cJSON *f;
	int matched; /* a head entry found by a base one */
};

struct index {
	struct entry *entries;
	int n;
	int *slots; /* open addressing, linear probing: entry number + 1, 0 for an empty slot */
	size_t mask;
};

/* FNV-1a of file, a NUL, name. */
static size_t key_hash(const char *file, const char *name)
{
	unsigned long long h = kc_fnv1a(KC_FNV_OFFSET, file, strlen(file) + 1);
	h = kc_fnv1a(h, name, strlen(name));
	return (size_t)(h ^ h >> 32);
}

/* The slot of (file, name): the one holding it, or the empty one where it would go. */
static size_t index_slot(const struct index *x, const char *file, const char *name)
{
	size_t i = key_hash(file, name) & x->mask;
	for (; x->slots[i]; i = (i + 1) & x->mask) {
		const struct entry *e = &x->entries[x->slots[i] - 1];
		if (!strcmp(e->name, name) && !strcmp(e->file, file))
			break;
	}
	return i;
}

static struct entry *index_find(const struct index *x, const char *file, const char *name)
{
	size_t i = index_slot(x, file, name);
	return x->slots[i] ? &x->entries[x->slots[i] - 1] : NULL;
}

/* Index the functions of a report, each (file, name) once. An entry that is not an object or has no name or
 * file string is an error; a second entry of the same function is a warning, and only the first is compared.
 * -1 when out of memory. */
static int index_build(struct index *x, struct kc_diff *d, const cJSON *doc, const char *label)
{
	const cJSON *fns = get(doc, "functions"), *f;
	int n = cJSON_GetArraySize(fns), k = 0;
	size_t size = 16;
	while (size < 2 * (size_t)n)
		size *= 2;
	x->entries = malloc(sizeof *x->entries * (size_t)(n ? n : 1));
	x->slots = calloc(size, sizeof *x->slots);
	x->mask = size - 1;
	x->n = 0;
	if (!x->entries || !x->slots)
		return -1;
	cJSON_ArrayForEach(f, fns)
	{
		const char *file = get_str(f, "file"), *name = get_str(f, "name");
		if (!cJSON_IsObject(f))
			problem(d, 1, "%s: functions[%d] is %s, not an object: skipped", label, k, type_name(f));
		else if (!name || !file)
			problem(d, 1, "%s: functions[%d] has no \"%s\" string: skipped", label, k,
			        name ? "file" : "name");
		else {
			size_t slot = index_slot(x, file, name);
			if (x->slots[slot])
				problem(d, 0,
				        "%s: function '%s' (%s) is listed twice (functions[%d]): the first is compared",
				        label, name, file, k);
			else {
				x->entries[x->n] = (struct entry){file, name, f, 0};
				x->slots[slot] = ++x->n;
			}
		}
		k++;
	}
	return 0;
}

static void index_release(struct index *x)
{
	free(x->entries);
	free(x->slots);
}

/* ------------------------------------------------------------------------------------------------ */
/* One side of a function, validated */

/* What a number must be: a time is positive, the others are not negative; all are finite (a JSON number
 * like 1e999 reads as infinity). */
enum range { TIME, COUNT, CV, INTENSITY };

static const char *const range_rule[] = {
    [TIME] = "a time must be positive and finite",
    [COUNT] = "a count must be non-negative and finite",
    [CV] = "a coefficient of variation must be non-negative and finite",
    [INTENSITY] = "an intensity must be non-negative and finite",
};

/* Record that fd's value at path on this side is impossible; the function's verdict becomes "invalid". */
static void invalid_value(struct kc_diff *d, struct fn_diff *fd, int side, const char *path, const char *what)
{
	const char *label = d->o.names[side] ? d->o.names[side] : side ? "HEAD" : "BASE";
	problem(d, 1, "%s: function '%s' (%s): %s %s", label, fd->name, fd->file, path, what);
	if (fd->invalid)
		return;
	size_t n = strlen(path) + strlen(what) + 16;
	fd->invalid = malloc(n);
	if (fd->invalid)
		snprintf(fd->invalid, n, "in %s, %s %s", side ? "head" : "base", path, what);
}

/* The value at path ("measured.seconds.median") below `top`, the function's member named by the path's first
 * component (NULL when it has none). */
static const cJSON *below(const cJSON *top, const char *path, const cJSON **blocker)
{
	const char *dot = strchr(path, '.');
	*blocker = NULL;
	return top && dot ? follow(top, dot + 1, blocker) : NULL;
}

/* The number at path below top, NAN when absent; a value of another type or out of its range is recorded
 * and read as absent. */
static double read_num(struct kc_diff *d, struct fn_diff *fd, int side, const cJSON *top, const char *path,
                       enum range range)
{
	const cJSON *blocker, *v = below(top, path, &blocker);
	char what[160];
	if (!v && !blocker)
		return NAN;
	if (!v || !cJSON_IsNumber(v)) {
		snprintf(what, sizeof what, v ? "is %s, not a number" : "cannot be read: the path goes through %s",
		         type_name(v ? v : blocker));
		invalid_value(d, fd, side, path, what);
		return NAN;
	}
	double x = v->valuedouble;
	if (!isfinite(x) || x < 0 || (range == TIME && x == 0)) {
		snprintf(what, sizeof what, "is %g: %s", x, range_rule[range]);
		invalid_value(d, fd, side, path, what);
		return NAN;
	}
	return x;
}

/* The string at path below top, NULL when absent; a value of another type is recorded and read as absent. */
static const char *read_str(struct kc_diff *d, struct fn_diff *fd, int side, const cJSON *top, const char *path)
{
	const cJSON *blocker, *v = below(top, path, &blocker);
	if (!v && !blocker)
		return NULL;
	if (!v || !cJSON_IsString(v) || !v->valuestring) {
		char what[64];
		snprintf(what, sizeof what, v ? "is %s, not a string" : "cannot be read: the path goes through %s",
		         type_name(v ? v : blocker));
		invalid_value(d, fd, side, path, what);
		return NULL;
	}
	return v->valuestring;
}

/* The members of a function that a comparison reads, found in one pass over its keys: a report's function has
 * some 25, "measured" among the last, and a look-up per value scanned them a dozen times. */
enum { M_FLOPS, M_BYTES, M_INTENSITY, M_MEASURED, M_PREDICTED, M_N };

static const char *const member_keys[M_N] = {"flops", "bytes", "intensity", "measured", "predicted"};

static void function_members(const cJSON *f, const cJSON *m[M_N])
{
	const cJSON *c;
	for (int k = 0; k < M_N; k++)
		m[k] = NULL;
	cJSON_ArrayForEach(c, f)
	{
		for (int k = 0; k < M_N && c->string; k++)
			if (!m[k] && !strcmp(c->string, member_keys[k]))
				m[k] = c;
	}
}

/* The times at path (measured.seconds.samples or .slices), when it is an array of positive finite numbers (else a
 * problem, and none). */
static void read_times(struct kc_diff *d, struct fn_diff *fd, int side, const cJSON *measured, const char *path,
                       double **times, int *n_times)
{
	const cJSON *blocker, *v = below(measured, path, &blocker), *x;
	if (!v) /* absent, or behind a value of another type: the median's reading has said so */
		return;
	if (!cJSON_IsArray(v)) {
		char what[96];
		snprintf(what, sizeof what, "is %s, not an array", type_name(v));
		invalid_value(d, fd, side, path, what);
		return;
	}
	int n = cJSON_GetArraySize(v), k = 0;
	double *out = malloc(sizeof *out * (size_t)(n > 0 ? n : 1));
	if (!out)
		return;
	cJSON_ArrayForEach(x, v)
	{
		if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble <= 0) {
			char what[192];
			snprintf(what, sizeof what, "has %s%s: %s", cJSON_IsNumber(x) ? "" : "an element that is ",
			         cJSON_IsNumber(x) ? "a time that is not positive and finite" : type_name(x),
			         range_rule[TIME]);
			invalid_value(d, fd, side, path, what);
			free(out);
			return;
		}
		out[k++] = x->valuedouble;
	}
	*times = out, *n_times = k;
}

static void read_side(struct kc_diff *d, struct fn_diff *fd, int side, const cJSON *f)
{
	const cJSON *m[M_N];
	function_members(f, m);
	for (int k = 0; k < M_N; k++)
		if (m[k] && !cJSON_IsNull(m[k]) && !cJSON_IsObject(m[k])) { /* one problem, not one per value */
			char what[64];
			snprintf(what, sizeof what, "is %s, not an object", type_name(m[k]));
			invalid_value(d, fd, side, member_keys[k], what);
			m[k] = NULL;
		}
	fd->flops[side] = read_str(d, fd, side, m[M_FLOPS], "flops.expr");
	fd->bytes_min[side] = read_str(d, fd, side, m[M_BYTES], "bytes.min.expr");
	fd->bytes_streaming[side] = read_str(d, fd, side, m[M_BYTES], "bytes.streaming.expr");
	fd->flops_v[side] = read_num(d, fd, side, m[M_FLOPS], "flops.value", COUNT);
	fd->streaming_v[side] = read_num(d, fd, side, m[M_BYTES], "bytes.streaming.value", COUNT);
	fd->ai_min[side] = read_num(d, fd, side, m[M_INTENSITY], "intensity.min", INTENSITY);
	fd->ai_streaming[side] = read_num(d, fd, side, m[M_INTENSITY], "intensity.streaming", INTENSITY);
	fd->bound[side] = read_str(d, fd, side, m[M_PREDICTED], "predicted.bound");
	fd->instructions[side] = fd->dram[side] = NAN;
	if (read_str(d, fd, side, m[M_MEASURED], "measured.error")) { /* the run failed: no time, whatever the rest */
		fd->median[side] = fd->cv[side] = NAN;
		return;
	}
	fd->median[side] = read_num(d, fd, side, m[M_MEASURED], "measured.seconds.median", TIME);
	fd->cv[side] = read_num(d, fd, side, m[M_MEASURED], "measured.cv", CV);
	fd->instructions[side] = read_num(d, fd, side, m[M_MEASURED], "measured.traffic.instructions", COUNT);
	const char *source = read_str(d, fd, side, m[M_MEASURED], "measured.traffic.source");
	fd->source[side] = source;
	if (source && !strcmp(source, "cachegrind"))
		fd->dram[side] = read_num(d, fd, side, m[M_MEASURED], "measured.traffic.bytes", COUNT);
	read_times(d, fd, side, m[M_MEASURED], "measured.seconds.samples", &fd->samples[side], &fd->n_samples[side]);
	read_times(d, fd, side, m[M_MEASURED], "measured.seconds.slices", &fd->slices[side], &fd->n_slices[side]);
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The relative change of the instructions one call executes (head / base - 1), when both runs counted them and
 * they differ by 0.1% or more (they are deterministic: a smaller difference is the setup's alignment, not the
 * code); else 0. */
static double count_change(const double v[2])
{
	if (!(v[0] > 0) || !(v[1] > 0))
		return 0;
	double r = v[1] / v[0] - 1;
	return fabs(r) >= 0.001 ? r : 0;
}
static double instructions_change(const struct fn_diff *d)
{
	return same_str(d->source[0], d->source[1]) ? count_change(d->instructions) : 0;
}
/* The same for the DRAM bytes of one call, when both were simulated (deterministic as the instructions are). */
static double dram_change(const struct fn_diff *d)
{
	return count_change(d->dram);
}

/* ------------------------------------------------------------------------------------------------ */
/* Judging */

/* The spread of log(time) of a run whose times have coefficient of variation cv: sqrt(log(1 + cv^2)), the
 * standard deviation of a log-normal variable with that CV (close to cv itself below 0.3). */
static double log_spread(double cv)
{
	return isnan(cv) ? 0 : sqrt(log1p(cv * cv));
}

/* A change counts when |log(head / base)| exceeds both log(1 + threshold) and twice the runs' combined
 * spread of log(time), sqrt(s_base^2 + s_head^2). In log space a 2x speed-up and a 2x slow-down are the
 * same distance from "no change" (log 2), so they get mirrored verdicts; compared as |ratio - 1| against
 * the CVs, as before, a speed-up's change could never exceed 1, and once the CVs reached ~0.35 no speed-up
 * could be significant. */
static void judge_time(struct fn_diff *d, const struct kc_diff_opts *o)
{
	if (d->invalid) {
		d->verdict = V_INVALID;
		return;
	}
	if (isnan(d->median[0]) || isnan(d->median[1])) {
		d->verdict = V_UNMEASURED;
		return;
	}
	d->ratio = d->median[1] / d->median[0];
	/* both runs carry their samples: the test of model/compare.h, over the slices' medians when both have enough
	 * of them (each slice is a process of its own: the samples of one are not independent), else the samples */
	/* only the slices: the samples of one process are not independent draws (identical binaries came out 3%
	 * apart, p < 1e-5, sample by sample), so three processes' samples would make a confident verdict of an
	 * offset between processes; fewer slices get the rule below */
	d->by_slices = d->n_slices[0] >= KC_DIFF_MIN_SLICES && d->n_slices[1] >= KC_DIFF_MIN_SLICES;
	if (d->by_slices &&
	    kc_compare(d->slices[0], d->n_slices[0], d->slices[1], d->n_slices[1], o->threshold, &d->cmp) == 0) {
		static const enum verdict of[] = {[KC_VERDICT_UNCHANGED] = V_NOISE,
		                                  [KC_VERDICT_SLOWER] = V_SLOWER,
		                                  [KC_VERDICT_FASTER] = V_FASTER,
		                                  [KC_VERDICT_INCONCLUSIVE] = V_INCONCLUSIVE};
		d->tested = 1;
		d->ratio = d->cmp.ratio;
		d->verdict = of[d->cmp.verdict];
		return;
	}
	double s0 = log_spread(d->cv[0]), s1 = log_spread(d->cv[1]);
	double noise = 2 * sqrt(s0 * s0 + s1 * s1), change = fabs(log(d->ratio));
	if (change <= log1p(o->threshold) || change <= noise)
		d->verdict = V_NOISE;
	else
		d->verdict = d->ratio > 1 ? V_SLOWER : V_FASTER;
}

/* The first way d regressed by more than `gate` (a fraction; 0: by anything): slower beyond the noise, more
 * bytes (streaming, at the benchmark sizes), more FLOPs; NULL when it did not. *ratio is head / base of it. */
static const char *regression(const struct fn_diff *d, double gate, double *ratio)
{
	static const char *const what[] = {"slower", "more bytes", "more FLOPs"};
	const double r[] = {d->verdict == V_SLOWER ? d->ratio : NAN,
	                    d->streaming_v[0] > 0 ? d->streaming_v[1] / d->streaming_v[0] : NAN,
	                    d->flops_v[0] > 0 ? d->flops_v[1] / d->flops_v[0] : NAN};
	for (int k = 0; k < 3; k++)
		if (r[k] - 1 > gate) { /* false for NAN: not known */
			*ratio = r[k];
			return what[k];
		}
	return NULL;
}

static void judge_regression(struct fn_diff *d, const struct kc_diff_opts *o)
{
	double ratio;
	if (o->fail_on <= 0)
		return;
	d->why = regression(d, o->fail_on, &ratio);
	d->regressed = d->why != NULL;
}

static void compare_pair(struct kc_diff *d, struct fn_diff *fd, const cJSON *b, const cJSON *h)
{
	read_side(d, fd, 0, b);
	read_side(d, fd, 1, h);
	if (!fd->invalid && !isnan(fd->median[0]) && !isnan(fd->median[1])) {
		double ratio = fd->median[1] / fd->median[0];
		if (!isfinite(ratio) || ratio == 0) {
			char what[128];
			snprintf(what, sizeof what, "is %g, %g in base: too far apart to compare", fd->median[1],
			         fd->median[0]);
			invalid_value(d, fd, 1, "measured.seconds.median", what);
		}
	}
	judge_time(fd, &d->o);
	judge_regression(fd, &d->o);
	int formulas_same = same_str(fd->flops[0], fd->flops[1]) && same_str(fd->bytes_min[0], fd->bytes_min[1]) &&
	                    same_str(fd->bytes_streaming[0], fd->bytes_streaming[1]);
	int one_measured = isnan(fd->median[0]) != isnan(fd->median[1]); /* a run failed on one side only */
	fd->change = formulas_same && !one_measured && fd->verdict != V_SLOWER && fd->verdict != V_FASTER &&
	                     fd->verdict != V_INCONCLUSIVE && !fd->invalid && instructions_change(fd) == 0 &&
	                     dram_change(fd) == 0 && same_str(fd->bound[0], fd->bound[1])
	                 ? SAME
	                 : CHANGED;
}

/* A function's "line" when it is a line number (a positive integer), else 0: only a SARIF result shows it. */
static unsigned first_line(const cJSON *f)
{
	const cJSON *line = f ? member(f, "line", 4) : NULL;
	double v = cJSON_IsNumber(line) ? line->valuedouble : 0;
	return v >= 1 && v <= UINT_MAX && v == floor(v) ? (unsigned)v : 0;
}

/* Append the comparison of one function: of a base entry with its head (h), or of an entry on one side only. */
static void add_function(struct kc_diff *d, const struct entry *e, int side, const cJSON *h)
{
	struct fn_diff *fd = &d->fns[d->n++];
	memset(fd, 0, sizeof *fd);
	fd->file = e->file;
	fd->name = e->name;
	fd->line = first_line(h ? h : side ? e->f : NULL);
	if (h) {
		compare_pair(d, fd, e->f, h);
	} else {
		fd->change = side ? ADDED : REMOVED;
		read_side(d, fd, side, e->f);
		fd->verdict = fd->invalid ? V_INVALID : V_NONE;
	}
	d->regressed |= fd->regressed;
}

/* Base functions in the base's order (compared, or removed), then those only in the head, in its order. */
static int compare_indexed(struct kc_diff *d, struct index *x)
{
	d->fns = malloc(sizeof *d->fns * (size_t)(x[0].n + x[1].n + 1));
	if (!d->fns)
		return -1;
	for (int i = 0; i < x[0].n; i++) {
		struct entry *h = index_find(&x[1], x[0].entries[i].file, x[0].entries[i].name);
		if (h)
			h->matched = 1;
		add_function(d, &x[0].entries[i], 0, h ? h->f : NULL);
	}
	for (int i = 0; i < x[1].n; i++)
		if (!x[1].entries[i].matched)
			add_function(d, &x[1].entries[i], 1, NULL);
	return 0;
}

struct kc_diff *kc_diff_compare(const cJSON *base, const cJSON *head, const struct kc_diff_opts *o, char *err,
                                size_t err_size)
{
	if (kc_diff_check_report(base, "BASE", err, err_size) < 0 ||
	    kc_diff_check_report(head, "HEAD", err, err_size) < 0)
		return NULL;
	struct kc_diff *d = calloc(1, sizeof *d);
	struct index x[2] = {{0}, {0}};
	int ok = d != NULL;
	if (d)
		d->o = *o;
	ok = ok && index_build(&x[0], d, base, o->names[0] ? o->names[0] : "BASE") == 0;
	ok = ok && index_build(&x[1], d, head, o->names[1] ? o->names[1] : "HEAD") == 0;
	ok = ok && compare_indexed(d, x) == 0;
	index_release(&x[0]);
	index_release(&x[1]);
	if (!ok) {
		snprintf(err, err_size, "out of memory");
		kc_diff_free(d);
		return NULL;
	}
	return d;
}

int kc_diff_regressed(const struct kc_diff *d)
{
	return d->regressed;
}

int kc_diff_count(const struct kc_diff *d)
{
	return d->n;
}

void kc_diff_function(const struct kc_diff *d, int i, struct kc_diff_function *out)
{
	static const char *const changes[] = {"same", "added", "removed", "changed"};
	static const char *const verdicts[] = {NULL,     "not measured", "no significant change", "faster",
	                                       "slower", "invalid",      "inconclusive"};
	const struct fn_diff *f = &d->fns[i];
	int timed = f->verdict != V_NONE && f->verdict != V_UNMEASURED && f->verdict != V_INVALID;
	double ic = instructions_change(f);
	*out = (struct kc_diff_function){
	    .file = f->file,
	    .name = f->name,
	    .change = changes[f->change],
	    .verdict = f->tested && f->verdict != V_INVALID ? kc_verdict_name(f->cmp.verdict) : verdicts[f->verdict],
	    .tested = f->tested && f->verdict != V_INVALID,
	    .ratio = timed ? f->ratio : NAN,
	    .ci_low = f->tested ? f->cmp.ci_low : NAN,
	    .ci_high = f->tested ? f->cmp.ci_high : NAN,
	    .p_value = f->tested ? f->cmp.p_value : NAN,
	    .n_base = f->tested ? f->cmp.n_base : 0,
	    .n_head = f->tested ? f->cmp.n_head : 0,
	    .base_median = f->change == ADDED ? NAN : f->median[0],
	    .instructions_change = ic != 0 ? ic : NAN,
	    .regressed = f->regressed,
	    .invalid = f->invalid,
	};
}

int kc_diff_errors(const struct kc_diff *d)
{
	return d->errors;
}

void kc_diff_render_problems(const struct kc_diff *d, struct kc_buf *b)
{
	for (int i = 0; i < d->n_problems; i++) {
		kc_buf_puts(b, d->problems[i].error ? "kcost diff: error: " : "kcost diff: warning: ");
		kc_visible_puts(b, d->problems[i].text);
		kc_buf_putc(b, '\n');
	}
}

void kc_diff_free(struct kc_diff *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->n; i++) {
		free(d->fns[i].invalid);
		free(d->fns[i].samples[0]);
		free(d->fns[i].samples[1]);
		free(d->fns[i].slices[0]);
		free(d->fns[i].slices[1]);
	}
	for (int i = 0; i < d->n_problems; i++)
		free(d->problems[i].text);
	free(d->problems);
	free(d->fns);
	free(d);
}

/* ------------------------------------------------------------------------------------------------ */
/* Rendering */

static const char *verdict_text(const struct fn_diff *d, char *buf, size_t size)
{
	if (d->tested && d->verdict != V_INVALID) {
		const struct kc_comparison *c = &d->cmp;
		snprintf(buf, size, "%s, %.3gx the base's time (95%% CI %.3g-%.3g, p = %.2g, %d + %d %s)",
		         kc_verdict_name(c->verdict), c->ratio, c->ci_low, c->ci_high, c->p_value, c->n_base, c->n_head,
		         d->by_slices ? "runs" : "samples");
		return buf;
	}
	switch (d->verdict) {
	case V_UNMEASURED:
		return "not measured";
	case V_NOISE:
		snprintf(buf, size, "no significant change (%.2fx)", d->ratio);
		return buf;
	case V_FASTER:
		snprintf(buf, size, "%.2fx faster", 1 / d->ratio);
		return buf;
	case V_SLOWER:
		snprintf(buf, size, "%.2fx slower", d->ratio);
		return buf;
	default:
		return "";
	}
}

/* Names and formulas come from the reports, which a pull request can forge: in Markdown they stay on their
 * line and form no HTML, link or mention (kc_escape_md_inline, kc_escape_md_code); on a terminal they carry no
 * escape sequence, line break or reordering character (kc_visible_puts). */
static void put_text(struct kc_buf *b, const char *s, int md)
{
	if (md)
		kc_escape_md_inline(b, s);
	else
		kc_visible_puts(b, s);
}

static void formula_change(struct kc_buf *b, const char *label, const char *const *v, int md)
{
	if (same_str(v[0], v[1]))
		return;
	kc_buf_printf(b, md ? "  - %s: " : "    %s: ", label);
	for (int side = 0; side < 2; side++) {
		kc_buf_puts(b, side ? md ? " → " : " -> " : "");
		if (md)
			kc_escape_md_code(b, v[side] ? v[side] : "?");
		else
			kc_visible_puts(b, v[side] ? v[side] : "?");
	}
	kc_buf_putc(b, '\n');
}

static void render_function(const struct fn_diff *d, struct kc_buf *b, int md)
{
	char vt[160];
	const char *what = d->invalid             ? "invalid"
	                   : d->change == ADDED   ? "added"
	                   : d->change == REMOVED ? "removed"
	                                          : "changed";
	kc_buf_puts(b, md ? "- **" : "  ");
	put_text(b, d->name, md);
	kc_buf_puts(b, md ? "** (" : " (");
	put_text(b, d->file, md);
	kc_buf_printf(b, "): %s", what);
	if (d->invalid) {
		kc_buf_puts(b, d->change == ADDED ? " (added)" : d->change == REMOVED ? " (removed)" : "");
		kc_buf_puts(b, ": ");
		put_text(b, d->invalid, md);
	} else if (d->change == CHANGED) {
		kc_buf_printf(b, "; time: %s", verdict_text(d, vt, sizeof vt));
		double ic = instructions_change(d), dc = dram_change(d);
		if (ic != 0)
			kc_buf_printf(b, "; instructions %+.1f%%", 100 * ic);
		if (dc != 0)
			kc_buf_printf(b, "; DRAM bytes %+.1f%% (simulated)", 100 * dc);
		if (ic != 0 || dc != 0)
			kc_buf_puts(b, " (counts: the same from run to run)");
		if (d->bound[1] && same_str(d->bound[0], d->bound[1])) {
			kc_buf_puts(b, "; bound: ");
			put_text(b, d->bound[1], md);
		}
	}
	if (d->regressed)
		kc_buf_printf(b, "%sregression: %s%s", md ? " — **" : " — ", d->why, md ? "**" : "");
	kc_buf_putc(b, '\n');
	if (d->change != CHANGED)
		return;
	formula_change(b, "FLOPs", d->flops, md);
	formula_change(b, "bytes (min)", d->bytes_min, md);
	formula_change(b, "bytes (streaming)", d->bytes_streaming, md);
	formula_change(b, "bound (predicted)", d->bound, md);
	if (!isnan(d->ai_streaming[0]) && !isnan(d->ai_streaming[1]) && d->ai_streaming[0] != d->ai_streaming[1])
		kc_buf_printf(b,
		              md ? "  - intensity (streaming): %.3g → %.3g FLOP/B\n"
		                 : "    intensity (streaming): %.3g -> %.3g FLOP/B\n",
		              d->ai_streaming[0], d->ai_streaming[1]);
}

static void render_json(const struct kc_diff *d, struct kc_buf *b)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "functions");
	static const char *const changes[] = {"same", "added", "removed", "changed"};
	static const char *const verdicts[] = {"",       "not measured", "no significant change", "faster",
	                                       "slower", "invalid",      "inconclusive"};
	for (int i = 0; i < d->n && arr; i++) {
		const struct fn_diff *f = &d->fns[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", f->file);
		cJSON_AddStringToObject(o, "name", f->name);
		cJSON_AddStringToObject(o, "change", changes[f->change]);
		if (f->change == CHANGED || f->change == SAME) {
			cJSON_AddStringToObject(o, "time", verdicts[f->verdict]);
			if (f->verdict != V_UNMEASURED && f->verdict != V_INVALID)
				cJSON_AddNumberToObject(o, "time_ratio", f->ratio);
			if (f->tested && f->verdict != V_INVALID) {
				cJSON_AddStringToObject(o, "verdict", kc_verdict_name(f->cmp.verdict));
				cJSON_AddNumberToObject(o, "ci_low", f->cmp.ci_low);
				cJSON_AddNumberToObject(o, "ci_high", f->cmp.ci_high);
				cJSON_AddNumberToObject(o, "p_value", f->cmp.p_value);
				cJSON_AddItemToObject(
				    o, "samples", cJSON_CreateIntArray((const int[]){f->cmp.n_base, f->cmp.n_head}, 2));
			}
			if (instructions_change(f) != 0)
				cJSON_AddNumberToObject(o, "instructions_change", instructions_change(f));
			if (dram_change(f) != 0)
				cJSON_AddNumberToObject(o, "dram_bytes_change", dram_change(f));
			cJSON_AddItemToObject(
			    o, "flops",
			    cJSON_CreateStringArray(
			        (const char *const[]){f->flops[0] ? f->flops[0] : "", f->flops[1] ? f->flops[1] : ""},
			        2));
			cJSON_AddItemToObject(
			    o, "bytes_streaming",
			    cJSON_CreateStringArray(
			        (const char *const[]){f->bytes_streaming[0] ? f->bytes_streaming[0] : "",
			                              f->bytes_streaming[1] ? f->bytes_streaming[1] : ""},
			        2));
		}
		if (f->invalid)
			cJSON_AddStringToObject(o, "invalid", f->invalid);
		cJSON_AddBoolToObject(o, "regressed", f->regressed);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddBoolToObject(root, "regressed", d->regressed);
	char *text = cJSON_Print(root);
	if (text) {
		kc_buf_puts(b, text);
		kc_buf_putc(b, '\n');
	}
	cJSON_free(text);
	cJSON_Delete(root);
}

/* What changed besides the verdict, on one line for a SARIF message: "FLOPs: 2*n -> 3*n; bytes (min): ...". */
static void changes_text(const struct fn_diff *d, struct kc_buf *b)
{
	static const char *const labels[] = {"FLOPs", "bytes (min)", "bytes (streaming)"};
	const char *const *v[] = {d->flops, d->bytes_min, d->bytes_streaming};
	for (int k = 0; k < 3; k++)
		if (!same_str(v[k][0], v[k][1]))
			kc_buf_printf(b, "%s%s: %s -> %s", b->len ? "; " : "", labels[k], v[k][0] ? v[k][0] : "?",
			              v[k][1] ? v[k][1] : "?");
}

/* Each function that regressed, as a SARIF result: "error" beyond --fail-on-regression, else "warning". */
static int render_sarif(const struct kc_diff *d, struct kc_buf *b)
{
	struct kc_sarif *log = kc_sarif_open(d->o.version);
	for (int i = 0; log && i < d->n; i++) {
		const struct fn_diff *f = &d->fns[i];
		double ratio;
		if ((f->change != SAME && f->change != CHANGED) || f->invalid)
			continue; /* only the functions of both reports, compared */
		/* beyond the gate, the regression kc_diff_regressed gives; else the first increase */
		const char *why = regression(f, f->regressed ? d->o.fail_on : 0, &ratio);
		if (!why)
			continue;
		struct kc_buf changes = KC_BUF_INIT;
		changes_text(f, &changes);
		struct kc_sarif_regression r = {.function = f->name,
		                                .file = f->file,
		                                .line = f->line,
		                                .verdict = why,
		                                .ratio = ratio,
		                                .changes = kc_buf_str(&changes),
		                                .gate = f->regressed};
		kc_sarif_add_regressions(log, &r, 1);
		kc_buf_release(&changes);
	}
	return kc_sarif_close(log, b);
}

/* Which group a changed function is listed in: regressions, then improvements, then the other changes. */
static int group_of(const struct fn_diff *d)
{
	if (d->regressed || d->verdict == V_SLOWER)
		return 0;
	return d->verdict == V_FASTER ? 1 : 2;
}

int kc_diff_render(const struct kc_diff *d, struct kc_buf *b)
{
	return kc_diff_render_as(d, d->o.format, b);
}

int kc_diff_render_as(const struct kc_diff *d, enum kc_diff_format format, struct kc_buf *b)
{
	if (format == KC_DIFF_JSON) {
		render_json(d, b);
		return 0;
	}
	if (format == KC_DIFF_SARIF)
		return render_sarif(d, b);
	int md = format == KC_DIFF_MD, shown = 0, changed = 0, cut = 0;
	size_t start = b->len;
	kc_buf_puts(b, md ? "## kcost: cost changes\n\n" : "kcost diff\n");
	for (int i = 0; i < d->n; i++)
		changed += d->fns[i].change != SAME;
	for (int g = 0; g < 3; g++)
		for (int i = 0; i < d->n; i++) {
			if (d->fns[i].change == SAME || group_of(&d->fns[i]) != g)
				continue;
			size_t before = b->len;
			if (!cut)
				render_function(&d->fns[i], b, md);
			/* a comment must fit GitHub's limit (65,536 characters): rows past KC_DIFF_MD_MAX are left to
			 * the report, counted */
			if (!cut && md && b->len - start > KC_DIFF_MD_MAX) {
				b->len = before;
				b->data[before] = '\0';
				cut = 1;
			}
			shown += !cut;
		}
	if (cut)
		kc_buf_printf(b, "\n… and %d more changed function%s: the full table is in the report\n",
		              changed - shown, changed - shown == 1 ? "" : "s");
	int same = d->n - changed;
	if (!changed)
		kc_buf_printf(b, "%sno significant change in %d function%s (formulas identical, times within noise)\n",
		              md ? "" : "  ", same, same == 1 ? "" : "s");
	else if (same)
		kc_buf_printf(b, "%s%d other function%s unchanged\n", md ? "\n" : "  ", same, same == 1 ? "" : "s");
	if (d->o.fail_on > 0)
		kc_buf_printf(b, "%s%s\n", md ? "\n" : "  ",
		              d->regressed ? "regression beyond the --fail-on-regression threshold"
		                           : "no regression beyond the threshold");
	return 0;
}

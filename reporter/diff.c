/* diff.c — compare two report.json files for a pull-request review. All JSON through cJSON. */
#include "diff.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

enum change { SAME, ADDED, REMOVED, CHANGED };
enum verdict { V_NONE, V_UNMEASURED, V_NOISE, V_FASTER, V_SLOWER, V_ERROR };

/* What one function's comparison found. Strings point into the parsed documents. */
struct fn_diff {
	const char *file, *name;
	enum change change;
	const char *flops[2], *bytes_min[2], *bytes_streaming[2];
	double flops_v[2], streaming_v[2], ai_min[2], ai_streaming[2];
	double median[2], cv[2];
	enum verdict verdict;
	double ratio; /* head / base median time */
	int regressed;
	const char *why; /* regression reason, static text */
};

struct kc_diff {
	struct kc_diff_opts o;
	struct fn_diff *fns;
	int n;
	int regressed;
};

/* ------------------------------------------------------------------------------------------------ */
/* Reading (tolerant: a missing or mistyped key is "absent", never a crash) */

static const cJSON *get(const cJSON *o, const char *path)
{
	char key[64];
	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof key || !cJSON_IsObject(o))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = cJSON_GetObjectItemCaseSensitive(o, key);
		path += n + (dot ? 1 : 0);
	}
	return o;
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

static int check_report(const cJSON *doc, const char *which, char *err, size_t size)
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

static const cJSON *find(const cJSON *doc, const char *file, const char *name)
{
	const cJSON *f;
	cJSON_ArrayForEach(f, get(doc, "functions"))
	{
		const char *ff = get_str(f, "file"), *fn = get_str(f, "name");
		if (ff && fn && !strcmp(ff, file) && !strcmp(fn, name))
			return f;
	}
	return NULL;
}

static void read_side(struct fn_diff *d, int side, const cJSON *f)
{
	d->flops[side] = get_str(f, "flops.expr");
	d->bytes_min[side] = get_str(f, "bytes.min.expr");
	d->bytes_streaming[side] = get_str(f, "bytes.streaming.expr");
	d->flops_v[side] = get_num(f, "flops.value");
	d->streaming_v[side] = get_num(f, "bytes.streaming.value");
	d->ai_min[side] = get_num(f, "intensity.min");
	d->ai_streaming[side] = get_num(f, "intensity.streaming");
	d->median[side] = get_num(f, "measured.seconds.median");
	d->cv[side] = get_num(f, "measured.cv");
	if (get_str(f, "measured.error"))
		d->median[side] = NAN;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* ------------------------------------------------------------------------------------------------ */
/* Judging */

static void judge_time(struct fn_diff *d, const struct kc_diff_opts *o)
{
	if (isnan(d->median[0]) || isnan(d->median[1]) || d->median[0] <= 0) {
		d->verdict = V_UNMEASURED;
		return;
	}
	d->ratio = d->median[1] / d->median[0];
	double cv0 = isnan(d->cv[0]) ? 0 : d->cv[0], cv1 = isnan(d->cv[1]) ? 0 : d->cv[1];
	double noise = 2 * sqrt(cv0 * cv0 + cv1 * cv1), change = fabs(d->ratio - 1);
	if (change <= o->threshold || change <= noise)
		d->verdict = V_NOISE;
	else
		d->verdict = d->ratio > 1 ? V_SLOWER : V_FASTER;
}

static void judge_regression(struct fn_diff *d, const struct kc_diff_opts *o)
{
	if (o->fail_on <= 0)
		return;
	if (d->verdict == V_SLOWER && d->ratio - 1 > o->fail_on) {
		d->regressed = 1;
		d->why = "slower";
	} else if (d->streaming_v[0] > 0 && d->streaming_v[1] / d->streaming_v[0] - 1 > o->fail_on) {
		d->regressed = 1;
		d->why = "more bytes";
	} else if (d->flops_v[0] > 0 && d->flops_v[1] / d->flops_v[0] - 1 > o->fail_on) {
		d->regressed = 1;
		d->why = "more FLOPs";
	}
}

static void compare_pair(struct fn_diff *d, const cJSON *b, const cJSON *h, const struct kc_diff_opts *o)
{
	read_side(d, 0, b);
	read_side(d, 1, h);
	judge_time(d, o);
	judge_regression(d, o);
	int formulas_same = same_str(d->flops[0], d->flops[1]) && same_str(d->bytes_min[0], d->bytes_min[1]) &&
	                    same_str(d->bytes_streaming[0], d->bytes_streaming[1]);
	d->change = formulas_same && d->verdict != V_SLOWER && d->verdict != V_FASTER ? SAME : CHANGED;
}

static struct fn_diff *push(struct kc_diff *d)
{
	struct fn_diff *grown = realloc(d->fns, sizeof *grown * (size_t)(d->n + 1));
	if (!grown)
		return NULL;
	d->fns = grown;
	memset(&d->fns[d->n], 0, sizeof d->fns[0]);
	return &d->fns[d->n++];
}

struct kc_diff *kc_diff_compare(const cJSON *base, const cJSON *head, const struct kc_diff_opts *o, char *err,
                                size_t err_size)
{
	if (check_report(base, "BASE", err, err_size) < 0 || check_report(head, "HEAD", err, err_size) < 0)
		return NULL;
	struct kc_diff *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->o = *o;
	const cJSON *f;
	for (int side = 0; side < 2; side++)
		cJSON_ArrayForEach(f, get(side ? head : base, "functions"))
		{
			const char *file = get_str(f, "file"), *name = get_str(f, "name");
			if (!file || !name)
				continue;
			const cJSON *other = find(side ? base : head, file, name);
			if (side && other)
				continue; /* compared from the base side */
			struct fn_diff *fd = push(d);
			if (!fd)
				break;
			fd->file = file;
			fd->name = name;
			if (!other) {
				fd->change = side ? ADDED : REMOVED;
				read_side(fd, side, f);
			} else {
				compare_pair(fd, f, other, o);
			}
			d->regressed |= fd->regressed;
		}
	return d;
}

int kc_diff_regressed(const struct kc_diff *d)
{
	return d->regressed;
}

void kc_diff_free(struct kc_diff *d)
{
	if (d)
		free(d->fns);
	free(d);
}

/* ------------------------------------------------------------------------------------------------ */
/* Rendering */

static const char *verdict_text(const struct fn_diff *d, char *buf, size_t size)
{
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

static void formula_change(struct kc_buf *b, const char *label, const char *const *v, int md)
{
	if (same_str(v[0], v[1]))
		return;
	if (md) {
		kc_buf_printf(b, "  - %s: ", label);
		kc_escape_md_code(b, v[0] ? v[0] : "?");
		kc_buf_puts(b, " → ");
		kc_escape_md_code(b, v[1] ? v[1] : "?");
		kc_buf_puts(b, "\n");
	} else {
		kc_buf_printf(b, "    %s: %s -> %s\n", label, v[0] ? v[0] : "?", v[1] ? v[1] : "?");
	}
}

static void render_function(const struct fn_diff *d, struct kc_buf *b, int md)
{
	char vt[64];
	const char *what = d->change == ADDED ? "added" : d->change == REMOVED ? "removed" : "changed";
	if (md) {
		kc_buf_puts(b, "- **");
		kc_escape_md_cell(b, d->name);
		kc_buf_puts(b, "** (");
		kc_escape_md_cell(b, d->file);
		kc_buf_printf(b, "): %s", what);
	} else {
		kc_buf_printf(b, "  %s (%s): %s", d->name, d->file, what);
	}
	if (d->change == CHANGED) {
		kc_buf_printf(b, "; time: %s", verdict_text(d, vt, sizeof vt));
		if (d->regressed)
			kc_buf_printf(b, "%sregression: %s%s", md ? " — **" : " — ", d->why, md ? "**" : "");
	}
	kc_buf_putc(b, '\n');
	if (d->change != CHANGED)
		return;
	formula_change(b, "FLOPs", d->flops, md);
	formula_change(b, "bytes (min)", d->bytes_min, md);
	formula_change(b, "bytes (streaming)", d->bytes_streaming, md);
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
	static const char *const verdicts[] = {"",       "not measured", "no significant change",
	                                       "faster", "slower",       "error"};
	for (int i = 0; i < d->n && arr; i++) {
		const struct fn_diff *f = &d->fns[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", f->file);
		cJSON_AddStringToObject(o, "name", f->name);
		cJSON_AddStringToObject(o, "change", changes[f->change]);
		if (f->change == CHANGED || f->change == SAME) {
			cJSON_AddStringToObject(o, "time", verdicts[f->verdict]);
			if (f->verdict != V_UNMEASURED)
				cJSON_AddNumberToObject(o, "time_ratio", f->ratio);
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
		cJSON_AddBoolToObject(o, "regressed", f->regressed);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddBoolToObject(root, "regressed", d->regressed);
	char *text = cJSON_Print(root);
	if (text) {
		kc_buf_puts(b, text);
		kc_buf_putc(b, '\n');
	}
	free(text);
	cJSON_Delete(root);
}

void kc_diff_render(const struct kc_diff *d, struct kc_buf *b)
{
	if (d->o.format == KC_DIFF_JSON) {
		render_json(d, b);
		return;
	}
	int md = d->o.format == KC_DIFF_MD, shown = 0;
	kc_buf_puts(b, md ? "## kcost: cost changes\n\n" : "kcost diff\n");
	for (int i = 0; i < d->n; i++)
		if (d->fns[i].change != SAME) {
			render_function(&d->fns[i], b, md);
			shown++;
		}
	int same = d->n - shown;
	if (!shown)
		kc_buf_printf(b, "%sno significant change in %d function%s (formulas identical, times within noise)\n",
		              md ? "" : "  ", same, same == 1 ? "" : "s");
	else if (same)
		kc_buf_printf(b, "%s%d other function%s: no significant change\n", md ? "\n" : "  ", same,
		              same == 1 ? "" : "s");
	if (d->o.fail_on > 0)
		kc_buf_printf(b, "%s%s\n", md ? "\n" : "  ",
		              d->regressed ? "regression beyond the --fail-on-regression threshold"
		                           : "no regression beyond the threshold");
}

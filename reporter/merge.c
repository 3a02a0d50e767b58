/* merge.c — `kcost merge`: several report.json (and their kcost.sarif, index.html, graphs/) joined into one
 * report. All JSON through cJSON. */
#define _POSIX_C_SOURCE 200809L
#include "merge.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"
#include "escape.h"
#include "format.h"
#include "hash.h"
#include "html_section.h"
#include "markdown.h"
#include "output.h"
#include "sarif.h"
#include "templates.h"
#include "visible.h"

/* One function of the merged report. */
struct fn {
	cJSON *f; /* as its shard has it */
	int shard;
	const char *name, *file;
	/* its graph: the shard's file ("graphs/gelu.svg") and the merged report's, when it is copied; NULL if not */
	const char *graph_src[2];
	char *graph_dst[2];
};

enum { SVG, DOT };
static const char *const graph_ext[2] = {".svg", ".dot"};

struct shard {
	struct kc_merge_input in; /* a copy: the caller's array need not outlive the merge */
	int first, n;             /* its functions in the merged list: fns[first .. first + n) */
	int timed;                /* a function has "measured" not null */
	cJSON *machine;           /* an object, or NULL */
	cJSON *sandbox;           /* an object, or NULL */
	int page;                 /* kc_merge_write copied its index.html to shards/<k + 1>.html */
};

struct kc_merge {
	struct kc_merge_opts o;
	struct shard *shards;
	int n_shards;
	struct fn *fns;
	int n_fns;
	cJSON *machine; /* the merged report's, or NULL */
	cJSON *sandbox;
	int no_run, parse_failed;
	cJSON *doc;   /* report.json as it is printed */
	cJSON *sarif; /* kcost.sarif */
	char created[64];
	int oom; /* an allocation failed: what it would have held is missing, and the merge fails */
	char **problems;
	int n_problems, cap_problems;
};

/* ---- reading (a value of another type than expected reads as absent) ------------------------------------ */

static const char *type_name(const cJSON *v)
{
	return cJSON_IsNumber(v)   ? "a number"
	       : cJSON_IsString(v) ? "a string"
	       : cJSON_IsArray(v)  ? "an array"
	       : cJSON_IsObject(v) ? "an object"
	       : cJSON_IsBool(v)   ? "a boolean"
	                           : "null";
}

static cJSON *member(const cJSON *o, const char *key)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* The value at a dotted path ("measured.seconds.median"); NULL when a key is missing, the value is null, or the
 * path goes through a value that is not an object. */
static const cJSON *at(const cJSON *o, const char *path)
{
	char key[64];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = member(o, key);
		path += n + (path[n] == '.');
	}
	return o && !cJSON_IsNull(o) ? o : NULL;
}

static const char *str_at(const cJSON *o, const char *path)
{
	const cJSON *v = at(o, path);
	return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

/* 1 with *x when the value at path is a finite number. */
static int num_at(const cJSON *o, const char *path, double *x)
{
	const cJSON *v = at(o, path);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return 0;
	*x = v->valuedouble;
	return 1;
}

static int true_at(const cJSON *o, const char *path)
{
	return cJSON_IsTrue(at(o, path));
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* How the outputs name an input: its label (kcost -j N names a shard by its files, as its report directory is
 * temporary), else its name as given. */
static const char *shown(const struct kc_merge_input *in)
{
	return in->label ? in->label : in->name;
}

/* ---- problems and errors --------------------------------------------------------------------------------- */

static void warn(struct kc_merge *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct kc_merge *m, const char *fmt, ...)
{
	if (m->n_problems == m->cap_problems) {
		int cap = m->cap_problems ? 2 * m->cap_problems : 8;
		char **grown = realloc(m->problems, sizeof *grown * (size_t)cap);
		if (!grown)
			return; /* dropped: the merge does not depend on it */
		m->problems = grown;
		m->cap_problems = cap;
	}
	struct kc_buf text = KC_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	kc_buf_vprintf(&text, fmt, ap);
	va_end(ap);
	m->problems[m->n_problems++] = kc_buf_detach(&text);
}

static int fail(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- building (a failed allocation marks the merge; what it would have held is dropped) ------------------ */

static cJSON *add(struct kc_merge *m, cJSON *parent, const char *key, cJSON *item)
{
	if (!item || !parent ||
	    !(key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item))) {
		cJSON_Delete(item);
		m->oom = 1;
		return NULL;
	}
	return item;
}

/* A reference to value (not a copy: the inputs outlive the merge) under key, or appended when key is NULL. */
static void add_ref(struct kc_merge *m, cJSON *parent, const char *key, cJSON *value)
{
	if (!value)
		return;
	if (!parent ||
	    !(key ? cJSON_AddItemReferenceToObject(parent, key, value) : cJSON_AddItemReferenceToArray(parent, value)))
		m->oom = 1;
}

/* ---- an index of strings (pairs of them), linear in their number ---------------------------------------- */

struct key {
	const char *a, *b; /* a NULL: an empty slot */
	int id;
};

struct table {
	struct key *slots;
	size_t mask;
};

static int table_init(struct table *t, int n)
{
	size_t size = 16;
	while (size < 2 * (size_t)n)
		size *= 2;
	t->slots = calloc(size, sizeof *t->slots);
	t->mask = size - 1;
	return t->slots ? 0 : -1;
}

/* The slot holding (a, b), or the empty one where it goes. */
static struct key *table_slot(const struct table *t, const char *a, const char *b)
{
	unsigned long long h = kc_fnv1a(KC_FNV_OFFSET, a, strlen(a) + 1);
	h = kc_fnv1a(h, b, strlen(b));
	size_t i = (size_t)(h ^ h >> 32) & t->mask;
	while (t->slots[i].a && (strcmp(t->slots[i].a, a) || strcmp(t->slots[i].b, b)))
		i = (i + 1) & t->mask;
	return &t->slots[i];
}

/* ---- the functions' text in the input --------------------------------------------------------------------
 *
 * A number beyond 2^53 is written digit for digit in a report and parsed by cJSON into a double, which prints
 * it rounded: the merged report.json copies each function's own text instead, found here in the text cJSON
 * parsed (valid JSON, so a scan of its strings and brackets finds the elements). */

struct span {
	const char *at;
	size_t len;
};

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Past the string at p (at its '"'), or NULL. */
static const char *skip_string(const char *p)
{
	for (p++; *p != '"'; p++) {
		if (!*p || (*p == '\\' && !*++p))
			return NULL;
	}
	return p + 1;
}

/* Past the value at p, or NULL. */
static const char *skip_value(const char *p)
{
	int depth = 0;
	do {
		p = skip_space(p);
		if (*p == '"') {
			if (!(p = skip_string(p)))
				return NULL;
		} else if (*p == '{' || *p == '[') {
			depth++, p++;
		} else if (*p == '}' || *p == ']' || *p == ',' || *p == ':') {
			if (!depth)
				return NULL;
			depth -= *p == '}' || *p == ']';
			p++;
		} else if (*p) { /* a number or a literal */
			while (*p && !strchr(" \t\r\n,:[]{}\"", *p))
				p++;
		} else {
			return NULL;
		}
	} while (depth > 0);
	return p;
}

/* The n elements of the "functions" array of the object in text, into spans[n]: 0, or -1 when they cannot be
 * told (another count, or a key written with an escape before "functions": cJSON may have read that one). */
static int function_spans(const char *text, struct span *spans, int n)
{
	const char *p = skip_space(text);
	if (*p++ != '{')
		return -1;
	for (;;) {
		p = skip_space(p);
		const char *key = p, *end = *p == '"' ? skip_string(p) : NULL;
		if (!end || memchr(key, '\\', (size_t)(end - key)))
			return -1;
		p = skip_space(end);
		if (*p++ != ':')
			return -1;
		p = skip_space(p);
		if (end - key == 11 && !memcmp(key, "\"functions\"", 11))
			break;
		if (!(p = skip_value(p)))
			return -1;
		p = skip_space(p);
		if (*p++ != ',')
			return -1;
	}
	if (*p++ != '[')
		return -1;
	int k = 0;
	for (p = skip_space(p); *p != ']'; k++) {
		const char *end = skip_value(p);
		if (!end || k >= n)
			return -1;
		spans[k] = (struct span){p, (size_t)(end - p)};
		p = skip_space(end);
		if (*p == ',')
			p = skip_space(p + 1);
		else if (*p != ']')
			return -1;
	}
	return k == n ? 0 : -1;
}

/* The element as raw text (printed as it is). */
static cJSON *raw_item(struct kc_merge *m, struct span s)
{
	char *text = cJSON_malloc(s.len + 1);
	cJSON *raw = text ? cJSON_CreateRaw("") : NULL;
	if (!raw) {
		cJSON_free(text);
		m->oom = 1;
		return NULL;
	}
	memcpy(text, s.at, s.len);
	text[s.len] = '\0';
	cJSON_free(raw->valuestring);
	raw->valuestring = text;
	return raw;
}

/* ---- the inputs ---------------------------------------------------------------------------------------- */

static int check_version(const struct kc_merge_input *in, int n, char *err, size_t size)
{
	const char *first = NULL;
	for (int k = 0; k < n; k++) {
		const cJSON *v = member(in[k].report, "kcost_version");
		if (v && !cJSON_IsString(v))
			return fail(err, size, "%s: \"kcost_version\" is %s, not a string", shown(&in[k]),
			            type_name(v));
		const char *version = v ? v->valuestring : NULL;
		if (k == 0)
			first = version;
		else if (!same_str(first, version))
			return fail(
			    err, size,
			    "%s was written by kcost %s and %s by kcost %s: merge the reports of one kcost version",
			    shown(&in[0]), first ? first : "(no kcost_version)", shown(&in[k]),
			    version ? version : "(no kcost_version)");
	}
	return 0;
}

/* The top-level values the merge reads, checked: an error names the input and the key. */
static int check_top(const struct kc_merge_input *in, char *err, size_t size)
{
	static const char *const arrays[] = {"diagnostics", "files"};
	for (int i = 0; i < 2; i++) {
		const cJSON *v = member(in->report, arrays[i]), *names = i ? v : NULL, *x;
		if (v && !cJSON_IsArray(v))
			return fail(err, size, "%s: \"%s\" is %s, not an array", shown(in), arrays[i], type_name(v));
		cJSON_ArrayForEach(x, names)
		{
			if (!cJSON_IsString(x))
				return fail(err, size, "%s: \"files\" holds %s, not a file name", shown(in),
				            type_name(x));
		}
	}
	static const char *const objects[] = {"machine", "sandbox"};
	for (int i = 0; i < 2; i++) {
		const cJSON *v = member(in->report, objects[i]);
		if (v && !cJSON_IsNull(v) && !cJSON_IsObject(v))
			return fail(err, size, "%s: \"%s\" is %s, not an object or null", shown(in), objects[i],
			            type_name(v));
	}
	return 0;
}

/* What identifies the machine a report's timings are from (merge.h). */
static const char *const machine_keys[] = {
    "cpu", "cores", "caches", "hypothetical", "from_file", "ceilings.flops", "ceilings.peak", "ceilings.measured_at",
};

/* The first of machine_keys where a and b differ, or NULL: the same machine. */
static const char *machine_difference(const cJSON *a, const cJSON *b)
{
	for (size_t k = 0; k < sizeof machine_keys / sizeof *machine_keys; k++) {
		const cJSON *x = at(a, machine_keys[k]), *y = at(b, machine_keys[k]);
		if (!x != !y || (x && !cJSON_Compare(x, y, 1)))
			return machine_keys[k];
	}
	return NULL;
}

/* " ('AMD EPYC 7763' and 'Intel Xeon')" when the values at key are strings, else "". */
static void quote_values(char *out, size_t size, const cJSON *a, const cJSON *b, const char *key)
{
	const char *x = str_at(a, key), *y = str_at(b, key);
	if (x && y)
		snprintf(out, size, ": '%.200s' and '%.200s'", x, y);
	else
		out[0] = '\0';
}

/* The machines: a conflict between two shards with timings is an error; the merged machine is the first timed
 * shard's, else the first shard's that has one; another that differs from it is a warning. */
static int merge_machines(struct kc_merge *m, char *err, size_t size)
{
	const struct shard *owner = NULL;
	for (int k = 0; k < m->n_shards; k++) {
		const struct shard *s = &m->shards[k];
		for (int j = 0; s->timed && s->machine && j < k; j++) {
			const struct shard *t = &m->shards[j];
			const char *key = t->timed && t->machine ? machine_difference(t->machine, s->machine) : NULL;
			char values[440];
			if (!key)
				continue;
			quote_values(values, sizeof values, t->machine, s->machine, key);
			return fail(
			    err, size,
			    "%s and %s hold timings from different machines (machine.%s%s): merge the timings of "
			    "one machine only",
			    shown(&t->in), shown(&s->in), key, values);
		}
		if (s->machine && (!owner || (s->timed && !owner->timed)))
			owner = s;
	}
	m->machine = owner ? owner->machine : NULL;
	for (int k = 0; owner && k < m->n_shards; k++) {
		const struct shard *s = &m->shards[k];
		const char *key = s->machine ? machine_difference(owner->machine, s->machine) : NULL;
		char values[440];
		if (!key)
			continue;
		quote_values(values, sizeof values, owner->machine, s->machine, key);
		warn(m,
		     "%s: its machine is not %s's (machine.%s%s), which the merged report names; it has no timings, "
		     "and its predictions are of its own machine",
		     shown(&s->in), shown(&owner->in), key, values);
	}
	return 0;
}

/* The sandbox: the shards' when they agree, else the first that was not used (the weaker claim), with a warning. */
static void merge_sandbox(struct kc_merge *m)
{
	const struct shard *first = NULL, *unused = NULL;
	int differ = 0;
	for (int k = 0; k < m->n_shards; k++) {
		const struct shard *s = &m->shards[k];
		if (!s->sandbox)
			continue;
		if (!first)
			first = s;
		else if (!cJSON_Compare(first->sandbox, s->sandbox, 1))
			differ = 1;
		if (!unused && !true_at(s->sandbox, "used"))
			unused = s;
	}
	m->sandbox = first ? first->sandbox : NULL;
	if (differ && unused) {
		m->sandbox = unused->sandbox;
		warn(m,
		     "the shards ran their kernels with different sandboxes: the merged report has %s's, which was not "
		     "used",
		     shown(&unused->in));
	} else if (differ) {
		warn(m, "the shards ran their kernels with different sandboxes: the merged report has %s's",
		     shown(&first->in));
	}
}

/* Each function of each shard, checked and indexed: the same (file, name) in two shards is a conflict. */
static int collect_functions(struct kc_merge *m, char *err, size_t size)
{
	int total = 0;
	for (int k = 0; k < m->n_shards; k++)
		total += cJSON_GetArraySize(member(m->shards[k].in.report, "functions"));
	struct table t;
	m->fns = calloc((size_t)(total ? total : 1), sizeof *m->fns);
	if (!m->fns || table_init(&t, total) < 0) {
		m->oom = 1;
		return -1;
	}
	int rc = 0;
	for (int k = 0; k < m->n_shards && rc == 0; k++) {
		struct shard *s = &m->shards[k];
		cJSON *f;
		int j = 0;
		s->first = m->n_fns;
		cJSON_ArrayForEach(f, member(s->in.report, "functions"))
		{
			const char *name = str_at(f, "name"), *file = str_at(f, "file");
			if (!cJSON_IsObject(f)) {
				rc = fail(err, size, "%s: functions[%d] is %s, not an object", shown(&s->in), j,
				          type_name(f));
				break;
			}
			if (!name || !file) {
				rc = fail(err, size, "%s: functions[%d] has no \"%s\" string", shown(&s->in), j,
				          name ? "file" : "name");
				break;
			}
			struct key *slot = table_slot(&t, file, name);
			if (slot->a && m->fns[slot->id].shard != k) {
				rc = fail(err, size, "function '%s' (%s) is in both %s and %s", name, file,
				          shown(&m->shards[m->fns[slot->id].shard].in), shown(&s->in));
				break;
			}
			if (!slot->a) /* listed twice in one shard: kept as the shard has it */
				*slot = (struct key){file, name, m->n_fns};
			const cJSON *measured = member(f, "measured");
			s->timed |= measured && !cJSON_IsNull(measured);
			m->fns[m->n_fns++] = (struct fn){.f = f, .shard = k, .name = name, .file = file};
			j++;
		}
		s->n = m->n_fns - s->first;
	}
	free(t.slots);
	return rc;
}

/* The file name after "graphs/" in a graph's path as kcost writes it, "graphs/LEAF" with a LEAF that is not
 * empty, holds no '/', does not start with '.' and ends in ext; else NULL. */
static const char *graph_leaf(const char *path, const char *ext)
{
	size_t n = path ? strlen(path) : 0, e = strlen(ext);
	if (n <= 7 + e || strncmp(path, "graphs/", 7) || strcmp(path + n - e, ext) || path[7] == '.' ||
	    strchr(path + 7, '/') || n - 7 > 250)
		return NULL;
	return path + 7;
}

/* Each function's graph under the merged report's name: graphs/NAME, or graphs/NAME-I when another merged
 * function has the same name (reporter/graphs.c names them so). */
static int plan_graphs(struct kc_merge *m)
{
	struct table t;
	if (table_init(&t, m->n_fns) < 0)
		return -1;
	for (int i = 0; i < m->n_fns; i++) {
		struct key *slot = table_slot(&t, m->fns[i].name, "");
		if (!slot->a)
			*slot = (struct key){m->fns[i].name, "", 0};
		slot->id++;
	}
	for (int i = 0; i < m->n_fns; i++) {
		struct fn *fn = &m->fns[i];
		int dup = table_slot(&t, fn->name, "")->id > 1;
		for (int g = 0; g < 2; g++) {
			const char *src = str_at(fn->f, g == SVG ? "dataflow.svg" : "dataflow.dot");
			if (!graph_leaf(src, graph_ext[g]))
				continue;
			struct kc_buf dst = KC_BUF_INIT;
			if (dup)
				kc_buf_printf(&dst, "graphs/%s-%d%s", fn->name, i, graph_ext[g]);
			else
				kc_buf_printf(&dst, "graphs/%s%s", fn->name, graph_ext[g]);
			if (graph_leaf(kc_buf_str(&dst), graph_ext[g])) {
				fn->graph_src[g] = src;
				fn->graph_dst[g] = kc_buf_detach(&dst);
				m->oom |= !fn->graph_dst[g];
			} else {
				warn(m,
				     "%s: function '%s' (%s): its graph %s is not copied: its name makes no file name",
				     shown(&m->shards[fn->shard].in), fn->name, fn->file, src);
			}
			kc_buf_release(&dst);
		}
	}
	free(t.slots);
	return 0;
}

/* The function as the merged report prints it: its shard's text, or (its graph renamed) a copy that says so. */
static void add_function(struct kc_merge *m, cJSON *arr, const struct fn *fn, const struct span *span)
{
	int renamed = 0;
	for (int g = 0; g < 2; g++)
		renamed |= fn->graph_dst[g] && strcmp(fn->graph_src[g], fn->graph_dst[g]);
	if (!renamed) {
		if (span)
			add(m, arr, NULL, raw_item(m, *span));
		else
			add_ref(m, arr, NULL, fn->f);
		return;
	}
	cJSON *copy = add(m, arr, NULL, cJSON_Duplicate(fn->f, 1));
	cJSON *dataflow = member(copy, "dataflow");
	for (int g = 0; dataflow && g < 2; g++) {
		cJSON *name = fn->graph_dst[g] ? cJSON_CreateString(fn->graph_dst[g]) : NULL;
		if (name && !cJSON_ReplaceItemInObjectCaseSensitive(dataflow, g == SVG ? "svg" : "dot", name)) {
			cJSON_Delete(name);
			m->oom = 1;
		}
	}
}

/* The shard's functions as its text has them, or NULL (then printed from the parse). malloc'd. */
static struct span *shard_spans(const struct shard *s)
{
	struct span *spans = s->in.text && s->n ? malloc(sizeof *spans * (size_t)s->n) : NULL;
	if (spans && function_spans(s->in.text, spans, s->n) < 0) {
		free(spans);
		spans = NULL;
	}
	return spans;
}

static void add_files(struct kc_merge *m, cJSON *root)
{
	cJSON *files = add(m, root, "files", cJSON_CreateArray()), *x;
	int n = 0;
	for (int k = 0; k < m->n_shards; k++)
		n += cJSON_GetArraySize(member(m->shards[k].in.report, "files"));
	struct table t;
	if (table_init(&t, n) < 0) {
		m->oom = 1;
		return;
	}
	for (int k = 0; k < m->n_shards; k++)
		cJSON_ArrayForEach(x, member(m->shards[k].in.report, "files"))
		{
			struct key *slot = table_slot(&t, x->valuestring, "");
			if (slot->a)
				continue; /* an input of two shards: once */
			*slot = (struct key){x->valuestring, "", 0};
			add(m, files, NULL, cJSON_CreateStringReference(x->valuestring));
		}
	free(t.slots);
}

static void add_merged_from(struct kc_merge *m, cJSON *root)
{
	cJSON *list = add(m, root, "merged_from", cJSON_CreateArray());
	for (int k = 0; k < m->n_shards; k++) {
		const struct shard *s = &m->shards[k];
		cJSON *o = add(m, list, NULL, cJSON_CreateObject());
		cJSON *created = member(s->in.report, "created"), *command = member(s->in.report, "command"),
		      *from = member(s->in.report, "merged_from");
		add(m, o, "path", cJSON_CreateString(s->in.name)); /* a path, even where it is shown by its label */
		if (cJSON_IsString(created))
			add_ref(m, o, "created", created);
		else
			add(m, o, "created", cJSON_CreateNull());
		if (cJSON_IsArray(command))
			add_ref(m, o, "command", command);
		add(m, o, "functions", cJSON_CreateNumber(s->n));
		if (cJSON_IsArray(from))
			add_ref(m, o, "merged_from", from);
	}
}

/* Keys the merge writes itself; any other of the first shard's is kept as it is. */
static int merged_key(const char *key)
{
	static const char *const keys[] = {"schema",  "kcost_version", "command",   "created",
	                                   "files",   "parse_failed",  "no_run",    "diagnostics",
	                                   "machine", "merged_from",   "functions", "sandbox"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static void build_document(struct kc_merge *m)
{
	cJSON *first = m->shards[0].in.report, *x;
	cJSON *root = m->doc = cJSON_CreateObject();
	m->oom |= !root;
	add(m, root, "schema", cJSON_CreateNumber(1));
	add_ref(m, root, "kcost_version", member(first, "kcost_version"));
	if (m->o.command)
		add(m, root, "command", cJSON_CreateStringArray(m->o.command, m->o.n_command));
	else
		add_ref(m, root, "command", member(first, "command"));
	add(m, root, "created", cJSON_CreateString(m->created));
	add_files(m, root);
	add(m, root, "parse_failed", cJSON_CreateBool(m->parse_failed));
	add(m, root, "no_run", cJSON_CreateBool(m->no_run));
	cJSON *diags = add(m, root, "diagnostics", cJSON_CreateArray());
	for (int k = 0; k < m->n_shards; k++)
		cJSON_ArrayForEach(x, member(m->shards[k].in.report, "diagnostics")) add_ref(m, diags, NULL, x);
	if (m->machine)
		add_ref(m, root, "machine", m->machine);
	else
		add(m, root, "machine", cJSON_CreateNull());
	if (m->sandbox)
		add_ref(m, root, "sandbox", m->sandbox);
	else
		add(m, root, "sandbox", cJSON_CreateNull());
	cJSON_ArrayForEach(x, first)
	{
		if (x->string && !merged_key(x->string) && !member(root, x->string))
			add_ref(m, root, x->string, x);
	}
	add_merged_from(m, root);
	cJSON *fns = add(m, root, "functions", cJSON_CreateArray());
	for (int k = 0; k < m->n_shards; k++) {
		const struct shard *s = &m->shards[k];
		struct span *spans = shard_spans(s);
		for (int i = 0; i < s->n; i++)
			add_function(m, fns, &m->fns[s->first + i], spans ? &spans[i] : NULL);
		free(spans);
	}
}

/* ---- kcost.sarif ----------------------------------------------------------------------------------------- */

/* The run of a SARIF log of kcost's: one run of the tool "kcost", with its rules and results; NULL with *why. */
static cJSON *sarif_run(const cJSON *log, const char **why)
{
	const cJSON *runs = member(log, "runs");
	cJSON *run = cJSON_GetArraySize(runs) == 1 ? cJSON_GetArrayItem(runs, 0) : NULL;
	if (!cJSON_IsObject(log) || !same_str(str_at(log, "version"), "2.1.0"))
		*why = "not a SARIF 2.1.0 log";
	else if (!cJSON_IsArray(runs) || !cJSON_IsObject(run))
		*why = "not a log of one run";
	else if (!same_str(str_at(run, "tool.driver.name"), "kcost"))
		*why = "not a log of kcost's";
	else if (!cJSON_IsArray(at(run, "tool.driver.rules")) || !cJSON_IsArray(member(run, "results")))
		*why = "a log without rules or results";
	else
		return run;
	return NULL;
}

/* One line of text, as kcost writes a message (reporter/escape.h, kc_escape_sarif_text). */
static int one_line(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* A result of one of the n rules whose ids are ids[n]: its ruleIndex names its ruleId, its message is one line. */
static int kcost_result(const cJSON *r, const char *const *ids, int n)
{
	double index;
	const char *id = str_at(r, "ruleId"), *text = str_at(r, "message.text");
	if (!cJSON_IsObject(r) || !num_at(r, "ruleIndex", &index) || index < 0 || index >= n || index != floor(index))
		return 0;
	return id && ids[(int)index] && !strcmp(id, ids[(int)index]) && text && one_line(text);
}

static const char *sarif_root(const cJSON *run)
{
	return str_at(run, "originalUriBaseIds.SRCROOT.uri");
}

/* The inputs' logs as one (merge.h). */
static void merge_sarif(struct kc_merge *m)
{
	cJSON *base = NULL, *run = NULL, *results = NULL;
	const cJSON *rules = NULL;
	const struct shard *first = NULL;
	const char **ids = NULL;
	int n_rules = 0;
	for (int k = 0; k < m->n_shards; k++) {
		const struct kc_merge_input *in = &m->shards[k].in;
		const char *why = NULL;
		cJSON *r = in->sarif ? sarif_run(in->sarif, &why) : NULL, *x;
		if (!in->sarif) {
			if (in->no_sarif)
				warn(m, "%s: no kcost.sarif (%s): its diagnostics are not in the merged kcost.sarif",
				     shown(in), in->no_sarif);
			continue;
		}
		if (r && rules && !cJSON_Compare(rules, at(r, "tool.driver.rules"), 1))
			why = "its rules are not those of the first log (another kcost?)", r = NULL;
		if (!r) {
			warn(m, "%s: kcost.sarif is %s: its results are left out of the merged kcost.sarif", shown(in),
			     why);
			continue;
		}
		if (!base) { /* the first log's: its tool, rules and run properties */
			first = &m->shards[k];
			rules = at(r, "tool.driver.rules");
			n_rules = cJSON_GetArraySize(rules);
			ids = calloc((size_t)n_rules + 1, sizeof *ids);
			m->oom |= !ids;
			for (int i = 0; ids && i < n_rules; i++)
				ids[i] = str_at(cJSON_GetArrayItem(rules, i), "id");
			base = m->sarif = cJSON_CreateObject();
			m->oom |= !base;
			add_ref(m, base, "$schema", member(in->sarif, "$schema"));
			add_ref(m, base, "version", member(in->sarif, "version"));
			run = add(m, add(m, base, "runs", cJSON_CreateArray()), NULL, cJSON_CreateObject());
			cJSON_ArrayForEach(x, r)
			{
				if (x->string && strcmp(x->string, "results"))
					add_ref(m, run, x->string, x);
			}
			results = add(m, run, "results", cJSON_CreateArray());
		}
		int dropped = 0;
		cJSON_ArrayForEach(x, member(r, "results"))
		{
			if (ids && kcost_result(x, ids, n_rules))
				add_ref(m, results, NULL, x);
			else
				dropped++;
		}
		if (dropped)
			warn(m, "%s: %d result%s of kcost.sarif %s not kcost's: left out of the merged kcost.sarif",
			     shown(in), dropped, dropped == 1 ? "" : "s", dropped == 1 ? "is" : "are");
		const char *root = sarif_root(r),
		           *base_root = sarif_root(cJSON_GetArrayItem(member(first->in.sarif, "runs"), 0));
		if (&m->shards[k] != first && !same_str(root, base_root))
			warn(m,
			     "%s: kcost.sarif's SRCROOT (%s) is not %s's (%s): its relative paths are read from the "
			     "first's",
			     shown(in), root ? root : "none", shown(&first->in), base_root ? base_root : "none");
	}
	free(ids);
	if (base)
		return;
	/* no log: one without results, of the shards' kcost */
	const char *version = str_at(m->shards[0].in.report, "kcost_version");
	struct kc_sarif *log = kc_sarif_open(version ? version : m->o.version);
	struct kc_buf text = KC_BUF_INIT;
	if (kc_sarif_close(log, &text) == 0)
		m->sarif = cJSON_Parse(kc_buf_str(&text));
	m->oom |= !m->sarif;
	kc_buf_release(&text);
}

/* ---- the merge ---------------------------------------------------------------------------------------------- */

int kc_merge_reports(const struct kc_merge_input *in, int n, const struct kc_merge_opts *o, struct kc_merge **out,
                     char *err, size_t err_size)
{
	*out = NULL;
	for (int k = 0; k < n; k++)
		if (kc_diff_check_report(in[k].report, shown(&in[k]), err, err_size) < 0 ||
		    check_top(&in[k], err, err_size) < 0)
			return -1;
	if (n < 1)
		return fail(err, err_size, "no report to merge");
	if (check_version(in, n, err, err_size) < 0)
		return -1;
	struct kc_merge *m = calloc(1, sizeof *m);
	if (!m || !(m->shards = calloc((size_t)n, sizeof *m->shards))) {
		free(m);
		return -2;
	}
	m->o = *o;
	m->n_shards = n;
	kc_output_created(o->created, m->created, sizeof m->created);
	m->no_run = 1;
	for (int k = 0; k < n; k++) {
		struct shard *s = &m->shards[k];
		cJSON *machine = member(in[k].report, "machine"), *sandbox = member(in[k].report, "sandbox");
		s->in = in[k];
		s->machine = cJSON_IsObject(machine) ? machine : NULL;
		s->sandbox = cJSON_IsObject(sandbox) ? sandbox : NULL;
		m->no_run &= true_at(in[k].report, "no_run");
		m->parse_failed |= true_at(in[k].report, "parse_failed");
	}
	int rc = collect_functions(m, err, err_size);
	if (rc == 0)
		rc = merge_machines(m, err, err_size);
	if (rc == 0) {
		merge_sandbox(m);
		m->oom |= plan_graphs(m) < 0;
		build_document(m);
		merge_sarif(m);
	}
	if (m->oom) {
		rc = -2;
		snprintf(err, err_size, "out of memory");
	}
	if (rc < 0) {
		kc_merge_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

/* ---- what every output shows ------------------------------------------------------------------------ */

/* The diagnostics of list by severity: n[0] errors, n[1] warnings, n[2] notes. */
static void count_diags(const cJSON *list, int n[3])
{
	const cJSON *d, *array = cJSON_IsArray(list) ? list : NULL;
	cJSON_ArrayForEach(d, array)
	{
		const char *severity = str_at(d, "severity");
		n[0] += same_str(severity, "error");
		n[1] += same_str(severity, "warning");
		n[2] += same_str(severity, "note");
	}
}

/* Timed without an error: its median is a time. */
static int timed(const cJSON *f, double *median)
{
	const cJSON *me = at(f, "measured");
	return me && !str_at(me, "error") && num_at(me, "seconds.median", median) && *median > 0;
}

struct tally {
	int functions, exact, measured, diags[3];
};

/* The functions of shard k (all shards when k < 0) and their diagnostics, with the files'. */
static struct tally tally_of(const struct kc_merge *m, int k)
{
	struct tally t = {0};
	for (int j = 0; j < m->n_shards; j++)
		if (k < 0 || j == k)
			count_diags(member(m->shards[j].in.report, "diagnostics"), t.diags);
	for (int i = 0; i < m->n_fns; i++) {
		const cJSON *f = m->fns[i].f;
		double median;
		if (k >= 0 && m->fns[i].shard != k)
			continue;
		t.functions++;
		t.exact += true_at(f, "exact");
		t.measured += timed(f, &median);
		count_diags(member(f, "diagnostics"), t.diags);
	}
	return t;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* "exact", "approx", "traffic approx: 2 warnings": kc_format_exactness's words, from a report's function. */
static void exactness(struct kc_buf *b, const cJSON *f)
{
	int n[3] = {0, 0, 0};
	count_diags(member(f, "diagnostics"), n);
	const char *what = true_at(f, "exact_ops")     ? "traffic approx"
	                   : true_at(f, "exact_flops") ? "FLOPs exact"
	                                               : "approx";
	if (true_at(f, "exact"))
		kc_buf_puts(b, "exact");
	else if (n[0] + n[1] == 0)
		kc_buf_puts(b, what);
	else
		kc_buf_printf(b, "%s: %d warning%s", what, n[0] + n[1], plural(n[0] + n[1]));
}

/* Where a function stands against the baseline: 0 a regression, 1 an improvement, 2 another change, -1 none. */
static int baseline_group(const cJSON *bl)
{
	const char *verdict = str_at(bl, "verdict"), *change = str_at(bl, "change");
	if (true_at(bl, "regressed") || same_str(verdict, "slower"))
		return 0;
	if (same_str(verdict, "faster"))
		return 1;
	if (same_str(verdict, "inconclusive") || same_str(change, "changed") || same_str(change, "added"))
		return 2;
	return -1;
}

/* "slower, 1.23x the baseline's time (95% interval 1.1–1.35, p = 0.0012)", its words escaped by esc. */
static void baseline_verdict(struct kc_buf *b, const cJSON *bl, void (*esc)(struct kc_buf *, const char *))
{
	const char *verdict = str_at(bl, "verdict"), *change = str_at(bl, "change");
	double ratio, lo, hi, p;
	int timed_verdict =
	    same_str(verdict, "slower") || same_str(verdict, "faster") || same_str(verdict, "inconclusive");
	if (same_str(change, "added")) {
		kc_buf_puts(b, "added, not at the baseline");
		return;
	}
	if (same_str(change, "changed") && !timed_verdict) {
		kc_buf_puts(b, "changed");
		if (verdict) {
			kc_buf_puts(b, " (time: ");
			esc(b, verdict);
			kc_buf_puts(b, ")");
		}
	} else {
		esc(b, verdict ? verdict : change ? change : "no verdict");
	}
	if (num_at(bl, "ratio", &ratio))
		kc_buf_printf(b, ", %.3gx the baseline's time", ratio);
	int interval = num_at(bl, "ci_low", &lo) && num_at(bl, "ci_high", &hi), has_p = num_at(bl, "p_value", &p);
	if (interval)
		kc_buf_printf(b, " (95%% interval %.3g\xe2\x80\x93%.3g", lo, hi);
	if (has_p)
		kc_buf_printf(b, "%sp = %.2g", interval ? ", " : " (", p);
	if (interval || has_p)
		kc_buf_putc(b, ')');
}

/* ---- the outputs ------------------------------------------------------------------------------------------ */

static void render_text(const struct kc_merge *m, struct kc_buf *b)
{
	for (int k = 0; k < m->n_shards; k++) {
		struct tally t = tally_of(m, k);
		kc_visible_puts(b, shown(&m->shards[k].in));
		kc_buf_printf(b, ": %d function%s (%d exact), ", t.functions, plural(t.functions), t.exact);
		if (t.measured)
			kc_buf_printf(b, "%d measured", t.measured);
		else
			kc_buf_puts(b, "not measured");
		kc_buf_printf(b, ", %d error%s, %d warning%s", t.diags[0], plural(t.diags[0]), t.diags[1],
		              plural(t.diags[1]));
		const char *created = str_at(m->shards[k].in.report, "created");
		if (created) {
			kc_buf_puts(b, "; created ");
			kc_visible_puts(b, created);
		}
		kc_buf_putc(b, '\n');
	}
	struct tally t = tally_of(m, -1);
	kc_buf_printf(b, "merged: %d function%s from %d report%s (%d exact), %d error%s, %d warning%s; report: ",
	              t.functions, plural(t.functions), m->n_shards, plural(m->n_shards), t.exact, t.diags[0],
	              plural(t.diags[0]), t.diags[1], plural(t.diags[1]));
	kc_visible_puts(b, m->o.out_dir ? m->o.out_dir : "kcost-report");
	kc_buf_puts(b, "/index.html\n");
}

static int render_json(const cJSON *doc, struct kc_buf *b)
{
	char *text = doc ? cJSON_Print(doc) : NULL;
	if (!text)
		return -1;
	kc_buf_puts(b, text);
	kc_buf_putc(b, '\n');
	cJSON_free(text);
	return 0;
}

/* ---- summary.md ---- */

/* "Measured on AMD EPYC 7763 (2 cores)." and the like, or "Static analysis only — not measured.", the reports'
 * text escaped by esc; "hypothetical" in bold when md. */
static void machine_words(const struct kc_merge *m, struct kc_buf *b, void (*esc)(struct kc_buf *, const char *),
                          int md)
{
	const cJSON *mc = m->machine;
	const char *cpu = str_at(mc, "cpu"), *file = str_at(mc, "from_file");
	double cores;
	int n_timed = 0;
	for (int k = 0; k < m->n_shards; k++)
		n_timed += m->shards[k].timed;
	if (!mc) {
		kc_buf_puts(b, "Static analysis only \xe2\x80\x94 not measured.");
		return;
	}
	if (true_at(mc, "hypothetical")) {
		kc_buf_puts(b, md ? "Roofs of a **hypothetical** machine (" : "Roofs of a hypothetical machine (");
		esc(b, cpu ? cpu : "an unknown CPU");
		kc_buf_puts(b, "; --peak, --bandwidth): budgets, not measurements.");
	} else if (file) {
		kc_buf_puts(b, "Roofs of another machine, ");
		esc(b, cpu ? cpu : "an unknown CPU");
		kc_buf_puts(b, " (--machine ");
		esc(b, file);
		kc_buf_puts(b, ").");
	} else {
		kc_buf_puts(b, "Measured on ");
		esc(b, cpu ? cpu : "an unknown CPU");
		if (num_at(mc, "cores", &cores))
			kc_buf_printf(b, " (%.0f cores)", cores);
		kc_buf_putc(b, '.');
	}
	if (n_timed < m->n_shards)
		kc_buf_printf(b, " Kernels were timed in %d of the %d shards.", n_timed, m->n_shards);
}

static void md_intro(const struct kc_merge *m, struct kc_buf *b)
{
	kc_buf_printf(b, "## kcost report (merged from %d shard%s)\n\nMerged from ", m->n_shards, plural(m->n_shards));
	size_t list = b->len;
	for (int k = 0; k < m->n_shards; k++) {
		if (b->len - list > 4000) { /* the comment is for the functions */
			kc_buf_printf(b, " and %d more", m->n_shards - k);
			break;
		}
		kc_buf_puts(b, k ? ", " : "");
		kc_escape_md_code(b, shown(&m->shards[k].in));
		kc_buf_printf(b, " (%d function%s)", m->shards[k].n, plural(m->shards[k].n));
	}
	kc_buf_puts(b, ". ");
	machine_words(m, b, kc_escape_md_inline, 1);
	kc_buf_puts(b, " Bytes are the *streaming* model (each loop nest moves what it touches).\n");
}

static void md_baseline_row(struct kc_buf *b, const struct fn *fn, const cJSON *bl)
{
	const char *flops = str_at(fn->f, "flops.expr");
	kc_buf_puts(b, "- **");
	kc_escape_md_inline(b, fn->name);
	kc_buf_puts(b, "** (");
	kc_escape_md_inline(b, fn->file);
	kc_buf_puts(b, "): ");
	baseline_verdict(b, bl, kc_escape_md_inline);
	kc_buf_puts(b, "; FLOPs ");
	if (flops)
		kc_escape_md_code(b, flops);
	else
		kc_buf_puts(b, "n/a");
	if (true_at(bl, "regressed"))
		kc_buf_puts(b, " \xe2\x80\x94 **regression beyond --fail-on-regression**");
	kc_buf_putc(b, '\n');
}

/* The functions against the baseline (merge.h), within KC_DIFF_MD_MAX bytes of the comment's start. */
static void md_baseline(const struct kc_merge *m, struct kc_buf *b, size_t start)
{
	int changed = 0, shown = 0, cut = 0, without = 0, n_revisions = 0, more = 0;
	const char *revisions[3];
	for (int i = 0; i < m->n_fns; i++) {
		const cJSON *bl = at(m->fns[i].f, "baseline");
		const char *rev = str_at(bl, "revision");
		int r = 0;
		without += !cJSON_IsObject(bl);
		changed += cJSON_IsObject(bl) && baseline_group(bl) >= 0;
		while (rev && r < n_revisions && strcmp(revisions[r], rev))
			r++;
		if (rev && r == n_revisions && r < 3)
			revisions[n_revisions++] = rev;
		more |= rev && r == 3;
	}
	kc_buf_puts(b, "\n### Against the baseline\n\n");
	for (int r = 0; r < n_revisions; r++) {
		char rev[13]; /* a commit's first 12 digits, as --baseline names it */
		snprintf(rev, sizeof rev, "%s", revisions[r]);
		kc_buf_puts(b, r ? ", " : "Each function against itself at ");
		kc_escape_md_code(b, rev);
	}
	kc_buf_puts(b, more ? " and others" : "");
	kc_buf_puts(b, n_revisions ? ".\n\n" : "");
	for (int g = 0; g < 3; g++)
		for (int i = 0; i < m->n_fns && !cut; i++) {
			const cJSON *bl = at(m->fns[i].f, "baseline");
			if (!cJSON_IsObject(bl) || baseline_group(bl) != g)
				continue;
			size_t before = b->len;
			md_baseline_row(b, &m->fns[i], bl);
			if (b->len - start > KC_DIFF_MD_MAX) { /* the rest is in report.json */
				b->len = before;
				b->data[before] = '\0';
				cut = 1;
			}
			shown += !cut;
		}
	if (cut)
		kc_buf_printf(
		    b,
		    "\n\xe2\x80\xa6 and %d more changed function%s: each function's `baseline` in report.json "
		    "has its verdict\n",
		    changed - shown, plural(changed - shown));
	int unchanged = m->n_fns - without - changed;
	kc_buf_printf(b, "%s%d function%s unchanged\n", changed ? "\n" : "", unchanged, plural(unchanged));
	if (without)
		kc_buf_printf(b, "%d function%s without a comparison with the baseline\n", without, plural(without));
}

/* ---- the cells of both tables: summary.md's and index.html's ---- */

/* How a table writes its cells: how text is escaped, and how what is missing is shown. */
struct dialect {
	void (*text)(struct kc_buf *b, const char *s);  /* a name, a bound, a reason */
	void (*error)(struct kc_buf *b, const char *s); /* a measurement's error */
	void (*code)(struct kc_buf *b, const char *s);  /* a formula */
	const char *muted_open, *muted_close;           /* around "n/a" and its reason */
	const char *not_measured;
};

static void html_code(struct kc_buf *b, const char *s)
{
	kc_buf_puts(b, "<code>");
	kc_escape_html(b, s);
	kc_buf_puts(b, "</code>");
}

/* summary.md: kc_markdown_error drops a kernel's stderr from the comment */
static const struct dialect md_cells = {
    .text = kc_escape_md_cell,
    .error = kc_markdown_error,
    .code = kc_escape_md_code,
    .muted_open = "",
    .muted_close = "",
    .not_measured = "not measured",
};
static const struct dialect html_cells = {
    .text = kc_escape_html,
    .error = kc_escape_html,
    .code = html_code,
    .muted_open = "<span class=\"muted\">",
    .muted_close = "</span>",
    .not_measured = "<span class=\"not-measured\">not measured</span>",
};

/* "FORMULA = VALUE UNIT" of a count ({expr, value}) */
static void cell_count(const struct dialect *d, struct kc_buf *b, const cJSON *count, const char *unit)
{
	const char *expr = str_at(count, "expr");
	double v;
	if (!expr) {
		kc_buf_printf(b, "%sn/a%s", d->muted_open, d->muted_close);
		return;
	}
	d->code(b, expr);
	kc_buf_puts(b, " = ");
	if (num_at(count, "value", &v))
		kc_format_si(b, v, unit);
	else
		kc_buf_puts(b, "n/a");
}

/* The measured median, or why there is none */
static void cell_measured(const struct dialect *d, struct kc_buf *b, const cJSON *f)
{
	const cJSON *me = at(f, "measured");
	const char *error = str_at(me, "error"), *implausible = str_at(me, "implausible");
	double median;
	if (!me) {
		kc_buf_puts(b, d->not_measured);
	} else if (error) {
		kc_buf_puts(b, "failed: ");
		d->error(b, error);
	} else if (implausible) {
		kc_buf_puts(b, "not a fact: ");
		d->text(b, implausible);
	} else if (timed(f, &median)) {
		kc_format_seconds(b, median);
		kc_buf_puts(b, " median");
	} else {
		kc_buf_puts(b, "no timing");
	}
}

/* The predicted time and its bound, or why there is none */
static void cell_predicted(const struct dialect *d, struct kc_buf *b, const cJSON *f)
{
	const cJSON *pr = at(f, "predicted");
	const char *bound = str_at(pr, "bound"), *why = str_at(pr, "why");
	double seconds;
	if (num_at(pr, "seconds", &seconds)) {
		kc_format_seconds(b, seconds);
		kc_buf_puts(b, ", bound: ");
		d->text(b, bound ? bound : "n/a");
		return;
	}
	kc_buf_printf(b, "%sn/a", d->muted_open);
	if (why) {
		kc_buf_puts(b, ": ");
		d->text(b, why);
	}
	kc_buf_puts(b, d->muted_close);
}

/* Which optional columns the tables have: measured and predicted, when any function has one. */
static void columns(const struct kc_merge *m, int *measured, int *predicted, int *baseline)
{
	*measured = *predicted = *baseline = 0;
	for (int i = 0; i < m->n_fns; i++) {
		*measured |= at(m->fns[i].f, "measured") != NULL;
		*predicted |= cJSON_IsObject(at(m->fns[i].f, "predicted"));
		*baseline |= cJSON_IsObject(at(m->fns[i].f, "baseline"));
	}
}

static void md_table(const struct kc_merge *m, struct kc_buf *b, size_t start)
{
	int measured, predicted, baseline, shown = 0;
	columns(m, &measured, &predicted, &baseline);
	kc_buf_puts(b, "\n### Functions\n\n| function | file | FLOPs | bytes (streaming) | exact |");
	kc_buf_puts(b, measured ? " measured |" : "");
	kc_buf_puts(b, predicted ? " predicted |\n" : "\n");
	kc_buf_puts(b, "| :-- | :-- | --: | --: | :-- |");
	kc_buf_puts(b, measured ? " :-- |" : "");
	kc_buf_puts(b, predicted ? " :-- |\n" : "\n");
	for (; shown < m->n_fns; shown++) {
		const cJSON *f = m->fns[shown].f;
		size_t before = b->len;
		kc_buf_puts(b, "| ");
		kc_escape_md_cell(b, m->fns[shown].name);
		kc_buf_puts(b, " | ");
		kc_escape_md_cell(b, m->fns[shown].file);
		kc_buf_puts(b, " | ");
		cell_count(&md_cells, b, at(f, "flops"), "FLOP");
		kc_buf_puts(b, " | ");
		cell_count(&md_cells, b, at(f, "bytes.streaming"), "B");
		kc_buf_puts(b, " | ");
		exactness(b, f);
		if (measured) {
			kc_buf_puts(b, " | ");
			cell_measured(&md_cells, b, f);
		}
		if (predicted) {
			kc_buf_puts(b, " | ");
			cell_predicted(&md_cells, b, f);
		}
		kc_buf_puts(b, " |\n");
		if (b->len - start > KC_MERGE_MD_MAX - 1024) { /* room for the lines below */
			b->len = before;
			b->data[before] = '\0';
			break;
		}
	}
	if (shown < m->n_fns)
		kc_buf_printf(
		    b, "\n\xe2\x80\xa6 and %d more function%s: the full table is in report.json and index.html\n",
		    m->n_fns - shown, plural(m->n_fns - shown));
}

/* At most KC_MERGE_MD_MAX bytes of what was appended since start, cut after a whole line (a CPU's name in the
 * intro is the reports' text, of any length). */
static void md_cap(struct kc_buf *b, size_t start)
{
	static const char note[] = "\n_Cut to fit one comment: report.json and index.html have everything._\n";
	if (b->len - start <= KC_MERGE_MD_MAX)
		return;
	size_t cut = start + KC_MERGE_MD_MAX - (sizeof note - 1);
	while (cut > start && b->data[cut - 1] != '\n')
		cut--;
	b->len = cut;
	b->data[cut] = '\0';
	kc_buf_puts(b, note);
}

static void render_md(const struct kc_merge *m, struct kc_buf *b)
{
	size_t start = b->len;
	int measured, predicted, baseline;
	columns(m, &measured, &predicted, &baseline);
	md_intro(m, b);
	if (baseline)
		md_baseline(m, b, start);
	md_table(m, b, start);
	struct tally t = tally_of(m, -1);
	if (t.diags[0] + t.diags[1] + t.diags[2])
		kc_buf_printf(
		    b, "\nDiagnostics: %d error%s, %d warning%s, %d note%s (report.json and kcost.sarif list them).\n",
		    t.diags[0], plural(t.diags[0]), t.diags[1], plural(t.diags[1]), t.diags[2], plural(t.diags[2]));
	md_cap(b, start);
}

/* ---- index.html ---- */

static void html_shards(const struct kc_merge *m, struct kc_buf *b)
{
	kc_buf_puts(b, "<section id=\"shards\">\n<h2>Shards</h2>\n<table class=\"summary\">\n<thead><tr><th>#</th>"
	               "<th>report</th><th>created</th><th class=\"num\">functions</th><th>its own page</th></tr>"
	               "</thead>\n<tbody>\n");
	for (int k = 0; k < m->n_shards; k++) {
		const struct shard *s = &m->shards[k];
		const char *created = str_at(s->in.report, "created");
		kc_buf_printf(b, "<tr><td class=\"num\">%d</td><td><code>", k + 1);
		kc_escape_html(b, shown(&s->in));
		kc_buf_puts(b, "</code></td><td>");
		kc_escape_html(b, created ? created : "");
		kc_buf_printf(b, "</td><td class=\"num\">%d</td><td>", s->n);
		if (s->page)
			kc_buf_printf(b, "<a href=\"shards/%d.html\">shards/%d.html</a>", k + 1, k + 1);
		else
			kc_buf_puts(b, "<span class=\"muted\">none copied</span>");
		kc_buf_puts(b, "</td></tr>\n");
	}
	kc_buf_puts(b, "</tbody>\n</table>\n</section>\n");
}

static void html_function(const struct kc_merge *m, struct kc_buf *b, int i, int measured, int predicted, int baseline)
{
	const struct fn *fn = &m->fns[i];
	const cJSON *f = fn->f;
	kc_buf_printf(b, "<tr><td class=\"num\">%d</td><td>", i + 1);
	if (m->shards[fn->shard].page) {
		kc_buf_printf(b, "<a href=\"shards/%d.html#", fn->shard + 1);
		kc_html_fn_id(b, fn->name);
		kc_buf_puts(b, "\">");
		kc_escape_html(b, fn->name);
		kc_buf_puts(b, "</a>");
	} else {
		kc_escape_html(b, fn->name);
	}
	kc_buf_puts(b, "</td><td><code>");
	kc_escape_html(b, fn->file);
	kc_buf_printf(b, "</code></td><td class=\"num\">%d</td><td class=\"num\">", fn->shard + 1);
	cell_count(&html_cells, b, at(f, "flops"), "FLOP");
	kc_buf_puts(b, "</td><td class=\"num\">");
	cell_count(&html_cells, b, at(f, "bytes.streaming"), "B");
	kc_buf_printf(b, "</td><td><span class=\"%s\">", true_at(f, "exact") ? "exact" : "approx");
	exactness(b, f);
	kc_buf_puts(b, "</span></td>");
	if (measured) {
		kc_buf_puts(b, "<td>");
		cell_measured(&html_cells, b, f);
		kc_buf_puts(b, "</td>");
	}
	if (predicted) {
		kc_buf_puts(b, "<td>");
		cell_predicted(&html_cells, b, f);
		kc_buf_puts(b, "</td>");
	}
	if (baseline) {
		const cJSON *bl = at(f, "baseline");
		kc_buf_puts(b, "<td>");
		if (cJSON_IsObject(bl))
			baseline_verdict(b, bl, kc_escape_html);
		else
			kc_buf_puts(b, "<span class=\"muted\">not compared</span>");
		kc_buf_puts(b, true_at(bl, "regressed") ? " <strong>(regression)</strong></td>" : "</td>");
	}
	kc_buf_puts(b, "</tr>\n");
}

static void render_html(const struct kc_merge *m, struct kc_buf *b)
{
	int measured, predicted, baseline;
	columns(m, &measured, &predicted, &baseline);
	kc_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
	               "'unsafe-inline'\">\n<meta name=\"generator\" content=\"kcost ");
	kc_escape_html(b, m->o.version ? m->o.version : "unknown");
	kc_buf_printf(b,
	              "\">\n<meta name=\"color-scheme\" content=\"light\">\n<title>kcost report: merged from %d "
	              "shard%s</title>\n<style>\n",
	              m->n_shards, plural(m->n_shards));
	kc_buf_add(b, (const char *)kc_tpl_report_css, kc_tpl_report_css_len);
	kc_buf_printf(b,
	              "</style>\n</head>\n<body>\n<header>\n<h1>kcost report, merged from %d shard%s</h1>\n"
	              "<p class=\"meta\">",
	              m->n_shards, plural(m->n_shards));
	kc_escape_html(b, m->created);
	kc_buf_puts(b, " \xc2\xb7 ");
	machine_words(m, b, kc_escape_html, 0);
	kc_buf_puts(b, "</p>\n</header>\n<main>\n");
	html_shards(m, b);
	kc_buf_puts(b, "<section id=\"functions\">\n<h2>Functions</h2>\n<div class=\"table-wrap\">\n<table "
	               "class=\"summary\">\n<thead><tr><th>#</th><th>function</th><th>file</th><th class=\"num\">shard"
	               "</th><th>FLOPs</th><th>bytes (streaming)</th><th>exact</th>");
	kc_buf_puts(b, measured ? "<th>measured</th>" : "");
	kc_buf_puts(b, predicted ? "<th>predicted</th>" : "");
	kc_buf_puts(b, baseline ? "<th>against the baseline</th>" : "");
	kc_buf_puts(b, "</tr></thead>\n<tbody>\n");
	for (int i = 0; i < m->n_fns; i++)
		html_function(m, b, i, measured, predicted, baseline);
	kc_buf_puts(b, "</tbody>\n</table>\n</div>\n</section>\n</main>\n<footer>\n<p class=\"muted\">Each shard's "
	               "own page (shards/N.html) is the index.html its kcost run wrote, copied as it was. report.json "
	               "holds every figure of every function, kcost.sarif the diagnostics, summary.md the comment."
	               "</p>\n</footer>\n</body>\n</html>\n");
}

int kc_merge_render(struct kc_merge *m, enum kc_merge_output what, struct kc_buf *b)
{
	switch (what) {
	case KC_MERGE_TEXT:
		render_text(m, b);
		return 0;
	case KC_MERGE_JSON:
		return render_json(m->doc, b);
	case KC_MERGE_MD:
		render_md(m, b);
		return 0;
	case KC_MERGE_SARIF:
		return render_json(m->sarif, b);
	case KC_MERGE_HTML:
		render_html(m, b);
		return 0;
	}
	return -1;
}

/* ---- the report's directory ------------------------------------------------------------------------------- */

/* The regular file rel ("index.html", "graphs/gelu.svg") below dir, appended to out, no component followed
 * when it is a symbolic link. NULL, or why it cannot be read. */
static const char *read_below(const char *dir, const char *rel, struct kc_buf *out)
{
	int at_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1;
	const char *slash = strchr(rel, '/');
	if (at_fd >= 0 && slash) {
		char sub[16];
		size_t n = (size_t)(slash - rel);
		int parent = at_fd;
		snprintf(sub, sizeof sub, "%.*s", (int)n, rel);
		at_fd = n < sizeof sub ? openat(parent, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		close(parent);
		rel = slash + 1;
	}
	if (at_fd >= 0) {
		fd = openat(at_fd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		close(at_fd);
	}
	if (fd < 0)
		return errno == ELOOP ? "a symbolic link" : strerror(errno);
	struct stat st;
	const char *why = fstat(fd, &st) < 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "not a regular file" : NULL;
	for (ssize_t n = 1; !why && n > 0;) {
		kc_buf_reserve(out, out->len + 65536 + 1);
		n = read(fd, out->data + out->len, out->cap - out->len - 1);
		if (n < 0 && errno != EINTR)
			why = strerror(errno);
		out->len += n > 0 ? (size_t)n : 0;
		out->data[out->len] = '\0';
		n = n < 0 && errno == EINTR ? 1 : n;
	}
	close(fd);
	return why;
}

static int render_buf(struct kc_output_sink *s, void *text)
{
	const struct kc_buf *t = text;
	kc_buf_add(s->b, t->data ? t->data : "", t->len);
	return 0;
}

struct job {
	struct kc_merge *m;
	enum kc_merge_output what;
};

static int render_file(struct kc_output_sink *s, void *ctx)
{
	struct job *j = ctx;
	return kc_merge_render(j->m, j->what, s->b);
}

static int compare_leaves(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct leaves {
	const char **leaf; /* sorted */
	int n;
};

static int keep_leaf(void *ctx, const char *leaf)
{
	const struct leaves *l = ctx;
	return bsearch(&leaf, l->leaf, (size_t)l->n, sizeof *l->leaf, compare_leaves) != NULL;
}

/* Each input's index.html as shards/<k + 1>.html; earlier ones this merge does not write are removed. */
static int copy_pages(struct kc_merge *m, struct kc_output_dir *d)
{
	char(*names)[32] = calloc((size_t)m->n_shards + 1, sizeof *names);
	struct leaves keep = {calloc((size_t)m->n_shards + 1, sizeof *keep.leaf), 0};
	int rc = names && keep.leaf ? kc_output_dir_sub(d, KC_OUTPUT_SHARDS) : -1;
	for (int k = 0; rc == 0 && k < m->n_shards; k++) {
		const struct kc_merge_input *in = &m->shards[k].in;
		struct kc_buf page = KC_BUF_INIT;
		const char *why = in->dir ? read_below(in->dir, "index.html", &page) : NULL;
		if (why)
			warn(m, "%s: its index.html cannot be read (%s): the merged page does not link to it",
			     shown(in), why);
		if (in->dir && !why) {
			snprintf(names[k], sizeof names[k], "shards/%d.html", k + 1);
			rc = kc_output_dir_write(d, names[k], render_buf, &page);
			m->shards[k].page = rc == 0;
			keep.leaf[keep.n++] = names[k] + 7;
		}
		kc_buf_release(&page);
	}
	if (rc == 0) {
		qsort(keep.leaf, (size_t)keep.n, sizeof *keep.leaf, compare_leaves);
		rc = kc_output_dir_prune(d, KC_OUTPUT_SHARDS, keep_leaf, &keep);
	}
	if (!names || !keep.leaf) {
		d->internal = 1;
		snprintf(d->error, sizeof d->error, "out of memory");
	}
	free(names);
	free(keep.leaf);
	return rc;
}

/* Each function's graph files, from its shard's graphs/ to the merged report's names; others removed. */
static int copy_graphs(struct kc_merge *m, struct kc_output_dir *d)
{
	struct leaves keep = {calloc(2 * (size_t)m->n_fns + 1, sizeof *keep.leaf), 0};
	int rc = keep.leaf ? kc_output_dir_graphs(d) : -1;
	for (int i = 0; rc == 0 && i < m->n_fns; i++) {
		const struct fn *fn = &m->fns[i];
		const char *dir = m->shards[fn->shard].in.dir;
		for (int g = 0; rc == 0 && dir && g < 2; g++) {
			struct kc_buf text = KC_BUF_INIT;
			const char *why = fn->graph_dst[g] ? read_below(dir, fn->graph_src[g], &text) : NULL;
			if (why)
				warn(m, "%s: %s cannot be read (%s): not copied", shown(&m->shards[fn->shard].in),
				     fn->graph_src[g], why);
			if (fn->graph_dst[g] && !why) {
				rc = kc_output_dir_write(d, fn->graph_dst[g], render_buf, &text);
				keep.leaf[keep.n++] = fn->graph_dst[g] + 7;
			}
			kc_buf_release(&text);
		}
	}
	if (rc == 0) {
		qsort(keep.leaf, (size_t)keep.n, sizeof *keep.leaf, compare_leaves);
		rc = kc_output_dir_prune_graphs(d, keep_leaf, &keep);
	}
	if (!keep.leaf) {
		d->internal = 1;
		snprintf(d->error, sizeof d->error, "out of memory");
	}
	free(keep.leaf);
	return rc;
}

static char error_text[sizeof((struct kc_output_dir *)0)->error];

int kc_merge_write(struct kc_merge *m, const char *dir, const char **err)
{
	static const struct {
		const char *name;
		enum kc_merge_output what;
	} files[] = {{"report.json", KC_MERGE_JSON},
	             {"index.html", KC_MERGE_HTML},
	             {"summary.md", KC_MERGE_MD},
	             {"kcost.sarif", KC_MERGE_SARIF}};
	struct kc_output_dir d;
	int rc = kc_output_dir_open(&d, dir);
	if (rc == 0)
		rc = copy_pages(m, &d); /* before index.html, which links to them */
	if (rc == 0)
		rc = copy_graphs(m, &d);
	for (size_t i = 0; rc == 0 && i < sizeof files / sizeof *files; i++) {
		struct job j = {m, files[i].what};
		rc = kc_output_dir_write(&d, files[i].name, render_file, &j);
	}
	if (rc == 0)
		rc = kc_output_dir_remove(&d, "roofline.svg"); /* an earlier report's: the merge draws none */
	kc_output_dir_close(&d);
	if (rc == 0)
		return 0;
	snprintf(error_text, sizeof error_text, "%s", d.error);
	*err = error_text;
	return d.internal ? -2 : -1;
}

void kc_merge_render_problems(const struct kc_merge *m, struct kc_buf *b)
{
	for (int i = 0; i < m->n_problems; i++) {
		kc_buf_puts(b, "kcost merge: warning: ");
		kc_visible_puts(b, m->problems[i]);
		kc_buf_putc(b, '\n');
	}
}

void kc_merge_free(struct kc_merge *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n_fns; i++) {
		free(m->fns[i].graph_dst[0]);
		free(m->fns[i].graph_dst[1]);
	}
	for (int i = 0; i < m->n_problems; i++)
		free(m->problems[i]);
	cJSON_Delete(m->doc);
	cJSON_Delete(m->sarif);
	free(m->problems);
	free(m->fns);
	free(m->shards);
	free(m);
}

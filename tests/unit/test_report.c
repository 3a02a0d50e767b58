/* test_report.c — the reporter on a hand-built analysis: JSON values, escaping in HTML/Markdown/SVG/terminals,
 * the terminal table, the Markdown cap, numbers and units, the walk through two threads' pieces and writing the
 * report directory. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "figures.h"
#include <cjson/cJSON.h>

#include "escape.h"
#include "format.h"
#include "json.h"
#include "output.h"
#include "report.h"
#include "sarif.h"
#include "source.h"
#include "visible.h"

#define NASTY "<script>alert(\"x\")</script> & 'q' | pipe\nnewline"

static const char *const source_text = "/* k.c */\n"
                                       "void f(int n, const float x[n], float y[n])\n"
                                       "{\n"
                                       "\tfor (int i = 0; i < n; i++)\n"
                                       "\t\ty[i] = tanhf(8.0f * x[i]);\n"
                                       "}\n";

struct fixture {
	struct kc_analysis an;
	char dir[64];  /* temporary directory holding k.c */
	char path[96]; /* dir/k.c */
	const char *files[1];
};

/* c * n */
static struct kc_poly *times(struct kc_arena *a, long long c, const struct kc_poly *p)
{
	struct kc_poly *out = NULL;
	assert_int_equal(kc_poly_scale(a, p, kc_rat_int(c), &out), 0);
	return out;
}

static void add_sym(struct kc_function *f, const char *name, int has_value, long long value)
{
	struct kc_sym *s = &f->syms.syms[f->syms.n];
	s->name = name;
	s->has_value = has_value;
	s->value = value;
	f->syms.names[f->syms.n++] = name;
}

/* traffic[model] = read*n, write*n */
static void set_traffic(struct kc_arena *a, struct kc_traffic *t, const struct kc_poly *n, long long read,
                        long long write)
{
	t->read = times(a, read, n);
	t->write = times(a, write, n);
}

/* f: 8*n float multiplies, n tanhf, bytes min 8n / streaming 72n / naive 96n, one nest, not exact. */
static struct kc_function *make_f(struct fixture *fx, const char *name, long long streaming_per_n)
{
	struct kc_arena *a = &fx->an.arena;
	struct kc_function *f = KC_NEW(a, struct kc_function);
	f->name = name;
	f->loc = (struct kc_loc){fx->path, 2, 6};
	f->end = (struct kc_loc){fx->path, 6, 1};
	add_sym(f, "n", 1, 1000);
	f->n_size_params = 1;
	struct kc_poly *n = kc_poly_sym(a, 0);
	f->cost.ops[KC_OP_MUL][KC_PREC_F32] = times(a, 8, n);
	f->cost.transcendentals = KC_NEW(a, struct kc_named_count);
	f->cost.transcendentals->name = "tanhf";
	f->cost.transcendentals->count = n;
	set_traffic(a, &f->traffic[KC_MODEL_MIN], n, 4, 4);
	set_traffic(a, &f->traffic[KC_MODEL_STREAMING], n, streaming_per_n - 32, 32);
	set_traffic(a, &f->traffic[KC_MODEL_NAIVE], n, 64, 32);
	f->buffers = KC_NEW_N(a, struct kc_buffer, 2);
	f->buffers[0] = (struct kc_buffer){.name = "x",
	                                   .loc = f->loc,
	                                   .elem_type = "float",
	                                   .elem_size = 4,
	                                   .elem_class = KC_ELEM_FLOATING,
	                                   .extent = n,
	                                   .is_param = 1,
	                                   .role = KC_ROLE_INPUT};
	f->buffers[1] = (struct kc_buffer){.name = "y",
	                                   .loc = f->loc,
	                                   .elem_type = "float",
	                                   .elem_size = 4,
	                                   .elem_class = KC_ELEM_FLOATING,
	                                   .extent = n,
	                                   .is_param = 1,
	                                   .role = KC_ROLE_OUTPUT};
	f->n_buffers = 2;
	f->nests = KC_NEW(a, struct kc_nest);
	f->n_nests = 1;
	f->nests[0].begin = (struct kc_loc){fx->path, 4, 2};
	f->nests[0].end = (struct kc_loc){fx->path, 5, 30};
	f->nests[0].cost = f->cost;
	f->nests[0].trips = n;
	static int nest_writes[] = {1}; /* y */
	f->nests[0].writes = nest_writes, f->nests[0].n_writes = 1;
	f->nests[0].traffic[KC_MODEL_STREAMING] = f->traffic[KC_MODEL_STREAMING];
	f->nests[0].traffic[KC_MODEL_NAIVE] = f->traffic[KC_MODEL_NAIVE];
	f->has_loops = 1;
	return f;
}

/* g<T>: 2*m*n FLOPs as fma in double, m has no benchmark value, one derived symbol. */
static struct kc_function *make_g(struct fixture *fx)
{
	struct kc_arena *a = &fx->an.arena;
	struct kc_function *g = KC_NEW(a, struct kc_function);
	struct kc_poly *mn = NULL;
	g->name = "g<T>";
	g->loc = (struct kc_loc){"missing.c", 10, 1};
	add_sym(g, "n", 1, 1000);
	add_sym(g, "m", 0, 0);
	add_sym(g, "floor(n/4)", 1, 250);
	g->syms.syms[2].floor_of = kc_poly_sym(a, 0);
	g->syms.syms[2].floor_div = 4;
	g->n_size_params = 2;
	assert_int_equal(kc_poly_mul(a, kc_poly_sym(a, 0), kc_poly_sym(a, 1), &mn), 0);
	g->cost.ops[KC_OP_FMA][KC_PREC_F64] = mn;
	for (int model = 0; model < KC_MODEL_N; model++) {
		g->traffic[model].read = times(a, 8, mn);
		g->traffic[model].write = times(a, 8, mn);
	}
	g->exact = 1;
	g->reference = "f";
	return g;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof *fx);
	struct kc_arena *a = &fx->an.arena;
	snprintf(fx->dir, sizeof fx->dir, "/tmp/kc_test_report_XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->path, sizeof fx->path, "%s/k.c", fx->dir);
	FILE *src = fopen(fx->path, "w");
	assert_non_null(src);
	fputs(source_text, src);
	fclose(src);
	fx->files[0] = fx->path;
	fx->an.files = fx->files;
	fx->an.n_files = 1;
	fx->an.functions = KC_NEW_N(a, struct kc_function *, 4);
	struct kc_function *f = make_f(fx, "f", 72);
	kc_diag_add(a, &f->diags, (struct kc_loc){fx->path, 4, 22}, KC_WARNING, KC_DIAG_INEXACT, "f", "%s", NASTY);
	struct kc_function *unfused = make_f(fx, "f_unfused", 648);
	unfused->exact = 1;
	unfused->reference = "f";
	struct kc_function *helper = make_f(fx, "helper_skipped", 72);
	helper->skip = 1;
	fx->an.functions[0] = f;
	fx->an.functions[1] = make_g(fx);
	fx->an.functions[2] = unfused;
	fx->an.functions[3] = helper;
	fx->an.n_functions = 4;
	for (int i = 0; i < 4; i++)
		fx->an.functions[i]->index = i;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
	assert_int_equal(system(cmd), 0);
	kc_arena_release(&fx->an.arena);
	free(fx);
	return 0;
}

static const struct kc_report_opts test_opts = {.command = (const char *const[]){"kcost", "k.c"},
                                                .n_command = 2,
                                                .version = "0.1-test",
                                                .no_run = 1,
                                                .created = "2025-01-31T12:00:00Z"};

static cJSON *function_json(cJSON *doc, int i)
{
	cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "functions"), i);
	assert_non_null(f);
	return f;
}

/* doc.path.to.key via '.'-separated keys. */
static cJSON *get(cJSON *o, const char *path)
{
	char key[64];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		snprintf(key, sizeof key, "%.*s", (int)n, path);
		o = cJSON_GetObjectItemCaseSensitive(o, key);
		path += n + (path[n] == '.');
	}
	assert_non_null(o);
	return o;
}

static void test_json_flops(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = kc_report_json(&fx->an, NULL, &test_opts);
	cJSON *f = function_json(doc, 0);
	assert_string_equal(get(f, "name")->valuestring, "f");
	assert_string_equal(get(f, "flops.expr")->valuestring, "8*n");
	assert_true(get(f, "flops.value")->valuedouble == 8000);
	assert_true(get(f, "flops.by_category.mul")->valuedouble == 8000);
	assert_true(get(f, "flops.by_category.add")->valuedouble == 0);
	assert_true(get(f, "flops.by_precision.float")->valuedouble == 8000);
	assert_null(cJSON_GetObjectItemCaseSensitive(get(f, "flops.by_precision"), "double"));
	assert_string_equal(get(f, "transcendentals.expr")->valuestring, "n");
	assert_true(get(f, "transcendentals.by_function.tanhf")->valuedouble == 1000);
	assert_true(cJSON_IsNull(get(f, "value_error")));
	cJSON_Delete(doc);
}

static void test_json_bytes_and_intensity(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = kc_report_json(&fx->an, NULL, &test_opts);
	cJSON *f = function_json(doc, 0);
	assert_string_equal(get(f, "bytes.min.expr")->valuestring, "8*n");
	assert_true(get(f, "bytes.min.value")->valuedouble == 8000);
	assert_true(get(f, "bytes.min.read")->valuedouble == 4000);
	assert_true(get(f, "bytes.min.write")->valuedouble == 4000);
	assert_string_equal(get(f, "bytes.streaming.expr")->valuestring, "72*n");
	assert_true(get(f, "bytes.naive.value")->valuedouble == 96000);
	assert_true(get(f, "intensity.min")->valuedouble == 1.0);
	assert_true(fabs(get(f, "intensity.streaming")->valuedouble - 8.0 / 72.0) < 1e-15);
	assert_string_equal(get(f, "intensity_expr.streaming")->valuestring, "1/9");
	cJSON_Delete(doc);
}

static void test_json_diagnostic_round_trip(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = kc_report_json(&fx->an, NULL, &test_opts);
	char *text = cJSON_Print(doc);
	cJSON *back = cJSON_Parse(text);
	cJSON *d = cJSON_GetArrayItem(get(function_json(back, 0), "diagnostics"), 0);
	assert_string_equal(get(d, "message")->valuestring, NASTY);
	assert_string_equal(get(d, "severity")->valuestring, "warning");
	assert_string_equal(get(d, "file")->valuestring, fx->path);
	assert_true(get(d, "line")->valuedouble == 4 && get(d, "col")->valuedouble == 22);
	assert_false(cJSON_IsTrue(get(function_json(back, 0), "exact")));
	cJSON_Delete(back);
	cJSON_free(text);
	cJSON_Delete(doc);
}

static void test_json_value_error_and_sizes(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = kc_report_json(&fx->an, NULL, &test_opts);
	cJSON *g = function_json(doc, 1);
	assert_string_equal(get(g, "name")->valuestring, "g<T>");
	assert_string_equal(get(g, "flops.expr")->valuestring, "2*n*m");
	assert_true(cJSON_IsNull(get(g, "flops.value")));
	assert_string_equal(get(g, "flops.value_error")->valuestring, "a size has no benchmark value");
	assert_string_equal(get(g, "value_error")->valuestring, "a size has no benchmark value");
	assert_true(cJSON_IsNull(get(g, "flops.by_category.fma")));
	assert_true(cJSON_IsNull(get(g, "intensity.min")));
	assert_string_equal(get(g, "intensity_expr.min")->valuestring, "1/8");
	assert_int_equal(cJSON_GetArraySize(get(g, "sizes")), 1);
	assert_true(get(g, "sizes.n")->valuedouble == 1000);
	assert_string_equal(cJSON_GetArrayItem(get(g, "sizes_missing"), 0)->valuestring, "m");
	cJSON_Delete(doc);
}

static void test_json_header_not_measured(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = kc_report_json(&fx->an, NULL, &test_opts);
	assert_true(get(doc, "schema")->valuedouble == 1);
	assert_string_equal(get(doc, "kcost_version")->valuestring, "0.1-test");
	assert_string_equal(cJSON_GetArrayItem(get(doc, "command"), 1)->valuestring, "k.c");
	assert_string_equal(get(doc, "created")->valuestring, "2025-01-31T12:00:00Z");
	assert_true(cJSON_IsNull(get(doc, "machine")));
	assert_int_equal(cJSON_GetArraySize(get(doc, "functions")), 3); /* helper_skipped left out */
	assert_true(cJSON_IsNull(get(function_json(doc, 0), "measured")));
	assert_true(cJSON_IsNull(get(function_json(doc, 0), "predicted")));
	assert_string_equal(get(function_json(doc, 2), "reference")->valuestring, "f");
	cJSON_Delete(doc);
}

static void test_json_nests_and_buffers(void **state)
{
	struct fixture *fx = *state;
	cJSON *doc = kc_report_json(&fx->an, NULL, &test_opts);
	cJSON *f = function_json(doc, 0);
	cJSON *nest = cJSON_GetArrayItem(get(f, "nests"), 0);
	assert_true(cJSON_GetArrayItem(get(nest, "lines"), 0)->valuedouble == 4);
	assert_true(cJSON_GetArrayItem(get(nest, "lines"), 1)->valuedouble == 5);
	assert_string_equal(get(nest, "trips.expr")->valuestring, "n");
	assert_true(get(nest, "trips.value")->valuedouble == 1000);
	assert_true(get(nest, "bytes.streaming.value")->valuedouble == 72000);
	assert_null(cJSON_GetObjectItemCaseSensitive(get(nest, "bytes"), "min"));
	assert_true(cJSON_IsNull(get(nest, "callee")));
	cJSON *x = cJSON_GetArrayItem(get(f, "buffers"), 0);
	assert_string_equal(get(x, "name")->valuestring, "x");
	assert_string_equal(get(x, "role")->valuestring, "input");
	assert_string_equal(get(x, "extent.expr")->valuestring, "n");
	assert_true(get(x, "bytes")->valuedouble == 4000);
	cJSON_Delete(doc);
}

static void test_escape_html(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	kc_escape_html(&b, NASTY "\x01");
	assert_string_equal(kc_buf_str(&b),
	                    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; | pipe\n"
	                    "newline\xef\xbf\xbd");
	kc_buf_release(&b);
}

/* No byte that could start a terminal escape sequence passes: ESC, C1 controls (U+0085 as C2 85), bad UTF-8. */
static void test_escape_terminal(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	kc_visible_puts(&b, "a\nb\x1b[31m\xc2\x85\xff \xc2\xb5s");
	assert_string_equal(kc_buf_str(&b), "a\\nb\\x1b[31m\\xc2\\x85\\xff \xc2\xb5s");
	kc_buf_release(&b);
}

/* A SARIF message is one line of visible text, and \, [ and ] are escaped: no embedded link can form. */
static void test_escape_sarif(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	kc_escape_sarif_text(&b, "see [here](1) a\\b\n\x1b[2J\xe2\x80\xae\xff \xc2\xb5s");
	assert_string_equal(kc_buf_str(&b), "see \\[here\\](1) a\\\\b\\\\n\\\\x1b\\[2J\\\\u202e\\\\xff \xc2\xb5s");
	kc_buf_release(&b);
}

/* What the end-to-end test cannot reach: a diagnostic of no file (no location) and of a whole file (no region),
 * and a regression at an absolute path with a space, of no known line and no formula change. */
static void test_sarif_locations(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_diags list = {0};
	kc_diag_add(&a, &list, (struct kc_loc){NULL, 0, 0}, KC_ERROR, KC_DIAG_RUN, NULL, "no kernel was run");
	kc_diag_add(&a, &list, (struct kc_loc){"k.c", 0, 0}, KC_ERROR, KC_DIAG_PARSE, NULL, "could not read the file");
	struct kc_sarif_regression r = {"f", "/abs dir/k.c", 0, "slower", 1.5, NULL, 0};
	struct kc_sarif *log = kc_sarif_open("9.9");
	assert_non_null(log);
	kc_sarif_add_diags(log, &list);
	kc_sarif_add_regressions(log, &r, 1);
	struct kc_buf b = KC_BUF_INIT;
	assert_int_equal(kc_sarif_close(log, &b), 0);
	cJSON *doc = cJSON_Parse(kc_buf_str(&b));
	assert_non_null(doc);
	cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0);
	assert_string_equal(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "tool"), "driver"), "version")
	        ->valuestring,
	    "9.9");
	cJSON *results = cJSON_GetObjectItem(run, "results");
	assert_int_equal(cJSON_GetArraySize(results), 3);
	cJSON *none = cJSON_GetArrayItem(results, 0), *file = cJSON_GetArrayItem(results, 1),
	      *slower = cJSON_GetArrayItem(results, 2);
	assert_string_equal(cJSON_GetObjectItem(none, "ruleId")->valuestring, "kcost/run");
	assert_null(cJSON_GetObjectItem(none, "locations"));
	cJSON *physical =
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(file, "locations"), 0), "physicalLocation");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(physical, "artifactLocation"), "uri")->valuestring,
	                    "k.c");
	assert_null(cJSON_GetObjectItem(physical, "region"));
	assert_string_equal(cJSON_GetObjectItem(slower, "level")->valuestring, "warning");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(slower, "message"), "text")->valuestring,
	                    "'f': slower, 1.5x the base");
	physical =
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(slower, "locations"), 0), "physicalLocation");
	cJSON *artifact = cJSON_GetObjectItem(physical, "artifactLocation");
	assert_string_equal(cJSON_GetObjectItem(artifact, "uri")->valuestring, "file:///abs%20dir/k.c");
	assert_null(cJSON_GetObjectItem(artifact, "uriBaseId"));
	assert_null(cJSON_GetObjectItem(physical, "region"));
	cJSON_Delete(doc);
	kc_buf_release(&b);
	kc_arena_release(&a);
}

/* The pieces of two threads in the order of the functions: this thread's first, the other's after wait. */
struct piece_log {
	int next_claim, last_claim; /* claim hands out next_claim..last_claim */
	int waits;
	char order[64]; /* "0-1-2c4e": i, then the text when the piece came from the other thread */
	int fail_at;    /* emit returns -1 for this function */
};

static int log_claim(void *ctx)
{
	struct piece_log *l = ctx;
	return l->next_claim <= l->last_claim ? l->next_claim++ : -1;
}

static void log_wait(void *ctx)
{
	((struct piece_log *)ctx)->waits++;
}

static int log_emit(void *ctx, int i, const struct kc_output_text *text)
{
	struct piece_log *l = ctx;
	size_t n = strlen(l->order);
	snprintf(l->order + n, sizeof l->order - n, "%s%d%.*s", n ? "-" : "", i, text ? (int)text->len : 0,
	         text ? text->s : "");
	return i == l->fail_at ? -1 : 0;
}

static void test_output_pieces(void **state)
{
	(void)state;
	struct kc_function fns[5];
	struct kc_function *ptrs[5];
	memset(fns, 0, sizeof fns);
	for (int i = 0; i < 5; i++)
		ptrs[i] = &fns[i];
	fns[3].skip = 1;
	struct kc_analysis an = {.functions = ptrs, .n_functions = 5};
	const struct kc_output_text texts[5] = {{NULL, 0}, {NULL, 0}, {"c", 1}, {"d", 1}, {"e", 1}};
	struct piece_log l = {.next_claim = 0, .last_claim = 1, .fail_at = -1};
	struct kc_output_pieces p = {log_claim, log_wait, texts, &l};
	assert_int_equal(kc_output_each_piece(&p, &an, log_emit, &l), 0);
	assert_string_equal(l.order, "0-1-2c-4e");
	assert_int_equal(l.waits, 1);
	/* without the other thread's text of a piece, this thread renders it */
	const struct kc_output_text missing[5] = {{NULL, 0}};
	l = (struct piece_log){.next_claim = 0, .last_claim = 0, .fail_at = -1};
	p.text = missing;
	assert_int_equal(kc_output_each_piece(&p, &an, log_emit, &l), 0);
	assert_string_equal(l.order, "0-1-2-4");
	/* no other thread: every reported function, in order */
	l = (struct piece_log){.fail_at = -1};
	assert_int_equal(kc_output_each_piece(NULL, &an, log_emit, &l), 0);
	assert_string_equal(l.order, "0-1-2-4");
	/* a failure stops the walk, and the other thread is still waited for */
	l = (struct piece_log){.next_claim = 0, .last_claim = 4, .fail_at = 1};
	p.text = texts;
	assert_int_equal(kc_output_each_piece(&p, &an, log_emit, &l), -1);
	assert_string_equal(l.order, "0-1");
	assert_int_equal(l.waits, 1);
}

static void test_escape_markdown(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	kc_escape_md_cell(&b, NASTY " a\\b *c* gelu_fused");
	assert_string_equal(kc_buf_str(&b), "&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'q' \\| "
	                                    "pipe<br>newline a\\\\b \\*c\\* gelu\\_fused");
	kc_buf_reset(&b);
	kc_escape_md_code(&b, "(n | m)*2");
	assert_string_equal(kc_buf_str(&b), "`(n \\| m)*2`");
	kc_buf_release(&b);
}

static void test_html_escapes_everything(void **state)
{
	struct fixture *fx = *state;
	struct kc_buf b = KC_BUF_INIT;
	kc_report_html(&b, &fx->an, NULL, &test_opts);
	const char *html = kc_buf_str(&b);
	assert_non_null(strstr(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"));
	assert_null(strstr(html, "<script>alert"));
	assert_non_null(strstr(html, "<code>g&lt;T&gt;</code>"));
	assert_non_null(strstr(html, "<section class=\"function\" id=\"fn-g-3CT-3E\">"));
	assert_non_null(strstr(html, "<svg id=\"roofline\""));
	assert_non_null(strstr(html, "machine not measured: predicted intensity only"));
	assert_non_null(strstr(html, "Static analysis only &mdash; not measured."));
	assert_non_null(strstr(html, "for (int i = 0; i &lt; n; i++)"));        /* the source listing */
	assert_non_null(strstr(html, "<code>72*n</code> = <span class=\"v\"")); /* a nest's streaming bytes */
	assert_null(strstr(html, "{{"));
	assert_null(strstr(html, "https://"));
	assert_null(strstr(html, "helper_skipped"));
	kc_buf_release(&b);
}

static void test_markdown(void **state)
{
	struct fixture *fx = *state;
	struct kc_buf b = KC_BUF_INIT;
	kc_report_markdown(&b, &fx->an, NULL);
	const char *md = kc_buf_str(&b);
	assert_non_null(strstr(md, "| f | `8*n` = 8.0 kFLOP | `8*n` = 8.0 kB | `72*n` = 72.0 kB | "
	                           "1.00 / 0.111 / 0.0833 FLOP/B | approx: 1 warning |\n"));
	assert_non_null(strstr(md, "- **f\\_unfused** moves 9.0\xc3\x97 the streaming bytes of its reference **f** "
	                           "(648.0 kB vs 72.0 kB)\n"));
	assert_non_null(strstr(md, "&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'q' \\| pipe<br>newline"));
	assert_non_null(strstr(md,
	                       "- **g&lt;T&gt;** has formulas but no values: a size has no benchmark value (no value "
	                       "for `m`: set with KCOST\\_SIZES or --size)\n"));
	assert_null(strstr(md, "<script>"));
	assert_null(strstr(md, "helper"));
	kc_buf_release(&b);
}

static void test_markdown_is_capped(void **state)
{
	struct fixture *fx = *state;
	struct kc_buf b = KC_BUF_INIT;
	struct kc_analysis big = fx->an;
	big.n_functions = 3000;
	big.functions = KC_NEW_N(&fx->an.arena, struct kc_function *, big.n_functions);
	for (int i = 0; i < big.n_functions; i++)
		big.functions[i] = fx->an.functions[i % 3];
	kc_buf_puts(&b, "prefix\n");
	kc_report_markdown(&b, &big, NULL);
	assert_true(b.len - 7 <= KC_REPORT_MD_MAX);
	assert_true(b.len - 7 > KC_REPORT_MD_MAX - 1000);
	assert_non_null(strstr(kc_buf_str(&b), "\n_Output truncated at 60,000 characters"));
	assert_int_equal(strncmp(kc_buf_str(&b), "prefix\n## kcost report", 22), 0);
	kc_buf_release(&b);
}

static void test_text_table(void **state)
{
	struct fixture *fx = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);
	kc_report_text(mem, &fx->an, NULL, 0);
	fclose(mem);
	assert_non_null(strstr(out, "8.0 kFLOP"));
	assert_non_null(strstr(out, "1.00 FLOP/B"));
	assert_non_null(strstr(out, "0.111 FLOP/B"));
	assert_non_null(strstr(out, "1.0k calls"));
	assert_non_null(strstr(out, "approx: 1 warning"));
	/* without benchmark sizes, the formula with its unit */
	if (!strstr(out, "g<T>       2*n*m FLOP"))
		fail_msg("%s", out);
	assert_non_null(strstr(out, "\nf: flops 8*n, transcendentals n, bytes(min) 8*n, bytes(streaming) 72*n\n"));
	assert_null(strchr(out, '\033'));
	/* widths come from the content: the right-aligned FLOPs column ends at the same place in every line */
	const char *row = strchr(out, '\n') + 1;
	assert_int_equal(strstr(out, "FLOPs") + 5 - out, strstr(row, "kFLOP") + 5 - row);
	assert_int_equal(strncmp(out, "function ", 9), 0);
	assert_int_equal(strncmp(row, "f           8.0 kFLOP", 21), 0);
	assert_null(strstr(out, " \n")); /* no trailing blanks */
	free(out);
}

/* Whether the harness's compiler contracts a*b + c into an FMA, from its command: it must target FMA; the last
 * -ffp-contract decides (gcc 12 takes =on as =off, clang does not); else gcc contracts in its GNU modes and with
 * -ffast-math, not in ISO ones, and clang always; the compiler is the first word, not a path elsewhere. */
static void test_contraction_from_the_command(void **state)
{
	(void)state;
	static const struct {
		const char *cc;
		int contracts;
	} cases[] = {
	    {"cc -falign-loops=64 -O3 -march=native -fopt-info-vec-optimized=h.vec -I/tmp harness.c", 1},
	    {"cc -O3 harness.c", 0},
	    {"cc -O3 -march=native -std=c17 harness.c", 0},
	    {"cc -O3 -march=native -std=gnu17 harness.c", 1},
	    {"cc -O3 -march=native -std=c17 -ffast-math harness.c", 1},
	    {"cc -O3 -march=native -ffp-contract=off harness.c", 0},
	    {"cc -O3 -march=native -ffp-contract=off -ffp-contract=fast harness.c", 1},
	    {"cc -O3 -march=native -ffp-contract=on harness.c", 0},
	    {"/usr/bin/clang-19 -O3 -march=native -std=c17 harness.c", 1},
	    {"clang -O3 -march=native -ffp-contract=on harness.c", 1},
	    {"clang -O3 -march=native -ffp-contract=off harness.c", 0},
	    {"cc -O3 -march=native -mno-fma harness.c", 0},
	    {"cc -O3 -mfma -std=c17 -I/home/clang/src harness.c", 0},
	    {"", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(kc_figures_contracts(cases[i].cc), cases[i].contracts);
}

static void test_si_formatting(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	kc_format_si(&b, 134217728, "FLOP");
	kc_buf_puts(&b, "|");
	kc_format_si(&b, 16777216, "B");
	kc_buf_puts(&b, "|");
	kc_format_si(&b, 999, "B");
	kc_buf_puts(&b, "|");
	kc_format_si(&b, 999960, "B");
	kc_buf_puts(&b, "|");
	kc_format_si(&b, 0.5, "B");
	kc_buf_puts(&b, "|");
	kc_format_sig3(&b, 1.0);
	kc_buf_puts(&b, "|");
	kc_format_sig3(&b, 1.0 / 9);
	kc_buf_puts(&b, "|");
	kc_format_sig3(&b, 123.4);
	kc_buf_puts(&b, "|");
	kc_format_seconds(&b, 1.234e-3);
	assert_string_equal(kc_buf_str(&b), "134.2 MFLOP|16.8 MB|999 B|1.0 MB|0.500 B|1.00|0.111|123|1.23 ms");
	kc_buf_release(&b);
}

/* kc_format_fixed writes what "%.*f" writes: ties of the exact binary value (0.25, 2.5, 0.125), values just
 * beside a tie (0.05 is 0.05000000000000000277: "0.1"), negative zero and values rounding to it ("-0.0"),
 * carries (9.96 -> "10.0"), huge values, infinities and NaN, and a million pseudo-random values of every
 * magnitude at every precision it takes. */
static void test_fixed_formatting(void **state)
{
	(void)state;
	static const double fixed[] = {0,     -0.0,  0.25, 2.5,   0.125,   0.05,   0.15,         0.35,   1.05,
	                               -0.04, -0.05, 9.96, 99.95, 1e15,    4.5e15, 1e300,        -1e300, 0.5,
	                               1.5,   -2.5,  1e-9, 5e-10, 123.456, 0x1p52, 0x1p52 + 0.5, 1.0 / 3};
	struct kc_buf b = KC_BUF_INIT;
	char want[512];
	for (int d = 0; d <= 9; d++)
		for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
			kc_buf_reset(&b);
			kc_format_fixed(&b, fixed[i], d);
			snprintf(want, sizeof want, "%.*f", d, fixed[i]);
			assert_string_equal(kc_buf_str(&b), want);
		}
	const double special[] = {INFINITY, -INFINITY, NAN};
	for (size_t i = 0; i < 3; i++) {
		kc_buf_reset(&b);
		kc_format_fixed(&b, special[i], 1);
		snprintf(want, sizeof want, "%.1f", special[i]);
		assert_string_equal(kc_buf_str(&b), want);
	}
	kc_buf_reset(&b);
	kc_format_fixed(&b, 0.25, 1);
	kc_buf_putc(&b, '|');
	kc_format_fixed(&b, 0.05, 1);
	kc_buf_putc(&b, '|');
	kc_format_fixed(&b, -0.04, 1);
	kc_buf_putc(&b, '|');
	kc_format_fixed(&b, 9.96, 1);
	assert_string_equal(kc_buf_str(&b), "0.2|0.1|-0.0|10.0");
	unsigned long long x = 88172645463325252ull; /* xorshift64 */
	for (int n = 0; n < 1000000; n++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int d = (int)(x % 10);
		/* a mantissa of 1-4 decimal digits halves on ties; the rest of the bits anything */
		double v = (n & 1) ? (double)(x >> 11) * 0x1p-53 * pow(10, (double)((x >> 3) % 20) - 8)
		                   : (double)((x >> 20) % 100000) / pow(10, (double)((x >> 40) % 6));
		if (x & 4)
			v = -v;
		kc_buf_reset(&b);
		kc_format_fixed(&b, v, d);
		snprintf(want, sizeof want, "%.*f", d, v);
		assert_string_equal(kc_buf_str(&b), want);
	}
	kc_buf_release(&b);
}

/* A pseudo-random cJSON tree for test_json_print: every kind of item, keys and strings of any bytes. */
static unsigned long long tree_rng = 0x9E3779B97F4A7C15ull;
static unsigned next_rand(void)
{
	tree_rng ^= tree_rng << 13;
	tree_rng ^= tree_rng >> 7;
	tree_rng ^= tree_rng << 17;
	return (unsigned)(tree_rng >> 20);
}

static void random_text(char *s, size_t cap)
{
	size_t n = next_rand() % 4 == 0 ? 0 : next_rand() % (cap - 1);
	for (size_t i = 0; i < n; i++) /* any byte but NUL; control characters and quotes often */
		s[i] = (char)(next_rand() % 3 == 0 ? 1 + next_rand() % 40 : 1 + next_rand() % 255);
	s[n] = 0;
}

static cJSON *random_item(int depth)
{
	char text[40];
	static const double numbers[] = {0, -0.0, 1, -7, 2147483647.0, 1e300, 0.1, 1.0 / 3, 123456789012345678.0, 1e-7};
	switch (next_rand() % (depth > 5 ? 7 : 9)) {
	case 0:
		return cJSON_CreateNull();
	case 1:
		return cJSON_CreateBool(next_rand() & 1);
	case 2:
		return cJSON_CreateNumber(numbers[next_rand() % (sizeof numbers / sizeof *numbers)]);
	case 3:
		return cJSON_CreateNumber(next_rand() % 2 ? (double)(int)next_rand() : (double)next_rand() / 7.0);
	case 4:
		return cJSON_CreateNumber(next_rand() % 2 ? NAN : -INFINITY);
	case 5:
		random_text(text, sizeof text);
		return cJSON_CreateString(text);
	case 6:
		return cJSON_CreateRaw("123.50");
	case 7: {
		cJSON *a = cJSON_CreateArray();
		for (unsigned i = 0, n = next_rand() % 5; i < n; i++)
			cJSON_AddItemToArray(a, random_item(depth + 1));
		return a;
	}
	default: {
		cJSON *o = cJSON_CreateObject();
		for (unsigned i = 0, n = next_rand() % 5; i < n; i++) {
			random_text(text, sizeof text);
			cJSON_AddItemToObject(o, text, random_item(depth + 1));
		}
		return o;
	}
	}
}

/* kc_json_print writes what cJSON_Print writes, byte for byte, and fails where it fails. */
static void test_json_print(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	for (int n = 0; n < 3000; n++) {
		cJSON *tree = random_item(0);
		char *want = cJSON_Print(tree);
		assert_non_null(want);
		kc_buf_reset(&b);
		kc_buf_puts(&b, "kept|");
		assert_int_equal(kc_json_print(&b, tree), 0);
		assert_string_equal(kc_buf_str(&b) + 5, want);
		cJSON_free(want);
		cJSON_Delete(tree);
	}
	cJSON *bad = cJSON_CreateObject(), *raw = cJSON_CreateRaw("1");
	cJSON_AddItemToObject(bad, "r", raw);
	free(raw->valuestring); /* a raw item without text: cJSON_Print fails, and so does kc_json_print */
	raw->valuestring = NULL;
	assert_null(cJSON_Print(bad));
	kc_buf_reset(&b);
	kc_buf_puts(&b, "kept");
	assert_int_equal(kc_json_print(&b, bad), -1);
	assert_string_equal(kc_buf_str(&b), "kept");
	cJSON_Delete(bad);
	kc_buf_release(&b);
}

/* kc_format_int writes what "%lld" writes, from 0 to both ends of the range. */
static void test_int_formatting(void **state)
{
	(void)state;
	static const long long values[] = {0, 7, -7, 4194304, -1234567890123, LLONG_MAX, LLONG_MIN};
	char digits[KC_FORMAT_DIGITS], expected[32];
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		struct kc_buf b = KC_BUF_INIT;
		snprintf(expected, sizeof expected, "%lld", values[i]);
		kc_format_int(&b, values[i]);
		assert_string_equal(kc_buf_str(&b), expected);
		assert_string_equal(kc_format_digits(digits, values[i]), expected);
		kc_buf_release(&b);
	}
}

static void test_write_directory(void **state)
{
	struct fixture *fx = *state;
	char dir[160], path[200], blocker[200];
	const char *err = NULL;
	struct kc_report_opts o = test_opts;
	struct stat st;
	snprintf(dir, sizeof dir, "%s/out/nested", fx->dir);
	o.out_dir = dir;
	assert_int_equal(kc_report_write(&fx->an, NULL, &o, &err), 0);
	static const char *const names[] = {"index.html", "report.json", "summary.md", "roofline.svg"};
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size > 100);
	}
	/* a regular file where a directory should be */
	snprintf(blocker, sizeof blocker, "%s/index.html/sub", dir);
	o.out_dir = blocker;
	assert_int_equal(kc_report_write(&fx->an, NULL, &o, &err), -1);
	assert_non_null(strstr(err, "cannot create"));
}

/* The whole of file dir/name, NUL-terminated; *len its length. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct kc_buf b = KC_BUF_INIT;
	assert_int_equal(kc_buf_read_file(&b, path, (size_t)-1), 0);
	*len = b.len;
	return kc_buf_detach(&b);
}

/* Two passes over x -> y (each 4n FLOPs, 8n bytes), fusable into one group: enough for a dataflow section
 * and a graph. */
static void add_dataflow(struct kc_arena *a, struct kc_function *f)
{
	struct kc_dataflow *df = &f->dataflow;
	struct kc_poly *n = kc_poly_sym(a, 0);
	static int x = 0, y = 1;
	df->n_passes = 2;
	df->passes = KC_NEW_N(a, struct kc_pass, 2);
	for (int p = 0; p < 2; p++) {
		struct kc_pass *ps = &df->passes[p];
		ps->begin = f->nests[0].begin;
		ps->end = f->nests[0].end;
		ps->flops = times(a, 4, n);
		set_traffic(a, &ps->streaming, n, 4, 4);
		ps->reads = &x;
		ps->n_reads = 1;
		ps->writes = &y;
		ps->n_writes = 1;
	}
	df->edges = KC_NEW(a, struct kc_fusion_edge);
	*df->edges = (struct kc_fusion_edge){0, 1, KC_FUSE_INDEPENDENT, 1, "no data flows between them", NULL, 0};
	df->groups = KC_NEW(a, struct kc_fusion_group);
	df->n_groups = 1;
	df->groups->first = 0;
	df->groups->last = 1;
	set_traffic(a, &df->groups->before, n, 8, 8);
	set_traffic(a, &df->groups->after, n, 4, 4);
	df->before = df->groups->before;
	df->after = df->groups->after;
}

/* A helper thread renders the second half of the functions and its texts are copied in place: the files
 * are the same bytes with one thread and with two. The fixture's functions (one with a dataflow graph, so
 * the legend's place is checked too) repeat until the helper has a share. */
static void test_threads_write_the_same_files(void **state)
{
	struct fixture *fx = *state;
	struct kc_analysis an = fx->an;
	enum { N = 80 };
	an.functions = KC_NEW_N(&fx->an.arena, struct kc_function *, N);
	for (int i = 0; i < N; i++)
		an.functions[i] = fx->an.functions[(i + 3) % fx->an.n_functions]; /* starts with the skipped one */
	an.n_functions = N;
	add_dataflow(&fx->an.arena, fx->an.functions[2]);
	char dir[2][160];
	const char *err = NULL;
	for (int t = 0; t < 2; t++) {
		struct kc_report_opts o = test_opts;
		snprintf(dir[t], sizeof dir[t], "%s/threads%d", fx->dir, t + 1);
		o.out_dir = dir[t];
		o.threads = t + 1;
		assert_int_equal(kc_report_write(&an, NULL, &o, &err), 0);
	}
	static const char *const names[] = {"report.json", "index.html", "summary.md", "roofline.svg"};
	for (int i = 0; i < 4; i++) {
		size_t n1, n2;
		char *one = slurp(dir[0], names[i], &n1), *two = slurp(dir[1], names[i], &n2);
		assert_int_equal(n1, n2);
		assert_memory_equal(one, two, n1);
		if (i == 1) { /* one legend, before the first graph, and 60 sections: the skipped function has none */
			const char *legend = strstr(one, "Dataflow legend"),
			           *graph = strstr(one, "<div class=\"graph\">");
			assert_non_null(legend);
			assert_non_null(graph);
			assert_true(legend < graph);
			assert_null(strstr(legend + 1, "Dataflow legend"));
			int sections = 0;
			for (const char *p = one; (p = strstr(p, "<section class=\"function\"")); p++)
				sections++;
			assert_int_equal(sections, 60);
		}
		free(one);
		free(two);
	}
}

static void test_roofline_svg_standalone(void **state)
{
	struct fixture *fx = *state;
	struct kc_buf b = KC_BUF_INIT;
	kc_report_roofline_svg(&b, &fx->an, NULL);
	const char *svg = kc_buf_str(&b);
	assert_int_equal(strncmp(svg,
	                         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg id=\"roofline\" "
	                         "xmlns=\"http://www.w3.org/2000/svg\"",
	                         73),
	                 0);
	assert_non_null(strstr(svg, "<title>f: min model, 1.00 FLOP/B = 1</title>"));
	/* g has no values, so no intensity to mark: only its number and name in the key */
	assert_null(strstr(svg, "<title>g&lt;T&gt;: min model"));
	assert_non_null(strstr(svg, "<title>2 g&lt;T&gt;</title>"));
	assert_non_null(strstr(svg, "machine not measured: predicted intensity only"));
	/* the key: each function's number and name; f and f_unfused share a spot and its label */
	assert_non_null(strstr(svg, ">f_unfused</text>"));
	assert_non_null(strstr(svg, "font-weight=\"bold\" fill=\"#333\" stroke=\"#fff\" stroke-width=\"3\" "
	                            "paint-order=\"stroke\">1, 3</text>"));
	assert_non_null(
	    strstr(svg, "<title>1 f: 1.00 FLOP/B (min model)\n3 f_unfused: 1.00 FLOP/B (min model)</title>"));
	kc_buf_release(&b);
}

static void test_measured_paths(void **state)
{
	struct fixture *fx = *state;
	struct kc_machine mc = {.cpu = "Test CPU",
	                        .cores = 4,
	                        .cache_bytes = {32768, 1 << 20, 0},
	                        .flops_f32 = {100, 1, "cblas_sgemm n=2048"},
	                        .flops_f64 = {50, 1, "cblas_dgemm n=2048"},
	                        .measured_at = "2025-01-31T11:00:00Z"};
	mc.bandwidth[KC_LEVEL_DRAM] = (struct kc_ceiling){20, 1, "stream triad"};
	struct kc_measurement item = {.function = "f",
	                              .seconds_min = 0.9e-6,
	                              .seconds_median = 1e-6,
	                              .seconds_p90 = 1.2e-6,
	                              .samples = 100,
	                              .cv = 0.02,
	                              .compiler = "cc -O3",
	                              .equivalent = -1,
	                              .traffic_source = "unavailable"};
	struct kc_measurements m = {&mc, &item, 1, 1, 0, NULL}; /* items[0] is functions[0]'s */
	cJSON *doc = kc_report_json(&fx->an, &m, &test_opts);
	assert_string_equal(get(doc, "machine.cpu")->valuestring, "Test CPU");
	assert_true(get(doc, "machine.ceilings.flops.float.gflops")->valuedouble == 100);
	assert_true(get(doc, "machine.ceilings.bandwidth.DRAM.gbytes_per_s")->valuedouble == 20);
	cJSON *f = function_json(doc, 0);
	assert_true(get(f, "measured.seconds.median")->valuedouble == 1e-6);
	assert_true(fabs(get(f, "measured.gflops")->valuedouble - 8.0) < 1e-9);
	assert_true(cJSON_IsTrue(get(f, "measured.gflops_approximate")));
	assert_string_equal(get(f, "predicted.roofline_bound")->valuestring, "memory"); /* 1 FLOP/B * 20 GB/s < 100 */
	/* the time model needs tanhf's per-call time, which this machine lacks: no time, and why */
	assert_true(cJSON_IsNull(get(f, "predicted.seconds")));
	assert_string_equal(get(f, "predicted.why")->valuestring, "no per-call time of tanhf was measured");
	assert_true(cJSON_IsNull(get(f, "measured.ratio")));
	assert_true(fabs(get(f, "measured.fraction_of_roof")->valuedouble - 0.4) < 1e-9);
	assert_true(cJSON_IsNull(get(function_json(doc, 2), "measured")));
	cJSON_Delete(doc);
	struct kc_buf b = KC_BUF_INIT;
	kc_report_roofline_svg(&b, &fx->an, &m);
	assert_non_null(strstr(kc_buf_str(&b), "DRAM 20.0 GB/s"));
	/* f is not exact: its point is derived from an inexact FLOP count, not a measurement */
	assert_non_null(strstr(kc_buf_str(&b), "f: approximately 8 GFLOP/s at 1 FLOP/B (derived from a FLOP count that "
	                                       "is not exact, not a measurement)"));
	assert_null(strstr(kc_buf_str(&b), "f: measured "));
	kc_buf_reset(&b);
	kc_report_html(&b, &fx->an, &m, &test_opts);
	assert_non_null(strstr(kc_buf_str(&b), "Measured on <b>Test CPU</b>, 4 cores"));
	assert_non_null(
	    strstr(kc_buf_str(&b), "<td class=\"num\" data-v=\"9.9999999999999995e-07\">1.00 \xc2\xb5s</td>"));
	assert_null(strstr(kc_buf_str(&b), "Static analysis only"));
	kc_buf_release(&b);
}

/* A measured function's libm calls are priced at its own sweeps (kc_measurement.libm: 30 ns a call), not at the
 * machine's median (25 ns) — unless the machine is another's (--machine FILE), whose figures stay together. */
static void test_libm_priced_in_the_kernels_process(void **state)
{
	struct fixture *fx = *state;
	struct kc_libm_cost tanhf = {"tanhf", 20e-9, 25e-9, "scalar calls"};
	struct kc_machine mc = {.cpu = "Test CPU",
	                        .cores = 4,
	                        .cache_bytes = {32768, 1 << 20, 32 << 20},
	                        .flops_f32 = {100, 1, "peak"},
	                        .flops_f64 = {50, 1, "peak"},
	                        .libm = &tanhf,
	                        .n_libm = 1,
	                        .measured_at = "2025-01-31T11:00:00Z"};
	for (int l = 0; l < KC_LEVEL_N; l++)
		mc.bandwidth[l] = (struct kc_ceiling){20, 1, "stream triad"};
	struct kc_libm_in_process swept = {"tanhf", 30e-9, 5};
	struct kc_measurement item = {.function = "f",
	                              .seconds_min = 2e-5,
	                              .seconds_median = 3e-5,
	                              .seconds_p90 = 4e-5,
	                              .samples = 100,
	                              .compiler = "cc -O3",
	                              .equivalent = -1,
	                              .traffic_source = "unavailable",
	                              .libm = &swept,
	                              .n_libm = 1};
	struct kc_measurements m = {&mc, &item, 1, 1, 0, NULL};
	for (int other = 0; other < 2; other++) {
		mc.from_file = other ? "other.json" : NULL;
		cJSON *doc = kc_report_json(&fx->an, &m, &test_opts);
		cJSON *f = function_json(doc, 0);
		assert_true(fabs(get(f, "measured.libm_median_ns_per_call.tanhf")->valuedouble - 30) < 1e-9);
		assert_int_equal((int)get(f, "measured.libm_sweeps.tanhf")->valuedouble, 5);
		/* f calls tanhf n = 1000 times */
		cJSON *nest = cJSON_GetArrayItem(get(f, "predicted.nests"), 0);
		double priced = get(nest, "seconds_by_resource.transcendental")->valuedouble;
		assert_true(fabs(priced - (other ? 25e-6 : 30e-6)) < 1e-15);
		cJSON_Delete(doc);
	}
	assert_true(tanhf.median == 25e-9); /* the machine's own stays */
	mc.from_file = NULL;
	struct kc_buf b = KC_BUF_INIT;
	kc_report_html(&b, &fx->an, &m, &test_opts);
	assert_non_null(strstr(kc_buf_str(&b), "<tr><th>libm, per call</th><td>tanhf 30.0 ns (median of 5 sweeps) "
	                                       "<span class=\"muted\">swept in the kernel's own process"));
	kc_buf_release(&b);
}

/* A text box of the roofline SVG, with the chart's own width estimate (11 px font, 6.6 px a character):
 * a compute roof's label ("float peak ...") or a function's name (the ones drawn with a white halo). */
struct box {
	double x0, x1, y0, y1;
	int is_peak, is_name;
};

static int text_boxes(const char *svg, struct box *out, int cap)
{
	int n = 0;
	for (const char *t = svg; n < cap && (t = strstr(t, "<text x=\"")); t++) {
		double x, y;
		const char *open = strchr(t, '>'), *close = open ? strstr(open, "</text>") : NULL;
		if (!close || sscanf(t, "<text x=\"%lf\" y=\"%lf\"", &x, &y) != 2)
			continue;
		const char *anchor_end = strstr(t, "text-anchor=\"end\""), *halo = strstr(t, "stroke=\"#fff\""),
		           *peak = strstr(open, " peak ");
		double w = (double)(close - open - 1) * 6.6;
		int end = anchor_end && anchor_end < open;
		out[n++] = (struct box){end ? x - w : x, end ? x : x + w,      y - 11,
		                        y + 3,           peak && peak < close, halo && halo < open};
	}
	return n;
}

/* The functions' names on a roofline keep clear of the compute roofs' labels: here functions at the ridge of
 * a 45 GB/s roof, just under a 50 GFLOP/s double peak, whose names would start on its label's row. */
static void test_roofline_labels_clear_of_roofs(void **state)
{
	struct fixture *fx = *state;
	struct kc_machine mc = {.cpu = "Test CPU", .cores = 2};
	mc.flops_f32 = (struct kc_ceiling){100, 1, "sgemm"};
	mc.flops_f64 = (struct kc_ceiling){50, 1, "dgemm"};
	mc.bandwidth[KC_LEVEL_DRAM] = (struct kc_ceiling){45, 1, "triad"};
	struct kc_measurements m = {&mc, NULL, 0, 0, 0, NULL};
	struct kc_buf b = KC_BUF_INIT;
	kc_report_roofline_svg(&b, &fx->an, &m);
	struct box boxes[64];
	int n = text_boxes(kc_buf_str(&b), boxes, 64), peaks = 0, names = 0;
	for (int i = 0; i < n; i++) {
		peaks += boxes[i].is_peak;
		names += boxes[i].is_name;
		for (int j = 0; j < n; j++)
			if (boxes[i].is_peak && boxes[j].is_name)
				assert_false(boxes[j].x0 < boxes[i].x1 && boxes[i].x0 < boxes[j].x1 &&
				             boxes[j].y0 < boxes[i].y1 && boxes[i].y0 < boxes[j].y1);
	}
	assert_int_equal(peaks, 2);
	assert_int_equal(names, 1); /* f and f_unfused share their spot and its label, "1, 3" (g<T> has no
	                             * intensity: a size without a value) */
	kc_buf_release(&b);
}

static void test_empty_analysis(void **state)
{
	(void)state;
	struct kc_analysis an = {0};
	struct kc_buf b = KC_BUF_INIT;
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);
	kc_report_text(mem, &an, NULL, 1);
	fclose(mem);
	assert_int_equal(size, 0);
	free(out);
	kc_report_markdown(&b, &an, NULL);
	assert_non_null(strstr(kc_buf_str(&b), "No function was analyzed."));
	kc_buf_reset(&b);
	kc_report_html(&b, &an, NULL, NULL);
	assert_non_null(strstr(kc_buf_str(&b), "<p>No function was analyzed.</p>"));
	assert_non_null(strstr(kc_buf_str(&b), "</html>\n"));
	kc_buf_release(&b);
	cJSON *doc = kc_report_json(&an, NULL, NULL);
	assert_int_equal(cJSON_GetArraySize(get(doc, "functions")), 0);
	assert_string_equal(get(doc, "kcost_version")->valuestring, "unknown");
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_json_flops, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_bytes_and_intensity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_diagnostic_round_trip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_value_error_and_sizes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_header_not_measured, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_nests_and_buffers, setup, teardown),
	    cmocka_unit_test(test_escape_html),
	    cmocka_unit_test(test_escape_markdown),
	    cmocka_unit_test(test_escape_terminal),
	    cmocka_unit_test(test_escape_sarif),
	    cmocka_unit_test(test_sarif_locations),
	    cmocka_unit_test(test_output_pieces),
	    cmocka_unit_test_setup_teardown(test_html_escapes_everything, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_markdown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_markdown_is_capped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text_table, setup, teardown),
	    cmocka_unit_test(test_contraction_from_the_command),
	    cmocka_unit_test(test_si_formatting),
	    cmocka_unit_test(test_fixed_formatting),
	    cmocka_unit_test(test_json_print),
	    cmocka_unit_test(test_int_formatting),
	    cmocka_unit_test_setup_teardown(test_write_directory, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_threads_write_the_same_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_roofline_svg_standalone, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_measured_paths, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_libm_priced_in_the_kernels_process, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_roofline_labels_clear_of_roofs, setup, teardown),
	    cmocka_unit_test(test_empty_analysis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

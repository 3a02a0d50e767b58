/* test_graph.c — the dataflow graph renderer on hand-built functions: the structure of the DOT (read back with
 * cgraph), well-formed SVG, escaping of hostile names, the terminal text form, and the degenerate sizes. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <graphviz/cgraph.h>

#include "graph.h"
#include "text.h"
#include "words.h"

#define N_VALUE 4194304LL /* 2^22 floats: 16.8 MB per buffer */
#define EN_DASH "\xe2\x80\x93"
#define ARROW   "\xe2\x86\x92"
#define HOSTILE "a<b>\"&'\n\\N &lt; \x01\xff"

static struct kc_graph_ctx *ctx; /* one for the whole run, as kcost uses it */

/* ---- fixtures ---------------------------------------------------------------------------------------- */

struct fixture {
	struct kc_arena arena;
	struct kc_function f;
	struct kc_poly *n; /* the size symbol */
};

static struct kc_poly *times(struct fixture *fx, long long c)
{
	struct kc_poly *out = NULL;
	assert_int_equal(kc_poly_scale(&fx->arena, fx->n, kc_rat_int(c), &out), 0);
	return out;
}

static int *ints(struct fixture *fx, int n, ...)
{
	int *list = KC_NEW_N(&fx->arena, int, n + 1);
	va_list ap;
	va_start(ap, n);
	for (int k = 0; k < n; k++)
		list[k] = va_arg(ap, int);
	va_end(ap);
	return list;
}

/* A function `name` of one size n (with a benchmark value when has_value) and room for max_buffers buffers. */
static void fixture_init(struct fixture *fx, const char *name, int has_value, int max_buffers, int n_passes)
{
	memset(fx, 0, sizeof *fx);
	fx->f.name = name;
	fx->f.syms.syms[0] = (struct kc_sym){.name = "n", .has_value = has_value, .value = N_VALUE};
	fx->f.syms.names[0] = "n";
	fx->f.syms.n = 1;
	fx->n = kc_poly_sym(&fx->arena, 0);
	fx->f.buffers = KC_NEW_N(&fx->arena, struct kc_buffer, max_buffers + 1);
	fx->f.dataflow.passes = KC_NEW_N(&fx->arena, struct kc_pass, n_passes + 1);
	fx->f.dataflow.edges = KC_NEW_N(&fx->arena, struct kc_fusion_edge, n_passes + 1);
	fx->f.dataflow.n_passes = n_passes;
}

static int add_buffer(struct fixture *fx, const char *name, enum kc_role role)
{
	struct kc_buffer *b = &fx->f.buffers[fx->f.n_buffers];
	b->name = name;
	b->elem_type = "float";
	b->elem_size = 4;
	b->extent = fx->n;
	b->role = role;
	return fx->f.n_buffers++;
}

/* Pass i at lines line..line+1: `flops`*n FLOPs, reads and writes 4*n bytes per buffer. */
static struct kc_pass *set_pass(struct fixture *fx, int i, unsigned line, long long flops, int *reads, int n_reads,
                                int *writes, int n_writes)
{
	struct kc_pass *p = &fx->f.dataflow.passes[i];
	p->begin.line = line;
	p->end.line = line + 1;
	p->flops = times(fx, flops);
	p->streaming.read = times(fx, 4LL * n_reads);
	p->streaming.write = times(fx, 4LL * n_writes);
	p->reads = reads;
	p->n_reads = n_reads;
	p->writes = writes;
	p->n_writes = n_writes;
	return p;
}

static void set_edge(struct fixture *fx, int from, enum kc_fusion_kind kind, int legal, const char *reason)
{
	fx->f.dataflow.edges[from] = (struct kc_fusion_edge){from, from + 1, kind, legal, reason, NULL, 0};
}

/* An elementwise chain like gelu_unfused: x -> pass 1 -> t1 -> ... -> t(n-1) -> pass n -> y, each pass n FLOPs
 * and 8*n streaming bytes, and one fusion group of every pass removing t1..t(n-1) with (8*n_passes + 8)*n
 * bytes before (72*n for 8 passes) and 8*n after. */
static void make_chain(struct fixture *fx, const char *name, int n_passes, int has_value)
{
	struct kc_dataflow *df = &fx->f.dataflow;
	fixture_init(fx, name, has_value, n_passes + 1, n_passes);
	add_buffer(fx, "x", KC_ROLE_INPUT);
	for (int i = 1; i < n_passes; i++)
		add_buffer(fx, kc_arena_printf(&fx->arena, "t%d", i), KC_ROLE_INTERMEDIATE);
	add_buffer(fx, "y", KC_ROLE_OUTPUT);
	df->intermediates = KC_NEW_N(&fx->arena, int, n_passes);
	for (int i = 0; i < n_passes; i++) {
		set_pass(fx, i, 35 + 2 * (unsigned)i, 1, ints(fx, 1, i), 1, ints(fx, 1, i + 1), 1);
		if (i > 0)
			df->intermediates[df->n_intermediates++] = i;
		if (i + 1 < n_passes)
			set_edge(fx, i, KC_FUSE_ELEMENTWISE, 1, "elementwise");
	}
	struct kc_fusion_group *g = KC_NEW(&fx->arena, struct kc_fusion_group);
	*g = (struct kc_fusion_group){0,
	                              n_passes - 1,
	                              df->intermediates,
	                              df->n_intermediates,
	                              {times(fx, 4LL * n_passes + 8), times(fx, 4LL * n_passes), NULL},
	                              {times(fx, 4), times(fx, 4), NULL}};
	df->groups = g;
	df->n_groups = 1;
	df->before = g->before;
	df->after = g->after;
}

/* Three-pass softmax inside a row loop: max of x -> m, exp-sum x -> y and s, normalize y; both pairs blocked by
 * a reduction. */
static void make_softmax(struct fixture *fx)
{
	struct kc_dataflow *df = &fx->f.dataflow;
	fixture_init(fx, "softmax", 1, 2, 3);
	int x = add_buffer(fx, "x", KC_ROLE_INPUT);
	int y = add_buffer(fx, "y", KC_ROLE_OUTPUT);
	static const char *m[] = {"m"}, *s[] = {"s"};
	struct kc_pass *p = set_pass(fx, 0, 12, 1, ints(fx, 1, x), 1, NULL, 0);
	p->scalars_out = m;
	p->n_scalars_out = 1;
	p = set_pass(fx, 1, 14, 3, ints(fx, 1, x), 1, ints(fx, 1, y), 1);
	p->scalars_out = s;
	p->n_scalars_out = 1;
	set_pass(fx, 2, 17, 1, ints(fx, 1, y), 1, ints(fx, 1, y), 1);
	set_edge(fx, 0, KC_FUSE_REDUCTION, 0, "needs the max m, complete only after pass 1");
	set_edge(fx, 1, KC_FUSE_REDUCTION, 0, "needs the sum s, complete only after pass 2");
	df->in_loop = 1;
	df->loop_begin.line = 10;
	df->loop_end.line = 20;
}

/* ---- reading the outputs ----------------------------------------------------------------------------- */

struct rendered {
	struct kc_buf svg, dot;
};

static void render(const struct fixture *fx, struct rendered *out)
{
	const char *err = NULL;
	*out = (struct rendered){KC_BUF_INIT, KC_BUF_INIT};
	int rc = kc_graph_render(ctx, &fx->f, &out->svg, &out->dot, &err);
	if (rc != 0)
		fail_msg("render failed: %s", err);
}

static void rendered_release(struct rendered *r)
{
	kc_buf_release(&r->svg);
	kc_buf_release(&r->dot);
}

struct dot_counts {
	int passes, buffers, clusters, removed, removed_in_cluster, data_edges, not_fusable, epilogue;
};

static int has_word(void *obj, const char *attr, const char *word)
{
	const char *v = agget(obj, (char *)attr);
	return v && strstr(v, word) != NULL;
}

static int is_note(Agnode_t *n)
{
	return strncmp(agnameof(n), "note", 4) == 0;
}

/* A note of a noted pair: one edge in from a pass, one out to a pass, of its class; both rank their ends (no
 * flat edges: see add_fusion_note in graph.c), the second without pulling (weight 0). */
static void check_note(Agraph_t *g, Agnode_t *n)
{
	const char *class = agget(n, (char *)"class");
	assert_non_null(class);
	assert_int_equal(agdegree(g, n, 1, 0), 1);
	assert_int_equal(agdegree(g, n, 0, 1), 1);
	Agedge_t *in = agfstin(g, n), *out = agfstout(g, n);
	assert_int_equal(strncmp(agnameof(agtail(in)), "pass", 4), 0);
	assert_int_equal(strncmp(agnameof(aghead(out)), "pass", 4), 0);
	assert_true(has_word(out, "weight", "0"));
	for (Agedge_t *e = in; e; e = e == in ? out : NULL) {
		assert_true(has_word(e, "class", class));
		assert_false(has_word(e, "constraint", "false"));
		assert_false(has_word(e, "minlen", "0"));
	}
}

/* Edges that touch no note; no edge carries a label (see add_fusion_note in graph.c: Graphviz 2.42 frees memory
 * twice for some labelled edges). Edges declare no constraint=false or minlen=0: no flat edges. */
static void count_edges(Agraph_t *g, Agnode_t *n, struct dot_counts *c)
{
	for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e)) {
		const char *label = agget(e, (char *)"label");
		assert_true(!label || !*label);
		assert_false(has_word(e, "constraint", "false"));
		c->data_edges += !is_note(agtail(e)) && !is_note(aghead(e));
	}
}

/* Read the DOT back with cgraph and count what the graph holds. */
static struct dot_counts count_dot(const char *dot)
{
	struct dot_counts c = {0};
	Agraph_t *g = agmemread(dot);
	assert_non_null(g);
	Agraph_t *cluster = NULL;
	for (Agraph_t *s = agfstsubg(g); s; s = agnxtsubg(s))
		if (strncmp(agnameof(s), "cluster", 7) == 0) {
			c.clusters++;
			cluster = s;
		}
	for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
		c.passes += strncmp(agnameof(n), "pass", 4) == 0;
		c.buffers += strncmp(agnameof(n), "buf", 3) == 0;
		if (is_note(n)) {
			check_note(g, n);
			c.not_fusable += has_word(n, "class", "kc-not-fusable");
			c.epilogue += has_word(n, "class", "kc-epilogue");
		}
		if (has_word(n, "class", "kc-removed") && has_word(n, "style", "dashed")) {
			c.removed++;
			c.removed_in_cluster += cluster && agsubnode(cluster, n, 0);
		}
		count_edges(g, n, &c);
	}
	agclose(g);
	return c;
}

static int count_of(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* 1 when an '&' at s starts an entity XML knows without a DTD. */
static int entity_ok(const char *s)
{
	static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
	for (size_t k = 0; k < sizeof named / sizeof *named; k++)
		if (strncmp(s, named[k], strlen(named[k])) == 0)
			return 1;
	if (s[1] != '#')
		return 0;
	size_t digits = s[2] == 'x' ? strspn(s + 3, "0123456789abcdefABCDEF") : strspn(s + 2, "0123456789");
	return digits > 0 && s[2 + (s[2] == 'x') + digits] == ';';
}

/* The end of the tag whose name ends at p: its '>', or NULL when a quoted value holds '<' or never ends. */
static const char *tag_end(const char *p)
{
	while (*p && *p != '>') {
		if (*p == '<')
			return NULL;
		if (*p == '"' || *p == '\'') {
			const char *close = strchr(p + 1, *p);
			if (!close || memchr(p + 1, '<', (size_t)(close - p - 1)))
				return NULL;
			p = close;
		}
		p++;
	}
	return *p ? p : NULL;
}

/* 1 when s is one well-formed XML element: elements nest, values are quoted without '<', every '&' is an entity,
 * comments hold no "--", no control characters other than tab and newline; no prolog. */
static int xml_ok(const char *s)
{
	const char *names[512];
	size_t lens[512];
	int depth = 0;
	for (const char *p = s; *p; p++)
		if ((*p == '&' && !entity_ok(p)) || ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t'))
			return 0;
	while ((s = strchr(s, '<'))) {
		if (strncmp(s, "<!--", 4) == 0) {
			const char *end = strstr(s + 4, "--");
			if (!end || end[2] != '>')
				return 0;
			s = end + 3;
			continue;
		}
		int closing = s[1] == '/';
		const char *name = s + 1 + closing;
		size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_-.");
		const char *end = len ? tag_end(name + len) : NULL;
		if (!end)
			return 0;
		if (closing) {
			if (depth == 0 || lens[depth - 1] != len || strncmp(names[depth - 1], name, len) != 0)
				return 0;
			depth--;
		} else if (end[-1] != '/') {
			if (depth == 512)
				return 0;
			names[depth] = name;
			lens[depth++] = len;
		}
		s = end + 1;
	}
	return depth == 0;
}

/* The label of DOT node `name`, read back with cgraph, into label (size bytes). */
static void dot_label(const char *dot, const char *name, char *label, size_t size)
{
	Agraph_t *g = agmemread(dot);
	assert_non_null(g);
	Agnode_t *n = agnode(g, (char *)name, 0);
	assert_non_null(n);
	snprintf(label, size, "%s", agget(n, (char *)"label"));
	agclose(g);
}

/* ---- tests ------------------------------------------------------------------------------------------- */

/* gelu_unfused: 8 passes, 9 buffers, one cluster holding the 7 removed intermediates, 16 data edges. */
static void test_gelu_dot_structure(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, "gelu_unfused", 8, 1);
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.passes, 8);
	assert_int_equal(c.buffers, 9);
	assert_int_equal(c.clusters, 1);
	assert_int_equal(c.removed, 7);
	assert_int_equal(c.removed_in_cluster, 7);
	assert_int_equal(c.data_edges, 16);
	assert_int_equal(c.not_fusable, 0);
	char label[512];
	dot_label(kc_buf_str(&r.dot), "pass0", label, sizeof label);
	assert_string_equal(label, "pass 1: lines 35" EN_DASH "36\\nn FLOP = 4.2 MFLOP\\nstreaming 8*n B = 33.6 MB");
	dot_label(kc_buf_str(&r.dot), "buf3", label, sizeof label);
	assert_string_equal(label, "t3\\nintermediate float[n]\\nremoved by fusion: 16.8 MB");
	dot_label(kc_buf_str(&r.dot), "buf0", label, sizeof label);
	assert_string_equal(label, "x\\ninput float[n]\\n16.8 MB");
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* The SVG is one inlinable, well-formed <svg> element carrying the group's numbers and the removed buffers. */
static void test_gelu_svg(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, "gelu_unfused", 8, 1);
	render(&fx, &r);
	const char *svg = kc_buf_str(&r.svg);
	assert_true(strncmp(svg, "<svg", 4) == 0);
	assert_non_null(strstr(svg, "</svg>"));
	assert_null(strstr(svg, "<?xml"));
	assert_true(xml_ok(svg));
	assert_int_equal(count_of(svg, ">removed by fusion: 16.8 MB</text>"), 7);
	assert_non_null(strstr(svg, ">fusion group 1: passes 1" EN_DASH "8</text>"));
	assert_non_null(strstr(svg, ">streaming 72*n " ARROW " 8*n B (302.0 MB " ARROW " 33.6 MB)</text>"));
	assert_non_null(strstr(svg, ">0.111 " ARROW " 1.00 FLOP/B</text>"));
	/* Graphviz 2.43 writes '-' in class names as &#45; */
	assert_int_equal(count_of(svg, "class=\"node kc&#45;buffer kc&#45;intermediate kc&#45;removed\"") +
	                     count_of(svg, "class=\"node kc-buffer kc-intermediate kc-removed\""),
	                 7);
	assert_int_equal(count_of(svg, "stroke-dasharray=\"5,2\""), 7 + 14); /* the 7 nodes and their 14 edges */
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* A chain of more passes than KC_GRAPH_MAX_PASSES: the DOT has every pass, the SVG is a notice, not a layout */
static void test_too_many_passes(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, "long_chain", KC_GRAPH_MAX_PASSES + 1, 1);
	render(&fx, &r);
	const char *svg = kc_buf_str(&r.svg);
	assert_true(xml_ok(svg));
	assert_non_null(
	    strstr(svg, ">long_chain: 49 passes, more than 48: not drawn (the DOT file has the graph)</text>"));
	assert_int_equal(count_of(kc_buf_str(&r.dot), "class=\"kc-pass\""), KC_GRAPH_MAX_PASSES + 1);
	rendered_release(&r);
	kc_arena_release(&fx.arena);
	make_chain(&fx, "long_chain", KC_GRAPH_MAX_PASSES, 1); /* at the limit: drawn */
	render(&fx, &r);
	assert_null(strstr(kc_buf_str(&r.svg), "not drawn"));
	assert_non_null(strstr(kc_buf_str(&r.svg), "<g id="));
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* Softmax: no cluster, two reduction notes between the passes, with their reasons in DOT and SVG. */
static void test_softmax_reasons(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_softmax(&fx);
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.passes, 3);
	assert_int_equal(c.buffers, 2);
	assert_int_equal(c.clusters, 0);
	assert_int_equal(c.removed, 0);
	assert_int_equal(c.not_fusable, 2);
	assert_int_equal(c.data_edges, 5); /* x->1, x->2, 2->y, y->3, 3->y */
	const char *svg = kc_buf_str(&r.svg);
	assert_true(xml_ok(svg));
	assert_int_equal(count_of(svg, ">not fusable (reduction):</text>"), 2);
	/* wrapped after 36 characters */
	assert_non_null(strstr(svg, ">needs the max m, complete only after</text>"));
	assert_non_null(strstr(svg, ">pass 2</text>"));
	assert_non_null(strstr(svg, ">needs the sum s, complete only after</text>"));
	assert_non_null(strstr(svg, ">leaves m</text>"));
	assert_non_null(strstr(svg, ">passes of the loop at lines 10" EN_DASH "20; counts per call</text>"));
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* The dataflow of tests/fixtures/graph_four_pass.c (issue #11): passes 1-3 one fusion group, y, z and o read and
 * written by the same passes, pass 4 not fusable with pass 3. Its note, once a labelled edge between two passes
 * of one rank that were not neighbours, made Graphviz 2.42 free a rank array twice (an abort under ASan). */
static void make_four_pass(struct fixture *fx)
{
	struct kc_dataflow *df = &fx->f.dataflow;
	fixture_init(fx, "four_pass", 1, 4, 4);
	int a = add_buffer(fx, "a", KC_ROLE_INPUT);
	int y = add_buffer(fx, "y", KC_ROLE_INOUT);
	int z = add_buffer(fx, "z", KC_ROLE_INOUT);
	int o = add_buffer(fx, "o", KC_ROLE_INOUT);
	set_pass(fx, 0, 10, 1, ints(fx, 2, a, y), 2, ints(fx, 1, y), 1);
	set_pass(fx, 1, 12, 1, ints(fx, 2, a, z), 2, ints(fx, 1, z), 1);
	set_pass(fx, 2, 14, 1, ints(fx, 2, z, o), 2, ints(fx, 1, z), 1);
	set_pass(fx, 3, 16, 1, ints(fx, 2, y, z), 2, ints(fx, 1, o), 1);
	set_edge(fx, 0, KC_FUSE_INDEPENDENT, 1, "no data flows between them");
	set_edge(fx, 1, KC_FUSE_ELEMENTWISE, 1, "elementwise");
	set_edge(fx, 2, KC_FUSE_SPACE, 0, "different iteration spaces");
	struct kc_fusion_group *g = KC_NEW(&fx->arena, struct kc_fusion_group);
	*g = (struct kc_fusion_group){
	    0, 2, NULL, 0, {times(fx, 24), times(fx, 12), NULL}, {times(fx, 16), times(fx, 8), NULL}};
	df->groups = g;
	df->n_groups = 1;
	df->before = (struct kc_traffic){times(fx, 32), times(fx, 16), NULL};
	df->after = (struct kc_traffic){times(fx, 24), times(fx, 12), NULL};
}

/* The four-pass shape renders (it aborted under ASan), with its reason in a note from pass 3 to pass 4. */
static void test_four_pass_note(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_four_pass(&fx);
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.passes, 4);
	assert_int_equal(c.buffers, 4);
	assert_int_equal(c.clusters, 1);
	assert_int_equal(c.not_fusable, 1);
	assert_int_equal(c.data_edges, 12);
	assert_non_null(strstr(kc_buf_str(&r.dot), "pass2 -> note2"));
	assert_non_null(strstr(kc_buf_str(&r.dot), "note2 -> pass3"));
	const char *svg = kc_buf_str(&r.svg);
	assert_true(xml_ok(svg));
	assert_int_equal(count_of(svg, ">not fusable (space):</text>"), 1);
	assert_non_null(strstr(svg, ">different iteration spaces</text>"));
	assert_int_equal(count_of(svg, "_note2\""), 1);
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

static unsigned sweep_seed = 12345;

/* The next number of a fixed pseudo-random sequence, in [0, n). */
static int sweep_next(int n)
{
	sweep_seed = sweep_seed * 1103515245u + 12345u;
	return (int)((sweep_seed >> 16) % (unsigned)n);
}

/* Up to `max` distinct random buffers of the fixture into a new list; their number in *count. */
static int *sweep_buffers(struct fixture *fx, int max, int *count)
{
	int *list = KC_NEW_N(&fx->arena, int, max + 1);
	*count = 0;
	for (int k = sweep_next(max + 1); k > 0; k--) {
		int b = sweep_next(fx->f.n_buffers), dup = 0;
		for (int j = 0; j < *count; j++)
			dup |= list[j] == b;
		if (!dup)
			list[(*count)++] = b;
	}
	return list;
}

/* A random dataflow: 2-8 passes over 1-6 buffers, a few fusion groups of neighbouring passes, every pair noted
 * or not at random. */
static void make_random(struct fixture *fx)
{
	static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
	static const enum kc_fusion_kind kinds[] = {KC_FUSE_ELEMENTWISE, KC_FUSE_EPILOGUE, KC_FUSE_INDEPENDENT,
	                                            KC_FUSE_REDUCTION,   KC_FUSE_SHIFTED,  KC_FUSE_SPACE};
	struct kc_dataflow *df = &fx->f.dataflow;
	int n_passes = 2 + sweep_next(7), n_buffers = 1 + sweep_next(6);
	fixture_init(fx, "random", 1, n_buffers, n_passes);
	for (int b = 0; b < n_buffers; b++)
		add_buffer(fx, names[b], (enum kc_role)sweep_next(KC_ROLE_INTERMEDIATE + 1));
	for (int i = 0; i < n_passes; i++) {
		int n_reads, n_writes;
		int *reads = sweep_buffers(fx, 3, &n_reads), *writes = sweep_buffers(fx, 2, &n_writes);
		set_pass(fx, i, 10 + 2 * (unsigned)i, 1, reads, n_reads, writes, n_writes);
	}
	for (int i = 0; i + 1 < n_passes; i++) {
		enum kc_fusion_kind kind = kinds[sweep_next(6)];
		set_edge(fx, i, kind, kind <= KC_FUSE_INDEPENDENT, "a reason long enough to be wrapped onto two lines");
	}
	df->groups = KC_NEW_N(&fx->arena, struct kc_fusion_group, n_passes);
	for (int first = 0; first + 1 < n_passes; first++)
		if (sweep_next(2)) {
			int last = first + 1 + sweep_next(n_passes - first - 1);
			int n_removes;
			int *removes = sweep_buffers(fx, 2, &n_removes);
			df->groups[df->n_groups++] = (struct kc_fusion_group){first,
			                                                      last,
			                                                      removes,
			                                                      n_removes,
			                                                      {times(fx, 8), times(fx, 8), NULL},
			                                                      {times(fx, 4), times(fx, 4), NULL}};
			first = last;
		}
	df->in_loop = sweep_next(2);
}

/* 300 random dataflows render (under ASan: without a memory error inside Graphviz; and dot never loops forever in
 * flat-edge code, as it did on some before) and keep their notes. */
static void test_random_dataflows(void **state)
{
	(void)state;
	for (int t = 0; t < 300; t++) {
		struct fixture fx;
		struct rendered r;
		make_random(&fx);
		render(&fx, &r);
		int noted = 0;
		for (int i = 0; i + 1 < fx.f.dataflow.n_passes; i++)
			noted += kc_words_edge_noted(&fx.f.dataflow.edges[i]);
		struct dot_counts c = count_dot(kc_buf_str(&r.dot));
		assert_int_equal(c.not_fusable + c.epilogue, noted);
		assert_true(xml_ok(kc_buf_str(&r.svg)));
		rendered_release(&r);
		kc_arena_release(&fx.arena);
	}
}

/* A name with markup, quotes, a newline, a Graphviz escape, an entity, a control byte and invalid UTF-8. */
static void test_hostile_name(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, HOSTILE, 2, 1);
	fx.f.buffers[0].name = HOSTILE;
	fx.f.dataflow.passes[0].callee = HOSTILE;
	set_edge(&fx, 0, KC_FUSE_UNKNOWN, 0, HOSTILE);
	render(&fx, &r);
	const char *svg = kc_buf_str(&r.svg);
	assert_true(xml_ok(svg));
	assert_null(strstr(svg, "<b>"));
	/* name shown literally: \N not replaced by the node name, &lt; not decoded, bad bytes as U+FFFD */
	assert_non_null(strstr(svg, ">a&lt;b&gt;&quot;&amp;&#39;</text>"));
	assert_non_null(strstr(svg, ">\\N &amp;lt; \xef\xbf\xbd\xef\xbf\xbd</text>"));
	char label[512];
	dot_label(kc_buf_str(&r.dot), "buf0", label, sizeof label);
	assert_string_equal(label, "a<b>\"&amp;'\\n\\\\N &amp;lt; \xef\xbf\xbd\xef\xbf\xbd\\ninput float[n]\\n16.8 MB");
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* The text form of gelu_unfused, line by line. */
static void test_text_gelu(void **state)
{
	(void)state;
	struct fixture fx;
	struct kc_buf out = KC_BUF_INIT;
	make_chain(&fx, "gelu_unfused", 8, 1);
	kc_text_dataflow(&fx.f, &out);
	const char *text = kc_buf_str(&out);
	assert_true(strncmp(text, "  pass 1  lines 35-36  n FLOP  8*n B (streaming)  reads x  writes t1\n", 69) == 0);
	assert_non_null(strstr(text, "\n  pass 8  lines 49-50  n FLOP  8*n B (streaming)  reads t7  writes y\n"));
	assert_non_null(strstr(text, "\n  t1      intermediate float[n] 16.8 MB  removed by fusion (group 1)\n"));
	assert_non_null(strstr(text, "\n  t7      intermediate float[n] 16.8 MB  removed by fusion (group 1)\n"));
	assert_non_null(strstr(text, "\n  group 1 passes 1-8  streaming 72*n -> 8*n B (302.0 MB -> 33.6 MB)  "
	                             "0.111 -> 1.00 FLOP/B  removes 7 intermediates and 89% of the streaming bytes\n"));
	assert_int_equal(count_of(text, "\n"), 8 + 7 + 1);
	kc_buf_release(&out);
	kc_arena_release(&fx.arena);
}

/* Softmax in text: the passes with the scalars they leave, and both blocked pairs with their reasons. */
static void test_text_softmax(void **state)
{
	(void)state;
	struct fixture fx;
	struct kc_buf out = KC_BUF_INIT;
	make_softmax(&fx);
	kc_text_dataflow(&fx.f, &out);
	assert_string_equal(kc_buf_str(&out),
	                    "  pass 1  lines 12-13  n FLOP  4*n B (streaming)  reads x  leaves m\n"
	                    "  pass 2  lines 14-15  3*n FLOP  8*n B (streaming)  reads x  writes y  leaves s\n"
	                    "  pass 3  lines 17-18  n FLOP  8*n B (streaming)  reads y  writes y\n"
	                    "  pass 1 -> 2  not fusable (reduction): needs the max m, complete only after pass 1\n"
	                    "  pass 2 -> 3  not fusable (reduction): needs the sum s, complete only after pass 2\n");
	kc_buf_release(&out);
	kc_arena_release(&fx.arena);
}

/* Control characters never reach the terminal; sizes without values show formulas and exact intensities. */
static void test_text_escapes_and_formulas(void **state)
{
	(void)state;
	struct fixture fx;
	struct kc_buf out = KC_BUF_INIT;
	make_chain(&fx, "f", 2, 0);
	fx.f.buffers[1].name = "t\x1b[31m\n\xc2\x9b";
	kc_text_dataflow(&fx.f, &out);
	const char *text = kc_buf_str(&out);
	assert_null(strchr(text, '\x1b'));
	assert_non_null(
	    strstr(text, "\n  t\\x1b[31m\\n\\xc2\\x9b  intermediate float[n] 4*n B  removed by fusion (group 1)\n"));
	assert_non_null(strstr(text, "streaming 24*n -> 8*n B  1/12 -> 1/4 FLOP/B  removes 1 intermediate\n"));
	kc_buf_release(&out);
	kc_arena_release(&fx.arena);
}

/* No passes: a valid SVG with only the title; the text says so. */
static void test_zero_passes(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	struct kc_buf text = KC_BUF_INIT;
	fixture_init(&fx, "empty", 1, 0, 0);
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.passes + c.buffers + c.clusters, 0);
	assert_true(strncmp(kc_buf_str(&r.svg), "<svg", 4) == 0);
	assert_true(xml_ok(kc_buf_str(&r.svg)));
	assert_non_null(strstr(kc_buf_str(&r.svg), ">empty: 0 passes, 0 intermediates</text>"));
	kc_text_dataflow(&fx.f, &text);
	assert_string_equal(kc_buf_str(&text), "  no passes\n");
	kc_buf_release(&text);
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* One pass, x -> pass -> y, no group: small and valid. */
static void test_one_pass(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, "gelu_fused", 1, 1);
	fx.f.dataflow.n_groups = 0;
	fx.f.dataflow.n_intermediates = 0;
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.passes, 1);
	assert_int_equal(c.buffers, 2);
	assert_int_equal(c.clusters, 0);
	assert_int_equal(c.data_edges, 2);
	assert_true(xml_ok(kc_buf_str(&r.svg)));
	assert_non_null(strstr(kc_buf_str(&r.svg), ">gelu_fused: 1 pass, 0 intermediates</text>"));
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* A generated function of 200 passes (with a blocked pair every 10) renders completely. */
static void test_200_passes(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, "long_chain", 200, 1);
	for (int i = 9; i < 199; i += 10)
		set_edge(&fx, i, KC_FUSE_SHIFTED, 0, "reads neighbours of what the previous pass wrote");
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.passes, 200);
	assert_int_equal(c.buffers, 201);
	assert_int_equal(c.not_fusable, 19);
	assert_true(xml_ok(kc_buf_str(&r.svg)));
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

/* An index outside the function is an error with a message, and nothing is appended. */
static void test_bad_index(void **state)
{
	(void)state;
	struct fixture fx;
	struct kc_buf svg = KC_BUF_INIT, dot = KC_BUF_INIT;
	const char *err = NULL;
	make_chain(&fx, "broken", 8, 1);
	fx.f.dataflow.passes[2].reads[0] = 12;
	assert_int_equal(kc_graph_render(ctx, &fx.f, &svg, &dot, &err), -1);
	assert_string_equal(err, "dataflow of broken: pass 2 reads buffer 12 of 9");
	assert_int_equal(svg.len + dot.len, 0);
	fx.f.dataflow.passes[2].reads[0] = 2;
	fx.f.dataflow.groups[0].last = 8;
	assert_int_equal(kc_graph_render(ctx, &fx.f, &svg, &dot, &err), -1);
	assert_string_equal(err, "dataflow of broken: fusion group 0 spans passes 0..8 of 8");
	kc_arena_release(&fx.arena);
}

/* Ids are unique per context, so several graphs inline into one page; DOT alone may be asked for. */
static void test_ids_per_render(void **state)
{
	(void)state;
	struct fixture fx;
	struct kc_buf svg = KC_BUF_INIT, dot = KC_BUF_INIT;
	const char *err = NULL;
	struct kc_graph_ctx *own = kc_graph_open();
	assert_non_null(own);
	make_softmax(&fx);
	assert_int_equal(kc_graph_render(own, &fx.f, &svg, NULL, &err), 0);
	assert_int_equal(kc_graph_render(own, &fx.f, &svg, NULL, &err), 0);
	assert_int_equal(kc_graph_render(own, &fx.f, NULL, &dot, &err), 0);
	assert_int_equal(count_of(kc_buf_str(&svg), "<svg"), 2);
	assert_int_equal(count_of(kc_buf_str(&svg), "id=\"kcdf1_pass2\""), 1);
	assert_int_equal(count_of(kc_buf_str(&svg), "id=\"kcdf2_pass2\""), 1);
	assert_int_equal(count_of(kc_buf_str(&svg), "id=\"kcdf1\""), 1);
	assert_true(strncmp(kc_buf_str(&dot), "digraph dataflow {", 18) == 0);
	assert_non_null(strstr(kc_buf_str(&dot), "kcdf3"));
	kc_graph_close(own);
	kc_buf_release(&svg);
	kc_buf_release(&dot);
	kc_arena_release(&fx.arena);
}

/* A pair fusable only as an epilogue gets a note of its own class, inside the group both passes are in. */
static void test_epilogue_note(void **state)
{
	(void)state;
	struct fixture fx;
	struct rendered r;
	make_chain(&fx, "mlp_forward", 3, 1);
	fx.f.dataflow.passes[0].callee = "matmul";
	set_edge(&fx, 0, KC_FUSE_EPILOGUE, 1, "per output element; the k loop stays inside");
	render(&fx, &r);
	struct dot_counts c = count_dot(kc_buf_str(&r.dot));
	assert_int_equal(c.epilogue, 1);
	assert_int_equal(c.not_fusable, 0);
	Agraph_t *g = agmemread(kc_buf_str(&r.dot));
	assert_non_null(g);
	Agraph_t *cluster = agsubg(g, (char *)"cluster_group1", 0);
	assert_non_null(cluster);
	assert_non_null(agnode(cluster, (char *)"note0", 0));
	agclose(g);
	assert_non_null(strstr(kc_buf_str(&r.svg), ">pass 1: call matmul</text>"));
	assert_non_null(strstr(kc_buf_str(&r.svg), ">fusable as epilogue:</text>"));
	rendered_release(&r);
	kc_arena_release(&fx.arena);
}

static int open_ctx(void **state)
{
	(void)state;
	ctx = kc_graph_open();
	return ctx ? 0 : -1;
}

static int close_ctx(void **state)
{
	(void)state;
	kc_graph_close(ctx);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gelu_dot_structure), cmocka_unit_test(test_gelu_svg),
	    cmocka_unit_test(test_too_many_passes),    cmocka_unit_test(test_softmax_reasons),
	    cmocka_unit_test(test_four_pass_note),     cmocka_unit_test(test_random_dataflows),
	    cmocka_unit_test(test_hostile_name),       cmocka_unit_test(test_text_gelu),
	    cmocka_unit_test(test_text_softmax),       cmocka_unit_test(test_text_escapes_and_formulas),
	    cmocka_unit_test(test_zero_passes),        cmocka_unit_test(test_one_pass),
	    cmocka_unit_test(test_200_passes),         cmocka_unit_test(test_bad_index),
	    cmocka_unit_test(test_ids_per_render),     cmocka_unit_test(test_epilogue_note),
	};
	return cmocka_run_group_tests(tests, open_ctx, close_ctx);
}

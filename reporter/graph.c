/* graph.c — a function's dataflow graph: cgraph objects from kc_dataflow, laid out and rendered by gvc. */
#define _GNU_SOURCE /* dladdr */
#include "graph.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "escape.h"
#include "figures.h"
#include "words.h"
#include "visible.h"

#define REASON_WIDTH 36             /* a space after this many characters of a reason becomes a line break */
#define REPLACEMENT  "\xef\xbf\xbd" /* U+FFFD */

/* The GVC_t of the process, created by the first kc_graph_open and never freed (it stays reachable from here).
 * Graphviz 2.43's pango text-layout plugin caches in a static a pointer to a font name owned by the context that
 * last measured text: after gvFreeContext, the next context's first label would read freed memory. */
static GVC_t *shared_gvc;

struct kc_graph_ctx {
	GVC_t *gvc;        /* shared_gvc */
	int n_rendered;    /* graphs begun so far: the next one is kcdf<n_rendered + 1> */
	struct kc_buf err; /* the message *err points to */
};

/* Append the label form of the character at s (see graph.h, "Escaping"); returns the bytes it takes in s. */
static int label_char(struct kc_buf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	int n = kc_visible_utf8_len(u, SIZE_MAX);
	if (*s == '\n')
		kc_buf_puts(b, "\\n");
	else if (*s == '\t')
		kc_buf_putc(b, ' ');
	else if (*s == '\\' || *s == '&') /* Graphviz expands \N, \G, ... and entities like &lt; in plain labels */
		kc_buf_puts(b, *s == '\\' ? "\\\\" : "&amp;");
	else if (n == 0 || *u < 0x20 || *u == 0x7f) /* XML forbids them; Graphviz warns on bad UTF-8 */
		kc_buf_puts(b, REPLACEMENT);
	else
		kc_buf_add(b, s, (size_t)n);
	return n ? n : 1;
}

/* s as text of a plain Graphviz label; with width > 0, the first space after `width` characters of a line
 * becomes a line break. */
static void label_wrapped(struct kc_buf *b, const char *s, int width)
{
	int col = 0;
	while (s && *s) {
		if (*s == ' ' && width > 0 && col >= width) {
			kc_buf_puts(b, "\\n");
			col = 0;
			s++;
			continue;
		}
		col = *s == '\n' ? 0 : col + 1;
		s += label_char(b, s);
	}
}

static void label_text(struct kc_buf *b, const char *s)
{
	label_wrapped(b, s, 0);
}

/* ---- checking the model ------------------------------------------------------------------------------ */

/* Position of the first index of list[0..n) outside [0, limit), or -1 when all are in range. */
static int first_out_of_range(const int *list, int n, int limit)
{
	for (int k = 0; k < n; k++)
		if (!list || list[k] < 0 || list[k] >= limit)
			return k;
	return -1;
}

static int check_passes(const struct kc_function *f, struct kc_buf *err)
{
	const struct kc_dataflow *df = &f->dataflow;
	for (int i = 0; i < df->n_passes; i++) {
		const struct kc_pass *p = &df->passes[i];
		int r = first_out_of_range(p->reads, p->n_reads, f->n_buffers);
		int w = first_out_of_range(p->writes, p->n_writes, f->n_buffers);
		if (r >= 0 || w >= 0) {
			kc_buf_printf(err, "pass %d %s buffer %d of %d", i, r >= 0 ? "reads" : "writes",
			              r >= 0 ? (p->reads ? p->reads[r] : -1) : (p->writes ? p->writes[w] : -1),
			              f->n_buffers);
			return -1;
		}
	}
	return 0;
}

static int check_groups(const struct kc_function *f, struct kc_buf *err)
{
	const struct kc_dataflow *df = &f->dataflow;
	for (int g = 0; g < df->n_groups; g++) {
		const struct kc_fusion_group *grp = &df->groups[g];
		if (grp->first < 0 || grp->last < grp->first || grp->last >= df->n_passes) {
			kc_buf_printf(err, "fusion group %d spans passes %d..%d of %d", g, grp->first, grp->last,
			              df->n_passes);
			return -1;
		}
		int k = first_out_of_range(grp->removes, grp->n_removes, f->n_buffers);
		if (k >= 0) {
			kc_buf_printf(err, "fusion group %d removes buffer %d of %d", g,
			              grp->removes ? grp->removes[k] : -1, f->n_buffers);
			return -1;
		}
	}
	return 0;
}

static int check_edges(const struct kc_function *f, struct kc_buf *err)
{
	const struct kc_dataflow *df = &f->dataflow;
	for (int i = 0; df->edges && i < df->n_passes - 1; i++) {
		const struct kc_fusion_edge *e = &df->edges[i];
		if (e->from < 0 || e->from >= df->n_passes || e->to < 0 || e->to >= df->n_passes) {
			kc_buf_printf(err, "fusion edge %d joins passes %d and %d of %d", i, e->from, e->to,
			              df->n_passes);
			return -1;
		}
	}
	return 0;
}

/* 0 when every index of f's dataflow that the graph follows is in range; else -1 and the first bad one
 * described in err. */
static int check_dataflow(const struct kc_function *f, struct kc_buf *err)
{
	const struct kc_dataflow *df = &f->dataflow;
	if (df->n_passes < 0 || df->n_groups < 0 || (df->n_passes > 0 && !df->passes) ||
	    (df->n_groups > 0 && !df->groups)) {
		kc_buf_puts(err, "the dataflow has negative counts or missing arrays");
		return -1;
	}
	if (check_passes(f, err) < 0 || check_groups(f, err) < 0 || check_edges(f, err) < 0) {
		char *detail = kc_buf_detach(err);
		kc_buf_printf(err, "dataflow of %s: %s", f->name ? f->name : "?", detail);
		free(detail);
		return -1;
	}
	return 0;
}

/* ---- building the cgraph graph ----------------------------------------------------------------------- */

/* Everything one render builds; build_release frees it. */
struct build {
	struct kc_words w;
	struct kc_figure_memo memo;
	const struct kc_dataflow *df;
	Agraph_t *root;
	Agraph_t **clusters;     /* per fusion group */
	Agnode_t **pass_nodes;   /* per pass */
	Agnode_t **buffer_nodes; /* per buffer; NULL until a pass touches it */
	int *removed_by;         /* per buffer: the group that removes it, or -1 */
	int id;                  /* the graph is kcdf<id> */
	struct kc_buf text;      /* scratch for labels */
};

/* agsafeset with const strings: cgraph copies name and value but predates const. */
static void set(void *obj, const char *name, const char *value)
{
	agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

/* Set attribute `name` of obj to the scratch text, then empty it. */
static void set_text(struct build *gb, void *obj, const char *name)
{
	set(obj, name, kc_buf_str(&gb->text));
	kc_buf_reset(&gb->text);
}

/* Set the SVG id of obj to kcdf<id>_<what><index>. */
static void set_id(struct build *gb, void *obj, const char *what, int index)
{
	char id[64];
	snprintf(id, sizeof id, "kcdf%d_%s%d", gb->id, what, index);
	set(obj, "id", id);
}

/* The defaults every object starts from (written once at the top of the DOT). */
static void declare_defaults(Agraph_t *g)
{
	agattr(g, AGRAPH, "fontname", "Helvetica");
	agattr(g, AGRAPH, "fontsize", "12");
	agattr(g, AGRAPH, "nodesep", "0.3");
	agattr(g, AGRAPH, "ranksep", "0.35");
	agattr(g, AGRAPH, "pad", "0.3"); /* room for labels a browser draws wider than Graphviz measured */
	agattr(g, AGNODE, "fontname", "Helvetica");
	agattr(g, AGNODE, "fontsize", "10");
	/* text widths are Graphviz's Helvetica metrics; a browser's sans-serif runs up to a tenth wider */
	agattr(g, AGNODE, "margin", "0.2,0.055");
	agattr(g, AGNODE, "shape", "box");
	agattr(g, AGNODE, "style", "rounded,filled");
	agattr(g, AGNODE, "fillcolor", "#FFFFFF");
	agattr(g, AGEDGE, "fontname", "Helvetica");
	agattr(g, AGEDGE, "fontsize", "9");
	agattr(g, AGEDGE, "arrowsize", "0.7");
}

/* "fusion group 1: passes 1–8\nstreaming 72*n → 8*n B (302.0 MB → 33.6 MB)\n0.111 → 1.00 FLOP/B" */
static void group_label(struct build *gb, int g)
{
	const struct kc_fusion_group *grp = &gb->df->groups[g];
	struct kc_poly *flops = kc_words_group_flops(gb->w.arena, gb->df, grp);
	struct kc_poly *before = kc_words_traffic_total(gb->w.arena, &grp->before);
	struct kc_poly *after = kc_words_traffic_total(gb->w.arena, &grp->after);
	struct kc_buf *b = &gb->text;
	kc_buf_printf(b, "fusion group %d: passes %d%s%d\\nstreaming ", g + 1, grp->first + 1, gb->w.dash,
	              grp->last + 1);
	kc_words_change(&gb->w, b, before, after, "B");
	kc_buf_puts(b, "\\n");
	kc_words_intensity(&gb->w, b, flops, before);
	kc_buf_printf(b, " %s ", gb->w.arrow);
	kc_words_intensity(&gb->w, b, flops, after);
	kc_buf_puts(b, " FLOP/B");
}

static void add_clusters(struct build *gb)
{
	for (int g = 0; g < gb->df->n_groups; g++) {
		char name[32];
		snprintf(name, sizeof name, "cluster_group%d", g + 1);
		Agraph_t *c = agsubg(gb->root, name, 1);
		set_id(gb, c, "group", g + 1);
		set(c, "class", "kc-fusion-group");
		set(c, "style", "rounded,filled");
		set(c, "color", KC_GRAPH_COLOR_GROUP);
		set(c, "fillcolor", "#EEF6FB"); /* a pale tint of the group blue */
		set(c, "penwidth", "2");
		group_label(gb, g);
		set_text(gb, c, "label");
		gb->clusters[g] = c;
	}
}

/* "pass 1: lines 35–36\n2*n FLOP = 8.4 MFLOP\nstreaming 8*n B = 33.6 MB[\nleaves m, s]" */
static void pass_label(struct build *gb, const struct kc_pass *p, int i)
{
	struct kc_buf *b = &gb->text;
	kc_buf_printf(b, "pass %d", i + 1);
	if (p->callee || p->begin.line)
		kc_buf_puts(b, ": ");
	kc_words_pass_place(&gb->w, b, p);
	kc_buf_puts(b, "\\n");
	kc_words_count(&gb->w, b, p->flops, "FLOP", KC_COUNT_BOTH);
	kc_buf_puts(b, "\\nstreaming ");
	kc_words_count(&gb->w, b, kc_words_traffic_total(gb->w.arena, &p->streaming), "B", KC_COUNT_BOTH);
	for (int k = 0; k < p->n_scalars_out; k++) {
		kc_buf_puts(b, k ? ", " : "\\nleaves ");
		label_text(b, p->scalars_out[k]);
	}
}

static Agnode_t *add_pass_node(struct build *gb, int i)
{
	char name[32];
	int g = kc_words_group_of_pass(gb->df, i);
	snprintf(name, sizeof name, "pass%d", i);
	Agnode_t *n = agnode(g >= 0 ? gb->clusters[g] : gb->root, name, 1);
	set_id(gb, n, "pass", i);
	set(n, "class", "kc-pass");
	pass_label(gb, &gb->df->passes[i], i);
	set_text(gb, n, "label");
	gb->pass_nodes[i] = n;
	return n;
}

static const char *role_fill(enum kc_role role)
{
	switch (role) {
	case KC_ROLE_INPUT:
		return KC_GRAPH_COLOR_INPUT;
	case KC_ROLE_OUTPUT:
		return KC_GRAPH_COLOR_OUTPUT;
	case KC_ROLE_INOUT:
		return KC_GRAPH_COLOR_INOUT;
	case KC_ROLE_INTERMEDIATE:
		return KC_GRAPH_COLOR_INTERMEDIATE;
	default:
		return "#FFFFFF";
	}
}

/* "t1\nintermediate float[n]\nremoved by fusion: 16.8 MB" */
static void buffer_label(struct build *gb, const struct kc_buffer *buf, int removed)
{
	struct kc_buf *b = &gb->text;
	label_text(b, buf->name ? buf->name : "?");
	kc_buf_printf(b, "\\n%s ", kc_role_name(buf->role));
	kc_words_buffer_shape(&gb->w, b, buf);
	kc_buf_puts(b, removed ? "\\nremoved by fusion: " : "\\n");
	kc_words_buffer_bytes(&gb->w, b, buf);
}

/* The look of a buffer by role; removed intermediates white with a thick dashed vermillion outline. */
static void style_buffer(Agnode_t *n, const struct kc_buffer *buf, int removed)
{
	char class[64];
	snprintf(class, sizeof class, "kc-buffer kc-%s%s", kc_role_name(buf->role), removed ? " kc-removed" : "");
	set(n, "class", class);
	set(n, "shape", "ellipse");
	set(n, "style", removed ? "filled,dashed" : "filled");
	set(n, "fillcolor", removed ? "#FFFFFF" : role_fill(buf->role));
	if (removed) {
		set(n, "color", KC_GRAPH_COLOR_REMOVED);
		set(n, "penwidth", "2.5");
	}
}

/* The node of buffer b, created on first use: in the cluster of the group that removes it, if any. */
static Agnode_t *buffer_node(struct build *gb, int b)
{
	if (gb->buffer_nodes[b])
		return gb->buffer_nodes[b];
	const struct kc_buffer *buf = &gb->w.f->buffers[b];
	int g = gb->removed_by[b];
	char name[32];
	snprintf(name, sizeof name, "buf%d", b);
	Agnode_t *n = agnode(g >= 0 ? gb->clusters[g] : gb->root, name, 1);
	set_id(gb, n, "buf", b);
	style_buffer(n, buf, g >= 0);
	buffer_label(gb, buf, g >= 0);
	set_text(gb, n, "label");
	gb->buffer_nodes[b] = n;
	return n;
}

/* A data edge from -> to (once per pair); dashed vermillion when it touches a removed buffer. */
static void add_data_edge(struct build *gb, Agnode_t *from, Agnode_t *to, int buffer)
{
	if (agedge(gb->root, from, to, NULL, 0))
		return;
	Agedge_t *e = agedge(gb->root, from, to, NULL, 1);
	if (gb->removed_by[buffer] >= 0) {
		set(e, "style", "dashed");
		set(e, "color", KC_GRAPH_COLOR_REMOVED);
	}
}

/* Pass i, its reads (buffer -> pass) and writes (pass -> buffer). */
static void add_pass(struct build *gb, int i)
{
	const struct kc_pass *p = &gb->df->passes[i];
	for (int k = 0; k < p->n_reads; k++)
		buffer_node(gb, p->reads[k]);
	Agnode_t *n = add_pass_node(gb, i);
	for (int k = 0; k < p->n_reads; k++)
		add_data_edge(gb, buffer_node(gb, p->reads[k]), n, p->reads[k]);
	for (int k = 0; k < p->n_writes; k++)
		add_data_edge(gb, n, buffer_node(gb, p->writes[k]), p->writes[k]);
}

/* The look shared by the two edges of a note: dotted vermillion for a non-fusable pair, dashed blue for an
 * epilogue. */
static void style_note_edge(Agedge_t *e, const struct kc_fusion_edge *fe)
{
	set(e, "class", fe->legal ? "kc-epilogue" : "kc-not-fusable");
	set(e, "style", fe->legal ? "dashed" : "dotted");
	set(e, "color", fe->legal ? KC_GRAPH_COLOR_GROUP : KC_GRAPH_COLOR_NOT_FUSABLE);
	set(e, "penwidth", "2");
}

/* The verdict and reason of the noted pair edges[k], as a text node on the way from one pass to the other:
 * pass -> note -> pass, a rank apart each. Not a label on a pass -> pass edge that ranks nothing, as it was: dot
 * draws such an edge between two passes of one rank as a flat edge, and Graphviz 2.42 fails on flat edges. With
 * a label, and the passes not neighbours, it frees a rank's node array twice in dot_cleanup_graph (an abort
 * under ASan, heap corruption without: PolyBench gesummv, 3mm, trisolv, deriche); even without labels, flat edges
 * can send its mincross into an endless loop (flat_rev; seen on random dataflows with fusion groups). So every
 * edge of the graph ranks its ends (minlen 1) and none has a label: dot never makes a flat edge. The second edge
 * has weight 0: it does not pull the second pass up to the note. That pass comes below the note when the data
 * edges allow; otherwise dot turns the edge round, as it does data edges that close a cycle. A note is in a
 * cluster only when both passes are: an epilogue pair of one fusion group. */
static void add_fusion_note(struct build *gb, const struct kc_fusion_edge *fe, int k)
{
	char name[32];
	int g = kc_words_group_of_pass(gb->df, fe->from);
	snprintf(name, sizeof name, "note%d", k);
	Agnode_t *n =
	    agnode(g >= 0 && g == kc_words_group_of_pass(gb->df, fe->to) ? gb->clusters[g] : gb->root, name, 1);
	set_id(gb, n, "note", k);
	set(n, "class", fe->legal ? "kc-epilogue" : "kc-not-fusable");
	set(n, "shape", "plaintext");
	set(n, "style", "filled"); /* white under the text where another edge crosses it */
	set(n, "fontsize", "9");
	set(n, "margin", "0.05,0.02");
	kc_words_edge_verdict(&gb->text, fe);
	if (fe->reason) {
		kc_buf_puts(&gb->text, ":\\n");
		label_wrapped(&gb->text, fe->reason, REASON_WIDTH);
	}
	set_text(gb, n, "label");
	Agedge_t *in = agedge(gb->root, gb->pass_nodes[fe->from], n, NULL, 1);
	style_note_edge(in, fe);
	set(in, "arrowhead", "none");
	Agedge_t *out = agedge(gb->root, n, gb->pass_nodes[fe->to], NULL, 1);
	style_note_edge(out, fe);
	set(out, "weight", "0");
}

/* "gelu_unfused: 8 passes, 7 intermediates\nfusing every group: streaming 72*n → 8*n B (…)\n…" */
static void title_label(struct build *gb)
{
	const struct kc_dataflow *df = gb->df;
	struct kc_buf *b = &gb->text;
	label_text(b, gb->w.f->name ? gb->w.f->name : "?");
	kc_buf_printf(b, ": %d pass%s, %d intermediate%s", df->n_passes, df->n_passes == 1 ? "" : "es",
	              df->n_intermediates, df->n_intermediates == 1 ? "" : "s");
	if (df->n_groups > 0) {
		kc_buf_puts(b, "\\nfusing every group: streaming ");
		kc_words_change(&gb->w, b, kc_words_traffic_total(gb->w.arena, &df->before),
		                kc_words_traffic_total(gb->w.arena, &df->after), "B");
	}
	if (df->in_loop)
		kc_buf_printf(b, "\\npasses of the loop at lines %u%s%u; counts per call", df->loop_begin.line,
		              gb->w.dash, df->loop_end.line);
}

static void build_init(struct build *gb, const struct kc_function *f, struct kc_arena *arena, int id)
{
	const struct kc_dataflow *df = &f->dataflow;
	memset(gb, 0, sizeof *gb);
	kc_figure_memo_init(&gb->memo, arena);
	gb->w = (struct kc_words){arena, &gb->memo, f, label_text, "\xe2\x80\x93", "\xe2\x86\x92"}; /* – → */
	gb->df = df;
	gb->id = id;
	gb->clusters = KC_NEW_N(arena, Agraph_t *, df->n_groups + 1);
	gb->pass_nodes = KC_NEW_N(arena, Agnode_t *, df->n_passes + 1);
	gb->buffer_nodes = KC_NEW_N(arena, Agnode_t *, f->n_buffers + 1);
	gb->removed_by = KC_NEW_N(arena, int, f->n_buffers + 1);
	for (int b = 0; b < f->n_buffers; b++)
		gb->removed_by[b] = kc_words_group_removing(df, b);
}

/* The whole graph. Graph attributes set on the root become defaults of subgraphs created later, so the
 * clusters come first and the root's own label and id last. */
static void build_graph(struct build *gb)
{
	gb->root = agopen((char *)"dataflow", Agdirected, NULL);
	declare_defaults(gb->root);
	add_clusters(gb);
	for (int i = 0; i < gb->df->n_passes; i++)
		add_pass(gb, i);
	for (int i = 0; gb->df->edges && i < gb->df->n_passes - 1; i++)
		if (kc_words_edge_noted(&gb->df->edges[i]))
			add_fusion_note(gb, &gb->df->edges[i], i);
	set(gb->root, "labelloc", "t");
	title_label(gb);
	set_text(gb, gb->root, "label");
	char id[32];
	snprintf(id, sizeof id, "kcdf%d", gb->id);
	set(gb->root, "id", id);
}

/* ---- rendering --------------------------------------------------------------------------------------- */

/* Graphviz reports through one global callback; during a render its messages collect here. */
static struct kc_buf *graphviz_messages;

static int collect_message(char *text)
{
	if (graphviz_messages)
		kc_buf_puts(graphviz_messages, text);
	return 0;
}

/* g in DOT, as it stands (before layout), into out. -1 when no memory stream could be opened. */
static int write_dot(Agraph_t *g, struct kc_buf *out)
{
	char *data = NULL;
	size_t len = 0;
	FILE *stream = open_memstream(&data, &len);
	if (!stream)
		return -1;
	int rc = agwrite(g, stream);
	if (fclose(stream) != 0)
		rc = -1;
	if (rc == 0)
		kc_buf_add(out, data, len);
	free(data);
	return rc == 0 ? 0 : -1;
}

/* Append data[0..len) from its first "<svg" on: the element without the XML prolog and DOCTYPE. */
static int append_svg_element(struct kc_buf *out, const char *data, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if (memcmp(data + i, "<svg", 4) == 0) {
			kc_buf_add(out, data + i, len - i);
			return 0;
		}
	return -1;
}

/* Lay g out with dot and append its <svg> element to out. */
static int render_svg(GVC_t *gvc, Agraph_t *g, struct kc_buf *out)
{
	char *data = NULL;
	unsigned int len = 0; /* Graphviz 2.x; later releases take a size_t * */
	int rc = gvLayout(gvc, g, "dot");
	if (rc == 0)
		rc = gvRenderData(gvc, g, "svg", &data, &len);
	if (rc == 0)
		rc = data ? append_svg_element(out, data, len) : -1;
	if (data)
		gvFreeRenderData(data);
	gvFreeLayout(gvc, g);
	return rc == 0 ? 0 : -1;
}

/* err = "graphviz: <what>: <its last message>" (or without the message when it said nothing). */
static void graphviz_error(struct kc_buf *err, const char *what, struct kc_buf *messages)
{
	size_t n = messages->len;
	while (n > 0 && (messages->data[n - 1] == '\n' || messages->data[n - 1] == ' '))
		n--;
	kc_buf_printf(err, "graphviz: %s", what);
	if (n > 0) {
		kc_buf_puts(err, ": ");
		kc_buf_add(err, messages->data, n);
	}
}

/* DOT and SVG of gb's graph into dot_text and svg_text; -1 with err set. */
static int render_outputs(struct kc_graph_ctx *ctx, struct build *gb, struct kc_buf *dot_text, struct kc_buf *svg_text)
{
	struct kc_buf messages = KC_BUF_INIT;
	agusererrf previous = agseterrf(collect_message);
	int rc = 0;
	graphviz_messages = &messages;
	if (dot_text && write_dot(gb->root, dot_text) < 0) {
		graphviz_error(&ctx->err, "cannot write DOT", &messages);
		rc = -1;
	} else if (svg_text && render_svg(ctx->gvc, gb->root, svg_text) < 0) {
		graphviz_error(&ctx->err, "cannot lay out or render SVG", &messages);
		rc = -1;
	}
	graphviz_messages = NULL;
	agseterrf(previous);
	kc_buf_release(&messages);
	return rc;
}

/* The library `name` (core, dot_layout) from the plugin directory of the libgvc kcost runs with. */
static void *plugin_library(const char *dir, const char *name)
{
	static const char *const suffixes[] = {".so.6", ".so"};
	char path[1024], sym[64];
	snprintf(sym, sizeof sym, "gvplugin_%s_LTX_library", name);
	for (int i = 0; i < 2; i++) {
		int n = snprintf(path, sizeof path, "%s/graphviz/libgvplugin_%s%s", dir, name, suffixes[i]);
		if (n < 0 || (size_t)n >= sizeof path) /* cut short: another file's name */
			continue;
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		void *lib = h ? dlsym(h, sym) : NULL;
		if (lib)
			return lib; /* the handle stays open: the context uses the plugin until the process ends */
		if (h)
			dlclose(h);
	}
	return NULL;
}

/* A context with the two plugins kcost uses: dot layout and the core renderers (SVG, DOT). gvContext()
 * loads every installed plugin, and pango's text layout starts fontconfig: 20 ms before the first graph,
 * more than rendering the graphs. Without it, text widths come from Graphviz's built-in metrics (the graphs
 * use Helvetica, which it knows). Falls back to gvContext() when the plugins are not where libgvc is. */
static GVC_t *new_context(void)
{
	Dl_info info;
	char dir[1024];
	if (dladdr((void *)gvContext, &info) && info.dli_fname && strlen(info.dli_fname) < sizeof dir) {
		snprintf(dir, sizeof dir, "%s", info.dli_fname);
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			void *core = plugin_library(dir, "core"), *dot = plugin_library(dir, "dot_layout");
			if (core && dot) {
				static lt_symlist_t builtins[] = {{"gvplugin_core_LTX_library", NULL},
				                                  {"gvplugin_dot_layout_LTX_library", NULL},
				                                  {NULL, NULL}};
				builtins[0].address = core;
				builtins[1].address = dot;
				return gvContextPlugins(builtins, 0);
			}
		}
	}
	return gvContext();
}

struct kc_graph_ctx *kc_graph_open(void)
{
	struct kc_graph_ctx *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	if (!shared_gvc)
		shared_gvc = new_context();
	if (!shared_gvc) {
		free(g);
		return NULL;
	}
	g->gvc = shared_gvc;
	return g;
}

void kc_graph_close(struct kc_graph_ctx *g)
{
	if (!g)
		return;
	kc_buf_release(&g->err);
	free(g);
}

int kc_graph_render(struct kc_graph_ctx *g, const struct kc_function *f, struct kc_buf *svg, struct kc_buf *dot,
                    const char **err)
{
	struct kc_arena arena = KC_ARENA_INIT;
	struct kc_buf dot_text = KC_BUF_INIT, svg_text = KC_BUF_INIT;
	struct build gb;
	int rc = -1;
	kc_buf_reset(&g->err);
	if (check_dataflow(f, &g->err) < 0)
		goto end;
	build_init(&gb, f, &arena, ++g->n_rendered);
	build_graph(&gb);
	/* dot's layout grows much faster than the graph: a random program's main of 85 calls took minutes. Past
	 * KC_GRAPH_MAX_PASSES the DOT is still written, the SVG says why it is not drawn */
	int too_big = svg && f->dataflow.n_passes > KC_GRAPH_MAX_PASSES;
	rc = render_outputs(g, &gb, dot ? &dot_text : NULL, svg && !too_big ? &svg_text : NULL);
	if (rc == 0 && too_big) {
		kc_buf_printf(&svg_text,
		              "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kc-graph-not-drawn\" width=\"560\" "
		              "height=\"40\"><text x=\"8\" y=\"24\" font-family=\"Helvetica\" font-size=\"12\">");
		kc_escape_html(&svg_text, f->name);
		kc_buf_printf(&svg_text,
		              ": %d passes, more than %d: not drawn (the DOT file has the graph)</text></svg>\n",
		              f->dataflow.n_passes, KC_GRAPH_MAX_PASSES);
	}
	agclose(gb.root);
	kc_buf_release(&gb.text);
	kc_figure_memo_release(&gb.memo);
	if (rc == 0) {
		if (dot)
			kc_buf_add(dot, dot_text.data ? dot_text.data : "", dot_text.len);
		if (svg)
			kc_buf_add(svg, svg_text.data ? svg_text.data : "", svg_text.len);
	}
end:
	if (rc < 0)
		*err = kc_buf_str(&g->err);
	kc_buf_release(&dot_text);
	kc_buf_release(&svg_text);
	kc_arena_release(&arena);
	return rc;
}

/* graph.h — the dataflow graph of one function (passes, buffers, fusion groups, non-fusable pairs): built with
 * Graphviz cgraph, laid out and rendered to SVG and DOT in-process by gvc. The only file of kcost that includes
 * Graphviz. Reads kc_function.dataflow; never modifies the model. The terminal's compact form of the same
 * dataflow is text.h's, in the same words (words.h).
 *
 * What the picture shows (see graph.c for the attributes):
 *  - a box per pass: "pass 1: lines 35–36" or "pass 3: call mlp_bias", its FLOPs and its streaming bytes,
 *    formula and value ("2*n FLOP = 33.6 MFLOP");
 *  - an ellipse per buffer some pass reads or writes: name, role, element type and extent, bytes; filled by role;
 *  - edges buffer -> pass for reads and pass -> buffer for writes;
 *  - a cluster per fusion group, labelled with its streaming bytes and FLOP/byte intensity before -> after;
 *  - the intermediates a group removes inside its cluster, white with a thick dashed vermillion outline and
 *    "removed by fusion: 16.8 MB";
 *  - for each non-fusable pair a note, "not fusable (reduction):" and the reason, on dotted vermillion edges
 *    pass -> note -> pass (the note a rank below the first pass); dashed blue ones and "fusable as epilogue:"
 *    for a pair fusable only as an epilogue. Notes, not edge labels: see graph.c, add_fusion_note.
 * Colours are the Okabe–Ito palette (below, for the report's legend); role and removal are also spelled in the
 * labels, so nothing depends on colour alone. Every SVG element carries a class (kc-pass, kc-buffer, kc-input,
 * kc-output, kc-inout, kc-intermediate, kc-unused, kc-removed, kc-fusion-group, kc-not-fusable, kc-epilogue).
 *
 * Ids. An SVG from kc_graph_render is meant to be inlined in one HTML page with others, so its ids are unique per
 * context: the n-th graph rendered by a context (n from 1) has root id "kcdf<n>", passes "kcdf<n>_pass<i>",
 * buffers "kcdf<n>_buf<b>" (i and b the 0-based model indices), notes "kcdf<n>_note<k>" (k the index of the pair
 * in dataflow.edges), clusters "kcdf<n>_group<g>" (g from 1); Graphviz numbers the edges "kcdf<n>_edge<k>".
 *
 * Escaping. Names and reasons may hold anything a C macro can produce. They go into plain Graphviz labels with
 * backslashes doubled and '&' written "&amp;" (Graphviz would otherwise expand "\N" or "&lt;"), newlines as
 * line breaks, other control characters and invalid UTF-8 as U+FFFD; cgraph quotes the DOT, gvc's SVG renderer
 * escapes the XML. Graph, node and edge names are generated ("pass0", "buf3"), never user text.
 */
#ifndef KC_GRAPH_H
#define KC_GRAPH_H

#include "buf.h"
#include "analysis.h"

/* Okabe–Ito colours of the graph, for a legend that matches it. */
#define KC_GRAPH_COLOR_INPUT        "#56B4E9" /* sky blue: fill of input buffers */
#define KC_GRAPH_COLOR_OUTPUT       "#009E73" /* bluish green: fill of output buffers */
#define KC_GRAPH_COLOR_INOUT        "#E69F00" /* orange: fill of in-out buffers */
#define KC_GRAPH_COLOR_INTERMEDIATE "#F0E442" /* yellow: fill of intermediates fusion keeps */
#define KC_GRAPH_COLOR_REMOVED      "#D55E00" /* vermillion: dashed outline of removed intermediates */
#define KC_GRAPH_COLOR_NOT_FUSABLE  "#D55E00" /* vermillion: dotted edges between non-fusable passes */
#define KC_GRAPH_COLOR_GROUP        "#0072B2" /* blue: fusion group outlines, epilogue notes */

/* A rendering context for a whole run: numbers the graphs it renders and holds the last error. */
struct kc_graph_ctx;

/* A new context, or NULL when Graphviz cannot be initialised (out of memory). Release with kc_graph_close.
 * All contexts share one Graphviz GVC_t, created by the first call and kept until the process exits (reachable,
 * not leaked): Graphviz 2.43's pango plugin reads freed memory if a GVC_t is freed and another used later. */
struct kc_graph_ctx *kc_graph_open(void);
/* Free the context. NULL is ignored. */
void kc_graph_close(struct kc_graph_ctx *g);

/* Render f's dataflow graph: append to svg one <svg> element (no XML prolog or DOCTYPE: ready to inline in
 * HTML; write it to a .svg file as is, it is well-formed XML), and to dot the graph in DOT before layout (for
 * users who edit or re-render it). Either of svg and dot may be NULL to skip that output.
 * A function without passes gives a graph holding only its title; the layout engine is "dot".
 * Returns 0, or -1 with *err set and nothing appended: the dataflow refers to a pass or buffer that does not
 * exist ("pass 3 reads buffer 12 of 9"), or Graphviz failed (its own message, e.g. a missing layout plugin).
 * *err is owned by the context and valid until its next call or kc_graph_close. Graphviz warnings during a
 * successful render are dropped (labels are sanitised so that none are expected). Not thread-safe: Graphviz
 * keeps global state, so one thread renders at a time. */
/* Beyond this many passes the SVG is a one-line notice instead of a layout (the DOT is complete). */
#define KC_GRAPH_MAX_PASSES 48
int kc_graph_render(struct kc_graph_ctx *g, const struct kc_function *f, struct kc_buf *svg, struct kc_buf *dot,
                    const char **err);

#endif

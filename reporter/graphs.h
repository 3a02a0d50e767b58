/* graphs.h — internal to reporter/: the report's dataflow graphs, one per reported function with two passes or
 * more, rendered once (graph.h) and shared by the page, which inlines them, report.json, which names their
 * files, and report.c, which writes graphs/<name>.svg and .dot. */
#ifndef KC_GRAPHS_H
#define KC_GRAPHS_H

#include "analysis.h"
#include "arena.h"
#include "figures.h"

/* A function's rendered dataflow graph: written to <out>/<base>.svg and .dot, inlined in the page. */
struct kc_report_graph {
	const char *base; /* "graphs/gelu_unfused"; NULL when the function has no graph (fewer than 2 passes) */
	const char *svg, *dot;
	const char *error; /* why it could not be rendered; svg and dot are then NULL */
};

/* Where function i's graph goes, without extension, allocated from a: "graphs/<name>", or "graphs/<name>-<i>"
 * when another reported function has the same name. */
const char *kc_graphs_base(struct kc_arena *a, const struct kc_analysis *an, int i);

/* Render the dataflow graphs of rf's functions once, into rf->arena: rf->graphs is then an array indexed like
 * an->functions. A graph Graphviz cannot render keeps its error instead; nothing here fails. Not thread-safe
 * (Graphviz is not): call it before other threads render outputs that read rf->graphs. */
void kc_graphs_render(struct kc_report_figures *rf);

#endif

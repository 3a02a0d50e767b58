/* graphs.c — rendering the report's dataflow graphs once, for every output that shows them. */
#include "graphs.h"

#include <string.h>

#include "graph.h"

const char *kc_graphs_base(struct kc_arena *a, const struct kc_analysis *an, int i)
{
	const struct kc_function *f = an->functions[i];
	int dup = 0;
	for (int k = 0; k < an->n_functions; k++)
		dup |= k != i && !an->functions[k]->skip && strcmp(an->functions[k]->name, f->name) == 0;
	return dup ? kc_arena_printf(a, "graphs/%s-%d", f->name, i) : kc_arena_printf(a, "graphs/%s", f->name);
}

/* SVG for the page and graphs/, DOT for graphs/. */
void kc_graphs_render(struct kc_report_figures *rf)
{
	if (rf->graphs)
		return;
	const struct kc_analysis *an = rf->an;
	rf->graphs = KC_NEW_N(&rf->arena, struct kc_report_graph, an->n_functions + 1);
	int wanted = 0;
	for (int i = 0; i < an->n_functions; i++)
		wanted |= !an->functions[i]->skip && an->functions[i]->dataflow.n_passes >= 2;
	struct kc_graph_ctx *g = wanted ? kc_graph_open() : NULL; /* starting Graphviz loads fonts: only if needed */
	for (int i = 0; i < an->n_functions; i++) {
		const struct kc_function *f = an->functions[i];
		struct kc_report_graph *rg = &rf->graphs[i];
		if (f->skip || f->dataflow.n_passes < 2)
			continue; /* one pass: no dataflow worth a picture */
		rg->base = kc_graphs_base(&rf->arena, an, i);
		struct kc_buf svg = KC_BUF_INIT, dot = KC_BUF_INIT;
		const char *err = "Graphviz could not start";
		if (g && kc_graph_render(g, f, &svg, &dot, &err) == 0) {
			rg->svg = kc_arena_strdup(&rf->arena, kc_buf_str(&svg));
			rg->dot = kc_arena_strdup(&rf->arena, kc_buf_str(&dot));
		} else {
			rg->error = kc_arena_strdup(&rf->arena, err);
		}
		kc_buf_release(&svg);
		kc_buf_release(&dot);
	}
	kc_graph_close(g);
}

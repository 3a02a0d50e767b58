/* html.h — internal to reporter/: index.html, one self-contained page (inline CSS, JS and SVG; nothing fetched),
 * readable without JavaScript. */
#ifndef KC_HTML_H
#define KC_HTML_H

#include "figures.h"
#include "measure.h"
#include "output.h"

/* The page, appended to s (drained between function sections). The dataflow graphs are inlined when rf->graphs
 * is set (kc_graphs_render). The sections of pieces' functions come from pieces (NULL: all rendered here).
 * Source files named by the functions' locations are read (kc_source_get) to list their code. */
void kc_html_page(struct kc_output_sink *s, struct kc_report_figures *rf, const struct kc_measurements *m,
                  const struct kc_output_meta *meta, const struct kc_output_pieces *pieces);

#endif

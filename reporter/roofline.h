/* roofline.h — internal to reporter/: the roofline chart, shared by the HTML page and roofline.svg. */
#ifndef KC_ROOFLINE_H
#define KC_ROOFLINE_H

#include "analysis.h"
#include "arena.h"
#include "buf.h"
#include "figures.h"
#include "measure.h"

/* Append the chart as an inline <svg id="roofline"> element (no XML declaration) to b. figs are the functions'
 * figures (kc_report_figures.functions); scratch data comes from a. With a measured machine it draws the roofs,
 * the predicted points on them and the measured points; without, each function's predicted intensity as a
 * labelled tick on the x axis. */
void kc_roofline_chart(struct kc_buf *b, struct kc_arena *a, const struct kc_analysis *an,
                       const struct kc_cost_figures *figs, const struct kc_measurements *m);

/* One function's own small roofline, for its section: the roofs that bound it on this machine — the bandwidth
 * of the memory level its working set lives in, and the compute, latency and transcendental rates its
 * predicted nests allow (its FLOPs over each resource's predicted time) — its predicted point on them and its
 * measured point, with the named bound. Nothing when its time cannot be predicted. Scratch data from a. */
void kc_roofline_mini(struct kc_buf *b, struct kc_arena *a, const struct kc_function *f,
                      const struct kc_cost_figures *cf, const struct kc_measurements *m);

/* The chart alone as a standalone SVG document (XML declaration, xmlns), appended to b. */
void kc_roofline_document(struct kc_buf *b, struct kc_report_figures *rf, const struct kc_measurements *m);

#endif

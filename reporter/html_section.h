/* html_section.h — internal to reporter/: one function's section of the HTML page (html.h), rendered by the
 * page's thread or by a helper thread, and the small pieces of HTML the page writes the same way. */
#ifndef KC_HTML_SECTION_H
#define KC_HTML_SECTION_H

#include "analysis.h"
#include "buf.h"
#include "figures.h"
#include "measure.h"

/* A renderer of sections, one per thread: its scratch memory is its own. It reads rf (rf->graphs, when set,
 * for the inlined graphs) and m, which must outlive it. NULL on out-of-memory; closing NULL does nothing. */
struct kc_html_sections;
struct kc_html_sections *kc_html_sections_open(struct kc_report_figures *rf, const struct kc_measurements *m);
/* Append function i's <section id="fn-NAME"> to out. A nest's figures it needs and rf has not derived are
 * derived into rf (kc_figures_nest): a helper thread's sections need them derived beforehand. */
void kc_html_section(struct kc_html_sections *hs, struct kc_buf *out, int i);
void kc_html_sections_close(struct kc_html_sections *hs);

/* The id of a function's section, fn-NAME: characters outside [A-Za-z0-9_.-] are written as -XX (hex), so any
 * name gives a valid id (and a valid URL fragment). */
void kc_html_fn_id(struct kc_buf *b, const char *name);
/* <a href="#fn-NAME">NAME</a>: the link to a function's section (name escaped; the id written so that any
 * name gives a valid one). */
void kc_html_fn_link(struct kc_buf *b, const char *name);
/* <span class="exact">exact</span>, or class "approx" with kc_format_exactness's words. */
void kc_html_exact_badge(struct kc_buf *b, const struct kc_function *f);
/* <ul class="diags"> with one item per diagnostic: location, severity, message. */
void kc_html_diags(struct kc_buf *b, const struct kc_diags *list);

#endif

/* markdown.h — internal to reporter/: summary.md, GitHub-flavoured Markdown for a pull-request comment. */
#ifndef KC_MARKDOWN_H
#define KC_MARKDOWN_H

#include "buf.h"
#include "figures.h"
#include "measure.h"

/* The most bytes kc_markdown_write appends (GitHub caps a comment at 65,536 characters). */
#define KC_MARKDOWN_MAX 60000

/* A table, findings and diagnostics from rf's figures, appended to b. Longer output than KC_MARKDOWN_MAX is
 * cut at a line boundary and ends with a note saying so. */
void kc_markdown_write(struct kc_buf *b, struct kc_report_figures *rf, const struct kc_measurements *m);

/* A measurement's error for a table cell, without the kernel's own output: what a kernel printed (its stderr,
 * quoted after the runner's mark "; its stderr began: ") must not reach a pull-request comment; report.json and
 * index.html keep it. */
void kc_markdown_error(struct kc_buf *b, const char *error);

#endif

/* report.h — the reporter: turns an analysis (and, when present, measurements) into report.json, a terminal
 * table, a Markdown summary for pull requests and a self-contained HTML report with an SVG roofline.
 *
 * Every entry point only reads `an` and `m`; derived counts and formatted strings live in a scratch arena
 * that each call releases before returning. `m` may be NULL, or have m->machine == NULL: everything is then
 * reported as "not measured". Functions with `skip` set are left out of every output.
 *
 * Every figure names its unit and, for bytes and intensity, its traffic model (min, streaming, naive);
 * measured figures are labelled as measured and never mixed with predictions. */
#ifndef KC_REPORT_H
#define KC_REPORT_H

#include <stdio.h>

#include "buf.h"
#include "measure.h"
#include "analysis.h"

struct cJSON;

/* What kc_report_write also prints (the CLI's stdout), from the same derived figures as the files. */
enum kc_report_print { KC_PRINT_NONE, KC_PRINT_TEXT, KC_PRINT_JSON, KC_PRINT_MD, KC_PRINT_SARIF };

/* How the report was produced and where it goes. Every field may be NULL/0. */
struct kc_report_opts {
	const char *out_dir;        /* kc_report_write's directory, "kcost-report" when NULL */
	enum kc_report_print print; /* kc_report_write: also print this output to print_to */
	FILE *print_to;
	int print_color;            /* ANSI colours in the printed text table */
	const char *const *command; /* argv of the kcost run, recorded in report.json */
	int n_command;
	const char *version; /* kcost version, "unknown" when NULL */
	int no_run;          /* --no-run: the report says measurement was not requested */
	const char *created; /* ISO-8601 time to record; NULL: $SOURCE_DATE_EPOCH if set, else now (UTC) */
	int threads;         /* kc_report_write's threads: 0 chooses (2 for 64+ functions on 2+ cores), 1 or 2 */
	/* Markdown that leads summary.md and the printed Markdown (--baseline's comparison, kc_diff_render), or
	 * NULL; the summary after it is cut where both would pass KC_REPORT_COMMENT_MAX bytes */
	const char *summary_lead;
	const struct kc_diags *run_diags; /* the runner's diagnostics (kc_run's), for kcost.sarif; NULL: none */
};

#define KC_REPORT_COMMENT_MAX 64000

/* The report.json document (schema 1, see the comment at the top of json.c for every key). The caller owns
 * the result and cJSON_Delete()s it. NULL on out-of-memory. */
struct cJSON *kc_report_json(const struct kc_analysis *an, const struct kc_measurements *m,
                             const struct kc_report_opts *o);

/* The terminal summary: one aligned row per function (FLOPs, transcendentals, bytes under the min model,
 * intensity per model, exact flag, and measured time/throughput when measured), then one formula line per
 * function. `color` adds ANSI colours (use when `out` is a TTY). Prints nothing when no function was
 * analyzed. */
void kc_report_text(FILE *out, const struct kc_analysis *an, const struct kc_measurements *m, int color);

/* GitHub-flavoured Markdown for a pull-request comment, appended to b: a table, findings and diagnostics.
 * What is appended never exceeds KC_REPORT_MD_MAX bytes; longer output is cut at a line boundary and ends
 * with a note saying so. */
#define KC_REPORT_MD_MAX 60000
void kc_report_markdown(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m);

/* The HTML report appended to b: one self-contained page (inline CSS, JS and SVG; nothing fetched), readable
 * without JavaScript. Source files named by the functions' locations are read to show their code. */
void kc_report_html(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m,
                    const struct kc_report_opts *o);

/* The roofline chart alone as a standalone SVG document (XML declaration, xmlns), appended to b. */
void kc_report_roofline_svg(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m);

/* Write index.html, report.json, summary.md, roofline.svg, kcost.sarif (SARIF 2.1.0: the analysis's diagnostics,
 * those of the reported functions and o->run_diags, reporter/sarif.h) and graphs/ (<function>.svg and .dot) into
 * o->out_dir, creating it and its parents when missing, then print o->print to o->print_to (even when
 * writing failed): deriving the figures is most of the work, so every output shares one derivation; the
 * printed JSON is report.json's bytes. o may be NULL (all defaults, nothing printed).
 *
 * The directory must be new, empty, or a previous kcost report (it holds .kcost-report, written first, or a
 * report.json of kcost's); anything else is refused and left untouched. It is locked while written, so two
 * kcost runs with one directory leave the files of one of them, never a mix. Every file is written to a
 * temporary name of kcost's own (never through a symbolic link planted in the directory) and renamed, so a
 * reader never sees half of one.
 *
 * Returns 0; -1 when the directory or a file in it could not be written (refused, read-only, full, not a
 * directory: a problem of the user's input or machine); -2 when the report could not be built (out of
 * memory). On failure *err points at a message naming the path and the reason, such as "cannot write
 * out/index.html: No space left on device" (static storage, valid until the next call). */
int kc_report_write(const struct kc_analysis *an, const struct kc_measurements *m, const struct kc_report_opts *o,
                    const char **err);

/* Whether kc_report_write would refuse dir (NULL: "kcost-report"), as far as can be told without creating
 * anything: not a directory, not empty and no kcost report, not writable. For a caller to refuse it before
 * the analysis and the runs; kc_report_write checks again. 0, or -1 with *err as above. */
int kc_report_check_dir(const char *dir, const char **err);

#endif

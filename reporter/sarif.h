/* sarif.h — SARIF 2.1.0 logs, for code scanning (GitHub shows each result on the lines it names): kcost's
 * diagnostics and the regressions of a comparison of two runs, each a result of one rule of the tool "kcost".
 *
 * The log has one run. Its rules are fixed and listed whole, so a rule's id and index never change: one per
 * diagnostic kind (base/diag.h), `kcost/compiler` ... `kcost/run`, and `kcost/regression`. A location is the
 * file as kcost names it: a relative path is a URI relative to SRCROOT (uriBaseId), the directory kcost runs
 * in (originalUriBaseIds, a file:// URI ending in '/'); an absolute path is a file:// URI; either percent-encoded
 * (everything but letters, digits, `-._~` and `/`). Columns are in Unicode code points (run.columnKind), from
 * the source line where it can be read (clang's columns count bytes). Message texts come from the user's code
 * and from reports a pull request can forge: they are made visible and one line (kc_escape_sarif_text), and
 * JSON is cJSON's. */
#ifndef KC_SARIF_H
#define KC_SARIF_H

#include "buf.h"
#include "diag.h"

/* One function that regressed, for kc_sarif_add_regressions: what `kcost diff` finds between two reports,
 * and what any other comparison of two runs of kcost is to hand over the same way. */
struct kc_sarif_regression {
	const char *function; /* its name */
	const char *file;     /* as the newer run names it: relative to the directory kcost ran in, or absolute */
	unsigned line;        /* its first line in the newer run; 0: not known (the result then has no region) */
	const char *verdict;  /* how it regressed: "slower", "more bytes", "more FLOPs" */
	double ratio;         /* newer / older of the figure the verdict is about (the median time, the bytes...) */
	const char *changes;  /* what else changed, on one line ("bytes (streaming): 8*n -> 72*n"), or NULL */
	int gate;             /* 1: beyond the gate (--fail-on-regression): level "error"; 0: "warning" */
};

struct kc_sarif;

/* A new log of kcost `version` (NULL: "unknown"), with SRCROOT the current directory (left out when it
 * cannot be read). NULL when out of memory. */
struct kc_sarif *kc_sarif_open(const char *version);

/* Add a result for each diagnostic of list, in order: level "error", "warning" or "note" (notes included:
 * they are report.json's too, and a consumer filters by level), ruleId its kind's rule, the message, and
 * the location when it has a file (a region when it has a line; a startColumn when it has a column), with the
 * function as a logical location when it belongs to one. */
void kc_sarif_add_diags(struct kc_sarif *s, const struct kc_diags *list);

/* Add a result of rule `kcost/regression` for each of the n regressions: at the function's file and line,
 * message "'NAME': VERDICT, RATIOx the base; CHANGES", properties {verdict, ratio}. */
void kc_sarif_add_regressions(struct kc_sarif *s, const struct kc_sarif_regression *r, int n);

/* Append the log to b as JSON text ending in a newline, and free s. 0, or -1 when some part of it could not
 * be allocated, or s is NULL (kc_sarif_open failed): nothing is appended. */
int kc_sarif_close(struct kc_sarif *s, struct kc_buf *b);

#endif

/* merge.h — `kcost merge`: the reports of a sharded CI matrix (one kcost run per job, each over some of the
 * files) joined into one report, as one run over all of the files would have written it.
 *
 * report.json (schema 1) holds the shards' functions in the order of the inputs, each as its shard wrote it
 * (its text copied from the input where the text was given: a number written digit for digit beyond 2^53 keeps
 * its digits), the shards' file-level diagnostics one after another, and `merged_from`: per input, its name
 * as given, its `created`, `command` and number of functions (and its own `merged_from` when it was a merge
 * itself). The top level otherwise:
 *   schema 1; kcost_version the shards' (they must be equal); command the `kcost merge` command line (each
 *   shard's is in merged_from); created the merge's time; files the shards' inputs, each once; parse_failed
 *   when any shard's is; no_run when every shard's is; machine that of the first shard with measured timings,
 *   else of the first shard with one; sandbox the first non-null one, or, when the shards' differ, the first
 *   that was not used (the weaker claim); any other key as the first shard has it.
 * A function's dataflow graph keeps its name (graphs/NAME.svg) unless another merged function has the same
 * name: then it is graphs/NAME-I.svg, I its place in the merged list, as one run names them (where the shards
 * left no function out of their reports, I is the run's index too).
 *
 * Conflicts are errors naming both inputs: a function (its file and name) in two shards; two kcost versions;
 * two shards with measured timings (a function whose "measured" is not null) from different machines: their
 * machine's cpu, cores, caches, hypothetical, from_file, ceilings.flops, ceilings.peak or ceilings.measured_at
 * differ (two runs on one machine share its cached ceilings; the bandwidths and latency medians sampled beside
 * a run's kernels are that run's, and are not compared). A shard without a machine (`--no-run`) merges with
 * any. Two machines that differ where a shard has no timings are a warning: the merged machine is named.
 *
 * The reports are untrusted input: a value the merge reads is checked for its type (one of the wrong type is an
 * error, or is read as absent where only an output shows it), and every name is escaped for the output it goes
 * to (reporter/escape.h); names on a terminal are kc_visible_puts'. */
#ifndef KC_MERGE_H
#define KC_MERGE_H

#include <stddef.h>

#include "buf.h"

struct cJSON;

/* One report to merge. The merge reads report and sarif without changing them, and its document refers to
 * their values: they and the strings must outlive it (the array of inputs need not: it is copied). */
struct kc_merge_input {
	const char *name;     /* as given (a report.json, or its directory): merged_from[].path, and how the outputs
	                       * name it unless label is set */
	struct cJSON *report; /* its report.json, parsed */
	const char *text;     /* the text report was parsed from, or NULL (functions are then printed from the parse) */
	struct cJSON *sarif;  /* its kcost.sarif, parsed, or NULL */
	const char *no_sarif; /* when sarif is NULL: why there is none ("no such file"), for a warning; or NULL */
	const char *dir;      /* the directory of its report.json, whose index.html and graphs/ kc_merge_write copies;
	                       * NULL: none */
	const char *label;    /* or NULL: how the outputs (messages, the text summary, summary.md, index.html) name it,
	                       * where its path is not for a person (kcost -j N's shards, in a temporary directory, are
	                       * named by their files) */
};

struct kc_merge_opts {
	const char *version;        /* the merging kcost's: index.html's generator ("unknown" when NULL) */
	const char *const *command; /* the command line, report.json's "command"; NULL: the first shard's */
	int n_command;
	const char *created; /* NULL: $SOURCE_DATE_EPOCH when set, else now */
	const char *out_dir; /* the directory named in the text summary's last line; NULL: "kcost-report" */
};

struct kc_merge;

/* Merge the n reports in[0..n), in that order. 0 with *out set; -1 when an input is not a kcost report or two
 * conflict, with err saying which, naming the inputs ("function 'f' (k.c) is in both A/report.json and
 * B/report.json"); -2 when out of memory. Warnings (a shard without kcost.sarif, another machine without timings)
 * are kept for kc_merge_render_problems. */
int kc_merge_reports(const struct kc_merge_input *in, int n, const struct kc_merge_opts *o, struct kc_merge **out,
                     char *err, size_t err_size);

enum kc_merge_output {
	KC_MERGE_TEXT,  /* a line per input and one of totals, for a terminal */
	KC_MERGE_JSON,  /* report.json */
	KC_MERGE_MD,    /* summary.md: one pull-request comment for all the shards (below) */
	KC_MERGE_SARIF, /* kcost.sarif (below) */
	KC_MERGE_HTML,  /* index.html (below) */
};

/* The most bytes KC_MERGE_MD appends (GitHub holds 65,536 characters in a comment); rows beyond it are counted. */
#define KC_MERGE_MD_MAX 60000

/* Append an output of the merge to b. 0, or -1 when it could not be built (out of memory).
 *
 * KC_MERGE_MD: when functions carry `baseline` objects (kcost --baseline), their comparison first: the
 * regressions ("slower", or `regressed`), the improvements ("faster"), the other changes ("inconclusive",
 * "changed", "added"), each a line with its verdict, ratio, interval, p and FLOP formula, in at most
 * KC_DIFF_MD_MAX bytes (the rest counted), then "N functions unchanged"; then the table of the functions (name,
 * file, FLOPs, streaming bytes, exactness, the measured median and the predicted bound when there are any),
 * cut at KC_MERGE_MD_MAX with the number of rows left out.
 * KC_MERGE_SARIF: one SARIF 2.1.0 log of one run: the first log's tool, rules and run properties and every
 * input's results, in order (a result's ruleIndex stays valid: kcost's rules are fixed, reporter/sarif.h). A log
 * whose rules differ from the first's, or that is not kcost's, is left out with a warning; so is a result that
 * is not one of kcost's (a ruleIndex out of range or that does not match its ruleId, a message that is not one
 * line of text). Without any log, one with no results.
 * KC_MERGE_HTML: a self-contained page (a Content-Security-Policy, no script) listing the shards, with links to
 * their own pages where kc_merge_write copied them (shards/N.html), and every function: name, file, shard,
 * FLOPs, bytes, exactness, measured, predicted, its verdict against the baseline. */
int kc_merge_render(struct kc_merge *m, enum kc_merge_output what, struct kc_buf *b);

/* Write report.json, summary.md, kcost.sarif and index.html into dir, with the rules of every report's directory
 * (reporter/output.h: new, empty or a kcost report; locked; each file under a temporary name, never through a
 * link, renamed), after copying each input's index.html to shards/N.html (N from 1, in order) and the graphs its
 * functions name to graphs/, under the names of the merged report; a file that cannot be read (missing, not a
 * regular file, a link) is a warning. Pages and graphs of an earlier report in dir that this one does not name
 * are removed, and so is a roofline.svg (the merge draws none: it has no analysis). 0; -1 when dir or a file in
 * it could not be written, -2 when out of memory, with *err naming the path and why (static storage). */
int kc_merge_write(struct kc_merge *m, const char *dir, const char **err);

/* The warnings, one line each, "kcost merge: warning: ...", escaped for a terminal. */
void kc_merge_render_problems(const struct kc_merge *m, struct kc_buf *b);

/* Free the merge (NULL is ignored); the inputs stay the caller's. */
void kc_merge_free(struct kc_merge *m);

#endif

/* output.h — internal to reporter/: what every output module shares with report.c, which runs them: the
 * facts of the run an output records, the sink its text goes to, the pieces of it another thread rendered,
 * and the report's directory every file is written into. Knows nothing of any particular output. */
#ifndef KC_OUTPUT_H
#define KC_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis.h"
#include "buf.h"

/* How the report was produced, from kc_report_opts, resolved once by report.c for every output. */
struct kc_output_meta {
	const char *version;        /* kcost's version; never NULL ("unknown") */
	const char *const *command; /* argv of the kcost run; NULL when n_command is 0 */
	int n_command;
	const char *created; /* ISO-8601 UTC time of the report; never NULL */
	int no_run;          /* --no-run: measurement was not requested */
};

/* Where a long output goes: text is appended to *b, and when out is not NULL, kc_output_drain empties b into
 * out as it fills. The files of a large report run to megabytes; a buffer that held one whole would touch
 * fresh memory at every doubling, which costs more than writing the file. */
struct kc_output_sink {
	struct kc_buf *b;
	FILE *out;  /* NULL: everything stays in b */
	int errnum; /* of the first failed write; 0 if none */
};

#define KC_OUTPUT_CHUNK (64u << 10)
/* Write what b holds to out and empty b: always when `all`, else once it passes KC_OUTPUT_CHUNK. A failed
 * write sets s->errnum (the first one only) and the text is dropped. Does nothing when s->out is NULL. */
void kc_output_drain(struct kc_output_sink *s, int all);

/* The pieces of one output (function i's JSON object or HTML section) that another thread renders. The
 * writing thread renders the functions claim(ctx) hands it, in order from the first, until it returns -1;
 * after wait(ctx), text[i] holds function i's piece for every later function (s NULL: the writing thread
 * renders it after all). */
struct kc_output_text {
	const char *s;
	size_t len;
};
struct kc_output_pieces {
	int (*claim)(void *ctx);
	void (*wait)(void *ctx);
	const struct kc_output_text *text;
	void *ctx;
};

/* Go through the reported functions of an (skipped ones left out) in order, calling emit(ctx, i, text) with
 * text NULL for those this thread renders (those p->claim hands it, or all when p is NULL), and after
 * p->wait with the other thread's text of the rest (NULL where it has none). Stops at the first emit that
 * returns < 0 and returns that, else 0; p->wait is called even then. */
int kc_output_each_piece(const struct kc_output_pieces *p, const struct kc_analysis *an,
                         int (*emit)(void *ctx, int i, const struct kc_output_text *text), void *ctx);

/* ---- the report's directory ------------------------------------------------------------------------------
 *
 * The one way the report's files are written. The directory (kcost's -o) is used only when it is new, empty,
 * or a previous kcost report: it holds KC_OUTPUT_MARKER (written before any other file) or, from kcost
 * versions before the marker, a report.json whose first bytes name "kcost_version". Anything else (`/`, a home
 * directory, a source tree) is refused before a file is written. While open, the directory is locked
 * (flock(LOCK_EX) on its descriptor; where the file system has no locks it goes on unlocked): a second kcost
 * writing the same report waits, so the files in it are always those of one run. Every file is created under
 * a temporary name, relative to the directory's descriptor, with O_CREAT|O_EXCL|O_NOFOLLOW, then renamed over
 * its name: a symbolic link planted at either name is replaced, never written through, and a reader never
 * sees half a file. Under the lock, temporaries found in the directory are a killed kcost's and removed. */

#define KC_OUTPUT_MARKER ".kcost-report"

/* The subdirectories a report may have, each holding files of its own kinds: graphs/ (a function's dataflow
 * graph, .svg and .dot) and shards/ (`kcost merge`: the pages of the reports merged, .html). */
enum kc_output_sub { KC_OUTPUT_GRAPHS, KC_OUTPUT_SHARDS, KC_OUTPUT_SUBS };

struct kc_output_dir {
	const char *path;           /* as given, for messages */
	int fd;                     /* the directory, locked; -1 when it could not be opened */
	int sub_fd[KC_OUTPUT_SUBS]; /* its subdirectories, -1 until kc_output_dir_sub opens them */
	int locked;                 /* the lock was taken (0: the file system has none) */
	unsigned serial;            /* of the next temporary name */
	int internal;               /* the failure in error is kcost's own (out of memory), not the directory's */
	char error[1024];           /* the first failure: "cannot write out/report.json: No space left on device" */
};

/* Create path and its missing parents, open it, lock it, check that it may be written (see above) and mark
 * it as a kcost report. Returns 0, or -1 with d->error saying what and why ("cannot use '/' as the report
 * directory: ..."); kc_output_dir_close(d) is due either way. */
int kc_output_dir_open(struct kc_output_dir *d, const char *path);

/* Create (or keep) the subdirectory `sub` of d (graphs/, shards/) and open it; a symbolic link or a file in its
 * place is removed first. 0, or -1 with d->error set. kc_output_dir_graphs(d) is kc_output_dir_sub(d,
 * KC_OUTPUT_GRAPHS). */
int kc_output_dir_sub(struct kc_output_dir *d, enum kc_output_sub sub);
int kc_output_dir_graphs(struct kc_output_dir *d);

/* Write the file `name` of d ("graphs/<leaf>" or "shards/<leaf>" once kc_output_dir_sub has opened that
 * subdirectory) from what render(s, ctx) appends
 * to s->b, drained into the file as it fills; render returns 0, or -1 when it could not build the text (out
 * of memory: d->internal is set). Returns 0, or -1 with d->error set, the temporary removed and the file
 * under `name` as it was. */
int kc_output_dir_write(struct kc_output_dir *d, const char *name, int (*render)(struct kc_output_sink *s, void *ctx),
                        void *ctx);

/* Remove from d's subdirectory `sub` the files of its kinds (graphs/: .svg and .dot; shards/: .html) that
 * keep(ctx, leaf) does not claim: those of an earlier report, which this one does not show. Entries are unlinked,
 * never followed. 0, or -1 with d->error set. kc_output_dir_prune_graphs is the one of graphs/. */
int kc_output_dir_prune(struct kc_output_dir *d, enum kc_output_sub sub, int (*keep)(void *ctx, const char *leaf),
                        void *ctx);
int kc_output_dir_prune_graphs(struct kc_output_dir *d, int (*keep)(void *ctx, const char *leaf), void *ctx);

/* Remove the file `name` (no '/') of d, if it is there: one an earlier report wrote and this one does not
 * (`kcost merge` writes no roofline.svg). Unlinked, never followed. 0, or -1 with d->error set. */
int kc_output_dir_remove(struct kc_output_dir *d, const char *name);

/* Unlock and close d (also after a failed kc_output_dir_open). */
void kc_output_dir_close(struct kc_output_dir *d);

/* What kc_output_dir_open would refuse, as far as can be told without creating anything: 0 when path does
 * not exist, or is a directory that is empty or a kcost report and can be written; else -1 with the reason
 * in error[size]. Taken under a shared lock, so a run that is writing the directory is waited for. */
int kc_output_dir_check(const char *path, char *error, size_t size);

/* The report's time as ISO-8601 UTC ("2025-01-31T12:00:00Z") into out[size]: `given` when not NULL, else
 * $SOURCE_DATE_EPOCH when set, else now. */
void kc_output_created(const char *given, char *out, size_t size);

#endif

/* output.h — internal to reporter/: what every output module shares with report.c, which runs them: the
 * facts of the run an output records, the sink its text goes to, and the pieces of it another thread
 * rendered. Knows nothing of any particular output. */
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

#endif

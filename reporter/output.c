/* output.c — the plumbing every output shares: draining a sink into its file, walking the pieces of two
 * threads in the order of the functions. */
#include "output.h"

#include <errno.h>

void kc_output_drain(struct kc_output_sink *s, int all)
{
	if (!s->out || (!all && s->b->len < KC_OUTPUT_CHUNK))
		return;
	if (s->b->len && fwrite(s->b->data, 1, s->b->len, s->out) != s->b->len && !s->errnum)
		s->errnum = errno ? errno : EIO;
	kc_buf_reset(s->b);
}

int kc_output_each_piece(const struct kc_output_pieces *p, const struct kc_analysis *an,
                         int (*emit)(void *ctx, int i, const struct kc_output_text *text), void *ctx)
{
	int i, next = 0, rc = 0;
	while (rc >= 0 && p && (i = p->claim(p->ctx)) >= 0) { /* ours, from the first */
		next = i + 1;
		if (!an->functions[i]->skip)
			rc = emit(ctx, i, NULL);
	}
	if (p)
		p->wait(p->ctx); /* even after a failure: the other thread is done with its pieces */
	for (i = next; i < an->n_functions && rc >= 0; i++)
		if (!an->functions[i]->skip)
			rc = emit(ctx, i, p && p->text[i].s ? &p->text[i] : NULL);
	return rc < 0 ? rc : 0;
}

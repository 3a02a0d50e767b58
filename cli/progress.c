/* progress.c — a single self-overwriting status line on stderr. */
#include <stdio.h>

#include "buf.h"
#include "progress.h"
#include "visible.h"

static int enabled, shown;

void kc_progress_init(int on)
{
	enabled = on;
}

void kc_progress(const char *step, int i, int n, const char *what)
{
	if (!enabled)
		return;
	static struct kc_buf shown_what = KC_BUF_INIT; /* a function's or a file's name: the user's text */
	kc_buf_reset(&shown_what);
	kc_visible_puts(&shown_what, what);
	if (n > 0)
		fprintf(stderr, "\r\033[Kkcost: %s [%d/%d] %s", step, i, n, kc_buf_str(&shown_what));
	else
		fprintf(stderr, "\r\033[Kkcost: %s %s", step, kc_buf_str(&shown_what));
	fflush(stderr);
	shown = 1;
}

void kc_progress_done(void)
{
	if (enabled && shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	shown = 0;
}

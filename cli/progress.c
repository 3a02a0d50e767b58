/* progress.c — a single self-overwriting status line on stderr. */
#include <stdio.h>

#include "progress.h"

static int enabled, shown;

void kc_progress_init(int on)
{
	enabled = on;
}

void kc_progress(const char *step, int i, int n, const char *what)
{
	if (!enabled)
		return;
	if (n > 0)
		fprintf(stderr, "\r\033[Kkcost: %s [%d/%d] %s", step, i, n, what ? what : "");
	else
		fprintf(stderr, "\r\033[Kkcost: %s %s", step, what ? what : "");
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

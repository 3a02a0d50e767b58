/* check.c — the failure path of KC_ASSERT and KC_BUG. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

void kc_check_fail(const char *file, int line, const char *what, const char *msg)
{
	fflush(stdout);
	if (what)
		fprintf(stderr, "kcost: internal error at %s:%d: assertion failed: %s\n", file, line, what);
	else
		fprintf(stderr, "kcost: internal error at %s:%d: %s\n", file, line, msg ? msg : "unreachable");
	abort();
}

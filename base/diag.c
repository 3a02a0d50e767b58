/* diag.c — compiler-style diagnostics (chibicc's error_tok, clang's caret line). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

struct kc_diag *kc_diag_add(struct kc_arena *a, struct kc_diags *list, struct kc_loc loc, enum kc_severity sev,
                            const char *function, const char *fmt, ...)
{
	struct kc_diag *d = KC_NEW(a, struct kc_diag);
	va_list ap;
	va_start(ap, fmt);
	char *msg = kc_arena_vprintf(a, fmt, ap);
	va_end(ap);
	d->loc = loc;
	d->severity = sev;
	d->message = msg;
	d->function = function;
	if (list->tail)
		list->tail->next = d;
	else
		list->head = d;
	list->tail = d;
	if (sev == KC_ERROR)
		list->errors++;
	else if (sev == KC_WARNING)
		list->warnings++;
	return d;
}

const char *kc_severity_name(enum kc_severity sev)
{
	switch (sev) {
	case KC_NOTE:
		return "note";
	case KC_WARNING:
		return "warning";
	case KC_ERROR:
		return "error";
	}
	return "error";
}

static const char *severity_color(enum kc_severity sev)
{
	switch (sev) {
	case KC_NOTE:
		return "\033[1;36m";
	case KC_WARNING:
		return "\033[1;35m";
	case KC_ERROR:
		return "\033[1;31m";
	}
	return "";
}

static void print_caret_line(FILE *out, const char *src, size_t len, unsigned col, int color)
{
	if (len > 4095) /* as much as a terminal line can show */
		len = 4095;
	fprintf(out, "%.*s\n", (int)len, src);
	/* Keep tabs so the caret lines up with the source as the terminal shows it. */
	for (unsigned i = 1; i < col && i <= len && src[i - 1]; i++)
		fputc(src[i - 1] == '\t' ? '\t' : ' ', out);
	fprintf(out, "%s^%s\n", color ? "\033[1;32m" : "", color ? "\033[0m" : "");
}

void kc_diag_print(FILE *out, const struct kc_diag *d, int color)
{
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	const char *sevc = color ? severity_color(d->severity) : "";
	if (d->loc.file && d->loc.line)
		fprintf(out, "%s%s:%u:%u: ", bold, d->loc.file, d->loc.line, d->loc.col ? d->loc.col : 1);
	else if (d->loc.file)
		fprintf(out, "%s%s: ", bold, d->loc.file);
	else
		fprintf(out, "%skcost: ", bold);
	fprintf(out, "%s%s:%s%s %s%s\n", sevc, kc_severity_name(d->severity), reset, bold, d->message, reset);
	const char *text;
	size_t len;
	if (d->loc.file && d->loc.line && kc_source_line(kc_source_get(d->loc.file), d->loc.line, &text, &len) == 0)
		print_caret_line(out, text, len, d->loc.col ? d->loc.col : 1, color);
}

void kc_diags_print(FILE *out, const struct kc_diags *list, int color)
{
	for (const struct kc_diag *d = list->head; d; d = d->next)
		kc_diag_print(out, d, color);
}

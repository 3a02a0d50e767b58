/* diag.c — compiler-style diagnostics (chibicc's error_tok, clang's caret line). */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct kc_diag *kc_diag_add(struct kc_arena *a, struct kc_diags *list, struct kc_loc loc, enum kc_severity sev,
                            const char *function, const char *fmt, ...)
{
	struct kc_diag *d = KC_NEW(a, struct kc_diag);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *msg = kc_arena_alloc(a, n > 0 ? (size_t)n + 1 : 1);
	va_start(ap, fmt);
	vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
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
	case KC_NOTE: return "note";
	case KC_WARNING: return "warning";
	case KC_ERROR: return "error";
	}
	return "error";
}

/* Copy line `line` (1-based) of `path` into buf without its newline; 0 if it cannot be read. */
static int read_source_line(const char *path, unsigned line, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned at = 1;
	int c;
	size_t len = 0;
	while ((c = fgetc(f)) != EOF) {
		if (at == line) {
			if (c == '\n')
				break;
			if (len + 1 < size)
				buf[len++] = (char)c;
		} else if (c == '\n' && ++at > line) {
			break;
		}
	}
	fclose(f);
	buf[len] = '\0';
	return at == line;
}

static const char *severity_color(enum kc_severity sev)
{
	switch (sev) {
	case KC_NOTE: return "\033[1;36m";
	case KC_WARNING: return "\033[1;35m";
	case KC_ERROR: return "\033[1;31m";
	}
	return "";
}

static void print_caret_line(FILE *out, const char *src, unsigned col, int color)
{
	fprintf(out, "%s\n", src);
	/* Keep tabs so the caret lines up with the source as the terminal shows it. */
	for (unsigned i = 1; i < col && src[i - 1]; i++)
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
	char src[4096];
	if (d->loc.file && d->loc.line && read_source_line(d->loc.file, d->loc.line, src, sizeof src))
		print_caret_line(out, src, d->loc.col ? d->loc.col : 1, color);
}

void kc_diags_print(FILE *out, const struct kc_diags *list, int color)
{
	for (const struct kc_diag *d = list->head; d; d = d->next)
		kc_diag_print(out, d, color);
}

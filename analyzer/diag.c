/* diag.c — compiler-style diagnostics (chibicc's error_tok, clang's caret line). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

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

/* The file diagnostics were last printed from, with its lines: a run's diagnostics mostly come from one
 * file, which is read once instead of once per diagnostic. Printing happens on one thread. */
static struct {
	char *path;
	struct kc_buf text;
	size_t *starts;
	unsigned n;
} last_source;

/* Copy line `line` (1-based) of `path` into buf without its end (lines as clang counts them); 0 if it
 * cannot be read. */
static int read_source_line(const char *path, unsigned line, char *buf, size_t size)
{
	if (!last_source.path || strcmp(last_source.path, path) != 0) {
		free(last_source.path);
		free(last_source.starts);
		kc_buf_reset(&last_source.text);
		last_source.path = strdup(path);
		last_source.starts = NULL;
		last_source.n = 0;
		if (last_source.path && kc_buf_read_file(&last_source.text, path, (size_t)64 << 20) == 0)
			last_source.starts = kc_line_starts(kc_buf_str(&last_source.text), last_source.text.len, &last_source.n);
	}
	if (!last_source.starts || line < 1 || line > last_source.n)
		return 0;
	const char *s = last_source.text.data + last_source.starts[line - 1];
	size_t len = last_source.starts[line] - last_source.starts[line - 1];
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 1;
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

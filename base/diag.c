/* diag.c — compiler-style diagnostics (chibicc's error_tok, clang's caret line). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "source.h"
#include "visible.h"

struct kc_diag *kc_diag_add(struct kc_arena *a, struct kc_diags *list, struct kc_loc loc, enum kc_severity sev,
                            enum kc_diag_kind kind, const char *function, const char *fmt, ...)
{
	struct kc_diag *d = KC_NEW(a, struct kc_diag);
	va_list ap;
	va_start(ap, fmt);
	char *msg = kc_arena_vprintf(a, fmt, ap);
	va_end(ap);
	d->loc = loc;
	d->severity = sev;
	d->kind = kind;
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

static int same_diag(const struct kc_diag *x, const struct kc_diag *y)
{
	return x->severity == y->severity && x->loc.line == y->loc.line && x->loc.col == y->loc.col &&
	       (x->loc.file == y->loc.file || (x->loc.file && y->loc.file && !strcmp(x->loc.file, y->loc.file))) &&
	       !strcmp(x->message, y->message);
}

void kc_diags_drop_repeats(struct kc_diags *list, const struct kc_diag *mark)
{
	struct kc_diag *prev = (struct kc_diag *)mark, *d = mark ? mark->next : list->head;
	while (d) {
		int seen = 0;
		for (const struct kc_diag *e = list->head; e != d && !seen; e = e->next)
			seen = same_diag(e, d);
		if (!seen) {
			prev = d;
			d = d->next;
			continue;
		}
		if (d->severity == KC_ERROR)
			list->errors--;
		else if (d->severity == KC_WARNING)
			list->warnings--;
		struct kc_diag *next = d->next;
		if (prev)
			prev->next = next;
		else
			list->head = next;
		if (list->tail == d)
			list->tail = prev;
		d = next;
	}
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

/* Append the character at s (`left` bytes remain) to b for a terminal, in the visible forms of
 * reporter/escape.h (docs/architecture.md, Conventions): `\n`, `\xNN` for each byte of another control
 * character and for a byte that is not UTF-8, `\uNNNN` for a reordering character; a tab stays a tab when
 * keep_tab. File names, messages and source lines come from the user: none may move the cursor, recolour
 * the terminal, reorder the line or start a line of its own. Returns the bytes covered; *columns is how wide
 * the terminal shows what was appended (a tab counts 0: the caret line copies it). */
static int put_visible(struct kc_buf *b, const unsigned char *s, size_t left, int keep_tab, size_t *columns)
{
	int n;
	enum kc_char_kind kind = kc_visible_classify(s, left, &n);
	size_t before = b->len;
	if (*s == '\t' && keep_tab) {
		kc_buf_putc(b, '\t');
		*columns = 0;
		return n;
	}
	kc_visible_put(b, s, n, kind);
	/* a code point is one column (wide East Asian characters are not told apart); a visible form, its text */
	*columns = kind == KC_CHAR_PLAIN ? 1 : b->len - before;
	return n;
}

/* A NUL-terminated user string (a file name, a message) for a terminal. */
static void put_text(struct kc_buf *b, const char *s)
{
	size_t columns, left = strlen(s);
	while (left) {
		int n = put_visible(b, (const unsigned char *)s, left, 0, &columns);
		s += n;
		left -= (size_t)n;
	}
}

/* The source line for a terminal, then a line with a caret under byte `col` (1-based) of it: the caret line
 * copies the tabs before the column, so that it lines up however wide the terminal shows them, and has a
 * space for each other column. */
static void put_caret_line(struct kc_buf *b, const char *src, size_t len, unsigned col, int color)
{
	if (len > 4095) { /* as much as a terminal line can show, not cutting a character */
		len = 4095;
		while (len && ((unsigned char)src[len] & 0xC0) == 0x80)
			len--;
	}
	struct kc_buf caret = KC_BUF_INIT;
	for (size_t i = 0, columns; i < len;) {
		int n = put_visible(b, (const unsigned char *)src + i, len - i, 1, &columns);
		if (i + 1 < col) {
			if (src[i] == '\t')
				kc_buf_putc(&caret, '\t');
			for (size_t k = 0; k < columns; k++)
				kc_buf_putc(&caret, ' ');
		}
		i += (size_t)n;
	}
	kc_buf_printf(b, "\n%s%s^%s\n", kc_buf_str(&caret), color ? "\033[1;32m" : "", color ? "\033[0m" : "");
	kc_buf_release(&caret);
}

void kc_diag_print(FILE *out, const struct kc_diag *d, int color)
{
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	const char *sevc = color ? severity_color(d->severity) : "";
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, bold);
	put_text(&b, d->loc.file ? d->loc.file : "kcost");
	if (d->loc.file && d->loc.line)
		kc_buf_printf(&b, ":%u:%u", d->loc.line, d->loc.col ? d->loc.col : 1);
	kc_buf_printf(&b, ": %s%s:%s%s ", sevc, kc_severity_name(d->severity), reset, bold);
	put_text(&b, d->message ? d->message : "");
	kc_buf_printf(&b, "%s\n", reset);
	const char *text;
	size_t len;
	if (d->loc.file && d->loc.line && kc_source_line(kc_source_get(d->loc.file), d->loc.line, &text, &len) == 0)
		put_caret_line(&b, text, len, d->loc.col ? d->loc.col : 1, color);
	fputs(kc_buf_str(&b), out);
	kc_buf_release(&b);
}

void kc_diags_print(FILE *out, const struct kc_diags *list, int color)
{
	for (const struct kc_diag *d = list->head; d; d = d->next)
		kc_diag_print(out, d, color);
}

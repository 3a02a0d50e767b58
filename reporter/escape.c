/* escape.c — HTML/SVG, Markdown, SARIF and terminal escaping of user-derived text. */
#include "escape.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "visible.h"

/* The HTML replacement of c, or NULL when c is written as it is. */
static const char *html_entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	case '\t':
	case '\n':
	case '\r':
		return NULL;
	}
	return c < 0x20 || c == 0x7f ? "\xef\xbf\xbd" : NULL;
}

/* special[c]: c ends the string (0) or html_entity has a replacement for it. The source listing of a large
 * report is megabytes: one table look-up per byte. */
static const unsigned char special[256] = {
    [0] = 1,  [1] = 1,  [2] = 1,   [3] = 1,   [4] = 1,    [5] = 1,   [6] = 1,   [7] = 1,    [8] = 1,
    [11] = 1, [12] = 1, [14] = 1,  [15] = 1,  [16] = 1,   [17] = 1,  [18] = 1,  [19] = 1,   [20] = 1,
    [21] = 1, [22] = 1, [23] = 1,  [24] = 1,  [25] = 1,   [26] = 1,  [27] = 1,  [28] = 1,   [29] = 1,
    [30] = 1, [31] = 1, ['"'] = 1, ['&'] = 1, ['\''] = 1, ['<'] = 1, ['>'] = 1, [0x7f] = 1,
};

void kc_escape_html(struct kc_buf *b, const char *s)
{
	if (!s)
		return;
	const char *run = s; /* start of the pending run of characters that need no escaping */
	for (;; s++) {
		while (!special[(unsigned char)*s])
			s++;
		if (!*s)
			break;
		const char *ent = html_entity((unsigned char)*s);
		kc_buf_add(b, run, (size_t)(s - run));
		kc_buf_puts(b, ent);
		run = s + 1;
	}
	kc_buf_add(b, run, (size_t)(s - run));
}

/* GitHub turns some text into links and notifications: `@name` mentions a user or a team, `#12` refers to
 * an issue (and leaves a back-link there), `www.` and `scheme://` start links, `a@b.c` is a mail link. A
 * zero-width space (`&#8203;`, as Renovate does) after `@`, after `#` before a digit, after `www` before `.`
 * and after `:` before `//` breaks each pattern and shows nothing. Returns the bytes of s consumed. */
static int md_break_link(struct kc_buf *b, const char *s, const char *start)
{
	int word_start = s == start || !isalnum((unsigned char)s[-1]);
	if (*s == '@' || (*s == '#' && isdigit((unsigned char)s[1])) || (*s == ':' && s[1] == '/' && s[2] == '/')) {
		kc_buf_putc(b, *s);
		kc_buf_puts(b, "&#8203;");
		return 1;
	}
	if (word_start && strncasecmp(s, "www.", 4) == 0) {
		kc_buf_add(b, s, 3);
		kc_buf_puts(b, "&#8203;");
		return 3;
	}
	return 0;
}

/* Markdown text for kc_escape_md_cell (one_line 0) and kc_escape_md_inline (one_line 1). */
static void md_text(struct kc_buf *b, const char *s, int one_line)
{
	const char *start = s;
	while (s && *s) {
		const unsigned char *u = (const unsigned char *)s;
		int n, linked;
		enum kc_char_kind kind = kc_visible_classify(u, SIZE_MAX, &n);
		if (*s == '\n' && !one_line)
			kc_buf_puts(b, "<br>");
		else if (*s == '&' || *s == '<' || *s == '>')
			kc_buf_puts(b, *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : "&gt;");
		else if (strchr("\\|*_`[]~", *s))
			kc_buf_printf(b, "\\%c", *s);
		else if ((linked = md_break_link(b, s, start)) > 0)
			n = linked;
		else if (one_line || kind == KC_CHAR_REORDER)
			kc_visible_put(b, u, n, kind);
		else if (kind != KC_CHAR_CONTROL || *s == '\t')
			kc_buf_add(b, s, (size_t)n); /* in a cell, other controls are dropped, stray bytes kept */
		s += n;
	}
}

void kc_escape_md_cell(struct kc_buf *b, const char *s)
{
	md_text(b, s, 0);
}

void kc_escape_md_inline(struct kc_buf *b, const char *s)
{
	md_text(b, s, 1);
}

/* 1 when s holds a character a code span cannot show: a backtick or a line break would end it, and
 * controls, stray bytes and reordering characters would pass into the page unseen. A tab is fine. */
static int code_span_unsafe(const char *s)
{
	int n;
	for (; *s; s += n)
		if (*s == '`' ||
		    (kc_visible_classify((const unsigned char *)s, SIZE_MAX, &n) != KC_CHAR_PLAIN && *s != '\t'))
			return 1;
	return 0;
}

void kc_escape_md_code(struct kc_buf *b, const char *s)
{
	if (!s)
		return;
	if (code_span_unsafe(s)) {
		kc_escape_md_inline(b, s);
		return;
	}
	kc_buf_putc(b, '`');
	for (; *s; s++)
		if (*s == '|')
			kc_buf_puts(b, "\\|");
		else
			kc_buf_putc(b, *s);
	kc_buf_putc(b, '`');
}

void kc_escape_sarif_text(struct kc_buf *b, const char *s)
{
	struct kc_buf form = KC_BUF_INIT;
	int n;
	for (; s && *s; s += n) {
		const unsigned char *u = (const unsigned char *)s;
		enum kc_char_kind kind = kc_visible_classify(u, SIZE_MAX, &n);
		const char *text = s;
		size_t len = (size_t)n;
		if (kind != KC_CHAR_PLAIN) {
			kc_buf_reset(&form);
			kc_visible_put(&form, u, n, kind);
			text = kc_buf_str(&form);
			len = form.len;
		}
		for (size_t i = 0; i < len; i++) {
			if (text[i] == '\\' || text[i] == '[' || text[i] == ']')
				kc_buf_putc(b, '\\');
			kc_buf_putc(b, text[i]);
		}
	}
	kc_buf_release(&form);
}

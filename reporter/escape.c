/* escape.c — HTML/SVG, Markdown and terminal escaping of user-derived text. */
#include "escape.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

/* The code point of the well-formed n-byte UTF-8 sequence at s (n from kc_escape_utf8_len). */
static unsigned code_point(const unsigned char *s, int n)
{
	static const unsigned char lead_bits[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	unsigned cp = s[0] & lead_bits[n];
	for (int i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/* Characters that reorder or break the text around them without being seen: the bidirectional marks,
 * embeddings, overrides and isolates ("Trojan Source", CVE-2021-42574: a name can make a table row read
 * backwards) and the line and paragraph separators U+2028/U+2029. */
static int reorders_text(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

enum char_kind {
	PLAIN,   /* shown as it is */
	CONTROL, /* C0 (newline and tab included), DEL, C1 */
	STRAY,   /* a byte that does not start a well-formed UTF-8 sequence */
	REORDER, /* reorders_text */
};

/* What the character at u is; *n is the number of bytes it covers (1 for a stray byte). */
static enum char_kind classify(const unsigned char *u, int *n)
{
	*n = kc_escape_utf8_len(u);
	if (*n == 0) {
		*n = 1;
		return STRAY;
	}
	if (*u < 0x20 || *u == 0x7f || (u[0] == 0xC2 && u[1] < 0xA0))
		return CONTROL;
	return *n >= 2 && reorders_text(code_point(u, *n)) ? REORDER : PLAIN;
}

/* Append the visible form of the n bytes at u of that kind: `\n` for a newline, `\xNN` for each byte of
 * another control and for a stray byte, `\uNNNN` for a reordering character. */
static void put_visible(struct kc_buf *b, const unsigned char *u, int n, enum char_kind kind)
{
	if (kind == PLAIN)
		kc_buf_add(b, (const char *)u, (size_t)n);
	else if (kind == REORDER)
		kc_buf_printf(b, "\\u%04x", code_point(u, n));
	else if (*u == '\n')
		kc_buf_puts(b, "\\n");
	else
		for (int i = 0; i < n; i++)
			kc_buf_printf(b, "\\x%02x", u[i]);
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
		enum char_kind kind = classify(u, &n);
		if (*s == '\n' && !one_line)
			kc_buf_puts(b, "<br>");
		else if (*s == '&' || *s == '<' || *s == '>')
			kc_buf_puts(b, *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : "&gt;");
		else if (strchr("\\|*_`[]~", *s))
			kc_buf_printf(b, "\\%c", *s);
		else if ((linked = md_break_link(b, s, start)) > 0)
			n = linked;
		else if (one_line || kind == REORDER)
			put_visible(b, u, n, kind);
		else if (kind != CONTROL || *s == '\t')
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
		if (*s == '`' || (classify((const unsigned char *)s, &n) != PLAIN && *s != '\t'))
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

/* Length of the well-formed UTF-8 sequence at s (1 to 4 bytes), or 0 when s does not start one. */
int kc_escape_utf8_len(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : s[0] < 0xF5 ? 4 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, code points above U+10FFFF */
	if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) || (s[0] == 0xF0 && s[1] < 0x90) ||
	    (s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* s for a terminal: every control, reordering character and stray byte in its visible form. */
void kc_escape_terminal(struct kc_buf *b, const char *s)
{
	int n;
	for (; s && *s; s += n)
		put_visible(b, (const unsigned char *)s, n, classify((const unsigned char *)s, &n));
}

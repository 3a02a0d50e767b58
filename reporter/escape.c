/* escape.c — HTML/SVG, Markdown and terminal escaping of user-derived text. */
#include "escape.h"

#include <string.h>

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

void kc_escape_md_cell(struct kc_buf *b, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		if (*s == '\n')
			kc_buf_puts(b, "<br>");
		else if (*s == '&' || *s == '<' || *s == '>')
			kc_buf_puts(b, *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : "&gt;");
		else if (strchr("\\|*_`[]~", *s))
			kc_buf_printf(b, "\\%c", *s);
		else if ((unsigned char)*s >= 0x20 || *s == '\t')
			kc_buf_putc(b, *s);
	}
}

void kc_escape_md_code(struct kc_buf *b, const char *s)
{
	if (!s)
		return;
	if (strpbrk(s, "`\n\r")) {
		kc_escape_md_cell(b, s);
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

/* s for a terminal: a newline as \n, other control characters (C1 included) and bytes that are not UTF-8 as
 * \xNN, so no escape sequence reaches the terminal. */
void kc_escape_terminal(struct kc_buf *b, const char *s)
{
	while (s && *s) {
		const unsigned char *u = (const unsigned char *)s;
		int n = kc_escape_utf8_len(u);
		int c1 = n == 2 && u[0] == 0xC2 && u[1] < 0xA0;
		if (*s == '\n')
			kc_buf_puts(b, "\\n");
		else if (n == 0 || *u < 0x20 || *u == 0x7f || c1)
			kc_buf_printf(b, "\\x%02x", *u);
		else
			kc_buf_add(b, s, (size_t)n);
		s += n && !c1 ? n : 1;
	}
}

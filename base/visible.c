/* visible.c — the visible forms of controls, stray bytes and reordering characters (visible.h). */
#include "visible.h"

#include <stdint.h>

int kc_visible_utf8_len(const unsigned char *s, size_t left)
{
	int n = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : s[0] < 0xF5 ? 4 : 0;
	if ((size_t)n > left)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, code points above U+10FFFF */
	if (n > 1 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
	              (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
		return 0;
	return n;
}

/* The code point of the well-formed n-byte UTF-8 sequence at s. */
static unsigned code_point(const unsigned char *s, int n)
{
	static const unsigned char lead_bits[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	unsigned cp = s[0] & lead_bits[n];
	for (int i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

static int reorders_text(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

enum kc_char_kind kc_visible_classify(const unsigned char *s, size_t left, int *n)
{
	*n = kc_visible_utf8_len(s, left);
	if (*n == 0) {
		*n = 1;
		return KC_CHAR_STRAY;
	}
	if (*s < 0x20 || *s == 0x7f || (s[0] == 0xC2 && s[1] < 0xA0))
		return KC_CHAR_CONTROL;
	return *n >= 2 && reorders_text(code_point(s, *n)) ? KC_CHAR_REORDER : KC_CHAR_PLAIN;
}

void kc_visible_put(struct kc_buf *b, const unsigned char *s, int n, enum kc_char_kind kind)
{
	if (kind == KC_CHAR_PLAIN)
		kc_buf_add(b, (const char *)s, (size_t)n);
	else if (kind == KC_CHAR_REORDER)
		kc_buf_printf(b, "\\u%04x", code_point(s, n));
	else if (*s == '\n')
		kc_buf_puts(b, "\\n");
	else
		for (int i = 0; i < n; i++)
			kc_buf_printf(b, "\\x%02x", s[i]);
}

void kc_visible_puts(struct kc_buf *b, const char *s)
{
	int n;
	for (; s && *s; s += n) {
		enum kc_char_kind kind = kc_visible_classify((const unsigned char *)s, SIZE_MAX, &n);
		kc_visible_put(b, (const unsigned char *)s, n, kind);
	}
}

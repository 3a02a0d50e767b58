/* visible.h — user text made visible: what a terminal or a rendered page would otherwise act on or hide.
 *
 * Names, file paths, messages and source lines come from the user's code. Shown as they are, a control
 * character could move the cursor or recolour the terminal, a newline could start a forged line of its own,
 * and a bidirectional override could make a row read backwards ("Trojan Source", CVE-2021-42574). Their
 * visible forms (docs/architecture.md, Conventions): `\n` for a newline; `\xNN` for each byte of another
 * control character (C0 including tab, DEL, C1) and for each byte that is not well-formed UTF-8; `\uNNNN`
 * for the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069) and the line and paragraph separators U+2028/U+2029. Hex digits are lowercase; backslashes
 * are not doubled (the forms are for reading, not for decoding back). */
#ifndef KC_VISIBLE_H
#define KC_VISIBLE_H

#include <stddef.h>

#include "buf.h"

enum kc_char_kind {
	KC_CHAR_PLAIN,   /* shown as it is */
	KC_CHAR_CONTROL, /* C0 (newline and tab included), DEL, C1 */
	KC_CHAR_STRAY,   /* a byte that does not start a well-formed UTF-8 sequence */
	KC_CHAR_REORDER, /* a bidirectional control or a line/paragraph separator */
};

/* Length of the well-formed UTF-8 sequence at s within `left` bytes (1 to 4), or 0 when s does not start
 * one: a stray continuation byte, an overlong form, a UTF-16 surrogate, a code point above U+10FFFF, a
 * sequence cut by the end. For a NUL-terminated s, left may be SIZE_MAX (the NUL ends any sequence). */
int kc_visible_utf8_len(const unsigned char *s, size_t left);

/* What the character at s (within `left` bytes) is; *n is the number of bytes it covers (1 for a stray
 * byte). */
enum kc_char_kind kc_visible_classify(const unsigned char *s, size_t left, int *n);

/* Append the n bytes at s, of that kind, in their visible form (PLAIN ones as they are). */
void kc_visible_put(struct kc_buf *b, const unsigned char *s, int n, enum kc_char_kind kind);

/* Append the NUL-terminated s with every character in its visible form; s == NULL appends nothing. */
void kc_visible_puts(struct kc_buf *b, const char *s);

#endif

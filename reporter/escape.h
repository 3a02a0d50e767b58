/* escape.h — escaping user-derived text (paths, names, messages, source lines) for HTML, SVG, Markdown and
 * terminals.
 * JSON strings are escaped by cJSON and need nothing from here. */
#ifndef KC_ESCAPE_H
#define KC_ESCAPE_H

#include "buf.h"

/* Append s to b safe for HTML/XML text and for single- or double-quoted attribute values:
 * & < > " ' become &amp; &lt; &gt; &quot; &#39;. Control characters other than tab, newline and carriage
 * return (which XML forbids) become U+FFFD. Used for SVG text too. s == NULL appends nothing. */
void kc_escape_html(struct kc_buf *b, const char *s);

/* Append s to b safe for one cell of a GitHub-flavoured Markdown table (also fine in a list item): & < > become
 * entities, so no HTML tag can form (GitHub renders inline HTML; quotes are harmless outside a tag and stay
 * readable); backslash, | and the emphasis/link/code characters * _ ` [ ] ~ are backslash-escaped; a newline
 * becomes <br>; other control characters (carriage return included) are dropped. */
void kc_escape_md_cell(struct kc_buf *b, const char *s);

/* Append s to b as an inline code span usable in a table cell: `s` with | written \| (GFM requires it even in
 * code spans). Text containing a backtick or a newline is written with kc_escape_md_cell instead. */
void kc_escape_md_code(struct kc_buf *b, const char *s);

/* Append s to b safe for a terminal: a newline as \n, other control characters (C1 included) and bytes that
 * are not UTF-8 as \xNN, so no escape sequence can pass. s == NULL appends nothing. */
void kc_escape_terminal(struct kc_buf *b, const char *s);

/* Length of the well-formed UTF-8 sequence at s (1 to 4 bytes), or 0 when s does not start one (a stray
 * continuation byte, an overlong form, a UTF-16 surrogate, a code point above U+10FFFF, a truncated sequence). */
int kc_escape_utf8_len(const unsigned char *s);

#endif

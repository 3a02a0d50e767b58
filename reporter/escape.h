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

/* The visible form of a character that must not reach a terminal or a page as it is (docs/architecture.md,
 * Conventions): a newline is `\n`; each byte of another control character (C0, DEL, C1) and each byte that is
 * not UTF-8 is `\xNN`; a character that reorders or breaks text unseen (the bidirectional marks, embeddings,
 * overrides and isolates U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, and the separators U+2028,
 * U+2029) is `\uNNNN`, hex in lowercase. A backslash is not doubled: the forms make the text visible, they
 * are not meant to be decoded back. */

/* Append s to b safe for one cell of a GitHub-flavoured Markdown table (also fine in a list item): & < > become
 * entities, so no HTML tag can form (GitHub renders inline HTML; quotes are harmless outside a tag and stay
 * readable); backslash, | and the emphasis/link/code characters * _ ` [ ] ~ are backslash-escaped; GitHub's
 * links and notifications cannot form: a zero-width space `&#8203;` follows `@` (mentions, mail links), `#`
 * before a digit (issue references), `www` before `.` and `:` before `//` (links); a newline becomes <br>;
 * reordering characters take their visible form; other control characters (carriage return included) are
 * dropped. s == NULL appends nothing. */
void kc_escape_md_cell(struct kc_buf *b, const char *s);

/* The same as kc_escape_md_cell, but the text stays on one line and shows everything: a newline and every
 * other control character take their visible form. For names (a function, a file) that must not pass for
 * lines of their own. */
void kc_escape_md_inline(struct kc_buf *b, const char *s);

/* Append s to b as an inline code span usable in a table cell: `s` with | written \| (GFM requires it even in
 * code spans). Text containing a backtick, a control character other than tab, a byte that is not UTF-8 or
 * a reordering character is written with kc_escape_md_inline instead. */
void kc_escape_md_code(struct kc_buf *b, const char *s);

/* Append s to b for the text of a SARIF message (a plain text message, SARIF 2.1.0 section 3.11.3): every
 * character a terminal would act on or hide in its visible form, as kc_visible_puts writes it, so the text is
 * one line and reads as it is; then `\`, `[` and `]` with a backslash before them, so that no `[text](n)`
 * in the user's text is taken for an embedded link (section 3.11.6) and a consumer that unescapes them shows
 * the text as written. JSON's own escaping is cJSON's. s == NULL appends nothing. */
void kc_escape_sarif_text(struct kc_buf *b, const char *s);

/* For a terminal: kc_visible_puts (base/visible.h). */

#endif

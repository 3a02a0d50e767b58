/* buf.h — growable byte buffer for all emitted text (JSON aside, which cJSON writes). */
#ifndef KC_BUF_H
#define KC_BUF_H

#include <stddef.h>

struct kc_buf {
	char *data; /* always NUL-terminated when len > 0 or after kc_buf_init */
	size_t len, cap;
};

#define KC_BUF_INIT {0, 0, 0}

void kc_buf_add(struct kc_buf *b, const char *s, size_t len);
void kc_buf_puts(struct kc_buf *b, const char *s);
void kc_buf_putc(struct kc_buf *b, char c);
void kc_buf_printf(struct kc_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* Append the whole of file `path` (at most `max` bytes). 0, or -1 with errno set: the file cannot be opened
 * or read, or it is larger than max (EFBIG); b then holds what was read. */
int kc_buf_read_file(struct kc_buf *b, const char *path, size_t max);
/* Where the lines of text[0 .. len) begin, as clang counts lines (and so the analysis's line numbers): a line
 * ends at "\n", "\r\n" or a lone "\r", and a last line may lack its end. Returns a malloc'd array of n + 1
 * offsets, the last one len (line k, 1-based, is text[starts[k - 1] .. starts[k]) with its end), and sets
 * *n; NULL on out-of-memory. */
size_t *kc_line_starts(const char *text, size_t len, unsigned *n);
/* Make the storage at least `cap` bytes (contents kept). */
void kc_buf_reserve(struct kc_buf *b, size_t cap);
/* Empty the buffer, keeping its storage. */
void kc_buf_reset(struct kc_buf *b);
/* The contents as a C string ("" for an empty buffer); owned by the buffer. */
const char *kc_buf_str(const struct kc_buf *b);
/* Give the storage to the caller (free() it); the buffer is empty afterwards. */
char *kc_buf_detach(struct kc_buf *b);
void kc_buf_release(struct kc_buf *b);

#endif

/* buf.h — growable byte buffer for all emitted text (JSON aside, which cJSON writes). Bytes only: reading
 * files and splitting lines is source.h's. */
#ifndef KC_BUF_H
#define KC_BUF_H

#include <stdarg.h>
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
/* kc_buf_printf with the arguments of a variadic caller (a function that formats a message and keeps it). */
void kc_buf_vprintf(struct kc_buf *b, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 0)))
#endif
    ;
/* Append v in the fewest significant digits (15 to 17) that read back as v with strtod: 1e-05, not
 * 1.0000000000000001e-05. */
void kc_buf_double(struct kc_buf *b, double v);
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

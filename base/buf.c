/* buf.c — growable byte buffer. Aborts on out-of-memory like the arena. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void grow(struct kc_buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p) {
		fprintf(stderr, "kcost: fatal: out of memory (%zu bytes)\n", cap);
		abort();
	}
	b->data = p;
	b->cap = cap;
}

void kc_buf_reserve(struct kc_buf *b, size_t cap)
{
	if (cap > b->len + 1)
		grow(b, cap - b->len - 1);
}

void kc_buf_add(struct kc_buf *b, const char *s, size_t len)
{
	grow(b, len);
	memcpy(b->data + b->len, s, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void kc_buf_puts(struct kc_buf *b, const char *s)
{
	kc_buf_add(b, s, strlen(s));
}

void kc_buf_putc(struct kc_buf *b, char c)
{
	grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void kc_buf_vprintf(struct kc_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	grow(b, 64); /* most texts fit: one formatting pass instead of two */
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	if (n > 0 && (size_t)n >= b->cap - b->len) {
		grow(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	if (n <= 0) {
		b->data[b->len] = '\0';
		return;
	}
	b->len += (size_t)n;
}

void kc_buf_printf(struct kc_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kc_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void kc_buf_reset(struct kc_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

const char *kc_buf_str(const struct kc_buf *b)
{
	return b->data ? b->data : "";
}

char *kc_buf_detach(struct kc_buf *b)
{
	char *p = b->data;
	if (!p) {
		p = malloc(1);
		if (!p)
			abort();
		p[0] = '\0';
	}
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void kc_buf_release(struct kc_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void kc_buf_double(struct kc_buf *b, double v)
{
	char text[40];
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(text, sizeof text, "%.*g", digits, v);
		if (strtod(text, NULL) == v)
			break;
	}
	kc_buf_puts(b, text);
}

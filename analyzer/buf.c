/* buf.c — growable byte buffer. Aborts on out-of-memory like the arena. */
#include "buf.h"

#include <errno.h>
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

int kc_buf_read_file(struct kc_buf *b, const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t start = b->len, n;
	int rc = 0;
	do {
		grow(b, 64 * 1024); /* room for a large read; doubles the storage as the file goes on */
		n = fread(b->data + b->len, 1, b->cap - b->len - 1, f);
		b->len += n;
		b->data[b->len] = '\0';
		if (b->len - start > max) {
			errno = EFBIG;
			rc = -1;
		}
	} while (n > 0 && rc == 0);
	if (rc == 0 && ferror(f)) {
		errno = errno ? errno : EIO;
		rc = -1;
	}
	int saved = errno;
	fclose(f);
	errno = saved;
	return rc;
}

/* Just past the line end at text[i], or 0 when no line ends there. */
static size_t line_end(const char *text, size_t len, size_t i)
{
	if (text[i] == '\n')
		return i + 1;
	if (text[i] == '\r')
		return i + 1 < len && text[i + 1] == '\n' ? i + 2 : i + 1;
	return 0;
}

size_t *kc_line_starts(const char *text, size_t len, unsigned *n)
{
	size_t *starts = NULL;
	for (int pass = 0; pass < 2; pass++) { /* count, then fill */
		size_t start = 0, e;
		unsigned k = 0;
		for (size_t i = 0; i < len; i++)
			if ((e = line_end(text, len, i))) {
				if (starts)
					starts[k] = start;
				k++;
				start = e;
				i = e - 1;
			}
		if (start < len) {
			if (starts)
				starts[k] = start;
			k++;
		}
		if (starts) {
			starts[k] = len;
			*n = k;
		} else if (!(starts = malloc(sizeof *starts * ((size_t)k + 1)))) {
			return NULL;
		}
	}
	return starts;
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

void kc_buf_puts(struct kc_buf *b, const char *s) { kc_buf_add(b, s, strlen(s)); }

void kc_buf_putc(struct kc_buf *b, char c)
{
	grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void kc_buf_printf(struct kc_buf *b, const char *fmt, ...)
{
	va_list ap;
	grow(b, 64); /* most texts fit: one formatting pass instead of two */
	va_start(ap, fmt);
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n <= 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n < b->cap - b->len) {
		b->len += (size_t)n;
		return;
	}
	grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void kc_buf_reset(struct kc_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

const char *kc_buf_str(const struct kc_buf *b) { return b->data ? b->data : ""; }

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

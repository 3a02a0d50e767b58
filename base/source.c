/* source.c — the process's one cache of source files and their line starts. */
#include "source.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct entry {
	struct kc_source src;
	struct stat st; /* the file when it was read: a file rewritten since is read again */
	struct entry *next;
};

static struct entry *sources;
static pthread_mutex_t sources_mu = PTHREAD_MUTEX_INITIALIZER;

static struct entry *source_read(const char *path)
{
	struct entry *e = calloc(1, sizeof *e);
	char *copy = strdup(path);
	if (!e || !copy) {
		free(e);
		free(copy);
		return NULL;
	}
	e->src.path = copy;
	if (stat(path, &e->st) < 0)
		memset(&e->st, 0, sizeof e->st);
	struct kc_buf text = KC_BUF_INIT;
	size_t *starts = NULL;
	if (kc_buf_read_file(&text, path, KC_SOURCE_MAX_BYTES) < 0) {
		e->src.error = errno ? errno : EIO;
	} else if (!(starts = kc_line_starts(kc_buf_str(&text), text.len, &e->src.n_lines))) {
		e->src.error = ENOMEM;
	} else {
		e->src.len = text.len;
		e->src.text = text.len ? kc_buf_detach(&text) : strdup("");
		e->src.line_start = starts;
		if (!e->src.text) {
			free(starts);
			e->src.line_start = NULL;
			e->src.n_lines = 0;
			e->src.error = ENOMEM;
		}
	}
	if (!e->src.text)
		e->src.n_lines = 0;
	kc_buf_release(&text);
	return e;
}

const struct kc_source *kc_source_get(const char *path)
{
	struct entry *e;
	pthread_mutex_lock(&sources_mu);
	for (e = sources; e && strcmp(e->src.path, path) != 0; e = e->next)
		;
	struct stat st;
	if (e && stat(path, &st) == 0 &&
	    (st.st_size != e->st.st_size || st.st_mtim.tv_sec != e->st.st_mtim.tv_sec ||
	     st.st_mtim.tv_nsec != e->st.st_mtim.tv_nsec || st.st_ino != e->st.st_ino))
		e = NULL; /* rewritten: read it again (the old text stays valid for those who hold it) */
	if (!e && (e = source_read(path))) {
		e->next = sources;
		sources = e;
	}
	pthread_mutex_unlock(&sources_mu);
	return e ? &e->src : NULL;
}

int kc_source_line(const struct kc_source *s, unsigned line, const char **text, size_t *len)
{
	if (!s || !s->text || line < 1 || line > s->n_lines)
		return -1;
	const char *t = s->text + s->line_start[line - 1];
	size_t n = s->line_start[line] - s->line_start[line - 1];
	while (n && (t[n - 1] == '\n' || t[n - 1] == '\r'))
		n--;
	*text = t;
	*len = n;
	return 0;
}

unsigned kc_source_line_of(const struct kc_source *s, size_t offset)
{
	if (!s || !s->n_lines)
		return 0;
	unsigned lo = 0, hi = s->n_lines - 1; /* the last line that starts at or before offset */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo + 1) / 2;
		if (s->line_start[mid] <= offset)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo + 1;
}

void kc_sources_release(void)
{
	pthread_mutex_lock(&sources_mu);
	while (sources) {
		struct entry *e = sources;
		sources = e->next;
		free((char *)e->src.path);
		free((char *)e->src.text);
		free((size_t *)e->src.line_start);
		free(e);
	}
	pthread_mutex_unlock(&sources_mu);
}

int kc_buf_read_file(struct kc_buf *b, const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t start = b->len, n;
	int rc = 0;
	do {
		kc_buf_reserve(b,
		               b->len + 64 * 1024 + 1); /* room for a large read; doubles the storage as it goes on */
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

/* source.h — source files read whole and split into lines, once per process.
 *
 * Every stage that shows or locates source text reads it here: the front end (offsets to lines and columns),
 * the diagnostics (the line under a caret) and the HTML listing. Lines end as clang ends them — "\n", "\r\n"
 * or a lone "\r" — so all three number lines the same way. */
#ifndef KC_SOURCE_H
#define KC_SOURCE_H

#include <stddef.h>

#include "buf.h"

/* Files larger than this are not read (kc_source_get reports EFBIG). */
#define KC_SOURCE_MAX_BYTES ((size_t)64 << 20)

/* One file's text and lines. `text` is NUL-terminated; line k (1-based) is text[line_start[k - 1] ..
 * line_start[k]) with its end. When the file could not be read, text is NULL, n_lines 0 and `error` the
 * errno. */
struct kc_source {
	const char *path;
	const char *text;
	size_t len;
	const size_t *line_start; /* n_lines + 1 offsets, the last one len */
	unsigned n_lines;
	int error;
};

/* The file at `path` (spelled as the caller spells it), read and split on first use and kept until
 * kc_sources_release; read again when its size, modification time or inode has changed since. Safe to call from several
 * threads. Never NULL (an unreadable file has text NULL); NULL only on out-of-memory. */
const struct kc_source *kc_source_get(const char *path);

/* Line `line` (1-based) of s without its end: sets *text and *len and returns 0; -1 when there is no such line. */
int kc_source_line(const struct kc_source *s, unsigned line, const char **text, size_t *len);

/* The 1-based line holding byte `offset` (the last line for an offset past the end); 0 when s has no lines. */
unsigned kc_source_line_of(const struct kc_source *s, size_t offset);

/* Forget every file read (the pointers handed out become invalid). */
void kc_sources_release(void);

/* Append the whole of file `path` (at most `max` bytes). 0, or -1 with errno set: the file cannot be opened
 * or read, or it is larger than max (EFBIG); b then holds what was read. */
int kc_buf_read_file(struct kc_buf *b, const char *path, size_t max);

/* Where the lines of text[0 .. len) begin, as clang counts lines (and so the analysis's line numbers): a line
 * ends at "\n", "\r\n" or a lone "\r", and a last line may lack its end. Returns a malloc'd array of n + 1
 * offsets, the last one len (line k, 1-based, is text[starts[k - 1] .. starts[k]) with its end), and sets
 * *n; NULL on out-of-memory. */
size_t *kc_line_starts(const char *text, size_t len, unsigned *n);

#endif
